// vramcalc core: compact number formatting for formulas.
#include "core/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/status.hpp"

namespace vc {

namespace {

// printf's "%.4g" of v, 1e7 <= |v| < 2^63, in num's form ("1.606e10"), from the digits of its
// integer part: four significant digits, the rest rounded half to even as printf rounds the exact
// value (a fraction breaks a tie upward). Most large figures of an estimate (bytes, FLOPs) come
// here; snprintf was a tenth of an estimate's time in WebAssembly.
std::string large_4g(double v) {
    const double a = std::fabs(v), whole = std::trunc(a);
    char d[24] = {};  // zeroed, or GCC 12 -O3 warns -Wmaybe-uninitialized (to_chars writes 8+ digits)
    const auto r = std::to_chars(d, d + sizeof d, static_cast<unsigned long long>(whole));
    const int n = static_cast<int>(r.ptr - d);  // 8 digits or more
    int exp10 = n - 1;
    bool up = d[4] > '5';
    if (d[4] == '5') {
        bool above_half = a != whole;  // the fraction
        for (int i = 5; i < n && !above_half; ++i) above_half = d[i] != '0';
        up = above_half || (d[3] - '0') % 2 == 1;  // exactly half: to the even digit
    }
    if (up) {
        int i = 3;
        for (; i >= 0 && d[i] == '9'; --i) d[i] = '0';
        if (i >= 0) ++d[i];
        else d[0] = '1', ++exp10;  // 9999.5 -> 1000 x 10
    }
    int last = 3;  // trailing zeros go, and the point with them
    while (last > 0 && d[last] == '0') --last;
    char buf[32];
    char* out = buf;
    if (v < 0) *out++ = '-';
    *out++ = d[0];
    if (last > 0) {
        *out++ = '.';
        for (int i = 1; i <= last; ++i) *out++ = d[i];
    }
    *out++ = 'e';
    out = std::to_chars(out, buf + sizeof buf, exp10).ptr;
    return std::string(buf, out);
}

}  // namespace

std::string num(double v) {
    char buf[64];
    if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : "inf";
    double a = std::fabs(v);
    if (a >= 1e7 && a < 9.2e18) return large_4g(v);
    if (a >= 1e7 || (a > 0 && a < 1e-4)) {
        std::snprintf(buf, sizeof buf, "%.4g", v);
        // "7e+09" -> "7e9": the exponent without its "+" and leading zeros (in place)
        char* e = std::strchr(buf, 'e');
        if (!e) return buf;
        char* out = e + 1;
        const char* ex = out;
        if (*ex == '-') *out++ = '-';
        if (*ex == '+' || *ex == '-') ++ex;
        while (ex[0] == '0' && ex[1] != '\0') ++ex;
        while (*ex) *out++ = *ex++;
        return std::string(buf, out);
    }
    long long whole = 0;
    if (std::floor(v) == v && to_int_checked(v, whole)) {
        // NOTE: integers below 1e7 are the common case (batch, seq, bytes); to_chars is exact and
        // several times faster than printf's "%.0f" (an estimate formats a dozen numbers).
        auto r = std::to_chars(buf, buf + sizeof buf, whole);
        return std::string(buf, r.ptr);
    }
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string group_thousands(const std::string& s) {
    if (s.empty()) return s;
    const size_t start = s[0] == '-' ? 1 : 0;
    size_t end = s.find('.');
    if (end == std::string::npos) end = s.size();
    std::string out = s.substr(0, start);
    for (size_t i = start; i < end; ++i) {
        if (i != start && (end - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out + s.substr(end);
}

std::string int_text(double v) {
    long long n = 0;
    return to_int_checked(v, n) ? std::to_string(n) : num(v);
}

std::string count_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return group_thousands(buf);
}

std::string ascii_lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

bool reads_as_one(double n) { return std::isfinite(n) && std::nearbyint(n) == 1; }

std::string noun_for(double n, const std::string& plural) {
    if (!reads_as_one(n)) return plural;
    const size_t slash = plural.find('/');
    const size_t end = slash == std::string::npos ? plural.size() : slash;
    std::string word = plural.substr(0, end);
    auto ends = [&](const char* tail) {
        const size_t k = std::strlen(tail);
        return word.size() > k && word.compare(word.size() - k, k, tail) == 0;
    };
    if (word.size() <= 2) return plural;  // a symbol ("s", "us", "ms"), not a noun
    if (ends("ches") || ends("shes") || ends("xes") || ends("sses")) word.resize(word.size() - 2);
    else if (ends("s")) word.resize(word.size() - 1);
    return word + plural.substr(end);
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cur = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
            prev = cur;
        }
    }
    return row[b.size()];
}

// Whether `name` holds `part` (4 bytes or more) from one of its word starts (after '-', '.' or '_') to
// a word end: "m2-max-32gb" in "apple-m2-max-32gb", "lora.rank" in "training.lora.rank".
bool contains_part(const std::string& name, const std::string& part) {
    if (part.size() < 4) return false;
    const auto boundary = [](char c) { return c == '-' || c == '.' || c == '_'; };
    for (size_t at = name.find(part); at != std::string::npos; at = name.find(part, at + 1)) {
        const size_t end = at + part.size();
        if ((at == 0 || boundary(name[at - 1])) && (end == name.size() || boundary(name[end]))) return true;
    }
    return false;
}

std::vector<std::string> nearest_names(const std::string& typed, const std::vector<std::string>& names, size_t most) {
    const std::string t = ascii_lower(typed);
    const size_t limit = std::max<size_t>(3, t.size() / 3 + 1);  // only names under this many edits
    size_t fewest = limit;
    std::vector<std::string> out;
    for (const auto& name : names) {
        const std::string n = ascii_lower(name);
        const size_t d = (t.size() >= 3 && n.rfind(t, 0) == 0) || contains_part(n, t) ? 1 : edit_distance(t, n);
        if (d >= limit) continue;
        if (d < fewest) fewest = d, out.clear();  // nearer than all so far: they go
        if (d == fewest && out.size() < most) out.push_back(name);
    }
    return out;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& names) {
#ifdef VRAMCALC_PAGE_BUILD
    // The page's build (web/web.cmake) names no ids: its preset and GPU come from lists, and its
    // download has a budget (tests/browser/size.test.mjs); the CLI, JSON and the JS library do.
    (void)typed, (void)names;
    return std::string();
#else
    const std::vector<std::string> near = nearest_names(typed, names);
    if (near.empty()) return std::string();
    std::string s = "; did you mean ";
    for (size_t i = 0; i < near.size(); ++i) s += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + near[i];
    return s + "?";
#endif
}

}  // namespace vc
