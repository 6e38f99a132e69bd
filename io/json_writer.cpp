// vramcalc io: the streaming JSON writer (json_writer.hpp). Byte for byte what nlohmann's
// serializer writes: tests/unit/test_json_writer.cpp compares the two.
#include "json_writer.hpp"

#include <charconv>
#include <cmath>

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
    char buf[64];  // nlohmann's serializer's number buffer
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
    put(buf, static_cast<size_t>(end - buf));
}

void JsonWriter::integer(long long x) {
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

void JsonWriter::string(std::string_view s) {
    // Printable ASCII without quote or backslash goes as it is; anything else (escapes, UTF-8, an
    // invalid byte to replace) through nlohmann's own escaping, so the bytes cannot differ.
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
            const std::string escaped = nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            put(escaped.data(), escaped.size());
            return;
        }
    }
    char* at = room(s.size() + 2);
    at[0] = '"';
    std::memcpy(at + 1, s.data(), s.size());
    at[s.size() + 1] = '"';
}

}  // namespace vc::io
