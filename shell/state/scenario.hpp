// vramcalc shell state: one scenario, three methods. The Config holds each method's inputs apart
// (the quick method's precision, the guide's bytes per value, the detailed method's sections);
// these functions keep the inputs they share in step, so switching task or method keeps what the
// user set: the model, batch and sequence, the precision, the optimizer. Pure, no ImGui.
#pragma once

#include <string>

#include "core/config.hpp"
#include "core/model/model.hpp"

namespace vc::shell {

enum class ModelMode { Preset, Custom, ParamsOnly };

// How the config describes its model: a preset as published, a parameter count alone (the
// architecture filled from typical ratios), or a custom architecture (edited or typed; it may carry
// a typed count, as the guide's formulas read the count and the dimensions apart).
ModelMode model_mode(const Config& cfg);

// The model's parameter count in billions: the typed count where there is one, else derived from
// the dimensions; 0 when the architecture is inconsistent.
double model_params_b(const Config& cfg);

// Picks a preset (every method then describes the same model); the 2-byte float choices follow its
// checkpoint's dtype (follow_checkpoint_dtype: FP16 <-> BF16; FP32, 8 and 4 bits stay).
void use_preset(Config& cfg, const ModelSpec& preset);
// A parameter count alone: the architecture is filled from typical ratios (flagged approximate).
void use_params_only(Config& cfg, double params_b);
// Keeps the present architecture as an editable custom one.
void use_custom(Config& cfg);
// Carries the model's parameter count to the methods that read a count (after a config was read).
void sync_model(Config& cfg);
// After an architecture field was edited: no longer the preset; the count follows the dimensions
// unless one was typed.
void model_edited(Config& cfg);

// Switches the task, first carrying the shared inputs from the active method (sync_shared), then
// mapping what depends on the task: the quick method's optimizer becomes "inference" for serving
// and back; training is a full run (no adapters), fine-tuning uses `finetune` (full, LoRA, QLoRA).
void set_task(Config& cfg, Task task, FinetuneMethod finetune = FinetuneMethod::Lora);
// Switches the method, first carrying the shared inputs from the active one (sync_shared).
void set_method(Config& cfg, Method method);

// Carries the inputs the methods share (precision, optimizer, checkpointing; batch and sequence
// vs concurrency and context) from the active method's fields to the other methods' fields, so a
// switch of task or method keeps what the user set. Edits within a method touch only its fields.
void sync_shared(Config& cfg);

}  // namespace vc::shell
