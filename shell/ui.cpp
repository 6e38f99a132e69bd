// vramcalc shell: the frame. Header (title, units, theme, share and export actions), the task and
// method bar, then inputs and results side by side on a wide window or stacked on a narrow one.
// Immediate mode: every frame reads the App and draws; the engine runs only when inputs change.
//
// [SECTIONS]
//   actions    copy link, copy summary, exports
//   header     title, units, theme, actions (wraps on a phone)
//   scroll     drag-to-scroll for touch screens
//   publish    URL fragment and accessible summary after a change
//   frame      setup and the full-window layout
#include "ui.hpp"

#include <algorithm>
#include <optional>

#include <imgui.h>
#include <imgui_internal.h>

#include "platform.hpp"
#include "state/model_file.hpp"
#include "state/report.hpp"
#include "state/url.hpp"
#include "ui_internal.hpp"

namespace vc::shell {
namespace {

using namespace ui;

// [SECTION] actions -------------------------------------------------------------------------------
std::string link(const App& a) {
    const std::string f = encode_fragment(a.inputs, a.ui, default_inputs());
    return platform::page_url() + (f.empty() ? "" : "#" + f);
}

void export_file(App& a, const char* ext, const char* mime) {
    std::string content;
    if (a.ui.planner.open) {  // the planner's ranked layouts (shell/state/planner.hpp)
        const std::string name = export_file_name(a.inputs, (std::string("plan.") + ext).c_str());
        if (std::string(ext) == "json") content = planner_export_json(a);
        else if (std::string(ext) == "csv") content = planner_export_csv(a);
        else content = planner_export_markdown(a, link(a));
        platform::download(name, mime, content);
        a.notice = "Downloaded " + name;
        return;
    }
    const Results& r = results(a);
    if (std::string(ext) == "json") content = export_json(a.inputs, r);
    else if (std::string(ext) == "csv") content = export_csv(a.inputs, r);
    else content = export_markdown(a.inputs, r, a.ui.show_gib, link(a));
    platform::download(export_file_name(a.inputs, ext), mime, content);
    a.notice = std::string("Downloaded ") + export_file_name(a.inputs, ext);
}

// [SECTION] header --------------------------------------------------------------------------------
// Places the next item on this line when `w` pixels still fit, else on a new line.
void flow(float w) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
}

// At least as wide as tall: a touch target on a phone (see kTouchTargetPx).
float button_width(const char* label) {
    return std::max(ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2, ImGui::GetFrameHeight());
}

void header(App& a, bool narrow) {
    ImGui::PushFont(font(Font::Bold));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("vramcalc");
    ImGui::PopFont();

    static const char* const kUnitIds[] = {"gb", "gib"};
    static const char* const kUnitLabels[] = {"GB", "GiB"};
    static const char* const kUnitTips[] = {"Decimal gigabytes: 1 GB = 10^9 bytes (as GPU vendors write capacities).",
                                            "Binary gibibytes: 1 GiB = 2^30 bytes (as nvidia-smi and PyTorch report)."};
    static const char* const kThemeIds[] = {"auto", "light", "dark"};
    static const char* const kThemeLabels[] = {"Auto", "Light", "Dark"};
    static const char* const kThemeTips[] = {"Follow the browser's light or dark preference.", "Light theme.", "Dark theme."};
    const float unit_w = button_width("GiB") * 2 + 2, theme_w = button_width("Light") * 3 + 4;
    const float actions_w = button_width("Copy link") + button_width("Copy summary") + button_width("Export \xe2\x96\xbe") + button_width("Embed") +
                            button_width("Reset") + 30;
    const float total_w = unit_w + theme_w + actions_w + 24;
    static const char* const kTagline = "GPU memory for training, fine-tuning and serving LLMs";
    if (!narrow && ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x > total_w + ImGui::CalcTextSize(kTagline).x + 24) {
        ImGui::SameLine();
        ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
        ImGui::TextUnformatted(kTagline);
        ImGui::PopStyleColor();
    }
    if (!narrow) {
        ImGui::SameLine();
        const float right = ImGui::GetContentRegionMax().x - total_w;
        if (right > ImGui::GetCursorPosX()) ImGui::SetCursorPosX(right);
    }
    int unit = a.ui.show_gib ? 1 : 0;
    flow(unit_w);
    if (segmented(a, "units", 2, unit, kUnitIds, kUnitLabels, kUnitTips, unit_w)) {
        a.ui.show_gib = unit == 1;
        a.publish = true;
    }
    int theme = static_cast<int>(a.ui.theme);
    flow(theme_w);
    if (segmented(a, "theme", 3, theme, kThemeIds, kThemeLabels, kThemeTips, theme_w)) {
        a.ui.theme = static_cast<ThemeChoice>(theme);
        a.publish = true;
    }
    flow(button_width("Copy link"));
    if (button(a, "copy_link", "Copy link", "Copy a link to this exact state. The state lives in the link's #fragment, which browsers never send to a server.")) {
        platform::copy_text(link(a));
        a.notice = "Link copied";
    }
    flow(button_width("Copy summary"));
    if (button(a, "copy_summary", "Copy summary", "Copy the inputs and results as plain text.")) {
        platform::copy_text(summary_text(a.inputs, results(a), a.ui.show_gib, link(a)));
        a.notice = "Summary copied";
    }
    flow(button_width("Export \xe2\x96\xbe"));
    if (button(a, "export", "Export \xe2\x96\xbe", "Download the result as JSON, CSV or Markdown.")) ImGui::OpenPopup("export_menu");
    if (ImGui::BeginPopup("export_menu")) {
        struct Format {
            const char* id;
            const char* label;
            const char* ext;
            const char* mime;
        };
        static const Format kFormats[] = {{"export/json", "JSON (config + result)", "json", "application/json"},
                                          {"export/csv", "CSV (breakdown, GPUs)", "csv", "text/csv"},
                                          {"export/md", "Markdown (tables)", "md", "text/markdown"}};
        const ListEntries entries;
        for (const auto& f : kFormats) {
            if (ImGui::Selectable(f.label)) export_file(a, f.ext, f.mime);
            reg(a, f.id);
        }
        ImGui::EndPopup();
    }
    flow(button_width("Embed"));
    // The page (web/embed.js) copies an <iframe> snippet of the current inputs.
    if (button(a, "embed", "Embed", "Copy an <iframe> snippet of this calculator, with these inputs, for your docs.")) a.embed_requested = true;
    flow(button_width("Reset"));
    if (button(a, "reset", "Reset", "Back to the starting example (units and theme stay). The browser's Back button undoes it.")) {
        a.inputs = default_inputs();
        mark_changed(a);
        a.notice = "Reset to the starting example";
    }
    if (!a.notice.empty()) {
        ImGui::SameLine();
        ImGui::PushStyleColor(ImGuiCol_Text, palette().good);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(a.notice.c_str());
        ImGui::PopStyleColor();
        reg(a, "notice");
    }
    if (!a.link_error.empty()) error_text("This link could not be read in full (" + link_error_text(a) + "); what it could not set keeps its starting value.");
}

// One line for a docs column (EmbedOptions::compact): the name and the units.
void compact_header(App& a) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("vramcalc: GPU memory");
    ImGui::PopStyleColor();
    static const char* const kUnitIds[] = {"gb", "gib"};
    static const char* const kUnitLabels[] = {"GB", "GiB"};
    const float unit_w = button_width("GiB") * 2 + 2;
    ImGui::SameLine(ImGui::GetContentRegionMax().x - unit_w);
    int unit = a.ui.show_gib ? 1 : 0;
    if (segmented(a, "units", 2, unit, kUnitIds, kUnitLabels, nullptr, unit_w)) {
        a.ui.show_gib = unit == 1;
        a.publish = true;
    }
}

// [SECTION] scroll --------------------------------------------------------------------------------
// Touch screens have no wheel: a drag that starts on a window's background (not on a widget)
// scrolls the window under it, as a page would.
void drag_to_scroll() {
    ImGuiContext& g = *GImGui;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) || g.ActiveIdWindow == nullptr || g.ActiveId != g.ActiveIdWindow->MoveId) return;
    ImGuiWindow* w = g.ActiveIdWindow;
    while (w && w->ScrollMax.y <= 0 && w->ParentWindow) w = w->ParentWindow;
    const float dy = ImGui::GetIO().MouseDelta.y;
    if (w && w->ScrollMax.y > 0 && dy != 0) ImGui::SetScrollY(w, w->Scroll.y - dy);
}

// [SECTION] publish -------------------------------------------------------------------------------
void publish(App& a) {
    if (!a.publish) return;
    a.publish = false;
    results(a);
    platform::publish(encode_fragment(a.inputs, a.ui, default_inputs()), accessible_summary_json(a), a.publish_replace);
    a.publish_replace = false;
}

}  // namespace

// [SECTION] frame ---------------------------------------------------------------------------------
namespace {
bool g_scroll_to_results = false;  // the phone's total bar was tapped: scroll the column to the results
}

void ui_setup() {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigInputTextCursorBlink = false;  // a blinking cursor would need frames while idle
    io.ConfigDragClickToInputText = true;   // a click (without dragging) on a number types into it
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    // Keyboard operation (README "Keyboard and screen readers"): Tab / Shift+Tab move through every
    // control in the order drawn (header, task and method, inputs, results), arrows move by
    // position, Space presses, Enter types into a number; web/vramcalc.js lets Escape then Tab
    // leave the canvas.
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    apply_theme(true);
}

void ui_set_pixel_ratio(float pixel_ratio) { load_fonts(pixel_ratio); }

bool ui_clear_color(float rgba[4]) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(palette().bg);
    rgba[0] = c.x;
    rgba[1] = c.y;
    rgba[2] = c.z;
    rgba[3] = 1;
    return true;
}

void ui_draw(App& a) {
    a.widgets.clear();
    a.wrapped.clear();
    a.form_rows.clear();
    a.focus_id.clear();
    a.focus_visible = GImGui->NavId != 0 && !GImGui->NavDisableHighlight;
    // An edit of the model or the format drops an imported file's exact bytes (state/model_file.hpp).
    const unsigned long version = a.version;
    std::optional<Config> before;
    if (a.inputs.inference.weights_file.total_bytes != 0) before = a.inputs;
    const bool compact = a.embed.compact;
    const bool dark = compact ? !a.embed.light : dark_theme(a.ui);
    if (dark != theme_is_dark()) apply_theme(dark);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const bool narrow = compact || vp->WorkSize.x < kNarrowWidthPx;
    const bool wide = !compact && vp->WorkSize.x >= kWideWidthPx;
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (narrow && !compact) flags &= ~ImGuiWindowFlags_NoScrollbar;  // one scrolling column (a widget's iframe grows instead)
    const float pad = compact ? 8.0f : narrow ? 10.0f : ImGui::GetStyle().WindowPadding.x;
    float results_y = 0;  // where the results start in the single column (content coordinates)
    // Touch targets: on a phone every framed control (fields, buttons, +/-, combos, checkboxes) is
    // at least kTouchTargetPx tall, and the +/- buttons and segments as wide.
    const bool touch = narrow && !compact;
    if (touch) {
        const ImVec2 fp = ImGui::GetStyle().FramePadding;
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(fp.x, std::max(fp.y, (kTouchTargetPx - ImGui::GetFontSize()) / 2)));
    }
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
    ImGui::Begin("vramcalc", nullptr, flags);
    ImGui::PopStyleVar();
    if (compact) compact_header(a);
    else header(a, narrow);
    ImGui::Spacing();
    if (!compact) planner_tab(a, narrow);
    task_method_bar(a, narrow);
    ImGui::Spacing();
    if (!narrow) {
        const float inputs_w = vp->WorkSize.x < kWideWidthPx ? vp->WorkSize.x * 0.42f : kInputsWidthPx;
        ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(palette().panel));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(12, 8));
        // NavFlattened: Tab and the arrows cross from one panel to the next as if they were one.
        ImGui::BeginChild("inputs", ImVec2(inputs_w, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AlwaysUseWindowPadding,
                          ImGuiWindowFlags_NavFlattened);
        inputs_panel(a, narrow);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("results", ImVec2(0, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AlwaysUseWindowPadding,
                          ImGuiWindowFlags_NavFlattened);
        if (a.ui.planner.open && !compact) planner_panel(a, narrow);
        else results_panel(a, narrow, wide);
        ImGui::EndChild();
        ImGui::PopStyleVar();
        ImGui::PopStyleColor();
    } else if (a.ui.planner.open) {
        // The planner first, then the inputs it reads (model, sequence, precision); a widget shows
        // it when its link says view=planner (docs/embed.md).
        planner_panel(a, narrow);
        ImGui::Spacing();
        ImGui::Separator();
        inputs_panel(a, narrow);
    } else {
        inputs_panel(a, narrow);
        ImGui::Spacing();
        ImGui::Separator();
        ImGui::Spacing();
        if (g_scroll_to_results) ImGui::SetScrollY(ImGui::GetCursorPosY() - pad);
        g_scroll_to_results = false;
        results_y = ImGui::GetCursorPosY();
        results_panel(a, narrow, false);
    }
    // What a single column needs, so an embedding page can size its iframe to fit.
    a.content_height_px = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + pad;
    drag_to_scroll();
    const float scroll_y = ImGui::GetScrollY();
    ImGui::End();
    // One column on a phone puts the results under every input: while they are out of view, a bar
    // at the bottom keeps the total and the verdict in sight as inputs change; a tap scrolls there.
    const float bar_h = ImGui::GetFontSize() * 2.6f + 2 * pad;
    if (narrow && !compact && !a.ui.planner.open && a.results.valid && results_y - scroll_y > vp->WorkSize.y - bar_h) {
        ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x, vp->WorkPos.y + vp->WorkSize.y - bar_h));
        ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x, bar_h));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 2));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::ColorConvertU32ToFloat4(palette().panel));
        ImGui::Begin("total", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                           ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
        ImGui::GetWindowDrawList()->AddLine(ImGui::GetWindowPos(), ImVec2(ImGui::GetWindowPos().x + vp->WorkSize.x, ImGui::GetWindowPos().y),
                                            palette().border);
        if (total_bar(a)) {
            g_scroll_to_results = true;
            wake();
        }
        ImGui::End();
        ImGui::PopStyleColor();
        ImGui::PopStyleVar(2);
    }
    if (touch) ImGui::PopStyleVar();
    if (before && a.version != version && drop_stale_weights_file(*before, a.inputs)) {
        mark_changed(a);  // the results of this frame used the bytes
        a.import_message = "The imported file's exact weights no longer apply (the model or the weight format changed): the weights "
                           "are derived from the format";
        a.import_problem = false;
    }
    // The first frame shows the estimate as soon as it can; the link and the summary follow with
    // the rest of the results on the next one (App::defer_extras).
    if (!a.defer_extras) publish(a);
}

}  // namespace vc::shell
