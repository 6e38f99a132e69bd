// vramcalc core: dispatch from a Config to its method.
#include "core/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

#include "core/catalog/gpus.hpp"
#include "core/fields.hpp"
#include "core/gpu_choice.hpp"
#include "core/serve/inference.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"

namespace vc {

const char* method_name(Method m) {
    return enum_name(kMethodNames, static_cast<int>(m));  // the field table's spelling (core/fields.cpp)
}

const char* task_name(Task t) {
    return enum_name(kTaskNames, static_cast<int>(t));
}

bool check_target_utilization(const Config& cfg, Error& err) {
    if (check_range("target_utilization", cfg.target_utilization, 0.05, 1.0, err)) return true;
    err.message += " (a share of the GPU's memory: 0.75 = 75%)";
    return false;
}

bool check_result(const Estimate& e, const Config& cfg, Error& err) {
    // The first figure that is not a size is reported: its name (built only then), value and unit.
    auto bad = [](double v) { return !(std::isfinite(v) && v >= 0); };
    auto report = [&](const std::string& figure, double v, const char* unit) {
        const std::string value = std::isnan(v) ? "NaN" : std::isinf(v) ? (v > 0 ? "infinity" : "-infinity") : num(v);
        const bool rules = cfg.method != Method::Detailed;
        err = Error{rules ? "params_b" : "model",
                    std::string("this config is outside what the ") + method_name(cfg.method) +
                        " method models: its " + figure + " came out as " + value + " " + unit +
                        " (a size must be a finite number of at least 0); " +
                        (rules ? "use a smaller params_b, batch or seq"
                               : "check model (a preset, an architecture or params_b) and the sizes")};
        return false;
    };
    for (const auto& c : e.components)
        if (bad(c.bytes)) return report(c.label + " (" + c.key + ")", c.bytes, "bytes");
    if (bad(e.total_bytes)) return report("total", e.total_bytes, "bytes");
    if (bad(e.buffered_bytes)) return report("total with safety margin", e.buffered_bytes, "bytes");
    for (const auto& f : e.fits) {
        if (bad(f.utilization)) return report("GPU utilization on " + f.gpu_id, f.utilization, "x one GPU");
        if (bad(f.gpus_needed)) return report("GPU count on " + f.gpu_id, f.gpus_needed, "GPUs");
    }
    for (const auto& m : e.metrics)
        if (bad(m.value)) return report(m.label + " (" + m.key + ")", m.value, m.unit.c_str());
    return true;
}

void fill_catalog_fits(Estimate& e, double bytes, double target_utilization, const OwnContext* own) {
    e.fits.clear();
    for (const auto& g : gpu_catalog()) {
        const double per_gpu_bytes = bytes_on(g, bytes, own);
        GpuFit f;
        f.gpu_id = g.id;
        f.utilization = per_gpu_bytes / g.memory_bytes;
        f.fits = per_gpu_bytes <= g.memory_bytes;
        f.within_target = per_gpu_bytes <= g.memory_bytes * target_utilization;
        f.gpus_needed = f.within_target ? 1 : 0;
        e.fits.push_back(std::move(f));
    }
}

// The GPU of each row of `fits` (fit_gpu's): the catalog's entry at the row's own index first, as
// fill_catalog_fits and the detailed estimates list the catalog in its order (the custom GPU last),
// else found by id. One pass: a search by id per row and per pair of rows was a fifth of a detailed
// estimate from JS (issue 15; docs/performance.md, session 17).
static std::vector<const GpuSpec*> fit_gpus(const Config& cfg, const std::vector<GpuFit>& fits) {
    const auto& catalog = gpu_catalog();
    constexpr std::string_view custom = kCustomGpuId;
    std::vector<const GpuSpec*> out(fits.size());
    for (size_t i = 0; i < fits.size(); ++i)
        out[i] = i < catalog.size() && catalog[i].id == fits[i].gpu_id && fits[i].gpu_id != custom ? &catalog[i] : fit_gpu(cfg, fits[i].gpu_id);
    return out;
}

void apply_one_machine_rule(Estimate& e, const Config& cfg) {
    // A row's Mac: a unified-memory catalog entry, or the custom GPU marked unified.
    std::vector<const GpuSpec*> macs = fit_gpus(cfg, e.fits);
    for (auto& g : macs)
        if (g && !g->unified) g = nullptr;
    for (size_t i = 0; i < e.fits.size(); ++i) {
        GpuFit& f = e.fits[i];
        f.mac = macs[i] != nullptr;
        if (!f.mac) continue;
        if (f.gpus_needed > 1) f.gpus_needed = 0;
        // Within the target per GPU of a layout over several GPUs: one Mac does not hold the job.
        if (f.gpus_needed == 0 && f.within_target) f.fits = f.within_target = false;
    }
    const GpuSpec* custom = &cfg.inference.custom_gpu;  // the custom row's GPU (fit_gpu), never a catalog entry
    for (size_t i = 0; i < e.fits.size(); ++i) {
        GpuFit& f = e.fits[i];
        const GpuSpec* g = macs[i];
        if (!g || f.gpus_needed > 0 || f.no_backend) continue;  // no backend: no Mac of any size runs it
        f.mac_needed_bytes = 0;
        // The Mac that would hold it: the smallest catalog Mac (never the custom one) whose row needs 1.
        for (size_t j = 0; j < e.fits.size(); ++j)
            if (const GpuSpec* h = macs[j] == custom ? nullptr : macs[j]; h && e.fits[j].gpus_needed == 1 && h->memory_bytes > g->memory_bytes &&
                                                                         (f.mac_needed_bytes == 0 || h->memory_bytes < f.mac_needed_bytes))
                f.mac_needed_bytes = h->memory_bytes;
    }
}

std::string gpu_count_rule(const Config& cfg) {
    const std::string target = "within the " + num(std::round(cfg.target_utilization * 1000) / 10) + "% target";
    const char* whole = "; fits: within one whole card at this layout; a Mac (unified memory) is one machine, never a count of them";
    if (cfg.method == Method::Quick)
        return "needed: the quick rule's own count, ceil(total with its 20% margin / the card's nominal GB): the whole card, no "
               "headroom target (the other methods count within the target); fits: one card holds the total with its margin";
    if (cfg.method == Method::Guide)
        return std::string(cfg.task == Task::Inference ? "needed: 1 when one GPU holds the guide's total " + target +
                                                             " (its inference formula does not split over GPUs), else none"
                                                       : "needed: the fewest of each type at which the guide's per-GPU total (divided over them) is " + target) +
               whole;
    if (cfg.task != Task::Inference)
        return "needed: the fewest of each type at which each GPU is " + target + " (data parallelism grown; TP, PP, CP as set)" + whole;
    if (cfg.inference.engine == Engine::Vllm)
        return "needed: the fewest of each type (tensor parallelism 1, 2, 4, ...) at which vLLM's KV pool, within its gpu_memory_utilization " +
               num(cfg.inference.vllm.gpu_memory_utilization) + ", holds the sequences (vLLM's own budget, not the target)" + whole +
               " (a Mac holds none: " + kVllmNoMetal + ")";
    if (cfg.inference.engine == Engine::Sglang)
        return std::string("needed: the fewest of each type (tensor parallelism 1, 2, 4, ...) at which SGLang's KV pool, within its mem_fraction_static "
               "(its own rule unless given), holds the sequences and max_running_requests admits them (SGLang's own budget, not the target)") +
               whole + " (a Mac holds none: " + kSglangNoMetal + ")";
    return "needed: the fewest of each type (the layers split over them) at which each GPU is " + target +
           (cfg.inference.engine == Engine::LlamaCpp ? " (a Mac: of its GPU working-set limit, and its RAM)" : "") + whole;
}

// The guide's training formula divides everything by the GPU count: the per-GPU total at n GPUs is
// (the total at the config's count x that count) / n, so the fewest n within each GPU's target is
// a ceiling (up to the most GPUs a job may have; 0 past it).
static void guide_gpu_counts(Estimate& e, const Config& cfg) {
    const double job = e.buffered_bytes * cfg.gpus;
    const double most = find_field("gpus")->max;
    for (auto& f : e.fits) {
        const GpuSpec* g = fit_gpu(cfg, f.gpu_id);
        if (!g || !(g->memory_bytes > 0)) continue;
        const double budget = g->memory_bytes * cfg.target_utilization;
        double n = std::max(1.0, std::ceil(job / budget));
        while (n > 1 && job / (n - 1) <= budget) --n;  // rounding of the division, either way
        while (n <= most && job / n > budget) ++n;
        f.gpus_needed = n <= most ? static_cast<int>(n) : 0;
    }
}

static GuideInputs guide_inputs(const Config& cfg, double params) {
    GuideInputs g;
    g.params = params;
    g.layers = cfg.model.layers;
    g.hidden = cfg.model.hidden;
    g.heads = cfg.model.heads;
    g.bytes = cfg.task == Task::Inference ? cfg.guide_weight_bytes : cfg.guide_bytes;
    g.run = cfg.run;
    g.gpus = cfg.gpus;
    return g;
}

// The parameter count the rules of thumb (quick, guide) read: a typed count (params_b), else the
// count derived from the model's architecture (a preset or custom dimensions), else the top-level
// params_b (default 7).
static Outcome<double> rule_params(const Config& cfg) {
    if (cfg.model.params_override_b > 0) return Outcome<double>::success(cfg.model.params_override_b * 1e9);
    if (cfg.model.layers > 0 || !cfg.model.id.empty()) {
        auto m = resolve_model(cfg.model);
        // (a refused count itself needs no hint to give one)
        if (!m.ok) return Outcome<double>::failure(m.error.field, m.error.message + (m.error.field == "params_b" ? "" : " (or give params_b)"));
        return Outcome<double>::success(model_params(m.value).total);
    }
    return Outcome<double>::success(cfg.quick.params_b * 1e9);
}

// The rules of thumb read the sequence length alone: say when it is past the model's window, as
// the detailed method does.
static Outcome<Estimate> with_window_note(Outcome<Estimate> r, const Config& cfg) {
    if (r.ok)
        if (auto note = context_window_note("sequence", cfg.run.seq, cfg.model); !note.empty()) r.value.notes.push_back(note);
    return r;
}

static Outcome<Estimate> run_method(const Config& cfg) {
    switch (cfg.method) {
        case Method::Quick: {
            auto params = rule_params(cfg);
            if (!params.ok) return Outcome<Estimate>::failure(params.error);
            QuickInputs q = cfg.quick;
            q.params_b = params.value / 1e9;
            auto r = quick_estimate(q, cfg.run);
            // The quick rule sizes the whole job and never divides by gpus, but a count outside the field
            // table's range is refused (after the rule's own inputs) as the guide and detailed methods refuse it.
            if (Error err; r.ok && !check_value("gpus", cfg.gpus, err)) return Outcome<Estimate>::failure(err);
            return with_window_note(std::move(r), cfg);
        }
        case Method::Guide: {
            auto params = rule_params(cfg);
            if (!params.ok) return Outcome<Estimate>::failure(params.error);
            auto r = guide_estimate(guide_inputs(cfg, params.value), cfg.task != Task::Inference);
            if (r.ok) {
                fill_catalog_fits(r.value, r.value.buffered_bytes, cfg.target_utilization);
                add_custom_gpu_fit(r.value, cfg, r.value.buffered_bytes);
                if (cfg.task != Task::Inference) guide_gpu_counts(r.value, cfg);
            }
            return with_window_note(std::move(r), cfg);
        }
        case Method::Detailed:
            if (cfg.task == Task::Inference) {
                // Detailed inference / serving (core/inference.cpp) is dispatched here.
                return inference_estimate(cfg);
            }

            // Detailed training and fine-tuning (core/training.cpp) is dispatched here.
            return training_estimate(cfg);
    }
    return Outcome<Estimate>::failure("method", "method must be one of quick, guide, detailed");
}

// A field of the table whose member differs from the default Config's (a written config carries
// every section at its defaults: those are not "set"). Fields without a member (lists, objects) never.
static bool sets_field(const Config& cfg, const FieldDef& f) {
    static const Config kDefault;
    Config& c = const_cast<Config&>(cfg);  // the accessors take Config&; nothing is written here
    Config& d = const_cast<Config&>(kDefault);
    if (f.text_at) return *f.text_at(c) != *f.text_at(d);
    if (f.toggle_at) return *f.toggle_at(c) != *f.toggle_at(d);
    return f.has_member() && f.number_of(cfg) != f.number_of(kDefault);
}

// The engine an engine's own section belongs to: the section's key is one of the engine field's
// spellings (the table's inference.llamacpp, .vllm, .hf); -1 for any other section.
static int section_engine(const std::string& path) {
    const std::string head = "inference.";
    if (path.compare(0, head.size(), head) != 0) return -1;
    const std::string key = path.substr(head.size(), path.find('.', head.size()) - head.size());
    int e = -1;
    return enum_value(kEngineNames, key, e) ? e : -1;
}

// Owners: each engine (0..), then training (the sections training, parallel, runtime).
constexpr int kTrainingOwner = 100;

// The owner of each field of the table by its index (section_engine's engine, kTrainingOwner, or -1 for
// every other section): facts of the constant field table, found once, as section_fields finds its
// lists (its paths' string tests for every estimate were a tenth of a detailed estimate from JS:
// issue 15, docs/performance.md session 17).
static const std::vector<int>& field_owners() {
    static const std::vector<int> owners = [] {
        std::vector<int> v;
        for (const FieldDef& f : config_fields()) {
            int owner = section_engine(f.path);
            if (owner < 0 && (std::strncmp(f.path, "training.", 9) == 0 || std::strncmp(f.path, "parallel.", 9) == 0 ||
                              std::strncmp(f.path, "runtime.", 8) == 0))
                owner = kTrainingOwner;
            v.push_back(owner);
        }
        return v;
    }();
    return owners;
}

// Input is never dropped without a word: the detailed method's fields the config sets (differing
// from the default Config's) that its task or engine never reads, one note per owner, e.g.
// "inference.llamacpp.n_gpu_layers is llama.cpp's; inference.engine is vllm: ignored".
static void note_ignored_fields(const Config& cfg, Estimate& e) {
    if (cfg.method != Method::Detailed) return;
    const bool inference = cfg.task == Task::Inference;
    const std::vector<int>& sections = field_owners();
    std::vector<std::pair<int, std::vector<std::string>>> owners;
    const FieldList fields = config_fields();
    for (size_t i = 0; i < fields.size(); ++i) {
        const FieldDef& f = fields.first[i];
        const int section = sections[i];
        int owner = -1;
        if (section >= 0 && section != kTrainingOwner && (!inference || section != static_cast<int>(cfg.inference.engine))) owner = section;
        else if (section == kTrainingOwner && inference) owner = kTrainingOwner;
        if (owner < 0 || !sets_field(cfg, f)) continue;
        auto it = std::find_if(owners.begin(), owners.end(), [&](const auto& o) { return o.first == owner; });
        if (it == owners.end()) it = owners.insert(owners.end(), {owner, {}});
        it->second.push_back(f.path);
    }
    for (const auto& [owner, paths] : owners) {
        std::string list;
        for (const auto& p : paths) list += (list.empty() ? "" : ", ") + p;
        const char* verb = paths.size() == 1 ? " is " : " are ";
        if (owner == kTrainingOwner) e.notes.push_back(list + verb + "training's; task is inference: ignored");
        else if (inference)
            e.notes.push_back(list + verb + engine_name(static_cast<Engine>(owner)) + "'s; inference.engine is " +
                              engine_name(cfg.inference.engine) + ": ignored");
        else e.notes.push_back(list + verb + engine_name(static_cast<Engine>(owner)) + "'s; task is training: ignored");
    }
    // Model chunks are the interleaved schedule's (training_setup reads them with it only). Megatron-LM has
    // no 1F1B with chunks to refuse: a virtual pipeline size selects the interleaved schedule
    // (megatron/core/pipeline_parallel/schedules.py get_forward_backward_func).
    if (!inference && cfg.parallel.schedule != PipelineSchedule::Interleaved && cfg.parallel.virtual_stages > 1)
        e.notes.push_back(std::string("parallel.virtual_stages is the interleaved schedule's; parallel.schedule is ") +
                          enum_name(kScheduleNames, static_cast<int>(cfg.parallel.schedule)) + ": ignored");
}

std::vector<std::string> unread_field_notes(const Config& cfg, const std::vector<std::string>& paths) {
    std::vector<std::string> notes;
    const bool detailed = cfg.method == Method::Detailed, serving = serves_engine(cfg);
    const auto starts = [](const std::string& path, const char* head) { return path.compare(0, std::strlen(head), head) == 0; };
    for (const std::string& path : paths) {
        if (path == "inference.gpu_custom" || starts(path, "inference.gpu_custom.")) continue;  // every method's and task's GPU
        std::string why;
        if (serving && (path == "batch" || path == "seq"))
            why = " is the training run's; detailed inference reads " + std::string(path == "batch" ? run_shape_paths(cfg).batch : run_shape_paths(cfg).seq);
        else if (detailed && (path == "precision" || path == "optimizer"))
            why = " is the quick method's; method is detailed" +
                  std::string(serving ? (path == "precision" ? " (inference.weights)" : "") : (path == "precision" ? " (training.precision)" : " (training.optimizer)"));
        else if (detailed && (starts(path, "constants.") || starts(path, "guide.")))
            why = std::string(" is the ") + (starts(path, "guide.") ? "guide" : "quick") + " method's; method is detailed";
        else if (detailed && (path == "params_b" || path == "model.params_b") && cfg.model.layers > 0 && !cfg.model.approximate)
            why = " is a typed count for the rules of thumb; method is detailed (the architecture of " +
                  (cfg.model.id.empty() ? std::string("the model") : cfg.model.id) + ")";
        else if (!detailed && (starts(path, "inference.") || starts(path, "training.") || starts(path, "parallel.") || starts(path, "runtime.")))
            why = std::string(" is the detailed method's; method is ") + method_name(cfg.method);
        else if (detailed && cfg.task != Task::Inference && starts(path, "inference.") && section_engine(path) < 0)  // an engine's own: note_ignored_fields
            why = std::string(" is serving's; task is ") + task_name(cfg.task);
        if (why.empty()) continue;
        const std::string note = path + why + ": ignored";
        if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    }
    return notes;
}

Outcome<Estimate> estimate(const Config& cfg) {
    Error err;
    if (!check_target_utilization(cfg, err)) return Outcome<Estimate>::failure(err);
    if (cfg.inference.has_custom_gpu && !check_custom_gpu(cfg.inference.custom_gpu, err)) return Outcome<Estimate>::failure(err);
    // An id the catalog does not have is a typo for every task and method (the fits would name no
    // row of it, silently): serving's own check adds its CPU-only and custom-GPU choices.
    if (!cfg.inference.has_custom_gpu && !cfg.gpu_id.empty() && cfg.gpu_id != "cpu" && !find_gpu(cfg.gpu_id))
        return Outcome<Estimate>::failure("gpu", unknown_gpu_message(cfg.gpu_id));
    auto r = run_method(cfg);
    if (r.ok) apply_one_machine_rule(r.value, cfg);
    if (r.ok && !check_result(r.value, cfg, err)) return Outcome<Estimate>::failure(err);
    return r;
}

Outcome<Estimate> estimate_document(const Config& cfg) {
    auto r = estimate(cfg);
    if (r.ok) note_ignored_fields(cfg, r.value);
    return r;
}

}  // namespace vc
