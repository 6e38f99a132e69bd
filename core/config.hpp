// vramcalc core: the whole calculator input. One Config drives every method; a method reads the
// parts it needs. The JSON form of this struct is documented in docs/config.md (io/ converts).
#pragma once

#include <string>

#include "core/serve/inference.hpp"
#include "core/model/model.hpp"
#include "core/rules/quick.hpp"
#include "core/train/training.hpp"

namespace vc {

enum class Method { Quick, Guide, Detailed };
enum class Task { Training, FineTune, Inference };

struct Config {
    Method method = Method::Quick;
    Task task = Task::Training;
    ModelSpec model{};          // preset-resolved or custom architecture (guide and detailed)
    QuickInputs quick{};        // quick method inputs (params_b, precision, optimizer, batch, seq, checkpointing)
    double guide_bytes = 2;     // guide: bytes per value p
    double guide_weight_bytes = 2;  // guide inference: bytes per weight
    double gpus = 1;            // GPUs in the job (guide training divides by it)
    std::string gpu_id;         // the GPU the user is sizing for (empty: none chosen)
    // Practitioners advise planning for at most 75% of a GPU's memory (fragmentation, spikes,
    // framework versions); a result "fits within target" below this share.
    double target_utilization = 0.75;

    // Detailed training / fine-tuning inputs (core/training.hpp) go below this line.
    // The detailed method reads batch (micro-batch per GPU) and seq from `quick`, and gpus above.
    TrainingInputs training{};  // JSON "training"
    ParallelInputs parallel{};  // JSON "parallel"
    RuntimeConstants runtime{}; // JSON "runtime"

    // Detailed inference / serving inputs (core/inference.hpp) go below this line.
    InferenceInputs inference{};  // engine, weight format, KV dtype, context, concurrency, TP, GPU
};

const char* method_name(Method m);  // "quick", "guide", "detailed"
const char* task_name(Task t);      // "training", "finetune", "inference"

}  // namespace vc
