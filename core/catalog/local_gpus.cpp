// vramcalc core: machines people run models on locally. Consumer and laptop NVIDIA cards, AMD
// Radeon and Instinct, Intel Arc, and Apple Silicon with unified memory. Memory is the marketed
// capacity in GiB (drivers report 0.1-0.5% less; nvidia-smi totals where the entry says so).
// Bandwidth is the vendor's peak; FLOP/s are dense FP16 tensor/matrix rates with FP32 accumulate
// (GeForce: twice the FP32 shader rate; Apple and Radeon: the GPU's FP16 rate), no sparsity.
// Apple entries: memory_bytes is the machine's RAM; the GPU may wire its working-set limit.
#include <cmath>

#include "core/catalog/gpus.hpp"
#include "core/units.hpp"

namespace vc {
namespace {

// macOS's default GPU working-set limit (MTLDevice.recommendedMaxWorkingSetSize) as a share of
// RAM: 21,845.34 MiB on a 32 GiB M1 Max (llama.cpp PR 2011) and 10,922.67 MiB on a 16 GiB M1
// (llama-cpp-python issue 687) are 2/3; 73,728 MiB on a 96 GiB M2 Max (llama.cpp issue 3213) is 3/4.
constexpr double kAppleWorkingSetSmall = 2.0 / 3.0;
constexpr double kAppleWorkingSetLarge = 3.0 / 4.0;
// RAM above which macOS grants the larger share (between the 32 GiB and the 96 GiB rows).
constexpr double kAppleWorkingSetThresholdGiB = 32;

GpuSpec local(const char* id, const char* name, double gib, double bw, double tflops, const char* vendor, const char* source,
              bool unified = false, double memory_bytes = 0) {
    GpuSpec g;
    g.id = id;
    g.name = name;
    g.nominal_gb = gib;
    g.memory_bytes = memory_bytes > 0 ? memory_bytes : gib_to_bytes(gib);
    g.bandwidth_gbps = bw;
    g.bf16_tflops = tflops;
    g.source = source;
    g.vendor = vendor;
    g.unified = unified;
    return g;
}

// An NVIDIA card with its SMs and resident threads per SM (the CUDA context's local memory,
// core/catalog/cuda_context.hpp): SMs are the vendor's CUDA cores / 128 (GA10x, Ada and Blackwell
// GeForce SMs hold 128 FP32 cores), threads per SM 1536 at compute capability 8.6, 8.9 and 12.0
// (CUDA C++ Programming Guide, compute capabilities table). AMD, Intel and Apple keep 0: their
// runtime's context is the flat one (cuda_context).
GpuSpec nvidia(const char* id, const char* name, double gib, double bw, double tflops, int sms, int threads_per_sm,
               int compute_capability, const char* source, double memory_bytes = 0) {
    GpuSpec g = local(id, name, gib, bw, tflops, "nvidia", source, false, memory_bytes);
    g.sms = sms;
    g.threads_per_sm = threads_per_sm;
    g.compute_capability = compute_capability;
    return g;
}

// One row of the table below: an NVIDIA card, with its SMs, resident threads per SM and compute
// capability (x 10); memory_bytes 0: the marketed GiB.
struct NvidiaRow {
    const char* id;
    const char* name;
    double gib, bw, tflops;
    int sms, threads_per_sm, compute_capability;
    const char* source;
    double memory_bytes;
};
// An AMD, Intel or Apple machine (unified: Apple Silicon).
struct LocalRow {
    const char* id;
    const char* name;
    double gib, bw, tflops;
    const char* vendor;
    const char* source;
    bool unified;
};

// The rows are data, one loop builds them (a call per row was code in the page's download).
constexpr NvidiaRow kNvidiaRows[] = {
    // NVIDIA GeForce desktop (Ampere, Ada, Blackwell) and laptop parts.
    {"rtx-3060-12gb", "NVIDIA GeForce RTX 3060 12GB", 12, 360, 25.6, 28, 1536, 86,  // 28 SMs (3,584 CUDA cores / 128) x 1536 threads (compute capability 8.6)
     "NVIDIA Ampere GA10x whitepaper (360 GB/s; 12.7 TF FP32 shader, FP16 tensor FP32-acc dense 25.6 TF); nvidia-smi 12288 MiB", 0},
    {"rtx-3090-24gb", "NVIDIA GeForce RTX 3090 24GB", 24, 936, 71, 82, 1536, 86,  // 82 SMs (10,496 CUDA cores / 128) x 1536 threads (compute capability 8.6)
     "NVIDIA Ampere GA102 whitepaper (936 GB/s, 71 TF FP16 tensor FP32-acc dense); nvidia-smi 24576 MiB", 0},
    {"rtx-3090-ti-24gb", "NVIDIA GeForce RTX 3090 Ti 24GB", 24, 1008, 80, 84, 1536, 86,  // 84 SMs (10,752 CUDA cores / 128) x 1536 threads (compute capability 8.6)
     "NVIDIA RTX 3090 Ti specifications (1,008 GB/s; 40 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", mib_to_bytes(24564)},
    {"rtx-4060-8gb", "NVIDIA GeForce RTX 4060 8GB", 8, 272, 30.2, 24, 1536, 89,  // 24 SMs (3,072 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4060 specifications (272 GB/s; 15.1 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-4060-ti-16gb", "NVIDIA GeForce RTX 4060 Ti 16GB", 16, 288, 44.1, 34, 1536, 89,  // 34 SMs (4,352 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4060 Ti specifications (288 GB/s; 22.1 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-4070-12gb", "NVIDIA GeForce RTX 4070 12GB", 12, 504, 58.3, 46, 1536, 89,  // 46 SMs (5,888 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4070 specifications (504 GB/s; 29.1 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-4070-ti-super-16gb", "NVIDIA GeForce RTX 4070 Ti SUPER 16GB", 16, 672, 88.2, 66, 1536, 89,  // 66 SMs (8,448 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4070 Ti SUPER specifications (672 GB/s; 44.1 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-4080-16gb", "NVIDIA GeForce RTX 4080 16GB", 16, 717, 97.5, 76, 1536, 89,  // 76 SMs (9,728 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA Ada whitepaper (RTX 4080: 716.8 GB/s, 97.5 TF FP16 tensor FP32-acc dense)", 0},
    {"rtx-5060-ti-16gb", "NVIDIA GeForce RTX 5060 Ti 16GB", 16, 448, 47.4, 36, 1536, 120,  // 36 SMs (4,608 CUDA cores / 128) x 1536 threads (compute capability 12.0)
     "NVIDIA RTX 5060 Ti specifications (448 GB/s; 23.7 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-5070-12gb", "NVIDIA GeForce RTX 5070 12GB", 12, 672, 61.8, 48, 1536, 120,  // 48 SMs (6,144 CUDA cores / 128) x 1536 threads (compute capability 12.0)
     "NVIDIA RTX 5070 specifications (672 GB/s; 30.9 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-5080-16gb", "NVIDIA GeForce RTX 5080 16GB", 16, 960, 112.6, 84, 1536, 120,  // 84 SMs (10,752 CUDA cores / 128) x 1536 threads (compute capability 12.0)
     "NVIDIA RTX 5080 specifications (960 GB/s; 56.3 TF FP32 shader, x2 FP16 tensor FP32-acc dense)", 0},
    {"rtx-4060-laptop-8gb", "NVIDIA GeForce RTX 4060 Laptop 8GB", 8, 256, 23, 24, 1536, 89,  // 24 SMs (3,072 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4060 Laptop specifications (256 GB/s; ~11.6 TF FP32 shader at 115 W, x2 FP16 tensor)", 0},
    {"rtx-4090-laptop-16gb", "NVIDIA GeForce RTX 4090 Laptop 16GB", 16, 576, 66, 76, 1536, 89,  // 76 SMs (9,728 CUDA cores / 128) x 1536 threads (compute capability 8.9)
     "NVIDIA RTX 4090 Laptop specifications (576 GB/s; ~33 TF FP32 shader at 150 W, x2 FP16 tensor)", 0},
    {"rtx-5090-laptop-24gb", "NVIDIA GeForce RTX 5090 Laptop 24GB", 24, 896, 64, 82, 1536, 120,  // 82 SMs (10,496 CUDA cores / 128) x 1536 threads (compute capability 12.0)
     "NVIDIA RTX 5090 Laptop specifications (896 GB/s; ~32 TF FP32 shader at 150 W, x2 FP16 tensor)", 0},
    {"rtx-a6000-48gb", "NVIDIA RTX A6000 48GB", 48, 768, 155, 84, 1536, 86,  // 84 SMs (10,752 CUDA cores / 128) x 1536 threads (compute capability 8.6)
     "NVIDIA RTX A6000 datasheet (768 GB/s, 154.8 TF FP16 tensor dense)", 0},
};

constexpr LocalRow kLocalRows[] = {
    // AMD Radeon and Instinct.
    {"rx-7900-xtx-24gb", "AMD Radeon RX 7900 XTX 24GB", 24, 960, 122.8, "amd",
     "AMD RX 7900 XTX specifications (960 GB/s, 122.8 TF peak FP16 matrix)", false},
    {"rx-7900-xt-20gb", "AMD Radeon RX 7900 XT 20GB", 20, 800, 103, "amd",
     "AMD RX 7900 XT specifications (800 GB/s, 103 TF peak FP16 matrix)", false},
    {"rx-9070-xt-16gb", "AMD Radeon RX 9070 XT 16GB", 16, 645, 97.3, "amd",
     "AMD RX 9070 XT specifications (644.6 GB/s, 97.3 TF peak FP16)", false},
    {"mi210-64gb", "AMD Instinct MI210 64GB", 64, 1638, 181, "amd", "AMD Instinct MI210 datasheet (1.6 TB/s, 181 TF BF16 dense)", false},
    {"mi250x-128gb", "AMD Instinct MI250X 128GB", 128, 3277, 383, "amd",
     "AMD Instinct MI250X datasheet (3.2 TB/s, 383 TF BF16 dense, two dies)", false},
    {"mi325x-256gb", "AMD Instinct MI325X 256GB", 256, 6000, 1307, "amd",
     "AMD Instinct MI325X datasheet (6 TB/s, 1,307 TF BF16 dense)", false},
    // Intel Arc.
    {"arc-a770-16gb", "Intel Arc A770 16GB", 16, 560, 138, "intel", "Intel Arc A770 specifications (560 GB/s, 138 TF FP16 XMX)", false},
    {"arc-b580-12gb", "Intel Arc B580 12GB", 12, 456, 117, "intel", "Intel Arc B580 specifications (456 GB/s, 117 TF FP16 XMX)", false},
    // Apple Silicon: unified memory (the GPU's share is unified_gpu_budget of the RAM).
    // Ordered by generation, then tier (base, Pro, Max, Ultra), then memory. Apple publishes
    // TFLOPS for M1 and M2 parts only; M3 and M4 rows are GPU cores x 128 FP32 lanes x 2 FLOP
    // x the GPU clock (M3 ~1.6 GHz: 0.41 TF a core, M4 ~1.8 GHz: 0.46 TF a core), as the rows
    // already here were (the M2 Pro and the 60-core M2 Ultra: 19/38 and 60/76 of the M2 Max's and
    // M2 Ultra's figures); the figure feeds prefill speed only. Apple's TFLOPS: M1 2.6, M1 Pro 5.2,
    // M1 Max 10.4, M1 Ultra ~21 (64 cores), M2 Max 13.6, M2 Ultra 27.2 (76 cores). Each source names
    // the spec page, its bandwidth and the GPU cores the row assumes.
    {"apple-m1-16gb", "Apple M1 16GB", 16, 68.25, 2.6, "apple", "Apple M1 tech specs: 68.25 GB/s, 8-core GPU", true},
    {"apple-m1-pro-32gb", "Apple M1 Pro 32GB", 32, 200, 5.2, "apple", "Apple M1 Pro tech specs: 200 GB/s, 16-core GPU", true},
    {"apple-m1-max-32gb", "Apple M1 Max 32GB", 32, 400, 10.4, "apple", "Apple M1 Max tech specs: 400 GB/s, 32-core GPU", true},
    {"apple-m1-max-64gb", "Apple M1 Max 64GB", 64, 400, 10.4, "apple", "Apple M1 Max tech specs: 400 GB/s, 32-core GPU", true},
    {"apple-m1-ultra-128gb", "Apple M1 Ultra 128GB", 128, 800, 21, "apple", "Apple M1 Ultra tech specs: 800 GB/s, 64-core GPU", true},
    {"apple-m2-pro-32gb", "Apple M2 Pro 32GB", 32, 200, 6.8, "apple", "Apple M2 Pro tech specs: 200 GB/s, 19-core GPU", true},
    {"apple-m2-max-64gb", "Apple M2 Max 64GB", 64, 400, 13.6, "apple", "Apple M2 Max tech specs: 400 GB/s, 38-core GPU", true},
    {"apple-m2-max-96gb", "Apple M2 Max 96GB", 96, 400, 13.6, "apple", "Apple M2 Max tech specs: 400 GB/s, 38-core GPU", true},
    {"apple-m2-ultra-64gb", "Apple M2 Ultra 64GB (60-core GPU)", 64, 800, 21.5, "apple",
     "Apple Mac Studio (2023) tech specs: 800 GB/s, 60-core GPU", true},
    {"apple-m2-ultra-192gb", "Apple M2 Ultra 192GB", 192, 800, 27.2, "apple", "Apple M2 Ultra tech specs: 800 GB/s, 76-core GPU", true},
    {"apple-m3-pro-18gb", "Apple M3 Pro 18GB", 18, 150, 7.4, "apple", "Apple M3 Pro tech specs: 150 GB/s, 18-core GPU", true},
    {"apple-m3-pro-36gb", "Apple M3 Pro 36GB", 36, 150, 7.4, "apple", "Apple M3 Pro tech specs: 150 GB/s, 18-core GPU", true},
    {"apple-m3-max-36gb", "Apple M3 Max 36GB (30-core GPU)", 36, 300, 12.3, "apple",
     "Apple M3 Max tech specs: 300 GB/s, 30-core GPU", true},
    {"apple-m3-max-64gb", "Apple M3 Max 64GB", 64, 400, 16.4, "apple", "Apple M3 Max tech specs: 400 GB/s, 40-core GPU", true},
    {"apple-m3-max-128gb", "Apple M3 Max 128GB", 128, 400, 16.4, "apple", "Apple M3 Max tech specs: 400 GB/s, 40-core GPU", true},
    {"apple-m3-ultra-96gb", "Apple M3 Ultra 96GB (60-core GPU)", 96, 819, 24.6, "apple",
     "Apple Mac Studio (2025) tech specs: 819 GB/s, 60-core GPU", true},
    {"apple-m3-ultra-512gb", "Apple M3 Ultra 512GB", 512, 819, 32.8, "apple", "Apple M3 Ultra tech specs: 819 GB/s, 80-core GPU", true},
    {"apple-m4-16gb", "Apple M4 16GB", 16, 120, 4.6, "apple", "Apple M4 tech specs: 120 GB/s, 10-core GPU", true},
    {"apple-m4-24gb", "Apple M4 24GB", 24, 120, 4.6, "apple", "Apple M4 tech specs: 120 GB/s, 10-core GPU", true},
    {"apple-m4-32gb", "Apple M4 32GB", 32, 120, 4.6, "apple", "Apple M4 tech specs: 120 GB/s, 10-core GPU", true},
    {"apple-m4-pro-48gb", "Apple M4 Pro 48GB", 48, 273, 9.2, "apple", "Apple M4 Pro tech specs: 273 GB/s, 20-core GPU", true},
    {"apple-m4-pro-64gb", "Apple M4 Pro 64GB", 64, 273, 9.2, "apple", "Apple M4 Pro tech specs: 273 GB/s, 20-core GPU", true},
    {"apple-m4-max-36gb", "Apple M4 Max 36GB (32-core GPU)", 36, 410, 14.7, "apple",
     "Apple M4 Max tech specs: 410 GB/s, 32-core GPU", true},
    {"apple-m4-max-64gb", "Apple M4 Max 64GB", 64, 546, 18.4, "apple", "Apple M4 Max tech specs: 546 GB/s, 40-core GPU", true},
    {"apple-m4-max-128gb", "Apple M4 Max 128GB", 128, 546, 18.4, "apple", "Apple M4 Max tech specs: 546 GB/s, 40-core GPU", true},
};

}  // namespace

double unified_gpu_budget(double ram_bytes, double wired_limit_mb) {
    if (wired_limit_mb > 0) return mib_to_bytes(wired_limit_mb);
    const double share = bytes_to_gib(ram_bytes) > kAppleWorkingSetThresholdGiB ? kAppleWorkingSetLarge : kAppleWorkingSetSmall;
    return ram_bytes * share;
}

std::string gpu_vendor(const GpuSpec& g) {
    if (!g.vendor.empty()) return g.vendor;
    if (g.unified) return "apple";  // a custom GPU marked unified (inference.gpu_custom.unified) is a Mac
    if (g.name.rfind("AMD", 0) == 0) return "amd";
    if (g.name.rfind("Intel", 0) == 0) return "intel";
    if (g.name.rfind("Apple", 0) == 0) return "apple";
    return "nvidia";
}

const std::vector<GpuSpec>& local_gpu_entries() {
    static const std::vector<GpuSpec> list = [] {
        std::vector<GpuSpec> l;
        for (const auto& r : kNvidiaRows)
            l.push_back(nvidia(r.id, r.name, r.gib, r.bw, r.tflops, r.sms, r.threads_per_sm, r.compute_capability, r.source, r.memory_bytes));
        for (const auto& r : kLocalRows) l.push_back(local(r.id, r.name, r.gib, r.bw, r.tflops, r.vendor, r.source, r.unified));
        return l;
    }();
    return list;
}

}  // namespace vc
