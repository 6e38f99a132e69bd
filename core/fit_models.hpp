// vramcalc core: the reverse question "which models and formats fit my GPU (and RAM)?". Every
// model preset in every format that applies to the config's task, each run through estimate() with
// the rest of the config as it is (GPU and count, custom GPU, batch, context, concurrency, engine,
// system RAM: a partial offload when the GPU alone does not hold it; headroom target), ranked best quality first, with the per-GPU total, its share of
// the budget and the headline's verdict (within the budget or not). A llama.cpp row whose split
// keeps layers or experts in system RAM fits only when the config gives the RAM (inference.host.ram_gib);
// without it the row says what RAM it needs. docs/fit-models.md.
//
// Ranking: larger models first (total parameters as model_params counts them; an MoE counts every
// expert; equal counts in the presets' order), and a model's formats best first (WeightFormat::quality
// for inference; full fine-tuning before LoRA before QLoRA; BF16 mixed before pure BF16 training).
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc {

// A format the list tries for a task: inference weight formats (ids of weight_formats()), the
// fine-tuning method ("full", "lora", "qlora") or the training precision ("bf16-mixed", "bf16-true").
struct FitFormat {
    std::string id;
    std::string label;
    int quality = 0;  // lower is better (WeightFormat::quality for inference)
};

// The formats tried for `cfg`'s task (inference: by engine), best first. Under llama.cpp a preset
// whose published GGUFs come in other file types than the general ladder gets its own (gpt-oss:
// MXFP4_MOE alone); `model_id` "" gives the general list.
std::vector<FitFormat> fit_formats(const Config& cfg, const std::string& model_id = "");

// Sets `cfg`'s model to the preset `model_id` and its format to `format` (as fit_formats names it),
// the quick method's parameter count with it. False (and `err` names "model" or "format") when
// either is unknown for the task.
bool apply_model_format(Config& cfg, const std::string& model_id, const std::string& format, Error& err);

struct ModelFit {
    std::string model;         // preset id, "llama-3.1-8b"
    std::string model_name;    // "Llama 3.1 8B"
    std::string format;        // FitFormat::id
    std::string format_label;  // FitFormat::label
    double params = 0;         // total parameters (the ranking's first key)
    int quality = 0;           // the format's rank (the second key)
    bool ok = false;           // estimate() gave a figure (else `error` says why)
    double total_bytes = 0;    // per-GPU total, the figure the headline shows for this config
    // What the load occupies of the budget: the total, except under vLLM, which reserves its whole
    // budget for the KV pool: there the total less the pool's blocks the sequences do not take.
    double load_bytes = 0;
    double share = 0;          // of the budget (1 = all of it): the total over the headroom target's
                               // budget, under vLLM load_bytes over its reservation
    bool fits = false;         // within the budget: the headline's verdict for this config, and not `needs_ram`
    // llama.cpp: the system RAM its buffers take (the estimate's host_total_bytes: token_embd, the
    // layers, experts and KV the split keeps on the CPU, the CPU compute buffer; a Mac: the unified
    // memory in use). `needs_ram`: the GPU part fits, but the split keeps layers, experts or the
    // output layer in system RAM and the config gives no inference.host.ram_gib to check them
    // against: not counted as fitting ("needs N GB of system RAM").
    double ram_bytes = 0;
    bool needs_ram = false;
    // llama.cpp with the system RAM given: when the config's -ngl does not fit, the row is sized at
    // the most layers on the GPU that do (max_gpu_layers, the rest in RAM): `partial` and its -ngl.
    bool partial = false;
    int gpu_layers = -1;
    std::string error;
};

// What "Load" does: apply_model_format, and the row's -ngl when it is a partial offload.
bool apply_model_fit(Config& cfg, const ModelFit& row, Error& err);

struct ModelFits {
    std::string gpu_id;        // the GPU sized for ("custom" for the custom GPU)
    double budget_bytes = 0;   // the budget the verdict uses: memory x target (vLLM: x gpu_memory_utilization)
    std::string budget;        // one line naming it
    int fitting = 0;           // rows that fit
    int needing_ram = 0;       // rows that would fit with system RAM nothing checked (ModelFit::needs_ram)
    std::vector<ModelFit> rows;  // every preset x format, best first
};

// The ranked list for `cfg` (detailed method). Fails (field "gpu") when no GPU is chosen, or with
// the config's own error when the rest of it is invalid.
Outcome<ModelFits> fit_models(const Config& cfg);

}  // namespace vc
