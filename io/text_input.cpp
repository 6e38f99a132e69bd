// vramcalc io: checked text input (see text_input.hpp).
#include "text_input.hpp"

namespace vc::io {

namespace {

// The length of the well-formed UTF-8 sequence at s[0..n), or 0 when it is not one (RFC 3629:
// no overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF).
std::size_t sequence_length(const unsigned char* s, std::size_t n) {
    const unsigned char c = s[0];
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) len = 3, lo = 0xA0;
    else if (c == 0xED) len = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) len = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) len = 4, hi = 0x8F;
    else return 0;
    if (n < len) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (std::size_t i = 2; i < len; ++i)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

}  // namespace

bool valid_utf8(const char* s, std::size_t n) {
    const auto* p = reinterpret_cast<const unsigned char*>(s);
    for (std::size_t i = 0; i < n;) {
        const std::size_t len = sequence_length(p + i, n - i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

bool check_text(const std::string& field, const char* s, std::size_t n, std::size_t max_bytes, Error& err) {
    if (n > max_bytes) {
        err = Error{field, field + " must be at most " + std::to_string(max_bytes) + " bytes of text, got " + std::to_string(n)};
        return false;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7F) {
            err = Error{field, field + " must be one line of text (it holds a control character, code " + std::to_string(c) + ")"};
            return false;
        }
    }
    if (!valid_utf8(s, n)) {
        err = Error{field, field + " must be valid UTF-8 text (it holds a byte sequence that is not a character)"};
        return false;
    }
    return true;
}

std::string quoted_excerpt(const std::string& s) { return safe_excerpt(s, kMaxQuotedBytes); }

std::string safe_excerpt(const std::string& s, std::size_t max_bytes) {
    std::string out;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = sequence_length(p + i, s.size() - i);
        if (out.size() + (len ? len : 3) > max_bytes) return out + "...";
        if (len == 0 || p[i] < 0x20 || p[i] == 0x7F) {
            out += "\xEF\xBF\xBD";  // U+FFFD
            i += 1;
        } else {
            out.append(s, i, len);
            i += len;
        }
    }
    return out;
}

}  // namespace vc::io
