// vramcalc shell: entry point. A GLFW window with a GL ES 3 (WebGL2) or desktop GL 3 context, Dear
// ImGui, and a main loop that draws only after an input or a resize (plus the few frames ImGui needs
// to settle) and is otherwise idle: on the web the main loop is paused, natively it waits for events.
// What differs between the page and the desktop (the context, the canvas's backing store and pixel
// ratio, the wheel and resize events, the browser's main loop) is behind platform.hpp
// (web/platform_web.cpp, shell/platform_native.cpp); the page's build defines GLFW_INCLUDE_ES3.
//
// [SECTIONS]
//   loop       frame requests and the idle state
//   input      GLFW callbacks, scaled to CSS pixels, forwarded to ImGui
//   surface    the drawing surface's size and pixel ratio, the fonts rasterized for it
//   frame      one frame
//   main       set-up and the loop
#include <GLFW/glfw3.h>

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

struct Loop {
    GLFWwindow* window = nullptr;
    int frames_to_draw = kSettleFrames;
    vc::shell::platform::Surface surface;  // measured at each frame
    float font_ratio = 0;          // the ratio the font atlas was rasterized for (0: none yet)
    bool extras_due = false;       // the first frame is drawn: the rest of the results come at the next iteration
};
Loop g_loop;

}  // namespace

void vc::shell::platform::request_frames() {
    g_loop.frames_to_draw = kSettleFrames;
    vc::shell::app().idle = false;
    vc::shell::platform::resume_main_loop();
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
    ImGui_ImplGlfw_CursorPosCallback(w, x / g_loop.surface.pixel_ratio, y / g_loop.surface.pixel_ratio);
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
    vc::shell::platform::cursor_enter(w, entered);
}
void on_focus(GLFWwindow* w, int focused) {
    request_frames();
    ImGui_ImplGlfw_WindowFocusCallback(w, focused);
}
void on_size(GLFWwindow*, int, int) { request_frames(); }
void on_refresh(GLFWwindow*) { request_frames(); }

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
    vc::shell::platform::install_events(w);
}

// [SECTION] surface -------------------------------------------------------------------------------
// Measures the drawing surface (platform.hpp) and rasterizes the fonts again when its pixel ratio changed.
void sync_surface() {
    g_loop.surface = vc::shell::platform::measure_surface(g_loop.window);
    const float font_ratio = g_loop.surface.font_ratio;
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
    const vc::shell::platform::Surface& sf = g_loop.surface;
    io.DisplaySize = ImVec2(static_cast<float>(sf.css_w), static_cast<float>(sf.css_h));
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(sf.fb_w / sf.css_w), static_cast<float>(sf.fb_h / sf.css_h));
    ImGui::NewFrame();
    vc::shell::ui_draw(vc::shell::app());
    ImGui::Render();
    glViewport(0, 0, sf.fb_w, sf.fb_h);
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
        vc::shell::platform::pause_main_loop();
        vc::shell::app().idle = true;
        return;
    }
    vc::shell::App& a = vc::shell::app();
    // The first frame showed the estimate; the rest of the results are computed here, at the start
    // of the next iteration, and drawn by it: not in the first frame's browser task, which the
    // browser presents as soon as it returns (README "Benchmark").
    if (g_loop.extras_due) {
        g_loop.extras_due = false;
        a.defer_extras = false;
        vc::shell::complete_results(a);
    }
    const unsigned long version = a.version;
    draw_frame();
    --g_loop.frames_to_draw;
    if (a.defer_extras) {
        g_loop.extras_due = true;
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

bool loop_idle() { return g_loop.frames_to_draw <= 0; }

}  // namespace

// [SECTION] main ----------------------------------------------------------------------------------
int main() {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) return 1;
    const char* glsl_version = vc::shell::platform::context_hints();
    int start_w = kStartWidthPx, start_h = kStartHeightPx;
    vc::shell::platform::start_size(start_w, start_h);
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

    vc::shell::platform::run_main_loop(g_loop.window, loop_iteration, loop_idle);  // on the web: never returns
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(g_loop.window);
    glfwTerminate();
    return 0;
}
