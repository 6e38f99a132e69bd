// vramcalc core: what every method returns. A per-GPU breakdown of named components in bytes,
// each with the formula and the numbers that produced it, plus GPU counts and extra figures.
#pragma once

#include <string>
#include <vector>

namespace vc {

struct Component {
    std::string key;      // stable id: "weights", "gradients", "optimizer", "activations", "kv_cache", ...
    std::string label;    // display name
    double bytes = 0;     // per GPU
    std::string formula;  // the formula with the numbers put in, e.g. "7e9 params x 2 B"
};

struct GpuFit {
    std::string gpu_id;
    int gpus_needed = 0;       // GPUs of this type the method says the job needs (0 = cannot fit at any count)
    double utilization = 0;    // per-GPU total / usable memory of one GPU
    bool fits = false;         // per-GPU total <= the GPU's memory (it would run)
    bool within_target = false; // per-GPU total <= memory x the config's target_utilization
};

struct Metric {
    std::string key;      // stable id, e.g. "kv_bytes_per_token"
    std::string label;
    double value = 0;
    std::string unit;     // "bytes", "tokens", "tokens/s", "s", "count", ...
};

// Memory on one device as the engine would log it at start-up (llama.cpp: per CUDA/Metal device
// and the host's buffers).
struct DeviceUse {
    std::string device;   // "CUDA0", "Metal", "CUDA_Host", "CPU"
    bool host = false;    // in system RAM
    double model = 0, kv = 0, compute = 0, other = 0;  // bytes; other: output buffer, projector, draft, LoRA, runtime
    double total() const { return model + kv + compute + other; }
};

struct Estimate {
    std::string method;                 // "quick", "guide", "detailed"
    std::string task;                   // "training", "finetune", "inference"
    std::vector<Component> components;  // per GPU
    double total_bytes = 0;             // sum of components
    double buffered_bytes = 0;          // total with the method's safety margin (quick +20%, guide x1.15)
    std::vector<GpuFit> fits;
    std::vector<Metric> metrics;
    std::vector<std::string> notes;     // caveats the user should read
    std::vector<DeviceUse> devices;     // per-device buffers (llama.cpp); empty for other methods
    std::string launch_command;         // the command that runs this plan (serving engines); empty if none

    const Component* component(const std::string& key) const {
        for (const auto& c : components)
            if (c.key == key) return &c;
        return nullptr;
    }
    const Metric* metric(const std::string& key) const {
        for (const auto& m : metrics)
            if (m.key == key) return &m;
        return nullptr;
    }
};

}  // namespace vc
