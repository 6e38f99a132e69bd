// vramcalc io: the JSON form of a Config and of an Estimate (docs/config.md). Shared by the CLI,
// the Embind bindings and the shell's URL state. Depends on core/ and nlohmann-json; never throws
// (the WebAssembly build has exceptions off), every failure is a vc::Error naming the field.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/result.hpp"
#include "core/status.hpp"
#include "json_writer.hpp"

namespace vc::io {

inline constexpr int kSchemaVersion = 1;

// Parses a JSON document (text) into a Config. Unknown keys are errors (they are usually typos).
// A document that names no method or task gets the ones `complete_document` gives.
Outcome<Config> parse_config(const std::string& text);
Outcome<Config> config_from_json(const nlohmann::json& doc);

// The method a user's document runs when it names none: the detailed model when it sets a field of a
// section only that model reads (inference, training, parallel, runtime, plan: an engine, a weight
// format, llama-server's -c or -ngl), which a rule of thumb would drop without a word; the quick
// method otherwise (Config's default). `section` gets the first such section ("" when none).
// parse_config (the JS API, `vramcalc batch`) and the CLI apply it; a link keeps its own base.
Method method_for_document(const nlohmann::json& doc, std::string* section = nullptr);

// Fills what a user's document leaves out as above: `method` from method_for_document; `task`
// "inference" when it names no task and sets an inference field but no training, parallel or
// runtime one; and `inference.engine` when it names none and sets one engine's own section
// (`llamacpp`, `vllm` or `hf`). So `vramcalc --preset ... -ngl 30` alone sizes llama.cpp, where a
// training estimate (or vLLM) would drop -ngl without a word. parse_config and the CLI apply it.
void complete_document(nlohmann::json& doc);

// The Config written back as JSON (every field, with its current value; whole numbers as integers).
nlohmann::json config_to_json(const Config& cfg);
// The "model" object of a config: {"preset": id (when unedited), architecture fields...}.
nlohmann::json model_to_json(const ModelSpec& m);

// {"ok":true, "method", "task", "components":[...], "breakdown":{key:bytes}, "total_bytes", ...}
// written as text with no tree in between (indent -1 compact, as dump()), or into a writer; the
// tree is that text parsed, for documents that hold a result among other members.
std::string estimate_text(const Estimate& e, int indent = -1);
void write_estimate(JsonWriter& w, const Estimate& e);
nlohmann::json estimate_to_json(const Estimate& e);
// {"ok":false, "error":{"field", "message"}}
nlohmann::json error_to_json(const Error& err);

// Serialises without throwing: invalid UTF-8 in strings is replaced. indent -1 = compact. dump()'s
// layout, every number the shortest text that reads back as the same double (json_writer.hpp).
std::string dump(const nlohmann::json& j, int indent = -1);
void write_json(JsonWriter& w, const nlohmann::json& j);

// Convenience for front ends: parse, estimate, serialise. Always returns a JSON document.
std::string estimate_json(const std::string& config_text);
// The same document with its GPU table ("fits") as columns, one array per member, the rows' order:
// {"fits":[...],"gpu":[...],"gpus_needed":[...],"utilization":[...],"within_target":[...]}, and an
// optional member's array (gpu_within_target, mac_needed_bytes, needs_ram_bytes, no_backend) only
// when a row has it, null in the rows without. The JS library's transport (web/engine_bindings.cpp
// estimateBytes; web/lib/entry.js makes the rows again): JSON.parse builds arrays of values about
// twice as fast as as many objects (issue 15). Everything else is estimate_json's, byte for byte.
std::string estimate_json_columns(const std::string& config_text);

// Names <-> enums, shared with the CLI's flags. Each returns false for an unknown name.
bool parse_method(const std::string& s, Method& out);
bool parse_task(const std::string& s, Task& out);
bool parse_quick_precision(const std::string& s, QuickPrecision& out);
bool parse_quick_optimizer(const std::string& s, QuickOptimizer& out);
const char* quick_precision_name(QuickPrecision p);
const char* quick_optimizer_name(QuickOptimizer o);

}  // namespace vc::io
