// vramcalc shell state: the Cluster planner view (core/plan/plan.hpp on the page). Its inputs are
// view state that a link carries (plan.gpus, plan.fabric, plan.global_batch, plan.train_tokens,
// plan.rank, plan.clusters, plan.deadline_days, plan.serve.concurrency, plan.serve.context,
// plan.price_per_hour_usd, plan.purchase_usd, plan.gpus_per_node: the
// paths of the request table, core/fields.cpp, as the "plan" object of a plan request writes them,
// docs/planner.md; plan.goal and view=planner are the page's own); the model, sequence, precision
// and GPU type are the calculator's own inputs. The plan is recomputed only when either changes;
// the last valid plan stays beside an error.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/plan/plan.hpp"
#include "core/status.hpp"

namespace vc::shell {

struct App;

// The planner's own inputs (the rest of the request is the calculator's config).
struct PlannerView {
    bool open = false;                 // the page shows the planner instead of the calculator's results
    int gpus = 64;                     // GPUs in the cluster (whole nodes)
    std::string fabric = "ib-ndr400";  // inter-node fabric (fabric_catalog)
    double global_batch = 0;           // sequences per optimizer step; 0: 4M tokens / seq (kDefaultBatchTokens)
    double train_tokens = 1e12;        // token budget for days and cost (1T tokens)
    PlanRank rank = PlanRank::Time;    // time, cost or tokens/s per GPU
    // Cluster comparison: candidates "GPU:COUNT:FABRIC,..." (empty: planner_default_clusters), and
    // the goal: train train_tokens (within deadline_days when > 0), or serve serve_goal.concurrency
    // sequences of serve_goal.context tokens (plan.serve.*).
    std::string clusters;
    bool serve = false;
    double deadline_days = 0;
    ServeGoal serve_goal{256, 8192};
    // The user's own figures for the plan's GPU type instead of the catalogs' (unset: the catalog's):
    // rental USD per GPU-hour, purchase USD per GPU, GPUs per node. Held as typed and checked against
    // the request table's ranges before the request is run (planner_check_overrides): the engine
    // reads a negative price or a node of 0 GPUs as "the catalog's", the page refuses them.
    std::optional<double> price_per_hour_usd, purchase_usd, gpus_per_node;
    bool operator==(const PlannerView& o) const {
        return open == o.open && gpus == o.gpus && fabric == o.fabric && global_batch == o.global_batch && train_tokens == o.train_tokens &&
               rank == o.rank && clusters == o.clusters && serve == o.serve && deadline_days == o.deadline_days &&
               serve_goal.concurrency == o.serve_goal.concurrency && serve_goal.context == o.serve_goal.context &&
               price_per_hour_usd == o.price_per_hour_usd && purchase_usd == o.purchase_usd && gpus_per_node == o.gpus_per_node;
    }
    bool operator!=(const PlannerView& o) const { return !(*this == o); }
};

// Layouts the page lists.
inline constexpr int kPlannerTop = 10;

const char* plan_rank_name(PlanRank r);  // "time", "cost", "tokens_per_gpu"

// The candidates compared when the view names none: the planned cluster, the same GPU count of
// A100-80GB on HDR200 and of B200 on NDR400, and twice the GPUs of A100-80GB on HDR200.
std::string planner_default_clusters(const std::string& gpu_id, int gpus, const std::string& fabric);

// The fragment's pairs for the planner (keys as above), as differences from the defaults.
void planner_fragment_pairs(const PlannerView& p, std::vector<std::pair<std::string, std::string>>& pairs);
// Reads one fragment key ("view" or "plan.*") into `p`; false with `err` naming the key when the
// key or its value is not one the planner knows. Links written before plan.serve.* named them
// plan.serve_concurrency and plan.serve_context: those still read.
bool planner_fragment_key(const std::string& key, const std::string& value, PlannerView& p, Error& err);

// The overrides the view sets, checked against the request table (core/fields.cpp): false with
// `err` naming the first refused field and its accepted range in the field's unit.
bool planner_check_overrides(const PlannerView& p, Error& err);

// The plan request the page runs, as a config document with its "plan" object: exactly what
// `vramcalc plan --config FILE` reads (docs/planner.md), with the overrides the view sets. The
// calculator's config is read by the detailed training method (an inference scenario plans its
// model's training).
Config planner_config(const Config& inputs);
nlohmann::json planner_request_json(const Config& inputs, const PlannerView& p);

struct PlannerResults {
    bool valid = false;        // a plan exists (the last valid one while `error` is set)
    PlanResult plan;
    // The guide's checklist for the best layout (guide_checklist), or with a serving goal for the
    // planned cluster serving it (guide_checklist_serve); no steps when nothing fits.
    Checklist checklist;
    Error error;               // why the present inputs have no plan (field empty: none)
    // When nothing fits (error on plan.gpus): what would, from the search (PlanResult::suggest_*):
    // the fewest GPUs of this type (0: none found) and a catalog GPU on this count ("": none).
    int suggest_gpus = 0;
    std::string suggest_gpu;
    double compute_ms = 0;
    unsigned long generation = 0;
};

// The plan for the App's inputs and planner view, recomputed (at once, whole) when either changed.
// `hold`: keep a plan already computed (the UI holds it while a field is being dragged).
const PlannerResults& planner_results(App& a, bool hold = false);

// The page's per-frame planner work: reads the inputs (as planner_results), then runs the plan's
// search and after it the extras in slices of kSearchChunk layouts until `budget_ms` of work is
// spent, so no frame holds a search (a layout takes a few microseconds). True while work remains
// (the page asks for another frame). While the search runs, planner_current() is the last plan.
bool planner_step(App& a, bool hold, double budget_ms);
const PlannerResults& planner_current();
// A search for the present inputs is running: layouts evaluated of total.
bool planner_searching(long long* evaluated = nullptr, long long* total = nullptr);
// The longest planner_step call so far (the planner's share of the longest frame), ms.
double planner_longest_step_ms();

// What the page shows beside the ranked layouts, computed after the plan a unit (one search) after
// another, each search in slices, so no frame holds a search: the same job on every fabric with
// its network-aware batch sizing (the chosen fabric first), then the Pareto front of time against
// cost over cluster sizes (pareto_gpu_counts). Restarts when the plan changes.
struct PlannerExtras {
    unsigned long generation = 0;          // the plan (PlannerResults::generation) they belong to
    std::vector<FabricPoint> fabrics;      // inter-node fabrics, catalog order (filled as computed)
    std::vector<bool> fabric_done;
    int chosen_fabric = -1;                // index of the plan's fabric in `fabrics`
    std::vector<int> counts;               // Pareto cluster sizes
    std::vector<ParetoPoint> pareto;       // every point so far; the front is marked when complete
    std::vector<std::string> notes;        // units that failed (a size with no fitting layout, ...)
    std::vector<ClusterResult> clusters;   // training comparison, ranked when complete
    std::vector<ServeClusterResult> serve; // serving comparison (one unit)
    std::string compare_error;             // why the comparison could not run (field: message)
    size_t next = 0, units = 0;            // next unit of work, of `units`
    bool complete = false;
    double compute_ms = 0;                 // all units together
    double longest_unit_ms = 0;            // the longest unit's work in all (spread over frames in slices)
};
// Target share of compute for the batch sizing (1 - what a bigger batch hides), the request's default.
inline constexpr double kPlannerSizingEfficiency = 0.9;
// Layouts per cluster size on the Pareto chart.
inline constexpr int kPlannerParetoPerCount = 3;

// Works on the extras of the present plan until `budget_ms` is spent (at least one slice of a
// search); returns true while units remain (the page asks for another frame).
bool planner_extras_step(App& a, double budget_ms);
const PlannerExtras& planner_extras();

// Loads a ranked layout into the detailed training inputs (parallel.*, training.sharding,
// recompute, grad_accum, batch, gpus) and shows the calculator.
void use_layout(App& a, const LayoutResult& r);

// Exports of the plan on screen (the Export menu while the planner is open): the request and
// result as `vramcalc plan --format json` writes them; the ranked layouts as CSV (one row per
// layout, bytes and seconds unrounded) and as Markdown (the table the page shows, with the link
// that reopens it). Text is escaped as the calculator's exports escape theirs (csv_field, md_cell).
std::string planner_export_json(App& a);
std::string planner_export_csv(App& a);
std::string planner_export_markdown(App& a, const std::string& link);

// The planner's state for the page's test hook: inputs, the request, the ranked layouts (as
// `vramcalc plan --format json` writes them), the rejected classes and the error.
nlohmann::json planner_state_json(App& a);

}  // namespace vc::shell
