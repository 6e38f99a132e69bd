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
        return Object.freeze(vramcalcApi(engine));
    });
}
