// vramcalc shell: application state and the calls into the engine. Everything the UI shows is
// derived here, once per change of the inputs: the estimate, the same scenario under every
// method, the what-fits answers and the chart series.
#include "app.hpp"

#include <chrono>
#include <cstring>

#include "core/estimate.hpp"
#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/model/presets.hpp"
#include "state/format.hpp"
#include "state/rules.hpp"
#include "state/scenario.hpp"
#include "state/url.hpp"

namespace vc::shell {

App& app() {
    static App instance;
    return instance;
}

Config default_inputs() {
    Config c;
    c.method = Method::Quick;
    c.task = Task::Training;
    // The quick method's worked example: a 7B model, FP16, AdamW mixed precision, batch 4, seq 2048,
    // opened on the detailed model (the rules of thumb are its comparison, never the answer).
    use_params_only(c, 7);
    c.quick.precision = QuickPrecision::Fp16;
    c.quick.optimizer = QuickOptimizer::AdamWMixed;
    c.run.batch = 4;
    c.run.seq = 2048;
    sync_shared(c);
    c.method = Method::Detailed;  // the shared inputs are in step: only the method changes (a v=1 link's base differs in it alone)
    c.gpu_id = "h100-80gb";
    return c;
}

// Whether `question` applies to the config's task (QuestionInfo::tasks is a comma-separated list;
// "llamacpp": serving with the llama.cpp engine).
static bool question_applies(const QuestionInfo& q, const Config& c) {
    if (std::strcmp(q.tasks, "llamacpp") == 0) return c.task == Task::Inference && c.inference.engine == Engine::LlamaCpp;
    const char* name = task_name(c.task);
    const size_t n = std::strlen(name);
    for (const char* p = q.tasks; (p = std::strstr(p, name)) != nullptr; p += n)
        if ((p == q.tasks || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) return true;
    return false;
}

bool is_locked(const App& a, const std::string& field) {
    for (const auto& f : a.embed.locked)
        if (field == f || (field.size() > f.size() && field.compare(0, f.size(), f) == 0 && field[f.size()] == '.')) return true;
    return false;
}

FieldDef shown_field(const FieldDef& f, double per_unit, const char* unit) {
    FieldDef d = f;
    d.min = f.min < 0 ? f.min : f.min * per_unit;
    d.max = f.max * per_unit;
    d.step = f.step * per_unit;
    d.unit = unit;
    return d;
}

// The engine's message on a field a row shows in another unit, in that unit: the same range check
// on the refused value (the error's own, else the field's current one) as the row shows it; a
// message about something else stays as it is.
void word_in_shown_unit(const App& a, Error& e) {
    const FieldDef* def = find_any_field(e.field.c_str());
    if (!def || !def->ranged || def->accepts) return;
    const double v = e.has_value ? e.value : def->number_of(a.inputs);
    for (const ShownUnit& s : a.shown_units) {
        Error shown;
        if (s.field == e.field && !check_number(shown_field(*def, s.per_unit, s.unit.c_str()), v * s.per_unit, shown)) {
            e.message = shown.message;
            e.value = v;
            e.has_value = true;
        }
    }
}

// The first left-out field with its reason (worded as its row shows it), then the others' fields.
static std::string left_out_text(const App& a) {
    Error first = a.link_left_out.front();
    word_in_shown_unit(a, first);
    std::string out = first.field + ": " + first.message;
    if (a.link_left_out.size() > 1) {
        out += "; also not applied:";
        for (size_t i = 1; i < a.link_left_out.size(); ++i) out += (i > 1 ? ", " : " ") + a.link_left_out[i].field;
    }
    return out;
}

std::string link_error_text(const App& a) { return a.link_error.empty() || a.link_left_out.empty() ? a.link_error : left_out_text(a); }

bool apply_fragment(App& a, const std::string& fragment) {
    Config cfg;
    UiState ui = a.ui;
    Error err;
    std::vector<Error> left_out;
    if (!decode_fragment(fragment, default_inputs(), cfg, ui, err, &left_out)) {
        err.message = page_words(err.message);
        a.link_left_out = {err};
        a.link_error = left_out_text(a);
        a.left_out_from = "the link";
        return false;
    }
    a.inputs = cfg;
    a.ui = ui;
    mark_changed(a);
    a.publish_replace = true;
    // Part of the link could not be read: the rest applied, each bad field is marked beside it
    // (ui_widgets.cpp); the line above the form names the first and the others' fields.
    if (!err.field.empty()) {
        for (Error& e : left_out) e.message = page_words(e.message);  // (the refused value stays: word_in_shown_unit)
        a.left_out_from = "the link";
        a.link_left_out = left_out;  // err is its first
        a.link_error = left_out_text(a);
    }
    return true;
}

std::vector<CatalogFit> catalog_fits(const Estimate& e, double target_utilization) {
    std::vector<CatalogFit> out;
    const double per_gpu = e.buffered_bytes > e.total_bytes ? e.buffered_bytes : e.total_bytes;
    for (const auto& g : gpu_catalog()) {
        CatalogFit c;
        const GpuFit* own = nullptr;
        for (const auto& f : e.fits)
            if (f.gpu_id == g.id) own = &f;
        if (own) {
            c.fit = *own;
            c.from_method = true;
        } else {
            c.fit.gpu_id = g.id;
            c.fit.utilization = per_gpu / g.memory_bytes;
            c.fit.fits = per_gpu <= g.memory_bytes;
            c.fit.within_target = per_gpu <= g.memory_bytes * target_utilization;
        }
        out.push_back(c);
    }
    return out;
}

void recompute(App& a) {
    a.dirty = false;
    ++a.revision;
    const auto started = std::chrono::steady_clock::now();
    auto r = estimate(a.inputs);
    if (!r.ok) {
        a.error = r.error;
        a.error.message = page_words(a.error.message);  // the page's controls, not the CLI's commands
        word_in_shown_unit(a, a.error);
        if (!a.typed_field.empty() && a.typed_field == a.error.field) a.error.message = with_typed_value(a.error.message, a.typed_value);
        return;
    }
    a.error = Error{};
    Results& res = a.results;
    res.valid = true;
    res.estimate = std::move(r.value);
    res.target_utilization = a.inputs.target_utilization;
    res.gpus = catalog_fits(res.estimate, a.inputs.target_utilization);
    // The custom GPU (core/gpu_choice.hpp): the method's own fit where it gives one, else the
    // per-GPU total over its memory.
    if (const GpuSpec* g = a.inputs.inference.has_custom_gpu ? config_gpu(a.inputs) : nullptr) {
        CatalogFit c;
        const Estimate& e = res.estimate;
        const double per_gpu = e.buffered_bytes > e.total_bytes ? e.buffered_bytes : e.total_bytes;
        c.fit.gpu_id = kCustomGpuId;
        c.fit.utilization = per_gpu / g->memory_bytes;
        c.fit.fits = per_gpu <= g->memory_bytes;
        c.fit.within_target = per_gpu <= g->memory_bytes * a.inputs.target_utilization;
        for (const auto& f : e.fits)
            if (f.gpu_id == kCustomGpuId) c.fit = f, c.from_method = true;
        res.gpus.push_back(c);
    }
    res.generation++;
    res.complete = false;
    res.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (!a.defer_extras) complete_results(a);
}

void complete_results(App& a) {
    Results& res = a.results;
    if (!res.valid || res.complete) return;
    const auto started = std::chrono::steady_clock::now();
    res.methods.clear();
    for (Method m : {Method::Quick, Method::Guide, Method::Detailed}) {
        Config c = a.inputs;
        set_method(c, m);
        auto e = estimate(c);
        e.error.message = page_words(e.error.message);
        res.methods.push_back(MethodResult{m, e.ok, std::move(e.value), e.error});
    }

    const auto t_methods = std::chrono::steady_clock::now();
    res.answers.clear();
    // The answers come from the detailed model whatever the method shown (the rules of thumb know
    // no sharding, KV cache or engine), with the inputs as the detailed method reads them.
    Config detailed = a.inputs;
    set_method(detailed, Method::Detailed);
    for (const auto& q : solve_questions()) {
        if (!question_applies(q, a.inputs)) continue;
        auto s = solve(detailed, q.id);
        s.error.message = page_words(s.error.message);
        res.answers.push_back(SolveResult{q.id, q.label, s.ok, std::move(s.value), s.error});
    }

    // Training: how many of each GPU the job needs is the "Fewest GPUs" question asked for that
    // GPU, so the table and the answer never disagree (a 256-GPU job does not read "1 GPU").
    if (a.inputs.task != Task::Inference) {
        for (auto& row : res.gpus) {
            Config c = detailed;
            // A catalog row asks for that GPU, the custom row for the custom one.
            c.inference.has_custom_gpu = row.fit.gpu_id == kCustomGpuId;
            if (!c.inference.has_custom_gpu) c.gpu_id = row.fit.gpu_id;
            auto s = solve(c, "min_gpus");
            row.from_solver = true;
            row.fit.gpus_needed = s.ok && s.value.value > 0 ? static_cast<int>(s.value.value) : 0;
            row.solver_note = s.ok ? s.value.explanation : page_words(s.error.message);
        }
        // A Mac is one machine (the solver counts 1 or none there): its row says so, and which Mac would hold it.
        Estimate rows;
        for (const auto& row : res.gpus) rows.fits.push_back(row.fit);
        apply_one_machine_rule(rows, a.inputs);
        for (size_t i = 0; i < res.gpus.size(); ++i) res.gpus[i].fit = rows.fits[i];
    }

    res.suggestions = fit_suggestions(a.inputs);

    const auto t_answers = std::chrono::steady_clock::now();
    res.by_batch = compute_sweep(a.inputs, SweepAxis::Batch);
    res.by_seq = compute_sweep(a.inputs, SweepAxis::Seq);
    res.complete = true;
    const auto done = std::chrono::steady_clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    res.compute_parts_ms[0] = res.compute_ms;
    res.compute_parts_ms[1] = ms(started, t_answers);
    res.compute_parts_ms[2] = ms(t_answers, done);
    res.compute_ms += ms(started, done);
    (void)t_methods;
    a.publish = true;  // the accessible summary lists the answers too
}

}  // namespace vc::shell
