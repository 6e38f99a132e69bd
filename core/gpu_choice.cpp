// vramcalc core: the GPU a config sizes for (see gpu_choice.hpp).
#include "core/gpu_choice.hpp"

#include "core/catalog/cuda_context.hpp"
#include "core/fields.hpp"

namespace vc {

const GpuSpec* config_gpu(const Config& cfg) {
    if (cfg.inference.has_custom_gpu) return &cfg.inference.custom_gpu;
    return cfg.gpu_id.empty() ? nullptr : find_gpu(cfg.gpu_id);
}

std::string config_gpu_id(const Config& cfg) { return cfg.inference.has_custom_gpu ? kCustomGpuId : cfg.gpu_id; }

const GpuSpec* fit_gpu(const Config& cfg, const std::string& gpu_id) {
    if (gpu_id == kCustomGpuId) return cfg.inference.has_custom_gpu ? &cfg.inference.custom_gpu : nullptr;
    return find_gpu(gpu_id);
}

bool check_custom_gpu(const GpuSpec& g, Error& err) {
    return check_members({{"inference.gpu_custom.memory_gib", g.memory_bytes},
                          {"inference.gpu_custom.bandwidth_gbps", g.bandwidth_gbps},
                          {"inference.gpu_custom.bf16_tflops", g.bf16_tflops},
                          {"inference.gpu_custom.fp8_tflops", g.fp8_tflops},
                          {"inference.gpu_custom.sms", static_cast<double>(g.sms)},
                          {"inference.gpu_custom.threads_per_sm", static_cast<double>(g.threads_per_sm)}},
                         err);
}

double bytes_on(const GpuSpec& g, double bytes, const OwnContext* own) {
    return own ? bytes - own->counted + cuda_context_bytes(&g, own->lazy, own->stack_limit) : bytes;
}

void add_custom_gpu_fit(Estimate& e, const Config& cfg, double bytes, const OwnContext* own) {
    if (!cfg.inference.has_custom_gpu) return;
    const GpuSpec& g = cfg.inference.custom_gpu;
    if (!(g.memory_bytes > 0)) return;
    const double per_gpu_bytes = bytes_on(g, bytes, own);
    GpuFit f;
    f.gpu_id = kCustomGpuId;
    f.utilization = per_gpu_bytes / g.memory_bytes;
    f.fits = per_gpu_bytes <= g.memory_bytes;
    f.within_target = per_gpu_bytes <= g.memory_bytes * cfg.target_utilization;
    f.gpus_needed = f.within_target ? 1 : 0;
    e.fits.push_back(std::move(f));
}

}  // namespace vc
