// vramcalc shell: what the ui_*.cpp files share. Only ui files include this (and ImGui).
//   ui_style.cpp     themes, palette, fonts
//   ui_widgets.cpp   the item registry, form rows, number fields, choices, buttons
//   ui_inputs.cpp    the inputs panel (task, method, model, every input of the task)
//   ui_results.cpp   headline, breakdown, comparison, answers, GPU table
//   ui_charts.cpp    memory against batch and against sequence length
//   ui_planner.cpp   the Cluster planner view (tab, inputs, ranked layouts)
//   ui_local.cpp     llama.cpp's inputs, system RAM, per-device buffers, the launch command
//   ui.cpp           the frame: header, layout, actions
#pragma once

#include <initializer_list>
#include <string>

#include <imgui.h>

#include "app.hpp"

namespace vc::shell::ui {

// [SECTION] style ---------------------------------------------------------------------------------
struct Palette {
    ImVec4 text, dim, faint, accent, error, good, warn;
    ImVec4 on_accent;  // text on an accent-filled control (a chosen segment): 4.5:1 or more on accent
    ImU32 bg, panel, border, grid, bar_track, capacity, target, highlight;
};
const Palette& palette();
void apply_theme(bool dark);
bool theme_is_dark();
// One colour per breakdown component, by its stable key (core/result.hpp); `index` picks a
// fallback for keys without their own.
ImU32 component_color(const std::string& key, int index);

enum class Font { Body, Bold, Small, Headline };
ImFont* font(Font f);
// Rebuilds the font atlas for `pixel_ratio` (glyphs rasterized at CSS size x ratio).
void load_fonts(float pixel_ratio);

// Layout metrics, in CSS pixels.
constexpr float kNarrowWidthPx = 760;     // below: one column, panels stacked
constexpr float kWideWidthPx = 1180;      // above: charts side by side
constexpr float kInputsWidthPx = 400;     // the inputs column when there are two
constexpr float kTouchTargetPx = 44;      // a phone's controls at least this tall (WCAG 2.5.5, Apple's HIG: 44 pt)
constexpr float kLabelWidthPx = 168;      // the label column of a form (narrow: less)

// [SECTION] registry ------------------------------------------------------------------------------
// Records the last item's rectangle under `id` (tests find widgets by these ids).
void reg(App& a, const std::string& id);
void reg_rect(App& a, const std::string& id, ImVec2 min, ImVec2 max);
// The page's text form (App::form_rows): a row for a config field `path` (row_begin opens one for
// its field), a choice of the open row (combos and segmented controls add theirs), and the row's
// end with the error shown beside it ("" for none).
void form_row(App& a, const char* path, const char* label);
void form_option(App& a, const std::string& id, const std::string& label);
void form_row_end(App& a, const char* path, const std::string& error);

// [SECTION] form ----------------------------------------------------------------------------------
// A two-column table (label | control). Each row shows the engine's error under its control when
// the error names the row's field (or an alias).
struct Form {
    App& a;
    bool error_shown = false;
};
struct Field {
    const char* id;      // config field path ("batch", "parallel.tp"); the registry id
    const char* label;
    const char* tip;     // one line: what it does to memory (nullptr: the field table's meaning, core/fields.cpp)
    std::initializer_list<const char*> aliases = {};  // other names the engine uses for it
};
bool begin_form(const char* id);
void end_form(Form& f);  // shows an error no row claimed

enum class Step { Add, Double };  // +/- add `step`, or double/halve (powers of two)
// How a number row is shown. A field with a numeric range in the field table (core/fields.cpp: a
// config field, or a request field such as plan.gpus) takes its drag range and step from there
// (`shown(...)` leaves min, max and step unset); min, max and step here are for inputs the table
// has no numeric range for (model.kv_heads's [0, model.heads]). Typed values are not clamped: the
// engine checks them.
struct NumberSpec {
    double min = 0, max = 0;       // drag range (see above)
    double step = 1;
    Step mode = Step::Add;
    const char* format = "%.0f";
    std::initializer_list<double> presets = {};  // shown in a ▾ list
    const char* unit = nullptr;    // shown after the field ("tokens")
    double per_unit = 1;           // the row shows the field's value x per_unit (MiB of a bytes field: 1 / 2^20)
};
// A table field's row: the range and step are the table's (in the shown unit, by per_unit).
inline NumberSpec shown(Step mode, const char* format, std::initializer_list<double> presets = {}, const char* unit = nullptr,
                        double per_unit = 1) {
    NumberSpec s;
    s.mode = mode;
    s.format = format;
    s.presets = presets;
    s.unit = unit;
    s.per_unit = per_unit;
    return s;
}
bool number(Form& f, const Field& field, double& v, const NumberSpec& spec);
bool integer(Form& f, const Field& field, int& v, const NumberSpec& spec);
bool check(Form& f, const Field& field, bool& v, const char* text);
// A row with a custom control: call row_begin, draw, then row_end.
void row_begin(Form& f, const Field& field);
void row_end(Form& f, const Field& field);

template <typename E>
struct Choice {
    E value;
    const char* label;
    const char* tip = nullptr;
    const char* id = nullptr;  // registry suffix "<field>/<id>"; nullptr: the value's name in the field table
};
// The registry suffix of a choice: its own id, else the name the field table writes for `value`.
const char* choice_id(const Field& field, int value, const char* own);
// A combo box (many choices) or a segmented control (few, short ones). combo_control draws the
// combo alone (inside a row), combo_row a whole form row.
// A closed combo's label as it fits its frame (call after the width is set, before BeginCombo): cut
// with an ellipsis, a figure after two spaces kept, never clipped mid-glyph ("RTX 409(").
std::string combo_preview(App& a, const std::string& id, const char* label);
bool combo_control(App& a, const char* id, const char* tip, int count, int& index, const char* const* ids, const char* const* labels,
                   const char* const* tips);
bool combo_row(Form& f, const Field& field, int count, int& index, const char* const* ids, const char* const* labels,
               const char* const* tips);
bool segmented(App& a, const char* id, int count, int& index, const char* const* ids, const char* const* labels,
               const char* const* tips, float width = 0);
// Whether `count` equal segments with these labels fit the available width.
bool segments_fit(int count, const char* const* labels);

template <typename E, size_t N>
bool choice(Form& f, const Field& field, const Choice<E> (&choices)[N], E& v, bool as_segments = false) {
    const char* ids[N];
    const char* labels[N];
    const char* tips[N];
    int index = 0;
    for (size_t i = 0; i < N; ++i) {
        ids[i] = choice_id(field, static_cast<int>(choices[i].value), choices[i].id);
        labels[i] = choices[i].label;
        tips[i] = choices[i].tip;
        if (choices[i].value == v) index = static_cast<int>(i);
    }
    row_begin(f, field);
    const bool changed = as_segments && segments_fit(static_cast<int>(N), labels)
                             ? segmented(f.a, field.id, static_cast<int>(N), index, ids, labels, tips, -1)
                             : combo_control(f.a, field.id, field.tip, static_cast<int>(N), index, ids, labels, tips);
    row_end(f, field);
    if (changed) v = choices[index].value;
    return changed;
}

// The entries of a list (a combo's or a popup's Selectables) on a phone: as tall as a touch target
// (kTouchTargetPx; a Selectable's hit box takes the item spacing above and below its text), while
// the frame's controls are (ui.cpp pushes the frame padding). Held for the list's scope.
float list_spacing_y();  // the item spacing a list's entries get
struct ListEntries {
    ListEntries();
    ~ListEntries();
    ListEntries(const ListEntries&) = delete;
    ListEntries& operator=(const ListEntries&) = delete;
};

// [SECTION] misc widgets --------------------------------------------------------------------------
bool button(App& a, const char* id, const char* label, const char* tip = nullptr);
void tooltip(const char* text);              // on the last item, immediately
// A form row's tooltip: its tip (or the field table's meaning), then "Accepted: " and the range the
// engine accepts for the field, in its unit, from the field table.
std::string field_tip(const Field& field);
void field_tooltip(const Field& field);
float tooltip_wrap(float em = 0);            // a tooltip's wrap position: em font heights (0: the default), within the screen
// Text wrapped at the wrap position (text_wrapped: the window's or the cell's edge, as ImGui's
// TextWrapped; text_unformatted: the one pushed, e.g. a tooltip's, else no wrapping) at blanks only:
// ImGui's own wrapping breaks after '.' and ',' too, inside numbers ("75.|0%"). Every text of more
// than one line is recorded for the tests (App::wrapped).
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);
void text_unformatted(const char* text);
void section_title(const char* title, const char* tip = nullptr);
void dim_text(const char* fmt, ...) IM_FMTARGS(1);
void error_text(const std::string& s);
// Tooltip body for a byte count: both units and the exact count.
void bytes_tooltip(double bytes);
// Starts a panel (a framed group with a title); returns false when collapsed.
void panel_begin(const char* id, const char* title);
void panel_end();

// [SECTION] panels --------------------------------------------------------------------------------
// Task and method pickers (a bar), then the inputs of the task and method. Return true on a change.
bool task_method_bar(App& a, bool narrow);
bool inputs_panel(App& a, bool narrow);
void results_panel(App& a, bool narrow, bool wide);
// The phone's bar at the bottom of the screen: the total and the verdict; true when tapped.
bool total_bar(App& a);
void charts_panel(App& a, bool wide);
// The Calculator | Cluster planner tab (true on a change), and the planner in the results column.
bool planner_tab(App& a, bool narrow);
void planner_panel(App& a, bool narrow);
// Local inference (ui_local.cpp): llama.cpp's rows of the engine settings, the system RAM panel,
// and the results' per-device buffers with the launch command (any serving engine's).
bool llamacpp_rows(App& a, Form& k);
bool host_panel(App& a);
void devices_panel(App& a);

}  // namespace vc::shell::ui
