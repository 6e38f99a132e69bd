// [FOLDER] core/catalog/: gpus.hpp/.cpp (the GPU catalog with each figure's source; local_gpus.cpp
//   the local machines), fabrics.hpp/.cpp (intra-node links, inter-node fabrics and GPU nodes, for
//   the planner), cuda_context.hpp/.cpp (the CUDA context per GPU, training's and serving's).
// vramcalc core: the GPU catalog. Each figure is a named constant with its source in gpus.cpp;
// a caller can pass a custom GpuSpec anywhere a catalog entry is accepted (that is the override).
#pragma once

#include <string>
#include <vector>

namespace vc {

struct GpuSpec {
    std::string id;            // stable key, e.g. "a100-80gb"
    std::string name;          // display name, e.g. "NVIDIA A100 80GB (SXM)"
    double nominal_gb = 0;     // the marketed capacity, as rules of thumb divide by (e.g. 80)
    double memory_bytes = 0;   // total device memory as the driver reports it (nvidia-smi / rocm-smi total)
    double bandwidth_gbps = 0; // peak memory bandwidth, GB/s (1e9 bytes per second)
    double bf16_tflops = 0;    // dense BF16/FP16 tensor throughput, TFLOP/s (no sparsity)
    double fp8_tflops = 0;     // dense FP8 tensor throughput, TFLOP/s; 0 = no FP8 tensor cores
    double price_per_hour_usd = 0;  // typical on-demand cloud price per GPU-hour; 0 = unknown
    // NVIDIA: streaming multiprocessors and the most threads one SM holds resident (the CUDA
    // context's local-memory reservation, core/catalog/cuda_context.hpp); 0 = not modelled.
    int sms = 0;
    int threads_per_sm = 0;
    // NVIDIA: the CUDA compute capability as major x 10 + minor (80 for the A100, 86 for the A10G,
    // 90 for the H100); 0 for AMD, Intel, Apple and a custom GPU (not known). vLLM picks kernels by
    // it (core/serve: the MXFP4 MoE backend); threads_per_sm follows from it (unit test).
    int compute_capability = 0;
    std::string source;        // one line: where the figures come from
    // Local machines (core/catalog/local_gpus.cpp). Empty vendor: "apple" when unified, else read
    // from the name's first word.
    std::string vendor;        // "nvidia", "amd", "intel", "apple"
    // Memory shared with the CPU (a Mac: Apple Silicon, or the custom GPU with
    // inference.gpu_custom.unified): memory_bytes is the RAM, the GPU may wire only its working-set
    // limit (unified_gpu_budget), Metal's context, one machine (apply_one_machine_rule). The one
    // question "is it a Mac" every part of the engine asks.
    bool unified = false;
};

// "nvidia", "amd", "intel", "apple" (the vendor field, else "apple" when unified, else the name's
// first word).
std::string gpu_vendor(const GpuSpec& g);

// The Metal working-set limit macOS reports for a unified-memory Mac with `ram_bytes` of RAM
// (recommendedMaxWorkingSetSize): 2/3 of RAM up to 32 GiB, 3/4 above (constants in local_gpus.cpp;
// tests/calibration/llamacpp.csv L22-L24). `wired_limit_mb` > 0 (sysctl iogpu.wired_limit_mb)
// replaces it.
double unified_gpu_budget(double ram_bytes, double wired_limit_mb);

// Consumer, laptop and workstation GPUs, Apple Silicon and AMD/Intel cards (local_gpus.cpp),
// appended to gpu_catalog().
const std::vector<GpuSpec>& local_gpu_entries();

// The built-in catalog, in display order.
const std::vector<GpuSpec>& gpu_catalog();

// Returns the catalog entry with `id`, or nullptr if there is none.
const GpuSpec* find_gpu(const std::string& id);
// For a message about an id the catalog does not have: "; did you mean h100-80gb?" (the nearest
// ids, core/text.hpp did_you_mean), "" when none is near.
std::string gpu_suggestion(const std::string& id);
// The error of a `gpu` the catalog does not have, with that suggestion (every task, method and answer).
std::string unknown_gpu_message(const std::string& id);

}  // namespace vc
