// vramcalc core: errors as values. Nothing in core/ throws: the WebAssembly build has exceptions
// off, so every failure is an Error that names the field and the rule it broke.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace vc {

struct Error {
    std::string field;    // dotted config path, e.g. "batch" or "parallel.tp"
    std::string message;  // the rule, with the accepted range, e.g. "must be an integer in [1, 65536]"
    // The number a range check refused (check_range and its siblings set it), so a front end that
    // shows the field in another unit (a share as %) can word the message in that unit.
    bool has_value = false;
    double value = 0;
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
// `unit` (the field table's, e.g. "tokens") follows the range in the message: "seq must be a whole
// number in [1, 16777216] tokens, got 0".
bool check_range(const char* field, double v, double lo, double hi, Error& err, const char* unit = "");      // finite, lo <= v <= hi
bool check_positive(const char* field, double v, double hi, Error& err, const char* unit = "");               // finite, 0 < v <= hi
bool check_int_range(const char* field, double v, long long lo, long long hi, Error& err, const char* unit = "");  // integral, lo..hi

inline bool all_finite(double v) { return std::isfinite(v); }

// The one double -> integer conversion. Converting a double outside the integer's range (or NaN)
// is undefined behaviour in C++, and native and WebAssembly builds then disagree, so every
// conversion in core/, io/, shell/ and cli/ goes through these: the range is checked first.
// True when `v` is finite and its integer part fits Int: `out` gets it (truncated toward zero).
template <typename Int>
bool to_int_checked(double v, Int& out) {
    static_assert(std::numeric_limits<Int>::is_integer, "to_int_checked converts to an integer type");
    // Both bounds are powers of two (or 0), exact as doubles: [min, max + 1).
    constexpr double lo = static_cast<double>(std::numeric_limits<Int>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<Int>::max() / 2 + 1) * 2.0;
    if (!(v >= lo && v < hi)) return false;  // also false for NaN
    out = static_cast<Int>(v);
    return true;
}
// `v` truncated toward zero and clamped to [lo, hi] (NaN gives lo): for counts whose huge values
// all mean the same thing (a GPU count past any cluster, a pixel size).
template <typename Int>
Int to_int_saturated(double v, Int lo = std::numeric_limits<Int>::min(), Int hi = std::numeric_limits<Int>::max()) {
    if (std::isnan(v) || v <= static_cast<double>(lo)) return lo;
    if (v >= static_cast<double>(hi)) return hi;
    Int out = lo;
    return to_int_checked(v, out) ? (out < lo ? lo : out > hi ? hi : out) : lo;
}

}  // namespace vc
