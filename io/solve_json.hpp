// vramcalc io: "what fits" answers (core/solve.hpp) as JSON, for the CLI and the browser.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/advice.hpp"
#include "core/fit_models.hpp"
#include "core/solve.hpp"

namespace vc::io {

// {"ok": true, "question", "label", "value", "unit", "explanation", "items": [...]}
nlohmann::json answer_to_json(const Answer& a);

// Parse, solve, serialise; always a JSON document ({"ok": false, "error": {...}} on bad input).
std::string solve_json(const std::string& config_text, const std::string& question);

// What to change when the config does not fit (core/advice.hpp):
// {"ok": true, "suggestions": [{"id", "label", "detail", "total_bytes", "utilization", "config"}]}
nlohmann::json suggestions_to_json(const std::vector<Suggestion>& list);
std::string suggest_json(const std::string& config_text);

// Which models and formats fit (core/fit_models.hpp): {"ok": true, "gpu", "budget_bytes", "budget",
// "fitting", "models": [{"rank", "model", "model_name", "format", "format_label", "params", "ok",
// "total_bytes", "load_bytes", "share", "fits", "gpu_layers"? (llama.cpp partial
// offload), "error"?}]}, best first.
nlohmann::json model_fits_to_json(const ModelFits& list);
std::string fit_models_json(const std::string& config_text);

// Every question as [{"id", "label", "tasks"}] ("tasks": "training,finetune").
nlohmann::json questions_to_json();
std::string questions_json();

}  // namespace vc::io
