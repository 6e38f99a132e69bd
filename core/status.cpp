// vramcalc core: range checks that produce Error values.
#include "core/status.hpp"

#include <cstdio>

namespace vc {
namespace {

std::string fmt_num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// " tokens" after a range, or nothing for a unitless field.
std::string unit_suffix(const char* unit) { return unit && *unit ? std::string(" ") + unit : std::string(); }

std::string fmt_int(long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld", v);
    return buf;
}

}  // namespace

bool check_range(const char* field, double v, double lo, double hi, Error& err, const char* unit) {
    if (std::isfinite(v) && v >= lo && v <= hi) return true;
    err = Error{field, std::string(field) + " must be a number in [" + fmt_num(lo) + ", " + fmt_num(hi) + "]" +
                           unit_suffix(unit) + ", got " + (std::isfinite(v) ? fmt_num(v) : std::string(std::isnan(v) ? "NaN" : "infinity"))};
    err.has_value = true;
    err.value = v;
    return false;
}

bool check_positive(const char* field, double v, double hi, Error& err, const char* unit) {
    if (std::isfinite(v) && v > 0 && v <= hi) return true;
    err = Error{field, std::string(field) + " must be a number greater than 0 and at most " + fmt_num(hi) + unit_suffix(unit) + ", got " +
                           (std::isfinite(v) ? fmt_num(v) : std::string(std::isnan(v) ? "NaN" : "infinity"))};
    err.has_value = true;
    err.value = v;
    return false;
}

bool check_int_range(const char* field, double v, long long lo, long long hi, Error& err, const char* unit) {
    if (std::isfinite(v) && v >= static_cast<double>(lo) && v <= static_cast<double>(hi) && std::floor(v) == v) return true;
    err = Error{field, std::string(field) + " must be a whole number in [" + fmt_int(lo) + ", " + fmt_int(hi) + "]" + unit_suffix(unit) + ", got " +
                           (std::isfinite(v) ? fmt_num(v) : std::string(std::isnan(v) ? "NaN" : "infinity"))};
    err.has_value = true;
    err.value = v;
    return false;
}

}  // namespace vc
