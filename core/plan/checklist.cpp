// vramcalc core: the cluster-sizing guide's checklist for one layout of a plan (docs/planner.md,
// "The guide's checklist"): model, precision, parallelism, batch (global and per GPU), sequence,
// model states, activations, + overhead, the 75% target, each with the number the training
// engine gives for that layout, ending in the planner's answer. The numbers add up: states +
// activations + overhead is the layout's memory per GPU (core/train device_total).
#include <cmath>
#include <cstdio>

#include "core/plan/plan.hpp"
#include "core/result.hpp"
#include "core/train/training.hpp"

namespace vc {

namespace {

ChecklistStep step(const char* key, const char* title, double value, const char* unit, const char* detail, double second = 0,
                   const char* second_unit = "") {
    ChecklistStep s;
    s.key = key;
    s.title = title;
    s.value = value;
    s.unit = unit;
    s.second = second;
    s.second_unit = second_unit;
    s.detail = detail;
    return s;
}

}  // namespace

Outcome<Checklist> guide_checklist(const Config& cfg, const PlanResult& plan, size_t index) {
    using Out = Outcome<Checklist>;
    if (index >= plan.ranked.size()) return Out::failure("plan", "no fitting layout to walk through the checklist");
    const LayoutResult& answer = plan.ranked[index];
    const Layout& l = answer.layout;
    auto rm = resolve_model(cfg.model);
    if (!rm.ok) return Out::failure(rm.error);
    const ModelSpec& m = rm.value;
    // The byte figures are the training estimate's components, as the calculator lists them (its
    // gradients include DDP's bucket copy); the counts come from the same engine's numbers.
    auto mem = training_result(layout_config(cfg, l, plan.gpus));
    if (!mem.ok) return Out::failure(mem.error);
    const TrainingResult& r = mem.value;
    auto est = training_estimate(layout_config(cfg, l, plan.gpus));
    if (!est.ok) return Out::failure(est.error);
    auto part = [](const Estimate& e, const char* key) {
        const Component* k = e.component(key);
        return k ? k->bytes : 0.0;
    };
    // Precision: the model states per parameter before any sharding (the same split unsharded).
    Layout whole = l;
    whole.sharding = Sharding::None;
    const Config whole_cfg = layout_config(cfg, whole, plan.gpus);
    auto unsharded = training_result(whole_cfg);
    auto unsharded_est = training_estimate(whole_cfg);
    if (!unsharded.ok) return Out::failure(unsharded.error);
    if (!unsharded_est.ok) return Out::failure(unsharded_est.error);
    const double held = unsharded.value.params_on_gpu > 0 ? unsharded.value.params_on_gpu : 1;
    const double uw = part(unsharded_est.value, "weights"), ug = part(unsharded_est.value, "gradients"),
                 uo = part(unsharded_est.value, "optimizer");

    Checklist c;
    c.answer = answer;
    c.target_bytes = plan.target_bytes;
    const double states = part(est.value, "weights") + part(est.value, "gradients") + part(est.value, "optimizer");
    const double acts = part(est.value, "activations") + part(est.value, "logits_loss");
    const double overhead = r.device_total - states - acts;
    const double per_gpu = static_cast<double>(l.micro) * l.accum;
    // The details are written with snprintf: one call each instead of a chain of string additions
    // keeps the page's download smaller.
    char d[256];
    std::snprintf(d, sizeof d, "%d layers, hidden %d, %d heads (%d KV), vocabulary %d", m.layers, m.hidden, m.heads,
                  m.kv_heads > 0 ? m.kv_heads : m.heads, m.vocab);
    c.steps.push_back(step("model", "Model", r.params_total, "parameters", d));
    std::snprintf(d, sizeof d, "%s, %s: weights %.3g + gradients %.3g + optimizer %.3g bytes per parameter, before sharding (DDP, this split)",
                  precision_name(cfg.training.precision), optimizer_name(cfg.training.optimizer), uw / held, ug / held, uo / held);
    c.steps.push_back(step("precision", "Precision", (uw + ug + uo) / held, "bytes/parameter", d));
    std::snprintf(d, sizeof d, "TP %d x PP %d (v%d) x DP %d x CP %d, EP %d, %s: %.0f parameters on each GPU", l.tp, l.pp, l.v, l.dp, l.cp, l.ep,
                  sharding_name(l.sharding), r.params_on_gpu);
    c.steps.push_back(step("parallelism", "Parallelism", plan.gpus, "GPUs", d, r.params_on_gpu, "parameters/GPU"));
    std::snprintf(d, sizeof d, "global = DP %d x micro-batch %d x accumulation %d; per GPU %.0f sequences a step", l.dp, l.micro, l.accum, per_gpu);
    c.steps.push_back(step("batch", "Batch", plan.global_batch, "sequences", d, per_gpu, "sequences/GPU"));
    std::snprintf(d, sizeof d, "%.0f tokens a step; %.0f tokens per micro-batch on each GPU (sequence / CP %d)", plan.global_batch * plan.seq,
                  r.tokens_per_micro_batch, l.cp);
    c.steps.push_back(step("sequence", "Sequence", plan.seq, "tokens", d, r.tokens_per_micro_batch, "tokens/micro-batch"));
    c.steps.push_back(step("states", "Model states", states, "bytes", "weights + gradients + optimizer state on each GPU"));
    std::snprintf(d, sizeof d, "recomputation %s, %.0f micro-batches in flight; logits and loss included", recompute_name(l.recompute),
                  r.in_flight_micro_batches);
    c.steps.push_back(step("activations", "Activations", acts, "bytes", d));
    c.steps.push_back(step("overhead", "+ Overhead", overhead, "bytes",
                           "temporary buffers, allocator slack, CUDA context and NCCL; the total per GPU", r.device_total, "bytes"));
    const double share = plan.target_bytes > 0 ? r.device_total / plan.target_bytes : 0;
    std::snprintf(d, sizeof d, "%s: the total is %.1f%% of the %.0f%% target", share <= 1 ? "fits" : "over", 100 * share, 100 * cfg.target_utilization);
    c.steps.push_back(step("target", "Target", plan.target_bytes, "bytes", d, share, "share"));
    return Out::success(std::move(c));
}

}  // namespace vc
