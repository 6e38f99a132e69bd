// vramcalc benchmark: time per estimate of the quick method through vc::estimate(), the call every
// front end makes (CLI, Embind, the ImGui shell). Built natively and to WebAssembly from this file;
// scripts/bench.sh runs both (the wasm ones under Node).
//   bench_estimate [N]     N estimates (default 1,000,000), best of 5 rounds
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/estimate.hpp"

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
    if (n <= 0) {
        std::fprintf(stderr, "usage: bench_estimate [N > 0]\n");
        return 2;
    }
    vc::Config cfg;  // the quick method's worked example: 7B, FP16, AdamW mixed, seq 2048
    cfg.quick.params_b = 7;
    cfg.run.seq = 2048;

    constexpr int kRounds = 5;
    double best_us = 1e300, checksum = 0;
    for (int round = 0; round < kRounds; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < n; ++i) {
            cfg.run.batch = static_cast<double>(1 + (i & 7));  // varies, so no call can be hoisted
            const auto r = vc::estimate(cfg);
            checksum += r.ok ? r.value.buffered_bytes : -1;
        }
        const auto t1 = std::chrono::steady_clock::now();
        const double us = std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(n);
        if (us < best_us) best_us = us;
    }
#if defined(VC_BENCH_LABEL)
    const char* build = VC_BENCH_LABEL;
#elif defined(__EMSCRIPTEN__)
    const char* build = "wasm";
#else
    const char* build = "native";
#endif
    std::printf("%-12s %8.3f us per estimate (best of %d rounds of %ld; checksum %.6e)\n", build, best_us, kRounds, n, checksum);
    return 0;
}
