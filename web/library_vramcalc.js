// vramcalc web: an Emscripten JS library linked into app.js (--js-library).
// NOTE: Emscripten 3.1.6's GLFW treats glfwSetWindowSize(screen.width, screen.height) as a request
// for fullscreen (which needs a user gesture, so it fails and the canvas keeps its old size). Our
// canvas fills the window, so in a fullscreen or kiosk browser its size is the screen's: this
// override always resizes the canvas and reports the new size, never asks for fullscreen.
mergeInto(LibraryManager.library, {
    glfwSetWindowSize__deps: ['$GLFW', '$Browser'],
    glfwSetWindowSize: function(winid, width, height) {
        var win = GLFW.WindowFromId(winid);
        if (!win) return;
        if (GLFW.active.id == win.id) {
            Browser.setCanvasSize(width, height);
            win.width = width;
            win.height = height;
        }
        if (win.windowSizeFunc) {{{ makeDynCall('viii', 'win.windowSizeFunc') }}}(win.id, width, height);
    },
});
