// vramcalc shell: the platform services (platform.hpp) for the desktop window (vramcalc-gui). The
// clipboard is GLFW's; exports are written to the working folder; a link's state comes from the
// VRAMCALC_LINK environment variable (a fragment, "v=1&..."); there is no history to publish to.
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>

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

}  // namespace vc::shell::platform
