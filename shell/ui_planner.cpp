// vramcalc shell: the Cluster planner view (core/plan on the page, shell/state/planner.hpp). A tab
// beside the calculator; the inputs column keeps the model, sequence, precision and training
// setup, the results column becomes the planner: cluster inputs, the ranked layouts with their
// memory against the target, step time, throughput, MFU, days and cost, why the rest were
// rejected, and a button per layout that loads it into the detailed training inputs.
//
// [SECTIONS]
//   tab        Calculator | Cluster planner
//   inputs     GPUs, GPU type, fabric, global batch, token budget, ranking
//   layouts    the ranked table, rejections, notes
//   panel      the planner column
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/catalog/fabrics.hpp"
#include "core/catalog/gpus.hpp"
#include "state/format.hpp"
#include "state/planner.hpp"
#include "state/scenario.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

// [SECTION] helpers -------------------------------------------------------------------------------
std::string fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// "$6.04M", "$812K", "$950"
std::string money(double usd) {
    char buf[48];
    if (!(usd > 0)) return "-";
    if (usd >= 1e9) std::snprintf(buf, sizeof buf, "$%.2fB", usd / 1e9);
    else if (usd >= 1e6) std::snprintf(buf, sizeof buf, "$%.2fM", usd / 1e6);
    else if (usd >= 1e4) std::snprintf(buf, sizeof buf, "$%.0fK", usd / 1e3);
    else std::snprintf(buf, sizeof buf, "$%.0f", usd);
    return buf;
}

std::string seconds(double s) { return s >= 100 ? fixed(s, 0) + " s" : s >= 1 ? fixed(s, 2) + " s" : fixed(s * 1000, 0) + " ms"; }

void right_aligned(const std::string& s) {
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
    ImGui::TextUnformatted(s.c_str());
}

// [SECTION] inputs --------------------------------------------------------------------------------
bool planner_inputs(App& a) {
    PlannerView& p = a.ui.planner;
    Config& c = a.inputs;
    bool view_changed = false, config_changed = false;
    panel_begin("plan_inputs", "CLUSTER");
    Form f{a};
    if (begin_form("plan_form")) {
        view_changed |= integer(f, {"plan.gpus", "GPUs", "GPUs in the cluster, in whole nodes: every layout TP x PP x DP x CP uses them all."}, p.gpus,
                                NumberSpec{1, 1000000, 1, Step::Double, "%.0f", {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 16384}});
        // The GPU type is the calculator's GPU (the "gpu" field): the detailed inputs a layout loads into.
        const auto& catalog = gpu_catalog();
        std::vector<const char*> ids, labels, tips;
        std::vector<std::string> labels_s;
        int index = -1;
        for (const auto& g : catalog) {
            ids.push_back(g.id.c_str());
            labels_s.push_back(g.name + "  " + format_size(g.memory_bytes, a.ui.show_gib));
            tips.push_back(g.source.c_str());
            if (g.id == c.gpu_id) index = static_cast<int>(ids.size()) - 1;
        }
        for (const auto& s : labels_s) labels.push_back(s.c_str());
        if (index < 0) {  // no GPU chosen in the calculator: the combo says so until one is picked
            ids.insert(ids.begin(), "none");
            labels.insert(labels.begin(), "Choose a GPU");
            tips.insert(tips.begin(), "The planner needs a GPU type: its memory, speed, node size and price.");
            index = 0;
        }
        const int offset = static_cast<int>(ids.size() - catalog.size());
        if (combo_row(f, {"plan.gpu", "GPU type", "Memory, peak FLOP/s, GPUs per node, NVLink and price per hour (the calculator's GPU)."},
                      static_cast<int>(ids.size()), index, ids.data(), labels.data(), tips.data()) &&
            index >= offset) {
            c.gpu_id = catalog[index - offset].id;
            config_changed = true;
        }
        std::vector<const char*> fids, flabels, ftips;
        int findex = -1;
        for (const auto& fab : fabric_catalog()) {
            if (fab.intra_node) continue;
            fids.push_back(fab.id.c_str());
            flabels.push_back(fab.name.c_str());
            ftips.push_back(fab.source.c_str());
            if (fab.id == p.fabric) findex = static_cast<int>(fids.size()) - 1;
        }
        if (findex < 0) {  // a link named a fabric the catalog does not have: the engine's message says so
            fids.insert(fids.begin(), p.fabric.c_str());
            flabels.insert(flabels.begin(), p.fabric.c_str());
            ftips.insert(ftips.begin(), "Not in the fabric catalog.");
            findex = 0;
        }
        if (combo_row(f, {"plan.fabric", "Fabric", "The network between nodes: data-, pipeline- and context-parallel traffic crosses it."},
                      static_cast<int>(fids.size()), findex, fids.data(), flabels.data(), ftips.data())) {
            p.fabric = fids[findex];
            view_changed = true;
        }
        view_changed |= number(f, {"plan.global_batch", "Global batch (0: 4M tokens)", "Sequences per optimizer step over the whole cluster; 0: 4,194,304 tokens / sequence length."},
                               p.global_batch, NumberSpec{0, 1 << 24, 1, Step::Double, "%.0f", {0, 256, 512, 1024, 2048, 4096}});
        view_changed |= number(f, {"plan.train_tokens", "Training tokens", "Token budget: days and rental cost of each layout to train it (0: none)."},
                               p.train_tokens, NumberSpec{0, 1e16, 1e9, Step::Double, "%.4g", {1e11, 3e11, 1e12, 2e12, 15e12}, "tokens"});
        static const char* const kRankIds[] = {"time", "cost", "tokens_per_gpu"};
        static const char* const kRankLabels[] = {"Time", "Cost", "Tokens/s/GPU"};
        static const char* const kRankTips[] = {"Fastest step first.", "Cheapest run first (GPU-hours x price per hour).",
                                                "Highest throughput per GPU first."};
        int rank = static_cast<int>(p.rank);
        Field rank_field{"plan.rank", "Rank by", "On one cluster time, cost and tokens/s per GPU rank alike: cost is time x GPUs x price."};
        row_begin(f, rank_field);
        if (segmented(a, "plan.rank", 3, rank, kRankIds, kRankLabels, kRankTips, -1)) {
            p.rank = static_cast<PlanRank>(rank);
            view_changed = true;
        }
        row_end(f, rank_field);
        end_form(f);
    }
    panel_end();
    if (config_changed) mark_changed(a);
    else if (view_changed) a.publish = true;
    return view_changed || config_changed;
}

// [SECTION] layouts -------------------------------------------------------------------------------
// Returns the layout whose "Use" button was pressed (nullptr: none).
const LayoutResult* layout_table(App& a, const PlanResult& plan, bool narrow) {
    const bool gib = a.ui.show_gib;
    const LayoutResult* chosen = nullptr;
    const int cols = narrow ? 5 : 9;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings;
    if (!ImGui::BeginTable("plan_layouts", cols, flags)) return nullptr;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Layout", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(gib ? "GiB/GPU" : "GB/GPU", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthFixed);
    if (!narrow) {
        ImGui::TableSetupColumn("tok/s/GPU", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("MFU", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Days", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Cost", ImGuiTableColumnFlags_WidthFixed);
    }
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
    ImGui::PushFont(font(Font::Small));
    ImGui::TableHeadersRow();
    ImGui::PopFont();
    for (size_t i = 0; i < plan.ranked.size(); ++i) {
        const LayoutResult& r = plan.ranked[i];
        const StepTime& t = r.time;
        const std::string label = layout_label(r.layout);
        ImGui::PushID(static_cast<int>(i));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%zu", i + 1);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(label.c_str());
        reg(a, "plan/layout/" + std::to_string(i));
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::TextUnformatted(label.c_str());
            ImGui::Text("Step %s = compute %s + exposed communication %s + bubble %s + optimizer %s", seconds(t.total).c_str(),
                        seconds(t.compute).c_str(), seconds(t.comm_exposed()).c_str(), seconds(t.bubble).c_str(), seconds(t.optimizer).c_str());
            ImGui::Text("Exposed communication: TP %s, CP %s, EP %s, PP %s, DP %s (DP before overlap %s)", seconds(t.tp_comm).c_str(),
                        seconds(t.cp_comm).c_str(), seconds(t.ep_comm).c_str(), seconds(t.pp_comm).c_str(), seconds(t.dp_comm).c_str(),
                        seconds(t.dp_comm_total).c_str());
            ImGui::Text("%s tokens/s per GPU, MFU %s", format_count(std::round(t.tokens_per_s_per_gpu)).c_str(), format_percent(t.mfu).c_str());
            if (r.train_days > 0) ImGui::Text("%s days, %s rented for the token budget", fixed(r.train_days, 1).c_str(), money(r.rent_usd).c_str());
            ImGui::EndTooltip();
        }
        ImGui::TableNextColumn();
        // Memory per GPU against the utilization target: the share of the target it uses.
        const double of_target = plan.target_bytes > 0 ? r.memory_bytes / plan.target_bytes : 0;
        ImGui::PushStyleColor(ImGuiCol_Text, of_target > 0.97 ? palette().warn : palette().good);
        right_aligned(format_size_value(r.memory_bytes, gib) + " (" + fixed(of_target * 100, 0) + "%)");
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::Text("%s per GPU, %s of the %s target (%s of the GPU)", format_size(r.memory_bytes, gib).c_str(), format_percent(of_target).c_str(),
                        format_size(plan.target_bytes, gib).c_str(), format_percent(r.memory_share).c_str());
            ImGui::EndTooltip();
        }
        ImGui::TableNextColumn();
        right_aligned(seconds(t.total));
        if (!narrow) {
            ImGui::TableNextColumn();
            right_aligned(format_count(std::round(t.tokens_per_s_per_gpu)));
            ImGui::TableNextColumn();
            right_aligned(format_percent(t.mfu));
            ImGui::TableNextColumn();
            right_aligned(r.train_days > 0 ? fixed(r.train_days, r.train_days < 10 ? 2 : 1) : "-");
            ImGui::TableNextColumn();
            right_aligned(money(r.rent_usd));
        }
        ImGui::TableNextColumn();
        if (ImGui::SmallButton("Use")) chosen = &r;
        reg(a, "plan/use/" + std::to_string(i));
        tooltip("Use this layout: load its TP, PP, DP, CP, EP, sharding, micro-batch, accumulation and recomputation into the detailed training inputs.");
        ImGui::PopID();
    }
    ImGui::EndTable();
    return chosen;
}

void rejections(App& a, const PlanResult& plan) {
    // The most frequent classes, each with its closest example (e.g. how far out of memory).
    size_t shown = 0;
    for (const auto& c : plan.rejected) {
        if (shown++ == 3) break;
        dim_text("Rejected %s: %s; closest: %s", format_count(static_cast<double>(c.count)).c_str(), c.reason.c_str(),
                 sizes_in_unit(c.example, a.ui.show_gib).c_str());
        reg(a, "plan/rejected/" + std::to_string(shown - 1));
    }
    for (const auto& n : plan.notes) dim_text("%s", n.c_str());
}

}  // namespace

// [SECTION] tab -----------------------------------------------------------------------------------
bool planner_tab(App& a, bool narrow) {
    static const char* const kIds[] = {"calculator", "planner"};
    static const char* const kLabels[] = {"Memory calculator", "Cluster planner"};
    static const char* const kTips[] = {"Memory per GPU for one setup: training, fine-tuning or serving.",
                                        "Every parallel layout of a GPU cluster ranked by step time and cost, with memory per GPU from the detailed training model."};
    int index = a.ui.planner.open ? 1 : 0;
    const float w = narrow ? ImGui::GetContentRegionAvail().x : std::min(ImGui::GetContentRegionAvail().x, 420.0f);
    if (!segmented(a, "view", 2, index, kIds, kLabels, kTips, w)) return false;
    a.ui.planner.open = index == 1;
    // The planner reads the detailed training inputs: show those beside it.
    if (a.ui.planner.open && (a.inputs.method != Method::Detailed || a.inputs.task == Task::Inference)) {
        a.inputs = planner_config(a.inputs);
        mark_changed(a);
    }
    a.publish = true;
    return true;
}

// [SECTION] panel ---------------------------------------------------------------------------------
void planner_panel(App& a, bool narrow) {
    planner_inputs(a);
    // A search takes a few hundred ms in the page: none while a field is dragged, one on release.
    const PlannerResults& r = planner_results(a, ImGui::IsAnyItemActive());
    if (!r.error.field.empty()) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        error_text(r.error.field + ": " + r.error.message + (r.valid ? " (the last valid plan stays below)" : ""));
        reg_rect(a, "plan/error", at, ImGui::GetItemRectMax());
    }
    if (a.inputs.task == Task::Inference || a.inputs.method != Method::Detailed)
        dim_text("The planner sizes the training of this model with the detailed training inputs.");
    if (!r.valid) return;
    const PlanResult& p = r.plan;
    const bool gib = a.ui.show_gib;
    panel_begin("plan_layouts_panel", "RANKED LAYOUTS");
    dim_text("%d x %s (%d per node on %s), %s between nodes; global batch %s x %s tokens; target %s per GPU (%s of memory)", p.gpus,
             p.gpu_id.c_str(), p.gpus_per_node, p.intra_id.c_str(), p.fabric_id.c_str(), format_count(p.global_batch).c_str(),
             format_count(p.seq).c_str(), format_size(p.target_bytes, gib).c_str(), format_percent(a.inputs.target_utilization).c_str());
    dim_text("%s layouts evaluated, %s fit; %s ms", format_count(static_cast<double>(p.evaluated)).c_str(),
             format_count(static_cast<double>(p.fitting)).c_str(), fixed(r.compute_ms, 0).c_str());
    reg(a, "plan/summary");
    const LayoutResult* chosen = p.ranked.empty() ? nullptr : layout_table(a, p, narrow);
    rejections(a, p);
    panel_end();
    if (chosen) use_layout(a, *chosen);  // after drawing: the table reads the plan that this replaces
}

}  // namespace vc::shell::ui
