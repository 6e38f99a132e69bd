// vramcalc core: the CUDA context model (see cuda_context.hpp).
#include "core/catalog/cuda_context.hpp"

#include <cstdio>

#include "core/text.hpp"
#include "core/units.hpp"
#include "core/catalog/gpus.hpp"

namespace vc {

namespace {

std::string mib(double bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / kBytesPerMiB);
    return buf;
}

}  // namespace

double resident_threads(const GpuSpec& g) {
    return g.sms > 0 && g.threads_per_sm > 0 ? static_cast<double>(g.sms) * g.threads_per_sm : 0;
}

double cuda_local_memory_bytes(const GpuSpec& g, double stack_limit_bytes) {
    return (stack_limit_bytes + kCudaDriverBytesPerThread) * resident_threads(g);
}

double cuda_bare_context_bytes(const GpuSpec& g) {
    return resident_threads(g) > 0 ? kCudaBareContextBytes + cuda_local_memory_bytes(g, kCudaStackLimitBytes) : 0;
}

// The framework part: the reading less the local memory of the GPU it was read on.
static double framework_bytes(bool lazy_loading) {
    const double reading = lazy_loading ? kCudaContextLazyBytes : kCudaContextEagerBytes;
    return reading - (kCudaStackLimitBytes + kCudaDriverBytesPerThread) * (lazy_loading ? kLazyReadingThreads : kEagerReadingThreads);
}

double cuda_context_bytes(const GpuSpec* gpu, bool lazy_loading, double stack_limit_bytes) {
    if (!gpu || resident_threads(*gpu) <= 0) return lazy_loading ? kCudaContextLazyBytes : kCudaContextEagerBytes;
    return framework_bytes(lazy_loading) + cuda_local_memory_bytes(*gpu, stack_limit_bytes);
}

const char* gpu_runtime_name(const GpuSpec* gpu) { return gpu && gpu_vendor(*gpu) == "apple" ? "Metal" : "CUDA"; }

CudaContext cuda_context(const GpuSpec* gpu, bool lazy_loading, double stack_limit_bytes) {
    const double reading = lazy_loading ? kCudaContextLazyBytes : kCudaContextEagerBytes;
    // "lazy loading 512 MiB on an A100" / "eager loading 1343 MiB on a V100": the source reading.
    const std::string source = std::string(lazy_loading ? "lazy" : "eager") + " loading " + mib(reading) + (lazy_loading ? " on an A100" : " on a V100");
    CudaContext c;
    if (gpu && gpu->unified && resident_threads(*gpu) <= 0) {
        // A Mac: no Metal context reading here, so the flat budget (the reading's bytes, not its GPU) stands in.
        c.bytes = reading;
        c.formula = mib(reading) + " flat: the " + (lazy_loading ? "lazy" : "eager") + "-loading CUDA context budget stands in for " +
                    gpu->name + "'s Metal context, which is not measured (cuda_context.hpp)";
        return c;
    }
    if (!gpu || resident_threads(*gpu) <= 0) {
        c.bytes = reading;
        c.formula = source + " (" + (gpu ? gpu->name + " has no SM figures" : std::string("no GPU chosen")) +
                    ": the GPU's local-memory reservation is not modelled)";
        return c;
    }
    const double framework = framework_bytes(lazy_loading);
    const double local = cuda_local_memory_bytes(*gpu, stack_limit_bytes);
    c.bytes = cuda_context_bytes(gpu, lazy_loading, stack_limit_bytes);
    c.formula = "framework " + mib(framework) + " (" + source + " less its local memory) + local memory (" + num(stack_limit_bytes) +
                " B stack + " + num(kCudaDriverBytesPerThread) + " B) x " + std::to_string(gpu->sms) + " SMs x " +
                std::to_string(gpu->threads_per_sm) + " threads = " + mib(local) + " on " + gpu->name;
    return c;
}

}  // namespace vc
