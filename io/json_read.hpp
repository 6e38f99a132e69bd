// vramcalc io: checked reads from a nlohmann::json object without exceptions. Each reader sets
// `err` (naming the dotted field path) and returns false on a wrong type; a missing key leaves
// the output untouched and returns true, so defaults stay.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.hpp"
#include "io/text_input.hpp"

namespace vc::io {

class ObjectReader {
public:
    // `prefix` is the path of this object ("" for the document, "model." for a section).
    // The object is read as it is now (it must not change while read).
    ObjectReader(const nlohmann::json& obj, std::string prefix);

    bool ok() const { return ok_; }
    const Error& error() const { return err_; }
    bool has(const char* key) const { return get(key) != nullptr; }
    // The member's value, or nullptr when absent or null (one lookup: a config read asks every
    // field of a section).
    const nlohmann::json* get(const char* key) const;
    const nlohmann::json& at(const char* key) const { return obj_.at(key); }
    // An empty key (`{"": 1}`) is named `""`, so an error about it still names a field.
    std::string path(const char* key) const { return prefix_ + (*key ? key : "\"\""); }

    // Each returns *this-state: false once any read failed (later reads are skipped).
    bool number(const char* key, double& out);
    bool integer(const char* key, int& out);   // a whole number that fits an int
    bool boolean(const char* key, bool& out);
    // A text field: valid UTF-8 of at most max_bytes (io/text_input.hpp), checked before the copy.
    bool string(const char* key, std::string& out, std::size_t max_bytes = kMaxTextFieldBytes);
    // Every key of the object must be in `allowed`.
    bool only_keys(std::initializer_list<const char*> allowed);
    bool only_keys(const std::vector<const char*>& allowed);
    // Records a failure for `key` with `message` (for enum names and cross-field rules).
    bool fail(const char* key, const std::string& message);
    // Records `e` as it is: an inner object's error, whose field is already its whole path.
    bool fail_with(const Error& e);

private:
    template <typename List>
    bool only(const List& allowed);
    const nlohmann::json& obj_;
    // The first bytes of the members' names (a 256-bit set; an empty name's is 0): a config read asks
    // for every field of a section, a few are given (issue 15: the searches were a tenth of the read).
    std::uint64_t first_[4] = {};
    std::string prefix_;
    bool ok_ = true;
    Error err_{};
};

}  // namespace vc::io
