// vramcalc io: the detailed training sections of the JSON config ("training", "parallel",
// "runtime"; docs/config.md) <-> Config. Called from io/config_json.cpp; never throws.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc::io {

// Reads the sections present in `doc` into `cfg`. The top-level "checkpointing": true means full
// recomputation when training.recompute is absent. Returns false with `err` naming the field.
bool read_training_sections(const nlohmann::json& doc, Config& cfg, Error& err);

// Writes the three sections into `j` (every field, current values).
void write_training_sections(const Config& cfg, nlohmann::json& j);

// Names shared with the CLI and the calibration reader. Each parse returns false for an unknown name.
bool parse_train_precision(const std::string& s, TrainPrecision& out);
bool parse_train_optimizer(const std::string& s, OptimizerKind& out);
bool parse_sharding(const std::string& s, Sharding& out, int& shard_group);
bool parse_recompute(const std::string& s, Recompute& out);
// "q,v", "q+k+v+o", ["q", "v"], "all-linear", "all-linear+head", "attention", "mlp" (HF names
// q_proj, gate_proj, ... and lm_head/output are accepted too).
bool parse_lora_targets(const std::string& s, unsigned& out);
std::string lora_targets_name(unsigned targets);

}  // namespace vc::io
