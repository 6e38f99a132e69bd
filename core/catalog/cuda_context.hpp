// vramcalc core: the CUDA context one process holds on each GPU outside the caching allocator (the
// driver's and the CUDA runtime's state and the kernel images loaded), one model for training and
// serving: a framework part (whether the kernels load at start-up or when first used) plus the
// local memory the driver reserves for every thread the GPU can hold resident (cuda_context).
#pragma once

#include <string>

#include "core/catalog/gpus.hpp"

namespace vc {

// Every kernel of PyTorch loaded at init (CUDA < 11.7, CUDA_MODULE_LOADING=EAGER, or PyTorch <= 1.12):
// 1343 MiB on a V100. Source: HF transformers docs, model_memory_anatomy (calibration row C07).
inline constexpr double kCudaContextEagerBytes = 1343.0 * 1024 * 1024;

// Lazy module loading (CUDA >= 11.7; PyTorch >= 1.13 sets CUDA_MODULE_LOADING=LAZY, pytorch PR
// #86509): ~400 MB at the first op (pytorch issue #109888), 426 MiB on an RTX 6000 Ada with PyTorch
// 2.10 / CUDA 13 at torch.cuda.mem_get_info (unsloth-zoo PR #1053); a step's GEMM, attention and
// optimizer kernels load on top. Source of the 0.5 GiB: those readings plus the kernels of one
// step, as vLLM budgets it; NVML's per-process memory less the peak reserved reads 0.50 GiB on an
// A100 (extra.csv X10, X11), the GPU cuda_context re-bases it on.
inline constexpr double kCudaContextLazyBytes = 0.5 * 1024 * 1024 * 1024;

// What decides whether lazy loading is in effect (NVIDIA CUDA Programming Guide, "Lazy Loading":
// introduced in CUDA 11.7, disabled by default; needs the CUDA runtime 11.7+ and driver 515+;
// enabled by default on Linux from CUDA 12.2). 0 = not known (taken as new enough).
inline constexpr int kLazyLoadingMinRuntime = 1107;       // CUDA runtime 11.7, as major x 100 + minor
inline constexpr int kLazyLoadingMinDriver = 515;         // driver branch
inline constexpr int kLazyLoadingDefaultDriver = 535;     // the CUDA 12.2 driver branch: LAZY by default
struct ModuleLoading {
    int cuda_runtime = 0;        // major x 100 + minor (the wheel's: cu117 -> 1107)
    int driver = 0;              // driver branch (470, 525, 535, ...)
    int env = 0;                 // CUDA_MODULE_LOADING: +1 LAZY, -1 EAGER, 0 unset
    bool framework_sets_lazy = true;  // PyTorch >= 1.13 sets LAZY when unset (pytorch PR #86509)
};
inline constexpr bool lazy_loading_in_effect(const ModuleLoading& m) {
    if (m.cuda_runtime > 0 && m.cuda_runtime < kLazyLoadingMinRuntime) return false;
    if (m.driver > 0 && m.driver < kLazyLoadingMinDriver) return false;
    if (m.env != 0) return m.env > 0;
    if (m.framework_sets_lazy) return true;
    return m.driver >= kLazyLoadingDefaultDriver;
}

// The local-memory (per-thread stack) backing store: the driver reserves, per context,
// cudaLimitStackSize x multiProcessorCount x maxThreadsPerMultiProcessor bytes (cms-sw/cmssw PR
// #51395; "216MB on A100 (108SMs)", arcs-skku/EMDC_llvm issue #13). The stack limit's default
// is 1024 B (cudaDeviceGetLimit on a fresh context: kokkos issue #755; MATLAB GPU Coder's default).
inline constexpr double kCudaStackLimitBytes = 1024;
// What else a bare context (no framework kernels) holds per resident thread: 962 B, fitted with
// kCudaBareContextBytes to the two bare contexts of llama.cpp PR #23604 (cudaMemGetInfo's context
// less NVML's free): 107 MiB on an RTX 4060 Ti (34 SMs x 1536 threads) and 555 MiB on an RTX PRO
// 6000 Blackwell (188 x 1536): (555 - 107) MiB / (154 x 1536) = 1986 B a thread, the stack's
// 1024 and 962 more. A constant beside the stack alone fits one of them, not both (56 vs 273 MiB).
inline constexpr double kCudaDriverBytesPerThread = 962;
// The rest of a bare context: 107 MiB less the RTX 4060 Ti's threads x 1986 B (8.1 MiB).
inline constexpr double kCudaBareContextBytes = 107.0 * 1024 * 1024 - 34.0 * 1536 * (kCudaStackLimitBytes + kCudaDriverBytesPerThread);
// The GPUs the two framework readings above ran on (their contexts are re-based on them): a V100
// (80 SMs, Tesla V100 whitepaper; 2048 threads per SM at compute capability 7.0) and an A100 (108
// SMs, A100 whitepaper; 2048 at 8.0), CUDA C++ Programming Guide, compute capabilities table.
inline constexpr double kEagerReadingThreads = 80.0 * 2048;
inline constexpr double kLazyReadingThreads = 108.0 * 2048;

// Threads `g` can hold resident (SMs x max threads per SM); 0 when the entry has no SM figures
// (AMD, Intel, Apple, a custom GPU without them).
double resident_threads(const GpuSpec& g);

// The local memory the driver reserves on `g`: (stack_limit + kCudaDriverBytesPerThread) x
// resident_threads(g); 0 without SM figures.
double cuda_local_memory_bytes(const GpuSpec& g, double stack_limit_bytes);

// A context with no framework kernels on `g`: kCudaBareContextBytes + its local memory at the
// default stack limit (the model of llama.cpp PR #23604's readings; 0 without SM figures).
double cuda_bare_context_bytes(const GpuSpec& g);

// The context on one GPU and how it was reached (the estimate's explanation).
struct CudaContext {
    double bytes = 0;
    std::string formula;
};

// The context of one process on `gpu` (nullptr: none chosen), with or without lazy module
// loading: the framework part (kCudaContextLazyBytes less the A100's local memory, 93 MiB;
// kCudaContextEagerBytes less the V100's, 1033 MiB: the source readings come back on their own
// GPUs) plus the local memory of `gpu` at `stack_limit_bytes`. A GPU without SM figures (none
// chosen, non-NVIDIA, a custom one without them) takes the flat reading, and the formula says so; on
// a unified-memory Mac the formula says the flat figure stands in for Metal's unmeasured context.
// One function for training (core/train/training.cpp) and serving (core/serve/inference.cpp).
CudaContext cuda_context(const GpuSpec* gpu, bool lazy_loading, double stack_limit_bytes = kCudaStackLimitBytes);
// The name of that context on `gpu` for a result's label: "Metal" on an Apple GPU (PyTorch's MPS
// backend and llama.cpp run on Metal there), else "CUDA" (none chosen included).
const char* gpu_runtime_name(const GpuSpec* gpu);
// Its bytes alone (no text: the fits on every catalog GPU).
double cuda_context_bytes(const GpuSpec* gpu, bool lazy_loading, double stack_limit_bytes = kCudaStackLimitBytes);

}  // namespace vc
