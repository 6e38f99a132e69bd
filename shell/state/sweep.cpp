// vramcalc shell state: chart series (see sweep.hpp).
#include "sweep.hpp"

#include <algorithm>
#include <cmath>

#include "core/estimate.hpp"
#include "core/serve/inference.hpp"

namespace vc::shell {
namespace {

// Axis ranges: the low end, the least high end, and how far past the present value to go.
constexpr double kBatchLow = 1, kBatchHighMin = 64, kSeqLow = 128, kSeqHighMin = 32768;
constexpr double kPastCurrent = 8;                   // the high end is at least 8x the present value
constexpr double kBatchCap = 1 << 20, kSeqCap = 1 << 24;  // the engine's own limits
constexpr double kSamplesPerOctave = 2;


// Detailed serving: one plan, then memory_at() per sample (what the engine's solvers do), instead
// of a whole estimate (with its catalog fits) per sample.
bool serving_sweep(const Config& cfg, Sweep& s) {
    const auto plan = make_inference_plan(cfg);
    if (!plan.ok) return false;
    const InferencePlan& p = plan.value;
    const bool batch = s.axis == SweepAxis::Batch;
    struct Part {
        const char* key;
        const char* label;
        double MemoryAt::*field;
    };
    static const Part kParts[] = {{"weights", "Weights", &MemoryAt::weights},        {"kv_cache", "KV cache", &MemoryAt::kv},
                                  {"activations", "Activations", &MemoryAt::activations}, {"runtime", "CUDA context / runtime", &MemoryAt::runtime},
                                  {"cuda_graphs", "CUDA graphs", &MemoryAt::graphs}};
    for (const auto& part : kParts) s.series.push_back(SweepSeries{part.key, part.label, {}});
    const double context = cfg.inference.context, concurrency = cfg.inference.concurrency;
    for (double x : s.x) {
        const MemoryAt m = memory_at(p, batch ? context : x, batch ? x : concurrency);
        for (size_t i = 0; i < s.series.size(); ++i) s.series[i].bytes.push_back(m.*kParts[i].field);
        s.ok.push_back(true);
        s.total.push_back(m.total());
        if (p.engine == Engine::Vllm) {
            const double n = batch ? x : concurrency, c = batch ? context : x;
            s.demand.push_back(m.total() - m.kv + n * kv_sequence_bytes(p.kv, c, p.block));
        }
    }
    // Components that are zero everywhere (no CUDA graphs outside vLLM) are left out.
    std::vector<SweepSeries> kept;
    for (auto& series : s.series) {
        bool any = false;
        for (double b : series.bytes) any |= b > 0;
        if (any) kept.push_back(std::move(series));
    }
    s.series = std::move(kept);
    return true;
}

}  // namespace

const char* sweep_field(const Config& cfg, SweepAxis axis) {
    const RunShapePaths paths = run_shape_paths(cfg);
    return axis == SweepAxis::Batch ? paths.batch : paths.seq;
}

const char* sweep_label(const Config& cfg, SweepAxis axis) {
    if (cfg.task == Task::Inference)
        return axis == SweepAxis::Batch ? "Concurrent sequences" : "Context length (tokens)";
    return axis == SweepAxis::Batch ? "Micro-batch (sequences per GPU)" : "Sequence length (tokens)";
}

double sweep_value(const Config& cfg, SweepAxis axis) {
    const RunShape shape = run_shape(cfg);
    return axis == SweepAxis::Batch ? shape.batch : shape.seq;
}

void set_sweep_value(Config& cfg, SweepAxis axis, double v) {
    RunShape shape = run_shape(cfg);
    // The sweep's points are capped and at least 1 (a serving shape is whole: core/config.cpp).
    (axis == SweepAxis::Batch ? shape.batch : shape.seq) = serves_engine(cfg) && !(v >= 1) ? 1 : v;
    set_run_shape(cfg, shape);
}

Sweep compute_sweep(const Config& cfg, SweepAxis axis) {
    Sweep s;
    s.axis = axis;
    s.field = sweep_field(cfg, axis);
    s.label = sweep_label(cfg, axis);
    s.current = sweep_value(cfg, axis);

    const bool batch = axis == SweepAxis::Batch;
    const double low = batch ? kBatchLow : kSeqLow, cap = batch ? kBatchCap : kSeqCap;
    const double cur = std::isfinite(s.current) && s.current >= 1 ? std::min(s.current, cap) : low;
    double high = std::max(batch ? kBatchHighMin : kSeqHighMin, std::exp2(std::ceil(std::log2(cur * kPastCurrent))));
    high = std::min(high, cap);
    const double lo = std::min(low, std::max(1.0, std::floor(cur)));

    std::vector<double> xs;
    const int steps = static_cast<int>(std::ceil(std::log2(high / lo) * kSamplesPerOctave));
    for (int i = 0; i <= steps; ++i) xs.push_back(std::round(lo * std::exp2(i / kSamplesPerOctave)));
    xs.push_back(std::round(cur));
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());

    if (serves_engine(cfg)) {
        s.x = xs;
        if (serving_sweep(cfg, s)) return s;
        s.x.clear();
        s.series.clear();
        s.ok.clear();
        s.total.clear();
        s.demand.clear();
    }
    Config c = cfg;
    for (double x : xs) {
        set_sweep_value(c, axis, x);
        const auto r = estimate(c);
        const size_t i = s.x.size();
        s.x.push_back(x);
        s.ok.push_back(r.ok);
        s.total.push_back(r.ok ? std::max(r.value.total_bytes, r.value.buffered_bytes) : 0);
        for (auto& series : s.series) series.bytes.push_back(0);
        if (!r.ok) continue;
        for (const auto& comp : r.value.components) {
            auto it = std::find_if(s.series.begin(), s.series.end(), [&](const SweepSeries& ss) { return ss.key == comp.key; });
            if (it == s.series.end()) {
                s.series.push_back(SweepSeries{comp.key, comp.label, std::vector<double>(i + 1, 0.0)});
                it = s.series.end() - 1;
            }
            it->bytes[i] = comp.bytes;
        }
    }
    return s;
}

}  // namespace vc::shell
