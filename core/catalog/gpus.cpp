// vramcalc core: GPU catalog data. Memory totals are what nvidia-smi / rocm-smi print as the
// device total (MiB), which is what a run can see before the CUDA context takes its share.
// Bandwidth and dense tensor throughput are the vendors' datasheet figures (no sparsity).
// Prices are typical on-demand list prices per GPU-hour in late 2025 and are indicative only.
#include "core/catalog/gpus.hpp"

#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {

// The datacenter entries below leave the trailing vendor / unified fields to their defaults (the
// vendor is read from the name; local_gpus.cpp sets both). SMs and threads per SM (the CUDA
// context's local memory) and the compute capability (x 10): threads per SM from the CUDA C++
// Programming Guide's table of compute capabilities (2048 at 7.0, 8.0, 9.0 and 10.0; 1536 at 8.6,
// 8.9 and 12.0; 1024 at 7.5); AMD: 0.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const std::vector<GpuSpec>& gpu_catalog() {
    static const std::vector<GpuSpec> catalog = [] {
    std::vector<GpuSpec> list = {
        {"h100-80gb", "NVIDIA H100 80GB (SXM)", 80, mib_to_bytes(81559), 3350, 989, 1979, 3.00, 132, 2048, 90,  // 132 SMs (H100 whitepaper) x 2048 threads (compute capability 9.0)
         "NVIDIA H100 datasheet (SXM5: 3.35 TB/s, 989 TF BF16 dense); nvidia-smi total 81559 MiB"},
        {"h100-nvl-94gb", "NVIDIA H100 NVL 94GB", 94, mib_to_bytes(95830), 3900, 835, 1671, 0, 132, 2048, 90,  // 132 SMs x 2048 threads (cms-sw/cmssw PR #51395: 270,336 resident threads; compute capability 9.0)
         "NVIDIA H100 datasheet (NVL: 3.9 TB/s, 835 TF BF16 dense); nvidia-smi total 95830 MiB"},
        {"h200-141gb", "NVIDIA H200 141GB (SXM)", 141, mib_to_bytes(143771), 4800, 989, 1979, 3.80, 132, 2048, 90,  // 132 SMs x 2048 threads (GH100 as the H100 SXM, compute capability 9.0)
         "NVIDIA H200 datasheet (4.8 TB/s, 989 TF BF16 dense); nvidia-smi total 143771 MiB"},
        {"b200-180gb", "NVIDIA B200 180GB", 180, mib_to_bytes(183359), 8000, 2250, 4500, 6.00, 148, 2048, 100,  // 148 SMs x 2048 threads (compute capability 10.0)
         "NVIDIA DGX B200 datasheet (8 TB/s, 2.25 PF BF16 dense per GPU); nvidia-smi total 183359 MiB"},
        {"a100-80gb", "NVIDIA A100 80GB (SXM)", 80, mib_to_bytes(81920), 2039, 312, 0, 1.80, 108, 2048, 80,  // 108 SMs (A100 whitepaper) x 2048 threads (compute capability 8.0)
         "NVIDIA A100 datasheet (SXM 80GB: 2,039 GB/s, 312 TF BF16 dense); nvidia-smi total 81920 MiB"},
        {"a100-40gb", "NVIDIA A100 40GB (SXM)", 40, mib_to_bytes(40960), 1555, 312, 0, 1.30, 108, 2048, 80,  // 108 SMs (A100 whitepaper) x 2048 threads (compute capability 8.0)
         "NVIDIA A100 datasheet (40GB: 1,555 GB/s, 312 TF BF16 dense); nvidia-smi total 40960 MiB"},
        {"l40s-48gb", "NVIDIA L40S 48GB", 48, mib_to_bytes(46068), 864, 362, 733, 1.00, 142, 1536, 89,  // 142 SMs (18,176 CUDA cores / 128) x 1536 threads (compute capability 8.9)
         "NVIDIA L40S datasheet (864 GB/s, 362 TF BF16 dense, 733 TF FP8 dense); nvidia-smi total 46068 MiB"},
        {"a10g-24gb", "NVIDIA A10G 24GB", 24, mib_to_bytes(23028), 600, 70, 0, 1.00, 80, 1536, 86,  // 80 SMs (10,240 CUDA cores / 128) x 1536 threads (compute capability 8.6)
         "AWS G5 / NVIDIA A10G (600 GB/s, ~70 TF BF16 dense); nvidia-smi total 23028 MiB"},
        {"l4-24gb", "NVIDIA L4 24GB", 24, mib_to_bytes(23034), 300, 121, 242, 0.70, 58, 1536, 89,  // 58 SMs (7,424 CUDA cores / 128) x 1536 threads (compute capability 8.9)
         "NVIDIA L4 datasheet (300 GB/s, 121 TF BF16 dense, 242 TF FP8 dense); nvidia-smi total 23034 MiB"},
        {"v100-16gb", "NVIDIA V100 16GB", 16, mib_to_bytes(16160), 900, 125, 0, 0, 80, 2048, 70,  // 80 SMs (Tesla V100 whitepaper) x 2048 threads (compute capability 7.0)
         "NVIDIA V100 datasheet (SXM2: 900 GB/s, 125 TF FP16 tensor; no BF16); nvidia-smi total 16160 MiB"},
        {"t4-16gb", "NVIDIA T4 16GB", 16, mib_to_bytes(15360), 320, 65, 0, 0.35, 40, 1024, 75,  // 40 SMs (2,560 CUDA cores / 64) x 1024 threads (compute capability 7.5)
         "NVIDIA T4 datasheet (320 GB/s, 65 TF FP16 tensor; no BF16); nvidia-smi total 15360 MiB"},
        {"rtx-4090-24gb", "NVIDIA GeForce RTX 4090 24GB", 24, mib_to_bytes(24564), 1008, 165, 330, 0.40, 128, 1536, 89,  // 128 SMs x 1536 threads (compute capability 8.9)
         "NVIDIA Ada whitepaper (1,008 GB/s, 165 TF FP16/BF16 dense with FP32 accumulate); nvidia-smi total 24564 MiB"},
        {"rtx-5090-32gb", "NVIDIA GeForce RTX 5090 32GB", 32, mib_to_bytes(32607), 1792, 209, 419, 0.70, 170, 1536, 120,  // 170 SMs (21,760 CUDA cores / 128) x 1536 threads (compute capability 12.0)
         "NVIDIA Blackwell GeForce whitepaper (1,792 GB/s, 209.5 TF FP16/BF16 dense); nvidia-smi total 32607 MiB"},
        {"mi300x-192gb", "AMD Instinct MI300X 192GB", 192, gib_to_bytes(192), 5300, 1307, 2615, 2.50, 0, 0, 0,
         "AMD MI300X datasheet (5.3 TB/s, 1,307 TF BF16 dense, 2,615 TF FP8 dense); 192 GiB HBM3"},
    };
    // Local machines (consumer NVIDIA, Radeon, Arc, Apple Silicon) live in local_gpus.cpp.
    for (const auto& g : local_gpu_entries()) list.push_back(g);
    return list;
    }();
    return catalog;
}
#pragma GCC diagnostic pop

const GpuSpec* find_gpu(const std::string& id) {
    for (const auto& g : gpu_catalog())
        if (g.id == id) return &g;
    return nullptr;
}

std::string gpu_suggestion(const std::string& id) { return did_you_mean_id(id, gpu_catalog()); }

std::string unknown_gpu_message(const std::string& id) {
    return "gpu \"" + id + "\" is not in the catalog (vramcalc --list-gpus), or give inference.gpu_custom" + gpu_suggestion(id);
}

}  // namespace vc
