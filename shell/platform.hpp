// vramcalc shell: what the shell asks of its host. On the web, web/platform_web.cpp implements
// these through the page's JS glue (web/vramcalc.js) and Emscripten's HTML5 API: the clipboard,
// downloads, the URL fragment and history, the accessible summary, the canvas and the browser's
// main loop; on the desktop shell/platform_native.cpp does through GLFW. The shell (main.cpp
// included) never touches the browser itself and has no #ifdef __EMSCRIPTEN__.
//
// [SECTION] services   clipboard, downloads, the link, colour scheme, the model-file picker
// [SECTION] window     the GL context, the drawing surface, host events and the main loop
#pragma once

#include <string>

struct GLFWwindow;

namespace vc::shell::platform {

// [SECTION] services ------------------------------------------------------------------------------

// Copies `text` to the clipboard (navigator.clipboard on the web; GLFW's clipboard is a stub).
void copy_text(const std::string& text);
// Offers `content` as a file download named `filename` (a Blob URL on the web).
void download(const std::string& filename, const std::string& mime, const std::string& content);
// Publishes the state: the URL fragment (a history entry, or a replaced one when `replace`, e.g.
// after the page followed back/forward) and the accessible summary (JSON, see state/report.hpp
// accessible_summary_json) that the page renders into its hidden aria-live region.
void publish(const std::string& fragment, const std::string& summary_json, bool replace);
// The page's address without its fragment, for links.
std::string page_url();
// The fragment the page was opened with (without '#'), read once at start.
std::string initial_fragment();
// The browser's colour-scheme preference (prefers-color-scheme: dark).
bool prefers_dark();
// Opens the browser's file picker for a model file (web/import.js reads only its header and
// imports it); false where there is none (the desktop build, a page without web/import.js).
bool pick_model_file();

// Wakes the main loop to draw (the loop is idle while nothing changes). Implemented by main.cpp.
void request_frames();

// [SECTION] window --------------------------------------------------------------------------------
// The drawing surface as main.cpp lays out a frame.
struct Surface {
    double css_w = 1, css_h = 1;  // its size in CSS pixels (ImGui's coordinates)
    int fb_w = 1, fb_h = 1;       // its backing store in device pixels
    float pixel_ratio = 1;        // GLFW's cursor position / pixel_ratio = CSS pixels
    float font_ratio = 1;         // device pixels per CSS pixel the fonts are rasterized for
};

// Sets GLFW's context hints (before glfwCreateWindow) and returns the GLSL version ImGui's GL3
// renderer compiles for: GL ES 3 / WebGL2 ("#version 300 es") on the web, desktop GL 3.0 ("#version 130").
const char* context_hints();
// The window's first size in device pixels: on the web the canvas's CSS size x devicePixelRatio (a
// WebGL canvas resize reallocates its backing store), else `w` x `h` unchanged.
void start_size(int& w, int& h);
// Measures the surface; on the web also resizes the canvas's backing store to its CSS size x
// devicePixelRatio, so text stays crisp on high-DPI screens.
Surface measure_surface(GLFWwindow* window);
// Event sources beyond GLFW's callbacks (each wakes the loop): on the web wheel events from the
// canvas alone (ImGui's backend would listen on the document, passive in Chrome, and count each
// wheel event twice) and window resizes; the cursor starts "inside", parked off-screen.
void install_events(GLFWwindow* window);
// GLFW's cursor-enter event: natively ImGui's backend takes it; on the web the cursor stays "inside"
// (the backend would poll an unscaled cursor outside) and leaving parks the mouse off-screen.
void cursor_enter(GLFWwindow* window, int entered);
// Runs `iteration` until the window closes, waiting for events while `idle()` (desktop), or hands
// it to the browser's main loop (web: never returns).
void run_main_loop(GLFWwindow* window, void (*iteration)(), bool (*idle)());
// The loop has nothing to draw: the browser's main loop pauses (natively the loop waits for events
// by itself). resume_main_loop undoes it (request_frames calls it).
void pause_main_loop();
void resume_main_loop();

}  // namespace vc::shell::platform
