// vramcalc core: the planner's search (docs/planner.md, "Search"). Every layout of the GPU count
// is enumerated, its step time predicted (step_time.cpp) and its memory per GPU taken from the
// detailed training engine (core/train) unchanged; those above the utilization target are
// rejected, by class, with the closest miss.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

#include "core/plan/plan_internal.hpp"
#include "core/stable_sort.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"

namespace vc {

namespace {

// plan.gpus's limit (the request table's): the deadline search stops below it.
int max_plan_gpus() {
    static const int n = static_cast<int>(find_request_field("plan.gpus")->max);
    return n;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::isfinite(v) ? v : 0.0);
    return buf;
}
std::string gb(double bytes) { return fixed(bytes / 1e9, 1) + " GB"; }


struct Rejects {
    std::map<std::string, RejectClass> by;
    std::map<std::string, double> best_over;  // smallest overshoot seen per class
    int min_batch_dp = 0;                     // smallest DP of a split the global batch ruled out (0: none)
    void add(const std::string& reason, const std::string& example, double over = 0) {
        add_with(reason, over, [&] { return example; });
    }
    // As add, with the example written only when it is the class's closest so far (a search rejects
    // thousands of layouts out of memory; writing each one's label and sizes cost more than its step time).
    template <typename Example>
    void add_with(const std::string& reason, double over, Example example) {
        auto& c = by[reason];
        c.reason = reason;
        ++c.count;
        auto it = best_over.find(reason);
        if (it == best_over.end() || over < it->second) {
            best_over[reason] = over;
            c.example = example();
        }
    }
    std::vector<RejectClass> list() const {
        std::vector<RejectClass> v;
        for (const auto& kv : by) v.push_back(kv.second);
        stable_sort_by(v, [](const RejectClass& a, const RejectClass& b) { return a.count > b.count; });
        return v;
    }
};

// The ranges are the request table's (core/fields.cpp, plan.*).
bool check_constants(const PlanConstants& k, Error& err) {
    return check_members({{"plan.constants.gemm_efficiency_max", k.gemm_efficiency_max},
                          {"plan.constants.gemm_half_dim", k.gemm_half_dim},
                          {"plan.constants.attention_efficiency", k.attention_efficiency},
                          {"plan.constants.hbm_efficiency", k.hbm_efficiency},
                          {"plan.constants.elementwise_passes", k.elementwise_passes},
                          {"plan.constants.tp_overlap", k.tp_overlap},
                          {"plan.constants.grad_comm_bytes", k.grad_comm_bytes},
                          {"plan.constants.optimizer_bytes_per_param", k.optimizer_bytes_per_param},
                          {"plan.constants.step_overhead_s", k.step_overhead_s}},
                         err);
}

std::string fabric_ids(bool intra) {
    std::string s;
    for (const auto& f : fabric_catalog())
        if (f.intra_node == intra) s += (s.empty() ? "" : ", ") + f.id;
    return s;
}

}  // namespace

std::vector<std::string> inter_node_fabrics() {
    std::vector<std::string> ids;
    for (const auto& f : fabric_catalog())
        if (!f.intra_node) ids.push_back(f.id);
    return ids;
}

bool custom_fabric(const PlanInputs& in, const std::string& id) { return in.fabric_override.line_gbps > 0 && id == in.fabric_override.id; }

std::vector<std::string> fabric_list(const PlanInputs& in, const std::vector<std::string>& ids) {
    if (!ids.empty()) return ids;
    std::vector<std::string> out = inter_node_fabrics();
    if (in.fabric_override.line_gbps > 0) out.insert(out.begin(), in.fabric_override.id);
    return out;
}

bool check_fabric_list(const std::string& field, const std::vector<std::string>& ids, const PlanInputs& in, Error& err) {
    for (const auto& id : ids) {
        const FabricSpec* f = find_fabric(id);
        if ((f && !f->intra_node) || custom_fabric(in, id)) continue;
        const std::string own = in.fabric_override.line_gbps > 0 ? in.fabric_override.id + " (plan.fabric_spec), " : "";
        err = Error{field, field + " must be one of " + own + fabric_ids(false) + ", got \"" + id + "\""};
        return false;
    }
    return true;
}

const char* layout_label_sharding(Sharding s) { return sharding_name(s); }  // the training engine's names

std::string layout_label(const Layout& l) {
    std::string s = "TP" + std::to_string(l.tp) + (l.sp ? " SP" : "") + " PP" + std::to_string(l.pp);
    if (l.v > 1) s += " v" + std::to_string(l.v);
    s += " DP" + std::to_string(l.dp);
    if (l.cp > 1) s += " CP" + std::to_string(l.cp);
    if (l.ep > 1) s += " EP" + std::to_string(l.ep);
    s += std::string(" ") + layout_label_sharding(l.sharding) + " mb" + std::to_string(l.micro) + " x" + std::to_string(l.accum) + " " +
         recompute_name(l.recompute);
    return s;
}

Outcome<PlanHardware> plan_hardware(const Config& cfg, const PlanInputs& in) {
    PlanHardware hw;
    const GpuSpec* g = find_gpu(cfg.gpu_id);
    if (!g) return Outcome<PlanHardware>::failure("gpu", "must name a GPU of the catalog (e.g. h100-80gb), got \"" + cfg.gpu_id + "\"" + gpu_suggestion(cfg.gpu_id));
    hw.gpu = *g;
    const NodeSpec* node = find_node(g->id);
    hw.gpus_per_node = in.gpus_per_node > 0 ? in.gpus_per_node : (node ? node->gpus_per_node : 8);
    Error err;
    if (!check_value("plan.gpus_per_node", hw.gpus_per_node, err)) return Outcome<PlanHardware>::failure(err);
    if (in.intra_override.line_gbps > 0) {
        if (!check_fabric("plan.intra_spec", in.intra_override, err)) return Outcome<PlanHardware>::failure(err);
        hw.intra = in.intra_override;
    } else {
        const FabricSpec* f = find_fabric(node ? node->intra_fabric : "pcie4");
        hw.intra = f ? *f : FabricSpec{};
    }
    if (in.fabric_override.line_gbps > 0) {
        if (!check_fabric("plan.fabric_spec", in.fabric_override, err)) return Outcome<PlanHardware>::failure(err);
        hw.inter = in.fabric_override;
    } else {
        const FabricSpec* f = find_fabric(in.fabric);
        if (!f || f->intra_node)
            return Outcome<PlanHardware>::failure("plan.fabric", "must be one of " + fabric_ids(false) + ", got \"" + in.fabric + "\"");
        hw.inter = *f;
    }
    hw.gemm_share = node ? node->gemm_share : NodeSpec{}.gemm_share;
    hw.attention_share = node ? node->attention_share : NodeSpec{}.attention_share;
    hw.price_per_hour_usd = in.price_per_hour_usd >= 0 ? in.price_per_hour_usd : g->price_per_hour_usd;
    hw.purchase_usd = in.purchase_usd >= 0 ? in.purchase_usd : (node ? node->purchase_usd : 0);
    if (!check_members({{"plan.price_per_hour_usd", hw.price_per_hour_usd}, {"plan.purchase_usd", hw.purchase_usd}}, err))
        return Outcome<PlanHardware>::failure(err);
    return Outcome<PlanHardware>::success(hw);
}

namespace {

// The members of `c` a layout sets (layout_config's, on a config already copied).
void apply_layout(Config& c, const Layout& l, int gpus) {
    c.method = Method::Detailed;
    if (c.task == Task::Inference) c.task = Task::Training;
    c.gpus = gpus;
    c.run.batch = l.micro;
    c.training.sharding = l.sharding;
    c.training.shard_group = 0;
    c.training.recompute = l.recompute;
    c.training.grad_accum = l.accum;
    c.training.global_batch = 0;
    c.parallel.tp = l.tp;
    c.parallel.sp = l.sp ? Toggle::On : Toggle::Off;
    c.parallel.pp = l.pp;
    c.parallel.schedule = l.v > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    c.parallel.virtual_stages = l.v;
    c.parallel.dp = l.dp;
    c.parallel.cp = l.cp;
    c.parallel.ep = l.ep;
    c.parallel.etp = 0;
}

}  // namespace

Config layout_config(const Config& base, const Layout& l, int gpus) {
    Config c = base;
    apply_layout(c, l, gpus);
    return c;
}

namespace {

struct Search {
    Config cfg;
    PlanInputs in;
    PlanHardware hw;
    PlanModel pm;
    double global = 0, target = 0;
    // The training engine's range checks passed for every listed layout (ranges_for_layouts): each
    // layout's memory skips them (TrainingChecks::RangesChecked). Otherwise each layout checks its own.
    bool ranges_checked = false;
    // The config each layout's memory is computed on: cfg with the layout's members set in place
    // (a copy of the whole Config per layout cost more than the range checks).
    mutable Config scratch;
};

// Validates the plan inputs that do not depend on a layout.
Outcome<Search*> prepare(Search& s) {
    Error err;
    const PlanInputs& in = s.in;
    if (!check_members({{"plan.gpus", in.gpus},
                        {"plan.global_batch", in.global_batch},
                        {"plan.train_tokens", in.train_tokens},
                        {"plan.max_micro_batch", in.max_micro_batch},
                        {"plan.max_cp", in.max_cp},
                        {"plan.top", in.top},
                        {"plan.network_share", in.network_share},
                        {"target_utilization", s.cfg.target_utilization},
                        {"seq", s.cfg.run.seq}},
                       err) ||
        !check_constants(in.k, err))
        return Outcome<Search*>::failure(err);
    auto hw = plan_hardware(s.cfg, in);
    if (!hw.ok) return Outcome<Search*>::failure(hw.error);
    s.hw = hw.value;
    const int g = s.hw.gpus_per_node;
    if (in.gpus > g && in.gpus % g != 0) {
        const int lo = in.gpus / g * g, hi = lo + g;
        return Outcome<Search*>::failure("plan.gpus", "must be whole nodes of " + std::to_string(g) + " GPUs when more than one node: " +
                                                         std::to_string(in.gpus) + " is not; " + std::to_string(lo) + " or " + std::to_string(hi) + " would work");
    }
    auto rm = resolve_model(s.cfg.model);
    if (!rm.ok) return Outcome<Search*>::failure(rm.error);
    s.pm = plan_model(s.cfg, s.hw.gpu);
    s.global = in.global_batch > 0 ? std::round(in.global_batch) : std::max(1.0, std::round(kDefaultBatchTokens / s.cfg.run.seq));
    if (in.global_batch > 0 && std::floor(in.global_batch) != in.global_batch)
        return Outcome<Search*>::failure("plan.global_batch", "must be a whole number of sequences, got " + fixed(in.global_batch, 2));
    s.target = s.hw.gpu.memory_bytes * s.cfg.target_utilization;
    s.scratch = s.cfg;
    return Outcome<Search*>::success(&s);
}

// Calls fn(layout) for every layout of the search space; invalid splits go to `rej` (null: not recorded).
template <typename Fn>
void enumerate(const Search& s, Rejects* rej, Fn fn) {
    const PlanModel& pm = s.pm;
    const ModelSpec& m = pm.m;
    const int N = s.in.gpus;
    const int kvh = m.kv_heads > 0 ? m.kv_heads : m.heads;
    const bool moe = m.experts > 0;
    // Auto recomputation as the job of N GPUs resolves it (LitGPT checkpoints only on more than one).
    Config job = s.cfg;
    job.gpus = N;
    if (job.task == Task::Inference) job.task = Task::Training;
    std::vector<Recompute> recs = {resolved_recompute(job)};
    if (s.in.search_recompute) recs = {Recompute::None, Recompute::Selective, Recompute::Full};
    for (int tp = 1; tp <= std::min(N, m.heads); ++tp) {
        if (N % tp) continue;
        if (m.heads % tp || kvh % tp) {
            if (rej && (tp & (tp - 1)) == 0) rej->add("TP does not divide the heads", "TP" + std::to_string(tp) + ": model.heads " + std::to_string(m.heads) + ", kv_heads " + std::to_string(kvh));
            continue;
        }
        if (tp > s.hw.gpus_per_node && !s.in.tp_across_nodes) {
            if (rej) rej->add("TP beyond one node (plan.tp_across_nodes)", "TP" + std::to_string(tp) + " > " + std::to_string(s.hw.gpus_per_node) + " " + noun_for(s.hw.gpus_per_node, "GPUs") + " per node");
            continue;
        }
        for (int pp = 1; pp <= std::min(N / tp, m.layers); ++pp) {
            if ((N / tp) % pp) continue;
            if (m.layers % pp && !s.in.uneven_pp) {
                if (rej) rej->add("PP does not divide the layers (plan.uneven_pp off)", "PP" + std::to_string(pp) + ": " + std::to_string(m.layers) + " layers");
                continue;
            }
            std::vector<int> vs = {1};
            if (pp > 1 && s.in.search_interleave)
                for (int v = 2; v <= 8; ++v)
                    if (m.layers % (pp * v) == 0 || (s.in.uneven_pp && interleave_split_ok(m.layers, pp, v))) vs.push_back(v);
            for (int cp = 1; cp <= std::min(s.in.max_cp, N / (tp * pp)); cp *= 2) {
                if ((N / (tp * pp)) % cp) continue;
                if (static_cast<long long>(s.cfg.run.seq) % cp) continue;
                const int dp = N / (tp * pp * cp);
                if (static_cast<long long>(s.global) % dp) {
                    if (rej) {
                        rej->add("global batch not divisible by DP", "DP" + std::to_string(dp) + " with global batch " + fixed(s.global, 0));
                        if (rej->min_batch_dp == 0 || dp < rej->min_batch_dp) rej->min_batch_dp = dp;
                    }
                    continue;
                }
                const long long local = static_cast<long long>(s.global) / dp;
                std::vector<int> eps = {1};
                if (moe)
                    for (int ep = 2; ep <= std::min(m.experts, dp * cp); ep *= 2)
                        if (m.experts % ep == 0 && (dp * cp) % ep == 0) eps.push_back(ep);
                std::vector<Sharding> shs = {s.cfg.training.sharding};
                if (s.in.search_sharding) shs = {Sharding::None, Sharding::Zero1, Sharding::Zero2, Sharding::Zero3};
                if (dp * cp == 1) shs = {Sharding::None};
                for (int ep : eps)
                    for (int v : vs)
                        for (Sharding sh : shs)
                            for (Recompute rc : recs)
                                for (int mb = 1; mb <= s.in.max_micro_batch && mb <= local; mb *= 2) {
                                    if (local % mb) continue;
                                    Layout l;
                                    l.tp = tp; l.pp = pp; l.dp = dp; l.cp = cp; l.ep = ep; l.v = v;
                                    l.sp = tp > 1;
                                    l.sharding = sh;
                                    l.recompute = rc;
                                    l.micro = mb;
                                    l.accum = static_cast<int>(local / mb);
                                    fn(l);
                                }
            }
        }
    }
}

// The training engine's memory per GPU for a layout; false with `err` when the engine refuses it.
bool layout_memory(const Search& s, const Layout& l, double& bytes, Error& err) {
    apply_layout(s.scratch, l, s.in.gpus);
    auto mem = training_result(s.scratch, s.ranges_checked ? TrainingChecks::RangesChecked : TrainingChecks::All);
    if (!mem.ok) {
        err = mem.error;
        return false;
    }
    bytes = mem.value.device_total;
    return true;
}

// A layout's step time, priced, with its memory per GPU (`memory_bytes`).
LayoutResult evaluate(const Search& s, const Layout& l, double memory_bytes) {
    LayoutResult r;
    r.layout = l;
    r.time = step_time_for(s.pm, s.hw, s.in.k, l);
    r.memory_bytes = memory_bytes;
    r.memory_share = s.hw.gpu.memory_bytes > 0 ? r.memory_bytes / s.hw.gpu.memory_bytes : 0;
    r.fits = r.memory_bytes <= s.target;
    if (s.in.train_tokens > 0 && r.time.tokens_per_s_per_gpu > 0) {
        const double seconds = s.in.train_tokens / (r.time.tokens_per_s_per_gpu * s.in.gpus);
        r.train_days = seconds / 86400;
        r.rent_usd = seconds / 3600 * s.in.gpus * s.hw.price_per_hour_usd;
    }
    return r;
}

// Whether the training engine's range checks pass for every layout of `layouts`: each member a
// layout sets (batch, training.grad_accum, parallel.tp/pp/virtual_stages/dp/cp/ep) checked at the
// smallest and the largest value any layout gives it, every other member as the config holds it.
// A range is an interval, so a member between two accepted values is accepted.
bool ranges_for_layouts(const Search& s, const std::vector<Layout>& layouts) {
    if (layouts.empty()) return false;
    Layout lo = layouts.front(), hi = lo;
    for (const Layout& l : layouts) {
        lo.tp = std::min(lo.tp, l.tp); hi.tp = std::max(hi.tp, l.tp);
        lo.pp = std::min(lo.pp, l.pp); hi.pp = std::max(hi.pp, l.pp);
        lo.dp = std::min(lo.dp, l.dp); hi.dp = std::max(hi.dp, l.dp);
        lo.cp = std::min(lo.cp, l.cp); hi.cp = std::max(hi.cp, l.cp);
        lo.ep = std::min(lo.ep, l.ep); hi.ep = std::max(hi.ep, l.ep);
        lo.v = std::min(lo.v, l.v); hi.v = std::max(hi.v, l.v);
        lo.micro = std::min(lo.micro, l.micro); hi.micro = std::max(hi.micro, l.micro);
        lo.accum = std::min(lo.accum, l.accum); hi.accum = std::max(hi.accum, l.accum);
    }
    Error err;
    return check_training_ranges(layout_config(s.cfg, lo, s.in.gpus), err) && check_training_ranges(layout_config(s.cfg, hi, s.in.gpus), err);
}

}  // namespace

// [SECTION] memory reuse --------------------------------------------------------------------------
struct PlanMemory {
    std::string gpu_id;
    int gpus = 0;
    std::vector<Layout> layouts;             // as the search listed them
    std::vector<double> bytes;               // per layout; NaN where the engine refused it (errors)
    std::vector<std::pair<size_t, Error>> errors;  // by layout index, ascending
};

namespace {

bool same_layout(const Layout& a, const Layout& b) {
    return a.tp == b.tp && a.pp == b.pp && a.dp == b.dp && a.cp == b.cp && a.ep == b.ep && a.v == b.v && a.sp == b.sp &&
           a.sharding == b.sharding && a.micro == b.micro && a.accum == b.accum && a.recompute == b.recompute;
}

// Whether `m` holds the memory of the layouts `s` lists: same GPU type and count, the same list,
// and the first layout's memory as the engine gives it now (the config is the same).
bool memory_applies(const PlanMemory& m, const Search& s, const std::vector<Layout>& layouts) {
    if (m.gpu_id != s.cfg.gpu_id || m.gpus != s.in.gpus || m.layouts.size() != layouts.size() || m.bytes.size() != layouts.size()) return false;
    for (size_t i = 0; i < layouts.size(); ++i)
        if (!same_layout(m.layouts[i], layouts[i])) return false;
    if (layouts.empty()) return true;
    double first = std::nan("");
    Error e;
    const bool ok = layout_memory(s, layouts[0], first, e);
    return ok ? m.bytes[0] == first : std::isnan(m.bytes[0]);
}

}  // namespace

// [SECTION] sliced search --------------------------------------------------------------------------
struct PlanSearch::State {
    Search s;
    PlanResult out;
    Rejects rej;
    std::vector<Layout> layouts;         // every layout enumerated (invalid splits already in rej)
    size_t next = 0;                     // next layout to evaluate
    std::vector<LayoutResult> fit;
    long long comm_bound = 0;
    PlanMemoryPtr reuse;                 // an earlier search's memory for these layouts (null: the engine's)
    std::shared_ptr<PlanMemory> record;  // this search's, when not reusing
    bool first_fit = false;              // a probe: stop at the first layout that fits
    // PlanInputs::ranked_only: every layout's step time first (next runs over them), then memory in
    // ranking order (by_time, sorted once) until `top` fit.
    std::vector<std::pair<double, size_t>> by_time;  // (ranking key, layout index)
    bool sorted = false;
    size_t next_ranked = 0;              // into by_time
    // After the layouts, when nothing fits for memory: the searches for what would (PlanResult::suggest_*).
    // Count: doubling the GPUs; Bisect: between the last count that failed (lo) and the first that
    // fit (hi); Best: the fastest layout on hi; Gpu: the catalog GPUs with more memory, on the plan's count.
    enum class Phase { Layouts, Count, Bisect, Best, Gpu, Done } phase = Phase::Layouts;
    PlanSearch probe;                    // the search in progress
    int probe_gpus = 0;                  // its GPU count
    int lo = 0, hi = 0;                  // GPU counts: lo has no fitting layout, hi has one
    std::vector<std::string> gpu_ids;    // Gpu phase: candidates, least memory first
    size_t next_gpu = 0;
    long long probe_total = 0, probe_evaluated = 0;  // layouts of the finished probes
};

PlanSearch::PlanSearch() = default;
PlanSearch::~PlanSearch() = default;
PlanSearch::PlanSearch(PlanSearch&&) noexcept = default;
PlanSearch& PlanSearch::operator=(PlanSearch&&) noexcept = default;

Error PlanSearch::start(const Config& cfg, const PlanInputs& in, const PlanMemoryPtr& reuse) {
    st_.reset(new State{});
    Search& s = st_->s;
    s.cfg = cfg;
    s.in = in;
    auto ready = prepare(s);
    if (!ready.ok) {
        st_.reset();
        return ready.error;
    }
    PlanResult& out = st_->out;
    out.gpu_id = s.hw.gpu.id;
    out.fabric_id = s.hw.inter.id;
    out.intra_id = s.hw.intra.id;
    out.gpus = s.in.gpus;
    out.gpus_per_node = s.hw.gpus_per_node;
    out.global_batch = s.global;
    out.seq = s.cfg.run.seq;
    out.target_bytes = s.target;
    // Listing the layouts is cheap (no engine call); evaluating them is the search's time. Counted
    // first, so the list is allocated once (growing it cost more than the loops themselves).
    // (One lambda type for both passes: enumerate is instantiated once, which keeps the page smaller.)
    size_t count = 0;
    bool counting = true;
    auto list = [&](const Layout& l) {
        if (counting) ++count;
        else st_->layouts.push_back(l);
    };
    enumerate(s, nullptr, list);
    st_->layouts.reserve(count);
    counting = false;
    enumerate(s, &st_->rej, list);
    // A global batch no split makes (every DP here fails to divide it): bad input, with the batches
    // that would make layouts (multiples of the smallest DP).
    if (st_->layouts.empty() && st_->rej.min_batch_dp > 0) {
        const long long d = st_->rej.min_batch_dp, b = static_cast<long long>(s.global);
        const long long lo = b / d * d, hi = lo + d;
        const std::string would = lo > 0 ? std::to_string(lo) + " or " + std::to_string(hi) : std::to_string(hi);
        Error e{"plan.global_batch", "no layout of " + std::to_string(s.in.gpus) + " GPUs makes a global batch of " + std::to_string(b) +
                                         " " + noun_for(static_cast<double>(b), "sequences") + ": DP (GPUs / (TP x PP x CP)) must divide it, and every split of this model has DP " +
                                         std::to_string(d) + " or more; " + would + " (multiples of " + std::to_string(d) + ") would work"};
        st_.reset();
        return e;
    }
    s.ranges_checked = ranges_for_layouts(s, st_->layouts);
    if (reuse && memory_applies(*reuse, s, st_->layouts)) {
        st_->reuse = reuse;
    } else if (!in.ranked_only) {  // (a ranked-only search evaluates some layouts, out of order: nothing to keep)
        auto m = std::make_shared<PlanMemory>();
        m->gpu_id = s.cfg.gpu_id;
        m->gpus = s.in.gpus;
        m->layouts = st_->layouts;
        m->bytes.reserve(count);
        st_->record = std::move(m);
    }
    return Error{};
}

bool PlanSearch::started() const { return st_ != nullptr; }
bool PlanSearch::reusing() const { return st_ && st_->reuse; }
long long PlanSearch::total() const {
    if (!st_) return 0;
    return static_cast<long long>(st_->layouts.size()) + st_->probe_total + st_->probe.total();
}
long long PlanSearch::evaluated() const {
    if (!st_) return 0;
    return static_cast<long long>(st_->next) + st_->probe_evaluated + st_->probe.evaluated();
}
namespace {

// A step time as the ranking compares it: rounded to 9 significant digits (ties in enumeration
// order), so native and WebAssembly builds list the same layouts.
double rank_key(double v) {
    if (!(v > 0)) return v;
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 8);
    return std::nearbyint(v / scale) * scale;
}

}  // namespace

bool PlanSearch::done() const {
    if (!st_) return true;
    const State& t = *st_;
    const bool layouts = t.s.in.ranked_only ? t.next >= t.layouts.size() && t.sorted &&
                                                  (t.next_ranked >= t.by_time.size() || t.fit.size() >= static_cast<size_t>(t.s.in.top))
                                            : t.next >= t.layouts.size();
    return layouts && t.phase == State::Phase::Done;
}

namespace {

// The next GPU count the suggestion tries after n: twice n, in whole nodes once past one node.
int doubled_count(int n, int per_node) {
    long long m = 2LL * n;
    if (m > per_node && m % per_node) m = (m / per_node + 1) * per_node;
    return static_cast<int>(std::min<long long>(m, 2LL * kFitSuggestMaxGpus));
}

// A GPU count strictly between lo (fails) and hi (fits) to try, 0 when none is left: the middle one
// in whole nodes (GPUs within one node).
int bisect_count(int lo, int hi, int per_node) {
    const int unit = hi > per_node ? per_node : 1;
    const int a = lo / unit, b = hi / unit;
    return b - a > 1 ? (a + (b - a) / 2) * unit : 0;
}

}  // namespace

bool PlanSearch::step(long long max_layouts) {
    if (!st_) return true;
    State& t = *st_;
    const Search& s = t.s;
    using Phase = State::Phase;
    long long used = 0;
    // One layout: its memory (the engine's, or the reused search's), then its step time and price.
    auto evaluate_layout = [&](size_t i) {
        const Layout& l = t.layouts[i];
        ++t.out.evaluated;
        double bytes = std::nan("");
        bool ok = false;
        Error e;
        if (t.reuse) {
            bytes = t.reuse->bytes[i];
            ok = !std::isnan(bytes);
            const auto& errs = t.reuse->errors;
            auto it = std::lower_bound(errs.begin(), errs.end(), i, [](const std::pair<size_t, Error>& a, size_t v) { return a.first < v; });
            if (!ok && it != errs.end() && it->first == i) e = it->second;
        } else {
            ok = layout_memory(s, l, bytes, e);
            if (!ok) bytes = std::nan("");
            if (t.record) {
                if (!ok) t.record->errors.emplace_back(i, e);
                t.record->bytes.push_back(bytes);
            }
        }
        if (!ok) {
            t.rej.add_with("invalid for the training engine: " + e.field, 0, [&] { return layout_label(l) + ": " + e.message; });
            return;
        }
        const LayoutResult r = evaluate(s, l, bytes);
        if (!r.fits) {
            t.rej.add_with("out of memory", r.memory_bytes - s.target, [&] {
                return layout_label(l) + ": " + gb(r.memory_bytes) + " > " + gb(s.target) + " target (+" + gb(r.memory_bytes - s.target) + ")";
            });
            return;
        }
        if (r.time.comm_exposed() > r.time.compute) ++t.comm_bound;
        t.fit.push_back(r);
    };
    if (!s.in.ranked_only) {
        for (; used < max_layouts && t.next < t.layouts.size(); ++used) {
            if (t.first_fit && !t.fit.empty()) break;  // a probe has its answer
            evaluate_layout(t.next++);
        }
        if (t.first_fit && !t.fit.empty()) t.next = t.layouts.size();
        if (t.next < t.layouts.size()) return false;
    } else {
        // The ranked layouts only: the `top` first in ranking order (step time, then enumeration
        // order) that fit are the ranked layouts a whole search gives; the rest need no memory.
        for (; used < max_layouts && t.next < t.layouts.size(); ++used) {
            const size_t i = t.next++;
            t.by_time.emplace_back(rank_key(step_time_for(s.pm, s.hw, s.in.k, t.layouts[i]).total), i);
        }
        if (t.next < t.layouts.size()) return false;
        if (!t.sorted) {
            std::sort(t.by_time.begin(), t.by_time.end());
            t.sorted = true;
        }
        const size_t want = static_cast<size_t>(s.in.top);
        for (; used < max_layouts && t.next_ranked < t.by_time.size() && t.fit.size() < want; ++used) evaluate_layout(t.by_time[t.next_ranked++].second);
        if (t.next_ranked < t.by_time.size() && t.fit.size() < want) return false;
    }

    // Nothing fits for memory: the searches for what would, each a probe in the same slices.
    if (t.phase == Phase::Layouts) {
        const bool oom = t.rej.by.count("out of memory") > 0;
        t.phase = t.fit.empty() && oom && s.in.suggest_fit ? Phase::Count : Phase::Done;
        t.lo = s.in.gpus;
        t.probe_gpus = 0;
    }
    const int per_node = s.hw.gpus_per_node;
    const int limit = std::min(kFitSuggestMaxGpus, max_plan_gpus());
    // Starts the next probe of the phase (moving on when the phase has none left); false when done.
    auto start_next = [&]() {
        for (;;) {
            Config cfg = s.cfg;
            PlanInputs pi = s.in;
            pi.suggest_fit = false;
            pi.top = 1;
            bool first_fit = true;
            int n = 0;
            if (t.phase == Phase::Count) {
                n = doubled_count(t.probe_gpus > 0 ? t.probe_gpus : s.in.gpus, per_node);
                if (n > limit) {
                    t.phase = Phase::Gpu;
                    continue;
                }
            } else if (t.phase == Phase::Bisect) {
                n = bisect_count(t.lo, t.hi, per_node);
                if (n == 0) {
                    t.phase = Phase::Best;
                    continue;
                }
            } else if (t.phase == Phase::Best) {
                n = t.hi;
                first_fit = false;
            } else if (t.phase == Phase::Gpu) {
                if (t.gpu_ids.empty() && t.next_gpu == 0) {
                    // (memory, catalog index), least memory first: the same sort as the ranking's (one instantiation in the page)
                    const auto& catalog = gpu_catalog();
                    std::vector<std::pair<double, size_t>> bigger;
                    for (size_t k = 0; k < catalog.size(); ++k)
                        if (!catalog[k].unified && catalog[k].memory_bytes > s.hw.gpu.memory_bytes) bigger.emplace_back(catalog[k].memory_bytes, k);
                    std::sort(bigger.begin(), bigger.end());
                    for (const auto& g : bigger) t.gpu_ids.push_back(catalog[g.second].id);
                }
                if (t.next_gpu >= t.gpu_ids.size()) {
                    t.phase = Phase::Done;
                    return false;
                }
                cfg.gpu_id = t.gpu_ids[t.next_gpu++];
                n = s.in.gpus;
                first_fit = false;
            } else {
                return false;
            }
            pi.gpus = n;
            t.probe_gpus = n;
            const Error e = t.probe.start(cfg, pi);
            if (!e.field.empty()) {  // no search on this count or GPU (e.g. its node size): as one with no fit
                if (t.phase == Phase::Count || t.phase == Phase::Bisect) t.lo = n;
                if (t.phase == Phase::Best) t.phase = Phase::Gpu;
                continue;
            }
            t.probe.st_->first_fit = first_fit;
            return true;
        }
    };
    // Takes a finished probe's answer and moves the phase on.
    auto finish_probe = [&]() {
        t.probe_total += t.probe.total();
        t.probe_evaluated += t.probe.evaluated();
        auto r = t.probe.result();
        const bool fits = r.ok && !r.value.ranked.empty();
        const int n = t.probe_gpus;
        switch (t.phase) {
            case Phase::Count:
            case Phase::Bisect:
                if (fits) {
                    t.hi = n;
                    t.phase = Phase::Bisect;
                } else {
                    t.lo = n;
                }
                break;
            case Phase::Best:
                if (fits) {
                    t.out.suggest_gpus = n;
                    t.out.suggest_gpus_best = r.value.ranked.front();
                }
                t.phase = Phase::Gpu;
                break;
            case Phase::Gpu:
                if (fits) {
                    t.out.suggest_gpu = r.value.gpu_id;
                    t.out.suggest_gpu_best = r.value.ranked.front();
                    t.phase = Phase::Done;
                }
                break;
            default: break;
        }
    };
    while (t.phase != Phase::Done && used < max_layouts) {
        if (!t.probe.started() && !start_next()) break;
        const long long before = t.probe.evaluated();
        const bool finished = t.probe.step(max_layouts - used);
        used += std::max(1LL, t.probe.evaluated() - before);
        if (finished) finish_probe();
    }
    return done();
}

Outcome<PlanResult> PlanSearch::result() {
    if (!st_) return Outcome<PlanResult>::failure("plan", "no search was started");
    if (!done()) return Outcome<PlanResult>::failure("plan", "the search is not finished");
    State& t = *st_;
    const Search& s = t.s;
    const PlanInputs& in = s.in;
    PlanResult out = std::move(t.out);
    out.memory = t.reuse ? t.reuse : PlanMemoryPtr(std::move(t.record));
    std::vector<LayoutResult> fit = std::move(t.fit);
    out.fitting = static_cast<long long>(fit.size());
    // One cluster: time, cost and tokens/s/GPU rank alike. Step times rounded to 9 significant
    // digits, ties in enumeration order, so native and WebAssembly builds list the same layouts.
    std::vector<std::pair<double, size_t>> order(fit.size());
    for (size_t i = 0; i < fit.size(); ++i) order[i] = {rank_key(fit[i].time.total), i};
    const size_t n = std::min(fit.size(), static_cast<size_t>(in.top));
    std::partial_sort(order.begin(), order.begin() + static_cast<long>(n), order.end());
    std::vector<LayoutResult> top;
    top.reserve(n);
    for (size_t i = 0; i < n; ++i) top.push_back(fit[order[i].second]);
    out.ranked = std::move(top);
    out.rejected = t.rej.list();
    if (t.comm_bound > 0)
        out.notes.push_back(std::to_string(t.comm_bound) + " fitting " + noun_for(static_cast<double>(t.comm_bound), "layouts") +
                            (t.comm_bound == 1 ? " spends more time in exposed communication than in compute (communication-bound); it ranks low."
                                               : " spend more time in exposed communication than in compute (communication-bound); they rank low."));
    if (out.ranked.empty()) {
        std::string why = "no layout of " + std::to_string(in.gpus) + " x " + s.hw.gpu.id + " fits under " +
                          fixed(s.cfg.target_utilization * 100, 0) + "% of memory";
        bool oom = false;
        for (const auto& c : out.rejected)
            if (c.reason == "out of memory") {
                why += "; closest: " + c.example;
                oom = true;
            }
        // What would fit, as the searches after the layouts found it (PlanInputs::suggest_fit).
        auto best = [](const LayoutResult& r) { return layout_label(r.layout) + ", " + gb(r.memory_bytes) + " per GPU"; };
        const bool searched = oom && in.suggest_fit;
        if (searched && out.suggest_gpus > 0)
            why += ". " + std::to_string(out.suggest_gpus) + " x " + s.hw.gpu.id + " would fit it (plan.gpus: " + std::to_string(out.suggest_gpus) +
                   ", the fewest found): " + best(out.suggest_gpus_best);
        else if (searched)
            why += ". No count of " + s.hw.gpu.id + " up to " + std::to_string(std::min(kFitSuggestMaxGpus, max_plan_gpus())) +
                   " GPUs fits it (plan.gpus)";
        else
            why += ". More GPUs (plan.gpus)";
        if (searched && !out.suggest_gpu.empty())
            why += "; " + std::to_string(in.gpus) + " x " + out.suggest_gpu + " would (gpu: " + out.suggest_gpu +
                   ", the catalog GPU with the least memory that fits): " + best(out.suggest_gpu_best);
        else if (searched)
            why += "; no catalog GPU fits it on " + std::to_string(in.gpus) + " " + noun_for(in.gpus, "GPUs") + " (gpu)";
        else
            why += ", a GPU with more memory (gpu)";
        out.notes.push_back(why + ". A smaller global batch (plan.global_batch) or sequence (seq) would help too.");
    }
    st_.reset();
    return Outcome<PlanResult>::success(std::move(out));
}

Outcome<PlanResult> plan(const Config& cfg, const PlanInputs& in, const PlanMemoryPtr& reuse) {
    PlanSearch search;
    const Error err = search.start(cfg, in, reuse);
    if (!err.field.empty()) return Outcome<PlanResult>::failure(err);
    while (!search.step(std::numeric_limits<long long>::max())) {
    }
    return search.result();
}

namespace {

// The largest per-GPU batch batch sizing tries (sequences; docs/planner.md, "Network-aware batch sizing").
constexpr int kMaxSizedBatch = 8192;

// The smallest per-GPU batch of `layout`'s split on fabric `id` (batch_sizing, one fabric).
Outcome<BatchSizing> size_on(const Config& cfg, const PlanInputs& in, const Layout& layout, const std::string& id, double target_efficiency) {
    using Out = Outcome<BatchSizing>;
    PlanInputs pi = in;
    pi.fabric = id;
    if (!custom_fabric(in, id)) pi.fabric_override = FabricSpec{};
    Search s;
    s.cfg = cfg;
    s.in = pi;
    auto ready = prepare(s);
    if (!ready.ok) return Out::failure(ready.error);
    Layout base = layout;
    const long long model_par = static_cast<long long>(base.tp) * base.pp * base.cp;
    if (model_par <= 0 || in.gpus % model_par)
        return Out::failure("plan.layout", "tp x pp x cp (" + std::to_string(model_par) + ") must divide plan.gpus (" + std::to_string(in.gpus) + ")");
    base.dp = static_cast<int>(in.gpus / model_par);
    BatchSizing b;
    b.fabric_id = id;
    b.layout = base;
    // Per-GPU batches 1, 2, 3, 4, 6, 8, 12, ... (powers of two and 1.5x them) up to 8192 sequences.
    for (int e = 0; e <= 13 && b.per_gpu_batch == 0; ++e) {
        for (int mult : {2, 3}) {
            const int per = (mult == 2) ? (1 << e) : (e >= 1 ? 3 << (e - 1) : 0);
            if (per <= 0 || (mult == 3 && e == 0) || per > kMaxSizedBatch) continue;  // 3 << 12 = 12,288 is past the limit
            double best_eff = 0;
            Layout best = base;
            StepTime best_t;
            for (int mb = 1; mb <= std::min(per, in.max_micro_batch); mb *= 2) {
                if (per % mb) continue;
                Layout l = base;
                l.micro = mb;
                l.accum = per / mb;
                StepTime t = step_time_for(s.pm, s.hw, s.in.k, l);
                // What the batch can hide: the data-parallel traffic, the bubble and the pipeline sends.
                const double eff = t.total > 0 ? 1.0 - (t.dp_comm + t.bubble + t.pp_comm) / t.total : 0;
                if (eff > best_eff) { best_eff = eff; best = l; best_t = t; }
            }
            if (best_eff >= target_efficiency) {
                b.layout = best;
                b.per_gpu_batch = per;
                b.global_batch = static_cast<double>(per) * base.dp;
                b.efficiency = best_eff;
                b.step_s = best_t.total;
                auto mem = training_result(layout_config(cfg, best, in.gpus));
                if (mem.ok) {
                    b.memory_bytes = mem.value.device_total;
                    b.activation_bytes = mem.value.activations;
                    b.fits = b.memory_bytes <= s.target;
                }
                break;
            }
        }
    }
    if (b.per_gpu_batch == 0)
        b.verdict = "no per-GPU batch up to " + std::to_string(kMaxSizedBatch) + " sequences reaches " + fixed(target_efficiency * 100, 0) + "% compute on " + id;
    else if (b.fits)
        b.verdict = fixed(b.per_gpu_batch, 0) + " " + noun_for(b.per_gpu_batch, "sequences") + " per GPU (micro-batch " + std::to_string(b.layout.micro) + " x " +
                    std::to_string(b.layout.accum) + (reads_as_one(b.per_gpu_batch) ? ") keeps " : ") keep ") + fixed(b.efficiency * 100, 0) + "% compute; " + gb(b.memory_bytes) +
                    " per GPU fits the " + gb(s.target) + " target";
    else
        b.verdict = fixed(b.per_gpu_batch, 0) + " " + noun_for(b.per_gpu_batch, "sequences") + " per GPU (micro-batch " + std::to_string(b.layout.micro) +
                    (reads_as_one(b.per_gpu_batch) ? ") is needed" : ") are needed") + " to hide communication, and " + gb(b.memory_bytes) + " per GPU is over the " + gb(s.target) + " target";
    return Out::success(std::move(b));
}

// What would make a batch sizing that does not fit fit: full recomputation at the same batch, the
// slowest faster fabric whose batch fits, or TP / PP doubled on this fabric (first found).
std::string sizing_fix(const Config& cfg, const PlanInputs& in, const BatchSizing& b, double target_efficiency) {
    if (b.fits || b.per_gpu_batch == 0) return "";
    const double target = find_gpu(cfg.gpu_id) ? find_gpu(cfg.gpu_id)->memory_bytes * cfg.target_utilization : 0;
    if (b.layout.recompute != Recompute::Full) {
        Layout l = b.layout;
        l.recompute = Recompute::Full;
        auto mem = training_result(layout_config(cfg, l, in.gpus));
        if (mem.ok && mem.value.device_total <= target)
            return "full recomputation: " + gb(mem.value.device_total) + " per GPU at the same batch";
    }
    const FabricSpec* here = custom_fabric(in, b.fabric_id) ? &in.fabric_override : find_fabric(b.fabric_id);
    std::vector<const FabricSpec*> faster;
    for (const auto& f : fabric_catalog())
        if (!f.intra_node && here && f.achieved_gbps() > here->achieved_gbps()) faster.push_back(&f);
    stable_sort_by(faster, [](const FabricSpec* a, const FabricSpec* c) { return a->achieved_gbps() < c->achieved_gbps(); });
    for (const FabricSpec* f : faster) {
        auto o = size_on(cfg, in, b.layout, f->id, target_efficiency);
        if (o.ok && o.value.fits)
            return "a faster fabric: on " + f->id + " " + fixed(o.value.per_gpu_batch, 0) + " " + noun_for(o.value.per_gpu_batch, "sequences") +
                   " per GPU (" + gb(o.value.memory_bytes) + ") fit" + (reads_as_one(o.value.per_gpu_batch) ? "s" : "");
    }
    const int heads = resolve_model(cfg.model).ok ? resolve_model(cfg.model).value.heads : 0;
    for (int which = 0; which < 2; ++which) {
        Layout l = b.layout;
        if (which == 0) {
            l.tp *= 2;
            l.sp = true;
            const NodeSpec* node = find_node(cfg.gpu_id);
            const int per_node = in.gpus_per_node > 0 ? in.gpus_per_node : (node ? node->gpus_per_node : 8);
            if (heads <= 0 || heads % l.tp || l.tp > per_node) continue;
        } else {
            l.pp *= 2;
            l.v = 1;
        }
        if (static_cast<long long>(l.tp) * l.pp * l.cp > in.gpus) continue;
        auto o = size_on(cfg, in, l, b.fabric_id, target_efficiency);
        if (o.ok && o.value.fits)
            return std::string(which == 0 ? "TP" : "PP") + " doubled: " + layout_label(o.value.layout) + ", " + gb(o.value.memory_bytes) + " per GPU";
    }
    return "none of full recomputation, a faster fabric, or TP / PP doubled fits: more GPUs or a GPU with more memory";
}

}  // namespace

Outcome<std::vector<BatchSizing>> batch_sizing(const Config& cfg, const PlanInputs& in, const Layout& layout,
                                               const std::vector<std::string>& fabrics, double target_efficiency) {
    using Out = Outcome<std::vector<BatchSizing>>;
    Error err;
    if (!check_value("plan.batch_sizing.target_efficiency", target_efficiency, err) ||
        !check_fabric_list("plan.batch_sizing.fabrics", fabrics, in, err))
        return Out::failure(err);
    const std::vector<std::string> ids = fabric_list(in, fabrics);
    std::vector<BatchSizing> out;
    for (const auto& id : ids) {
        auto b = size_on(cfg, in, layout, id, target_efficiency);
        if (!b.ok) return Out::failure(b.error);
        b.value.fix = sizing_fix(cfg, in, b.value, target_efficiency);
        if (!b.value.fix.empty()) b.value.verdict += "; fix: " + b.value.fix;
        out.push_back(std::move(b.value));
    }
    return Out::success(std::move(out));
}

Error cluster_error(Error e, size_t i) {
    static const char* const own[][2] = {{"plan.gpus", "gpus"}, {"gpu", "gpu"}, {"plan.fabric", "fabric"}};
    const std::string at = "plan.clusters[" + std::to_string(i) + "].";
    for (const auto& o : own) {
        if (e.field != o[0]) continue;
        e.field = at + o[1];
        if (e.message.rfind(o[0], 0) == 0) e.message.replace(0, std::strlen(o[0]), e.field);  // "plan.gpus must be ..."
    }
    return e;
}

PlanInputs plan_inputs_for_gpu(const Config& cfg, const PlanInputs& in, const std::string& gpu_id) {
    PlanInputs pi = in;
    if (gpu_id == cfg.gpu_id) return pi;
    pi.price_per_hour_usd = pi.purchase_usd = -1;
    pi.gpus_per_node = 0;
    pi.intra_override = FabricSpec{};
    return pi;
}

void cluster_plan_request(const Config& cfg, const PlanInputs& in, const ClusterCandidate& c, Config& cc, PlanInputs& pi) {
    cc = cfg;
    cc.gpu_id = c.gpu_id;
    // The plan's prices and node (plan.gpus_per_node, plan.intra_spec) are its GPU type's: another
    // type takes its catalogs' (plan_inputs_for_gpu).
    pi = plan_inputs_for_gpu(cfg, in, c.gpu_id);
    pi.gpus = c.gpus;
    pi.fabric = c.fabric;
    pi.top = 1;
    pi.suggest_fit = false;
    pi.ranked_only = true;
}

ClusterResult cluster_result_from(const Config& cc, const PlanInputs& pi, const ClusterCandidate& c, const Outcome<PlanResult>& p, long index) {
    ClusterResult r;
    r.cluster = c;
    if (!p.ok) {
        const Error e = index >= 0 ? cluster_error(p.error, static_cast<size_t>(index)) : p.error;
        r.why = e.field + ": " + e.message;
    } else if (p.value.ranked.empty()) {
        r.why = p.value.notes.empty() ? "no layout fits" : p.value.notes.back();
    } else {
        r.ok = true;
        r.best = p.value.ranked.front();
        r.train_days = r.best.train_days;
        r.rent_usd = r.best.rent_usd;
        auto hw = plan_hardware(cc, pi);
        if (hw.ok) r.purchase_usd = whole_cents(hw.value.purchase_usd * c.gpus * (1 + pi.network_share));
    }
    return r;
}

namespace {

// One cluster of a comparison; `index`: its place in the request (its errors are named by it), or
// -1 for a cluster the planner makes itself (fewest_gpus: its fields are the plan's own).
ClusterResult plan_cluster(const Config& cfg, const PlanInputs& in, const ClusterCandidate& c, long index, const PlanMemoryPtr& reuse = nullptr) {
    Config cc;
    PlanInputs pi;
    cluster_plan_request(cfg, in, c, cc, pi);
    return cluster_result_from(cc, pi, c, plan(cc, pi, reuse), index);
}

}  // namespace

Outcome<std::vector<ClusterResult>> plan_clusters(const Config& cfg, const PlanInputs& in, const std::vector<ClusterCandidate>& clusters,
                                                  const PlanMemoryPtr& reuse) {
    std::vector<ClusterResult> out;
    for (size_t i = 0; i < clusters.size(); ++i) out.push_back(plan_cluster(cfg, in, clusters[i], static_cast<long>(i), reuse));
    rank_clusters(out, in.rank);
    return Outcome<std::vector<ClusterResult>>::success(std::move(out));
}

void rank_clusters(std::vector<ClusterResult>& out, PlanRank rank) {
    auto key = [&](const ClusterResult& r) {
        if (!r.ok) return 1e300;
        if (rank == PlanRank::Cost) return r.rent_usd > 0 ? r.rent_usd : r.best.time.total * r.cluster.gpus;
        if (rank == PlanRank::TokensPerGpu) return -r.best.time.tokens_per_s_per_gpu;
        return r.train_days > 0 ? r.train_days : 1.0 / std::max(1e-30, r.best.time.tokens_per_s_per_gpu * r.cluster.gpus);
    };
    stable_sort_by(out, [&](const ClusterResult& a, const ClusterResult& b) { return key(a) < key(b); });
}

Outcome<ClusterResult> fewest_gpus(const Config& cfg, const PlanInputs& in, double deadline_days, int max_gpus) {
    using Out = Outcome<ClusterResult>;
    Error err;
    if (!check_members({{"plan.deadline_days", deadline_days}, {"plan.max_gpus", max_gpus}}, err))
        return Out::failure(err);
    if (!(in.train_tokens > 0)) return Out::failure("plan.train_tokens", "must be > 0 tokens to size a cluster to a deadline");
    auto hw = plan_hardware(cfg, in);
    if (!hw.ok) return Out::failure(hw.error);
    const int g = hw.value.gpus_per_node;
    auto meets = [&](int n, ClusterResult& r) {
        r = plan_cluster(cfg, in, {cfg.gpu_id, n, in.fabric}, -1);
        return r.ok && r.train_days <= deadline_days;
    };
    ClusterResult best;
    int lo = 0, hi = 0;  // nodes: lo fails, hi meets
    for (int nodes = 1; static_cast<long long>(nodes) * g <= max_gpus; nodes *= 2) {
        ClusterResult r;
        if (meets(nodes * g, r)) { hi = nodes; best = r; break; }
        lo = nodes;
        if (nodes > max_plan_gpus() / 2) break;
    }
    if (hi == 0) {
        ClusterResult none;
        none.why = "no cluster of up to " + std::to_string(max_gpus) + " x " + cfg.gpu_id + " trains " + fixed(in.train_tokens / 1e9, 0) +
                   "B tokens within " + fixed(deadline_days, 1) + " days";
        return Out::success(none);
    }
    // Bisect on whole nodes (the time is close to monotonic in the GPU count; docs/planner.md).
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        ClusterResult r;
        if (meets(mid * g, r)) { hi = mid; best = r; }
        else lo = mid;
    }
    return Out::success(best);
}

}  // namespace vc
