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

// Printed figures carry no NaN, Inf or wrapped integer: "nan"/"inf"/"infinity" (any case) as printf
// writes a non-finite number, i.e. standing alone after a space, a sign or the start, and before a
// space, "%", "," or ")" or the end ("-nan%", "inf GB"). Words such as "inference" pass, and so
// does user text quoted in a message ("got \"inf\"").
inline bool clean_numbers(const std::string& s) {
    for (const char* bad : {"-2147483648", "-9223372036854775808"})
        if (s.find(bad) != std::string::npos) return false;
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    for (size_t i = 0; i < s.size(); ++i) {
        if (i > 0 && !(s[i - 1] == ' ' || s[i - 1] == '+' || s[i - 1] == '-')) continue;
        for (const char* word : {"infinity", "nan", "inf"}) {
            const size_t n = std::char_traits<char>::length(word);
            if (i + n > s.size()) continue;
            bool same = true;
            for (size_t k = 0; k < n; ++k) same = same && lower(s[i + k]) == word[k];
            if (!same) continue;
            const char next = i + n < s.size() ? s[i + n] : ' ';
            if (next == ' ' || next == '%' || next == ',' || next == ')' || next == '\n') return false;
        }
    }
    return true;
}

}  // namespace vc::fuzz

#define FUZZ_CHECK(cond, what)                                                     \
    do {                                                                           \
        if (!(cond)) ::vc::fuzz::fail(__FILE__, __LINE__, std::string(what));     \
    } while (0)
