// vramcalc core: built-in model presets with their published configurations.
#pragma once

#include <string>
#include <vector>

#include "core/model/model.hpp"

namespace vc {

// Every preset, in display order (grouped by family).
const std::vector<ModelSpec>& model_presets();

// The preset with `id` (e.g. "llama-3.1-8b"), or nullptr if there is none.
const ModelSpec* find_preset(const std::string& id);
// For a message about an id that is no preset: "; did you mean llama-3.1-8b?" (the nearest preset
// ids, core/text.hpp did_you_mean), "" when none is near.
std::string preset_suggestion(const std::string& id);

}  // namespace vc
