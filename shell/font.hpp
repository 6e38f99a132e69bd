// vramcalc shell: the embedded UI fonts, subsets of Debian TTFs (fonts-dejavu-core) made at build
// time (scripts/embed_font.mjs writes the definitions into the build folder).
#pragma once

namespace vc::shell {

extern const unsigned char kFontTtf[];       // DejaVu Sans
extern const unsigned kFontTtfSize;
extern const unsigned short kFontRanges[];   // ImGui glyph ranges (pairs, 0-terminated) the subset covers
extern const unsigned char kFontBoldTtf[];   // DejaVu Sans Bold
extern const unsigned kFontBoldTtfSize;
extern const unsigned short kFontBoldRanges[];

}  // namespace vc::shell
