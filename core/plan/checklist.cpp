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

std::string num(double v, const char* fmt = "%.0f") {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, std::isfinite(v) ? v : 0.0);
    return buf;
}

ChecklistStep step(const char* key, const char* title, double value, const char* unit, std::string detail, double second = 0,
                   const char* second_unit = "") {
    ChecklistStep s;
    s.key = key;
    s.title = title;
    s.value = value;
    s.unit = unit;
    s.second = second;
    s.second_unit = second_unit;
    s.detail = std::move(detail);
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
    c.steps.push_back(step("model", "Model", r.params_total, "parameters",
                           std::to_string(m.layers) + " layers, hidden " + std::to_string(m.hidden) + ", " + std::to_string(m.heads) +
                               " heads (" + std::to_string(m.kv_heads > 0 ? m.kv_heads : m.heads) + " KV), vocabulary " + std::to_string(m.vocab)));
    c.steps.push_back(step("precision", "Precision", (uw + ug + uo) / held, "bytes/parameter",
                           std::string(precision_name(cfg.training.precision)) + ", " + optimizer_name(cfg.training.optimizer) + ": weights " +
                               num(uw / held, "%.3g") + " + gradients " + num(ug / held, "%.3g") + " + optimizer " + num(uo / held, "%.3g") +
                               " bytes per parameter, before sharding (DDP, this split)"));
    c.steps.push_back(step("parallelism", "Parallelism", plan.gpus, "GPUs",
                           "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp) + (l.v > 1 ? " (v" + std::to_string(l.v) + ")" : "") +
                               " x DP " + std::to_string(l.dp) + (l.cp > 1 ? " x CP " + std::to_string(l.cp) : "") +
                               (l.ep > 1 ? ", EP " + std::to_string(l.ep) : "") + ", " + sharding_name(l.sharding) + ": " +
                               num(r.params_on_gpu) + " parameters on each GPU",
                           r.params_on_gpu, "parameters/GPU"));
    c.steps.push_back(step("batch", "Batch", plan.global_batch, "sequences",
                           "global = DP " + std::to_string(l.dp) + " x micro-batch " + std::to_string(l.micro) + " x accumulation " +
                               std::to_string(l.accum) + "; per GPU " + num(per_gpu) + " sequences a step",
                           per_gpu, "sequences/GPU"));
    c.steps.push_back(step("sequence", "Sequence", plan.seq, "tokens",
                           num(plan.global_batch * plan.seq) + " tokens a step; " + num(r.tokens_per_micro_batch) +
                               " tokens per micro-batch on each GPU" + (l.cp > 1 ? " (CP " + std::to_string(l.cp) + " splits the sequence)" : ""),
                           r.tokens_per_micro_batch, "tokens/micro-batch"));
    c.steps.push_back(step("states", "Model states", states, "bytes", "weights + gradients + optimizer state on each GPU"));
    c.steps.push_back(step("activations", "Activations", acts, "bytes",
                           std::string("recomputation ") + recompute_name(l.recompute) + ", " + num(r.in_flight_micro_batches) +
                               " micro-batch" + (r.in_flight_micro_batches == 1 ? "" : "es") + " in flight; logits and loss included"));
    c.steps.push_back(step("overhead", "+ Overhead", overhead, "bytes",
                           "temporary buffers, allocator slack, CUDA context and NCCL; the total per GPU", r.device_total, "bytes"));
    c.steps.push_back(step("target", "Target", plan.target_bytes, "bytes",
                           std::string(r.device_total <= plan.target_bytes ? "fits" : "over") + ": the total is " +
                               num(100 * r.device_total / plan.target_bytes, "%.1f") + "% of the " + num(100 * cfg.target_utilization) +
                               "% target",
                           plan.target_bytes > 0 ? r.device_total / plan.target_bytes : 0, "share"));
    return Out::success(std::move(c));
}

}  // namespace vc
