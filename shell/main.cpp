// vramcalc shell: entry point. A GLFW window with a GL ES 3 (WebGL2) or desktop GL 3 context, Dear
// ImGui, and a main loop that draws only after an input or a resize (plus the few frames ImGui needs
// to settle) and is otherwise idle: on the web the main loop is paused, natively it waits for events.
// On the web the canvas's backing store follows its CSS size x devicePixelRatio and the fonts are
// rasterized for that ratio, so text stays crisp on high-DPI screens.
//
// [SECTIONS]
//   loop       frame requests and the idle state
//   input      GLFW callbacks, scaled to CSS pixels, forwarded to ImGui
//   canvas     web: backing store size and pixel ratio
//   frame      one frame
//   main       set-up and the loop
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_ES3
#endif
#include <GLFW/glfw3.h>

#include <cfloat>
#include <cmath>
#include <cstdio>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // the input queue, to stay awake until ImGui has consumed every event

#include "app.hpp"
#include "platform.hpp"
#include "ui.hpp"

namespace {

// [SECTION] loop ----------------------------------------------------------------------------------
// ImGui uses sizes measured in one frame to lay out the next; after each event a few frames let
// the layout (and hover state) settle before the loop goes idle.
constexpr int kSettleFrames = 3;
constexpr int kStartWidthPx = 1280, kStartHeightPx = 860;  // native window; the page's canvas follows its element
constexpr const char* kCanvas = "#canvas";

struct Loop {
    GLFWwindow* window = nullptr;
    int frames_to_draw = kSettleFrames;
    bool paused = false;       // web: the browser's main loop is paused while idle
    double css_w = 0, css_h = 0;   // the canvas's size in CSS pixels (ImGui's coordinates)
    int fb_w = 0, fb_h = 0;        // its backing store in device pixels
    float pixel_ratio = 1;         // fb_w / css_w: device pixels per CSS pixel
    float font_ratio = 0;          // the ratio the font atlas was rasterized for
};
Loop g_loop;

}  // namespace

void vc::shell::platform::request_frames() {
    g_loop.frames_to_draw = kSettleFrames;
    vc::shell::app().idle = false;
#ifdef __EMSCRIPTEN__
    if (g_loop.paused) {
        g_loop.paused = false;
        emscripten_resume_main_loop();
    }
#endif
}

void vc::shell::wake() { platform::request_frames(); }

namespace {

using vc::shell::platform::request_frames;

// [SECTION] input ---------------------------------------------------------------------------------
// NOTE: ImGui's GLFW callbacks are installed by us (install_callbacks = false) so that every event
// wakes the loop and the cursor is scaled from the canvas's device pixels (how Emscripten's GLFW
// reports it) to CSS pixels (ImGui's coordinates).
void on_cursor_pos(GLFWwindow* w, double x, double y) {
    request_frames();
    ImGui_ImplGlfw_CursorPosCallback(w, x / g_loop.pixel_ratio, y / g_loop.pixel_ratio);
}
void on_mouse_button(GLFWwindow* w, int button, int action, int mods) {
    request_frames();
    ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
}
void on_scroll(GLFWwindow* w, double dx, double dy) {
    request_frames();
    ImGui_ImplGlfw_ScrollCallback(w, dx, dy);  // ignored by the backend on the web (see on_wheel)
}
void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
    request_frames();
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}
void on_char(GLFWwindow* w, unsigned int c) {
    request_frames();
    ImGui_ImplGlfw_CharCallback(w, c);
}
void on_cursor_enter(GLFWwindow* w, int entered) {
    request_frames();
#ifdef __EMSCRIPTEN__
    // The backend would poll the unscaled cursor while "outside": keep it "inside" and park the
    // mouse off-screen on leave instead, so nothing stays hovered.
    (void)w;
    if (!entered) ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
#else
    ImGui_ImplGlfw_CursorEnterCallback(w, entered);
#endif
}
void on_focus(GLFWwindow* w, int focused) {
    request_frames();
    ImGui_ImplGlfw_WindowFocusCallback(w, focused);
}
void on_size(GLFWwindow*, int, int) { request_frames(); }
void on_refresh(GLFWwindow*) { request_frames(); }

#ifdef __EMSCRIPTEN__
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
#endif

void install_callbacks(GLFWwindow* w) {
    glfwSetCursorPosCallback(w, on_cursor_pos);
    glfwSetMouseButtonCallback(w, on_mouse_button);
    glfwSetScrollCallback(w, on_scroll);
    glfwSetKeyCallback(w, on_key);
    glfwSetCharCallback(w, on_char);
    glfwSetCursorEnterCallback(w, on_cursor_enter);
    glfwSetWindowFocusCallback(w, on_focus);
    glfwSetWindowSizeCallback(w, on_size);
    glfwSetFramebufferSizeCallback(w, on_size);
    glfwSetWindowRefreshCallback(w, on_refresh);
#ifdef __EMSCRIPTEN__
    // The backend listens on the document, which Chrome treats as passive (its preventDefault
    // logs an error) and which would count each wheel event twice with ours: the canvas only.
    emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, false, nullptr);
    emscripten_set_wheel_callback(kCanvas, nullptr, false, on_wheel);
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, false, on_resize);
    ImGui_ImplGlfw_CursorEnterCallback(w, 1);
    ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
#endif
}

// [SECTION] canvas --------------------------------------------------------------------------------
// Measures the drawing surface: on the web the canvas's CSS size and the screen's pixel ratio (and
// resizes the backing store to match); natively the window and framebuffer sizes.
void sync_surface() {
#ifdef __EMSCRIPTEN__
    double w = 0, h = 0;
    emscripten_get_element_css_size(kCanvas, &w, &h);
    const double dpr = emscripten_get_device_pixel_ratio();
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    const int fw = static_cast<int>(std::lround(w * dpr)), fh = static_cast<int>(std::lround(h * dpr));
    int cw = 0, ch = 0;
    emscripten_get_canvas_element_size(kCanvas, &cw, &ch);
    if (cw != fw || ch != fh) emscripten_set_canvas_element_size(kCanvas, fw, fh);
    g_loop.css_w = w;
    g_loop.css_h = h;
    g_loop.fb_w = fw;
    g_loop.fb_h = fh;
    g_loop.pixel_ratio = static_cast<float>(fw / w);
    const float font_ratio = static_cast<float>(dpr);
#else
    int w = 0, h = 0;
    glfwGetWindowSize(g_loop.window, &w, &h);
    glfwGetFramebufferSize(g_loop.window, &g_loop.fb_w, &g_loop.fb_h);
    g_loop.css_w = w > 0 ? w : 1;
    g_loop.css_h = h > 0 ? h : 1;
    g_loop.pixel_ratio = 1;  // GLFW reports the cursor in window coordinates
    const float font_ratio = static_cast<float>(g_loop.fb_w / g_loop.css_w);
#endif
    if (std::fabs(font_ratio - g_loop.font_ratio) > 0.01f) {
        const bool had_texture = g_loop.font_ratio > 0;
        g_loop.font_ratio = font_ratio;
        vc::shell::ui_set_pixel_ratio(font_ratio);
        if (had_texture) {
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
}

// [SECTION] frame ---------------------------------------------------------------------------------
void draw_frame() {
    sync_surface();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(g_loop.css_w), static_cast<float>(g_loop.css_h));
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(g_loop.fb_w / g_loop.css_w), static_cast<float>(g_loop.fb_h / g_loop.css_h));
    ImGui::NewFrame();
    vc::shell::ui_draw(vc::shell::app());
    ImGui::Render();
    glViewport(0, 0, g_loop.fb_w, g_loop.fb_h);
    float clear[4];
    vc::shell::ui_clear_color(clear);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(g_loop.window);
    vc::shell::App& a = vc::shell::app();
    a.frames_drawn++;
    if (a.results.complete) a.complete_frames++;
}

void loop_iteration() {
    glfwPollEvents();
    if (g_loop.frames_to_draw <= 0) {
#ifdef __EMSCRIPTEN__
        emscripten_pause_main_loop();
        g_loop.paused = true;
#endif
        vc::shell::app().idle = true;
        return;
    }
    const unsigned long version = vc::shell::app().version;
    draw_frame();
    --g_loop.frames_to_draw;
    // The first frame showed the estimate; the rest of the results follow on the next one.
    vc::shell::App& a = vc::shell::app();
    if (a.defer_extras) {
        a.defer_extras = false;
        vc::shell::complete_results(a);
        request_frames();
    }
    // NOTE: ImGui trickles queued input (one key or button change per frame): while events wait,
    // keep drawing, then settle. Inputs that changed during the frame are drawn by the next ones.
    if (!GImGui->InputEventsQueue.empty()) g_loop.frames_to_draw = kSettleFrames;
    if (vc::shell::app().version != version && g_loop.frames_to_draw < 2) g_loop.frames_to_draw = 2;
    // NOTE: a held mouse button repeats (+/- buttons) and drags without new events: keep drawing.
    if (ImGui::IsAnyMouseDown() && g_loop.frames_to_draw < 1) g_loop.frames_to_draw = 1;
}

void on_glfw_error(int code, const char* description) { std::fprintf(stderr, "vramcalc: GLFW error %d: %s\n", code, description); }

}  // namespace

// [SECTION] main ----------------------------------------------------------------------------------
int main() {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) return 1;
#ifdef __EMSCRIPTEN__
    const char* glsl_version = "#version 300 es";  // WebGL2
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
#else
    const char* glsl_version = "#version 130";     // desktop GL 3.0
#endif
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    int start_w = kStartWidthPx, start_h = kStartHeightPx;
#ifdef __EMSCRIPTEN__
    // The backing store at its final size from the start (a resize of a WebGL canvas reallocates it).
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
    const double dpr = emscripten_get_device_pixel_ratio();
    if (css_w >= 1 && css_h >= 1) {
        start_w = static_cast<int>(std::lround(css_w * dpr));
        start_h = static_cast<int>(std::lround(css_h * dpr));
    }
#endif
    g_loop.window = glfwCreateWindow(start_w, start_h, "vramcalc", nullptr, nullptr);
    if (!g_loop.window) {
        std::fprintf(stderr, "vramcalc: cannot create an OpenGL ES 3 / WebGL2 window\n");
        return 1;
    }
    glfwMakeContextCurrent(g_loop.window);
    glfwSwapInterval(1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    vc::shell::ui_setup();
    ImGui_ImplGlfw_InitForOpenGL(g_loop.window, false);
    install_callbacks(g_loop.window);
    sync_surface();  // loads the fonts for the screen's pixel ratio
    ImGui_ImplOpenGL3_Init(glsl_version);

    vc::shell::App& a = vc::shell::app();
    a.inputs = vc::shell::default_inputs();
    a.ui.system_dark = vc::shell::platform::prefers_dark();
    const std::string fragment = vc::shell::platform::initial_fragment();
    if (!fragment.empty()) vc::shell::apply_fragment(a, fragment);
    a.publish_replace = true;
    a.defer_extras = true;

#ifdef __EMSCRIPTEN__
    emscripten_set_main_loop(loop_iteration, 0, true);  // returns to the browser; never comes back here
#else
    while (!glfwWindowShouldClose(g_loop.window)) {
        if (g_loop.frames_to_draw <= 0) glfwWaitEvents();
        loop_iteration();
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(g_loop.window);
    glfwTerminate();
#endif
    return 0;
}
