// vramcalc bench: the cluster planner's search speed. A layout = its memory per GPU (core/train)
// + its step time (core/plan). Prints layouts per second and the full search time for
// Llama-3.1-405B on 512 H100s and Llama-3.1-70B on 64 H100s (best of runs).
//   build/native/bench/vramcalc_bench_plan       (native)
//   node build/wasm/bench/vramcalc_bench_plan.js (WebAssembly)
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/model/presets.hpp"
#include "core/plan/plan.hpp"

using Clock = std::chrono::steady_clock;

int main() {
    struct Case { const char* preset; int gpus; };
    const Case cases[] = {{"llama-3.1-405b", 512}, {"llama-3.1-70b", 64}, {"llama-3.1-8b", 8}};
    for (const auto& c : cases) {
        vc::Config cfg;
        cfg.method = vc::Method::Detailed;
        cfg.task = vc::Task::Training;
        cfg.model = *vc::find_preset(c.preset);
        cfg.gpu_id = "h100-80gb";
        cfg.quick.seq = 8192;
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
        std::printf("plan %s on %d x H100 (seq 8192): %lld layouts in %.1f ms = %.0f layouts/s; best %s\n", c.preset, c.gpus, layouts,
                    best * 1e3, layouts / best, top.c_str());
    }
    return 0;
}
