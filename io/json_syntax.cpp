#include "io/json_syntax.hpp"

#include <cstring>

#include <nlohmann/json.hpp>

#include "io/text_input.hpp"

namespace vc::io {

#ifndef VRAMCALC_PAGE_BUILD
namespace {

// Longest syntax message, in bytes: nlohmann's own text is under 160; the rest is the token quoted.
constexpr std::size_t kMaxSyntaxMessageBytes = 240;

using json = nlohmann::json;

// Accepts every value and keeps the first parse error; nothing is built.
struct SyntaxProbe final : nlohmann::json_sax<json> {
    std::string what;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        what = ex.what();
        return false;
    }
};

}  // namespace
#endif

std::string json_syntax_error(const std::string& text) {
#ifdef VRAMCALC_PAGE_BUILD
    // The page reads JSON text only from a pasted config.json: its message names no position, and the
    // page is 1.1 KB gzip smaller without a second nlohmann parser (docs/performance.md).
    (void)text;
    return {};
#else
    SyntaxProbe probe;
    if (json::sax_parse(text, &probe) || probe.what.empty()) return {};
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ...": the
    // part from "line" on.
    std::string s = probe.what;
    const std::size_t at = s.find(" at line ");
    if (at != std::string::npos) s.erase(0, at + std::strlen(" at "));
    else if (s.rfind("[json.exception.", 0) == 0 && s.find("] ") != std::string::npos) s.erase(0, s.find("] ") + 2);
    // The lexer quotes the token it stopped at as read (a long string, invalid UTF-8): cut and cleaned.
    return safe_excerpt(s, kMaxSyntaxMessageBytes);
#endif
}

std::string json_syntax_suffix(const std::string& text) {
    const std::string where = json_syntax_error(text);
    return where.empty() ? std::string() : ": " + where;
}

std::string not_json_message(const std::string& what, const std::string& text) { return what + " is not valid JSON" + json_syntax_suffix(text); }

}  // namespace vc::io
