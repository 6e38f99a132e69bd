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
    if (kind == "gguf-mmproj") return "vision projector GGUF";
    return "config.json";
}

}  // namespace

ImportOutcome apply_import(const Config& base, const nlohmann::json& doc, Config& out) {
    ImportOutcome o;
    auto str = [&doc](const char* key) { return doc.contains(key) && doc[key].is_string() ? doc[key].get<std::string>() : std::string(); };
    auto num = [&doc](const char* key) { return doc.contains(key) && doc[key].is_number() ? doc[key].get<double>() : 0.0; };
    const std::string name = str("name").empty() ? std::string("the file") : str("name");
    if (!doc.is_object() || !doc.contains("ok") || doc["ok"] != true) {
        o.problem = true;
        const bool has = doc.is_object() && doc.contains("error") && doc["error"].is_object() && doc["error"].contains("message") &&
                         doc["error"]["message"].is_string();
        o.message = "Import failed, nothing changed: " + (has ? doc["error"]["message"].get<std::string>() : std::string("the file could not be read"));
        return o;
    }
    nlohmann::json patch = doc.contains("config") && doc["config"].is_object() ? doc["config"] : nlohmann::json::object();
    // A custom architecture named after what was read (the file's model name, else the file's).
    if (patch.contains("model") && patch["model"].is_object() && !patch["model"].contains("name")) patch["model"]["name"] = name;
    Config start = base;
    if (patch.contains("model")) start.inference.weights_file = WeightsFile{};  // the previous file's bytes go with its model
    // A file that names its engine (GGUF: llama.cpp) is served: its per-tensor bytes count in the
    // detailed serving model.
    const nlohmann::json* inf = patch.contains("inference") && patch["inference"].is_object() ? &patch["inference"] : nullptr;
    const std::string engine = inf && inf->contains("engine") && (*inf)["engine"].is_string() ? (*inf)["engine"].get<std::string>() : "";
    const bool serve = !engine.empty();
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
    // A config.json's torch_dtype: the 2-byte float choices follow it, as for a preset.
    if (patch.contains("model")) follow_checkpoint_dtype(next);
    out = next;
    o.applied = true;
    if (doc.contains("complete") && doc["complete"] != true) {
        o.problem = true;
        o.message = str("message");
        return o;
    }
    // Several files: which were read and what each gave, then what the model now is.
    std::string read;
    if (doc.contains("files") && doc["files"].is_array())
        for (const auto& f : doc["files"])
            if (f.is_object() && f.contains("name") && f["name"].is_string() && f.contains("gave") && f["gave"].is_string())
                read += (read.empty() ? "Read " : "; ") + f["name"].get<std::string>() + ": " + f["gave"].get<std::string>();
    o.message = (read.empty() ? "" : read + ". ") + "Imported " + name + " (" + kind_label(str("kind")) +
                (str("architecture").empty() ? "" : ", " + str("architecture")) + ")";
    if (num("params") > 0) o.message += ": " + format_count(num("params")) + " parameters";
    const WeightsFile& w = next.inference.weights_file;
    if (w.total_bytes > 0) {
        o.message += ", weights " + format_exact_bytes(w.total_bytes) + " from the file's " + format_count(num("tensor_count")) + " tensors";
        if (!w.mix.empty()) o.message += " (" + w.mix + ")";
    }
    if (!str("weights_format").empty()) o.message += ", format " + str("weights_format");
    if (serve && (base.task != Task::Inference || base.method != Method::Detailed))
        o.message += ". Task is now Inference and method Detailed, where " + engine + " serves the file";
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
