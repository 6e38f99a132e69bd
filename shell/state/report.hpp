// vramcalc shell state: the result as text for people and files. The summary a visitor copies,
// the JSON / CSV / Markdown exports, and the accessible summary the page keeps in its HTML for
// screen readers and text search. Pure: strings in, strings out.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "shell/app.hpp"

namespace vc::shell {

using Row = std::pair<std::string, std::string>;  // label, value

// "Quick", "Guide", "Detailed"; "Training", "Fine-tuning", "Inference / serving".
const char* method_label(Method m);
const char* task_label(Task t);
// What a method says one GPU needs: its total, or the total with its safety margin.
double headline_bytes(const Estimate& e);
// The fit on the chosen GPU (Config::gpu_id, or the custom GPU: core/gpu_choice.hpp), or nullptr.
const GpuFit* chosen_fit(const Config& cfg, const Results& r);
// A Mac row that needs none (one machine: core apply_one_machine_rule): "; one Mac: needs a Mac
// with >= 128.00 GB" (or that none in the catalog holds it); empty for any other row.
std::string mac_text(const GpuFit& f, bool gib);

// One budget for the verdict, the bar, the GPU table and every answer, said in one place: the
// target share of the chosen GPU, or for vLLM its own reservation (gpu_memory_utilization) that
// the KV pool fills (core/serve/inference.hpp budget_share). `target`: the result's own target
// (Results::target_utilization: while a typed target is refused, the last valid one).
std::string budget_text(const Config& cfg, double target, bool gib);
// The verdict in the budget's words: "fits within the budget", "over the budget (...)", "does not fit";
// llama.cpp with layers, experts or KV in system RAM of no stated size (GpuFit::needs_ram_bytes) the
// GPU part's: "GPU part fits within the budget", which ram_text completes.
std::string verdict_text(const GpuFit& f);
// That RAM: "; needs 537.19 GB of system RAM, not checked (SYSTEM RAM)", empty for any other row.
std::string ram_text(const GpuFit& f, bool gib);
// An answer bounded by the GPU part alone (Answer::needs_ram_bytes, the verdict's rule): "the GPU part
// alone; needs 30.66 GB of system RAM, not checked (SYSTEM RAM)", empty for any other answer.
std::string answer_ram_text(const Answer& a, bool gib);

// A metric as the page shows it: its value in its unit, or "unknown" for a speed figure the GPU's
// missing bandwidth or TFLOP/s leave out (the engine reports 0: a custom GPU without them).
std::string metric_text(const Metric& m, bool gib);

// The inputs that matter for the config's task and method, as label/value rows.
std::vector<Row> input_rows(const Config& cfg);
// The headline results (per-GPU total, fit on the chosen GPU, answers) as label/value rows.
std::vector<Row> result_rows(const Config& cfg, const Results& r, bool gib);

// A few lines of plain text: model, task, method, per-GPU total and breakdown, fit, answers.
std::string summary_text(const Config& cfg, const Results& r, bool gib, const std::string& link);
// {"config": <config JSON>, "result": <result JSON>, "comparison": [...], "answers": [...]}
std::string export_json(const Config& cfg, const Results& r);
// One row per component, total, method and GPU, with bytes, GB and GiB.
std::string export_csv(const Config& cfg, const Results& r);
// Inputs, breakdown, comparison and answers as Markdown tables.
std::string export_markdown(const Config& cfg, const Results& r, bool gib, const std::string& link);
// The accessible summary as JSON for the page to render: {"title", "inputs": [[l, v]], "results":
// [[l, v]], "breakdown": [[l, v]], "error": "...", "form": [{"path", "label", "value", "error",
// "range"?, "options"?: [[id, label]], "bool"?}]} (form: the input rows drawn, App::form_rows).
std::string accessible_summary_json(const App& a);

// A CSV cell (RFC 4180; a cell a spreadsheet would read as a formula gets a leading apostrophe)
// and a Markdown table cell (HTML-special characters as entities, Markdown punctuation escaped,
// control characters as spaces): every export escapes its text through these.
std::string csv_field(const std::string& s);
std::string md_cell(const std::string& s);

// File names for the exports, from the model and task ("vramcalc-llama-3.1-8b-training.csv").
std::string export_file_name(const Config& cfg, const char* extension);

}  // namespace vc::shell
