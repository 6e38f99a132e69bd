// vramcalc shell state: the Cluster planner view (planner.hpp).
#include "planner.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "io/config_json.hpp"
#include "core/catalog/fabrics.hpp"
#include "core/fields.hpp"
#include "core/text.hpp"
#include "io/plan_json.hpp"
#include "io/text_input.hpp"
#include "shell/app.hpp"
#include "format.hpp"
#include "report.hpp"
#include "scenario.hpp"

namespace vc::shell {

using nlohmann::json;

namespace {

// A number as the fragment writes it: whole numbers bare ("64"), others in the shortest form
// that reads back ("1e+12" stays exact through %.17g).
std::string number_text(double v) {
    char buf[40];
    if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

bool parse_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

bool parse_rank(const std::string& s, PlanRank& r) {
    int v = 0;
    if (!enum_value(kPlanRankNames, s, v)) return false;
    r = static_cast<PlanRank>(v);
    return true;
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The cache behind planner_results: the inputs it was computed for.
struct Cache {
    bool computed = false;     // a request was read for (version, view)
    unsigned long version = 0;
    PlannerView view;
    PlannerResults results;
    bool have_request = false;
    io::PlanRequest request;   // of the valid plan (the extras run on it)
    // The search for the present inputs while it runs in slices (planner_step), and its request.
    PlanSearch search;
    io::PlanRequest pending;
    double search_ms = 0;      // its work so far
    PlannerExtras extras;
    // The extras unit in progress, when it is a search: its config and inputs.
    PlanSearch unit_search;
    Config unit_cfg;
    PlanInputs unit_in;
    double unit_ms = 0;
    double longest_step_ms = 0;  // the longest planner_step call (a frame's planner work)
};

Cache& cache() {
    static Cache c;
    return c;
}

}  // namespace

const char* plan_rank_name(PlanRank r) { return enum_name(kPlanRankNames, static_cast<int>(r)); }

namespace {
// The catalog overrides a view sets, by their request paths (the link's keys and the request's).
template <typename View>
auto overrides(View& p) {
    using Member = decltype(&p.price_per_hour_usd);
    return std::array<std::pair<const char*, Member>, 3>{{{"plan.price_per_hour_usd", &p.price_per_hour_usd},
                                                          {"plan.purchase_usd", &p.purchase_usd},
                                                          {"plan.gpus_per_node", &p.gpus_per_node}}};
}
}  // namespace

// [SECTION] fragment ------------------------------------------------------------------------------
void planner_fragment_pairs(const PlannerView& p, std::vector<std::pair<std::string, std::string>>& pairs) {
    const PlannerView d;
    if (p.open) pairs.emplace_back("view", "planner");
    if (p.gpus != d.gpus) pairs.emplace_back("plan.gpus", std::to_string(p.gpus));
    if (p.fabric != d.fabric) pairs.emplace_back("plan.fabric", p.fabric);
    if (p.global_batch != d.global_batch) pairs.emplace_back("plan.global_batch", number_text(p.global_batch));
    if (p.train_tokens != d.train_tokens) pairs.emplace_back("plan.train_tokens", number_text(p.train_tokens));
    if (p.rank != d.rank) pairs.emplace_back("plan.rank", plan_rank_name(p.rank));
    if (p.clusters != d.clusters) pairs.emplace_back("plan.clusters", p.clusters);
    if (p.serve != d.serve) pairs.emplace_back("plan.goal", p.serve ? "serve" : "train");
    if (p.deadline_days != d.deadline_days) pairs.emplace_back("plan.deadline_days", number_text(p.deadline_days));
    if (p.serve_goal.concurrency != d.serve_goal.concurrency) pairs.emplace_back("plan.serve.concurrency", number_text(p.serve_goal.concurrency));
    if (p.serve_goal.context != d.serve_goal.context) pairs.emplace_back("plan.serve.context", number_text(p.serve_goal.context));
    for (const auto& [key, v] : overrides(p))
        if (*v) pairs.emplace_back(key, number_text(**v));
}

std::string planner_default_clusters(const std::string& gpu_id, int gpus, const std::string& fabric) {
    const std::string n = std::to_string(gpus), n2 = std::to_string(gpus * 2);
    return gpu_id + ":" + n + ":" + fabric + ",a100-80gb:" + n + ":ib-hdr200,b200-180gb:" + n + ":ib-ndr400,a100-80gb:" + n2 + ":ib-hdr200";
}

bool planner_fragment_key(const std::string& key_in, const std::string& value, PlannerView& p, Error& err) {
    // Old links' spellings of plan.serve.*.
    const std::string key = key_in == "plan.serve_concurrency" ? "plan.serve.concurrency" : key_in == "plan.serve_context" ? "plan.serve.context" : key_in;
    double x = 0;
    if (key == "view") {
        if (value != "planner" && value != "calculator") {
            err = Error{"view", "view must be calculator or planner, got \"" + io::quoted_excerpt(value) + "\""};
            return false;
        }
        p.open = value == "planner";
    } else if (key == "plan.gpus") {
        // The engine checks the range (plan.gpus in [1, 1000000]); here only that it is a whole number an int holds.
        if (!parse_number(value, x) || x != std::floor(x) || x < -1e9 || x > 1e9) {
            err = Error{key, "plan.gpus must be a whole number of GPUs, got \"" + io::quoted_excerpt(value) + "\""};
            return false;
        }
        p.gpus = static_cast<int>(x);
    } else if (key == "plan.fabric") {
        p.fabric = value;  // an unknown id gets the engine's message naming plan.fabric
    } else if (key == "plan.global_batch" || key == "plan.train_tokens" || key == "plan.deadline_days" || key == "plan.serve.concurrency" ||
               key == "plan.serve.context") {
        if (!parse_number(value, x)) {
            err = Error{key, key + " must be a number, got \"" + io::quoted_excerpt(value) + "\""};
            return false;
        }
        (key == "plan.global_batch" ? p.global_batch : key == "plan.train_tokens" ? p.train_tokens : key == "plan.deadline_days" ? p.deadline_days
                                                                    : key == "plan.serve.concurrency" ? p.serve_goal.concurrency : p.serve_goal.context) = x;
    } else if (key == "plan.price_per_hour_usd" || key == "plan.purchase_usd" || key == "plan.gpus_per_node") {
        // The range is checked with the request (planner_check_overrides): a link's -1 is refused there, by name.
        if (!parse_number(value, x)) {
            err = Error{key, key + " must be a number, got \"" + io::quoted_excerpt(value) + "\""};
            return false;
        }
        for (const auto& [k, v] : overrides(p))
            if (key == k) *v = x;
    } else if (key == "plan.clusters") {
        p.clusters = value;  // read (and a bad item named) by the request, as the CLI's --clusters
    } else if (key == "plan.goal") {
        if (value != "train" && value != "serve") {
            err = Error{key, "plan.goal must be train or serve, got \"" + value + "\""};
            return false;
        }
        p.serve = value == "serve";
    } else if (key == "plan.rank") {
        if (!parse_rank(value, p.rank)) {
            err = Error{key, "plan.rank must be one of " + enum_choices(kPlanRankNames) + ", got \"" + io::quoted_excerpt(value) + "\""};
            return false;
        }
    } else {
        err = Error{key, key + " is not a planner field (plan.gpus, plan.fabric, plan.global_batch, plan.train_tokens, plan.rank, plan.clusters, "
                             "plan.goal, plan.deadline_days, plan.serve.concurrency, plan.serve.context, plan.price_per_hour_usd, "
                             "plan.purchase_usd, plan.gpus_per_node)"};
        return false;
    }
    return true;
}

// [SECTION] request -------------------------------------------------------------------------------
Config planner_config(const Config& inputs) {
    Config c = inputs;
    if (c.task == Task::Inference) set_task(c, Task::Training);
    set_method(c, Method::Detailed);
    return c;
}

bool planner_check_overrides(const PlannerView& p, Error& err) {
    for (const auto& [key, v] : overrides(p))
        if (*v && !check_value(key, **v, err)) return false;
    return true;
}

json planner_request_json(const Config& inputs, const PlannerView& p) {
    json doc = io::config_to_json(planner_config(inputs));
    doc["plan"] = json{{"gpus", p.gpus}, {"fabric", p.fabric}, {"global_batch", p.global_batch}, {"train_tokens", p.train_tokens},
                       {"rank", plan_rank_name(p.rank)}, {"top", kPlannerTop}};
    // The comparison's candidates and goal: read with the request (a bad item names its field),
    // run a unit at a time after the plan (PlannerExtras).
    const std::string list = p.clusters.empty() ? planner_default_clusters(inputs.gpu_id, p.gpus, p.fabric) : p.clusters;
    doc["plan"]["clusters"] = list;  // the request reads "GPU:COUNT:FABRIC,..." and names a bad item
    if (p.serve) doc["plan"]["serve"] = json{{"concurrency", p.serve_goal.concurrency}, {"context", p.serve_goal.context}};
    else if (p.deadline_days > 0) doc["plan"]["deadline_days"] = p.deadline_days;
    // The user's figures for the plan's GPU type (the comparison's other GPU types keep the catalog's).
    // A node size in range is whole: written as the integer the request reads.
    for (const auto& [key, v] : overrides(p)) {
        if (!*v) continue;
        const double x = **v;
        const bool whole = x == std::floor(x) && std::fabs(x) < 1e9;
        doc["plan"][std::string(key).substr(5)] = whole && v == &p.gpus_per_node ? json(static_cast<int>(x)) : json(x);
    }
    return doc;
}

// [SECTION] results -------------------------------------------------------------------------------
namespace {

// Layouts evaluated between two looks at the clock: a few hundred microseconds in the page.
constexpr long long kSearchChunk = 64;

// Reads the request when the inputs changed and starts its search; a request or start error is the
// results' error at once (the last valid plan stays).
void begin(Cache& c, App& a, bool hold) {
    if (c.computed && ((hold && c.results.valid) || (c.version == a.version && c.view == a.ui.planner))) return;
    c.computed = true;
    c.version = a.version;
    c.view = a.ui.planner;
    c.search = PlanSearch{};
    const auto started = Clock::now();
    // The user's overrides against the table's ranges first (the request reads a negative price as
    // the catalog's); then the same path as `vramcalc plan --config FILE`: the request document, read and run.
    Error err;
    Outcome<io::PlanRequest> req = Outcome<io::PlanRequest>::failure("plan", "not read");
    if (planner_check_overrides(a.ui.planner, err)) {
        req = io::plan_request_from_json(planner_request_json(a.inputs, a.ui.planner));
        err = req.ok ? c.search.start(req.value.cfg, req.value.in) : req.error;
    }
    c.search_ms = ms_since(started);
    if (!err.field.empty()) {
        c.results.error = err;
        c.results.compute_ms = c.search_ms;
        return;
    }
    c.results.error = Error{};
    c.pending = std::move(req.value);
}

// The finished search becomes the results.
void finish(Cache& c) {
    if (!c.search.started() || !c.search.done()) return;
    Outcome<PlanResult> p = c.search.result();
    PlannerResults& r = c.results;
    r.compute_ms = c.search_ms;
    r.suggest_gpus = 0;
    r.suggest_gpu.clear();
    if (!p.ok) {
        r.error = p.error;
        return;
    }
    if (p.value.ranked.empty()) {  // nothing fits: the plan's note (the closest miss, the fields that would help); the last plan stays
        r.error = Error{"plan.gpus", p.value.notes.empty() ? "no layout fits" : p.value.notes.back()};
        r.suggest_gpus = p.value.suggest_gpus;
        r.suggest_gpu = p.value.suggest_gpu;
        return;
    }
    r.error = Error{};
    r.plan = std::move(p.value);
    const io::PlanRequest& q = c.pending;
    auto steps = q.serve ? guide_checklist_serve(q.cfg, q.in, q.serve_goal) : guide_checklist(q.cfg, r.plan);
    r.checklist = steps.ok ? std::move(steps.value) : Checklist{};
    r.valid = true;
    r.generation++;
    c.request = std::move(c.pending);
    c.have_request = true;
}

}  // namespace

const PlannerResults& planner_results(App& a, bool hold) {
    Cache& c = cache();
    begin(c, a, hold);
    if (c.search.started()) {  // at once, all of it
        const auto started = Clock::now();
        while (!c.search.step(kSearchChunk * 1024)) {
        }
        c.search_ms += ms_since(started);
        finish(c);
    }
    return c.results;
}

const PlannerResults& planner_current() { return cache().results; }

bool planner_searching(long long* evaluated, long long* total) {
    const Cache& c = cache();
    if (evaluated) *evaluated = c.search.evaluated();
    if (total) *total = c.search.total();
    return c.search.started();
}

double planner_longest_step_ms() { return cache().longest_step_ms; }

bool planner_step(App& a, bool hold, double budget_ms) {
    Cache& c = cache();
    const auto started = Clock::now();
    begin(c, a, hold);
    bool more = false;
    if (c.search.started()) {
        do {  // at least one slice a call
            const auto t0 = Clock::now();
            c.search.step(kSearchChunk);
            c.search_ms += ms_since(t0);
        } while (!c.search.done() && ms_since(started) < budget_ms);
        finish(c);
        more = c.search.started();
    }
    // The extras of the plan on screen, with what is left of the budget (none while a field is dragged).
    if (!more && !hold && c.results.valid) more = planner_extras_step(a, std::max(0.0, budget_ms - ms_since(started)));
    c.longest_step_ms = std::max(c.longest_step_ms, ms_since(started));
    return more;
}

// [SECTION] extras --------------------------------------------------------------------------------
namespace {

void reset_extras(Cache& c) {
    PlannerExtras& x = c.extras;
    x = PlannerExtras{};
    c.unit_search = PlanSearch{};
    c.unit_ms = 0;
    x.generation = c.results.generation;
    for (const auto& f : fabric_catalog()) {
        if (f.intra_node) continue;
        if (f.id == c.results.plan.fabric_id) x.chosen_fabric = static_cast<int>(x.fabrics.size());
        FabricPoint fp;
        fp.fabric_id = f.id;
        x.fabrics.push_back(fp);
    }
    x.fabric_done.assign(x.fabrics.size(), false);
    x.counts = pareto_gpu_counts(c.results.plan.gpus, c.results.plan.gpus_per_node);
    // Nothing fits: no reference layout to size, no Pareto point; the clusters are still compared.
    const size_t compare = c.request.serve ? 1 : c.request.clusters.size();
    x.units = (c.results.plan.ranked.empty() ? 0 : x.fabrics.size() + x.counts.size()) + compare;
    x.complete = x.units == 0;
}

// Units: the fabrics first (the chosen one before the others), then the Pareto cluster sizes, then
// the candidate clusters (one each for training; one for all when serving).
enum class UnitKind { Fabric, Pareto, Cluster, Serve };
struct Unit {
    UnitKind kind;
    size_t index;  // into x.fabrics, x.counts or the request's clusters
};

Unit unit_of(const Cache& c, size_t i) {
    const PlannerExtras& x = c.extras;
    const size_t nf = x.fabrics.size();
    const bool extras = !c.results.plan.ranked.empty();
    if (extras && i < nf) {
        size_t f = i;
        if (x.chosen_fabric >= 0) f = i == 0 ? static_cast<size_t>(x.chosen_fabric) : (i <= static_cast<size_t>(x.chosen_fabric) ? i - 1 : i);
        return {UnitKind::Fabric, f};
    }
    if (extras && i < nf + x.counts.size()) return {UnitKind::Pareto, i - nf};
    const size_t k = i - (extras ? nf + x.counts.size() : 0);
    return {c.request.serve ? UnitKind::Serve : UnitKind::Cluster, k};
}

// The search a unit runs (false: serving, which runs none).
bool unit_request(const Cache& c, const Unit& u, Config& cfg, PlanInputs& in) {
    const io::PlanRequest& req = c.request;
    switch (u.kind) {
        case UnitKind::Fabric:
            cfg = req.cfg;
            in = fabric_plan_inputs(req.in, c.extras.fabrics[u.index].fabric_id);
            return true;
        case UnitKind::Pareto:
            cfg = req.cfg;
            in = pareto_plan_inputs(req.in, c.extras.counts[u.index], kPlannerParetoPerCount);
            return true;
        case UnitKind::Cluster:
            cluster_plan_request(req.cfg, req.in, req.clusters[u.index], cfg, in);
            return true;
        case UnitKind::Serve: break;
    }
    return false;
}

// What a unit's search (or, serving, the unit itself) gives.
void unit_finish(Cache& c, const Unit& u, const Outcome<PlanResult>& p) {
    PlannerExtras& x = c.extras;
    const io::PlanRequest& req = c.request;
    switch (u.kind) {
        case UnitKind::Fabric: {
            auto fp = fabric_point_from(c.unit_cfg, c.unit_in, c.results.plan.ranked.front().layout, kPlannerSizingEfficiency, p);
            if (fp.ok) x.fabrics[u.index] = std::move(fp.value);
            else x.fabrics[u.index].why = fp.error.field + ": " + fp.error.message;
            x.fabric_done[u.index] = true;
            break;
        }
        case UnitKind::Pareto: {
            const int n = x.counts[u.index];
            const std::string size = std::to_string(n) + " " + noun_for(n, "GPUs");
            if (!p.ok) x.notes.push_back(size + ": " + p.error.field + ": " + p.error.message);
            else if (p.value.ranked.empty()) x.notes.push_back(size + ": no layout fits");
            else {
                auto pts = pareto_points_from(p.value);
                x.pareto.insert(x.pareto.end(), pts.begin(), pts.end());
            }
            break;
        }
        case UnitKind::Cluster:
            x.clusters.push_back(cluster_result_from(c.unit_cfg, c.unit_in, req.clusters[u.index], p, static_cast<long>(u.index)));
            break;
        case UnitKind::Serve: {
            auto sv = serve_clusters(req.cfg, req.in, req.serve_goal, req.clusters);
            if (sv.ok) x.serve = std::move(sv.value);
            else x.compare_error = sv.error.field + ": " + sv.error.message;
            break;
        }
    }
}

// Works on the next unit for up to kSearchChunk layouts; true when the unit finished.
bool unit_work(Cache& c) {
    PlannerExtras& x = c.extras;
    const Unit u = unit_of(c, x.next);
    if (!c.unit_search.started()) {
        if (!unit_request(c, u, c.unit_cfg, c.unit_in)) {
            unit_finish(c, u, Outcome<PlanResult>::failure("plan", "no search"));
            return true;
        }
        // The plan's memory per layout: the fabrics' searches (and the plan's own size and cluster) take it.
        const Error e = c.unit_search.start(c.unit_cfg, c.unit_in, c.results.plan.memory);
        if (!e.field.empty()) {
            unit_finish(c, u, Outcome<PlanResult>::failure(e));
            return true;
        }
    }
    if (!c.unit_search.step(kSearchChunk)) return false;
    unit_finish(c, u, c.unit_search.result());
    return true;
}

}  // namespace

const PlannerExtras& planner_extras() { return cache().extras; }

bool planner_extras_step(App& a, double budget_ms) {
    Cache& c = cache();
    const PlannerResults& r = planner_results(a, true);
    if (!r.valid || !c.have_request) return false;
    PlannerExtras& x = c.extras;
    if (x.generation != r.generation) reset_extras(c);
    const auto started = Clock::now();
    while (x.next < x.units) {
        const auto t0 = Clock::now();
        const bool finished = unit_work(c);
        const double ms = ms_since(t0);
        x.compute_ms += ms;
        c.unit_ms += ms;
        if (finished) {
            x.longest_unit_ms = std::max(x.longest_unit_ms, c.unit_ms);
            c.unit_ms = 0;
            ++x.next;
        }
        if (ms_since(started) >= budget_ms) break;
    }
    if (x.next >= x.units && !x.complete) {
        mark_pareto_front(x.pareto);
        rank_clusters(x.clusters, c.request.in.rank);
        x.complete = true;
    }
    return !x.complete;
}

void use_layout(App& a, const LayoutResult& r) {
    const int gpus = a.ui.planner.gpus;
    Config c = layout_config(planner_config(a.inputs), r.layout, gpus);
    a.inputs = c;
    a.ui.planner.open = false;
    mark_changed(a);
    char buf[160];
    std::snprintf(buf, sizeof buf, "Loaded %s into the detailed training inputs", layout_label(r.layout).c_str());
    a.notice = buf;
}

// [SECTION] exports -------------------------------------------------------------------------------
namespace {

std::string num(double v, const char* fmt = "%.6g") {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, std::isfinite(v) ? v : 0.0);
    return buf;
}

}  // namespace

std::string planner_export_json(App& a) {
    json out{{"request", planner_request_json(a.inputs, a.ui.planner)}};
    const PlannerResults& r = planner_results(a, true);
    out["plan"] = r.valid ? io::plan_result_to_json(r.plan) : json(nullptr);
    return io::dump(out, 2) + "\n";
}

std::string planner_export_csv(App& a) {
    const PlannerResults& r = planner_results(a, true);
    std::string out = "rank,layout,tp,sp,pp,virtual_stages,dp,cp,ep,sharding,micro_batch,grad_accum,recompute,memory_bytes,memory_share,"
                      "step_s,compute_s,comm_exposed_s,bubble_s,optimizer_s,tokens_per_s_per_gpu,mfu,train_days,rent_usd\n";
    if (!r.valid) return out;
    int i = 0;
    for (const auto& x : r.plan.ranked) {
        const Layout& l = x.layout;
        const StepTime& t = x.time;
        out += std::to_string(++i) + "," + csv_field(layout_label(l)) + "," + std::to_string(l.tp) + "," + (l.sp ? "yes" : "no") + "," +
               std::to_string(l.pp) + "," + std::to_string(l.v) + "," + std::to_string(l.dp) + "," + std::to_string(l.cp) + "," +
               std::to_string(l.ep) + "," + csv_field(layout_label_sharding(l.sharding)) + "," + std::to_string(l.micro) + "," +
               std::to_string(l.accum) + "," + csv_field(recompute_name(l.recompute)) + "," + num(x.memory_bytes, "%.0f") + "," +
               num(x.memory_share) + "," + num(t.total) + "," + num(t.compute) + "," + num(t.comm_exposed()) + "," + num(t.bubble) + "," +
               num(t.optimizer) + "," + num(t.tokens_per_s_per_gpu) + "," + num(t.mfu) + "," + num(x.train_days) + "," + num(x.rent_usd, "%.2f") + "\n";
    }
    return out;
}

std::string planner_export_markdown(App& a, const std::string& link) {
    const PlannerResults& r = planner_results(a, true);
    const bool gib = a.ui.show_gib;
    std::string out = "# vramcalc cluster plan: " + md_cell(a.inputs.model.name.empty() ? "custom model" : a.inputs.model.name) + "\n\n";
    if (!r.valid) return out + "No plan: " + md_cell(r.error.field + ": " + r.error.message) + "\n" + (link.empty() ? "" : "\n[Open this plan](" + link + ")\n");
    const PlanResult& p = r.plan;
    out += md_cell(std::to_string(p.gpus) + " x " + p.gpu_id + " (" + std::to_string(p.gpus_per_node) + " per node on " + p.intra_id + "), " +
                   p.fabric_id + " between nodes; global batch " + format_count(p.global_batch) + " x " + format_count(p.seq) +
                   " tokens; target " + format_size(p.target_bytes, gib) + " per GPU; " + format_count(static_cast<double>(p.evaluated)) +
                   " " + noun_for(static_cast<double>(p.evaluated), "layouts") + " evaluated, " + format_count(static_cast<double>(p.fitting)) + " fit") + "\n\n";
    out += std::string("| # | Layout | ") + unit_label(gib) + "/GPU | Step (s) | tok/s/GPU | MFU | Days | Cost (USD) |\n";
    out += "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    int i = 0;
    for (const auto& x : p.ranked)
        out += "| " + std::to_string(++i) + " | " + md_cell(layout_label(x.layout)) + " | " + format_size_value(x.memory_bytes, gib) + " | " +
               num(x.time.total, "%.3f") + " | " + num(x.time.tokens_per_s_per_gpu, "%.0f") + " | " + md_cell(format_percent(x.time.mfu)) + " | " +
               (x.train_days > 0 ? num(x.train_days, "%.2f") : "-") + " | " + (x.rent_usd > 0 ? num(x.rent_usd, "%.0f") : "-") + " |\n";
    if (!p.rejected.empty()) {
        out += "\n## Rejected\n\n";
        for (const auto& c : p.rejected) out += "- " + md_cell(std::to_string(c.count) + " " + c.reason + "; closest: " + sizes_in_unit(c.example, gib)) + "\n";
    }
    for (const auto& n : p.notes) out += "\n" + md_cell(n) + "\n";
    if (!link.empty()) out += "\n[Open this plan](" + link + ")\n";
    return out;
}

namespace {
double c_deadline(const App& a) { return a.ui.planner.serve ? 0 : a.ui.planner.deadline_days; }
}  // namespace

json planner_state_json(App& a) {
    const PlannerView& p = a.ui.planner;
    json j{{"open", p.open}, {"gpus", p.gpus}, {"fabric", p.fabric}, {"global_batch", p.global_batch}, {"train_tokens", p.train_tokens},
           {"rank", plan_rank_name(p.rank)}, {"clusters", p.clusters}, {"goal", p.serve ? "serve" : "train"}, {"deadline_days", p.deadline_days},
           {"serve", {{"concurrency", p.serve_goal.concurrency}, {"context", p.serve_goal.context}}}};
    for (const auto& [key, v] : overrides(p)) j[std::string(key).substr(5)] = *v ? json(**v) : json(nullptr);  // null: the catalog's
    j["request"] = planner_request_json(a.inputs, p);
    if (!p.open) return j;  // computed only when shown
    const PlannerResults& r = planner_results(a);
    j["plan"] = r.valid ? io::plan_result_to_json(r.plan) : json(nullptr);
    j["error"] = r.error.field.empty() ? json(nullptr) : json{{"field", r.error.field}, {"message", r.error.message}};
    // What the no-fit error's buttons apply (plan/suggest/gpus, plan/suggest/gpu).
    j["suggestion"] = r.suggest_gpus > 0 || !r.suggest_gpu.empty()
                          ? json{{"gpus", r.suggest_gpus > 0 ? json(r.suggest_gpus) : json(nullptr)},
                                 {"gpu", r.suggest_gpu.empty() ? json(nullptr) : json(r.suggest_gpu)}}
                          : json(nullptr);
    j["compute_ms"] = r.compute_ms;
    j["longest_step_ms"] = planner_longest_step_ms();
    j["checklist"] = r.valid && !r.checklist.steps.empty() ? io::checklist_to_json(r.checklist) : json(nullptr);
    const PlannerExtras& x = planner_extras();
    if (r.valid && x.generation == r.generation) {
        json fabrics = json::array(), pareto = json::array();
        for (size_t i = 0; i < x.fabrics.size(); ++i)
            if (x.fabric_done[i]) fabrics.push_back(io::fabric_point_to_json(x.fabrics[i]));
        for (const auto& p : x.pareto) pareto.push_back(io::pareto_point_to_json(p));
        json clusters = json::array();
        for (const auto& k : x.clusters) clusters.push_back(io::cluster_to_json(k, c_deadline(a)));
        for (const auto& k : x.serve) clusters.push_back(io::serve_cluster_to_json(k));
        j["extras"] = json{{"complete", x.complete}, {"fabrics", fabrics}, {"pareto", pareto}, {"counts", x.counts}, {"notes", x.notes},
                           {"clusters", clusters}, {"compare_error", x.compare_error},
                           {"compute_ms", x.compute_ms}, {"longest_unit_ms", x.longest_unit_ms}};
    } else {
        j["extras"] = nullptr;
    }
    return j;
}

}  // namespace vc::shell
