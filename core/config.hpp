// vramcalc core: the whole calculator input. One Config drives every method; a method reads the
// parts it needs. The JSON form of this struct is documented in docs/config.md (io/ converts).
#pragma once

#include <string>

#include "core/serve/inference.hpp"
#include "core/model/model.hpp"
#include "core/rules/quick.hpp"
#include "core/run_shape.hpp"
#include "core/train/training.hpp"

namespace vc {

enum class Method { Quick, Guide, Detailed };
enum class Task { Training, FineTune, Inference };

struct Config {
    Method method = Method::Quick;
    Task task = Task::Training;
    ModelSpec model{};          // preset-resolved or custom architecture (guide and detailed)
    RunShape run{};             // batch and seq (core/run_shape.hpp): quick, guide, detailed training, the planner
    QuickInputs quick{};        // quick method inputs (params_b, precision, optimizer, checkpointing)
    double guide_bytes = 2;     // guide: bytes per value p
    double guide_weight_bytes = 2;  // guide inference: bytes per weight
    double gpus = 1;            // GPUs in the job (guide training divides by it)
    std::string gpu_id;         // the GPU the user is sizing for (empty: none chosen)
    // Practitioners advise planning for at most 75% of a GPU's memory (fragmentation, spikes,
    // framework versions); a result "fits within target" below this share.
    double target_utilization = 0.75;

    // Detailed training / fine-tuning inputs (core/training.hpp) go below this line.
    // The detailed method reads batch (micro-batch per GPU) and seq from `run`, and gpus above.
    TrainingInputs training{};  // JSON "training"
    ParallelInputs parallel{};  // JSON "parallel"
    RuntimeConstants runtime{}; // JSON "runtime"

    // Detailed inference / serving inputs (core/inference.hpp) go below this line.
    InferenceInputs inference{};  // engine, weight format, KV dtype, context, concurrency, TP, GPU
};

// The run shape the active method reads: `run`, or for detailed serving the engine's own
// inference.concurrency and inference.context (core/run_shape.hpp).
bool serves_engine(const Config& c);  // task inference with the detailed method
RunShape run_shape(const Config& c);
// Writes `shape` where the active method reads it (a detailed serving shape is whole sequences and
// tokens: truncated toward zero and saturated at an int's limits; NaN gives 0, which the engine refuses).
void set_run_shape(Config& c, const RunShape& shape);
// Copies the shape the active method reads to the other holder (`run` <-> the serving engine's), so
// that a method switch keeps it (the page does this; core/config.cpp is the one place that maps).
void align_run_shapes(Config& c);
// The document paths that set run_shape(c): "batch" / "seq", or "inference.concurrency" / "inference.context".
RunShapePaths run_shape_paths(const Config& c);

// The 2-byte float choices follow the model's checkpoint (model.checkpoint_dtype, config.json
// torch_dtype): the quick precision FP16 <-> BF16 and the serving weight format "fp16" <-> "bf16".
// A float32 checkpoint counts as BF16: vLLM's dtype "auto" serves it in the GPU's first 16-bit
// type, BF16 from compute capability 8.0 (_resolve_auto_dtype, "Downcast for float32 models").
// Any other choice (FP32, 8 and 4 bits, quantized formats) and an unknown dtype leave the config
// as it is; both 16-bit types are 2 bytes, so no size changes. Called where a model is chosen (the
// page's preset list, a config.json import), never where a document is read: its precision stays.
void follow_checkpoint_dtype(Config& c);
// Serving weights as the checkpoint stores them where it is quantized (model.checkpoint_format:
// DeepSeek-V3's FP8 blocks, gpt-oss's MXFP4): vLLM loads a checkpoint as its quantization_config
// says, no --quantization flag needed (vllm/model_executor/model_loader: get_quant_config), and
// llama.cpp's gpt-oss GGUF keeps MXFP4. Sets inference.weights to it where the engine loads that
// format (WeightFormat::engines) and returns true; else leaves the config as it is. Called with
// follow_checkpoint_dtype where a model is chosen, and where a serving document names no weights
// (io/config_json.cpp), or when the page's engine changes with 16-bit weights.
bool follow_checkpoint_format(Config& c);

const char* method_name(Method m);  // "quick", "guide", "detailed"
const char* task_name(Task t);      // "training", "finetune", "inference"

}  // namespace vc
