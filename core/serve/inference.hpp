// [FOLDER] core/serve/: inference.hpp/.cpp (engines, speed), kv_cache.hpp/.cpp (KV bytes per
//   token from the attention layout), inference_solve.hpp/.cpp (what fits when serving).
// vramcalc core: detailed inference and serving. How three kinds of engines take GPU memory:
//  - vLLM-like: reserves gpu_memory_utilization of the card, takes the weights, a profiled
//    activation peak and non-torch memory out of it, and pages the rest into KV blocks;
//  - llama.cpp-like: weights of the offloaded layers, a KV cache for the whole context, a
//    compute buffer;
//  - Hugging Face generate: weights, a growing KV cache and the activations of the current step.
// Plus decode and prefill speed from a roofline over the GPU catalog. docs/inference.md has every
// formula and constant with its source.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/catalog/cuda_context.hpp"
#include "core/catalog/gpus.hpp"
#include "core/serve/kv_cache.hpp"
#include "core/serve/sglang.hpp"
#include "core/quant/quant.hpp"
#include "core/result.hpp"
#include "core/status.hpp"

namespace vc {

struct Config;

// Sglang: a static fraction of the card for weights + KV pool (core/serve/sglang.hpp), vLLM's TP sharding.
enum class Engine { Vllm, LlamaCpp, Hf, Sglang };
const char* engine_name(Engine e);  // "vllm", "llama.cpp", "hf", "sglang"
// Whether the engine shards every matrix by tensor parallelism and fills a preallocated KV pool
// (vLLM and SGLang); llama.cpp and transformers split whole layers and grow with the load.
inline bool tensor_parallel_engine(Engine e) { return e == Engine::Vllm || e == Engine::Sglang; }
// The engine as a bit of WeightFormat::engines (core/quant/quant.hpp EngineMask): the formats it loads.
unsigned engine_mask(Engine e);

// Constants that model the world. Each is overridable from the config ("inference.constants").
struct InferenceConstants {
    // CUDA context plus cuBLAS/cuDNN handles on one GPU, outside PyTorch's allocator, the whole of
    // it as given, with lazy module loading and with every kernel loaded at start-up (hf.lazy_loading
    // false). Negative (the document's -1 GiB): the model, the same as training's
    // (core/catalog/cuda_context.hpp cuda_context: the framework part plus the GPU's local-memory
    // reservation; without SM figures the flat readings, 0.5 GiB lazy and 1343 MiB eager, C07).
    double cuda_context_bytes = -1.0 * 1024 * 1024 * 1024;
    double cuda_context_eager_bytes = -1.0 * 1024 * 1024 * 1024;
    // The per-thread stack limit (cudaLimitStackSize) the driver reserves local memory for, on
    // every thread the GPU holds resident. Source: the CUDA default, 1024 B (cuda_context.hpp).
    double cuda_stack_limit_bytes = kCudaStackLimitBytes;
    // nvidia-smi's total less what cudaMemGetInfo reports (what vLLM's total_gpu_memory is): vLLM
    // logs 79.22 GiB on an 79.65 GiB H100 (PR #10511) and C30 implies 39.50 GiB on a 40 GiB A100.
    double driver_reserved_bytes = 0.47 * 1073741824.0;
    // vLLM "non_torch_memory" on one GPU (CUDA runtime allocations outside torch): 0.10 GiB in C30
    // (vLLM issue 12330), 0.16 GiB in vLLM PR #12126.
    double vllm_non_torch_bytes = 0.13 * 1073741824.0;
    // Extra non-torch memory per GPU with tensor parallelism (NCCL and custom all-reduce buffers):
    // vLLM logs show 0.59-0.73 GiB at TP 2 (vllm-gfx906 issue 10).
    double vllm_non_torch_tp_bytes = 0.6 * 1073741824.0;
    // The part of it custom all-reduce allocates outside torch on each GPU: two IPC buffers of
    // max_size 8 MiB each, the metadata one and the registered input one (vLLM main, 2026,
    // distributed/device_communicators/custom_all_reduce.py, create_shared_buffer; rank_data is torch).
    double vllm_custom_all_reduce_bytes = 2 * 8.0 * 1048576.0;
    // CUDA graphs captured after the KV cache is allocated, outside gpu_memory_utilization: vLLM
    // logs "Graph capturing finished ... took 0.3-0.7 GiB" for 1-8B models.
    double vllm_cuda_graph_bytes = 0.5 * 1073741824.0;
    // The sampler's peak per logit when vLLM profiles max_num_seqs sequences with top-k/top-p:
    // bf16 logits, an FP32 copy, sorted values and int64 indices, probabilities, cumulative sums.
    // PR #10511 logs 1.26 GiB for Llama-3-8B at 256 x 128,256 logits: ~41 B per logit.
    double vllm_sampler_bytes_per_logit = 40;
    // The same peak with FlashInfer's sampler (vLLM V1 flashinfer_sample -> flashinfer sampling.py
    // top_k_top_p_sampling_from_logits, "top_k_first"; flashinfer 0.2.x-0.3): the model's bf16 logits
    // (2 B), the sampler's FP32 copy (4), top_k_mask_logits' masked copy (4) and its softmax (4).
    double vllm_flashinfer_sampler_bytes_per_logit = 14;
    // Profiles that compute logits for every batched token (vLLM V1 up to 0.7): BF16 logits, an
    // FP32 copy and FP32 probabilities, 2 + 4 + 4 bytes per logit. Inferred from C30, whose log
    // shows a 9.37 GiB peak for Llama-3-8B at 8192 batched tokens.
    double vllm_token_logit_bytes = 10;
    // Bytes per value of DeepSeek-V3.2's lightning-indexer key in vLLM's cache: an FP8 value and one FP32 scale per
    // 128 (132 B per key of 128: vllm-project/vllm@b863fe5:vllm/model_executor/models/deepseek_v2.py Indexer.__init__,
    // DeepseekV32IndexerCache(head_dim=head_dim + head_dim // quant_block_size * 4, dtype=torch.uint8), quant_block_size
    // 128), whatever kv_cache_dtype is.
    double vllm_indexer_value_bytes = 1 + 4.0 / 128;
    // llama.cpp pads the KV cache to a multiple of 256 cells (llama_context: GGML_PAD(n_ctx, 256)).
    double llamacpp_ctx_pad = 256;
    // Roofline efficiencies: decode GEMV kernels reach ~80% of peak HBM bandwidth; large prefill
    // GEMMs reach ~60% of dense tensor peak (vLLM / TensorRT-LLM benchmarks). 1 = pure roofline.
    double bandwidth_efficiency = 0.8;
    double compute_efficiency = 0.6;
    // Host memory bandwidth for layers llama.cpp keeps on the CPU (dual-channel DDR5-5600: ~90 GB/s
    // peak, ~60 GB/s achieved).
    double host_bandwidth_gbps = 60;
    // Achieved share of the host's peak DRAM bandwidth (channels x 8 B x MT/s) when inference.host
    // gives channels and MT/s: STREAM-like reads on desktop DDR4/DDR5 reach ~65-75% of peak.
    double host_bandwidth_efficiency = 0.7;
    // Host-to-GPU copies: llama.cpp runs the matmuls of CPU-resident layers on the GPU for prompt
    // batches of 32+ tokens, copying those weights over PCIe each ubatch (ggml-cuda offload_op).
    // PCIe 4.0 x16 moves ~25 GB/s of its 31.5 GB/s peak.
    double pcie_gbps = 25;
    // Dense FP32 throughput of the host CPU for prompt processing on the CPU (a 16-core desktop
    // with AVX2/AVX-512 reaches ~1-2 TFLOP/s in llama.cpp's GEMMs).
    double cpu_tflops = 1;
    // ggml_backend_sched keeps this many copies of each device's inputs when llama.cpp pipelines
    // micro-batches over several GPUs (GGML_SCHED_MAX_COPIES, logged as "n_copies=4").
    double llamacpp_sched_copies = 4;
    // llama.cpp's most sequences (-np, Ollama's OLLAMA_NUM_PARALLEL): a context with more throws
    // "n_seq_max must be <= 256" (ggml-org/llama.cpp@0349835:src/llama-cparams.h:8 LLAMA_MAX_SEQ 256;
    // ggml-org/llama.cpp@001d906:src/llama-context.cpp, llama_context's constructor).
    double llamacpp_max_seq = 256;
    // Ollama's defaults (v0.15.5 and later): num_ctx (OLLAMA_CONTEXT_LENGTH unset) by the VRAM of
    // every GPU together, "Use slightly lower thresholds (47/23 GiB vs. 48/24 GiB)": 262,144 tokens
    // from 47 GiB, 32,768 from 23 GiB, else 4,096 (ollama/ollama@b7871fc:server/routes.go:2043-2057,
    // commit 0334ffa of v0.15.5; before it 4,096 from v0.6.7, 44b466e, and 2,048 earlier), capped at
    // the model's trained context (ollama_context); one request at a time per model
    // (OLLAMA_NUM_PARALLEL, @b7871fc:envconfig/config.go:275 default 1 since v0.9.7, 20c3266; 0 = auto
    // before it, 4 where it fitted else 1, v0.5.0:server/sched.go:59 defaultParallel); each slot gets
    // the whole num_ctx. OLLAMA_KV_CACHE_TYPE unset is f16 (@b7871fc:envconfig/config.go:317).
    double ollama_num_ctx = 4096;
    double ollama_num_ctx_mid = 32768;
    double ollama_num_ctx_large = 262144;
    double ollama_vram_mid_gib = 23;
    double ollama_vram_large_gib = 47;
    double ollama_num_parallel = 1;
    // Ollama's automatic num_batch (num_batch unset), passed to llama-server as both -b and -ub
    // (ollama/ollama@b7871fc = v0.32.15: server/sched.go:797-912 automaticGenerationBatch,
    // llm/llama_server.go:590-591 appendBatchArgs). By num_ctx x parallel: ollama_num_batch up to
    // ollama_batch_medium_ctx tokens, ollama_num_batch_medium above it, ollama_num_batch_large above
    // ollama_batch_large_ctx (generationBatchForContext, :859-868); each larger batch stepped down
    // (2,048 -> 1,024 -> 512, :897-904) unless Ollama's prediction (the GGUF file + an F16 KV cache,
    // llm/llama_server.go:2681 PredictServerVRAM) stays within ollama_batch_fit_share of the free
    // memory, within its headroom share (large: ollama_batch_large_headroom, medium:
    // ollama_batch_medium_headroom, :803-804, :886-895) and leaves the batch's surcharge
    // (ollama_batch_large_surcharge_mib, ollama_batch_medium_surcharge_mib, :906-912) below the
    // fit share (generationBatchFits, :870-884). CUDA with flash attention off: ollama_num_batch, or
    // ollama_num_batch_constrained above ollama_batch_medium_ctx tokens on a CUDA card with at most
    // ollama_batch_constrained_gib free (:822-857, constrainedCUDAWithoutFlashAttention :843).
    double ollama_num_batch = 512;               // llamaServerGenerationBatchDefault (:798)
    double ollama_num_batch_constrained = 256;   // llamaServerGenerationBatchConstrained (:799)
    double ollama_num_batch_medium = 1024;       // llamaServerGenerationBatchMedium (:800)
    double ollama_num_batch_large = 2048;        // llamaServerGenerationBatchLarge (:801)
    double ollama_batch_medium_ctx = 4096;       // generationBatchForContext: "effectiveCtx > 4096" (:863)
    double ollama_batch_large_ctx = 32768;       // generationBatchForContext: "effectiveCtx > 32768" (:861)
    double ollama_batch_medium_headroom = 0.75;  // llamaServerGenerationBatchMediumHeadroomPercent = 75 (:803)
    double ollama_batch_large_headroom = 0.60;   // llamaServerGenerationBatchLargeHeadroomPercent = 60 (:804)
    double ollama_batch_fit_share = 0.80;        // generationBatchFits: "threshold := availableMemory * 80 / 100" (:875)
    double ollama_batch_medium_surcharge_mib = 768;   // generationBatchSurcharge: 768 * format.MebiByte (:911)
    double ollama_batch_large_surcharge_mib = 2048;   // generationBatchSurcharge: 2 * format.GibiByte (:909)
    double ollama_batch_constrained_gib = 8;     // constrainedCUDAWithoutFlashAttention: "memory <= 8*format.GibiByte" (:855)
    // Ollama's placement with several GPUs (ollama/ollama@b7871fc server/sched.go
    // selectLlamaServerPlacement): num_gpu not 0, no main_gpu and OLLAMA_SCHED_SPREAD unset, a model
    // whose prediction (PredictServerVRAM, above) is within this share of one GPU's free memory loads
    // on that GPU alone (bestSingleGPUFit, :1060: "predictedVRAM > candidateAvailable*80/100" skips a
    // GPU), else on all of them. 0: never one GPU alone (OLLAMA_SCHED_SPREAD=1; releases before it).
    double ollama_single_gpu_share = 0.80;
    // llama-server's --fit with -ngl unset (plain llama-server, and Ollama v0.32.15, whose
    // llm/llama_server.go passes no -ngl when num_gpu is unset): the memory --fit leaves free on each
    // GPU, --fit-target's default (ggml-org/llama.cpp@001d906:common/common.h fit_params_target =
    // 1024 MiB per device; Ollama sets LLAMA_ARG_FIT_TARGET only with a vision projector, to its size
    // + 1 GiB). Config path inference.constants.ollama_fit_target_mib (kept: links and configs use it).
    double fit_target_bytes = 1024 * 1048576.0;
    // ExLlamaV2 GPTQ kernels (AutoGPTQ / optimum / GPTQModel) allocate one scratch buffer per GPU
    // at post_init, sized by the largest quantized layer for max_input_len x max_batch_size rows:
    // in x out x 2 B (temp_dq) + out x rows x 4 B (temp_fwd); qlinear_exllamav2.py
    // scratch_space_fixed(max_input_len=2048, max_batch_size=8).
    double exllamav2_max_input_len = 2048;
    double exllamav2_max_batch_size = 8;
    // ExLlama v1 with act-order (desc_act) reorders each input into temp_state, one FP16 buffer per
    // GPU of max_input_len x the largest in/out dimension (AutoGPTQ modeling/_utils.py
    // autogptq_post_init: torch.zeros((max_input_len, max_inner_outer_dim), float16), max_input_len =
    // EXLLAMA_DEFAULT_MAX_INPUT_LENGTH = 2048 unless exllama_set_max_input_length; 1 x 1 without act-order).
    double exllama_max_input_len = 2048;
    // LLM.int8() matmul temporaries per prefill token at the largest projection (bitsandbytes
    // autograd/_functions.py MatMul8bitLt.forward): int8 copies of the input and bytes per output
    // element beside the 16-bit output. bitsandbytes >= 0.45: int8_vectorwise_quant's CA (1 copy),
    // int8_linear_matmul's int32 accumulator (4 B). <= 0.44: double_quant's CA and CAt plus
    // transform(CA, "col32") (3 copies), igemmlt's int32 out32 plus the clone of a 3-D output (4 + 2 B).
    double bnb_int8_input_copies = 1;
    double bnb_int8_output_bytes = 4;
    // PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp): a request of at least
    // kMinLargeAlloc (10 MiB) gets a segment of its own, rounded up to kRoundLarge (2 MiB); a freed
    // block merges only with free neighbours in its segment. HF generate's DynamicCache grows each
    // layer's K and V by torch.cat one token at a time, so every 2 MiB of growth leaves each cache
    // tensor's previous segment (its size at that moment) too small for every later request.
    double torch_min_large_alloc_mib = 10;
    double torch_round_large_mib = 2;
    // The compute capability (x 10) vLLM's quantization method for the weights' format needs, in
    // place of the table's (vllm_quant_gates: mxfp4 80, awq-int4 75, the fp8 formats 80, w8a8 75);
    // -1: the table; 0: nothing refused. A vLLM release whose minimum moved (fp8 went to 75 with
    // Turing Marlin kernels in later releases) is set here.
    double vllm_min_capability = -1;
    // vLLM's hybrid pool (kv_cache.hpp vllm_hybrid_pages): the attention block is a multiple of
    // vllm_block_alignment tokens (vllm-project/vllm@1936cf3:vllm/model_executor/models/config.py:357,
    // FlashAttention's multiple of 16); layers are grouped by the fewest of a kind unless the most are
    // under vllm_group_ratio x that (vllm@001cabc:vllm/v1/core/kv_cache_utils.py
    // _get_kv_cache_groups_uniform_page_size, 1.5); a sequence holds vllm_state_blocks state pages per
    // state group (vllm@001cabc:vllm/v1/kv_cache_interface.py MambaSpec.max_memory_usage_bytes: 1 in
    // mamba_cache_mode "none", 2 in "align", + 1 a speculative token).
    double vllm_block_alignment = 16;
    double vllm_group_ratio = 1.5;
    double vllm_state_blocks = 1;
    // transformers loads a quantized checkpoint of these formats quantized only from a compute
    // capability (x 10); below it, and with no CUDA or XPU device (a Mac: MPS), it dequantizes the
    // weights to BF16 at load (hf_min_capability). Fine-grained FP8 (fp8-block, FineGrainedFP8Config):
    // 89, huggingface/transformers@7b21bdb src/transformers/quantizers/quantizer_finegrained.py
    // validate_environment ("only supported on GPUs with compute capability >= 8.9 ... We will default
    // to dequantizing the model to bf16"; releases before it raised a ValueError instead). MXFP4
    // (gpt-oss): 75, huggingface/transformers@787b952 src/transformers/quantizers/quantizer_mxfp4.py
    // validate_environment (also without triton >= 3.4 and the kernels package); the 2026 fine-grained
    // rewrite (quantizers/finegrained/base.py @1e8f147) gates it at 89 as FP8. 0: never dequantized.
    double hf_fp8_min_capability = 89;
    double hf_mxfp4_min_capability = 75;
    // SGLang (core/serve/sglang.hpp; docs/inference.md "SGLang"): its default --mem-fraction-static,
    // sgl-project/sglang@031ed82:python/sglang/srt/arg_groups/memory_hook.py:27 handle_gpu_memory_settings.
    // gpu_mem (nvidia-smi's total, MiB) below each tier picks chunked_prefill_size and the decode CUDA
    // graphs' max_bs (kSglangTiers in sglang.cpp): "gpu_mem < 20 * 1024", 35, 60, 90, 160 (GiB as MiB / 1024).
    double sglang_tier1_gib = 20;
    double sglang_tier2_gib = 35;
    double sglang_tier3_gib = 60;
    double sglang_tier4_gib = 90;
    double sglang_tier5_gib = 160;
    // reserved_mem (MiB) = sglang_reserved_mib ("Constant meta data") + max(chunked_prefill_size,
    // sglang_min_activation_tokens) x sglang_activation_mib_per_token + tp x pp / 8 x sglang_parallel_mib
    // + the graphs (reserve_for_graph_mb: decode max_bs x sglang_decode_graph_mib_per_bs; prefill
    // graphs, non-MLA: sglang_prefill_graph_mib_per_size per captured size, MLA: sglang_mla_prefill_graph_mib),
    // at least sglang_reserved_floor_mib on a card above sglang_floor_from_gib; mem_fraction_static =
    // round((gpu_mem - reserved_mem) / gpu_mem, 3).
    double sglang_reserved_mib = 512;
    double sglang_min_activation_tokens = 2048;
    double sglang_activation_mib_per_token = 1.5;
    double sglang_parallel_mib = 1024;
    double sglang_decode_graph_mib_per_bs = 2;
    double sglang_prefill_graph_mib_per_size = 8;
    double sglang_mla_prefill_graph_mib = 1536;
    double sglang_reserved_floor_mib = 10240;
    double sglang_floor_from_gib = 60;
    // --max-prefill-tokens' default, the activation tokens with chunked prefill off
    // (SGLang's ServerArgs max_prefill_tokens default 16384, python/sglang/srt/server_args.py in the releases read).
    double sglang_max_prefill_tokens = 16384;
    // The req_to_token pool, int32 slots of each request's tokens: max_num_reqs = min(max(int(
    // max_total_num_tokens / context_len x sglang_req_pool_per_token_ratio), sglang_req_pool_min),
    // sglang_req_pool_max) rows of context_len + sglang_req_context_pad (extra_max_context_len) x 4 B
    // (sgl-project/sglang@001ccef:python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py init_memory).
    double sglang_req_pool_per_token_ratio = 512;
    double sglang_req_pool_min = 2048;
    double sglang_req_pool_max = 4096;
    double sglang_req_context_pad = 4;
};

// The machine around the GPU: system RAM and its bandwidth (llama.cpp keeps layers and experts
// there), the CPU's throughput, and the Apple unified-memory override.
struct HostInputs {
    double ram_bytes = 0;       // system RAM; 0 = not checked (unified GPUs: the machine's RAM)
    int channels = 0;           // memory channels, 64 bits each (desktop: 2, workstation: 4-8)
    double mts = 0;             // DDR transfer rate, MT/s (DDR5-5600: 5600)
    double bandwidth_gbps = 0;  // > 0: measured host bandwidth, replaces channels x 8 B x MT/s
    double cpu_tflops = 0;      // > 0: replaces constants.cpu_tflops
    double wired_limit_mb = 0;  // Apple: sysctl iogpu.wired_limit_mb (0: macOS's default limit)
};

// The sampler vLLM profiles (v1/sample/ops/topk_topp_sampler.py): the PyTorch path sorts the
// logits; FlashInfer's samples by rejection. Auto: PyTorch, since the default changed with the
// version (V1 0.7 used FlashInfer when installed; from 0.8 releases asked for
// VLLM_USE_FLASHINFER_SAMPLER=1; vLLM main turns it on where flashinfer is installed and supports the GPU).
enum class VllmSampler { Auto, Pytorch, Flashinfer };
// Custom all-reduce (vllm/distributed/device_communicators/custom_all_reduce.py): Auto as vLLM
// decides, on at TP 2, 4, 6, 8 when TP is 2 or the GPUs are fully NVLink-connected; Off as
// --disable-custom-all-reduce.
enum class VllmCustomAllReduce { Auto, On, Off };
// Peer-to-peer access between the TP GPUs. With it NCCL's P2P transport keeps each connection's
// buffers in device memory; without it the SHM transport keeps them in host memory
// (nccl src/transport/shm.cc, shmRecvSetup: ncclShmOpen of the protocols' buffSizes), and vLLM's
// custom all-reduce disables itself (custom_all_reduce.py, _can_p2p: "lacks GPU P2P capability").
// Auto: off on GeForce cards, whose driver grants no peer access over PCIe (p2pBandwidthLatencyTest
// "CANNOT Access Peer": RTX 2080 Ti, NVIDIA/nccl-tests issue 117; RTX 3090, NVIDIA/nccl issue 1127),
// on for every other card and a custom GPU (the figure before this setting).
enum class GpuP2p { Auto, On, Off };

struct VllmOptions {
    double gpu_memory_utilization = 0.9;   // vLLM default
    int max_num_batched_tokens = 8192;     // tokens in the profiling forward (vLLM V1 default for the LLM class)
    int max_num_seqs = 256;                // vLLM default
    bool enforce_eager = false;            // true: no CUDA graphs
    // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: vLLM takes a max_model_len above the model's derived window,
    // with a warning, instead of refusing it (start_plan's refusal; vllm-project/vllm@0052a5b:
    // vllm/config/model.py _get_and_verify_max_len).
    bool allow_long_max_model_len = false;
    bool profile_all_tokens = false;       // "profile_logits": "tokens" (logits for every batched token)
    double activation_peak_bytes = -1;     // >= 0: a measured peak (vLLM's log) replaces the model
    double non_torch_bytes = -1;           // >= 0: replaces the constant
    double cuda_graph_bytes = -1;          // >= 0: replaces the constant
    VllmSampler sampler = VllmSampler::Auto;
    VllmCustomAllReduce custom_all_reduce = VllmCustomAllReduce::Auto;
    GpuP2p p2p = GpuP2p::Auto;
    // --mamba-ssm-cache-dtype (vllm-project/vllm@02d7108:vllm/model_executor/layers/mamba/mamba_utils.py:96-108
    // _mamba_state_dtype: the conv state in mamba_cache_dtype, the SSM state in this unless "auto")
    std::string mamba_ssm_cache_dtype = "auto";
};

// SGLang's server arguments that size its memory (sgl-project/sglang@001067f:python/sglang/srt/server_args.py;
// core/serve/sglang.hpp has the model). 0 / -1 = SGLang's own default, resolved per GPU (sglang_set_gpu).
struct SglangOptions {
    double mem_fraction_static = -1;  // --mem-fraction-static; -1: SGLang's rule (memory_hook.py handle_gpu_memory_settings)
    int chunked_prefill_size = 0;     // --chunked-prefill-size; 0: by the GPU's memory; -1: chunked prefill off
    int cuda_graph_max_bs = 0;        // --cuda-graph-max-bs (decode graphs); 0: by the GPU's memory and TP
    bool disable_cuda_graph = false;  // --disable-cuda-graph: no decode or prefill graphs
    bool prefill_cuda_graph = true;   // the prefill phase's piecewise graphs (CudaGraphConfig prefill tc_piecewise); false: disabled
    int max_running_requests = 0;     // --max-running-requests; 0: max_total_num_tokens // 2, capped by the req_to_token pool
    int page_size = 1;                // --page-size: the pool's tokens rounded down to whole pages
};

// Whether vLLM's custom all-reduce runs at `tp` GPUs of `gpu` (nullptr: no GPU chosen, taken as
// fully connected, the figure before the interconnect was modelled) under `mode`; `p2p` false
// (vllm_gpu_p2p): Auto finds it off, as vLLM's _can_p2p test does.
bool vllm_custom_all_reduce_on(VllmCustomAllReduce mode, int tp, const GpuSpec* gpu, bool p2p = true);
// The same decision with its reason: why custom all-reduce is off, in words, or nullptr when it runs.
const char* vllm_custom_all_reduce_off(VllmCustomAllReduce mode, int tp, const GpuSpec* gpu, bool p2p);
// Whether the TP GPUs of `gpu` (nullptr: none chosen) have peer-to-peer access under `mode`.
bool vllm_gpu_p2p(GpuP2p mode, const GpuSpec* gpu);
// Why a Mac's row of a vLLM estimate holds nothing (GpuFit::no_backend; vLLM on a Mac is refused,
// core/serve/inference.cpp vllm_no_metal): "vLLM has no Metal backend".
extern const char* const kVllmNoMetal;
// Why a Mac's row of an SGLang estimate holds nothing: its MLX backend is not modelled.
extern const char* const kSglangNoMetal;

enum class SplitMode { Layer, Row, None };  // --split-mode

// A vision projector (--mmproj): a CLIP/SigLIP encoder whose weights and graph live on the GPU.
struct VisionProjector {
    std::string preset;          // "clip-vit-l-14-336", "siglip-so400m-896", "llama4-vit-336" (fills the rest), or empty
    double params = 0;           // parameters of the encoder and projector
    std::string type = "f16";    // f16, bf16, f32, q8_0
    int image_tokens = 0;        // patches (+ class token) one image becomes
    int hidden = 0, heads = 0, ffn = 0;
};

// A draft model for speculative decoding (-md): its weights, its KV cache and its compute buffer.
struct DraftModel {
    std::string preset;          // a model preset; empty: no draft
    std::string weights = "q8_0";
    int n_gpu_layers = -1;       // -ngld (-1: all)
    int context = 0;             // -cd per slot; 0: the main context
    // --draft-max / --draft-min: llama.cpp's common_params_speculative n_max = 16, n_min = 0
    // (common/common.h); a draft shorter than n_min is not verified (tools/server/server.cpp).
    int max_tokens = 16;
    int min_tokens = 0;
    // The chance that the target accepts each drafted token (Leviathan et al. 2023's alpha);
    // workload dependent. 0.72: Llama-3.1-8B Q8_0 drafted by Llama-3.2-1B Q8_0 with
    // llama-speculative, 526 of 730 drafted tokens accepted (llama.cpp issue #5877, 2024-11-19).
    double acceptance = 0.72;
};

struct LlamaCppOptions {
    int n_gpu_layers = -1;   // -1: unset: --fit places the layers (fit), else every layer and the output layer (-ngl 999); N: output_first
    // -ub: physical batch; 0: unset, llama.cpp's kLlamaCppUbatch, or under the Ollama profile its
    // automatic num_batch (llamacpp_ubatch). Set under Ollama it is num_batch (-b and -ub).
    int n_ubatch = 0;
    // -b: logical batch (llama.cpp default 2048). llama_context caps it by the context and the
    // physical batch by it (src/llama-context.cpp: n_batch = min(n_ctx, n_batch); n_ubatch =
    // min(n_batch, n_ubatch)): the graphs are reserved for min(-ub, -b, n_ctx) tokens.
    int n_batch = 2048;
    bool flash_attn = true;  // -fa (on by default where supported since 2025)
    std::string kv_dtype_v;  // -ctv; empty: inference.kv_dtype (-ctk) for both
    int n_cpu_moe = 0;       // --n-cpu-moe N: routed experts of the first N layers stay in host RAM
    // -ot / --override-tensor: "pattern=buffer_type" pairs, comma-separated (several -ot flags
    // joined by commas); a tensor goes to the first pair whose pattern its GGUF name matches
    // (llama-model.cpp create_tensor: std::regex_search in order). core/serve/tensor_override.hpp.
    std::string override_tensor;
    // -nkvo / --no-kv-offload: every layer's KV cache in host RAM, the attention on the CPU
    // (src/llama-kv-cache.cpp: offload false -> ggml_backend_cpu_buffer_type(); llama.cpp issues
    // #9302 and #12663). core/serve/llamacpp.cpp has the rules.
    bool no_kv_offload = false;
    SplitMode split_mode = SplitMode::Layer;
    std::vector<double> tensor_split;  // --tensor-split; empty: by each GPU's memory
    double lora_bytes = 0;   // --lora: adapter tensors, on their layers' devices
    VisionProjector mmproj{};
    DraftModel draft{};
    bool ollama = false;     // profile "ollama": Ollama's defaults and its parameters in the launch command
    // --fit (llama-server's default since llama.cpp PR #16653, 2025-12: common/common.h
    // fit_params = true, n_gpu_layers = -1 "auto"): with -ngl unset the layers (a MoE model's routed
    // experts first) go to system RAM until constants.fit_target_bytes stays free per GPU
    // (llamacpp_fit). false: --fit off, or a release before it, where -ngl unset is every layer.
    bool fit = true;
    // -ngl N takes the output layer first, then the last N - 1 repeating layers: llama.cpp since
    // PR #18148 (merge ggml-org/llama.cpp@57c1e05, 2025-12-18; src/llama-model.cpp load_tensors:
    // i_gpu_start = max(n_layer + 1 - n_gpu_layers, 0)). false: a build before it, where -ngl N is
    // the last N layers and the output layer only at N > layers (i_gpu_start = n_layer - n_gpu_layers).
    bool output_first = true;
};

enum class HfAttention { Eager, Sdpa, Flash };

// The kernel a GPTQ checkpoint runs on (Hugging Face engine): ExLlama v1 (the default here:
// transformers' GPTQConfig.post_init sets exllama_config {"version": 1} when a checkpoint's config
// names none, and from_pretrained is how generate loads GPTQ; a persistent FP16 buffer of the
// largest matrix, temp_dq = qweight.numel() x 8 halves), ExLlamaV2 (AutoGPTQ's from_quantized
// default: a persistent scratch buffer, see InferenceConstants), Marlin (fused, a few KiB of
// workspace), or a plain dequantize-then-matmul path (triton/cuda-old/torch: the largest matrix in
// FP16 while it runs).
enum class GptqKernel { Exllamav2, Exllama, Marlin, Torch };

struct HfOptions {
    HfAttention attention = HfAttention::Sdpa;
    bool full_logits = false;  // logits for the whole prompt (transformers < 4.45 and model.forward)
    // transformers < 4.42 (before PR #30536): generate keeps the previous step's cache while the
    // model builds the next one (two copies of the KV cache at every decode step) and the prompt's
    // FP32 logits leak into the second step; the prompt's logits are computed in full (implies
    // full_logits). The PR's own analysis: "the memory peak consisted of 2*past_KV +
    // first_iteration_logits".
    bool legacy_cache = false;
    GptqKernel gptq_kernel = GptqKernel::Exllama;
    bool gptq_act_order = false;  // the checkpoint's quantize_config desc_act (ExLlama v1's temp_state)
    // bitsandbytes 4-bit compute dtype: BitsAndBytesConfig's bnb_4bit_compute_dtype defaults to
    // float32, so a prefill matmul dequantizes a weight to its 16-bit dtype and casts it to FP32.
    double bnb_compute_bytes = 4;
    // CUDA lazy module loading in effect (core/catalog/cuda_context.hpp lazy_loading_in_effect: CUDA
    // runtime >= 11.7 and driver >= 515, with CUDA_MODULE_LOADING=LAZY set by PyTorch >= 1.13 or the
    // driver's default from CUDA 12.2); false: the eager context (constants.cuda_context_eager_bytes).
    bool lazy_loading = true;
    // SDPA takes the K/V heads as they are (enable_gqa=True) instead of repeat_kv's copies:
    // transformers >= 4.54 (PR #39412, integrations/sdpa_attention.py use_gqa_in_sdpa) with PyTorch
    // >= 2.5 and no attention mask (one prompt length, no padding); otherwise SDPA, like eager, runs
    // on K and V expanded to every query head.
    bool sdpa_enable_gqa = false;
    // A bitsandbytes format (BitsAndBytesConfig load_in_4bit / load_in_8bit) leaves an MoE's routed
    // experts in the checkpoint's 16-bit dtype: transformers 5 stores them as fused 3-D nn.Parameters
    // and its bitsandbytes integration replaces nn.Linear modules only (bitsandbytes issue #1849;
    // docs/training.md "MoE experts under bitsandbytes"). false: transformers 4 (a ModuleList of
    // nn.Linear experts), or a loader that quantizes them (Unsloth).
    bool experts_unquantized = true;
    // bitsandbytes through LitGPT's --quantize bnb.* (Lightning Fabric's BitsandbytesPrecision)
    // instead of transformers' BitsAndBytesConfig: every nn.Linear is replaced, the LM head included
    // (the token embedding stays 16-bit); each weight is quantized from an FP16 copy, so a 4-bit
    // weight dequantizes to FP16 and is cast to the compute dtype; and each is quantized on the GPU
    // at init and again as the checkpoint loads (LLM.int8: double_quant's FP16 input and two int8
    // layouts beside the init's matrix). Lightning-AI/pytorch-lightning@71aed751
    // src/lightning/fabric/plugins/precision/bitsandbytes.py:130,189-221 (init_context, _quantize_weight).
    bool litgpt_quantize = false;
};

struct InferenceInputs {
    Engine engine = Engine::Vllm;
    QuantOptions weights{};        // weights.format: a name from weight_formats()
    WeightsFile weights_file{};    // exact bytes read from a model file (total_bytes 0: none)
    std::string kv_dtype = "auto"; // "auto": the model's 16-bit dtype (f16 in llama.cpp)
    std::string state_dtype = "auto";  // a hybrid's recurrent state: "auto" F32 in llama.cpp, the model dtype elsewhere
    int context = 4096;            // tokens per sequence, prompt + output (vLLM: max_model_len)
    int concurrency = 1;           // sequences in flight
    int prompt_tokens = 0;         // prefill length (TTFT, HF activations); 0 = context
    int tp = 0;                    // GPUs the model is split over (vLLM: tensor parallel; others: layers); 0 = the top-level gpus
    int block_size = 16;           // vLLM paged KV block, tokens
    bool swa_full = false;         // store the full context in sliding-window layers too
    VllmOptions vllm{};
    LlamaCppOptions llamacpp{};
    HfOptions hf{};
    SglangOptions sglang{};
    HostInputs host{};
    bool has_custom_gpu = false;   // custom_gpu replaces the catalog GPU (config "inference.gpu_custom")
    GpuSpec custom_gpu{};
    InferenceConstants constants{};
};

// A plan's GPU: a catalog entry by pointer (the catalog lives as long as the program), any other
// (a config's custom GPU) as a copy the plan owns, so a plan never points into what may go away
// first. Issue 15: copying a GpuSpec with its four strings into each plan for each catalog GPU was
// ~13% of the JS library's detailed estimate.
class PlanGpu {
public:
    PlanGpu() = default;
    PlanGpu(const PlanGpu& o) : own_(o.own_), at_(o.at_ == &o.own_ ? &own_ : o.at_) {}
    PlanGpu(PlanGpu&& o) noexcept : own_(std::move(o.own_)), at_(o.at_ == &o.own_ ? &own_ : o.at_) {}
    PlanGpu& operator=(const PlanGpu& o) {
        if (this != &o) {
            own_ = o.own_;
            at_ = o.at_ == &o.own_ ? &own_ : o.at_;
        }
        return *this;
    }
    PlanGpu& operator=(PlanGpu&& o) noexcept {
        if (this != &o) {
            own_ = std::move(o.own_);
            at_ = o.at_ == &o.own_ ? &own_ : o.at_;
        }
        return *this;
    }
    void set(const GpuSpec& g);  // points to g when it is in gpu_catalog(), else copies it
    const GpuSpec& operator*() const { return *at_; }
    const GpuSpec* operator->() const { return at_; }
    const GpuSpec* get() const { return at_; }

private:
    GpuSpec own_{};
    const GpuSpec* at_ = &own_;
};

// Everything one configuration needs, computed once; solvers evaluate memory_at() on it many times.
struct InferencePlan {
    Engine engine = Engine::Vllm;
    ModelSpec model{};
    ParamBreakdown params{};
    WeightBreakdown weights{};
    const WeightFormat* format = nullptr;
    const KvDtype* kv_dtype = nullptr;
    KvLayout kv{};
    int tp = 1;
    int block = 0;               // per-sequence paging (vLLM block size; 0: none)
    double weights_gpu = 0;      // weights on one GPU (vLLM: with its RoPE cos/sin table)
    double rope_cache = 0;       // vLLM: the rotary embedding's cos/sin table, counted with the weights
    bool mxfp4_experts = false;  // vLLM: the routed experts load as MXFP4 (FusedMoE's Mxfp4MoEMethod)
    bool bnb_experts_16bit = false;  // HF + bitsandbytes: the routed experts stay 16-bit (HfOptions::experts_unquantized)
    double moe_padding = 0;      // vLLM: MXFP4 expert bytes its Marlin MoE kernel adds by padding (set_plan_gpu)
    double runtime_gpu = 0;      // CUDA context / non-torch memory
    double graphs_gpu = 0;       // CUDA graphs (vLLM)
    double kv_share = 1;         // share of the KV cache on one GPU (layer split, partial offload)
    double dtype_bytes = 2;      // activation dtype
    double state_bytes = 4;      // a hybrid's recurrent state element (inference.state_dtype resolved)
    double ssm_state_bytes = 4;  // its SSM / delta state's element (vLLM's mamba_ssm_cache_dtype; state_bytes elsewhere)
    double dequant_bytes = 0;    // HF: one matrix dequantized (or re-laid out) during a prefill
    double load_transient = 0;   // HF: held above the weights while they load (LitGPT's LLM.int8 re-quantization)
    double kernel_scratch = 0;   // HF: persistent kernel buffers (GPTQ ExLlama/ExLlamaV2 scratch)
    double quant_temp_per_token = 0;  // HF: quantized matmul temporaries per prefill token (bitsandbytes)
    bool has_gpu = false;
    PlanGpu gpu{};
    double target_utilization = 0.75;
    // vLLM
    double budget = 0;           // gpu_memory_utilization x cudaMemGetInfo total
    double activation_peak = 0;  // profiled peak
    double pool = 0;             // KV pool: budget - weights - activation peak - non-torch
    bool p2p = true;             // the TP GPUs have peer access (vllm_gpu_p2p; set_plan_gpu)
    const char* all_reduce_off = nullptr;  // why custom all-reduce is off, nullptr: it runs (set_plan_gpu)
    // llama.cpp
    int gpu_layers = 0;          // layers on the GPU
    // -ngl unset with --fit (either profile; Ollama: num_gpu unset): the -ngl (and, for a MoE model,
    // the --n-cpu-moe) that llama-server's --fit chose (llamacpp_fit); -1 where the layers were
    // stated or the fit does not run.
    int auto_gpu_layers = -1;
    int auto_cpu_moe = -1;
    // Ollama with several GPUs, its prediction within ollama_single_gpu_share of one GPU's free
    // memory: the model loads on that GPU alone (ollama_single_gpu; n_devices 1). Set per GPU.
    bool ollama_one_gpu = false;
    // Ollama: the num_ctx asked for above the model's trained context, which Ollama lowers to that
    // context (start_plan; ollama/ollama@b7871fc:llm/server.go:111-116); 0: none lowered.
    double ollama_asked_context = 0;
    bool output_on_gpu = true;
    double host_bytes = 0;       // weights kept in system memory
    std::vector<int> layer_device;  // per repeating layer: GPU index, -1 = CPU
    std::vector<bool> experts_on_host;  // per layer: routed experts in host RAM (--n-cpu-moe)
    int output_device = -1;      // GPU of the output layer, -1 = CPU
    // -ot: tensors an override puts somewhere else than the layer placement (and --n-cpu-moe) do;
    // a GPU layer whose routed experts alone go to the CPU is marked in experts_on_host instead.
    struct TensorMove {
        int layer = -1;           // -1: token_embd or the head
        int from = -1, to = -1;   // devices: GPU index, -1 = host
        double bytes = 0;
        bool routed = false;      // routed experts: a decode step reads a share
        bool read = true;         // read whole by a decode step (false: token_embd, only rows looked up)
    };
    std::vector<TensorBytes> tensors;  // every weight tensor and its bytes, only with -ot (weight_bytes)
    std::vector<TensorMove> tensor_moves;
    double host_moved_largest = 0;  // the largest tensor -ot moves into host RAM (op offload copies it)
    int n_devices = 1;           // GPUs llama.cpp uses
    std::vector<double> row_share;  // --split-mode row: each GPU's share of every matrix
    double n_copies = 1;         // scheduler input copies (pipeline parallelism)
    bool cpu_only = false;       // gpu "cpu": no GPU, everything in system RAM
    double vision_weights = 0, vision_compute = 0;  // mmproj on the main GPU
    bool has_draft = false;
    ModelSpec draft_model{};
    WeightBreakdown draft_weights{};
    KvLayout draft_kv{};
    double gpu_capacity = 0;     // what one GPU may hold: its memory, or a Mac's working-set limit
    double ram_bytes = 0;        // system RAM to check host buffers against (0: unknown)
    InferenceInputs in{};
    // Ollama's one retry after a load that ran out of memory at its automatic num_ctx
    // (ollama_oom_retry): the num_ctx that failed (0: no retry), and whether the retry fails too.
    double ollama_oom_context = 0;
    bool ollama_oom_failed = false;
    // transformers with a format it dequantizes below a compute capability (hf_min_capability > 0):
    // the weights in BF16, swapped with `weights` on a GPU below it (set_plan_gpu; hf_dequantized).
    int hf_min_capability = 0;
    bool hf_dequantized = false;
    WeightBreakdown hf_bf16_weights{};
    // SGLang: the memory it sized at start-up on this GPU (sglang_set_gpu; pool and budget above hold its KV pool
    // and static budget)
    SglangMemory sglang{};
};

// Builds the plan for `cfg` (cfg.task must be inference). `tp` > 0 and `format` non-empty override
// the config (the solvers try several). Errors name the config field.
Outcome<InferencePlan> make_inference_plan(const Config& cfg, int tp = 0, const std::string& format = "");
// The quantized KV cache a suggestion offers for a 16-bit one ("auto", "f16", "bf16"): llama.cpp's
// q8_0, the other engines' fp8; nullptr when the cache is quantized already. One rule for `suggest`
// (core/advice.cpp) and best_format's "no format fits" (inference_solve.cpp).
const char* quantized_kv_choice(const InferenceInputs& in);

struct MemoryAt {
    double weights = 0, kv = 0, activations = 0, runtime = 0, graphs = 0;
    double extras = 0;  // llama.cpp: vision projector, draft model and LoRA adapters on this GPU
    double state = 0;   // of kv: a hybrid's recurrent states on this GPU, which hold no token (vLLM: 0, its pool is kv)
    double total() const { return weights + kv + activations + runtime + graphs + extras; }
};

// vLLM's KV pool in blocks and the tokens they hold: blocks of block_size tokens x every layer; a
// hybrid's blocks are one page of each layer of a KV cache group (kv_cache.hpp vllm_hybrid_pages) and
// its tokens those of the `context`-token sequences the pool holds, each with its state blocks.
struct VllmCapacity {
    double blocks = 0, tokens = 0;
};
VllmCapacity vllm_capacity(const InferencePlan& p, double context);

// Per-GPU memory with `concurrency` sequences of `context` tokens. For vLLM the KV entry is what
// those sequences occupy in the pool (the pool itself is plan.pool).
MemoryAt memory_at(const InferencePlan& p, double context, double concurrency);

// Hugging Face generate replayed through PyTorch's caching allocator (core/serve/caching_allocator):
// the prefill's tensors in a decoder layer's order, then DynamicCache growing every layer's K and
// V by torch.cat from the prompt to `context` tokens, with `limit` bytes for the allocator's
// segments (a failed cudaMalloc releases the free cached segments and retries; 0: no limit).
// Large pool only (requests over 1 MiB). Peaks in bytes; zeros for other engines.
struct HfAllocatorReplay {
    double peak_reserved = 0;   // what nvidia-smi reads of PyTorch's memory at most
    double peak_allocated = 0;  // torch.cuda.max_memory_allocated of the replayed tensors
    int releases = 0;           // cudaMalloc failures answered by releasing the cache
    int steps = 0;              // decode steps replayed
    double final_reserved = 0;  // reserved when generate returns (before any empty_cache)
    double mean_reserved = 0;   // reserved averaged over the decode steps
};
// Decode steps replayed at most (more tokens per replayed step beyond; the estimate's cost): a
// 13B replay at batch 16 over 512 tokens reads the same peak at 64, 128 and 1,024 steps.
constexpr int kHfReplaySteps = 128;
HfAllocatorReplay hf_allocator_replay(const InferencePlan& p, double context, double concurrency, double limit, int max_steps = kHfReplaySteps);
// Reserved but not allocated at the peaks: peak_reserved - peak_allocated (>= 0). Segments a
// failed cudaMalloc releases, so they raise nvidia-smi's reading but cause no OOM.
double hf_stranded_cache(const InferencePlan& p, double context, double concurrency, double limit);

// Whether `concurrency` sequences of `context` tokens fit one GPU: vLLM, in the KV pool; the
// others, within the GPU's memory x `share` (the target utilization, or 1 for "runs at all").
bool fits_at(const InferencePlan& p, double context, double concurrency, double share);

// The share of a GPU the load may use, one budget for the verdict, the GPU table and every answer:
// vLLM reserves gpu_memory_utilization up front and fills it with KV (its own headroom setting, so
// the whole reservation: 1.0 of what fits_at checks, the pool); the other engines grow with the
// load and are held to the config's target_utilization.
double budget_share(const InferencePlan& p);

// vLLM checks a quantized checkpoint's method against the GPU before it loads a weight:
// VllmConfig._get_quantization_config (vllm-project/vllm vllm/config/vllm.py) raises
// ValueError("The quantization method <method> is not supported for the current GPU. Minimum
// capability: <min>. Current capability: <cc>.") when the card's compute capability (x 10) is below
// the method's get_min_capability(); compressed-tensors checks each scheme the same way
// (_check_scheme_supported: RuntimeError "Quantization scheme is not supported for the current GPU.
// Min capability: ..."). One row per format whose minimum a catalog card misses (the V100 is 7.0,
// the T4 7.5), each sourced where it is declared (core/serve/inference.cpp); GPTQ (60), bitsandbytes (70) and the float formats need nothing a
// catalog card lacks. Between min_capability and native_capability vLLM loads the checkpoint with a
// fallback kernel (a warning, not a refusal): `fallback` says which.
struct VllmQuantGate {
    const char* format;     // the weights' format id (core/quant)
    const char* method;     // vLLM's quantization method (or compressed-tensors scheme) for it
    int min_capability;     // below it vLLM refuses the checkpoint
    int native_capability;  // below it (from min_capability) the fallback kernel runs; 0: none
    const char* fallback;   // that fallback, in words (nullptr: none)
};
// Every row (the first matching a format wins).
const std::vector<VllmQuantGate>& vllm_quant_gates();
// The row for the weights' format, or for the routed experts' format when that one needs more
// (gpt-oss: bf16 with MXFP4 experts); nullptr when the format has none.
const VllmQuantGate* vllm_quant_gate(const InferenceInputs& in);
// The compute capability (x 10) vLLM needs for the weights: inference.constants.vllm_min_capability
// when it is set (>= 0), else the gate's, else 0 (nothing).
int vllm_min_capability(const InferenceInputs& in);
// The compute capability (x 10) from which transformers keeps the weights' format quantized
// (inference.constants.hf_fp8_min_capability for fp8-block, hf_mxfp4_min_capability for mxfp4, the
// higher where the experts take another); 0 for a format it never dequantizes.
int hf_min_capability(const InferenceInputs& in);
// Whether transformers dequantizes the weights to BF16 on `gpu`: below hf_min_capability, or an
// Apple GPU (no CUDA or XPU device). A GPU of unknown capability (0) keeps them.
bool hf_dequantizes(const InferenceInputs& in, const GpuSpec& gpu);
// Whether vLLM loads the weights on `g`: a GPU without a known capability (AMD, a custom GPU)
// is not refused here.
bool vllm_format_loads(const InferenceInputs& in, const GpuSpec& g);
// Why a row of a vLLM estimate holds nothing on a card below the format's minimum
// (GpuFit::no_backend): "vLLM refuses the format below its compute capability".
extern const char* const kVllmCapability;

// The verdict at one shape, the one rule behind the GPU table (GpuFit's within_target,
// gpu_within_target, needs_ram_bytes and gpus_needed) and every what-fits answer
// (Answer::needs_ram_bytes, core/serve/inference_solve.cpp): the GPU part within `share` (fits_at,
// with system RAM when its size is given, and the GPU's whole total: vLLM's CUDA graphs lie outside
// its pool), and the system RAM llama.cpp's split keeps layers, experts or KV in with no RAM size
// given (llamacpp_unchecked_ram), which nothing checked. Within the target only without such RAM.
struct ShapeVerdict {
    bool gpu_within = false;     // the GPU part (and the RAM, when its size is given) within the share
    double needs_ram_bytes = 0;  // system RAM nobody checked, in bytes; 0: none, or checked
    bool within() const { return gpu_within && !(needs_ram_bytes > 0); }
};
ShapeVerdict verdict_at(const InferencePlan& p, double context, double concurrency, double share);

// Whether the engine places the layers itself for each shape: llama.cpp with -ngl unset, where
// llama-server's --fit (Ollama's automatic num_gpu) ran (auto_gpu_layers >= 0; llamacpp_fit), and
// with it Ollama's choice of one GPU of several (ollama_single_gpu). The what-fits answers that vary
// the context or the concurrency then place the plan again at each shape they try (place_at_shape).
bool placement_follows_shape(const InferencePlan& p);
// `p` placed as the engine places it for `concurrency` slots of `context` tokens: the plan's context
// and concurrency replaced and its GPU set again (set_plan_gpu, as the estimate sets each GPU of its
// table: Ollama's GPU choice, --fit's layers and experts, the weights and KV on the fullest GPU).
void place_at_shape(InferencePlan& p, double context, double concurrency);

// Decode and prefill speed from the roofline (needs plan.has_gpu).
struct Speed {
    double step_s = 0;              // one decode step for all sequences
    double tokens_per_s = 0;        // per sequence
    double tokens_per_s_total = 0;  // all sequences
    double prefill_s = 0;           // one prompt of prompt_tokens: time to first token
    bool memory_bound = true;
    double bytes_per_step = 0;      // per GPU
    double flops_per_step = 0;      // per GPU
    double host_bytes_per_step = 0; // llama.cpp: of bytes_per_step, read from system RAM (CPU-side weights, -nkvo's KV)
};
Speed inference_speed(const InferencePlan& p, double context, double concurrency, double prompt_tokens);

// llama.cpp speculative decoding with a draft model (-md): per slot, the draft proposes up to
// --draft-max tokens and the target verifies them in one batch (core/serve/inference.cpp has the
// model). Zeros without a draft or without the speed figures.
struct SpeculativeSpeed {
    double tokens_per_cycle = 0;     // tokens a slot gains per draft-and-verify cycle (accepted + the target's own)
    double draft_steps = 0;          // the draft's decode steps per cycle and slot
    double draft_step_s = 0;         // one draft decode step of one sequence
    double verify_s = 0;             // the target's forward over the drafted tokens (expected)
    double cycle_s = 0;              // every slot's drafts, then one verification batch
    double tokens_per_s = 0;         // per sequence, with the draft
    double tokens_per_s_total = 0;   // all sequences
    double tokens_per_s_no_draft = 0;
    double speedup = 0;              // tokens_per_s / tokens_per_s_no_draft
};
SpeculativeSpeed speculative_speed(const InferencePlan& p, double context, double concurrency, double prompt_tokens);

// The detailed inference estimate (core/estimate.cpp dispatches here).
Outcome<Estimate> inference_estimate(const Config& cfg);

}  // namespace vc
