// vramcalc io: the one checked path for text that comes from outside (a config document, a link,
// a CLI flag, a widget message). Every string is checked here BEFORE it is copied into a Config:
// it must be valid UTF-8 (nlohmann-json's serializer cannot write anything else, and a throw aborts
// the WebAssembly module) and no longer than its limit. The limits are named here, once; the
// page's JS reads the message and link limits from the engine (web/shell_bindings.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "core/status.hpp"

namespace vc::io {

// Longest text field of a config (a model name, a preset or GPU id, a format name), in bytes of
// UTF-8: a display name of a few hundred characters, far above any real one.
inline constexpr std::size_t kMaxTextFieldBytes = 256;
// Longest widget message (the JSON text of a postMessage payload), in bytes.
inline constexpr std::size_t kMaxMessageBytes = 65536;
// Longest link state (the URL fragment, percent-encoded), in characters.
inline constexpr std::size_t kMaxLinkChars = 16384;
// How much of a rejected value an error message quotes, in bytes (the rest is elided).
inline constexpr std::size_t kMaxQuotedBytes = 64;

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool valid_utf8(const char* s, std::size_t n);
inline bool valid_utf8(const std::string& s) { return valid_utf8(s.data(), s.size()); }

// Checks a text field named `field` (a dotted config path) of `n` bytes at `s` against
// `max_bytes`, UTF-8 and control characters (a line break, a tab: a name is one line), without
// copying it. Fills `err` and returns false on failure.
bool check_text(const std::string& field, const char* s, std::size_t n, std::size_t max_bytes, Error& err);
inline bool check_text(const std::string& field, const std::string& s, std::size_t max_bytes, Error& err) {
    return check_text(field, s.data(), s.size(), max_bytes, err);
}

// `s` cut to kMaxQuotedBytes (on a character boundary, "..." added) with invalid bytes and control
// characters replaced by U+FFFD: safe to put in an error message whatever `s` holds.
std::string quoted_excerpt(const std::string& s);
// The same cut at `max_bytes`.
std::string safe_excerpt(const std::string& s, std::size_t max_bytes);

}  // namespace vc::io
