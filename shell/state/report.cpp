// vramcalc shell state: summary, exports, accessible summary (see report.hpp).
//
// [SECTIONS]
//   names      labels for enums and the model
//   rows       inputs and results as label/value rows
//   text       the copied summary
//   files      JSON, CSV, Markdown
//   a11y       the accessible summary
#include "report.hpp"

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/catalog/gpus.hpp"
#include "core/fields.hpp"
#include "core/gpu_choice.hpp"
#include "format.hpp"
#include "rules.hpp"
#include "io/config_json.hpp"
#include "io/solve_json.hpp"
#include "io/training_json.hpp"
#include "scenario.hpp"

namespace vc::shell {
namespace {

using nlohmann::json;

// [SECTION] names ---------------------------------------------------------------------------------
std::string model_label(const Config& cfg) {
    const double p = model_params_b(cfg);
    char count[48];
    std::snprintf(count, sizeof count, "%.4gB params", p);
    switch (model_mode(cfg)) {
        case ModelMode::Preset: return cfg.model.name + " (" + count + ")";
        case ModelMode::ParamsOnly: return std::string(count) + ", architecture approximated";
        case ModelMode::Custom: break;
    }
    return "Custom architecture (" + std::string(count) + ")";
}

std::string gpu_label(const Config& cfg) {
    const GpuSpec* g = config_gpu(cfg);
    return g ? g->name : "none chosen";
}

const char* yes_no(bool b) { return b ? "yes" : "no"; }

// One line of the plain-text summary: control characters (a line break in a name) as spaces.
std::string plain_line(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
    return out;
}

std::string number_text(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

// A CSV cell (RFC 4180): quoted when it holds a separator, a quote or a line break. A cell that a
// spreadsheet would read as a formula (= + - @, or a tab or CR first) gets a leading apostrophe
// (OWASP's CSV injection advice), so opening the export runs nothing.
std::string csv_field(const std::string& s) {
    const bool formula = !s.empty() && std::string("=+-@\t\r").find(s[0]) != std::string::npos;
    const std::string text = formula ? "'" + s : s;
    if (!formula && text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Text for a Markdown table cell, heading or list item: HTML-special characters as entities (no
// raw tag or autolink), Markdown punctuation backslash-escaped (no link, emphasis, code span or
// column break), line breaks and other control characters as spaces (no new row or heading).
std::string md_cell(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\\': case '`': case '*': case '_': case '[': case ']': case '(': case ')': case '|': case '~': case '#': case '!':
                out += '\\';
                out += c;
                break;
            default: out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) ? ' ' : c;
        }
    }
    return out;
}


// [SECTION] names (shared with the UI) ----------------------------------------------------------
const char* method_label(Method m) {
    switch (m) {
        case Method::Quick: return "Quick";
        case Method::Guide: return "Guide";
        case Method::Detailed: return "Detailed";
    }
    return "Quick";
}

const char* task_label(Task t) {
    switch (t) {
        case Task::Training: return "Training";
        case Task::FineTune: return "Fine-tuning";
        case Task::Inference: return "Inference / serving";
    }
    return "Training";
}

const GpuFit* chosen_fit(const Config& cfg, const Results& r) {
    const std::string id = config_gpu_id(cfg);
    for (const auto& c : r.gpus)
        if (c.fit.gpu_id == id) return &c.fit;
    return nullptr;
}

double headline_bytes(const Estimate& e) { return e.buffered_bytes > e.total_bytes ? e.buffered_bytes : e.total_bytes; }

// [SECTION] rows ----------------------------------------------------------------------------------
std::vector<Row> input_rows(const Config& cfg) {
    std::vector<Row> rows;
    rows.push_back({"Task", task_label(cfg.task)});
    rows.push_back({"Method", method_label(cfg.method)});
    rows.push_back({"Model", model_label(cfg)});
    switch (cfg.method) {
        case Method::Quick:
            rows.push_back({"Weight precision", io::quick_precision_name(cfg.quick.precision)});
            rows.push_back({"Optimizer", io::quick_optimizer_name(cfg.quick.optimizer)});
            rows.push_back({"Batch size", format_count(cfg.run.batch)});
            rows.push_back({"Sequence length", format_count(cfg.run.seq)});
            rows.push_back({"Activation checkpointing", yes_no(cfg.quick.checkpointing)});
            break;
        case Method::Guide:
            rows.push_back({"Layers", format_count(cfg.model.layers)});
            rows.push_back({"Hidden size", format_count(cfg.model.hidden)});
            rows.push_back({"Attention heads", format_count(cfg.model.heads)});
            rows.push_back({"Bytes per value", format_count(cfg.task == Task::Inference ? cfg.guide_weight_bytes : cfg.guide_bytes)});
            rows.push_back({"Batch size", format_count(cfg.run.batch)});
            rows.push_back({"Sequence length", format_count(cfg.run.seq)});
            if (cfg.task != Task::Inference) rows.push_back({"GPUs", format_count(cfg.gpus)});
            break;
        case Method::Detailed:
            if (cfg.task == Task::Inference) {
                // What the detailed serving model reads (the quick method's batch and sequence do not apply).
                const InferenceInputs& in = cfg.inference;
                rows.push_back({"Engine", engine_name(in.engine)});
                rows.push_back({"Weight format", in.weights.format});
                rows.push_back({"KV cache dtype", in.kv_dtype});
                rows.push_back({"Context length", format_count(in.context)});
                rows.push_back({"Concurrent sequences", format_count(in.concurrency)});
                rows.push_back({"GPUs (model split over)", format_count(in.tp > 0 ? in.tp : cfg.gpus)});
                break;
            }
            {
                const TrainingInputs& t = cfg.training;
                rows.push_back({"Precision", precision_name(t.precision)});
                if (t.finetune != FinetuneMethod::Full)
                    rows.push_back({"Adapters", std::string(t.finetune == FinetuneMethod::Qlora ? "QLoRA" : "LoRA") + " rank " +
                                                    format_count(t.lora.rank) + ", targets " + io::lora_targets_name(t.lora.targets)});
                rows.push_back({"Optimizer", optimizer_name(t.optimizer)});
                rows.push_back({"Micro-batch", format_count(cfg.run.batch)});
                rows.push_back({"Sequence length", format_count(cfg.run.seq)});
                rows.push_back({"Recomputation", t.recompute == Recompute::Auto ? std::string("auto: ") + recompute_name(resolved_recompute(cfg))
                                                                                   : std::string(recompute_name(t.recompute))});
                rows.push_back({"GPUs", format_count(cfg.gpus)});
                rows.push_back({"Sharding", sharding_name(t.sharding)});
                const ParallelInputs& p = cfg.parallel;
                if (p.tp > 1 || p.pp > 1 || p.cp > 1 || p.ep > 1)
                    rows.push_back({"Parallelism", "TP " + format_count(p.tp) + ", PP " + format_count(p.pp) + ", CP " +
                                                       format_count(p.cp) + ", EP " + format_count(p.ep)});
            }
            break;
    }
    rows.push_back({"GPU", gpu_label(cfg)});
    rows.push_back({"Headroom target", format_percent(cfg.target_utilization) + " of GPU memory"});
    return rows;
}

std::string metric_text(const Metric& m, bool gib) {
    if (m.unknown()) return "unknown";
    return format_value(m.value, m.unit, gib);
}

std::string budget_text(const Config& cfg, double target, bool gib) {
    const GpuSpec* g = config_gpu(cfg);
    if (!g) return std::string();
    if (cfg.task == Task::Inference && cfg.method == Method::Detailed && cfg.inference.engine == Engine::Vllm)
        return "Budget: vLLM reserves " + format_percent(cfg.inference.vllm.gpu_memory_utilization) + " of " +
               format_size(g->memory_bytes, gib) + " (gpu_memory_utilization) and fills it with KV cache; it fits when that pool holds " +
               "the sequences, and every answer fills the same pool.";
    return "Budget: " + format_size(g->memory_bytes * target, gib) + ", the " + format_percent(target) +
           " target of " + format_size(g->memory_bytes, gib) + "; the verdict, the bar, the GPU table and every answer use it.";
}

std::string mac_text(const GpuFit& f, bool gib) {
    if (f.no_backend) return std::string("; ") + f.no_backend;  // vLLM on a Mac: not a matter of size
    if (!f.mac || f.gpus_needed > 0) return std::string();
    return f.mac_needed_bytes > 0 ? "; one Mac: needs a Mac with >= " + format_size(f.mac_needed_bytes, gib) : std::string("; one Mac: no Mac in the catalog holds it");
}

std::string verdict_text(const GpuFit& f) {
    const bool within = f.needs_ram_bytes > 0 ? f.gpu_within_target : f.within_target;
    return std::string(f.needs_ram_bytes > 0 ? "GPU part " : "") +
           (within ? "fits within the budget" : f.fits ? "over the budget (the card would hold it)" : "does not fit");
}

std::string ram_text(const GpuFit& f, bool gib) {
    return f.needs_ram_bytes > 0 ? "; needs " + format_size(f.needs_ram_bytes, gib) + " of system RAM, not checked (SYSTEM RAM)" : std::string();
}

std::string answer_ram_text(const Answer& a, bool gib) {
    return a.needs_ram_bytes > 0 ? "the GPU part alone; needs " + format_size(a.needs_ram_bytes, gib) + " of system RAM, not checked (SYSTEM RAM)" : std::string();
}

std::vector<Row> result_rows(const Config& cfg, const Results& r, bool gib) {
    std::vector<Row> rows;
    if (!r.valid) return rows;
    const Estimate& e = r.estimate;
    // A rule of thumb is a comparison: the detailed model's answer first, then what the rule ignores.
    if (cfg.method != Method::Detailed) {
        std::string answer = "a comparison, not the answer";
        for (const auto& m : r.methods)
            if (m.method == Method::Detailed && m.ok) answer += "; the detailed model gives " + format_size(headline_bytes(m.estimate), gib) + " per GPU";
        rows.push_back({std::string("Rule of thumb (") + method_label(cfg.method) + " method)", answer});
        for (const auto& text : rule_ignores(cfg, cfg.method)) rows.push_back({"Ignored by this rule", text});
    }
    rows.push_back({"Per-GPU total", format_size(e.total_bytes, gib)});
    if (e.buffered_bytes > e.total_bytes) rows.push_back({"With the method's safety margin", format_size(e.buffered_bytes, gib)});
    if (const GpuFit* f = chosen_fit(cfg, r)) {
        std::string verdict = verdict_text(*f) + ram_text(*f, gib);
        rows.push_back({"On " + gpu_label(cfg), verdict + " (" + format_percent(f->utilization) + " of its memory)"});
        rows.push_back({"Budget", budget_text(cfg, r.target_utilization, gib).substr(8)});  // without its "Budget: "
    }
    for (const auto& m : e.metrics) rows.push_back({m.label, metric_text(m, gib)});
    for (const auto& s : r.answers) {
        if (!s.ok) {
            rows.push_back({s.label, "n/a: " + s.error.message});
        } else if (!s.answer.items.empty()) {
            std::string list;  // what the page shows: the first few, in order
            for (size_t i = 0; i < s.answer.items.size() && i < 4; ++i) list += (i ? ", " : "") + s.answer.items[i];
            if (s.answer.items.size() > 4) list += " and " + format_count(static_cast<double>(s.answer.items.size() - 4)) + " more";
            rows.push_back({s.label, list});
        } else if (s.answer.value <= 0) {
            rows.push_back({s.label, "none fits: " + sizes_in_unit(s.answer.explanation, gib)});
        } else {
            rows.push_back({s.label, format_value(s.answer.value, s.answer.unit, gib)});
        }
        if (s.ok && s.answer.needs_ram_bytes > 0) rows.back().second += " (" + answer_ram_text(s.answer, gib) + ")";
    }
    return rows;
}

// [SECTION] text ----------------------------------------------------------------------------------
std::string summary_text(const Config& cfg, const Results& r, bool gib, const std::string& link) {
    std::string out = "vramcalc: " + plain_line(model_label(cfg)) + ", " + task_label(cfg.task) + ", " + method_label(cfg.method) + " method\n";
    for (const auto& [label, value] : input_rows(cfg))
        if (label != "Model" && label != "Task" && label != "Method") out += "  " + plain_line(label) + ": " + plain_line(value) + "\n";
    if (!r.valid) return out + "No result (the inputs are invalid).\n";
    const Estimate& e = r.estimate;
    out += "Memory per GPU: " + format_size(headline_bytes(e), gib) + "\n";
    for (const auto& c : e.components)
        out += "  " + c.label + ": " + format_size(c.bytes, gib) + " (" + format_percent(e.total_bytes > 0 ? c.bytes / e.total_bytes : 0) + ")\n";
    for (const auto& [label, value] : result_rows(cfg, r, gib))
        if (label != "Per-GPU total") out += plain_line(label) + ": " + plain_line(value) + "\n";
    if (!link.empty()) out += link + "\n";
    return out;
}

// [SECTION] files ---------------------------------------------------------------------------------
std::string export_json(const Config& cfg, const Results& r) {
    json j;
    j["config"] = io::config_to_json(cfg);
    j["result"] = r.valid ? io::estimate_to_json(r.estimate) : json(nullptr);
    json methods = json::array();
    for (const auto& m : r.methods)
        methods.push_back(m.ok ? io::estimate_to_json(m.estimate) : io::error_to_json(m.error));
    j["comparison"] = methods;
    json answers = json::array();
    for (const auto& s : r.answers) {
        if (!s.ok) {
            answers.push_back({{"question", s.question}, {"ok", false}, {"error", {{"field", s.error.field}, {"message", s.error.message}}}});
            continue;
        }
        answers.push_back(io::answer_to_json(s.answer));
    }
    j["answers"] = answers;
    return io::dump(j, 2) + "\n";
}

std::string export_csv(const Config& cfg, const Results& r) {
    std::string out = "section,key,label,bytes,GB,GiB,share,formula\n";
    if (!r.valid) return out;
    auto row = [&](const char* section, const std::string& key, const std::string& label, double bytes, double share,
                   const std::string& formula) {
        char nums[160];
        // Bytes with every digit (a detailed total can have a fraction); GB and GiB for reading.
        std::snprintf(nums, sizeof nums, "%s,%.6f,%.6f,%s", number_text(bytes).c_str(), bytes / 1e9, bytes / 1073741824.0,
                      share >= 0 ? number_text(share).c_str() : "");
        out += std::string(section) + "," + csv_field(key) + "," + csv_field(label) + "," + nums + "," + csv_field(formula) + "\n";
    };
    const Estimate& e = r.estimate;
    for (const auto& c : e.components) row("component", c.key, c.label, c.bytes, e.total_bytes > 0 ? c.bytes / e.total_bytes : 0, c.formula);
    row("total", "total_bytes", "Per-GPU total", e.total_bytes, 1, "");
    if (e.buffered_bytes > e.total_bytes) row("total", "buffered_bytes", "With safety margin", e.buffered_bytes, -1, "");
    for (const auto& m : r.methods)
        if (m.ok) row("method", method_name(m.method), std::string(method_label(m.method)) + " method", headline_bytes(m.estimate), -1, "");
    for (const auto& c : r.gpus) {
        const GpuFit& f = c.fit;
        const GpuSpec* g = fit_gpu(cfg, f.gpu_id);
        row("gpu", f.gpu_id, g ? g->name : f.gpu_id, g ? g->memory_bytes : 0, f.utilization,
            (f.needs_ram_bytes > 0 ? std::string("GPU part ") + (f.gpu_within_target ? "within" : "above") + " target; needs " +
                                         format_size(f.needs_ram_bytes, false) + " of system RAM, not checked"
                                   : std::string(f.within_target ? "fits within target" : f.fits ? "fits above target" : "does not fit")) +
                (f.gpus_needed > 0 ? "; GPUs needed " + std::to_string(f.gpus_needed) : std::string()) + mac_text(f, false));
    }
    return out;
}

std::string export_markdown(const Config& cfg, const Results& r, bool gib, const std::string& link) {
    const char* u = unit_label(gib);
    std::string out = "# vramcalc: " + md_cell(model_label(cfg)) + "\n\n";
    out += "| Input | Value |\n| --- | --- |\n";
    for (const auto& [label, value] : input_rows(cfg)) out += "| " + md_cell(label) + " | " + md_cell(value) + " |\n";
    if (!r.valid) return out + "\nNo result: the inputs are invalid.\n";
    const Estimate& e = r.estimate;
    out += "\n## Memory per GPU: " + format_size(headline_bytes(e), gib) + "\n\n";
    out += std::string("| Component | ") + u + " | Share | Formula |\n| --- | ---: | ---: | --- |\n";
    for (const auto& c : e.components)
        out += "| " + md_cell(c.label) + " | " + format_size_value(c.bytes, gib) + " | " +
               format_percent(e.total_bytes > 0 ? c.bytes / e.total_bytes : 0) + " | " + md_cell(c.formula) + " |\n";
    out += "| **Total** | **" + format_size_value(e.total_bytes, gib) + "** | 100.0% | |\n";
    if (e.buffered_bytes > e.total_bytes) out += "| With safety margin | " + format_size_value(e.buffered_bytes, gib) + " | | |\n";

    out += std::string("\n## Same scenario, every method\n\n| Method | ") + u + " per GPU |\n| --- | ---: |\n";
    for (const auto& m : r.methods)
        out += std::string("| ") + method_label(m.method) + " | " + (m.ok ? format_size_value(headline_bytes(m.estimate), gib) : "n/a") + " |\n";

    const std::vector<Row> rows = result_rows(cfg, r, gib);
    if (rows.size() > 1) {
        out += "\n## Answers\n\n| Question | Answer |\n| --- | --- |\n";
        for (size_t i = 1; i < rows.size(); ++i) out += "| " + md_cell(rows[i].first) + " | " + md_cell(rows[i].second) + " |\n";
    }
    if (!e.notes.empty()) {
        out += "\n";
        for (const auto& n : e.notes) out += "- " + md_cell(n) + "\n";
    }
    if (!link.empty()) out += "\n[Open this scenario](" + link + ")\n";
    return out;
}

// [SECTION] a11y ----------------------------------------------------------------------------------
namespace {

// A value scaled to its row's unit, to 12 significant digits: 0.7 x 100 reads 70, not 70.00000000000001.
double shown_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

// The config document's value at a dotted path (null when the document leaves it out).
json value_at(const json& doc, const std::string& path) {
    const json* at = &doc;
    std::size_t from = 0;
    while (at->is_object()) {
        const std::size_t dot = path.find('.', from);
        const auto it = at->find(path.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (it == at->end()) return nullptr;
        if (dot == std::string::npos) return *it;
        at = &*it;
        from = dot + 1;
    }
    return nullptr;
}

// The input rows the page drew (App::form_rows), for its text form: each row's config path, label,
// value as the document writes it, accepted range in its unit (the field table's), choices and error.
json form_json(const App& a) {
    const json doc = io::config_to_json(a.inputs);
    json rows = json::array();
    for (const FormRow& row : a.form_rows) {
        const FieldDef* def = find_field(row.path);
        if (!def) continue;
        json r{{"path", row.path}, {"label", row.label}, {"value", value_at(doc, row.path)}, {"error", row.error}};
        if (def->kind == FieldKind::Bool) r["bool"] = true;
        // A row shown in another unit (a share as %: App::shown_units) gives its value and range in
        // that unit, and its scale, by which the form divides what is typed before it applies it.
        FieldDef as_shown = *def;
        for (const ShownUnit& u : a.shown_units)
            if (u.field == row.path && r["value"].is_number()) {
                as_shown = shown_field(*def, u.per_unit, u.unit.c_str());
                r["value"] = shown_number(r["value"].get<double>() * u.per_unit);
                r["scale"] = u.per_unit;
            }
        const std::string range = field_range_text(as_shown);
        if (!range.empty() && row.options.empty()) r["range"] = range;
        if (!row.options.empty()) {
            json options = json::array();
            for (const auto& [id, label] : row.options) options.push_back({id, label});
            r["options"] = options;
        }
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

std::string accessible_summary_json(const App& a) {
    const Config& cfg = a.inputs;
    const Results& r = a.results;
    json j;
    j["title"] = "vramcalc: " + model_label(cfg) + ", " + task_label(cfg.task) + ", " + method_label(cfg.method) + " method";
    json inputs = json::array();
    for (const auto& [label, value] : input_rows(cfg)) inputs.push_back({label, value});
    j["inputs"] = inputs;
    json results = json::array();
    for (const auto& [label, value] : result_rows(cfg, r, a.ui.show_gib)) results.push_back({label, value});
    j["results"] = results;
    json breakdown = json::array();
    if (r.valid)
        for (const auto& c : r.estimate.components)
            breakdown.push_back({c.label, format_size(c.bytes, a.ui.show_gib) + " (" +
                                              format_percent(r.estimate.total_bytes > 0 ? c.bytes / r.estimate.total_bytes : 0) + "): " + c.formula});
    j["breakdown"] = breakdown;
    j["form"] = form_json(a);
    j["error"] = a.error.field.empty() ? json(nullptr) : json(a.error.field + ": " + a.error.message + " (showing the last valid result)");
    return io::dump(j);
}

std::string export_file_name(const Config& cfg, const char* extension) {
    std::string model = model_mode(cfg) == ModelMode::Preset ? cfg.model.id : model_mode(cfg) == ModelMode::ParamsOnly ? "params" : "custom";
    return "vramcalc-" + model + "-" + task_name(cfg.task) + "-" + method_name(cfg.method) + "." + extension;
}

}  // namespace vc::shell
