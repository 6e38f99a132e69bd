// vramcalc shell: widgets shared by the panels. Every interactive item records its rectangle in
// the item registry under a stable id, so browser tests click real widgets without pixel guesses.
//
// [SECTIONS]
//   registry   item rectangles by id
//   text       tooltips, titles, dim and error text
//   form       two-column rows with the engine's error under the control
//   numbers    drag field + step buttons + presets (usable without a keyboard)
//   choices    combo rows and segmented controls
//   panels     framed groups
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <imgui_internal.h>  // TempInputIsActive: a number field in text-input mode

#include "core/fields.hpp"
#include "state/format.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {

// [SECTION] registry ------------------------------------------------------------------------------
void reg_rect(App& a, const std::string& id, ImVec2 min, ImVec2 max) {
    a.widgets.push_back(WidgetRect{id, min.x, min.y, max.x - min.x, max.y - min.y});
}

void reg(App& a, const std::string& id) {
    reg_rect(a, id, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (ImGui::IsItemFocused()) a.focus_id = id;  // keyboard navigation is on it
}

// [SECTION] text form -----------------------------------------------------------------------------
// Input rows for the page's text form (App::form_rows): only config fields (a link or a patch can set them).
void form_row(App& a, const char* path, const char* label) {
    if (!a.form_rows.empty()) a.form_rows.back().open = false;
    if (find_field(path)) a.form_rows.push_back(FormRow{path, label, {}, {}, true});
}

void form_option(App& a, const std::string& id, const std::string& label) {
    if (!a.form_rows.empty() && a.form_rows.back().open) a.form_rows.back().options.emplace_back(id, label);
}

void form_row_end(App& a, const char* path, const std::string& error) {
    if (a.form_rows.empty() || a.form_rows.back().path != path) return;
    a.form_rows.back().open = false;
    a.form_rows.back().error = error;
}

// [SECTION] text ----------------------------------------------------------------------------------
namespace {
constexpr float kTooltipWrapEm = 26;  // tooltip width in font heights

// The number row being drawn when it shows its field in another unit than the field table's (a
// share as %, bytes as MiB: NumberSpec::per_unit): its tooltip's range and its error speak that unit.
bool g_shown_set = false;
FieldDef g_shown;

// A form row showing an error: its control and the error under it (screen coordinates, the
// row's whole width), which the row's tooltips keep clear of.
bool g_guard_set = false;
ImRect g_guard;

// Opens a tooltip out of the guarded rows' way: where ImGui would put it, with the guard added to
// the rectangle it avoids around the pointer (the tooltip's size is last frame's, as ImGui's own).
void begin_tooltip() {
    if (g_guard_set) {
        ImGuiWindow* last = ImGui::FindWindowByName("##Tooltip_00");
        if (last && last->Size.x > 0) {
            static ImGuiDir dir = ImGuiDir_None;
            const ImVec2 mouse = ImGui::GetMousePos();
            ImRect avoid(mouse.x - 16, mouse.y - 8, mouse.x + 24, mouse.y + 24);
            avoid.Add(g_guard);
            const ImVec2 pos = ImGui::FindBestWindowPosForPopupEx(ImVec2(mouse.x + 16, mouse.y + 10), last->Size, &dir,
                                                                  ImGui::GetPopupAllowedExtentRect(last), avoid, ImGuiPopupPositionPolicy_Tooltip);
            ImGui::SetNextWindowPos(pos);
        }
    }
    ImGui::BeginTooltip();
}

void end_tooltip() {
    // The registry's "tooltip": tests check it keeps clear of an error.
    reg_rect(app(), "tooltip", ImGui::GetWindowPos(), ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()));
    ImGui::EndTooltip();
}

void show_tooltip(const char* text) {
    begin_tooltip();
    ImGui::PushTextWrapPos(tooltip_wrap());
    text_unformatted(text);
    ImGui::PopTextWrapPos();
    end_tooltip();
}
}  // namespace

float tooltip_wrap(float em) {
    // Within the screen on a phone: the tooltip's padding on both sides and a margin.
    const float screen = ImGui::GetIO().DisplaySize.x - 4 * ImGui::GetStyle().WindowPadding.x;
    return std::max(ImGui::GetFontSize() * 8, std::min(ImGui::GetFontSize() * (em > 0 ? em : kTooltipWrapEm), screen));
}

void tooltip(const char* text) {
    if (!text || !*text) return;
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled | ImGuiHoveredFlags_DelayNone) || ImGui::IsItemActive()) return;
    show_tooltip(text);
}

std::string field_tip(const Field& field) {
    const FieldDef* def = g_shown_set && std::strcmp(g_shown.path, field.id) == 0 ? &g_shown : find_any_field(field.id);
    std::string text = field.tip ? field.tip : def ? def->meaning : "";
    if (!field.tip && !text.empty()) {
        // The table's one line, as a sentence.
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        if (text.back() != '.') text += '.';
    }
    if (def) {
        const std::string range = field_range_text(*def);
        if (!range.empty()) text += "\nAccepted: " + range;
    }
    return text;
}

void field_tooltip(const Field& field) {
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled | ImGuiHoveredFlags_DelayNone) || ImGui::IsItemActive()) return;
    tooltip(field_tip(field).c_str());
}

namespace {

// `text` with line breaks where it passes `width` pixels in the current font: at blanks only
// (ImGui's own wrapping also breaks after '.' and ',', inside numbers: "75.|0%", "8,030,|261"); a
// word wider than the whole line is cut where it reaches the edge, as ImGui cuts it.
std::string break_at_blanks(const char* text, float width, std::vector<std::string>* lines) {
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    auto span = [&](const char* b, const char* e) { return font->CalcTextSizeA(size, FLT_MAX, 0, b, e).x; };
    auto blank = [](char c) { return c == ' ' || c == '\t'; };
    std::string out;
    const char* end = text + std::strlen(text);
    for (const char* para = text; para <= end;) {
        const char* eol = std::find(para, end, '\n');
        const char* line = para;  // the start of the output line
        const char* fit = para;   // the end of its last word that fits
        for (const char* p = para; p < eol;) {
            const char* word = p;
            while (p < eol && blank(*p)) ++p;
            if (p == eol) break;  // trailing blanks: dropped at a break, as ImGui drops them
            while (p < eol && !blank(*p)) ++p;
            if (span(line, p) <= width) {
                fit = p;
                continue;
            }
            if (fit > line) {  // break before this word
                lines->emplace_back(line, fit);
                line = word;
                while (line < p && blank(*line)) ++line;
                p = line;
                fit = line;
                continue;
            }
            // One word wider than the line: cut it at the last character that fits (at least one).
            const char* cut = line + 1;
            while (cut < p && (static_cast<unsigned char>(*cut) & 0xC0) == 0x80) ++cut;
            for (const char* q = cut; q < p;) {
                const char* next = q + 1;
                while (next < p && (static_cast<unsigned char>(*next) & 0xC0) == 0x80) ++next;
                if (span(line, next) > width) break;
                cut = q = next;
            }
            lines->emplace_back(line, cut);
            line = fit = p = cut;
        }
        if (fit > line) lines->emplace_back(line, fit);
        else if (line == para) lines->emplace_back(line, eol);  // an empty (or blank) paragraph stays a line
        para = eol + 1;
    }
    for (size_t i = 0; i < lines->size(); ++i) out += (i ? "\n" : "") + (*lines)[i];
    return out;
}

}  // namespace

void text_unformatted(const char* text) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float wrap_pos = window->DC.TextWrapPos;
    if (wrap_pos < 0) {
        ImGui::TextUnformatted(text);
        return;
    }
    std::vector<std::string> lines;
    const std::string broken = break_at_blanks(text, ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos), &lines);
    if (lines.size() > 1) app().wrapped.push_back(lines);
    ImGui::PushTextWrapPos(-1.0f);  // broken here: ImGui's own wrapping off
    ImGui::TextUnformatted(broken.c_str());
    ImGui::PopTextWrapPos();
}

namespace {

std::string vformat(const char* fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, args);
    return s;
}

void wrapped_at_edge(const char* text) {
    const bool set = ImGui::GetCurrentWindow()->DC.TextWrapPos < 0;
    if (set) ImGui::PushTextWrapPos(0.0f);  // the window's or the cell's edge, as TextWrapped
    text_unformatted(text);
    if (set) ImGui::PopTextWrapPos();
}

}  // namespace

void text_wrapped(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    wrapped_at_edge(text.c_str());
}

void section_title(const char* title, const char* tip) {
    ImGui::PushFont(font(Font::Bold));
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    tooltip(tip);
}

void dim_text(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    wrapped_at_edge(text.c_str());
    ImGui::PopStyleColor();
}

void error_text(const std::string& s) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    wrapped_at_edge(s.c_str());
    ImGui::PopStyleColor();
}

void bytes_tooltip(double bytes) {
    ImGui::Text("%s = %s", format_size(bytes, false).c_str(), format_size(bytes, true).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    ImGui::TextUnformatted(format_exact_bytes(bytes).c_str());
    ImGui::PopStyleColor();
}

bool button(App& a, const char* id, const char* label, const char* tip) {
    const bool pressed = ImGui::Button(label);
    reg(a, id);
    tooltip(tip);
    return pressed;
}

// [SECTION] form ----------------------------------------------------------------------------------
namespace {

// The main control of the current row, for the error outline.
ImVec2 g_control_min, g_control_max;
bool g_control_set = false;

bool names(const std::string& e, const Field& field) {
    if (e.empty()) return false;
    if (e == field.id) return true;
    for (const char* alias : field.aliases)
        if (e == alias) return true;
    return false;
}

void mark_control() {
    g_control_min = ImGui::GetItemRectMin();
    g_control_max = ImGui::GetItemRectMax();
    g_control_set = true;
}

}  // namespace

bool begin_form(const char* id) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float label_w = avail < 2.2f * kLabelWidthPx ? avail * 0.42f : kLabelWidthPx;
    if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoSavedSettings)) return false;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, label_w);
    ImGui::TableSetupColumn("control", ImGuiTableColumnFlags_WidthStretch);
    return true;
}

void end_form(Form& f) {
    ImGui::EndTable();
    (void)f;
}

namespace {

// The row's error: the engine's on the current inputs, else the part of a link that could not be read.
std::string row_message(const Form& f, const Field& field) {
    if (names(f.a.error.field, field)) return f.a.error.message;
    for (Error e : f.a.link_left_out)
        if (names(e.field, field)) {
            word_in_shown_unit(f.a, e);  // a share the link gave as 3, beside a % row: "got 300"
            return "From " + f.a.left_out_from + ", not applied: " + e.message;
        }
    return {};
}

}  // namespace

void row_begin(Form& f, const Field& field) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const float top = ImGui::GetCursorScreenPos().y;
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    // A label longer than its column wraps (a phone's column is narrow), never clipped.
    ImGui::PushTextWrapPos(0.0f);
    text_unformatted(field.label);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    const bool label_hovered = ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled | ImGuiHoveredFlags_DelayNone);
    ImGui::TableSetColumnIndex(1);
    // A row with an error keeps its tooltips off the control and the message (row_end draws it
    // under the control, as tall as its lines at this column's width).
    const std::string message = row_message(f, field);
    g_guard_set = !message.empty();
    if (g_guard_set) {
        std::vector<std::string> lines;
        break_at_blanks(message.c_str(), ImGui::GetContentRegionAvail().x, &lines);
        const ImGuiStyle& st = ImGui::GetStyle();
        const float x = ImGui::GetWindowPos().x;
        g_guard = ImRect(x, top, x + ImGui::GetWindowWidth(),
                         top + ImGui::GetFrameHeight() + st.ItemSpacing.y + static_cast<float>(lines.size()) * ImGui::GetTextLineHeight());
    }
    if (label_hovered) show_tooltip(field_tip(field).c_str());
    ImGui::SetNextItemWidth(-FLT_MIN);
    g_control_set = false;
    form_row(f.a, field.id, field.label);
    // A field the embedding page locked is shown but cannot be edited.
    ImGui::BeginDisabled(is_locked(f.a, field.id));
}

void row_end(Form& f, const Field& field) {
    ImGui::EndDisabled();
    if (!g_control_set) mark_control();
    if (is_locked(f.a, field.id) && ImGui::IsMouseHoveringRect(g_control_min, g_control_max)) ImGui::SetTooltip("Set by this page");
    const std::string message = row_message(f, field);
    form_row_end(f.a, field.id, message);
    g_guard_set = false;
    if (!message.empty()) {
        ImGui::GetWindowDrawList()->AddRect(g_control_min, g_control_max, ImGui::GetColorU32(palette().error), ImGui::GetStyle().FrameRounding, 0, 1.5f);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        error_text(message);
        reg_rect(f.a, std::string(field.id) + "/error", at, ImVec2(at.x + ImGui::GetContentRegionAvail().x, ImGui::GetItemRectMax().y));
        f.error_shown = true;
    }
}

bool check(Form& f, const Field& field, bool& v, const char* text) {
    row_begin(f, field);
    ImGui::PushID(field.id);
    const bool changed = ImGui::Checkbox(text, &v);
    ImGui::PopID();
    reg(f.a, field.id);
    field_tooltip(field);
    mark_control();
    row_end(f, field);
    return changed;
}

// [SECTION] numbers -------------------------------------------------------------------------------
namespace {

constexpr float kDragPixelsPerDoubling = 60;  // Step::Double: dragging this far doubles the value

double next_power_of_two_above(double v) { return v < 1 ? 1 : std::exp2(std::floor(std::log2(v)) + 1); }
double power_of_two_below(double v) { return v <= 1 ? 1 : std::exp2(std::ceil(std::log2(v)) - 1); }

double clamp_to(double v, const NumberSpec& s) {
    if (s.min < s.max) return v < s.min ? s.min : v > s.max ? s.max : v;
    return v;
}

// The row's drag range and step: the field table's, in the shown unit, when it has a numeric range
// (a negative minimum is a sentinel, "-1: the profile", the same in every unit; an open minimum
// starts a step above it); else the spec's own.
NumberSpec with_table_range(const Field& field, const NumberSpec& spec) {
    const FieldDef* f = find_any_field(field.id);
    if (!f || !f->ranged || f->accepts) return spec;
    NumberSpec s = spec;
    s.step = f->step * spec.per_unit;
    s.min = f->min < 0 ? f->min : f->min * spec.per_unit;
    if (f->open_min) s.min += s.step;
    s.max = f->max * spec.per_unit;
    return s;
}

// "4096" -> "4K" for large powers of two in the preset list; others as they are.
std::string preset_label(double v) {
    char buf[32];
    if (v >= 1024 && std::fmod(v, 1024) == 0) std::snprintf(buf, sizeof buf, "%s (%gK)", format_count(v).c_str(), v / 1024);
    else return format_count(v);
    return buf;
}

}  // namespace

bool number(Form& f, const Field& field, double& v, const NumberSpec& given) {
    const NumberSpec spec = with_table_range(field, given);
    App& a = f.a;
    const FieldDef* def = find_any_field(field.id);
    g_shown_set = def && def->ranged && !def->accepts && given.per_unit != 1;
    if (g_shown_set) {
        // Its tooltip's range in the row's unit; the engine's message too (App::shown_units).
        g_shown = shown_field(*def, given.per_unit, given.unit ? given.unit : "");
        bool known = false;
        for (const ShownUnit& s : a.shown_units) known |= s.field == field.id;
        if (!known) a.shown_units.push_back(ShownUnit{field.id, given.per_unit, given.unit ? given.unit : ""});
    }
    row_begin(f, field);
    const std::string id = field.id;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float h = ImGui::GetFrameHeight();
    const float gap = 2;
    const int buttons = 2 + (spec.presets.size() > 0 ? 1 : 0);
    const float field_w = ImGui::GetContentRegionAvail().x - buttons * (h + gap);

    ImGui::PushID(field.id);
    bool changed = false;
    const double finite = std::isfinite(v) ? v : (spec.min < spec.max ? spec.min : 0);
    const float speed = spec.mode == Step::Double
                            ? static_cast<float>(std::fmax(0.05, std::fabs(finite) * (std::exp2(1.0 / kDragPixelsPerDoubling) - 1)))
                            : static_cast<float>(spec.step * 0.1);
    ImGui::SetNextItemWidth(field_w > 40 ? field_w : 40);
    const double lo = spec.min, hi = spec.max;
    // Dragging applies as it goes; typed text applies as a whole, on Enter or when the field is left.
    const bool was_typing = a.typing_field == id;
    double edit = was_typing ? a.typing_value : v;
    const bool edited = ImGui::DragScalar("##v", ImGuiDataType_Double, &edit, speed, spec.min < spec.max ? &lo : nullptr,
                                          spec.min < spec.max ? &hi : nullptr, spec.format);
    if (ImGui::TempInputIsActive(ImGui::GetItemID())) {
        if (edited || !was_typing) {
            a.typing_field = id;
            a.typing_value = edit;
        }
    } else if (was_typing) {
        a.typing_field.clear();
        const bool escaped = ImGui::IsKeyPressed(ImGuiKey_Escape, false);
        if (!escaped && (edited || edit != v)) {
            v = edit;
            changed = true;
        }
    } else if (edited) {
        v = edit;
        changed = true;
    }
    reg(a, id);
    mark_control();
    field_tooltip(field);

    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, style.FramePadding.y));
    ImGui::PushButtonRepeat(true);
    ImGui::SameLine(0, gap);
    if (ImGui::Button("\xe2\x88\x92", ImVec2(h, h))) {  // U+2212 minus
        const double base = clamp_to(finite, spec);
        v = clamp_to(spec.mode == Step::Double ? power_of_two_below(base) : base - spec.step, spec);
        changed = true;
    }
    reg(a, id + "/dec");
    tooltip(spec.mode == Step::Double ? "Halve (previous power of two)" : "Decrease");
    ImGui::SameLine(0, gap);
    if (ImGui::Button("+", ImVec2(h, h))) {
        const double base = clamp_to(finite, spec);
        v = clamp_to(spec.mode == Step::Double ? next_power_of_two_above(base) : base + spec.step, spec);
        changed = true;
    }
    reg(a, id + "/inc");
    tooltip(spec.mode == Step::Double ? "Double (next power of two)" : "Increase");
    ImGui::PopButtonRepeat();
    if (spec.presets.size() > 0) {
        ImGui::SameLine(0, gap);
        if (ImGui::Button("\xe2\x96\xbe", ImVec2(h, h))) ImGui::OpenPopup("presets");  // U+25BE
        reg(a, id + "/presets");
        tooltip("Common values");
    }
    ImGui::PopStyleVar();
    if (ImGui::BeginPopup("presets")) {
        const ListEntries entries;
        for (double p : spec.presets) {
            if (ImGui::Selectable(preset_label(p).c_str(), p == v)) {
                v = p;
                changed = true;
            }
            reg(a, id + "/preset/" + format_count(p));
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
    row_end(f, field);
    g_shown_set = false;
    return changed;
}

bool integer(Form& f, const Field& field, int& v, const NumberSpec& spec) {
    double d = v;
    if (!number(f, field, d, spec)) return false;
    // NOTE: an int field cannot hold what a user may type (1e30, NaN): clamp to the int range, so
    // the engine's range check reports it instead of undefined behaviour in the cast.
    constexpr double kMin = std::numeric_limits<int>::min(), kMax = std::numeric_limits<int>::max();
    v = !std::isfinite(d) ? (d > 0 ? static_cast<int>(kMax) : 0) : d < kMin ? static_cast<int>(kMin) : d > kMax ? static_cast<int>(kMax) : static_cast<int>(std::lround(d));
    const bool held = std::isfinite(d) && d >= kMin && d <= kMax;
    f.a.typed_field = held ? std::string() : std::string(field.id);
    f.a.typed_value = d;
    return true;
}

// [SECTION] choices -------------------------------------------------------------------------------
float list_spacing_y() {
    const ImGuiStyle& st = ImGui::GetStyle();
    // On a phone the frames are touch targets (ui.cpp): so are the entries.
    const bool touch = ImGui::GetFrameHeight() >= kTouchTargetPx - 0.5f;
    return touch ? std::max(st.ItemSpacing.y, kTouchTargetPx - ImGui::GetFontSize()) : st.ItemSpacing.y;
}

ListEntries::ListEntries() { ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, list_spacing_y())); }
ListEntries::~ListEntries() { ImGui::PopStyleVar(); }

const char* choice_id(const Field& field, int value, const char* own) {
    if (own) return own;
    const FieldDef* f = find_any_field(field.id);
    return f && f->kind == FieldKind::Enum ? enum_name(f->names, value) : "";
}

std::string combo_preview(App& a, const std::string& id, const char* label) {
    // BeginCombo's text area: the frame less its arrow button and the left padding.
    const ImGuiStyle& st = ImGui::GetStyle();
    const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - st.FramePadding.x;
    const char* kEllipsis = "\xe2\x80\xa6";
    std::string shown = label;
    if (ImGui::CalcTextSize(label).x > room) {
        // A figure after two spaces ("RTX 4090 24GB  25.76 GB") stays whole when the rest has room.
        const char* gap = std::strstr(label, "  ");
        std::string head = label, tail;
        if (gap && ImGui::CalcTextSize((std::string(kEllipsis) + gap).c_str()).x < room / 2) {
            head.assign(label, gap);
            tail = gap;
        }
        while (!head.empty()) {
            do head.pop_back();  // whole UTF-8 characters
            while (!head.empty() && (static_cast<unsigned char>(head.back()) & 0xC0) == 0x80);
            if (!head.empty() && (static_cast<unsigned char>(head.back()) & 0xC0) == 0xC0) head.pop_back();
            while (!head.empty() && head.back() == ' ') head.pop_back();
            shown = head + kEllipsis + tail;
            if (ImGui::CalcTextSize(shown.c_str()).x <= room) break;
        }
    }
    // Where the closed combo's text is drawn (the registry's "label/<id>": tests check it is whole).
    const ImVec2 at(ImGui::GetCursorScreenPos().x + st.FramePadding.x, ImGui::GetCursorScreenPos().y + st.FramePadding.y);
    const ImVec2 size = ImGui::CalcTextSize(shown.c_str());
    reg_rect(a, "label/" + id, at, ImVec2(at.x + size.x, at.y + size.y));
    return shown;
}

bool combo_control(App& a, const char* id, const char* tip, int count, int& index, const char* const* ids, const char* const* labels,
                   const char* const* tips) {
    bool changed = false;
    ImGui::PushID(id);
    ImGui::SetNextItemWidth(-FLT_MIN);
    const std::string preview = combo_preview(a, id, labels[index]);
    const bool open = ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_HeightLarge);
    reg(a, id);
    mark_control();
    tooltip(tip);
    for (int i = 0; i < count; ++i) form_option(a, ids[i], labels[i]);
    if (open) {
        const ListEntries entries;
        for (int i = 0; i < count; ++i) {
            if (ImGui::Selectable(labels[i], i == index) && i != index) {
                index = i;
                changed = true;
            }
            reg(a, std::string(id) + "/" + ids[i]);
            if (tips) tooltip(tips[i]);
        }
        ImGui::EndCombo();
    }
    ImGui::PopID();
    return changed;
}

bool combo_row(Form& f, const Field& field, int count, int& index, const char* const* ids, const char* const* labels,
               const char* const* tips) {
    row_begin(f, field);
    const bool changed = combo_control(f.a, field.id, field_tip(field).c_str(), count, index, ids, labels, tips);
    row_end(f, field);
    return changed;
}

bool segments_fit(int count, const char* const* labels) {
    const float pad = ImGui::GetStyle().FramePadding.x * 2 + 2;
    float widest = 0;
    for (int i = 0; i < count; ++i) widest = std::max(widest, ImGui::CalcTextSize(labels[i]).x + pad);
    return widest * count <= ImGui::GetContentRegionAvail().x;
}

bool segmented(App& a, const char* id, int count, int& index, const char* const* ids, const char* const* labels,
               const char* const* tips, float width) {
    const Palette& p = palette();
    const float gap = 1;
    const float avail = width < 0 ? ImGui::GetContentRegionAvail().x : width;
    bool changed = false;
    ImGui::PushID(id);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, ImGui::GetStyle().ItemSpacing.y));
    for (int i = 0; i < count; ++i) {
        if (i > 0) ImGui::SameLine();
        const bool on = i == index;
        ImGui::PushStyleColor(ImGuiCol_Button, on ? p.accent : ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, on ? p.accent : ImGui::GetStyleColorVec4(ImGuiCol_FrameBgHovered));
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, p.accent);
        ImGui::PushStyleColor(ImGuiCol_Text, on ? p.on_accent : p.text);
        const float w = avail > 0 ? (avail - gap * (count - 1)) / count : 0;
        if (ImGui::Button(labels[i], ImVec2(w, 0)) && !on) {
            index = i;
            changed = true;
        }
        ImGui::PopStyleColor(4);
        reg(a, std::string(id) + "/" + ids[i]);
        form_option(a, ids[i], labels[i]);
        if (tips) tooltip(tips[i]);
    }
    ImGui::PopStyleVar();
    ImGui::PopID();
    return changed;
}

// [SECTION] panels --------------------------------------------------------------------------------
void panel_begin(const char* id, const char* title) {
    ImGui::PushID(id);
    if (title) {
        ImGui::Spacing();
        ImGui::PushFont(font(Font::Small));
        ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
        ImGui::TextUnformatted(title);
        ImGui::PopStyleColor();
        ImGui::PopFont();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(at.x, at.y - 2), ImVec2(at.x + ImGui::GetContentRegionAvail().x, at.y - 2),
                                            palette().border);
        ImGui::Dummy(ImVec2(0, 2));
    }
}

void panel_end() { ImGui::PopID(); }

}  // namespace vc::shell::ui
