// vramcalc io: name <-> enum tables for the JSON config (one table per enum, the first entry is
// the name written back). Shared by io/config_json.cpp and the section readers.
#pragma once

#include <cstddef>
#include <string>

#include "json_read.hpp"

namespace vc::io {

template <typename E>
struct Name {
    const char* name;
    E value;
};

template <typename E, size_t N>
bool lookup(const Name<E> (&table)[N], const std::string& s, E& out) {
    for (const auto& n : table)
        if (s == n.name) {
            out = n.value;
            return true;
        }
    return false;
}

template <typename E, size_t N>
const char* name_of(const Name<E> (&table)[N], E v) {
    for (const auto& n : table)
        if (n.value == v) return n.name;
    return table[0].name;
}

template <typename E, size_t N>
std::string choices(const Name<E> (&table)[N]) {
    std::string s;
    for (const auto& n : table) s += (s.empty() ? "" : ", ") + std::string(n.name);
    return s;
}

// Reads an enum-valued string field through `table`.
template <typename E, size_t N>
bool read_enum(ObjectReader& r, const char* key, const Name<E> (&table)[N], E& out) {
    std::string s;
    if (!r.string(key, s)) return false;
    if (!r.has(key)) return true;
    if (!lookup(table, s, out)) return r.fail(key, r.path(key) + " must be one of " + choices(table) + ", got \"" + s + "\"");
    return true;
}

}  // namespace vc::io
