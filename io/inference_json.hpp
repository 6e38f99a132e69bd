// vramcalc io: the "inference" section of the config (docs/config.md) <-> core InferenceInputs.
#pragma once

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/serve/inference.hpp"
#include "core/status.hpp"

namespace vc::io {

// Reads the section into cfg.inference (fields absent keep their values; the field table's
// accessors reach it through the Config). Errors name "inference.<field>".
bool read_inference(const nlohmann::json& j, Config& cfg, Error& err);

// Every field with its current value (byte constants in GiB, as the config takes them).
nlohmann::json inference_to_json(const InferenceInputs& in);

// The "weights_file" object (exact bytes read from a model file; io/model_import.hpp writes it).
nlohmann::json weights_file_to_json(const WeightsFile& f);

bool parse_engine(const std::string& s, Engine& out);  // "vllm", "llama.cpp" (or "llamacpp"), "hf"

}  // namespace vc::io
