// vramcalc io: the calibration CSV (tests/calibration/measured.csv: measured peak memory of
// public runs) -> estimates to compare. Parses the CSV, maps each row to a Config by its task,
// runs the engine, and scores estimate vs measured (docs/accuracy.md). Never throws.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/status.hpp"

namespace vc::io {

// A CSV file: the header's column names and each row's cells. Quoted cells ("a,b", "" inside)
// and CRLF line ends are accepted; blank lines are skipped.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};
Outcome<CsvTable> parse_csv(const std::string& text);

// One calibration row by column name ("" for a missing column).
struct CalibrationRow {
    const CsvTable* table = nullptr;
    size_t index = 0;
    std::string get(const char* column) const;
};

// The outcome for one row.
struct RowCheck {
    std::string id, task, model, what, unit;
    bool compared = false;        // an estimate was made and set against the measurement
    std::string skipped;          // why not ("" when compared)
    double measured_bytes = 0;    // 0 with measured_oom; a count in unit "tokens" (a serve row's KV capacity)
    bool measured_oom = false;    // the run ran out of memory
    bool start_failed = false;    // measured, then refused to start (a vLLM KV pool below max_model_len: the note says "start failed")
    double estimated_bytes = 0;   // the quantity `what` names (alloc, reserved, smi, ...)
    double error = 0;             // (estimated - measured) / measured
    std::string gpu_id;           // the row's GPU, for the fits / OOM verdict ("" if unknown)
    bool verdict_known = false;
    bool verdict_right = false;   // estimate fits <=> the run fitted
    std::string breakdown;        // the estimate's components (GB), for --verbose
};

// Row handler: fills `out.estimated_bytes` (and the verdict) for one row, or `out.skipped`.
using RowEstimator = void (*)(const CalibrationRow& row, RowCheck& out);

// Handlers by the CSV `task` column. Training rows (pretrain, full_ft, lora, qlora) and the
// CUDA-context row (context) are handled in io/calibration.cpp, the "inference", "serve" and
// "file" rows by the inference model (below).
RowEstimator row_estimator(const std::string& task);

// The row's model (the preset of the same name when its dimensions agree, else the columns) and
// the GPU it ran on ("" when the row names none); shared with the inference rows.
// A column that does not fit its integer sets `err` (see row_int) and reads as 0.
ModelSpec calibration_row_model(const CalibrationRow& row, Error& err);
std::string calibration_row_gpu(const CalibrationRow& row);

// Whether `text` names a year (a 4-digit number from 2015 on, not part of a longer number) before `year`.
bool year_before(const std::string& text, int year);

// What a row says about CUDA module loading (core/catalog/cuda_context.hpp): "CUDA_MODULE_LOADING=EAGER"
// or "eager loading" (LAZY / "lazy loading"), a driver branch ("driver 470"), the CUDA runtime
// ("cu116", "CUDA 11.6") and PyTorch ("PyTorch 1.12", "torch 1.12": before 1.13 nothing sets LAZY).
// Returns whether the row names any of them; `out` keeps its defaults for what it does not name.
bool row_module_loading(const std::string& text, ModuleLoading& out);

// The weights column read as a format id and group size (0 = not named), in the spellings people
// write: "gptq-int4-g128", "awq-int4-g128", "4bit-128g", "int8-bnb", "nf4", "gguf Q4_K_M", "Q4_K_M".
struct RowFormat {
    std::string format;
    int group_size = 0;
};
RowFormat row_format(const std::string& column);

// A number read from a row (a cell, or one inside a cell's text) as an int of [0, 2147483647]:
// `out` gets it; a value outside that range, or not whole, leaves `out` and sets `err` (the row's
// first error, naming `field`, the accepted range and the value) instead of converting out of range.
void row_int(double v, const std::string& field, int& out, Error& err);

// The inference model's rows (io/calibration_inference.cpp; docs/accuracy.md, "Inference rows"):
// Hugging Face generate ("inference"), a vLLM profile line ("serve"), a GGUF file ("file").
void inference_row(const CalibrationRow& row, RowCheck& out);
void serve_row(const CalibrationRow& row, RowCheck& out);
void file_row(const CalibrationRow& row, RowCheck& out);

// The Config a training / fine-tuning row describes (docs/accuracy.md, "Row -> config").
// `as_labelled`: the CSV's words only, without the source recipes' settings.
Outcome<Config> training_row_config(const CalibrationRow& row, bool as_labelled = false);

// Measured bytes from a row's value and unit (GB 1e9, GiB 2^30, MiB 2^20), or "OOM"; a serve row
// may count "tokens" (vLLM's KV capacity), taken as it is. False, with
// the reason in `why` when given, for an unreadable value or unit, or a value outside
// (0, kMaxMeasuredGB] GB: a measurement of 0, infinity or 1e308 cannot be scored.
inline constexpr double kMaxMeasuredGB = 1e6;  // a million GB: far past any GPU or node
bool measured_bytes(const CalibrationRow& row, double& bytes, bool& oom, std::string* why = nullptr);

// Every row checked, in file order (`as_labelled`: see training_row_config).
std::vector<RowCheck> check_rows(const CsvTable& table, bool as_labelled = false);

// Median, p90 (nearest rank) and worst absolute error over the compared rows with a measured size
// (`scored`; an OOM row has only a verdict), and how many of them are within 10%.
struct CalibrationSummary {
    int compared = 0, skipped = 0, verdicts = 0, verdicts_right = 0, scored = 0, within_10_percent = 0;
    double median_abs_error = 0, p90_abs_error = 0, worst_abs_error = 0;
    std::string worst_id;
};
CalibrationSummary summarize(const std::vector<RowCheck>& checks);

// The report `vramcalc validate` prints (`verbose`: each row's components too).
std::string format_checks(const std::vector<RowCheck>& checks, bool verbose = false);

}  // namespace vc::io
