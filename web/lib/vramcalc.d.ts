// vramcalc JS API: TypeScript declarations for the library (vramcalc.mjs / vramcalc.js) and the
// page's `window.vramcalc`, one API shape (web/api.js; docs/embed.md).
// Configs and results are the JSON documents of the CLI (docs/config.md): the types below name the
// fields every build has; sections added by later schema versions pass through as unknown fields.

/** An error as a value: `field` is the config field's dotted path ("batch", "model.layers"),
 *  "config" for the document itself, "question" for solve()'s question, "" for an engine failure. */
export interface VramCalcError {
    field: string;
    message: string;
}

export interface Failure {
    ok: false;
    error: VramCalcError;
}

// [SECTION] config types ----------------------------------------------------------------------------
// The config types are generated from the field table (core/fields.cpp): `vramcalc fields --update
// web/lib/vramcalc.d.ts`; ctest fields_generated fails when this block differs from it.
// generated: vramcalc fields ts
/** The config document (docs/config.md). Every field is optional; unknown fields are errors. */
export interface Config {
    /** the version of this document's layout (default 1; 1) */
    schema_version?: number;
    /** which estimator runs (docs/methods.md) (default quick; detailed when the document sets an inference, training, parallel, runtime or plan field) */
    method?: 'quick' | 'guide' | 'detailed';
    /** what the GPUs do (default training; inference when the document sets an inference field and no training, parallel or runtime one) */
    task?: 'training' | 'finetune' | 'inference';
    /** a preset, a custom architecture, or a parameter count (below) */
    model?: ModelConfig;
    /** parameters in billions, a typed count (same as model.params_b); without it the quick and guide methods read the count of model (default 7; (0, 100000] billion) */
    params_b?: number;
    /** quick method: bytes per weight 4, 2, 2, 1, 0.5 (default 'fp16') */
    precision?: 'fp32' | 'fp16' | 'bf16' | 'int8' | 'int4';
    /** quick method: optimizer bytes per parameter 12, 8, 2, 4, 0 (inference: no gradients either) (default adamw-mixed (inference when task is inference)) */
    optimizer?: 'adamw-mixed' | 'adamw' | 'adamw-8bit' | 'sgd' | 'inference';
    /** micro-batch size (sequences per step per GPU) (default 1; [1, 1048576] sequences) */
    batch?: number;
    /** sequence length in tokens (default 2048; [1, 16777216] tokens) */
    seq?: number;
    /** quick method: activations x 0.25; detailed: training.recompute full unless given (default false) */
    checkpointing?: boolean;
    /** GPUs in the job (the guide's training formula divides by it) (default 1; [1, 1048576] GPUs) */
    gpus?: number;
    /** the GPU to size for (solvers, fit verdicts): an id from vramcalc --list-gpus (another is refused) (default none) */
    gpu?: string;
    /** guide method inputs (below) */
    guide?: GuideConfig;
    /** quick method constants (below) */
    constants?: ConstantsConfig;
    /** plan to use at most this share of a GPU's memory (default 0.75; [0.05, 1]) */
    target_utilization?: number;
    /** detailed training and fine-tuning (below) */
    training?: TrainingConfig;
    /** parallel layout of detailed training (below) */
    parallel?: ParallelConfig;
    /** constants of the machine and the allocator (detailed training) */
    runtime?: RuntimeConfig;
    /** detailed inference and serving (below) */
    inference?: InferenceConfig;
    /** Requests of other entry points (plan()) add their own sections. */
    [section: string]: unknown;
}

/** "model": a preset, a custom architecture, or a parameter count (below) */
export interface ModelConfig {
    /** a preset id (vramcalc --list-presets); fields beside it override it (default none) */
    preset?: string;
    /** display name (empty: the preset's) (default none) */
    name?: string;
    /** transformer blocks: weights, KV cache and activations grow with them (default 0; [1, 1024]) */
    layers?: number;
    /** model width h: weights grow with h^2, activations with h (default 0; [1, 1048576]) */
    hidden?: number;
    /** query heads; eager attention keeps heads x s x s scores (default 0; [1, 65536]) */
    heads?: number;
    /** KV heads (= heads for MHA, 1 for MQA): the KV cache is proportional to these (default 0; [0, model.heads]) */
    kv_heads?: number;
    /** width of one head (0: hidden / heads); the KV cache is KV heads x head dim (default 0; [0, 1048576]) */
    head_dim?: number;
    /** dense MLP intermediate width: weights and MLP activations grow with it (default 0; [0, 1048576]) */
    ffn?: number;
    /** gelu: 2 matrices; swiglu / geglu: 3 matrices (default 'swiglu') */
    mlp?: 'gelu' | 'swiglu' | 'geglu';
    /** vocabulary: embedding and LM head rows; the logits are batch x seq x vocab (default 0; [1, 16777216]) */
    vocab?: number;
    /** the LM head shares the embedding matrix: one fewer vocab x h (default false) */
    tied_embeddings?: boolean;
    /** LayerNorm adds a bias per channel (default 'rmsnorm') */
    norm?: 'layernorm' | 'rmsnorm';
    /** biases on the q, k, v (and o with mlp_bias) projections (default false) */
    attn_bias?: boolean;
    /** biases on the MLP and output projections (default false) */
    mlp_bias?: boolean;
    /** learned absolute position embeddings: rows (0: rotary) (default 0; [0, 16777216]) */
    max_position?: number;
    /** tokens the model is configured for (max_position_embeddings; 0: unknown): the max_context and max_seq answers stop there (default 0; [0, 16777216] tokens) */
    context_limit?: number;
    /** the checkpoint's dtype (config.json torch_dtype; empty: unknown). No bytes: choosing the model sets the 2-byte float choices to it (fp32: bf16) (default none; bf16, fp16, fp32 or empty) */
    checkpoint_dtype?: string;
    /** the weight format the published checkpoint stores when quantized (quantization_config: fp8-block, mxfp4, gptq-int4 ...; empty: unquantized). Serving loads it where inference.weights is not given (default none; a weight format id of inference.weights (not a GGUF type) or empty) */
    checkpoint_format?: string;
    /** BERT token-type embedding rows (default 0; [0, 16777216]) */
    type_vocab?: number;
    /** routed experts per MoE layer (0: dense); all are stored (default 0; [0, 65536]) */
    experts?: number;
    /** routed experts each token uses: compute and routed activations (default 0; [1, model.experts] with experts) */
    top_k?: number;
    /** experts every token uses (default 0; [0, 65536]) */
    shared_experts?: number;
    /** intermediate width of one expert (default 0; [0, 1048576]) */
    expert_ffn?: number;
    /** leading layers with a dense MLP instead of experts (default 0; [0, model.layers]) */
    dense_layers?: number;
    /** after the dense layers, the layers whose index + 1 is a multiple of n have the experts and the others a dense MLP (Llama-4 Maverick: 2; ERNIE-4.5's moe_layer_interval) (default 1; [1, model.layers]) */
    moe_every?: number;
    /** trailing layers with a dense MLP instead of experts (ERNIE-4.5: after moe_layer_end_index) (default 0; [0, model.layers]) */
    dense_tail?: number;
    /** multi-head latent attention: query rank (0: a plain q projection) (default 0; [0, 1048576]) */
    q_lora_rank?: number;
    /** multi-head latent attention: the KV latent per token (0: off) (default 0; [0, 1048576]) */
    kv_lora_rank?: number;
    /** MLA: rotary part of a query/key head (default 0; [0, 1048576]) */
    qk_rope_head_dim?: number;
    /** MLA: non-rotary part of a query/key head (default 0; [0, 1048576]) */
    qk_nope_head_dim?: number;
    /** MLA: value head width (default 0; [0, 1048576]) */
    v_head_dim?: number;
    /** DeepSeek-V3.2's lightning indexer: query heads (index_n_heads 64; 0: no indexer) (default 0; [0, 65536]) */
    index_heads?: number;
    /** DeepSeek-V3.2's lightning indexer: head width (index_head_dim 128); one key of it per token and layer is cached beside MLA's (default 0; [0, 65536]) */
    index_head_dim?: number;
    /** local layers cache at most this many tokens (0: none) (default 0; [0, 1073741824] tokens) */
    sliding_window?: number;
    /** every n-th layer attends globally (0: every layer uses the window) (default 0; [0, model.layers]) */
    global_every?: number;
    /** the local layers attend within fixed chunks of sliding_window tokens (Llama 4), not a sliding window; the engines cache the same (default false) */
    chunked?: boolean;
    /** a parameter count in billions; alone, the architecture is filled from typical ratios (default 0; [0, 100000] billion) */
    params_b?: number;
    /** 2; 1 for a parallel attention/MLP block, 4 for Gemma-2 (default 2; [0, 8]) */
    norms_per_layer?: number;
    /** RMSNorms on the queries and keys (Qwen3, Gemma-3): 2 x head_dim weights a layer (default false) */
    qk_norm?: boolean;
    /** the q/k norms span the whole projections (OLMo-2/3, MiniMax-M2): (heads + kv_heads) x head_dim weights a layer; under tensor parallelism their inputs are whole on every GPU (default false) */
    qk_norm_whole?: boolean;
    /** attention logit soft-capping (Gemma-2: 50; 0: none) (default 0; [0, 1000000]) */
    attn_softcap?: number;
    /** final logit soft-capping (Gemma-2: 30; 0: none) (default 0; [0, 1000000]) */
    final_softcap?: number;
    /** hybrid decoders: one letter per layer, A attention + MLP, R recurrent + MLP, * attention, M recurrent, - MLP, E experts (Nemotron-3's MoE block), P attention and recurrent in parallel + MLP (Falcon-H1; empty: every layer A); the KV cache is the attention layers', the recurrent layers keep a state (default empty; empty or model.layers letters of A, R, *, M, -, E, P) */
    layer_pattern?: string;
    /** the recurrent layers' mixer: gated-deltanet (Qwen3-Next), mamba2 (Granite-4.0-H, Nemotron-H, Falcon-H1), short-conv (LFM2) or mamba1 (Jamba) (default 'none') */
    recurrent?: 'none' | 'gated-deltanet' | 'mamba2' | 'short-conv' | 'mamba1';
    /** recurrent mixer: value heads (GDN linear_num_value_heads, Mamba2 mamba_n_heads; Mamba1: d_inner) (default 0; [0, 65536]) */
    ssm_heads?: number;
    /** recurrent mixer: one value head's width (Mamba1: 1); x ssm_heads = d_inner (default 0; [0, 65536]) */
    ssm_head_dim?: number;
    /** recurrent mixer: GDN key heads, Mamba2 B/C groups (n_groups) (default 0; [0, 65536]) */
    ssm_groups?: number;
    /** recurrent mixer: GDN key head width, Mamba2 d_state; the state is ssm_state x d_inner a layer (default 0; [0, 65536]) */
    ssm_state?: number;
    /** recurrent mixer: causal convolution kernel (4; LFM2's conv_L_cache 3); the conv state keeps kernel - 1 inputs (default 0; [0, 1024]) */
    ssm_conv?: number;
    /** Mamba1's time-step projection rank (Jamba mamba_dt_rank; auto: ceil(hidden / 16)) (default 0; [0, 65536]) */
    ssm_dt_rank?: number;
    /** the SSM state's dtype the config.json states (mamba_ssm_cache_dtype, Nemotron-H's float32; empty: none): vLLM's inference.vllm.mamba_ssm_cache_dtype auto takes it (default none; fp32, bf16, fp16 or empty) */
    ssm_cache_dtype?: string;
    /** gated attention (Qwen3-Next): q_proj twice as wide, the query and an output gate (default false) */
    attn_gate?: boolean;
}

/** "guide": guide method inputs (below) */
export interface GuideConfig {
    /** bytes per value p: weights and gradients at p bytes, plus 12 bytes of optimizer state (default 2; (0, 8] bytes) */
    bytes?: number;
    /** inference: bytes per weight (default 2; (0, 8] bytes) */
    weight_bytes?: number;
}

/** "constants": quick method constants (below) */
export interface ConstantsConfig {
    /** activations = this x batch x seq x parameters (bytes) (default 0.0025; [0, 1000] bytes) */
    activation_bytes_per_token_param?: number;
    /** activations multiplier with checkpointing (default 0.25; [0, 1]) */
    checkpoint_factor?: number;
    /** safety margin added to the total (default 0.2; [0, 10]) */
    buffer_fraction?: number;
    /** the divisor for the A100-80GB count (default 80; (0, 1000000] GB) */
    a100_gb?: number;
    /** the divisor for the RTX 4090 count (default 24; (0, 1000000] GB) */
    rtx4090_gb?: number;
}

/** "training": detailed training and fine-tuning (below) */
export interface TrainingConfig {
    /** dtypes of weights, gradients, optimizer state and activations (docs/training.md) (default 'bf16-mixed') */
    precision?: 'bf16-mixed' | 'fp32' | 'fp16-mixed' | 'bf16-true' | 'fp16-true' | 'fp8' | 'bf16' | 'fp16' | '32-true' | 'amp-bf16' | 'amp-fp16' | 'fp8-mixed';
    /** optimizer state per trainable parameter (default 'adamw') */
    optimizer?: 'adamw' | 'adamw-8bit' | 'paged-adamw' | 'paged-adamw-8bit' | 'adafactor' | 'sgd' | 'sgd-momentum' | 'lion' | 'custom' | 'adam';
    /** custom optimizer: state bytes per trainable parameter (default 8; [0, 64] bytes) */
    optimizer_bytes_per_param?: number;
    /** FP32 gradient accumulation buffers (Megatron main_grad); null: the profile (default null) */
    grad_fp32?: boolean | null;
    /** micro-batches per optimizer step (0: from global_batch, else 1) (default 0; [0, 1048576]) */
    grad_accum?: number;
    /** sequences per optimizer step over all data-parallel ranks (0: derived); a multiple of batch x dp (default 0; [0, 1000000000] sequences) */
    global_batch?: number;
    /** activation recomputation (checkpointing); auto: the profile's, full for a quantized base (QLoRA) under hf-trainer, hf-legacy, torch-compile and deepspeed (peft's prepare_model_for_kbit_training turns it on), full for every run under trl (SFTConfig's gradient_checkpointing defaults to true), full for fine-tuning on more than one GPU under litgpt (its scripts checkpoint every block), else none (default 'auto') */
    recompute?: 'none' | 'selective' | 'full' | 'auto';
    /** attention kernel (auto: the profile's); eager keeps the s x s scores; fa2 (transformers' flash_attention_2) and sdpa-gqa (SDPA with enable_gqa) keep GQA models' K/V at their own heads (default 'auto') */
    attention?: 'auto' | 'flash' | 'sdpa' | 'eager' | 'fa2' | 'flash_attention_2' | 'sdpa-gqa';
    /** hidden dropout: > 0 keeps 1-byte masks (default 0; [0, 0.99]) */
    dropout?: number;
    /** attention dropout: > 0 keeps masks and dropped probabilities (default 0; [0, 0.99]) */
    attention_dropout?: number;
    /** full; LoRA: frozen base + adapters; QLoRA: NF4 base (default 'full') */
    finetune?: 'full' | 'lora' | 'qlora';
    /** LoRA and QLoRA adapters (below) */
    lora?: TrainingLoraConfig;
    /** an LM head over the vocabulary, or a sequence classifier (default 'lm') */
    head?: 'lm' | 'classifier';
    /** classifier head: labels (default 2; [1, 16777216]) */
    classifier_labels?: number;
    /** ZeRO / FSDP sharding over dp x cp (hybrid-shard: zero3 in shard groups, 8 GPUs unless shard_group says) (default 'ddp') */
    sharding?: 'ddp' | 'none' | 'zero1' | 'zero2' | 'zero3' | 'fsdp-shard-grad-op' | 'fsdp-full-shard' | 'fsdp' | 'hybrid-shard';
    /** hybrid sharding: GPUs per shard group (0: all); divides dp x cp (default 0; [0, 1048576] GPUs) */
    shard_group?: number;
    /** optimizer state and FP32 master in host RAM (ZeRO-Offload, FSDP CPU offload) (default false) */
    offload_optimizer?: boolean;
    /** parameters in host RAM, gathered per layer (needs zero3) (default false) */
    offload_params?: boolean;
    /** framework behaviours (docs/training.md, "Framework profiles") (default 'hf-trainer'; hf-trainer, hf-legacy, torch-compile, torchtitan, megatron, deepspeed, litgpt, torchtune, trl) */
    profile?: string;
    /** torch.compile fusions on or off; null: the profile (default null) */
    compile?: boolean | null;
    /** the loss upcasts logits to FP32; null: the profile (default null) */
    logits_fp32?: boolean | null;
    /** the loss under torch.compile (torchtitan since April 2025, torchtune compile=True): 16-bit loss buffers; null: the profile (off) (default null) */
    compile_loss?: boolean | null;
    /** chunked cross-entropy: tokens per chunk (0: off, -1: the profile; trl: 256, its chunked_nll loss, 0 for loss_type nll) (default -1; [-1, 1.759218604e+13] tokens) */
    loss_chunk_tokens?: number;
    /** the loop holds the logits through backward, beside the recomputed layer (torchtune before July 2024); null: the profile (torchtune: no) (default null) */
    keeps_logits?: boolean | null;
    /** Liger Kernel (use_liger_kernel): the LM head and loss fused in chunks (no full logits), RMSNorm and SwiGLU/GeGLU keep fewer activations; profiles hf-trainer, torch-compile, deepspeed, trl; model families Liger patches (default false) */
    liger?: boolean;
    /** training.liger: tokens per fused-loss chunk (0: Liger's rule, next power of 2 of tokens / ceil(vocab / hidden)) (default 0; [0, 1.759218604e+13] tokens) */
    liger_chunk_tokens?: number;
}

/** "parallel": parallel layout of detailed training (below) */
export interface ParallelConfig {
    /** tensor parallel; divides model.heads, divides or is a multiple of model.kv_heads (default 1; [1, 65536] GPUs) */
    tp?: number;
    /** sequence parallel (with tp > 1): norm and dropout activations split too; null: the profile's TP plan (default null) */
    sp?: boolean | null;
    /** pipeline stages, at most model.layers (default 1; [1, 65536] stages) */
    pp?: number;
    /** pipeline schedule (interleaved needs pp >= 2) (default '1f1b') */
    schedule?: '1f1b' | 'interleaved';
    /** interleaved: model chunks per GPU; at most ceil(layers / pp) layers on a stage (pp x v dividing model.layers, or uneven chunks) (default 1; [1, 65536]) */
    virtual_stages?: number;
    /** data parallel (0: gpus / (tp x pp x cp)); gpus = tp x pp x dp x cp (default 0; [0, 1048576] GPUs) */
    dp?: number;
    /** context parallel; divides seq (default 1; [1, 65536] GPUs) */
    cp?: number;
    /** expert parallel; divides model.experts, ep x etp divides tp x dp x cp (default 1; [1, 65536] GPUs) */
    ep?: number;
    /** expert tensor parallel (0: = tp) (default 0; [0, 65536] GPUs) */
    etp?: number;
}

/** "runtime": constants of the machine and the allocator (detailed training) */
export interface RuntimeConfig {
    /** whole CUDA context (-1: the model, by lazy_loading and the GPU) (default -1; [-1, 1e+12] bytes) */
    cuda_context_bytes?: number;
    /** cudaLimitStackSize, reserved for every resident thread (default 1024; [0, 1048576] bytes) */
    cuda_stack_limit_bytes?: number;
    /** CUDA lazy module loading; null: the profile (on, except hf-legacy) (default null) */
    lazy_loading?: boolean | null;
    /** cuBLAS workspaces inside the caching allocator (default 8519680; [0, 1e+12] bytes) */
    library_workspace_bytes?: number;
    /** NCCL buffers per GPU when gpus > 1 (outside the allocator) (default 314572800; [0, 1e+12] bytes) */
    nccl_bytes?: number;
    /** reserved - allocated, as a share of activations + logits + temporaries (-1: the profile) (default -1; [-1, 10]) */
    allocator_fragmentation?: number;
    /** DeepSpeed reduce / all-gather bucket (default 500000000; [0, 1e+12] elements) */
    deepspeed_bucket_elements?: number;
    /** DeepSpeed ZeRO-3 prefetch bucket (default 50000000; [0, 1e+12] elements) */
    deepspeed_prefetch_elements?: number;
    /** DDP bucket cap (default 26214400; [0, 1e+12] bytes) */
    ddp_bucket_bytes?: number;
}

/** "inference": detailed inference and serving (below) */
export interface InferenceConfig {
    /** how the engine takes memory (docs/inference.md, "Engines") (default vllm; the engine whose own section (llamacpp, vllm, hf, sglang) alone the document sets) */
    engine?: 'vllm' | 'llama.cpp' | 'llamacpp' | 'hf' | 'transformers' | 'sglang';
    /** weight format: bf16, fp8, gptq-int4, awq-int4, mxfp4, ...; GGUF types q4_k_m, q8_0, ... (llama.cpp); docs/inference.md (default 'bf16') */
    weights?: string;
    /** MoE experts in their own (non-GGUF) format (default same as weights) */
    experts_weights?: string;
    /** GPTQ/AWQ inputs per group (-1: per row) (default 128; [1, 1048576] or -1) */
    group_size?: number;
    /** GPTQ/AWQ asymmetric: a b-bit zero point per group (default true) */
    zero_point?: boolean;
    /** GPTQ desc_act: an int32 g_idx per input column (default false) */
    act_order?: boolean;
    /** embedding and LM head stay 16-bit in quantized formats (default true) */
    keep_embeddings?: boolean;
    /** the GGUF file was made with an importance matrix (default false) */
    gguf_imatrix?: boolean;
    /** KV cache element type (auto: the model dtype; llama.cpp f16) (default 'auto'; auto, fp32, bf16, fp16, fp8, int8, int4, q8_0, q5_1, q5_0, q4_1, q4_0, iq4_nl) */
    kv_dtype?: string;
    /** a hybrid's recurrent state (conv + SSM / delta state) element type: auto is llama.cpp's F32 (recurrent_type_r/s), the model dtype in vLLM (mamba_cache_dtype auto) and transformers (default 'auto'; auto, fp32, bf16, fp16) */
    state_dtype?: string;
    /** tokens per sequence, prompt + output (vLLM max_model_len) (default 4096; [1, 16777216] tokens) */
    context?: number;
    /** sequences in flight (batch) (default 1; [1, 1048576] sequences) */
    concurrency?: number;
    /** prefill length for TTFT and HF activations (0: the context) (default 0; [0, 16777216] tokens) */
    prompt_tokens?: number;
    /** GPUs the model is split over (vLLM: tensor parallel; llama.cpp / HF: layers); 0: gpus (default 0; [0, 4096] GPUs) */
    tp?: number;
    /** vLLM KV block (default 16; [1, 4096] tokens) */
    block_size?: number;
    /** keep the full context in sliding-window layers too (default false) */
    swa_full?: boolean;
    /** vLLM options (below) */
    vllm?: InferenceVllmConfig;
    /** llama.cpp options (below; docs/local.md) */
    llamacpp?: InferenceLlamacppConfig;
    /** HF generate options (below) */
    hf?: InferenceHfConfig;
    /** a GPU not in the catalog, used instead of gpu by every task, method and answer (its fit has id custom; below) */
    gpu_custom?: InferenceGpuCustomConfig;
    /** serving constants (below; docs/inference.md) */
    constants?: InferenceConstantsConfig;
    /** the machine around the GPU (below); written only when set */
    host?: InferenceHostConfig;
    /** exact weight bytes read from a model file (below; docs/import.md) */
    weights_file?: InferenceWeightsFileConfig;
    /** SGLang options (below; docs/inference.md, "SGLang") */
    sglang?: InferenceSglangConfig;
}

/** "training.lora": LoRA and QLoRA adapters (below) */
export interface TrainingLoraConfig {
    /** adapter rank (default 16; [1, 65536]) */
    rank?: number;
    /** adapted modules: q k v o gate up down head, or attention, mlp, all-linear, or HF names like q_proj (default q,v) */
    targets?: string | string[];
    /** LoRA dropout: > 0 keeps a mask and a dropped copy of each adapted input (default 0.05; [0, 0.99]) */
    dropout?: number;
    /** frozen base weights' format (default none (nf4 for qlora)) */
    quant?: 'none' | 'nf4' | 'fp4' | 'int8';
    /** QLoRA: the absmax constants quantized too (default true) */
    double_quant?: boolean;
    /** values per absmax block (default 64; [16, 65536]) */
    quant_block?: number;
    /** the LM head quantized too; null: the profile (default null) */
    quantize_head?: boolean | null;
    /** the 4-bit matmul keeps each layer's input (bitsandbytes < 0.43.2); null: the profile (current bitsandbytes: no) (default null) */
    saves_inputs?: boolean | null;
    /** the previous step's graph, with the 4-bit layers' kept inputs, alive through the next forward; null: the profile (LitGPT: yes) (default null) */
    previous_graph?: boolean | null;
    /** the 4-bit weights were quantized from FP16: each dequantized matrix is FP16 plus its cast to the compute dtype; null: the profile (LitGPT: yes) (default null) */
    dequant_fp16?: boolean | null;
    /** NF4 quantized on the GPU a whole matrix at a time at init (torchao 0.1): the freed blocks stay reserved; null: the profile (no) (default null) */
    unchunked_quantize?: boolean | null;
    /** a quantized base's embedding, LM head and norms in FP32, and so its hidden states (peft's prepare_model_for_kbit_training); null: the profile (hf-trainer, hf-legacy, torch-compile: yes) (default null) */
    upcast_frozen?: boolean | null;
    /** a quantized base's adapters cast to BF16: BF16 weights, gradients and AdamW moments, no FP32 master (TRL 0.26 and later); null: the profile (trl: yes) (default null) */
    adapters_bf16?: boolean | null;
    /** a 16-bit LoRA base held in FP32 under bf16/fp16-mixed, autocast copying each frozen weight per matmul (Lightning Fabric builds the model in FP32); null: the profile (litgpt: yes) (default null) */
    base_fp32?: boolean | null;
    /** a quantized base's MoE routed experts left unquantized, in the base's 16-bit (or peft's FP32) dtype: transformers 5's fused 3-D experts, which its bitsandbytes quantizer skips; null: the profile (hf-trainer, torch-compile, deepspeed: yes); false: Unsloth, Axolotl's quantize_moe_experts, transformers 4 (default null) */
    experts_unquantized?: boolean | null;
    /** adapters on an MoE's routed experts when the targets name gate, up or down: per-expert (r x (in + out) per expert matrix: transformers 4, LitGPT, torchtune), none (transformers 5's fused 3-D experts, which peft's target_modules never match), target-parameters (peft's target_parameters: r x (in + out) per expert per fused tensor, and W + BA merged per forward and kept for backward; needs lora.dropout 0), target-parameters-unmerged (the same adapters without the merged copy: Unsloth, Axolotl's MoE kernels); auto: the profile (hf-trainer, torch-compile, deepspeed, trl: none) (default 'auto') */
    expert_adapters?: 'auto' | 'per-expert' | 'none' | 'target-parameters' | 'target-parameters-unmerged';
}

/** "inference.vllm": vLLM options (below) */
export interface InferenceVllmConfig {
    /** share of the card vLLM reserves (default 0.9; (0, 1]) */
    gpu_memory_utilization?: number;
    /** tokens in the profiling forward (default 8192; [1, 16777216] tokens) */
    max_num_batched_tokens?: number;
    /** sequences vLLM schedules at once (default 256; [1, 1048576] sequences) */
    max_num_seqs?: number;
    /** no CUDA graphs (default false) */
    enforce_eager?: boolean;
    /** VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a context above the model's window (model.context_limit) runs instead of being refused (default false) */
    allow_long_max_model_len?: boolean;
    /** the profiling run's logits: one per sequence, or one per batched token (default 'sequences') */
    profile_logits?: 'sequences' | 'tokens';
    /** top-k/top-p sampler in the profiling run: pytorch sorts the logits, flashinfer does not (auto: pytorch) (default 'auto') */
    sampler?: 'auto' | 'pytorch' | 'flashinfer';
    /** custom all-reduce's buffers (auto: at tp 2, or tp 4/6/8 on NVLink/xGMI cards; off: --disable-custom-all-reduce) (default 'auto') */
    custom_all_reduce?: 'auto' | 'on' | 'off';
    /** GPU peer access: off puts NCCL's buffers in host memory, no custom all-reduce (auto: off on GeForce) (default 'auto') */
    p2p?: 'auto' | 'on' | 'off';
    /** a hybrid's SSM / delta state alone, the conv state keeping inference.state_dtype's (--mamba-ssm-cache-dtype; auto: model.ssm_cache_dtype when the config states one, else the conv state's) (default 'auto'; auto, float32, bfloat16, float16) */
    mamba_ssm_cache_dtype?: string;
    /** a measured activation peak from vLLM's log replaces the model (null: modelled) (default null; [0, 1000000] GiB) */
    activation_peak_gib?: number | null;
    /** measured non-torch memory replaces the constant (null: constant) (default null; [0, 1000000] GiB) */
    non_torch_gib?: number | null;
    /** measured CUDA graph memory replaces the constant (null: constant) (default null; [0, 1000000] GiB) */
    cuda_graph_gib?: number | null;
}

/** "inference.llamacpp": llama.cpp options (below; docs/local.md) */
export interface InferenceLlamacppConfig {
    /** -ngl: -1 unset (with fit: --fit places the layers; else all and the output layer); N: the output layer and the last N - 1 layers (output_first), else the last N, layers + 1 also the output layer (default -1; [-1, 1048576] layers) */
    n_gpu_layers?: number;
    /** -ub: physical batch; 0: unset (llama.cpp's 512; the Ollama profile: Ollama's automatic num_batch); under Ollama it is num_batch (-b and -ub) (default 0; [0, 1048576] tokens) */
    n_ubatch?: number;
    /** -b: logical batch; the compute buffers take min(-ub, -b, context) tokens (default 2048; [1, 1048576] tokens) */
    n_batch?: number;
    /** -fa: flash attention (default true) */
    flash_attn?: boolean;
    /** -ctv: V cache type (empty: kv_dtype); a quantized V cache needs flash_attn (default empty) */
    kv_dtype_v?: string;
    /** routed experts of the first N layers in system RAM (default 0; [0, 1048576] layers) */
    n_cpu_moe?: number;
    /** -ot: tensors whose GGUF name a pattern matches go to its buffer type, first match wins (CPU: system RAM) (default empty; pattern=buffer_type pairs, comma-separated, up to 4096 bytes; buffer types CPU, CUDA0.. / ROCm0.. / Metal (one per GPU); patterns in the regex subset of docs/local.md) */
    override_tensor?: string;
    /** -nkvo: every layer's KV cache in system RAM, attention on the CPU (default false) */
    no_kv_offload?: boolean;
    /** -sm: how layers split over GPUs (default 'layer') */
    split_mode?: 'layer' | 'row' | 'none';
    /** -ts: one proportion per GPU (empty: by memory) (default empty) */
    tensor_split?: number[];
    /** LoRA adapter size (default 0; [0, 1000000000] MiB) */
    lora_mib?: number;
    /** vision projector (below); written when a preset or params_m is set */
    mmproj?: InferenceLlamacppMmprojConfig;
    /** draft model for speculative decoding (below); written when a preset is set */
    draft?: InferenceLlamacppDraftConfig;
    /** --fit (llama-server's default): with -ngl unset, layers and MoE experts go to system RAM until ollama_fit_target_mib stays free per GPU; false: --fit off or an older llama.cpp (default true) */
    fit?: boolean;
    /** -ngl N offloads the output layer first, then the last N - 1 layers (llama.cpp since PR #18148, 2025-12-18: @57c1e05; Ollama v0.32.15); false: an older build, the last N layers (default true) */
    output_first?: boolean;
    /** ollama: Ollama's num_ctx (by the GPUs' VRAM, at most the model's window), OLLAMA_NUM_PARALLEL and, -ngl unset, num_gpu (llama-server's --fit) (default 'llama-server') */
    profile?: 'llama-server' | 'ollama';
}

/** "inference.hf": HF generate options (below) */
export interface InferenceHfConfig {
    /** attention implementation (eager keeps s x s scores) (default 'sdpa') */
    attention?: 'eager' | 'sdpa' | 'flash';
    /** logits for the whole prompt (false: the last token only) (default false) */
    full_logits?: boolean;
    /** bitsandbytes compute dtype (default 'fp32') */
    bnb_compute_dtype?: 'fp32' | 'bf16' | 'fp16';
    /** transformers < 4.42: two copies of the KV cache while decoding, the prompt's FP32 logits in step two (default false) */
    legacy_cache?: boolean;
    /** the GPTQ kernel and its persistent buffers (exllama: transformers' default; exllamav2: AutoGPTQ's scratch) (default 'exllama') */
    gptq_kernel?: 'exllamav2' | 'exllama' | 'marlin' | 'torch';
    /** the checkpoint's desc_act: ExLlama v1 then keeps a temp_state of max_input_len x the largest dimension in FP16 (default false) */
    gptq_act_order?: boolean;
    /** CUDA lazy module loading (CUDA >= 11.7, driver >= 515; false: every kernel loaded at start-up, the eager context) (default true) */
    lazy_loading?: boolean;
    /** SDPA takes enable_gqa: no repeat_kv copies of K/V (transformers >= 4.54, PyTorch >= 2.5, no padding mask) (default false) */
    sdpa_enable_gqa?: boolean;
    /** bitsandbytes formats: an MoE's routed experts stay in the checkpoint's 16-bit dtype (transformers 5's fused experts, which its bitsandbytes integration skips); false: transformers 4, or a loader that quantizes them (Unsloth) (default true) */
    experts_unquantized?: boolean;
    /** bitsandbytes through LitGPT's --quantize (Lightning's BitsandbytesPrecision): the LM head quantized too, 4-bit weights dequantized to FP16 then the compute dtype, LLM.int8 re-quantized on load (FP16 + two int8 layouts of the largest matrix) (default false) */
    litgpt_quantize?: boolean;
}

/** "inference.gpu_custom": a GPU not in the catalog, used instead of gpu by every task, method and answer (its fit has id custom; below) */
export interface InferenceGpuCustomConfig {
    /** display name (default Custom GPU) */
    name?: string;
    /** the card's memory (required) (default required; (0, 1000000] GiB) */
    memory_gib: number;
    /** a Mac: memory_gib is its RAM, the GPU wires macOS's working-set share of it; one machine (default false) */
    unified?: boolean;
    /** memory bandwidth (0: unknown, the speed metrics it feeds are 0) (default 0; [0, 10000000] GB/s) */
    bandwidth_gbps?: number;
    /** dense BF16 throughput (0: unknown) (default 0; [0, 10000000] TFLOP/s) */
    bf16_tflops?: number;
    /** dense FP8 throughput (0: none) (default 0; [0, 10000000] TFLOP/s) */
    fp8_tflops?: number;
    /** NVIDIA SMs, for the CUDA context (0: unknown) (default 0; [0, 4096] SMs) */
    sms?: number;
    /** resident threads per SM (0: unknown) (default 0; [0, 4096] threads) */
    threads_per_sm?: number;
}

/** "inference.constants": serving constants (below; docs/inference.md) */
export interface InferenceConstantsConfig {
    /** whole CUDA context (-1: the model, by the GPU) (default -1; [-1, 1000000] GiB) */
    cuda_context_gib?: number;
    /** the same with eager module loading (hf.lazy_loading false) (default -1; [-1, 1000000] GiB) */
    cuda_context_eager_gib?: number;
    /** cudaLimitStackSize, reserved for every resident thread (default 1024; [0, 1048576] bytes) */
    cuda_stack_limit_bytes?: number;
    /** memory the driver keeps from a card (default 0.47; [0, 1000000] GiB) */
    driver_reserved_gib?: number;
    /** vLLM non-torch memory, one GPU (default 0.13; [0, 1000000] GiB) */
    vllm_non_torch_gib?: number;
    /** vLLM non-torch memory with tp > 1 (NCCL and custom all-reduce) (default 0.6; [0, 1000000] GiB) */
    vllm_non_torch_tp_gib?: number;
    /** custom all-reduce's part of vllm_non_torch_tp_gib (default 16; [0, 1000000] MiB) */
    vllm_custom_all_reduce_mib?: number;
    /** vLLM CUDA graphs (default 0.5; [0, 1000000] GiB) */
    vllm_cuda_graph_gib?: number;
    /** vLLM sampler bytes per logit in the profiling run (default 40; [0, 1000000] bytes) */
    vllm_sampler_bytes_per_logit?: number;
    /** the same with FlashInfer's sampler (vllm.sampler flashinfer) (default 14; [0, 1000000] bytes) */
    vllm_flashinfer_sampler_bytes_per_logit?: number;
    /** vLLM bytes per token logit (default 10; [0, 1000000] bytes) */
    vllm_token_logit_bytes?: number;
    /** vLLM bytes per value of DeepSeek-V3.2's indexer key (FP8 + an FP32 scale per 128: 1.03125) (default 1.03125; [0, 64] bytes) */
    vllm_indexer_value_bytes?: number;
    /** llama.cpp pads the context to a multiple of this (default 256; [1, 1048576] tokens) */
    llamacpp_ctx_pad?: number;
    /** share of peak memory bandwidth reached (default 0.8; (0, 1]) */
    bandwidth_efficiency?: number;
    /** share of peak tensor throughput reached (default 0.6; (0, 1]) */
    compute_efficiency?: number;
    /** host memory bandwidth when none is given (default 60; (0, 10000000] GB/s) */
    host_bandwidth_gbps?: number;
    /** share of channels x 8 B x MT/s reached (default 0.7; (0, 1]) */
    host_bandwidth_efficiency?: number;
    /** host-to-GPU copies (default 25; (0, 100000] GB/s) */
    pcie_gbps?: number;
    /** CPU throughput for layers in system RAM (default 1; (0, 100000] TFLOP/s) */
    cpu_tflops?: number;
    /** llama.cpp scheduler input copies with pipeline parallelism (default 4; [1, 64]) */
    llamacpp_sched_copies?: number;
    /** most sequences llama.cpp runs (LLAMA_MAX_SEQ; -np, OLLAMA_NUM_PARALLEL): max_concurrency stops there (default 256; [1, 1048576] sequences) */
    llamacpp_max_seq?: number;
    /** Ollama's default context below ollama_vram_mid_gib of VRAM (default 4096; [1, 16777216] tokens) */
    ollama_num_ctx?: number;
    /** Ollama's default context from ollama_vram_mid_gib of VRAM (default 32768; [1, 16777216] tokens) */
    ollama_num_ctx_mid?: number;
    /** Ollama's default context from ollama_vram_large_gib of VRAM (default 262144; [1, 16777216] tokens) */
    ollama_num_ctx_large?: number;
    /** VRAM of all GPUs (a Mac: its working-set limit) from which Ollama defaults to ollama_num_ctx_mid (default 23; [0, 1000000] GiB) */
    ollama_vram_mid_gib?: number;
    /** VRAM from which Ollama defaults to ollama_num_ctx_large (default 47; [0, 1000000] GiB) */
    ollama_vram_large_gib?: number;
    /** Ollama's default parallel sequences (default 1; [1, 1048576] sequences) */
    ollama_num_parallel?: number;
    /** Ollama's automatic num_batch (-b, -ub) up to ollama_batch_medium_ctx tokens, and the floor of its step down (default 512; [1, 1048576] tokens) */
    ollama_num_batch?: number;
    /** Ollama's automatic num_batch above ollama_batch_medium_ctx tokens (num_ctx x parallel) (default 1024; [1, 1048576] tokens) */
    ollama_num_batch_medium?: number;
    /** Ollama's automatic num_batch above ollama_batch_large_ctx tokens (default 2048; [1, 1048576] tokens) */
    ollama_num_batch_large?: number;
    /** Ollama's num_batch with flash attention off on a CUDA card of at most ollama_batch_constrained_gib, above ollama_batch_medium_ctx tokens (default 256; [1, 1048576] tokens) */
    ollama_num_batch_constrained?: number;
    /** num_ctx x parallel above which Ollama starts at ollama_num_batch_medium (default 4096; [0, 16777216] tokens) */
    ollama_batch_medium_ctx?: number;
    /** num_ctx x parallel above which Ollama starts at ollama_num_batch_large (default 32768; [0, 16777216] tokens) */
    ollama_batch_large_ctx?: number;
    /** share of free GPU memory Ollama's prediction may take to keep ollama_num_batch_medium (default 0.75; [0, 1]) */
    ollama_batch_medium_headroom?: number;
    /** share of free GPU memory Ollama's prediction may take to keep ollama_num_batch_large (default 0.6; [0, 1]) */
    ollama_batch_large_headroom?: number;
    /** share of free GPU memory the prediction and the batch's surcharge must stay within (default 0.8; [0, 1]) */
    ollama_batch_fit_share?: number;
    /** memory Ollama adds to its prediction for ollama_num_batch_medium (default 768; [0, 1000000] MiB) */
    ollama_batch_medium_surcharge_mib?: number;
    /** memory Ollama adds to its prediction for ollama_num_batch_large (default 2048; [0, 1000000] MiB) */
    ollama_batch_large_surcharge_mib?: number;
    /** free memory of a CUDA card up to which Ollama takes ollama_num_batch_constrained with flash attention off (default 8; [0, 1000000] GiB) */
    ollama_batch_constrained_gib?: number;
    /** share of one GPU's free memory within which Ollama's prediction loads the model on that GPU alone (0: OLLAMA_SCHED_SPREAD=1) (default 0.8; [0, 1]) */
    ollama_single_gpu_share?: number;
    /** memory llama-server's --fit leaves free per GPU with -ngl (Ollama's num_gpu) unset (--fit-target; the name is kept from before plain llama-server's fit) (default 1024; [0, 1000000] MiB) */
    ollama_fit_target_mib?: number;
    /** ExLlamaV2 scratch rows per sequence (AutoGPTQ's max_input_len) (default 2048; [1, 16777216] tokens) */
    exllamav2_max_input_len?: number;
    /** ExLlamaV2 scratch sequences (AutoGPTQ's max_batch_size) (default 8; [1, 1048576] sequences) */
    exllamav2_max_batch_size?: number;
    /** ExLlama v1 temp_state rows with act-order (AutoGPTQ's EXLLAMA_DEFAULT_MAX_INPUT_LENGTH) (default 2048; [1, 16777216] tokens) */
    exllama_max_input_len?: number;
    /** LLM.int8 int8 copies of a matmul's input (bitsandbytes >= 0.45: 1; <= 0.44: 3) (default 1; [0, 16]) */
    bnb_int8_input_copies?: number;
    /** LLM.int8 bytes per output element beside the 16-bit output (>= 0.45: 4, int32; <= 0.44: 6) (default 4; [0, 64] bytes) */
    bnb_int8_output_bytes?: number;
    /** PyTorch caching allocator: requests from this size get a segment of their own (kMinLargeAlloc) (default 10; [1, 1000000] MiB) */
    torch_min_large_alloc_mib?: number;
    /** PyTorch caching allocator: such segments are rounded up to this (kRoundLarge) (default 2; [0.001, 1000000] MiB) */
    torch_round_large_mib?: number;
    /** compute capability x 10 vLLM's quantization method for the weights needs, below which it refuses them (-1: the table, mxfp4 80, awq-int4 75, fp8 80, w8a8 75; 0: none) (default -1; [-1, 1000] capability x 10) */
    vllm_min_capability?: number;
    /** vLLM hybrids: the attention block that holds a recurrent state page is a multiple of this (16; MLA backends 64, Blackwell FlashInfer at head_dim 256: 32) (default 16; [1, 4096] tokens) */
    vllm_block_alignment?: number;
    /** vLLM hybrids: KV cache groups take the fewest layers of a kind, or the most when they are under this x the fewest (1.5) (default 1.5; [1, 1000]) */
    vllm_group_ratio?: number;
    /** vLLM hybrids: state pages a sequence holds in each state group (1; mamba_cache_mode align: 2; + 1 a speculative token) (default 1; [1, 64] blocks) */
    vllm_state_blocks?: number;
    /** compute capability x 10 from which transformers keeps fp8-block weights in FP8; below it, and on a Mac, it dequantizes them to BF16 (89; 0: never) (default 89; [0, 1000] capability x 10) */
    hf_fp8_min_capability?: number;
    /** compute capability x 10 from which transformers keeps mxfp4 experts in MXFP4; below it, and on a Mac, it dequantizes them to BF16 (75; transformers' 2026 fine-grained quantizer: 89; 0: never) (default 75; [0, 1000] capability x 10) */
    hf_mxfp4_min_capability?: number;
    /** SGLang: below this gpu_mem, chunked prefill 2048 and decode graphs to 8 (default 20; [0, 1000000] GiB) */
    sglang_tier1_gib?: number;
    /** SGLang: below this, 4096 and 48 (tp >= 4: 160) (default 35; [0, 1000000] GiB) */
    sglang_tier2_gib?: number;
    /** SGLang: below this, 4096 and 32 (tp >= 4: 160) (default 60; [0, 1000000] GiB) */
    sglang_tier3_gib?: number;
    /** SGLang: below this, 8192 and 256 (tp >= 4: 512) (default 90; [0, 1000000] GiB) */
    sglang_tier4_gib?: number;
    /** SGLang: below this, 8192 and 256 (tp >= 4: 512); from it 16384 and 512 (default 160; [0, 1000000] GiB) */
    sglang_tier5_gib?: number;
    /** SGLang's reserve: constant metadata (default 512; [0, 10000000] MiB) */
    sglang_reserved_mib?: number;
    /** SGLang's reserve: activation tokens at least this (default 2048; [0, 16777216] tokens) */
    sglang_min_activation_tokens?: number;
    /** SGLang's reserve per activation token (default 1.5; [0, 10000] MiB) */
    sglang_activation_mib_per_token?: number;
    /** SGLang's reserve x tp x pp / 8 (default 1024; [0, 10000000] MiB) */
    sglang_parallel_mib?: number;
    /** SGLang's reserve and graph memory per decode max_bs (default 2; [0, 10000] MiB) */
    sglang_decode_graph_mib_per_bs?: number;
    /** SGLang's reserve and graph memory per prefill graph size (default 8; [0, 10000] MiB) */
    sglang_prefill_graph_mib_per_size?: number;
    /** SGLang's reserve and graph memory for an MLA model's prefill graphs (default 1536; [0, 10000000] MiB) */
    sglang_mla_prefill_graph_mib?: number;
    /** SGLang's reserve at least this on a card above sglang_floor_from_gib (default 10240; [0, 10000000] MiB) */
    sglang_reserved_floor_mib?: number;
    /** SGLang: cards above this get the reserve's floor (default 60; [0, 1000000] GiB) */
    sglang_floor_from_gib?: number;
    /** SGLang's --max-prefill-tokens: the activation tokens with chunked prefill off (default 16384; [1, 16777216] tokens) */
    sglang_max_prefill_tokens?: number;
    /** SGLang's req_to_token rows: pool tokens / context x this (default 512; [0, 1000000]) */
    sglang_req_pool_per_token_ratio?: number;
    /** SGLang's req_to_token rows at least (default 2048; [1, 1048576] requests) */
    sglang_req_pool_min?: number;
    /** SGLang's req_to_token rows at most (default 4096; [1, 1048576] requests) */
    sglang_req_pool_max?: number;
    /** SGLang's req_to_token columns past the context (extra_max_context_len) (default 4; [0, 4096] tokens) */
    sglang_req_context_pad?: number;
}

/** "inference.host": the machine around the GPU (below); written only when set */
export interface InferenceHostConfig {
    /** system RAM (0: not checked; Apple: the machine's RAM) (default 0; [0, 1000000] GiB) */
    ram_gib?: number;
    /** memory channels, 64 bits each (default 0; [0, 64]) */
    channels?: number;
    /** DDR transfer rate (default 0; [0, 100000] MT/s) */
    mts?: number;
    /** generation and speed, "ddr5-5600": sets mts (default none) */
    ddr?: string;
    /** measured host bandwidth, replaces channels x 8 B x MT/s (default 0; [0, 1000000] GB/s) */
    bandwidth_gbps?: number;
    /** replaces constants.cpu_tflops (0: the constant) (default 0; [0, 100000] TFLOP/s) */
    cpu_tflops?: number;
    /** Apple: sysctl iogpu.wired_limit_mb (0: macOS's default) (default 0; [0, 1000000000] MB) */
    wired_limit_mb?: number;
}

/** "inference.weights_file": exact weight bytes read from a model file (below; docs/import.md) */
export interface InferenceWeightsFileConfig {
    /** the file it was read from (default none) */
    source?: string;
    /** every tensor's bytes (required; 0: no file) (default required; [0, 1e+16] bytes) */
    total_bytes: number;
    /** parameters counted in the file (0: derived) (default 0) */
    params?: number;
    /** bytes by component, adding up to total_bytes: embedding, output, attention, mlp, experts, experts_routed, router, other */
    parts?: { embedding: number; output: number; attention: number; mlp: number; experts: number; experts_routed: number; router: number; other: number };
    /** bytes of each layer, one entry per model.layers */
    layer_bytes?: number[];
    /** routed-expert bytes of each layer (0 in a dense one), one entry per model.layers; empty: the derived ones scaled */
    layer_routed_bytes?: number[];
    /** tensor types and their share (default none) */
    mix?: string;
}

/** "inference.llamacpp.mmproj": vision projector (below); written when a preset or params_m is set */
export interface InferenceLlamacppMmprojConfig {
    /** clip-vit-l-14-336, siglip-so400m-896 or llama4-vit-336 (fills the rest) (default none) */
    preset?: string;
    /** encoder and projector parameters (default 0; [0, 1000000] million) */
    params_m?: number;
    /** projector weights' type (default 'f16'; f16, bf16, f32, q8_0) */
    type?: string;
    /** positions the encoder attends over per image (patches + class token; pooling projectors give the LLM fewer tokens): its graph grows with their square (default 0; [0, 1048576] tokens) */
    image_tokens?: number;
    /** encoder width (default 0; [0, 1048576]) */
    hidden?: number;
    /** encoder heads (default 0; [0, 16384]) */
    heads?: number;
    /** encoder MLP width (default 0; [0, 4194304]) */
    ffn?: number;
}

/** "inference.llamacpp.draft": draft model for speculative decoding (below); written when a preset is set */
export interface InferenceLlamacppDraftConfig {
    /** a model preset (empty: no draft) (default none) */
    preset?: string;
    /** the draft's weight format (default 'q8_0') */
    weights?: string;
    /** -ngld (-1: all) (default -1; [-1, 1048576] layers) */
    n_gpu_layers?: number;
    /** -cd per slot (0: the main context) (default 0; [0, 16777216] tokens) */
    context?: number;
    /** --draft-max: most tokens drafted per cycle (default 16; [1, 1024] tokens) */
    max_tokens?: number;
    /** --draft-min: shorter drafts are dropped (default 0; [0, 1024] tokens) */
    min_tokens?: number;
    /** chance each drafted token is accepted; depends on the text (0.72 measured: docs/local.md) (default 0.72; [0, 1]) */
    acceptance?: number;
}

/** "inference.sglang": SGLang options (below; docs/inference.md, "SGLang") */
export interface InferenceSglangConfig {
    /** share of the free memory after start-up for the weights and the KV pool (null: SGLang's rule by the GPU's memory, TP and graphs) (default null; (0, 1]) */
    mem_fraction_static?: number | null;
    /** tokens of a prefill chunk: the activations and SGLang's reserve (0: by the GPU's memory, 2048 to 16384; -1: chunked prefill off) (default 0; [-1, 16777216] tokens) */
    chunked_prefill_size?: number;
    /** largest decode batch captured in a CUDA graph (0: by the GPU's memory and TP, 8 to 512) (default 0; [0, 65536] sequences) */
    cuda_graph_max_bs?: number;
    /** no CUDA graphs (decode or prefill) (default false) */
    disable_cuda_graph?: boolean;
    /** the prefill phase's piecewise CUDA graphs (SGLang's default tc_piecewise; false: backend disabled, or a release before them) (default true) */
    prefill_cuda_graph?: boolean;
    /** requests run at once and the req_to_token pool's rows (0: max_total_num_tokens / 2, at most 2048 to 4096 rows) (default 0; [0, 1048576] requests) */
    max_running_requests?: number;
    /** tokens per KV page: the pool and each sequence round to pages (default 1; [1, 4096] tokens) */
    page_size?: number;
}
// end generated

// [SECTION] results -------------------------------------------------------------------------------

export interface Component {
    key: string;
    label: string;
    /** Bytes per GPU. */
    bytes: number;
    formula: string;
}

/** One GPU type's row (docs/methods.md, "GPU counts"). */
export interface GpuFit {
    gpu: string;
    /** The fewest GPUs of this type at which the per-GPU total is within the headroom target
     *  (`target_utilization`; vLLM: its KV pool within gpu_memory_utilization holds the sequences);
     *  0: no count does. The quick rule keeps its published count (whole card, its 20% margin).
     *  A Mac (unified memory) is one machine: 1 or 0. */
    gpus_needed: number;
    /** Per-GPU total / one GPU's memory (a Mac under llama.cpp: its GPU working-set limit). */
    utilization: number;
    /** The per-GPU total fits the whole card at the config's own layout. */
    fits: boolean;
    /** The per-GPU total is within memory x target_utilization at the config's own layout
     *  (llama.cpp: false while `needs_ram_bytes` is present). */
    within_target: boolean;
    /** A Mac row with gpus_needed 0 only: the memory (bytes) of the smallest Mac in the catalog
     *  that holds it within the target; 0 when none does. Not on a `no_backend` row. */
    mac_needed_bytes?: number;
    /** Present (true) where the config's engine has no backend for this GPU, whatever its memory:
     *  vLLM on a Mac (vLLM has no Metal backend; on macOS it runs on the CPU, and the vllm-metal
     *  plugin is not modelled; llama.cpp (Metal) and hf (MPS) run there), and vLLM on a card below
     *  the weight format's minimum compute capability (mxfp4 and fp8 8.0, awq-int4 and w8a8 7.5:
     *  the V100, the T4; docs/inference.md). The row is fits false, gpus_needed 0, utilization 0;
     *  the same config on that GPU is an error naming inference.engine (a Mac) or inference.weights. */
    no_backend?: true;
    /** llama.cpp without a system RAM size (`inference.host.ram_gib` unset), on a row whose split
     *  (--fit, Ollama's num_gpu, -ngl, --n-cpu-moe, -ot, -nkvo) keeps layers, experts, the output
     *  layer or KV in system RAM: the RAM its buffers take (bytes; `host_total_bytes` on the chosen
     *  GPU). Nothing checked it, so `within_target` is false and gpus_needed skips such counts; give
     *  `inference.host.ram_gib` to check it (docs/local.md, "System RAM of no stated size"). */
    needs_ram_bytes?: number;
    /** With `needs_ram_bytes` only: whether the GPU part alone is within the target (the verdict
     *  "GPU part fits within the budget; needs N GB of system RAM, not checked"). */
    gpu_within_target?: boolean;
}

export interface Metric {
    label: string;
    value: number;
    unit: string;
}

/** What `vramcalc --format json` prints. All sizes in bytes, per GPU. */
export interface Estimate {
    ok: true;
    schema_version: number;
    method: string;
    task: string;
    components: Component[];
    breakdown: Record<string, number>;
    total_bytes: number;
    buffered_bytes: number;
    fits: GpuFit[];
    metrics: Record<string, Metric>;
    notes: string[];
}

/** What `vramcalc solve QUESTION --format json` prints. llama.cpp with `-ngl` unset (llama-server's
 *  --fit, Ollama's automatic num_gpu): `max_context` and `max_concurrency` place the layers again at
 *  each shape they try, as the engine would (docs/local.md, "What fits under automatic placement"). */
export interface Answer {
    ok: true;
    question: string;
    label: string;
    value: number;
    unit: string;
    explanation: string;
    items: string[];
    /** llama.cpp without a system RAM size (`inference.host.ram_gib` unset), when the answer's
     *  layout keeps layers, experts or KV in system RAM (the GPU table's rule, `GpuFit.needs_ram_bytes`):
     *  the RAM it takes there (bytes). `value` is then bounded by the GPU part alone, not a fit, and
     *  the explanation says so; give `inference.host.ram_gib` to check it. */
    needs_ram_bytes?: number;
}

export interface Question {
    id: string;
    label: string;
    /** The tasks it applies to, comma-separated: "inference", "training,finetune". */
    tasks: string;
}

export interface Preset {
    id: string;
    name: string;
    family: string;
    /** Derived from the architecture, billions. */
    params_b: number;
    active_params_b: number;
    /** As the model card states it, billions. */
    published_params_b: number;
    approximate: boolean;
    /** The config's "model" fields for this preset (give `{preset: id}` or these). */
    architecture: ModelConfig;
}

export interface Gpu {
    id: string;
    name: string;
    nominal_gb: number;
    memory_bytes: number;
    bandwidth_gbps: number;
    bf16_tflops: number;
    fp8_tflops: number;
    price_per_hour_usd: number;
    /** NVIDIA streaming multiprocessors (0: not modelled, e.g. AMD, Apple): the CUDA context's local memory. */
    sms: number;
    /** Most resident threads per SM (2048, 1536 or 1024 by compute capability; 0: not modelled). */
    threads_per_sm: number;
    /** CUDA compute capability x 10 (80: A100, 90: H100; 0: not NVIDIA or not known): vLLM's MXFP4 kernel choice. */
    compute_capability: number;
    source: string;
}

/** One change that makes a config fit its GPU within the target (`vramcalc suggest`). */
export interface Suggestion {
    id: string;
    label: string;
    /** The fields that change, e.g. "training.recompute: none -> full". */
    detail: string;
    /** The device total per GPU with the change, bytes. */
    total_bytes: number;
    /** Of the chosen GPU's memory. */
    utilization: number;
    /** The whole config with the change (method "detailed"). */
    config: Config;
}

export interface Suggestions {
    ok: true;
    /** Smallest change first; empty when it fits already, no GPU is chosen, or nothing helps. */
    suggestions: Suggestion[];
}

/** One preset in one format on the config's GPU (`vramcalc fit-models`, docs/fit-models.md). */
export interface ModelFit {
    /** 1 = best: larger models first, then higher precision. */
    rank: number;
    /** Preset id, e.g. "llama-3.1-8b". */
    model: string;
    model_name: string;
    /** Inference: a weight format ("bf16", "q4_k_m"); finetune: "full" | "lora" | "qlora"; training: "bf16-mixed" | "bf16-true". */
    format: string;
    format_label: string;
    /** Total parameters (the ranking's first key). */
    params: number;
    /** The estimate gave a figure; false: `error` says why. */
    ok: boolean;
    /** Per-GPU total, bytes (what the headline shows for this model and format). */
    total_bytes: number;
    /** What the load occupies: the total, except under vLLM (which reserves its whole budget): the sequences' KV blocks only. */
    load_bytes: number;
    /** load_bytes of the budget (1 = all of it). */
    share: number;
    /** Within the budget: the headline's verdict, and not `needs_ram`. */
    fits: boolean;
    /** llama.cpp with inference.host.ram_gib given, when the config's -ngl does not fit: the most layers on the GPU that do (the rest in system RAM). */
    gpu_layers?: number;
    /** llama.cpp: bytes of system RAM its buffers take (token_embd, the layers, experts and KV on the CPU, the CPU compute buffer; a Mac: the unified memory in use). */
    ram_bytes?: number;
    /** llama.cpp without inference.host.ram_gib: the GPU part fits, but the split keeps layers, experts or the output layer in system RAM nothing checked; not counted as fitting ("needs ram_bytes of system RAM"). */
    needs_ram?: true;
    error?: string;
}

export interface ModelFits {
    ok: true;
    /** The GPU sized for ("custom" for the custom GPU). */
    gpu: string;
    /** Memory x target (vLLM: x gpu_memory_utilization), bytes. */
    budget_bytes: number;
    budget: string;
    /** How many rows fit. */
    fitting: number;
    /** How many rows would fit with system RAM of no stated size (`needs_ram`). */
    needing_ram: number;
    /** Every preset x format of the task, best first. */
    models: ModelFit[];
}

/** A parallel layout (docs/planner.md). */
export interface PlanLayout {
    tp: number; pp: number; dp: number; cp: number; ep: number; virtual_stages: number; sp: boolean;
    sharding: 'ddp' | 'zero1' | 'zero2' | 'zero3';
    micro_batch: number; grad_accum: number;
    recompute: 'none' | 'selective' | 'full';
    /** "TP8 SP PP4 DP2 zero1 mb1 x64 selective" */
    label: string;
}

export interface PlanLayoutResult {
    layout: PlanLayout;
    /** Per GPU as nvidia-smi shows it (the detailed training engine). */
    memory_bytes: number;
    memory_share: number;
    fits: boolean;
    step_s: number; compute_s: number; bubble_s: number; optimizer_s: number; comm_exposed_s: number;
    comm_s: { tp: number; cp: number; ep: number; pp: number; dp: number; dp_total: number };
    tokens_per_s_per_gpu: number;
    mfu: number;
    train_days: number;
    rent_usd: number;
}

// The plan request's "plan" object (docs/planner.md): generated from the request table of core/fields.cpp.
// generated: vramcalc fields ts plan
/** "plan": the cluster planner's request (docs/planner.md): the cluster, the search and the comparisons */
export interface PlanConfig {
    /** GPUs in the cluster; whole nodes when more than one node (default the config's gpus, else 8; [1, 1000000] GPUs) */
    gpus?: number;
    /** inter-node fabric id (vramcalc plan --list-fabrics) (default 'ib-ndr400') */
    fabric?: string;
    /** sequences per optimizer step over the cluster (0: 4,194,304 tokens / seq) (default 0; [0, 10000000] sequences) */
    global_batch?: number;
    /** token budget: days and rental cost of each layout to train it (0: none) (default 0; [0, 1e+16] tokens) */
    train_tokens?: number;
    /** layouts listed (default 20; [1, 10000] layouts) */
    top?: number;
    /** cluster comparisons rank by time, rental cost or tokens/s per GPU (default 'time') */
    rank?: 'time' | 'cost' | 'tokens_per_gpu';
    /** allow a tensor-parallel group larger than a node (default false) */
    tp_across_nodes?: boolean;
    /** pipeline stages with unequal layer counts (Megatron, torchtitan) (default true) */
    uneven_pp?: boolean;
    /** largest micro-batch tried (default 16; [1, 1024] sequences) */
    max_micro_batch?: number;
    /** largest context-parallel size tried (default 16; [1, 1024] GPUs) */
    max_cp?: number;
    /** what the search varies (false: the config's value) */
    search?: PlanSearchConfig;
    /** GPUs per node (0: the node catalog's for gpu) (default 0 (the node catalog's); [1, 1024] GPUs) */
    gpus_per_node?: number;
    /** rental price per GPU-hour (negative: the GPU catalog's) (default the GPU catalog's; [0, 10000] USD) */
    price_per_hour_usd?: number;
    /** purchase price per GPU (negative: the node catalog's) (default the node catalog's; [0, 100000000] USD) */
    purchase_usd?: number;
    /** networking's share of a cluster's purchase price, added to the GPUs' (default 0.15; [0, 10]) */
    network_share?: number;
    /** a custom inter-node fabric instead of the catalog's (default the catalog's) */
    fabric_spec?: PlanFabricSpecConfig;
    /** a custom link inside a node, the same fields as plan.fabric_spec (default the catalog's) */
    intra_spec?: PlanFabricSpecConfig;
    /** the step-time model's constants (docs/planner.md, "Constants and their sources") */
    constants?: PlanConstantsConfig;
    /** clusters to compare: [{gpu, gpus, fabric}] (at most 64) or "GPU:COUNT:FABRIC,..." (default none) */
    clusters?: { gpu: string; gpus: number; fabric: string }[] | string;
    /** fewest GPUs of gpu that train train_tokens within these days (0: not asked) (default 0; (0, 36500] days) */
    deadline_days?: number;
    /** the deadline search stops at this many GPUs (default 65536; [1, 1000000] GPUs) */
    max_gpus?: number;
    /** true or an object: the smallest per-GPU batch that hides communication, per fabric (default false) */
    batch_sizing?: boolean | PlanBatchSizingConfig;
    /** true or an object: time against cost over cluster sizes, the front marked (default false) */
    pareto?: boolean | PlanParetoConfig;
    /** true or an object: the same job on every fabric (default false) */
    fabric_comparison?: boolean | PlanFabricComparisonConfig;
    /** compare clusters (or this one) for serving concurrent sequences instead of training (default none) */
    serve?: PlanServeConfig;
}

/** "plan.search": what the search varies (false: the config's value) */
export interface PlanSearchConfig {
    /** try none, selective and full recomputation (default true) */
    recompute?: boolean;
    /** try ddp, zero1, zero2 and zero3 (default true) */
    sharding?: boolean;
    /** try the interleaved schedule with v model chunks (default true) */
    interleave?: boolean;
}

/** "plan.fabric_spec": a custom inter-node fabric instead of the catalog's */
export interface PlanFabricSpecConfig {
    /** its id (default 'custom') */
    id?: string;
    /** its display name (default 'custom') */
    name?: string;
    /** line rate per GPU (required) (default required; (0, 1000000] GB/s) */
    line_gbps: number;
    /** achieved share of the line rate (required) (default required; [0.01, 1]) */
    efficiency: number;
    /** latency per message (default 0; [0, 1000000] us) */
    latency_us?: number;
    /** where its figures come from (default none) */
    source?: string;
}

/** "plan.constants": the step-time model's constants (docs/planner.md, "Constants and their sources") */
export interface PlanConstantsConfig {
    /** share of the dense tensor peak a large GEMM reaches (0: the node catalog's) (default 0; [0, 1]) */
    gemm_efficiency_max?: number;
    /** a GEMM whose smallest side is this runs at half the maximum (default 176; [0, 1000000]) */
    gemm_half_dim?: number;
    /** attention core as a share of peak (0: the node catalog's) (default 0; [0, 1]) */
    attention_efficiency?: number;
    /** achieved share of HBM bandwidth in elementwise kernels (default 0.85; [0.01, 1]) */
    hbm_efficiency?: number;
    /** memory passes of the elementwise kernels per element (default 1.5; [0, 100]) */
    elementwise_passes?: number;
    /** share of tensor-parallel communication hidden behind compute (default 0; [0, 1]) */
    tp_overlap?: number;
    /** gradient reduction overlaps the last backward pass (default true) */
    dp_overlap?: boolean;
    /** bytes per gradient value on the wire (0: from the training setup) (default 0; [0, 8] bytes) */
    grad_comm_bytes?: number;
    /** optimizer step: bytes read and written per parameter held (default 36; [0, 1000] bytes) */
    optimizer_bytes_per_param?: number;
    /** fixed time per step no layout removes (default 0; [0, 3600] s) */
    step_overhead_s?: number;
}

/** "plan.batch_sizing": true or an object: the smallest per-GPU batch that hides communication, per fabric */
export interface PlanBatchSizingConfig {
    /** fabric ids (empty: every inter-node fabric) (default every inter-node fabric) */
    fabrics?: string[];
    /** share of the step not lost to what a bigger batch hides (default 0.9; [0.05, 0.999]) */
    target_efficiency?: number;
}

/** "plan.pareto": true or an object: time against cost over cluster sizes, the front marked */
export interface PlanParetoConfig {
    /** GPU counts tried, at most 16 whole counts in [1, 1000000] (default 1/4x, 1/2x, 1x, 2x, 4x gpus) */
    counts?: number[];
    /** layouts per cluster size (default 5; [1, 1000] layouts) */
    per_count?: number;
}

/** "plan.fabric_comparison": true or an object: the same job on every fabric */
export interface PlanFabricComparisonConfig {
    /** fabric ids (empty: every inter-node fabric) (default every inter-node fabric) */
    fabrics?: string[];
}

/** "plan.serve": compare clusters (or this one) for serving concurrent sequences instead of training */
export interface PlanServeConfig {
    /** sequences in flight across the cluster (default required; [1, 10000000] sequences) */
    concurrency: number;
    /** tokens per sequence, prompt + output (0: the config's inference.context) (default 0; [0, 100000000] tokens) */
    context?: number;
}
// end generated

export type PlanRequestFields = PlanConfig;

/** Network-aware batch sizing of a layout's split on one fabric. */
export interface PlanBatchSizing {
    fabric: string; layout: PlanLayout;
    /** micro-batch x accumulation per DP rank; 0: none up to 8192 reaches the target efficiency */
    per_gpu_batch: number; global_batch: number;
    /** 1 - (exposed DP traffic + bubble + pipeline sends) / step */
    efficiency: number;
    memory_bytes: number; activation_bytes: number; fits: boolean; step_s: number;
    verdict: string;
    /** What would fit when it does not (empty when it fits or nothing does). */
    fix: string;
}

/** One candidate cluster for training (plan.clusters). */
export interface PlanClusterResult {
    gpu: string; gpus: number; fabric: string; ok: boolean; why: string; best: PlanLayoutResult | null;
    train_days: number; rent_usd: number; purchase_usd: number;
    /** Present when the request has deadline_days. */
    meets_deadline?: boolean;
}

/** One candidate cluster for serving (plan.serve). */
export interface PlanServeClusterResult {
    gpu: string; gpus: number; fabric: string; ok: boolean; meets: boolean; why: string;
    tp: number; replicas: number; max_seqs_per_replica: number; seqs_per_replica: number;
    /** Per GPU (vLLM: its whole reservation, the KV pool included). */
    memory_bytes: number;
    /** Of which the weights on one GPU, and the KV cache the sequences occupy on one GPU. */
    weights_bytes: number; kv_bytes: number;
    tokens_per_s_replica: number; tokens_per_s: number;
    rent_usd_per_hour: number; usd_per_mtok: number; purchase_usd: number;
}

/** One step of the cluster-sizing guide's checklist (docs/planner.md). */
export interface PlanChecklistStep {
    /** Training: model, precision, parallelism, batch, sequence, states, activations, overhead, target;
     *  serving: the same with "kv" (the KV cache) for "activations". */
    key: 'model' | 'precision' | 'parallelism' | 'batch' | 'sequence' | 'states' | 'activations' | 'kv' | 'overhead' | 'target';
    title: string;
    value: number;
    /** parameters, bytes/parameter, GPUs, sequences, tokens, bytes */
    unit: string;
    /** A second number (per GPU, per replica, the total, the share of the target); 0 with second_unit "" when none. */
    second: number; second_unit: string;
    detail: string;
}

/** The guide's nine steps for the plan's best layout (training) or the planned cluster serving the goal. */
export type PlanChecklist =
    | { goal: 'train'; steps: PlanChecklistStep[]; answer: PlanLayoutResult; target_bytes: number }
    | { goal: 'serve'; steps: PlanChecklistStep[]; answer: PlanServeClusterResult; target_bytes: number };

/** A point of the time-against-cost chart (plan.pareto). */
export interface PlanParetoPoint {
    gpus: number;
    /** No other point is both at least as fast and cheaper. */
    front: boolean;
    train_days: number; rent_usd: number; best: PlanLayoutResult;
}

/** The same job on one fabric (plan.fabric_comparison). */
export interface PlanFabricPoint {
    fabric: string; ok: boolean; why: string; best: PlanLayoutResult | null;
    /** The plan's best split, sized for this fabric. */
    sizing: PlanBatchSizing;
}

/** What `vramcalc plan --format json` prints. */
export interface PlanResult {
    ok: true;
    plan: {
        gpu: string; gpus: number; gpus_per_node: number; fabric: string; intra_fabric: string;
        global_batch: number; seq: number; target_bytes: number; evaluated: number; fitting: number;
        ranked: PlanLayoutResult[];
        rejected: { reason: string; count: number; example: string }[];
        notes: string[];
        /** When no layout fits for memory: what would (docs/planner.md, "Bad input"); null otherwise. `gpus`: the
         *  fewest GPUs of this type on which a layout fits (field plan.gpus; null: none up to 65,536), with its fastest
         *  layout; `gpu`: the catalog GPU with the least memory above this one's that fits on plan.gpus GPUs (field gpu;
         *  null: none), with its fastest layout. */
        suggestion: { gpus: number | null; gpus_best: PlanLayoutResult | null; gpu: string | null; gpu_best: PlanLayoutResult | null } | null;
    };
    /** The guide's checklist; null when no layout fits (serving: when the planned cluster holds no sequence). */
    checklist: PlanChecklist | null;
    clusters?: PlanClusterResult[];
    serve_clusters?: PlanServeClusterResult[];
    fewest_gpus?: { ok: boolean; gpus: number; why: string; best: PlanLayoutResult | null; train_days: number;
                    rent_usd: number; purchase_usd: number };
    batch_sizing?: PlanBatchSizing[];
    pareto?: PlanParetoPoint[];
    /** The token budget the Pareto points are priced for (train_tokens, or 1e12 when none). */
    pareto_tokens?: number;
    fabric_comparison?: PlanFabricPoint[];
}

export interface Fabric {
    id: string; name: string; intra_node: boolean; line_gbps: number; efficiency: number;
    achieved_gbps: number; latency_us: number; source: string;
}

export interface GpuNode {
    gpu: string; gpus_per_node: number; intra_fabric: string; purchase_usd: number;
    gemm_share: number; attention_share: number; source: string; speed_source: string;
}

/** Exact weight bytes read from a model file's tensor table (config "inference.weights_file"). */
export interface WeightsFile {
    source?: string;
    total_bytes: number;
    params?: number;
    parts?: { embedding: number; output: number; attention: number; mlp: number; experts: number; experts_routed: number; router: number; other: number };
    layer_bytes?: number[];
    layer_routed_bytes?: number[];
    mix?: string;
}

/** What `vramcalc --model-file F --print-import` prints (docs/import.md). */
export interface ModelImport {
    ok: true;
    kind: 'hf-config' | 'gguf' | 'gguf-mmproj' | 'safetensors' | 'safetensors-index';
    name: string;
    /** config.json architectures[0] or model_type; GGUF general.architecture. */
    architecture: string;
    /** Every architecture field was read; otherwise `missing` names the rest and `model` holds what was read. */
    complete: boolean;
    missing: { field: string; keys: string }[];
    /** Empty when complete; else names the missing keys. */
    message: string;
    notes: string[];
    /** null for a vision projector (mmproj) alone. */
    model: ModelConfig | null;
    /** Parameters counted in the file's tensor table, or derived from the architecture (an mmproj alone: the projector's). */
    params: number;
    /** Exact bytes of the tensors (0: the file has no tensor table). */
    weights_bytes: number;
    /** The checkpoint's format as inference.weights names it ("q4_k_m", "gptq-int4", "bf16"); "" = unknown. */
    weights_format: string;
    header_bytes: number;
    tensor_count: number;
    /** Several files merged (importFiles, several --model-file): which were read and what each gave. */
    files?: { name: string; kind: string; gave: string }[];
    /** A config fragment to merge into yours: {model, inference?: {engine?, weights?, group_size?, weights_file?, llamacpp?: {mmproj}}}. */
    config: { model?: ModelConfig; inference?: { engine?: InferenceConfig['engine']; weights?: string; group_size?: number; zero_point?: boolean; act_order?: boolean; weights_file?: WeightsFile; llamacpp?: { mmproj: { params_m: number; type: string; image_tokens: number; hidden: number; heads: number; ffn: number } } } };
}

/** A failed import: field "import"; need_bytes > 0 when the header runs past the bytes given (read that many from the start). */
export interface ImportFailure extends Failure {
    need_bytes?: number;
    kind?: string;
}

/** What importFile reads: a browser File or Blob, or anything with their size and slice() (no DOM
 *  types needed, so the declarations compile under Node's libs too). */
export interface FileLike {
    readonly size: number;
    readonly name?: string;
    slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** A config object, or its JSON text. */
export type ConfigInput = Config | string;

// [SECTION] the API -------------------------------------------------------------------------------

/** The engine's API: the library's createVramCalc() resolves to it; the page's and the widget's
 *  `window.vramcalc` has the same members once `ready` resolves (VramCalcPage). */
export interface VramCalc {
    /** The engine's version, e.g. "0.1.0". */
    readonly version: string;
    /** The config/result schema version (docs/config.md). */
    readonly schemaVersion: number;
    estimate(config?: ConfigInput): Estimate | Failure;
    solve(config: ConfigInput | undefined, question: string): Answer | Failure;
    /** What to change when the config does not fit its GPU (`vramcalc suggest --format json`). */
    suggest(config?: ConfigInput): Suggestions | Failure;
    /** Which presets and formats fit the config's GPU, best first (`vramcalc fit-models --format json`). */
    fitModels(config?: ConfigInput): ModelFits | Failure;
    /** The config with every field and its default filled in (`vramcalc --print-config`). */
    resolveConfig(config?: ConfigInput): Config | Failure;
    /** Reads a model file's first bytes: config.json (bytes or text), a .gguf or .safetensors header, an index.
     *  `size` is the whole file's length when `data` is its start. Nothing leaves the page. */
    importModel(data: Uint8Array | ArrayBuffer | string, name?: string, size?: number): ModelImport | ImportFailure;
    /** importModel over a File or Blob, reading only its header with File.slice (4 MiB, then the rest of the header the reader asks for). */
    importFile(file: FileLike): Promise<ModelImport | ImportFailure>;
    /** Several files of one model (a FileList or an array), each read as importFile reads it, merged by the engine:
     *  config.json + .safetensors shards or index, a split GGUF's parts, a GGUF + its mmproj (`vramcalc --model-file A --model-file B --print-import`). */
    importFiles(files: ArrayLike<FileLike>): Promise<ModelImport | ImportFailure>;
    presets(): Preset[] | Failure;
    gpus(): Gpu[] | Failure;
    questions(): Question[] | Failure;
    /** Every parallel layout of a cluster ranked by step time: a config with a "plan" object. */
    plan(request: (Config & { plan?: PlanRequestFields }) | string): PlanResult | Failure;
    fabrics(): { fabrics: Fabric[]; nodes: GpuNode[] } | Failure;
}

/** The page's `window.vramcalc` (index.html, widget.html): `ready` at once, the members of VramCalc
 *  when it resolves. The page carries estimate, solve, questions, importModel, importFile, importFiles, version
 *  and schemaVersion; the other members are there but return a Failure naming the library (its download has a budget). */
export type VramCalcPage = { readonly ready: Promise<void> } & Partial<VramCalc>;

/** Instantiates the engine (the WebAssembly module is inside the library file: no request). */
export function createVramCalc(): Promise<VramCalc>;
export default createVramCalc;
