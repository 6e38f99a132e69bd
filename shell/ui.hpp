// vramcalc shell: the Dear ImGui user interface. Each frame it reads the App, draws the inputs and
// the result, and writes edits back (the App recomputes on the next read). The ui_*.cpp files
// hold the panels (shell/ui_internal.hpp lists them).
#pragma once

#include <array>

#include "app.hpp"

namespace vc::shell {

// Sets ImGui's options and the style; call once after ImGui::CreateContext().
void ui_setup();
// (Re)builds the embedded fonts rasterized for `pixel_ratio` (device pixels per CSS pixel); the
// caller (re-)uploads the font texture.
void ui_set_pixel_ratio(float pixel_ratio);
// The theme's background colour, for glClearColor.
bool ui_clear_color(float rgba[4]);

// The theme's text colours (text, dim, faint, error, good, warn, accent) and the backgrounds they
// are drawn on (bg, panel, popup), and on_accent (a chosen segment's label on its accent fill),
// 0xRRGGBB by name: the tests check their contrast (WCAG AA, 4.5:1).
struct ThemeColour {
    const char* name;
    unsigned rgb;
};
std::array<ThemeColour, 11> ui_theme_colours(bool dark);

// Draws one frame's UI over the whole viewport.
void ui_draw(App& a);

}  // namespace vc::shell
