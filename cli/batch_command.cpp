// vramcalc CLI: `vramcalc batch FILE [--solve]` reads one JSON config per line (JSON Lines; FILE may
// be - for standard input) and prints one compact JSON line per config: the estimate (as
// `vramcalc --format json` prints it, or {"ok":false,"error":...}) and, with --solve, every
// what-fits answer for the config's task under "solve". One process for thousands of configs: the
// golden-output corpus (tests/golden) and the native/wasm parity suite run through it.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "core/estimate.hpp"
#include "core/solve.hpp"
#include "../io/config_json.hpp"
#include "../io/solve_json.hpp"

namespace vc::cli {

namespace {

bool applies_to(const QuestionInfo& q, const std::string& task) {
    const std::string tasks = q.tasks;
    size_t start = 0;
    while (start <= tasks.size()) {
        const size_t end = tasks.find(',', start);
        const std::string one = tasks.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (one == task) return true;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return false;
}

std::string batch_line(const std::string& line, bool with_solve) {
    auto cfg = io::parse_config(line);
    if (!cfg.ok) return io::dump(io::error_to_json(cfg.error));
    auto est = estimate_document(cfg.value);
    nlohmann::json out = est.ok ? io::estimate_to_json(est.value) : io::error_to_json(est.error);
    if (with_solve) {
        const std::string task = io::config_to_json(cfg.value).value("task", "");
        nlohmann::json answers = nlohmann::json::object();
        for (const auto& q : solve_questions()) {
            if (!applies_to(q, task)) continue;
            auto a = solve(cfg.value, q.id);
            answers[q.id] = a.ok ? io::answer_to_json(a.value) : io::error_to_json(a.error);
        }
        out["solve"] = answers;
    }
    return io::dump(out);
}

}  // namespace

int batch_command(int argc, char** argv) {
    static const char kUsage[] = "usage: vramcalc batch FILE.jsonl [--solve]   (FILE may be - for standard input)\n";
    const char* path = nullptr;
    bool with_solve = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--solve") == 0) with_solve = true;
        else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return std::printf("%s", kUsage), 0;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            std::fprintf(stderr, "vramcalc: batch: unknown option %s\n%s", argv[i], kUsage);
            return 2;
        } else if (!path) path = argv[i];
        else {
            std::fprintf(stderr, "vramcalc: batch takes one FILE, got also \"%s\"\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    std::ifstream file;
    std::istream* in = &std::cin;
    if (std::strcmp(path, "-") != 0) {
        file.open(path);
        if (!file) {
            std::fprintf(stderr, "vramcalc: cannot read %s\n", path);
            return 1;
        }
        in = &file;
    }
    std::string line;
    while (std::getline(*in, line)) {
        if (line.empty()) continue;
        std::printf("%s\n", batch_line(line, with_solve).c_str());
    }
    return 0;
}

}  // namespace vc::cli
