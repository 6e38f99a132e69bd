// vramcalc core: SGLang as a serving engine (python -m sglang.launch_server). SGLang takes a static
// fraction of what the GPU has free after start-up (--mem-fraction-static) for the weights and a KV
// pool sized once, and leaves the rest for activations, the CUDA graphs and the req_to_token pool:
//   total_gpu_memory  free memory after the CUDA context and NCCL (init_torch_distributed)
//   rest              total_gpu_memory x mem_fraction_static - weights
//   tokens            rest / cell size, rounded down to whole pages (max_total_num_tokens)
// with mem_fraction_static, chunked_prefill_size and the CUDA graphs' max_bs defaulted by the GPU's
// memory (sgl-project/sglang@031ed82:python/sglang/srt/arg_groups/memory_hook.py:27). Every formula and
// its source: docs/inference.md, "SGLang".
#pragma once

#include <string>

namespace vc {

struct InferencePlan;
struct GpuSpec;

// What SGLang sizes at start-up on one GPU (InferencePlan::sglang; set by sglang_set_gpu). Bytes unless named.
struct SglangMemory {
    double gpu_mem_mib = 0;          // SGLang's gpu_mem: nvidia-smi's total, MiB (get_device_memory_capacity)
    int chunked_prefill_size = 0;    // resolved; -1: chunked prefill off
    int cuda_graph_max_bs = 0;       // resolved decode graphs' max_bs (0: graphs off)
    int prefill_graph_sizes = 0;     // token counts the prefill graphs capture (0: off)
    double reserved_mib = 0;         // the rule's reserved_mem (0: mem_fraction_static given)
    double mem_fraction_static = 0;  // resolved
    double total_free = 0;           // total_gpu_memory: the card less the driver, CUDA context and NCCL
    double rest = 0;                 // total_free x mem_fraction_static - weights (< 0: SGLang refuses to start)
    double max_total_tokens = 0;     // the KV pool's tokens (max_total_num_tokens)
    double graph_bytes = 0;          // CUDA graphs, at SGLang's own reserve per graph
};

// Sets p.sglang, p.budget (the static fraction), p.pool (the KV pool's bytes) and p.runtime_gpu (CUDA
// context + NCCL) for `gpu` (nullptr: none; only the weights then). p.weights_gpu must be set.
void sglang_set_gpu(InferencePlan& p, const GpuSpec* gpu);

// Tokens the prefill activations are sized for: chunked_prefill_size, or with chunked prefill off
// --max-prefill-tokens (constants.sglang_max_prefill_tokens).
double sglang_activation_tokens(const InferencePlan& p);

// The req_to_token pool's rows at `context` (--context-length): --max-running-requests when given, else
// min(max(int(max_total_num_tokens / context x 512), 2048), 4096); and its bytes (rows x (context + 4) x 4 B).
double sglang_req_pool_rows(const InferencePlan& p, double context);
double sglang_req_to_token_bytes(const InferencePlan& p, double context);
// max_running_requests: min(max_total_num_tokens // 2, or the given value, the req_to_token rows).
double sglang_max_running(const InferencePlan& p, double context);
// A sequence of `tokens` in the pool, whole pages.
double sglang_sequence_tokens(const InferencePlan& p, double tokens);
// Sequences of `context` tokens the pool holds at once, at most max_running_requests.
double sglang_max_sequences(const InferencePlan& p, double context);
// The whole of one GPU at `context` (memory_at's total under SGLang: it does not depend on the sequences in flight).
double sglang_gpu_bytes(const InferencePlan& p, double context);
// Whether `n` sequences of `context` tokens run at once: the pool holds them, max_running_requests
// admits them, and the whole of the GPU (static part + outside it) is within its memory.
bool sglang_fits(const InferencePlan& p, double context, double n);
// SGLang's refusal when the weights take the static fraction (rest <= 0): its RuntimeError, in words.
std::string sglang_refusal(const InferencePlan& p);
// python -m sglang.launch_server ... for the plan.
std::string sglang_launch_command(const InferencePlan& p);

}  // namespace vc
