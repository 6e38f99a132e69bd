// vramcalc web: the engine's Embind functions, the one set the page (app.js), the widget and the
// JS library (vramcalc_lib) export. web/api.js wraps them into the one JS API shape (the page's
// `vramcalc`, the library's createVramCalc()); the page's own functions (the ImGui shell's state,
// links, embedding) are in web/shell_bindings.cpp. Strings in, strings out: every function returns
// a JSON document built by io/, errors included, so nothing can throw across the boundary
// (exceptions are off in the WebAssembly build).
//   estimate(configText)           -> io::estimate_json: the result `vramcalc --format json` prints
//   estimateBytes(configText)      -> the same as UTF-8 bytes (a Uint8Array view of the wasm memory, below)
//   solve(configText, question)    -> io::solve_json: what `vramcalc solve Q --format json` prints
//   resolveConfig(configText)      -> the config with every field (`vramcalc --print-config`)
//   presets() gpus()               -> the catalogs (io/api_json.hpp)
//   suggest(configText)            -> io::suggest_json: what `vramcalc suggest --format json` prints
//   fitModels(configText)          -> io::fit_models_json: what `vramcalc fit-models --format json` prints
//   questions()                    -> io::questions_json: [{id, label, tasks}]
//   plan(requestText)              -> io::plan_json: what `vramcalc plan --format json` prints
//   fabrics()                      -> io::fabrics_json: the interconnect and node catalogs
//   importModel(bytes, name, size) -> io::import_json: a model file's start read (docs/import.md);
//                                     bytes a Uint8Array (web/api.js makes one of any input)
//   importFiles([{bytes, name, size}]) -> io::import_files_json: several files of one model merged
//                                     (what `vramcalc --model-file A --model-file B --print-import` prints)
//   version() schemaVersion()      -> "0.1.0", 1
// The page (app.js) links this file with VRAMCALC_PAGE_BUILD: estimate (as text), solve, questions,
// importModel and importFiles (the model-file readers: the page's own import, web/import.js, so the single offline
// file imports too), version and schemaVersion only. The rest would only add to its download, which
// has a budget (tests/browser/size.test.mjs): the planner's cluster comparison and batch sizing, the
// catalogs' and suggestions' JSON. There web/api.js answers those calls with a failure that names
// the library.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "io/solve_json.hpp"
#ifndef VRAMCALC_PAGE_BUILD
#include "io/api_json.hpp"
#include "io/plan_json.hpp"
#endif

namespace {

#ifndef VRAMCALC_PAGE_BUILD
std::string presets_text() { return vc::io::dump(vc::io::presets_to_json()); }
std::string gpus_text() { return vc::io::dump(vc::io::gpus_to_json()); }
#endif
// The bytes go into the wasm heap with one TypedArray.set, once. (A std::string parameter would
// copy a Uint8Array byte by byte in JavaScript, then again into the std::string: for a GGUF with a
// 70B model's tokenizer, twice the bytes in the heap and half the import's time; docs/import.md.)
// No reader needs more than a header's worth (the caps in io/model_import.hpp): of longer bytes
// (a whole file given to importModel) only that much is copied, and the rest counts in the file's
// size, so the readers see a prefix and nothing larger than the cap is allocated.
// Copies the first bytes of `bytes` (at most the cap) into `buf`; returns how many, and the file's size.
std::size_t copy_prefix(const emscripten::val& bytes, std::unique_ptr<std::uint8_t[]>& buf, double& file_size) {
    const double length = bytes["length"].as<double>();
    const auto n = static_cast<std::size_t>(std::min(length, static_cast<double>(vc::io::kMaxImportHeaderBytes + 8)));
    buf.reset(new std::uint8_t[n]);  // not zeroed: set() fills it
    emscripten::val(emscripten::typed_memory_view(n, buf.get())).call<void>("set", bytes.call<emscripten::val>("subarray", 0.0, static_cast<double>(n)));
    file_size = std::max(file_size, length);
    return n;
}

std::string import_model(const emscripten::val& bytes, const std::string& name, double file_size) {
    std::unique_ptr<std::uint8_t[]> buf;
    const std::size_t n = copy_prefix(bytes, buf, file_size);
    return vc::io::import_json(buf.get(), n, name, file_size);
}

// Several files of one model: `files` an array of {bytes, name, size} (web/api.js importFiles, each
// file's header as importFile reads it), merged by io/ (merge_imports, the CLI's --model-file rules).
std::string import_files(const emscripten::val& files) {
    const auto count = static_cast<std::size_t>(std::min(files["length"].as<double>(), double(vc::io::kMaxImportFiles)));
    std::vector<std::unique_ptr<std::uint8_t[]>> bufs(count);
    std::vector<vc::io::ImportBytes> list(count);
    for (std::size_t i = 0; i < count; ++i) {
        const emscripten::val f = files[i];
        double size = f["size"].as<double>();
        list[i].size = copy_prefix(f["bytes"], bufs[i], size);
        list[i].data = bufs[i].get();
        list[i].name = f["name"].as<std::string>();
        list[i].file_size = size > 0 && size < 1.8e19 ? static_cast<std::uint64_t>(size) : 0;
    }
    return vc::io::import_files_json(list);
}

std::string version() { return VRAMCALC_VERSION; }

#ifndef VRAMCALC_PAGE_BUILD
// The result's JSON text handed to JS as a view of the wasm memory, valid until the next call:
// web/api.js decodes it with TextDecoder at once (where there is one; else it calls estimate).
// Embind's std::string return reads the text in JS a byte at a time before decoding it (issue 15:
// the JS library's estimate() per call).
emscripten::val estimate_bytes(const std::string& config_text) {
    static std::string text;
    text = vc::io::estimate_json(config_text);
    return emscripten::val(emscripten::typed_memory_view(text.size(), reinterpret_cast<const unsigned char*>(text.data())));
}
#endif
int schema_version() { return vc::io::kSchemaVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc_engine) {
    emscripten::function("estimate", &vc::io::estimate_json);
    emscripten::function("solve", &vc::io::solve_json);
    emscripten::function("questions", &vc::io::questions_json);
    emscripten::function("version", &version);
    emscripten::function("schemaVersion", &schema_version);
    emscripten::function("importModel", &import_model);
    emscripten::function("importFiles", &import_files);
#ifndef VRAMCALC_PAGE_BUILD
    emscripten::function("estimateBytes", &estimate_bytes);
    emscripten::function("suggest", &vc::io::suggest_json);
    emscripten::function("fitModels", &vc::io::fit_models_json);
    emscripten::function("resolveConfig", &vc::io::resolve_config_json);
    emscripten::function("presets", &presets_text);
    emscripten::function("gpus", &gpus_text);
    emscripten::function("plan", &vc::io::plan_json);
    emscripten::function("fabrics", &vc::io::fabrics_json);
#endif
}
