// vramcalc io: "what fits" answers (core/solve.hpp) as JSON, for the CLI and the browser.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/solve.hpp"

namespace vc::io {

// {"ok": true, "question", "label", "value", "unit", "explanation", "items": [...]}
nlohmann::json answer_to_json(const Answer& a);

// Parse, solve, serialise; always a JSON document ({"ok": false, "error": {...}} on bad input).
std::string solve_json(const std::string& config_text, const std::string& question);

// Every question as [{"id", "label", "tasks"}] ("tasks": "training,finetune").
nlohmann::json questions_to_json();
std::string questions_json();

}  // namespace vc::io
