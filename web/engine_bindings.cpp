// vramcalc web: the engine's Embind functions, the one set the page (app.js), the widget and the
// JS library (vramcalc_lib) export. web/api.js wraps them into the one JS API shape (the page's
// `vramcalc`, the library's createVramCalc()); the page's own functions (the ImGui shell's state,
// links, embedding) are in web/shell_bindings.cpp. Strings in, strings out: every function returns
// a JSON document built by io/, errors included, so nothing can throw across the boundary
// (exceptions are off in the WebAssembly build).
//   estimate(configText)           -> io::estimate_json: the result `vramcalc --format json` prints
//   estimateBytes(configText)      -> the same as UTF-8 bytes (a Uint8Array view of the wasm memory, below),
//                                     its GPU table as columns (io::estimate_json_columns; web/lib/entry.js
//                                     makes the rows again)
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
//   importBegin() importPart(id, bytes, name, size) importMerge(id) importEnd(id)
//                                  -> several files of one model merged (what `vramcalc --model-file A
//                                     --model-file B --print-import` prints), each file's header parsed
//                                     once: importPart answers as importModel and keeps what it read under
//                                     the import `id` (importBegin's), importMerge merges what it kept
//                                     (io/ merge_imports) and forgets it, importEnd forgets it
//   version() schemaVersion()      -> "0.1.0", 1
// The page (app.js) links this file with VRAMCALC_PAGE_BUILD: estimate (as text), solve, questions,
// importModel and importBegin/Part/Merge/End (the model-file readers: the page's own import, web/import.js, so the single offline
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

// Several files of one model (web/api.js importFiles): each file's header read by importPart, which
// answers as importModel does and keeps the file's import under the call's id; importMerge merges
// what it kept (merge_imports, the CLI's --model-file rules). Each header is parsed once (before,
// importFiles parsed every file a second time from the same bytes to merge them). An id per call
// keeps the files of two imports at once apart (two drops in a row); the oldest ids beyond
// kOpenImports are forgotten (a caller that never merged nor ended).
constexpr std::size_t kOpenImports = 8;
struct OpenImport {
    int id = 0;
    std::vector<vc::io::ModelImport> parts;
};
std::vector<OpenImport>& open_imports() {  // oldest first
    static std::vector<OpenImport> imports;
    return imports;
}
std::vector<OpenImport>::iterator find_import(int id) {
    auto& imports = open_imports();
    return std::find_if(imports.begin(), imports.end(), [id](const OpenImport& o) { return o.id == id; });
}

int import_begin() {
    static int next = 0;
    auto& imports = open_imports();
    if (imports.size() >= kOpenImports) imports.erase(imports.begin());
    imports.push_back(OpenImport{++next, {}});
    return next;
}

std::string import_part(int id, const emscripten::val& bytes, const std::string& name, double file_size) {
    std::unique_ptr<std::uint8_t[]> buf;
    const std::size_t n = copy_prefix(bytes, buf, file_size);
    const std::uint64_t size = file_size > 0 && file_size < 1.8e19 ? static_cast<std::uint64_t>(file_size) : 0;
    vc::io::ModelImport r = vc::io::import_model(buf.get(), n, name, size);
    std::string text = vc::io::dump(vc::io::import_to_json(r));
    const auto it = find_import(id);
    if (r.ok && it != open_imports().end() && it->parts.size() < vc::io::kMaxImportFiles) it->parts.push_back(std::move(r));
    return text;
}

std::string import_merge(int id) {
    const auto it = find_import(id);
    if (it == open_imports().end() || it->parts.empty())
        return vc::io::dump(vc::io::error_to_json(vc::Error{"import", "no files were read for this import (importPart)"}));
    std::string text = vc::io::dump(vc::io::import_to_json(vc::io::merge_imports(it->parts)));
    open_imports().erase(it);
    return text;
}

void import_end(int id) {
    const auto it = find_import(id);
    if (it != open_imports().end()) open_imports().erase(it);
}

std::string version() { return VRAMCALC_VERSION; }

#ifndef VRAMCALC_PAGE_BUILD
// The result's JSON text handed to JS as a view of the wasm memory, valid until the next call:
// web/lib/entry.js decodes it with TextDecoder at once (where there is one; else web/api.js calls
// estimate) and makes the GPU table's rows from its columns (io::estimate_json_columns). Embind's
// std::string return reads the text in JS a byte at a time before decoding it (issue 15: the JS
// library's estimate() per call).
emscripten::val estimate_bytes(const std::string& config_text) {
    static std::string text;
    text = vc::io::estimate_json_columns(config_text);
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
    emscripten::function("importBegin", &import_begin);
    emscripten::function("importPart", &import_part);
    emscripten::function("importMerge", &import_merge);
    emscripten::function("importEnd", &import_end);
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
