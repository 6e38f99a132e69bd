// vramcalc web: the Embind bindings, the browser's way into the engine and the shell.
//   estimate(configJson)  -> result JSON, exactly what `vramcalc --format json` prints (io/)
//   solve(configJson, question) -> answer JSON, what `vramcalc solve QUESTION --format json` prints
//   questions()           -> [{id, label, tasks}] of the what-fits questions
//   shellState()          -> the ImGui shell's state as JSON, for the page's test hook
// Strings in, strings out: web/vramcalc.js parses them, so no C++ object crosses the boundary and
// nothing can throw across it (exceptions are off in the WebAssembly build).
#include <emscripten/bind.h>

#include <string>

#include "io/config_json.hpp"
#include "io/solve_json.hpp"
#include "shell/app.hpp"

namespace {

std::string shell_state() {
    using nlohmann::json;
    const vc::shell::App& a = vc::shell::app();
    json j;
    j["inputs"] = vc::io::config_to_json(a.inputs);
    j["result"] = a.has_result ? vc::io::estimate_to_json(a.result) : json(nullptr);
    j["error"] = a.error.field.empty() ? json(nullptr) : json{{"field", a.error.field}, {"message", a.error.message}};
    j["units"] = a.show_gib ? "GiB" : "GB";
    j["frames_drawn"] = a.frames_drawn;
    json widgets = json::object();
    for (const auto& w : a.widgets) widgets[w.id] = {{"x", w.x}, {"y", w.y}, {"w", w.w}, {"h", w.h}};
    j["widgets"] = widgets;
    return vc::io::dump(j);
}

unsigned long frames_drawn() { return vc::shell::app().frames_drawn; }

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
    emscripten::function("estimate", &vc::io::estimate_json);
    emscripten::function("solve", &vc::io::solve_json);
    emscripten::function("questions", &vc::io::questions_json);
    emscripten::function("shellState", &shell_state);
    emscripten::function("framesDrawn", &frames_drawn);
}
