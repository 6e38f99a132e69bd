// [FOLDER] core/plan/: plan.hpp (inputs, layouts, results, API), collectives.hpp/.cpp (alpha-beta
//   cost of ring/tree all-reduce, all-gather, reduce-scatter, all-to-all, p2p; which link a
//   group of ranks uses), step_time.cpp (FLOP counting, GEMM-shape efficiency, communication,
//   overlap, pipeline bubble: the time of one step of one layout), search.cpp (every valid layout
//   for a GPU count, memory from core/train, ranking, rejection classes, Pareto front,
//   network-aware batch sizing, cluster comparison and sizing to a deadline).
// vramcalc core: the cluster planner. For a model, a training setup (the Config the detailed
// training method reads) and a cluster (GPU type x count x fabric), it enumerates the parallel
// layouts (TP, PP, DP, CP, EP, ZeRO/FSDP, micro-batch, recomputation, interleaving), predicts
// each one's step time and takes its memory per GPU from the detailed training engine, and ranks
// those that fit under the utilization target. docs/planner.md writes out every formula and the
// source of every constant; its accuracy on published runs is measured by the plan_calibration test.
//
// [SECTION] constants     PlanConstants: efficiencies and overlap rules (named, overridable)
// [SECTION] inputs        PlanInputs: cluster, batch, token budget, search switches
// [SECTION] layout        Layout and StepTime
// [SECTION] results       LayoutResult, RejectClass, PlanResult, BatchSizing, ClusterResult
// [SECTION] api           step_time, plan, batch_sizing, plan_clusters, fewest_gpus
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/catalog/fabrics.hpp"
#include "core/catalog/gpus.hpp"
#include "core/config.hpp"
#include "core/status.hpp"

namespace vc {

// [SECTION] constants -----------------------------------------------------------------------------
struct PlanConstants {
    // Share of the dense tensor peak that a large GEMM reaches. 0: the GPU node's gemm_share
    // (core/catalog/fabrics.cpp: A100 0.80, Hopper 0.70, with sources).
    double gemm_efficiency_max = 0;
    // GEMM efficiency falls with its smallest dimension d as d / (d + gemm_half_dim): a GEMM whose
    // smallest side is gemm_half_dim runs at half the maximum. Fitted on throughput.csv (docs/planner.md).
    double gemm_half_dim = 176;
    // Attention core (QK^T, softmax, PV) as a share of peak. 0: the GPU node's attention_share
    // (FlashAttention-2 reaches 50-73% of A100 peak, ~35-40% of H100's); eager attention adds
    // its softmax traffic to the elementwise kernels.
    double attention_efficiency = 0;
    // Achieved share of HBM bandwidth in elementwise kernels (norms, activations, dropout, adds).
    // Source: STREAM-like copies on A100/H100 reach 80-90% of the datasheet bandwidth.
    double hbm_efficiency = 0.85;
    // Memory passes of the elementwise kernels per element they touch (reads + writes, forward;
    // backward is counted twice that). Fitted on throughput.csv (docs/planner.md).
    double elementwise_passes = 1.5;
    // Share of tensor-parallel communication hidden behind compute. 0: Megatron-LM's default
    // (blocking all-reduce / reduce-scatter); Transformer Engine's userbuffers overlap reaches ~0.7.
    double tp_overlap = 0;
    // Data-parallel gradient reduction overlaps the backward pass of the last micro-batch
    // (PyTorch DDP buckets, Megatron --overlap-grad-reduce, FSDP). false: after the backward
    // (Megatron-LM 2021-2022, the throughput.csv runs).
    bool dp_overlap = true;
    // Bytes per gradient value on the wire. 0: from the training setup, 4 when gradients
    // accumulate in FP32 buffers (Megatron main_grad: the reduction runs on that buffer), else 2.
    double grad_comm_bytes = 0;
    // Optimizer step: bytes read and written per parameter held (AdamW with FP32 master: p, g,
    // m, v, master read and written). Source: counting the fused Adam kernel's tensors.
    double optimizer_bytes_per_param = 36;
    // Fixed time per step that no layout removes (data loader, logging, launch), seconds.
    double step_overhead_s = 0;
};

// [SECTION] inputs --------------------------------------------------------------------------------
enum class PlanRank { Time, Cost, TokensPerGpu };

struct PlanInputs {
    int gpus = 8;                       // GPUs in the cluster (a multiple of the node size)
    std::string fabric = "ib-ndr400";   // inter-node fabric id (fabric_catalog)
    FabricSpec fabric_override;         // used instead of the catalog entry when line_gbps > 0
    FabricSpec intra_override;          // the link inside a node, when line_gbps > 0
    int gpus_per_node = 0;              // 0: the node catalog's value for cfg.gpu_id
    double price_per_hour_usd = -1;     // per GPU-hour; < 0: the GPU catalog's
    double purchase_usd = -1;           // per GPU; < 0: the node catalog's
    double global_batch = 0;            // sequences per optimizer step; 0: kDefaultBatchTokens / seq
    double train_tokens = 0;            // token budget: time and cost to train it (0: none)
    bool tp_across_nodes = false;       // allow a TP group larger than a node
    bool uneven_pp = true;              // pipeline stages with unequal layer counts (Megatron, torchtitan)
    int max_micro_batch = 16;           // largest micro-batch tried
    int max_cp = 16;                    // largest context-parallel size tried
    bool search_recompute = true;       // none / selective / full (false: the config's)
    bool search_sharding = true;        // ddp / zero1 / zero2 / zero3 (false: the config's)
    bool search_interleave = true;      // interleaved schedule with v model chunks
    PlanRank rank = PlanRank::Time;     // cluster comparisons: by time, rental cost or tokens/s per GPU
    int top = 20;                       // layouts listed
    // A plan nothing fits for memory goes on to find what would (PlanResult::suggest_*). Not a request
    // field: the searches behind the comparisons (fabrics, Pareto sizes, clusters, the deadline) turn it off.
    bool suggest_fit = true;
    // The search needs its ranked layouts only (not a request field; the searches behind the
    // comparisons set it): every layout's step time first, then memory in ranking order until `top`
    // fit, the same ranked layouts as a whole search; `evaluated`, `fitting`, `rejected` and the
    // notes count the layouts whose memory was taken, and no memory is kept for reuse.
    bool ranked_only = false;
    // Networking's share of a cluster's purchase price, added to the GPUs' (assumption: switches,
    // NICs and cables are commonly put at 10-20% of an AI cluster's capital cost).
    double network_share = 0.15;
    PlanConstants k{};
};

// A plan nothing fits for memory searches on for what would (docs/planner.md, "Bad input"): the
// fewest GPUs of its type, whole nodes doubling from its count then bisecting, up to this many GPUs
// (plan.max_gpus's default: the deadline search's limit), and the catalog GPU with the least memory
// above its own that fits on its count.
inline constexpr int kFitSuggestMaxGpus = 65536;

// Tokens per optimizer step when the global batch is not given: 4M tokens (Llama 2 and 3 trained
// at 4M tokens per step before growing it; Touvron et al. 2023, Dubey et al. 2024).
inline constexpr double kDefaultBatchTokens = 4194304;

// [SECTION] layout --------------------------------------------------------------------------------
struct Layout {
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, v = 1;  // v: model chunks per stage (interleaving)
    bool sp = false;                    // sequence parallelism (with tp > 1)
    Sharding sharding = Sharding::Zero1;
    int micro = 1, accum = 1;           // micro-batch (sequences) and micro-batches per step per DP rank
    Recompute recompute = Recompute::None;
};

// One step on the slowest GPU, seconds. total = compute + the exposed communication + bubble + optimizer.
struct StepTime {
    double compute = 0;        // GEMMs, attention, elementwise kernels, recomputation (all micro-batches)
    double tp_comm = 0, cp_comm = 0, ep_comm = 0, pp_comm = 0, dp_comm = 0;  // exposed
    double dp_comm_total = 0;  // the data-parallel traffic before overlap
    double bubble = 0;         // pipeline fill and drain
    double optimizer = 0;      // the optimizer step
    double total = 0;
    double comm_exposed() const { return tp_comm + cp_comm + ep_comm + pp_comm + dp_comm; }
    double tokens_per_s_per_gpu = 0;
    double model_flops_per_gpu = 0;     // training_flops_per_token's model(): no recomputation, per step
    double mfu = 0;                     // model FLOPs / (total x peak)
};

// [SECTION] results -------------------------------------------------------------------------------
struct LayoutResult {
    Layout layout;
    StepTime time;
    double memory_bytes = 0;     // per GPU as nvidia-smi shows it (core/train device_total)
    double memory_share = 0;     // of the GPU's memory
    bool fits = false;           // memory_share <= target utilization
    double train_days = 0;       // for PlanInputs::train_tokens (0 when none)
    double rent_usd = 0;         // GPU-hours x hourly price for train_tokens
};

struct RejectClass {
    std::string reason;          // e.g. "out of memory", "TP across nodes"
    long long count = 0;
    std::string example;         // the closest one, e.g. "TP8 PP2 ...: 96.1 GB of 60 GB target (+36.1 GB)"
};

// Memory per GPU of every layout a search listed: the training engine's figure, which neither the
// fabric nor prices nor the token budget change. A later search of the same config (model and
// training setup) on the same GPU type and count takes it instead of calling the engine again (the
// fabric chart, the Pareto point of the plan's own size, the plan's own cluster in a comparison);
// it is used only when that search lists the same layouts and the first one's memory agrees.
struct PlanMemory;
using PlanMemoryPtr = std::shared_ptr<const PlanMemory>;

struct PlanResult {
    std::string gpu_id, fabric_id, intra_id;
    int gpus = 0, gpus_per_node = 0;
    double global_batch = 0, seq = 0, target_bytes = 0;
    long long evaluated = 0, fitting = 0;
    std::vector<LayoutResult> ranked;          // best first, at most PlanInputs::top
    std::vector<RejectClass> rejected;         // by class, most frequent first
    std::vector<std::string> notes;
    PlanMemoryPtr memory;                      // the search's memory per layout, for a later search to reuse
    // When nothing fits for memory (PlanInputs::suggest_fit): the fewest GPUs of this type on which a
    // layout fits (0: none up to kFitSuggestMaxGpus) and the fastest layout there; the catalog GPU
    // with the least memory above this one's on which a layout fits on `gpus` GPUs ("": none) and its
    // fastest layout. The last note says them, naming plan.gpus and gpu.
    int suggest_gpus = 0;
    LayoutResult suggest_gpus_best;
    std::string suggest_gpu;
    LayoutResult suggest_gpu_best;
};

// Smallest per-GPU batch that keeps the GPUs busy on one fabric, and what it costs in memory.
struct BatchSizing {
    std::string fabric_id;
    Layout layout;               // with micro and accum of the answer
    double per_gpu_batch = 0;    // micro x accum sequences per DP rank; 0: none reaches the target
    double global_batch = 0;
    double efficiency = 0;       // 1 - (exposed DP traffic + bubble + pipeline sends) / step time
    double memory_bytes = 0;     // per GPU at that batch
    double activation_bytes = 0; // of which activations (core/train)
    bool fits = false;
    double step_s = 0;
    std::string verdict;         // one line
    // When it does not fit, what would (empty when it fits or nothing was found): the first of
    // full recomputation at that batch, a faster fabric whose batch fits, TP or PP doubled.
    std::string fix;
};

struct ClusterCandidate {
    std::string gpu_id;
    int gpus = 0;
    std::string fabric;
};

struct ClusterResult {
    ClusterCandidate cluster;
    bool ok = false;             // some layout fits
    std::string why;             // when not ok: the reason
    LayoutResult best;
    double train_days = 0, rent_usd = 0, purchase_usd = 0;
};

// [SECTION] explore -------------------------------------------------------------------------------
// Token budget the Pareto chart prices when the plan has none (1T tokens).
inline constexpr double kParetoDefaultTokens = 1e12;

// One layout of one cluster size, priced for the token budget.
struct ParetoPoint {
    int gpus = 0;
    LayoutResult layout;         // train_days and rent_usd for the budget
    bool front = false;          // no other point is at least as fast and as cheap, and better in one
};

// Where the same job lands on each fabric: its best layout at the plan's global batch, and the
// reference split's network-aware batch sizing there (same hardware, different network).
struct FabricPoint {
    std::string fabric_id;
    bool ok = false;             // a layout fits on this fabric
    std::string why;             // when not ok
    LayoutResult best;
    BatchSizing sizing;
};

// Serving goal for a cluster comparison: `concurrency` sequences of `context` tokens in flight.
struct ServeGoal {
    double concurrency = 0;
    double context = 0;          // 0: the config's inference.context
};

struct ServeClusterResult {
    ClusterCandidate cluster;
    bool ok = false;             // some TP holds at least one sequence
    bool meets = false;          // replicas x sequences per replica >= the goal's concurrency
    std::string why;             // when not ok
    int tp = 0, replicas = 0;
    double max_seqs_per_replica = 0;  // most sequences of the context that fit one replica
    double seqs_per_replica = 0;      // the goal's share of them (ceil(C / replicas), at most the max)
    double memory_bytes = 0;          // per GPU at seqs_per_replica (vLLM: its whole reservation, the KV pool included)
    double weights_bytes = 0;         // of which the weights on one GPU
    double kv_bytes = 0;              // the KV cache seqs_per_replica sequences of the context occupy on one GPU
    double tokens_per_s_replica = 0;  // decode, the roofline (core/serve inference_speed)
    double tokens_per_s = 0;          // all replicas
    double rent_usd_per_hour = 0, usd_per_mtok = 0, purchase_usd = 0;
};

// [SECTION] api -----------------------------------------------------------------------------------
// The hardware a plan runs on, resolved from the catalogs and overrides.
struct PlanHardware {
    GpuSpec gpu;
    FabricSpec intra, inter;
    int gpus_per_node = 8;
    double price_per_hour_usd = 0, purchase_usd = 0;
    double gemm_share = 0.80, attention_share = 0.55;  // NodeSpec's, unless PlanConstants override
};
Outcome<PlanHardware> plan_hardware(const Config& cfg, const PlanInputs& in);

// Step time of one layout (no memory). cfg supplies the model, seq (cfg.run.seq) and precision.
StepTime step_time(const Config& cfg, const PlanHardware& hw, const PlanConstants& k, const Layout& l);

// One training step's work in forward passes, by kind of work: the one count the step time and the
// model FLOPs (training_flops_per_token) both take. A pass kind's forward is 1; then
//   linear     the layers' matmul weights: backward 2 when they train (the input's gradient and the
//              weight's), 1 when frozen (LoRA's and QLoRA's base: the input's gradient only)
//   head       the LM head's matmul: the same, never recomputed
//   attention  the attention core and its scores (no weights): backward 2 (dQ, dK, dV)
//   elementwise norms, activations, residual adds: backward 2
//   adapters   LoRA's adapters, which train: backward 2
// Full recomputation runs the layers' forward once more (all but the head); selective the
// attention core's.
struct Passes {
    double backward = 2, recompute = 0;
    double total() const { return 1 + backward + recompute; }
};
struct StepPasses {
    Passes linear, head, attention, elementwise, adapters;
};
StepPasses step_passes(bool frozen_base, Recompute recompute);

// FLOPs of one token through one training step, as a user counts them by hand with step_passes:
// 2 per matmul weight the token meets a pass (the layers' active weights and the LM head's,
// hidden x vocab, tied or not), 4 x seq x attention width per layer for the attention core (PaLM's
// convention: non-causal), 2 per LoRA adapter weight the token meets (lora_active_params). Full
// training of Llama-3.1-8B: forward 2N + A, backward 4N + 2A, N = 7.50e9 matmul weights, A = 4 x L
// x seq x width; LoRA: backward 2N + 2A + 4 x adapters. Recomputation from cfg.training.recompute.
struct TrainingFlops {
    double forward = 0, backward = 0, recompute = 0;
    double model() const { return forward + backward; }  // MFU's model FLOPs: no recomputation
    double total() const { return forward + backward + recompute; }
};
TrainingFlops training_flops_per_token(const Config& cfg);

// The Config the detailed training engine reads for a layout (memory per GPU).
Config layout_config(const Config& base, const Layout& l, int gpus);

// Every valid layout for in.gpus GPUs of cfg.gpu_id on in.fabric, ranked. Errors name the field.
// `reuse`: an earlier search's memory (PlanMemory), taken when it applies.
Outcome<PlanResult> plan(const Config& cfg, const PlanInputs& in, const PlanMemoryPtr& reuse = nullptr);

// plan() in slices, for a front end that spreads a search over frames (the page): start() checks
// the inputs and lists the layouts (cheap), step() evaluates up to `max_layouts` more of them
// (memory + step time each), result() ranks them once step() has returned true. When nothing fits
// for memory, step() goes on with the searches for what would (PlanResult::suggest_*), in the same
// slices: total() and evaluated() count their layouts too. plan() is exactly start, step() until
// it returns true, result(): a sliced search gives the same plan.
class PlanSearch {
public:
    PlanSearch();
    ~PlanSearch();
    PlanSearch(PlanSearch&&) noexcept;
    PlanSearch& operator=(PlanSearch&&) noexcept;
    // field empty: started (copies its inputs); `reuse` as plan()'s
    Error start(const Config& cfg, const PlanInputs& in, const PlanMemoryPtr& reuse = nullptr);
    bool reusing() const;              // started with an earlier search's memory
    bool step(long long max_layouts);  // true when every layout is evaluated
    bool started() const;              // between a successful start() and result()
    bool done() const;
    long long total() const;           // layouts listed
    long long evaluated() const;       // of which evaluated so far
    Outcome<PlanResult> result();      // the plan (once done); ends the search

private:
    struct State;
    std::unique_ptr<State> st_;
};

// For each fabric id (empty: every inter-node fabric), the smallest per-GPU batch of `layout`'s
// parallel split that reaches `target_efficiency`: the share of the step not lost to what a
// bigger batch hides (exposed data-parallel traffic, the pipeline bubble and sends).
Outcome<std::vector<BatchSizing>> batch_sizing(const Config& cfg, const PlanInputs& in, const Layout& layout,
                                               const std::vector<std::string>& fabrics, double target_efficiency);

// Best layout on each candidate cluster, time and cost for in.train_tokens.
Outcome<std::vector<ClusterResult>> plan_clusters(const Config& cfg, const PlanInputs& in,
                                                  const std::vector<ClusterCandidate>& clusters, const PlanMemoryPtr& reuse = nullptr);

// Orders cluster results as plan_clusters does: by `rank` (time: days or cluster throughput; cost:
// rental; tokens/s per GPU), those with no fitting layout last.
void rank_clusters(std::vector<ClusterResult>& clusters, PlanRank rank);

// Fewest GPUs (whole nodes, doubling then bisecting) that train in.train_tokens within
// deadline_days; 0 when none up to max_gpus does.
Outcome<ClusterResult> fewest_gpus(const Config& cfg, const PlanInputs& in, double deadline_days, int max_gpus);

// GPU counts the Pareto chart tries around `gpus`: a quarter, a half, the same, twice and four
// times (whole nodes, 1 to 1,000,000 GPUs, each once).
std::vector<int> pareto_gpu_counts(int gpus, int gpus_per_node);
// The `per_count` fastest layouts of `gpus` GPUs, priced for in.train_tokens (kParetoDefaultTokens
// when 0). Empty when none fits.
Outcome<std::vector<ParetoPoint>> pareto_points(const Config& cfg, const PlanInputs& in, int gpus, int per_count,
                                                const PlanMemoryPtr& reuse = nullptr);
// Sorts by days (then cost) and marks the front: the points no other is both faster and cheaper than.
void mark_pareto_front(std::vector<ParetoPoint>& points);
// pareto_points for every count, merged and marked.
Outcome<std::vector<ParetoPoint>> pareto_sweep(const Config& cfg, const PlanInputs& in, const std::vector<int>& counts, int per_count,
                                               const PlanMemoryPtr& reuse = nullptr);

// The same job on one fabric (FabricPoint); `reference` is the split batch sizing keeps.
Outcome<FabricPoint> fabric_point(const Config& cfg, const PlanInputs& in, const std::string& fabric, const Layout& reference,
                                  double target_efficiency, const PlanMemoryPtr& reuse = nullptr);
// fabric_point for each id (empty: every inter-node fabric).
Outcome<std::vector<FabricPoint>> fabric_comparison(const Config& cfg, const PlanInputs& in, const std::vector<std::string>& fabrics,
                                                    const Layout& reference, double target_efficiency, const PlanMemoryPtr& reuse = nullptr);

// The searches behind the comparisons, for a front end that runs each as a sliced PlanSearch: a
// comparison is plan(its config, its inputs) followed by its *_from function (pareto_points,
// fabric_point and plan_clusters are exactly that). Each takes the plan's memory (`reuse`): the
// fabrics always apply, the Pareto size and the cluster equal to the plan's own when there is one.
PlanInputs pareto_plan_inputs(const PlanInputs& in, int gpus, int per_count);
std::vector<ParetoPoint> pareto_points_from(const PlanResult& p);
PlanInputs fabric_plan_inputs(const PlanInputs& in, const std::string& fabric);
Outcome<FabricPoint> fabric_point_from(const Config& cfg, const PlanInputs& fabric_in, const Layout& reference, double target_efficiency,
                                       const Outcome<PlanResult>& p);
// The request's inputs for a candidate of GPU type `gpu_id`: the overrides that describe the plan's
// own GPU type (plan.price_per_hour_usd, plan.purchase_usd, plan.gpus_per_node, plan.intra_spec)
// apply to that type only; another type takes its catalogs' (its price, its node's size and link).
PlanInputs plan_inputs_for_gpu(const Config& cfg, const PlanInputs& in, const std::string& gpu_id);
void cluster_plan_request(const Config& cfg, const PlanInputs& in, const ClusterCandidate& c, Config& cluster_cfg, PlanInputs& cluster_in);
// `index`: the cluster's place in the request (its errors are named plan.clusters[index].*), -1 for none.
ClusterResult cluster_result_from(const Config& cluster_cfg, const PlanInputs& cluster_in, const ClusterCandidate& c,
                                  const Outcome<PlanResult>& p, long index = -1);

// Serving comparison: for each cluster, the tensor-parallel size (powers of two within a node)
// whose replicas hold the goal at the lowest cost per million output tokens (cfg's inference
// inputs: engine, weight format, KV dtype). Rental: GPUs x in.price or the catalog's per hour;
// purchase: GPUs x price x (1 + in.network_share). Ranked: those that meet the goal, cheapest first.
Outcome<std::vector<ServeClusterResult>> serve_clusters(const Config& cfg, const PlanInputs& in, const ServeGoal& goal,
                                                        const std::vector<ClusterCandidate>& clusters);

// [SECTION] checklist -----------------------------------------------------------------------------
// The cluster-sizing guide's checklist, its nine steps in the guide's order: model, precision,
// parallelism, batch (global and per GPU), sequence, model states, activations or KV, + overhead,
// the utilization target, each with the engine's number, ending in the planner's answer.
// Training (guide_checklist): one ranked layout; the numbers come from the training engine for that
// layout (states + activations + overhead = the layout's memory per GPU).
// Serving (guide_checklist_serve): the planned cluster (cfg.gpu_id x in.gpus) serving the goal as the
// serving comparison sizes it (serve_clusters: replicas x TP); step 6 is the weights, step 7 the KV
// cache (key "kv"), from the serving engine (weights + KV + overhead = the memory per GPU in use).
struct ChecklistStep {
    const char* key = "";       // model, precision, parallelism, batch, sequence, states, activations (serving: kv), overhead, target
    const char* title = "";     // "Model", ...
    double value = 0;           // the step's number, in `unit`
    const char* unit = "";      // parameters, bytes/parameter, GPUs, sequences, tokens, bytes
    double second = 0;          // a second number where the step has one (per GPU, the total, the share)
    const char* second_unit = "";  // empty when none
    std::string detail;         // how the number follows (counts and names, no byte figures)
};
struct Checklist {
    std::vector<ChecklistStep> steps;
    bool serving = false;       // a serving goal's checklist (answer: serve_answer)
    LayoutResult answer;        // training: the layout walked through (the planner's best by default)
    ServeClusterResult serve_answer;  // serving: the planned cluster's replicas x TP
    double target_bytes = 0;
};
Outcome<Checklist> guide_checklist(const Config& cfg, const PlanResult& plan, size_t index = 0);
Outcome<Checklist> guide_checklist_serve(const Config& cfg, const PlanInputs& in, const ServeGoal& goal);

// The inter-node fabrics of the catalog, in its order (the fabrics a plan may name).
std::vector<std::string> inter_node_fabrics();

const char* layout_label_sharding(Sharding s);
std::string layout_label(const Layout& l);  // "TP8 SP PP4 v3 DP16 CP1 zero1 mb1 x32 selective"

}  // namespace vc
