// vramcalc shell state: numbers for display (see format.hpp).
#include "format.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/text.hpp"
#include "core/units.hpp"

namespace vc::shell {

std::string format_size_value(double bytes, bool gib) {
    if (!std::isfinite(bytes)) return "-";
    const double v = gib ? bytes_to_gib(bytes) : bytes_to_gb(bytes);
    const double a = std::fabs(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, a < 999.995 ? "%.2f" : a < 9999.95 ? "%.1f" : "%.0f", v);
    return group_thousands(buf);
}

std::string format_size(double bytes, bool gib) { return format_size_value(bytes, gib) + " " + unit_label(gib); }

std::string format_exact_bytes(double bytes) {
    if (!std::isfinite(bytes)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", bytes);
    return group_thousands(buf) + " bytes";
}

std::string format_count(double v) {
    if (!std::isfinite(v)) return "-";
    char buf[64];
    if (std::fabs(v) < 1e15 && v == std::floor(v)) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return group_thousands(buf);
    }
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string format_percent(double share) {
    if (!std::isfinite(share)) return "-";
    char buf[32];
    // (a share far past 100%, e.g. a refused input, in a few digits: "1e+30%")
    std::snprintf(buf, sizeof buf, std::fabs(share) < 1e4 ? "%.1f%%" : "%.3g%%", share * 100);
    return buf;
}

std::string format_value(double v, const std::string& unit, bool gib) {
    if (unit == "bytes") return format_size(v, gib);
    char buf[64];
    if (unit == "s") {
        if (std::fabs(v) < 1) std::snprintf(buf, sizeof buf, "%.1f ms", v * 1000);
        else std::snprintf(buf, sizeof buf, "%.2f s", v);
        return buf;
    }
    if (unit == "tokens/s") {
        std::snprintf(buf, sizeof buf, v < 100 ? "%.1f" : "%.0f", v);
        return (v < 100 ? std::string(buf) : format_count(std::round(v))) + " tokens/s";
    }
    if (unit == "x") {  // a speed-up: "2.07x"
        std::snprintf(buf, sizeof buf, "%.2fx", v);
        return buf;
    }
    if (unit == "count" || unit.empty()) return format_count(v);
    if (unit == "share" || unit == "fraction") return format_percent(v);
    // "1 GPU", "1 sequence", "1 GPU/replica": a plural unit for one of it reads singular.
    return format_count(v) + " " + noun_for(v, unit);
}

std::string format_price_per_hour(double usd) {
    char buf[48];
    std::snprintf(buf, sizeof buf, usd < 100 ? "$%.2f/h" : "$%.0f/h", usd);
    return buf;
}

std::string sizes_in_unit(const std::string& text, bool gib) {
    std::string out;
    size_t i = 0;
    auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
    auto word_char = [&](size_t k) { return k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_'); };
    while (i < text.size()) {
        // A number starts at a digit that does not continue a word or another number ("x2", "1e9").
        if (!digit(i) || (i > 0 && (word_char(i - 1) || text[i - 1] == '.' || text[i - 1] == ','))) {
            out += text[i++];
            continue;
        }
        size_t j = i;
        std::string plain;
        while (digit(j) || (text[j] == ',' && digit(j + 1)) || (text[j] == '.' && digit(j + 1))) {
            if (text[j] != ',') plain += text[j];
            ++j;
        }
        const bool gb_unit = text.compare(j, 3, " GB") == 0 && !word_char(j + 3);
        const bool gib_unit = text.compare(j, 4, " GiB") == 0 && !word_char(j + 4);
        if (!gb_unit && !gib_unit) {
            out.append(text, i, j - i);
            i = j;
            continue;
        }
        const double bytes = std::strtod(plain.c_str(), nullptr) * (gib_unit ? kBytesPerGiB : kBytesPerGB);
        out += format_size(bytes, gib);
        i = j + (gib_unit ? 4 : 3);
    }
    return out;
}

std::string with_typed_value(const std::string& message, double typed) {
    const size_t at = message.rfind(", got ");
    if (at == std::string::npos) return message;
    char buf[48];
    if (std::isnan(typed)) std::snprintf(buf, sizeof buf, "not a number");
    else if (std::isinf(typed)) std::snprintf(buf, sizeof buf, typed > 0 ? "infinity" : "-infinity");
    else std::snprintf(buf, sizeof buf, "%.6g", typed);
    return message.substr(0, at) + ", got " + buf;
}

}  // namespace vc::shell
