// vramcalc CLI: `vramcalc validate FILE.csv` runs every row of a calibration CSV (measured peak
// memory of public runs) through the engine and prints estimate vs measured, the error per row,
// the median and the worst (io/calibration, docs/accuracy.md). Exit 0; 2 when the file is
// unreadable or not a CSV.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "../io/calibration.hpp"

namespace vc::cli {

int validate_command(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') {
        std::fprintf(stderr, "usage: vramcalc validate FILE.csv [--verbose] [--as-labelled]\n");
        return 2;
    }
    std::ifstream f(argv[1], std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "vramcalc: cannot read %s\n", argv[1]);
        return 2;
    }
    std::ostringstream ss;
    ss << f.rdbuf();
    auto table = io::parse_csv(ss.str());
    if (!table.ok) {
        std::fprintf(stderr, "vramcalc: %s: %s\n", argv[1], table.error.message.c_str());
        return 2;
    }
    bool verbose = false, as_labelled = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--verbose") verbose = true;
        else if (a == "--as-labelled") as_labelled = true;
        else {
            std::fprintf(stderr, "vramcalc: validate: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    std::fputs(io::format_checks(io::check_rows(table.value, as_labelled), verbose).c_str(), stdout);
    return 0;
}

}  // namespace vc::cli
