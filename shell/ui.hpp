// vramcalc shell: the Dear ImGui user interface. Each frame it reads the App, draws the inputs and
// the result, and writes edits back (the App recomputes on the next read). The ui_*.cpp files
// hold the panels (shell/ui_internal.hpp lists them).
#pragma once

#include "app.hpp"

namespace vc::shell {

// Sets ImGui's options and the style; call once after ImGui::CreateContext().
void ui_setup();
// (Re)builds the embedded fonts rasterized for `pixel_ratio` (device pixels per CSS pixel); the
// caller (re-)uploads the font texture.
void ui_set_pixel_ratio(float pixel_ratio);
// The theme's background colour, for glClearColor.
bool ui_clear_color(float rgba[4]);

// Draws one frame's UI over the whole viewport.
void ui_draw(App& a);

}  // namespace vc::shell
