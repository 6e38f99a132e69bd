// vramcalc shell: charts drawn with ImDrawList. Memory per GPU against the batch (or concurrent
// sequences) and against the sequence (or context) length, each component a stacked area, with
// the chosen GPU's capacity and the headroom target as horizontal lines. The series come from
// App::results (computed once per change of the inputs); drawing them costs no engine calls.
//
// [SECTIONS]
//   axes     nice ticks, log2 x axis
//   chart    one chart: areas, lines, hover readout
//   panel    the two charts
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/units.hpp"
#include "state/format.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

constexpr float kChartHeightPx = 210;
constexpr float kAxisLeftPx = 48, kAxisBottomPx = 20, kPadTopPx = 8, kPadRightPx = 8;
constexpr double kCapacityOffChart = 8;  // a capacity above 8x the largest total is left off the chart

// [SECTION] axes ----------------------------------------------------------------------------------
// A "nice" step (1, 2, 2.5 or 5 x 10^k) giving about `ticks` intervals up to `max`.
double nice_step(double max, int ticks) {
    if (max <= 0) return 1;
    const double raw = max / ticks;
    const double mag = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

std::string pow2_label(double v) {
    char buf[24];
    if (v >= 1048576 && std::fmod(v, 1048576) == 0) std::snprintf(buf, sizeof buf, "%gM", v / 1048576);
    else if (v >= 1024 && std::fmod(v, 1024) == 0) std::snprintf(buf, sizeof buf, "%gK", v / 1024);
    else std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string axis_value(double units) {
    if (units == std::floor(units)) return format_count(units);
    char buf[24];
    std::snprintf(buf, sizeof buf, "%.1f", units);
    return buf;
}

// [SECTION] chart ---------------------------------------------------------------------------------
void chart(App& a, const Sweep& s, const char* id, float width) {
    const bool gib = a.ui.show_gib;
    const double unit = gib ? kBytesPerGiB : kBytesPerGB;
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();

    ImGui::BeginGroup();
    ImGui::PushFont(font(Font::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, pal.dim);
    ImGui::Text("%s per GPU vs %s", unit_label(gib), s.label.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, kChartHeightPx));
    reg_rect(a, std::string("chart/") + id, origin, ImVec2(origin.x + width, origin.y + kChartHeightPx));
    // Scrolled out of view: nothing to draw (the series stay computed).
    if (!ImGui::IsItemVisible()) {
        ImGui::EndGroup();
        return;
    }
    const ImVec2 lo(origin.x + kAxisLeftPx, origin.y + kPadTopPx);
    const ImVec2 hi(origin.x + width - kPadRightPx, origin.y + kChartHeightPx - kAxisBottomPx);
    if (s.x.size() < 2 || hi.x - lo.x < 40) {
        ImGui::EndGroup();
        return;
    }

    double ymax = 0;
    for (size_t i = 0; i < s.x.size(); ++i)
        if (s.ok[i]) ymax = std::max(ymax, s.total[i]);
    // What the sequences need (vLLM's pool is flat): shown up to 1.5x the pool, beyond is off the chart.
    const double total_max = ymax;
    for (double d : s.demand) ymax = std::max(ymax, std::min(d, total_max * 1.5));
    const GpuSpec* g = config_gpu(a.inputs);
    const bool show_capacity = g && g->memory_bytes <= ymax * kCapacityOffChart;
    if (show_capacity) ymax = std::max(ymax, g->memory_bytes * 1.04);
    if (ymax <= 0) ymax = unit;
    const double step = nice_step(ymax / unit, 4) * unit;
    ymax = std::ceil(ymax / step - 1e-9) * step;

    const double lx0 = std::log2(s.x.front()), lx1 = std::log2(s.x.back());
    auto X = [&](double x) { return lo.x + static_cast<float>((std::log2(x) - lx0) / (lx1 - lx0)) * (hi.x - lo.x); };
    auto Y = [&](double bytes) { return hi.y - static_cast<float>(bytes / ymax) * (hi.y - lo.y); };

    // Grid and y labels.
    ImGui::PushFont(font(Font::Small));
    const ImU32 label_col = ImGui::GetColorU32(pal.dim);
    for (double v = 0; v <= ymax * 1.0001; v += step) {
        const float y = std::round(Y(v)) + 0.5f;
        dl->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), pal.grid, 1);
        const std::string t = axis_value(v / unit);
        const ImVec2 sz = ImGui::CalcTextSize(t.c_str());
        dl->AddText(ImVec2(lo.x - sz.x - 6, y - sz.y / 2), label_col, t.c_str());
    }
    // X ticks at powers of two, thinned to fit.
    const float min_gap = ImGui::CalcTextSize("16K").x + 10;
    int every = 1;
    while ((hi.x - lo.x) / ((lx1 - lx0) / every + 1) < min_gap && every < 8) every *= 2;
    for (int e = static_cast<int>(std::ceil(lx0)); e <= static_cast<int>(std::floor(lx1)); ++e) {
        if (e % every) continue;
        const double x = std::exp2(e);
        const float px = std::round(X(x)) + 0.5f;
        dl->AddLine(ImVec2(px, hi.y), ImVec2(px, hi.y + 3), pal.border, 1);
        const std::string t = pow2_label(x);
        const ImVec2 sz = ImGui::CalcTextSize(t.c_str());
        dl->AddText(ImVec2(std::min(px - sz.x / 2, hi.x - sz.x), hi.y + 4), label_col, t.c_str());
    }
    ImGui::PopFont();

    // Stacked areas, segment by segment (skipping samples the engine rejected).
    dl->PushClipRect(lo, ImVec2(hi.x + 1, hi.y + 1), true);
    std::vector<double> base(s.x.size(), 0.0);
    int index = 0;
    for (const auto& series : s.series) {
        const ImU32 col = component_color(series.key, index++);
        const ImU32 fill = (col & 0x00FFFFFF) | (static_cast<ImU32>(theme_is_dark() ? 200 : 215) << 24);
        for (size_t i = 0; i + 1 < s.x.size(); ++i) {
            if (!s.ok[i] || !s.ok[i + 1]) continue;
            const float x0 = X(s.x[i]), x1 = X(s.x[i + 1]);
            const ImVec2 quad[4] = {ImVec2(x0, Y(base[i])), ImVec2(x0, Y(base[i] + series.bytes[i])), ImVec2(x1, Y(base[i + 1] + series.bytes[i + 1])),
                                    ImVec2(x1, Y(base[i + 1]))};
            dl->AddConvexPolyFilled(quad, 4, fill);
        }
        for (size_t i = 0; i < s.x.size(); ++i) base[i] += series.bytes[i];
    }
    // The total (with a method's margin) as a line.
    for (size_t i = 0; i + 1 < s.x.size(); ++i)
        if (s.ok[i] && s.ok[i + 1]) dl->AddLine(ImVec2(X(s.x[i]), Y(s.total[i])), ImVec2(X(s.x[i + 1]), Y(s.total[i + 1])), ImGui::GetColorU32(pal.text), 1.5f);
    // vLLM: what the sequences need, against the flat pool (where it crosses, vLLM queues them).
    for (size_t i = 0; i + 1 < s.demand.size(); ++i) {
        const ImVec2 p0(X(s.x[i]), Y(s.demand[i])), p1(X(s.x[i + 1]), Y(s.demand[i + 1]));
        dl->AddLine(p0, p1, ImGui::GetColorU32(pal.error), 2);
    }
    dl->PopClipRect();

    // Capacity and target lines.
    if (show_capacity) {
        ImGui::PushFont(font(Font::Small));
        const float yc = std::round(Y(g->memory_bytes)) + 0.5f, yt = std::round(Y(g->memory_bytes * a.results.target_utilization)) + 0.5f;
        dl->AddLine(ImVec2(lo.x, yc), ImVec2(hi.x, yc), pal.capacity, 1.5f);
        for (float x = lo.x; x < hi.x; x += 7) dl->AddLine(ImVec2(x, yt), ImVec2(std::min(x + 4, hi.x), yt), pal.target, 1.5f);
        const std::string cap = g->name + " " + format_size(g->memory_bytes, gib);
        const std::string tgt = "target " + format_percent(a.results.target_utilization);
        const ImVec2 csz = ImGui::CalcTextSize(cap.c_str()), tsz = ImGui::CalcTextSize(tgt.c_str());
        dl->AddText(ImVec2(hi.x - csz.x - 2, yc - csz.y - 1), pal.capacity, cap.c_str());
        if (yt - yc > tsz.y + 2) dl->AddText(ImVec2(hi.x - tsz.x - 2, yt - tsz.y - 1), pal.target, tgt.c_str());
        ImGui::PopFont();
    }
    // The model's context window on the length axis: beyond it the model was not trained (the
    // what-fits answers stop there); the memory is still drawn, RoPE scaling runs such lengths.
    const double window = a.inputs.model.context_limit;
    if (s.axis == SweepAxis::Seq && window > 0 && window >= s.x.front() && window <= s.x.back()) {
        const float px = std::round(X(window)) + 0.5f;
        dl->AddRectFilled(ImVec2(px, lo.y), hi, (ImGui::GetColorU32(pal.warn) & 0x00FFFFFF) | 0x1A000000);
        dl->AddLine(ImVec2(px, lo.y), ImVec2(px, hi.y), ImGui::GetColorU32(pal.warn), 1.5f);
        reg_rect(a, std::string("chart/") + id + "/window", ImVec2(px - 1, lo.y), ImVec2(px + 1, hi.y));
        ImGui::PushFont(font(Font::Small));
        const char* label = "context window";
        const ImVec2 sz = ImGui::CalcTextSize(label);
        dl->AddText(ImVec2(px - sz.x - 3 >= lo.x ? px - sz.x - 3 : px + 3, lo.y + 1), ImGui::GetColorU32(pal.warn), label);
        ImGui::PopFont();
    }
    // The present value.
    if (s.current >= s.x.front() && s.current <= s.x.back()) {
        const float px = std::round(X(s.current)) + 0.5f;
        for (float y = lo.y; y < hi.y; y += 6) dl->AddLine(ImVec2(px, y), ImVec2(px, std::min(y + 3, hi.y)), ImGui::GetColorU32(pal.accent), 1.5f);
    }
    dl->AddLine(ImVec2(lo.x, hi.y + 0.5f), ImVec2(hi.x, hi.y + 0.5f), pal.border, 1);

    // Hover: the nearest sample's figures.
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsMouseHoveringRect(lo, hi) && ImGui::IsWindowHovered()) {
        size_t best = 0;
        for (size_t i = 1; i < s.x.size(); ++i)
            if (std::fabs(X(s.x[i]) - m.x) < std::fabs(X(s.x[best]) - m.x)) best = i;
        const float px = X(s.x[best]);
        dl->AddLine(ImVec2(px, lo.y), ImVec2(px, hi.y), pal.highlight & 0x80FFFFFF, 1);
        ImGui::BeginTooltip();
        ImGui::PushFont(font(Font::Bold));
        ImGui::Text("%s = %s", s.field.c_str(), format_count(s.x[best]).c_str());
        ImGui::PopFont();
        if (!s.ok[best]) {
            ImGui::TextUnformatted("The engine rejects this value.");
        } else {
            int k = 0;
            for (const auto& series : s.series) {
                const ImU32 col = component_color(series.key, k++);
                if (series.bytes[best] <= 0) continue;
                ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(col), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder,
                                   ImVec2(10, 10));
                ImGui::SameLine();
                ImGui::Text("%-28s %s", series.label.c_str(), format_size(series.bytes[best], gib).c_str());
            }
            ImGui::Separator();
            ImGui::Text("%-30s %s", "Total", format_size(s.total[best], gib).c_str());
            if (best < s.demand.size())
                ImGui::TextColored(pal.error, "%-30s %s", "The sequences need", format_size(s.demand[best], gib).c_str());
        }
        ImGui::EndTooltip();
    }
    ImGui::EndGroup();
}

}  // namespace

// [SECTION] panel ---------------------------------------------------------------------------------
void charts_panel(App& a, bool wide) {
    const Results& r = a.results;
    panel_begin("charts", "MEMORY AGAINST THE SHAPE OF THE RUN");
    if (!r.complete) {
        dim_text("Computing\xe2\x80\xa6");
        panel_end();
        return;
    }
    const float avail = ImGui::GetContentRegionAvail().x;
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    if (wide) {
        const float w = (avail - gap) / 2;
        chart(a, r.by_batch, "batch", w);
        ImGui::SameLine(0, gap);
        chart(a, r.by_seq, "seq", w);
    } else {
        chart(a, r.by_batch, "batch", avail);
        chart(a, r.by_seq, "seq", avail);
    }
    const bool demand = !r.by_batch.demand.empty();
    const double window = a.inputs.model.context_limit;
    const bool window_shown = window > 0 && !r.by_seq.x.empty() && window >= r.by_seq.x.front() && window <= r.by_seq.x.back();
    dim_text("Stacked by component; the line is the total. Dashed blue: your present value.%s%s",
             demand ? " Red: what the sequences need (vLLM reserves its KV pool up front; above the total, it queues them)." : "",
             window_shown ? " Yellow: the model's context window (longer runs need RoPE scaling)." : "");
    panel_end();
}

}  // namespace vc::shell::ui
