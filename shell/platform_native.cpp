// vramcalc shell: the platform services (platform.hpp) for the desktop window (vramcalc-gui). The
// clipboard is GLFW's; exports are written to the working folder; a link's state comes from the
// VRAMCALC_LINK environment variable (a fragment, "v=1&..."); there is no history to publish to.
// The window is GLFW's with a desktop GL 3.0 context; the loop waits for events while idle.
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>

#include <imgui_impl_glfw.h>

#include "platform.hpp"

namespace vc::shell::platform {

void copy_text(const std::string& text) { glfwSetClipboardString(glfwGetCurrentContext(), text.c_str()); }

void download(const std::string& filename, const std::string& mime, const std::string& content) {
    (void)mime;
    if (FILE* f = std::fopen(filename.c_str(), "wb")) {
        std::fwrite(content.data(), 1, content.size(), f);
        std::fclose(f);
        std::printf("vramcalc: wrote %s\n", filename.c_str());
    } else {
        std::fprintf(stderr, "vramcalc: cannot write %s\n", filename.c_str());
    }
}

void publish(const std::string& fragment, const std::string& summary_json, bool replace) {
    (void)fragment;
    (void)summary_json;
    (void)replace;
}

std::string page_url() { return "vramcalc:"; }

std::string initial_fragment() {
    const char* link = std::getenv("VRAMCALC_LINK");
    return link ? link : "";
}

bool prefers_dark() { return true; }

bool pick_model_file() { return false; }

// [SECTION] window --------------------------------------------------------------------------------
const char* context_hints() {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    return "#version 130";  // desktop GL 3.0
}

void start_size(int&, int&) {}

Surface measure_surface(GLFWwindow* window) {
    int w = 0, h = 0;
    Surface s;
    glfwGetWindowSize(window, &w, &h);
    glfwGetFramebufferSize(window, &s.fb_w, &s.fb_h);
    s.css_w = w > 0 ? w : 1;
    s.css_h = h > 0 ? h : 1;
    s.pixel_ratio = 1;  // GLFW reports the cursor in window coordinates
    s.font_ratio = static_cast<float>(s.fb_w / s.css_w);
    return s;
}

void install_events(GLFWwindow*) {}

void cursor_enter(GLFWwindow* window, int entered) { ImGui_ImplGlfw_CursorEnterCallback(window, entered); }

void run_main_loop(GLFWwindow* window, void (*iteration)(), bool (*idle)()) {
    while (!glfwWindowShouldClose(window)) {
        if (idle()) glfwWaitEvents();
        iteration();
    }
}

void pause_main_loop() {}
void resume_main_loop() {}

}  // namespace vc::shell::platform
