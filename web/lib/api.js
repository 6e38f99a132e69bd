// vramcalc JS library: createVramCalc() over the engine's Embind functions (web/lib/bindings.cpp).
// web/pack.mjs appends this file to the Emscripten factory `VramCalcModule` and the inlined wasm
// (`vramcalcWasm`, one byte per character), then adds the ES module or classic-script footer.
//
//   const vc = await createVramCalc();
//   vc.estimate({ params_b: 7, batch: 4 })      -> the result `vramcalc --format json` prints
//   vc.solve(config, 'max_batch')               -> what `vramcalc solve max_batch --format json` prints
//   vc.resolveConfig(config)                    -> the config with every field (--print-config)
//   vc.importModel(bytes | text, name, size)    -> what `vramcalc --model-file F --print-import` prints
//   await vc.importFile(file)                   -> the same for a File/Blob, reading only its header (File.slice)
//   vc.presets(), vc.gpus(), vc.questions()     -> the catalogs
//   vc.plan({...config, plan: {gpus, fabric}})  -> what `vramcalc plan --format json` prints
//   vc.fabrics()                                -> the interconnect and node catalogs
//   vc.version, vc.schemaVersion
//
// Errors are values, never exceptions: {ok: false, error: {field, message}}, `field` naming the
// config field by its dotted path ("batch", "model.layers"), "config" for the document itself,
// "question" for solve's question, and "" for an internal failure of the engine. Configs are plain
// objects (or JSON text); docs/config.md lists the fields, docs/embed.md the API.

function vramcalcFailure(field, message) {
    return { ok: false, error: { field: field, message: message } };
}

// The first value in `v` that JSON cannot carry (NaN, Infinity, BigInt, a function, a cycle, a
// Map...), as a failure naming its path; null when `v` is plain JSON data. Object members that
// are `undefined` are left out, as JSON.stringify does (an unset field keeps its default).
function vramcalcCheckJson(v, path, seen) {
    const where = path || 'config';
    switch (typeof v) {
        case 'string':
        case 'boolean':
            return null;
        case 'number':
            return Number.isFinite(v) ? null : vramcalcFailure(where, where + ' must be a finite number, got ' + v);
        case 'bigint':
            return vramcalcFailure(where, where + ' must be a number, got a BigInt (' + v + 'n)');
        case 'undefined':
        case 'function':
        case 'symbol':
            return vramcalcFailure(where, where + ' must be a JSON value, got ' + (v === undefined ? 'undefined' : 'a ' + typeof v));
    }
    if (v === null) return null;
    if (seen.has(v)) return vramcalcFailure(where, where + ' contains itself (a cycle), which JSON cannot hold');
    const proto = Object.getPrototypeOf(v);
    if (typeof v.toJSON === 'function') {
        let converted;
        try {
            converted = v.toJSON();
        } catch (e) {
            return vramcalcFailure(where, where + ': its toJSON() failed: ' + (e && e.message ? e.message : String(e)));
        }
        seen.add(v);
        const problem = vramcalcCheckJson(converted, path, seen);
        seen.delete(v);
        return problem;
    }
    // Plain: its prototype is an Object.prototype (of any realm: an iframe's, a vm context's) or null.
    if (!Array.isArray(v) && proto !== null && Object.getPrototypeOf(proto) !== null) {
        const kind = v.constructor && v.constructor.name ? v.constructor.name : 'object';
        return vramcalcFailure(where, where + ' must be a plain object, array or JSON value, got a ' + kind);
    }
    seen.add(v);
    let problem = null;
    if (Array.isArray(v)) {
        for (let i = 0; i < v.length && !problem; i++) problem = vramcalcCheckJson(v[i], where + '[' + i + ']', seen);
    } else {
        for (const key of Object.keys(v)) {
            if (v[key] === undefined) continue;
            problem = vramcalcCheckJson(v[key], path ? path + '.' + key : key, seen);
            if (problem) break;
        }
    }
    seen.delete(v);
    return problem;
}

// The config as JSON text, or a failure. A string is taken as JSON text; no config is `{}`.
function vramcalcConfigText(config) {
    if (config === undefined) return '{}';
    if (typeof config === 'string') return config;
    const problem = vramcalcCheckJson(config, '', new Set());
    if (problem) return problem;
    try {
        return JSON.stringify(config);
    } catch (e) {
        return vramcalcFailure('config', 'the config cannot be written as JSON: ' + (e && e.message ? e.message : String(e)));
    }
}

// The first bytes read of a model file; the reader asks for more (need_bytes) when its header is longer.
const VRAMCALC_FIRST_SLICE = 4 << 20;  // 4 MiB: a config.json, a safetensors header, most of a GGUF tokenizer
const VRAMCALC_MAX_SLICES = 16;

// Bytes for importModel: a Uint8Array (or other typed array / ArrayBuffer) as it is, a string as UTF-8.
function vramcalcImportBytes(data) {
    if (typeof data === 'string') return new TextEncoder().encode(data);
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return null;
}

function vramcalcWasmBytes() {
    const bytes = new Uint8Array(vramcalcWasm.length);
    for (let i = 0; i < vramcalcWasm.length; i++) bytes[i] = vramcalcWasm.charCodeAt(i);
    return bytes;
}

/**
 * Loads the engine (about 0.3 MB of WebAssembly, carried inside this file: no request is made).
 * Resolves to the API object; rejects only when WebAssembly cannot be instantiated at all (for
 * example a Content-Security-Policy without 'wasm-unsafe-eval').
 */
function createVramCalc() {
    return VramCalcModule({
        wasmBinary: vramcalcWasmBytes(),
        print: function (text) { console.log(text); },
        printErr: function (text) { console.error(text); },
    }).then(function (engine) {
        // Every call: strings in, a JSON document out; a trap in the engine becomes a value.
        function call(fn) {
            let text;
            try {
                text = fn();
            } catch (e) {
                return vramcalcFailure('', 'internal error in the vramcalc engine: ' + (e && e.message ? e.message : String(e)));
            }
            return JSON.parse(text);
        }
        function withConfig(config, fn) {
            const text = vramcalcConfigText(config);
            return typeof text === 'string' ? call(function () { return fn(text); }) : text;
        }
        return Object.freeze({
            version: engine.version(),
            schemaVersion: engine.schemaVersion(),
            estimate: function (config) {
                return withConfig(config, function (text) { return engine.estimate(text); });
            },
            solve: function (config, question) {
                if (typeof question !== 'string') {
                    return vramcalcFailure('question', 'question must be a string (one of questions()), got ' +
                        (question === null ? 'null' : typeof question));
                }
                return withConfig(config, function (text) { return engine.solve(text, question); });
            },
            suggest: function (config) {
                return withConfig(config, function (text) { return engine.suggest(text); });
            },
            resolveConfig: function (config) {
                return withConfig(config, function (text) { return engine.resolveConfig(text); });
            },
            importModel: function (data, name, size) {
                const bytes = vramcalcImportBytes(data);
                if (!bytes) {
                    return vramcalcFailure('import', 'importModel takes a Uint8Array, an ArrayBuffer or JSON text, got ' +
                        (data === null ? 'null' : typeof data));
                }
                const fileSize = typeof size === 'number' && Number.isFinite(size) && size >= bytes.length ? size : bytes.length;
                return call(function () { return engine.importModel(bytes, typeof name === 'string' ? name : '', fileSize); });
            },
            importFile: function (file) {
                const api = this;
                if (!file || typeof file.slice !== 'function' || typeof file.size !== 'number') {
                    return Promise.resolve(vramcalcFailure('import', 'importFile takes a File or Blob'));
                }
                const name = typeof file.name === 'string' ? file.name : '';
                // Read a slice, import it; when the header runs past it, read the longer slice asked for.
                function attempt(length, round) {
                    return file.slice(0, length).arrayBuffer().then(function (buffer) {
                        const result = api.importModel(new Uint8Array(buffer), name, file.size);
                        const more = !result.ok && result.need_bytes > length && length < file.size && round < VRAMCALC_MAX_SLICES;
                        return more ? attempt(Math.min(result.need_bytes, file.size), round + 1) : result;
                    }, function (e) {
                        return vramcalcFailure('import', name + ': the file could not be read: ' + (e && e.message ? e.message : String(e)));
                    });
                }
                return attempt(Math.min(file.size, VRAMCALC_FIRST_SLICE), 1);
            },
            presets: function () { return call(function () { return engine.presets(); }); },
            gpus: function () { return call(function () { return engine.gpus(); }); },
            questions: function () { return call(function () { return engine.questions(); }); },
            plan: function (request) {
                return withConfig(request, function (text) { return engine.plan(text); });
            },
            fabrics: function () { return call(function () { return engine.fabrics(); }); },
        });
    });
}
