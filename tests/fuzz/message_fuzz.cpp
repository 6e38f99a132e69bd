// libFuzzer harness: a widget message's inputs as the engine reads them (web/embed.js hands the
// `set` message's JSON text to setInputs in web/shell_bindings.cpp, which calls
// shell::patch_config_text with the refused list: the values that read apply). Properties on every
// input: no crash, no sanitizer report, no throw; every refused value names its field and why; the
// whole read fails only when the partial one refused something; what applies gives a config that survives
// its own JSON (the same document and the same estimate, byte for byte), and its exports and
// summary are written without failing.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/estimate.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/report.hpp"
#include "shell/state/url.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
    std::fprintf(stderr, "message_fuzz: %s\n  first:  %s\n  second: %s\n", what, a.c_str(), b.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace vc;
    using namespace vc::shell;
    static const Config base = default_inputs();
    const std::string text(reinterpret_cast<const char*>(data), size);
    Config cfg;
    Error err;
    std::vector<Error> refused;  // as the widget reads a set: the values that read apply
    if (!patch_config_text(base, text, cfg, err, &refused)) {
        if (err.field.empty()) fail("a rejected message names no field", text, err.message);
        return 0;
    }
    for (const Error& e : refused)
        if (e.field.empty() || e.message.empty()) fail("a refused value names no field or reason", text, e.message);
    Config whole;
    Error whole_err;
    // Whole (no range checks) fails only where the partial read refused something.
    if (!patch_config_text(base, text, whole, whole_err) && refused.empty()) fail("whole read failed, partial refused nothing", text, whole_err.message);
    const std::string doc1 = io::dump(io::config_to_json(cfg));
    auto back = io::parse_config(doc1);
    if (!back.ok) fail(("its own JSON does not read back: " + back.error.field + ": " + back.error.message).c_str(), text, doc1);
    const std::string doc2 = io::dump(io::config_to_json(back.value));
    if (doc1 != doc2) fail("config changed through its JSON", doc1, doc2);

    App a;
    a.inputs = cfg;
    recompute(a);
    auto again = estimate(back.value);
    if (a.results.valid != again.ok) fail("estimate changed through its JSON", doc1, doc2);
    if (a.results.valid && a.results.estimate.total_bytes != again.value.total_bytes) fail("total changed through its JSON", doc1, doc2);
    // What the page writes from this state: never throws or aborts.
    (void)export_markdown(a.inputs, a.results, false, "https://x/#v=1");
    (void)export_csv(a.inputs, a.results);
    (void)export_json(a.inputs, a.results);
    (void)summary_text(a.inputs, a.results, true, "");
    (void)encode_fragment(a.inputs, a.ui, base);
    return 0;
}
