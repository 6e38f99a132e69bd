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

// The context with or without lazy module loading.
inline constexpr double cuda_context_bytes(bool lazy_loading) {
    return lazy_loading ? kCudaContextLazyBytes : kCudaContextEagerBytes;
}

}  // namespace vc
