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
    // No method named and the quick rule ran: a user who gave a model the detailed method can size
    // from its architecture is told what that says, since the rule is off by 2x to 40x (docs/methods.md).
    const bool architecture = !cfg.model.id.empty() || (opt.doc.contains("model") && opt.doc["model"].is_object() && opt.doc["model"].contains("layers"));
    if (cfg.method == vc::Method::Quick && !opt.doc.contains("method") && architecture) {
        vc::Config detailed = cfg;
        detailed.method = vc::Method::Detailed;
        auto d = vc::estimate_document(detailed);
        if (d.ok) {
            // Its verdict on the chosen GPU too: vLLM's total is its reservation of the card, which
            // says nothing of the fit by itself.
            std::string verdict;
            const vc::GpuSpec* gpu = vc::config_gpu(cfg);
            for (const auto& f : d.value.fits)
                if (gpu && f.gpu_id == gpu->id)
                    verdict = std::string(": on ") + gpu->name +
                              (f.needs_ram_bytes > 0 ? std::string(", its GPU part ") + (f.gpu_within_target ? "within" : "above") + " the target, system RAM not checked"
                               : f.within_target ? ", within the target" : f.fits ? ", fits above the target" : ", does not fit");
            char line[384];
            std::snprintf(line, sizeof line, "No method named, so this is the quick rule of thumb (docs/methods.md); the detailed model "
                          "(--method detailed), from this model's architecture, gives %.2f GB per GPU%s.", d.value.total_bytes / 1e9, verdict.c_str());
            est.value.notes.push_back(line);
        }
    }
    if (opt.format == "json")
        std::printf("%s\n", vc::io::estimate_text(est.value, 2).c_str());
    else
        std::fputs(vc::io::format_table(est.value, vc::gpu_count_rule(cfg), vc::fit_gpu(cfg, vc::kCustomGpuId)).c_str(), stdout);
    return 0;
}
