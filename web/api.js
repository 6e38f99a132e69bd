// vramcalc JS API: the one shape of the engine's API in JavaScript, for the page and the widget
// (window.vramcalc, web/vramcalc.js; web/pack.mjs puts this file inside app.js) and for the JS
// library (createVramCalc(), web/lib/entry.js; web/pack.mjs puts it inside vramcalc.mjs/.js).
// vramcalcApi(engine) wraps the Embind functions of web/engine_bindings.cpp (`engine` is the
// Emscripten module) into:
//
//   estimate(config)                  -> the result `vramcalc --format json` prints
//   solve(config, 'max_batch')        -> what `vramcalc solve max_batch --format json` prints
//   suggest(config)                   -> what `vramcalc suggest --format json` prints
//   fitModels(config)                 -> what `vramcalc fit-models --format json` prints
//   resolveConfig(config)             -> the config with every field (--print-config)
//   importModel(bytes | text, name, size) -> what `vramcalc --model-file F --print-import` prints
//   importFile(file)                  -> a Promise of the same for a File/Blob, reading only its header (File.slice)
//   importFiles(files)                -> a Promise of several files of one model merged (a FileList or an array of
//                                        File/Blob, each read as importFile reads it, its header parsed once): what `vramcalc --model-file A
//                                        --model-file B --print-import` prints
//   presets(), gpus(), questions()    -> the catalogs
//   plan({...config, plan: {gpus, fabric}}) -> what `vramcalc plan --format json` prints
//   fabrics()                         -> the interconnect and node catalogs
//   version, schemaVersion
//
// Errors are values, never exceptions: {ok: false, error: {field, message}}, `field` naming the
// config field by its dotted path ("batch", "model.layers"), "config" for the document itself,
// "question" for solve's question, and "" for an internal failure of the engine. Configs are plain
// objects (or JSON text); docs/config.md lists the fields, docs/embed.md the API, and
// web/lib/vramcalc.d.ts declares it.

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
const VRAMCALC_MAX_FILES = 256;  // io/model_import.hpp kMaxImportFiles

// Bytes for importModel: a Uint8Array (or other typed array / ArrayBuffer) as it is, a string as UTF-8.
function vramcalcImportBytes(data) {
    if (typeof data === 'string') return new TextEncoder().encode(data);
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return null;
}

function vramcalcApi(engine) {
    // Every call: strings in, a JSON document out (its text, or the document read already: the JS
    // library's engine.estimateResult, web/lib/entry.js); a trap in the engine becomes a value.
    function call(fn) {
        let out;
        try {
            out = fn();
        } catch (e) {
            return vramcalcFailure('', 'internal error in the vramcalc engine: ' + (e && e.message ? e.message : String(e)));
        }
        return typeof out === 'string' ? JSON.parse(out) : out;
    }
    // A function this build does not export (the page leaves some out, web/engine_bindings.cpp).
    function missing(name) {
        return typeof engine[name] === 'function' ? null :
            vramcalcFailure('', name + '() is not in this build of vramcalc (the page); the JS library has it (docs/embed.md)');
    }
    function withConfig(config, fn) {
        const text = vramcalcConfigText(config);
        return typeof text === 'string' ? call(function () { return fn(text); }) : text;
    }
    function isFile(file) { return !!file && typeof file.slice === 'function' && typeof file.size === 'number'; }
    // A file's header: a slice, imported; when the header runs past it, the rest of the prefix asked
    // for (only the bytes not read yet) after it, imported again. Resolves to the import document.
    // With `id` (importFiles), the engine keeps what it read under that import for the merge.
    function readHeader(file, id) {
        const name = typeof file.name === 'string' ? file.name : '';
        function attempt(have, length, round) {
            return file.slice(have.length, length).arrayBuffer().then(function (buffer) {
                let bytes = new Uint8Array(buffer);
                if (have.length > 0) {
                    bytes = new Uint8Array(have.length + buffer.byteLength);
                    bytes.set(have);
                    bytes.set(new Uint8Array(buffer), have.length);
                }
                const result = id === undefined ? api.importModel(bytes, name, file.size)
                    : call(function () { return engine.importPart(id, bytes, name, file.size); });
                const more = !result.ok && result.need_bytes > bytes.length && bytes.length < file.size && round < VRAMCALC_MAX_SLICES;
                return more ? attempt(bytes, Math.min(result.need_bytes, file.size), round + 1) : result;
            }, function (e) {
                return vramcalcFailure('import', name + ': the file could not be read: ' + (e && e.message ? e.message : String(e)));
            });
        }
        return attempt(new Uint8Array(0), Math.min(file.size, VRAMCALC_FIRST_SLICE), 1);
    }
    const api = {
        version: engine.version(),
        schemaVersion: engine.schemaVersion(),
        estimate: function (config) {
            return withConfig(config, engine.estimateResult || function (text) { return engine.estimate(text); });
        },
        solve: function (config, question) {
            if (typeof question !== 'string') {
                return vramcalcFailure('question', 'question must be a string (one of questions()), got ' +
                    (question === null ? 'null' : typeof question));
            }
            return withConfig(config, function (text) { return engine.solve(text, question); });
        },
        suggest: function (config) {
            return missing('suggest') || withConfig(config, function (text) { return engine.suggest(text); });
        },
        fitModels: function (config) {
            return missing('fitModels') || withConfig(config, function (text) { return engine.fitModels(text); });
        },
        resolveConfig: function (config) {
            return missing('resolveConfig') || withConfig(config, function (text) { return engine.resolveConfig(text); });
        },
        importModel: function (data, name, size) {
            const absent = missing('importModel');
            if (absent) return absent;
            const bytes = vramcalcImportBytes(data);
            if (!bytes) {
                return vramcalcFailure('import', 'importModel takes a Uint8Array, an ArrayBuffer or JSON text, got ' +
                    (data === null ? 'null' : typeof data));
            }
            const fileSize = typeof size === 'number' && Number.isFinite(size) && size >= bytes.length ? size : bytes.length;
            return call(function () { return engine.importModel(bytes, typeof name === 'string' ? name : '', fileSize); });
        },
        importFile: function (file) {
            const absent = missing('importModel');
            if (absent) return Promise.resolve(absent);
            if (!isFile(file)) return Promise.resolve(vramcalcFailure('import', 'importFile takes a File or Blob'));
            return readHeader(file);
        },
        importFiles: function (files) {
            const absent = missing('importPart');
            if (absent) return Promise.resolve(absent);
            const list = files && typeof files === 'object' && typeof files.length === 'number' ? Array.from(files) : null;
            if (!list || list.length === 0 || list.length > VRAMCALC_MAX_FILES) {
                return Promise.resolve(vramcalcFailure('import', 'importFiles takes a FileList or an array of 1 to ' + VRAMCALC_MAX_FILES +
                    ' Files or Blobs, got ' + (list ? list.length + ' entries' : files === null ? 'null' : typeof files)));
            }
            for (let i = 0; i < list.length; i++) {
                if (!isFile(list[i])) return Promise.resolve(vramcalcFailure('import', 'importFiles: entry ' + i + ' is not a File or Blob'));
            }
            // Each file's header as importFile reads it, one file after the other, parsed once: the engine
            // keeps what it read under this import's id and merges it (io/ merge_imports, the CLI's rules).
            // A file that cannot be read is the answer, naming it.
            const id = engine.importBegin();
            const read = [];
            let chain = Promise.resolve(null);
            list.forEach(function (file) {
                chain = chain.then(function (failure) {
                    if (failure) return failure;
                    return readHeader(file, id).then(function (result) {
                        read.push(result);
                        return result.ok ? null : result;
                    });
                });
            });
            return chain.then(function (failure) {
                if (failure || read.length === 1) {
                    engine.importEnd(id);
                    return failure || read[0];
                }
                return call(function () { return engine.importMerge(id); });
            }, function (e) {
                engine.importEnd(id);
                throw e;
            });
        },
        presets: function () { return missing('presets') || call(function () { return engine.presets(); }); },
        gpus: function () { return missing('gpus') || call(function () { return engine.gpus(); }); },
        questions: function () { return call(function () { return engine.questions(); }); },
        plan: function (request) {
            return missing('plan') || withConfig(request, function (text) { return engine.plan(text); });
        },
        fabrics: function () { return missing('fabrics') || call(function () { return engine.fabrics(); }); },
    };
    return api;
}
