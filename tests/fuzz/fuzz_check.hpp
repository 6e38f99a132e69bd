// vramcalc fuzz harnesses: property checks shared by every harness (docs/fuzzing.md).
// FUZZ_CHECK(cond, what) aborts with `what` (and, under the replay main, the input's path) when a
// property fails, so libFuzzer records the input as a crash and ctest's replay fails.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace vc::fuzz {

// The corpus file being replayed ("" under libFuzzer, which names the input itself).
inline std::string& current_input() {
    static std::string path;
    return path;
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
    std::fprintf(stderr, "fuzz property failed at %s:%d: %s%s%s\n", file, line, what.c_str(),
                 current_input().empty() ? "" : "\n  input: ", current_input().c_str());
    std::fflush(stderr);
    std::abort();
}

// A figure a user sees: finite and not negative.
inline bool is_size(double v) { return std::isfinite(v) && v >= 0; }

// Text a user sees carries no "nan", "inf" or "infinity" word (any case; "inference" is fine) and
// no wrapped integer.
inline bool clean_text(const std::string& s) {
    for (const char* bad : {"-2147483648", "-9223372036854775808"})
        if (s.find(bad) != std::string::npos) return false;
    std::string word;
    for (size_t i = 0; i <= s.size(); ++i) {
        const char c = i < s.size() ? s[i] : ' ';
        if (std::isalpha(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            continue;
        }
        if (word == "nan" || word == "inf" || word == "infinity") return false;
        word.clear();
    }
    return true;
}

}  // namespace vc::fuzz

#define FUZZ_CHECK(cond, what)                                                     \
    do {                                                                           \
        if (!(cond)) ::vc::fuzz::fail(__FILE__, __LINE__, std::string(what));     \
    } while (0)
