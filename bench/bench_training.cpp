// vramcalc bench: how long one detailed training estimate takes. For a few typical configs, the
// best-of-runs microseconds of training_result (the numbers) and of estimate() (numbers, formulas,
// catalog fits), and of a max_batch solve. Target: a detailed estimate <= 5 us natively, wasm
// within 2x.
//   build/native/bench/vramcalc_bench_training       (native)
//   node build/wasm/bench/vramcalc_bench_training.js (WebAssembly)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "core/solve.hpp"
#include "core/train/training.hpp"

using Clock = std::chrono::steady_clock;

// Fastest wall time of `fn` in microseconds over `runs` timings of `batch` calls each (after a
// warm-up): the best run is the least disturbed by other work on a shared machine.
template <typename Fn>
static double best_us(int runs, int batch, Fn fn) {
    fn();
    std::vector<double> t;
    t.reserve(static_cast<size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        auto a = Clock::now();
        for (int k = 0; k < batch; ++k) fn();
        t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count() / batch);
    }
    return *std::min_element(t.begin(), t.end());
}

int main() {
    struct Case {
        const char* name;
        const char* preset;
        vc::FinetuneMethod finetune;
        vc::Sharding sharding;
        int gpus, tp, pp;
        vc::Recompute recompute;
    };
    const Case cases[] = {
        {"Llama-3.1-8B LoRA, 1 GPU", "llama-3.1-8b", vc::FinetuneMethod::Lora, vc::Sharding::None, 1, 1, 1, vc::Recompute::None},
        {"Llama-3.1-8B full, ZeRO-3 x 8", "llama-3.1-8b", vc::FinetuneMethod::Full, vc::Sharding::Zero3, 8, 1, 1, vc::Recompute::Full},
        {"Llama-3.1-70B TP8 PP4 x 64", "llama-3.1-70b", vc::FinetuneMethod::Full, vc::Sharding::Zero1, 64, 8, 4, vc::Recompute::Selective},
        {"DeepSeek-V3 QLoRA, 1 GPU", "deepseek-v3", vc::FinetuneMethod::Qlora, vc::Sharding::None, 1, 1, 1, vc::Recompute::Full},
    };
    std::printf("detailed training estimate, best of runs per call\n");
    double sink = 0;
    for (const auto& c : cases) {
        vc::Config cfg;
        cfg.method = vc::Method::Detailed;
        cfg.task = c.finetune == vc::FinetuneMethod::Full ? vc::Task::Training : vc::Task::FineTune;
        cfg.model = *vc::find_preset(c.preset);
        cfg.run.batch = 1;
        cfg.run.seq = 4096;
        cfg.gpus = c.gpus;
        cfg.gpu_id = "h100-80gb";
        cfg.parallel.tp = c.tp;
        cfg.parallel.pp = c.pp;
        cfg.training.finetune = c.finetune;
        cfg.training.sharding = c.sharding;
        cfg.training.recompute = c.recompute;
        cfg.training.grad_accum = 8;
        if (!vc::training_result(cfg).ok) {
            std::printf("  %-32s invalid: %s\n", c.name, vc::training_result(cfg).error.message.c_str());
            continue;
        }
        const double numbers_us = best_us(101, 200, [&] { sink += vc::training_result(cfg).value.device_total; });
        const double estimate_us = best_us(101, 50, [&] { sink += vc::estimate(cfg).value.total_bytes; });
        const double solve_us = best_us(21, 5, [&] { sink += vc::solve(cfg, "max_batch").value.value; });
        std::printf("  %-32s numbers %6.2f us   estimate() with formulas %6.2f us   max_batch solve %8.1f us\n", c.name,
                    numbers_us, estimate_us, solve_us);
    }
    return sink == 42 ? 1 : 0;  // keeps the work from being optimized away
}
