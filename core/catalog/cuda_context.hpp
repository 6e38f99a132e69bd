// vramcalc core: the CUDA context one process holds on each GPU outside the caching allocator (the
// driver's and the CUDA runtime's state and the kernel images loaded), one model for training and
// serving. What differs most is whether the kernels load at start-up or when first used.
#pragma once

namespace vc {

// Every kernel of PyTorch loaded at init (CUDA < 11.7, CUDA_MODULE_LOADING=EAGER, or PyTorch <= 1.12):
// 1343 MiB on a V100. Source: HF transformers docs, model_memory_anatomy (calibration row C07).
inline constexpr double kCudaContextEagerBytes = 1343.0 * 1024 * 1024;

// Lazy module loading (CUDA >= 11.7; PyTorch >= 1.13 sets CUDA_MODULE_LOADING=LAZY, pytorch PR
// #86509): ~400 MB at the first op (pytorch issue #109888), 426 MiB on an RTX 6000 Ada with PyTorch
// 2.10 / CUDA 13 (unsloth-zoo PR #1053); a step's GEMM, attention and optimizer kernels load on
// top. Source of the 0.5 GiB: those readings plus the kernels of one step, as vLLM budgets it.
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

// The context with or without lazy module loading.
inline constexpr double cuda_context_bytes(bool lazy_loading) {
    return lazy_loading ? kCudaContextLazyBytes : kCudaContextEagerBytes;
}

}  // namespace vc
