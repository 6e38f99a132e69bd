// vramcalc core: framework profiles. What a run measures depends on the stack: eager PyTorch
// keeps FP32 copies in its norms, torch.compile fuses them away, HF's loss upcasts logits to FP32,
// Megatron keeps FP32 gradient buffers, DeepSpeed allocates communication buckets. Each profile
// sets those behaviours by name; docs/training.md describes every field with its source.
#include "core/train/training.hpp"

#include <cmath>

#include "core/config.hpp"

namespace vc {
namespace {

// TRL's chunked_nll loss: valid tokens per chunk. Source: huggingface/trl@35def3e (v1.9.0)
// trl/trainer/sft_trainer.py:85, `_CHUNKED_LM_HEAD_CHUNK_SIZE = 256`. Override: training.loss_chunk_tokens.
constexpr double kTrlLossChunkTokens = 256;

// Hugging Face Trainer on PyTorch 2.x, eager: the defaults of ProfileBehaviour.
ProfileBehaviour hf_trainer() {
    ProfileBehaviour p;
    p.no_sync_accumulation = true;  // Accelerate's accumulate() wraps FSDP/DDP in no_sync()
    // eager_rmsnorm (default): transformers' LlamaRMSNorm.forward upcasts, hidden_states.to(torch.float32), and
    // returns self.weight * hidden_states.to(input_dtype) (src/transformers/models/llama/modeling_llama.py at 0022728).
    // A quantized base goes through peft's prepare_model_for_kbit_training, which turns gradient
    // checkpointing on by default (peft src/peft/utils/other.py:159, `use_gradient_checkpointing=True`,
    // then `model.gradient_checkpointing_enable(**gc_enable_kwargs)`): auto recompute is full there.
    p.kbit_checkpointing = true;
    // The same call casts the base's 16-bit parameters but the 4-bit weights to FP32 (peft other.py:204-209):
    // the embedding, the unquantized lm_head and the norms stay FP32 through training.
    p.kbit_upcasts_frozen = true;
    // TrainingArguments(use_liger_kernel=True) patches the transformers model it trains (huggingface/transformers@dd7a585
    // src/transformers/integrations/liger.py:47-51, _apply_liger_kernel_to_instance on the peft-unwrapped model).
    p.liger_patches = true;
    // Its FSDP is accelerate's: MixedPrecision(param_dtype=bf16) from --bf16 (TrainingArguments sets
    // ACCELERATE_MIXED_PRECISION), so FSDP runs compute on 16-bit gathered parameters (ProfileBehaviour).
    p.fsdp_params_16bit = true;
    // accelerate's FSDP plugin passes sharding_strategy SHARD_GRAD_OP (FSDP1) or reshard_after_forward=False (FSDP2)
    // for zero2 (huggingface/accelerate@16cb6eb src/accelerate/accelerator.py:1936-1940; commands/to_fsdp2.py:54).
    p.fsdp_zero2 = true;
    p.id = "hf-trainer";
    p.label = "HF Transformers Trainer (PyTorch 2.x, eager)";
    p.description =
        "Hugging Face Trainer on PyTorch 2.x, eager mode: SDPA attention, torch.autocast mixed precision (FP32 params), "
        "RMSNorm in FP32, K/V repeated for GQA, the loss upcasts logits to FP32, foreach AdamW, "
        "zero_grad(set_to_none=True). The most common fine-tuning stack; the default.";
    return p;
}

ProfileBehaviour hf_legacy() {
    ProfileBehaviour p = hf_trainer();
    p.id = "hf-legacy";
    p.label = "HF Transformers Trainer (2022, PyTorch <= 1.10)";
    p.description =
        "The HF Trainer as the 2022 transformers docs measured it: eager attention, softmax backward keeping its input "
        "(PyTorch <= 1.10), per-parameter AdamW (no foreach temporaries), zero_grad() keeping gradients allocated, the "
        "loss over a shifted copy of the logits.";
    p.attention = AttentionKernel::Eager;
    p.liger_patches = false;  // Liger Kernel came in August 2024 (v0.1.0), for transformers 4.4x
    p.fsdp_params_16bit = false;  // PyTorch <= 1.10 had no FSDP (torch.distributed.fsdp came in 1.11)
    p.fsdp_zero2 = false;         // ... so its ZeRO-2 is DeepSpeed's (16-bit parameters whole)
    // transformers of 2022 had neither flash_attention_2 (4.34, October 2023) nor SDPA's enable_gqa (4.54).
    p.hf_attention = false;
    // transformers 4 kept an MoE's experts as a ModuleList of nn.Linear, which bitsandbytes quantizes
    // (models/mixtral/modeling_mixtral.py MixtralBlockSparseTop2MLP w1/w2/w3 before 5.0).
    p.bnb_skips_fused_experts = false;
    // ... and peft's target_modules put an adapter on each of those nn.Linear, every expert
    // (transformers@00d4b3d src/transformers/models/qwen3_moe/modeling_qwen3_moe.py Qwen3MoeSparseMoeBlock:
    // `self.experts = nn.ModuleList([Qwen3MoeMLP(...)])`, gate_proj/up_proj/down_proj nn.Linear).
    p.lora_skips_fused_experts = false;
    p.softmax_saves_input = true;
    // PyTorch <= 1.12 loaded every kernel at start-up (lazy loading came with 1.13 and CUDA 11.7).
    p.lazy_module_loading = false;
    p.softmax_fp32 = false;
    p.foreach_optimizer = false;
    p.grads_persist = true;
    p.logits_held = 2;
    p.allocator_fragmentation = 0.03;
    return p;
}

ProfileBehaviour torch_compile() {
    ProfileBehaviour p = hf_trainer();
    p.id = "torch-compile";
    p.label = "PyTorch + torch.compile";
    p.description =
        "An HF/PyTorch model under torch.compile (inductor): norms, RoPE and activations fused; the partitioner saves "
        "matmul outputs and recomputes pointwise ops; otherwise as hf-trainer.";
    p.compiled = true;
    p.eager_rmsnorm = false;
    return p;
}

ProfileBehaviour torchtitan() {
    ProfileBehaviour p = hf_trainer();
    p.no_sync_accumulation = false;
    p.kbit_checkpointing = false;  // its own model and loop: no peft prepare_model_for_kbit_training
    p.kbit_upcasts_frozen = false;
    p.bnb_skips_fused_experts = false;  // its own model, no bitsandbytes
    p.lora_skips_fused_experts = false;  // its own MoE layers: LoRA counted per expert, as before this field
    p.liger_patches = false;            // its own model: Liger's patches replace transformers modules
    p.fsdp_params_16bit = false;        // its own fully_shard policy (reduce_dtype FP32); autocast off below
    p.id = "torchtitan";
    p.label = "torchtitan (FSDP2)";
    p.description =
        "PyTorch torchtitan: FSDP2 with BF16 compute params gathered per block (FP32 sharded params, FP32 reduce), "
        "eager RMSNorm in FP32, repeat_kv for GQA, op-level selective checkpointing (every other matmul output kept), "
        "loss on .float() logits, fused AdamW.";
    p.autocast = false;
    p.autocast_weight_copies = false;
    p.autocast_input_copies = false;
    p.rmsnorm_normed_bytes = 2;
    p.op_level_selective = true;
    p.hf_attention = false;  // torchtitan's own model (models/llama3/model: repeat_kv, then SDPA or flex)
    p.ddp_bucket_copy = false;
    // torchtitan's parallelize_llama TP plan wraps attention_norm / ffn_norm in SequenceParallel()
    // and shards the block outputs on the sequence (torchtitan/models/llama3/parallelize.py).
    p.tp_sequence_parallel = true;
    // That plan is DTensor's: PrepareModuleInput all-gathers the sequence-sharded norm output into
    // the ColwiseParallel q/k/v and w1/w3, which save it whole; RowwiseParallel wo/w2 produce a
    // whole Partial output that op-level SAC keeps (torch/distributed/tensor/parallel/style.py).
    p.tp_saves_gathered = true;
    // Under TP torchtitan shards the logits on the vocabulary and runs cross-entropy in
    // loss_parallel() (on unless training.disable_loss_parallel), whose handlers decompose the loss
    // (torch/distributed/tensor/parallel/loss.py): the backward's (zeros_like(x) + exp(x)) *
    // grad_output holds zeros, exp, their sum and the product beside the saved log-probabilities:
    // four FP32 buffers at its peak, one more than the fused kernels' saved + gradient + output.
    p.loss_parallel_buffers = 1;
    // With PP, torchtitan's apply_fsdp sets reshard_after_forward=False on every block and the root
    // ("to avoid per-microbatch all-gathers"), and PyTorch's PipelineStage runs the micro-batches'
    // backwards with set_requires_gradient_sync(False) until the last one, so FSDP2 keeps the
    // stage's BF16 parameters gathered and its gradients unsharded, in reduce_dtype (FP32), through
    // the schedule (torchtitan parallelize_llama.py; torch/distributed/pipelining/stage.py;
    // FSDPParam.to_accumulated_grad_if_needed).
    p.pp_keeps_unsharded = true;
    // optimizer.implementation defaults to "fused" since PR #881 (February 2025; components/
    // optimizer.py passes fused=True to AdamW): one kernel per parameter group, no foreach temporaries.
    p.foreach_optimizer = false;
    // Since PR #1033 (April 2025) build_cross_entropy_loss wraps the loss in torch.compile whenever
    // the model is compiled (torchtitan components/loss.py); C26-C28 (December 2024) predate it.
    p.compiles_loss_now = true;
    // FSDP2 with 8k-32k-token steps: the FP32 loss buffers (tens of GB) and per-block gathers
    // leave cached blocks the next allocations cannot reuse. Fitted to C25-C29 (docs/accuracy.md).
    p.allocator_fragmentation = 0.13;
    return p;
}

ProfileBehaviour megatron() {
    ProfileBehaviour p;
    p.bnb_skips_fused_experts = false;  // Megatron's own MoE layers, no bitsandbytes
    p.lora_skips_fused_experts = false;  // its own MoE layers: LoRA counted per expert, as before this field
    p.id = "megatron";
    p.label = "Megatron-LM / Transformer Engine";
    p.description =
        "Megatron-LM with Transformer Engine: fused norms and QKV, BF16 params with FP32 master weights in the "
        "(distributed) optimizer, FP32 main_grad buffers, fused vocab-parallel cross-entropy, fused Adam; the "
        "Korthikanti et al. 2022 activation terms exactly.";
    p.eager_rmsnorm = false;
    p.rmsnorm_normed_bytes = 0;
    p.gqa_expand_kv = false;
    p.hf_attention = false;  // Transformer Engine's DotProductAttention takes the K/V groups as they are
    p.fused_qkv = true;
    p.softmax_fp32 = false;
    p.mixed_params_fp32 = false;
    p.autocast = false;
    p.autocast_weight_copies = false;
    p.autocast_input_copies = false;
    p.grad_fp32_default = true;
    // Megatron-LM's GPT pretraining examples pass --sequence-parallel whenever TP > 1
    // (examples/gpt3/train_gpt3_175b_distributed.sh; NeMo's recipes default sequence_parallel on).
    p.tp_sequence_parallel = true;
    p.logits_held = 1;
    p.loss_buffers = 1.5;
    p.foreach_optimizer = false;
    p.grads_persist = true;
    p.ddp_bucket_copy = false;
    p.allocator_fragmentation = 0.04;
    return p;
}

ProfileBehaviour deepspeed() {
    ProfileBehaviour p = hf_trainer();
    p.no_sync_accumulation = false;
    // The engine casts every floating-point parameter back to the BF16/FP16 it trains in, so peft's FP32
    // cast does not last (deepspeed/runtime/engine.py:1755-1762 and 1541-1544 at edaa722, August 2026,
    // _cast_module_mixed_precision; module.bfloat16() before 0.19.2). The 4-bit weights are uint8.
    p.kbit_upcasts_frozen = false;
    p.fsdp_params_16bit = false;  // not FSDP: BF16 params with the FP32 master in the optimizer (below)
    p.fsdp_zero2 = false;         // ZeRO-2 partitions gradients and optimizer state; the 16-bit parameters stay whole
    p.id = "deepspeed";
    p.label = "DeepSpeed ZeRO (HF model)";
    p.description =
        "DeepSpeed ZeRO with a Hugging Face model: BF16/FP16 params, FP32 master partition in the optimizer, "
        "contiguous gradient buffers, reduce / all-gather buckets of 5e8 elements, FusedAdam; model-side behaviour "
        "as hf-trainer.";
    p.mixed_params_fp32 = false;
    p.autocast = false;
    p.autocast_weight_copies = false;
    p.autocast_input_copies = false;
    p.foreach_optimizer = false;
    p.grads_persist = true;
    p.ddp_bucket_copy = false;
    p.deepspeed_buffers = true;
    return p;
}

ProfileBehaviour litgpt() {
    ProfileBehaviour p = hf_trainer();
    p.kbit_checkpointing = false;  // its own model and loop: no peft prepare_model_for_kbit_training
    p.kbit_upcasts_frozen = false;
    // Its LLaMAMoE keeps each expert an LLaMAMLP of nn.Linear (litgpt/model.py), which Lightning's
    // bitsandbytes plugin replaces like every Linear: the experts are quantized.
    p.bnb_skips_fused_experts = false;
    // litgpt/lora.py's LLaMAMoE builds its experts from the LoRA LLaMAMLP (LoRALinear fc_1, fc_2, proj):
    // with lora_mlp every expert has its adapters.
    p.lora_skips_fused_experts = false;
    p.liger_patches = false;  // its own model: Liger's patches replace transformers modules
    // finetune/full.py and pretrain.py run FSDPStrategy, whose FSDPPrecision "bf16-mixed" is MixedPrecision(param_dtype=
    // reduce_dtype=buffer_dtype=torch.bfloat16) since Lightning 2.6.0 (Lightning-AI/pytorch-lightning@7f0c343
    // src/lightning/fabric/plugins/precision/fsdp.py:94-97, PR #21361) over FP32 parameters at rest (module_init_context
    // FP32 for the mixed precisions, :68-76 and :114-115, since 2.6.4, PR #21586); LitGPT requires lightning>=2.6.1
    // (Lightning-AI/litgpt@2685705 pyproject.toml:30). Lightning 2.5 and earlier gathered FP32 (param_dtype FP32, b89ca6e).
    p.fsdp_params_16bit = true;
    // finetune/lora.py on more than one device: fully_shard with no policy over the FP32 base (fsdp_gathers_fp32_mixed).
    p.fsdp_gathers_fp32_mixed = true;
    p.lora_base_fp32_mixed = true;  // Fabric's MixedPrecision builds the LoRA model in FP32 (ProfileBehaviour)
    p.checkpoints_multi_gpu_finetune = true;  // finetune/full.py and lora.py checkpoint every Block on > 1 device
    p.id = "litgpt";
    p.label = "LitGPT (Lightning Fabric)";
    p.description =
        "LitGPT finetune/pretrain scripts: SDPA attention with K/V repeated for GQA, one fused QKV projection, RMSNorm "
        "in FP32 (keeping the FP32 normalised tensor when its weight trains), the LM head chunked by 128 tokens with "
        "the chunks' BF16 logits held through backward while the cross-entropy's FP32 buffers of every chunk are "
        "alive at once (autograd runs all chunks' loss backward before the head's), bitsandbytes quantizing every "
        "Linear including the head from FP16 (each dequantized matrix in FP16 beside its BF16 cast), torch AdamW "
        "(foreach), zero_grad(set_to_none=True). Fine-tuning on more than one GPU checkpoints every block (FSDP); "
        "bf16-mixed LoRA holds the frozen base in FP32 under autocast.";
    // litgpt/model.py RMSNorm: x = x.float(), then (x_normed * weight.float()).to(dtype): the FP32 copy
    // and the FP32 normalised tensor, in every layer and the final norm.
    p.rmsnorm_normed_bytes = 4;
    p.fused_qkv = true;
    p.mha_v_view = true;
    p.hf_attention = false;  // litgpt/model.py: K/V expanded to the query heads, then SDPA
    p.autocast_input_copies = false;
    p.logits_held = 1;
    // finetune/lora.py builds BitsandbytesPrecision(quantize[4:], dtype) with no ignore_modules, so
    // Lightning replaces every nn.Linear, lm_head included (fabric/plugins/precision/bitsandbytes.py
    // _convert_layers), and quantizes each from torch.half (_Linear4bit._quantize_weight).
    p.qlora_quantizes_head = true;
    p.qlora_dequant_fp16 = true;
    p.keeps_last_graph = true;
    // --quantize bnb.* refuses a mixed precision, ValueError("Quantization and mixed precision is not
    // supported.") (Lightning-AI/litgpt@2685705 litgpt/finetune/lora.py:141-143; only 16-true, bf16-true
    // and 32-true map to a dtype, :148), and more than one device, NotImplementedError("Quantization is
    // currently not supported for multi-GPU training. ...") (:152-157); adapter.py and adapter_v2.py the same.
    p.qlora_refuses_mixed = true;
    p.qlora_single_gpu = true;
    return p;
}

ProfileBehaviour torchtune() {
    ProfileBehaviour p = hf_trainer();
    p.no_sync_accumulation = false;
    p.kbit_checkpointing = false;  // its own model and loop: no peft prepare_model_for_kbit_training
    p.kbit_upcasts_frozen = false;
    p.bnb_skips_fused_experts = false;  // its own model, NF4 through torchao (no bitsandbytes)
    // Its LoRAGroupedExperts gives every expert rank-r adapters on gate, up and down
    // (pytorch/torchtune@0ddd4b9 torchtune/modules/moe/experts.py:92, cited in peft issue #2527).
    p.lora_skips_fused_experts = false;
    p.liger_patches = false;            // its own model: Liger's patches replace transformers modules
    p.fsdp_params_16bit = false;        // its own FSDP2 wrapping of a BF16 model (no autocast)
    p.id = "torchtune";
    p.label = "torchtune";
    p.description =
        "PyTorch torchtune recipes: the model in BF16 (no autocast), eager RMSNorm in FP32, GQA K/V expanded, the "
        "output projection cast to FP32 logits, torch AdamW; activation checkpointing is usually on.";
    // torchtune/modules/rms_norm.py: x_fp32 = x.float(), normalised, .type_as(x) (BF16), times self.scale:
    // the FP32 copy and the BF16 normalised tensor, in every layer and the final norm.
    p.rmsnorm_normed_bytes = 2;
    p.hf_attention = false;  // torchtune's own MultiHeadAttention (K/V expanded, then SDPA or flex)
    p.mixed_params_fp32 = false;
    p.autocast = false;
    p.autocast_weight_copies = false;
    p.autocast_input_copies = false;
    p.logits_held = 1;
    p.loss_buffers = 2;
    // QLoRA builds each NF4 layer from a BF16 weight on the GPU at init; with torchao 0.1 (torchtune's
    // pin until May 2024) the freed blocks stay reserved. Source: torchtune's QLoRA tutorial reads
    // 9.13 GB reserved right after init of Llama-2-7B (NF4 weights ~3.9 GB, BF16 linears 13.0 GB):
    // (9.13 - 3.9) / 13.0 = 0.40. torchao PR #196 (May 2024, nf4tensor.py CHUNK_SIZE = 1024**2)
    // quantizes in chunks; torchtune issue #1398 (August 2024) logs 6.27 GiB reserved after init of
    // llama3_1/8B_qlora_single_device: the weights and no residue, so off unless lora.unchunked_quantize.
    p.qlora_init_residue = 0.40;
    p.qlora_unchunked_init = false;
    // recipes/lora_finetune_single_device.py: `del logits` before backward ("free logits otherwise it
    // peaks backward memory", PR #1235, July 2024); training.keeps_logits for the recipes before it.
    p.loss_frees_logits = true;
    // With training.keeps_logits (the recipe at 0217d44c2, May 2024), `logits` is the shifted FP32 copy
    // (`logits[..., :-1, :].contiguous()` of the decoder's `.float()` output), alive until backward returns.
    // log_softmax's backward holds it beside its saved output, nll_loss2d's gradient and its own gradient
    // (aten/src/ATen/native/cuda/SoftMax.cu host_softmax_backward, PyTorch 2.3): 3 FP32 buffers more.
    p.kept_logits_buffers = 3;
    // Its recipes call training.compile_loss(self._loss_fn) when compile=True (recipes/
    // lora_finetune_single_device.py, torchtune 0.3+): each chunk's cross-entropy compiled.
    p.compiles_loss_now = true;
    return p;
}

// TRL's SFTTrainer (the current release, 1.9.0, July 2026; from 1.7.0 for the loss): an HF Trainer
// subclass, so the model and the loop are hf-trainer's; what its SFTConfig and its model preparation change.
ProfileBehaviour trl() {
    ProfileBehaviour p = hf_trainer();
    p.id = "trl";
    p.label = "TRL SFTTrainer (HF Trainer + peft)";
    p.description =
        "Hugging Face TRL's SFTTrainer (1.7 and later) over the HF Trainer: SFTConfig checkpoints every run by default, "
        "the default chunked_nll loss computes the head and cross-entropy 256 valid tokens at a time under checkpoint "
        "(no full logits; each chunk upcasts the head weight to FP32), a quantized base keeps its 16-bit embedding, "
        "head and norms (no peft cast) and trains BF16 adapters; otherwise as hf-trainer.";
    // SFTConfig (via TRL's _BaseConfig) defaults gradient_checkpointing to True since 0.22
    // (huggingface/trl@35def3e trl/trainer/base_config.py:61-62; sft_config.py:135 lists it).
    p.checkpoints_by_default = true;
    p.liger_token_accuracy = true;  // sft_trainer.py:1736, return_token_accuracy under use_liger_kernel (ProfileBehaviour)
    p.kbit_checkpointing = false;  // no peft prepare_model_for_kbit_training since 0.26 (below)
    // From 0.26 (PR #4577) SFTTrainer calls neither peft's prepare_model_for_kbit_training nor its own
    // cast: 0.7.5-0.24 cast embedding and head back to BF16 and kept the norms FP32 (trl@9000c02
    // trl/models/utils.py prepare_peft_model, peft_module_casting_to_bf16); 0.25 cast only the norms.
    p.kbit_upcasts_frozen = false;
    // ... and casts a 4-/8-bit model's trainable parameters to BF16 (trl@35def3e sft_trainer.py:1127-1130).
    p.qlora_adapters_bf16 = true;
    // SFTConfig.loss_type defaults to "chunked_nll" since 1.7.0 (trl@35def3e sft_config.py:334-336, "nll"
    // with use_liger_kernel): _CHUNKED_LM_HEAD_CHUNK_SIZE = 256 valid tokens (sft_trainer.py:85), each
    // chunk's `h.float() @ w.float().t()`, log-softmax and nll_loss under torch.utils.checkpoint
    // (sft_trainer.py:98-114, 212-226). training.loss_chunk_tokens 0 is loss_type "nll" (TRL <= 1.6).
    p.loss_chunk_tokens = kTrlLossChunkTokens;
    p.loss_chunks_checkpointed = true;
    return p;
}

}  // namespace

const std::vector<ProfileBehaviour>& training_profiles() {
    static const std::vector<ProfileBehaviour> profiles = {hf_trainer(), hf_legacy(), torch_compile(), torchtitan(),
                                                           megatron(),   deepspeed(), litgpt(),        torchtune(), trl()};
    return profiles;
}

const ProfileBehaviour* find_training_profile(const std::string& id) {
    for (const auto& p : training_profiles())
        if (id == p.id) return &p;
    return nullptr;
}

bool quantized_base(const TrainingInputs& in) {
    return in.finetune == FinetuneMethod::Qlora || (in.finetune == FinetuneMethod::Lora && in.lora.quant != BaseQuant::None);
}

bool recompute_from_kbit_rule(const TrainingInputs& in) {
    if (in.recompute != Recompute::Auto) return false;
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return quantized_base(in) && p && p->kbit_checkpointing;
}

bool recompute_from_profile_default(const TrainingInputs& in) {
    if (in.recompute != Recompute::Auto) return false;
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return p && p->checkpoints_by_default;
}

bool recompute_from_multi_gpu_rule(const Config& cfg) {
    const TrainingInputs& in = cfg.training;
    if (in.recompute != Recompute::Auto || cfg.gpus <= 1) return false;
    if (cfg.task != Task::FineTune && in.finetune == FinetuneMethod::Full) return false;  // pretraining
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return p && p->checkpoints_multi_gpu_finetune;
}

bool experts_left_unquantized(const TrainingInputs& in, const ModelSpec& m) {
    const bool quantized_base = in.finetune == FinetuneMethod::Qlora || (in.finetune == FinetuneMethod::Lora && in.lora.quant != BaseQuant::None);
    if (!quantized_base || m.experts == 0) return false;
    if (in.lora.experts_unquantized != Toggle::Auto) return in.lora.experts_unquantized == Toggle::On;
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return p && p->bnb_skips_fused_experts;
}

bool frozen_base_upcast(const TrainingInputs& in) {
    if (!quantized_base(in)) return false;
    if (in.lora.upcast_frozen != Toggle::Auto) return in.lora.upcast_frozen == Toggle::On;
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return p && p->kbit_upcasts_frozen;
}

ExpertAdapters resolved_expert_adapters(const TrainingInputs& in, const ModelSpec& m) {
    if (in.finetune == FinetuneMethod::Full || m.experts == 0 || (in.lora.targets & kLoraMlp) == 0) return ExpertAdapters::PerExpert;
    if (in.lora.expert_adapters != ExpertAdapters::Auto) return in.lora.expert_adapters;
    const ProfileBehaviour* p = find_training_profile(in.profile);
    return p && p->lora_skips_fused_experts ? ExpertAdapters::None : ExpertAdapters::PerExpert;
}

const char* expert_adapters_name(ExpertAdapters a) {
    switch (a) {
        case ExpertAdapters::PerExpert: return "per-expert";
        case ExpertAdapters::None: return "none";
        case ExpertAdapters::TargetParameters: return "target-parameters";
        case ExpertAdapters::TargetParametersUnmerged: return "target-parameters-unmerged";
        default: return "auto";
    }
}

// Liger Kernel's patches by model family, apply_liger_kernel_to_*'s defaults (linkedin/Liger-Kernel@ead96b6
// src/liger_kernel/transformers/monkey_patch.py; MODEL_TYPE_TO_APPLY_LIGER_FN at :3534 maps config.model_type to
// them, and a model type outside it is left unpatched, :3637-3639): rope, rms_norm, swiglu (geglu for Gemma) and
// fused_linear_cross_entropy all True for llama (:221-226), mistral (:688), mixtral (:799, LigerExperts for the
// experts), qwen2 (:1598), qwen3 (:1665), qwen3_moe (:1722), gemma/gemma2/gemma3_text (:921, :990, :1064) and phi3
// (:2211); gpt_oss (:1787-1792) keeps swiglu False (its clamped expert activation). No entry for falcon, gpt2,
// gpt_bigcode (StarCoder), bert, phi (phi-2), deepseek_v2/v3.
LigerPatch liger_patch(const ModelSpec& m) {
    LigerPatch p;
    const std::string& f = m.family;
    const bool gated = m.mlp != MlpKind::Gelu;
    if (f == "Llama") p.fn = "apply_liger_kernel_to_llama";
    else if (f == "Mistral") p.fn = m.experts > 0 ? "apply_liger_kernel_to_mixtral" : "apply_liger_kernel_to_mistral";
    else if (f == "Qwen") p.fn = m.experts > 0 ? "apply_liger_kernel_to_qwen3_moe" : "apply_liger_kernel_to_qwen2 / _qwen3";
    else if (f == "Gemma") p.fn = "apply_liger_kernel_to_gemma / _gemma2 / _gemma3_text";
    else if (f == "Phi" && gated) p.fn = "apply_liger_kernel_to_phi3";
    else if (f == "gpt-oss") p.fn = "apply_liger_kernel_to_gpt_oss";
    else if (f.empty() && m.id.empty()) p.fn = "a Llama-like model's apply_liger_kernel_to_* (custom architecture)";
    else return p;
    p.flce = true;
    p.rms_norm = m.norm == NormKind::RmsNorm;
    p.glu = gated && f != "gpt-oss";
    return p;
}

double liger_flce_chunk_rows(double tokens, double vocab, double hidden) {
    if (tokens < 1 || hidden < 1) return 0;
    // inc_factor = cdiv(V, H); chunk_size = next_power_of_2(cdiv(BT, inc_factor)) (fused_linear_cross_entropy.py:68-69).
    const double inc = std::ceil(vocab / hidden);
    const double rows = std::ceil(tokens / (inc > 0 ? inc : 1));
    return std::pow(2.0, std::ceil(std::log2(rows)));
}

Recompute resolved_recompute(const Config& cfg) {
    const TrainingInputs& in = cfg.training;
    if (in.recompute != Recompute::Auto) return in.recompute;
    return recompute_from_profile_default(in) || recompute_from_kbit_rule(in) || recompute_from_multi_gpu_rule(cfg) ? Recompute::Full
                                                                                                                   : Recompute::None;
}

}  // namespace vc
