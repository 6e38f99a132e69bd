// vramcalc core: what fits when training. Each answer varies one input of a training Config and
// reports the best value whose per-GPU total (nvidia-smi view, worst rank) stays within the chosen
// GPU's memory x target_utilization: the largest micro-batch, the longest sequence, the fewest GPUs.
#pragma once

#include <string>

#include "core/solve.hpp"

namespace vc {

// Answers "max_batch", "max_seq" or "min_gpus" for a training / fine-tuning config; core/solve.cpp
// dispatches here. Needs cfg.gpu_id (Error field "gpu").
Outcome<Answer> solve_training(const Config& cfg, const std::string& question);

}  // namespace vc
