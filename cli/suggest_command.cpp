// vramcalc CLI: `vramcalc suggest [options]` lists the smallest changes that make the config the
// options describe fit its GPU (--gpu) within the target (core/advice.hpp), each with its total.
#include <cstdio>

#include "core/advice.hpp"
#include "core/units.hpp"
#include "../io/config_json.hpp"
#include "../io/solve_json.hpp"
#include "flags.hpp"

namespace vc::cli {

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
        std::printf("nothing to suggest: it fits within the target, no GPU is chosen (--gpu), or no single change makes it fit\n");
        return 0;
    }
    for (const auto& s : list)
        std::printf("%-60s %9.2f GB (%5.1f%%)  %s\n", s.label.c_str(), bytes_to_gb(s.total_bytes), s.utilization * 100, s.detail.c_str());
    return 0;
}

}  // namespace vc::cli
