// vramcalc io: leave-one-source-out evidence for the fitted constants (calibration_cv.hpp).
#include "calibration_cv.hpp"

#include <algorithm>
#include <cstdio>

#include "core/text.hpp"

namespace vc::io {

namespace {

bool source_has(const CalibrationRow& row, const char* word) {
    return ascii_lower(row.get("source")).find(word) != std::string::npos;
}
bool task_is(const CalibrationRow& row, std::initializer_list<const char*> tasks) {
    const std::string t = row.get("task");
    for (const char* x : tasks)
        if (t == x) return true;
    return false;
}
bool training_task(const CalibrationRow& row) { return task_is(row, {"pretrain", "full_ft", "lora", "qlora"}); }

}  // namespace

// Every constant of the engine that was fitted on calibration rows (docs/accuracy.md, "The
// mechanisms behind the misses, and the fitted constants"), with the rows it applies to.
const std::vector<FittedConstant>& fitted_constants() {
    static const std::vector<FittedConstant> list = {
        {"CUDA context, eager loading 1343 MiB", "core/catalog/cuda_context.hpp kCudaContextEagerBytes", "C07",
         "nvidia-smi rows of a stack without lazy loading (the 2022 HF docs; a row naming a driver, CUDA or PyTorch that rules it out)",
         [](const CalibrationRow& r) {
             if (ascii_lower(r.get("what")) != "smi" || !(training_task(r) || task_is(r, {"context", "inference"}))) return false;
             ModuleLoading loading;
             const bool named = row_module_loading(r.get("source") + " " + r.get("note") + " " + r.get("method"), loading);
             return named ? !lazy_loading_in_effect(loading) : source_has(r, "hf transformers docs");
         }},
        {"hf-legacy allocator fragmentation 0.03", "core/train/training_profiles.cpp (hf-legacy)", "C01,C02,C03,C04,C05,C06",
         "training rows of the 2022 HF transformers docs (PyTorch <= 1.10)",
         [](const CalibrationRow& r) { return training_task(r) && source_has(r, "hf transformers docs"); }},
        {"LitGPT loss 14 B per logit", "core/train/training_profiles.cpp (litgpt)", "C12,C14", "every LitGPT training row",
         [](const CalibrationRow& r) { return training_task(r) && source_has(r, "litgpt"); }},
        {"torchtune QLoRA init residue 0.40", "core/train/training_profiles.cpp (torchtune)", "C24",
         "torchtune QLoRA rows measured as reserved memory with torchao 0.1 (whole-matrix quantization at init)",
         [](const CalibrationRow& r) {
             if (!task_is(r, {"qlora"}) || !source_has(r, "torchtune") || ascii_lower(r.get("what")) != "reserved") return false;
             const auto cfg = training_row_config(r);
             return cfg.ok && cfg.value.training.lora.unchunked_quantize == Toggle::On;
         }},
        {"torchtitan allocator fragmentation 0.13", "core/train/training_profiles.cpp (torchtitan)", "C25",
         "torchtitan rows measured as reserved memory",
         [](const CalibrationRow& r) { return source_has(r, "torchtitan") && ascii_lower(r.get("what")) == "reserved"; }},
        {"torch.compile fragmentation share 0.5", "core/train/training.cpp", "C26", "torchtitan rows with torch.compile",
         [](const CalibrationRow& r) { return source_has(r, "torchtitan") && ascii_lower(r.get("note")).find("compile") != std::string::npos; }},
        {"CUDA driver 962 B per thread, bare context 8.1 MiB", "core/catalog/cuda_context.hpp kCudaDriverBytesPerThread", "X12",
         "bare CUDA contexts (no framework kernels) on a catalog GPU; fitted on llama.cpp PR #23604's two readings (X12 and an "
         "RTX PRO 6000 outside the catalog)",
         [](const CalibrationRow& r) { return task_is(r, {"context"}) && ascii_lower(r.get("note")).rfind("bare context", 0) == 0; }},
        {"vLLM non-torch 0.13 GiB, 10 B per token logit", "core/serve/inference.hpp InferenceConstants", "C30",
         "every vLLM profile row", [](const CalibrationRow& r) { return task_is(r, {"serve"}); }},
    };
    return list;
}

std::string row_source(const CalibrationRow& row) {
    const std::string s = row.get("source");
    return s.substr(0, s.find(" ("));
}

std::vector<CvLine> cross_validate(const CsvTable& table, const std::vector<RowCheck>& checks) {
    std::vector<CvLine> out;
    for (const auto& k : fitted_constants()) {
        CvLine line;
        line.constant = &k;
        std::vector<RowCheck> all, held;
        // The sources of the rows it was fitted on.
        const std::string fitted = std::string(",") + k.fitted_on + ",";
        for (size_t i = 0; i < table.rows.size(); ++i) {
            const CalibrationRow row{&table, i};
            if (fitted.find("," + row.get("id") + ",") == std::string::npos) continue;
            const std::string src = row_source(row);
            if (std::find(line.fitted_sources.begin(), line.fitted_sources.end(), src) == line.fitted_sources.end())
                line.fitted_sources.push_back(src);
        }
        for (size_t i = 0; i < table.rows.size() && i < checks.size(); ++i) {
            const CalibrationRow row{&table, i};
            if (!k.applies(row)) continue;
            all.push_back(checks[i]);
            const std::string src = row_source(row);
            if (std::find(line.fitted_sources.begin(), line.fitted_sources.end(), src) != line.fitted_sources.end()) continue;
            held.push_back(checks[i]);
            line.held_out_ids.push_back(checks[i].id);
        }
        line.all = summarize(all);
        line.held_out = summarize(held);
        out.push_back(line);
    }
    return out;
}

std::string format_cv(const std::vector<CvLine>& lines) {
    std::string out = "\nFitted constants, leave-one-source-out (nothing refitted; rows from the sources a constant was\n"
                      "fitted on are left out of the second column):\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-52s %-24s %-30s %s\n", "constant", "fitted on", "all rows it applies to",
                  "rows of other sources");
    out += buf;
    auto cell = [](const CalibrationSummary& s) {
        char c[96];
        if (s.scored == 0) std::snprintf(c, sizeof c, "none");
        else std::snprintf(c, sizeof c, "%d: median %.1f%%, p90 %.1f%%", s.scored, s.median_abs_error * 100, s.p90_abs_error * 100);
        return std::string(c);
    };
    for (const auto& l : lines) {
        std::string held = cell(l.held_out);
        if (l.held_out.scored == 0) held += " (not evidence: judged only on its own source)";
        else {
            std::string ids;
            for (const auto& id : l.held_out_ids) ids += (ids.empty() ? "" : ",") + id;
            held += " (" + ids + ")";
        }
        std::snprintf(buf, sizeof buf, "%-52s %-24s %-30s %s\n", l.constant->name, l.constant->fitted_on, cell(l.all).c_str(),
                      held.c_str());
        out += buf;
    }
    return out;
}

}  // namespace vc::io
