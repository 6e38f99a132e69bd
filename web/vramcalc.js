// vramcalc web glue: the Emscripten Module's settings and the page's JS API over the engine.
//   await vramcalc.ready
//   vramcalc.estimate(config)  config object (docs/config.md) -> result object, the same document as
//                              `vramcalc --format json`; {ok: false, error: {field, message}} on bad input
//   vramcalc.solve(config, q)  a what-fits question (vramcalc.questions() lists them) -> answer object,
//                              as `vramcalc solve q --format json`
// Test hook (read by tests/browser, no OCR): vramcalcTest.state(), .result(), .error(), .frameCount(),
// .widget(id) (the input's rectangle in CSS pixels), .firstFrameMs() (navigation to first drawn frame).
'use strict';

(function () {
    const status = document.getElementById('status');
    const canvas = document.getElementById('canvas');
    let resolveReady;
    const ready = new Promise((resolve) => { resolveReady = resolve; });
    let firstFrameMs = null;
    let runtimeReady = false;

    window.Module = {
        canvas,
        print: (text) => console.log(text),
        printErr: (text) => {
            console.error(text);
            status.textContent = text;
        },
        onRuntimeInitialized: () => {
            status.textContent = '';
            runtimeReady = true;
            resolveReady();
        },
        // Called after each main-loop iteration (the loop is paused while the page is idle).
        postMainLoop: () => {
            if (firstFrameMs === null && Module.framesDrawn() > 0) firstFrameMs = performance.now();
        },
    };

    // Keyboard input goes to the canvas: focus it on any pointer press.
    canvas.addEventListener('pointerdown', () => canvas.focus());
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());

    // Before the runtime is ready there is no state and no frame yet.
    const shellState = () => (runtimeReady ? JSON.parse(Module.shellState()) : null);

    window.vramcalc = {
        ready,
        estimate: (config) => JSON.parse(Module.estimate(JSON.stringify(config))),
        solve: (config, question) => JSON.parse(Module.solve(JSON.stringify(config), question)),
        questions: () => JSON.parse(Module.questions()),
    };

    window.vramcalcTest = {
        ready,
        state: shellState,
        result: () => shellState()?.result ?? null,
        error: () => shellState()?.error ?? null,
        frameCount: () => (runtimeReady ? Module.framesDrawn() : 0),
        widget: (id) => shellState()?.widgets[id] ?? null,
        firstFrameMs: () => firstFrameMs,
    };
})();
