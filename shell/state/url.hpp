// vramcalc shell state: the whole state in a URL fragment, so a link restores it. The fragment
// never reaches a server (browsers do not send it). Readable on purpose:
//   v=1&method=detailed&task=inference&model.preset=llama-3.1-8b&inference.context=8192&units=gib
// Keys are the dotted paths of the config JSON (docs/config.md) whose values differ from the
// defaults, values are JSON scalars (strings bare where unambiguous), percent-encoded; "units",
// "theme", "view" and "plan.*" (the Cluster planner, state/planner.hpp) are the view state. A model is written whole (a preset as its id alone). The embedding
// keys (config, lock, origins, id; web/embed.js) are left to the page.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/config.hpp"
#include "core/status.hpp"
#include "view.hpp"

namespace vc::shell {

inline constexpr int kFragmentVersion = 1;

// The fragment (without '#') for `cfg` and `ui`, as differences from `base`.
std::string encode_fragment(const Config& cfg, const UiState& ui, const Config& base);

// Reads a fragment ('#' optional) over `base`. On success fills `cfg` and the shared parts of `ui`
// and returns true; an empty fragment gives `base`. On failure leaves both untouched and returns
// false with `err` naming the key.
bool decode_fragment(const std::string& fragment, const Config& base, Config& cfg, UiState& ui, Error& err);

// Applies a JSON merge patch to `base`'s config document (docs/config.md), as an embedding page's
// inputs do (web/embed.js): {"batch": 8}, {"model": {"preset": "qwen2.5-7b"}}. A "model" in the
// patch replaces the model whole (a preset by its id, a parameter count alone, or an architecture),
// as a link's model.* keys do. On failure `out` is untouched and `err` names the field.
bool patch_config(const Config& base, const nlohmann::json& patch, Config& out, Error& err);

}  // namespace vc::shell
