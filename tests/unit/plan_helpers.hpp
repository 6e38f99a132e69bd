// Shared by the planner's unit tests: the hardware of a catalog node (its GPU, GEMM and attention shares,
// the fabrics inside and between nodes).
#pragma once

#include <string>

#include "core/plan/plan.hpp"

namespace vc::test {

inline PlanHardware node_hardware(const std::string& gpu, const char* intra, const char* inter) {
    PlanHardware hw;
    hw.gpu = *find_gpu(gpu);
    hw.gemm_share = find_node(gpu)->gemm_share;
    hw.attention_share = find_node(gpu)->attention_share;
    hw.intra = *find_fabric(intra);
    hw.inter = *find_fabric(inter);
    return hw;
}

// Step-time constants that reduce compute to FLOPs at a fixed rate: every GEMM and the attention at 50% of the
// peak with no shape penalty (gemm_half_dim 0), no elementwise passes; pair with a GPU of 1e12 GB/s.
inline PlanConstants flops_only_constants() {
    PlanConstants k;
    k.gemm_half_dim = 0;
    k.gemm_efficiency_max = 0.5;
    k.attention_efficiency = 0.5;
    k.elementwise_passes = 0;
    return k;
}

}  // namespace vc::test
