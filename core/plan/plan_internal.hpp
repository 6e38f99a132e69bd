// vramcalc core (internal to core/plan/): the model quantities a step needs, resolved once per plan.
#pragma once

#include <cmath>

#include "core/fields.hpp"
#include "core/plan/plan.hpp"

namespace vc {

struct PlanModel {
    ModelSpec m;
    double h = 0, qw = 0, kvw = 0, hd = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0, seq = 0;
    double layers = 0, dense_layers = 0, moe_layers = 0;
    double attn_params = 0;        // one layer's attention projections
    double mlp_params = 0;         // one dense MLP
    double expert_params = 0;      // one routed expert
    double experts = 0, top_k = 0, shared = 0, expert_ffn = 0;
    bool gated = true;
    bool flash = true;             // attention kernel keeps no s x s scores
    double total_params = 0, embedding_params = 0, expert_params_total = 0;
    double p = 2;                  // activation bytes
    double grad_bytes = 2;         // gradient bytes on the wire (setup's default)
    double trainable_share = 1;    // trainable / all parameters: LoRA reduces and updates its adapters alone
    bool frozen_base = false;      // LoRA / QLoRA: the base's linears compute no weight gradients
    double lora_rank = 0, lora_dense = 0, lora_moe = 0, lora_head = 0;  // adapter weights a token meets (lora_active_params)
    double lora_merged_up_out = 0, lora_merged_down_in = 0;  // peft target_parameters' merged expert tensors (lora_active_params)
    double gemm_peak = 0, attn_peak = 0;  // FLOP/s
    double hbm = 0;                // bytes/s (datasheet)
    double model_flops_per_token = 0;
};

PlanModel plan_model(const Config& cfg, const GpuSpec& gpu);

// A price (USD) times counts, to the cent, as a user multiplies it out: 64 B200 at $45,000 with a 15%
// network share are $3,312,000, which the product of doubles misses by half a millionth of a cent
// (3311999.9999999995, what the JSON wrote). Under 2^53 cents the cents are a whole number.
inline double whole_cents(double usd) { return std::round(usd * 100) / 100; }
StepTime step_time_for(const PlanModel& pm, const PlanHardware& hw, const PlanConstants& k, const Layout& l);

// A compared cluster's error named by the path its request gives it: a cluster's GPU count, GPU and
// fabric are plan.clusters[i].gpus, .gpu and .fabric, not the plan's own plan.gpus, gpu and
// plan.fabric ("plan.clusters[1].gpus: must be whole nodes of 8 GPUs ...").
Error cluster_error(Error e, size_t i);

// The serving engine's config for `base`'s model on TP GPUs of `gpu_id` (serve_clusters, guide_checklist_serve).
Config serve_config(const Config& base, const std::string& gpu_id, int tp);
// One cluster of a serving comparison: the TP whose replicas hold the goal cheapest. `index`: its
// place in the request, which names its fields (plan.clusters[i].gpus); -1: the plan's own cluster.
ServeClusterResult serve_cluster(const Config& base, const PlanInputs& in, const ServeGoal& goal, const ClusterCandidate& c, long index);
// plan.serve.concurrency in [1, 1e7], plan.serve.context in [0, 1e8] (0: the config's), plan.network_share.
bool check_serve_goal(const ServeGoal& goal, const PlanInputs& in, Error& err);
// Whether `id` names the request's own inter-node fabric (plan.fabric_spec, by its id).
bool custom_fabric(const PlanInputs& in, const std::string& id);
// The fabrics of a list (batch sizing, the fabric chart): `ids`, or when empty the request's own
// fabric (plan.fabric_spec) first, then every inter-node fabric of the catalog.
std::vector<std::string> fabric_list(const PlanInputs& in, const std::vector<std::string>& ids);
// Each id of a fabric list (`field`: plan.batch_sizing.fabrics, plan.fabric_comparison.fabrics) the
// request's own fabric or an inter-node fabric of the catalog; else the message names the field
// and the ids that would work.
bool check_fabric_list(const std::string& field, const std::vector<std::string>& ids, const PlanInputs& in, Error& err);

}  // namespace vc
