// vramcalc core: the detailed training / fine-tuning model. training_setup checks a Config and
// resolves dtypes and parallel sizes; compute_training adds up the bytes on the worst rank.
// Formulas and sources: docs/training.md.
//
// [SECTION] names        enum names for formulas and io/
// [SECTION] setup        validation (errors name the field) and dtype resolution
// [SECTION] parameters   parameter counts per GPU (TP, PP stage, EP), LoRA adapters, quantized base
// [SECTION] compute      parameters on a stage (stage_params), activations of a layer (layer_bytes)
// [SECTION] compute_training  the stages, in order: micro_batch_activations (one micro-batch's
//                             layers, edges, pipeline in-flight count, logits), then per pipeline
//                             stage rank_memory = model_states (weights, gradients, optimizer:
//                             ZeRO, offload) + activations + forward_backward_temporaries and
//                             optimizer_step_temporaries -> allocator_peak (reserved, runtime)
#include "core/train/training.hpp"

#include <algorithm>
#include <cmath>

#include "core/catalog/cuda_context.hpp"
#include "core/fields.hpp"
#include "core/gpu_choice.hpp"
#include "core/text.hpp"
#include "core/train/training_internal.hpp"

namespace vc {

// [SECTION] names ---------------------------------------------------------------------------------
// The names the config document writes: the field table's first spelling of each value (core/fields.cpp).
const char* precision_name(TrainPrecision p) {
    return enum_name(kTrainPrecisionNames, static_cast<int>(p));
}

const char* optimizer_name(OptimizerKind o) {
    return enum_name(kTrainOptimizerNames, static_cast<int>(o));
}

const char* sharding_name(Sharding s) {
    return enum_name(kShardingNames, static_cast<int>(s));
}

const char* recompute_name(Recompute r) {
    return enum_name(kRecomputeNames, static_cast<int>(r));
}

// [SECTION] setup ---------------------------------------------------------------------------------
namespace {

// bitsandbytes 8-bit optimizers: one FP32 absmax per 2048-value block for each of the two moments.
// Source: bitsandbytes optim/optimizer.py (blockwise=True, block size 2048).
constexpr double kBnb8bitBlock = 2048;
// bitsandbytes keeps its double-quantized absmax in 8 bits with one FP32 constant per 256 blocks.
// Source: Dettmers et al. 2023 (QLoRA) section 3, "Double Quantization".
constexpr double kDoubleQuantGroup = 256;
// torch.compile (inductor) fuses the pointwise ops between matmuls, so a step allocates far fewer
// short-lived tensors; its fragmentation is this share of eager's. Source: fitted, torchtitan's
// eager vs compiled Llama-3.1-8B runs (calibration C25, C26; docs/accuracy.md).
constexpr double kCompiledFragmentationFactor = 0.5;
// LLM.int8 base weights: 1 byte per weight plus one FP32 scale per output row (negligible).
constexpr double kInt8BytesPerWeight = 1;
// FP16, the dtype bitsandbytes dequantizes a 4-bit weight to when it was quantized from FP16
// (QuantState.dtype). Source: bitsandbytes 0.42.0 functional.py dequantize_4bit (`dtype=quant_state.dtype`).
constexpr double kFp16Bytes = 2;
// A compiled cross_entropy(pred.float(), labels) (torchtitan components/loss.py, PR #1033; torchtune
// training.compile_loss): aten decomposes log_softmax into amax, sub, exp, sum, log and its backward
// into grad - exp(logp) * sum(grad) (torch/_decomp/decompositions.py _log_softmax_backward_data,
// nll_loss_forward/backward, PyTorch 2.7), and the min-cut partitioner (torch/_functorch/partitioners.py)
// saves the graph's 16-bit input and the per-row max and log-sum-exp, recomputing the pointwise
// rest, so no FP32 copy or log-probabilities are saved; inductor's one fused backward kernel writes
// the 16-bit gradient. At the loss backward: the saved logits (1) and their gradient (1), compute dtype.
constexpr double kCompiledLossSaved = 1;
constexpr double kCompiledLossGradient = 1;

std::string str(long long v) { return std::to_string(v); }

Outcome<TrainingSetup> fail(const std::string& field, const std::string& rule) {
    return Outcome<TrainingSetup>::failure(field, field + " " + rule);
}

bool is_mixed(TrainPrecision p) {
    return p == TrainPrecision::Bf16Mixed || p == TrainPrecision::Fp16Mixed || p == TrainPrecision::Fp8Mixed;
}

bool toggle(Toggle t, bool profile_default) { return t == Toggle::Auto ? profile_default : t == Toggle::On; }

// FP32 trainable parameters: FP32 training, or mixed precision on a stack that keeps FP32 params
// and casts per op (torch autocast: profile.mixed_params_fp32).
bool trainable_params_fp32(TrainPrecision prec, const ProfileBehaviour& profile) {
    return prec == TrainPrecision::Fp32 || (is_mixed(prec) && profile.mixed_params_fp32);
}

// The setup's members (training_setup checks them after resolving the model, which checks its own).
bool check_setup_ranges(const Config& cfg, Error& err) {
    const TrainingInputs& in = cfg.training;
    const ParallelInputs& par = cfg.parallel;
    // Ranges: the field table's (core/fields.cpp), in the order they are reported.
    return check_members({{"batch", cfg.run.batch},
                         {"seq", cfg.run.seq},
                         {"gpus", cfg.gpus},
                         {"training.grad_accum", in.grad_accum},
                         {"training.global_batch", in.global_batch},
                         {"training.dropout", in.dropout},
                         {"training.attention_dropout", in.attention_dropout},
                         {"training.optimizer_bytes_per_param", in.optimizer_bytes_per_param},
                         {"training.loss_chunk_tokens", in.loss_chunk_tokens},
                         {"training.liger_chunk_tokens", in.liger_chunk_tokens},
                         {"training.classifier_labels", in.classifier_labels},
                         {"training.shard_group", in.shard_group},
                         {"parallel.tp", par.tp},
                         {"parallel.pp", par.pp},
                         {"parallel.virtual_stages", par.virtual_stages},
                         {"parallel.dp", par.dp},
                         {"parallel.cp", par.cp},
                         {"parallel.ep", par.ep},
                         {"parallel.etp", par.etp},
                         {"model.attn_softcap", cfg.model.attn_softcap},
                         {"model.final_softcap", cfg.model.final_softcap},
                         {"runtime.cuda_context_bytes", cfg.runtime.cuda_context_bytes},
                         {"runtime.cuda_stack_limit_bytes", cfg.runtime.cuda_stack_limit_bytes},
                         {"runtime.library_workspace_bytes", cfg.runtime.library_workspace_bytes},
                         {"runtime.nccl_bytes", cfg.runtime.nccl_bytes},
                         {"runtime.allocator_fragmentation", cfg.runtime.allocator_fragmentation},
                         {"runtime.deepspeed_bucket_elements", cfg.runtime.deepspeed_bucket_elements},
                         {"runtime.deepspeed_prefetch_elements", cfg.runtime.deepspeed_prefetch_elements},
                         {"runtime.ddp_bucket_bytes", cfg.runtime.ddp_bucket_bytes}},
                         err);
}

}  // namespace

int gradient_bytes(const TrainingInputs& in, const ProfileBehaviour& profile) {
    // A quantized base whose adapters the stack casts to BF16 (qlora_adapters_bf16): BF16 gradients.
    if (quantized_base(in) && toggle(in.lora.adapters_bf16, profile.qlora_adapters_bf16)) return 2;
    if (trainable_params_fp32(in.precision, profile)) return 4;
    return toggle(in.grad_fp32, is_mixed(in.precision) && profile.grad_fp32_default) ? 4 : 2;
}

bool check_training_ranges(const Config& cfg, Error& err) { return check_model_ranges(cfg.model, err) && check_setup_ranges(cfg, err); }

Outcome<TrainingSetup> training_setup(const Config& cfg, TrainingChecks checks) {
    TrainingSetup s;
    s.in = cfg.training;
    s.rt = cfg.runtime;
    s.task = cfg.task;
    const TrainingInputs& in = cfg.training;
    const ParallelInputs& par = cfg.parallel;
    Error err;

    // Model.
    if (cfg.model.layers == 0 && cfg.model.params_override_b <= 0)
        return fail("model", "is needed for the detailed method: a preset, an architecture or params_b");
    auto m = resolve_model(cfg.model, checks == TrainingChecks::RangesChecked);
    if (!m.ok) return Outcome<TrainingSetup>::failure(m.error);
    s.m = m.value;
    s.params = model_params(s.m);

    // Profile and its overrides.
    const ProfileBehaviour* profile = find_training_profile(in.profile);
    if (!profile) {
        std::string list;
        for (const auto& known : training_profiles()) list += (list.empty() ? "" : ", ") + std::string(known.id);
        return fail("training.profile", "must be one of " + list + ", got \"" + in.profile + "\"");
    }
    s.profile = *profile;
    if (in.compile != Toggle::Auto) {
        s.profile.compiled = in.compile == Toggle::On;
        if (s.profile.compiled) s.profile.eager_rmsnorm = false;
    }
    s.profile.logits_fp32 = toggle(in.logits_fp32, s.profile.logits_fp32);
    s.profile.compile_loss = toggle(in.compile_loss, s.profile.compile_loss);
    s.profile.qlora_saves_inputs = toggle(in.lora.saves_inputs, s.profile.qlora_saves_inputs);
    s.profile.keeps_last_graph = toggle(in.lora.previous_graph, s.profile.keeps_last_graph);
    s.profile.qlora_quantizes_head = toggle(in.lora.quantize_head, s.profile.qlora_quantizes_head);
    s.profile.qlora_dequant_fp16 = toggle(in.lora.dequant_fp16, s.profile.qlora_dequant_fp16);
    s.profile.qlora_unchunked_init = toggle(in.lora.unchunked_quantize, s.profile.qlora_unchunked_init);
    s.profile.kbit_upcasts_frozen = toggle(in.lora.upcast_frozen, s.profile.kbit_upcasts_frozen);
    s.profile.qlora_adapters_bf16 = toggle(in.lora.adapters_bf16, s.profile.qlora_adapters_bf16);
    if (in.keeps_logits != Toggle::Auto) s.profile.loss_frees_logits = in.keeps_logits == Toggle::Off;
    s.context_lazy = toggle(cfg.runtime.lazy_loading, s.profile.lazy_module_loading);
    if (s.rt.cuda_context_bytes < 0) {
        const CudaContext ctx = cuda_context(config_gpu(cfg), s.context_lazy, s.rt.cuda_stack_limit_bytes);
        s.rt.cuda_context_bytes = ctx.bytes;
        s.context_formula = ctx.formula;
    } else {
        s.context_formula = "as given (runtime.cuda_context_bytes)";
    }

    // Shape of the step: the members' ranges (check_training_ranges), unless the caller checked them.
    if (checks == TrainingChecks::All && !check_setup_ranges(cfg, err))
        return Outcome<TrainingSetup>::failure(err);
    s.micro = cfg.run.batch;
    s.seq = cfg.run.seq;
    s.gpus = cfg.gpus;

    // Parallel layout: GPUs = TP x PP x DP x CP.
    const ModelSpec& md = s.m;
    s.tp = par.tp;
    s.pp = par.pp;
    s.cp = par.cp;
    s.ep = par.ep;
    s.sp = par.tp > 1 && toggle(par.sp, s.profile.tp_sequence_parallel);
    s.interleaved = par.schedule == PipelineSchedule::Interleaved;
    s.virtual_stages = s.interleaved ? par.virtual_stages : 1;
    if (md.heads % s.tp != 0)
        return fail("parallel.tp", "must divide model.heads (" + str(md.heads) + ") so each GPU gets whole heads, got " + str(s.tp));
    if (md.kv_heads % s.tp != 0 && s.tp % md.kv_heads != 0)
        return fail("parallel.tp", "must divide model.kv_heads (" + str(md.kv_heads) +
                                       ") or be a multiple of it (KV heads replicated), got " + str(s.tp));
    if (s.pp > md.layers)
        return fail("parallel.pp", "must be at most model.layers (" + str(md.layers) + "), a stage needs a layer; got " + str(s.pp));
    if (s.interleaved) {
        if (s.pp < 2) return fail("parallel.schedule", "\"interleaved\" needs parallel.pp >= 2, got " + str(s.pp));
        if (!interleave_split_ok(md.layers, s.pp, s.virtual_stages))
            return fail("parallel.virtual_stages", "x parallel.pp chunks of model.layers (" + str(md.layers) + ") must put at most " +
                                                       str((md.layers + s.pp - 1) / s.pp) + " layers on a stage (pp x v dividing the layers does), got " +
                                                       str(s.virtual_stages) + " x " + str(s.pp));
    }
    if (static_cast<long long>(s.seq) % s.cp != 0)
        return fail("parallel.cp", "must divide seq (" + str(static_cast<long long>(s.seq)) + ") into equal chunks, got " + str(s.cp));
    const long long model_parallel = static_cast<long long>(s.tp) * s.pp * s.cp;
    const long long gpus = static_cast<long long>(s.gpus);
    if (par.dp == 0) {
        if (gpus % model_parallel != 0)
            return fail("gpus", "must equal parallel.tp x pp x dp x cp: " + str(gpus) + " is not a multiple of tp x pp x cp = " +
                                    str(model_parallel));
        s.dp = static_cast<int>(gpus / model_parallel);
    } else {
        s.dp = par.dp;
        if (model_parallel * s.dp != gpus)
            return fail("gpus", "must equal parallel.tp x pp x dp x cp = " + str(s.tp) + " x " + str(s.pp) + " x " + str(s.dp) +
                                    " x " + str(s.cp) + " = " + str(model_parallel * s.dp) + ", got " + str(gpus));
    }
    s.etp = par.etp > 0 ? par.etp : s.tp;
    if (s.ep > 1 || par.etp > 0) {
        if (md.experts == 0) return fail(s.ep > 1 ? "parallel.ep" : "parallel.etp", "needs a mixture-of-experts model (model.experts > 0)");
        if (md.experts % s.ep != 0)
            return fail("parallel.ep", "must divide model.experts (" + str(md.experts) + "), got " + str(s.ep));
        const long long expert_group = static_cast<long long>(s.tp) * s.dp * s.cp;
        if (expert_group % (static_cast<long long>(s.ep) * s.etp) != 0)
            return fail("parallel.ep", "x parallel.etp must divide tp x dp x cp = " + str(expert_group) + ", got " + str(s.ep) +
                                           " x " + str(s.etp));
    }

    // Batch: micro-batch x accumulation x DP = global batch.
    if (in.global_batch > 0) {
        const double per_step = s.micro * s.dp;
        const double accum = in.global_batch / per_step;
        if (std::floor(accum) != accum || accum < 1)
            return fail("training.global_batch", "must be a multiple of batch x dp = " + str(static_cast<long long>(per_step)) +
                                                     ", got " + str(static_cast<long long>(in.global_batch)));
        if (in.grad_accum > 0 && in.grad_accum != accum)
            return fail("training.global_batch", "must equal batch x grad_accum x dp = " +
                                                     str(static_cast<long long>(per_step * in.grad_accum)) + ", got " +
                                                     str(static_cast<long long>(in.global_batch)));
        s.accum = accum;
    } else {
        s.accum = in.grad_accum > 0 ? in.grad_accum : 1;
    }
    s.global = s.micro * s.accum * s.dp;

    // Sharding groups.
    s.dp_shard = static_cast<double>(s.dp) * s.cp;
    if (in.shard_group > 0) {
        if (static_cast<long long>(s.dp_shard) % in.shard_group != 0)
            return fail("training.shard_group", "must divide dp x cp = " + str(static_cast<long long>(s.dp_shard)) + ", got " +
                                                    str(in.shard_group));
        s.dp_shard = in.shard_group;
    }
    s.edp_shard = std::max(1.0, s.dp_shard * s.tp / (static_cast<double>(s.ep) * s.etp));
    if (in.offload_params && in.sharding != Sharding::Zero3)
        return fail("training.offload_params", "needs training.sharding \"zero3\" (parameters are offloaded shard by shard)");

    // Fine-tuning.
    s.lora = in.finetune != FinetuneMethod::Full;
    s.qlora = quantized_base(in);
    if (s.lora) {
        if (!check_members({{"training.lora.rank", in.lora.rank},
                            {"training.lora.dropout", in.lora.dropout},
                            {"training.lora.quant_block", in.lora.quant_block}},
                           err))
            return Outcome<TrainingSetup>::failure(err);
        if ((in.lora.targets & (kLoraAllLinear | kLoraHead)) == 0)
            return fail("training.lora.targets", "must name at least one module (q, k, v, o, gate, up, down, head)");
        // Every adapted matrix has the hidden size on one side, so B A (out x r times r x in) has rank at
        // most h: a rank past it adds parameters and memory, never rank (almost always a typo).
        if (in.lora.rank > md.hidden)
            return fail("training.lora.rank", "must be a whole number in [1, " + str(md.hidden) + "] (the model's hidden size: an adapter's "
                                              "B A has rank at most that), got " + str(in.lora.rank));
    }

    // A quantized base the stack's scripts refuse (LitGPT: ProfileBehaviour::qlora_refuses_mixed, qlora_single_gpu),
    // in the order its finetune/lora.py checks them.
    if (s.qlora && s.profile.qlora_refuses_mixed && is_mixed(in.precision))
        return fail("training.precision", "\"" + std::string(precision_name(in.precision)) + "\" with a quantized base (training.finetune qlora, training.lora.quant) is refused by " +
                                              std::string(s.profile.label) + ": its finetune scripts take --quantize bnb.* only with bf16-true, fp16-true or fp32 "
                                              "(\"Quantization and mixed precision is not supported.\"); set training.precision bf16-true");
    if (s.qlora && s.profile.qlora_single_gpu && s.gpus > 1)
        return fail("gpus", "must be 1 with a quantized base (training.finetune qlora, training.lora.quant) under " + std::string(s.profile.label) + ", got " + str(static_cast<long long>(s.gpus)) +
                                ": its finetune scripts stop with \"Quantization is currently not supported for multi-GPU training\"");

    // Dtypes.
    const TrainPrecision prec = in.precision;
    s.fp32 = prec == TrainPrecision::Fp32;
    s.mixed = is_mixed(prec);
    s.pure16 = prec == TrainPrecision::Bf16True || prec == TrainPrecision::Fp16True;
    s.fp8 = prec == TrainPrecision::Fp8Mixed;
    s.compute_bytes = s.fp32 ? 4 : 2;
    // Autocast (FP32 residual stream, casts per op) applies when full training keeps FP32 params;
    // a LoRA base loaded in 16 bits runs in 16 bits. Under accelerate's FSDP (profile.fsdp_params_16bit)
    // the FP32 params stay sharded and the layers compute on their gathered 16-bit copies
    // (MixedPrecision param_dtype): autocast still wraps forward but casts nothing, the stream is 16-bit.
    s.fsdp_params_16bit = s.mixed && s.profile.fsdp_params_16bit && s.profile.mixed_params_fp32 && !s.lora &&
                          in.sharding >= Sharding::Zero2;
    // A 16-bit LoRA base built in FP32 under mixed precision (lora_base_fp32_mixed: LitGPT) runs under autocast
    // like full training's FP32 parameters.
    s.lora_base_fp32 = s.lora && !s.qlora && s.mixed && s.profile.mixed_params_fp32 && toggle(in.lora.base_fp32, s.profile.lora_base_fp32_mixed);
    s.autocast_active = s.mixed && s.profile.autocast && s.profile.mixed_params_fp32 && (!s.lora || s.lora_base_fp32) && !s.fsdp_params_16bit;
    // A quantized base prepared by peft (kbit_upcasts_frozen): its unquantized parameters in FP32. The
    // FP32 embedding's output, the FP32 norms' products (LlamaRMSNorm: self.weight * x.to(input_dtype))
    // and bitsandbytes' layers, which return their input's dtype (bitsandbytes nn/modules.py:626-637 at
    // 95f9af3, Linear4bit.forward: `.to(inp_dtype)`; MatMul8bitLt's output is A.dtype), keep the hidden
    // states, and so the checkpointed layer inputs and the MLP's hidden tensors, in FP32.
    s.upcast_frozen = frozen_base_upcast(in);
    s.experts_unquantized = experts_left_unquantized(in, s.m);
    s.expert_adapters = s.lora ? resolved_expert_adapters(in, s.m) : ExpertAdapters::PerExpert;
    // peft's ParamWrapper refuses LoRA dropout: x cannot be factored out of W + B A (peft@5d602fd
    // src/peft/tuners/lora/layer.py:2276-2277, `raise ValueError(... does not work with lora_dropout != 0.)`;
    // Axolotl checks the same, axolotl@067b021 src/axolotl/utils/schemas/peft.py:241-251).
    if (targets_fused_experts(s.expert_adapters) && in.lora.dropout > 0)
        return fail("training.lora.dropout", "must be 0 with training.lora.expert_adapters " + std::string(expert_adapters_name(s.expert_adapters)) +
                                                 " (peft's ParamWrapper raises a ValueError for lora_dropout != 0), got " + num(in.lora.dropout));
    s.residual = (s.fp32 || s.autocast_active || s.upcast_frozen) ? 4 : 2;
    const bool params_fp32 = trainable_params_fp32(prec, s.profile);
    s.weight_bytes = s.lora ? ((s.upcast_frozen || s.lora_base_fp32) ? 4 : s.compute_bytes) : (params_fp32 ? 4 : 2);
    // TRL casts a quantized base's adapters to BF16 in every precision (qlora_adapters_bf16): the
    // parameters themselves, so no FP32 master and torch AdamW's moments in BF16.
    s.adapters_bf16 = s.qlora && s.profile.qlora_adapters_bf16;
    s.adapter_bytes = (params_fp32 && !s.adapters_bf16) ? 4 : 2;
    const double trainable_bytes = s.lora ? s.adapter_bytes : s.weight_bytes;
    s.grad_bytes = gradient_bytes(in, s.profile);
    s.master_bytes = (s.mixed && trainable_bytes < 4 && !s.adapters_bf16) ? 4 : 0;
    s.state_bytes = (trainable_bytes == 4 || s.master_bytes > 0) ? 4 : 2;
    if (s.qlora) {
        const BaseQuant base_quant = in.lora.quant == BaseQuant::None ? BaseQuant::Nf4 : in.lora.quant;
        const double block = in.lora.quant_block;
        if (base_quant == BaseQuant::Int8) s.quant_bytes = kInt8BytesPerWeight;
        else s.quant_bytes = 0.5 + (in.lora.double_quant ? 1.0 / block + 4.0 / (block * kDoubleQuantGroup) : 4.0 / block);
    }
    // Soft-capped attention scores need a kernel that caps them: the SDPA/FlashAttention paths
    // these stacks call have none, so they run eager attention (an explicit setting wins). gpt-oss's
    // attention sinks have no SDPA path in transformers (GptOssPreTrainedModel._supports_sdpa =
    // False), and a model loaded without attn_implementation falls back to eager
    // (modeling_utils.py get_correct_attn_implementation).
    const bool sinks_eager = gpt_oss_sinks(s.m) && s.profile.hf_attention;
    s.attention = in.attention == AttentionKernel::Auto ? ((s.m.attn_softcap > 0 || sinks_eager) ? AttentionKernel::Eager : s.profile.attention)
                                                        : in.attention;
    // fa2 and sdpa-gqa name transformers' attention interfaces; the other stacks run their own attention.
    if ((s.attention == AttentionKernel::Fa2 || s.attention == AttentionKernel::SdpaGqa) && !s.profile.hf_attention)
        return fail("training.attention", std::string("\"") + (s.attention == AttentionKernel::Fa2 ? "fa2" : "sdpa-gqa") +
                                              "\" is a transformers attention implementation (profiles hf-trainer, torch-compile, "
                                              "deepspeed, trl); profile " + s.profile.id + " accepts auto, flash, sdpa or eager");
    s.recompute = resolved_recompute(cfg);
    s.fragmentation = cfg.runtime.allocator_fragmentation >= 0 ? cfg.runtime.allocator_fragmentation : s.profile.allocator_fragmentation;
    if (in.loss_chunk_tokens >= 0) s.profile.loss_chunk_tokens = in.loss_chunk_tokens;
    // Liger Kernel: what the model family's patch replaces, where the profile's model is a transformers model.
    if (in.liger && s.profile.liger_patches) {
        s.liger = liger_patch(s.m);
        s.liger.flce = s.liger.flce && in.head == OutputHead::LanguageModel;  // it replaces the causal LM's forward
    }
    // TRL's SFTConfig makes loss_type "nll" under use_liger_kernel (huggingface/trl@35def3e sft_config.py:334-336) and
    // refuses "chunked_nll" with it (trl@f2cd577 trl/trainer/sft_trainer.py:1325-1326, a ValueError).
    if (in.liger && s.profile.loss_chunks_checkpointed) {
        if (in.loss_chunk_tokens > 0)
            return fail("training.loss_chunk_tokens", std::string("must be 0 or -1 with training.liger under profile ") + s.profile.id +
                                                          ": TRL refuses loss_type \"chunked_nll\" with use_liger_kernel (its loss is then \"nll\")");
        s.profile.loss_chunk_tokens = 0;
    }
    // The chunked loss reads the head's weight directly, so TRL refuses an adapter on it
    // (huggingface/trl@35def3e sft_trainer.py:1312-1318, a ValueError naming loss_type "nll").
    if (checkpointed_loss(s) && s.lora && (in.lora.targets & kLoraHead))
        return fail("training.lora.targets", std::string("must leave out the LM head under profile ") + s.profile.id +
                                                 "'s chunked loss (TRL's loss_type \"chunked_nll\" refuses an lm_head adapter); "
                                                 "set training.loss_chunk_tokens 0 (loss_type \"nll\") to adapt the head");
    (void)kBnb8bitBlock;
    return Outcome<TrainingSetup>::success(s);
}

// [SECTION] parameters ----------------------------------------------------------------------------
namespace {

// Widths of one layer's attention tensors: queries, keys, values (MLA: per head nope+rope keys,
// v_head_dim values).
struct Widths {
    double q = 0, k = 0, v = 0;
};

Widths attention_widths(const ModelSpec& m) {
    Widths w;
    if (m.kv_lora_rank > 0) {
        const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
        w.q = m.heads * qk;
        w.k = m.heads * qk;
        w.v = static_cast<double>(m.heads) * m.v_head_dim;
    } else {
        w.q = static_cast<double>(m.heads) * m.head_dim;
        w.k = static_cast<double>(m.kv_heads) * m.head_dim;
        w.v = w.k;
    }
    return w;
}

// LoRA adapter parameters of one routed expert under peft's target_parameters: one adapter per fused
// tensor, lora_A [E r, in] and lora_B [out, E r] (peft@5d602fd src/peft/tuners/lora/layer.py:2366-2367),
// r (in + out) per expert: gate_up_proj [E, 2I, H] when gate or up is a target, down_proj [E, H, I]
// when down is (a plain MLP's up_proj [E, I, H]).
double fused_expert_adapter_params(const ModelSpec& m, unsigned t, double r) {
    const double h = m.hidden, f = m.expert_ffn;
    const double up_out = m.mlp != MlpKind::Gelu ? 2 * f : f;
    return ((t & (kLoraGate | kLoraUp)) ? r * (h + up_out) : 0) + ((t & kLoraDown) ? r * (f + h) : 0);
}

// LoRA adapter parameters of one layer (r x (in + out) per adapted matrix); an MoE layer's routed
// experts as `experts` says (ExpertAdapters).
double lora_layer_params(const ModelSpec& m, unsigned t, double r, bool moe, ExpertAdapters experts = ExpertAdapters::PerExpert) {
    const Widths w = attention_widths(m);
    const double h = m.hidden;
    double n = 0;
    if (t & kLoraQ) n += r * (h + w.q);
    if (t & kLoraK) n += r * (h + w.k);
    if (t & kLoraV) n += r * (h + w.v);
    if (t & kLoraO) n += r * (w.q + h);
    const bool gated = m.mlp != MlpKind::Gelu;
    auto mlp = [&](double f) {
        double x = 0;
        if (gated) {
            if (t & kLoraGate) x += r * (h + f);
            if (t & kLoraUp) x += r * (h + f);
        } else if (t & (kLoraGate | kLoraUp)) {
            x += r * (h + f);
        }
        if (t & kLoraDown) x += r * (f + h);
        return x;
    };
    if (!moe) return n + mlp(m.ffn);
    n += m.shared_experts * mlp(m.expert_ffn);
    switch (experts) {
        case ExpertAdapters::None: break;
        case ExpertAdapters::TargetParameters:
        case ExpertAdapters::TargetParametersUnmerged: n += m.experts * fused_expert_adapter_params(m, t, r); break;
        default: n += m.experts * mlp(m.expert_ffn); break;
    }
    return n;
}

}  // namespace

LoraActiveParams lora_active_params(const ModelSpec& m, const TrainingInputs& in) {
    LoraActiveParams a;
    const LoraInputs& lora = in.lora;
    const unsigned t = lora.targets;
    a.dense_layer = lora_layer_params(m, t, lora.rank, false);
    if (m.experts > 0) {
        // A token meets the MLP adapters of its top_k routed experts (when they have any) and of the shared ones.
        const ExpertAdapters experts = resolved_expert_adapters(in, m);
        const double attention = lora_layer_params(m, t & kLoraAttention, lora.rank, true, ExpertAdapters::None);
        const double shared = lora_layer_params(m, t & kLoraMlp, lora.rank, true, ExpertAdapters::None);
        const double routed = lora_layer_params(m, t & kLoraMlp, lora.rank, true, experts) - shared;
        a.moe_layer = attention + shared + routed * m.top_k / static_cast<double>(m.experts);
    }
    if (t & kLoraHead) a.head = lora.rank * (static_cast<double>(m.hidden) + m.vocab);
    if (m.experts > 0 && resolved_expert_adapters(in, m) == ExpertAdapters::TargetParameters) {
        const double f = m.expert_ffn;
        a.merged_up_out = (t & (kLoraGate | kLoraUp)) ? (m.mlp != MlpKind::Gelu ? 2 * f : f) : 0;
        a.merged_down_in = (t & kLoraDown) ? f : 0;
    }
    return a;
}

namespace {

// Adafactor's factored second moment: rows + columns per weight matrix, full size for vectors.
double adafactor_elements(const ModelSpec& m, const ParamBreakdown& params) {
    const Widths w = attention_widths(m);
    const double h = m.hidden;
    const int moe_layers = moe_layer_count(m);
    const double mats = m.mlp != MlpKind::Gelu ? 3 : 2;
    double n = m.layers * ((h + w.q) + (h + w.k) + (h + w.v) + (w.q + h));
    n += (m.layers - moe_layers) * mats * (h + m.ffn);
    n += static_cast<double>(moe_layers) * (m.experts + m.shared_experts) * mats * (h + m.expert_ffn);
    n += (m.vocab + h) * (m.tied_embeddings ? 1 : 2);
    return n + params.norms;
}

}  // namespace

// [SECTION] compute -------------------------------------------------------------------------------
namespace {

// Parameters held by one GPU of a pipeline stage with `dense_on` dense and `moe_on` MoE layers.
struct StageParams {
    double total = 0;      // all parameters on the GPU
    double linear = 0;     // matmul weights (cast by autocast, quantized by QLoRA, FP8 linear layers)
    double head = 0;       // output layer on this GPU (0 if not the last stage)
    double largest = 0;    // largest single matrix on the GPU
    double largest_quantized = 0;  // QLoRA: largest 4-bit matrix on the GPU (the head only when quantized)
    double routed = 0;     // routed experts on the GPU (of linear)
    double layer = 0;      // one (the largest) layer on the GPU
    double layer_linear = 0;  // its matmul weights
    double lora = 0;       // LoRA adapters
    double lora_routed = 0;  // of lora: the routed experts' adapters (split by EP x ETP, as their experts)
};

StageParams stage_params(const TrainingSetup& s, double dense_on, double moe_on, bool first, bool last) {
    const ModelSpec& m = s.m;
    const ParamBreakdown& params = s.params;
    const double h = m.hidden;
    const double tp = s.tp;
    const double norm_w = m.norm == NormKind::LayerNorm ? 2 * h : h;
    const double layer_norms = m.norms_per_layer * norm_w;
    const double routed = m.experts * params.per_expert / (static_cast<double>(s.ep) * s.etp);
    const double shared = m.shared_experts * params.per_expert / tp;
    const double router = static_cast<double>(m.experts) * h;
    // A hybrid's layers differ (attention or recurrent mixer, Nemotron-H's MLP-only blocks): a layer here is
    // their average, so the stage's layers sum to the model's parameters.
    const bool hybrid = !m.layer_pattern.empty();
    const int dense_layers = m.layers - moe_layer_count(m);
    const double attn = (hybrid ? (params.attention + params.recurrent) / m.layers : params.per_layer_attention) / tp;
    const double per_mlp = hybrid && dense_layers > 0 ? params.mlp_dense / dense_layers : params.per_layer_mlp;
    const double dense_layer = attn + per_mlp / tp + layer_norms;
    const double moe_layer = attn + routed + shared + router + layer_norms;

    StageParams sp;
    sp.total = dense_on * dense_layer + moe_on * moe_layer;
    sp.linear = dense_on * (attn + per_mlp / tp) + moe_on * (attn + routed + shared);
    sp.routed = moe_on * routed;
    sp.layer = std::max(dense_on > 0 ? dense_layer : 0, moe_on > 0 ? moe_layer : 0);
    sp.layer_linear = std::max(dense_on > 0 ? attn + per_mlp / tp : 0, moe_on > 0 ? attn + routed + shared : 0);
    const double vocab_rows = static_cast<double>(m.vocab) * h / tp * params.count_scale;
    if (first) sp.total += params.embedding / tp;
    if (last) {
        // The output layer: its own matrix, or (tied, pipelined) a copy of the embedding.
        double head = params.output / tp;
        if (m.tied_embeddings && s.pp > 1) head = vocab_rows;
        sp.head = head > 0 ? head : (m.tied_embeddings ? vocab_rows : 0);
        sp.total += head + norm_w;
        sp.linear += sp.head;
    }
    const Widths w = attention_widths(m);
    const double f = std::max<double>(m.ffn, m.expert_ffn);
    sp.largest = std::max({h * (w.q + w.k + w.v) / tp, h * f / tp, (first || last) ? vocab_rows : 0.0});
    // What a 4-bit matmul dequantizes: one Linear's weight. q, k and v are one matrix when fused
    // (LitGPT's attn.qkv), else q_proj (o_proj is as large); the embedding is never quantized
    // (nn.Embedding), the head only when the stack quantizes it (LitGPT yes, HF keeps lm_head).
    const double attn_matrix = s.profile.fused_qkv ? h * (w.q + w.k + w.v) : h * std::max({w.q, w.k, w.v});
    // Routed experts left unquantized dequantize nothing: the MLP matrices that do are the dense
    // layers' and the shared experts' (each a plain MLP module of nn.Linear in transformers 5).
    const double f_quantized = !s.experts_unquantized ? f
                                                      : std::max(dense_on > 0 ? static_cast<double>(m.ffn) : 0.0,
                                                                 moe_on > 0 && m.shared_experts > 0 ? static_cast<double>(m.expert_ffn) : 0.0);
    sp.largest_quantized = std::max({attn_matrix / tp, h * f_quantized / tp, (last && s.profile.qlora_quantizes_head) ? sp.head : 0.0});
    if (s.lora) {
        const double r = s.in.lora.rank;
        const unsigned t = s.in.lora.targets;
        // A routed expert's adapters live with the expert: each rank of an expert-parallel group holds its
        // E / EP experts (each split over ETP) and their adapters, gradients and optimizer state (torchtune's
        // LoRAGroupedExperts and peft's ParamWrapper adapters are parameters of the expert module, sharded
        // with it); attention, dense MLP and shared-expert adapters split over TP as their base matrices.
        const double moe_routed = lora_layer_params(m, t, r, true, s.expert_adapters) - lora_layer_params(m, t, r, true, ExpertAdapters::None);
        const double moe_rest = lora_layer_params(m, t, r, true, ExpertAdapters::None);
        sp.lora_routed = moe_on * moe_routed / (static_cast<double>(s.ep) * s.etp);
        sp.lora = (dense_on * lora_layer_params(m, t, r, false) + moe_on * moe_rest) / tp + sp.lora_routed;
        if (last && (t & kLoraHead)) sp.lora += r * (h + m.vocab) / tp;
    }
    return sp;
}

LayerActivationInputs layer_inputs(const TrainingSetup& s, bool moe, Recompute recompute) {
    const ModelSpec& m = s.m;
    const Widths w = attention_widths(m);
    LayerActivationInputs a;
    a.hidden = m.hidden;
    a.q_width = w.q;
    a.kv_width = w.k;
    a.v_width = w.v;
    a.heads = m.heads;
    a.ffn = m.ffn;
    a.gated = m.mlp != MlpKind::Gelu;
    a.layernorm = m.norm == NormKind::LayerNorm;
    a.norms = m.norms_per_layer;
    a.qk_norm = m.qk_norm;
    a.qk_norm_whole = m.qk_norm && m.qk_norm_whole;
    a.seq_kv = s.seq;
    a.bytes = s.compute_bytes;
    a.residual_bytes = s.residual;
    a.linear_input_bytes = s.fp8 ? 1 : s.compute_bytes;
    a.mlp_hidden_bytes = s.upcast_frozen ? 4 : 0;
    a.autocast_casts = s.autocast_active && s.profile.autocast_input_copies;
    // gpt-oss's eager softmax runs in its scores' dtype (models/gpt_oss/modeling_gpt_oss.py
    // eager_attention_forward: dtype=combined_logits.dtype): FP32 only where autocast's torch.cat
    // promoted BF16 scores beside the FP32 sinks; P.V then reads its cast back to V's dtype.
    a.softmax_fp32 = (s.profile.softmax_fp32 && !gpt_oss_sinks(m)) || s.autocast_active;
    a.attn_softcap = m.attn_softcap > 0;
    a.dropout = s.in.dropout > 0;
    a.attention_dropout = s.in.attention_dropout > 0;
    a.attention = s.attention;
    a.recompute = recompute;
    a.full = !s.lora;
    a.lora_targets = s.lora ? s.in.lora.targets : 0;
    a.routed_lora = s.expert_adapters != ExpertAdapters::None;
    a.lora_dropout = s.lora && s.in.lora.dropout > 0;
    a.qlora_saves_inputs = s.qlora && s.profile.qlora_saves_inputs;
    a.liger_norm = s.liger.rms_norm;
    a.liger_glu = s.liger.glu;
    if (moe) {
        a.experts = m.experts;
        a.top_k = m.top_k;
        a.shared_experts = m.shared_experts;
        a.expert_ffn = m.expert_ffn;
        a.etp = s.etp;
    }
    a.profile = &s.profile;
    return a;
}

// peft's target_parameters (ExpertAdapters::TargetParameters) on one MoE layer of this GPU: `elements`
// of the merged tensors W + scaling B A, the `largest` of them, bytes per value. ParamWrapper registers a
// parametrization returning W + delta_weight for the experts' forward (peft@5d602fd
// src/peft/tuners/lora/layer.py:2231-2234, 2463-2491): a new tensor the size of the adapted expert stack,
// which the experts' matmuls save for backward since it requires grad (the frozen W alone is a leaf,
// saved for free). Its dtype is the parameter's (get_delta_weight casts to param.dtype, :2455-2456); a
// quantized expert stack (Axolotl's quantize_moe_experts) merges in the compute dtype.
struct MergedExperts {
    double elements = 0, largest = 0, bytes = 0;
};

MergedExperts merged_experts(const TrainingSetup& s) {
    MergedExperts x;
    if (s.expert_adapters != ExpertAdapters::TargetParameters || s.m.experts == 0) return x;
    const ModelSpec& m = s.m;
    const LoraActiveParams a = lora_active_params(m, s.in);
    const double h = m.hidden;
    const double up = a.merged_up_out * h, down = h * a.merged_down_in;
    const double local = m.experts / (static_cast<double>(s.ep) * s.etp);
    x.elements = local * (up + down);
    x.largest = local * std::max(up, down);
    x.bytes = (!s.qlora || s.experts_unquantized) ? s.weight_bytes : s.compute_bytes;
    return x;
}

// One layer, one micro-batch, on this GPU (bytes): the saved activations, and on an MoE layer whose
// experts peft merges (target_parameters) the merged weights, unless the layer is recomputed.
double layer_bytes(const TrainingSetup& s, bool moe, Recompute recompute, double tokens) {
    const LayerActivation la = layer_activation(layer_inputs(s, moe, recompute));
    double per_token = la.per_token(s.tp, s.sp);
    // MLA keeps its low-rank latents (queries' and keys'/values' compressed inputs) too.
    if (s.m.kv_lora_rank > 0 && recompute != Recompute::Full)
        per_token += s.compute_bytes * 2 * (s.m.q_lora_rank + s.m.kv_lora_rank + s.m.qk_rope_head_dim);
    double merged = 0;
    if (moe && recompute != Recompute::Full) {
        const MergedExperts x = merged_experts(s);
        merged = x.elements * x.bytes;
    }
    return per_token * tokens + merged;
}

}  // namespace

// [SECTION] compute_training ----------------------------------------------------------------------
// Stages: what one micro-batch leaves on the busiest stage (micro_batch_activations), then for the
// first and the last pipeline stage: model states (weights, gradients, optimizer), activations,
// temporaries, and the allocator's peak (rank_memory); the worse of the two is the result
// (compute_training), with the parameter counts it quotes.
namespace {

// One micro-batch on this GPU: its layers' activations (in TrainingParts), the edges outside the
// layers, how many micro-batches the first stage holds, and the logits of the last.
struct MicroBatchActivations {
    double tokens = 0;      // tokens of one micro-batch on this GPU (seq / cp)
    double layers_on = 0;   // layers on the busiest stage
    double edge_first = 0;  // first stage: the embedding's dropout mask
    double edge_last = 0;   // last stage: the final norm's saved input and the head's input
    double in_flight = 1;   // micro-batches whose activations the first stage holds
    double logits = 0;      // last stage: logits and the loss's buffers
    double logits_kept = 0; // the part of them the loop keeps beside the recompute (kept_logits_buffers)
    bool logits_freed = false; // the loss frees all of it before the last layer's recompute (loss_frees_logits)
};

MicroBatchActivations micro_batch_activations(const TrainingSetup& s, TrainingParts& parts) {
    MicroBatchActivations a;
    const ModelSpec& m = s.m;
    const ProfileBehaviour& profile = s.profile;
    const double h = m.hidden;
    const double tokens = a.tokens = s.micro * s.seq / s.cp;

    // Layers on the busiest stage (the stage with the most MoE layers).
    a.layers_on = std::ceil(static_cast<double>(m.layers) / s.pp);
    // Interleaved MoE (moe_every n): a stage of k layers holds at most ceil(k / n) of the MoE ones.
    const double moe_layers = moe_layer_count(m);
    parts.moe_layers_on = std::min({a.layers_on, moe_layers, std::ceil(a.layers_on / std::max(1, m.moe_every))});
    parts.dense_layers_on = a.layers_on - parts.moe_layers_on;

    // Activations of one micro-batch through this GPU's layers, and the recompute working set.
    parts.layer_bytes = layer_bytes(s, false, s.recompute, tokens);
    parts.moe_layer_bytes = m.experts > 0 ? layer_bytes(s, true, s.recompute, tokens) : 0;
    parts.stage_act_one_mb = parts.dense_layers_on * parts.layer_bytes + parts.moe_layers_on * parts.moe_layer_bytes;
    if (s.recompute != Recompute::None) {
        const bool moe = parts.moe_layers_on > 0;
        parts.recompute_transient = layer_bytes(s, moe, Recompute::None, tokens) - layer_bytes(s, moe, s.recompute, tokens);
    }
    // bitsandbytes keeps each 4-bit layer's input on its autograd node (ctx.tensors), which backward
    // does not free: when the previous step's graph is still referenced during the next forward,
    // those inputs are alive twice.
    if (s.qlora && profile.qlora_saves_inputs && profile.keeps_last_graph && s.recompute == Recompute::None) {
        TrainingSetup plain = s;
        plain.qlora = false;
        const double dense = layer_bytes(s, false, s.recompute, tokens) - layer_bytes(plain, false, s.recompute, tokens);
        const double moe = m.experts > 0 ? layer_bytes(s, true, s.recompute, tokens) - layer_bytes(plain, true, s.recompute, tokens) : 0;
        parts.retained_graph = parts.dense_layers_on * dense + parts.moe_layers_on * moe;
    }
    // Outside the layers: the embedding's dropout mask (first stage); what the final norm saves (as a
    // layer's norm: eager RMSNorm its FP32 input copy and, when its weight trains, the normalised
    // tensor) and the head's input (last stage). The final norm sits outside the checkpointed layers,
    // so this is held through backward whatever the recompute.
    a.edge_first = s.in.dropout > 0 ? tokens * h / (s.sp ? s.tp : 1) : 0;
    const double final_norm = norm_saved_bytes(layer_inputs(s, false, Recompute::None));
    // Liger's fused loss keeps no input for the head (it computes the head's gradients in its forward).
    a.edge_last = tokens * h * (s.lora || s.liger.flce ? final_norm : final_norm + s.compute_bytes) / (s.sp ? s.tp : 1);
    // DTensor TP: the output projection all-gathers the final norm's output and keeps it whole.
    if (s.sp && profile.tp_saves_gathered && !s.lora) a.edge_last += tokens * h * s.compute_bytes * (1 - 1.0 / s.tp);

    // Micro-batches whose activations the first stage holds: 1F1B keeps pp in flight, the
    // interleaved schedule (1 + (pp - 1) / (pp v)) times that (Korthikanti et al. 2022, 4.2.3).
    if (s.pp > 1) {
        a.in_flight = std::min<double>(s.pp, s.accum);
        if (s.interleaved) a.in_flight *= 1 + (s.pp - 1.0) / (static_cast<double>(s.pp) * s.virtual_stages);
    }

    // Logits and loss (last stage, one micro-batch): logits held in the compute dtype plus the
    // loss's saved and gradient buffers (FP32 when the loss upcasts).
    if (s.in.head == OutputHead::Classifier) {
        parts.logits_vocab = s.in.classifier_labels;
        parts.logits_tokens = s.micro;
        parts.logits_bytes_per_value = 4 * 3;
    } else {
        parts.logits_vocab = static_cast<double>(m.vocab) / s.tp;
        parts.logits_tokens = tokens;
        const double loss_dtype = profile.logits_fp32 ? 4 : s.compute_bytes;
        const double chunk = profile.loss_chunk_tokens;
        const bool chunked = chunk > 0 && tokens > chunk;
        // Soft-capped logits: tanh keeps its output (compute dtype) for backward.
        const double softcap = m.final_softcap > 0 ? s.compute_bytes : 0;
        if (s.liger.flce) {
            // Liger's LigerFusedLinearCrossEntropyFunction (linkedin/Liger-Kernel@ead96b6 src/liger_kernel/ops/
            // fused_linear_cross_entropy.py:21-289), which lce_forward calls in place of lm_head and the loss when
            // training with labels (transformers/model/llama.py:113-127): in its forward, for each chunk of
            // liger_flce_chunk_rows rows it computes the chunk's logits (`_input_chunk @ weight.t()`, the matmul's
            // dtype: 16-bit under autocast), writes their gradient in place (:163-197), and accumulates the hidden
            // states' gradient, `grad_input = zeros_like(_input)` (:72, :231), and a trainable head's,
            // `grad_weight = zeros_like(weight)` (:77, accum_dtype None: the weight's dtype), which it saves for
            // backward (:431-435) instead of any input. A 16-bit grad_weight (or FP32 logits) takes
            // `grad_weight += torch.mm(grad_logits_chunk.t(), _input_chunk).float()` (:257): the mm's V x h result and
            // its FP32 copy; an FP32 one with 16-bit logits adds in place (torch.addmm out_dtype, PyTorch >= 2.8 on
            // compute capability >= 8, :235-255). Before the mm, `grad_logits_chunk @ weight` makes rows x h (:231).
            // loss_1d: one FP32 value a token (:86).
            const bool autocast_matmul = s.mixed && profile.autocast && s.compute_bytes < 4;
            const double logit_bytes = autocast_matmul ? s.compute_bytes : s.weight_bytes;
            const double vocab = parts.logits_vocab;
            const double rows = std::min(tokens, s.in.liger_chunk_tokens > 0 ? s.in.liger_chunk_tokens : liger_flce_chunk_rows(tokens, vocab, h));
            // The head Liger reads is FSDP's unsharded parameter in param_dtype (fsdp_gathered_bytes) wherever FSDP
            // gathers it: ZeRO-3 across GPUs and SHARD_GRAD_OP, whose whole stage is gathered from forward to backward
            // (one GPU: NO_SHARD's param_dtype cast, the same dtype; torch/distributed/fsdp/api.py:43-49 at 0aafd81).
            const bool gathered = (s.in.sharding == Sharding::Zero3 && s.dp_shard > 1) || fsdp_shard_grad_op(s);
            const double grad_weight_bytes = s.lora ? 0 : (gathered ? fsdp_gathered_bytes(s) : s.weight_bytes);
            const double mm = grad_weight_bytes == 0 || (grad_weight_bytes == 4 && logit_bytes < 4) ? 0 : logit_bytes + (logit_bytes < 4 ? 4 : 0);
            parts.liger_flce = true;
            parts.logits_tokens = rows;
            parts.logits_bytes_per_value = logit_bytes;
            parts.liger_grad_input = tokens * h * s.residual;
            parts.liger_grad_weight = vocab * h * grad_weight_bytes;
            parts.liger_temporaries = std::max(rows * h * logit_bytes, vocab * h * mm);
            // ... and TRL's token accuracy, one more FP32 value a token (liger_token_accuracy, :88).
            parts.liger_loss_values = tokens * 4 * (profile.liger_token_accuracy ? 2 : 1);
            // Freed in its forward but the two gradients, which the final norm's backward and the head's
            // AccumulateGrad take before the last checkpointed layer is recomputed.
            a.logits_freed = true;
        } else if (checkpointed_loss(s)) {
            // TRL's chunked_nll: each chunk of `chunk` valid tokens runs `h.float() @ w.float().t()`,
            // log-softmax and nll_loss under torch.utils.checkpoint (non-reentrant), so no chunk's
            // buffers outlive its own forward or backward (huggingface/trl@35def3e sft_trainer.py:98-114,
            // 212-226). Under autocast (HF Trainer's bf16/fp16 via accelerate) the matmul casts both
            // operands back to the compute dtype: the chunk's logits are 16-bit and log-softmax (an
            // autocast FP32 op) returns FP32; without it the logits are FP32. At a chunk's backward: its
            // logits (the matmul's dtype), tanh's output when soft-capped, and the loss's FP32 buffers
            // (saved log-probabilities, nll_loss's gradient, log-softmax's gradient). The entropy's exp and
            // product (FP32, sft_trainer.py:113) live only in the chunk's forward and recompute, before
            // its gradients exist, and the argmax is one integer a token.
            const bool autocast_matmul = s.mixed && profile.autocast && s.compute_bytes < 4;
            const double logit_bytes = autocast_matmul ? s.compute_bytes : 4;
            parts.loss_checkpointed = true;
            parts.logits_tokens = std::min(chunk, tokens);
            parts.logits_bytes_per_value = logit_bytes + (softcap > 0 ? logit_bytes : 0) + profile.loss_buffers * 4;
            // The head weight: `w.float()` copies a 16-bit weight to FP32, and autocast's matmul casts that
            // copy back to the compute dtype (autocast caches casts of FP32 leaves only), both alive at the
            // call; the matmul saves the copy it multiplied (the 16-bit cast, else the FP32 copy, else the
            // FP32 weight itself) from the chunk's recompute to its backward.
            // A trainable FP32 head (full fine-tuning under autocast) is a leaf that requires grad: `w.float()`
            // is the parameter itself and autocast caches its cast, which autocast_copies already counts.
            const bool cached = s.autocast_active && profile.autocast_weight_copies && s.in.sharding != Sharding::Zero3;
            const double head = static_cast<double>(m.vocab) / s.tp * h;
            // (A head FSDP gathers in 16 bits, fsdp_params_16bit, is copied like a 16-bit weight.)
            const double fp32_copy = (s.weight_bytes < 4 || s.fsdp_params_16bit) ? 4 : 0;
            const double cast = autocast_matmul && !cached ? s.compute_bytes : 0;
            parts.loss_head_at_cast = head * (fp32_copy + cast);
            parts.loss_head_saved = head * (cast > 0 || cached ? cast : fp32_copy);
            // The hidden states sorted valid-first (`hidden = hidden[order]`, sft_trainer.py:203), the chunks'
            // checkpoint inputs through backward, and their gradient: 2 copies of t x h in the stream's dtype.
            parts.loss_hidden = 2 * tokens * h * s.residual;
            a.logits_freed = true;
        } else if (profile.compile_loss) {
            // The compiled loss saves the held 16-bit logits themselves (so at least one buffer is
            // held) and writes a 16-bit gradient; chunked (one compiled call per chunk, torchtune's
            // CEWithChunkedOutputLoss), autograd runs the chunks' loss backwards one after another:
            // each frees its saved chunk as it writes the chunk's gradient, so the gradient adds one
            // chunk's share at a time. Under TP the loss_parallel handlers' ops are traced into the
            // same graph (AOTAutograd flattens DTensor) and fused: no loss-parallel buffer.
            const double held = std::max(profile.logits_held, kCompiledLossSaved);
            const double gradient = kCompiledLossGradient * (chunked ? chunk / tokens : 1);
            parts.logits_bytes_per_value = (held + gradient) * s.compute_bytes + softcap;
        } else if (!profile.loss_frees_logits && profile.kept_logits_buffers > 0 && !chunked) {
            // The loop keeps its own loss-dtype copy through backward: at the loss's backward it and
            // the loss's buffers; beside the last layer's recompute, the copy alone (logits_kept).
            const double buffers = profile.kept_logits_buffers + (s.tp > 1 ? profile.loss_parallel_buffers : 0);
            parts.logits_bytes_per_value = loss_dtype + softcap + buffers * loss_dtype;
            a.logits_kept = parts.logits_tokens * parts.logits_vocab * loss_dtype;
        } else {
            double buffers = profile.loss_buffers;
            if (chunked) buffers = 1 + (profile.loss_buffers - 1) * chunk / tokens;
            if (s.tp > 1) buffers += profile.loss_parallel_buffers;
            parts.logits_bytes_per_value = profile.logits_held * s.compute_bytes + softcap + buffers * loss_dtype;
        }
    }
    a.logits = parts.logits_tokens * parts.logits_vocab * parts.logits_bytes_per_value;
    // The checkpointed chunked loss: the larger of the head weight's copies at the cast and a chunk's
    // backward (its saved copy beside the chunk's buffers), over the sorted hidden states.
    if (parts.loss_checkpointed)
        a.logits = std::max(parts.loss_head_at_cast, parts.loss_head_saved + a.logits) + parts.loss_hidden;
    // Liger's fused loss at its last chunk: the chunk's logits, its temporaries, the two gradients and the loss.
    if (parts.liger_flce) a.logits += parts.liger_temporaries + parts.liger_grad_input + parts.liger_grad_weight + parts.liger_loss_values;
    return a;
}

// What the model states' shards are divided by, and what trains.
struct ModelStates {
    double trainable = 0;   // trainable parameters on this GPU
    double shard_g = 1;     // gradients are divided by this (ZeRO-2 and up)
    double shard_o = 1;     // optimizer state is divided by this (ZeRO-1 and up)
};

// Weights, gradients and optimizer state of one stage (and what ZeRO-Offload moves to the host).
ModelStates model_states(const TrainingSetup& s, const StageParams& sp, bool last, TrainingResult& out, TrainingParts& parts) {
    const ModelSpec& m = s.m;
    const ProfileBehaviour& profile = s.profile;
    ModelStates st;
    // Weights: trainable params in their dtype, or the frozen base (quantized linears) + adapters.
    double weights;
    if (!s.lora) {
        weights = sp.total * s.weight_bytes;
        st.trainable = sp.total;
    } else {
        const double skipped = s.experts_unquantized ? sp.routed : 0;
        const double quantized = s.qlora ? sp.linear - ((last && !profile.qlora_quantizes_head) ? sp.head : 0) - skipped : 0;
        parts.stage_quantized = quantized;
        parts.stage_experts_unquantized = skipped;
        parts.stage_unquantized = sp.total - quantized;
        weights = quantized * s.quant_bytes + (sp.total - quantized) * s.weight_bytes + sp.lora * s.adapter_bytes;
        // Liger's fused loss reads lm_head.weight (linkedin/Liger-Kernel@ead96b6 src/liger_kernel/transformers/model/
        // llama.py:194-201), which peft's LoRA layer returns as its base layer's weight (huggingface/peft@5d602fd
        // src/peft/tuners/tuners_utils.py:1898-1912): the head's adapter never enters the loss, gets no gradient,
        // and torch's AdamW makes no state for a parameter whose grad is None. Its weights stay.
        parts.head_adapter_bypassed = liger_bypasses_head_adapter(s) && last ? s.in.lora.rank * (static_cast<double>(m.hidden) + m.vocab) / s.tp : 0;
        st.trainable = sp.lora - parts.head_adapter_bypassed;
        parts.stage_lora_routed = sp.lora_routed;
    }
    const double trainable = st.trainable;
    parts.stage_params = sp.total + sp.lora;
    parts.stage_linear_params = sp.linear;
    parts.stage_trainable = trainable;
    // ZeRO divides by the shard group; routed experts' shards spread over the expert-data-
    // parallel group instead (their share of the stage's parameters decides the mix).
    const int zero = static_cast<int>(s.in.sharding);
    double routed_share = 0;
    if (m.experts > 0 && sp.total > 0)
        routed_share = std::min(1.0, parts.moe_layers_on * m.experts * s.params.per_expert / (static_cast<double>(s.ep) * s.etp) / sp.total);
    // A LoRA run's gradients and optimizer state are its adapters': the routed experts' share of those.
    const double trainable_routed_share = !s.lora ? routed_share : (sp.lora > 0 ? sp.lora_routed / sp.lora : 0);
    auto shard = [&](int level, double share) {
        if (zero < level) return 1.0;
        return 1 / ((1 - share) / s.dp_shard + share / s.edp_shard);
    };
    // FSDP's SHARD_GRAD_OP (fsdp_shard_grad_op) shards the parameters at rest as ZeRO-3 does.
    const double shard_w = fsdp_shard_grad_op(s) ? shard(2, routed_share) : shard(3, routed_share);
    st.shard_o = shard(1, trainable_routed_share);
    // FSDP's no_sync() during gradient accumulation keeps the gradients unsharded until the
    // last micro-batch reduce-scatters them (PyTorch FSDP docs, no_sync: "gradients ...
    // accumulated in unsharded form").
    const bool unsharded_accumulation = (profile.no_sync_accumulation && s.accum > 1) || pp_unsharded(s);
    st.shard_g = unsharded_accumulation ? 1 : shard(2, trainable_routed_share);
    parts.weights_full = weights;
    out.weights = weights / shard_w;
    // Gradients of the trainable parameters.
    parts.grads_full = trainable * s.grad_bytes;
    out.gradients = parts.grads_full / st.shard_g;
    // DDP's buckets hold every parameter that requires grad, used or not (torch/nn/parallel/distributed.py
    // _build_params_for_reducer: `p.requires_grad`): a head adapter Liger bypasses keeps its slot.
    parts.ddp_copy = (s.in.sharding == Sharding::None && s.dp > 1 && profile.ddp_bucket_copy) ? parts.grads_full + parts.head_adapter_bypassed * s.grad_bytes : 0;
    // Optimizer state (+ FP32 master).
    double opt = trainable * optimizer_bytes_per_param(s);
    if (s.in.optimizer == OptimizerKind::Adafactor) {
        // Factored moments of the trainable matrices, in proportion to this GPU's share.
        double elems;
        if (!s.lora) {
            elems = adafactor_elements(m, s.params);
            elems *= s.params.total > 0 ? sp.total / s.params.total : 1;
        } else {
            elems = sp.lora / s.in.lora.rank;  // A (r x in) and B (out x r): in + out (+ 2r) per adapted matrix
        }
        parts.adafactor_state = 4 * elems;
        opt += parts.adafactor_state;
    }
    parts.opt_per_param = trainable > 0 ? opt / trainable : 0;
    parts.optimizer_full = opt;
    out.optimizer = opt / st.shard_o;
    out.host_ram = 0;
    if (s.in.offload_optimizer) {
        // ZeRO-Offload: the optimizer step runs on the CPU with FP32 gradients there too.
        out.host_ram += out.optimizer + trainable * 4 / st.shard_g;
        out.optimizer = 0;
    }
    if (s.in.offload_params) {
        out.host_ram += out.weights;
        out.weights = 0;
    }
    out.params_on_gpu = parts.stage_params;
    out.params_trainable_on_gpu = trainable;
    return st;
}

// Temporaries alive at the forward/backward peak (gathered layers, casts, buckets, workspaces).
double forward_backward_temporaries(const TrainingSetup& s, const StageParams& sp, bool last, TrainingParts& parts) {
    const ProfileBehaviour& profile = s.profile;
    const double compute_bytes = s.compute_bytes;
    const double gathered_bytes = fsdp_gathered_bytes(s);
    // Autocast's 16-bit copy of each matmul weight, saved for backward. Under ZeRO-3/FSDP the gathered
    // parameters are already 16-bit (no copies), except where FSDP gathers FP32 and autocast casts them
    // (fsdp_gathers_fp32_mixed: Lightning's bf16-mixed), whose copies FSDP's reshard does not free.
    const bool copies = s.autocast_active && (s.in.sharding != Sharding::Zero3 || gathered_bytes > compute_bytes);
    // A frozen FP32 LoRA base (lora_base_fp32): autocast casts each frozen weight at every call (it caches only leaves
    // that require grad) and the matmul saves the cast, so a checkpointed block keeps none of its copies: under full
    // recomputation one block's (its recompute to its backward) and the head's, outside the blocks.
    const double copied = s.lora_base_fp32 && s.recompute == Recompute::Full ? std::min(sp.linear, sp.layer_linear + sp.head) : sp.linear;
    parts.autocast_copies = (copies && profile.autocast_weight_copies) ? copied * 2 : 0;
    parts.gather = 0;
    if (fsdp_shard_grad_op(s)) {
        // SHARD_GRAD_OP keeps every unit's unsharded flat parameter from its forward to its backward
        // (torch/distributed/fsdp/api.py:43-49): at the start of backward the whole stage is gathered, in
        // param_dtype (a quantized base in its storage, the adapters as the rest).
        // On one GPU FSDP runs NO_SHARD: no all-gather, only the param_dtype cast of FP32 parameters.
        const double quantized = s.lora && s.qlora ? parts.stage_quantized : 0;
        if (s.dp_shard > 1) parts.gather = (sp.total - quantized + sp.lora) * gathered_bytes + quantized * s.quant_bytes;
        else if (!s.lora && gathered_bytes != s.weight_bytes) parts.gather = sp.total * gathered_bytes;
    } else if (s.in.sharding == Sharding::Zero3 && s.dp_shard > 1) {
        // With PP some stacks keep the whole stage gathered (pp_keeps_unsharded).
        parts.gather = (pp_unsharded(s) ? sp.total : profile.prefetch_layers * sp.layer) * gathered_bytes;
        if (last && profile.fsdp_head_gathered && !pp_unsharded(s)) parts.gather += sp.head * (gathered_bytes + 4);  // gathered head + its FP32 reduce buffer
        if (profile.deepspeed_buffers) parts.gather = std::max(parts.gather, s.rt.deepspeed_prefetch_elements * compute_bytes);
    }
    parts.comm_buckets = 0;
    if (profile.deepspeed_buffers) {  // allreduce (stage 0) or reduce-scatter buckets, and all-gather buckets
        parts.comm_buckets = s.rt.deepspeed_bucket_elements * s.grad_bytes;
        if (s.in.sharding != Sharding::Zero3) parts.comm_buckets += s.rt.deepspeed_bucket_elements * compute_bytes;
    }
    // QLoRA: a 4-bit matmul dequantizes its weight for the call (forward and backward) and frees
    // it after: the largest 4-bit matrix, in the quantized weight's dtype, plus its cast to the
    // compute dtype when those differ (bitsandbytes MatMul4Bit: dequantize_4bit(B).to(A.dtype)).
    if (s.qlora) {
        const bool compute_fp16 = s.in.precision == TrainPrecision::Fp16Mixed || s.in.precision == TrainPrecision::Fp16True;
        const double cast = profile.qlora_dequant_fp16 && !compute_fp16 ? compute_bytes : 0;
        parts.dequant_bytes_per_value = profile.qlora_dequant_fp16 ? kFp16Bytes + cast : compute_bytes;
        parts.dequant_values = sp.largest_quantized;
    }
    parts.dequant = s.qlora ? parts.dequant_values * parts.dequant_bytes_per_value : 0;
    parts.fp8_copies = s.fp8 ? (s.in.sharding == Sharding::Zero3 ? profile.prefetch_layers * sp.layer : sp.linear) : 0;
    // The FP32 LM head of a peft-prepared base under autocast: F.linear casts the frozen weight to the
    // compute dtype on every call (autocast caches only FP32 leaves that require grad: PyTorch
    // aten/src/ATen/autocast_mode.cpp cached_cast at cfed411) and the matmul keeps that copy for its
    // input's gradient, from the head's forward to its backward.
    // The checkpointed chunked loss never calls the head (its own copies are in the loss's bytes).
    const bool head_fp32 = last && s.upcast_frozen && s.mixed && profile.autocast && !profile.qlora_quantizes_head && !checkpointed_loss(s);
    parts.head_cast = head_fp32 ? sp.head * compute_bytes : 0;
    // peft's target_parameters: the merge's delta (released peft 0.17-0.20: einsum of the adapters in
    // their dtype, cast to the parameter's, then W + delta: peft@5d602fd layer.py:2436-2460) and, in
    // backward, the merged weight's gradient (the parameter's dtype) and its cast back to the adapters'
    // dtype: one largest fused tensor in both dtypes, on any layer with MoE experts on this GPU.
    parts.merged_experts_temp = 0;
    if (parts.moe_layers_on > 0) {
        const MergedExperts x = merged_experts(s);
        parts.merged_experts_layer = x.elements * x.bytes;
        parts.merged_experts_temp = x.largest * (x.bytes + (s.adapter_bytes != x.bytes ? s.adapter_bytes : 0));
    }
    return parts.autocast_copies + parts.gather + parts.comm_buckets + parts.dequant + parts.fp8_copies + parts.head_cast +
           parts.merged_experts_temp + s.rt.library_workspace_bytes;
}

// Optimizer-step temporaries: foreach AdamW materialises sqrt(v) for all local params;
// Adafactor works matrix by matrix (about two FP32 copies of the largest).
double optimizer_step_temporaries(const TrainingSetup& s, const StageParams& sp, const ModelStates& st) {
    double temp_step = s.rt.library_workspace_bytes;
    if (!s.in.offload_optimizer) {
        if (s.in.optimizer == OptimizerKind::AdamW && s.profile.foreach_optimizer) temp_step += st.trainable * s.state_bytes / st.shard_o;
        if (s.in.optimizer == OptimizerKind::Adafactor) temp_step += 2 * 4 * std::min(sp.largest, st.trainable);
    }
    return temp_step;
}

// The peak the caching allocator reserves and the device total, from the parts above.
void allocator_peak(const TrainingSetup& s, double temp_fb, double temp_step, TrainingResult& out, TrainingParts& parts) {
    const ProfileBehaviour& profile = s.profile;
    // Peaks: gradients are alive at the forward/backward peak when they persist or accumulate;
    // otherwise backward allocates them as it frees activations, and the larger side wins.
    parts.grads_at_peak = profile.grads_persist || s.accum > 1;
    const double states = out.weights + out.optimizer + parts.ddp_copy;
    const double live = out.activations + out.logits_loss;
    const double fb = states + temp_fb + (parts.grads_at_peak ? out.gradients + live : std::max(live, out.gradients));
    const double step = states + out.gradients + temp_step;
    out.peak_in_optimizer_step = step > fb;
    out.peak_allocated = std::max(fb, step);
    out.temporary = out.peak_in_optimizer_step ? temp_step : temp_fb;
    out.step_temporary = temp_step;
    // Caching allocator: blocks freed by the step's churn stay reserved; inductor-compiled code
    // allocates far fewer short-lived tensors. Gradient shards that reduce-scatter writes on the
    // communication stream come from that stream's own pool, so they cannot reuse the blocks
    // activations freed on the compute stream: when they appear after the peak, reserved grows.
    const double churn = out.activations + out.logits_loss + temp_fb;
    const double frag = s.fragmentation * (profile.compiled ? kCompiledFragmentationFactor : 1);
    // (Whichever side of backward is larger, the other side's blocks stay reserved: min(live, G).)
    const bool comm_stream_grads = !parts.grads_at_peak && s.in.sharding >= Sharding::Zero2 && s.dp_shard > 1;
    const double comm_pool = comm_stream_grads ? std::min(live, out.gradients) : 0;
    out.peak_reserved = out.peak_allocated + frag * churn + comm_pool;
    if (s.qlora && profile.qlora_unchunked_init && profile.qlora_init_residue > 0)
        out.peak_reserved = std::max(out.peak_reserved, out.weights + profile.qlora_init_residue * parts.stage_quantized * 2);
    out.allocator_slack = out.peak_reserved - out.peak_allocated;
    out.runtime = s.rt.cuda_context_bytes + (s.gpus > 1 ? s.rt.nccl_bytes : 0);
    out.device_total = out.peak_reserved + out.runtime;
}

// One rank of the first and/or last pipeline stage: its memory into `out` and `q`; the device total.
double rank_memory(const TrainingSetup& s, const MicroBatchActivations& a, bool first, bool last, TrainingResult& out, TrainingParts& parts) {
    const StageParams sp = stage_params(s, parts.dense_layers_on, parts.moe_layers_on, first, last);
    const ModelStates st = model_states(s, sp, last, out, parts);

    // Activations on this stage.
    const double micro_batches = first ? a.in_flight : 1;
    // Autograd runs the loss's and the head's backward before it recomputes the last checkpointed
    // layer: when the loss frees the logits, the recompute adds only what exceeds them; when the loop
    // keeps a copy (logits_kept), only what exceeds the rest, which the loss's backward freed.
    parts.recompute_counted = parts.recompute_transient;
    if (last && (s.profile.loss_frees_logits || a.logits_freed)) parts.recompute_counted = std::max(0.0, parts.recompute_transient - a.logits);
    else if (last && a.logits_kept > 0) parts.recompute_counted = std::max(0.0, parts.recompute_transient - (a.logits - a.logits_kept));
    double acts = micro_batches * parts.stage_act_one_mb + parts.recompute_counted + parts.retained_graph;
    if (first) acts += micro_batches * a.edge_first;
    if (last) acts += a.edge_last;
    out.activations = acts;
    out.logits_loss = last ? a.logits : 0;

    const double temp_fb = forward_backward_temporaries(s, sp, last, parts);
    const double temp_step = optimizer_step_temporaries(s, sp, st);
    allocator_peak(s, temp_fb, temp_step, out, parts);
    return out.device_total;
}

}  // namespace

bool checkpointed_loss(const TrainingSetup& s) {
    return s.profile.loss_chunks_checkpointed && s.profile.loss_chunk_tokens > 0 && s.in.head == OutputHead::LanguageModel;
}

bool liger_bypasses_head_adapter(const TrainingSetup& s) {
    return s.lora && s.liger.flce && (s.in.lora.targets & kLoraHead) && s.in.head == OutputHead::LanguageModel;
}

bool fsdp_shard_grad_op(const TrainingSetup& s) {
    return s.profile.fsdp_zero2 && s.in.sharding == Sharding::Zero2;
}

double fsdp_gathered_bytes(const TrainingSetup& s) {
    return s.mixed && s.profile.fsdp_gathers_fp32_mixed && !s.fsdp_params_16bit && s.weight_bytes == 4 ? 4 : s.compute_bytes;
}

bool pp_unsharded(const TrainingSetup& s) {
    return s.profile.pp_keeps_unsharded && s.pp > 1 && s.in.sharding == Sharding::Zero3 && s.dp_shard > 1;
}

TrainingResult compute_training(const TrainingSetup& s, TrainingParts* parts) {
    TrainingParts local;
    TrainingParts& worst = parts ? *parts : local;
    const ModelSpec& m = s.m;
    const MicroBatchActivations a = micro_batch_activations(s, worst);

    // The worst rank is the larger of the first and the last stage.
    TrainingResult r, first_r, last_r;
    TrainingParts first_parts = worst, last_parts = worst;
    worst.first_total = rank_memory(s, a, true, s.pp == 1, first_r, first_parts);
    worst.last_total = s.pp > 1 ? rank_memory(s, a, false, true, last_r, last_parts) : worst.first_total;
    const bool last_worse = s.pp > 1 && worst.last_total > worst.first_total;
    const double first_total = worst.first_total, last_total = worst.last_total;
    r = last_worse ? last_r : first_r;
    worst = last_worse ? last_parts : first_parts;
    worst.first_total = first_total;
    worst.last_total = last_total;
    r.worst_is_last_stage = last_worse;

    // The counts the result quotes.
    r.params_total = s.params.total;
    r.params_trainable = s.lora ? 0 : s.params.total;
    if (s.lora) {
        const double moe_total = moe_layer_count(m);
        r.params_trainable = (m.layers - moe_total) * lora_layer_params(m, s.in.lora.targets, s.in.lora.rank, false) +
                             moe_total * lora_layer_params(m, s.in.lora.targets, s.in.lora.rank, true, s.expert_adapters) +
                             ((s.in.lora.targets & kLoraHead) ? s.in.lora.rank * (static_cast<double>(m.hidden) + m.vocab) : 0);
        r.params_total += r.params_trainable;
    }
    r.layers_on_gpu = a.layers_on;
    r.in_flight_micro_batches = r.worst_is_last_stage ? 1 : a.in_flight;
    r.tokens_per_micro_batch = a.tokens;
    r.grad_accum = s.accum;
    r.global_batch = s.global;
    r.dp = s.dp;
    r.activation_bytes_per_layer = worst.moe_layers_on > 0 ? worst.moe_layer_bytes : worst.layer_bytes;
    return r;
}

double optimizer_bytes_per_param(const TrainingSetup& s) {
    double state = 0;
    switch (s.in.optimizer) {
        case OptimizerKind::AdamW: state = 2 * s.state_bytes; break;
        case OptimizerKind::AdamW8bit:
        case OptimizerKind::PagedAdamW8bit: state = 2 * (1 + 4 / kBnb8bitBlock); break;
        case OptimizerKind::PagedAdamW: state = 8; break;
        case OptimizerKind::Adafactor: state = 0; break;
        case OptimizerKind::Sgd: state = 0; break;
        case OptimizerKind::SgdMomentum:
        case OptimizerKind::Lion: state = s.state_bytes; break;
        case OptimizerKind::Custom: state = s.in.optimizer_bytes_per_param; break;
    }
    return state + s.master_bytes;
}

double routed_expert_adapter_params(const TrainingSetup& s, ExpertAdapters a) {
    const ModelSpec& m = s.m;
    if (m.experts == 0 || !s.lora) return 0;
    const unsigned t = s.in.lora.targets & kLoraMlp;
    const double r = s.in.lora.rank;
    const double per_layer = lora_layer_params(m, t, r, true, a) - lora_layer_params(m, t, r, true, ExpertAdapters::None);
    return static_cast<double>(moe_layer_count(m)) * per_layer;
}

bool interleave_split_ok(int layers, int pp, int v) {
    if (layers < 1 || pp < 1 || v < 1) return false;
    const long long chunks = static_cast<long long>(pp) * v;
    const long long chunk = (layers + chunks - 1) / chunks;
    return v * chunk == (layers + pp - 1) / pp;
}

Outcome<TrainingResult> training_result(const Config& cfg, TrainingChecks checks) {
    auto s = training_setup(cfg, checks);
    if (!s.ok) return Outcome<TrainingResult>::failure(s.error);
    return Outcome<TrainingResult>::success(compute_training(s.value, nullptr));
}

}  // namespace vc
