// vramcalc core: detailed inference and serving memory, and speed from a roofline.
//
// [SECTIONS]
//   checks     input validation (every error names its config field)
//   plan       model, weights, KV layout and the engine's fixed memory, computed once
//   memory     per-GPU memory at a context and a concurrency (what solvers evaluate)
//   speed      decode and prefill from bandwidth and FLOPs
//   estimate   the Estimate: components, metrics, fits for every catalog GPU
#include "core/serve/inference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "core/catalog/cuda_context.hpp"
#include "core/catalog/fabrics.hpp"
#include "core/config.hpp"
#include "core/fields.hpp"
#include "core/gpu_choice.hpp"
#include "core/serve/caching_allocator.hpp"
#include "core/serve/llamacpp.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {

void PlanGpu::set(const GpuSpec& g) {
    const std::vector<GpuSpec>& catalog = gpu_catalog();
    const std::less<const GpuSpec*> before;  // a total order on pointers into different objects
    if (!before(&g, catalog.data()) && before(&g, catalog.data() + catalog.size())) {
        at_ = &g;
        return;
    }
    own_ = g;
    at_ = &own_;
}

const char* engine_name(Engine e) {
    return enum_name(kEngineNames, static_cast<int>(e));  // the field table's spelling (core/fields.cpp)
}

unsigned engine_mask(Engine e) {
    switch (e) {
        case Engine::Vllm: return kEngineVllm;
        case Engine::LlamaCpp: return kEngineLlamaCpp;
        case Engine::Hf: return kEngineHf;
        case Engine::Sglang: return kEngineSglang;
    }
    return 0;
}

// [SECTION] checks --------------------------------------------------------------------------------
namespace {

// Ranges: the field table's (core/fields.cpp), in the order they are reported. The plan's copy of
// the inputs is checked (its tp is resolved).
bool check_inputs(const InferenceInputs& in, Error& err) {
    const auto& v = in.vllm;
    const auto& k = in.constants;
    const HostInputs& h = in.host;
    if (!check_members({{"inference.context", in.context},
                        {"inference.concurrency", in.concurrency},
                        {"inference.prompt_tokens", in.prompt_tokens},
                        {"inference.block_size", in.block_size},
                        {"inference.vllm.gpu_memory_utilization", v.gpu_memory_utilization},
                        {"inference.vllm.max_num_batched_tokens", v.max_num_batched_tokens},
                        {"inference.vllm.max_num_seqs", v.max_num_seqs},
                        {"inference.vllm.activation_peak_gib", v.activation_peak_bytes},
                        {"inference.vllm.non_torch_gib", v.non_torch_bytes},
                        {"inference.vllm.cuda_graph_gib", v.cuda_graph_bytes},
                        {"inference.sglang.mem_fraction_static", in.sglang.mem_fraction_static},
                        {"inference.sglang.chunked_prefill_size", in.sglang.chunked_prefill_size},
                        {"inference.sglang.cuda_graph_max_bs", in.sglang.cuda_graph_max_bs},
                        {"inference.sglang.max_running_requests", in.sglang.max_running_requests},
                        {"inference.sglang.page_size", in.sglang.page_size},
                        {"inference.llamacpp.n_gpu_layers", in.llamacpp.n_gpu_layers},
                        {"inference.llamacpp.n_ubatch", in.llamacpp.n_ubatch},
                        {"inference.llamacpp.n_batch", in.llamacpp.n_batch},
                        {"inference.constants.cuda_context_gib", k.cuda_context_bytes},
                        {"inference.constants.cuda_context_eager_gib", k.cuda_context_eager_bytes},
                        {"inference.constants.cuda_stack_limit_bytes", k.cuda_stack_limit_bytes},
                        {"inference.constants.driver_reserved_gib", k.driver_reserved_bytes},
                        {"inference.constants.vllm_non_torch_gib", k.vllm_non_torch_bytes},
                        {"inference.constants.vllm_non_torch_tp_gib", k.vllm_non_torch_tp_bytes},
                        {"inference.constants.vllm_custom_all_reduce_mib", k.vllm_custom_all_reduce_bytes},
                        {"inference.constants.vllm_cuda_graph_gib", k.vllm_cuda_graph_bytes},
                        {"inference.constants.vllm_sampler_bytes_per_logit", k.vllm_sampler_bytes_per_logit},
                        {"inference.constants.vllm_flashinfer_sampler_bytes_per_logit", k.vllm_flashinfer_sampler_bytes_per_logit},
                        {"inference.constants.vllm_token_logit_bytes", k.vllm_token_logit_bytes},
                        {"inference.constants.vllm_indexer_value_bytes", k.vllm_indexer_value_bytes},
                        {"inference.constants.llamacpp_ctx_pad", k.llamacpp_ctx_pad},
                        {"inference.constants.bandwidth_efficiency", k.bandwidth_efficiency},
                        {"inference.constants.compute_efficiency", k.compute_efficiency},
                        {"inference.constants.host_bandwidth_gbps", k.host_bandwidth_gbps},
                        {"inference.constants.host_bandwidth_efficiency", k.host_bandwidth_efficiency},
                        {"inference.constants.pcie_gbps", k.pcie_gbps},
                        {"inference.constants.cpu_tflops", k.cpu_tflops},
                        {"inference.constants.llamacpp_sched_copies", k.llamacpp_sched_copies},
                        {"inference.constants.llamacpp_max_seq", k.llamacpp_max_seq},
                        {"inference.constants.ollama_num_ctx", k.ollama_num_ctx},
                        {"inference.constants.ollama_num_ctx_mid", k.ollama_num_ctx_mid},
                        {"inference.constants.ollama_num_ctx_large", k.ollama_num_ctx_large},
                        {"inference.constants.ollama_vram_mid_gib", k.ollama_vram_mid_gib},
                        {"inference.constants.ollama_vram_large_gib", k.ollama_vram_large_gib},
                        {"inference.constants.ollama_num_parallel", k.ollama_num_parallel},
                        {"inference.constants.ollama_num_batch", k.ollama_num_batch},
                        {"inference.constants.ollama_num_batch_medium", k.ollama_num_batch_medium},
                        {"inference.constants.ollama_num_batch_large", k.ollama_num_batch_large},
                        {"inference.constants.ollama_num_batch_constrained", k.ollama_num_batch_constrained},
                        {"inference.constants.ollama_batch_medium_ctx", k.ollama_batch_medium_ctx},
                        {"inference.constants.ollama_batch_large_ctx", k.ollama_batch_large_ctx},
                        {"inference.constants.ollama_batch_medium_headroom", k.ollama_batch_medium_headroom},
                        {"inference.constants.ollama_batch_large_headroom", k.ollama_batch_large_headroom},
                        {"inference.constants.ollama_batch_fit_share", k.ollama_batch_fit_share},
                        {"inference.constants.ollama_batch_medium_surcharge_mib", k.ollama_batch_medium_surcharge_mib},
                        {"inference.constants.ollama_batch_large_surcharge_mib", k.ollama_batch_large_surcharge_mib},
                        {"inference.constants.ollama_batch_constrained_gib", k.ollama_batch_constrained_gib},
                        {"inference.constants.ollama_single_gpu_share", k.ollama_single_gpu_share},
                        {"inference.constants.ollama_fit_target_mib", k.fit_target_bytes},
                        {"inference.constants.exllamav2_max_input_len", k.exllamav2_max_input_len},
                        {"inference.constants.exllamav2_max_batch_size", k.exllamav2_max_batch_size},
                        {"inference.constants.exllama_max_input_len", k.exllama_max_input_len},
                        {"inference.constants.bnb_int8_input_copies", k.bnb_int8_input_copies},
                        {"inference.constants.bnb_int8_output_bytes", k.bnb_int8_output_bytes},
                        {"inference.constants.torch_min_large_alloc_mib", k.torch_min_large_alloc_mib},
                        {"inference.constants.torch_round_large_mib", k.torch_round_large_mib},
                        {"inference.constants.vllm_min_capability", k.vllm_min_capability},
                        {"inference.constants.vllm_block_alignment", k.vllm_block_alignment},
                        {"inference.constants.vllm_group_ratio", k.vllm_group_ratio},
                        {"inference.constants.vllm_state_blocks", k.vllm_state_blocks},
                        {"inference.constants.sglang_tier1_gib", k.sglang_tier1_gib},
                        {"inference.constants.sglang_tier2_gib", k.sglang_tier2_gib},
                        {"inference.constants.sglang_tier3_gib", k.sglang_tier3_gib},
                        {"inference.constants.sglang_tier4_gib", k.sglang_tier4_gib},
                        {"inference.constants.sglang_tier5_gib", k.sglang_tier5_gib},
                        {"inference.constants.sglang_reserved_mib", k.sglang_reserved_mib},
                        {"inference.constants.sglang_min_activation_tokens", k.sglang_min_activation_tokens},
                        {"inference.constants.sglang_activation_mib_per_token", k.sglang_activation_mib_per_token},
                        {"inference.constants.sglang_parallel_mib", k.sglang_parallel_mib},
                        {"inference.constants.sglang_decode_graph_mib_per_bs", k.sglang_decode_graph_mib_per_bs},
                        {"inference.constants.sglang_prefill_graph_mib_per_size", k.sglang_prefill_graph_mib_per_size},
                        {"inference.constants.sglang_mla_prefill_graph_mib", k.sglang_mla_prefill_graph_mib},
                        {"inference.constants.sglang_reserved_floor_mib", k.sglang_reserved_floor_mib},
                        {"inference.constants.sglang_floor_from_gib", k.sglang_floor_from_gib},
                        {"inference.constants.sglang_max_prefill_tokens", k.sglang_max_prefill_tokens},
                        {"inference.constants.sglang_req_pool_per_token_ratio", k.sglang_req_pool_per_token_ratio},
                        {"inference.constants.sglang_req_pool_min", k.sglang_req_pool_min},
                        {"inference.constants.sglang_req_pool_max", k.sglang_req_pool_max},
                        {"inference.constants.sglang_req_context_pad", k.sglang_req_context_pad},
                        {"inference.constants.hf_fp8_min_capability", k.hf_fp8_min_capability},
                        {"inference.constants.hf_mxfp4_min_capability", k.hf_mxfp4_min_capability},
                        {"inference.host.ram_gib", h.ram_bytes},
                        {"inference.host.channels", h.channels},
                        {"inference.host.mts", h.mts},
                        {"inference.host.bandwidth_gbps", h.bandwidth_gbps},
                        {"inference.host.cpu_tflops", h.cpu_tflops},
                        {"inference.host.wired_limit_mb", h.wired_limit_mb}},
                       err))
        return false;
    return !in.has_custom_gpu || check_custom_gpu(in.custom_gpu, err);
}

bool gated(const ModelSpec& m) { return m.mlp != MlpKind::Gelu; }

}  // namespace

// vllm_no_metal below: vLLM's docs, cpu.apple.inc.md.
const char* const kVllmNoMetal = "vLLM has no Metal backend";
// SGLang on a Mac (start_plan, the GPU table): SGLang's MLX backend (SGLANG_USE_MLX) is not modelled.
const char* const kSglangNoMetal = "SGLang's CUDA / ROCm memory is modelled, not its MLX backend on a Mac";
// vllm_format_loads: vllm_quant_gates.
const char* const kVllmCapability = "vLLM refuses the format below its compute capability";

const std::vector<VllmQuantGate>& vllm_quant_gates() {
    static const std::vector<VllmQuantGate> gates = {
        // gpt-oss's checkpoints ("quant_method": "mxfp4"): vllm-project/vllm@007d500
        // vllm/model_executor/layers/quantization/mxfp4.py:186 Mxfp4Config.get_min_capability: 80.
        {"mxfp4", "mxfp4", 80, 0, nullptr},
        // vllm-project/vllm@000796a:vllm/model_executor/layers/quantization/awq.py:54-56
        // AWQConfig.get_min_capability: 75 ("The AWQ kernel only supports Turing or newer GPUs");
        // awq_marlin takes over from 8.0 only, so below 7.5 nothing loads it.
        {"awq-int4", "awq", 75, 0, nullptr},
        // vllm-project/vllm@0071b24:vllm/model_executor/layers/quantization/fp8.py:98-99
        // Fp8Config.get_min_capability: 80; :178-181 Fp8LinearMethod: use_marlin = not
        // has_device_capability(89) ("For GPUs that lack FP8 hardware support, we can leverage the
        // Marlin kernel for fast weight-only FP8 quantization").
        // fp8, fp8-channel and fp8-block: this row (a format or its "-" variants).
        {"fp8", "fp8", 80, 89, "weight-only FP8 through the Marlin kernel (no FP8 tensor cores)"},
        // INT8 W8A8 (SmoothQuant, compressed-tensors): vllm-project/vllm@00ba7ff
        // vllm/model_executor/layers/quantization/compressed_tensors/schemes/compressed_tensors_w8a8_int8.py:29-32
        // CompressedTensorsW8A8Int8.get_min_capability: 75 ("turing and up").
        {"w8a8", "compressed-tensors W8A8 INT8", 75, 0, nullptr},
    };
    return gates;
}

namespace {
const VllmQuantGate* gate_of(const std::string& format) {
    const std::string id = ascii_lower(format);
    for (const auto& g : vllm_quant_gates())
        if (id == g.format || id.rfind(std::string(g.format) + "-", 0) == 0) return &g;
    return nullptr;
}
// "7.5" for 75.
std::string capability_text(int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); }
}  // namespace

const VllmQuantGate* vllm_quant_gate(const InferenceInputs& in) {
    const VllmQuantGate* g = gate_of(in.weights.format);
    const VllmQuantGate* e = in.weights.experts_format.empty() ? nullptr : gate_of(in.weights.experts_format);
    return e && (!g || e->min_capability > g->min_capability) ? e : g;
}

int vllm_min_capability(const InferenceInputs& in) {
    if (in.constants.vllm_min_capability >= 0) return static_cast<int>(in.constants.vllm_min_capability);
    const VllmQuantGate* g = vllm_quant_gate(in);
    return g ? g->min_capability : 0;
}

bool vllm_format_loads(const InferenceInputs& in, const GpuSpec& g) {
    return g.compute_capability <= 0 || g.compute_capability >= vllm_min_capability(in);
}

int hf_min_capability(const InferenceInputs& in) {
    auto gate = [&](const std::string& format) {
        const std::string id = ascii_lower(format);
        return id == "fp8-block" ? in.constants.hf_fp8_min_capability : id == "mxfp4" ? in.constants.hf_mxfp4_min_capability : 0.0;
    };
    return static_cast<int>(std::max(gate(in.weights.format), gate(in.weights.experts_format)));
}

bool hf_dequantizes(const InferenceInputs& in, const GpuSpec& gpu) {
    const int need = hf_min_capability(in);
    return need > 0 && (gpu_vendor(gpu) == "apple" || (gpu.compute_capability > 0 && gpu.compute_capability < need));
}

// [SECTION] plan ----------------------------------------------------------------------------------
namespace {

// The sampler's peak per logit in vLLM's dummy sampler run (inference.vllm.sampler).
double vllm_sampler_bytes(const InferenceInputs& in) {
    return in.vllm.sampler == VllmSampler::Flashinfer ? in.constants.vllm_flashinfer_sampler_bytes_per_logit
                                                       : in.constants.vllm_sampler_bytes_per_logit;
}

// vLLM's non-torch memory on one GPU, by the plan's P2P and custom all-reduce decisions (set_plan_gpu):
// the measured figure when the config gives one, else the CUDA runtime, with TP the NCCL part, and
// custom all-reduce's buffers when it runs.
double vllm_non_torch(const InferencePlan& p) {
    const InferenceInputs& in = p.in;
    const auto& k = in.constants;
    if (in.vllm.non_torch_bytes >= 0) return in.vllm.non_torch_bytes;
    if (in.tp <= 1) return k.vllm_non_torch_bytes;
    // Without P2P NCCL's SHM transport keeps the connections' buffers in host memory: no NCCL part.
    const double nccl = p.p2p ? std::max(0.0, k.vllm_non_torch_tp_bytes - k.vllm_custom_all_reduce_bytes) : 0.0;
    return k.vllm_non_torch_bytes + nccl + (p.all_reduce_off ? 0 : k.vllm_custom_all_reduce_bytes);
}

// The assumptions of the two above, for the estimate's components.
std::string vllm_sampler_text(const InferenceInputs& in) {
    if (in.vllm.profile_all_tokens) return num(in.constants.vllm_token_logit_bytes) + " B (logits, FP32 copy, probabilities)";
    return num(vllm_sampler_bytes(in)) + (in.vllm.sampler == VllmSampler::Flashinfer
                                              ? " B (FlashInfer sampler: 16-bit logits, FP32 copy, masked copy, probabilities; no sort)"
                                              : " B (PyTorch top-k/top-p: 16-bit logits, FP32 copy, sorted values, int64 indices, probabilities, cumsum)");
}
std::string vllm_non_torch_text(const InferencePlan& p) {
    const InferenceInputs& in = p.in;
    if (in.vllm.non_torch_bytes >= 0) return "measured value from the config";
    const std::string runtime = std::string(gpu_runtime_name(p.has_gpu ? p.gpu.get() : nullptr)) + " runtime";
    if (in.tp <= 1) return runtime;
    const std::string nccl = p.p2p ? runtime + " + NCCL buffers" : runtime + "; NCCL buffers in host memory (no P2P: SHM transport)";
    if (!p.all_reduce_off) return nccl + " + custom all-reduce IPC buffers " + num(in.constants.vllm_custom_all_reduce_bytes / 1048576) + " MiB";
    return nccl + "; custom all-reduce off (" + p.all_reduce_off + ")";
}

// The profiled activation peak of a vLLM-like engine: one forward over max_num_batched_tokens
// tokens (the residual stream plus the largest of the attention projections and the MLP), then
// the logits and the sampler (docs/inference.md, "vLLM profile").
// One forward over T tokens at once on one GPU (vLLM's profile, SGLang's chunked prefill).
double forward_activation_bytes(const InferencePlan& p, double T) {
    const ModelSpec& m = p.model;
    const double B = p.dtype_bytes, h = m.hidden, tp = p.tp;
    const double heads = m.heads / tp;
    double attn_width;
    if (m.kv_lora_rank > 0)
        attn_width = heads * (m.qk_nope_head_dim + m.qk_rope_head_dim) + m.kv_lora_rank + m.qk_rope_head_dim +
                     heads * (m.qk_nope_head_dim + m.v_head_dim) + heads * m.v_head_dim;
    else
        attn_width = (heads + 2 * p.kv.kv_heads_per_gpu) * m.head_dim + heads * m.head_dim;
    const double dense_mlp = dense_mlp_layers(m) > 0 ? (gated(m) ? 3.0 : 2.0) * m.ffn / tp : 0;
    // fused_moe: per token and chosen expert, the gate/up output (2N), the activation (N) and the
    // expert's output (h) before the weighted sum.
    const double moe = m.experts > 0 ? m.top_k * ((gated(m) ? 3.0 : 2.0) * m.expert_ffn / tp + h) : 0;
    return T * B * (2 * h + std::max({attn_width, dense_mlp, moe}));
}

// vLLM's profiled peak: that forward over max_num_batched_tokens, or the logits and the sampler, the larger.
double vllm_activation_peak(const InferencePlan& p) {
    const ModelSpec& m = p.model;
    const auto& v = p.in.vllm;
    const double T = v.max_num_batched_tokens, B = p.dtype_bytes, h = m.hidden;
    const double forward = forward_activation_bytes(p, T);
    const double rows = v.profile_all_tokens ? T : std::min<double>(v.max_num_seqs, T);
    const double per_logit = v.profile_all_tokens ? p.in.constants.vllm_token_logit_bytes : vllm_sampler_bytes(p.in);
    const double logits = T * h * B + rows * m.vocab * per_logit;
    return std::max(forward, logits);
}

// vLLM's MXFP4 MoE backend is Marlin on every NVIDIA card but compute capability 9.x and 10.x
// (vllm/model_executor/layers/quantization/mxfp4.py at 007d500, get_mxfp4_backend: FlashInfer
// only on SM90 / SM100 when installed, OpenAI's triton_kernels only for 9.0 <= capability < 11.0,
// else "Using Marlin backend"): the A100, A10G, L4, L40S, RTX 30/40/50 cards. On the H100, H200 and
// B200 the backend depends on what is installed (not modelled); AMD and a custom GPU: not known.
// Below 8.0 (V100, T4) Mxfp4Config.get_min_capability (80) refuses the checkpoint: no padding taken.
bool vllm_mxfp4_marlin(const GpuSpec& g) {
    const int cc = g.compute_capability;
    return cc >= 80 && (cc < 90 || cc >= 110);
}

// Mxfp4MoEMethod.create_weights pads each expert for the Marlin MoE kernel ("n % 256 == 0 and
// k % 128 == 0"): the intermediate size per TP rank up to a multiple of 128, the hidden size up to
// 256 (mxfp4.py above). gpt-oss-20b: 2880 -> 2944 and 3072, 0.85 GiB over 24 layers x 32 experts.
// The padding's MXFP4 bytes (4 bits + an E8M0 scale per 32) on one GPU.
double vllm_marlin_moe_padding(const InferencePlan& p) {
    const ModelSpec& m = p.model;
    auto round_up = [](double x, double to) { return std::ceil(x / to) * to; };
    const double inter = static_cast<double>(m.expert_ffn) / p.tp, h = m.hidden;
    const double matrices = gated(m) ? 3 : 2;  // gate + up (w13) and down (w2)
    const double extra = matrices * (round_up(inter, 128) * round_up(h, 256) - inter * h) * m.experts * moe_layer_count(m);
    const WeightFormat* mx = find_weight_format("mxfp4");
    return extra * (mx->element_bits + mx->block_bits / mx->block) / 8;
}

// The CUDA context of llama.cpp and transformers (vLLM counts its non-torch memory instead): the
// constant when the config gives one, else the model (core/catalog/cuda_context.hpp), lazy for
// llama.cpp, by hf.lazy_loading for transformers. Its bytes on `gpu` (every GPU's fit), and how
// the plan's own was reached (the estimate's text).
bool serving_lazy(const InferenceInputs& in) { return in.engine != Engine::Hf || in.hf.lazy_loading; }
double serving_given_context(const InferenceInputs& in) {
    return serving_lazy(in) ? in.constants.cuda_context_bytes : in.constants.cuda_context_eager_bytes;
}
double serving_context_bytes(const InferenceInputs& in, const GpuSpec* gpu) {
    const double given = serving_given_context(in);
    return given >= 0 ? given : cuda_context_bytes(gpu, serving_lazy(in), in.constants.cuda_stack_limit_bytes);
}
std::string serving_context_formula(const InferencePlan& p) {
    const bool lazy = serving_lazy(p.in);
    if (serving_given_context(p.in) >= 0)
        return std::string("as given (inference.constants.") + (lazy ? "cuda_context_gib)" : "cuda_context_eager_gib)");
    return cuda_context(p.has_gpu ? p.gpu.get() : nullptr, lazy, p.in.constants.cuda_stack_limit_bytes).formula;
}

// vLLM has no Metal GPU backend: on macOS it builds for the CPU, "VLLM_TARGET_DEVICE is
// automatically set to cpu, which is currently the only supported device" (vllm-project/vllm
// docs/getting_started/installation/cpu.apple.inc.md). The vllm-metal plugin (vllm-project/
// vllm-metal@211a1e4, MLX) sizes its KV pool from Metal's working-set limit instead
// (vllm_metal/v1/cache_policy.py base_kv_budget_bytes: limit x fraction - model - profile overhead)
// and loads MLX weights: neither is modelled, so a Mac with the vLLM engine is refused.
bool vllm_no_metal(const GpuSpec& g) { return gpu_vendor(g) == "apple"; }

void hf_place_weights(InferencePlan& p);  // below: it needs the quantized layers' buffers

// Sets the GPU and what depends on it (the CUDA context, vLLM's budget and KV pool).
void set_plan_gpu(InferencePlan& p, const GpuSpec* gpu) {
    p.has_gpu = gpu != nullptr;
    if (gpu) p.gpu.set(*gpu);
    p.gpu_capacity = gpu ? gpu->memory_bytes : 0;
    if (p.engine != Engine::Vllm && !p.cpu_only) p.runtime_gpu = serving_context_bytes(p.in, gpu);
    if (p.engine == Engine::Hf && p.hf_min_capability > 0) {
        // transformers dequantizes the checkpoint to BF16 below the format's compute capability.
        if (const bool dq = gpu && hf_dequantizes(p.in, *gpu); dq != p.hf_dequantized) {
            std::swap(p.weights, p.hf_bf16_weights);
            p.hf_dequantized = dq;
            hf_place_weights(p);
        }
    }
    if (p.engine == Engine::LlamaCpp) {
        if (gpu) {
            llamacpp_set_gpu(p);
            // Ollama with several GPUs loads a model its prediction puts within ollama_single_gpu_share
            // of one GPU's free memory on that GPU alone: the layers are placed again when that
            // changes on this GPU.
            Error ignored;  // the placement's inputs were checked by llamacpp_setup already
            if (const bool one = ollama_single_gpu(p); one != p.ollama_one_gpu) p.ollama_one_gpu = one, llamacpp_setup(p, ignored);
            // -ngl unset (Ollama: num_gpu unset): llama-server's --fit places the layers (and
            // experts) by this GPU's memory less the CUDA context, so each GPU the plan is set on
            // gets its own.
            if (p.auto_gpu_layers >= 0 || llamacpp_fit_applies(p)) llamacpp_fit(p, p.runtime_gpu, ignored);
        }
        const LlamaCppBuffers b = llamacpp_buffers(p, 1, 1);
        // The share of the per-token KV (a hybrid's recurrent states left out: they hold no token).
        double kv_gpu = 0, kv_all = b.host.kv - b.host.state;
        for (const auto& g : b.gpus) kv_all += g.kv - g.state;
        if (!b.gpus.empty()) {
            p.weights_gpu = b.gpus[static_cast<size_t>(b.fullest)].model;
            kv_gpu = b.gpus[static_cast<size_t>(b.fullest)].kv - b.gpus[static_cast<size_t>(b.fullest)].state;
        }
        p.kv_share = kv_all > 0 ? kv_gpu / kv_all : 0;
    }
    if (p.engine == Engine::Sglang) {
        // The weights on one GPU (with the RoPE table), then what SGLang sizes at start-up (core/serve/sglang.cpp);
        // its prefill activations: one forward over a chunk.
        p.weights_gpu = p.weights.per_gpu + p.rope_cache;
        sglang_set_gpu(p, gpu);
        p.graphs_gpu = p.sglang.graph_bytes;
        p.activation_peak = forward_activation_bytes(p, sglang_activation_tokens(p));
        return;
    }
    if (p.engine != Engine::Vllm) return;
    p.p2p = vllm_gpu_p2p(p.in.vllm.p2p, gpu);
    p.all_reduce_off = vllm_custom_all_reduce_off(p.in.vllm.custom_all_reduce, p.in.tp, gpu, p.p2p);
    p.runtime_gpu = vllm_non_torch(p);
    p.moe_padding = p.mxfp4_experts && gpu && vllm_mxfp4_marlin(*gpu) ? vllm_marlin_moe_padding(p) : 0;
    p.weights_gpu = p.weights.per_gpu + p.rope_cache + p.moe_padding;
    if (!gpu) return;
    const double total = std::max(0.0, gpu->memory_bytes - p.in.constants.driver_reserved_bytes);
    p.budget = p.in.vllm.gpu_memory_utilization * total;
    p.pool = p.budget - p.weights_gpu - p.activation_peak - p.runtime_gpu;
}

}  // namespace

namespace {

// A layer's quantized projections as (in, out): q, k/v, o, gate/up (fc1), down (fc2); MoE experts
// by their own width.
struct Projections {
    double shapes[5][2];
};
Projections projections(const ModelSpec& m) {
    const double h = m.hidden, q = static_cast<double>(m.heads) * m.head_dim, kv = static_cast<double>(m.kv_heads) * m.head_dim;
    const double f = std::max<double>(m.ffn, m.experts > 0 ? m.expert_ffn : 0);
    return Projections{{{h, q}, {h, kv}, {q, h}, {h, f}, {f, h}}};
}

// The largest weight matrix outside the routed experts: q, k/v or o, a dense layer's MLP, a shared expert.
double largest_non_expert_matrix(const ModelSpec& m) {
    const Projections p = projections(m);
    const double h = m.hidden;
    double out = std::max({p.shapes[0][0] * p.shapes[0][1], p.shapes[1][0] * p.shapes[1][1], p.shapes[2][0] * p.shapes[2][1]});
    if (dense_mlp_layers(m) > 0) out = std::max(out, h * m.ffn);
    if (m.shared_experts > 0) out = std::max(out, h * m.expert_ffn);
    return out;
}

// Per prefill token, the most a quantized projection's temporaries take beside its 16-bit output:
// in_bytes per input element and out_bytes per output element.
double matmul_temporaries(const ModelSpec& m, double in_bytes, double out_bytes) {
    double out = 0;
    for (const auto& s : projections(m).shapes) out = std::max(out, s[0] * in_bytes + s[1] * out_bytes);
    return out;
}

// Persistent buffers of the GPTQ kernels, sized by the largest quantized projection (in x out).
double gptq_scratch(const ModelSpec& m, GptqKernel kernel, bool act_order, const InferenceConstants& k) {
    const double rows = k.exllamav2_max_input_len * k.exllamav2_max_batch_size;
    double out = 0, inner_outer = 1;
    for (const auto& s : projections(m).shapes) {
        const double in_f = s[0], out_f = s[1];
        inner_outer = std::max({inner_outer, in_f, out_f});
        switch (kernel) {
            // temp_dq (in x out halves) + temp_fwd (out x rows FP32), 128 B of alignment each.
            case GptqKernel::Exllamav2: out = std::max(out, in_f * out_f * 2 + 128 + out_f * rows * 4 + 128); break;
            // temp_dq: the largest qweight.numel() x 8 halves = in x out x 2 B.
            case GptqKernel::Exllama: out = std::max(out, in_f * out_f * 2); break;
            case GptqKernel::Marlin:
            case GptqKernel::Torch: break;
        }
    }
    // ExLlama v1's temp_state: max_input_len x max_inner_outer_dim halves with act-order; without
    // it 1 x 1 (AutoGPTQ autogptq_post_init), nothing here.
    if (kernel == GptqKernel::Exllama && act_order) out += k.exllama_max_input_len * inner_outer * 2;
    return out;
}

// transformers (layers split by device_map): the weights on the fullest GPU and what the quantized
// layers hold beside them; again when set_plan_gpu swaps in the dequantized weights.
void hf_place_weights(InferencePlan& p) {
    const InferenceInputs& in = p.in;
    const ModelSpec& m = p.model;
    const double layer_total = std::max(0.0, p.weights.total - p.weights.embedding - p.weights.output);
    const double layers_share = std::ceil(static_cast<double>(m.layers) / in.tp) / m.layers;  // the fullest GPU
    p.dequant_bytes = p.kernel_scratch = p.quant_temp_per_token = p.load_transient = 0;
    // Quantized layers dequantize one matrix at a time for a prefill matmul: bitsandbytes
    // 4-bit to the 16-bit dtype and then to its compute dtype; GPTQ/AWQ kernels to the
    // dtype at large batch; LLM.int8's first pass keeps a second int8 layout of a matrix.
    // GPTQ's ExLlama kernels dequantize into a persistent buffer instead (gptq_scratch).
    // Per prefill token, bitsandbytes' matmuls hold temporaries beside their 16-bit output:
    // LLM.int8's int8 input copies and int32 accumulator (InferenceConstants); Linear4bit
    // casts its input to the compute dtype and returns the matmul's output in it before
    // .to(inp_dtype) (bitsandbytes nn/modules.py Linear4bit.forward).
    const std::string id = p.format->id;
    const double compute = in.hf.bnb_compute_bytes;
    // With the routed experts left 16-bit, the largest matrix a bitsandbytes layer dequantizes
    // is a non-expert one.
    // LitGPT's quantized LM head (vocab x hidden) is a matrix it dequantizes too.
    const bool litgpt = in.hf.litgpt_quantize && id.rfind("bnb-", 0) == 0;
    const double head = litgpt && p.weights.output > 0 ? static_cast<double>(m.vocab) * m.hidden : 0;
    const double largest = std::max(p.bnb_experts_16bit ? largest_non_expert_matrix(m) : p.weights.largest_matrix, head);
    if (id.rfind("bnb-int8", 0) == 0) {
        p.dequant_bytes = largest;
        p.quant_temp_per_token = matmul_temporaries(m, in.constants.bnb_int8_input_copies, in.constants.bnb_int8_output_bytes);
        // LitGPT quantizes each Linear8bitLt at init on the GPU and again when the checkpoint
        // loads, while the init's int8 matrix is still held: the FP16 copy and double_quant's
        // out_col and out_row, 2 + 1 + 1 B an element of the largest matrix (lm_head, created
        // and loaded first) above the weights. Lightning-AI/pytorch-lightning@71aed751
        // src/lightning/fabric/plugins/precision/bitsandbytes.py:189,194,198;
        // bitsandbytes-foundation/bitsandbytes@18e827d6 (0.41.1) bitsandbytes/functional.py:2003-2005.
        if (litgpt) p.load_transient = largest * (2 + 1 + 1);
    } else if (litgpt) {
        // Lightning quantizes from torch.half (bitsandbytes.py:221 at 71aed751), so dequantize_4bit
        // returns FP16 and MatMul4Bit.forward's `.to(A.dtype)` copies it to the compute dtype
        // (bitsandbytes@18e827d6 bitsandbytes/autograd/_functions.py:516): 2 B + the compute
        // dtype's bytes (16-bit taken as LitGPT's default bf16-true; 16-true computes in FP16
        // and holds the FP16 copy alone).
        p.dequant_bytes = largest * (2 + compute);
        if (compute != p.dtype_bytes) p.quant_temp_per_token = matmul_temporaries(m, compute, compute);
    } else if (id.rfind("bnb-", 0) == 0) {
        p.dequant_bytes = largest * (p.dtype_bytes + (compute != p.dtype_bytes ? compute : 0));
        if (compute != p.dtype_bytes) p.quant_temp_per_token = matmul_temporaries(m, compute, compute);
    } else if (id.rfind("gptq", 0) == 0) {
        p.kernel_scratch = gptq_scratch(m, in.hf.gptq_kernel, in.hf.gptq_act_order, in.constants);
        if (in.hf.gptq_kernel == GptqKernel::Torch) p.dequant_bytes = p.weights.largest_matrix * p.dtype_bytes;
    } else if (id.rfind("awq", 0) == 0) {
        p.dequant_bytes = p.weights.largest_matrix * p.dtype_bytes;
    } else if (id == "fp8-block" && !p.hf_dequantized) {
        // FP8Linear.forward quantizes its input per token and 128 inputs (act_quant: an FP8 copy and an
        // FP32 scale per block) before w8a8_block_fp8_matmul_triton writes the 16-bit output
        // (huggingface/transformers@0095b97 src/transformers/integrations/finegrained_fp8.py).
        p.quant_temp_per_token = matmul_temporaries(m, p.format->element_bits / 8 + 4.0 / p.format->tile, 0);
    }
    p.weights_gpu = in.tp > 1 ? layer_total * layers_share + std::max(p.weights.embedding, p.weights.output) : p.weights.total;
    p.kv_share = in.tp > 1 ? layers_share : 1;
}

}  // namespace

namespace {

// A plan before the GPU count places anything: the inputs checked, the model resolved, the weights
// summed at the config's own count, the formats and the KV layout. From it a plan at another count
// (plan_at_count) redoes only what the count changes.
struct PlanStart {
    InferencePlan plan;
    const GpuSpec* catalog_gpu = nullptr;  // the catalog's GPU (a custom one lives in plan.in; none: no gpu or "cpu")
    TpShards shards;                       // vLLM, with_shards: the weights on one GPU at any tensor-parallel degree
};

// The GPU `p` is made for: its custom one, else the catalog's.
const GpuSpec* plan_gpu(const InferencePlan& p, const GpuSpec* catalog_gpu) { return p.in.has_custom_gpu ? &p.in.custom_gpu : catalog_gpu; }

// vLLM's one page size for a hybrid's attention and state layers (kv_cache.hpp vllm_hybrid_pages).
void vllm_pages(InferencePlan& p) {
    const InferenceConstants& k = p.in.constants;
    vllm_hybrid_pages(p.kv, attention_layer_count(p.model), p.in.block_size, static_cast<int>(k.vllm_block_alignment), k.vllm_group_ratio,
                      static_cast<int>(k.vllm_state_blocks));
}

// Bytes a value of DeepSeek-V3.2's lightning-indexer key takes in the engine's cache: vLLM's FP8 + scale layout
// (inference.constants.vllm_indexer_value_bytes); llama.cpp's K type (ggml-org/llama.cpp@035aa95:src/llama-kv-cache-dsa.cpp,
// kv_lid a llama_kv_cache of type_k) and transformers' model dtype (huggingface/transformers@01f8fa5:src/transformers/
// models/deepseek_v32/modular_deepseek_v32.py DeepseekV32Indexer.forward, past_key_values.update_indexer(k)): the K cache
// type's, its per-vector scales spread over the key's values.
double indexer_value_bytes(const InferenceInputs& in, const ModelSpec& m, const KvDtype& k_type) {
    // SGLang's NSATokenToKVPool keeps the same FP8 + scale key (sgl-project/sglang@001ccef:python/sglang/srt/model_executor/
    // model_runner_kv_cache_mixin.py get_cell_size_per_token: index_head_dim + index_head_dim // 128 x 4 bytes).
    if (tensor_parallel_engine(in.engine)) return in.constants.vllm_indexer_value_bytes;
    return k_type.bytes_per_element + (m.index_head_dim > 0 ? k_type.bytes_per_vector / m.index_head_dim : 0);
}

// Whether sliding-window layers keep at most their window: not with swa_full, nor under SGLang, whose one pool holds
// every layer's K and V for each token it counts (its hybrid-SWA pool for some architectures is not modelled).
bool caps_windows(const InferenceInputs& in) { return !in.swa_full && in.engine != Engine::Sglang; }

// vLLM's SSM / delta state element (--mamba-ssm-cache-dtype): "auto" keeps the conv state's (mamba_utils.py _mamba_state_dtype)
// unless the model's config.json states one (model.ssm_cache_dtype: vLLM's NemotronHForCausalLMConfig hook reads
// mamba_ssm_cache_dtype from the HF config, in vLLM after 1936cf3); the other engines keep one element for both.
// False for a name vLLM does not take (MambaDType: auto, float32, float16, bfloat16).
bool vllm_ssm_state_bytes(InferencePlan& p, const InferenceInputs& in, const ModelSpec& m) {
    p.ssm_state_bytes = p.state_bytes;
    std::string id = ascii_lower(in.vllm.mamba_ssm_cache_dtype);
    if (id == "auto" && in.engine == Engine::Vllm && !m.ssm_cache_dtype.empty()) id = m.ssm_cache_dtype;
    if (id == "float32" || id == "fp32") p.ssm_state_bytes = in.engine == Engine::Vllm ? 4 : p.state_bytes;
    else if (id == "bfloat16" || id == "float16" || id == "bf16" || id == "fp16") p.ssm_state_bytes = in.engine == Engine::Vllm ? 2 : p.state_bytes;
    else if (id != "auto") return false;
    return true;
}

// Engines other than vLLM split whole layers across GPUs.
bool check_layer_split(const InferenceInputs& in, const ModelSpec& m, Error& err) {
    if (tensor_parallel_engine(in.engine) || in.tp <= m.layers) return true;
    err = Error{"inference.tp", "inference.tp (" + std::to_string(in.tp) + ") must be at most model.layers (" + std::to_string(m.layers) +
                                    "): " + engine_name(in.engine) + " splits whole layers across GPUs"};
    return false;
}

Outcome<PlanStart> start_plan(const Config& cfg, int tp_override, const std::string& format_override, bool with_shards) {
    using R = Outcome<PlanStart>;
    PlanStart start;
    InferencePlan& p = start.plan;
    p.in = cfg.inference;
    InferenceInputs& in = p.in;
    Error err;
    static const FieldDef& tp_field = *find_field("inference.tp");
    if (!check_number(tp_field, in.tp, err)) return R::failure(Error{err.field, err.message + " (0: the top-level gpus)"});
    if (in.tp == 0) {  // the top-level "gpus": its own range (the one --help gives), then inference.tp's
        static const FieldDef& gpus_field = *find_field("gpus");
        if (!check_number(gpus_field, cfg.gpus, err)) return R::failure(err);
        if (cfg.gpus > tp_field.max)
            return R::failure(Error{"gpus", "gpus (" + num(cfg.gpus) + ") is the tensor-parallel size here (inference.tp 0: the top-level gpus), " +
                                                "and inference.tp must be in " + field_range_text(tp_field) + ": set inference.tp or fewer gpus"});
        in.tp = static_cast<int>(cfg.gpus);
    }
    if (tp_override > 0) in.tp = tp_override;
    // "nf4", "AWQ", "gguf-Q4_K_M": the format's own id from here on (its rules compare ids).
    in.weights.format = canonical_weight_format(in.weights.format);
    if (!in.weights.experts_format.empty()) in.weights.experts_format = canonical_weight_format(in.weights.experts_format);
    // A solver trying another format drops the bytes read from a file (they are the file's format).
    if (!format_override.empty() && ascii_lower(format_override) != ascii_lower(in.weights.format)) in.weights_file = WeightsFile{};
    if (!format_override.empty()) in.weights.format = format_override;
    if (!check_inputs(in, err)) return R::failure(err);
    // llama.cpp runs at most LLAMA_MAX_SEQ sequences: a context with more throws "n_seq_max must be
    // <= 256" (ggml-org/llama.cpp@0349835:src/llama-cparams.h:8; llama_context's constructor), so
    // llama-server -np 300 (Ollama's OLLAMA_NUM_PARALLEL 300) does not start.
    if (in.engine == Engine::LlamaCpp && in.concurrency > in.constants.llamacpp_max_seq)
        return R::failure("inference.concurrency", "inference.concurrency (-np" + std::string(in.llamacpp.ollama ? ", Ollama's OLLAMA_NUM_PARALLEL" : "") + ") " +
                                                       num(in.concurrency) + " is above llama.cpp's most sequences: accepted 1 to " + num(in.constants.llamacpp_max_seq) +
                                                       " (inference.constants.llamacpp_max_seq; LLAMA_MAX_SEQ, ggml-org/llama.cpp@0349835:src/llama-cparams.h:8: "
                                                       "\"n_seq_max must be <= " + num(in.constants.llamacpp_max_seq) + "\")");
    p.engine = in.engine;
    p.tp = in.tp;
    p.target_utilization = cfg.target_utilization;

    // Model: a preset or architecture, else the parameter count (an approximate architecture).
    ModelSpec spec = cfg.model;
    if (spec.layers == 0 && spec.params_override_b <= 0) spec.params_override_b = cfg.quick.params_b;
    auto rm = resolve_model(spec);
    if (!rm.ok) return R::failure(rm.error);
    p.model = std::move(rm.value);
    const ModelSpec& m = p.model;
    p.params = model_params(m);
    // Ollama lowers a num_ctx above the model's trained context (the GGUF's context_length, here
    // model.context_limit) to it and logs "requested context size too large for model"
    // (ollama/ollama@b7871fc:llm/server.go:111-116 NewLlamaServer; server/sched.go:161-167
    // effectiveContext): every figure is at the context it runs, and the estimate says so.
    if (in.engine == Engine::LlamaCpp && in.llamacpp.ollama && m.context_limit > 0 && in.context > m.context_limit)
        p.ollama_asked_context = in.context, in.context = m.context_limit;
    // vLLM refuses a max_model_len above the window it derives from the checkpoint's config.json
    // (max_position_embeddings and the like, x a RoPE scaling factor other than llama3's; here
    // model.context_limit) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: vllm-project/vllm@0052a5b:
    // vllm/config/model.py _get_and_verify_max_len ("User-specified max_model_len ... is greater
    // than the derived max_model_len"), the same check since v0.5 (vllm/config.py at v0.8.5).
    if (in.engine == Engine::Vllm && m.context_limit > 0 && in.context > m.context_limit && !in.vllm.allow_long_max_model_len)
        return R::failure("inference.context", "inference.context (vLLM's max_model_len) " + count_text(in.context) + " is above the model's window of " +
                                                   count_text(m.context_limit) + " tokens (model.context_limit, max_position_embeddings in its config.json): " +
                                                   "vLLM refuses it at start-up; lower it, correct model.context_limit, or set "
                                                   "inference.vllm.allow_long_max_model_len (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; vLLM says with extreme caution: past the window RoPE positions give not-a-number values)");

    // GPU: a custom entry (plan_gpu), a catalog id, or none (then only the engine-independent figures).
    if (!in.has_custom_gpu && cfg.gpu_id == "cpu") {
        // CPU only: llama.cpp with every layer in system RAM.
        if (in.engine != Engine::LlamaCpp) return R::failure("gpu", "gpu \"cpu\" (no GPU) needs inference.engine \"llama.cpp\"");
        p.cpu_only = true;
    } else if (!in.has_custom_gpu && !cfg.gpu_id.empty()) {
        start.catalog_gpu = find_gpu(cfg.gpu_id);
        if (!start.catalog_gpu)
            return R::failure("gpu", unknown_gpu_message(cfg.gpu_id));
    }
    if (tensor_parallel_engine(in.engine) && !plan_gpu(p, start.catalog_gpu))
        return R::failure("gpu", std::string(in.engine == Engine::Sglang ? "SGLang" : "the vLLM profile") +
                                     " sizes its KV pool from the card: set gpu (vramcalc --list-gpus) or inference.gpu_custom");
    if (const GpuSpec* g = plan_gpu(p, start.catalog_gpu); in.engine == Engine::Sglang && vllm_no_metal(*g))
        return R::failure("inference.engine", std::string("inference.engine \"sglang\" on a Mac: ") + kSglangNoMetal +
                                                  "; use inference.engine \"llama.cpp\" (Metal) or \"hf\" (PyTorch's MPS)");
    // SGLang refuses a --context-length above the model's derived context length (python/sglang/srt/configs/model_config.py:
    // "User-specified context_length (...) is greater than the derived context_length (...)", a ValueError unless
    // SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is set, which is not modelled).
    if (in.engine == Engine::Sglang && m.context_limit > 0 && in.context > m.context_limit)
        return R::failure("inference.context", "inference.context (SGLang's --context-length) is above the model's window of " + count_text(m.context_limit) +
                                                   " tokens (model.context_limit): SGLang refuses it at start-up; lower it or correct model.context_limit");
    if (const GpuSpec* g = plan_gpu(p, start.catalog_gpu); in.engine == Engine::Vllm && vllm_no_metal(*g))
        return R::failure("inference.engine", "inference.engine \"vllm\" has no Metal backend for the " + (g->name.empty() ? std::string("custom Mac") : g->name) +
                                                  ": vLLM on macOS runs on the CPU (its only device there), and the vllm-metal plugin (MLX) "
                                                  "is not modelled; use inference.engine \"llama.cpp\" (Metal) or \"hf\" (PyTorch's MPS)");

    // Weights. The vLLM engine shards them by tensor parallelism; the others split layers.
    const bool layer_split = !tensor_parallel_engine(in.engine);
    if (!check_layer_split(in, m, err)) return R::failure(err);
    // llama.cpp's -ot places tensors by name: the list comes with the same pass.
    const bool by_tensor = in.engine == Engine::LlamaCpp && !in.llamacpp.override_tensor.empty();
    TpShards* shards = with_shards && !layer_split ? &start.shards : nullptr;
    // vLLM's MXFP4 quantizes the fused MoE experts alone; every linear layer (attention, router,
    // dense MLPs) loads unquantized (vllm/model_executor/layers/quantization/mxfp4.py at 007d500:
    // Mxfp4Config.get_quant_method gives LinearBase an UnquantizedLinearMethod, FusedMoE an
    // Mxfp4MoEMethod), as gpt-oss's checkpoint stores it (modules_to_not_convert: self_attn, router,
    // embed_tokens, lm_head). A dense model keeps the format on every matrix (vLLM has no MXFP4
    // linear method to load it with). transformers replaces the experts alone too
    // (huggingface/transformers@787b952 src/transformers/quantizers/quantizer_mxfp4.py:
    // replace_with_mxfp4_linear swaps GptOssExperts for Mxfp4GptOssExperts).
    QuantOptions weights_q = in.weights;
    // llama.cpp loads a GGUF file: mxfp4 there is llama.cpp's MXFP4_MOE file type (experts MXFP4, the
    // other matrices Q8_0; core/quant), not the checkpoint's BF16 + MXFP4 split.
    weights_q.gguf_file = in.engine == Engine::LlamaCpp;
    if (in.engine != Engine::LlamaCpp && m.experts > 0 && ascii_lower(in.weights.format) == "mxfp4" && in.weights.experts_format.empty()) {
        weights_q.experts_format = "mxfp4";
        weights_q.format = in.weights.dtype_bytes >= 4 ? "fp32" : "bf16";
    }
    // transformers 5's bitsandbytes integration quantizes nn.Linear modules only: the fused routed
    // experts load in the checkpoint's dtype (HfOptions::experts_unquantized).
    p.bnb_experts_16bit = in.engine == Engine::Hf && m.experts > 0 && in.hf.experts_unquantized && in.weights.experts_format.empty() &&
                          ascii_lower(in.weights.format).rfind("bnb-", 0) == 0;
    if (p.bnb_experts_16bit) {
        weights_q.experts_format = in.weights.dtype_bytes >= 4 ? "fp32" : "bf16";
        weights_q.experts_format_routed_only = true;
    }
    const std::string experts_fmt = weights_q.experts_format.empty() ? weights_q.format : weights_q.experts_format;
    p.mxfp4_experts = in.engine == Engine::Vllm && m.experts > 0 && ascii_lower(experts_fmt) == "mxfp4";
    auto rw = weight_bytes(m, weights_q, layer_split ? 1 : in.tp, by_tensor ? &p.tensors : nullptr, shards);
    if (!rw.ok) return R::failure(rw.error);
    p.weights = std::move(rw.value);
    // LitGPT's --quantize replaces the LM head's nn.Linear too (HfOptions::litgpt_quantize): the
    // head takes the bitsandbytes format, the token embedding (an nn.Embedding) stays 16-bit.
    // Lightning-AI/pytorch-lightning@71aed751 src/lightning/fabric/plugins/precision/bitsandbytes.py:130
    // (init_context replaces torch.nn.Linear); Lightning-AI/litgpt@982abcbc lit_gpt/model.py:25,28.
    const WeightFormat* bnb_format = find_weight_format(in.weights.format);
    if (in.engine == Engine::Hf && in.hf.litgpt_quantize && p.weights.output > 0 && bnb_format && std::string(bnb_format->id).rfind("bnb-", 0) == 0) {
        QuantOptions head_q = weights_q;
        head_q.keep_embeddings = false;
        auto rh = weight_bytes(m, head_q, 1, nullptr, nullptr);
        if (!rh.ok) return R::failure(rh.error);
        const double delta = rh.value.output - p.weights.output;
        p.weights.output += delta;
        p.weights.total += delta;
        p.weights.per_gpu += delta;
        p.weights.formula += "; LM head quantized too (LitGPT)";
    }
    if (in.weights_file.total_bytes != 0 && !apply_weights_file(p.weights, in.weights_file, m.layers, err, shards)) return R::failure(err);
    // transformers dequantizes fp8-block and mxfp4 checkpoints to BF16 on a GPU below the format's
    // compute capability (hf_min_capability): those weights too, for set_plan_gpu to swap in.
    if (in.engine == Engine::Hf && (p.hf_min_capability = hf_min_capability(in)) > 0) {
        QuantOptions bf16 = weights_q;
        bf16.format = in.weights.dtype_bytes >= 4 ? "fp32" : "bf16";
        bf16.experts_format.clear();
        auto rb = weight_bytes(m, bf16, 1, nullptr, nullptr);
        if (!rb.ok) return R::failure(rb.error);
        p.hf_bf16_weights = std::move(rb.value);
    }
    p.format = find_weight_format(in.weights.format);
    if (in.engine == Engine::LlamaCpp && p.format->family != FormatFamily::Gguf && p.format->family != FormatFamily::Float &&
        std::string(p.format->id) != "mxfp4")
        return R::failure("inference.weights", "inference.weights \"" + in.weights.format +
                                                   "\" is not a llama.cpp format: use a GGUF type (q4_k_m, q8_0, ...), mxfp4 or a float type");
    if (in.engine != Engine::LlamaCpp && p.format->family == FormatFamily::Gguf)
        return R::failure("inference.weights", "inference.weights \"" + in.weights.format + "\" is a GGUF file type: set inference.engine to \"llama.cpp\"");
    // SGLang's --quantization methods (core/quant's kEngineSglang): a format it has none for is refused.
    if (in.engine == Engine::Sglang && (p.format->engines & kEngineSglang) == 0)
        return R::failure("inference.weights", "inference.weights is not a format SGLang loads here (bf16, fp16, fp32, fp8, fp8-channel, fp8-block, w8a8, "
                                               "nvfp4, mxfp4, awq-int4, gptq-int4, gptq-int8): use one of them or another engine");
    // vLLM refuses a quantization method below its minimum compute capability (vllm_quant_gates).
    if (const GpuSpec* g = plan_gpu(p, start.catalog_gpu); in.engine == Engine::Vllm && g && !vllm_format_loads(in, *g)) {
        const VllmQuantGate* gate = vllm_quant_gate(in);
        const int need = vllm_min_capability(in);
        const std::string fmt = gate && gate_of(in.weights.format) != gate ? in.weights.experts_format : in.weights.format;
        return R::failure("inference.weights", "inference.weights \"" + fmt + "\" needs compute capability " + capability_text(need) + " under vLLM (" +
                                                   (gate && in.constants.vllm_min_capability < 0 ? std::string(gate->method) : std::string("inference.constants.vllm_min_capability")) +
                                                   "), and the " + (g->name.empty() ? std::string("custom GPU") : g->name) + " has " +
                                                   capability_text(g->compute_capability) + ": vLLM refuses the checkpoint at start-up (\"not supported for the current GPU\", minimum " +
                                                   std::to_string(need) + ", current " + std::to_string(g->compute_capability) + "); use a GPU of compute capability " +
                                                   capability_text(need) + " or newer, another format or another engine");
    }
    p.dtype_bytes = p.format->family == FormatFamily::Float ? p.format->element_bits / 8 : in.weights.dtype_bytes;

    // KV cache element type: "auto" is the model's dtype (llama.cpp: f16).
    std::string kv_id = in.kv_dtype;
    if (kv_id == "auto") kv_id = p.dtype_bytes == 4 ? "fp32" : (in.engine == Engine::LlamaCpp ? "fp16" : "bf16");
    p.kv_dtype = find_kv_dtype(kv_id);
    // SGLang's --kv-cache-dtype: auto, bf16 / bfloat16, fp8_e5m2, fp8_e4m3 (server_args.py kv_cache_dtype choices;
    // fp4_e2m1 is not modelled): a 16-bit or FP8 cache.
    if (in.engine == Engine::Sglang && p.kv_dtype && std::string(p.kv_dtype->id) != "bf16" && std::string(p.kv_dtype->id) != "fp16" &&
        std::string(p.kv_dtype->id) != "fp32" && std::string(p.kv_dtype->id) != "fp8")
        return R::failure("inference.kv_dtype", "inference.kv_dtype is not an SGLang --kv-cache-dtype (auto, bf16, fp8_e4m3, fp8_e5m2)");
    if (!p.kv_dtype) {
        std::string list = "auto";
        for (const auto& d : kv_dtypes()) list += ", " + std::string(d.id);
        return R::failure("inference.kv_dtype", "inference.kv_dtype \"" + in.kv_dtype + "\" is not known (one of " + list + ")");
    }
    // A hybrid's recurrent state: llama.cpp keeps it in F32 (ggml-org/llama.cpp@01b77b5 src/llama-model.cpp
    // create_memory: recurrent_type_r / recurrent_type_s GGML_TYPE_F32); vLLM's mamba_cache_dtype "auto"
    // (vllm-project/vllm@c1d8642:vllm/config/cache.py: "inferred from the model config") and transformers'
    // cache classes take the model dtype.
    const std::string state_id = ascii_lower(in.state_dtype);
    if (state_id == "auto") p.state_bytes = in.engine == Engine::LlamaCpp ? 4 : p.dtype_bytes;
    else if (state_id == "fp32" || state_id == "f32") p.state_bytes = 4;
    else if (state_id == "bf16" || state_id == "fp16" || state_id == "f16") p.state_bytes = 2;
    else return R::failure("inference.state_dtype", "inference.state_dtype \"" + in.state_dtype + "\" is not one of auto, fp32, bf16, fp16");
    if (!vllm_ssm_state_bytes(p, in, m)) {
        return R::failure("inference.vllm.mamba_ssm_cache_dtype", "inference.vllm.mamba_ssm_cache_dtype \"" + in.vllm.mamba_ssm_cache_dtype +
                                                                      "\" is not one of auto, float32, bfloat16, float16");
    }
    auto rk = kv_layout(m, *p.kv_dtype, layer_split ? 1 : in.tp, caps_windows(in), p.state_bytes, p.ssm_state_bytes, indexer_value_bytes(in, m, *p.kv_dtype));
    if (!rk.ok) return R::failure(rk.error);
    p.kv = std::move(rk.value);
    // SGLang's hybrid pools (a Mamba / linear-attention model's states beside the KV pool, mamba_full_memory_ratio) are
    // not modelled.
    if (in.engine == Engine::Sglang && p.kv.state_layers > 0)
        return R::failure("inference.engine", "inference.engine \"sglang\": a hybrid model's recurrent-state pool (SGLang's HybridReqToTokenPool, "
                                              "mamba_full_memory_ratio) is not modelled; use inference.engine \"vllm\", \"llama.cpp\" or \"hf\"");
    if (in.engine == Engine::Vllm) vllm_pages(p);
    // llama.cpp -ctv: a V cache type apart from K's; each side is half of a one-type layout.
    if (in.engine == Engine::LlamaCpp && !in.llamacpp.kv_dtype_v.empty() && in.llamacpp.kv_dtype_v != kv_id) {
        const KvDtype* vt = find_kv_dtype(in.llamacpp.kv_dtype_v == "auto" ? kv_id : in.llamacpp.kv_dtype_v);
        if (!vt) return R::failure("inference.llamacpp.kv_dtype_v", "inference.llamacpp.kv_dtype_v \"" + in.llamacpp.kv_dtype_v + "\" is not known (f16 as fp16, q8_0, q4_0, ...)");
        // The indexer's keys are K-type cells in both halves (llama.cpp's indexer cache is a K cache alone).
        auto rv = kv_layout(m, *vt, 1, !in.swa_full, p.state_bytes, p.ssm_state_bytes, indexer_value_bytes(in, m, *p.kv_dtype));
        if (!rv.ok) return R::failure(rv.error);
        for (int g = 0; g < p.kv.group_count; ++g)
            p.kv.groups[g].bytes_per_token = (p.kv.groups[g].bytes_per_token + rv.value.groups[g].bytes_per_token) / 2;
        p.kv.bytes_per_token = (p.kv.bytes_per_token + rv.value.bytes_per_token) / 2;
        p.kv.formula = "(K " + std::string(p.kv_dtype->id) + " + V " + vt->id + ") halves of " + p.kv.formula;
    }
    return R::success(std::move(start));
}

// vLLM's RoPE cos/sin table, counted with its weights (SGLang's RotaryEmbedding keeps the same buffer).
double rope_table_bytes(const InferencePlan& p) {
    const ModelSpec& m = p.model;
    if (m.max_position != 0 || m.context_limit <= 0) return 0;
    const double rotary_dim = m.qk_rope_head_dim > 0 ? m.qk_rope_head_dim : m.head_dim;
    // gpt-oss builds its YaRN table in FP32 (vllm/model_executor/models/gpt_oss.py:
    // get_rope(..., dtype=torch.float32)): 131,072 x 64 x 4 B = 32 MiB.
    const double table_bytes = gpt_oss_sinks(m) ? 4 : p.dtype_bytes;
    return static_cast<double>(m.context_limit) * rotary_dim * table_bytes;
}

// The engine's placement at the plan's count (p.in.tp) on `gpu`, and what follows from the GPU.
bool place_plan(InferencePlan& p, const GpuSpec* gpu, Error& err) {
    const InferenceInputs& in = p.in;
    const ModelSpec& m = p.model;
    switch (in.engine) {
        case Engine::Vllm: {
            p.block = std::max(in.block_size, p.kv.page_block);  // a hybrid's attention block holds a state page
            // vLLM's rotary embedding precomputes one cos/sin table of max_position_embeddings x
            // rotary dim in the model dtype, shared by every layer and counted in its "model
            // weights" (vllm/model_executor/layers/rotary_embedding.py, cos_sin_cache):
            // Llama-3.1 131,072 x 128 x 2 B = 32 MiB. Learned position embeddings have none.
            p.rope_cache = rope_table_bytes(p);
            // The weights on one GPU (with Marlin's MoE padding) and non-torch memory depend on
            // the GPU: set_plan_gpu, below.
            p.graphs_gpu = in.vllm.enforce_eager ? 0 : (in.vllm.cuda_graph_bytes >= 0 ? in.vllm.cuda_graph_bytes : in.constants.vllm_cuda_graph_bytes);
            p.activation_peak = in.vllm.activation_peak_bytes >= 0 ? in.vllm.activation_peak_bytes : vllm_activation_peak(p);
            break;
        }
        case Engine::Sglang:
            // Pages of --page-size tokens (a sequence rounds up to whole pages); the RoPE table as vLLM's; the rest
            // follows from the GPU (set_plan_gpu, core/serve/sglang.cpp).
            p.block = std::max(1, in.sglang.page_size);
            p.rope_cache = rope_table_bytes(p);
            break;
        case Engine::LlamaCpp: {
            // Layer and expert placement, projector, draft: core/serve/llamacpp.cpp.
            p.has_gpu = gpu != nullptr;
            if (gpu) p.gpu.set(*gpu);
            if (!llamacpp_setup(p, err)) return false;
            p.runtime_gpu = 0;  // on a GPU: the CUDA context; the weights and KV on the fullest GPU (set_plan_gpu)
            break;
        }
        case Engine::Hf:
            hf_place_weights(p);  // the weights on the fullest GPU and the quantized layers' buffers
            // The CUDA context: set_plan_gpu.
            break;
    }
    set_plan_gpu(p, gpu);
    return true;
}

// The plan at `tp` GPUs from `start` (made for the same config, with_shards): the same plan as
// make_inference_plan(cfg, tp) without the inputs checked, the model resolved or the weights'
// tensors summed again; what the count changes is redone (the estimate's "how many of this GPU").
Outcome<InferencePlan> plan_at_count(const PlanStart& start, int tp) {
    using R = Outcome<InferencePlan>;
    InferencePlan p = start.plan;
    p.in.tp = p.tp = tp;
    Error err;
    if (!check_layer_split(p.in, p.model, err)) return R::failure(err);
    if (tensor_parallel_engine(p.engine)) {  // sharded by tensor parallelism: the weights and KV heads per GPU
        p.weights.per_gpu = start.shards.per_gpu(tp);
        auto rk = kv_layout(p.model, *p.kv_dtype, tp, caps_windows(p.in), p.state_bytes, p.ssm_state_bytes, indexer_value_bytes(p.in, p.model, *p.kv_dtype));
        if (!rk.ok) return R::failure(rk.error);
        p.kv = std::move(rk.value);
        if (p.engine == Engine::Vllm) vllm_pages(p);
    }
    if (!place_plan(p, plan_gpu(p, start.catalog_gpu), err)) return R::failure(err);
    return R::success(std::move(p));
}

}  // namespace

const char* quantized_kv_choice(const InferenceInputs& in) {
    if (in.kv_dtype != "auto" && in.kv_dtype != "f16" && in.kv_dtype != "bf16") return nullptr;
    return in.engine == Engine::LlamaCpp ? "q8_0" : "fp8";
}

Outcome<InferencePlan> make_inference_plan(const Config& cfg, int tp_override, const std::string& format_override) {
    using R = Outcome<InferencePlan>;
    auto rs = start_plan(cfg, tp_override, format_override, false);
    if (!rs.ok) return R::failure(rs.error);
    InferencePlan& p = rs.value.plan;
    Error err;
    if (!place_plan(p, plan_gpu(p, rs.value.catalog_gpu), err)) return R::failure(err);
    return R::success(std::move(p));
}

const char* vllm_custom_all_reduce_off(VllmCustomAllReduce mode, int tp, const GpuSpec* gpu, bool p2p) {
    if (tp <= 1) return "one GPU";
    if (mode == VllmCustomAllReduce::Off) return "custom_all_reduce off";
    if (mode == VllmCustomAllReduce::On) return nullptr;
    // vllm/distributed/device_communicators/custom_all_reduce.py (read at main, 2026): _SUPPORTED_WORLD_SIZES
    // [2, 4, 6, 8]; "not supported on more than two PCIe-only GPUs" (world_size > 2 and not
    // is_fully_connected); then "lacks GPU P2P capability" (not _can_p2p) at any size.
    if (tp != 2 && tp != 4 && tp != 6 && tp != 8) return "vLLM supports it at TP 2, 4, 6, 8 only";
    if (!p2p) return "vLLM needs P2P for it";
    return tp == 2 || gpu == nullptr || gpu_fully_connected(*gpu) ? nullptr : "vLLM disables it beyond 2 GPUs without NVLink";
}

bool vllm_custom_all_reduce_on(VllmCustomAllReduce mode, int tp, const GpuSpec* gpu, bool p2p) {
    return vllm_custom_all_reduce_off(mode, tp, gpu, p2p) == nullptr;
}

bool vllm_gpu_p2p(GpuP2p mode, const GpuSpec* gpu) {
    if (mode != GpuP2p::Auto) return mode == GpuP2p::On;
    // GeForce boards get no peer access over PCIe from NVIDIA's driver (inference.hpp, GpuP2p).
    return gpu == nullptr || gpu->name.find("GeForce") == std::string::npos;
}

// [SECTION] memory --------------------------------------------------------------------------------
namespace {

// gpt-oss's attention sinks (a learned logit per head beside every score row) have no SDPA path in
// transformers: GptOssPreTrainedModel sets _supports_sdpa = False (models/gpt_oss/modeling_gpt_oss.py,
// 4.55 to 5.x; PR #43120: "gpt oss does not support sdpa"), and PreTrainedModel's
// get_correct_attn_implementation tries SDPA only as the default, falling back to eager when
// _sdpa_can_dispatch raises (an explicit attn_implementation="sdpa" re-raises the ValueError).
// hf.attention sdpa, the library's default, therefore runs eager_attention_forward.
bool hf_sdpa_falls_back(const InferencePlan& p) { return p.in.hf.attention == HfAttention::Sdpa && gpt_oss_sinks(p.model); }
bool hf_eager(const InferencePlan& p) { return p.in.hf.attention == HfAttention::Eager || hf_sdpa_falls_back(p); }

// The keys the widest layer attends over at `tokens`: a sliding-window layer's cache
// (DynamicSlidingWindowLayer) keeps at most its window while decoding, so its attention does too;
// the prefill (`cached` false) attends over the whole prompt on every layer (eager computes the full
// P x P scores and masks them; the cache hands back the prompt's K and V in full on the first update).
// gpt-oss alternates windowed and full layers, so its widest layer is always the full context.
double hf_attended_tokens(const InferencePlan& p, double tokens, bool cached) {
    double kept = 0;
    for (int g = 0; g < p.kv.group_count; ++g) {
        const double cap = p.kv.groups[g].cap_tokens;
        kept = std::max(kept, cap > 0 && cached ? std::min(tokens, cap) : tokens);
    }
    return kept;
}

// GQA models' K and V expanded to every query head before attention: transformers' repeat_kv
// (expand, then reshape: a copy) in eager_attention_forward (models/llama/modeling_llama.py v4.48+;
// LlamaAttention and LlamaSdpaAttention before), and in integrations/sdpa_attention.py
// sdpa_attention_forward unless use_gqa_in_sdpa (hf.sdpa_enable_gqa). Llama, Mistral, Mixtral,
// Qwen2/3, Gemma (its one-head presets too) and gpt-oss share it; GPTBigCode and Falcon's
// multi-query classes attend on the one head as it is (hf_one_head_mqa), and flash_attn takes K/V
// heads as they are.
// Both copies live together until the attention output: 2 n heads t head_dim dtype, over the t
// tokens the widest layer keeps while decoding (a sliding window caps its cache and so its copies;
// the prefill attends over the whole prompt, `cached` false).
double hf_repeat_kv_bytes(const InferencePlan& p, double n, double tokens, bool cached = true) {
    const ModelSpec& m = p.model;
    const bool copies = hf_eager(p) || (p.in.hf.attention == HfAttention::Sdpa && !p.in.hf.sdpa_enable_gqa);
    if (!copies || m.kv_heads <= 0 || m.kv_heads >= m.heads || hf_one_head_mqa(m)) return 0;
    return 2 * n * m.heads * hf_attended_tokens(p, tokens, cached) * m.head_dim * p.dtype_bytes;
}

// Eager attention's transient score tensors while `rows` queries of each of `n` sequences attend
// over `keys` tokens. Llama-style eager_attention_forward: QK^T in the dtype, the FP32 softmax and
// the probabilities cast back (B + 4 + B a score). gpt-oss's (models/gpt_oss/modeling_gpt_oss.py):
// QK^T (+ mask), torch.cat with the sink column, minus its row maximum, and the softmax in the
// dtype (`dtype=combined_logits.dtype`): three dtype tensors alive at once, two of them one
// column wider.
double hf_eager_scores(const InferencePlan& p, double n, double rows, double keys) {
    const ModelSpec& m = p.model;
    const double B = p.dtype_bytes;
    if (gpt_oss_sinks(m)) return n * m.heads * rows * (3 * keys + 2) * B;
    return n * m.heads * rows * keys * (B + 4 + B);
}

// generate stops once the token a forward picks reaches max_length (generation/utils.py greedy_search
// v4.32 and `_sample` since: `stopping_criteria(input_ids, scores)` after the token is appended), so a
// prompt one token short of the context (optimum's GPTQ benchmark --prefill: max_new_tokens 1) runs
// the prefill forward alone: no decode step grows, copies or attends over the cache.
bool hf_prefill_only(const InferencePlan& p, double context, double P) {
    return p.in.prompt_tokens > 0 && context > P && context - P < 1.5;
}

// Hugging Face generate: the prefill of `prompt` tokens for all sequences at once. The residual
// stream (hidden states and a normed copy) plus the largest of: eager attention scores (dtype,
// the FP32 softmax, and the probabilities), the MLP intermediates, and the logits (dtype + FP32).
double hf_activations(const InferencePlan& p, double context, double n) {
    const ModelSpec& m = p.model;
    const double B = p.dtype_bytes;
    const double P = p.in.prompt_tokens > 0 ? std::min<double>(p.in.prompt_tokens, context) : context;
    const double stream = 2 * n * P * m.hidden * B;
    // Multi-query models (one K/V head) under SDPA: transformers' GPTBigCode and Falcon classes
    // pass the single head to scaled_dot_product_attention broadcast over the query heads, which
    // the flash and memory-efficient kernels refuse (equal num_heads unless enable_gqa), so PyTorch
    // runs the math fallback: QK^T and its softmax, two n x heads x P^2 tensors in the dtype
    // (aten _scaled_dot_product_attention_math). Llama-style classes (Gemma's one-head presets)
    // repeat the head (repeat_kv) instead and keep the fused kernels.
    const bool eager = hf_eager(p);
    const bool mqa_math = !eager && p.in.hf.attention == HfAttention::Sdpa && hf_one_head_mqa(m);
    const double scores = (eager ? hf_eager_scores(p, n, P, P)
                           : mqa_math ? n * m.heads * P * P * 2 * B
                                      : n * P * (m.heads + 2.0 * m.kv_heads) * m.head_dim * B) +
                          hf_repeat_kv_bytes(p, n, P, false);
    const double ffn = std::max<double>(m.ffn, m.experts > 0 ? m.expert_ffn : 0);
    const double mlp = n * P * ffn * B * (gated(m) ? 3 : 2);
    const double logits = (p.in.hf.full_logits || p.in.hf.legacy_cache ? n * P : n) * m.vocab * (B + 4);
    // DynamicCache grows by torch.cat: one layer's keys are held twice while copying.
    // (A hybrid's recurrent state is no part of it: only its attention layers hold K and V.)
    const double cat = n * (kv_sequence_bytes(p.kv, context, 0) - p.kv.state_bytes) * p.kv_share / (2.0 * std::max(1, attention_layer_count(m)));
    const double prefill = stream + std::max({scores, mlp, logits}) + p.dequant_bytes + n * P * p.quant_temp_per_token + cat;
    // The last decode step's attention at the full context: K and V expanded to every query head
    // (repeat_kv; more than one layer's torch.cat) and, under eager, the one query row's scores over
    // the keys the widest layer keeps.
    const double decode = hf_repeat_kv_bytes(p, n, context) + (eager ? hf_eager_scores(p, n, 1, hf_attended_tokens(p, context, true)) : 0);
    // LitGPT's LLM.int8 re-quantization while the weights load (load_transient) can exceed the
    // forward's peak; it is held before the KV cache exists.
    if (hf_prefill_only(p, context, P)) return std::max(prefill + p.kernel_scratch, p.load_transient);
    if (!p.in.hf.legacy_cache) return std::max(std::max(prefill, decode) + p.kernel_scratch, p.load_transient);
    // transformers < 4.42: every decode step holds the previous cache while the next is built
    // (two copies), and the second step also holds the prompt's FP32 logits (n P vocab 4 B). The
    // KV component carries one copy at the full context; the second copy is counted here.
    const double kv_full = n * kv_sequence_bytes(p.kv, context, 0) * p.kv_share;
    const double kv_prompt = n * kv_sequence_bytes(p.kv, P, 0) * p.kv_share;
    const double second_step = 2 * kv_prompt + n * P * m.vocab * 4 - kv_full;
    const double last_step = kv_full + std::max(n * m.vocab * (B + 4), decode);
    return std::max(std::max({prefill, second_step, last_step}) + p.kernel_scratch, p.load_transient);
}

}  // namespace

HfAllocatorReplay hf_allocator_replay(const InferencePlan& p, double context, double n, double limit, int max_steps) {
    HfAllocatorReplay out;
    const ModelSpec& m = p.model;
    if (p.engine != Engine::Hf || m.layers <= 0 || !(n >= 1) || !(context >= 1)) return out;
    const InferenceConstants& k = p.in.constants;
    const double P = p.in.prompt_tokens > 0 ? std::min<double>(p.in.prompt_tokens, context) : context;
    const double mib = 1048576.0;
    // Sizes past 2^50 B (a petabyte) mean nothing on one card; the replay refuses them.
    // All K and V tensors on this GPU, one token (a hybrid's recurrent state, fixed per sequence, is not replayed).
    const double kv_token = n * (kv_sequence_bytes(p.kv, 1, 0) - p.kv.state_bytes) * p.kv_share;
    if (!(kv_token > 0) || kv_token * context > std::ldexp(1.0, 50) || n * P * m.vocab * 4 > std::ldexp(1.0, 50)) return out;
    CachingAllocatorRules rules;
    rules.min_large_alloc = static_cast<std::uint64_t>(k.torch_min_large_alloc_mib * mib);
    rules.round_large = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(k.torch_round_large_mib * mib));
    if (limit > 0 && limit < std::ldexp(1.0, 62)) rules.limit = static_cast<std::uint64_t>(limit);
    CachingAllocatorSim a(rules);
    auto bytes = [](double b) { return static_cast<std::uint64_t>(std::ceil(b)); };
    // The layers on this GPU (device_map splits them), each holding a K and a V tensor.
    const int layers = std::max(1, static_cast<int>(std::lround(attention_layer_count(m) * p.kv_share)));
    const double per_tensor_token = kv_token / (2.0 * layers);
    auto kv = [&](double t) { return bytes(per_tensor_token * t); };
    const double B = p.dtype_bytes;
    auto act = [&](double width) { return bytes(n * P * width * B); };
    const double h = m.hidden, q = static_cast<double>(m.heads) * m.head_dim;
    const double ffn = std::max<double>(m.ffn, m.experts > 0 ? m.expert_ffn : 0);
    const bool eager = hf_eager(p), sinks = eager && gpt_oss_sinks(m);
    const bool mqa_math = !eager && p.in.hf.attention == HfAttention::Sdpa && hf_one_head_mqa(m);
    const double scores = n * m.heads * P * P;
    // The prefill, tensor by tensor as a Llama-style decoder layer creates and drops them (the
    // order scripts/alloc_replay.py replays): its freed blocks stay cached for the decode.
    std::vector<std::int64_t> cache;
    cache.reserve(2 * layers);
    std::int64_t x = a.malloc(act(h));
    // An output projection of `in` (then dropped, with `also`) and the residual add.
    auto project_and_add = [&](std::int64_t in, std::int64_t also) {
        const std::int64_t out = a.malloc(act(h));
        a.free(in), a.free(also);
        const std::int64_t x2 = a.malloc(act(h));
        a.free(out), a.free(x);
        x = x2;
    };
    for (int l = 0; l < layers; ++l) {
        std::int64_t normed = a.malloc(act(h));
        const std::int64_t qs = a.malloc(act(q)), ks = a.malloc(kv(P)), vs = a.malloc(kv(P));
        const std::int64_t q_rot = a.malloc(act(q)), k_rot = a.malloc(kv(P));
        a.free(qs), a.free(ks);
        cache.push_back(k_rot), cache.push_back(vs);
        // repeat_kv's copies of K and V, held until the attention output (hf_repeat_kv_bytes).
        const double rep_prompt = hf_repeat_kv_bytes(p, n, P, false) / 2;
        const std::int64_t k_rep = a.malloc(bytes(rep_prompt)), v_rep = a.malloc(bytes(rep_prompt));
        std::int64_t probs = -1, shifted = -1;
        if (sinks) {  // gpt-oss: QK^T, the sink column concatenated, less its maximum, the softmax in the dtype
            const std::int64_t sc = a.malloc(bytes(scores * B));
            const double wide = n * m.heads * P * (P + 1) * B;
            const std::int64_t joined = a.malloc(bytes(wide));
            shifted = a.malloc(bytes(wide));
            a.free(joined);
            probs = a.malloc(bytes(wide));
            a.free(sc);
        } else if (eager || mqa_math) {  // QK^T, eager's FP32 softmax, the probabilities in the dtype
            const std::int64_t sc = a.malloc(bytes(scores * B));
            const std::int64_t s32 = eager ? a.malloc(bytes(scores * 4)) : -1;
            a.free(sc);
            probs = a.malloc(bytes(scores * B));
            a.free(s32);
        }
        const std::int64_t attn = a.malloc(act(q));
        a.free(probs), a.free(shifted), a.free(k_rep), a.free(v_rep), a.free(q_rot), a.free(normed);
        project_and_add(attn, -1);
        normed = a.malloc(act(h));
        const bool glu = gated(m);
        const std::int64_t first = a.malloc(act(ffn));  // gate (fc1 without a GLU)
        const std::int64_t up = glu ? a.malloc(act(ffn)) : -1;
        const std::int64_t activated = a.malloc(act(ffn));
        a.free(first);
        const std::int64_t product = glu ? a.malloc(act(ffn)) : -1;
        if (glu) a.free(activated), a.free(up);
        project_and_add(glu ? product : activated, normed);
    }
    const double logit_rows = p.in.hf.full_logits || p.in.hf.legacy_cache ? n * P : n;
    const std::int64_t logits = a.malloc(bytes(logit_rows * m.vocab * B)), logits32 = a.malloc(bytes(logit_rows * m.vocab * 4));
    a.free(logits), a.free(x);
    // transformers < 4.42 keeps the prompt's FP32 logits into the second step.
    std::int64_t held = p.in.hf.legacy_cache ? logits32 : (a.free(logits32), -1);
    // The decode: every layer's K then V grows by torch.cat (the new tensor is allocated before
    // the old one is dropped; transformers < 4.42 drops the old cache only after the step). Steps
    // are replayed where the 512 B-rounded size changes, and at most max_steps of them.
    const double min_tokens = std::ceil(rules.min_block / per_tensor_token);
    const double stride = std::max({1.0, min_tokens, std::ceil((context - P) / std::max(1, max_steps))});
    std::vector<std::int64_t> old;
    double reserved_sum = 0;
    for (double t = P; t < context && !hf_prefill_only(p, context, P);) {
        t = std::min(context, t + stride);
        const double rep = hf_repeat_kv_bytes(p, n, t) / 2;
        for (size_t c = 0; c < cache.size(); ++c) {
            const std::int64_t grown = a.malloc(kv(t));
            if (p.in.hf.legacy_cache) old.push_back(cache[c]);
            else a.free(cache[c]);
            cache[c] = grown;
            if (c % 2 == 0 || !(rep > 0)) continue;
            // The layer's attention on its grown K and V: repeat_kv's copies, freed on return.
            const std::int64_t k_rep = a.malloc(bytes(rep)), v_rep = a.malloc(bytes(rep));
            a.free(k_rep), a.free(v_rep);
        }
        for (std::int64_t o : old) a.free(o);
        old.clear();
        const std::int64_t lg = a.malloc(bytes(n * m.vocab * B)), lg32 = a.malloc(bytes(n * m.vocab * 4));
        a.free(lg), a.free(lg32), a.free(held);
        held = -1;
        reserved_sum += static_cast<double>(a.reserved);
    }
    out.peak_reserved = static_cast<double>(a.peak_reserved);
    out.peak_allocated = static_cast<double>(a.peak_allocated);
    out.releases = a.releases;
    out.final_reserved = static_cast<double>(a.reserved);
    out.steps = hf_prefill_only(p, context, P) ? 0 : static_cast<int>(std::ceil((context - P) / stride));
    out.mean_reserved = out.steps > 0 ? reserved_sum / out.steps : out.final_reserved;
    return out;
}

double hf_stranded_cache(const InferencePlan& p, double context, double n, double limit) {
    const HfAllocatorReplay r = hf_allocator_replay(p, context, n, limit, kHfReplaySteps);
    return std::max(0.0, r.peak_reserved - r.peak_allocated);
}

MemoryAt memory_at(const InferencePlan& p, double context, double n) {
    MemoryAt r;
    r.weights = p.weights_gpu;
    r.runtime = p.runtime_gpu;
    r.graphs = p.graphs_gpu;
    switch (p.engine) {
        case Engine::Vllm:
            r.activations = p.activation_peak;
            r.kv = std::max(0.0, p.pool);  // vLLM allocates the whole pool up front
            break;
        case Engine::LlamaCpp: {
            const LlamaCppBuffers b = llamacpp_buffers(p, context, n);
            if (b.gpus.empty()) {  // CPU only: nothing on a GPU
                r = MemoryAt{};
                break;
            }
            const DeviceBuffers& g = b.gpus[static_cast<size_t>(b.fullest)];
            r.weights = g.model;
            r.kv = g.kv;
            r.state = g.state;
            r.activations = g.compute;
            r.extras = g.extras;
            break;
        }
        case Engine::Sglang:
            // The whole pool, sized at start-up; outside the static part one chunk's forward and the req_to_token pool.
            r.kv = std::max(0.0, p.pool);
            r.activations = p.activation_peak + sglang_req_to_token_bytes(p, context);
            break;
        case Engine::Hf:
            r.kv = n * kv_sequence_bytes(p.kv, context, 0) * p.kv_share;
            r.state = n * p.kv.state_bytes * p.kv_share;
            r.activations = hf_activations(p, context, n);
            break;
    }
    return r;
}

VllmCapacity vllm_capacity(const InferencePlan& p, double context) {
    VllmCapacity r;
    if (p.kv.block_bytes <= 0) {  // one page kind: blocks of block_size tokens, every layer
        r.blocks = p.pool > 0 ? std::floor(p.pool / (p.kv.bytes_per_token * p.block)) : 0;
        r.tokens = r.blocks * p.block;
        return r;
    }
    // A hybrid: a sequence of `context` tokens takes its attention blocks and its state blocks from the
    // one pool (vllm@001cabc:vllm/v1/core/kv_cache_utils.py get_max_concurrency_for_kv_cache_config:
    // num_blocks / blocks per request); the tokens are those sequences' (max_concurrency x max_model_len).
    r.blocks = p.pool > 0 ? std::floor(p.pool / p.kv.block_bytes) : 0;
    const double per_sequence = std::ceil(kv_sequence_bytes(p.kv, context, p.block) / p.kv.block_bytes - 1e-9);
    r.tokens = per_sequence > 0 ? std::floor(r.blocks / per_sequence * context) : 0;
    return r;
}

double budget_share(const InferencePlan& p) { return tensor_parallel_engine(p.engine) ? 1.0 : p.target_utilization; }

bool fits_at(const InferencePlan& p, double context, double n, double share) {
    if (p.engine == Engine::Vllm) return p.pool > 0 && n * kv_sequence_bytes(p.kv, context, p.block) <= p.pool;
    if (p.engine == Engine::Sglang) return sglang_fits(p, context, n);
    if (p.engine == Engine::LlamaCpp && (p.cpu_only || (p.has_gpu && p.ram_bytes > 0))) {
        // System RAM holds the host buffers (and, on a unified Mac, the GPU's too).
        const LlamaCppBuffers b = llamacpp_buffers(p, context, n);
        double host = b.host.total();
        if (p.has_gpu && p.gpu->unified) for (const auto& g : b.gpus) host += g.total();
        if (p.cpu_only) return p.ram_bytes <= 0 || host <= p.ram_bytes * share;
        if (host > p.ram_bytes * share) return false;
    }
    if (!p.has_gpu) return false;
    return memory_at(p, context, n).total() <= p.gpu_capacity * share;
}


ShapeVerdict verdict_at(const InferencePlan& p, double context, double n, double share) {
    ShapeVerdict v;
    v.gpu_within = fits_at(p, context, n, share) && memory_at(p, context, n).total() <= p.gpu_capacity * share;
    v.needs_ram_bytes = llamacpp_unchecked_ram(p, context, n);
    return v;
}

bool placement_follows_shape(const InferencePlan& p) { return p.engine == Engine::LlamaCpp && p.has_gpu && !p.cpu_only && p.auto_gpu_layers >= 0; }

void place_at_shape(InferencePlan& p, double context, double n) {
    p.in.context = context;
    p.in.concurrency = n;
    set_plan_gpu(p, p.gpu.get());
}

// [SECTION] speed ---------------------------------------------------------------------------------
namespace {

// FP8 tensor cores serve FP8 weights with FP8 activations (and INT8 W8A8 at the same rate).
bool uses_fp8_math(const WeightFormat& f) {
    const std::string id = f.id;
    return id.rfind("fp8", 0) == 0 || id == "w8a8" || id == "nvfp4";
}

// Attention FLOPs per new token against `context` cached tokens, one GPU: QK^T and PV, 2 FLOPs per
// multiply-add, each head_dim wide, capped at the window in sliding-window layers.
double attention_flops_per_token(const InferencePlan& p, double context) {
    const ModelSpec& m = p.model;
    const double heads = tensor_parallel_engine(p.engine) ? static_cast<double>(m.heads) / p.tp : m.heads;
    const double width = m.kv_lora_rank > 0 ? m.kv_lora_rank + m.qk_rope_head_dim : m.head_dim;
    double flops = 0;
    for (int g = 0; g < p.kv.group_count; ++g) {
        const double t = p.kv.groups[g].cap_tokens > 0 ? std::min(context, p.kv.groups[g].cap_tokens) : context;
        flops += p.kv.groups[g].layers * 4.0 * heads * width * t;
    }
    return flops;
}

// llama.cpp's compute rates: the CPU's (host.cpu_tflops, else the constant) and the device's that
// runs the weights' matmuls (the GPU's x compute_efficiency, or the CPU's without a GPU).
double llamacpp_cpu_peak(const InferencePlan& p) {
    return (p.in.host.cpu_tflops > 0 ? p.in.host.cpu_tflops : p.in.constants.cpu_tflops) * 1e12;
}
double llamacpp_peak(const InferencePlan& p) {
    return p.cpu_only ? llamacpp_cpu_peak(p) : p.gpu->bf16_tflops * 1e12 * p.in.constants.compute_efficiency;
}

// The compute time of a forward over `tokens` tokens against `context` cached ones: the weights'
// FLOPs at the device's rate and the attention's, with -nkvo at the CPU's (llama-context.cpp pins
// the attention there when the KV is not offloaded); the matmuls of the weights stay on the GPU.
double llamacpp_compute_s(const InferencePlan& p, double context, double tokens) {
    const double cpu_peak = llamacpp_cpu_peak(p), peak = llamacpp_peak(p);
    const bool cpu_attention = p.in.llamacpp.no_kv_offload && !p.cpu_only;
    const double attn_cpu_s = cpu_attention && cpu_peak > 0 ? tokens * attention_flops_per_token(p, context) / cpu_peak : 0;
    const double flops = tokens * (2 * p.params.active + attention_flops_per_token(p, context));
    return peak > 0 ? (cpu_attention ? tokens * 2 * p.params.active / peak + attn_cpu_s : flops / peak) : 0;
}

// llama.cpp: the GPUs' shares and the host's share read in turn (core/serve/llamacpp.cpp), compute
// on the GPU (or the CPU when none); prompt batches also copy CPU-resident weights to the GPU.
Speed llamacpp_speed(const InferencePlan& p, double context, double n, double prompt) {
    Speed s;
    const LlamaCppTiming t = llamacpp_timing(p, context, n, prompt);
    const double cpu_peak = llamacpp_cpu_peak(p);
    const double peak = llamacpp_peak(p);
    s.bytes_per_step = t.gpu_bytes + t.host_bytes;
    s.host_bytes_per_step = t.host_bytes;
    s.flops_per_step = n * (2 * p.params.active + attention_flops_per_token(p, context));
    const bool cpu_attention = p.in.llamacpp.no_kv_offload && !p.cpu_only;
    const double t_compute = llamacpp_compute_s(p, context, n);
    s.memory_bound = t.decode_memory_s >= t_compute;
    s.step_s = std::max(t.decode_memory_s, t_compute);
    if (s.step_s > 0) {
        s.tokens_per_s = 1 / s.step_s;
        s.tokens_per_s_total = n / s.step_s;
    }
    const double prefill_attn = attention_flops_per_token(p, prompt) * prompt / 2;
    const double prefill_flops = 2 * p.params.active * prompt + (cpu_attention ? 0 : prefill_attn);
    const double prefill_cpu_s = cpu_attention && cpu_peak > 0 ? prefill_attn / cpu_peak : 0;
    // Unknown TFLOP/s (a custom GPU without them): the prefill time is unknown (0).
    s.prefill_s = peak > 0 ? std::max(prefill_flops / peak + prefill_cpu_s + t.prefill_extra_s, t.decode_memory_s) : 0;  // at least one read of the weights
    return s;
}

bool llamacpp_has_speed(const InferencePlan& p) {
    return p.engine == Engine::LlamaCpp && (p.cpu_only || (p.has_gpu && p.gpu->bandwidth_gbps > 0));
}

}  // namespace

// Speculative decoding in llama-server (docs/local.md, "Speculative decoding"). Per slot and cycle
// the draft proposes tokens one decode step at a time and the target verifies them in one batch.
// Each drafted token is accepted with probability a (draft.acceptance), so the accepted run k is
// geometric: P(k) = a^k (1 - a) for k < g, a^g for k = g (g = --draft-max). The draft stops at
// the token it is unsure of (p_min, common/speculative.cpp: "if (cur_p->data[0].p < params.p_min)
// break"), modelled as stopping exactly where the target would reject: it drafts k tokens in
// k + 1 steps (the last token's step, then one per drafted token; g steps when --draft-max ends
// it). The target decodes [last token, k drafts] in one batch and keeps k + 1 tokens; a draft
// shorter than --draft-min is dropped (one token). With n_min 0 the tokens per cycle are
// sum P(k) (k + 1) = (1 - a^(g+1)) / (1 - a) (Leviathan et al. 2023, eq. 1). Slots draft one after
// the other (one draft context) and are verified in one batch: all slots are taken alike.
SpeculativeSpeed speculative_speed(const InferencePlan& p, double context, double n, double prompt) {
    SpeculativeSpeed r;
    if (!p.has_draft || !llamacpp_has_speed(p)) return r;
    const DraftModel& d = p.in.llamacpp.draft;
    const Speed base = llamacpp_speed(p, context, n, prompt);
    r.tokens_per_s_no_draft = base.tokens_per_s;
    // One draft step: its bytes at the target's bandwidth model, or its weights' FLOPs (2 per
    // parameter) at the rate of the device holding its layers.
    const LlamaCppTiming dt = llamacpp_draft_timing(p, context);
    const bool draft_on_gpu = !p.cpu_only && d.n_gpu_layers != 0;
    const double dpeak = draft_on_gpu ? llamacpp_peak(p) : llamacpp_cpu_peak(p);
    const double dflops = 2 * model_params(p.draft_model).active;
    r.draft_step_s = std::max(dt.decode_memory_s, dpeak > 0 ? dflops / dpeak : 0);
    const double a = d.acceptance;
    const int g = d.max_tokens;
    const bool moe = p.model.experts > 0;  // the verification batch touches more experts than one token
    const double verify_memory_1 = llamacpp_timing(p, context, n, prompt).decode_memory_s;
    for (int k = 0; k <= g; ++k) {
        const double pk = k < g ? std::pow(a, k) * (1 - a) : std::pow(a, g);
        if (!(pk > 0)) continue;
        const double steps = k < g ? k + 1 : g;
        const double kept = k >= std::max(d.min_tokens, 1) ? k : 0;
        const double batch = n * (kept + 1);
        const double memory_s = moe ? llamacpp_timing(p, context, n, prompt, batch).decode_memory_s : verify_memory_1;
        r.tokens_per_cycle += pk * (kept + 1);
        r.draft_steps += pk * steps;
        r.verify_s += pk * std::max(memory_s, llamacpp_compute_s(p, context, batch));
    }
    r.cycle_s = n * r.draft_steps * r.draft_step_s + r.verify_s;
    if (r.cycle_s > 0) {
        r.tokens_per_s = r.tokens_per_cycle / r.cycle_s;
        r.tokens_per_s_total = n * r.tokens_per_s;
    }
    r.speedup = r.tokens_per_s_no_draft > 0 ? r.tokens_per_s / r.tokens_per_s_no_draft : 0;
    return r;
}

Speed inference_speed(const InferencePlan& p, double context, double n, double prompt) {
    Speed s;
    if (llamacpp_has_speed(p)) return llamacpp_speed(p, context, n, prompt);
    if (!p.has_gpu || p.gpu->bandwidth_gbps <= 0) return s;
    const auto& k = p.in.constants;
    const double split = tensor_parallel_engine(p.engine) ? p.tp : 1;  // per-GPU share of the compute
    const double bw = p.gpu->bandwidth_gbps * 1e9 * k.bandwidth_efficiency;
    const double tflops = uses_fp8_math(*p.format) && p.gpu->fp8_tflops > 0 ? p.gpu->fp8_tflops : p.gpu->bf16_tflops;
    const double peak = tflops * 1e12 * k.compute_efficiency;

    // Bytes read per decode step on one GPU: the weights (of an untied embedding table only n
    // rows; routed experts only those some sequence picked: 1 - (1 - k/E)^n of them) plus every
    // sequence's KV. llama.cpp keeps the embedding table on the CPU already.
    const ModelSpec& m = p.model;
    double weights_read = p.weights_gpu - p.rope_cache;  // a step reads a few rows of the RoPE table, not all of it
    const double gpu_fraction = p.weights.total > 0 ? (p.weights_gpu - p.rope_cache) / p.weights.total : 1;
    if (!m.tied_embeddings && p.engine != Engine::LlamaCpp) weights_read -= p.weights.embedding * gpu_fraction;
    if (m.experts > 0) {
        const double touched = 1 - std::pow(1 - static_cast<double>(m.top_k) / m.experts, n);
        weights_read -= p.weights.experts_routed * gpu_fraction * (1 - touched);
    }
    const double kv_read = n * kv_sequence_bytes(p.kv, context, 0) * p.kv_share;
    s.bytes_per_step = weights_read + kv_read;
    s.flops_per_step = n * (2 * p.params.active / split + attention_flops_per_token(p, context));
    double t_mem = s.bytes_per_step / bw;
    // llama.cpp and HF split the layers over the GPUs: a token passes through them one after the
    // other, so the step reads every GPU's share in turn (vLLM's tensor parallelism reads the
    // shares at once).
    if (!tensor_parallel_engine(p.engine) && p.tp > 1 && p.weights_gpu > 0)
        t_mem *= std::max(1.0, (p.weights.total - p.host_bytes) / p.weights_gpu);
    const double t_compute = peak > 0 ? s.flops_per_step / peak : 0;
    s.memory_bound = t_mem >= t_compute;
    s.step_s = std::max(t_mem, t_compute);
    if (s.step_s > 0) {
        s.tokens_per_s = 1 / s.step_s;
        s.tokens_per_s_total = n / s.step_s;
    }
    // Prefill of one prompt: 2 x active parameters per token plus causal attention (half the
    // P x P scores), bounded below by one read of the weights.
    const double P = prompt;
    const double prefill_flops = 2 * p.params.active / split * P + attention_flops_per_token(p, P) * P / 2;
    // Without the GPU's TFLOP/s (a custom GPU that leaves them out) the prefill time is unknown (0),
    // not the weights' read time alone.
    s.prefill_s = peak > 0 ? std::max(prefill_flops / peak, (p.weights_gpu - p.rope_cache) / bw) : 0;
    return s;
}

// [SECTION] estimate ------------------------------------------------------------------------------
namespace {

void add_metric(Estimate& e, const char* key, const char* label, double value, const char* unit) {
    e.metrics.push_back(Metric{key, label, value, unit});
}

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes_to_gib(bytes));
    return buf;
}

// Plans at the GPU counts worth trying (tensor-parallel degrees for vLLM, layer splits for the
// others), checked against every GPU for "how many of this GPU". Each is built when a GPU first
// needs it (most GPUs fit at the first counts: issue 15, building all of them was a sixth of a
// detailed estimate), from the config's own plan start (plan_at_count), and then serves every GPU;
// the config's own count is its plan.
class CandidatePlans {
public:
    // `own`: the config's plan, which the caller sets on each GPU before asking for that GPU's plans.
    CandidatePlans(const PlanStart& start, const InferencePlan& own) : start_(start), own_(own) {
        static const int kTp[] = {1, 2, 4, 8, 16, 32, 64};
        static const int kSplit[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64};
        if (tensor_parallel_engine(own.engine)) counts_ = {std::begin(kTp), std::end(kTp)};
        else counts_ = {std::begin(kSplit), std::end(kSplit)};
        plans_.resize(counts_.size());
        tried_.assign(counts_.size(), false);
    }
    size_t size() const { return counts_.size(); }
    int count(size_t i) const { return counts_[i]; }
    // The plan at count(i) on `gpu`, or nullptr when that count cannot be planned (skipped, as a
    // plan error). set_plan_gpu sets only the GPU's fields (and what follows from them and the
    // plan's placement), so one copy of each plan serves every GPU.
    const InferencePlan* on_gpu(size_t i, const GpuSpec* gpu) {
        if (counts_[i] == own_.in.tp) return &own_;  // the caller's, on `gpu` already
        if (!tried_[i]) {
            tried_[i] = true;
            auto r = plan_at_count(start_, counts_[i]);
            if (r.ok) plans_[i] = std::move(r.value);
        }
        if (!plans_[i]) return nullptr;
        set_plan_gpu(*plans_[i], gpu);
        return &*plans_[i];
    }

private:
    const PlanStart& start_;
    const InferencePlan& own_;
    std::vector<int> counts_;
    std::vector<std::optional<InferencePlan>> plans_;
    std::vector<bool> tried_;
};

}  // namespace

Outcome<Estimate> inference_estimate(const Config& cfg) {
    // The config's plan, and its start for the plans at other GPU counts (the fits below).
    auto rs = start_plan(cfg, 0, "", true);
    if (!rs.ok) return Outcome<Estimate>::failure(rs.error);
    const PlanStart& start = rs.value;
    InferencePlan own = start.plan;
    Error err;
    if (!place_plan(own, plan_gpu(own, start.catalog_gpu), err)) return Outcome<Estimate>::failure(err);
    ollama_oom_retry(own, cfg);  // Ollama's automatic num_ctx, lowered once after a load out of memory
    const InferencePlan& p = own;
    const InferenceInputs& in = p.in;
    const ModelSpec& m = p.model;
    const double c = in.context, n = in.concurrency;
    const double prompt = in.prompt_tokens > 0 ? std::min(in.prompt_tokens, in.context) : in.context;
    const MemoryAt mem = memory_at(p, c, n);
    const double seq_kv = kv_sequence_bytes(p.kv, c, tensor_parallel_engine(p.engine) ? p.block : 0);

    Estimate e;
    e.method = "detailed";
    e.task = "inference";
    e.components.reserve(5);  // the most any engine reports below
    e.metrics.reserve(20);     // room for any engine's metrics (about 17 at most)
    // transformers dequantized the checkpoint on this GPU (hf_dequantizes): its weights are 16-bit.
    const std::string fmt_label = p.hf_dequantized ? std::string(p.in.weights.dtype_bytes >= 4 ? "FP32" : "BF16") + ", " + p.format->id + " dequantized"
                                                   : std::string(p.format->label);
    e.components.push_back({"weights", "Weights (" + fmt_label + ")", mem.weights,
                            p.weights.formula + (p.rope_cache > 0 ? " + RoPE cos/sin table " + num(p.rope_cache) + " B" : "") +
                                (p.moe_padding > 0 ? " + MXFP4 experts padded for vLLM's Marlin MoE kernel (intermediate to 128, hidden to 256) " +
                                                         num(p.moe_padding) + " B"
                                                   : "") +
                                (p.weights_gpu != p.weights.total + p.rope_cache + p.moe_padding ? "; " + num(p.weights_gpu) + " B on one GPU" : "")});
    // Float weights of a checkpoint published quantized: a converted copy, or the checkpoint dequantized at load.
    if (!m.checkpoint_format.empty() && p.format->family == FormatFamily::Float) {
        const WeightFormat* stored = find_weight_format(m.checkpoint_format);
        e.notes.push_back((m.name.empty() ? std::string("The model") : m.name) + "'s published checkpoint is quantized: " +
                          (stored ? stored->label : m.checkpoint_format.c_str()) + ", model.checkpoint_format " + m.checkpoint_format + ". " +
                          fmt_label + " weights mean a converted copy or dequantizing at load" +
                          (stored && (stored->engines & engine_mask(p.engine)) != 0
                               ? std::string("; inference.weights ") + stored->id + " serves it as stored (the default where none is given)."
                               : std::string(".")));
    }
    switch (p.engine) {
        case Engine::Vllm:
            e.components.push_back({"kv_cache", "KV cache pool", mem.kv,
                                    num(in.vllm.gpu_memory_utilization) + " x " + num(p.budget / in.vllm.gpu_memory_utilization) +
                                        " B usable - weights - activation peak - non-torch" +
                                        (p.pool > 0 ? " = " + num(p.pool) + " B"
                                                    : ": nothing left for the KV cache (short by " + num(-p.pool) + " B)") +
                                        (p.kv.block_bytes > 0 ? "; per sequence " + p.kv.formula : std::string())});
            e.components.push_back({"activations", "Activation peak (profiled)", mem.activations,
                                    in.vllm.activation_peak_bytes >= 0
                                        ? std::string("measured value from the config")
                                        : "forward over " + num(in.vllm.max_num_batched_tokens) + " batched tokens, then logits for " +
                                              num(in.vllm.profile_all_tokens ? in.vllm.max_num_batched_tokens
                                                                             : std::min(in.vllm.max_num_seqs, in.vllm.max_num_batched_tokens)) +
                                              " rows x vocab " + num(m.vocab) + " x " + vllm_sampler_text(in)});
            e.components.push_back({"runtime", "Non-torch memory", mem.runtime, vllm_non_torch_text(p)});
            e.components.push_back({"cuda_graphs", "CUDA graphs", mem.graphs,
                                    in.vllm.enforce_eager ? std::string("enforce_eager: none") : "captured after the KV pool, outside gpu_memory_utilization"});
            break;
        case Engine::Sglang: {
            // snprintf: the page's size budget (tests/browser/size.test.mjs).
            const SglangMemory& s = p.sglang;
            const InferenceConstants& k = in.constants;
            char buf[400];
            if (s.max_total_tokens > 0)
                std::snprintf(buf, sizeof buf, "mem_fraction_static %s x %s B free after start-up - weights = %s B / %s B a token (%s) = %s tokens%s%s",
                              num(s.mem_fraction_static).c_str(), num(s.total_free).c_str(), num(s.rest).c_str(), num(p.kv.bytes_per_token).c_str(),
                              p.kv.formula.c_str(), num(s.max_total_tokens).c_str(), in.sglang.page_size > 1 ? " in pages of " : "",
                              in.sglang.page_size > 1 ? num(in.sglang.page_size).c_str() : "");
            else
                std::snprintf(buf, sizeof buf, "mem_fraction_static %s x %s B free after start-up - weights: nothing left for the KV pool (short by %s B)",
                              num(s.mem_fraction_static).c_str(), num(s.total_free).c_str(), num(-s.rest).c_str());
            e.components.push_back({"kv_cache", "KV cache pool", mem.kv, buf});
            std::snprintf(buf, sizeof buf, "forward over %s tokens (%s) %s B + req_to_token %s rows x (%s + %s) x 4 B", num(sglang_activation_tokens(p)).c_str(),
                          s.chunked_prefill_size > 0 ? "chunked_prefill_size" : "chunked prefill off: max_prefill_tokens", num(p.activation_peak).c_str(),
                          num(sglang_req_pool_rows(p, c)).c_str(), num(c).c_str(), num(k.sglang_req_context_pad).c_str());
            e.components.push_back({"activations", "Chunked prefill + req_to_token", mem.activations, buf});
            std::snprintf(buf, sizeof buf, "%s%s%s%s", serving_context_formula(p).c_str(), p.tp > 1 ? " + NCCL and custom all-reduce " : "",
                          p.tp > 1 ? num(k.vllm_non_torch_tp_bytes).c_str() : "", p.tp > 1 ? " B" : "");
            e.components.push_back({"runtime", "CUDA context + NCCL", mem.runtime, buf});
            if (in.sglang.disable_cuda_graph) std::snprintf(buf, sizeof buf, "disable_cuda_graph: none");
            else if (s.prefill_graph_sizes == 0)
                std::snprintf(buf, sizeof buf, "SGLang's own reserve: decode max_bs %d x %g MiB", s.cuda_graph_max_bs, k.sglang_decode_graph_mib_per_bs);
            else if (p.kv.mla)
                std::snprintf(buf, sizeof buf, "SGLang's own reserve: decode max_bs %d x %g MiB + MLA prefill graphs %g MiB", s.cuda_graph_max_bs,
                              k.sglang_decode_graph_mib_per_bs, k.sglang_mla_prefill_graph_mib);
            else
                std::snprintf(buf, sizeof buf, "SGLang's own reserve: decode max_bs %d x %g MiB + %d prefill graph sizes x %g MiB", s.cuda_graph_max_bs,
                              k.sglang_decode_graph_mib_per_bs, s.prefill_graph_sizes, k.sglang_prefill_graph_mib_per_size);
            e.components.push_back({"cuda_graphs", "CUDA graphs", mem.graphs, buf});
            break;
        }
        case Engine::LlamaCpp: {
            e.components.push_back({"kv_cache", "KV cache", mem.kv,
                                    num(n) + " x " + num(c) + " tokens (padded to " + num(in.constants.llamacpp_ctx_pad) + " cells) x " +
                                        p.kv.formula + (in.llamacpp.no_kv_offload ? std::string(": -nkvo, all of it in system RAM")
                                                        : p.kv_share < 1 ? " x " + num(p.kv_share) + " on the GPU" : std::string())});
            e.components.push_back({"activations", "Compute buffer", mem.activations,
                                    "n_ubatch " + num(llamacpp_ubatch(p, c, n)) + (in.llamacpp.flash_attn ? ", flash attention" : ", F32 attention scores") +
                                        ": inputs (KQ mask, hidden state" + (p.n_copies > 1 ? " x " + num(p.n_copies) + " pipeline copies" : std::string()) +
                                        ") + max(attention, FFN, logits) in F32"});
            if (mem.extras > 0)
                e.components.push_back({"extras", "Projector, draft model, LoRA", mem.extras,
                                        (p.vision_weights > 0 ? "mmproj " + num(p.vision_weights) + " B + graph " + num(p.vision_compute) + " B; " : std::string()) +
                                            (p.has_draft ? "draft " + p.draft_model.id + " weights, KV and compute; " : std::string()) +
                                            (in.llamacpp.lora_bytes > 0 ? "LoRA on its layers' devices" : std::string())});
            e.components.push_back({"runtime", p.cpu_only ? "Runtime" : std::string(llamacpp_backend(p)) + " context", mem.runtime,
                                    p.cpu_only ? "no GPU" : "driver context + BLAS handles: " + serving_context_formula(p)});
            const LlamaCppBuffers b = llamacpp_buffers(p, c, n);
            for (const auto& g : b.gpus) e.devices.push_back(DeviceUse{g.device, false, g.model, g.kv, g.compute, g.output + g.extras + p.runtime_gpu});
            e.devices.push_back(DeviceUse{b.host.device, true, b.host.model, b.host.kv, b.host.compute, b.host.output + b.host.extras});
            break;
        }
        case Engine::Hf:
            e.components.push_back({"kv_cache", "KV cache", mem.kv, num(n) + " x " + num(c) + " tokens x " + p.kv.formula});
            e.components.push_back({"activations", "Activations (current step)", mem.activations,
                                    "prefill of " + num(prompt) + " tokens x " + num(n) + " sequences" +
                                        (hf_eager(p) ? ", eager attention scores" : "") +
                                        (in.hf.legacy_cache ? "; transformers < 4.42: a second copy of the cache while decoding" : "") +
                                        (hf_repeat_kv_bytes(p, n, c) > 0 ? "; K and V repeated to every query head at " + num(c) + " tokens: " + num(hf_repeat_kv_bytes(p, n, c) / 1048576.0) + " MiB" : "") +
                                        (p.kernel_scratch > 0 ? "; GPTQ kernel scratch " + num(p.kernel_scratch / 1048576.0) + " MiB" : "") +
                                        (p.load_transient > 0 ? "; at least LitGPT's LLM.int8 re-quantization while loading, " + num(p.load_transient / 1048576.0) + " MiB" : "")});
            e.components.push_back({"runtime", std::string(gpu_runtime_name(p.has_gpu ? p.gpu.get() : nullptr)) + " context", mem.runtime,
                                    std::string("outside PyTorch's allocator") +
                                        (in.hf.lazy_loading ? "" : "; eager module loading: every kernel loaded at start-up") + "; " +
                                        serving_context_formula(p)});
            break;
    }
    e.total_bytes = mem.total();
    e.buffered_bytes = e.total_bytes;

    add_metric(e, "kv_bytes_per_token", "KV cache per token (one GPU, all layers)", p.kv.bytes_per_token, "bytes/token");
    add_metric(e, "kv_bytes_per_sequence", "KV cache per sequence at the context", seq_kv * (p.engine == Engine::Vllm ? 1 : p.kv_share), "bytes");
    add_metric(e, "weights_total_bytes", "Weights, whole model", p.weights.total, "bytes");
    add_metric(e, "weight_bits_per_weight", "Bits per weight", p.weights.bits_per_weight, "bits");
    add_metric(e, "params", "Parameters", p.params.total, "count");
    if (p.engine == Engine::Sglang) {
        const SglangMemory& s = p.sglang;
        add_metric(e, "kv_capacity_tokens", "KV pool (max_total_num_tokens)", s.max_total_tokens, "tokens");
        add_metric(e, "max_concurrency", "Sequences of the context that fit", sglang_max_sequences(p, c), "sequences");
        add_metric(e, "sglang_mem_fraction_static", "mem_fraction_static", s.mem_fraction_static, "fraction");
        add_metric(e, "sglang_static_bytes", "Static part: weights + KV pool budget", p.budget, "bytes");
        add_metric(e, "sglang_max_running_requests", "max_running_requests", sglang_max_running(p, c), "requests");
        add_metric(e, "sglang_chunked_prefill_size", "chunked_prefill_size (0: off)", std::max(0, s.chunked_prefill_size), "tokens");
        add_metric(e, "sglang_cuda_graph_max_bs", "CUDA graphs' max_bs", s.cuda_graph_max_bs, "sequences");
        add_metric(e, "kv_needed_bytes", "KV the sequences need", n * sglang_sequence_tokens(p, c) * p.kv.bytes_per_token, "bytes");
    } else if (p.engine == Engine::Vllm) {
        const VllmCapacity cap = vllm_capacity(p, c);
        add_metric(e, "kv_blocks", "KV blocks", cap.blocks, "count");
        add_metric(e, "kv_capacity_tokens", "KV capacity", cap.tokens, "tokens");
        add_metric(e, "max_concurrency", "Sequences of the context that fit", seq_kv > 0 ? std::floor(std::max(0.0, p.pool) / seq_kv) : 0, "sequences");
        add_metric(e, "activation_peak_bytes", "Profiled activation peak", p.activation_peak, "bytes");
        add_metric(e, "kv_needed_bytes", "KV the sequences need", n * seq_kv, "bytes");
    } else {
        // -nkvo: no KV on the GPU, so no capacity left for it there (system RAM bounds it).
        // Within the target, as the verdict and the GPU counts: what the GPU's share (its memory,
        // a Mac's working-set limit) x target_utilization leaves after the rest; the solver's
        // kv_capacity answer is the same figure. A hybrid's recurrent states on the GPU (mem.state,
        // inside mem.kv) are no room for tokens: Qwen3-Next's 79,036,416 B a sequence would be 3,216
        // tokens of its 24,576 B a token.
        if (p.has_gpu && !(p.engine == Engine::LlamaCpp && in.llamacpp.no_kv_offload)) {
            const double usable = p.gpu_capacity * budget_share(p) - (mem.total() - mem.kv) - mem.state;
            // No layer's KV on the GPU (-ngl 0, or --fit leaving none there): 0, as the solver's answer.
            const double per_token = p.kv.bytes_per_token * p.kv_share;
            const double tokens = per_token > 0 ? std::floor(std::max(0.0, usable) / per_token) : 0;
            add_metric(e, "kv_capacity_tokens", "KV capacity within the target", tokens, "tokens");
        }
        // The reading is bounded by the card (a failed cudaMalloc releases the cache): without a GPU
        // the bound alone can be absurd, so the metric needs one, and a CUDA/HIP one (Apple's MPS
        // allocator has other rules).
        // The allocator's segments get what the card has beside the rest of the total (weights,
        // context, persistent buffers); a replay of its rules says what it keeps reserved.
        const double outside = mem.total() - mem.kv - mem.activations;
        const double prompt_tokens = in.prompt_tokens > 0 ? std::min<double>(in.prompt_tokens, c) : c;
        const HfAllocatorReplay replay = p.engine == Engine::Hf && p.has_gpu && !p.gpu->unified && p.gpu->memory_bytes > outside && c > prompt_tokens
                                             ? hf_allocator_replay(p, c, n, p.gpu->memory_bytes - outside)
                                             : HfAllocatorReplay{};
        const double stranded = std::max(0.0, replay.peak_reserved - replay.peak_allocated);
        if (stranded >= 1048576.0) {
            const double reading = std::min(p.gpu->memory_bytes, mem.total() + stranded);
            // Once the card fills, the reading saws between what a release leaves and the card.
            const double mean = std::min(reading, mem.total() + std::max(0.0, replay.mean_reserved - replay.peak_allocated));
            add_metric(e, "reserved_decoding_bytes", "nvidia-smi's highest reading while decoding (the allocator's cached segments)", reading, "bytes");
            add_metric(e, "reserved_decoding_mean_bytes", "nvidia-smi while decoding, averaged over the steps", mean, "bytes");
            add_metric(e, "allocator_releases", "Failed cudaMalloc calls that release the cached segments", replay.releases, "count");
            e.notes.push_back("The KV cache grows by torch.cat: PyTorch's caching allocator keeps " + gib(stranded) +
                              " of outgrown cache segments reserved (a replay of its rules), so nvidia-smi reads up to " + gib(reading) +
                              (replay.releases > 0 ? " (the card: " + num(replay.releases) + " failed cudaMalloc calls release the cache and it fills again; " +
                                                         gib(mean) + " on average)"
                                                   : std::string()) +
                              ". They are released when an allocation would fail, so they cause no OOM; "
                              "a static cache (cache_implementation=\"static\") or expandable_segments avoids them.");
        }
        if (p.engine == Engine::LlamaCpp) {
            add_metric(e, "host_bytes", "Weights in system memory", p.host_bytes, "bytes");
            const LlamaCppBuffers b = llamacpp_buffers(p, c, n);
            double host = b.host.total();
            if (p.has_gpu && p.gpu->unified) {
                for (const auto& g : b.gpus) host += g.total();
                add_metric(e, "gpu_working_set_bytes", "GPU working-set limit (unified memory)", p.gpu_capacity, "bytes");
            }
            add_metric(e, "host_total_bytes", p.has_gpu && p.gpu->unified ? "Unified memory in use" : "System RAM for llama.cpp buffers", host, "bytes");
            // The repeating layers on the GPU, labelled with the -ngl that places them: since PR #18148
            // -ngl N is the output layer and N - 1 repeating layers (llamacpp_setup), so N is the count
            // plus the output layer where it is on the GPU ("-ngl 36" beside 35).
            char ngl[48];
            std::snprintf(ngl, sizeof ngl, "Repeating layers on the GPU (-ngl %d)", p.gpu_layers + (p.output_on_gpu ? 1 : 0));
            add_metric(e, "gpu_layers", ngl, p.gpu_layers, "layers");
            if (llamacpp_fit_shown(p)) {
                const bool ollama = in.llamacpp.ollama;
                add_metric(e, "auto_gpu_layers", ollama ? "Ollama's automatic num_gpu (-ngl)" : "llama-server's --fit (-ngl)", p.auto_gpu_layers, "layers");
                double on_gpu = 0;
                for (const auto& g : b.gpus) on_gpu += g.total() + p.runtime_gpu;
                // snprintf: the wasm page's size budget (tests/browser/size.test.mjs).
                bool in_ram = false;
                const std::string placed = llamacpp_fit_placement(p, &in_ram);
                char buf[480];
                std::snprintf(buf, sizeof buf, "%s %s (%s: --fit leaves %.2f GiB free per GPU)%s%.2f GiB on the %s, %.2f GiB in system RAM.",
                              ollama ? "Ollama puts" : "llama-server's --fit puts", placed.c_str(),
                              ollama ? "its automatic num_gpu" : "-ngl unset", bytes_to_gib(in.constants.fit_target_bytes),
                              in_ram ? "; the rest run on the CPU from system RAM: " : ": ", bytes_to_gib(on_gpu), b.gpus.size() > 1 ? "GPUs" : "GPU", bytes_to_gib(host));
                e.notes.push_back(buf);
                // --fit lowers only a context left unset (common/fit.cpp step 2, n_ctx_auto), before
                // it moves layers; the launch command passes -c, so the split above keeps it.
                if (!ollama && m.context_limit > c)
                    e.notes.push_back("Started without -c, llama-server would first lower the context from the model's " + count_text(m.context_limit) +
                                      " tokens (no lower than --fit-ctx) and move layers only if that is not enough.");
            }
            // Ollama with several GPUs, on one of them alone (ollama_single_gpu). snprintf: the page's size budget.
            if (p.ollama_one_gpu) {
                const double predicted = ollama_predicted_bytes(p, c, n);
                char buf[360];
                std::snprintf(buf, sizeof buf, "Ollama loads the model on one of the %d GPUs: its prediction, the GGUF file %.2f GiB + an F16 KV cache %.2f GiB, "
                              "is within %.0f%% of one GPU's %.2f GiB free (server/sched.go bestSingleGPUFit). OLLAMA_SCHED_SPREAD=1 "
                              "(inference.constants.ollama_single_gpu_share 0) spreads it over all.",
                              p.tp, bytes_to_gib(p.weights.total), bytes_to_gib(predicted - p.weights.total), 100 * in.constants.ollama_single_gpu_share,
                              bytes_to_gib(std::max(0.0, p.gpu_capacity - p.runtime_gpu)));
                e.notes.push_back(buf);
            }
            // Ollama's automatic num_batch (-ub unset under the profile): the ubatch the compute buffers take.
            if (const OllamaBatch ob = ollama_auto_batch(p, c, n); ob.batch > 0) {
                add_metric(e, "auto_num_batch", "Ollama's automatic num_batch (-b, -ub)", ob.batch, "tokens");
                const InferenceConstants& k = in.constants;
                // snprintf: the wasm page's size budget (tests/browser/size.test.mjs).
                char why[400];
                if (ob.cuda_fa_off)
                    std::snprintf(why, sizeof why, "flash attention off on a CUDA card, %s tokens of num_ctx x parallel (%d above %s on a card of at most %.0f GiB free)",
                                  count_text(ob.tokens).c_str(), static_cast<int>(k.ollama_num_batch_constrained), count_text(k.ollama_batch_medium_ctx).c_str(),
                                  k.ollama_batch_constrained_gib);
                else if (ob.available <= 0)
                    std::snprintf(why, sizeof why, "%s tokens of num_ctx x parallel, no GPU memory to step it down by", count_text(ob.tokens).c_str());
                else
                    std::snprintf(why, sizeof why, "%s tokens of num_ctx x parallel start it at %d%s; its prediction, the GGUF file %.2f GiB + an F16 KV cache "
                                  "%.2f GiB, is %.0f%% of the %.2f GiB free (it keeps %d within %.0f%% with %.0f MiB more within %.0f%%, %d within %.0f%% with %.0f MiB more)",
                                  count_text(ob.tokens).c_str(), ob.start, ob.batch < ob.start ? ", stepped down" : "", bytes_to_gib(p.weights.total),
                                  bytes_to_gib(ob.predicted - p.weights.total), 100 * ob.predicted / ob.available, bytes_to_gib(ob.available),
                                  static_cast<int>(k.ollama_num_batch_large), 100 * k.ollama_batch_large_headroom, k.ollama_batch_large_surcharge_mib,
                                  100 * k.ollama_batch_fit_share, static_cast<int>(k.ollama_num_batch_medium), 100 * k.ollama_batch_medium_headroom,
                                  k.ollama_batch_medium_surcharge_mib);
                e.notes.push_back("Ollama's automatic num_batch is " + num(ob.batch) + ", passed to llama-server as -b and -ub (the compute buffer's ubatch): " +
                                  why + ". Set num_batch (-ub) to pin it.");
            }
            if (p.ram_bytes > 0 && host > p.ram_bytes)
                e.notes.push_back("The buffers in system RAM (" + gib(host) + ") exceed its " + gib(p.ram_bytes) + ": llama.cpp would page from disk (mmap) or fail.");
            // No RAM size and more than token_embd in RAM: the verdict is the GPU part's and the RAM
            // it needs (GpuFit::needs_ram_bytes); the note says why. snprintf: the page's size budget.
            if (const double unchecked = p.has_gpu ? llamacpp_unchecked_ram(p, c, n) : 0; unchecked > 0) {
                char buf[320];
                std::snprintf(buf, sizeof buf, "Needs %.2f GB (%.2f GiB) of system RAM, not checked: the split keeps layers, experts or KV there and no RAM "
                              "size is given, so the verdict is the GPU part's, not a fit. Give inference.host.ram_gib (--ram-gib) to check it.",
                              bytes_to_gb(unchecked), bytes_to_gib(unchecked));
                e.notes.push_back(buf);
            }
            if (m.experts > 0 || in.llamacpp.no_kv_offload) {
                const LlamaCppTiming t = llamacpp_timing(p, c, n, prompt);
                add_metric(e, "host_bytes_per_token", "Read from system RAM per decode step", t.host_bytes, "bytes");
            }
        }
    }
    if (p.has_gpu || p.cpu_only) {
        const Speed s = inference_speed(p, c, n, prompt);
        const SpeculativeSpeed sp = speculative_speed(p, c, n, prompt);
        const bool spec = sp.cycle_s > 0;
        add_metric(e, "decode_tokens_per_s", spec ? "Decode speed per sequence without the draft" : "Decode speed per sequence", s.tokens_per_s, "tokens/s");
        if (spec) {
            add_metric(e, "decode_tokens_per_s_draft", "Decode speed per sequence with the draft", sp.tokens_per_s, "tokens/s");
            add_metric(e, "speculative_speedup", "Speed-up from the draft", sp.speedup, "x");
            add_metric(e, "speculative_tokens_per_cycle", "Tokens per draft-and-verify cycle", sp.tokens_per_cycle, "tokens");
        }
        add_metric(e, "decode_tokens_per_s_total", spec ? "Decode speed, all sequences, without the draft" : "Decode speed, all sequences", s.tokens_per_s_total,
                   "tokens/s");
        add_metric(e, "ttft_s", "Time to first token (prefill)", s.prefill_s, "s");
        add_metric(e, "prefill_tokens_per_s", "Prefill speed", s.prefill_s > 0 ? prompt / s.prefill_s : 0, "tokens/s");
        // llama.cpp with weights or KV in system RAM: the step's bytes are the GPUs' and the host's,
        // read in turn (llamacpp_speed), so the note names both and the host's share.
        const bool host = !p.cpu_only && s.host_bytes_per_step > 0;
        // Without the GPU's bandwidth (a custom GPU that leaves it out) there is no step time to bound.
        if (s.step_s > 0)
            e.notes.push_back(std::string("Decode is ") + (s.memory_bound ? "memory-bandwidth" : "compute") + " bound on " + (p.cpu_only ? std::string("the CPU") : p.gpu->name) +
                          (host ? " and system RAM: " + num(s.bytes_per_step) + " B per step, " + num(s.host_bytes_per_step) + " B of them from system RAM, and " +
                                      num(s.flops_per_step) + " FLOP (roofline at "
                                : ": " + num(s.bytes_per_step) + " B and " + num(s.flops_per_step) + " FLOP per step per GPU (roofline at ") +
                          num(in.constants.bandwidth_efficiency * 100) + "% bandwidth, " + num(in.constants.compute_efficiency * 100) + "% compute).");
        if (spec) {  // one snprintf: the wasm page's size budget (tests/browser/size.test.mjs)
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "Speculative decoding with %s (acceptance %g assumed, text dependent; --draft-max %d; drafts stop where the target "
                          "would reject, an upper bound): %.2f tokens per cycle of %.2f draft steps of %.2f ms and a %.2f ms verification, "
                          "%.1f tokens/s against %.1f without the draft (%.2fx)%s",
                          p.draft_model.id.c_str(), in.llamacpp.draft.acceptance, in.llamacpp.draft.max_tokens, sp.tokens_per_cycle, sp.draft_steps * n,
                          sp.draft_step_s * 1e3, sp.verify_s * 1e3, sp.tokens_per_s, sp.tokens_per_s_no_draft, sp.speedup,
                          sp.speedup > 1 ? "." : ": the draft gives no gain here.");
            e.notes.push_back(buf);
        }
    } else {
        e.notes.push_back("No GPU chosen: set gpu for speed figures and the KV capacity left.");
    }

    // Engine notes.
    if (p.bnb_experts_16bit)
        e.notes.push_back("Routed experts in " + std::string(p.in.weights.dtype_bytes >= 4 ? "FP32" : "16-bit") +
                          " (inference.hf.experts_unquantized): transformers 5 stores an MoE's routed experts as fused 3-D parameters and "
                          "its bitsandbytes integration quantizes nn.Linear modules only (bitsandbytes issue #1849): " + gib(p.weights.experts_routed) +
                          " of the weights are the experts. Set inference.hf.experts_unquantized false for transformers 4 or a loader "
                          "that quantizes them (Unsloth).");
    // llama-quantize's MXFP4_MOE keeps MXFP4 for the 3-D expert tensors alone (core/quant).
    if (p.engine == Engine::LlamaCpp && p.format->family != FormatFamily::Gguf && p.format->gguf_ftype >= 0 && m.experts == 0)
        e.notes.push_back("mxfp4 in llama.cpp is the GGUF file type MXFP4_MOE: only MoE expert tensors are stored in MXFP4, so a dense "
                          "model's matrices are all Q8_0 (8.5 bits per weight).");
    if (p.engine == Engine::Hf && hf_sdpa_falls_back(p))
        e.notes.push_back("gpt-oss has no SDPA path in transformers (its attention sinks: GptOssPreTrainedModel._supports_sdpa = False): "
                          "with attn_implementation unset the model loads with eager attention, as computed here (inference.hf.attention "
                          "sdpa stands for that default); an explicit attn_implementation=\"sdpa\" raises a ValueError, so inference.hf.attention eager "
                          "describes the same run.");
    // transformers with a format it loads quantized only from a compute capability (hf_min_capability).
    if (p.engine == Engine::Hf && p.hf_min_capability > 0) {
        const bool fp8 = ascii_lower(in.weights.format) == "fp8-block" || ascii_lower(in.weights.experts_format) == "fp8-block";
        const std::string gate = std::string("inference.constants.") + (fp8 ? "hf_fp8_min_capability " : "hf_mxfp4_min_capability ") +
                                 capability_text(p.hf_min_capability);
        if (p.hf_dequantized)
            e.notes.push_back("transformers dequantizes the " + in.weights.format + " checkpoint to BF16 at load on the " + p.gpu->name +
                              (gpu_vendor(*p.gpu) == "apple" ? std::string(" (no CUDA or XPU device: MPS)")
                                                             : ": compute capability " + capability_text(p.gpu->compute_capability) + " is below " + gate) +
                              " (\"We will default to dequantizing the model to bf16\"): " + gib(p.weights.total) + " of weights, " +
                              gib(p.hf_bf16_weights.total) + " as stored.");
        else if (!fp8)
            e.notes.push_back("transformers keeps the experts in MXFP4 only with triton >= 3.4 and the kernels package installed (" + gate +
                              " and up); without them it dequantizes the model to BF16, " + gib(p.hf_bf16_weights.total) +
                              " of weights (inference.weights bf16 sizes that).");
    }
    // vLLM between a format's minimum and its native capability: a fallback kernel (vllm_quant_gates).
    if (const VllmQuantGate* gate = p.engine == Engine::Vllm && p.has_gpu ? vllm_quant_gate(in) : nullptr;
        gate && gate->fallback && p.gpu->compute_capability > 0 && p.gpu->compute_capability < gate->native_capability)
        e.notes.push_back("vLLM loads " + in.weights.format + " on the " + p.gpu->name + " as " + gate->fallback + ": its compute capability " +
                          capability_text(p.gpu->compute_capability) + " is below " + capability_text(gate->native_capability) +
                          "; the weights keep their bytes, vLLM logs a warning.");
    if (p.engine == Engine::Vllm) {
        if (p.pool <= 0)
            e.notes.push_back("vLLM would stop at start-up: nothing is left for KV blocks (" + gib(p.budget) + " budget, " + gib(p.weights_gpu) +
                              " weights, " + gib(p.activation_peak) + " activation peak).");
        else if (seq_kv > p.pool)  // vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory: a ValueError, not a queue
            e.notes.push_back("vLLM would stop at start-up: one sequence of max_model_len " + num(c) + " needs " + gib(seq_kv) +
                              " of KV cache per GPU, more than the " + gib(p.pool) + " pool (its blocks hold " +
                              num(vllm_capacity(p, c).tokens) +
                              " tokens): lower max_model_len or raise gpu_memory_utilization.");
        else if (n * seq_kv > p.pool) {
            const double fit = std::floor(p.pool / seq_kv);
            e.notes.push_back("The KV pool (" + gib(p.pool) + ") holds " + num(fit) + (fit == 1 ? " sequence of " : " sequences of ") + num(c) +
                              " tokens, fewer than the " + num(n) + " asked: vLLM queues the rest.");
        }
        if (!in.vllm.profile_all_tokens && in.vllm.activation_peak_bytes < 0)
            e.notes.push_back("Activation peak as vLLM >= 0.8 profiles it (sampler over max_num_seqs); older V1 engines computed "
                              "logits for every batched token (\"profile_logits\": \"tokens\"), several GiB more.");
    }
    if (p.engine == Engine::Sglang && p.has_gpu) {  // snprintf: the page's size budget
        const SglangMemory& s = p.sglang;
        const double tokens = s.max_total_tokens, per = sglang_sequence_tokens(p, c), fit = sglang_max_sequences(p, c);
        char buf[400];
        buf[0] = 0;
        if (tokens <= 0) e.notes.push_back(sglang_refusal(p));
        else if (per > tokens)  // scheduler.py: max_req_len = min(context_len - 1, max_total_num_tokens - 1)
            std::snprintf(buf, sizeof buf, "SGLang starts, but its pool holds %.0f tokens: a request is capped at %.0f (max_req_len = min(context_length - 1, "
                          "max_total_num_tokens - 1)), below the %.0f-token context; raise mem_fraction_static, use more GPUs or an FP8 KV cache.",
                          tokens, tokens - 1, c);
        else if (n > fit)
            std::snprintf(buf, sizeof buf, "The pool (%.0f tokens) and max_running_requests (%.0f) run %.0f sequences of %.0f tokens at once, fewer than the "
                          "%.0f asked: SGLang queues the rest.", tokens, sglang_max_running(p, c), fit, c, n);
        if (buf[0]) e.notes.push_back(buf);
        if (s.reserved_mib > 0) {
            std::snprintf(buf, sizeof buf, "mem_fraction_static %.3f is SGLang's own rule for %.0f MiB (nvidia-smi) at TP %d: it reserves %.0f MiB "
                          "outside the static part for activations and CUDA graphs (inference.sglang.mem_fraction_static sets it).",
                          s.mem_fraction_static, s.gpu_mem_mib, p.tp, s.reserved_mib);
            e.notes.push_back(buf);
        }
        if (m.sliding_window > 0 && !in.swa_full)
            e.notes.push_back("SGLang's pool counts every layer at the full context; the hybrid sliding-window pool some architectures get "
                              "(swa_full_tokens_ratio) is not modelled.");
    }
    if (p.kv.replicated && tensor_parallel_engine(p.engine))
        e.notes.push_back(p.kv.mla ? "MLA: every GPU keeps the whole latent KV cache (it is not split by head)."
                                   : "Fewer KV heads than GPUs: each GPU keeps a copy of one KV head.");
    if (m.sliding_window > 0 && caps_windows(in) && !m.chunked)
        e.notes.push_back("Sliding-window layers keep at most " + num(m.sliding_window) + " tokens each (swa_full: false).");
    // Chunked attention (Llama 4): each engine caches one chunk per sequence in those layers, as a
    // window of the chunk's size: llama.cpp's iSWA cache (ggml-org/llama.cpp@2aef976:src/llama-kv-cache-iswa.cpp:50),
    // vLLM's hybrid KV cache manager (on by default since vllm-project/vllm#29627), transformers'
    // DynamicSlidingWindowLayer for "chunked_attention" layers (docs/inference.md); swa_full keeps the full context.
    if (m.sliding_window > 0 && caps_windows(in) && m.chunked)
        e.notes.push_back("Chunked-attention layers keep at most one " + num(m.sliding_window) + "-token chunk each (" +
                          (p.engine == Engine::Vllm       ? "vLLM's hybrid KV cache manager; with it off, swa_full: true"
                           : p.engine == Engine::LlamaCpp ? "llama.cpp's SWA cache, + n_ubatch; --swa-full: swa_full true"
                                                          : "transformers' sliding-window cache layer; swa_full: false") +
                          ").");
    if (m.approximate) e.notes.push_back("Approximate architecture filled from the parameter count; give a preset for exact figures.");
    // Ollama's num_ctx: lowered to the model's window (start_plan), or its default for the VRAM it
    // sees (ollama_context), said as such. snprintf: the page's size budget.
    if (p.engine == Engine::LlamaCpp && in.llamacpp.ollama) {
        char buf[420];
        buf[0] = 0;
        const OllamaContext d = ollama_context(cfg);
        if (p.ollama_oom_context > 0) {
            add_metric(e, "ollama_oom_num_ctx", "Ollama's default num_ctx, out of memory (retried lower)", p.ollama_oom_context, "tokens");
            char placed[200];
            if (p.auto_gpu_layers >= 0) std::snprintf(placed, sizeof placed, "%s", llamacpp_fit_placement(p, nullptr).c_str());
            else std::snprintf(placed, sizeof placed, "%d of %d layers on the GPU", p.gpu_layers + (p.output_on_gpu ? 1 : 0), m.layers + 1);
            std::snprintf(buf, sizeof buf, "Ollama's load at its default num_ctx %s runs out of memory, so it retries once at %s tokens (server/sched.go "
                          "reduceAutoNumCtxForLoadOOM): %s%s at %s tokens.", count_text(p.ollama_oom_context).c_str(), count_text(c).c_str(),
                          p.ollama_oom_failed ? "that load fails too (Ollama reports the error), with " : "Ollama would load ", placed, count_text(c).c_str());
        } else if (p.ollama_asked_context > 0)
            std::snprintf(buf, sizeof buf, "Ollama lowers num_ctx %s to the model's context window of %s tokens (llm/server.go: \"requested context size too large "
                          "for model\"): the figures are at %s tokens.", count_text(p.ollama_asked_context).c_str(), count_text(c).c_str(), count_text(c).c_str());
        else if (d.vram_bytes > 0 && c == d.tokens)
            std::snprintf(buf, sizeof buf, "Ollama's default context for %s%.4g GiB %s: %s tokens%s%s (OLLAMA_CONTEXT_LENGTH unset: %s below %.4g GiB, %s from it, "
                          "%s from %.4g GiB; inference.constants.ollama_num_ctx*).", d.unified ? "a " : p.tp > 1 ? (num(p.tp) + " x ").c_str() : "",
                          bytes_to_gib(d.vram_bytes / std::max(1, p.tp)), d.unified ? "working-set limit (Metal's)" : "of VRAM", count_text(d.tier_tokens).c_str(), d.tokens < d.tier_tokens ? ", lowered to the model's window of " : "",
                          d.tokens < d.tier_tokens ? count_text(d.tokens).c_str() : "", count_text(in.constants.ollama_num_ctx).c_str(), in.constants.ollama_vram_mid_gib,
                          count_text(in.constants.ollama_num_ctx_mid).c_str(), count_text(in.constants.ollama_num_ctx_large).c_str(), in.constants.ollama_vram_large_gib);
        if (buf[0]) e.notes.push_back(buf);
    }
    if (auto note = context_window_note("context", c, m); !note.empty()) e.notes.push_back(note);

    // Fits on every catalog GPU (and the custom one).
    std::vector<const GpuSpec*> gpus;
    gpus.reserve(gpu_catalog().size() + 1);
    for (const auto& g : gpu_catalog()) gpus.push_back(&g);
    if (in.has_custom_gpu) gpus.push_back(&in.custom_gpu);
    e.launch_command = launch_command(p);
    if (p.cpu_only) return Outcome<Estimate>::success(std::move(e));
    // From here the config's plan is set on each GPU in turn (its figures above are written).
    InferencePlan& q = own;
    CandidatePlans candidates(start, q);
    e.fits.reserve(gpus.size());
    for (const GpuSpec* g : gpus) {
        GpuFit f;
        f.gpu_id = g->id.empty() ? "custom" : g->id;
        // No Metal backend: the row holds nothing, and says why (its table row, the JSON's
        // no_backend; no note in every vLLM result: issue 15, the JS library's time per call).
        if (p.engine == Engine::Vllm && (vllm_no_metal(*g) || !vllm_format_loads(in, *g))) {
            f.no_backend = vllm_no_metal(*g) ? kVllmNoMetal : kVllmCapability;
            e.fits.push_back(std::move(f));
            continue;
        }
        if (p.engine == Engine::Sglang && vllm_no_metal(*g)) {
            f.no_backend = kSglangNoMetal;
            e.fits.push_back(std::move(f));
            continue;
        }
        set_plan_gpu(q, g);
        const MemoryAt mg = memory_at(q, c, n);
        f.utilization = mg.total() / q.gpu_capacity;
        f.fits = fits_at(q, c, n, 1.0) && mg.total() <= q.gpu_capacity;
        // Within the budget (budget_share): vLLM when its pool holds the sequences, the others
        // when the total is within the target.
        // The same test as the GPU counts below: llama.cpp's host buffers (all of them on a unified
        // Mac) within the target share of system RAM too, or a Mac could read "fits within target"
        // beside "0 needed".
        // (vLLM's budget share is 1: the same test as f.fits.)
        const ShapeVerdict v = verdict_at(q, c, n, budget_share(q));
        f.within_target = f.fits && v.gpu_within;
        // llama.cpp keeping weights or KV in system RAM of no stated size: the GPU part's verdict
        // alone, and the RAM it needs, which nothing checked, so not within the target.
        f.needs_ram_bytes = f.fits ? v.needs_ram_bytes : 0;
        if (f.needs_ram_bytes > 0) f.gpu_within_target = f.within_target, f.within_target = false;
        for (size_t i = 0; i < candidates.size(); ++i) {
            const InferencePlan* t = candidates.on_gpu(i, g);
            if (!t) continue;
            if (verdict_at(*t, c, n, budget_share(*t)).within()) {
                f.gpus_needed = candidates.count(i);
                break;
            }
        }
        // A count the candidates skip (tp 9, say) that is within the target is its own answer.
        if (f.gpus_needed == 0 && f.within_target) f.gpus_needed = p.in.tp;
        e.fits.push_back(std::move(f));  // (its id moved, not copied: issue 15)
    }
    return Outcome<Estimate>::success(std::move(e));
}

}  // namespace vc
