// vramcalc core: quick and guide methods (rules of thumb, reproduced as published).
#include "core/rules/quick.hpp"

#include "core/fields.hpp"

#include <cmath>

#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {

// Accepted ranges are the field table's (core/fields.cpp; docs/config.md is generated from it).
namespace {
double table_max(const char* path) { return find_field(path)->max; }
}  // namespace

double quick_precision_bytes(QuickPrecision p) {
    switch (p) {
        case QuickPrecision::Fp32: return 4;
        case QuickPrecision::Fp16: return 2;
        case QuickPrecision::Bf16: return 2;
        case QuickPrecision::Int8: return 1;
        case QuickPrecision::Int4: return 0.5;
    }
    return 2;
}

double quick_optimizer_bytes_per_param(QuickOptimizer o) {
    switch (o) {
        case QuickOptimizer::AdamWMixed: return 12;  // fp32 master + m + v
        case QuickOptimizer::AdamW: return 8;        // m + v in fp32
        case QuickOptimizer::AdamW8bit: return 2;    // m + v in 8 bits
        case QuickOptimizer::Sgd: return 4;          // momentum in fp32
        case QuickOptimizer::Inference: return 0;
    }
    return 12;
}

Outcome<Estimate> quick_estimate(const QuickInputs& in, const RunShape& run) {
    Error err;
    // Ranges from the field table (core/fields.cpp).
    if (!check_value("params_b", in.params_b, err) || !check_value("batch", run.batch, err) || !check_value("seq", run.seq, err) ||
        !check_value("constants.activation_bytes_per_token_param", in.constants.activation_bytes_per_token_param, err) ||
        !check_value("constants.checkpoint_factor", in.constants.checkpoint_factor, err) ||
        !check_value("constants.buffer_fraction", in.constants.buffer_fraction, err) ||
        !check_value("constants.a100_gb", in.constants.a100_gb, err) || !check_value("constants.rtx4090_gb", in.constants.rtx4090_gb, err))
        return Outcome<Estimate>::failure(err);

    const bool inference = in.optimizer == QuickOptimizer::Inference;
    const double P = in.params_b * 1e9;
    const double wb = quick_precision_bytes(in.precision);
    const double ob = quick_optimizer_bytes_per_param(in.optimizer);
    const double ckpt = in.checkpointing ? in.constants.checkpoint_factor : 1.0;
    const double act_bytes = in.constants.activation_bytes_per_token_param * run.batch * run.seq * P * ckpt;

    Estimate e;
    e.method = "quick";
    e.task = inference ? "inference" : "training";
    e.components.reserve(4);
    const std::string params_text = num(P) + " params x ";
    const std::string weights_formula = params_text + num(wb) + " B";
    e.components.push_back({"weights", "Weights", P * wb, weights_formula});
    e.components.push_back({"gradients", "Gradients", inference ? 0 : P * wb, inference ? "0 (inference)" : weights_formula});
    e.components.push_back({"optimizer", "Optimizer state", P * ob, params_text + num(ob) + " B"});
    e.components.push_back({"activations", "Activations", act_bytes,
                            num(in.constants.activation_bytes_per_token_param) + " x batch " + num(run.batch) + " x seq " +
                                num(run.seq) + " x " + num(P) + " params" +
                                (in.checkpointing ? " x " + num(in.constants.checkpoint_factor) + " (checkpointing)" : "") +
                                " B"});
    for (const auto& c : e.components) e.total_bytes += c.bytes;
    e.buffered_bytes = e.total_bytes * (1 + in.constants.buffer_fraction);

    const double buffered_gb = bytes_to_gb(e.buffered_bytes);
    // NOTE: the quick method counts GPUs from the nominal size in GB, ignoring the CUDA context and
    // any sharding (a 7B model's weights cannot really be split over GPUs without ZeRO-3 or TP).
    auto fit = [&](const char* id, double nominal_gb) {
        GpuFit f;
        f.gpu_id = id;
        // More GPUs than a job may have (gpus <= table_max("gpus")): no count fits, 0 as in the catalog fits.
        int needed = 0;
        f.gpus_needed = to_int_checked(std::ceil(buffered_gb / nominal_gb - 1e-12), needed) && needed <= table_max("gpus")
                            ? (needed < 1 ? 1 : needed)
                            : 0;
        f.utilization = buffered_gb / nominal_gb;
        f.fits = f.gpus_needed == 1;
        f.within_target = f.fits;
        return f;
    };
    e.fits.reserve(2);
    e.fits.push_back(fit("a100-80gb", in.constants.a100_gb));
    e.fits.push_back(fit("rtx-4090-24gb", in.constants.rtx4090_gb));
    e.notes.push_back("Rule of thumb: activations scale with parameter count, not the architecture; no CUDA context; "
                      "GPU counts assume the job splits evenly over GPUs.");
    return Outcome<Estimate>::success(std::move(e));
}

double guide_training_bytes_per_gpu(const GuideInputs& in) {
    const double p = in.bytes;
    return (in.params * (2 * p + 12) + 2 * in.run.batch * in.run.seq * in.hidden * in.layers * p) / in.gpus * in.overhead_factor;
}

double guide_kv_cache_bytes(const GuideInputs& in) {
    return in.layers * in.run.batch * in.run.seq * (in.hidden / in.heads) * in.heads * 2 * in.bytes;
}

double guide_inference_bytes(const GuideInputs& in) {
    return (in.params * in.bytes + in.layers * in.run.batch * in.run.seq * (in.hidden / in.heads) * 2 * 2) * in.overhead_factor;
}

Outcome<Estimate> guide_estimate(const GuideInputs& in, bool training) {
    Error err;
    // "params" is a count, params_b's range in parameters.
    if (!check_positive("params", in.params, table_max("params_b") * 1e9, err) ||
        !check_members({{"model.layers", in.layers}, {"model.hidden", in.hidden}, {"model.heads", in.heads},
                        {training ? "guide.bytes" : "guide.weight_bytes", in.bytes},
                        {"batch", in.run.batch}, {"seq", in.run.seq}, {"gpus", in.gpus}},
                       err) ||
        !check_range("constants.overhead_factor", in.overhead_factor, 1, 10, err))
        return Outcome<Estimate>::failure(err);

    Estimate e;
    e.method = "guide";
    e.task = training ? "training" : "inference";
    const double f = in.overhead_factor;
    if (training) {
        const double states = in.params * (2 * in.bytes + 12) / in.gpus;
        const double acts = 2 * in.run.batch * in.run.seq * in.hidden * in.layers * in.bytes / in.gpus;
        e.components.push_back({"model_states", "Weights, gradients, optimizer", states,
                                num(in.params) + " x (2 x " + num(in.bytes) + " + 12) / " + num(in.gpus) + " GPUs"});
        e.components.push_back({"activations", "Activations", acts,
                                "2 x b " + num(in.run.batch) + " x s " + num(in.run.seq) + " x h " + num(in.hidden) + " x L " +
                                    num(in.layers) + " x " + num(in.bytes) + " B / " + num(in.gpus) + " GPUs"});
        e.total_bytes = states + acts;
    } else {
        const double w = in.params * in.bytes;
        const double kv = in.layers * in.run.batch * in.run.seq * (in.hidden / in.heads) * 2 * 2;
        e.components.push_back({"weights", "Weights", w, num(in.params) + " x " + num(in.bytes) + " B"});
        e.components.push_back({"kv_cache", "KV cache (one head)", kv,
                                "L " + num(in.layers) + " x b " + num(in.run.batch) + " x s " + num(in.run.seq) + " x (h/heads) " +
                                    num(in.hidden / in.heads) + " x 2 x 2 B"});
        e.total_bytes = w + kv;
    }
    e.buffered_bytes = e.total_bytes * f;
    e.metrics.push_back({"guide_kv_cache_bytes", "Guide KV cache function (all heads, batch)", guide_kv_cache_bytes(in), "bytes"});
    e.notes.push_back(training ? "Guide formula: activations 2bshLp ignore attention scores, MLP width and recomputation."
                               : "Guide formula: its KV term counts one head and 2-byte values; its KV function ignores "
                                 "grouped-query attention.");
    return Outcome<Estimate>::success(std::move(e));
}

}  // namespace vc
