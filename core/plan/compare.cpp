// vramcalc core: the planner's comparisons (docs/planner.md, "Pareto front", "Fabrics", "Cluster
// comparison"). The Pareto front of training time against cost over cluster sizes, the same job on
// every fabric, and serving clusters compared by cost per million tokens. Each is built from
// plan(), batch_sizing() and the serving engine (core/serve), unchanged.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/plan/plan_internal.hpp"
#include "core/serve/inference.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/stable_sort.hpp"
#include "core/text.hpp"

namespace vc {

namespace {

// plan.gpus's own limit (the request table's).
int max_compare_gpus() {
    static const int n = static_cast<int>(find_request_field("plan.gpus")->max);
    return n;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::isfinite(v) ? v : 0.0);
    return buf;
}

}  // namespace

// [SECTION] pareto --------------------------------------------------------------------------------
std::vector<int> pareto_gpu_counts(int gpus, int gpus_per_node) {
    std::vector<int> out;
    const long long g = std::max(1, gpus_per_node);
    for (double f : {0.25, 0.5, 1.0, 2.0, 4.0}) {
        long long n = static_cast<long long>(std::llround(gpus * f));
        if (n > g) n = (n + g - 1) / g * g;  // whole nodes when more than one node
        if (n < 1 || n > max_compare_gpus()) continue;
        if (std::find(out.begin(), out.end(), static_cast<int>(n)) == out.end()) out.push_back(static_cast<int>(n));
    }
    return out;
}

PlanInputs pareto_plan_inputs(const PlanInputs& in, int gpus, int per_count) {
    PlanInputs pi = in;
    pi.gpus = gpus;
    pi.top = per_count;
    pi.suggest_fit = false;
    pi.ranked_only = true;
    if (!(pi.train_tokens > 0)) pi.train_tokens = kParetoDefaultTokens;
    return pi;
}

std::vector<ParetoPoint> pareto_points_from(const PlanResult& p) {
    std::vector<ParetoPoint> out;
    for (const auto& r : p.ranked) {
        ParetoPoint pt;
        pt.gpus = p.gpus;
        pt.layout = r;
        out.push_back(pt);
    }
    return out;
}

Outcome<std::vector<ParetoPoint>> pareto_points(const Config& cfg, const PlanInputs& in, int gpus, int per_count, const PlanMemoryPtr& reuse) {
    using Out = Outcome<std::vector<ParetoPoint>>;
    Error err;
    if (!check_value("plan.pareto.per_count", per_count, err)) return Out::failure(err);
    auto p = plan(cfg, pareto_plan_inputs(in, gpus, per_count), reuse);
    if (!p.ok) return Out::failure(p.error);
    return Out::success(pareto_points_from(p.value));
}

void mark_pareto_front(std::vector<ParetoPoint>& pts) {
    stable_sort_by(pts, [](const ParetoPoint& a, const ParetoPoint& b) {
        if (a.layout.train_days != b.layout.train_days) return a.layout.train_days < b.layout.train_days;
        return a.layout.rent_usd < b.layout.rent_usd;
    });
    // Sorted by days: a point is on the front when it is cheaper than every faster one.
    double cheapest = 1e300;
    for (auto& p : pts) {
        p.front = p.layout.rent_usd < cheapest;
        if (p.front) cheapest = p.layout.rent_usd;
    }
}

Outcome<std::vector<ParetoPoint>> pareto_sweep(const Config& cfg, const PlanInputs& in, const std::vector<int>& counts, int per_count,
                                               const PlanMemoryPtr& reuse) {
    using Out = Outcome<std::vector<ParetoPoint>>;
    std::vector<ParetoPoint> all;
    for (int n : counts) {
        auto pts = pareto_points(cfg, in, n, per_count, reuse);
        if (!pts.ok && pts.error.field == "plan.global_batch") continue;  // no layout of that size makes the batch: no point
        if (!pts.ok) return Out::failure(pts.error);
        all.insert(all.end(), pts.value.begin(), pts.value.end());
    }
    mark_pareto_front(all);
    return Out::success(std::move(all));
}

// [SECTION] fabrics -------------------------------------------------------------------------------
PlanInputs fabric_plan_inputs(const PlanInputs& in, const std::string& fabric) {
    PlanInputs pi = in;
    pi.fabric = fabric;
    if (!custom_fabric(in, fabric)) pi.fabric_override = FabricSpec{};
    pi.top = 1;
    pi.suggest_fit = false;
    pi.ranked_only = true;
    return pi;
}

Outcome<FabricPoint> fabric_point_from(const Config& cfg, const PlanInputs& pi, const Layout& reference, double target_efficiency,
                                       const Outcome<PlanResult>& p) {
    using Out = Outcome<FabricPoint>;
    FabricPoint fp;
    fp.fabric_id = pi.fabric;
    if (!p.ok) return Out::failure(p.error);
    if (p.value.ranked.empty()) {
        fp.why = p.value.notes.empty() ? "no layout fits" : p.value.notes.back();
    } else {
        fp.ok = true;
        fp.best = p.value.ranked.front();
    }
    auto b = batch_sizing(cfg, pi, reference, {pi.fabric}, target_efficiency);
    if (!b.ok) return Out::failure(b.error);
    fp.sizing = b.value.front();
    return Out::success(std::move(fp));
}

Outcome<FabricPoint> fabric_point(const Config& cfg, const PlanInputs& in, const std::string& fabric, const Layout& reference,
                                  double target_efficiency, const PlanMemoryPtr& reuse) {
    const PlanInputs pi = fabric_plan_inputs(in, fabric);
    return fabric_point_from(cfg, pi, reference, target_efficiency, plan(cfg, pi, reuse));
}

Outcome<std::vector<FabricPoint>> fabric_comparison(const Config& cfg, const PlanInputs& in, const std::vector<std::string>& fabrics,
                                                    const Layout& reference, double target_efficiency, const PlanMemoryPtr& reuse) {
    using Out = Outcome<std::vector<FabricPoint>>;
    Error err;
    if (!check_fabric_list("plan.fabric_comparison.fabrics", fabrics, in, err)) return Out::failure(err);
    const std::vector<std::string> ids = fabric_list(in, fabrics);
    std::vector<FabricPoint> out;
    for (const auto& id : ids) {
        auto fp = fabric_point(cfg, in, id, reference, target_efficiency, reuse);
        if (!fp.ok) return Out::failure(fp.error);
        out.push_back(std::move(fp.value));
    }
    return Out::success(std::move(out));
}

// [SECTION] serving -------------------------------------------------------------------------------
Config serve_config(const Config& base, const std::string& gpu_id, int tp) {
    Config cfg = base;
    cfg.task = Task::Inference;
    cfg.method = Method::Detailed;
    cfg.gpu_id = gpu_id;
    cfg.gpus = tp;
    cfg.inference.tp = tp;
    return cfg;
}

ServeClusterResult serve_cluster(const Config& base, const PlanInputs& in, const ServeGoal& goal, const ClusterCandidate& c, long index) {
    ServeClusterResult best;
    best.cluster = c;
    auto why = [&](const Error& e) {
        const Error named = index >= 0 ? cluster_error(e, static_cast<size_t>(index)) : e;
        best.why = named.message.rfind(named.field, 0) == 0 ? named.message : named.field + ": " + named.message;
        return best;
    };
    const GpuSpec* g = find_gpu(c.gpu_id);
    if (!g) return why(Error{"gpu", "must name a GPU of the catalog, got \"" + c.gpu_id + "\""});
    Error range;
    if (!check_value("plan.gpus", c.gpus, range)) return why(range);
    const NodeSpec* node = find_node(c.gpu_id);
    // The plan's prices and node size are its GPU type's: another type takes its catalogs' (plan_inputs_for_gpu).
    const PlanInputs own = plan_inputs_for_gpu(base, in, c.gpu_id);
    const int per_node = own.gpus_per_node > 0 ? own.gpus_per_node : (node ? node->gpus_per_node : 8);
    const double price = own.price_per_hour_usd >= 0 ? own.price_per_hour_usd : g->price_per_hour_usd;
    const double buy = own.purchase_usd >= 0 ? own.purchase_usd : (node ? node->purchase_usd : 0);
    const double context = goal.context > 0 ? goal.context : base.inference.context;
    std::string last_error = "no tensor-parallel size holds one sequence of " + fixed(context, 0) + " " + noun_for(context, "tokens");
    bool have = false;
    // Candidates: TP 1, 2, 4, ... within a node (vLLM's tensor parallelism), replicas = GPUs / TP.
    for (int tp = 1; tp <= std::min(per_node, c.gpus); tp *= 2) {
        if (c.gpus % tp) continue;
        auto plan = make_inference_plan(serve_config(base, c.gpu_id, tp), tp);
        if (!plan.ok) {
            last_error = plan.error.field + ": " + plan.error.message;
            continue;
        }
        const InferencePlan& ip = plan.value;
        const double most = std::floor(most_sequences(ip, context, budget_share(ip)));
        if (!(most >= 1)) continue;
        ServeClusterResult r;
        r.cluster = c;
        r.ok = true;
        r.tp = tp;
        r.replicas = c.gpus / tp;
        r.max_seqs_per_replica = most;
        const double need = goal.concurrency > 0 ? std::ceil(goal.concurrency / r.replicas) : most;
        r.seqs_per_replica = std::max(1.0, std::min(most, need));
        r.meets = r.max_seqs_per_replica * r.replicas >= goal.concurrency;
        const MemoryAt mem = memory_at(ip, context, r.seqs_per_replica);
        r.memory_bytes = mem.total();
        r.weights_bytes = mem.weights;
        // vLLM's entry is its whole pool; the sequences occupy their share of it.
        r.kv_bytes = ip.engine == Engine::Vllm ? r.seqs_per_replica * kv_sequence_bytes(ip.kv, context, ip.block) : mem.kv;
        const Speed sp = inference_speed(ip, context, r.seqs_per_replica, context);
        r.tokens_per_s_replica = sp.tokens_per_s_total;
        r.tokens_per_s = sp.tokens_per_s_total * r.replicas;
        r.rent_usd_per_hour = whole_cents(price * c.gpus);
        r.usd_per_mtok = r.tokens_per_s > 0 && price > 0 ? r.rent_usd_per_hour / (r.tokens_per_s * 3600) * 1e6 : 0;
        r.purchase_usd = whole_cents(buy * c.gpus * (1 + in.network_share));
        // Better: meets the goal over not; then cheaper per token; then more capacity.
        auto better = [](const ServeClusterResult& a, const ServeClusterResult& b) {
            if (a.meets != b.meets) return a.meets;
            if (a.usd_per_mtok != b.usd_per_mtok && a.usd_per_mtok > 0 && b.usd_per_mtok > 0) return a.usd_per_mtok < b.usd_per_mtok;
            return a.tokens_per_s > b.tokens_per_s;
        };
        if (!have || better(r, best)) best = r;
        have = true;
    }
    if (!have) best.why = last_error;
    else if (!best.meets)
        best.why = "holds " + fixed(best.max_seqs_per_replica * best.replicas, 0) + " of the " + fixed(goal.concurrency, 0) + " " +
                   noun_for(goal.concurrency, "sequences") + " of " + fixed(context, 0) + " " + noun_for(context, "tokens");
    return best;
}

bool check_serve_goal(const ServeGoal& goal, const PlanInputs& in, Error& err) {
    return check_members({{"plan.serve.concurrency", goal.concurrency}, {"plan.serve.context", goal.context}, {"plan.network_share", in.network_share}},
                         err);
}

Outcome<std::vector<ServeClusterResult>> serve_clusters(const Config& cfg, const PlanInputs& in, const ServeGoal& goal,
                                                        const std::vector<ClusterCandidate>& clusters) {
    using Out = Outcome<std::vector<ServeClusterResult>>;
    Error err;
    if (!check_serve_goal(goal, in, err)) return Out::failure(err);
    auto rm = resolve_model(cfg.model);
    if (!rm.ok) return Out::failure(rm.error);
    std::vector<ServeClusterResult> out;
    for (size_t i = 0; i < clusters.size(); ++i) out.push_back(serve_cluster(cfg, in, goal, clusters[i], static_cast<long>(i)));
    stable_sort_by(out, [](const ServeClusterResult& a, const ServeClusterResult& b) {
        if (a.meets != b.meets) return a.meets;
        if (a.ok != b.ok) return a.ok;
        const double ka = a.usd_per_mtok > 0 ? a.usd_per_mtok : 1e300, kb = b.usd_per_mtok > 0 ? b.usd_per_mtok : 1e300;
        return ka < kb;
    });
    return Out::success(std::move(out));
}

}  // namespace vc
