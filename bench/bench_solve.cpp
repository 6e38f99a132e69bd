// vramcalc bench: how long the what-fits solve takes. Times the longest context for 1..256
// concurrent sequences (one plan, 256 solves) for each engine, and a full estimate, and prints
// microseconds per call (the median of many runs). Target: the solve <= 100 us natively. Then each
// llama.cpp answer through vc::solve (plan included) where the engine places the layers itself
// (-ngl unset: llama-server's --fit, Ollama's num_gpu), whose probes place them again at each shape.
//   build/native/bench/vramcalc_bench            (native)
//   node build/wasm/bench/vramcalc_bench.js      (WebAssembly)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/model/presets.hpp"
#include "core/solve.hpp"

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
    // Automatic placement: Llama-3.1-70B Q4_K_M under the Ollama profile (num_ctx 32,768) and
    // DeepSeek-V3 Q4_K_M with plain llama-server (-c 4096), each on one RTX 4090.
    struct Auto {
        const char* name;
        const char* preset;
        bool ollama;
        double context;
        double ram_gib;
    };
    const Auto autos[] = {{"llama-3.1-70b q4_k_m ollama", "llama-3.1-70b", true, 32768, 0},
                          {"llama-3.1-70b q4_k_m ollama, 64 GiB RAM", "llama-3.1-70b", true, 32768, 64},
                          {"deepseek-v3 q4_k_m --fit", "deepseek-v3", false, 4096, 0},
                          {"deepseek-v3 q4_k_m --fit, 512 GiB RAM", "deepseek-v3", false, 4096, 512}};
    std::printf("what-fits answers (vc::solve, plan included) with -ngl unset, on one RTX 4090\n");
    for (const auto& a : autos) {
        vc::Config cfg = config(vc::Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb");
        cfg.model = *vc::find_preset(a.preset);
        cfg.inference.llamacpp.ollama = a.ollama;
        cfg.inference.context = a.context;
        cfg.inference.host.ram_bytes = a.ram_gib * 1073741824.0;
        std::printf("  %s\n", a.name);
        for (const char* q : {"max_context", "max_concurrency", "kv_capacity", "min_gpus", "best_format", "max_gpu_layers"}) {
            const int runs = std::string(q) == "best_format" || std::string(q) == "min_gpus" ? 5 : 20;
            const double us = median_us(runs, [&] { sink += vc::solve(cfg, q).value.value; });
            std::printf("    %-16s %10.1f us\n", q, us);
        }
    }
    return sink == 42 ? 1 : 0;  // keeps the work from being optimized away
}
