// [FOLDER] core/: the engine. Standard C++ only, no exceptions, bytes everywhere.
//   estimate.hpp  the entry point every front end calls     config.hpp   the whole input (Config)
//   solve.hpp     "what fits" questions, dispatched by task  result.hpp   Estimate: named components
//   status.hpp    errors as values (Error, Outcome)          text.hpp     number formatting for formulas
//   units.hpp     bytes, GB, GiB                             fields.hpp   the config field table (paths, ranges, meanings)
//   advice.hpp    what to change when it does not fit        fit_models.hpp  which presets x formats fit the GPU
//   model/    architectures (ModelSpec, parameter count) and the presets with their sources
//   quant/    weight formats and bits per weight, GGUF per-tensor types
//   catalog/  GPUs: memory, bandwidth, FLOP/s, with sources
//   rules/    the rules of thumb (quick, guide), as published
//   train/    detailed training and fine-tuning memory, and its what-fits solvers
//   serve/    detailed inference and serving: KV cache, engines, speed, and its solvers
// vramcalc core: the single entry point every front end calls (CLI, Embind, the ImGui shell).
#pragma once

#include "core/config.hpp"
#include "core/gpu_choice.hpp"
#include "core/result.hpp"
#include "core/status.hpp"

namespace vc {

// Validates `cfg` and runs its method. Never throws; errors name the config field.
Outcome<Estimate> estimate(const Config& cfg);

// The estimate of a document a user wrote (the CLI, `batch`, the JS API): estimate() plus, with the
// detailed method, a note naming each field the document sets (not at its default) that its task or
// engine never reads ("... is llama.cpp's; inference.engine is vllm: ignored"): not an error. The page
// calls estimate(): its hidden sections keep the values a visitor set before switching engine or task.
Outcome<Estimate> estimate_document(const Config& cfg);

// Notes for fields a front end knows the user typed (the CLI's flags and --set paths, `paths` as the
// field table spells them) that the config's method or task never reads, where a document cannot
// tell (the page's states carry batch, seq, precision ... for every method): the training run's
// batch and seq with detailed serving, the quick method's precision and optimizer, the guide's and
// quick method's constants and a typed count beside an architecture with the detailed method, and
// the detailed method's sections with a rule of thumb. "batch is the training run's; detailed
// inference reads inference.concurrency: ignored".
std::vector<std::string> unread_field_notes(const Config& cfg, const std::vector<std::string>& paths);

// The checks every result of estimate() and solve() passes before a front end sees it (issue 16).
// target_utilization in [0.05, 1], checked before any method runs (the solvers size against it).
bool check_target_utilization(const Config& cfg, Error& err);
// Every figure of the estimate (components, totals, GPU fits, metrics) finite and not negative: a
// size that is not is a config outside what the formulas model, reported as an error naming the
// figure and the config's inputs that drive it instead of printing NaN, Inf or a negative size.
bool check_result(const Estimate& e, const Config& cfg, Error& err);

// For each catalog GPU: whether `per_gpu_bytes` fits it (the whole card) and is within its
// memory x target_utilization, and 1 GPU needed when it is within the target, else 0 (a method
// whose per-GPU total shrinks with the count, the guide's training and detailed training, then
// counts the fewest within the target itself). With `own`, each card's fit counts its own CUDA
// context (bytes_on; detailed training).
void fill_catalog_fits(Estimate& e, double per_gpu_bytes, double target_utilization, const OwnContext* own = nullptr);

// A Mac (a unified-memory GPU: of the catalog, or cfg's custom GPU marked unified) is one machine,
// never a count of them: its row needs 1 or none (a count above 1, or a layout over several GPUs
// that each hold their share, reads as not fitting), and a row that needs none names the memory of
// the smallest catalog Mac whose row needs 1 (mac_needed_bytes; 0 when none does). estimate()
// applies it to every method's fits.
void apply_one_machine_rule(Estimate& e, const Config& cfg);

// The rule behind a result's GPU counts for `cfg`'s method, task and engine, in one sentence for a
// front end's table header or tooltip (the CLI's "GPUs" line, the page's GPU table), e.g. "needed:
// the fewest of each type at which each GPU is within the 75% target (data parallelism grown; TP,
// PP, CP as set); fits: within one whole card; a Mac is one machine".
std::string gpu_count_rule(const Config& cfg);

}  // namespace vc
