// vramcalc core: training "what fits" solvers. Memory never decreases with the micro-batch or the
// sequence and never increases with the data-parallel size (tests/unit/test_training_properties),
// so each answer is a bisection for the last value that fits.
#include "core/train/training_solve.hpp"

#include <cstdio>
#include <numeric>

#include "core/config.hpp"
#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"

namespace vc {
namespace {

constexpr double kMaxSolveBatch = 1 << 20;
constexpr double kMaxSolveSeq = 1 << 24;
constexpr double kMaxSolveGpus = 1 << 16;

std::string gb(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
    return buf;
}

}  // namespace

TrainingGpuCounts::TrainingGpuCounts(const Config& cfg) : c_(cfg) {
    // Grow data parallelism (ZeRO/FSDP shards spread further); tensor, pipeline and context
    // parallelism stay as configured. With experts, dp steps keep ep x etp dividing tp x dp x cp.
    c_.method = Method::Detailed;
    c_.training.global_batch = 0;
    c_.parallel.dp = 0;
    mp_ = static_cast<long long>(cfg.parallel.tp) * cfg.parallel.pp * cfg.parallel.cp;
    if (cfg.parallel.ep > 1) {
        const long long etp = cfg.parallel.etp > 0 ? cfg.parallel.etp : cfg.parallel.tp;
        const long long need = static_cast<long long>(cfg.parallel.ep) * etp;
        const long long have = static_cast<long long>(cfg.parallel.tp) * cfg.parallel.cp;
        step_ = need / std::gcd(need, have);
    }
    const double hi = std::floor(kMaxSolveGpus / static_cast<double>(mp_ * step_));
    steps_ = hi < 1 ? 1 : hi;
}

double TrainingGpuCounts::total_at_step(double k) {
    for (const auto& [at, total] : memo_)
        if (at == k) return total;
    c_.gpus = k * step_ * mp_;
    // Only gpus (in its range), the global batch and dp (their "auto" 0) differ from a config
    // whose ranges were checked (TrainingGpuCounts' callers have run it).
    auto r = training_result(c_, TrainingChecks::RangesChecked);
    memo_.emplace_back(k, r.ok ? r.value.device_total : -1.0);
    return memo_.back().second;
}

double TrainingGpuCounts::total_at(double gpus) { return total_at_step(gpus / (step_ * mp_)); }

int TrainingGpuCounts::fewest(const GpuSpec& g, const OwnContext* own) {
    const double budget = g.memory_bytes * c_.target_utilization;
    auto within = [&](double k) {
        const double t = total_at_step(k);
        return t >= 0 && bytes_on(g, t, own) <= budget;
    };
    // A Mac is one machine (apply_one_machine_rule): one GPU or none.
    if (g.unified) return mp_ * step_ == 1 && within(1) ? 1 : 0;
    // Doubling from 1, then halving the last gap: the smallest step count within the target when
    // memory never grows with the data-parallel size (tests/unit/test_training_properties), as
    // a bisection of [1, 65536] would, in about 2 log2(answer) totals, most of them shared by every GPU.
    double lo = 0, hi = 1;
    while (!within(hi)) {
        if (hi >= steps_) return 0;
        lo = hi;
        hi = std::min(hi * 2, steps_);
    }
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (within(mid)) hi = mid;
        else lo = mid;
    }
    return static_cast<int>(hi * step_ * mp_);
}

Outcome<Answer> solve_training(const Config& in, const std::string& question) {
    if (in.gpu_id.empty() && !in.inference.has_custom_gpu)
        return Outcome<Answer>::failure("gpu", "gpu must name the GPU to size for (vramcalc --list-gpus), or give inference.gpu_custom");
    Error gpu_err;
    if (in.inference.has_custom_gpu && !check_custom_gpu(in.inference.custom_gpu, gpu_err)) return Outcome<Answer>::failure(gpu_err);
    const GpuSpec* g = config_gpu(in);
    if (!g) return Outcome<Answer>::failure("gpu", unknown_gpu_message(in.gpu_id));
    Config cfg = in;
    cfg.method = Method::Detailed;
    const double budget = g->memory_bytes * cfg.target_utilization;
    // The config itself must be valid before anything is varied.
    auto base = training_result(cfg);
    if (!base.ok) return Outcome<Answer>::failure(base.error);

    auto total = [&](const Config& c) {
        auto r = training_result(c);
        return r.ok ? r.value.device_total : -1.0;
    };
    auto within = [&](const Config& c) {
        const double t = total(c);
        return t >= 0 && t <= budget;
    };
    const std::string target = gb(budget) + " (" + int_text(std::round(cfg.target_utilization * 100)) +
                               "% of " + g->name + ")";

    Answer a;
    a.question = question;
    if (question == "max_batch") {
        a.label = "Largest micro-batch that fits";
        a.unit = "sequences";
        Config c = cfg;
        c.training.global_batch = 0;
        a.value = last_fitting([&](double b) { c.run.batch = b; return within(c); }, kMaxSolveBatch);
        if (a.value > 0) {
            c.run.batch = a.value;
            a.explanation = "micro-batch " + int_text(a.value) + " needs " + gb(total(c)) +
                            " per GPU, within " + target;
        } else {
            c.run.batch = 1;
            a.explanation = "even micro-batch 1 needs " + gb(total(c)) + " per GPU, over " + target;
        }
        return Outcome<Answer>::success(a);
    }
    if (question == "max_seq") {
        a.label = "Longest sequence that fits";
        a.unit = "tokens";
        Config c = cfg;
        const double cp = cfg.parallel.cp;  // the sequence splits over context-parallel ranks
        const double k = last_fitting([&](double x) { c.run.seq = x * cp; return within(c); }, std::floor(kMaxSolveSeq / cp));
        a.value = k * cp;
        c.run.seq = a.value > 0 ? a.value : cp;
        auto tokens_need = [](double n) { return int_text(n) + (n == 1 ? " token needs " : " tokens need "); };
        a.explanation = (a.value > 0 ? tokens_need(a.value) : "even " + tokens_need(cp)) +
                        gb(total(c)) + " per GPU" + (a.value > 0 ? ", within " : ", over ") + target;
        // The model's context window bounds the answer (whole multiples of cp); memory may allow more.
        const double limit = cfg.model.context_limit;
        const double capped = std::floor(limit / cp) * cp;
        if (limit > 0 && a.value > capped && capped > 0) {
            const double memory = a.value;
            a.value = capped;
            c.run.seq = capped;
            a.explanation = count_text(capped) + " tokens: the model's context window" +
                            (capped < limit ? " of " + count_text(limit) + " in multiples of cp " + count_text(cp) : std::string()) +
                            " (memory would allow " + count_text(memory) + "); they need " + gb(total(c)) + " per GPU, within " + target;
        }
        return Outcome<Answer>::success(a);
    }
    if (question == "min_gpus") {
        a.label = "Fewest GPUs of the chosen type";
        a.unit = "GPUs";
        TrainingGpuCounts counts(cfg);
        a.value = counts.fewest(*g, nullptr);
        const double unit = counts.gpus_per_step();
        if (a.value > 0) {
            a.explanation = int_text(a.value) + " " + noun_for(a.value, "GPUs") + " (dp " + int_text(a.value / counts.model_parallel()) +
                            (a.value == 1 ? ") needs " : ") need ") + gb(counts.total_at(a.value)) + " per GPU, within " + target;
        } else if (g->unified) {
            a.explanation = "a Mac is one machine: " + (unit == 1 ? "1 GPU needs " + gb(counts.total_at(1)) + ", over " + target
                                                                  : "this layout needs " + int_text(unit) + " GPUs (tp x pp x cp)");
        } else if (Config two = cfg; two.gpus = 2 * unit, two.parallel.dp = 0, two.training.global_batch = 0, !training_result(two).ok && cfg.gpus == unit) {
            // More GPUs are refused outright (LitGPT's quantized base: ProfileBehaviour::qlora_single_gpu).
            a.explanation = int_text(unit) + " " + noun_for(unit, "GPUs") + (unit == 1 ? " needs " : " need ") + gb(counts.total_at(unit)) + " per GPU, over " + target +
                            "; more are refused: " + training_result(two).error.message;
        } else {
            // What stays on each GPU however many there are: the floor at the largest count, and
            // what would lower it (only what this config does not already do).
            Config c = cfg;
            c.training.global_batch = 0;
            c.parallel.dp = 0;
            c.gpus = counts.steps() * unit;
            auto floor = training_result(c);
            a.explanation = "no count fits: more data parallelism stops shrinking per-GPU memory under sharding \"" +
                            std::string(sharding_name(cfg.training.sharding)) + "\"";
            if (floor.ok)
                a.explanation += ": at any count each GPU needs at least " + gb(floor.value.device_total) + ", of which activations " +
                                 gb(floor.value.activations) + " and logits " + gb(floor.value.logits_loss) + " (per micro-batch, not sharded)";
            std::string tries;
            auto add = [&tries](const char* t) { tries += (tries.empty() ? "" : ", ") + std::string(t); };
            if (cfg.training.sharding != Sharding::Zero3) add("zero3 / FSDP full sharding");
            if (resolved_recompute(cfg) != Recompute::Full) add("activation recomputation");
            if (cfg.run.batch > 1) add("a smaller micro-batch");
            add("tensor, pipeline or context parallelism");
            a.explanation += "; try " + tries;
        }
        return Outcome<Answer>::success(a);
    }
    return Outcome<Answer>::failure("question", "question \"" + question + "\" is not a training question (max_batch, max_seq, min_gpus)");
}

}  // namespace vc
