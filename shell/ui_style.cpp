// vramcalc shell: themes, the component palette and the fonts.
//
// [SECTIONS]
//   palettes   dark and light colours
//   theme      ImGui style from a palette
//   components one colour per breakdown component
//   fonts      the embedded TTFs, rasterized for the screen's pixel ratio
#include <cmath>

#include "font.hpp"
#include "ui.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

// [SECTION] palettes ------------------------------------------------------------------------------
ImVec4 rgb(unsigned hex, float alpha = 1) {
    return ImVec4(((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, alpha);
}
ImU32 rgb32(unsigned hex, unsigned alpha = 255) {
    return IM_COL32((hex >> 16) & 255, (hex >> 8) & 255, hex & 255, alpha);
}

struct Scheme {
    Palette p;
    unsigned frame, frame_hover, frame_active, button, header, popup, scrollbar;
};

Scheme dark_scheme() {
    Scheme s;
    s.p.text = rgb(0xE4E8EE);
    s.p.dim = rgb(0x95A0AE);
    s.p.faint = rgb(0x7A8593);  // 4.66:1 on the panel (WCAG AA text: 4.5:1)
    s.p.accent = rgb(0x3D8BFD);     // 5.25:1 on the panel as text
    s.p.on_accent = rgb(0x0F1318);  // the page background's near-black on the accent: 5.5:1 (white was 3.3:1)
    s.p.error = rgb(0xFF6B5E);
    s.p.good = rgb(0x3FBF7F);
    s.p.warn = rgb(0xE8B339);
    s.p.bg = rgb32(0x0F1318);
    s.p.panel = rgb32(0x151A21);
    s.p.border = rgb32(0x29323E);
    s.p.grid = rgb32(0x222A34);
    s.p.bar_track = rgb32(0x1E252E);
    s.p.capacity = rgb32(0xE4E8EE);
    s.p.target = rgb32(0xE8B339);
    s.p.highlight = rgb32(0xFFFFFF);
    s.frame = 0x1B222B;
    s.frame_hover = 0x242D38;
    s.frame_active = 0x2C3744;
    s.button = 0x222A34;
    s.header = 0x1F2835;
    s.popup = 0x161B22;
    s.scrollbar = 0x3A4452;
    return s;
}

Scheme light_scheme() {
    Scheme s;
    s.p.text = rgb(0x1A1F26);
    s.p.dim = rgb(0x56606D);
    s.p.faint = rgb(0x656F7C);  // 4.72:1 on the page background (WCAG AA text: 4.5:1)
    s.p.accent = rgb(0x1A66D9);     // 4.92:1 as text on the page background (0x1F6FEB was 4.29:1)
    s.p.on_accent = rgb(0xFFFFFF);  // white on the accent: 5.32:1
    s.p.error = rgb(0xC9302C);
    s.p.good = rgb(0x198046);   // 4.60:1 on the page background
    s.p.warn = rgb(0x9D6300);   // 4.60:1 on the page background
    s.p.bg = rgb32(0xF5F6F8);
    s.p.panel = rgb32(0xFFFFFF);
    s.p.border = rgb32(0xD3D9E0);
    s.p.grid = rgb32(0xE5E9EE);
    s.p.bar_track = rgb32(0xE8ECF1);
    s.p.capacity = rgb32(0x1A1F26);
    s.p.target = rgb32(0x9D6300);
    s.p.highlight = rgb32(0x000000);
    s.frame = 0xE9EDF2;
    s.frame_hover = 0xDDE3EA;
    s.frame_active = 0xD0D8E2;
    s.button = 0xE3E8EE;
    s.header = 0xE1E7EF;
    s.popup = 0xFFFFFF;
    s.scrollbar = 0xB9C1CB;
    return s;
}

Palette g_palette = dark_scheme().p;
bool g_dark = true;

}  // namespace

const Palette& palette() { return g_palette; }

}  // namespace vc::shell::ui

namespace vc::shell {

std::array<ThemeColour, 11> ui_theme_colours(bool dark) {
    const ui::Scheme s = dark ? ui::dark_scheme() : ui::light_scheme();
    auto hex = [](const ImVec4& c) {
        return (static_cast<unsigned>(std::lround(c.x * 255)) << 16) | (static_cast<unsigned>(std::lround(c.y * 255)) << 8) |
               static_cast<unsigned>(std::lround(c.z * 255));
    };
    auto hex32 = [](ImU32 c) { return ((c & 255) << 16) | (c & 0xFF00) | ((c >> 16) & 255); };  // ImU32 is ABGR
    return {{{"text", hex(s.p.text)}, {"dim", hex(s.p.dim)},   {"faint", hex(s.p.faint)}, {"error", hex(s.p.error)},
             {"good", hex(s.p.good)}, {"warn", hex(s.p.warn)}, {"bg", hex32(s.p.bg)},     {"panel", hex32(s.p.panel)},
             {"popup", s.popup},        {"accent", hex(s.p.accent)}, {"on_accent", hex(s.p.on_accent)}}};
}

}  // namespace vc::shell

namespace vc::shell::ui {
bool theme_is_dark() { return g_dark; }

// [SECTION] theme ---------------------------------------------------------------------------------
void apply_theme(bool dark) {
    const Scheme s = dark ? dark_scheme() : light_scheme();
    g_palette = s.p;
    g_dark = dark;
    ImGuiStyle& st = ImGui::GetStyle();
    if (dark) ImGui::StyleColorsDark(&st);
    else ImGui::StyleColorsLight(&st);
    ImVec4* c = st.Colors;
    c[ImGuiCol_Text] = s.p.text;
    c[ImGuiCol_TextDisabled] = s.p.faint;
    c[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(s.p.bg);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_PopupBg] = rgb(s.popup);
    c[ImGuiCol_Border] = ImGui::ColorConvertU32ToFloat4(s.p.border);
    c[ImGuiCol_FrameBg] = rgb(s.frame);
    c[ImGuiCol_FrameBgHovered] = rgb(s.frame_hover);
    c[ImGuiCol_FrameBgActive] = rgb(s.frame_active);
    c[ImGuiCol_Button] = rgb(s.button);
    c[ImGuiCol_ButtonHovered] = rgb(s.frame_hover);
    c[ImGuiCol_ButtonActive] = rgb(s.frame_active);
    c[ImGuiCol_Header] = rgb(s.header);
    c[ImGuiCol_HeaderHovered] = rgb(s.frame_hover);
    c[ImGuiCol_HeaderActive] = rgb(s.frame_active);
    c[ImGuiCol_CheckMark] = s.p.accent;
    c[ImGuiCol_SliderGrab] = s.p.accent;
    c[ImGuiCol_SliderGrabActive] = s.p.accent;
    c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_ScrollbarGrab] = rgb(s.scrollbar, 0.7f);
    c[ImGuiCol_ScrollbarGrabHovered] = rgb(s.scrollbar, 0.9f);
    c[ImGuiCol_ScrollbarGrabActive] = rgb(s.scrollbar);
    c[ImGuiCol_Separator] = ImGui::ColorConvertU32ToFloat4(s.p.border);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_TableBorderLight] = ImGui::ColorConvertU32ToFloat4(s.p.grid);
    c[ImGuiCol_TableBorderStrong] = ImGui::ColorConvertU32ToFloat4(s.p.border);
    c[ImGuiCol_TableRowBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_TableRowBgAlt] = dark ? ImVec4(1, 1, 1, 0.025f) : ImVec4(0, 0, 0, 0.025f);
    c[ImGuiCol_NavHighlight] = s.p.accent;
    c[ImGuiCol_TextSelectedBg] = rgb(dark ? 0x2F5FA8 : 0xB8D3FB);
    c[ImGuiCol_ModalWindowDimBg] = ImVec4(0, 0, 0, 0.35f);

    st.WindowPadding = ImVec2(14, 12);
    st.FramePadding = ImVec2(8, 4);
    st.ItemSpacing = ImVec2(8, 6);
    st.ItemInnerSpacing = ImVec2(6, 4);
    st.CellPadding = ImVec2(6, 3);
    st.IndentSpacing = 14;
    st.ScrollbarSize = 10;
    st.GrabMinSize = 10;
    st.WindowRounding = 0;
    st.ChildRounding = 4;
    st.FrameRounding = 3;
    st.PopupRounding = 4;
    st.ScrollbarRounding = 4;
    st.GrabRounding = 3;
    st.TabRounding = 3;
    st.WindowBorderSize = 0;
    st.ChildBorderSize = 1;
    st.PopupBorderSize = 1;
    st.FrameBorderSize = 0;
    st.SeparatorTextBorderSize = 1;
    // NOTE: tooltips without a delay: the page draws no frames while the mouse rests, so a delayed
    // tooltip would only appear on the next event.
    st.HoverFlagsForTooltipMouse = ImGuiHoveredFlags_DelayNone;
    st.HoverFlagsForTooltipNav = ImGuiHoveredFlags_DelayNone;
}

// [SECTION] components ----------------------------------------------------------------------------
ImU32 component_color(const std::string& key, int index) {
    struct KeyColor {
        const char* key;
        unsigned hex;
    };
    // Tableau 10, readable on both themes; the same key keeps its colour in every method.
    static const KeyColor kColors[] = {
        {"weights", 0x4E79A7},     {"gradients", 0xF28E2B}, {"optimizer", 0x59A14F},   {"activations", 0xB07AA1},
        {"kv_cache", 0xE15759},    {"logits_loss", 0xEDC948}, {"temporary", 0x76B7B2}, {"allocator", 0xBAB0AC},
        {"runtime", 0x9C755F},     {"cuda_graphs", 0xFF9DA7}, {"model_states", 0x76B7B2},
    };
    static const unsigned kFallback[] = {0x86BCB6, 0xD4A6C8, 0xF1CE63, 0x8CD17D};
    for (const auto& kc : kColors)
        if (key == kc.key) return rgb32(kc.hex);
    return rgb32(kFallback[index % 4]);
}

// [SECTION] fonts ---------------------------------------------------------------------------------
namespace {

constexpr float kBodyPx = 15, kSmallPx = 12.5f, kHeadlinePx = 30;
ImFont* g_fonts[4] = {};

ImFont* add(const unsigned char* ttf, unsigned size, float px, float ratio, const ImWchar* ranges) {
    ImFontConfig fc;
    fc.FontDataOwnedByAtlas = false;  // static data
    fc.OversampleH = 1;               // rasterized at the screen's resolution: no oversampling needed
    fc.OversampleV = 1;
    fc.PixelSnapH = true;
    return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(ttf), static_cast<int>(size), std::round(px * ratio), &fc, ranges);
}

}  // namespace

ImFont* font(Font f) { return g_fonts[static_cast<int>(f)]; }

void load_fonts(float ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const auto* body = reinterpret_cast<const ImWchar*>(kFontRanges);
    const auto* bold = reinterpret_cast<const ImWchar*>(kFontBoldRanges);
    // The headline shows a size alone ("1,234.56 GiB"): digits and the unit's letters keep its atlas small.
    static const ImWchar kHeadlineRanges[] = {0x20, 0x20, 0x2C, 0x2E, 0x30, 0x39, 0x42, 0x42, 0x47, 0x47, 0x69, 0x69, 0};
    g_fonts[static_cast<int>(Font::Body)] = add(kFontTtf, kFontTtfSize, kBodyPx, ratio, body);
    g_fonts[static_cast<int>(Font::Bold)] = add(kFontBoldTtf, kFontBoldTtfSize, kBodyPx, ratio, bold);
    g_fonts[static_cast<int>(Font::Small)] = add(kFontTtf, kFontTtfSize, kSmallPx, ratio, body);
    g_fonts[static_cast<int>(Font::Headline)] = add(kFontBoldTtf, kFontBoldTtfSize, kHeadlinePx, ratio, kHeadlineRanges);
    // Glyphs are rasterized at CSS size x ratio and drawn scaled back: crisp on high-DPI screens.
    io.FontGlobalScale = 1.0f / ratio;
    io.Fonts->Build();
}

}  // namespace vc::shell::ui
