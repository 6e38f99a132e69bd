// vramcalc shell: the calculator's Dear ImGui UI: inputs, a stacked bar of the breakdown, totals
// and GPU counts. Immediate mode: every frame reads the App and draws; an edit changes
// App::inputs and calls recompute(). Sizes are in GB (1e9 bytes) or GiB (2^30 bytes), always labelled.
//
// [SECTIONS]
//   style      font and colours
//   format     byte counts for display
//   inputs     one table row per input: label, widget, the engine's error beside it
//   breakdown  the stacked bar (hover: bytes and formula) and its legend
//   results    totals, buffered total, GPU counts, notes
//   frame      the full-window layout
#include "ui.hpp"

#include <cstdio>
#include <initializer_list>
#include <string>

#include <imgui.h>

#include "core/gpus.hpp"
#include "core/units.hpp"
#include "font.hpp"
#include "io/report.hpp"

namespace vc::shell {
namespace {

// [SECTION] style ---------------------------------------------------------------------------------
constexpr float kFontSizePx = 16.0f;
constexpr float kTwoColumnMinWidthPx = 760.0f;  // narrower windows stack inputs above results
constexpr float kInputsWidthPx = 390.0f;        // the inputs column on a wide window
constexpr float kLabelWidthPx = 165.0f;
constexpr float kBarHeightPx = 44.0f;

constexpr float kCompactLabelWidthPx = 140.0f;  // embedded in a docs column (EmbedOptions::compact)
constexpr float kCompactPaddingPx = 8.0f;

// Text colours that read well on the theme's window background (EmbedOptions::light).
struct TextColors {
    ImVec4 error, dim;
};
const TextColors kDarkText = {ImVec4(1.00f, 0.45f, 0.38f, 1.0f), ImVec4(0.62f, 0.64f, 0.70f, 1.0f)};
const TextColors kLightText = {ImVec4(0.72f, 0.11f, 0.06f, 1.0f), ImVec4(0.33f, 0.35f, 0.40f, 1.0f)};
TextColors g_text = kDarkText;

void apply_theme(bool light) {
    static int applied = -1;
    if (applied == static_cast<int>(light)) return;
    applied = light;
    if (light)
        ImGui::StyleColorsLight();
    else
        ImGui::StyleColorsDark();
    g_text = light ? kLightText : kDarkText;
}
const ImU32 kBufferColor = IM_COL32(110, 114, 125, 255);

// One colour per breakdown component, by its stable key (core/result.hpp).
ImU32 component_color(const std::string& key, int index) {
    struct KeyColor {
        const char* key;
        ImU32 color;
    };
    static const KeyColor kColors[] = {
        {"weights", IM_COL32(66, 133, 244, 255)},     {"gradients", IM_COL32(251, 140, 0, 255)},
        {"optimizer", IM_COL32(67, 160, 71, 255)},    {"activations", IM_COL32(171, 71, 188, 255)},
        {"kv_cache", IM_COL32(229, 57, 53, 255)},     {"model_states", IM_COL32(0, 150, 136, 255)},
    };
    static const ImU32 kFallback[] = {IM_COL32(255, 202, 40, 255), IM_COL32(141, 110, 99, 255), IM_COL32(38, 198, 218, 255)};
    for (const auto& kc : kColors)
        if (key == kc.key) return kc.color;
    return kFallback[index % 3];
}

// [SECTION] format --------------------------------------------------------------------------------
std::string size_text(const App& a, double bytes) { return io::format_bytes(bytes, a.show_gib); }

// "306,432,000,000 bytes"
std::string exact_bytes(double bytes) {
    char digits[64];
    std::snprintf(digits, sizeof digits, "%.0f", bytes);
    std::string s(digits), out;
    int lead = static_cast<int>(s.size()) % 3;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i != 0 && (static_cast<int>(i) - lead) % 3 == 0) out += ',';
        out += s[i];
    }
    return out + " bytes";
}

// A wrapped line in the error colour.
void error_text(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, g_text.error);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

// Tooltip body for a byte count: both units and the exact count.
void bytes_tooltip_lines(double bytes) {
    ImGui::Text("%s = %s", io::format_bytes(bytes, false).c_str(), io::format_bytes(bytes, true).c_str());
    ImGui::TextColored(g_text.dim, "%s", exact_bytes(bytes).c_str());
}

// [SECTION] inputs --------------------------------------------------------------------------------
// One frame's inputs table: the App it edits and whether the current error found its field.
struct Form {
    App& a;
    bool error_shown = false;
};

// Starts a row of the inputs table: the label, then the widget's cell at full width (disabled when
// the embedding page locked `field`).
void begin_row(Form& f, const char* label, const char* field) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::BeginDisabled(is_locked(f.a, field));
}

// The engine's names for an input besides its config field (the guide method checks "params").
using Aliases = std::initializer_list<const char*>;

// Ends a row: records where the widget is (for tests) and shows the engine's error when it names
// `field` or one of its `aliases`.
void end_row(Form& f, const char* field, Aliases aliases = {}) {
    ImGui::EndDisabled();
    if (is_locked(f.a, field) && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Set by this page");
    ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    f.a.widgets.push_back(WidgetRect{field, min.x, min.y, max.x - min.x, max.y - min.y});
    const std::string& e = f.a.error.field;
    bool ours = !e.empty() && e == field;
    for (const char* alias : aliases) ours |= e == alias;
    if (ours) {
        error_text(f.a.error.message);
        f.error_shown = true;
    }
}

bool input_double(Form& f, const char* label, const char* field, Aliases aliases, double& v, double step, double step_fast,
                  const char* format) {
    begin_row(f, label, field);
    ImGui::PushID(field);
    bool changed = ImGui::InputDouble("##v", &v, step, step_fast, format);
    ImGui::PopID();
    end_row(f, field, aliases);
    return changed;
}

// Whole-number inputs (batch, sequence length, layers...). T is the engine's field type (double or int).
template <typename T>
bool input_count(Form& f, const char* label, const char* field, T& v, int step, int step_fast) {
    begin_row(f, label, field);
    int n = static_cast<int>(v);
    ImGui::PushID(field);
    bool changed = ImGui::InputInt("##v", &n, step, step_fast);
    ImGui::PopID();
    if (changed) v = static_cast<T>(n);
    end_row(f, field);
    return changed;
}

template <typename E>
struct Choice {
    E value;
    const char* label;
};

template <typename E, size_t N>
bool input_choice(Form& f, const char* label, const char* field, const Choice<E> (&choices)[N], E& v) {
    begin_row(f, label, field);
    const char* current = choices[0].label;
    for (const auto& c : choices)
        if (c.value == v) current = c.label;
    bool changed = false;
    ImGui::PushID(field);
    if (ImGui::BeginCombo("##v", current)) {
        for (const auto& c : choices) {
            if (ImGui::Selectable(c.label, c.value == v) && c.value != v) {
                v = c.value;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    ImGui::PopID();
    end_row(f, field);
    return changed;
}

const Choice<Method> kMethods[] = {{Method::Quick, "Quick (public calculator)"}, {Method::Guide, "Guide (cluster sizing)"}};
const Choice<QuickPrecision> kPrecisions[] = {{QuickPrecision::Fp32, "FP32 (4 bytes)"},
                                              {QuickPrecision::Fp16, "FP16 (2 bytes)"},
                                              {QuickPrecision::Bf16, "BF16 (2 bytes)"},
                                              {QuickPrecision::Int8, "INT8 (1 byte)"},
                                              {QuickPrecision::Int4, "INT4 (0.5 bytes)"}};
const Choice<QuickOptimizer> kOptimizers[] = {{QuickOptimizer::AdamWMixed, "AdamW mixed (12 B)"},
                                              {QuickOptimizer::AdamW, "AdamW (8 B)"},
                                              {QuickOptimizer::AdamW8bit, "8-bit AdamW (2 B)"},
                                              {QuickOptimizer::Sgd, "SGD momentum (4 B)"},
                                              {QuickOptimizer::Inference, "None: inference (0 B)"}};
const Choice<Task> kGuideTasks[] = {{Task::Training, "Training (per GPU)"}, {Task::Inference, "Inference"}};

bool quick_inputs(Form& f) {
    QuickInputs& q = f.a.inputs.quick;
    bool changed = false;
    changed |= input_double(f, "Parameters (billions)", "params_b", {}, q.params_b, 1, 10, "%.6g");
    changed |= input_choice(f, "Weight precision", "precision", kPrecisions, q.precision);
    changed |= input_choice(f, "Optimizer (per param)", "optimizer", kOptimizers, q.optimizer);
    changed |= input_count(f, "Batch size", "batch", q.batch, 1, 8);
    changed |= input_count(f, "Sequence length", "seq", q.seq, 256, 2048);
    begin_row(f, "Checkpointing", "checkpointing");
    char label[64];
    std::snprintf(label, sizeof label, "activations x %g##checkpointing", q.constants.checkpoint_factor);
    changed |= ImGui::Checkbox(label, &q.checkpointing);
    end_row(f, "checkpointing");
    return changed;
}

// The guide's formulas read the model's layers, hidden size and heads, and one byte width: bytes per
// value p for training, bytes per weight for inference.
bool guide_inputs(Form& f) {
    Config& c = f.a.inputs;
    bool changed = false;
    changed |= input_choice(f, "Task", "task", kGuideTasks, c.task);
    // The typed count overrides the one the architecture implies (as `--params` does in the CLI).
    changed |= input_double(f, "Parameters (billions)", "params_b", {"params", "model.params_b"}, c.quick.params_b, 1, 10, "%.6g");
    c.model.params_override_b = c.quick.params_b;
    changed |= input_count(f, "Layers (L)", "model.layers", c.model.layers, 1, 8);
    changed |= input_count(f, "Hidden size (h)", "model.hidden", c.model.hidden, 256, 1024);
    changed |= input_count(f, "Attention heads", "model.heads", c.model.heads, 1, 8);
    if (c.task == Task::Inference)
        changed |= input_double(f, "Bytes per weight", "guide.weight_bytes", {"bytes"}, c.guide_weight_bytes, 0.5, 1, "%.6g");
    else
        changed |= input_double(f, "Bytes per value (p)", "guide.bytes", {"bytes"}, c.guide_bytes, 0.5, 1, "%.6g");
    changed |= input_count(f, "Batch size (b)", "batch", c.quick.batch, 1, 8);
    changed |= input_count(f, "Sequence length (s)", "seq", c.quick.seq, 256, 2048);
    if (c.task != Task::Inference) changed |= input_count(f, "GPUs", "gpus", c.gpus, 1, 8);
    return changed;
}

// The inputs table; returns true when an input changed.
bool inputs_panel(App& a) {
    Form f{a};
    bool changed = false;
    if (ImGui::BeginTable("inputs", 2, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, a.embed.compact ? kCompactLabelWidthPx : kLabelWidthPx);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        changed |= input_choice(f, "Method", "method", kMethods, a.inputs.method);
        changed |= a.inputs.method == Method::Guide ? guide_inputs(f) : quick_inputs(f);
        ImGui::EndTable();
    }
    // An error about a field without a row here (e.g. a constant) is shown under the table.
    if (!a.error.field.empty() && !f.error_shown) error_text(a.error.message);
    return changed;
}

// [SECTION] breakdown -----------------------------------------------------------------------------
// The stacked bar: one segment per component, then the method's safety margin, scaled so the whole
// bar is the buffered total. Hovering a segment shows its size in both units and its formula.
void breakdown_bar(App& a) {
    const Estimate& e = a.result;
    const double whole = e.buffered_bytes > e.total_bytes ? e.buffered_bytes : e.total_bytes;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::InvisibleButton("##bar", ImVec2(width, kBarHeightPx));
    a.widgets.push_back(WidgetRect{"breakdown_bar", origin.x, origin.y, width, kBarHeightPx});
    if (whole <= 0) return;
    const bool bar_hovered = ImGui::IsItemHovered();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* dl = ImGui::GetWindowDrawList();

    float x = origin.x;
    auto segment = [&](double bytes, ImU32 color, const char* label, const std::string& formula) {
        const float w = static_cast<float>(bytes / whole) * width;
        if (w <= 0) return;
        const ImVec2 lo(x, origin.y), hi(x + w, origin.y + kBarHeightPx);
        dl->AddRectFilled(lo, hi, color);
        if (w >= 2) dl->AddLine(ImVec2(hi.x, lo.y), ImVec2(hi.x, hi.y), IM_COL32(20, 22, 28, 255));
        if (bar_hovered && mouse.x >= lo.x && mouse.x < hi.x) {
            dl->AddRect(lo, hi, IM_COL32(255, 255, 255, 255), 0, 0, 2);
            ImGui::BeginTooltip();
            ImGui::TextUnformatted(label);
            bytes_tooltip_lines(bytes);
            if (!formula.empty()) ImGui::TextColored(g_text.dim, "%s", formula.c_str());
            ImGui::EndTooltip();
        }
        // Label inside the segment when it has room.
        const std::string text = std::string(label) + "  " + size_text(a, bytes);
        const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
        if (ts.x + 8 <= w)
            dl->AddText(ImVec2(lo.x + 4, lo.y + (kBarHeightPx - ts.y) / 2), IM_COL32(255, 255, 255, 255), text.c_str());
        x += w;
    };
    int i = 0;
    for (const auto& c : e.components) segment(c.bytes, component_color(c.key, i++), c.label.c_str(), c.formula);
    if (e.buffered_bytes > e.total_bytes) segment(e.buffered_bytes - e.total_bytes, kBufferColor, "Safety margin", "");
}

// The legend: colour, component, size, share of the total, formula.
void breakdown_table(const App& a) {
    const Estimate& e = a.result;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH;
    const bool formulas = !a.embed.compact;  // a docs column has no room: the bar's tooltips show them
    if (!ImGui::BeginTable("breakdown", formulas ? 4 : 3, flags)) return;
    ImGui::TableSetupColumn("Component");
    ImGui::TableSetupColumn(a.show_gib ? "GiB (2^30 B)" : "GB (1e9 B)");
    ImGui::TableSetupColumn("Share");
    if (formulas) ImGui::TableSetupColumn("Formula", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    int i = 0;
    for (const auto& c : e.components) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        const float sq = ImGui::GetTextLineHeight() * 0.7f;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float pad = (ImGui::GetTextLineHeight() - sq) / 2;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + sq, p.y + pad + sq), component_color(c.key, i++));
        ImGui::Dummy(ImVec2(sq, sq));
        ImGui::SameLine();
        ImGui::TextUnformatted(c.label.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%.2f", a.show_gib ? bytes_to_gib(c.bytes) : bytes_to_gb(c.bytes));
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            bytes_tooltip_lines(c.bytes);
            ImGui::EndTooltip();
        }
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%.1f%%", e.total_bytes > 0 ? 100.0 * c.bytes / e.total_bytes : 0.0);
        if (!formulas) continue;
        ImGui::TableSetColumnIndex(3);
        ImGui::TextColored(g_text.dim, "%s", c.formula.c_str());
    }
    ImGui::EndTable();
}

// [SECTION] results -------------------------------------------------------------------------------
// Puts the next item (showing `text`) on the current line: at `x` on the full page, right-aligned
// in a compact layout, where the column is too narrow for fixed positions.
void same_line_value(const App& a, float x, const char* text) {
    if (a.embed.compact)
        ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(text).x);
    else
        ImGui::SameLine(x);
}

void big_figure(const App& a, const char* label, double bytes) {
    ImGui::TextColored(g_text.dim, "%s", label);
    const std::string value = size_text(a, bytes);
    same_line_value(a, kLabelWidthPx + 60, value.c_str());
    ImGui::TextUnformatted(value.c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        bytes_tooltip_lines(bytes);
        ImGui::EndTooltip();
    }
}

const char* gpu_name(const std::string& id) {
    const GpuSpec* g = find_gpu(id);
    return g ? g->name.c_str() : id.c_str();
}

// The quick method's two GPU counts (ceil(buffered / nominal GB)); the guide's per-GPU fit for
// each catalog GPU.
void gpu_counts(const App& a) {
    const Estimate& e = a.result;
    if (e.method == "quick") {
        ImGui::TextWrapped("GPUs needed (safety-margin total / the GPU's nominal GB, rounded up)");
        for (const auto& f : e.fits) {
            ImGui::TextColored(g_text.dim, "%s", gpu_name(f.gpu_id));
            char count[32];
            std::snprintf(count, sizeof count, "%d GPU%s", f.gpus_needed, f.gpus_needed == 1 ? "" : "s");
            same_line_value(a, kLabelWidthPx + 160, count);
            ImGui::TextUnformatted(count);
        }
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | (a.embed.compact ? ImGuiTableFlags_SizingStretchProp : ImGuiTableFlags_SizingFixedFit);
    if (!ImGui::BeginTable("fits", 3, flags)) return;
    ImGui::TableSetupColumn("GPU (per-GPU total vs its memory)");
    ImGui::TableSetupColumn("Used");
    ImGui::TableSetupColumn("Fits");
    ImGui::TableHeadersRow();
    for (const auto& f : e.fits) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(gpu_name(f.gpu_id));
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%.0f%%", f.utilization * 100);
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(f.fits ? (f.within_target ? "yes" : "yes, above target") : "no");
    }
    ImGui::EndTable();
}

void results_panel(App& a) {
    if (!a.has_result) {
        ImGui::TextWrapped("No result yet: fix the input marked in red.");
        return;
    }
    const Estimate& e = a.result;
    ImGui::Text("%s method, %s", e.method == "quick" ? "Quick" : "Guide", e.task.c_str());
    if (!a.error.field.empty()) error_text("The input is invalid (see the message in red): showing the last valid result.");
    ImGui::Spacing();
    breakdown_bar(a);
    ImGui::Spacing();
    breakdown_table(a);
    ImGui::Spacing();
    ImGui::Separator();
    big_figure(a, "Total", e.total_bytes);
    if (e.buffered_bytes > e.total_bytes) {
        char label[64];
        std::snprintf(label, sizeof label, "With safety margin (+%.0f%%)", 100.0 * (e.buffered_bytes / e.total_bytes - 1));
        big_figure(a, label, e.buffered_bytes);
    }
    ImGui::Separator();
    gpu_counts(a);
    ImGui::Spacing();
    for (const auto& n : e.notes) {
        ImGui::PushStyleColor(ImGuiCol_Text, g_text.dim);
        ImGui::TextWrapped("%s", n.c_str());
        ImGui::PopStyleColor();
    }
}

void units_choice(App& a) {
    if (ImGui::RadioButton("GB", !a.show_gib)) a.show_gib = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("GiB", a.show_gib)) a.show_gib = true;
}

// The Embed button: the page (web/embed.js) copies an <iframe> snippet of the current inputs.
void embed_button(App& a) {
    if (ImGui::Button("Embed")) a.embed_requested = true;
    ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    a.widgets.push_back(WidgetRect{"embed", min.x, min.y, max.x - min.x, max.y - min.y});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy an <iframe> snippet of this calculator, with these inputs, for your docs");
}

void header(App& a) {
    ImGui::TextUnformatted("vramcalc: GPU memory for training and serving LLMs");
    ImGui::SameLine();
    const float units_w = 190, embed_w = 80;
    ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - units_w - embed_w);
    embed_button(a);
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - units_w);
    ImGui::TextColored(g_text.dim, "Units");
    ImGui::SameLine();
    units_choice(a);
    ImGui::TextColored(g_text.dim, "Runs locally: nothing you type leaves your machine.");
    ImGui::Separator();
}

// One line for a docs column: the name and the units.
void compact_header(App& a) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(g_text.dim, "vramcalc: GPU memory");
    const float units_w = 112;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - units_w);
    units_choice(a);
    ImGui::Separator();
}

}  // namespace

// [SECTION] frame ---------------------------------------------------------------------------------
void ui_setup() {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigInputTextCursorBlink = false;  // a blinking cursor would need frames while idle
    ImFontConfig fc;
    fc.FontDataOwnedByAtlas = false;  // static data
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kFontTtf), static_cast<int>(kFontTtfSize), kFontSizePx, &fc,
                                   reinterpret_cast<const ImWchar*>(kFontRanges));
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowPadding = ImVec2(16, 12);
    style.FramePadding = ImVec2(8, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.FrameRounding = 3;
}

void ui_draw(App& a) {
    a.widgets.clear();
    apply_theme(a.embed.light);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    const bool compact = a.embed.compact;
    if (compact) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(kCompactPaddingPx, kCompactPaddingPx));
    ImGui::Begin("vramcalc", nullptr, flags);
    if (compact) {
        ImGui::PopStyleVar();
        compact_header(a);
    } else {
        header(a);
    }
    bool changed = false;
    if (!compact && vp->WorkSize.x >= kTwoColumnMinWidthPx) {
        ImGui::BeginChild("inputs", ImVec2(kInputsWidthPx, 0));
        changed = inputs_panel(a);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("results", ImVec2(0, 0));
        if (changed) recompute(a);
        results_panel(a);
        ImGui::EndChild();
    } else {
        changed = inputs_panel(a);
        if (changed) recompute(a);
        ImGui::Separator();
        results_panel(a);
    }
    // What a single column needs, so an embedding page can size its iframe to fit.
    const ImGuiStyle& style = ImGui::GetStyle();
    a.content_height_px = ImGui::GetCursorPosY() - style.ItemSpacing.y + (compact ? kCompactPaddingPx : style.WindowPadding.y);
    ImGui::End();
}

}  // namespace vc::shell
