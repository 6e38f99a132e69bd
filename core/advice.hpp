// vramcalc core: what to change when a config does not fit. Each suggestion is one small change
// (or two that belong together, such as a smaller micro-batch with more accumulation steps so the
// global batch stays), evaluated by the detailed model on the chosen GPU at the config's target,
// smallest change first. Front ends list them with their totals and apply one with a click.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"

namespace vc {

struct Suggestion {
    std::string id;           // stable key, e.g. "recompute_full", "batch_accumulate"
    std::string label;        // "Full activation recomputation"
    std::string detail;       // what changes: "training.recompute: none -> full"
    Config config;            // the config with the change (method: detailed)
    double total_bytes = 0;   // its per-GPU device total (what the fit verdict reads)
    double utilization = 0;   // of the chosen GPU
};

// The changes that bring `cfg` within its target on its GPU (cfg.gpu_id), at most `limit`,
// in order of how little they change: none when it already fits or no GPU is chosen.
std::vector<Suggestion> fit_suggestions(const Config& cfg, size_t limit = 5);

}  // namespace vc
