// The bare page's Module and the first-frame hook (vramcalcTest.firstFrameMs(), as on the app's page).
'use strict';
(function () {
    let first = null;
    window.Module = {
        canvas: document.getElementById('canvas'),
        postMainLoop: () => { if (first === null) first = performance.now(); },
    };
    window.vramcalcTest = { firstFrameMs: () => first };
})();
