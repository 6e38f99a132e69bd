// vramcalc bench: how long the what-fits solve takes. Times the longest context for 1..256
// concurrent sequences (one plan, 256 solves) for each engine, and a full estimate, and prints
// microseconds per call (the median of many runs). Target: the solve <= 100 us natively.
//   build/native/bench/vramcalc_bench            (native)
//   node build/wasm/bench/vramcalc_bench.js      (WebAssembly)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/model/presets.hpp"

using Clock = std::chrono::steady_clock;

// Median wall time of `fn` in microseconds over `runs` runs (after one warm-up).
template <typename Fn>
static double median_us(int runs, Fn fn) {
    fn();
    std::vector<double> t;
    t.reserve(static_cast<size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        auto a = Clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static vc::Config config(vc::Engine engine, const char* weights, const char* gpu) {
    vc::Config cfg;
    cfg.method = vc::Method::Detailed;
    cfg.task = vc::Task::Inference;
    cfg.model = *vc::find_preset("llama-3.1-8b");
    cfg.gpu_id = gpu;
    cfg.inference.engine = engine;
    cfg.inference.weights.format = weights;
    cfg.inference.context = 8192;
    return cfg;
}

int main() {
    std::vector<int> concurrency;
    for (int n = 1; n <= 256; ++n) concurrency.push_back(n);
    struct Case {
        const char* name;
        vc::Engine engine;
        const char* weights;
    };
    const Case cases[] = {{"vllm bf16", vc::Engine::Vllm, "bf16"},
                          {"llama.cpp q4_k_m", vc::Engine::LlamaCpp, "q4_k_m"},
                          {"hf bnb-nf4", vc::Engine::Hf, "bnb-nf4"}};
    std::printf("what-fits solve: longest context for 1..256 sequences, Llama-3.1-8B on an H100 80GB\n");
    double sink = 0;
    for (const auto& c : cases) {
        const vc::Config cfg = config(c.engine, c.weights, "h100-80gb");
        const double plan_us = median_us(200, [&] { sink += vc::make_inference_plan(cfg).value.pool; });
        const auto plan = vc::make_inference_plan(cfg).value;
        const double share = c.engine == vc::Engine::Vllm ? 1.0 : cfg.target_utilization;
        const double solve_us = median_us(200, [&] { sink += vc::longest_context_curve(plan, concurrency, share)[255]; });
        const double est_us = median_us(50, [&] { sink += vc::estimate(cfg).value.total_bytes; });
        std::printf("  %-18s plan %8.1f us   256 solves %8.1f us (plan + solves %8.1f us)   full estimate %9.1f us\n", c.name, plan_us,
                    solve_us, plan_us + solve_us, est_us);
    }
    return sink == 42 ? 1 : 0;  // keeps the work from being optimized away
}
