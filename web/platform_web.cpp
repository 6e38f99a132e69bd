// vramcalc web: the shell's platform services (shell/platform.hpp) in the browser. Each is a thin
// EM_JS call into the page's glue (window.vramcalcHost in web/vramcalc.js), which owns the DOM:
// the clipboard, downloads, history and the accessible summary.
// NOTE: the page's glue is linked with Closure (--closure 1), which renames every property it sees
// written unquoted: names defined outside app.js (the host's, the import's) are quoted here.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>

#include <imgui.h>

#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>

#include "io/text_input.hpp"
#include "shell/platform.hpp"

// clang-format off
EM_JS(void, vc_copy_text, (const char* text), { window['vramcalcHost']['copyText'](UTF8ToString(text)); });
EM_JS(void, vc_download, (const char* name, const char* mime, const char* content), {
    window['vramcalcHost']['download'](UTF8ToString(name), UTF8ToString(mime), UTF8ToString(content));
});
EM_JS(void, vc_publish, (const char* fragment, const char* summary, int replace), {
    window['vramcalcHost']['publish'](UTF8ToString(fragment), UTF8ToString(summary), replace !== 0);
});
// Writes the string into buf (capacity cap) and returns its UTF-8 length (without the NUL).
EM_JS(int, vc_page_url, (char* buf, int cap), {
    const s = window['vramcalcHost']['pageUrl']();
    stringToUTF8(s, buf, cap);
    return lengthBytesUTF8(s);
});
EM_JS(int, vc_initial_fragment, (char* buf, int cap), {
    const s = window['vramcalcHost']['initialFragment']();
    stringToUTF8(s, buf, cap);
    return lengthBytesUTF8(s);
});
EM_JS(int, vc_prefers_dark, (), { return window['vramcalcHost']['prefersDark']() ? 1 : 0; });
EM_JS(int, vc_pick_model_file, (), {
    const picker = window['vramcalcImport'] && window['vramcalcImport']['pick'];
    return picker ? (picker(), 1) : 0;
});
// clang-format on

namespace {

// Reads a string from one of the EM_JS functions above, growing the buffer once if needed, to at
// most `max` bytes (a longer one is cut: its length is known before anything is copied).
template <typename F>
std::string read_string(F f, std::size_t max = 1u << 20) {
    std::string s(256, '\0');
    int n = f(s.data(), static_cast<int>(s.size()));
    if (n >= static_cast<int>(s.size())) {
        if (static_cast<std::size_t>(n) > max) n = static_cast<int>(max);
        s.assign(n + 1, '\0');
        n = f(s.data(), static_cast<int>(s.size()));
    }
    s.resize(std::strlen(s.c_str()));  // what was written (a cut string ends at its NUL)
    return s;
}

}  // namespace

namespace vc::shell::platform {

void copy_text(const std::string& text) { vc_copy_text(text.c_str()); }
void download(const std::string& filename, const std::string& mime, const std::string& content) {
    vc_download(filename.c_str(), mime.c_str(), content.c_str());
}
void publish(const std::string& fragment, const std::string& summary_json, bool replace) {
    vc_publish(fragment.c_str(), summary_json.c_str(), replace ? 1 : 0);
}
std::string page_url() { return read_string(vc_page_url); }
// Cut just past the limit: decode_fragment refuses a link that long whole (io/text_input.hpp).
std::string initial_fragment() { return read_string(vc_initial_fragment, vc::io::kMaxLinkChars + 1); }
bool prefers_dark() { return vc_prefers_dark() != 0; }
bool pick_model_file() { return vc_pick_model_file() != 0; }

// [SECTION] window --------------------------------------------------------------------------------
namespace {

constexpr const char* kCanvas = "#canvas";
bool g_paused = false;  // the browser's main loop is paused while idle

// Wheel events from the canvas, as ImGui's own Emscripten handler reads them (100 px = one step).
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* ev, void*) {
    float mult = ev->deltaMode == DOM_DELTA_PIXEL ? 1.0f / 100.0f : ev->deltaMode == DOM_DELTA_LINE ? 1.0f / 3.0f : 80.0f;
    ImGui::GetIO().AddMouseWheelEvent(static_cast<float>(-ev->deltaX) * mult, static_cast<float>(-ev->deltaY) * mult);
    request_frames();
    return EM_TRUE;
}
EM_BOOL on_resize(int, const EmscriptenUiEvent*, void*) {
    request_frames();
    return EM_FALSE;
}

}  // namespace

const char* context_hints() {
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    // No depth or stencil buffer: ImGui's GL3 renderer draws with scissor rectangles only
    // (imgui_impl_opengl3.cpp 1.90.1 disables GL_DEPTH_TEST and GL_STENCIL_TEST). GLFW's defaults,
    // 24 and 8 bits, become WebGL's depth and stencil attributes (Emscripten 3.1.6,
    // src/library_glfw.js createWindow), and with either Chromium's getContext waits on the GPU
    // process to check the depth-stencil framebuffer: ~18 vs ~9 ms (docs/performance.md, "The first frame").
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    return "#version 300 es";  // WebGL2
}

void start_size(int& w, int& h) {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
    const double dpr = emscripten_get_device_pixel_ratio();
    if (css_w >= 1 && css_h >= 1) {
        w = static_cast<int>(std::lround(css_w * dpr));
        h = static_cast<int>(std::lround(css_h * dpr));
    }
}

Surface measure_surface(GLFWwindow*) {
    double w = 0, h = 0;
    emscripten_get_element_css_size(kCanvas, &w, &h);
    const double dpr = emscripten_get_device_pixel_ratio();
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    const int fw = static_cast<int>(std::lround(w * dpr)), fh = static_cast<int>(std::lround(h * dpr));
    int cw = 0, ch = 0;
    emscripten_get_canvas_element_size(kCanvas, &cw, &ch);
    if (cw != fw || ch != fh) emscripten_set_canvas_element_size(kCanvas, fw, fh);
    Surface s;
    s.css_w = w;
    s.css_h = h;
    s.fb_w = fw;
    s.fb_h = fh;
    s.pixel_ratio = static_cast<float>(fw / w);
    s.font_ratio = static_cast<float>(dpr);
    return s;
}

void install_events(GLFWwindow* window) {
    emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, false, nullptr);
    emscripten_set_wheel_callback(kCanvas, nullptr, false, on_wheel);
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, false, on_resize);
    ImGui_ImplGlfw_CursorEnterCallback(window, 1);
    ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

void cursor_enter(GLFWwindow*, int entered) {
    if (!entered) ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

void run_main_loop(GLFWwindow*, void (*iteration)(), bool (*)()) {
    emscripten_set_main_loop(iteration, 0, true);  // returns to the browser; never comes back here
}

void pause_main_loop() {
    emscripten_pause_main_loop();
    g_paused = true;
}

void resume_main_loop() {
    if (!g_paused) return;
    g_paused = false;
    emscripten_resume_main_loop();
}

}  // namespace vc::shell::platform
