// [FOLDER] core/train/: training.hpp (inputs, profiles, result, API), training.cpp (setup and
//   per-GPU states), training_activations.cpp (activations per layer), training_profiles.cpp
//   (framework behaviours), training_estimate.cpp (Estimate assembly), training_internal.hpp
//   (validated setup shared by those files), training_solve.hpp/.cpp (what fits when training).
// vramcalc core: the detailed training and fine-tuning memory model. Inputs (precision,
// optimizer, sharding, parallelism, recomputation, LoRA/QLoRA, framework profile, runtime
// constants) and the per-GPU result on the worst rank. Every formula and its source is written
// out in docs/training.md; the JSON form of these inputs is in docs/config.md.
//
// [SECTION] enums         precision, optimizer, sharding, recomputation, attention, schedule
// [SECTION] inputs        TrainingInputs ("training"), ParallelInputs ("parallel")
// [SECTION] runtime       RuntimeConstants ("runtime"): CUDA context, NCCL, allocator
// [SECTION] profiles      framework behaviours (eager HF Trainer, torch.compile, Megatron, ...)
// [SECTION] result        TrainingResult: the numbers behind the Estimate
// [SECTION] api           training_estimate, training_result, layer formulas for tests
#pragma once

#include <string>
#include <vector>

#include "core/catalog/cuda_context.hpp"
#include "core/model/model.hpp"
#include "core/result.hpp"
#include "core/status.hpp"

namespace vc {

struct Config;

// [SECTION] enums ---------------------------------------------------------------------------------
enum class TrainPrecision {
    Fp32,       // "fp32": weights, gradients and optimizer state in FP32
    Bf16Mixed,  // "bf16-mixed": BF16 compute; FP32 params (autocast) or BF16 params + FP32 master (profile)
    Fp16Mixed,  // "fp16-mixed": as bf16-mixed with FP16 compute (loss scaling is free of memory)
    Bf16True,   // "bf16-true": everything in BF16, no FP32 master copy
    Fp16True,   // "fp16-true": everything in FP16
    Fp8Mixed,   // "fp8": FP8 linear layers (Transformer Engine / torchao float8) on BF16-mixed training
};

enum class OptimizerKind {
    AdamW,           // two moments in the state dtype
    AdamW8bit,       // bitsandbytes: two 8-bit moments, FP32 absmax per 2048 values
    PagedAdamW,      // bitsandbytes paged (unified memory) 32-bit AdamW
    PagedAdamW8bit,  // bitsandbytes paged 8-bit AdamW
    Adafactor,       // factored second moment (rows + columns per matrix), no first moment
    Sgd,             // no state
    SgdMomentum,     // one momentum buffer
    Lion,            // one momentum buffer
    Custom,          // TrainingInputs::optimizer_bytes_per_param
};

enum class Sharding {
    None,   // "ddp": every data-parallel rank holds everything
    Zero1,  // optimizer state sharded
    Zero2,  // + gradients sharded ("fsdp-shard-grad-op")
    Zero3,  // + parameters sharded, gathered per layer ("fsdp-full-shard")
};

// Auto: the profile's default (resolved_recompute): full where the stack turns checkpointing on by
// itself (peft's prepare_model_for_kbit_training for a quantized base; TRL's SFTConfig for every run),
// none otherwise.
enum class Recompute { None, Selective, Full, Auto };
// Auto: the profile's default. Flash: FlashAttention/SDPA on the K and V the stack hands it (repeated
// to every query head where the profile's gqa_expand_kv says so). Fa2: transformers'
// attn_implementation="flash_attention_2" (integrations/flash_attention.py: q, k, v only transposed,
// no repeat_kv). SdpaGqa: transformers' SDPA passing enable_gqa=True instead of repeat_kv
// (integrations/sdpa_attention.py use_gqa_in_sdpa: transformers >= 4.54, PyTorch >= 2.5, no mask).
enum class AttentionKernel { Auto, Flash, Eager, Fa2, SdpaGqa };
enum class PipelineSchedule { OneFOneB, Interleaved };
enum class FinetuneMethod { Full, Lora, Qlora };
enum class BaseQuant { None, Nf4, Fp4, Int8 };       // frozen base weights (LoRA / QLoRA)
enum class OutputHead { LanguageModel, Classifier };  // LM head over the vocabulary, or a few labels

// LoRA target modules (bit mask).
enum LoraTarget : unsigned {
    kLoraQ = 1u << 0, kLoraK = 1u << 1, kLoraV = 1u << 2, kLoraO = 1u << 3,
    kLoraGate = 1u << 4, kLoraUp = 1u << 5, kLoraDown = 1u << 6, kLoraHead = 1u << 7,
    kLoraAttention = kLoraQ | kLoraK | kLoraV | kLoraO,
    kLoraMlp = kLoraGate | kLoraUp | kLoraDown,
    kLoraAllLinear = kLoraAttention | kLoraMlp,
};

// [SECTION] inputs --------------------------------------------------------------------------------
// Tri-state for behaviours a profile sets and a user may override.
enum class Toggle { Auto, On, Off };

// Adapters on an MoE's routed experts when the LoRA targets name gate, up or down (docs/training.md,
// "LoRA on fused MoE experts"). Auto: the profile (ProfileBehaviour::lora_skips_fused_experts).
//   PerExpert: one r x (in + out) adapter per expert matrix (transformers 4's ModuleList of nn.Linear,
//              LitGPT, torchtune's LoRAGroupedExperts).
//   None:      none: transformers 5 stores the routed experts as fused 3-D nn.Parameters, which peft's
//              target_modules (module names) never match; dense MLPs and shared experts still get theirs.
//   TargetParameters: peft's target_parameters (0.17+): one ParamWrapper per fused tensor, lora_A
//              [E r, in] and lora_B [out, E r] (r (in + out) per expert per fused tensor), whose forward
//              materialises W + scaling B A, a tensor the size of the expert stack, kept for backward.
//   TargetParametersUnmerged: the same adapters, applied beside the base grouped matmul without the
//              merged copy (Unsloth's separated MoE LoRA, Axolotl's ScatterMoE / SonicMoE kernels).
enum class ExpertAdapters { Auto, PerExpert, None, TargetParameters, TargetParametersUnmerged };

struct LoraInputs {
    int rank = 16;
    unsigned targets = kLoraQ | kLoraV;
    double dropout = 0.05;          // LoRA dropout: >0 keeps a mask and a dropped copy of each adapted input
    BaseQuant quant = BaseQuant::None;  // QLoRA sets NF4 by default
    bool double_quant = true;       // QLoRA: quantize the absmax constants too (8-bit, FP32 per 256 blocks)
    int quant_block = 64;           // values per absmax block (NF4: 64)
    Toggle quantize_head = Toggle::Auto;  // the LM head quantized too (profile: LitGPT yes, HF/PEFT no)
    // bitsandbytes' 4-bit matmul keeps each layer's input on its autograd node (ctx.tensors = (A, B))
    // before bitsandbytes 0.43.2; from 0.43.2 (PR #1270, July 2024) it keeps only the packed weight.
    // Auto: the profile (current bitsandbytes: off).
    Toggle saves_inputs = Toggle::Auto;
    // LitGPT's loop rebinds `loss` only after the next forward and loss, so the previous step's
    // graph (and the 4-bit layers' kept inputs) stays referenced through them (finetune/lora.py).
    // Off when the previous micro-batch was much shorter: lit-gpt before 2024 ran the longest
    // sample first (get_batch(..., longest_seq_ix if iter_num == 1 else None)) and random ones
    // after, so its peak holds one copy. Auto: the profile (LitGPT: on).
    Toggle previous_graph = Toggle::Auto;
    // The 4-bit weights were quantized from an FP16 copy, so bitsandbytes dequantizes them to FP16
    // (QuantState.dtype) and MatMul4Bit's `.to(A.dtype)` makes a second, compute-dtype copy (BF16,
    // FP32): both alive at the cast. Auto: the profile (LitGPT on, through Lightning's
    // BitsandbytesPrecision; current bitsandbytes under HF keeps the weight's dtype: off).
    Toggle dequant_fp16 = Toggle::Auto;
    // The NF4 layers were quantized on the GPU a whole matrix at a time at init (torchao 0.1, before
    // its PR #196 quantized in chunks of 1024^2 values, May 2024): the quantizer's large
    // intermediates' blocks stay reserved after init. Auto: the profile (current torchao: off).
    Toggle unchunked_quantize = Toggle::Auto;
    // peft's prepare_model_for_kbit_training casts every FP16/BF16 parameter that is not a 4-bit
    // weight to FP32: the embedding, an unquantized LM head, the norms (INT8 weights are int8, not
    // cast). The hidden states then stay FP32 between layers. Auto: the profile (kbit_upcasts_frozen).
    Toggle upcast_frozen = Toggle::Auto;
    // A quantized base's adapters in BF16 rather than FP32: BF16 adapter weights, gradients and torch
    // AdamW moments, no FP32 master (TRL's SFTTrainer 0.26 and later casts them). Auto: the profile
    // (qlora_adapters_bf16: trl).
    Toggle adapters_bf16 = Toggle::Auto;
    // An MoE's routed experts left out of the quantized base, in its unquantized dtype (the checkpoint's
    // 16 bits, FP32 after peft's cast with upcast_frozen): transformers 5 stores them as fused 3-D
    // parameters, which its bitsandbytes quantizer, replacing nn.Linear modules only, skips. Auto:
    // the profile (ProfileBehaviour::bnb_skips_fused_experts); false: quantized like every linear
    // (transformers 4, Unsloth, Axolotl's quantize_moe_experts).
    Toggle experts_unquantized = Toggle::Auto;
    // Adapters on the routed experts (ExpertAdapters above); applies to an MoE model whose targets name
    // gate, up or down. Auto: the profile.
    ExpertAdapters expert_adapters = ExpertAdapters::Auto;
    // A 16-bit (unquantized) LoRA base held in FP32 under bf16/fp16-mixed, autocast casting each frozen weight per
    // matmul: the stack builds the model under its mixed-precision plugin, which leaves PyTorch's default dtype FP32
    // (LitGPT under Lightning Fabric). Auto: the profile (ProfileBehaviour::lora_base_fp32_mixed: litgpt).
    Toggle base_fp32 = Toggle::Auto;
};

struct TrainingInputs {
    TrainPrecision precision = TrainPrecision::Bf16Mixed;
    OptimizerKind optimizer = OptimizerKind::AdamW;
    double optimizer_bytes_per_param = 8;   // Custom optimizer only: state bytes per trainable parameter
    Toggle grad_fp32 = Toggle::Auto;        // FP32 gradient accumulation buffers (Megatron main_grad)
    double grad_accum = 0;                  // micro-batches per optimizer step (0: from global_batch, else 1)
    double global_batch = 0;                // sequences per optimizer step over all data-parallel ranks (0: derived)
    Recompute recompute = Recompute::Auto;  // Auto: the profile's (resolved_recompute)
    AttentionKernel attention = AttentionKernel::Auto;
    double dropout = 0;                     // hidden dropout (residual and MLP); >0 keeps 1-byte masks
    double attention_dropout = 0;           // dropout on attention probabilities (eager attention keeps them)
    FinetuneMethod finetune = FinetuneMethod::Full;
    LoraInputs lora{};
    OutputHead head = OutputHead::LanguageModel;
    int classifier_labels = 2;
    Sharding sharding = Sharding::None;
    int shard_group = 0;                    // hybrid sharding: GPUs per shard group (0: all data-parallel GPUs)
    bool offload_optimizer = false;         // optimizer state (and FP32 master) in host RAM
    bool offload_params = false;            // parameters in host RAM, gathered per layer (needs zero3)
    std::string profile = "hf-trainer";     // framework profile id (training_profiles())
    Toggle compile = Toggle::Auto;          // torch.compile fusions (fused norms and elementwise ops)
    Toggle logits_fp32 = Toggle::Auto;      // the loss upcasts logits to FP32
    Toggle compile_loss = Toggle::Auto;     // the loss function itself under torch.compile (Auto: the profile's, off)
    double loss_chunk_tokens = -1;          // chunked loss: tokens per chunk (0: off, -1: profile)
    Toggle keeps_logits = Toggle::Auto;     // the loop holds its own reference to the logits through
                                            // backward (Auto: the profile's; torchtune: off since July 2024)
    // Liger Kernel (HF TrainingArguments use_liger_kernel=True, Axolotl `plugins: liger`, LLaMA-Factory
    // enable_liger_kernel): transformers' integrations/liger.py calls Liger's _apply_liger_kernel_to_instance
    // on the (peft-unwrapped) model, which patches what the model family's apply_liger_kernel_to_* patches
    // with its defaults (liger_patch): the fused linear cross-entropy, RMSNorm, SwiGLU/GeGLU and RoPE.
    // Honoured by profiles whose model is a transformers model (ProfileBehaviour::liger_patches).
    bool liger = false;
    double liger_chunk_tokens = 0;          // FLCE rows per chunk (0: Liger's rule, liger_flce_chunk_rows)
};

struct ParallelInputs {
    int tp = 1;          // tensor parallel
    Toggle sp = Toggle::Auto;  // sequence parallel (with tp): norms/dropout activations sharded too (Auto: the profile's TP plan)
    int pp = 1;          // pipeline stages
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int virtual_stages = 1;  // interleaved schedule: model chunks per GPU (v)
    int dp = 0;          // data parallel (0: gpus / (tp x pp x cp))
    int cp = 1;          // context parallel (sequence split over GPUs)
    int ep = 1;          // expert parallel (MoE)
    int etp = 0;         // expert tensor parallel (0: same as tp)
};

// [SECTION] runtime -------------------------------------------------------------------------------
struct RuntimeConstants {
    // CUDA context with PyTorch's kernels, outside the caching allocator, the whole of it as given.
    // -1: the model (core/catalog/cuda_context.hpp cuda_context: by lazy_loading, and on the chosen
    // GPU its local-memory reservation; 0.5 GiB lazy, 1343 MiB eager without SM figures).
    double cuda_context_bytes = -1;
    // The per-thread stack limit (cudaLimitStackSize) the driver reserves local memory for, on
    // every thread the GPU holds resident. Source: the CUDA default, 1024 B (cuda_context.hpp).
    double cuda_stack_limit_bytes = kCudaStackLimitBytes;
    // CUDA lazy module loading (Auto: the profile's stack; PyTorch >= 1.13 with CUDA >= 11.7 loads
    // kernels on first use, the 2022 HF docs runs did not).
    Toggle lazy_loading = Toggle::Auto;
    // cuBLAS/cuBLASLt workspaces inside the caching allocator. Source: PyTorch default
    // CUBLAS_WORKSPACE_CONFIG ":4096:2:16:8" = 2 x 4 MiB + 8 x 16 KiB per handle.
    double library_workspace_bytes = 8.125 * 1024 * 1024;
    // NCCL communicator buffers outside the allocator, per GPU, when the job has > 1 GPU. Source:
    // NCCL_BUFFSIZE 4 MiB x 2 (send/recv) x up to 32 channels ~ 256 MiB, plus proxy/p2p buffers.
    double nccl_bytes = 300.0 * 1024 * 1024;
    // Caching allocator: reserved - allocated, as a share of the memory that churns during a
    // step (activations, logits, temporaries). -1: the profile's value. Source: fitted, docs/accuracy.md.
    double allocator_fragmentation = -1;
    // DeepSpeed ZeRO defaults (elements): reduce_bucket_size / allgather_bucket_size 5e8,
    // stage3_prefetch_bucket_size 5e7. Source: deepspeed/runtime/zero/config.py.
    double deepspeed_bucket_elements = 5e8;
    double deepspeed_prefetch_elements = 5e7;
    // DDP gradient bucket cap (bytes), torch.nn.parallel.DistributedDataParallel bucket_cap_mb=25.
    double ddp_bucket_bytes = 25.0 * 1024 * 1024;
};

// [SECTION] profiles ------------------------------------------------------------------------------
// What a framework does that changes memory. Each profile fills one of these; docs/training.md
// describes every profile and field with its source.
struct ProfileBehaviour {
    const char* id = "";
    const char* label = "";
    const char* description = "";
    // Recomputation when training.recompute is auto: full for a quantized base (QLoRA, LoRA over
    // NF4/FP4/INT8) where the stack prepares it with peft's prepare_model_for_kbit_training, whose
    // use_gradient_checkpointing defaults to True and calls model.gradient_checkpointing_enable()
    // (peft src/peft/utils/other.py:158-159 at 5d602fd, August 2026: `def prepare_model_for_kbit_training(
    // model, use_gradient_checkpointing=True, ...)`; artidoro/qlora's qlora.py and TRL's SFTConfig, which
    // passes its own gradient_checkpointing, default to True as well).
    bool kbit_checkpointing = false;
    // The same call casts the frozen base's FP16/BF16 parameters, all but bitsandbytes' 4-bit and
    // INT8 weights, to FP32 (peft src/peft/utils/other.py:204-209 at 5d602fd: `if ((param.dtype ==
    // torch.float16) or (param.dtype == torch.bfloat16)) and param.__class__.__name__ != "Params4bit":
    // param.data = param.data.to(torch.float32)`), for bitsandbytes-quantized models (GPTQ, AQLM, EETQ,
    // HQQ and torchao are skipped). TrainingInputs lora.upcast_frozen overrides.
    bool kbit_upcasts_frozen = false;
    // Recomputation when training.recompute is auto, for every run: full. TRL's SFTConfig turns
    // gradient checkpointing on by default since 0.22 (huggingface/trl@35def3e, v1.9.0,
    // trl/trainer/base_config.py:61-62: `gradient_checkpointing: bool = field(default=True, ...)`).
    bool checkpoints_by_default = false;
    // Recomputation when training.recompute is auto, for a fine-tuning run (task finetune, or LoRA/QLoRA) on
    // more than one GPU: full, every transformer block checkpointed. LitGPT's finetune scripts pick their
    // multi-device strategy with it: finetune/full.py `FSDPStrategy(auto_wrap_policy={Block},
    // activation_checkpointing_policy={Block}, ...)` when devices x num_nodes > 1 (Lightning-AI/litgpt@2685705
    // litgpt/finetune/full.py:107-114), finetune/lora.py ModelParallelStrategy(parallelize_fn=...) whose
    // parallelize_fn(model, device_mesh, activation_checkpointing=True) wraps every Block in checkpoint_wrapper
    // (litgpt/finetune/lora.py:152-161, 522-528); one device is strategy "auto", nothing checkpointed.
    // pretrain.py's FSDPStrategy(auto_wrap_policy={Block}, sharding_strategy="HYBRID_SHARD") checkpoints
    // nothing (litgpt/pretrain.py:142-143), so task training with full training stays none.
    bool checkpoints_multi_gpu_finetune = false;
    // A quantized base's trainable adapters cast to BF16 (no FP32 master, BF16 gradients, torch AdamW's
    // moments in the parameters' dtype): TRL's SFTTrainer since 0.26 (huggingface/trl@35def3e
    // trl/trainer/sft_trainer.py:1127-1130: `if _is_quantized_model: ... param.data = param.data.to(
    // torch.bfloat16)` for every parameter that requires grad). TrainingInputs lora.adapters_bf16 overrides.
    bool qlora_adapters_bf16 = false;
    // The stack loads the model with transformers 5 and quantizes it with BitsAndBytesConfig, whose
    // integration replaces nn.Linear modules only (transformers integrations/bitsandbytes.py
    // _replace_with_bnb_linear, `isinstance(module, (nn.Linear, Conv1D))`): transformers 5 stores an
    // MoE's routed experts as fused 3-D nn.Parameters (Mixtral, Qwen3-MoE, DeepSeek-V2/V3 since 5.0;
    // gpt-oss since it was added), so they stay in the checkpoint's dtype (bitsandbytes issue #1849,
    // open; no bitsandbytes release through 0.50.1 quantizes them). On by default so that every
    // profile built on hf_trainer() inherits it. TrainingInputs lora.experts_unquantized overrides.
    bool bnb_skips_fused_experts = true;
    // The same fused 3-D experts are parameters, not modules: peft's target_modules match nn.Module
    // names (q_proj, gate_proj, "all-linear": nn.Linear and Conv1D), so a LoRA config that names
    // gate/up/down adapts the dense MLPs and the shared experts but no routed expert; reaching them
    // takes target_parameters (peft@5d602fd docs/source/package_reference/lora.md:335). Auto
    // expert_adapters resolves to none here, to per-expert where this is false (transformers 4, stacks
    // with their own expert modules). TrainingInputs lora.expert_adapters overrides.
    bool lora_skips_fused_experts = true;
    // Attention and layers
    AttentionKernel attention = AttentionKernel::Flash;  // default kernel (Flash = FlashAttention/SDPA: no s^2 terms)
    bool eager_rmsnorm = true;          // RMSNorm in eager PyTorch: an FP32 copy of its input is saved
    double rmsnorm_normed_bytes = -1;   // ... and the normalised tensor when the norm weight trains
                                        //     (bytes per element; -1: residual-stream dtype; 0: none)
    bool gqa_expand_kv = true;          // K and V repeated to every query head before attention
    // A transformers model that Liger Kernel's monkey patches reach (training.liger): hf-trainer and the
    // profiles built on it that load a transformers model; the 2022 stack and the stacks with their own
    // model (torchtitan, Megatron, LitGPT, torchtune) are left as they are.
    bool liger_patches = false;
    // Under use_liger_kernel the trainer asks Liger's fused loss for each token's accuracy: TRL's SFTTrainer sets
    // inputs["return_token_accuracy"] = True (huggingface/trl@f2cd577 trl/trainer/sft_trainer.py:1736), and
    // LigerFusedLinearCrossEntropyFunction allocates `token_accuracy_1d = torch.zeros(BT, dtype=torch.float32)`
    // beside its loss_1d for the whole forward (linkedin/Liger-Kernel@ead96b6 src/liger_kernel/ops/
    // fused_linear_cross_entropy.py:86-88): 4 B a token more. The HF Trainer does not ask.
    bool liger_token_accuracy = false;
    bool hf_attention = true;           // a transformers model whose attn_implementation picks the kernel
                                        // (training.attention fa2 / sdpa-gqa); false: the stack's own attention
    bool fused_qkv = false;             // one QKV projection (one LoRA dropout for q, k, v)
    bool mha_v_view = false;            // MHA: V is a view of the fused QKV output, which stays alive
    bool softmax_saves_input = false;   // PyTorch <= 1.10: softmax backward kept its input
    bool softmax_fp32 = true;           // eager attention softmax computed and saved in FP32
    bool compiled = false;              // torch.compile: fused norms, pointwise ops recomputed
    bool op_level_selective = false;    // "selective" = op-level SAC (keep some matmul outputs), not Korthikanti's
    double selective_mm_kept = 0.5;     // op-level SAC: share of matmul outputs kept
    // Mixed precision
    bool mixed_params_fp32 = true;      // mixed precision keeps FP32 params and grads (autocast, FSDP
                                        // MixedPrecisionPolicy); else BF16 params + FP32 master in the optimizer
    bool autocast = true;               // torch.autocast: FP32 residual stream, casts per op
    // FSDP (training.sharding zero2/zero3 and their fsdp-* names) wrapped by accelerate, which under
    // bf16/fp16 mixed precision sets MixedPrecision(param_dtype = reduce_dtype = buffer_dtype = that dtype)
    // (huggingface/accelerate@16cb6eb src/accelerate/utils/dataclasses.py:2092-2126, applied to every FSDP
    // plugin at src/accelerate/state.py:1012-1013; since v0.11.0, c93b3eb): the layers compute on the
    // gathered 16-bit parameters, so the residual stream and every saved activation are 16-bit and the
    // autocast that still wraps forward (accelerator.py:1818-1829) has nothing to cast. The sharded
    // parameters, gradients and AdamW moments stay FP32 (accelerator.py:1991-2031 upcasts the flat params).
    bool fsdp_params_16bit = false;
    // training.sharding zero2 is FSDP's SHARD_GRAD_OP (FSDP2: fully_shard(reshard_after_forward=False)), not
    // DeepSpeed's ZeRO-2: "parameters are sharded outside computation. For the parameters, this strategy
    // unshards before the forward, does not reshard them after the forward, and only reshards them after the
    // backward computation" (pytorch/pytorch@0aafd81 torch/distributed/fsdp/api.py:43-49). The parameters at
    // rest are sharded like ZeRO-3's (FP32 under mixed precision: accelerate upcasts the sharded flat params,
    // accelerator.py:1991-2031), and the whole stage's gathered parameters, in FSDP's param_dtype, are alive
    // from the end of forward to the backward. Off for DeepSpeed (ZeRO-2 keeps the 16-bit parameters whole)
    // and the stacks without FSDP (hf-legacy, Megatron).
    bool fsdp_zero2 = false;
    // FSDP gathers the parameters in their own FP32 dtype under bf16/fp16 mixed precision, autocast casting each
    // matmul's weight to 16 bits, a copy its matmul saves for backward that FSDP's reshard does not free (under
    // ZeRO-3 too). LitGPT's finetune/lora.py on more than one device: ModelParallelStrategy, whose parallelize_fn
    // calls fully_shard(m, mesh=dp_mesh) with no MixedPrecisionPolicy (Lightning-AI/litgpt@2685705
    // litgpt/finetune/lora.py:522-541; param_dtype None computes in the parameters' dtype) over the FP32 base
    // (lora_base_fp32_mixed), under Fabric's MixedPrecision autocast (Lightning-AI/pytorch-lightning@7f0c343
    // src/lightning/fabric/connector.py:465-496, plugins/precision/amp.py:63-64). Not for full training: Lightning's
    // FSDPStrategy (finetune/full.py, pretrain.py) has FSDPPrecision "bf16-mixed" gather BF16 since Lightning 2.6.0
    // (plugins/precision/fsdp.py:96-97, PR #21361; param_dtype FP32 up to 2.5, b89ca6e), which fsdp_params_16bit says.
    bool fsdp_gathers_fp32_mixed = false;
    // A LoRA run's unquantized frozen base in FP32 under bf16/fp16 mixed precision: the script builds the model
    // inside fabric.init_module() (Lightning-AI/litgpt@2685705 litgpt/finetune/lora.py:210-211), whose context is
    // the precision plugin's module_init_context (Lightning-AI/pytorch-lightning@7f0c343
    // src/lightning/fabric/strategies/strategy.py:143); "bf16-mixed" / "16-mixed" pick MixedPrecision
    // (fabric/connector.py, single device and ModelParallelStrategy), which defines none, so Precision's
    // nullcontext keeps the default dtype FP32 (fabric/plugins/precision/precision.py:60-66; amp.py has no
    // module_init_context), and load_checkpoint copies the 16-bit checkpoint into those FP32 parameters
    // (litgpt/utils.py:396-398 model.load_state_dict; :436 `full_tensor.to(sharded_meta_param.dtype)` under FSDP2).
    // Forward runs under torch.autocast (amp.py forward_context), which casts each frozen FP32 weight at every call
    // (it caches only leaves that require grad: PyTorch aten/src/ATen/autocast_mode.cpp cached_cast) and the matmul
    // saves that 16-bit copy for its input's gradient: a 16-bit copy of every frozen linear weight from its forward
    // to its backward (one block's at a time where blocks are checkpointed). "bf16-true" builds in BF16
    // (HalfPrecision.module_init_context). A quantized base refuses mixed precision (lora.py:141-143).
    // TrainingInputs lora.base_fp32 overrides.
    bool lora_base_fp32_mixed = false;
    bool autocast_weight_copies = true; // autocast's BF16 copy of each matmul weight lives from forward to backward
    bool autocast_input_copies = true;  // autocast casts a shared input once per projection
    bool grad_fp32_default = false;     // FP32 gradient accumulation buffers by default (BF16 params)
    // Runtime
    bool lazy_module_loading = true;    // CUDA kernels load on first use (PyTorch >= 1.13, CUDA >= 11.7)
    // Tensor parallelism
    bool tp_sequence_parallel = false;  // its TP plan shards norm/dropout regions on the sequence by default
    bool tp_saves_gathered = false;     // DTensor TP (torch.distributed.tensor.parallel): a colwise
                                        // linear saves the all-gathered (whole-sequence) input it was
                                        // given, and a rowwise linear's matmul output is the whole
                                        // (Partial) tensor before its reduce-scatter; Megatron's SP saves
                                        // the sequence shard and all-gathers again in backward
    // Logits and loss
    bool logits_fp32 = true;            // the loss upcasts logits to FP32
    double loss_chunk_tokens = 0;       // chunked cross-entropy: tokens per chunk (0: off)
    bool loss_chunks_checkpointed = false; // the chunked loss (loss_chunk_tokens) runs each chunk's head matmul and
                                        // cross-entropy under torch.utils.checkpoint, skipping ignored tokens: no
                                        // full logits or loss buffers, one chunk's at a time; each chunk upcasts the
                                        // head weight (`h.float() @ w.float().t()`, TRL's chunked_nll loss,
                                        // huggingface/trl@35def3e trl/trainer/sft_trainer.py:98-114, 203-226)
    bool compile_loss = false;          // the loss under torch.compile: the upcast fused, 16-bit buffers only
                                        // (torchtitan since PR #1033 and torchtune with compile=True do it,
                                        // but the calibration rows predate it: off in every profile)
    bool compiles_loss_now = false;     // the stack's current version compiles the loss with the model
                                        // (a note says so when compile_loss is left to auto)
    bool loss_frees_logits = false;     // nothing outside autograd holds the logits, so the loss's and the
                                        // head's backward free them before the last checkpointed layer is
                                        // recomputed: that recompute and the logits are never alive together
                                        // (torchtune: `del logits` before backward since PR #1235)
    double kept_logits_buffers = 0;     // with the loop's own reference to the logits (loss_frees_logits off):
                                        // loss-dtype buffers the loss's backward holds beside that kept
                                        // loss-dtype copy, which alone stays beside the recompute (0: not modelled)
    double logits_held = 0;             // vocab-sized buffers (logits dtype) held through the loss peak
    double loss_buffers = 3;            // vocab-sized buffers (loss dtype) at the loss peak: saved + gradients
    double loss_parallel_buffers = 0;   // more of them with tensor parallelism, where the loss runs on the
                                        // vocabulary shards (DTensor loss_parallel: unfused decompositions)
    // Optimizer, gradients, communication
    bool foreach_optimizer = true;      // optimizer step makes a temporary of the local state size
    bool grads_persist = false;         // gradients stay allocated between steps
    bool no_sync_accumulation = false;  // gradient accumulation under FSDP's no_sync(): gradients pile up
                                        // unsharded until the last micro-batch (LitGPT, HF Accelerate)
    bool ddp_bucket_copy = true;        // DDP keeps a flat copy of the gradients in its buckets
    bool deepspeed_buffers = false;     // DeepSpeed ZeRO reduce / all-gather buckets
    double prefetch_layers = 2;         // ZeRO-3/FSDP: layers gathered at once (current + prefetched)
    bool pp_keeps_unsharded = false;    // FSDP with pipeline parallelism: the stage's parameters stay gathered
                                        // across the micro-batches (no reshard after forward) and their
                                        // gradients accumulate unsharded until the last micro-batch
    bool fsdp_head_gathered = true;     // ZeRO-3/FSDP: the output layer stays gathered through the loss
    // Quantized (QLoRA) base
    // A quantized base that the stack's scripts refuse (training_setup fails, naming the field, instead
    // of a figure): under mixed precision, and on more than one GPU (LitGPT's finetune scripts).
    bool qlora_refuses_mixed = false;
    bool qlora_single_gpu = false;
    bool qlora_quantizes_head = false;  // every nn.Linear quantized, the LM head too (LitGPT); HF keeps it 16-bit
    bool qlora_saves_inputs = false;    // the 4-bit matmul keeps its input for backward: bitsandbytes'
                                        // MatMul4Bit did (ctx.tensors = (A, B)) until 0.43.2, which keeps
                                        // (None, B) (bitsandbytes PR #1270, merged 2024-07-16); torchao's
                                        // NF4 linear keeps nothing. TrainingInputs lora.saves_inputs overrides.
    bool qlora_dequant_fp16 = false;    // the 4-bit weights were quantized from FP16, so each dequantized
                                        // matrix is FP16 and MatMul4Bit casts it to the compute dtype:
                                        // two copies at the cast unless compute is FP16. Lightning
                                        // Fabric's _Linear4bit._quantize_weight casts to torch.half
                                        // (lightning 2.2-2.4, fabric/plugins/precision/bitsandbytes.py);
                                        // bitsandbytes < 0.43.0's Params4bit.cuda did `.half()` too
                                        // (nn/modules.py), 0.43.0 keeps the weight's dtype.
    bool keeps_last_graph = false;      // the last step's autograd graph stays referenced through the next
                                        // forward (LitGPT's `logits` list): tensors held outside
                                        // save_for_backward (bitsandbytes' ctx.tensors) live twice
    // Allocator
    double allocator_fragmentation = 0.06;  // default RuntimeConstants::allocator_fragmentation
    double qlora_init_residue = 0;      // quantize-on-GPU at model init: share of the 16-bit base weights
                                        // whose freed blocks stay reserved (a floor on peak reserved),
                                        // where the quantizer works on whole matrices (qlora_unchunked_init)
    bool qlora_unchunked_init = false;  // torchao 0.1's to_nf4 (before PR #196, v0.2.0): a 16-wide BF16
                                        // distance tensor of the whole matrix; later releases quantize in
                                        // chunks of 1024^2 values. TrainingInputs lora.unchunked_quantize overrides.
};

const std::vector<ProfileBehaviour>& training_profiles();
const ProfileBehaviour* find_training_profile(const std::string& id);
// The recomputation a run uses: training.recompute, or for auto the profile's default (full for a
// quantized base under a profile with kbit_checkpointing, for every run under checkpoints_by_default,
// for a fine-tuning run on more than one GPU under checkpoints_multi_gpu_finetune; else none). An
// unknown profile: none.
Recompute resolved_recompute(const Config& cfg);
// A quantized base: QLoRA, or LoRA over NF4, FP4 or INT8.
bool quantized_base(const TrainingInputs& in);
// Whether auto resolved to full by the profile's kbit_checkpointing rule (the result notes it).
bool recompute_from_kbit_rule(const TrainingInputs& in);
// Whether auto resolved to full because the profile checkpoints every run (checkpoints_by_default).
bool recompute_from_profile_default(const TrainingInputs& in);
// Whether auto resolved to full because the profile's fine-tuning scripts checkpoint every block when
// they run on more than one GPU (checkpoints_multi_gpu_finetune: LitGPT's finetune/full.py and lora.py).
bool recompute_from_multi_gpu_rule(const Config& cfg);
// Whether a quantized base (QLoRA, LoRA over NF4/FP4/INT8) of the MoE model `m` keeps its routed
// experts unquantized: training.lora.experts_unquantized, or for auto the profile's
// bnb_skips_fused_experts. False for a dense model, an unquantized base or an unknown profile.
bool experts_left_unquantized(const TrainingInputs& in, const ModelSpec& m);
// Whether a quantized base's unquantized parameters (embedding, LM head, norms) are cast to FP32, as
// peft's prepare_model_for_kbit_training does: training.lora.upcast_frozen, or for auto the profile's
// kbit_upcasts_frozen. False for an unquantized base or an unknown profile.
bool frozen_base_upcast(const TrainingInputs& in);
// The adapters a LoRA run puts on the routed experts of `m`: training.lora.expert_adapters, or for auto
// none under a profile with lora_skips_fused_experts, else per-expert. PerExpert for a dense model, a
// run whose targets name no MLP matrix, full fine-tuning or an unknown profile (nothing to change).
ExpertAdapters resolved_expert_adapters(const TrainingInputs& in, const ModelSpec& m);
const char* expert_adapters_name(ExpertAdapters a);
// Bytes per gradient value the setup holds and data parallelism reduces (trainable parameters,
// LoRA adapters included): 4 with FP32 trainable params (FP32 training; mixed precision under
// torch autocast) or FP32 gradient buffers (training.grad_fp32; Megatron's main_grad), else 2.
int gradient_bytes(const TrainingInputs& in, const ProfileBehaviour& profile);

// LoRA adapter weights one token meets (r x (in + out) per adapted matrix): in a dense layer, in an
// MoE layer (its attention's, and the MLP adapters of its top_k routed and its shared experts), and
// on the LM head when it is a target. The step's FLOPs count these (core/plan training_flops_per_token).
struct LoraActiveParams {
    double dense_layer = 0, moe_layer = 0, head = 0;
    // peft's target_parameters with its merge (expert_adapters target-parameters): one routed expert's fused
    // tensors that ParamWrapper merges, W + scaling B A, at every MoE layer's forward, as out x in with the
    // rank r between: gate_up_proj's out width (2I, or I for a plain MLP; 0 unless gate or up is a target)
    // over the hidden size, and the hidden size over down_proj's in width (I; 0 unless down is a target).
    double merged_up_out = 0, merged_down_in = 0;
};
LoraActiveParams lora_active_params(const ModelSpec& m, const TrainingInputs& in);

// [SECTION] result --------------------------------------------------------------------------------
// Bytes per GPU on the worst rank, and the quantities behind them.
struct TrainingResult {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, logits_loss = 0, temporary = 0;
    double step_temporary = 0;          // optimizer-step temporaries (a separate phase)
    double peak_allocated = 0;          // torch.cuda.max_memory_allocated
    double peak_reserved = 0;           // caching allocator peak reserved
    double allocator_slack = 0;         // reserved - allocated
    double runtime = 0;                 // CUDA context + NCCL, outside the allocator
    double device_total = 0;            // what nvidia-smi shows: reserved + runtime
    double host_ram = 0;                // per GPU: offloaded state, pinned
    double params_total = 0, params_trainable = 0, params_on_gpu = 0, params_trainable_on_gpu = 0;
    double layers_on_gpu = 0, in_flight_micro_batches = 0, tokens_per_micro_batch = 0;
    double grad_accum = 1, global_batch = 0, dp = 1;
    double activation_bytes_per_layer = 0;   // one layer, one micro-batch, on this GPU
    bool peak_in_optimizer_step = false;
    bool worst_is_last_stage = false;
};

// [SECTION] api -----------------------------------------------------------------------------------
// The detailed method for tasks training and finetune. Errors name the config field.
Outcome<Estimate> training_estimate(const Config& cfg);
// The numbers alone (no formulas or strings): for solvers and the benchmark.
// `checks`: All checks every field; RangesChecked skips the field-table range checks of the members
// the engine reads (check_training_ranges: the model's and the setup's), for a caller that has
// checked them for every config it passes. The planner evaluates thousands of layouts of one config
// that differ only in the layout's members (batch, gpus, training.grad_accum, parallel.*): it checks
// the configs at both ends of each member's span once per search (the ranges are intervals) and
// skips ~49 checks per layout. Every other rule (divisibility, the model's consistency, the
// profile) still runs; the result is the same.
enum class TrainingChecks { All, RangesChecked };

// Whether `layers` split into pp x v model chunks (the interleaved schedule) of ceil(layers / (pp x v))
// or one fewer layers each keeps the busiest stage at ceil(layers / pp) layers, the load of an uneven
// split without interleaving. True whenever pp x v divides the layers; also for uneven chunks such as
// Llama 3 405B's 126 layers in 16 x 8 chunks (two chunks hold only the embedding and the loss: the
// Llama 3 paper's "one fewer layer on the first and last stages", Megatron-Core's
// --decoder-first/last-pipeline-num-layers and --pipeline-model-parallel-layout).
bool interleave_split_ok(int layers, int pp, int v);
Outcome<TrainingResult> training_result(const Config& cfg, TrainingChecks checks = TrainingChecks::All);
// The field-table ranges of the config members the training engine reads (the model's first), in
// the order it reports them.
bool check_training_ranges(const Config& cfg, Error& err);

// One transformer layer's saved activations per token (bytes), split as Korthikanti et al. 2022
// do: `replicated` terms stay whole under tensor parallelism unless sequence parallelism is on,
// `sharded` terms divide by TP, `scores` are the attention-score terms (a x s per token, divide by
// TP), `expert` terms are already divided by expert-TP (routed tokens' MLPs).
struct LayerActivation {
    double replicated = 0;
    double sharded = 0;
    double scores = 0;
    double expert = 0;
    double gathered = 0;  // whole on every TP rank, with or without sequence parallelism (DTensor TP)
    double scattered = 0; // kept only with TP + SP: reduce-scatter outputs (sequence shards, / TP)
    double per_token(double tp, bool sp) const {
        return (sp ? replicated / tp : replicated) + gathered + (sharded + scores) / tp + expert + (sp && tp > 1 ? scattered / tp : 0);
    }
};

// Everything the layer formula needs, resolved from the config (tests build it by hand).
struct LayerActivationInputs {
    double hidden = 0, q_width = 0, kv_width = 0, v_width = 0, heads = 0, ffn = 0;
    bool gated = true;
    bool layernorm = false;            // LayerNorm (native kernel) instead of RMSNorm
    double norms = 2;                  // norms per layer
    bool qk_norm = false;              // per-head norms on q and k (Qwen3, Gemma-3): they save q and k again
    bool qk_norm_whole = false;        // those norms span the whole projections (OLMo-2/3, MiniMax-M2): the saved q and k
                                       // are whole on every TP rank
    double seq_kv = 0;                 // keys each query attends (sequence length) for score terms
    double bytes = 2;                  // activation dtype bytes
    double residual_bytes = 2;         // residual stream dtype bytes (FP32 under autocast with FP32 params)
    double linear_input_bytes = 2;     // saved linear inputs (1 with FP8 linear layers)
    double mlp_hidden_bytes = 0;       // the MLP's hidden tensors (0: bytes); 4 where FP32 hidden states meet
                                       // bitsandbytes layers, which return their input's dtype
    bool autocast_casts = false;       // autocast casts a shared input once per projection
    bool softmax_fp32 = false;         // eager softmax in FP32 (the profile's upcast, or autocast)
    bool attn_softcap = false;         // scores soft-capped (tanh): its output is kept too
    bool dropout = false, attention_dropout = false;
    AttentionKernel attention = AttentionKernel::Flash;
    Recompute recompute = Recompute::None;
    // What trains: all (full), or a frozen base with LoRA targets; QLoRA keeps every base input.
    bool full = true;
    unsigned lora_targets = 0;
    bool routed_lora = true;           // the routed experts' MLP matrices have adapters (ExpertAdapters not none)
    bool lora_dropout = false;
    bool qlora_saves_inputs = false;
    // Liger Kernel's patches (training.liger, liger_patch): LigerRMSNorm saves its input and an FP32 rstd a
    // token; LigerSiLUMulFunction / LigerGELUMulFunction save the gate and up outputs only.
    bool liger_norm = false, liger_glu = false;
    // MoE (experts > 0 on this layer)
    double experts = 0, top_k = 0, shared_experts = 0, expert_ffn = 0, etp = 1;
    const ProfileBehaviour* profile = nullptr;  // required
};
LayerActivation layer_activation(const LayerActivationInputs& in);
// Bytes per hidden value one norm saves for backward (the layers' norms and the final norm).
double norm_saved_bytes(const LayerActivationInputs& in);

// What Liger Kernel patches in a model family with apply_liger_kernel_to_*'s defaults (training.liger):
// the fused linear cross-entropy (the LM head and the loss), RMSNorm, the gated MLP's activation. `fn`
// names the function (empty: the family has none, nothing is patched; a custom architecture is taken
// as a Llama-like model that has one).
struct LigerPatch {
    bool flce = false, rms_norm = false, glu = false;
    const char* fn = "";
};
LigerPatch liger_patch(const ModelSpec& m);
// Liger's FLCE chunk: rows of the [tokens, h] hidden states per chunk, next_power_of_2(ceil(tokens /
// ceil(vocab / h))) (linkedin/Liger-Kernel@ead96b6 src/liger_kernel/ops/fused_linear_cross_entropy.py:68-69).
double liger_flce_chunk_rows(double tokens, double vocab, double hidden);

// Parses and names enums (shared with io/ and the CLI).
const char* precision_name(TrainPrecision p);
const char* optimizer_name(OptimizerKind o);
const char* sharding_name(Sharding s);
const char* recompute_name(Recompute r);

}  // namespace vc
