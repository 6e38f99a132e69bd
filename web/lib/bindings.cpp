// vramcalc JS library: the Embind surface of the engine without the UI (core + io only), wrapped
// by web/lib/api.js into createVramCalc(). Strings in, strings out: every function returns a JSON
// document built by io/, errors included, so nothing can throw across the WebAssembly boundary.
//   estimate(configText)           -> io::estimate_json: the result `vramcalc --format json` prints
//   solve(configText, question)    -> io::solve_json: what `vramcalc solve Q --format json` prints
//   resolveConfig(configText)      -> the config with every field (`vramcalc --print-config`)
//   presets() gpus()               -> the catalogs (io/api_json.hpp)
//   suggest(configText)            -> io::suggest_json: what `vramcalc suggest --format json` prints
//   questions()                    -> io::questions_json: [{id, label, tasks}]
//   plan(requestText)              -> io::plan_json: what `vramcalc plan --format json` prints
//   fabrics()                      -> io::fabrics_json: the interconnect and node catalogs
//   importModel(bytes, name, size) -> io::import_json: a model file's start read (docs/import.md)
//   version() schemaVersion()      -> "0.1.0", 1
#include <emscripten/bind.h>

#include <string>

#include "io/api_json.hpp"
#include "io/config_json.hpp"
#include "io/plan_json.hpp"
#include "io/model_import.hpp"
#include "io/solve_json.hpp"

namespace {

std::string presets_text() { return vc::io::dump(vc::io::presets_to_json()); }
std::string gpus_text() { return vc::io::dump(vc::io::gpus_to_json()); }
std::string version() { return VRAMCALC_VERSION; }
int schema_version() { return vc::io::kSchemaVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc_lib) {
    emscripten::function("estimate", &vc::io::estimate_json);
    emscripten::function("solve", &vc::io::solve_json);
    emscripten::function("suggest", &vc::io::suggest_json);
    emscripten::function("resolveConfig", &vc::io::resolve_config_json);
    emscripten::function("presets", &presets_text);
    emscripten::function("gpus", &gpus_text);
    emscripten::function("questions", &vc::io::questions_json);
    emscripten::function("plan", &vc::io::plan_json);
    emscripten::function("fabrics", &vc::io::fabrics_json);
    // std::string takes a Uint8Array's bytes as they are (Embind copies them, no UTF-8 decoding).
    emscripten::function("importModel", &vc::io::import_json);
    emscripten::function("version", &version);
    emscripten::function("schemaVersion", &schema_version);
}
