// vramcalc web: the Embind bindings, the browser's way into the engine and the shell.
//   estimate(configJson)    -> result JSON, exactly what `vramcalc --format json` prints (io/)
//   solve(configJson, question) -> answer JSON, what `vramcalc solve QUESTION --format json` prints
//   questions()             -> [{id, label, tasks}] of the what-fits questions
//   shellState()            -> the ImGui shell's state as JSON, for the page's test hook
//   framesDrawn()           -> frames rendered so far (flat while the page is idle)
//   isIdle()                -> the main loop is paused: every frame an input asked for is drawn
//   completeFramesDrawn()   -> frames drawn with every result (the first frame shows the estimate alone)
//   applyFragment(fragment) -> the page followed a link / back / forward: restore that state
//   setSystemDark(dark)     -> the browser's colour-scheme preference changed
//   linkError()             -> why the page's link could not be applied ("" when it was)
// Strings in, strings out: web/vramcalc.js parses them, so no C++ object crosses the boundary and
// nothing can throw across it (exceptions are off in the WebAssembly build).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "io/config_json.hpp"
#include "io/solve_json.hpp"
#include "io/text_input.hpp"
#include "shell/app.hpp"
#include "shell/platform.hpp"
#include "shell/state/planner.hpp"
#include "shell/state/report.hpp"
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
    j["link_error"] = a.link_error;
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
        answers[s.question] = s.ok ? json{{"value", s.answer.value}, {"unit", s.answer.unit}, {"items", s.answer.items}}
                                   : json{{"error", s.error.message}};
    j["answers"] = answers;
    json charts = json::object();
    for (const auto* s : {&r.by_batch, &r.by_seq})
        charts[s->field] = {{"x", s->x}, {"total", s->total}, {"current", s->current}};
    j["charts"] = charts;
    json widgets = json::object();
    for (const auto& w : a.widgets) widgets[w.id] = {{"x", w.x}, {"y", w.y}, {"w", w.w}, {"h", w.h}};
    j["widgets"] = widgets;
    j["planner"] = vc::shell::planner_state_json(a);
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
    return vc::io::dump(ok ? json{{"ok", true}} : json{{"ok", false}, {"error", a.link_error}});
}

void set_system_dark(bool dark) {
    vc::shell::app().ui.system_dark = dark;
    vc::shell::platform::request_frames();
}

std::string link_error() { return vc::shell::app().link_error; }

std::string summary_text() {
    vc::shell::App& a = vc::shell::app();
    return vc::shell::summary_text(a.inputs, vc::shell::results(a), a.ui.show_gib, "");
}

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
    emscripten::function("estimate", &vc::io::estimate_json);
    emscripten::function("solve", &vc::io::solve_json);
    emscripten::function("questions", &vc::io::questions_json);
    emscripten::function("shellState", &shell_state);
    emscripten::function("framesDrawn", &frames_drawn);
    emscripten::function("isIdle", &is_idle);
    emscripten::function("completeFramesDrawn", &complete_frames);
    emscripten::function("applyFragment", &apply_fragment);
    emscripten::function("setSystemDark", &set_system_dark);
    emscripten::function("summaryText", &summary_text);
    emscripten::function("linkError", &link_error);
}
