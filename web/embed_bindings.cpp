// vramcalc web: the Embind functions the embedding glue (web/embed.js) calls on the ImGui app.
//   messageLimit()           the longest patch setInputs reads, in bytes (io::kMaxMessageBytes)
//   setInputs(patchJson)     applies a config patch to the app's inputs and recomputes: a JSON
//                            merge patch on the config document (docs/config.md), except that a
//                            "model" in the patch replaces the model whole, as a link's model.* keys
//                            do; returns {"ok":true} or {"ok":false,"error":{field,message}} (inputs
//                            unchanged)
//   setEmbedOptions(json)    {"compact":bool, "light":bool, "locked":["batch", ...], "gib"?:bool}
//   stateRevision()          moves on every recompute: the page posts a result when it changes
//   contentHeight()          CSS pixels the UI's content needs at the current width
//   takeEmbedRequest()       true once after the Embed button was pressed
// Strings in, strings out, no exceptions (the page parses the JSON).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "io/config_json.hpp"
#include "io/text_input.hpp"
#include "shell/app.hpp"
#include "shell/state/url.hpp"

namespace {

using nlohmann::json;

double message_limit() { return static_cast<double>(vc::io::kMaxMessageBytes); }

// The length is checked on the JS string, before Embind copies it into the module's memory (a
// 30 MB message grew the heap to gigabytes), and again in bytes once copied.
std::string set_inputs(const emscripten::val& patch_value) {
    vc::shell::App& a = vc::shell::app();
    if (!patch_value.isString())
        return vc::io::dump(vc::io::error_to_json({"config", "the inputs must be a JSON object (a config patch)"}));
    const double length = patch_value["length"].as<double>();  // UTF-16 units: never more than the UTF-8 bytes
    if (length > static_cast<double>(vc::io::kMaxMessageBytes))
        return vc::io::dump(vc::io::error_to_json({"inputs", "the inputs are " + std::to_string(static_cast<long long>(length)) +
                                                                 " characters of JSON; at most " + std::to_string(vc::io::kMaxMessageBytes) +
                                                                 " bytes are read"}));
    vc::Config cfg;
    vc::Error err;
    if (!vc::shell::patch_config_text(a.inputs, patch_value.as<std::string>(), cfg, err)) return vc::io::dump(vc::io::error_to_json(err));
    a.inputs = cfg;
    vc::shell::mark_changed(a);
    vc::shell::recompute(a);
    vc::shell::wake();
    return vc::io::dump(json{{"ok", true}});
}

std::string set_embed_options(const std::string& text) {
    vc::shell::App& a = vc::shell::app();
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return vc::io::dump(vc::io::error_to_json({"options", "options must be a JSON object"}));
    // NOTE: checked reads only: json::value() on a wrong type would throw, which aborts the module.
    auto flag = [&j](const char* key) { return j.contains(key) && j.at(key).is_boolean() && j.at(key).get<bool>(); };
    vc::shell::EmbedOptions o;
    o.compact = flag("compact");
    o.light = flag("light");
    if (j.contains("gib") && j.at("gib").is_boolean()) a.ui.show_gib = j.at("gib").get<bool>();
    if (j.contains("locked") && j.at("locked").is_array())
        for (const auto& f : j.at("locked"))
            if (f.is_string()) o.locked.push_back(f.get<std::string>());
    a.embed = o;
    vc::shell::wake();
    return vc::io::dump(json{{"ok", true}});
}

double state_revision() { return static_cast<double>(vc::shell::app().revision); }
double content_height() { return vc::shell::app().content_height_px; }

bool take_embed_request() {
    vc::shell::App& a = vc::shell::app();
    const bool requested = a.embed_requested;
    a.embed_requested = false;
    return requested;
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc_embed) {
    emscripten::function("setInputs", &set_inputs);
    emscripten::function("messageLimit", &message_limit);
    emscripten::function("setEmbedOptions", &set_embed_options);
    emscripten::function("stateRevision", &state_revision);
    emscripten::function("contentHeight", &content_height);
    emscripten::function("takeEmbedRequest", &take_embed_request);
}
