// vramcalc shell: entry point. A GLFW window with a GL ES 3 (WebGL2) or desktop GL 3 context, Dear
// ImGui, and a main loop that draws only after an input or a resize (plus the few frames ImGui needs
// to settle) and is otherwise idle: on the web the main loop is paused, natively it waits for events.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define GLFW_INCLUDE_ES3
#endif
#include <GLFW/glfw3.h>

#include <cstdio>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // the input queue's length (below)

#include "app.hpp"
#include "ui.hpp"

namespace {

// ImGui uses sizes measured in one frame to lay out the next; after each event a few frames let
// the layout (and hover state) settle before the loop goes idle.
constexpr int kSettleFrames = 3;
constexpr int kStartWidthPx = 1200, kStartHeightPx = 820;  // native window; the page's canvas follows its element

struct Loop {
    GLFWwindow* window = nullptr;
    int frames_to_draw = kSettleFrames;
    bool paused = false;  // web: the browser's main loop is paused while idle
};
Loop g_loop;

void request_frames() {
    g_loop.frames_to_draw = kSettleFrames;
#ifdef __EMSCRIPTEN__
    if (g_loop.paused) {
        g_loop.paused = false;
        emscripten_resume_main_loop();
    }
#endif
}

// Installed before ImGui's callbacks, which chain to these: every input event wakes the loop.
void on_cursor_pos(GLFWwindow*, double, double) { request_frames(); }
void on_mouse_button(GLFWwindow*, int, int, int) { request_frames(); }
void on_scroll(GLFWwindow*, double, double) { request_frames(); }
void on_key(GLFWwindow*, int, int, int, int) { request_frames(); }
void on_char(GLFWwindow*, unsigned int) { request_frames(); }
void on_cursor_enter(GLFWwindow*, int) { request_frames(); }
void on_focus(GLFWwindow*, int) { request_frames(); }
void on_size(GLFWwindow*, int, int) { request_frames(); }
void on_refresh(GLFWwindow*) { request_frames(); }

void install_wake_callbacks(GLFWwindow* w) {
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
}

void draw_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    vc::shell::ui_draw(vc::shell::app());
    ImGui::Render();
    int width = 0, height = 0;
    glfwGetFramebufferSize(g_loop.window, &width, &height);
    glViewport(0, 0, width, height);
    glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(g_loop.window);
    vc::shell::app().frames_drawn++;
}

void loop_iteration() {
    glfwPollEvents();
    if (g_loop.frames_to_draw <= 0) {
#ifdef __EMSCRIPTEN__
        emscripten_pause_main_loop();
        g_loop.paused = true;
#endif
        return;
    }
    draw_frame();
    --g_loop.frames_to_draw;
    // NOTE: a held mouse button repeats (+/- buttons) and drags without new events: keep drawing.
    if (ImGui::IsAnyMouseDown() && g_loop.frames_to_draw < 1) g_loop.frames_to_draw = 1;
    // NOTE: ImGui hands queued input to the UI a few events per frame (input trickling); keep
    // drawing until the queue is empty, or keys typed faster than frames wait for the next event.
    if (!ImGui::GetCurrentContext()->InputEventsQueue.empty() && g_loop.frames_to_draw < 1) g_loop.frames_to_draw = 1;
}

void on_glfw_error(int code, const char* description) { std::fprintf(stderr, "vramcalc: GLFW error %d: %s\n", code, description); }

}  // namespace

void vc::shell::wake() { request_frames(); }

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
    g_loop.window = glfwCreateWindow(kStartWidthPx, kStartHeightPx, "vramcalc", nullptr, nullptr);
    if (!g_loop.window) {
        std::fprintf(stderr, "vramcalc: cannot create an OpenGL ES 3 / WebGL2 window\n");
        return 1;
    }
    glfwMakeContextCurrent(g_loop.window);
    glfwSwapInterval(1);
    install_wake_callbacks(g_loop.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    vc::shell::ui_setup();
    ImGui_ImplGlfw_InitForOpenGL(g_loop.window, true);
#ifdef __EMSCRIPTEN__
    ImGui_ImplGlfw_InstallEmscriptenCanvasResizeCallback("#canvas");
#endif
    ImGui_ImplOpenGL3_Init(glsl_version);

    vc::shell::App& a = vc::shell::app();
    a.inputs = vc::shell::default_inputs();
    vc::shell::recompute(a);

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
