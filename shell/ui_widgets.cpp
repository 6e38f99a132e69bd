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
#include <limits>

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
}

float tooltip_wrap(float em) {
    // Within the screen on a phone: the tooltip's padding on both sides and a margin.
    const float screen = ImGui::GetIO().DisplaySize.x - 4 * ImGui::GetStyle().WindowPadding.x;
    return std::max(ImGui::GetFontSize() * 8, std::min(ImGui::GetFontSize() * (em > 0 ? em : kTooltipWrapEm), screen));
}

void tooltip(const char* text) {
    if (!text || !*text) return;
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled | ImGuiHoveredFlags_DelayNone) || ImGui::IsItemActive()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap());
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

std::string field_tip(const Field& field) {
    const FieldDef* def = find_any_field(field.id);
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

void section_title(const char* title, const char* tip) {
    ImGui::PushFont(font(Font::Bold));
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    tooltip(tip);
}

void dim_text(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    ImGui::TextWrappedV(fmt, args);
    ImGui::PopStyleColor();
    va_end(args);
}

void error_text(const std::string& s) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextWrapped("%s", s.c_str());
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

void row_begin(Form& f, const Field& field) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    // A label longer than its column wraps (a phone's column is narrow), never clipped.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(field.label);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    field_tooltip(field);
    ImGui::TableSetColumnIndex(1);
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
    // The engine's error on the current inputs, else the part of a link that could not be read.
    const bool engine = names(f.a.error.field, field);
    const Error* from_link = nullptr;
    for (const Error& e : f.a.link_left_out)
        if (!from_link && names(e.field, field)) from_link = &e;
    const std::string message = engine      ? f.a.error.message
                                : from_link ? "From " + f.a.left_out_from + ", not applied: " + from_link->message
                                            : std::string();
    form_row_end(f.a, field.id, message);
    if (engine || from_link) {
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
    row_begin(f, field);
    App& a = f.a;
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
const char* choice_id(const Field& field, int value, const char* own) {
    if (own) return own;
    const FieldDef* f = find_any_field(field.id);
    return f && f->kind == FieldKind::Enum ? enum_name(f->names, value) : "";
}

bool combo_control(App& a, const char* id, const char* tip, int count, int& index, const char* const* ids, const char* const* labels,
                   const char* const* tips) {
    bool changed = false;
    ImGui::PushID(id);
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool open = ImGui::BeginCombo("##v", labels[index], ImGuiComboFlags_HeightLarge);
    reg(a, id);
    mark_control();
    tooltip(tip);
    for (int i = 0; i < count; ++i) form_option(a, ids[i], labels[i]);
    if (open) {
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
        ImGui::PushStyleColor(ImGuiCol_Text, on ? ImVec4(1, 1, 1, 1) : p.text);
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
