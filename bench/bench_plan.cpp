// vramcalc bench: the cluster planner's search speed. A layout = its memory per GPU (core/train)
// + its step time (core/plan). Prints layouts per second and the full search time for
// Llama-3.1-405B on 512 H100s, Llama-3.1-70B on 64 and Llama-3.1-8B on 8 (best of 5 runs), and the
// 405B search with what the page computes after it (every fabric with its batch sizing, the Pareto
// sizes 128-2048 GPUs; best of 2). scripts/bench.sh puts the builds side by side.
//   build/native/bench/vramcalc_bench_plan                            (native)
//   node --no-experimental-fetch build/wasm/bench/vramcalc_bench_plan.js (WebAssembly, core at -O2)
//   node --no-experimental-fetch build/wasm/bench/bench_plan_page.js     (the page's own core)
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/model/presets.hpp"
#include "core/plan/plan.hpp"

using Clock = std::chrono::steady_clock;

int main() {
#if defined(VC_BENCH_LABEL)
    const char* build = VC_BENCH_LABEL;
#elif defined(__EMSCRIPTEN__)
    const char* build = "wasm";
#else
    const char* build = "native";
#endif
    struct Case { const char* preset; int gpus; };
    const Case cases[] = {{"llama-3.1-405b", 512}, {"llama-3.1-70b", 64}, {"llama-3.1-8b", 8}};
    for (const auto& c : cases) {
        vc::Config cfg;
        cfg.method = vc::Method::Detailed;
        cfg.task = vc::Task::Training;
        cfg.model = *vc::find_preset(c.preset);
        cfg.gpu_id = "h100-80gb";
        cfg.run.seq = 8192;
        cfg.training.profile = "megatron";
        vc::PlanInputs in;
        in.gpus = c.gpus;
        in.train_tokens = 15e12;
        double best = 1e300;
        long long layouts = 0;
        std::string top;
        for (int run = 0; run < 5; ++run) {
            auto a = Clock::now();
            auto r = vc::plan(cfg, in);
            const double s = std::chrono::duration<double>(Clock::now() - a).count();
            best = std::min(best, s);
            if (r.ok) {
                layouts = r.value.evaluated;
                if (!r.value.ranked.empty()) {
                    const auto& b = r.value.ranked.front();
                    char buf[256];
                    std::snprintf(buf, sizeof buf, "%s: %.2f s/step, MFU %.1f%%, %.1f GB/GPU", vc::layout_label(b.layout).c_str(),
                                  b.time.total, 100 * b.time.mfu, b.memory_bytes / 1e9);
                    top = buf;
                }
            }
        }
        std::printf("%-10s plan %s on %d x H100 (seq 8192): %lld layouts in %.1f ms = %.0f layouts/s; best %s\n", build, c.preset, c.gpus, layouts,
                    best * 1e3, layouts / best, top.c_str());
    }
    // The page's planner for 405B on 512 H100: the plan, then every fabric and the Pareto sizes.
    {
        vc::Config cfg;
        cfg.method = vc::Method::Detailed;
        cfg.task = vc::Task::Training;
        cfg.model = *vc::find_preset("llama-3.1-405b");
        cfg.gpu_id = "h100-80gb";
        cfg.run.seq = 8192;
        cfg.training.profile = "megatron";
        vc::PlanInputs in;
        in.gpus = 512;
        in.train_tokens = 15e12;
        in.top = 10;
        double best = 1e300;
        size_t points = 0;
        for (int run = 0; run < 2; ++run) {
            auto a = Clock::now();
            auto r = vc::plan(cfg, in);
            if (!r.ok || r.value.ranked.empty()) break;
            // As the page runs them: each taking the plan's memory per layout where it applies.
            const vc::PlanMemoryPtr& memory = r.value.memory;
            auto f = vc::fabric_comparison(cfg, in, {}, r.value.ranked.front().layout, 0.9, memory);
            auto p = vc::pareto_sweep(cfg, in, vc::pareto_gpu_counts(in.gpus, r.value.gpus_per_node), 3, memory);
            // The page's default candidates (shell/state/planner.cpp, planner_default_clusters).
            auto c = vc::plan_clusters(cfg, in, {{"h100-80gb", 512, "ib-ndr400"}, {"a100-80gb", 512, "ib-hdr200"},
                                                 {"b200-180gb", 512, "ib-ndr400"}, {"a100-80gb", 1024, "ib-hdr200"}}, memory);
            best = std::min(best, std::chrono::duration<double>(Clock::now() - a).count());
            points = (f.ok ? f.value.size() : 0) + (p.ok ? p.value.size() : 0) + (c.ok ? c.value.size() : 0);
        }
        std::printf("%-10s plan llama-3.1-405b on 512 x H100 with the page's extras (every fabric, Pareto 128-2048 GPUs, 4 clusters; %zu points): %.1f ms\n",
                    build, points, best * 1e3);
    }
    return 0;
}
