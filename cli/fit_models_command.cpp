// vramcalc CLI: `vramcalc fit-models [options] [--fitting]` ranks every model preset in every
// format of the task (core/fit_models.hpp) on the config's GPU and count, best quality first, with
// its per-GPU total, its share of the budget and whether it fits; --fitting lists only those that do.
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/fit_models.hpp"
#include "core/units.hpp"
#include "../io/config_json.hpp"
#include "../io/solve_json.hpp"
#include "flags.hpp"

namespace vc::cli {

int fit_models_command(int argc, char** argv) {
    bool fitting_only = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::strcmp(argv[i], "--fitting") == 0) fitting_only = true;
        else args.push_back(argv[i]);
    }
    Options opt;
    int rc = parse_flags(static_cast<int>(args.size()), args.data(), 1, opt);
    if (rc >= 0) return rc;
    Config cfg;
    if (!load_config(opt, cfg)) return 1;
    auto r = fit_models(cfg);
    if (!r.ok) {
        print_error(opt, r.error);
        return 1;
    }
    ModelFits list = r.value;
    if (fitting_only) {
        std::vector<ModelFit> kept;
        for (const auto& row : list.rows)
            if (row.fits) kept.push_back(row);
        list.rows = kept;
    }
    if (opt.format == "json") {
        std::printf("%s\n", io::dump(io::model_fits_to_json(list), 2).c_str());
        return 0;
    }
    std::printf("Budget %s; %d of the presets x formats fit, best quality first\n", list.budget.c_str(), list.fitting);
    if (list.needing_ram > 0)
        std::printf("%d more keep layers or experts in system RAM, which is not checked without its size: give --ram-gib\n", list.needing_ram);
    std::printf("%-22s %-26s %10s %8s  %s\n", "model", "format", "per GPU", "budget", "fits");
    for (const auto& row : list.rows) {
        if (!row.ok) {
            std::printf("%-22s %-26s %10s %8s  n/a: %s\n", row.model.c_str(), row.format.c_str(), "-", "-", row.error.c_str());
            continue;
        }
        std::printf("%-22s %-26s %7.2f GB %7.1f%%  %s", row.model.c_str(), row.format.c_str(), bytes_to_gb(row.total_bytes), row.share * 100,
                    row.fits ? "yes" : "no");
        if (row.partial) std::printf(" (-ngl %d, the rest in system RAM)", row.gpu_layers);
        if (row.needs_ram) std::printf(": needs %.2f GB of system RAM", bytes_to_gb(row.ram_bytes));
        std::printf("\n");
    }
    return 0;
}

}  // namespace vc::cli
