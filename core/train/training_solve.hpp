// vramcalc core: what fits when training. Each answer varies one input of a training Config and
// reports the best value whose per-GPU total (nvidia-smi view, worst rank) stays within the chosen
// GPU's memory x target_utilization: the largest micro-batch, the longest sequence, the fewest GPUs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/gpu_choice.hpp"
#include "core/solve.hpp"

namespace vc {

// The fewest GPUs of a type at which a training config's per-GPU total (the device total, worst
// rank) is within that GPU's memory x target_utilization, data parallelism grown (global batch 0:
// no accumulation kept; tensor, pipeline and context parallelism as set; with experts, dp steps
// keeping ep x etp dividing tp x dp x cp), up to 65,536 GPUs. The totals at each count are the
// config's GPU's and are kept for every GPU asked (only the CUDA context differs between GPUs:
// bytes_on with `own`), so the estimate's rows (training_estimate) and "min_gpus" are one search.
// `cfg` must be a valid training config (training_result ok).
class TrainingGpuCounts {
public:
    explicit TrainingGpuCounts(const Config& cfg);
    // 0 when no count up to 65,536 is within the target; a Mac (unified memory) is one machine: 1 or 0.
    int fewest(const GpuSpec& g, const OwnContext* own);
    // The device total at `gpus` (a multiple of gpus_per_step()) on the config's GPU; -1 on an error.
    double total_at(double gpus);
    double gpus_per_step() const { return static_cast<double>(step_ * mp_); }
    double model_parallel() const { return static_cast<double>(mp_); }
    double steps() const { return steps_; }  // the most steps tried

private:
    double total_at_step(double k);
    Config c_;
    long long mp_ = 1, step_ = 1;
    double steps_ = 1;
    std::vector<std::pair<double, double>> memo_;  // (steps, device total)
};

// Answers "max_batch", "max_seq" or "min_gpus" for a training / fine-tuning config; core/solve.cpp
// dispatches here. Needs cfg.gpu_id (Error field "gpu").
Outcome<Answer> solve_training(const Config& cfg, const std::string& question);

}  // namespace vc
