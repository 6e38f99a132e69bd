// vramcalc shell state: a model file imported on the page (see model_file.hpp).
#include "model_file.hpp"

#include "core/text.hpp"
#include "io/config_json.hpp"
#include "format.hpp"
#include "scenario.hpp"
#include "url.hpp"

namespace vc::shell {

namespace {

const char* kind_label(const std::string& kind) {
    if (kind == "gguf") return "GGUF";
    if (kind == "safetensors") return "safetensors header";
    if (kind == "safetensors-index") return "safetensors index";
    return "config.json";
}

}  // namespace

ImportOutcome apply_import(const Config& base, const io::ModelImport& r, Config& out) {
    ImportOutcome o;
    const std::string name = r.name.empty() ? std::string("the file") : r.name;
    if (!r.ok) {
        o.problem = true;
        o.message = "Import failed, nothing changed: " + r.error.message;
        return o;
    }
    const nlohmann::json doc = io::import_to_json(r);
    nlohmann::json patch = doc["config"];
    // A custom architecture named after what was read (the file's model name, else the file's).
    if (patch["model"].is_object() && !patch["model"].contains("name")) patch["model"]["name"] = name;
    Config start = base;
    start.inference.weights_file = WeightsFile{};  // the previous file's bytes go with its model
    // A file that names its engine (GGUF: llama.cpp) is served: its per-tensor bytes count in the
    // detailed serving model.
    const bool serve = !r.engine.empty();
    if (serve) {
        if (start.task != Task::Inference) set_task(start, Task::Inference);
        if (start.method != Method::Detailed) set_method(start, Method::Detailed);
    }
    Config next;
    Error err;
    if (!patch_config(start, patch, next, err)) {
        o.problem = true;
        o.message = "Import of " + name + " read the file, but " + err.field + ": " + err.message + "; nothing changed";
        return o;
    }
    out = next;
    o.applied = true;
    if (!r.complete) {
        o.problem = true;
        o.message = doc["message"].get<std::string>();
        return o;
    }
    o.message = "Imported " + name + " (" + kind_label(r.kind) + (r.architecture.empty() ? "" : ", " + r.architecture) + ")";
    const double params = doc["params"].get<double>();
    if (params > 0) o.message += ": " + format_count(params) + " parameters";
    if (r.weights.total_bytes > 0) {
        o.message += ", weights " + format_exact_bytes(r.weights.total_bytes) + " from the file's " + std::to_string(r.tensor_count) + " tensors";
        if (!r.weights.mix.empty()) o.message += " (" + r.weights.mix + ")";
    }
    if (!r.weights_format.empty()) o.message += ", format " + r.weights_format;
    if (serve && (base.task != Task::Inference || base.method != Method::Detailed))
        o.message += ". Task is now Inference and method Detailed, where " + r.engine + " serves the file";
    o.message += ". Nothing was uploaded.";
    return o;
}

bool drop_stale_weights_file(const Config& before, Config& after) {
    if (after.inference.weights_file.total_bytes == 0) return false;
    const bool same_format = ascii_lower(before.inference.weights.format) == ascii_lower(after.inference.weights.format);
    if (same_format && io::model_to_json(before.model) == io::model_to_json(after.model)) return false;
    after.inference.weights_file = WeightsFile{};
    return true;
}

}  // namespace vc::shell
