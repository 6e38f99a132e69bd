// vramcalc shell: the results. Everything here reads App::results (recomputed only when the
// inputs change) and draws; a click on a GPU row chooses that GPU.
//
// [SECTIONS]
//   helpers     lookups and small drawing helpers
//   headline    per-GPU total and the verdict on the chosen GPU
//   breakdown   the stacked bar (hover: bytes, share, formula) and the table
//   peak        allocated vs reserved vs device total
//   compare     the same scenario under every method
//   answers     what fits, speed
//   gpus        the fit table over the catalog
//   panel       the results column
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "core/serve/inference.hpp"
#include "state/format.hpp"
#include "state/report.hpp"
#include "state/rules.hpp"
#include "state/scenario.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

// [SECTION] helpers -------------------------------------------------------------------------------
constexpr float kBarHeightPx = 30;
constexpr float kMiniBarHeightPx = 12;

ImVec4 verdict_color(const GpuFit& f) {
    return f.within_target ? palette().good : f.fits ? palette().warn : palette().error;
}

// A horizontal bar segment by segment; returns the index of the hovered segment (-1: none).
struct Segment {
    double bytes;
    ImU32 color;
};
int stacked_bar(const Segment* segs, int n, double scale_bytes, ImVec2 origin, float width, float height, bool hovered) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    float x = origin.x;
    int hit = -1;
    dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), palette().bar_track, 2);
    for (int i = 0; i < n; ++i) {
        const float w = scale_bytes > 0 ? static_cast<float>(segs[i].bytes / scale_bytes) * width : 0;
        if (w <= 0) continue;
        const ImVec2 lo(x, origin.y), hi(std::min(x + w, origin.x + width), origin.y + height);
        dl->AddRectFilled(lo, hi, segs[i].color);
        if (w >= 3) dl->AddLine(ImVec2(hi.x - 0.5f, lo.y), ImVec2(hi.x - 0.5f, hi.y), ImGui::GetColorU32(ImGuiCol_WindowBg), 1);
        if (hovered && mouse.x >= lo.x && mouse.x < hi.x) hit = i;
        x += w;
    }
    return hit;
}

// A vertical tick across a bar at `share` of its width.
float bar_tick(ImVec2 origin, float width, float height, double share, ImU32 color, bool dashed) {
    if (share <= 0 || share > 1.0001) return -1;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float x = std::round(origin.x + static_cast<float>(share) * width) + 0.5f;
    if (dashed) {
        for (float y = origin.y - 3; y < origin.y + height + 3; y += 4) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 2, origin.y + height + 3)), color, 1.5f);
    } else {
        dl->AddLine(ImVec2(x, origin.y - 4), ImVec2(x, origin.y + height + 4), color, 2);
    }
    return x;
}

// A small label under a bar, centred on `x` but kept inside [lo, hi]; returns its left edge.
float tick_label(float x, float y, float lo, float hi, ImU32 color, const char* text) {
    ImGui::PushFont(font(Font::Small));
    const ImVec2 sz = ImGui::CalcTextSize(text);
    const float lx = std::min(std::max(x - sz.x / 2, lo), hi - sz.x);
    ImGui::GetWindowDrawList()->AddText(ImVec2(lx, y), color, text);
    ImGui::PopFont();
    return lx;
}

// [SECTION] headline ------------------------------------------------------------------------------
// Above a rule of thumb's figure: the detailed model's (the answer), a button back to it, and each
// input the user set that the rule ignores (state/rules.hpp), in the warning colour.
void rule_banner(App& a) {
    const Results& r = a.results;
    const bool gib = a.ui.show_gib;
    const MethodResult* detailed = nullptr;
    for (const auto& m : r.methods)
        if (m.method == Method::Detailed) detailed = &m;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::PushFont(font(Font::Bold));
    if (detailed && detailed->ok) text_wrapped("The answer, from the detailed model: %s per GPU", format_size(headline_bytes(detailed->estimate), gib).c_str());
    else if (detailed) text_wrapped("The detailed model has no answer for these inputs: %s", detailed->error.message.c_str());
    else text_wrapped("The detailed model's answer follows\xe2\x80\xa6");
    ImGui::PopFont();
    reg_rect(a, "rule/answer", at, ImGui::GetItemRectMax());
    if (button(a, "rule/use_detailed", "Show the detailed model", "Switch the method to Detailed: the architecture-aware model every answer on this page uses.")) {
        set_method(a.inputs, Method::Detailed);
        mark_changed(a);
    }
    const std::vector<std::string> ignored = rule_ignores(a.inputs, a.inputs.method);
    for (size_t i = 0; i < ignored.size(); ++i) {
        const ImVec2 from = ImGui::GetCursorScreenPos();
        ImGui::PushStyleColor(ImGuiCol_Text, palette().warn);
        ImGui::PushFont(font(Font::Bold));
        text_wrapped("IGNORED: %s", ignored[i].c_str());
        ImGui::PopFont();
        ImGui::PopStyleColor();
        reg_rect(a, "rule/ignores/" + std::to_string(i), from, ImGui::GetItemRectMax());
    }
    dim_text("The rule's own figure:");
}

void headline(App& a) {
    const Results& r = a.results;
    const Estimate& e = r.estimate;
    const bool gib = a.ui.show_gib;
    const bool rule = a.inputs.method != Method::Detailed;
    const char* task = e.task == "inference" ? "inference" : e.task == "finetune" ? "fine-tuning" : a.inputs.task == Task::FineTune ? "fine-tuning" : "training";
    ImGui::PushFont(font(rule ? Font::Bold : Font::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, rule ? palette().warn : palette().dim);
    // A rule of thumb is a comparison, never the answer: the detailed model's figure comes first.
    if (rule) text_wrapped("RULE OF THUMB (%s METHOD), SHOWN AS A COMPARISON: NOT THE ANSWER", a.inputs.method == Method::Quick ? "QUICK" : "GUIDE");
    else ImGui::Text("MEMORY PER GPU  \xc2\xb7  %s method, %s", method_label(a.inputs.method), task);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    if (rule) rule_banner(a);

    ImGui::PushFont(font(Font::Headline));
    const std::string big = format_size(headline_bytes(e), gib);
    ImGui::TextUnformatted(big.c_str());
    ImGui::PopFont();
    reg(a, "headline");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        bytes_tooltip(headline_bytes(e));
        ImGui::EndTooltip();
    }
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);
    ImGui::Dummy(ImVec2(0, 2));
    const GpuSpec* g = config_gpu(a.inputs);
    const GpuFit* f = g ? chosen_fit(a.inputs, r) : nullptr;
    if (g && f) {
        ImGui::PushStyleColor(ImGuiCol_Text, verdict_color(*f));
        text_wrapped("\xe2\x97\x8f %s%s on one %s%s", rule ? "By this rule: " : "", verdict_text(*f).c_str(), g->name.c_str(), ram_text(*f, gib).c_str());
        ImGui::PopStyleColor();
        dim_text("%s of %s", format_percent(f->utilization).c_str(), format_size(g->memory_bytes, gib).c_str());
        dim_text("%s", budget_text(a.inputs, r.target_utilization, gib).c_str());
        reg(a, "budget");
    } else {
        dim_text("Choose a GPU for a fit verdict.");
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    if (e.buffered_bytes > e.total_bytes)
        dim_text("%s computed + %.0f%% safety margin of the method", format_size(e.total_bytes, gib).c_str(), 100 * (e.buffered_bytes / e.total_bytes - 1));
    if (!a.error.field.empty()) {
        error_text("Invalid input (" + a.error.field + "): showing the last valid result.");
        reg(a, "stale");
    }
}

// [SECTION] breakdown -----------------------------------------------------------------------------
void breakdown_bar(App& a) {
    const Estimate& e = a.results.estimate;
    const bool gib = a.ui.show_gib;
    const GpuSpec* g = config_gpu(a.inputs);
    const double whole = headline_bytes(e);
    // Scale: the GPU's memory when one is chosen (the bar shows how full it is), else the total.
    const double scale = g ? std::max(whole, g->memory_bytes) : whole;
    std::vector<Segment> segs;
    int i = 0;
    for (const auto& c : e.components) segs.push_back({c.bytes, component_color(c.key, i++)});
    if (e.buffered_bytes > e.total_bytes) segs.push_back({e.buffered_bytes - e.total_bytes, IM_COL32(128, 134, 145, 160)});

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float label_room = g ? 18.0f : 0.0f;
    ImGui::Dummy(ImVec2(width, kBarHeightPx + label_room));
    reg_rect(a, "breakdown_bar", origin, ImVec2(origin.x + width, origin.y + kBarHeightPx));
    const bool hovered = ImGui::IsMouseHoveringRect(origin, ImVec2(origin.x + width, origin.y + kBarHeightPx)) && ImGui::IsWindowHovered();
    const int hit = stacked_bar(segs.data(), static_cast<int>(segs.size()), scale, origin, width, kBarHeightPx, hovered);
    if (g) {
        const std::string cap = format_size(g->memory_bytes, gib) + " (" + g->name + ")";
        const std::string tgt = "target " + format_percent(a.results.target_utilization);
        const float tx = bar_tick(origin, width, kBarHeightPx, g->memory_bytes * a.results.target_utilization / scale, palette().target, true);
        const float cx = bar_tick(origin, width, kBarHeightPx, g->memory_bytes / scale, palette().capacity, false);
        const float y = origin.y + kBarHeightPx + 5;
        // The capacity's label first; the target's ends before it when they would overlap.
        const float cap_left = cx >= 0 ? tick_label(cx, y, origin.x, origin.x + width, palette().capacity, cap.c_str()) : origin.x + width;
        if (tx >= 0) {
            ImGui::PushFont(font(Font::Small));
            const float tw = ImGui::CalcTextSize(tgt.c_str()).x;
            const float cap_right = cap_left + ImGui::CalcTextSize(cap.c_str()).x;
            ImGui::PopFont();
            if (tw <= cap_left - 8 - origin.x) {
                if (tx + tw / 2 + 8 > cap_left) tick_label(cap_left - 8 - tw / 2, y, origin.x, cap_left - 8, palette().target, tgt.c_str());
                else tick_label(tx, y, origin.x, cap_left - 8, palette().target, tgt.c_str());
            } else if (cx >= 0 && origin.x + width - cap_right - 8 >= tw) {
                tick_label(cap_right + 8 + tw / 2, y, cap_right + 8, origin.x + width, palette().target, tgt.c_str());
            }  // else no room on a narrow screen: the headline states the target

        }
    }
    if (hit >= 0) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        float x = origin.x;
        for (int k = 0; k < hit; ++k) x += static_cast<float>(segs[k].bytes / scale) * width;
        const float w = static_cast<float>(segs[hit].bytes / scale) * width;
        dl->AddRect(ImVec2(x, origin.y), ImVec2(x + w, origin.y + kBarHeightPx), palette().highlight, 0, 0, 2);
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(tooltip_wrap(30));
        if (hit < static_cast<int>(e.components.size())) {
            const Component& c = e.components[hit];
            ImGui::PushFont(font(Font::Bold));
            ImGui::TextUnformatted(c.label.c_str());
            ImGui::PopFont();
            bytes_tooltip(c.bytes);
            ImGui::Text("%s of the total", format_percent(e.total_bytes > 0 ? c.bytes / e.total_bytes : 0).c_str());
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            text_wrapped("= %s", sizes_in_unit(c.formula, gib).c_str());
            ImGui::PopStyleColor();
        } else {
            ImGui::TextUnformatted("The method's safety margin");
            bytes_tooltip(e.buffered_bytes - e.total_bytes);
        }
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void breakdown_table(App& a, bool narrow) {
    const Estimate& e = a.results.estimate;
    const bool gib = a.ui.show_gib;
    const int cols = narrow ? 3 : 4;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings;
    if (!ImGui::BeginTable("breakdown", cols, flags)) return;
    char unit[16];
    std::snprintf(unit, sizeof unit, "%s", unit_label(gib));
    // The text columns take the room the figures leave and wrap in it (a phone: the component's
    // name; wider: the formula), so the figures are never pushed past the edge or cut.
    ImGui::TableSetupColumn("Component", narrow ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(unit, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed);
    if (!narrow) ImGui::TableSetupColumn("Formula (numbers put in)", ImGuiTableColumnFlags_WidthStretch);
    ImGui::PushFont(font(Font::Small));
    ImGui::TableHeadersRow();
    ImGui::PopFont();
    int i = 0;
    auto right_aligned = [](const std::string& s) {
        const float w = ImGui::CalcTextSize(s.c_str()).x;
        const float avail = ImGui::GetContentRegionAvail().x;
        if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
        ImGui::TextUnformatted(s.c_str());
    };
    for (const auto& c : e.components) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        const float sq = ImGui::GetTextLineHeight() * 0.62f;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float pad = (ImGui::GetTextLineHeight() - sq) / 2;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + sq, p.y + pad + sq), component_color(c.key, i++), 2);
        ImGui::Dummy(ImVec2(sq, sq));
        ImGui::SameLine();
        if (narrow) text_wrapped("%s", c.label.c_str());  // a stretch column: wraps at its edge
        else ImGui::TextUnformatted(c.label.c_str());      // a column as wide as its longest label
        if (narrow) tooltip(sizes_in_unit(c.formula, gib).c_str());
        ImGui::TableSetColumnIndex(1);
        right_aligned(format_size_value(c.bytes, gib));
        reg(a, "breakdown/" + c.key);
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            bytes_tooltip(c.bytes);
            ImGui::EndTooltip();
        }
        ImGui::TableSetColumnIndex(2);
        right_aligned(format_percent(e.total_bytes > 0 ? c.bytes / e.total_bytes : 0));
        reg(a, "breakdown/" + c.key + "/share");
        if (!narrow) {
            ImGui::TableSetColumnIndex(3);
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            text_wrapped("%s", sizes_in_unit(c.formula, gib).c_str());
            ImGui::PopStyleColor();
            reg(a, "breakdown/" + c.key + "/formula");
        }
    }
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::PushFont(font(Font::Bold));
    ImGui::TextUnformatted("Total");
    ImGui::TableSetColumnIndex(1);
    right_aligned(format_size_value(e.total_bytes, gib));
    ImGui::TableSetColumnIndex(2);
    right_aligned("100.0%");
    ImGui::PopFont();
    ImGui::EndTable();
    reg(a, "breakdown");
}

// [SECTION] peak ----------------------------------------------------------------------------------
// The detailed training method's peak allocated vs reserved vs device total.
void peak_figures(App& a) {
    const Estimate& e = a.results.estimate;
    const Metric* alloc = e.metric("peak_allocated_bytes");
    const Metric* reserved = e.metric("peak_reserved_bytes");
    const Metric* device = e.metric("device_total_bytes");
    if (!alloc || !reserved) return;
    panel_begin("peak", "PEAK ALLOCATED VS RESERVED");
    const bool gib = a.ui.show_gib;
    const double top = device ? device->value : reserved->value;
    struct Line {
        const char* id;
        const char* label;
        const char* tip;
        double v;
    };
    const Line lines[] = {
        {"allocated", "Allocated (max_memory_allocated)", "Tensors alive at the peak: what PyTorch's max_memory_allocated reports.", alloc->value},
        {"reserved", "Reserved (caching allocator)", "Allocated plus the caching allocator's free blocks: max_memory_reserved.", reserved->value},
        {"device", "Device total (nvidia-smi)", "Reserved plus the CUDA context and NCCL buffers outside the allocator.", device ? device->value : 0},
    };
    const float label_w = std::min(ImGui::GetContentRegionAvail().x * 0.45f, 250.0f);
    for (const auto& l : lines) {
        if (l.v <= 0) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
        ImGui::TextUnformatted(l.label);
        ImGui::PopStyleColor();
        tooltip(l.tip);
        ImGui::SameLine(label_w);
        const std::string v = format_size(l.v, gib);
        const float text_w = ImGui::CalcTextSize("0,000.00 GiB").x;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float bar_w = std::max(20.0f, ImGui::GetContentRegionAvail().x - text_w - 10);
        const float y = at.y + (ImGui::GetTextLineHeight() - kMiniBarHeightPx) / 2;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + bar_w, y + kMiniBarHeightPx), palette().bar_track, 2);
        dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + bar_w * static_cast<float>(top > 0 ? l.v / top : 0), y + kMiniBarHeightPx),
                          ImGui::GetColorU32(palette().accent), 2);
        ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
        ImGui::SameLine();
        ImGui::TextUnformatted(v.c_str());
        reg(a, std::string("peak/") + l.id);
    }
    panel_end();
}

// [SECTION] compare -------------------------------------------------------------------------------
void comparison(App& a) {
    const Results& r = a.results;
    if (!r.complete) {
        panel_begin("compare", "SAME SCENARIO, EVERY METHOD");
        dim_text("Computing\xe2\x80\xa6");
        panel_end();
        return;
    }
    if (r.methods.empty()) return;
    panel_begin("compare", "SAME SCENARIO, EVERY METHOD");
    const bool gib = a.ui.show_gib;
    double top = 0, detailed = 0;
    for (const auto& m : r.methods)
        if (m.ok) {
            top = std::max(top, headline_bytes(m.estimate));
            if (m.method == Method::Detailed) detailed = headline_bytes(m.estimate);
        }
    ImGui::PushFont(font(Font::Bold));  // the present method's name is bold: the widest
    const float name_w = ImGui::CalcTextSize("Detailed").x + 12;
    ImGui::PopFont();
    const float value_w = ImGui::CalcTextSize("000,000 GiB  0,000x").x;  // the widest figure and ratio
    for (const auto& m : r.methods) {
        const bool current = m.method == a.inputs.method;
        ImGui::PushFont(current ? font(Font::Bold) : font(Font::Body));
        ImGui::TextUnformatted(method_label(m.method));
        ImGui::PopFont();
        ImGui::SameLine(name_w);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float bar_w = std::max(20.0f, ImGui::GetContentRegionAvail().x - value_w - 8);
        if (!m.ok) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
            ImGui::TextUnformatted(("n/a: " + m.error.message).c_str());
            ImGui::PopStyleColor();
            tooltip(m.error.message.c_str());
            reg(a, std::string("compare/") + method_name(m.method));
            continue;
        }
        std::vector<Segment> segs;
        int i = 0;
        for (const auto& c : m.estimate.components) segs.push_back({c.bytes, component_color(c.key, i++)});
        if (m.estimate.buffered_bytes > m.estimate.total_bytes)
            segs.push_back({m.estimate.buffered_bytes - m.estimate.total_bytes, IM_COL32(128, 134, 145, 160)});
        const float y = at.y + (ImGui::GetTextLineHeight() - kMiniBarHeightPx) / 2;
        ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
        const bool hovered = ImGui::IsItemHovered();
        const int hit = stacked_bar(segs.data(), static_cast<int>(segs.size()), top, ImVec2(at.x, y), bar_w, kMiniBarHeightPx, hovered);
        ImGui::SameLine();
        char ratio[32] = "";
        if (detailed > 0 && m.method != Method::Detailed) {
            const double x = headline_bytes(m.estimate) / detailed;  // three significant digits: 0.72x, 6.81x, 11.8x, 1,181x
            if (x < 10) std::snprintf(ratio, sizeof ratio, "  %.2fx", x);
            else if (x < 100) std::snprintf(ratio, sizeof ratio, "  %.1fx", x);
            else std::snprintf(ratio, sizeof ratio, "  %sx", format_count(std::round(x)).c_str());
        }
        ImGui::Text("%s%s", format_size(headline_bytes(m.estimate), gib).c_str(), ratio);
        reg(a, std::string("compare/") + method_name(m.method));
        if (hit >= 0 && hit < static_cast<int>(m.estimate.components.size())) {
            const Component& c = m.estimate.components[hit];
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(tooltip_wrap(30));
            ImGui::Text("%s: %s", c.label.c_str(), format_size(c.bytes, gib).c_str());
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            text_unformatted(sizes_in_unit(c.formula, gib).c_str());
            ImGui::PopStyleColor();
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    if (detailed > 0) dim_text("Ratios are to the detailed model. Rules of thumb ignore the architecture, the framework and the runtime.");
    panel_end();
}

// [SECTION] answers -------------------------------------------------------------------------------
void answers(App& a) {
    const Results& r = a.results;
    if (r.answers.empty()) return;
    panel_begin("answers", a.inputs.method == Method::Detailed ? "WHAT FITS" : "WHAT FITS (DETAILED MODEL)");
    const bool gib = a.ui.show_gib;
    const float label_w = std::min(ImGui::GetContentRegionAvail().x * 0.5f, 290.0f);
    for (const auto& s : r.answers) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
        ImGui::TextUnformatted(s.label.c_str());
        ImGui::PopStyleColor();
        // The answer beside its question, or under it when the question is longer than its column.
        if (ImGui::CalcTextSize(s.label.c_str()).x + 8 <= label_w) ImGui::SameLine(label_w);
        else ImGui::Indent(16);
        const bool indented = ImGui::CalcTextSize(s.label.c_str()).x + 8 > label_w;
        if (!s.ok) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
            text_wrapped("n/a: %s", s.error.message.c_str());
            ImGui::PopStyleColor();
            reg(a, "answer/" + s.question);
            if (indented) ImGui::Unindent(16);
            continue;
        }
        ImGui::BeginGroup();
        ImGui::PushFont(font(Font::Bold));
        if (!s.answer.items.empty()) {
            std::string list;
            for (size_t i = 0; i < s.answer.items.size() && i < 4; ++i) list += (i ? ", " : "") + s.answer.items[i];
            if (s.answer.items.size() > 4) list += ", \xe2\x80\xa6";
            text_wrapped("%s", list.c_str());
        } else if (s.answer.value <= 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
            ImGui::TextUnformatted("none fits");
            ImGui::PopStyleColor();
            // Why, without hovering (touch screens cannot): the explanation names what to change.
            ImGui::PopFont();
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            ImGui::SameLine();
            text_wrapped("%s", sizes_in_unit(s.answer.explanation, gib).c_str());
            ImGui::PopStyleColor();
            ImGui::PushFont(font(Font::Bold));
        } else {
            ImGui::TextUnformatted(format_value(s.answer.value, s.answer.unit, gib).c_str());
        }
        ImGui::PopFont();
        // Bounded by the GPU part alone, with system RAM nobody checked (the verdict's rule): said
        // under the value, in the verdict's warning colour, without hovering.
        if (s.answer.needs_ram_bytes > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().warn);
            text_wrapped("%s", answer_ram_text(s.answer, gib).c_str());
            ImGui::PopStyleColor();
        }
        ImGui::EndGroup();
        reg(a, "answer/" + s.question);
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(tooltip_wrap(30));
            text_unformatted(sizes_in_unit(s.answer.explanation, gib).c_str());
            for (const auto& item : s.answer.items) ImGui::BulletText("%s", item.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        if (indented) ImGui::Unindent(16);
    }
    panel_end();
}

// When the config does not fit its GPU within the target: the smallest changes that do, each with
// its total from the detailed model, applied with one click.
void suggestions(App& a) {
    const Results& r = a.results;
    if (r.suggestions.empty()) return;
    panel_begin("suggestions", a.inputs.method == Method::Detailed ? "TO MAKE IT FIT" : "TO MAKE IT FIT (DETAILED MODEL)");
    const bool gib = a.ui.show_gib;
    const Suggestion* chosen = nullptr;
    for (const auto& s : r.suggestions) {
        ImGui::PushID(s.id.c_str());
        if (ImGui::SmallButton("Apply")) chosen = &s;
        reg(a, "suggestion/" + s.id);
        tooltip(s.detail.c_str());
        ImGui::PopID();
        ImGui::SameLine();
        text_wrapped("%s: %s (%s of one GPU)", s.label.c_str(), format_size(s.total_bytes, gib).c_str(),
                           format_percent(s.utilization).c_str());
    }
    panel_end();
    if (chosen) {
        const Method method = a.inputs.method;
        a.inputs = chosen->config;
        set_method(a.inputs, method);
        mark_changed(a);
    }
}

// The reverse question: which presets and formats fit this GPU (core/fit_models.hpp), best quality
// first, under the headline's budget; computed when opened (hundreds of estimates), one click loads
// a row into the calculator.
void model_fits_panel(App& a) {
    ImGui::Spacing();
    const bool open = ImGui::TreeNodeEx("Models that fit", ImGuiTreeNodeFlags_SpanAvailWidth);
    reg(a, "fit_models");
    if (!open) return;
    if (!a.model_fits_ready || a.model_fits_version != a.version) {
        auto r = fit_models(a.inputs);
        a.model_fits = r.ok ? r.value : ModelFits{};
        a.model_fits_error = r.ok ? std::string() : page_words(r.error.field + ": " + r.error.message);
        a.model_fits_version = a.version;
        a.model_fits_ready = true;
        a.publish = true;
    }
    const ModelFits& m = a.model_fits;
    if (!a.model_fits_error.empty()) error_text(a.model_fits_error);
    else dim_text("Budget %s. Larger models first, then higher precision; %d of %zu presets x formats fit.", m.budget.c_str(), m.fitting,
                  m.rows.size());
    const bool gib = a.ui.show_gib;
    const ModelFit* chosen = nullptr;
    int shown = 0;
    for (const auto& row : m.rows) {
        if (!row.fits || shown++ >= 12) continue;  // the page lists the best 12; vramcalc fit-models has all
        const std::string id = row.model + "/" + row.format;
        ImGui::PushID(id.c_str());
        if (ImGui::SmallButton("Load")) chosen = &row;
        reg(a, "fit_model/" + id);
        ImGui::PopID();
        ImGui::SameLine();
        text_wrapped("%s, %s%s: %s (%s of the budget)", row.model_name.c_str(), row.format_label.c_str(),
                           row.partial ? (", -ngl " + std::to_string(row.gpu_layers)).c_str() : "", format_size(row.load_bytes, gib).c_str(),
                           format_percent(row.share).c_str());
    }
    // llama.cpp rows whose split keeps layers or experts in system RAM of no stated size: not counted
    // as fitting; the best of them says what RAM it needs (`vramcalc fit-models` lists each).
    for (const auto& row : m.rows) {
        if (!row.needs_ram) continue;
        dim_text("%d more keep layers or experts in system RAM, not checked without its size (SYSTEM RAM): the best, %s, %s, needs %s.",
                 m.needing_ram, row.model_name.c_str(), row.format_label.c_str(), format_size(row.ram_bytes, gib).c_str());
        reg(a, "fit_models/needs_ram");
        break;
    }
    ImGui::TreePop();
    Error err;
    if (chosen && apply_model_fit(a.inputs, *chosen, err)) mark_changed(a);
}

// Roofline speed (inference) and the other figures the method reports.
void figures(App& a) {
    const Estimate& e = a.results.estimate;
    const bool gib = a.ui.show_gib;
    static const char* const kSpeed[] = {"decode_tokens_per_s", "decode_tokens_per_s_draft", "speculative_speedup", "decode_tokens_per_s_total", "ttft_s", "prefill_tokens_per_s"};
    bool any_speed = false;
    for (const char* k : kSpeed) any_speed |= e.metric(k) != nullptr;
    if (any_speed) {
        panel_begin("speed", "SPEED (ROOFLINE)");
        // As many columns as fit (4 on a desktop, 2 on a phone), each a caption over a figure.
        const float avail = ImGui::GetContentRegionAvail().x;
        const int cols = std::max(1, std::min(4, static_cast<int>(avail / 150)));
        if (ImGui::BeginTable("speed", cols, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_NoSavedSettings)) {
            for (const char* k : kSpeed) {
                const Metric* m = e.metric(k);
                if (!m) continue;
                ImGui::TableNextColumn();
                ImGui::PushFont(font(Font::Small));
                ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
                text_wrapped("%s", m->label.c_str());
                ImGui::PopStyleColor();
                ImGui::PopFont();
                ImGui::PushFont(font(Font::Bold));
                const std::string text = metric_text(*m, gib);
                ImGui::TextUnformatted(text.c_str());
                ImGui::PopFont();
                reg(a, std::string("metric/") + k);
                if (text == "unknown") tooltip("The GPU's memory bandwidth or TFLOP/s are not known: give them (GPU panel) for this figure.");
            }
            ImGui::EndTable();
        }
        panel_end();
    }
    if (e.metrics.empty()) return;
    ImGui::Spacing();
    if (ImGui::TreeNodeEx("All figures", ImGuiTreeNodeFlags_SpanAvailWidth)) {
        reg(a, "figures");
        for (const auto& m : e.metrics) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            ImGui::TextUnformatted(m.label.c_str());
            ImGui::PopStyleColor();
            ImGui::SameLine(std::min(ImGui::GetContentRegionAvail().x * 0.6f, 360.0f));
            std::string v = m.unit == "bytes/token" ? std::string() : metric_text(m, gib);
            if (m.unit == "bytes/token") v = format_exact_bytes(m.value) + " per token";
            ImGui::TextUnformatted(v.c_str());
            reg(a, "metric/" + m.key);
        }
        ImGui::TreePop();
    } else {
        reg(a, "figures");
    }
}

// [SECTION] gpus ----------------------------------------------------------------------------------
void gpu_table(App& a, bool narrow) {
    const Results& r = a.results;
    if (r.gpus.empty()) return;
    panel_begin("fits", "EVERY GPU");
    const bool gib = a.ui.show_gib;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_BordersInnerH;
    const int cols = narrow ? 3 : 5;
    if (!ImGui::BeginTable("fits", cols, flags)) {
        panel_end();
        return;
    }
    ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Use of one GPU vs target", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("GPUs", ImGuiTableColumnFlags_WidthFixed);
    if (!narrow) {
        ImGui::TableSetupColumn("Memory", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Price of that many", ImGuiTableColumnFlags_WidthFixed);
    }
    // What the counts mean (core gpu_count_rule): training's rows are the detailed model's "Fewest GPUs"
    // whatever the method shown (complete_results), serving's the method's own.
    Config counted = a.inputs;
    if (counted.task != Task::Inference) set_method(counted, Method::Detailed);
    const std::string count_rule = "GPUs " + gpu_count_rule(counted) + ".";
    ImGui::PushFont(font(Font::Small));
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < cols; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        if (c == 2) {
            tooltip(count_rule.c_str());
            reg(a, "fits/gpus_header");
        }
    }
    ImGui::PopFont();
    const double target = a.results.target_utilization;
    for (const auto& row : r.gpus) {
        const GpuFit& f = row.fit;
        const GpuSpec* g = fit_gpu(a.inputs, f.gpu_id);
        const std::string name = g ? g->name : f.gpu_id;
        const bool chosen = f.gpu_id == config_gpu_id(a.inputs);
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(f.gpu_id.c_str());
        std::string short_name = name;
        for (const char* prefix : {"NVIDIA GeForce ", "NVIDIA ", "AMD Instinct "})
            if (short_name.rfind(prefix, 0) == 0) short_name = short_name.substr(std::string(prefix).size());
        if (ImGui::Selectable(short_name.c_str(), chosen, ImGuiSelectableFlags_SpanAllColumns) && !chosen && g) {
            a.inputs.inference.has_custom_gpu = f.gpu_id == kCustomGpuId;
            if (!a.inputs.inference.has_custom_gpu) a.inputs.gpu_id = f.gpu_id;
            mark_changed(a);
        }
        ImGui::PopID();
        reg(a, "fit/" + f.gpu_id);
        tooltip(g ? g->source.c_str() : nullptr);

        ImGui::TableSetColumnIndex(1);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const std::string pct = format_percent(f.utilization);
        // Rows scrolled out of view draw no bar.
        if (!ImGui::IsRectVisible(at, ImVec2(at.x + 1, at.y + ImGui::GetTextLineHeight()))) {
            ImGui::TextUnformatted(pct.c_str());
            continue;
        }
        const float text_w = ImGui::CalcTextSize("9999.9%").x;
        const float bar_w = std::max(24.0f, ImGui::GetContentRegionAvail().x - text_w - 8);
        const float y = at.y + (ImGui::GetTextLineHeight() - kMiniBarHeightPx) / 2;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + bar_w, y + kMiniBarHeightPx), palette().bar_track, 2);
        const float used = static_cast<float>(std::min(f.utilization, 1.0)) * bar_w;
        dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + used, y + kMiniBarHeightPx), ImGui::GetColorU32(verdict_color(f)), 2);
        const float tx = std::round(at.x + static_cast<float>(target) * bar_w) + 0.5f;
        dl->AddLine(ImVec2(tx, y - 2), ImVec2(tx, y + kMiniBarHeightPx + 2), palette().target, 1.5f);
        if (f.utilization > 1) dl->AddText(ImVec2(at.x + bar_w - 10, y - 3), ImGui::GetColorU32(ImVec4(1, 1, 1, 1)), "\xe2\x96\xb8");
        ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
        ImGui::SameLine();
        ImGui::TextUnformatted(pct.c_str());

        ImGui::TableSetColumnIndex(2);
        if (f.no_backend && g && g->compute_capability > 0) {
            // vLLM below the format's minimum compute capability (core/serve/inference.cpp vllm_quant_gates).
            ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
            ImGui::TextUnformatted("refused");
            ImGui::PopStyleColor();
            reg(a, "fit/" + f.gpu_id + "/refused");
            char cc[8];
            std::snprintf(cc, sizeof cc, "%d.%d", g->compute_capability / 10, g->compute_capability % 10);
            tooltip((std::string(f.no_backend) + ": " + name + " (compute capability " + cc +
                     ") stops at start-up with this weight format; another format or engine runs there.")
                        .c_str());
        } else if (f.no_backend) {
            // vLLM or SGLang on a Mac: no Mac of any size runs it (core/serve/inference.cpp vllm_no_metal, kSglangNoMetal).
            ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
            ImGui::TextUnformatted("no Metal");
            ImGui::PopStyleColor();
            reg(a, "fit/" + f.gpu_id + "/mac");
            tooltip((std::string(f.no_backend) + (f.no_backend == kVllmNoMetal ? ": on macOS it runs on the CPU (the vllm-metal plugin is not modelled), so " : ", so ") + name +
                     " holds nothing under it; llama.cpp (Metal) or hf (MPS) run there.")
                        .c_str());
        } else if (f.mac && f.gpus_needed == 0 && (row.from_method || row.from_solver)) {
            // A Mac is one machine, never a count of them: the row says which Mac would hold it.
            const std::string mac = f.mac_needed_bytes > 0 ? "Mac >= " + format_size(f.mac_needed_bytes, gib) : std::string("no Mac");
            ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
            ImGui::TextUnformatted(mac.c_str());
            ImGui::PopStyleColor();
            reg(a, "fit/" + f.gpu_id + "/mac");
            tooltip(("A Mac is one machine: " + name + " does not hold this within the budget; " +
                     (f.mac_needed_bytes > 0 ? "it needs a Mac with at least " + format_size(f.mac_needed_bytes, gib) + " of unified memory (the smallest in the catalog that holds it)."
                                             : std::string("no Mac in the catalog holds it.")))
                        .c_str());
        } else if (f.gpus_needed > 0) {
            ImGui::Text("%d", f.gpus_needed);
            if (row.from_solver)
                tooltip(("Fewest GPUs of this type (detailed model, data parallelism grown; TP, PP, CP as set): " + row.solver_note).c_str());
            else tooltip(count_rule.c_str());
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
            ImGui::TextUnformatted("\xe2\x80\x94");
            ImGui::PopStyleColor();
            tooltip(row.from_solver ? row.solver_note.c_str()
                    : row.from_method ? "Does not fit at any GPU count this method tries." : "This method gives no GPU count for this GPU.");
        }
        if (!narrow) {
            ImGui::TableSetColumnIndex(3);
            ImGui::TextUnformatted(g ? format_size(g->memory_bytes, gib).c_str() : "");
            ImGui::TableSetColumnIndex(4);
            if (g && g->price_per_hour_usd > 0 && f.gpus_needed > 0) {
                ImGui::TextUnformatted(format_price_per_hour(g->price_per_hour_usd * f.gpus_needed).c_str());
                char tip[96];
                std::snprintf(tip, sizeof tip, "%d x %s per GPU-hour (typical on-demand list price, indicative)", f.gpus_needed,
                              format_price_per_hour(g->price_per_hour_usd).c_str());
                tooltip(tip);
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
                ImGui::TextUnformatted(g && g->price_per_hour_usd <= 0 ? "unknown" : "\xe2\x80\x94");
                ImGui::PopStyleColor();
            }
        }
    }
    ImGui::EndTable();
    dim_text("Bars: the per-GPU total on one GPU of each type; the tick is the %s target. Click a row to size for that GPU.",
             format_percent(target).c_str());
    panel_end();
}

void notes(App& a) {
    const Estimate& e = a.results.estimate;
    if (e.notes.empty()) return;
    const bool gib = a.ui.show_gib;
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    for (const auto& n : e.notes) {
        ImGui::Bullet();
        ImGui::SameLine();
        text_wrapped("%s", sizes_in_unit(n, gib).c_str());
    }
    ImGui::PopStyleColor();
}

}  // namespace

// [SECTION] panel ---------------------------------------------------------------------------------
bool total_bar(App& a) {
    const Results& r = a.results;
    const bool gib = a.ui.show_gib;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const bool tapped = ImGui::InvisibleButton("total_bar", size);
    reg(a, "total_bar");
    ImGui::SetCursorScreenPos(at);
    ImGui::PushFont(font(Font::Bold));
    ImGui::Text("%s per GPU", format_size(headline_bytes(r.estimate), gib).c_str());
    ImGui::PopFont();
    const GpuSpec* g = config_gpu(a.inputs);
    const GpuFit* f = g ? chosen_fit(a.inputs, r) : nullptr;
    ImGui::SameLine();
    if (!a.error.field.empty()) {
        error_text("invalid input: the last valid result");
    } else if (g && f) {
        ImGui::PushStyleColor(ImGuiCol_Text, verdict_color(*f));
        ImGui::TextUnformatted(f->needs_ram_bytes > 0 ? "\xe2\x97\x8f needs system RAM" : f->within_target ? "\xe2\x97\x8f fits" : f->fits ? "\xe2\x97\x8f over the budget" : "\xe2\x97\x8f does not fit");
        ImGui::PopStyleColor();
    }
    ImGui::PushFont(font(Font::Small));
    dim_text("%s  \xc2\xb7  tap for the breakdown", g ? g->name.c_str() : "no GPU chosen");
    ImGui::PopFont();
    return tapped;
}

void results_panel(App& a, bool narrow, bool wide) {
    const Results& r = results(a);
    if (!r.valid) {
        error_text("No result yet: fix the input marked in red.");
        return;
    }
    headline(a);
    ImGui::Spacing();
    breakdown_bar(a);
    breakdown_table(a, narrow);
    // A docs widget (compact) keeps to the total and its breakdown; the rest is the page's.
    if (a.embed.compact) return;
    devices_panel(a);  // ui_local.cpp
    suggestions(a);
    model_fits_panel(a);
    peak_figures(a);
    comparison(a);
    answers(a);
    figures(a);
    charts_panel(a, wide);
    gpu_table(a, narrow);
    notes(a);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
    ImGui::PushFont(font(Font::Small));
    text_wrapped("Runs locally: nothing you type leaves your machine. Computed in %.2f ms (estimate, %zu methods, %zu answers, 2 charts).",
                       r.compute_ms, r.methods.size(), r.answers.size());
    ImGui::PopFont();
    ImGui::PopStyleColor();
}

}  // namespace vc::shell::ui
