// vramcalc core: what fits when serving. Each answer varies one input of an inference plan and
// reports the best value that still fits: the longest context at N sequences, the most sequences
// at a context, the KV capacity in tokens, the fewest GPUs, the best weight format.
#pragma once

#include <string>
#include <vector>

#include "core/serve/inference.hpp"
#include "core/solve.hpp"

namespace vc {

// The share of a GPU the solvers fill: vLLM's own budget (gpu_memory_utilization; `share` unused)
// or `share` of the card for the other engines.
//
// Longest context (tokens per sequence) at which `concurrency` sequences fit; 0 when not even one
// token does, kMaxSolveContext when memory stops growing (every layer windowed).
inline constexpr double kMaxSolveContext = 16777216;
double longest_context(const InferencePlan& p, double concurrency, double share);

// Longest context for each concurrency in `concurrencies` (the "what fits" table).
std::vector<double> longest_context_curve(const InferencePlan& p, const std::vector<int>& concurrencies, double share);

// Most sequences of `context` tokens that fit; 0 when none.
double most_sequences(const InferencePlan& p, double context, double share);

// llama.cpp: the most layers (-ngl, 0..layers + 1 with the output layer) of `cfg`'s model in
// `format` ("" = the config's) that fit the GPU and, when given, system RAM, with `concurrency`
// sequences of `context` tokens; -1 when not even -ngl 0 fits.
int max_gpu_layers(const Config& cfg, const std::string& format, double context, double concurrency);

// Answers an inference question ("max_context", "max_concurrency", "kv_capacity", "min_gpus",
// "best_format") for `cfg`; core/solve.cpp dispatches here.
Outcome<Answer> solve_inference(const Config& cfg, const std::string& question);

}  // namespace vc
