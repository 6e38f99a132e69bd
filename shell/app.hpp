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

// Where an input widget was drawn, in window (CSS) pixels: lets tests click the real widget.
struct WidgetRect {
    std::string id;  // the config field it edits, e.g. "batch"
    float x = 0, y = 0, w = 0, h = 0;
};

struct App {
    Config inputs;              // what the user set (the quick and guide methods read their parts)
    Estimate result;            // the last valid result: stays visible while the input is invalid
    bool has_result = false;
    Error error;                // why the current input has no result (field empty: none)
    bool show_gib = false;      // display unit: GB (1e9 bytes) or GiB (2^30 bytes)
    unsigned long frames_drawn = 0;   // frames rendered since start (the page is idle when this stays flat)
    std::vector<WidgetRect> widgets;  // filled by the UI every frame
};

// The one application state (the shell's main and the web bindings share it).
App& app();

// The starting inputs: the quick method's worked example (7B, FP16, AdamW mixed, batch 4, seq 2048),
// and the guide's 70B example dimensions for the guide method.
Config default_inputs();

// Runs the engine on `a.inputs`: on success replaces the result and clears the error, otherwise
// keeps the last valid result and records the error.
void recompute(App& a);

}  // namespace vc::shell
