// vramcalc io: the streaming JSON writer (json_writer.hpp). nlohmann's serializer's layout and
// escaping, with the shortest round-trip numbers: tests/unit/test_json_writer.cpp compares the two.
#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <nlohmann/json.hpp>

namespace vc::io {

void JsonWriter::newline(size_t depth) {
    const size_t n = depth * static_cast<size_t>(indent_);
    char* at = room(n + 1);
    at[0] = '\n';
    std::memset(at + 1, ' ', n);
}

void JsonWriter::element() {
    if (after_key_) {  // the value of the member whose name was just written
        after_key_ = false;
        return;
    }
    if (count_.empty()) return;
    if (count_.back()++ > 0) put(',');
    if (indent_ >= 0) newline(count_.size());
}

void JsonWriter::open(char c) {
    element();
    put(c);
    count_.push_back(0);
}

void JsonWriter::close(char c) {
    const unsigned n = count_.back();
    count_.pop_back();
    // An empty container is "{}" / "[]" in both forms, as nlohmann writes it.
    if (n > 0 && indent_ >= 0) newline(count_.size());
    put(c);
}

void JsonWriter::key(std::string_view k) {
    element();
    string(k);
    if (indent_ >= 0) put(": ", 2);
    else put(':');
    after_key_ = true;
}

void JsonWriter::value(std::string_view s) {
    element();
    string(s);
}

void JsonWriter::value(double x) {
    element();
    if (!std::isfinite(x)) {
        put("null", 4);
        return;
    }
    char buf[24];
    // A whole number below 10^15 (most byte counts): its shortest round-trip digits are its own (a
    // double below 2^53 holds every integer, so no shorter decimal lies within half an ulp), which
    // nlohmann writes as the integer and ".0" (format_buffer: up to digits10 = 15 digits). -0 is
    // "-0.0" there: left to it.
    if (x == std::trunc(x) && std::fabs(x) < 1e15 && x != 0) {
        const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(x));
        r.ptr[0] = '.', r.ptr[1] = '0';
        put(buf, static_cast<size_t>(r.ptr + 2 - buf));
        return;
    }
    number(x);
}

namespace {

constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Whether the decimal m x 10^e reads back as x (what strtod, JSON.parse and nlohmann's parser give:
// the nearest double, ties to even). Exact by IEEE arithmetic where m and 10^|e| are doubles
// (m < 2^53, |e| <= 22: one correctly rounded multiply or divide, Clinger 1990); strtod otherwise.
bool reads_back(std::uint64_t m, int e, double x) {
    if (m < (std::uint64_t{1} << 53) && e >= -22 && e <= 22)
        return (e >= 0 ? static_cast<double>(m) * kPow10[e] : static_cast<double>(m) / kPow10[-e]) == x;
    char text[48];
    std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(m), e);
    return std::strtod(text, nullptr) == x;
}

}  // namespace

size_t shortest_double(char* buf, double x) {
    char* at = buf;
    if (std::signbit(x)) {
        *at++ = '-';
        x = -x;
    }
    if (x == 0) {
        std::memcpy(at, "0.0", 3);
        return static_cast<size_t>(at + 3 - buf);
    }
    // grisu2 (nlohmann's, x = digits x 10^e) reads back, but is a digit longer than it needs in about 1
    // double of 2,000 (12594211843.881321 for 12594211843.88132). A decimal of one digit less that
    // reads back lies within one unit in the last place of x from grisu2's: it is q (grisu2's digits
    // with the last dropped), q + 1, or, with 16 digits, where that spacing is down to 0.45 of a unit in
    // the last place, up to q - 2 or q + 3. Each is tried; one that reads back is taken and the search
    // goes on, one digit less each time.
    int len = 0, e = 0;
    nlohmann::detail::dtoa_impl::grisu2(at, len, e, x);
    std::uint64_t m = 0;
    for (int i = 0; i < len; ++i) m = m * 10 + static_cast<unsigned>(at[i] - '0');
    bool shorter = false;
    for (int n = len; n > 1;) {
        const std::uint64_t q = m / 10;
        const int lo = n - 1 >= 16 ? -2 : 0, hi = n - 1 >= 16 ? 3 : 1;
        bool found = false;
        for (int j : {0, 1, -1, 2, -2, 3}) {
            if (j < lo || j > hi || (j < 0 && q <= static_cast<std::uint64_t>(-j))) continue;
            if (j == 0 && q == 0) continue;
            if (reads_back(q + j, e + 1, x)) {
                m = q + j, e += 1, found = shorter = true;
                break;
            }
        }
        if (!found) break;
        while (m % 10 == 0) m /= 10, ++e;
        n = 0;
        for (std::uint64_t t = m; t > 0; t /= 10) ++n;
    }
    if (shorter) {
        char digits[24];
        len = 0;
        for (std::uint64_t t = m; t > 0; t /= 10) digits[len++] = static_cast<char>('0' + t % 10);
        for (int i = 0; i < len; ++i) at[i] = digits[len - 1 - i];
    }
    // Laid out as nlohmann writes a double (to_chars: fixed from 1e-4 to below 1e15, "1.0" for a whole
    // number, else d.ddde+XX).
    char* end = nlohmann::detail::dtoa_impl::format_buffer(at, len, e, -4, std::numeric_limits<double>::digits10);
    return static_cast<size_t>(end - buf);
}

void JsonWriter::number(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    Written& w = written_[(bits ^ (bits >> 32)) % (sizeof written_ / sizeof written_[0])];
    if (w.bits == bits) {
        put(w.text, w.size);
        return;
    }
    char buf[64];
    const size_t n = shortest_double(buf, x);
    put(buf, n);
    if (n > sizeof w.text) return;
    w.bits = bits;
    w.size = static_cast<unsigned char>(n);
    std::memcpy(w.text, buf, n);
}

void JsonWriter::integer(long long x) {
    element();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    put(buf, static_cast<size_t>(r.ptr - buf));
}

void JsonWriter::value(unsigned long long x) {
    element();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    put(buf, static_cast<size_t>(r.ptr - buf));
}

void JsonWriter::value(bool b) {
    element();
    if (b) put("true", 4);
    else put("false", 5);
}

void JsonWriter::null() {
    element();
    put("null", 4);
}

namespace {

// Whether any of the 8 bytes in `w` needs escaping: below 0x20, from 0x80, '"' or '\\'. The tests
// of "Bit Twiddling Hacks" (haszero, hasless): a byte that matches is always found; a byte above
// one that matches may be flagged too, which only sends a plain string the slow, same-bytes way.
bool needs_escape(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const std::uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    const std::uint64_t control = (w - ones * 0x20) & ~w;  // a byte below 0x20
    const std::uint64_t is_quote = (quote - ones) & ~quote, is_backslash = (backslash - ones) & ~backslash;
    return ((control | is_quote | is_backslash | w) & highs) != 0;  // (w: a byte from 0x80)
}

// Copies n bytes, at most 16, with fixed-size moves the compiler inlines (most keys and short
// values: a memcpy call each was a tenth of the writer's time in WebAssembly). Two moves that may
// overlap cover every length of their range.
void copy_short(char* to, const char* from, size_t n) {
    if (n >= 8) {
        std::uint64_t a, b;
        std::memcpy(&a, from, 8);
        std::memcpy(&b, from + n - 8, 8);
        std::memcpy(to, &a, 8);
        std::memcpy(to + n - 8, &b, 8);
    } else if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, from, 4);
        std::memcpy(&b, from + n - 4, 4);
        std::memcpy(to, &a, 4);
        std::memcpy(to + n - 4, &b, 4);
    } else if (n > 0) {  // 1 to 3 bytes: the first, the middle and the last
        const char first = from[0], middle = from[n / 2], last = from[n - 1];
        to[0] = first, to[n / 2] = middle, to[n - 1] = last;
    }
}

}  // namespace

void JsonWriter::put(const char* s, size_t n) {
    char* at = room(n);
    if (n <= 16) copy_short(at, s, n);
    else std::memcpy(at, s, n);
}

void JsonWriter::plain_key(const char* k, size_t n) {
    element();
    char* at = room(n + 3);
    at[0] = '"';
    if (n <= 16) copy_short(at + 1, k, n);
    else std::memcpy(at + 1, k, n);
    at[n + 1] = '"';
    at[n + 2] = ':';
    if (indent_ >= 0) put(' ');
    after_key_ = true;
}

void JsonWriter::escaped(std::string_view s) {
    // UTF-8 (and an invalid byte to replace) through nlohmann's own escaping, so the bytes cannot
    // differ; ASCII here (issue 15: a note quoting a config value cost ~8,000 instructions there),
    // as its serializer escapes with ensure_ascii false (serializer.hpp, dump_escaped, v3.11.2):
    // the two-character escapes, \u00xx (lowercase hex) for the other bytes below 0x20, DEL as it is.
    for (const char c : s)
        if (static_cast<unsigned char>(c) >= 0x80) {
            const std::string text = nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            put(text.data(), text.size());
            return;
        }
    put('"');
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && c != '"' && c != '\\') {
            put(c);
            continue;
        }
        char* at = room(2);
        at[0] = '\\';
        switch (c) {
            case '"': at[1] = '"'; break;
            case '\\': at[1] = '\\'; break;
            case '\b': at[1] = 'b'; break;
            case '\t': at[1] = 't'; break;
            case '\n': at[1] = 'n'; break;
            case '\f': at[1] = 'f'; break;
            case '\r': at[1] = 'r'; break;
            default: {
                static const char hex[] = "0123456789abcdef";
                at[1] = 'u';
                char* d = room(4);
                d[0] = '0', d[1] = '0', d[2] = hex[u >> 4], d[3] = hex[u & 15];
            }
        }
    }
    put('"');
}

void JsonWriter::string(std::string_view s) {
    // Printable ASCII without quote or backslash goes as it is; anything else (escapes, UTF-8, an
    // invalid byte to replace) through nlohmann's own escaping, so the bytes cannot differ. Tested
    // 8 bytes at a time (a result's strings are ~5 KB), the last few padded with spaces.
    bool plain = true;
    size_t i = 0;
    for (; plain && i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        plain = !needs_escape(w);
    }
    if (plain && i < s.size()) {
        char tail[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
        copy_short(tail, s.data() + i, s.size() - i);
        std::uint64_t w;
        std::memcpy(&w, tail, 8);
        plain = !needs_escape(w);
    }
    if (!plain) {
        escaped(s);
        return;
    }
    char* at = room(s.size() + 2);
    at[0] = '"';
    if (s.size() <= 16) copy_short(at + 1, s.data(), s.size());
    else std::memcpy(at + 1, s.data(), s.size());
    at[s.size() + 1] = '"';
}

}  // namespace vc::io
