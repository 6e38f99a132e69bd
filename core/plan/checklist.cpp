// vramcalc core: the cluster-sizing guide's checklist (docs/planner.md, "The guide's checklist"):
// model, precision, parallelism, batch (global and per GPU), sequence, model states, activations or
// KV, + overhead, the target, each with the number the engine gives, ending in the planner's answer.
// Training: one layout of a plan, the training engine's numbers (states + activations + overhead is
// the layout's memory per GPU, core/train device_total). Serving: the planned cluster's replicas x
// TP for the goal, the serving engine's numbers (weights + KV cache + overhead is the memory in use).
#include <cmath>
#include <cstdio>

#include "core/plan/plan_internal.hpp"
#include "core/result.hpp"
#include "core/serve/inference.hpp"
#include "core/text.hpp"
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

// Step 1's detail: the model's shape.
void model_detail(char (&d)[256], const ModelSpec& m) {
    std::snprintf(d, sizeof d, "%d %s, hidden %d, %d %s (%d KV), vocabulary %d", m.layers, noun_for(m.layers, "layers").c_str(), m.hidden,
                  m.heads, noun_for(m.heads, "heads").c_str(), m.kv_heads > 0 ? m.kv_heads : m.heads, m.vocab);
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
    model_detail(d, m);
    c.steps.push_back(step("model", "Model", r.params_total, "parameters", d));
    std::snprintf(d, sizeof d, "%s, %s: weights %.3g + gradients %.3g + optimizer %.3g bytes per parameter, before sharding (DDP, this split)",
                  precision_name(cfg.training.precision), optimizer_name(cfg.training.optimizer), uw / held, ug / held, uo / held);
    c.steps.push_back(step("precision", "Precision", (uw + ug + uo) / held, "bytes/parameter", d));
    std::snprintf(d, sizeof d, "TP %d x PP %d (v%d) x DP %d x CP %d, EP %d, %s: %.0f parameters on each GPU", l.tp, l.pp, l.v, l.dp, l.cp, l.ep,
                  sharding_name(l.sharding), r.params_on_gpu);
    c.steps.push_back(step("parallelism", "Parallelism", plan.gpus, "GPUs", d, r.params_on_gpu, "parameters/GPU"));
    std::snprintf(d, sizeof d, "global = DP %d x micro-batch %d x accumulation %d; per GPU %.0f %s a step", l.dp, l.micro, l.accum, per_gpu,
                  noun_for(per_gpu, "sequences").c_str());
    c.steps.push_back(step("batch", "Batch", plan.global_batch, "sequences", d, per_gpu, "sequences/GPU"));
    std::snprintf(d, sizeof d, "%.0f %s a step; %.0f %s per micro-batch on each GPU (sequence / CP %d)", plan.global_batch * plan.seq,
                  noun_for(plan.global_batch * plan.seq, "tokens").c_str(), r.tokens_per_micro_batch, noun_for(r.tokens_per_micro_batch, "tokens").c_str(), l.cp);
    c.steps.push_back(step("sequence", "Sequence", plan.seq, "tokens", d, r.tokens_per_micro_batch, "tokens/micro-batch"));
    c.steps.push_back(step("states", "Model states", states, "bytes", "weights + gradients + optimizer state on each GPU"));
    std::snprintf(d, sizeof d, "recomputation %s, %.0f %s in flight; logits and loss included", recompute_name(l.recompute),
                  r.in_flight_micro_batches, noun_for(r.in_flight_micro_batches, "micro-batches").c_str());
    c.steps.push_back(step("activations", "Activations", acts, "bytes", d));
    c.steps.push_back(step("overhead", "+ Overhead", overhead, "bytes",
                           "temporary buffers, allocator slack, CUDA context and NCCL; the total per GPU", r.device_total, "bytes"));
    const double share = plan.target_bytes > 0 ? r.device_total / plan.target_bytes : 0;
    std::snprintf(d, sizeof d, "%s: the total is %.1f%% of the %.0f%% target", share <= 1 ? "fits" : "over", 100 * share, 100 * cfg.target_utilization);
    c.steps.push_back(step("target", "Target", plan.target_bytes, "bytes", d, share, "share"));
    return Out::success(std::move(c));
}

Outcome<Checklist> guide_checklist_serve(const Config& cfg, const PlanInputs& in, const ServeGoal& goal) {
    using Out = Outcome<Checklist>;
    Error err;
    if (!check_serve_goal(goal, in, err)) return Out::failure(err);
    auto rm = resolve_model(cfg.model);
    if (!rm.ok) return Out::failure(rm.error);
    // The planned cluster, sized for the goal as the serving comparison sizes each candidate.
    const ServeClusterResult r = serve_cluster(cfg, in, goal, {cfg.gpu_id, in.gpus, in.fabric}, -1);
    if (!r.ok) return Out::failure("plan.serve", r.why);
    auto p = make_inference_plan(serve_config(cfg, r.cluster.gpu_id, r.tp), r.tp);
    if (!p.ok) return Out::failure(p.error);
    const InferencePlan& ip = p.value;
    const ModelSpec& m = rm.value;
    const double context = goal.context > 0 ? goal.context : cfg.inference.context;
    const MemoryAt mem = memory_at(ip, context, r.seqs_per_replica);
    const bool vllm = ip.engine == Engine::Vllm;
    const double overhead = mem.activations + mem.runtime + mem.graphs + mem.extras;
    const double total = r.weights_bytes + r.kv_bytes + overhead;
    // vLLM reserves gpu_memory_utilization of the card up front and fills what the weights and its
    // profiled peak leave with the KV pool: the reservation is its target (total <= it exactly when
    // the sequences fit the pool). The other engines grow with the load: the utilization target.
    const double target = vllm ? mem.total() : ip.gpu_capacity * budget_share(ip);
    const double params = ip.params.total > 0 ? ip.params.total : 1;

    Checklist c;
    c.serving = true;
    c.serve_answer = r;
    c.target_bytes = target;
    char d[256];
    model_detail(d, m);
    c.steps.push_back(step("model", "Model", ip.params.total, "parameters", d));
    std::snprintf(d, sizeof d, "%s weights, KV cache in %s; serving keeps no gradients or optimizer state", ip.format ? ip.format->label : "",
                  ip.kv_dtype ? ip.kv_dtype->id : "");
    c.steps.push_back(step("precision", "Precision", ip.weights.total / params, "bytes/parameter", d));
    std::snprintf(d, sizeof d, "%d %s x TP %d (the TP with the lowest cost per million tokens that holds the goal)", r.replicas,
                  noun_for(r.replicas, "replicas").c_str(), r.tp);
    c.steps.push_back(step("parallelism", "Parallelism", r.cluster.gpus, "GPUs", d, r.tp, "GPUs/replica"));
    std::snprintf(d, sizeof d, "%.0f concurrent %s over %d %s: %.0f on each (at most %.0f %s one)", goal.concurrency,
                  noun_for(goal.concurrency, "sequences").c_str(), r.replicas, noun_for(r.replicas, "replicas").c_str(), r.seqs_per_replica,
                  r.max_seqs_per_replica, reads_as_one(r.max_seqs_per_replica) ? "fits" : "fit");
    c.steps.push_back(step("batch", "Batch", goal.concurrency, "sequences", d, r.seqs_per_replica, "sequences/replica"));
    std::snprintf(d, sizeof d, "%.0f %s x %.0f %s of context cached on each replica", r.seqs_per_replica, noun_for(r.seqs_per_replica, "sequences").c_str(),
                  context, noun_for(context, "tokens").c_str());
    c.steps.push_back(step("sequence", "Sequence", context, "tokens", d, r.seqs_per_replica * context, "tokens/replica"));
    std::snprintf(d, sizeof d, "the weights on each GPU (TP %d)", r.tp);
    c.steps.push_back(step("states", "Model states", r.weights_bytes, "bytes", d));
    std::snprintf(d, sizeof d, "%.0f %s x %.0f %s, %s, %.3g KV %s per GPU%s", r.seqs_per_replica, noun_for(r.seqs_per_replica, "sequences").c_str(), context,
                  noun_for(context, "tokens").c_str(), ip.kv_dtype ? ip.kv_dtype->id : "", ip.kv.kv_heads_per_gpu,
                  ip.kv.kv_heads_per_gpu == 1 ? "head" : "heads", vllm ? ", in vLLM's pool" : "");
    c.steps.push_back(step("kv", "KV cache", r.kv_bytes, "bytes", d));
    c.steps.push_back(step("overhead", "+ Overhead", overhead, "bytes",
                           vllm ? "activation peak, CUDA context and CUDA graphs; the total per GPU in use"
                                : "activations, CUDA context and runtime buffers; the total per GPU",
                           total, "bytes"));
    const double share = target > 0 ? total / target : 0;
    if (vllm)
        std::snprintf(d, sizeof d, "%s: the total is %.1f%% of vLLM's reservation (gpu_memory_utilization %.0f%%, KV pool included)",
                      share <= 1 ? "fits" : "over", 100 * share, 100 * ip.in.vllm.gpu_memory_utilization);
    else
        std::snprintf(d, sizeof d, "%s: the total is %.1f%% of the %.0f%% target", share <= 1 ? "fits" : "over", 100 * share, 100 * budget_share(ip));
    c.steps.push_back(step("target", "Target", target, "bytes", d, share, "share"));
    return Out::success(std::move(c));
}

}  // namespace vc
