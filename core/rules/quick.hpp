// [FOLDER] core/rules/: quick.hpp/.cpp (the quick and guide rules of thumb, as published).
// vramcalc core: the rules of thumb this product grew from, reproduced exactly as published so a
// user can compare them with the detailed model.
//  - Quick: the popular public calculator (params x bytes, activations proportional to params, +20%).
//  - Guide: a cluster-sizing guide's three functions (training per GPU, KV cache, inference), x1.15.
// docs/methods.md lists every known flaw of both; they are kept as published on purpose.
#pragma once

#include "core/result.hpp"
#include "core/run_shape.hpp"
#include "core/status.hpp"

namespace vc {

enum class QuickPrecision { Fp32, Fp16, Bf16, Int8, Int4 };
enum class QuickOptimizer { AdamWMixed, AdamW, AdamW8bit, Sgd, Inference };

// Constants of the quick method, as the public calculator states them (overridable per call).
struct QuickConstants {
    // Activations bytes = this x batch x seq x params. NOTE: the calculator's text writes
    // "2.5e-9 x batch x seq x params GB", but its worked example (143.36 GB for 7B, b4, s2048) is
    // 1000x smaller than that expression; this value reproduces the example (docs/methods.md).
    double activation_bytes_per_token_param = 2.5e-3;
    double checkpoint_factor = 0.25;                // activations x this with checkpointing
    double buffer_fraction = 0.20;                  // +20% on the total
    double a100_gb = 80;                            // divides the buffered total for "A100-80GB"
    double rtx4090_gb = 24;                         // divides the buffered total for "RTX 4090-24GB"
};

struct QuickInputs {
    double params_b = 7;           // parameters, billions
    QuickPrecision precision = QuickPrecision::Fp16;
    QuickOptimizer optimizer = QuickOptimizer::AdamWMixed;
    bool checkpointing = false;
    QuickConstants constants{};
};

double quick_precision_bytes(QuickPrecision p);          // 4, 2, 2, 1, 0.5
double quick_optimizer_bytes_per_param(QuickOptimizer o); // 12, 8, 2, 4, 0

// Validates and computes for `run` (batch x seq tokens). Components: weights, gradients, optimizer,
// activations (per job, the quick method has no notion of sharding). fits: "a100-80gb" and
// "rtx-4090-24gb" with the method's ceil(buffered / nominal GB) counts.
Outcome<Estimate> quick_estimate(const QuickInputs& in, const RunShape& run);

// Guide formulas. Model dimensions plus the run's shape.
struct GuideInputs {
    double params = 70e9;       // parameter count (not billions)
    double layers = 80;
    double hidden = 8192;
    double heads = 64;
    double bytes = 2;           // bytes per value (p)
    RunShape run{1, 4096};      // b and s
    double gpus = 8;
    double overhead_factor = 1.15;  // the guide's x1.15
};

// The three functions exactly as the guide's code computes them, in bytes.
double guide_training_bytes_per_gpu(const GuideInputs& in);   // (P(2p+12) + 2bshLp)/GPUs x 1.15
double guide_kv_cache_bytes(const GuideInputs& in);           // L b s (h/heads) heads 2 p
double guide_inference_bytes(const GuideInputs& in);          // (P bytes + L b s (h/heads) 2 2) x 1.15

// Validates and returns a breakdown for training (task "training") or inference.
Outcome<Estimate> guide_estimate(const GuideInputs& in, bool training);

}  // namespace vc
