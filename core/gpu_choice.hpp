// vramcalc core: the GPU a config sizes for. The catalog entry `gpu` names, or the custom GPU the
// config gives (inference.gpu_custom: name, memory, bandwidth, TFLOP/s, SMs), which replaces it for
// every task and every answer (the page's "Custom GPU"). Its fit is listed under id "custom".
#pragma once

#include <string>

#include "core/catalog/gpus.hpp"
#include "core/config.hpp"
#include "core/result.hpp"
#include "core/status.hpp"

namespace vc {

inline constexpr const char* kCustomGpuId = "custom";

// The custom GPU when the config gives one, else the catalog entry `gpu` names; nullptr for none
// or an id the catalog does not have.
const GpuSpec* config_gpu(const Config& cfg);
// The id of that GPU in an estimate's fits ("custom" for the custom GPU), "" for none.
std::string config_gpu_id(const Config& cfg);
// The GPU of one row of an estimate's fits: the catalog entry, or the config's custom GPU for
// "custom"; nullptr for neither.
const GpuSpec* fit_gpu(const Config& cfg, const std::string& gpu_id);
// Checks the custom GPU's figures (fields "inference.gpu_custom.*"): memory > 0, the speed figures
// >= 0 (0: unknown, the speed answers say so), SMs and threads per SM in [0, 4096] (0: unknown,
// the flat CUDA context).
bool check_custom_gpu(const GpuSpec& g, Error& err);
// The modelled CUDA context inside a per-GPU size (the chosen GPU's), for each card's fit to count
// its own instead (detailed training; core/catalog/cuda_context.hpp).
struct OwnContext {
    double counted = 0;
    bool lazy = true;
    double stack_limit = kCudaStackLimitBytes;
};
// What one GPU holds on `g`: `bytes`, with the context swapped for g's own when `own` is given.
double bytes_on(const GpuSpec& g, double bytes, const OwnContext* own);

// Adds the custom GPU's fit to `e.fits` (per-GPU bytes over its memory; bytes_on it with `own`),
// when the config gives one: 1 GPU needed when within the target, else 0 (as fill_catalog_fits).
void add_custom_gpu_fit(Estimate& e, const Config& cfg, double per_gpu_bytes, const OwnContext* own = nullptr);

}  // namespace vc
