// vramcalc CLI: `vramcalc validate FILE.csv [FILE.csv ...]` runs every row of calibration CSVs
// (measured peak memory of public runs; several files with the same columns are read as one) through
// the engine and prints estimate vs measured, the error per row, the median, p90 and worst, the
// share within 10% and the fits/OOM verdicts (io/calibration, docs/accuracy.md). `--cv` adds the
// fitted constants' leave-one-source-out table (io/calibration_cv). Exit 0; 2 when a file is
// unreadable or not a CSV.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../io/calibration.hpp"
#include "../io/calibration_cv.hpp"

namespace vc::cli {

int validate_command(int argc, char** argv) {
    static const char kUsage[] = "usage: vramcalc validate FILE.csv [FILE.csv ...] [--cv] [--verbose] [--as-labelled]\n";
    bool verbose = false, as_labelled = false, cv = false;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") return std::printf("%s", kUsage), 0;
        if (a == "--verbose") verbose = true;
        else if (a == "--as-labelled") as_labelled = true;
        else if (a == "--cv") cv = true;
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "vramcalc: validate: unknown option %s\n", a.c_str());
            return 2;
        } else files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    io::CsvTable all;
    for (const auto& path : files) {
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            std::fprintf(stderr, "vramcalc: cannot read %s\n", path.c_str());
            return 2;
        }
        std::ostringstream ss;
        ss << f.rdbuf();
        auto table = io::parse_csv(ss.str());
        if (!table.ok) {
            std::fprintf(stderr, "vramcalc: %s: %s\n", path.c_str(), table.error.message.c_str());
            return 2;
        }
        if (all.header.empty()) all.header = table.value.header;
        else if (table.value.header != all.header) {
            std::fprintf(stderr, "vramcalc: %s: its columns differ from %s's\n", path.c_str(), files.front().c_str());
            return 2;
        }
        for (auto& r : table.value.rows) all.rows.push_back(std::move(r));
    }
    const auto checks = io::check_rows(all, as_labelled);
    std::fputs(io::format_checks(checks, verbose).c_str(), stdout);
    if (cv) std::fputs(io::format_cv(io::cross_validate(all, checks)).c_str(), stdout);
    return 0;
}

}  // namespace vc::cli
