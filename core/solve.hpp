// vramcalc core: "what fits" questions. Each question varies one input of a Config and reports the
// best value that still fits the chosen GPU (cfg.gpu_id) at cfg.target_utilization, or a count.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc {

struct Answer {
    std::string question;      // e.g. "max_batch"
    std::string label;         // "Largest micro-batch that fits"
    double value = 0;          // the answer (0 = nothing fits)
    std::string unit;          // "sequences", "tokens", "GPUs", ...
    std::string explanation;   // one line: how the number follows
    std::vector<std::string> items;  // list answers (e.g. weight formats that fit, best first)
    // llama.cpp with no system RAM size (inference.host.ram_gib unset): the system RAM, in bytes, that
    // the answer's layout keeps layers, experts or KV in, which nothing checked (the verdict's rule,
    // GpuFit::needs_ram_bytes: core/serve/inference.hpp verdict_at); `value` is then bounded by the
    // GPU part alone, not a fit, and the explanation says so. 0: none, or the RAM was checked.
    double needs_ram_bytes = 0;
};

// Questions and which task they belong to, for front ends' lists.
struct QuestionInfo {
    const char* id;
    const char* label;
    const char* tasks;  // "training,finetune", "inference", ...
};
const std::vector<QuestionInfo>& solve_questions();

// Largest k in [1, hi] with fits(k), for fits monotone (true then false); 0 when fits(1) is false. A
// bisection, for answers whose slack jumps (training's totals; llama.cpp's placement under --fit).
template <typename Fits>
double last_fitting(Fits fits, double hi) {
    if (!fits(1)) return 0;
    if (fits(hi)) return hi;
    double lo = 1;
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (fits(mid)) lo = mid;
        else hi = mid;
    }
    return lo;
}

// Answers `question` for `cfg`. Unknown question or one that does not apply to cfg.task: Error
// with field "question".
Outcome<Answer> solve(const Config& cfg, const std::string& question);

}  // namespace vc
