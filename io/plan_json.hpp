// vramcalc io: the cluster planner's JSON (docs/planner.md). A plan request is a config document
// (docs/config.md) with one more object, "plan", holding PlanInputs:
//   {"preset"...model, "seq", "gpu", "training", ..., "plan": {"gpus", "fabric", "global_batch",
//    "train_tokens", "top", "rank", "tp_across_nodes", "uneven_pp", "max_micro_batch", "max_cp",
//    "search": {"recompute", "sharding", "interleave"}, "gpus_per_node", "price_per_hour_usd",
//    "purchase_usd", "network_share", "fabric_spec": {...}, "intra_spec": {...},
//    "constants": {...PlanConstants}, "clusters": [{"gpu", "gpus", "fabric"}], "deadline_days",
//    "max_gpus", "batch_sizing": {"fabrics": [...], "target_efficiency"}, "pareto": true or
//    {"counts": [...], "per_count"}, "fabric_comparison": true or {"fabrics": [...]},
//    "serve": {"concurrency", "context"}}}
// Never throws; every error names the field ("plan.gpus").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/plan/plan.hpp"
#include "core/status.hpp"

namespace vc::io {

struct PlanRequest {
    Config cfg;
    PlanInputs in;
    std::vector<ClusterCandidate> clusters;  // compare these clusters too (empty: none)
    double deadline_days = 0;                // > 0: fewest GPUs of cfg.gpu_id to train in.train_tokens by then
    int max_gpus = 65536;
    bool batch_sizing = false;               // network-aware batch sizing of the best layout
    std::vector<std::string> sizing_fabrics; // empty: every inter-node fabric
    double target_efficiency = 0.9;
    bool pareto = false;                     // the Pareto front of time against cost over cluster sizes
    std::vector<int> pareto_counts;          // empty: pareto_gpu_counts(gpus, node size)
    int pareto_per_count = 5;                // layouts per cluster size
    bool fabric_comparison = false;          // the same job on every fabric (or `compare_fabrics`)
    std::vector<std::string> compare_fabrics;
    bool serve = false;                      // clusters compared for serving the goal below, not training
    ServeGoal serve_goal;
};

Outcome<PlanRequest> plan_request_from_json(const nlohmann::json& doc);

// "GPU:COUNT:FABRIC,..." (e.g. "h100-80gb:512:ib-ndr400,a100-80gb:1024:ib-hdr200") as the request's
// "clusters" list; false with `bad` the first item that is not GPU:COUNT:FABRIC with COUNT >= 1.
// The CLI's --clusters and the page's plan.clusters read it.
bool parse_cluster_list(const std::string& s, nlohmann::json& out, std::string& bad);
Outcome<PlanRequest> parse_plan_request(const std::string& text);

nlohmann::json layout_to_json(const Layout& l);
nlohmann::json layout_result_to_json(const LayoutResult& r);
nlohmann::json plan_result_to_json(const PlanResult& r);
nlohmann::json batch_sizing_to_json(const BatchSizing& b);
nlohmann::json pareto_point_to_json(const ParetoPoint& p);
nlohmann::json fabric_point_to_json(const FabricPoint& f);
nlohmann::json serve_cluster_to_json(const ServeClusterResult& r);
nlohmann::json cluster_to_json(const ClusterResult& r, double deadline_days);
// The guide's checklist (guide_checklist, guide_checklist_serve): {"goal": "train" or "serve", "steps":
// [{key, title, value, unit, second, second_unit, detail}], "answer" (the layout, or the serving cluster), "target_bytes"}.
nlohmann::json checklist_to_json(const Checklist& c);

// Runs everything the request asks: {"ok": true, "plan": {...}, "checklist": {...} (null when nothing
// fits, or serving, when the planned cluster holds no sequence), "clusters": [...] (training, or
// serving with "serve"), "fewest_gpus": {...}, "batch_sizing": [...], "pareto": [...],
// "fabric_comparison": [...]}; {"ok": false, "error": {...}} on bad input.
nlohmann::json run_plan_request(const PlanRequest& req);
std::string plan_json(const std::string& request_text);

// The interconnect and node catalogs: {"fabrics": [{"id", "name", "intra_node", "line_gbps",
// "efficiency", "achieved_gbps", "latency_us", "source"}], "nodes": [{"gpu", "gpus_per_node",
// "intra_fabric", "purchase_usd", "gemm_share", "attention_share", "source", "speed_source"}]}
nlohmann::json fabrics_to_json();
std::string fabrics_json();

}  // namespace vc::io
