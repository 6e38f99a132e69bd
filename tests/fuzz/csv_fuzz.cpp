// vramcalc fuzz harness "csv": a calibration CSV through the reader and `vramcalc validate`'s
// checks, plain and --as-labelled (docs/fuzzing.md), on the first kMaxCheckedRows rows of inputs
// up to kMaxInputBytes. Properties, on every input:
//   - nothing crashes or trips a sanitizer (the reader converts cells to numbers and counts)
//   - every compared row has a finite, positive measurement, a finite non-negative estimate and a
//     finite error; a skipped row says why
//   - the summary (median and worst error) is finite, and the report prints
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "io/calibration.hpp"

namespace {

// A calibration row is about 250 bytes: 4 KB holds the header and a dozen rows. Each row estimated
// costs a run of the engine (milliseconds under the sanitizers), so the checks run on the first
// kMaxCheckedRows rows; the reader still parses the whole input. A row's GPU may come from the rows
// before it (row_gpu), never after, so the rows kept read as they do in the whole file.
constexpr size_t kMaxInputBytes = 4096;
constexpr size_t kMaxCheckedRows = 6;

// --as-labelled changes only the training rows' configs (training_row_config): the second pass
// runs when a row goes to the training handler (the one "pretrain" rows go to).
bool has_training_row(const vc::io::CsvTable& table) {
    const vc::io::RowEstimator training = vc::io::row_estimator("pretrain");
    for (size_t i = 0; i < table.rows.size(); ++i)
        if (vc::io::row_estimator(vc::io::CalibrationRow{&table, i}.get("task")) == training) return true;
    return false;
}

void check(const vc::io::CsvTable& table, bool as_labelled) {
    const auto checks = vc::io::check_rows(table, as_labelled);
    FUZZ_CHECK(checks.size() == table.rows.size(), "check_rows dropped or added rows");
    for (const auto& c : checks) {
        if (!c.compared) {
            FUZZ_CHECK(!c.skipped.empty(), "row " + c.id + " neither compared nor skipped with a reason");
            continue;
        }
        FUZZ_CHECK(vc::fuzz::is_size(c.estimated_bytes), "row " + c.id + " estimate " + std::to_string(c.estimated_bytes));
        FUZZ_CHECK(std::isfinite(c.error), "row " + c.id + " error " + std::to_string(c.error));
        FUZZ_CHECK(c.measured_oom ? c.measured_bytes == 0 : (vc::fuzz::is_size(c.measured_bytes) && c.measured_bytes > 0),
                   "row " + c.id + " measured " + std::to_string(c.measured_bytes));
    }
    // The report prints these figures and the summary's; it also echoes the rows' own text (a task
    // "inf ence"), so the figures are checked as numbers rather than in the text.
    const auto summary = vc::io::summarize(checks);
    FUZZ_CHECK(std::isfinite(summary.median_abs_error) && std::isfinite(summary.worst_abs_error), "summary error not finite");
    vc::io::format_checks(checks, true);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) return 0;
    auto table = vc::io::parse_csv(std::string(reinterpret_cast<const char*>(data), size));
    if (!table.ok) {
        FUZZ_CHECK(!table.error.message.empty(), "parse_csv failed without a message");
        return 0;
    }
    if (table.value.rows.size() > kMaxCheckedRows) table.value.rows.resize(kMaxCheckedRows);
    check(table.value, false);
    if (has_training_row(table.value)) check(table.value, true);
    return 0;
}
