// vramcalc web: keeps Dear ImGui's built-in font (ProggyClean, 12 KB of base85 text) out of the page.
// The page always adds its own fonts (shell/ui_style.cpp) before the atlas is built, so
// ImFontAtlas::AddFontDefault is never called, but ImFontAtlas::Build refers to it (for an atlas with
// no font), which links the font's data. web/web.cmake links the page with
// -Wl,--wrap=<AddFontDefault's symbol>, so that reference lands here instead: 11.6 KB gzip less
// (issue 15). Not a change to ImGui: its source is used as fetched.
#include "imgui.h"

extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas*, const ImFontConfig*) {
    return nullptr;  // never reached: the page's fonts are added first
}
