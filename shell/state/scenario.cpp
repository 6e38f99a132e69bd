// vramcalc shell state: shared inputs across methods (see scenario.hpp).
#include "scenario.hpp"

#include <cmath>

#include "core/quant/quant.hpp"
#include "core/status.hpp"

namespace vc::shell {

ModelMode model_mode(const Config& cfg) {
    if (!cfg.model.id.empty()) return ModelMode::Preset;
    if (cfg.model.approximate) return ModelMode::ParamsOnly;
    return ModelMode::Custom;
}

double model_params_b(const Config& cfg) {
    if (cfg.model.params_override_b > 0) return cfg.model.params_override_b;
    const auto m = resolve_model(cfg.model);
    return m.ok ? model_params(m.value).total / 1e9 : 0;
}

// The quick and guide methods read a parameter count; keep it the model's.
void sync_model(Config& cfg) {
    const double p = model_params_b(cfg);
    if (p > 0) cfg.quick.params_b = p;
}

void use_preset(Config& cfg, const ModelSpec& preset) {
    cfg.model = preset;
    follow_checkpoint_dtype(cfg);  // FP16 <-> BF16 as the checkpoint is published
    sync_model(cfg);
}

void use_params_only(Config& cfg, double params_b) {
    cfg.model = model_from_params(params_b);
    // NOTE: keep the typed value itself (model_from_params falls back to 1B for a bad count), so
    // the engine reports the bad value with its field instead of silently using another.
    cfg.model.params_override_b = params_b;
    cfg.quick.params_b = params_b;
}

void use_custom(Config& cfg) {
    if (model_mode(cfg) == ModelMode::ParamsOnly) {
        cfg.model.approximate = false;
        cfg.model.params_override_b = 0;
    }
    cfg.model.id.clear();
    if (cfg.model.name.empty() || cfg.model.name == "Approximate dense decoder") cfg.model.name = "Custom";
    sync_model(cfg);
}

void model_edited(Config& cfg) {
    // NOTE: a typed count stays (the guide reads the count and the dimensions apart); without one
    // the count follows the dimensions.
    cfg.model.id.clear();
    cfg.model.approximate = false;
    sync_model(cfg);
}

void set_task(Config& cfg, Task task, FinetuneMethod finetune) {
    sync_shared(cfg);  // the shared inputs as the active method has them
    const bool was_serving = cfg.task == Task::Inference;
    cfg.task = task;
    if (task == Task::Inference) cfg.quick.optimizer = QuickOptimizer::Inference;
    else if (was_serving && cfg.quick.optimizer == QuickOptimizer::Inference) cfg.quick.optimizer = QuickOptimizer::AdamWMixed;
    if (task == Task::Training) cfg.training.finetune = FinetuneMethod::Full;
    if (task == Task::FineTune) cfg.training.finetune = finetune;
}

void set_method(Config& cfg, Method method) {
    sync_shared(cfg);
    cfg.method = method;
}

// [SECTION] shared inputs -------------------------------------------------------------------------
namespace {


bool mixed(TrainPrecision p) {
    return p == TrainPrecision::Bf16Mixed || p == TrainPrecision::Fp16Mixed || p == TrainPrecision::Fp8Mixed;
}

double format_bits(const std::string& id) {
    const WeightFormat* f = find_weight_format(id);
    return f ? f->element_bits : 16;
}

// Quick precision -> the detailed sections and the guide's bytes.
void from_quick(Config& cfg) {
    const QuickInputs& q = cfg.quick;
    TrainingInputs& t = cfg.training;
    // The quick method tells bytes apart, not formats: a 16-bit choice keeps a 16-bit training
    // precision as it is (FP16 or BF16, mixed or pure, FP8 linear layers).
    const bool sixteen = t.precision != TrainPrecision::Fp32;
    switch (q.precision) {
        case QuickPrecision::Fp32: t.precision = TrainPrecision::Fp32; break;
        case QuickPrecision::Fp16:
            if (!sixteen) t.precision = TrainPrecision::Fp16Mixed;
            break;
        case QuickPrecision::Bf16:
            if (!sixteen) t.precision = TrainPrecision::Bf16Mixed;
            break;
        case QuickPrecision::Int8:
        case QuickPrecision::Int4: break;  // no training equivalent: the detailed precision stays
    }
    switch (q.optimizer) {
        case QuickOptimizer::AdamWMixed:
        case QuickOptimizer::AdamW:
            if (t.optimizer != OptimizerKind::PagedAdamW) t.optimizer = OptimizerKind::AdamW;
            break;
        case QuickOptimizer::AdamW8bit:
            if (t.optimizer != OptimizerKind::PagedAdamW8bit) t.optimizer = OptimizerKind::AdamW8bit;
            break;
        case QuickOptimizer::Sgd: t.optimizer = OptimizerKind::SgdMomentum; break;
        case QuickOptimizer::Inference: break;
    }
    // Checkpointing ticked: the detailed run recomputes (auto resolves by the profile: full for a
    // quantized base under peft). Unticked: an explicit full goes; auto stays the framework's default.
    if (q.checkpointing && resolved_recompute(cfg) == Recompute::None) t.recompute = Recompute::Full;
    if (!q.checkpointing && t.recompute == Recompute::Full) t.recompute = Recompute::None;

    std::string& w = cfg.inference.weights.format;
    const double bits = format_bits(w);
    switch (q.precision) {
        case QuickPrecision::Fp32: w = "fp32"; break;
        case QuickPrecision::Fp16: w = "fp16"; break;
        case QuickPrecision::Bf16: w = "bf16"; break;
        case QuickPrecision::Int8:
            if (!(bits >= 8 && bits < 16)) w = "int8";
            break;
        case QuickPrecision::Int4:
            if (!(bits < 8)) w = "awq-int4";
            break;
    }
    const double bytes = quick_precision_bytes(q.precision);
    cfg.guide_weight_bytes = bytes;
    // The guide's training formula reads one width p for weights and activations: 16-bit at least.
    cfg.guide_bytes = bytes < 2 ? 2 : bytes;
}

QuickPrecision precision_from_bytes(double bytes, QuickPrecision now) {
    if (bytes >= 4) return QuickPrecision::Fp32;
    if (bytes >= 2) return now == QuickPrecision::Fp16 || now == QuickPrecision::Bf16 ? now : QuickPrecision::Bf16;
    if (bytes >= 1) return QuickPrecision::Int8;
    return QuickPrecision::Int4;
}

// The detailed sections -> the quick precision and optimizer.
void to_quick_from_detailed(Config& cfg) {
    QuickInputs& q = cfg.quick;
    const TrainingInputs& t = cfg.training;
    if (cfg.task == Task::Inference) {
        const std::string& id = cfg.inference.weights.format;
        if (id == "fp32") q.precision = QuickPrecision::Fp32;
        else if (id == "fp16") q.precision = QuickPrecision::Fp16;
        else if (id == "bf16") q.precision = QuickPrecision::Bf16;
        else q.precision = precision_from_bytes(format_bits(id) / 8, q.precision);
        return;
    }
    const bool quick_sixteen = q.precision == QuickPrecision::Fp16 || q.precision == QuickPrecision::Bf16;
    switch (t.precision) {
        case TrainPrecision::Fp32: q.precision = QuickPrecision::Fp32; break;
        case TrainPrecision::Bf16Mixed:
        case TrainPrecision::Bf16True:
        case TrainPrecision::Fp8Mixed:
            if (!quick_sixteen) q.precision = QuickPrecision::Bf16;
            break;
        case TrainPrecision::Fp16Mixed:
        case TrainPrecision::Fp16True:
            if (!quick_sixteen) q.precision = QuickPrecision::Fp16;
            break;
    }
    switch (t.optimizer) {
        case OptimizerKind::AdamW:
        case OptimizerKind::PagedAdamW: q.optimizer = mixed(t.precision) ? QuickOptimizer::AdamWMixed : QuickOptimizer::AdamW; break;
        case OptimizerKind::AdamW8bit:
        case OptimizerKind::PagedAdamW8bit: q.optimizer = QuickOptimizer::AdamW8bit; break;
        case OptimizerKind::Sgd:
        case OptimizerKind::SgdMomentum: q.optimizer = QuickOptimizer::Sgd; break;
        default: break;  // Adafactor, Lion, custom: the quick method has no equivalent
    }
    q.checkpointing = resolved_recompute(cfg) == Recompute::Full;
}

}  // namespace

void sync_shared(Config& cfg) {
    const bool serving = cfg.task == Task::Inference;
    switch (cfg.method) {
        case Method::Quick: break;
        case Method::Guide:
            cfg.quick.precision = precision_from_bytes(serving ? cfg.guide_weight_bytes : cfg.guide_bytes, cfg.quick.precision);
            break;
        case Method::Detailed: to_quick_from_detailed(cfg); break;
    }
    if (serving) cfg.quick.optimizer = QuickOptimizer::Inference;
    const double guide_bytes = cfg.guide_bytes, guide_weight_bytes = cfg.guide_weight_bytes;
    const TrainingInputs training = cfg.training;
    const std::string weights = cfg.inference.weights.format;
    from_quick(cfg);
    // The active method's own fields stay exactly as the user set them.
    if (cfg.method == Method::Guide) {
        cfg.guide_bytes = guide_bytes;
        cfg.guide_weight_bytes = guide_weight_bytes;
    }
    if (cfg.method == Method::Detailed && !serving) cfg.training = training;
    if (cfg.method == Method::Detailed && serving) cfg.inference.weights.format = weights;
    align_run_shapes(cfg);
}

}  // namespace vc::shell
