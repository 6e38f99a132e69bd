// vramcalc core (internal to the training files): a validated training setup with every dtype
// and parallel size resolved, and the intermediate quantities the Estimate's formulas quote.
#pragma once

#include <string>

#include "core/config.hpp"
#include "core/train/training.hpp"

namespace vc {

struct TrainingSetup {
    ModelSpec m;
    ParamBreakdown params;        // the model's parameter counts
    ProfileBehaviour profile;     // the profile with the config's overrides applied
    TrainingInputs in;
    RuntimeConstants rt;
    std::string context_formula;  // how rt.cuda_context_bytes was reached (cuda_context, or as given)
    bool context_lazy = true;     // CUDA lazy module loading in effect (runtime.lazy_loading or the profile's)
    Task task = Task::Training;
    // Shape
    double gpus = 1, micro = 1, seq = 1, accum = 1, global = 1;
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, etp = 1;
    int virtual_stages = 1;       // model chunks per GPU (interleaved schedule; else 1)
    bool sp = false, interleaved = false;
    double dp_shard = 1;          // ranks a ZeRO/FSDP shard spreads over (dp x cp, or the hybrid group)
    double edp_shard = 1;         // ranks expert parameters' ZeRO shards spread over
    // What trains and in which dtypes (bytes per value)
    bool mixed = false, pure16 = false, fp8 = false, fp32 = false;
    bool lora = false, qlora = false, autocast_active = false;
    bool fsdp_params_16bit = false;  // FSDP computes on gathered 16-bit params (profile.fsdp_params_16bit)
    bool upcast_frozen = false;   // a quantized base's unquantized parameters in FP32 (peft; profile.kbit_upcasts_frozen)
    bool lora_base_fp32 = false;  // a 16-bit LoRA base held in FP32 under mixed precision (lora.base_fp32; LitGPT)
    bool adapters_bf16 = false;   // a quantized base's adapters in BF16, no master (profile.qlora_adapters_bf16)
    bool experts_unquantized = false;  // a quantized base's routed experts left unquantized (experts_left_unquantized)
    ExpertAdapters expert_adapters = ExpertAdapters::PerExpert;  // the routed experts' adapters (resolved_expert_adapters)
    double compute_bytes = 2;     // bytes of an activation value (the compute dtype)
    double residual = 2;          // residual stream (FP32 under autocast with FP32 params)
    double weight_bytes = 2;      // trainable (full) or frozen base weights, unquantized (FP32 with upcast_frozen)
    double adapter_bytes = 2;     // LoRA adapters
    double grad_bytes = 2;
    double state_bytes = 4;       // optimizer moment dtype
    double master_bytes = 0;      // FP32 master copy per trainable param (BF16 params + master)
    double quant_bytes = 0;       // QLoRA/quantized base: bytes per quantized weight (incl. constants)
    double fragmentation = 0.06;
    AttentionKernel attention = AttentionKernel::Flash;
    Recompute recompute = Recompute::None;
    LigerPatch liger;             // what training.liger patches here (none: off, a profile it does not reach, a family without a patch)
};

// Validates the config for the detailed training method and resolves every dtype and size
// (`checks`: training_result's).
Outcome<TrainingSetup> training_setup(const Config& cfg, TrainingChecks checks = TrainingChecks::All);

// Quantities the formulas quote (filled by compute_training when asked).
struct TrainingParts {
    double stage_params = 0, stage_linear_params = 0, stage_trainable = 0, stage_quantized = 0, stage_unquantized = 0;
    double stage_experts_unquantized = 0;       // of stage_unquantized: routed experts the quantizer skipped
    double stage_lora_routed = 0;               // of stage_trainable (LoRA): the routed experts' adapters (/ EP x ETP)
    double head_adapter_bypassed = 0;           // LoRA head adapters Liger's fused loss bypasses (in the weights, not trained)
    double weights_full = 0, grads_full = 0, optimizer_full = 0;
    double opt_per_param = 0;                   // optimizer state bytes per trainable parameter (with master)
    double layer_bytes = 0, moe_layer_bytes = 0, stage_act_one_mb = 0;
    double dense_layers_on = 0, moe_layers_on = 0;
    double recompute_transient = 0, edge_bytes = 0;
    double recompute_counted = 0;  // the part of recompute_transient that adds to the logits (loss_frees_logits)
    double retained_graph = 0;                  // the previous step's bitsandbytes inputs, still referenced
    double logits_tokens = 0, logits_vocab = 0, logits_bytes_per_value = 0;
    double autocast_copies = 0, gather = 0, dequant = 0, fp8_copies = 0, comm_buckets = 0, ddp_copy = 0;
    double head_cast = 0;                       // the FP32 LM head's 16-bit autocast copy (upcast_frozen)
    // The checkpointed chunked loss (loss_chunks_checkpointed, TRL's chunked_nll): the head weight's copies
    // a chunk makes (its FP32 upcast and autocast's 16-bit cast, alive together at the matmul; the one
    // the matmul saves), the sorted hidden states and their gradient; the logits_* above are one chunk's.
    bool loss_checkpointed = false;
    double loss_head_at_cast = 0, loss_head_saved = 0, loss_hidden = 0;
    // Liger's fused linear cross-entropy (training.liger): the logits_* above are one chunk's (its rows); the
    // gradients it computes in the forward and keeps for backward (of the hidden states, of a trainable head),
    // the temporaries of its last chunk and its FP32 per-token loss.
    bool liger_flce = false;
    double liger_grad_input = 0, liger_grad_weight = 0, liger_temporaries = 0, liger_loss_values = 0;
    double dequant_values = 0, dequant_bytes_per_value = 0;  // QLoRA: the largest 4-bit matrix, bytes per value dequantized
    double adafactor_state = 0;
    // peft's target_parameters (ExpertAdapters::TargetParameters): one MoE layer's merged expert weights
    // W + scaling B A on this GPU, kept for backward (bytes, in moe_layer_bytes unless the layer is
    // recomputed), and the temporary of its largest tensor (the delta, or backward's gradient of it).
    double merged_experts_layer = 0, merged_experts_temp = 0;
    bool grads_at_peak = true;
    double first_total = 0, last_total = 0;
};

// Adapters on the fused 3-D expert tensors through peft's target_parameters (merged or not).
inline bool targets_fused_experts(ExpertAdapters a) {
    return a == ExpertAdapters::TargetParameters || a == ExpertAdapters::TargetParametersUnmerged;
}

// Optimizer state bytes per trainable parameter, the FP32 master included (Adafactor's factored
// moments, which depend on the matrices' shapes, not included).
double optimizer_bytes_per_param(const TrainingSetup& s);

// Adapter parameters on the routed experts of every MoE layer of the model (all GPUs together) under
// `a` (the result's notes compare the settings).
double routed_expert_adapter_params(const TrainingSetup& s, ExpertAdapters a);

TrainingResult compute_training(const TrainingSetup& s, TrainingParts* parts);

// A LoRA adapter on the LM head that Liger's fused linear cross-entropy bypasses (training.liger, flce): the
// loss reads lm_head.weight, the base layer's, so the adapter gets no gradient and no optimizer state.
bool liger_bypasses_head_adapter(const TrainingSetup& s);

// training.sharding zero2 as FSDP's SHARD_GRAD_OP (ProfileBehaviour::fsdp_zero2): parameters sharded at
// rest, the whole stage gathered from forward to backward.
bool fsdp_shard_grad_op(const TrainingSetup& s);

// Bytes of one parameter as ZeRO-3/FSDP gathers it (FSDP's param_dtype): the compute dtype, or FP32 under
// bf16/fp16 mixed precision where the stack's FSDP keeps FP32 parameters in their dtype (fsdp_gathers_fp32_mixed).
double fsdp_gathered_bytes(const TrainingSetup& s);

// FSDP under pipeline parallelism in a stack that keeps the stage gathered between micro-batches
// (ProfileBehaviour::pp_keeps_unsharded): gradients unsharded, the whole stage gathered.
bool pp_unsharded(const TrainingSetup& s);

// The loss runs chunked under checkpoint (ProfileBehaviour::loss_chunks_checkpointed with
// loss_chunk_tokens > 0, a language-model head): TRL's chunked_nll.
bool checkpointed_loss(const TrainingSetup& s);

}  // namespace vc
