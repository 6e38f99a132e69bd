// vramcalc CLI: `vramcalc suggest [options]` lists the smallest changes that make the config the
// options describe fit its GPU (--gpu) within the target (core/advice.hpp), each with its total.
#include <cstdio>

#include "core/advice.hpp"
#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "core/units.hpp"
#include "../io/config_json.hpp"
#include "../io/solve_json.hpp"
#include "flags.hpp"

namespace vc::cli {

namespace {

// Which of the reasons for an empty list holds (fit_suggestions: no GPU, it fits within the target, or
// no single change or pair it tries reaches the target), with the detailed total it judged. After a
// list (`after_list`) only the missing RAM size, when that is what keeps the GPU part from fitting.
void print_nothing_to_suggest(const Config& in, bool after_list = false) {
    const GpuSpec* gpu = config_gpu(in);
    if (!gpu) {
        std::printf("nothing to suggest: no GPU is chosen (--gpu)\n");
        return;
    }
    Config cfg = in;
    cfg.method = Method::Detailed;  // fit_suggestions judges the detailed model's total
    const auto est = estimate(cfg);
    const std::string id = config_gpu_id(cfg);
    const GpuFit* fit = nullptr;
    if (est.ok)
        for (const auto& f : est.value.fits) fit = f.gpu_id == id ? &f : fit;
    if (after_list && !(fit && fit->needs_ram_bytes > 0 && fit->gpu_within_target)) return;
    if (!fit) {
        std::printf("nothing to suggest: %s\n", est.ok ? "no fit for the chosen GPU" : est.error.message.c_str());
        return;
    }
    // vLLM's budget is its own gpu_memory_utilization (the page's and the verdict's target).
    const double target = serves_engine(cfg) && cfg.inference.engine == Engine::Vllm ? cfg.inference.vllm.gpu_memory_utilization : cfg.target_utilization;
    // llama.cpp with layers, experts or KV in system RAM of no stated size: the RAM is the missing input.
    if (fit->needs_ram_bytes > 0 && fit->gpu_within_target) {
        std::printf("%s: its GPU part fits %s within the target (%.2f GB, %.1f%% of its memory; target %g%%), and it needs %.2f GB "
                    "of system RAM, not checked: give --ram-gib\n",
                    after_list ? "or, as it is" : "nothing to suggest", gpu->name.c_str(), bytes_to_gb(est.value.total_bytes), fit->utilization * 100,
                    target * 100, bytes_to_gb(fit->needs_ram_bytes));
        return;
    }
    std::printf(fit->within_target ? "nothing to suggest: it fits %s within the target (%.2f GB, %.1f%% of its memory; target %g%%)\n"
                                   : "nothing to suggest: no change or pair of changes tried makes it fit %s within the target (%.2f GB now, "
                                     "%.1f%% of its memory; target %g%%)\n",
                gpu->name.c_str(), bytes_to_gb(est.value.total_bytes), fit->utilization * 100, target * 100);
}

}  // namespace

int suggest_command(int argc, char** argv) {
    Options opt;
    int rc = parse_flags(argc, argv, 1, opt);
    if (rc >= 0) return rc;
    Config cfg;
    if (!load_config(opt, cfg)) return 1;
    const auto list = fit_suggestions(cfg);
    if (opt.format == "json") {
        std::printf("%s\n", io::dump(io::suggestions_to_json(list), 2).c_str());
        return 0;
    }
    if (list.empty()) {
        print_nothing_to_suggest(cfg);
        return 0;
    }
    for (const auto& s : list)
        std::printf("%-60s %9.2f GB (%5.1f%%)  %s\n", s.label.c_str(), bytes_to_gb(s.total_bytes), s.utilization * 100, s.detail.c_str());
    print_nothing_to_suggest(cfg, true);  // the RAM size, when it is the missing input
    return 0;
}

}  // namespace vc::cli
