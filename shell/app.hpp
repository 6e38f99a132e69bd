// vramcalc shell: the application state, in plain structs. The UI (ui.cpp) edits `inputs`, calls
// recompute(), and draws `result`; the web bindings read the same struct for the page's test hook.
// Knows core/ only: no ImGui, no GLFW, no browser.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/result.hpp"
#include "core/status.hpp"

namespace vc::shell {

// Where a widget was drawn, in window (CSS) pixels: lets tests click the real widget.
struct WidgetRect {
    std::string id;  // the config field an input edits (e.g. "batch"), or "breakdown_bar"
    float x = 0, y = 0, w = 0, h = 0;
};

// How the UI is embedded. The page sets it (web/embed.js, from the URL fragment); the defaults are
// the full page.
struct EmbedOptions {
    bool compact = false;             // one narrow column (>= 320 px) for a docs page: no page header
    bool light = false;               // light colours instead of dark
    std::vector<std::string> locked;  // config fields the visitor cannot edit ("batch", "model.layers")
};

struct App {
    Config inputs;              // what the user set (the quick and guide methods read their parts)
    Estimate result;            // the last valid result: stays visible while the input is invalid
    bool has_result = false;
    Error error;                // why the current input has no result (field empty: none)
    bool show_gib = false;      // display unit: GB (1e9 bytes) or GiB (2^30 bytes)
    unsigned long frames_drawn = 0;   // frames rendered since start (the page is idle when this stays flat)
    std::vector<WidgetRect> widgets;  // filled by the UI every frame
    EmbedOptions embed;
    unsigned long revision = 0;       // counts recompute() calls: the page posts the result when it moves
    float content_height_px = 0;      // height the UI's content needs at the current width (iframe auto-size)
    bool embed_requested = false;     // the Embed button was pressed; the page copies a snippet and clears it
};

// The one application state (the shell's main and the web bindings share it).
App& app();

// The starting inputs: the quick method's worked example (7B, FP16, AdamW mixed, batch 4, seq 2048),
// and the guide's 70B example dimensions for the guide method.
Config default_inputs();

// Whether the visitor may not edit `field` (EmbedOptions::locked).
bool is_locked(const App& a, const std::string& field);

// Asks the main loop to draw the next few frames (main.cpp): call after changing the App from
// outside the UI (the page's JS, through web/embed_bindings.cpp).
void wake();

// Runs the engine on `a.inputs`: on success replaces the result and clears the error, otherwise
// keeps the last valid result and records the error.
void recompute(App& a);

}  // namespace vc::shell
