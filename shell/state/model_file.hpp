// vramcalc shell state: a model file imported on the page (docs/import.md). The page reads only the
// file's header with File.slice (web/import.js), io/model_import reads it, and this puts what was
// read into the inputs: the architecture as a custom model, a GGUF's engine and file type, and the
// exact per-tensor bytes (inference.weights_file). Nothing leaves the browser. Pure, no ImGui.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/config.hpp"

namespace vc::shell {

struct ImportOutcome {
    bool applied = false;   // the inputs changed (a whole or a partial architecture was read)
    bool problem = false;   // the message is a failure or names missing keys (shown as an error)
    std::string message;    // one line for the page, naming page controls
};

// Applies an import to `base` into `out` (untouched when nothing applies). A file that could not be
// read changes nothing. A whole architecture replaces the model (a custom one, named after the
// file); a GGUF (or any file naming its engine) switches to serving with the detailed model, where
// its per-tensor bytes count. An architecture with missing keys is applied too, with the keys it
// lacks left at 0, so the custom architecture editor shows what was read and marks what is
// missing; the last valid result stays until the fields are filled.
// `doc` is the import document (io::import_to_json, what importFile (web/api.js: the page's and the
// JS library's) and `vramcalc --print-import` give).
ImportOutcome apply_import(const Config& base, const nlohmann::json& doc, Config& out);

// A file's exact bytes (inference.weights_file) belong to the model and the format it was read
// with: after an edit that changed either (another preset, an architecture field, another weight
// format, an applied suggestion), they are dropped and the weights derive from the format again.
// Returns whether they were dropped.
bool drop_stale_weights_file(const Config& before, Config& after);

}  // namespace vc::shell
