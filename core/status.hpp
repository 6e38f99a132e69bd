// vramcalc core: errors as values. Nothing in core/ throws: the WebAssembly build has exceptions
// off, so every failure is an Error that names the field and the rule it broke.
#pragma once

#include <cmath>
#include <string>
#include <utility>

namespace vc {

struct Error {
    std::string field;    // dotted config path, e.g. "batch" or "parallel.tp"
    std::string message;  // the rule, with the accepted range, e.g. "must be an integer in [1, 65536]"
};

// A value or an Error. Read `ok` first; `value` is default-constructed on failure.
template <typename T>
struct Outcome {
    bool ok = false;
    T value{};
    Error error{};

    static Outcome success(T v) { return Outcome{true, std::move(v), {}}; }
    static Outcome failure(std::string field, std::string message) {
        return Outcome{false, T{}, Error{std::move(field), std::move(message)}};
    }
    static Outcome failure(Error e) { return Outcome{false, T{}, std::move(e)}; }
};

// Range checks shared by every method. Each returns true when `v` is acceptable and otherwise
// fills `err` with a message naming `field` and the range.
bool check_range(const char* field, double v, double lo, double hi, Error& err);      // finite, lo <= v <= hi
bool check_positive(const char* field, double v, double hi, Error& err);               // finite, 0 < v <= hi
bool check_int_range(const char* field, double v, long long lo, long long hi, Error& err);  // integral, lo..hi

inline bool all_finite(double v) { return std::isfinite(v); }

}  // namespace vc
