// vramcalc CLI: flags and/or a JSON config in, a table or JSON result out.
//   vramcalc --method quick --params 7 --precision fp16 --optimizer adamw-mixed --batch 4 --seq 2048
//   vramcalc --config run.json --format json
// Subcommands (solve, validate) are dispatched by cli/commands.cpp.
#include <cstdio>

#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "../io/config_json.hpp"
#include "../io/report.hpp"
#include "commands.hpp"
#include "flags.hpp"

int main(int argc, char** argv) {
    if (argc >= 2) {
        int rc = 0;
        if (vc::cli::run_command(argc, argv, rc)) return rc;
    }
    vc::cli::Options opt;
    int rc = vc::cli::parse_flags(argc, argv, 1, opt);
    if (rc >= 0) return rc;
    vc::Config cfg;
    if (!vc::cli::load_config(opt, cfg)) return 1;
    // The estimate checks every value against its field's range: a config it refuses is not printed
    // as if it were fine (--print-config gives the estimate's message and writes no config).
    auto est = vc::estimate_document(cfg);
    if (!est.ok) {
        vc::cli::print_error(opt, est.error);
        return 1;
    }
    if (opt.print_config) {
        std::printf("%s\n", vc::io::dump(vc::io::config_to_json(cfg), 2).c_str());
        return 0;
    }
    for (auto& note : vc::unread_field_notes(cfg, opt.typed)) est.value.notes.push_back(std::move(note));
    if (opt.format == "json")
        std::printf("%s\n", vc::io::estimate_text(est.value, 2).c_str());
    else
        std::fputs(vc::io::format_table(est.value, vc::gpu_count_rule(cfg), vc::fit_gpu(cfg, vc::kCustomGpuId)).c_str(), stdout);
    return 0;
}
