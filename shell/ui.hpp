// vramcalc shell: the Dear ImGui user interface. The only file that draws widgets: each frame it
// reads the App, draws the inputs and the result, and writes edits back (then calls recompute()).
#pragma once

#include "app.hpp"

namespace vc::shell {

// Loads the embedded font and sets the style; call once after ImGui::CreateContext().
void ui_setup();

// Draws one frame's UI over the whole viewport.
void ui_draw(App& a);

}  // namespace vc::shell
