// vramcalc core: the detailed training result as an Estimate: components per GPU at the peak with
// the formula that produced each, metrics (peaks, host RAM, counts) and notes.
#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/catalog/cuda_context.hpp"
#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/text.hpp"
#include "core/train/training_internal.hpp"
#include "core/train/training_solve.hpp"

namespace vc {
namespace {

// "12.34 GB" (bytes / 1e9, two decimals) by integer arithmetic: printf's float conversion is the
// slowest part of building an Estimate (bench/bench_training.cpp).
std::string bytes_gb(double b) {
    long long hundredths = 0;
    if (!to_int_checked(std::round(std::fabs(b) / 1e7), hundredths)) return num(b / 1e9) + " GB";  // NaN, or past 9e16 GB
    std::string s = b < 0 ? "-" : "";
    s += std::to_string(hundredths / 100);
    s += '.';
    s += static_cast<char>('0' + hundredths % 100 / 10);
    s += static_cast<char>('0' + hundredths % 10);
    s += " GB";
    return s;
}

// num() without printf for whole numbers (integers as integers, >= 1e7 as "8.03e9", 4
// significant digits); other values go through num(). Same text as num(), several times faster.
std::string fnum(double v) {
    if (!std::isfinite(v) || v < 0 || std::floor(v) != v || v >= 1e18) return num(v);
    if (v < 1e7) return std::to_string(static_cast<long long>(v));
    int e = static_cast<int>(std::floor(std::log10(v)));
    long long m = std::llround(v / std::pow(10.0, e - 3));
    if (m >= 10000) {
        ++e;
        m = std::llround(v / std::pow(10.0, e - 3));
    }
    std::string digits = std::to_string(m);  // 4 digits
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    std::string out(1, digits[0]);
    if (digits.size() > 1) out += "." + digits.substr(1);
    return out + "e" + std::to_string(e);
}

// " / 8 (ZeRO shards)", with the routed experts' own group when it differs.
std::string shards(const TrainingSetup& s, const char* what) {
    std::string f = " / " + fnum(s.dp_shard) + " (" + what + ")";
    if (s.m.experts > 0 && s.edp_shard != s.dp_shard) f += ", routed experts / " + fnum(s.edp_shard);
    return f;
}

std::string weights_formula(const TrainingSetup& s, const TrainingParts& parts, const TrainingResult& r) {
    std::string f;
    if (!s.lora) {
        // With ZeRO-3 the count is the GPU's stage and TP slice before sharding; the shards divide it below.
        f = fnum(parts.stage_params) + (s.in.sharding == Sharding::Zero3 || (fsdp_shard_grad_op(s) && s.dp_shard > 1) ? " params before sharding x " : " params on this GPU x ") +
            fnum(s.weight_bytes) + " B";
        f += s.fp32 ? " (FP32)" : (s.weight_bytes == 4 ? " (FP32 params, mixed precision)" : " (16-bit params)");
    } else {
        if (s.qlora)
            f = fnum(parts.stage_quantized) + " quantized x " + fnum(s.quant_bytes) + " B + " + fnum(parts.stage_unquantized) + " x " +
                fnum(s.weight_bytes) + (s.upcast_frozen ? " B (frozen base in FP32: peft's cast" : " B (frozen base") +
                (parts.stage_experts_unquantized > 0 ? ", " + fnum(parts.stage_experts_unquantized) + " of them routed experts left unquantized" : "") +
                ") + " + fnum(parts.stage_trainable) + " adapter params x " + fnum(s.adapter_bytes) + " B";
        else
            f = fnum(parts.stage_params - parts.stage_trainable) + " frozen x " + fnum(s.weight_bytes) + (s.lora_base_fp32 ? " B (FP32 base) + " : " B + ") +
                fnum(parts.stage_trainable) + " adapter params x " + fnum(s.adapter_bytes) + " B";
    }
    if (s.in.sharding == Sharding::Zero3) f += shards(s, "ZeRO-3 shards");
    if (fsdp_shard_grad_op(s) && s.dp_shard > 1) f += shards(s, "FSDP SHARD_GRAD_OP shards the parameters at rest");
    if (s.in.offload_params) f += "; offloaded to host RAM: 0 on the GPU";
    (void)r;
    return f;
}

// LoRA on the routed experts (training.lora.expert_adapters): what the setting counts against the others,
// the bytes each adapter parameter takes (weights, gradient, optimizer state), and the way to the others.
void add_expert_adapters_note(const TrainingSetup& s, const TrainingParts& p, Estimate& e) {
    const ExpertAdapters a = s.expert_adapters;
    const double per_param = s.adapter_bytes + s.grad_bytes + optimizer_bytes_per_param(s);
    const double per_expert = routed_expert_adapter_params(s, ExpertAdapters::PerExpert);
    const double fused = routed_expert_adapter_params(s, ExpertAdapters::TargetParameters);
    const std::string how = s.in.lora.expert_adapters == ExpertAdapters::Auto ? "auto, profile " + std::string(s.profile.id) : "as set";
    const std::string head = std::string("Routed experts' adapters (training.lora.expert_adapters ") + expert_adapters_name(a) + ", " + how + "): ";
    std::string costs = " at " + fnum(per_param) + " B each with gradient and optimizer state";
    // Expert parallelism: each GPU holds its E / EP experts' adapters (split over ETP), not a TP slice of all.
    if (a != ExpertAdapters::None && s.ep * s.etp > 1)
        costs += " (in all; this GPU holds " + fnum(p.stage_lora_routed) + " of them, its " + fnum(s.m.experts / static_cast<double>(s.ep)) +
                 " experts' (EP " + fnum(s.ep) + (s.etp > 1 ? ", each / ETP " + fnum(s.etp) : "") + ") on its " + fnum(p.moe_layers_on) + " MoE layers)";
    if (a == ExpertAdapters::None) {
        e.notes.push_back(head + "transformers 5 stores the routed experts as fused 3-D nn.Parameters, which peft's target_modules "
                          "(gate_proj, up_proj, down_proj, all-linear) never match, so they get no adapters; the dense MLPs and shared "
                          "experts keep theirs. Per expert (transformers 4, LitGPT, torchtune) they would add " + fnum(per_expert) +
                          " params, " + bytes_gb(per_expert * per_param) + costs + "; peft's target_parameters (--set "
                          "training.lora.expert_adapters=target-parameters, lora.dropout 0) adds " + fnum(fused) + ", " +
                          bytes_gb(fused * per_param) + ", and merges each layer's experts per forward." +
                          (p.stage_trainable == 0 ? " No module left to adapt: peft's get_peft_model raises \"Target modules ... not found "
                                                    "in the base model\" (src/peft/tuners/tuners_utils.py:1039 at 5d602fd); add attention targets."
                                                  : ""));
    } else if (a == ExpertAdapters::TargetParameters) {
        const double layers = s.recompute == Recompute::Full ? 1 : p.moe_layers_on;
        e.notes.push_back(head + fnum(fused) + " params on the routed experts, r x (in + out) per expert per fused tensor, " +
                          bytes_gb(fused * per_param) + costs + ". peft's ParamWrapper merges W + scaling B A for each MoE layer's "
                          "forward, " + bytes_gb(p.merged_experts_layer) + " a layer on this GPU in the base's dtype, kept for backward on " +
                          fnum(layers) + (s.recompute == Recompute::Full ? " layer (the one recomputed)" : " layers") + ", plus " +
                          bytes_gb(p.merged_experts_temp) + " of delta or gradient at a time" +
                          (s.recompute == Recompute::Full ? "" : "; training.recompute full keeps one layer's") +
                          ". Unsloth's separated MoE LoRA and Axolotl's ScatterMoE/SonicMoE kernels apply the same adapters "
                          "without the merged copy (target-parameters-unmerged).");
    } else if (a == ExpertAdapters::TargetParametersUnmerged) {
        e.notes.push_back(head + fnum(fused) + " params on the routed experts, r x (in + out) per expert per fused tensor, " +
                          bytes_gb(fused * per_param) + costs + ", applied beside the base grouped matmul with no merged weight "
                          "(Unsloth's separated MoE LoRA, Axolotl's MoE kernels); plain peft merges W + B A per forward (target-parameters).");
    } else if (s.profile.lora_skips_fused_experts) {
        e.notes.push_back(head + fnum(per_expert) + " params, one adapter per expert matrix as transformers 4 builds them; profile " +
                          std::string(s.profile.id) + " loads transformers 5, whose fused experts peft's target_modules do not reach "
                          "(auto: none).");
    }
}

std::string gradients_formula(const TrainingSetup& s, const TrainingParts& parts, const TrainingResult& r) {
    std::string f = fnum(parts.stage_trainable) + " trainable params x " + fnum(s.grad_bytes) + " B";
    const bool unsharded = (s.profile.no_sync_accumulation && s.accum > 1) || pp_unsharded(s);
    if (s.in.sharding >= Sharding::Zero2 && !unsharded) f += shards(s, "ZeRO-2/3 shards");
    if (s.in.sharding >= Sharding::Zero2 && unsharded)
        f += pp_unsharded(s) ? ", unsharded until the last pipeline micro-batch" : ", unsharded while no_sync() accumulates";
    if (parts.ddp_copy > 0) f += " + DDP bucket copy " + bytes_gb(parts.ddp_copy);
    if (!parts.grads_at_peak && !r.peak_in_optimizer_step && r.gradients <= r.activations + r.logits_loss)
        f += "; allocated during backward as activations are freed: " + bytes_gb(r.gradients) + " in all, 0 at the peak";
    return f;
}

std::string optimizer_formula(const TrainingSetup& s, const TrainingParts& parts) {
    std::string f = fnum(parts.stage_trainable) + " trainable params x " + fnum(parts.opt_per_param) + " B (" + optimizer_name(s.in.optimizer);
    if (s.master_bytes > 0) f += " + FP32 master 4 B";
    f += ")";
    if (s.in.sharding >= Sharding::Zero1) f += shards(s, "ZeRO shards");
    if (s.in.offload_optimizer) f += "; offloaded to host RAM: 0 on the GPU";
    return f;
}

const char* attention_label(AttentionKernel a) {
    switch (a) {
        case AttentionKernel::Eager: return "eager";
        case AttentionKernel::Fa2: return "FlashAttention-2";
        case AttentionKernel::SdpaGqa: return "SDPA enable_gqa";
        default: return "flash/SDPA";
    }
}

std::string activations_formula(const TrainingSetup& s, const TrainingParts& parts, const TrainingResult& r) {
    std::string f = fnum(parts.dense_layers_on + parts.moe_layers_on) + " layers x " + bytes_gb(r.activation_bytes_per_layer) +
                     " per layer (" + fnum(r.tokens_per_micro_batch) + " tokens, " + recompute_name(s.recompute) +
                     " recompute, " + attention_label(s.attention) + " attention)";
    if (r.in_flight_micro_batches != 1) f += " x " + fnum(r.in_flight_micro_batches) + " micro-batches in flight (pipeline)";
    if (parts.recompute_transient > 0 && parts.recompute_counted < parts.recompute_transient)
        f += " + one layer recomputed " + bytes_gb(parts.recompute_transient) +
             (s.profile.loss_frees_logits || parts.loss_checkpointed || parts.liger_flce ? " after the loss freed the logits (" + bytes_gb(parts.recompute_counted) + " above them)"
                                          : " beside the loop's kept logits (" + bytes_gb(parts.recompute_counted) + " above the loss's backward)");
    else if (parts.recompute_transient > 0) f += " + one layer recomputed " + bytes_gb(parts.recompute_transient);
    if (r.peak_in_optimizer_step) f += "; freed before the optimizer step (the peak)";
    else if (!parts.grads_at_peak && r.gradients > r.activations + r.logits_loss) f += "; freed by the end of backward (the peak)";
    return f;
}

std::string logits_formula(const TrainingSetup& s, const TrainingParts& parts, const TrainingResult& r) {
    if (r.logits_loss == 0 && !r.peak_in_optimizer_step) return "0 (not the last pipeline stage)";
    std::string f = fnum(parts.logits_tokens) + " tokens x " + fnum(parts.logits_vocab) +
                    (s.in.head == OutputHead::Classifier ? " labels" : " vocab") + " x " + fnum(parts.logits_bytes_per_value) + " B";
    if (parts.liger_flce) {
        // Liger's fused linear cross-entropy at its last chunk (core/train/training.cpp).
        f += " (Liger's fused linear cross-entropy: one chunk's logits, their gradient written in place)";
        if (parts.liger_temporaries > 0) f += " + the chunk's temporaries " + bytes_gb(parts.liger_temporaries);
        f += " + the hidden states' gradient " + bytes_gb(parts.liger_grad_input);
        if (parts.liger_grad_weight > 0) f += " + the LM head's gradient " + bytes_gb(parts.liger_grad_weight);
        f += std::string(" + FP32 per-token loss") + (s.profile.liger_token_accuracy ? " and token accuracy (TRL's return_token_accuracy) " : " ") +
             bytes_gb(parts.liger_loss_values) + "; the full logits never exist";
    } else if (parts.loss_checkpointed) {
        // One chunk's buffers, the head weight's copies, the sorted hidden states (TRL's chunked_nll).
        f += " (one chunk of " + fnum(s.profile.loss_chunk_tokens) + " valid tokens under checkpoint: its logits and FP32 loss)";
        f = "max(head copies at the cast " + bytes_gb(parts.loss_head_at_cast) + ", the saved copy " + bytes_gb(parts.loss_head_saved) +
            " + " + f + ") + sorted hidden states and their gradient " + bytes_gb(parts.loss_hidden);
    } else if (s.in.head == OutputHead::LanguageModel) {
        f += std::string(" (") + (s.profile.compile_loss ? "compiled loss" : s.profile.logits_fp32 ? "FP32 loss" : "16-bit loss") +
             (s.profile.loss_chunk_tokens > 0 ? ", chunked by " + fnum(s.profile.loss_chunk_tokens) + " tokens" : "") + ")";
    }
    if (r.peak_in_optimizer_step) f += "; freed before the optimizer step (the peak)";
    return f;
}

std::string temporary_formula(const TrainingSetup& s, const TrainingParts& parts, const TrainingResult& r) {
    if (r.peak_in_optimizer_step)
        return std::string("optimizer step: ") + (s.profile.foreach_optimizer ? "foreach temporaries of the local state" : "per-tensor temporaries") +
               " + library workspaces";
    std::string f;
    auto add = [&](const char* what, double b) {
        if (b <= 0) return;
        if (!f.empty()) f += " + ";
        f += std::string(what) + " " + bytes_gb(b);
    };
    add("autocast 16-bit weight copies", parts.autocast_copies);
    add(fsdp_shard_grad_op(s) ? "FSDP SHARD_GRAD_OP: the stage's parameters gathered from forward to backward" : "ZeRO-3 gathered layers", parts.gather);
    add("communication buckets", parts.comm_buckets);
    add("QLoRA dequantized weight", parts.dequant);
    add("FP8 weight copies", parts.fp8_copies);
    add("FP32 LM head's 16-bit autocast copy", parts.head_cast);
    add("cuBLAS workspace", s.rt.library_workspace_bytes);
    return f.empty() ? "0" : f;
}

// What training.liger did: the family's patch and what it saved at the peak (the same config without it), or
// why it changed nothing.
std::string liger_note(const Config& cfg, const TrainingSetup& s, const TrainingResult& r) {
    std::string n = "Liger Kernel (training.liger): ";
    if (!s.profile.liger_patches)
        return n + "profile " + s.profile.id + " does not run a transformers model that Liger's patches replace (hf-trainer, "
               "torch-compile, deepspeed and trl do); nothing changed.";
    if (!*s.liger.fn)
        return n + "Liger has no patch for " + (s.m.name.empty() ? std::string("this model") : s.m.name) +
               " (liger_kernel's MODEL_TYPE_TO_APPLY_LIGER_FN has no entry for its model type); nothing changed" +
               (s.profile.loss_chunks_checkpointed ? " but TRL's loss_type, \"nll\" under use_liger_kernel." : ".");
    Config off = cfg;
    off.training.liger = false;
    auto base = training_result(off);
    std::string what;
    if (s.liger.flce) what += "fused linear cross-entropy (LM head and loss)";
    if (s.liger.rms_norm) what += std::string(what.empty() ? "" : ", ") + "RMSNorm";
    if (s.liger.glu) what += std::string(what.empty() ? "" : ", ") + (s.m.mlp == MlpKind::GeGlu ? "GeGLU" : "SwiGLU");
    n += std::string(s.liger.fn) + " swaps in Liger's " + (what.empty() ? "RoPE" : what + " and RoPE") + " (RoPE in place: no saved tensor changes)";
    if (!base.ok) return n + ".";
    const TrainingResult& b = base.value;
    n += ": peak allocated " + bytes_gb(b.peak_allocated) + " -> " + bytes_gb(r.peak_allocated) + " (logits and loss " + bytes_gb(b.logits_loss) +
         " -> " + bytes_gb(r.logits_loss) + ", activations " + bytes_gb(b.activations) + " -> " + bytes_gb(r.activations) + "), " +
         bytes_gb(b.peak_allocated - r.peak_allocated) + " saved.";
    return n;
}

}  // namespace

Outcome<Estimate> training_estimate(const Config& cfg) {
    auto setup = training_setup(cfg);
    if (!setup.ok) return Outcome<Estimate>::failure(setup.error);
    const TrainingSetup& s = setup.value;
    TrainingParts p;
    const TrainingResult r = compute_training(s, &p);
    const bool step = r.peak_in_optimizer_step;

    Estimate e;
    e.method = "detailed";
    e.task = task_name(cfg.task);
    e.components.reserve(8);
    e.metrics.reserve(16);
    e.notes.reserve(5);
    // The components show the peak moment. Without accumulation and with set_to_none, backward
    // allocates gradients as it frees activations: the peak is its start (activations + logits) or
    // its end (all gradients), whichever is larger; the optimizer step is a third candidate.
    const bool grads_side = !step && !p.grads_at_peak && r.gradients > r.activations + r.logits_loss;
    const bool acts_gone = step || grads_side;
    const double grads_now = (step || p.grads_at_peak || grads_side) ? r.gradients : 0;
    e.components.push_back({"weights", "Weights", r.weights, weights_formula(s, p, r)});
    e.components.push_back({"gradients", "Gradients", grads_now + p.ddp_copy, gradients_formula(s, p, r)});
    e.components.push_back({"optimizer", "Optimizer state", r.optimizer, optimizer_formula(s, p)});
    e.components.push_back({"activations", "Activations", acts_gone ? 0 : r.activations, activations_formula(s, p, r)});
    e.components.push_back({"logits_loss", "Logits and loss", acts_gone ? 0 : r.logits_loss, logits_formula(s, p, r)});
    e.components.push_back({"temporary", "Temporary buffers", r.temporary, temporary_formula(s, p, r)});
    e.components.push_back({"allocator", "Allocator slack (reserved - allocated)", r.allocator_slack,
                            fnum(s.fragmentation) + " x (activations + logits + temporaries) churn"});
    const std::string context = std::string(gpu_runtime_name(config_gpu(cfg))) + " context";
    const bool metal = context == "Metal context";  // PyTorch's MPS backend: no NCCL on a Mac
    e.components.push_back({"runtime", metal ? context : context + " + NCCL", r.runtime,
                            context + " " + bytes_gb(s.rt.cuda_context_bytes) + " (" + s.context_formula + ")" +
                                (s.gpus > 1 ? " + NCCL buffers " + bytes_gb(s.rt.nccl_bytes) : std::string())});
    for (const auto& c : e.components) e.total_bytes += c.bytes;
    e.buffered_bytes = e.total_bytes;

    auto metric = [&](const char* key, const char* label, double v, const char* unit) { e.metrics.push_back({key, label, v, unit}); };
    metric("peak_allocated_bytes", "Peak allocated (max_memory_allocated)", r.peak_allocated, "bytes");
    metric("peak_reserved_bytes", "Peak reserved (caching allocator)", r.peak_reserved, "bytes");
    metric("device_total_bytes", "Device total (nvidia-smi)", r.device_total, "bytes");
    metric("host_ram_bytes", "Host RAM per GPU (offload)", r.host_ram, "bytes");
    metric("params", "Parameters", r.params_total, "count");
    metric("trainable_params", "Trainable parameters", s.lora ? r.params_trainable : r.params_total, "count");
    // The stage's TP slice, not divided by ZeRO-3/FSDP's shards (the Weights formula divides it).
    metric("params_per_gpu", "Parameters on this GPU before ZeRO-3/FSDP sharding", r.params_on_gpu, "count");
    metric("gradients_bytes", "Gradients (all, this GPU)", r.gradients, "bytes");
    metric("activations_bytes", "Activations at the forward/backward peak", r.activations, "bytes");
    metric("activation_bytes_per_layer", "Activations per layer, one micro-batch", r.activation_bytes_per_layer, "bytes");
    metric("tokens_per_micro_batch", "Tokens per micro-batch on this GPU", r.tokens_per_micro_batch, "tokens");
    metric("grad_accum", "Gradient accumulation steps", r.grad_accum, "count");
    metric("global_batch", "Global batch", r.global_batch, "sequences");
    metric("data_parallel", "Data-parallel size", r.dp, "count");
    metric("layers_per_gpu", "Layers on this GPU", r.layers_on_gpu, "count");
    metric("in_flight_micro_batches", "Micro-batches in flight (pipeline)", r.in_flight_micro_batches, "count");

    e.notes.push_back(std::string("Framework profile: ") + s.profile.label + ".");
    if (s.fsdp_params_16bit)
        e.notes.push_back("FSDP mixed precision (param_dtype 16-bit: accelerate's MixedPrecision, Lightning's FSDPPrecision since 2.6): "
                          "the layers compute on the "
                          "gathered 16-bit parameters, so the residual stream and the saved activations are 16-bit, not "
                          "autocast's FP32; the sharded parameters, gradients and optimizer state stay FP32.");
    if (s.lora_base_fp32)
        e.notes.push_back(std::string("Frozen base in FP32 (training.lora.base_fp32 ") + (s.in.lora.base_fp32 == Toggle::Auto ? "auto" : "true") +
                          "): LitGPT builds the model under Lightning's mixed-precision plugin, which keeps PyTorch's default FP32, and "
                          "loads the checkpoint into it; autocast casts each frozen weight at every matmul and keeps the 16-bit copy for "
                          "backward (" + bytes_gb(p.autocast_copies) + " here). precision \"bf16-true\" builds it in BF16.");
    if (recurrent_layer_count(s.m) > 0)
        e.notes.push_back("Hybrid model (" + layer_mix_text(s.m) + "): the parameters, gradients and optimizer state are counted per "
                          "layer kind, but the activations a recurrent layer saves for backward (the chunked kernels transformers "
                          "calls: fla's chunk_gated_delta_rule, mamba_ssm's mamba_chunk_scan_combined) are counted as an attention "
                          "layer's of the same width, and LoRA adapters and Adafactor's factored state as the attention layers': "
                          "the activation term is approximate.");
    if (gpt_oss_sinks(s.m) && s.profile.hf_attention && s.in.attention == AttentionKernel::Auto)
        e.notes.push_back("gpt-oss has no SDPA path in transformers (its attention sinks): loaded without attn_implementation it "
                          "trains with eager attention, whose s x s scores are counted here.");
    if (recompute_from_kbit_rule(s.in))
        e.notes.push_back("Full recomputation (training.recompute auto): peft's prepare_model_for_kbit_training, which " +
                          std::string(s.profile.id) + " runs on a quantized base, turns gradient checkpointing on "
                          "(use_gradient_checkpointing=True by default); set training.recompute \"none\" if your script "
                          "passes use_gradient_checkpointing=False.");
    else if (recompute_from_profile_default(s.in))
        e.notes.push_back("Full recomputation (training.recompute auto): TRL's SFTConfig defaults gradient_checkpointing to True "
                          "(0.22 and later); set training.recompute \"none\" if your SFTConfig passes gradient_checkpointing=False.");
    else if (recompute_from_multi_gpu_rule(cfg))
        e.notes.push_back("Full recomputation (training.recompute auto): LitGPT's fine-tuning scripts checkpoint every transformer "
                          "block on more than one GPU (finetune/full.py's FSDPStrategy with activation_checkpointing_policy={Block}, "
                          "finetune/lora.py's parallelize_fn with activation_checkpointing=True); on one GPU, and in pretrain.py, "
                          "nothing is checkpointed. Set training.recompute \"none\" for a script that turns it off.");
    else if (s.in.recompute == Recompute::Auto && std::string(s.profile.id) == "torchtune")
        // pytorch/torchtune@bd2a0fc recipes/lora_finetune_single_device.py:181 (and full_/lora_ distributed): cfg.get(
        // "enable_activation_checkpointing", False); recipes/configs/*.yaml: 126 of 178 say True, 58 of 70 single-device.
        e.notes.push_back("No recomputation (training.recompute auto): torchtune's recipes default enable_activation_checkpointing "
                          "to False, but most of its shipped configs set it True (58 of 70 single-device ones, e.g. llama3_1/"
                          "8B_lora_single_device.yaml); set training.recompute \"full\" if yours does.");
    if (p.loss_checkpointed) {
        // The head's copies a chunk makes (none where autocast's cached cast of a trainable FP32 head serves).
        const std::string copies = (s.weight_bytes < 4 || s.fsdp_params_16bit) ? (p.loss_head_at_cast > p.loss_head_saved ? "FP32 copy (w.float()) and autocast's 16-bit cast of it"
                                                                                                  : "FP32 copy (w.float())")
                                                      : "16-bit autocast cast";
        e.notes.push_back("Loss: TRL's chunked_nll (SFTConfig's loss_type default since 1.7), " + fnum(s.profile.loss_chunk_tokens) +
                          " valid tokens at a time under checkpoint, so the full logits never exist" +
                          (p.loss_head_at_cast > 0 ? "; each chunk makes the LM head's " + copies + ", " + bytes_gb(p.loss_head_at_cast) + " at the cast" : "") +
                          "; set training.loss_chunk_tokens 0 for loss_type \"nll\" (TRL 1.6 and earlier).");
    }
    if (cfg.training.liger) e.notes.push_back(liger_note(cfg, s, r));
    if (liger_bypasses_head_adapter(s))
        e.notes.push_back("Warning: training.lora.targets names the LM head, but Liger's fused linear cross-entropy (training.liger) "
                          "reads lm_head.weight, which peft's LoRA layer returns as its base layer's weight: the head's adapter never "
                          "enters the loss, gets no gradient and no optimizer state (counted so; its " +
                          fnum(s.in.lora.rank * (static_cast<double>(s.m.hidden) + s.m.vocab)) + " params' weights stay" +
                          (s.in.sharding == Sharding::None && s.dp > 1
                               ? "; DDP still gives its gradient a bucket slot, and needs find_unused_parameters, which the HF Trainer "
                                 "passes for a peft model unless ddp_find_unused_parameters is false (else DDP raises at the next step)"
                               : "") +
                          "). Leave head out of training.lora.targets, or turn training.liger off to train it.");
    if (s.adapters_bf16)
        e.notes.push_back(std::string("Adapters in BF16 (training.lora.adapters_bf16 ") + (s.in.lora.adapters_bf16 == Toggle::Auto ? "auto" : "true") +
                          "): TRL's SFTTrainer (0.26 and later) casts a quantized model's trainable parameters to BF16, so their "
                          "gradients and AdamW moments are BF16 and there is no FP32 master; set it false for TRL 0.25 and earlier.");
    if (s.upcast_frozen) {
        // What the cast adds to the weights on this GPU (the shards divide them under ZeRO-3, offload moves them).
        const double extra = p.weights_full > 0 ? p.stage_unquantized * (s.weight_bytes - s.compute_bytes) * r.weights / p.weights_full : 0;
        e.notes.push_back(std::string("Frozen base in FP32 outside the quantized linears (training.lora.upcast_frozen ") +
                          (s.in.lora.upcast_frozen == Toggle::Auto ? "auto" : "true") +
                          "): peft's prepare_model_for_kbit_training casts every 16-bit parameter but the 4-bit and INT8 weights to FP32 "
                          "(the embedding, the norms, an unquantized LM head" +
                          (p.stage_experts_unquantized > 0 ? std::string(", the routed experts left unquantized") : std::string()) + ": " +
                          fnum(p.stage_unquantized) + " params, +" + bytes_gb(extra) +
                          " of weights), and the hidden states stay FP32 between layers; set training.lora.upcast_frozen false "
                          "(--set training.lora.upcast_frozen=false) if your script does not call it (TRL's SFTTrainer 0.26 and later does not).");
    }
    if (s.experts_unquantized && p.stage_experts_unquantized > 0) {
        // This GPU's share (the shards divide them under ZeRO-3, offload moves them), as left and as quantized.
        const double share = p.weights_full > 0 ? r.weights / p.weights_full : 0;
        const double left = p.stage_experts_unquantized * s.weight_bytes * share;
        const double quantized = p.stage_experts_unquantized * s.quant_bytes * share;
        e.notes.push_back(std::string("Routed experts unquantized (training.lora.experts_unquantized ") +
                          (s.in.lora.experts_unquantized == Toggle::Auto ? "auto, profile " + std::string(s.profile.id) : std::string("true")) +
                          "): transformers 5 stores an MoE's routed experts as fused 3-D parameters and its bitsandbytes quantizer replaces "
                          "nn.Linear modules only (bitsandbytes issue #1849), so " + fnum(p.stage_experts_unquantized) + " params stay at " +
                          fnum(s.weight_bytes) + (s.upcast_frozen ? " B (BF16, cast to FP32 by peft)" : " B (the checkpoint's 16 bits)") + ": " +
                          bytes_gb(left) + " of weights where quantized they would take " + bytes_gb(quantized) +
                          ". Unsloth (unsloth-zoo 2026.5.1 and later) and Axolotl (quantize_moe_experts: true, 0.15 and later) quantize "
                          "them at load, transformers 4 quantized them as nn.Linear: for those set training.lora.experts_unquantized false "
                          "(--set training.lora.experts_unquantized=false).");
    }
    if (s.lora && s.m.experts > 0 && (s.in.lora.targets & kLoraMlp)) add_expert_adapters_note(s, p, e);
    if (s.pp > 1)
        e.notes.push_back(std::string("Worst rank: the ") + (r.worst_is_last_stage ? "last" : "first") +
                          " pipeline stage (first " + bytes_gb(p.first_total) + ", last " + bytes_gb(p.last_total) + ").");
    if (s.profile.compiles_loss_now && s.profile.compiled && s.in.compile_loss == Toggle::Auto && s.in.head == OutputHead::LanguageModel)
        e.notes.push_back(std::string("Recent ") + s.profile.id + " compiles the loss with the model (torchtitan since April 2025, "
                          "torchtune with compile=True), which keeps 16-bit logits and gradient instead of FP32 copies: set "
                          "training.compile_loss true (--set training.compile_loss=true) for those versions; auto leaves it off, "
                          "as older versions ran.");
    if (step) e.notes.push_back("The peak is the optimizer step (activations are freed by then).");
    if (r.host_ram > 0) e.notes.push_back("Offload needs " + bytes_gb(r.host_ram) + " of (pinned) host RAM per GPU.");
    if (s.in.optimizer == OptimizerKind::PagedAdamW || s.in.optimizer == OptimizerKind::PagedAdamW8bit)
        e.notes.push_back("Paged optimizer: its state can spill to host RAM under memory pressure, at a speed cost.");
    if (s.m.approximate) e.notes.push_back("Architecture filled from typical ratios (parameters-only entry): activations are approximate.");
    if (auto note = context_window_note("sequence", s.seq, s.m); !note.empty()) e.notes.push_back(note);
    if (s.fp8) {
        const GpuSpec* g = config_gpu(cfg);
        if (g && g->fp8_tflops <= 0) e.notes.push_back("FP8 linear layers need FP8 tensor cores; " + g->name + " has none.");
    }
    // Each GPU's fit counts its own CUDA context (its local memory), unless the config gives one.
    const OwnContext own{s.rt.cuda_context_bytes, s.context_lazy, s.rt.cuda_stack_limit_bytes};
    const OwnContext* by_gpu = cfg.runtime.cuda_context_bytes < 0 ? &own : nullptr;
    fill_catalog_fits(e, r.device_total, cfg.target_utilization, by_gpu);
    add_custom_gpu_fit(e, cfg, r.device_total, by_gpu);
    // GPUs needed: the fewest of each type within its target, data parallelism grown ("min_gpus"'s
    // search); the config's own count is one when its layout is within the target (a global batch
    // the search drops can change the total a little).
    TrainingGpuCounts counts(cfg);
    for (auto& f : e.fits) {
        const GpuSpec* g = fit_gpu(cfg, f.gpu_id);
        if (!g) continue;
        f.gpus_needed = counts.fewest(*g, by_gpu);
        if (f.within_target && !g->unified && (f.gpus_needed == 0 || f.gpus_needed > cfg.gpus)) f.gpus_needed = cfg.gpus;
    }
    return Outcome<Estimate>::success(std::move(e));
}

}  // namespace vc
