// vramcalc benchmark fixture: a bare Dear ImGui page, built the same way as the app (Emscripten's
// GLFW on WebGL2, the same ImGui build, the same embedded font at the screen's pixel ratio, the
// same -Oz link with the wasm packed inside the JS). It draws one window with one line of text.
// bench/first_frame_vs_bare.mjs compares the app's first frame with this page's (issue 5: the
// app's first drawn frame <= 1.5x the bare page's).
#include <emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_ES3
#include <GLFW/glfw3.h>

#include <cmath>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "shell/font.hpp"

namespace {

GLFWwindow* g_window = nullptr;
constexpr float kFontPx = 15;

void frame() {
    double w = 0, h = 0;
    emscripten_get_element_css_size("#canvas", &w, &h);
    const double dpr = emscripten_get_device_pixel_ratio();
    const int fw = static_cast<int>(std::lround(w * dpr)), fh = static_cast<int>(std::lround(h * dpr));
    emscripten_set_canvas_element_size("#canvas", fw, fh);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(fw / w), static_cast<float>(fh / h));
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("bare", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::TextUnformatted("A bare Dear ImGui page");
    ImGui::End();
    ImGui::Render();
    glViewport(0, 0, fw, fh);
    glClearColor(0.06f, 0.07f, 0.09f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    emscripten_pause_main_loop();  // one frame, then idle (as the app is when nothing changes)
}

}  // namespace

int main() {
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_window = glfwCreateWindow(1280, 800, "bare", nullptr, nullptr);
    glfwMakeContextCurrent(g_window);
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    ImFontConfig fc;
    fc.FontDataOwnedByAtlas = false;
    fc.OversampleH = fc.OversampleV = 1;
    const float ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(vc::shell::kFontTtf), static_cast<int>(vc::shell::kFontTtfSize),
                                   std::round(kFontPx * ratio), &fc, reinterpret_cast<const ImWchar*>(vc::shell::kFontRanges));
    io.FontGlobalScale = 1.0f / ratio;
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(g_window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    emscripten_set_main_loop(frame, 0, true);
    return 0;
}
