// vramcalc io: enum <-> name through the spellings core/fields.cpp declares (one table per enum,
// the first entry of a value is the name written back). Shared by the section readers.
#pragma once

#include <string>

#include "core/fields.hpp"
#include "json_read.hpp"

namespace vc::io {

template <typename E>
bool lookup(const EnumNames& table, const std::string& s, E& out) {
    int v = 0;
    if (!enum_value(table, s, v)) return false;
    out = static_cast<E>(v);
    return true;
}

template <typename E>
const char* name_of(const EnumNames& table, E v) {
    return enum_name(table, static_cast<int>(v));
}

// Reads an enum-valued string field through `table`; the message lists the listed spellings.
template <typename E>
bool read_enum(ObjectReader& r, const char* key, const EnumNames& table, E& out) {
    std::string s;
    if (!r.string(key, s)) return false;
    if (!r.has(key)) return true;
    if (!lookup(table, s, out)) return r.fail(key, r.path(key) + " must be one of " + enum_choices(table) + ", got \"" + s + "\"");
    return true;
}

}  // namespace vc::io
