// vramcalc JS library: createVramCalc(), the library's entry point. web/pack.mjs appends this file
// to the Emscripten factory `VramCalcModule` (built from web/engine_bindings.cpp), the inlined wasm
// (`vramcalcWasmBytes()`, one character per byte, web/pack.mjs) and web/api.js (vramcalcApi, the API shape the page
// shares), then adds the ES module or classic-script footer.
//
//   const vc = await createVramCalc();
//   vc.estimate({ params_b: 7, batch: 4 })      -> the result `vramcalc --format json` prints
//   (every member: web/api.js, docs/embed.md)

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
        engine.estimateResult = vramcalcEstimateResult(engine);
        return Object.freeze(vramcalcApi(engine));
    });
}

// estimate()'s reader (web/api.js calls it with the config's text): the result's UTF-8 as a view of
// the wasm memory (web/engine_bindings.cpp estimateBytes), decoded before the next call, parsed,
// and its GPU table's columns made the rows `vramcalc --format json` prints. Null without
// TextDecoder (a bare script context): web/api.js then reads estimate's text, rows and all.
function vramcalcEstimateResult(engine) {
    if (typeof TextDecoder !== 'function') return null;
    const decoder = new TextDecoder();
    return function (text) {
        const result = JSON.parse(decoder.decode(engine.estimateBytes(text)));
        if (result.ok) result.fits = vramcalcFitRows(result.fits);
        return result;
    };
}

// The GPU table's rows from its columns (io::estimate_json_columns): an object per GPU, its members
// in the order the CLI prints them (sorted), an optional one where its column is present and holds
// a value (not null). Issue 15: JSON.parse took ~19 us of a detailed estimate's ~100 for the 63
// rows as objects, ~9 us for the same values as columns, and these object literals ~1 us more.
function vramcalcFitRows(c) {
    const n = c.gpu.length, rows = new Array(n);
    const inside = c.gpu_within_target, mac = c.mac_needed_bytes, ram = c.needs_ram_bytes, none = c.no_backend;
    for (let i = 0; i < n; i++) {
        const hasInside = inside !== undefined && inside[i] !== null, hasMac = mac !== undefined && mac[i] !== null;
        const hasRam = ram !== undefined && ram[i] !== null, hasNone = none !== undefined && none[i] !== null;
        if (!hasInside && !hasMac && !hasRam && !hasNone) {
            rows[i] = { fits: c.fits[i], gpu: c.gpu[i], gpus_needed: c.gpus_needed[i], utilization: c.utilization[i], within_target: c.within_target[i] };
            continue;
        }
        const row = { fits: c.fits[i], gpu: c.gpu[i] };
        if (hasInside) row.gpu_within_target = inside[i];
        row.gpus_needed = c.gpus_needed[i];
        if (hasMac) row.mac_needed_bytes = mac[i];
        if (hasRam) row.needs_ram_bytes = ram[i];
        if (hasNone) row.no_backend = none[i];
        row.utilization = c.utilization[i];
        row.within_target = c.within_target[i];
        rows[i] = row;
    }
    return rows;
}
