// vramcalc web: the page's own Embind functions, on the ImGui shell (app.js only; the engine's
// functions, which the page, the widget and the JS library share, are in web/engine_bindings.cpp).
// web/vramcalc.js and web/embed.js call them; nothing here is part of the public JS API.
//   shellState()            -> the ImGui shell's state as JSON, for the page's test hook
//   framesDrawn()           -> frames rendered so far (flat while the page is idle)
//   isIdle()                -> the main loop is paused: every frame an input asked for is drawn
//   completeFramesDrawn()   -> frames drawn with every result (the first frame shows the estimate alone)
//   applyFragment(fragment) -> the page followed a link / back / forward: restore that state
//   setSystemDark(dark)     -> the browser's colour-scheme preference changed
//   linkError()             -> why the page's link could not be applied ("" when it was)
//   summaryText()           -> the accessible summary as plain text
// Embedding (web/embed.js):
//   messageLimit()           the longest patch setInputs reads, in bytes (io::kMaxMessageBytes)
//   navBusy()                keyboard navigation has something for Escape to close (an item being
//                            edited, a popup): web/vramcalc.js lets Escape then Tab leave the canvas otherwise
//   setInputs(patchJson, from) applies a config patch to the app's inputs and recomputes: a JSON
//                            merge patch on the config document (docs/config.md), except that a
//                            "model" in the patch replaces the model whole, as a link's model.* keys
//                            do; each value that cannot be read keeps its value and the rest
//                            apply: {"ok":true,"refused":[{field,message},...]} (refused: those
//                            left out, [] when none), or {"ok":false,"error":{field,message}} when
//                            nothing applies (not a JSON object, over the limit; inputs unchanged);
//                            `from` names the sender in the marks beside refused fields ("the
//                            embedding page", "the text form")
//   setEmbedOptions(json)    {"compact":bool, "light":bool, "locked":["batch", ...], "gib"?:bool}
//   stateRevision()          moves on every recompute and every finished plan: the page posts a result when it changes
//   contentHeight()          CSS pixels the UI's content needs at the current width
//   takeEmbedRequest()       true once after the Embed button was pressed
//   widgetResult()           what a widget's result message carries: {"config", "result", "error"}
//                            (the config document, the last valid estimate or null, {field,message}
//                            or null), without the rest of shellState(); with view=planner also
//                            "view": "planner", "plan" (as `vramcalc plan --format json`'s "plan", or
//                            null) and "plan_error"
//   embedLink()              the page's link as the shell read it, for embed.js (which reads no
//                            fragment itself): {"theme":"auto|light|dark", "lock":[...],
//                            "origins":[...], "id":"...", "error":{field,message}|null}
// Strings in, strings out: the JS parses them, so no C++ object crosses the boundary and nothing
// can throw across it (exceptions are off in the WebAssembly build).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

#include "io/config_json.hpp"
#include "io/plan_json.hpp"
#include "io/solve_json.hpp"
#include "io/text_input.hpp"
#include "shell/app.hpp"
#include "shell/platform.hpp"
#include "shell/ui.hpp"
#include "shell/state/planner.hpp"
#include "shell/state/report.hpp"
#include "shell/state/rules.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"

namespace {

using nlohmann::json;

json error_json(const vc::Error& e) { return e.field.empty() ? json(nullptr) : json{{"field", e.field}, {"message", e.message}}; }

std::string shell_state() {
    vc::shell::App& a = vc::shell::app();
    const vc::shell::Results& r = vc::shell::results(a);
    json j;
    j["inputs"] = vc::io::config_to_json(a.inputs);
    j["model_params_b"] = vc::shell::model_params_b(a.inputs);  // the count the page shows under the model
    j["result"] = r.valid ? vc::io::estimate_to_json(r.estimate) : json(nullptr);
    j["error"] = error_json(a.error);
    j["units"] = a.ui.show_gib ? "GiB" : "GB";
    j["theme"] = a.ui.theme == vc::shell::ThemeChoice::Auto ? "auto" : a.ui.theme == vc::shell::ThemeChoice::Light ? "light" : "dark";
    j["dark"] = vc::shell::dark_theme(a.ui);
    j["fragment"] = vc::shell::encode_fragment(a.inputs, a.ui, vc::shell::default_inputs());
    j["link_error"] = vc::shell::link_error_text(a);
    j["link_left_out"] = json::array();  // each key of the link not applied, marked beside its field
    for (const auto& e : a.link_left_out) j["link_left_out"].push_back(error_json(e));
    j["notice"] = a.notice;
    j["frames_drawn"] = a.frames_drawn;
    j["compute_ms"] = r.compute_ms;
    j["compute_parts_ms"] = {r.compute_parts_ms[0], r.compute_parts_ms[1], r.compute_parts_ms[2]};
    json methods = json::object();
    for (const auto& m : r.methods)
        methods[vc::method_name(m.method)] = m.ok ? json(vc::shell::headline_bytes(m.estimate)) : json(nullptr);
    j["comparison"] = methods;
    json answers = json::object();
    for (const auto& s : r.answers)
        answers[s.question] = s.ok ? json{{"value", s.answer.value}, {"unit", s.answer.unit}, {"items", s.answer.items}, {"needs_ram_bytes", s.answer.needs_ram_bytes}}
                                   : json{{"error", s.error.message}};
    j["answers"] = answers;
    json charts = json::object();
    for (const auto* s : {&r.by_batch, &r.by_seq})
        charts[s->field] = {{"x", s->x}, {"total", s->total}, {"current", s->current}};
    j["charts"] = charts;
    json widgets = json::object();
    for (const auto& w : a.widgets) widgets[w.id] = {{"x", w.x}, {"y", w.y}, {"w", w.w}, {"h", w.h}};
    j["widgets"] = widgets;
    json wrapped = json::array();  // the lines of each text drawn on more than one
    for (const auto& lines : a.wrapped) {
        json l = json::array();
        for (const auto& line : lines) l.push_back(line);
        wrapped.push_back(std::move(l));
    }
    j["wrapped"] = std::move(wrapped);
    json colours = json::object();  // each theme's text colours and backgrounds (a contrast check)
    for (bool dark : {true, false}) {
        json& t = colours[dark ? "dark" : "light"];
        for (const auto& c : vc::shell::ui_theme_colours(dark)) t[c.name] = c.rgb;
    }
    j["theme_colours"] = std::move(colours);
    j["focus"] = {{"id", a.focus_id}, {"visible", a.focus_visible}};
    j["planner"] = vc::shell::planner_state_json(a);
    // "Models that fit", once its panel was opened (core/fit_models.hpp): the rows that fit, best first,
    // as "model/format" (`vramcalc fit-models --fitting` lists the same), those that need system RAM
    // of no stated size (ModelFit::needs_ram), and the budget.
    if (a.model_fits_ready) {
        std::vector<std::string> fitting, needs_ram;
        for (const auto& row : a.model_fits.rows) {
            if (row.fits) fitting.push_back(row.model + "/" + row.format);
            if (row.needs_ram) needs_ram.push_back(row.model + "/" + row.format);
        }
        j["model_fits"] = {{"fitting", fitting}, {"needs_ram", needs_ram}, {"budget_bytes", a.model_fits.budget_bytes}, {"error", a.model_fits_error}};
    }
    return vc::io::dump(j);
}

unsigned long frames_drawn() { return vc::shell::app().frames_drawn; }
bool is_idle() { return vc::shell::app().idle; }
unsigned long complete_frames() { return vc::shell::app().complete_frames; }

// The length is checked on the JS string before Embind copies it (a link can be megabytes): a longer
// one is cut just past the limit, which decode_fragment refuses whole.
std::string apply_fragment(const emscripten::val& fragment_value) {
    vc::shell::App& a = vc::shell::app();
    if (!fragment_value.isString()) return vc::io::dump(json{{"ok", false}, {"error", "the link must be a string"}});
    const emscripten::val limited = fragment_value["length"].as<double>() > static_cast<double>(vc::io::kMaxLinkChars)
                                        ? fragment_value.call<emscripten::val>("slice", 0, static_cast<double>(vc::io::kMaxLinkChars + 1))
                                        : fragment_value;
    const bool ok = vc::shell::apply_fragment(a, limited.as<std::string>());
    vc::shell::platform::request_frames();
    return vc::io::dump(ok ? json{{"ok", true}} : json{{"ok", false}, {"error", vc::shell::link_error_text(a)}});
}

void set_system_dark(bool dark) {
    vc::shell::app().ui.system_dark = dark;
    vc::shell::platform::request_frames();
}

// Read between frames: the context's state, no current window (imgui_internal.h).
bool nav_busy() { return GImGui->ActiveId != 0 || GImGui->OpenPopupStack.Size > 0; }

double message_limit() { return static_cast<double>(vc::io::kMaxMessageBytes); }

// The length is checked on the JS string, before Embind copies it into the module's memory (a
// 30 MB message grew the heap to gigabytes), and again in bytes once copied.
std::string set_inputs(const emscripten::val& patch_value, const std::string& from) {
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
    std::vector<vc::Error> refused;
    if (!vc::shell::patch_config_text(a.inputs, patch_value.as<std::string>(), cfg, err, &refused))
        return vc::io::dump(vc::io::error_to_json(err));
    a.inputs = cfg;
    vc::shell::mark_changed(a);
    // Each value left out is marked beside its field, as a link's are (until the next edit).
    for (vc::Error e : refused) {
        e.message = vc::shell::page_words(e.message);  // the refused value stays (word_in_shown_unit)
        a.link_left_out.push_back(e);
    }
    a.left_out_from = from;
    // The reply needs the estimate alone: the comparison, the answers and the charts (several times
    // its work) follow after the next frame (App::defer_extras), not before the reply.
    a.defer_extras = true;
    vc::shell::recompute(a);
    vc::shell::wake();
    json out{{"ok", true}, {"refused", json::array()}};
    for (const auto& e : refused) out["refused"].push_back(error_json(e));
    return vc::io::dump(out);
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

// Recomputes first when the inputs changed, so a revision always names the present inputs' result.
double state_revision() {
    vc::shell::App& a = vc::shell::app();
    vc::shell::results(a);
    // A plan finishing (over frames, after the inputs changed) moves it too: both counts only grow.
    return static_cast<double>(a.revision) + static_cast<double>(vc::shell::planner_current().generation);
}
double content_height() { return vc::shell::app().content_height_px; }

bool take_embed_request() {
    vc::shell::App& a = vc::shell::app();
    const bool requested = a.embed_requested;
    a.embed_requested = false;
    return requested;
}

std::string embed_link() {
    const vc::shell::App& a = vc::shell::app();
    vc::Error err;
    const vc::shell::EmbedKeys keys = vc::shell::decode_embed_keys(vc::shell::platform::initial_fragment(), err);
    const vc::shell::ThemeChoice t = a.ui.theme;
    return vc::io::dump(json{{"theme", t == vc::shell::ThemeChoice::Light ? "light" : t == vc::shell::ThemeChoice::Dark ? "dark" : "auto"},
                             {"lock", keys.locked},
                             {"origins", keys.origins},
                             {"id", keys.id},
                             {"error", error_json(err)}});
}

std::string widget_result() {
    vc::shell::App& a = vc::shell::app();
    const vc::shell::Results& r = vc::shell::results(a);
    json j{{"config", vc::io::config_to_json(a.inputs)},
           {"result", r.valid ? vc::io::estimate_to_json(r.estimate) : json(nullptr)},
           {"error", error_json(a.error)}};
    if (a.ui.planner.open) {  // view=planner: the plan on screen (the last valid one while a search runs)
        const vc::shell::PlannerResults& p = vc::shell::planner_current();
        j["view"] = "planner";
        j["plan"] = p.valid ? vc::io::plan_result_to_json(p.plan) : json(nullptr);
        j["plan_error"] = error_json(p.error);
    }
    return vc::io::dump(j);
}

std::string link_error() { return vc::shell::link_error_text(vc::shell::app()); }

std::string summary_text() {
    vc::shell::App& a = vc::shell::app();
    return vc::shell::summary_text(a.inputs, vc::shell::results(a), a.ui.show_gib, "");
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc_shell) {
    emscripten::function("shellState", &shell_state);
    emscripten::function("framesDrawn", &frames_drawn);
    emscripten::function("isIdle", &is_idle);
    emscripten::function("completeFramesDrawn", &complete_frames);
    emscripten::function("applyFragment", &apply_fragment);
    emscripten::function("setSystemDark", &set_system_dark);
    emscripten::function("summaryText", &summary_text);
    emscripten::function("linkError", &link_error);
    emscripten::function("setInputs", &set_inputs);
    emscripten::function("messageLimit", &message_limit);
    emscripten::function("navBusy", &nav_busy);
    emscripten::function("setEmbedOptions", &set_embed_options);
    emscripten::function("stateRevision", &state_revision);
    emscripten::function("contentHeight", &content_height);
    emscripten::function("takeEmbedRequest", &take_embed_request);
    emscripten::function("embedLink", &embed_link);
    emscripten::function("widgetResult", &widget_result);
}
