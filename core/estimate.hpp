// vramcalc core: the single entry point every front end calls (CLI, Embind, the ImGui shell).
#pragma once

#include "config.hpp"
#include "result.hpp"
#include "status.hpp"

namespace vc {

// Validates `cfg` and runs its method. Never throws; errors name the config field.
Outcome<Estimate> estimate(const Config& cfg);

// For each catalog GPU: how many of it a job needs when each GPU must hold `per_gpu_bytes`
// (1 when it fits on one, 0 when it never fits) and whether it fits with `gpus` of them.
void fill_catalog_fits(Estimate& e, double per_gpu_bytes, double target_utilization);

}  // namespace vc
