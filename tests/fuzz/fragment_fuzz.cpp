// libFuzzer harness: the URL fragment (a shared link) decoder and encoder, shell/state/url.hpp.
// Properties on every input: no crash, no sanitizer report, no throw (nlohmann-json aborts under
// JSON_NOEXCEPTION); a fragment that decodes re-encodes to one that decodes cleanly to the same
// config (the same JSON document, byte for byte, and the same estimate), and encoding is stable.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/estimate.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/url.hpp"

namespace {

// A link as people share it is a few hundred characters; the decoder's own length limit
// (io::kMaxLinkChars, 16384) is a unit test (tests/unit/test_hostile_input.cpp).
constexpr size_t kMaxInputBytes = 4096;

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
    std::fprintf(stderr, "fragment_fuzz: %s\n  first:  %s\n  second: %s\n", what, a.c_str(), b.c_str());
    std::abort();
}

std::string total_text(const vc::Config& c) {
    auto e = vc::estimate(c);
    if (!e.ok) return "error " + e.error.field + ": " + e.error.message;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", e.value.total_bytes);
    return buf;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace vc;
    using namespace vc::shell;
    if (size > kMaxInputBytes) return 0;
    static const Config base = default_inputs();
    const std::string fragment(reinterpret_cast<const char*>(data), size);
    Config cfg;
    UiState ui;
    Error err;
    if (!decode_fragment(fragment, base, cfg, ui, err)) return 0;

    const std::string once = encode_fragment(cfg, ui, base);
    Config again;
    UiState ui2;
    Error err2;
    if (!decode_fragment(once, base, again, ui2, err2) || !err2.field.empty())
        fail(("its own link does not read back: " + err2.field + ": " + err2.message).c_str(), fragment, once);
    const std::string doc1 = io::dump(io::config_to_json(cfg)), doc2 = io::dump(io::config_to_json(again));
    if (doc1 != doc2) fail("config changed through its link", doc1, doc2);
    if (ui.show_gib != ui2.show_gib || ui.theme != ui2.theme) fail("view changed through its link", fragment, once);
    const std::string twice = encode_fragment(again, ui2, base);
    if (once != twice) fail("link not stable", once, twice);
    const std::string t1 = total_text(cfg), t2 = total_text(again);
    if (t1 != t2) fail("estimate changed through its link", t1, t2);
    return 0;
}
