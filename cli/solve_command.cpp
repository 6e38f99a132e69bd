// vramcalc CLI: `vramcalc solve QUESTION [options]` answers a what-fits question for the config
// the options describe (core/solve.hpp). `vramcalc solve --list-questions` lists them.
#include <cstdio>
#include <string>

#include "core/solve.hpp"
#include "core/units.hpp"
#include "../io/config_json.hpp"
#include "../io/solve_json.hpp"
#include "flags.hpp"

namespace vc::cli {

int solve_command(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') {
        // Options alone: a listing (--list-questions, --format json) or --help, else a usage error.
        Options opt;
        const int rc = parse_flags(argc, argv, 1, opt);
        if (rc >= 0) return rc;
        std::fprintf(stderr, "vramcalc: solve needs a QUESTION (vramcalc solve --list-questions)\n");
        return 2;
    }
    const std::string question = argv[1];
    Options opt;
    int rc = parse_flags(argc, argv, 2, opt);
    if (rc >= 0) return rc;
    Config cfg;
    if (!load_config(opt, cfg)) return 1;
    auto r = solve(cfg, question);
    if (!r.ok) {
        print_error(opt, r.error);
        return 1;
    }
    const Answer& a = r.value;
    if (opt.format == "json") {
        std::printf("%s\n", io::dump(io::answer_to_json(a), 2).c_str());
    } else {
        if (a.value <= 0 && a.items.empty()) std::printf("%s: none fits\n", a.label.c_str());
        else if (a.needs_ram_bytes > 0)  // the RAM nobody checked, on the answer's line (the page's warning line says it too)
            std::printf("%s: %.6g %s (the GPU part alone; needs %.2f GB of system RAM)\n", a.label.c_str(), a.value, a.unit.c_str(), bytes_to_gb(a.needs_ram_bytes));
        else std::printf("%s: %.6g %s\n", a.label.c_str(), a.value, a.unit.c_str());
        for (const auto& item : a.items) std::printf("  %s\n", item.c_str());
        if (!a.explanation.empty()) std::printf("%s\n", a.explanation.c_str());
    }
    return 0;
}

}  // namespace vc::cli
