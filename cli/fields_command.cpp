// vramcalc CLI: `vramcalc fields`, the config field table (core/fields.hpp) as text.
//   vramcalc fields [--format json|md|ts] [--section PATH]   print the table (json), a section's
//                                                             Markdown table, or the .d.ts types
//   vramcalc fields --update FILE...   rewrite the generated blocks of FILE (docs/config.md, the .d.ts)
//   vramcalc fields --check FILE...    exit 1 when a generated block differs (ctest fields_generated)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../io/config_json.hpp"
#include "../io/fields_doc.hpp"

namespace vc::cli {

int fields_command(int argc, char** argv) {
    std::string format = "json", section, mode;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--format" || a == "--section") && i + 1 < argc) (a == "--format" ? format : section) = argv[++i];
        else if (a == "--update" || a == "--check") mode = a;
        else if (!a.empty() && a[0] != '-') files.push_back(a);
        else {
            std::fprintf(stderr, "vramcalc fields: unknown option %s\nusage: vramcalc fields [--format json|md|ts] [--section PATH] | --update|--check FILE...\n", a.c_str());
            return 2;
        }
    }
    if (mode.empty()) {
        if (format == "json") return std::printf("%s\n", io::dump(io::fields_json(), 2).c_str()), 0;
        std::string out;
        if (!io::generated_block(format, format == "md" ? (section.empty() ? "." : section) : section, out)) {
            std::fprintf(stderr, "vramcalc fields: no %s output for section \"%s\"\n", format.c_str(), section.c_str());
            return 2;
        }
        return std::fputs(out.c_str(), stdout), 0;
    }
    int rc = 0;
    for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        if (!in) return std::fprintf(stderr, "vramcalc fields: cannot read %s\n", path.c_str()), 2;
        std::ostringstream ss;
        ss << in.rdbuf();
        std::string text = ss.str(), changed, error;
        if (!io::regenerate(text, changed, error)) return std::fprintf(stderr, "vramcalc fields: %s: %s\n", path.c_str(), error.c_str()), 2;
        if (changed.empty()) continue;
        if (mode == "--check") {
            std::fprintf(stderr, "vramcalc fields: %s: the generated block \"%s\" differs from the field table (core/fields.cpp); "
                                 "run vramcalc fields --update %s\n", path.c_str(), changed.c_str(), path.c_str());
            rc = 1;
        } else {
            std::ofstream(path, std::ios::binary) << text;
            std::printf("updated %s\n", path.c_str());
        }
    }
    return rc;
}

}  // namespace vc::cli
