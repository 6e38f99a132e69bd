// vramcalc io: the JSON documents front ends need beside a config, its estimate and solve answers
// (io/solve_json.hpp): the effective config, the model presets and the GPU catalog. Shared by the
// JS library (web/lib) and any front end (the CLI could list them as JSON). Never throws; field
// names are documented in docs/embed.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/catalog/gpus.hpp"
#include "core/model/model.hpp"

namespace vc::io {

// The effective config for a config text: every field with its value, defaults filled in (what
// `vramcalc --print-config` prints), or the error document: the reader's, or the estimate's for a
// value it refuses (outside its field's range), as `--print-config` refuses it.
std::string resolve_config_json(const std::string& config_text);

// {"id", "name", "family", "params_b", "active_params_b", "published_params_b", "approximate",
//  "architecture":{...the config's "model" fields...}}; params_b and active_params_b are derived
// from the architecture (core/model/model.hpp), 0 when it does not resolve.
nlohmann::json preset_to_json(const ModelSpec& m);
nlohmann::json presets_to_json();  // every preset, in display order

// {"id", "name", "nominal_gb", "memory_bytes", "bandwidth_gbps", "bf16_tflops", "fp8_tflops",
//  "price_per_hour_usd", "sms", "threads_per_sm", "source"}
nlohmann::json gpu_to_json(const GpuSpec& g);
nlohmann::json gpus_to_json();  // the catalog, in display order

}  // namespace vc::io
