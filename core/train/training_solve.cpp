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

// Largest k in [1, hi] with fits(k), for fits monotone (true then false); 0 when fits(1) is false.
template <typename Fits>
double last_fitting(Fits fits, double hi) {
    if (!fits(1)) return 0;
    if (fits(hi)) return hi;
    double lo = 1;
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (fits(mid)) lo = mid;
        else hi = mid;
    }
    return lo;
}

// Smallest k in [1, hi] with fits(k), for fits monotone (false then true); 0 when fits(hi) is false.
template <typename Fits>
double first_fitting(Fits fits, double hi) {
    if (!fits(hi)) return 0;
    if (fits(1)) return 1;
    double lo = 1;
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (fits(mid)) hi = mid;
        else lo = mid;
    }
    return hi;
}

}  // namespace

Outcome<Answer> solve_training(const Config& in, const std::string& question) {
    if (in.gpu_id.empty() && !in.inference.has_custom_gpu)
        return Outcome<Answer>::failure("gpu", "gpu must name the GPU to size for (vramcalc --list-gpus), or give inference.gpu_custom");
    Error gpu_err;
    if (in.inference.has_custom_gpu && !check_custom_gpu(in.inference.custom_gpu, gpu_err)) return Outcome<Answer>::failure(gpu_err);
    const GpuSpec* g = config_gpu(in);
    if (!g) return Outcome<Answer>::failure("gpu", "gpu \"" + in.gpu_id + "\" is not in the catalog (vramcalc --list-gpus)");
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
        // Grow data parallelism (ZeRO/FSDP shards spread further); tensor, pipeline and context
        // parallelism stay as configured. With experts, dp steps keep ep x etp dividing tp x dp x cp.
        Config c = cfg;
        c.training.global_batch = 0;
        c.parallel.dp = 0;
        const long long mp = static_cast<long long>(cfg.parallel.tp) * cfg.parallel.pp * cfg.parallel.cp;
        long long step = 1;
        if (cfg.parallel.ep > 1) {
            const long long etp = cfg.parallel.etp > 0 ? cfg.parallel.etp : cfg.parallel.tp;
            const long long need = static_cast<long long>(cfg.parallel.ep) * etp;
            const long long have = static_cast<long long>(cfg.parallel.tp) * cfg.parallel.cp;
            step = need / std::gcd(need, have);
        }
        const double hi = std::floor(kMaxSolveGpus / static_cast<double>(mp * step));
        const double k = first_fitting([&](double x) { c.gpus = x * step * mp; return within(c); }, hi < 1 ? 1 : hi);
        a.value = k * step * mp;
        if (a.value > 0) {
            c.gpus = a.value;
            a.explanation = int_text(a.value) + " " + noun_for(a.value, "GPUs") + " (dp " + int_text(k * step) + (a.value == 1 ? ") needs " : ") need ") +
                            gb(total(c)) + " per GPU, within " + target;
        } else {
            // What stays on each GPU however many there are: the floor at the largest count, and
            // what would lower it (only what this config does not already do).
            c.gpus = (hi < 1 ? 1 : hi) * step * mp;
            auto floor = training_result(c);
            a.explanation = "no count fits: more data parallelism stops shrinking per-GPU memory under sharding \"" +
                            std::string(sharding_name(cfg.training.sharding)) + "\"";
            if (floor.ok)
                a.explanation += ": at any count each GPU needs at least " + gb(floor.value.device_total) + ", of which activations " +
                                 gb(floor.value.activations) + " and logits " + gb(floor.value.logits_loss) + " (per micro-batch, not sharded)";
            std::string tries;
            auto add = [&tries](const char* t) { tries += (tries.empty() ? "" : ", ") + std::string(t); };
            if (cfg.training.sharding != Sharding::Zero3) add("zero3 / FSDP full sharding");
            if (resolved_recompute(cfg.training) != Recompute::Full) add("activation recomputation");
            if (cfg.run.batch > 1) add("a smaller micro-batch");
            add("tensor, pipeline or context parallelism");
            a.explanation += "; try " + tries;
        }
        return Outcome<Answer>::success(a);
    }
    return Outcome<Answer>::failure("question", "question \"" + question + "\" is not a training question (max_batch, max_seq, min_gpus)");
}

}  // namespace vc
