// vramcalc core: SGLang's start-up memory (see sglang.hpp).
//
// [SECTIONS]
//   defaults   chunked_prefill_size, the CUDA graphs' max_bs and mem_fraction_static by the GPU's memory
//   pool       total_gpu_memory, the static part, the KV pool's tokens, the req_to_token pool
//   text       the refusal and the launch command
#include "core/serve/sglang.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/serve/inference.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {

// [SECTION] defaults ------------------------------------------------------------------------------
namespace {

constexpr double kMiB = 1048576.0;

// chunked_prefill_size and the decode graphs' max_bs below each tier of gpu_mem
// (sgl-project/sglang@031ed82:python/sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings,
// "GPU-dependent capacity defaults"): T4/4080, A10/4090/5090, A100 40GB/L40, H100/A100, H20/H200, then
// B200/MI300. max_bs at tp < 4 and at tp >= 4. The tiers' bounds are inference.constants.sglang_tier*_gib;
// the values are overridden by inference.sglang.chunked_prefill_size and cuda_graph_max_bs.
struct SglangTier {
    int chunked_prefill_size, max_bs_small_tp, max_bs_large_tp;
};
constexpr SglangTier kSglangTiers[] = {{2048, 8, 8}, {4096, 48, 160}, {4096, 32, 160}, {8192, 256, 512}, {8192, 256, 512}, {16384, 512, 512}};
// gpu_mem unknown (no GPU): "Fallback defaults when gpu_mem is None", and mem_fraction_static 0.95.
constexpr SglangTier kSglangNoGpu = {4096, 160, 160};
constexpr double kSglangNoGpuFraction = 0.95;

const SglangTier& sglang_tier(double gpu_mem_mib, const InferenceConstants& k) {
    const double bounds[] = {k.sglang_tier1_gib, k.sglang_tier2_gib, k.sglang_tier3_gib, k.sglang_tier4_gib, k.sglang_tier5_gib};
    for (int i = 0; i < 5; ++i)
        if (gpu_mem_mib < bounds[i] * 1024) return kSglangTiers[i];
    return kSglangTiers[5];
}

// The prefill graphs' captured token counts up to max_bs (memory_hook.py's cuda_graph_hook.py
// generate_prefill_cuda_graph_batch_sizes: 4..32 by 4, 48..256 by 16, 288..512 by 32, 576..1024 by 64,
// 1280..4096 by 256, then by 512 from 4608).
int prefill_graph_sizes(int max_bs) {
    struct Run {
        int from, to, step;
    };
    static const Run runs[] = {{4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 4096, 256}, {4608, 1 << 30, 512}};
    int count = 0;
    for (const Run& r : runs)
        for (int s = r.from; s <= std::min(r.to, max_bs); s += r.step) ++count;
    return count;
}

// chunked_prefill_size, max_bs, the prefill graphs, reserved_mem and mem_fraction_static for p's GPU.
void sglang_defaults(InferencePlan& p, double gpu_mem_mib) {
    const InferenceInputs& in = p.in;
    const SglangOptions& o = in.sglang;
    const InferenceConstants& k = in.constants;
    SglangMemory& s = p.sglang;
    const bool mla = p.model.kv_lora_rank > 0;  // use_mla_backend
    const SglangTier& tier = gpu_mem_mib > 0 ? sglang_tier(gpu_mem_mib, k) : kSglangNoGpu;
    s.gpu_mem_mib = gpu_mem_mib;
    s.chunked_prefill_size = o.chunked_prefill_size != 0 ? o.chunked_prefill_size : tier.chunked_prefill_size;
    const bool graphs = !o.disable_cuda_graph;
    s.cuda_graph_max_bs = !graphs ? 0 : o.cuda_graph_max_bs > 0 ? o.cuda_graph_max_bs : (p.tp < 4 ? tier.max_bs_small_tp : tier.max_bs_large_tp);
    // Prefill graphs: max_bs the chunked prefill size (MLA: 2048), at most 4096 for a "llama-2" model path.
    int prefill_max = mla ? 2048 : s.chunked_prefill_size;
    if (p.model.id.find("llama-2") != std::string::npos) prefill_max = std::min(prefill_max, 4096);
    const bool prefill_graphs = graphs && o.prefill_cuda_graph;
    s.prefill_graph_sizes = prefill_graphs ? prefill_graph_sizes(prefill_max) : 0;
    // reserve_for_graph_mb: the decode graphs by max_bs; the prefill graphs' non-torch memory per size,
    // or a flat figure with an MLA backend ("MLA backend overhead is much higher than expected with fa3").
    const double decode_graph_mib = s.cuda_graph_max_bs * k.sglang_decode_graph_mib_per_bs;
    const double prefill_graph_mib = !prefill_graphs ? 0 : mla ? k.sglang_mla_prefill_graph_mib : s.prefill_graph_sizes * k.sglang_prefill_graph_mib_per_size;
    s.graph_bytes = (decode_graph_mib + prefill_graph_mib) * kMiB;
    if (o.mem_fraction_static > 0) {
        s.mem_fraction_static = o.mem_fraction_static;
        s.reserved_mib = 0;
        return;
    }
    if (gpu_mem_mib <= 0) {
        s.mem_fraction_static = kSglangNoGpuFraction;
        s.reserved_mib = 0;
        return;
    }
    // "Tokens the activation working set scales with": the chunk, at least 2048; chunked prefill off:
    // --max-prefill-tokens, at least 2048.
    const double act_tokens = std::max(s.chunked_prefill_size > 0 ? static_cast<double>(s.chunked_prefill_size) : k.sglang_max_prefill_tokens,
                                       k.sglang_min_activation_tokens);
    double reserved = k.sglang_reserved_mib + act_tokens * k.sglang_activation_mib_per_token + p.tp * 1.0 / 8 * k.sglang_parallel_mib +
                      decode_graph_mib + prefill_graph_mib;
    if (gpu_mem_mib > k.sglang_floor_from_gib * 1024) reserved = std::max(reserved, k.sglang_reserved_floor_mib);
    s.reserved_mib = reserved;
    // round((gpu_mem - reserved_mem) / gpu_mem, 3); Python's round() on a float: ties are as rare as here.
    s.mem_fraction_static = std::round((gpu_mem_mib - reserved) / gpu_mem_mib * 1000) / 1000;
}

}  // namespace

// [SECTION] pool ----------------------------------------------------------------------------------

void sglang_set_gpu(InferencePlan& p, const GpuSpec* gpu) {
    const InferenceConstants& k = p.in.constants;
    SglangMemory& s = p.sglang;
    // gpu_mem: nvidia-smi's memory.total in MiB (utils/common.py get_nvgpu_memory_capacity), the catalog's memory_bytes.
    sglang_defaults(p, gpu ? gpu->memory_bytes / kMiB : 0);
    // NCCL and the custom all-reduce buffers at TP > 1, set up before SGLang measures the free memory
    // (model_runner.py init_torch_distributed: init_distributed_environment, initialize_model_parallel,
    // then min_per_gpu_memory = get_available_gpu_memory(...)): the same buffers as vLLM's
    // (inference.constants.vllm_non_torch_tp_gib). p.runtime_gpu holds the CUDA context already (set_plan_gpu).
    if (p.tp > 1) p.runtime_gpu += k.vllm_non_torch_tp_bytes;
    s.total_free = 0, s.rest = 0, s.max_total_tokens = 0;
    p.budget = 0, p.pool = 0;
    if (!gpu) return;
    // total_gpu_memory: what cudaMemGetInfo reports free after start-up, the card less the driver's part
    // (constants.driver_reserved_gib), the CUDA context and NCCL.
    s.total_free = std::max(0.0, gpu->memory_bytes - k.driver_reserved_bytes - p.runtime_gpu);
    p.budget = s.total_free * s.mem_fraction_static;
    // profile_max_num_token: rest_memory = available after the weights - total x (1 - fraction)
    // = total x fraction - weights; int(rest x 2^30) // cell_size tokens, then // page_size x page_size
    // (sgl-project/sglang@001ccef:python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py).
    s.rest = p.budget - p.weights_gpu;
    const double cell = p.kv.bytes_per_token, page = std::max(1, p.in.sglang.page_size);
    const double tokens = s.rest > 0 && cell > 0 ? std::floor(s.rest / cell) : 0;
    s.max_total_tokens = std::floor(tokens / page) * page;
    p.pool = s.max_total_tokens * cell;
}

double sglang_activation_tokens(const InferencePlan& p) {
    const int chunk = p.sglang.chunked_prefill_size;
    return chunk > 0 ? chunk : p.in.constants.sglang_max_prefill_tokens;
}

double sglang_req_pool_rows(const InferencePlan& p, double context) {
    const InferenceConstants& k = p.in.constants;
    if (p.in.sglang.max_running_requests > 0) return p.in.sglang.max_running_requests;
    if (!(context > 0)) return k.sglang_req_pool_min;
    const double by_tokens = std::floor(p.sglang.max_total_tokens / context * k.sglang_req_pool_per_token_ratio);
    return std::min(std::max(by_tokens, k.sglang_req_pool_min), k.sglang_req_pool_max);
}

// ReqToTokenPool: torch.zeros((size, max_context_len), dtype=torch.int32) with max_context_len =
// context_len + extra_max_context_len (4).
double sglang_req_to_token_bytes(const InferencePlan& p, double context) {
    return sglang_req_pool_rows(p, context) * (context + p.in.constants.sglang_req_context_pad) * 4;
}

// Scheduler's max_running_requests (managers/tp_worker.py): min(max_total_num_tokens // 2 or the given
// value, req_to_token_pool.size).
double sglang_max_running(const InferencePlan& p, double context) {
    const double asked = p.in.sglang.max_running_requests > 0 ? p.in.sglang.max_running_requests : std::floor(p.sglang.max_total_tokens / 2);
    return std::min(asked, sglang_req_pool_rows(p, context));
}

double sglang_sequence_tokens(const InferencePlan& p, double tokens) {
    const double page = std::max(1, p.in.sglang.page_size);
    return std::ceil(tokens / page) * page;
}

double sglang_max_sequences(const InferencePlan& p, double context) {
    const double per = sglang_sequence_tokens(p, context);
    if (per <= 0 || p.sglang.max_total_tokens <= 0) return 0;
    return std::min(std::floor(p.sglang.max_total_tokens / per), sglang_max_running(p, context));
}

double sglang_gpu_bytes(const InferencePlan& p, double context) {
    // memory_at's SGLang entries, summed: the static part's weights and whole pool, the runtime, the graphs, the
    // chunk's forward and the req_to_token rows.
    return p.weights_gpu + std::max(0.0, p.pool) + p.runtime_gpu + p.graphs_gpu + p.activation_peak + sglang_req_to_token_bytes(p, context);
}

bool sglang_fits(const InferencePlan& p, double context, double n) {
    if (!p.has_gpu || p.sglang.max_total_tokens <= 0) return false;
    if (n * sglang_sequence_tokens(p, context) > p.sglang.max_total_tokens || n > sglang_max_running(p, context)) return false;
    return sglang_gpu_bytes(p, context) <= p.gpu_capacity;
}

// [SECTION] text ----------------------------------------------------------------------------------

// snprintf: the page's size budget (tests/browser/size.test.mjs).
std::string sglang_refusal(const InferencePlan& p) {
    const SglangMemory& s = p.sglang;
    char buf[480];
    std::snprintf(buf, sizeof buf, "SGLang stops at start-up: the weights (%.2f GiB per GPU) leave nothing of mem_fraction_static %g x %.2f GiB free "
                  "(%.2f GiB) for the KV pool (RuntimeError \"Not enough memory. Please try to increase --mem-fraction-static.\"); raise "
                  "inference.sglang.mem_fraction_static, use more GPUs (inference.tp) or a smaller format.",
                  bytes_to_gib(p.weights_gpu), s.mem_fraction_static, bytes_to_gib(s.total_free), bytes_to_gib(p.budget));
    return buf;
}

std::string sglang_launch_command(const InferencePlan& p) {
    const InferenceInputs& in = p.in;
    const SglangOptions& o = in.sglang;
    char buf[640];
    int at = std::snprintf(buf, sizeof buf, "python -m sglang.launch_server --model-path %s --tp %d --context-length %d",
                           p.model.id.empty() ? "MODEL" : p.model.id.c_str(), p.tp, in.context);
    auto add = [&](const char* flag, double v) { at += std::snprintf(buf + at, sizeof buf - at, v == std::floor(v) ? " %s %.0f" : " %s %g", flag, v); };
    // The fraction SGLang would choose on this GPU, pinned (the same on every GPU of the TP group).
    if (o.mem_fraction_static > 0 || p.has_gpu) add("--mem-fraction-static", p.sglang.mem_fraction_static);
    if (o.chunked_prefill_size != 0) add("--chunked-prefill-size", o.chunked_prefill_size);
    if (o.cuda_graph_max_bs > 0 && !o.disable_cuda_graph) add("--cuda-graph-max-bs", o.cuda_graph_max_bs);
    if (o.max_running_requests > 0) add("--max-running-requests", o.max_running_requests);
    if (o.page_size != 1) add("--page-size", o.page_size);
    std::string s = buf;
    if (p.kv_dtype && std::string(p.kv_dtype->id) == "fp8") s += ascii_lower(in.kv_dtype) == "fp8_e5m2" ? " --kv-cache-dtype fp8_e5m2" : " --kv-cache-dtype fp8_e4m3";
    if (o.disable_cuda_graph) s += " --disable-cuda-graph";
    else if (!o.prefill_cuda_graph) s += " --cuda-graph-config '{\"prefill\": {\"backend\": \"disabled\"}}'";
    return s;
}

}  // namespace vc
