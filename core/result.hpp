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

// One GPU type's row. The rule every method and task follows (docs/methods.md, "GPU counts"):
// gpus_needed is the fewest GPUs of this type at which the per-GPU total is within the headroom
// target (Config::target_utilization; vLLM: its KV pool within gpu_memory_utilization holds the
// sequences), by the method's own per-GPU formula; `fits` is the whole card at the config's own
// layout. The one exception is the quick rule, kept as published: ceil(total with its 20% margin
// / the card's nominal GB), no target. A Mac (unified memory) is one machine: 1 or none
// (apply_one_machine_rule).
struct GpuFit {
    std::string gpu_id;
    int gpus_needed = 0;       // the fewest GPUs of this type within the target (0 = no count up to the method's limit)
    double utilization = 0;    // per-GPU total / usable memory of one GPU
    bool fits = false;         // per-GPU total <= the GPU's memory (it would run)
    bool within_target = false; // per-GPU total <= memory x the config's target_utilization
    double mac_needed_bytes = 0; // a Mac row that does not hold it: the memory of the smallest catalog Mac that does (0: none does, or not a Mac)
    bool mac = false;          // a Mac's row (unified memory, a catalog Mac or the custom GPU marked unified: one machine), set by apply_one_machine_rule
    // llama.cpp with no system RAM size (inference.host.ram_gib unset): the system RAM the buffers
    // take at this GPU's split when it keeps layers, experts, the output layer or KV there
    // (llamacpp_unchecked_ram), else 0. Nothing checked it, so the row is not within_target, and
    // gpus_needed skips counts whose split does the same; gpu_within_target says whether the GPU
    // part alone is within the target (the verdict "GPU part fits; needs N GB of system RAM").
    double needs_ram_bytes = 0;
    bool gpu_within_target = false;
    // Why the row holds nothing whatever its memory: the config's engine has no backend for this
    // GPU (vLLM on a Mac: kVllmNoMetal; vLLM below the format's minimum compute capability:
    // kVllmCapability; core/serve/inference.hpp), else null. Such a row is fits
    // false, 0 needed, utilization 0, and no mac_needed_bytes (no Mac of any size runs it).
    const char* no_backend = nullptr;
};

struct Metric {
    std::string key;      // stable id, e.g. "kv_bytes_per_token"
    std::string label;
    double value = 0;
    std::string unit;     // "bytes", "tokens", "tokens/s", "s", "count", ...
    // A speed figure the GPU's specs leave out (a custom GPU without bandwidth or TFLOP/s) is 0:
    // every front end shows it as "unknown", never as 0 tokens/s.
    bool unknown() const { return !(value > 0) && (unit == "tokens/s" || key == "ttft_s"); }
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
