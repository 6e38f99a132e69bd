// vramcalc io: checked JSON reads.
#include "json_read.hpp"

#include <cmath>
#include <cstring>

#include "core/fields.hpp"
#include "text_input.hpp"

namespace vc::io {

namespace {

// "seq must be a whole number in [1, 16777216] tokens, got a string": a value of the wrong JSON type
// for a field of the table with a range gets that range in the field's unit, as the engine's range
// checks word it; other keys keep the plain wording.
std::string not_a_number(const std::string& path, const nlohmann::json& v, const char* plain) {
    const FieldDef* f = find_any_field(path.c_str());
    const std::string range = f ? field_range_text(*f) : std::string();
    if (range.empty() || f->accepts) return path + plain;
    const bool whole = f->kind == FieldKind::Int || f->whole;
    // A string is named, not echoed: "NaN" or "inf" typed for a number never reads as a figure.
    const std::string got = v.is_string()    ? "a string"
                            : v.is_boolean() ? (v.get<bool>() ? "true" : "false")
                            : v.is_null()    ? "null"
                            : v.is_array()   ? "an array"
                                             : "an object";
    return path + (whole ? " must be a whole number in " : " must be a number in ") + range + ", got " + got;
}

}  // namespace

ObjectReader::ObjectReader(const nlohmann::json& obj, std::string prefix) : obj_(obj), prefix_(std::move(prefix)) {
    if (!obj_.is_object()) return;
    for (const auto& member : obj_.get_ref<const nlohmann::json::object_t&>()) {
        const auto c = static_cast<unsigned char>(member.first.c_str()[0]);
        first_[c >> 6] |= std::uint64_t{1} << (c & 63);
    }
}

const nlohmann::json* ObjectReader::get(const char* key) const {
    const auto c = static_cast<unsigned char>(key[0]);
    if (!((first_[c >> 6] >> (c & 63)) & 1)) return nullptr;  // no member's name starts with this byte (most fields are not given)
    const auto it = obj_.find(std::string_view(key));  // (a const char* key would be measured at each comparison)
    return it == obj_.end() || it->is_null() ? nullptr : &*it;
}

bool ObjectReader::fail(const char* key, const std::string& message) {
    if (ok_) err_ = Error{path(key), message};
    ok_ = false;
    return false;
}

bool ObjectReader::fail_with(const Error& e) {
    if (ok_) err_ = e;
    ok_ = false;
    return false;
}

bool ObjectReader::number(const char* key, double& out) {
    if (!ok_) return false;
    const nlohmann::json* found = get(key);
    if (!found) return true;
    const auto& v = *found;
    if (!v.is_number()) return fail(key, not_a_number(path(key), v, " must be a number"));
    double d = v.get<double>();
    if (!std::isfinite(d)) return fail(key, path(key) + " must be a finite number");
    out = d;
    return true;
}

bool ObjectReader::integer(const char* key, int& out) {
    if (!ok_) return false;
    const nlohmann::json* found = get(key);
    if (!found) return true;
    const auto& v = *found;
    if (!v.is_number()) return fail(key, not_a_number(path(key), v, " must be a whole number"));
    double d = v.get<double>();
    int n = 0;
    if (std::floor(d) != d || d < -2147483647.0 || !to_int_checked(d, n))
        return fail(key, path(key) + " must be a whole number in [-2147483647, 2147483647]");
    out = n;
    return true;
}

bool ObjectReader::boolean(const char* key, bool& out) {
    if (!ok_) return false;
    const nlohmann::json* found = get(key);
    if (!found) return true;
    const auto& v = *found;
    if (!v.is_boolean()) return fail(key, path(key) + " must be true or false");
    out = v.get<bool>();
    return true;
}

bool ObjectReader::string(const char* key, std::string& out, std::size_t max_bytes) {
    if (!ok_) return false;
    const nlohmann::json* found = get(key);
    if (!found) return true;
    const auto& v = *found;
    if (!v.is_string()) return fail(key, path(key) + " must be a string");
    // Checked in place, before the copy: a link or message can carry any bytes.
    const std::string& text = v.get_ref<const std::string&>();
    Error e;
    if (!check_text(path(key), text, max_bytes, e)) return fail(key, e.message);
    out = text;
    return true;
}

namespace {

// `key` (any bytes, a NUL among them) is `name`; compared up to the first difference.
bool same_key(const std::string& key, const char* name) {
    for (size_t i = 0; i < key.size(); ++i)
        if (name[i] != key[i] || name[i] == '\0') return false;
    return name[key.size()] == '\0';
}

}  // namespace

template <typename List>
bool ObjectReader::only(const List& allowed) {
    if (!ok_) return false;
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        bool known = false;
        for (const char* a : allowed)
            if (same_key(it.key(), a)) {
                known = true;
                break;
            }
        if (!known) {
            // Any bytes (a link's key), or none: an error always names a field.
            const std::string name = it.key().empty() ? "\"\"" : quoted_excerpt(it.key());
            std::string list;
            for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            return fail(name.c_str(), "unknown field " + path(name.c_str()) + " (accepted: " + list + ")");
        }
    }
    return true;
}

bool ObjectReader::only_keys(std::initializer_list<const char*> allowed) { return only(allowed); }
bool ObjectReader::only_keys(const std::vector<const char*>& allowed) { return only(allowed); }

}  // namespace vc::io
