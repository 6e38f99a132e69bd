// vramcalc shell: the embedded UI font, a subset of a Debian TTF made at build time
// (scripts/embed_font.mjs writes the definitions into the build folder).
#pragma once

namespace vc::shell {

extern const unsigned char kFontTtf[];
extern const unsigned kFontTtfSize;
extern const unsigned short kFontRanges[];  // ImGui glyph ranges (pairs, 0-terminated) the subset covers

}  // namespace vc::shell
