// vramcalc io: Config and Estimate <-> JSON (docs/config.md is the schema's reference).
//
// [SECTIONS]
//   names      enum <-> string tables
//   model      the "model" object (preset, custom architecture, or params only)
//   config     the top-level document
//   estimate   results and errors
#include "config_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "enum_names.hpp"
#include "field_json.hpp"
#include "inference_json.hpp"
#include "json_read.hpp"
#include "training_json.hpp"
#include "json_syntax.hpp"

namespace vc::io {

using nlohmann::json;

// [SECTION] names ---------------------------------------------------------------------------------
namespace {

const EnumNames& kMethods = kMethodNames;
const EnumNames& kTasks = kTaskNames;
const EnumNames& kQuickPrecisions = kQuickPrecisionNames;
const EnumNames& kQuickOptimizers = kQuickOptimizerNames;

}  // namespace

bool parse_method(const std::string& s, Method& out) { return lookup(kMethods, s, out); }
bool parse_task(const std::string& s, Task& out) { return lookup(kTasks, s, out); }
bool parse_quick_precision(const std::string& s, QuickPrecision& out) { return lookup(kQuickPrecisions, s, out); }
bool parse_quick_optimizer(const std::string& s, QuickOptimizer& out) { return lookup(kQuickOptimizers, s, out); }
const char* quick_precision_name(QuickPrecision p) { return name_of(kQuickPrecisions, p); }
const char* quick_optimizer_name(QuickOptimizer o) { return name_of(kQuickOptimizers, o); }

// [SECTION] model ---------------------------------------------------------------------------------
namespace {

// Reads the "model" section into cfg.model (every model field of the table is a member there).
bool read_model(const json& j, Config& cfg, Error& err) {
    ModelSpec& m = cfg.model;
    if (!j.is_object()) {
        err = Error{"model", "model must be an object: {\"preset\": ID} or architecture fields or {\"params_b\": N}"};
        return false;
    }
    ObjectReader r(j, "model.");
    only_section_keys(r, "model");
    std::string preset;
    r.string("preset", preset);
    if (r.ok() && !preset.empty()) {
        const ModelSpec* p = find_preset(preset);
        if (!p) {
            err = Error{"model.preset", "model.preset \"" + preset + "\" is not a known preset (see vramcalc --list-presets)" + preset_suggestion(preset)};
            return false;
        }
        m = *p;  // fields below override the preset
    }
    // An empty name is no name: the preset's (or the default) stays, as the writer leaves it out.
    std::string name;
    r.string("name", name);
    if (!name.empty()) m.name = name;
    // The architecture: every model field of the table.
    read_section(r, "model", cfg);
    r.number("params_b", m.params_override_b);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    // Edited: no longer the preset as published. The preset's own values beside its id (what
    // config_to_json writes) keep it.
    if (r.has("layers") || r.has("hidden")) {
        const ModelSpec* p = preset.empty() ? nullptr : find_preset(preset);
        if (!p || m.layers != p->layers || m.hidden != p->hidden) m.id.clear();
    }
    return true;
}

}  // namespace

json model_to_json(const ModelSpec& m) {
    json j;
    // A count alone (typed, or its architecture filled from typical ratios, flagged approximate):
    // written as the count, which reads back to the same filled architecture (resolve_model). The
    // filled dimensions written out would read back as an exact custom architecture, unscaled.
    if (m.id.empty() && m.params_override_b > 0 && (m.approximate || m.layers == 0)) {
        j["params_b"] = m.params_override_b;
        if (!m.name.empty() && m.name != model_from_params(m.params_override_b).name) j["name"] = m.name;
        if (m.context_limit != 0) j["context_limit"] = m.context_limit;
        return j;
    }
    if (!m.id.empty()) j["preset"] = m.id;
    if (!m.name.empty()) j["name"] = m.name;
    Config holder;
    holder.model = m;
    write_section(holder, "model", j);
    if (m.params_override_b > 0) j["params_b"] = m.params_override_b;
    return j;
}

// [SECTION] config --------------------------------------------------------------------------------
Outcome<Config> config_from_json(const json& doc) {
    if (!doc.is_object()) return Outcome<Config>::failure("config", std::string("the config must be a JSON object, got a JSON ") + doc.type_name());
    Config cfg;
    ObjectReader r(doc, "");
    only_section_keys(r, "");
    int version = kSchemaVersion;
    r.integer("schema_version", version);
    if (r.ok() && version != kSchemaVersion)
        r.fail("schema_version", "schema_version must be " + std::to_string(kSchemaVersion) + ", got " + std::to_string(version));
    read_enum(r, "method", kMethods, cfg.method);
    read_enum(r, "task", kTasks, cfg.task);
    if (!r.ok()) return Outcome<Config>::failure(r.error());

    if (r.has("model")) {
        Error err;
        if (!read_model(r.at("model"), cfg, err)) return Outcome<Config>::failure(err);
        if (cfg.model.params_override_b > 0) cfg.quick.params_b = cfg.model.params_override_b;
    }
    r.number("params_b", cfg.quick.params_b);
    read_enum(r, "precision", kQuickPrecisions, cfg.quick.precision);
    read_enum(r, "optimizer", kQuickOptimizers, cfg.quick.optimizer);
    // Serving has no optimizer: the quick method's "inference" unless one is given.
    if (cfg.task == Task::Inference && !r.has("optimizer")) cfg.quick.optimizer = QuickOptimizer::Inference;
    r.number("batch", cfg.run.batch);
    r.number("seq", cfg.run.seq);
    r.boolean("checkpointing", cfg.quick.checkpointing);
    r.number("gpus", cfg.gpus);
    r.string("gpu", cfg.gpu_id);
    r.number("target_utilization", cfg.target_utilization);
    if (!r.ok()) return Outcome<Config>::failure(r.error());
    if (r.has("params_b")) cfg.model.params_override_b = cfg.quick.params_b;
    // A model with none of the three is nothing the methods can read (and config_to_json could not
    // write it back): {"name": "x"} alone, {"vocab": 32000} alone.
    if (r.has("model") && cfg.model.id.empty() && cfg.model.layers == 0 && !(cfg.model.params_override_b > 0))
        return Outcome<Config>::failure("model", "model needs a preset (model.preset), an architecture (model.layers, ...) or a "
                                                 "parameter count (model.params_b > 0)");
    // A count alone (model.params_b, or the top-level params_b with no model: --params): the
    // architecture filled from typical ratios (resolve_model), so every method reads the same model
    // the page builds for it (the guide reads the dimensions), and the document config_to_json
    // writes for it ({"model": {"params_b": N}}) reads back to the same estimate.
    if ((r.has("model") || r.has("params_b")) && cfg.model.id.empty() && cfg.model.layers == 0 && cfg.model.params_override_b > 0) {
        auto filled = resolve_model(cfg.model);
        if (filled.ok) cfg.model = std::move(filled.value);
    }

    if (r.has("guide")) {
        const json& g = r.at("guide");
        if (!g.is_object()) return Outcome<Config>::failure("guide", "guide must be an object {\"bytes\", \"weight_bytes\"}");
        ObjectReader gr(g, "guide.");
        only_section_keys(gr, "guide");
        read_section(gr, "guide", cfg);
        if (!gr.ok()) return Outcome<Config>::failure(gr.error());
    }
    if (r.has("constants")) {
        const json& c = r.at("constants");
        if (!c.is_object()) return Outcome<Config>::failure("constants", "constants must be an object");
        ObjectReader cr(c, "constants.");
        only_section_keys(cr, "constants");
        read_section(cr, "constants", cfg);
        if (!cr.ok()) return Outcome<Config>::failure(cr.error());
    }

    // Detailed training sections ("training", "parallel", "runtime") are read here.
    {
        Error err;
        if (!read_training_sections(doc, cfg, err)) return Outcome<Config>::failure(err);
    }

    // Detailed inference section ("inference") is read here.
    if (r.has("inference")) {
        Error err;
        if (!read_inference(r.at("inference"), cfg, err)) return Outcome<Config>::failure(err);
    }
    // Serving a quantized checkpoint with no weights named: the format it is stored in, as `vllm serve`
    // loads it (model.checkpoint_format; core/config.hpp follow_checkpoint_format).
    if (cfg.task == Task::Inference && !(r.has("inference") && r.at("inference").contains("weights"))) follow_checkpoint_format(cfg);

    return Outcome<Config>::success(std::move(cfg));
}

Method method_for_document(const json& doc, std::string* section) {
    if (section) section->clear();
    if (!doc.is_object() || doc.contains("method")) return Config{}.method;
    for (const char* s : {"inference", "training", "parallel", "runtime", "plan"}) {
        const auto it = doc.find(s);
        if (it != doc.end() && it->is_object() && !it->empty()) {
            if (section) *section = s;
            return Method::Detailed;
        }
    }
    return Config{}.method;
}

void complete_document(json& doc) {
    if (!doc.is_object()) return;
    if (!doc.contains("method")) doc["method"] = method_name(method_for_document(doc));
    const auto sets = [](const json& j, const char* s) {
        const auto it = j.find(s);
        return it != j.end() && it->is_object() && !it->empty();
    };
    // An engine's own section without an engine names it: `-ngl 30` alone is llama.cpp's.
    json* inference = sets(doc, "inference") ? &doc["inference"] : nullptr;
    if (inference && !inference->contains("engine")) {
        const char* named = nullptr;
        int count = 0;
        // Each engine's own section (the field table's inference.llamacpp, .vllm, .hf); the name the
        // engine field reads is core's engine_name.
        for (const auto& [section, engine] : {std::pair{"llamacpp", Engine::LlamaCpp}, {"vllm", Engine::Vllm}, {"hf", Engine::Hf}, {"sglang", Engine::Sglang}})
            if (sets(*inference, section)) named = engine_name(engine), ++count;
        if (count == 1) (*inference)["engine"] = named;
    }
    if (doc.contains("task")) return;
    if (inference && !sets(doc, "training") && !sets(doc, "parallel") && !sets(doc, "runtime")) doc["task"] = "inference";
}

Outcome<Config> parse_config(const std::string& text) {
    json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return Outcome<Config>::failure("config", not_json_message("the config", text));
    complete_document(doc);
    return config_from_json(doc);
}

namespace {

// Whole numbers as integers ("batch": 4, not 4.0): the members are doubles, and nlohmann writes a
// double with a ".0"; the readers take either, so the document reads back to the same text. Only
// below 2^53, where every integer is a double (the link's values, shell/state/url.cpp, do the same).
void whole_numbers_as_integers(json& j) {
    if (j.is_structured()) {
        for (auto& v : j) whole_numbers_as_integers(v);
    } else if (j.is_number_float()) {
        const double d = j.get<double>();
        if (d == std::trunc(d) && std::fabs(d) < 9007199254740992.0) j = static_cast<std::int64_t>(d);
    }
}

}  // namespace

json config_to_json(const Config& cfg) {
    json j;
    j["schema_version"] = kSchemaVersion;
    j["method"] = name_of(kMethods, cfg.method);
    j["task"] = name_of(kTasks, cfg.task);
    // With a model, the rules of thumb read its count (model.params_b when typed): a top-level
    // params_b would read back as a typed count and override the model's. A count alone is a model
    // too: its name and context_limit are kept (resolve_model).
    if (cfg.model.layers > 0 || !cfg.model.id.empty() || cfg.model.params_override_b > 0) j["model"] = model_to_json(cfg.model);
    else j["params_b"] = cfg.quick.params_b;
    j["precision"] = quick_precision_name(cfg.quick.precision);
    j["optimizer"] = quick_optimizer_name(cfg.quick.optimizer);
    j["batch"] = cfg.run.batch;
    j["seq"] = cfg.run.seq;
    j["checkpointing"] = cfg.quick.checkpointing;
    j["gpus"] = cfg.gpus;
    if (!cfg.gpu_id.empty()) j["gpu"] = cfg.gpu_id;
    j["target_utilization"] = cfg.target_utilization;
    json guide = json::object(), constants = json::object();
    write_section(cfg, "guide", guide);
    write_section(cfg, "constants", constants);
    j["guide"] = guide;
    j["constants"] = constants;
    write_training_sections(cfg, j);
    if (cfg.task == Task::Inference) j["inference"] = inference_to_json(cfg.inference);
    whole_numbers_as_integers(j);
    return j;
}

// [SECTION] estimate ------------------------------------------------------------------------------
namespace {

// The entries of `items` in the order a nlohmann object keyed by their `key` holds them (sorted),
// the last of equal keys kept (as `obj[key] = ...` overwrites).
template <class T>
std::vector<const T*> by_key(const std::vector<T>& items) {
    std::vector<const T*> v;
    v.reserve(items.size());
    for (const auto& x : items) v.push_back(&x);
    // A stable insertion sort: a result has a few dozen keys at most, and std::stable_sort's code
    // (two instantiations) costs the page's download more than this whole writer.
    for (size_t i = 1; i < v.size(); ++i) {
        const T* x = v[i];
        size_t j = i;
        for (; j > 0 && x->key < v[j - 1]->key; --j) v[j] = v[j - 1];
        v[j] = x;
    }
    std::vector<const T*> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        if (i + 1 == v.size() || v[i + 1]->key != v[i]->key) out.push_back(v[i]);
    return out;
}

}  // namespace

namespace {

// The GPU table's optional members, each written when its test holds (both layouts below).
bool has_needs_ram(const GpuFit& f) { return f.needs_ram_bytes > 0; }  // and gpu_within_target
// A Mac that does not hold it (one machine: core/estimate.hpp apply_one_machine_rule); not where the
// engine has no backend (vLLM on a Mac), whose row says that instead (no_backend).
bool has_mac_needed(const GpuFit& f) { return f.mac && f.gpus_needed == 0 && !f.no_backend; }

// The GPU table as the CLI prints it: an object per GPU.
void write_fit_rows(JsonWriter& w, const std::vector<GpuFit>& fits) {
    w.begin_array();
    for (const auto& f : fits) {
        w.begin_object();
        w.member("fits", f.fits);
        w.member("gpu", f.gpu_id);
        // llama.cpp keeping weights or KV in system RAM of no stated size (core/result.hpp).
        if (has_needs_ram(f)) w.member("gpu_within_target", f.gpu_within_target);
        w.member("gpus_needed", f.gpus_needed);
        if (has_mac_needed(f)) w.member("mac_needed_bytes", f.mac_needed_bytes);
        if (has_needs_ram(f)) w.member("needs_ram_bytes", f.needs_ram_bytes);
        // The config's engine has no backend for this GPU (vLLM on a Mac): why the row holds nothing.
        if (f.no_backend) w.member("no_backend", true);
        w.member("utilization", f.utilization);
        w.member("within_target", f.within_target);
        w.end_object();
    }
    w.end_array();
}

// One member of every row as an array (estimate_json_columns); `has` false: null for that row.
template <size_t N, class Value>
void fit_column(JsonWriter& w, const char (&name)[N], const std::vector<GpuFit>& fits, bool (*has)(const GpuFit&), Value value) {
    w.key(name);
    w.begin_array();
    for (const auto& f : fits) {
        if (has && !has(f)) w.null();
        else w.value(value(f));
    }
    w.end_array();
}

bool has_no_backend(const GpuFit& f) { return f.no_backend != nullptr; }

// The GPU table as columns (estimate_json_columns), the members in the rows' order.
void write_fit_columns(JsonWriter& w, const std::vector<GpuFit>& fits) {
    bool ram = false, mac = false, backend = false;
    for (const auto& f : fits) ram |= has_needs_ram(f), mac |= has_mac_needed(f), backend |= has_no_backend(f);
    w.begin_object();
    fit_column(w, "fits", fits, nullptr, [](const GpuFit& f) { return f.fits; });
    fit_column(w, "gpu", fits, nullptr, [](const GpuFit& f) { return std::string_view(f.gpu_id); });
    if (ram) fit_column(w, "gpu_within_target", fits, has_needs_ram, [](const GpuFit& f) { return f.gpu_within_target; });
    fit_column(w, "gpus_needed", fits, nullptr, [](const GpuFit& f) { return f.gpus_needed; });
    if (mac) fit_column(w, "mac_needed_bytes", fits, has_mac_needed, [](const GpuFit& f) { return f.mac_needed_bytes; });
    if (ram) fit_column(w, "needs_ram_bytes", fits, has_needs_ram, [](const GpuFit& f) { return f.needs_ram_bytes; });
    if (backend) fit_column(w, "no_backend", fits, has_no_backend, [](const GpuFit&) { return true; });
    fit_column(w, "utilization", fits, nullptr, [](const GpuFit& f) { return f.utilization; });
    fit_column(w, "within_target", fits, nullptr, [](const GpuFit& f) { return f.within_target; });
    w.end_object();
}

// Every object's members in sorted order: the bytes nlohmann writes for the same document; the GPU
// table by `write_fits` (rows, or the JS library's columns).
void write_estimate_with(JsonWriter& w, const Estimate& e, void (*write_fits)(JsonWriter&, const std::vector<GpuFit>&)) {
    w.begin_object();
    w.key("breakdown");
    w.begin_object();
    for (const Component* c : by_key(e.components)) w.member(c->key, c->bytes);
    w.end_object();
    w.member("buffered_bytes", e.buffered_bytes);
    w.key("components");
    w.begin_array();
    for (const auto& c : e.components) {
        w.begin_object();
        w.member("bytes", c.bytes);
        w.member("formula", c.formula);
        w.member("key", c.key);
        w.member("label", c.label);
        w.end_object();
    }
    w.end_array();
    if (!e.devices.empty()) {
        w.key("devices");
        w.begin_array();
        for (const auto& d : e.devices) {
            w.begin_object();
            w.member("compute_bytes", d.compute);
            w.member("device", d.device);
            w.member("host", d.host);
            w.member("kv_bytes", d.kv);
            w.member("model_bytes", d.model);
            w.member("other_bytes", d.other);
            w.member("total_bytes", d.total());
            w.end_object();
        }
        w.end_array();
    }
    w.key("fits");
    write_fits(w, e.fits);
    if (!e.launch_command.empty()) w.member("launch_command", e.launch_command);
    w.member("method", e.method);
    w.key("metrics");
    w.begin_object();
    for (const Metric* m : by_key(e.metrics)) {
        w.key(m->key);
        w.begin_object();
        w.member("label", m->label);
        w.member("unit", m->unit);
        w.member("value", m->value);
        w.end_object();
    }
    w.end_object();
    w.key("notes");
    w.begin_array();
    for (const auto& n : e.notes) w.value(n);
    w.end_array();
    w.member("ok", true);
    w.member("schema_version", kSchemaVersion);
    w.member("task", e.task);
    w.member("total_bytes", e.total_bytes);
    w.end_object();
}

}  // namespace

void write_estimate(JsonWriter& w, const Estimate& e) { write_estimate_with(w, e, write_fit_rows); }

std::string estimate_text(const Estimate& e, int indent) {
    JsonWriter w(indent);
    write_estimate(w, e);
    return w.take();
}

json estimate_to_json(const Estimate& e) { return json::parse(estimate_text(e), nullptr, /*allow_exceptions=*/false); }

void write_json(JsonWriter& w, const json& j) {
    switch (j.type()) {
        case json::value_t::object:
            w.begin_object();
            for (auto it = j.begin(); it != j.end(); ++it) {  // std::map order: sorted, as dump() writes
                w.key(std::string_view(it.key()));
                write_json(w, it.value());
            }
            w.end_object();
            return;
        case json::value_t::array:
            w.begin_array();
            for (const json& x : j) write_json(w, x);
            w.end_array();
            return;
        case json::value_t::string: w.value(j.get_ref<const std::string&>()); return;
        case json::value_t::boolean: w.value(j.get<bool>()); return;
        case json::value_t::number_integer: w.value(static_cast<long long>(j.get<std::int64_t>())); return;
        case json::value_t::number_unsigned: w.value(static_cast<unsigned long long>(j.get<std::uint64_t>())); return;
        case json::value_t::number_float: w.value(j.get<double>()); return;
        default: w.null(); return;  // null; binary and discarded values are never written
    }
}

std::string dump(const json& j, int indent) {
    // The writer's layout is dump()'s; its numbers are the shortest that read back (json_writer.hpp),
    // and invalid UTF-8 (an echoed user string) is replaced, never thrown, which would abort wasm.
    JsonWriter w(indent);
    write_json(w, j);
    return w.take();
}

json error_to_json(const Error& err) {
    return {{"ok", false}, {"error", {{"field", err.field}, {"message", err.message}}}};
}

namespace {

std::string estimate_json_with(const std::string& config_text, void (*write_fits)(JsonWriter&, const std::vector<GpuFit>&)) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    auto est = estimate_document(cfg.value);
    if (!est.ok) return dump(error_to_json(est.error));
    JsonWriter w;
    write_estimate_with(w, est.value, write_fits);
    return w.take();
}

}  // namespace

std::string estimate_json(const std::string& config_text) { return estimate_json_with(config_text, write_fit_rows); }
std::string estimate_json_columns(const std::string& config_text) { return estimate_json_with(config_text, write_fit_columns); }

}  // namespace vc::io
