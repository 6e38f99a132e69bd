// vramcalc core: llama.cpp's allocation rules, device by device. Which layers (and their KV cells)
// each device holds for -ngl, --tensor-split and --split-mode; routed experts kept in host RAM by
// --n-cpu-moe; every layer's KV in host RAM with -nkvo; each device's compute buffer for -ub (the
// graph allocator's peak with the scheduler's input copies); the host's buffers; a vision
// projector, a draft model and LoRA adapters; and decode / prompt speed for the split. Sources:
// llama-model.cpp (load_tensors: layer placement), llama-context.cpp (graph reserve, pipeline
// parallelism), llama-kv-cache.cpp (KV buffer types), ggml-alloc.c (in-place reuse, tensor
// lifetimes), ggml-backend.cpp (scheduler input copies). docs/local.md has the derivations.
#pragma once

#include <string>
#include <vector>

#include "core/serve/inference.hpp"

namespace vc {

// One device's buffers as llama.cpp logs them at start-up ("CUDA0 model buffer size = ...").
struct DeviceBuffers {
    std::string device;       // "CUDA0", "Metal", "ROCm1", "CPU"
    double model = 0;         // model buffer (weights of the layers it holds)
    double kv = 0;            // KV buffer (the cells of those layers)
    double state = 0;         // of kv: a hybrid's recurrent layers' state cells (room for no token)
    double compute = 0;       // compute buffer (graph peak for one ubatch)
    double output = 0;        // host: the logits output buffer
    double extras = 0;        // vision projector (weights + graph), draft model (all three), LoRA
    double total() const { return model + kv + compute + output + extras; }
};

struct LlamaCppBuffers {
    std::vector<DeviceBuffers> gpus;  // one per device llama.cpp uses (empty: CPU only)
    DeviceBuffers host;               // "CPU" / "CUDA_Host" buffers, in system RAM
    int fullest = 0;                  // index of the GPU with the largest total
};

// Fills the llama.cpp part of the plan (layer placement, experts, projector, draft). `gpu` is the
// chosen device or nullptr; errors name the config field.
bool llamacpp_setup(InferencePlan& p, Error& err);

// llama.cpp's physical batch with -ub unset (ggml-org/llama.cpp@001d906 common/common.h:
// n_ubatch = 512, "physical batch size for prompt processing").
constexpr int kLlamaCppUbatch = 512;

// Ollama's automatic num_batch (ollama/ollama@b7871fc server/sched.go:822 automaticGenerationBatch;
// constants and rules in InferenceConstants), for `n` slots of `context` tokens on the plan's GPUs.
struct OllamaBatch {
    int batch = 0;            // what Ollama passes as -b and -ub; 0: not automatic (not the profile, or -ub given)
    int start = 0;            // the batch for num_ctx x parallel before any step down
    double tokens = 0;        // num_ctx (at most the trained context) x parallel
    double predicted = 0;     // Ollama's prediction: the GGUF file's bytes + an F16 KV cache of `tokens`
    double available = 0;     // the free memory of the GPUs Ollama places on (0: none, no step down)
    bool cuda_fa_off = false; // CUDA with flash attention off: the fixed 512 / 256 rule, no prediction
};
OllamaBatch ollama_auto_batch(const InferencePlan& p, double context, double n);

// Ollama's prediction of a load (ollama/ollama@b7871fc llm/llama_server.go:2681 PredictServerVRAM),
// in bytes: the GGUF file (the weights' bytes) + an F16 KV cache of num_ctx (at most the trained
// context) x `n` tokens, 2 x layers x the fewest KV heads x (embedding / heads) wide.
double ollama_predicted_bytes(const InferencePlan& p, double context, double n);

// Ollama with several GPUs (the plan's count), num_gpu not 0 and no tensor split: whether it loads
// the model on one GPU alone, its prediction at the config's context within
// constants.ollama_single_gpu_share of that GPU's free memory (its memory less the CUDA context;
// server/sched.go selectLlamaServerPlacement, bestSingleGPUFit). Needs the GPU set (set_plan_gpu).
bool ollama_single_gpu(const InferencePlan& p);

// The physical batch llama.cpp builds its graphs for at `n` slots of `context` tokens: -ub (unset:
// kLlamaCppUbatch; under the Ollama profile its automatic num_batch) capped by -b (llama_context:
// n_ubatch = min(n_batch, n_ubatch)); the buffers cap it by the context too.
int llamacpp_ubatch(const InferencePlan& p, double context, double n);

// Every device's buffers with `n` slots (-np) of `context` tokens each (-c = n x context).
LlamaCppBuffers llamacpp_buffers(const InferencePlan& p, double context, double n);

// Sets what depends on the chosen GPU (capacity, default split by memory).
void llamacpp_set_gpu(InferencePlan& p);

// System RAM that nothing checks, in bytes: with no RAM size (inference.host.ram_gib unset; a Mac's
// unified memory is always known) and a split that keeps more than token_embd in system RAM
// (layers, routed experts or the output layer by -ngl, --fit, --n-cpu-moe or -ot; the KV cells of
// CPU layers, or every layer's with -nkvo), the RAM the host buffers take (their total, the
// estimate's host_total_bytes); else 0. llama.cpp keeps token_embd in system RAM whatever the split
// (llama-model.cpp load_tensors), so that alone, with the small CPU buffers every run has, is no
// reason to ask. The verdict (GpuFit::needs_ram_bytes) and the models-that-fit list read it.
double llamacpp_unchecked_ram(const InferencePlan& p, double context, double n);

// Decode and prompt-processing time: the GPUs' shares in turn (or at once with row split), the
// host's share from system RAM; a MoE token reads only its active experts on either side.
struct LlamaCppTiming {
    double decode_memory_s = 0;   // one step, bandwidth-bound part
    double gpu_bytes = 0;         // read from GPU memory per step (all GPUs)
    double host_bytes = 0;        // read from system RAM per step
    double prefill_extra_s = 0;   // weight copies to the GPU for CPU layers (per prompt)
};
// `tokens` > 0: a forward over that many tokens (speculative verification) touches the routed
// experts as that many tokens do; 0: n, one per sequence.
LlamaCppTiming llamacpp_timing(const InferencePlan& p, double context, double n, double prompt, double tokens = 0);

// One decode step of the draft model (-md) for one sequence at `context` tokens: its weights and
// KV read where -ngld and -nkvo put them (decode_memory_s, gpu_bytes, host_bytes).
LlamaCppTiming llamacpp_draft_timing(const InferencePlan& p, double context);

// The host's achieved bandwidth, bytes/s.
double host_bandwidth(const InferencePlan& p);

// Name of llama.cpp's backend for the GPU's vendor: "CUDA", "ROCm", "SYCL", "Metal".
const char* llamacpp_backend(const InferencePlan& p);

// The command line that runs the plan: llama-server for llama.cpp (Ollama's environment and
// parameters with the Ollama profile), vllm serve for vLLM, a transformers call for HF.
std::string launch_command(const InferencePlan& p);

// The vision projector presets inference.llamacpp.mmproj.preset accepts, with their sources.
struct ProjectorInfo {
    const char* id;
    const char* source;
};
std::vector<ProjectorInfo> projector_presets();

// Whether a KV cache type is quantized (V quantization needs flash attention in llama.cpp).
bool kv_type_quantized(const std::string& id);

// llama-server's --fit with -ngl unset (plain llama-server by default since llama.cpp PR #16653;
// Ollama v0.32.15 with num_gpu unset passes no -ngl): llama.cpp common/fit.cpp
// common_params_fit_impl. Applies with inference.llamacpp.fit on, -ngl unset, on a GPU, with layer
// split, no tensor split and no tensor override (-ot, --n-cpu-moe): --fit refuses to change those.
bool llamacpp_fit_applies(const InferencePlan& p);
// On a plan llamacpp_setup has filled: if every layer and the output layer leave
// constants.fit_target_bytes free on each GPU (its memory less `context_bytes`, the CUDA context)
// nothing changes; else a dense model gets the most layers that do (-ngl), and a MoE model first
// keeps routed experts in system RAM: every layer on the GPU with the experts of the fewest layers
// on the CPU (--n-cpu-moe) when the dense weights fit, else the most layers with all experts on the
// CPU. The context stays (the launch command passes -c). Sets auto_gpu_layers / auto_cpu_moe and
// redoes the placement.
bool llamacpp_fit(InferencePlan& p, double context_bytes, Error& err);
// Whether the estimate reports the fit (auto_gpu_layers, its note) and the launch command leaves
// -ngl to it: under the Ollama profile whenever it ran (num_gpu is Ollama's); plain llama-server
// only when it moved layers or experts to system RAM. When --fit keeps every layer it changes
// nothing, and the command prints -ngl layers + 1 as with --fit off (the same load on any release).
bool llamacpp_fit_shown(const InferencePlan& p);
// What the fit placed, as llama.cpp counts it: "36 of 81 layers (the output layer and 35 repeating
// layers) on the GPU", " with the routed experts of 5 of 58 MoE layers in system RAM" where it kept
// experts there (before PR #18148: "42 of 80 layers on the GPU"). The estimate's note and the
// what-fits answers under automatic placement say it. `in_ram`, when given, is set to whether any
// of those layers or routed experts stay in system RAM.
std::string llamacpp_fit_placement(const InferencePlan& p, bool* in_ram = nullptr);

// Ollama's default num_ctx for `cfg` (Ollama v0.15.5 and later, ollama/ollama@b7871fc:server/routes.go:2043-2057):
// by the memory of every GPU it sees together (a Mac: the working-set limit Metal reports), at least
// constants.ollama_vram_large_gib -> ollama_num_ctx_large, at least ollama_vram_mid_gib ->
// ollama_num_ctx_mid, else ollama_num_ctx; never past the model's trained context
// (server/sched.go:149-167 effectiveModelContext). Only the catalog or custom GPU and the model are
// read; a model that does not resolve is not capped (the estimate reports it). `vram_bytes` is the
// memory summed (0: no GPU), `tier_tokens` the tier's num_ctx before the cap, `tokens` the result.
struct OllamaContext {
    int tokens = 0;
    int tier_tokens = 0;
    double vram_bytes = 0;
    bool unified = false;
};
OllamaContext ollama_context(const Config& cfg);
inline int ollama_default_context(const Config& cfg) { return ollama_context(cfg).tokens; }

// Ollama's retry after an out-of-memory load (ollama/ollama@b7871fc:server/sched.go:649-663): when
// llama-server fails to load with num_ctx automatic (here: the context is Ollama's default for the
// GPU, ollama_context) and its error reads as out of memory (llm/status.go:85-96: "failed to
// allocate", "out of memory", ...), Ollama lowers num_ctx once, reduceAutoNumCtxForLoadOOM (:757)
// taking nextLowerAutoNumCtx (:917: above 32,768 tokens 32,768, above 4,096 4,096; the tiers
// ollama_num_ctx_mid and ollama_num_ctx), picks the batch again and retries; a second failure is the
// error. The load fails here when the buffers of --fit's split are beyond the memory they are
// allocated from (fits_at at 100%: each GPU's memory; system RAM when known, all of a Mac's unified
// memory): the plan is placed again at the lower context, and p.ollama_oom_context keeps the failed one.
void ollama_oom_retry(InferencePlan& p, const Config& cfg);
// nextLowerAutoNumCtx: the num_ctx Ollama retries `context` at (0: none lower).
double ollama_retry_context(const InferenceConstants& k, double context);

}  // namespace vc
