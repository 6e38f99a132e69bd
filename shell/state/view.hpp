// vramcalc shell state: the view state a shared link carries besides the engine's inputs.
#pragma once

#include <string>

#include "planner.hpp"

namespace vc::shell {

enum class ThemeChoice { Auto, Light, Dark };  // Auto follows the browser's prefers-color-scheme

// Display and view state: not an input of the engine, but part of what a shared link restores.
struct UiState {
    bool show_gib = false;                   // display unit: GB (1e9 bytes) or GiB (2^30 bytes)
    ThemeChoice theme = ThemeChoice::Auto;
    std::string preset_filter;               // the preset list's search text (not shared)
    bool system_dark = true;                 // the browser's preference, for ThemeChoice::Auto (not shared)
    PlannerView planner;                     // the Cluster planner view and its inputs (shared: view=planner, plan.*)
};

inline bool dark_theme(const UiState& ui) {
    return ui.theme == ThemeChoice::Dark || (ui.theme == ThemeChoice::Auto && ui.system_dark);
}

}  // namespace vc::shell
