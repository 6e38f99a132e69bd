// vramcalc io: leave-one-source-out evidence for the fitted constants (`vramcalc validate --cv`).
// Nothing is refitted: each constant that was fitted on calibration rows is listed with the rows
// it was fitted on, and scored on the rows it applies to that come from *other* sources. A
// constant judged only on its own source's rows is not evidence (docs/accuracy.md).
#pragma once

#include <string>
#include <vector>

#include "calibration.hpp"

namespace vc::io {

struct FittedConstant {
    const char* name;         // e.g. "torchtitan allocator fragmentation 0.13"
    const char* where;        // the code that holds it
    const char* fitted_on;    // row ids, comma-separated: "C25"
    const char* applies_to;   // which rows use it, in words
    bool (*applies)(const CalibrationRow& row);
};
const std::vector<FittedConstant>& fitted_constants();

// One constant's two columns: all rows it applies to, and only those from other sources.
struct CvLine {
    const FittedConstant* constant = nullptr;
    std::vector<std::string> fitted_sources;
    CalibrationSummary all;         // every row it applies to (its own rows included)
    CalibrationSummary held_out;    // rows from sources it was not fitted on
    std::vector<std::string> held_out_ids;
};
std::vector<CvLine> cross_validate(const CsvTable& table, const std::vector<RowCheck>& checks);

// The table `vramcalc validate --cv` prints after the rows.
std::string format_cv(const std::vector<CvLine>& lines);

// A row's source without its parenthesised GPU: "LitGPT config_hub/finetune (A10G-24GB)" ->
// "LitGPT config_hub/finetune".
std::string row_source(const CalibrationRow& row);

}  // namespace vc::io
