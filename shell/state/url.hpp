// vramcalc shell state: the whole state in a URL fragment, so a link restores it. The fragment
// never reaches a server (browsers do not send it). Readable on purpose:
//   v=1&method=detailed&task=inference&model.preset=llama-3.1-8b&inference.context=8192&units=gib
// Keys are the dotted paths of the config JSON (docs/config.md) whose values differ from the
// defaults, values are JSON scalars (strings bare where unambiguous), percent-encoded; "units",
// "theme", "view" and "plan.*" (the Cluster planner, state/planner.hpp) are the view state. A model is written whole (a preset as its id and what differs from it). The embedding
// keys (config, lock, origins, id; web/embed.js) are left to the page.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/status.hpp"
#include "view.hpp"

namespace vc::shell {

// 2: written against a starting state on the detailed method (issue 14); v=1 links, written when
// the page opened on the quick method, still read as they were (no method key: quick).
inline constexpr int kFragmentVersion = 2;

// The fragment (without '#') for `cfg` and `ui`, as differences from `base`.
std::string encode_fragment(const Config& cfg, const UiState& ui, const Config& base);

// Reads a fragment ('#' optional) over `base`. Every text in it is checked first (at most
// io::kMaxLinkChars characters, valid UTF-8, io/text_input.hpp). A key that cannot be read (not a
// field, a wrong value, a number outside its field's range in core/fields.cpp, invalid text) is left
// out, keeping its starting value, and the others apply: then it returns true with
// `err` naming the first such key, and `left_out` (when given) every such key in link order, one
// error each, so the page can mark each field. It returns false, leaving `cfg` and `ui` untouched,
// only when nothing can be applied (an unknown version v, a link over the limit); `err` says why.
// An empty fragment gives `base`, with `err` empty.
bool decode_fragment(const std::string& fragment, const Config& base, Config& cfg, UiState& ui, Error& err,
                     std::vector<Error>* left_out = nullptr);

// Applies a JSON merge patch to `base`'s config document (docs/config.md), as an embedding page's
// inputs do (web/embed.js): {"batch": 8}, {"model": {"preset": "qwen2.5-7b"}}. A "model" in the
// patch replaces the model whole (a preset by its id, a parameter count alone, or an architecture),
// as a link's model.* keys do. With `refused` (a widget's `set`), each value is read as a link's key
// is: one that cannot be read (not a field, a wrong value, a number outside its field's range) keeps
// `base`'s value, the others apply, and it returns true with `refused` listing each value left out
// (field, message naming the accepted range), `err` the first. Without it (a model file's import,
// which leaves an out-of-range field to the engine's error beside it), the patch applies whole or
// not at all. It returns false, leaving `out` untouched, when nothing applies (not an object, a rule
// no single value broke); `err` names the field.
bool patch_config(const Config& base, const nlohmann::json& patch, Config& out, Error& err, std::vector<Error>* refused = nullptr);

// The same from the patch's JSON text, as a widget message brings it (web/shell_bindings.cpp):
// at most io::kMaxMessageBytes of UTF-8 (checked before parsing), a JSON object, then patch_config.
bool patch_config_text(const Config& base, const std::string& text, Config& out, Error& err, std::vector<Error>* refused = nullptr);

// The embedding keys of a link (docs/embed.md), which decode_fragment leaves to the page: web/embed.js
// asks the wasm for them (web/shell_bindings.cpp), so the fragment has one reader.
//   lock=batch,seq            config fields the widget's visitor cannot edit
//   origins=https://a.example,...  who may message the widget: exact origins (scheme://host[:port],
//                             lowercase, no default port, no path), as the browser's URL.origin writes them
//   id=name                   echoed in the widget's messages
// A bad origin or id is left out and the first one named in `err`; the rest applies.
struct EmbedKeys {
    std::vector<std::string> locked;
    std::vector<std::string> origins;
    std::string id;
};
EmbedKeys decode_embed_keys(const std::string& fragment, Error& err);

}  // namespace vc::shell
