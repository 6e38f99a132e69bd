// vramcalc web: the shell's platform services (shell/platform.hpp) in the browser. Each is a thin
// EM_JS call into the page's glue (window.vramcalcHost in web/vramcalc.js), which owns the DOM:
// the clipboard, downloads, history and the accessible summary.
// NOTE: the page's glue is linked with Closure (--closure 1), which renames every property it sees
// written unquoted: names defined outside app.js (the host's, the import's) are quoted here.
#include <emscripten.h>

#include <cstring>
#include <string>

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

}  // namespace vc::shell::platform
