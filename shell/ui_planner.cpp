// vramcalc shell: the Cluster planner view (core/plan on the page, shell/state/planner.hpp). A tab
// beside the calculator; the inputs column keeps the model, sequence, precision and training
// setup, the results column becomes the planner: cluster inputs, the ranked layouts with their
// memory against the target, step time, throughput, MFU, days and cost, why the rest were
// rejected, and a button per layout that loads it into the detailed training inputs.
//
// [SECTIONS]
//   tab        Calculator | Cluster planner
//   prices     the collapsed "Prices and nodes": rent, purchase and node size, the catalogs' or the user's
//   inputs     GPUs, GPU type, fabric, global batch, token budget, ranking
//   layouts    the ranked table, rejections, notes
//   panel      the planner column
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog/fabrics.hpp"
#include "core/catalog/gpus.hpp"
#include "core/fields.hpp"
#include "core/text.hpp"
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

// Planner work per frame (the search, then the extras, in slices of a few hundred microseconds): a
// frame holds the page at most about this long plus its drawing. 30 ms rather than less: the page
// draws each frame in between, and in software rendering a frame's drawing takes ~50-150 ms.
constexpr double kFrameBudgetMs = 30;

std::string seconds(double s) { return s >= 100 ? fixed(s, 0) + " s" : s >= 1 ? fixed(s, 2) + " s" : fixed(s * 1000, 0) + " ms"; }

void right_aligned(const std::string& s) {
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
    ImGui::TextUnformatted(s.c_str());
}

// [SECTION] prices --------------------------------------------------------------------------------
// A catalog override's row (plan.price_per_hour_usd, plan.purchase_usd, plan.gpus_per_node): typed
// text, empty showing the catalog's value for the chosen GPU as its hint; applies on Enter or on
// leaving the field (empty: back to the catalog's); "Catalog" resets it. The range is the request
// table's, checked with the request (planner_check_overrides): its message names the field.
bool override_row(Form& f, const Field& field, std::optional<double>& v, const std::string& hint) {
    App& a = f.a;
    struct Edit {
        char buf[64] = {};
        bool editing = false;
        std::string bad;  // text that is no number, as typed (not applied)
    };
    static std::map<std::string, Edit> edits;
    Edit& e = edits[field.id];
    bool changed = false;
    row_begin(f, field);
    ImGui::PushID(field.id);
    const float h = ImGui::GetFrameHeight();
    const char* reset = "Catalog";
    const float reset_w = ImGui::CalcTextSize(reset).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (!e.editing && e.bad.empty()) {
        if (v) std::snprintf(e.buf, sizeof e.buf, "%.10g", *v);
        else e.buf[0] = '\0';
    }
    ImGui::SetNextItemWidth(std::max(40.0f, ImGui::GetContentRegionAvail().x - reset_w - 4));
    ImGui::InputTextWithHint("##v", hint.c_str(), e.buf, sizeof e.buf, ImGuiInputTextFlags_CharsScientific);
    e.editing = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string text = e.buf;
        char* end = nullptr;
        const double x = text.empty() ? 0 : std::strtod(text.c_str(), &end);
        e.bad.clear();
        if (text.empty()) {
            changed = v.has_value();
            v.reset();
        } else if (end && *end == '\0' && std::isfinite(x)) {
            changed = !v || *v != x;
            v = x;
        } else {
            e.bad = text;
        }
    }
    reg(a, field.id);
    field_tooltip(field);
    ImGui::SameLine(0, 4);
    ImGui::BeginDisabled(!v && e.bad.empty());
    if (ImGui::Button(reset, ImVec2(reset_w, h))) {
        changed = v.has_value();
        v.reset();
        e.bad.clear();
    }
    ImGui::EndDisabled();
    reg(a, std::string(field.id) + "/reset");
    tooltip("Back to the catalog's value for this GPU.");
    ImGui::PopID();
    row_end(f, field);
    if (!e.bad.empty()) {
        // Text that is no number stays in the field, unapplied, with the field's range from the table.
        const FieldDef* def = find_request_field(field.id);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        error_text(std::string(field.id) + " must be a number in " + (def ? field_range_text(*def) : std::string("its range")) +
                   ", got \"" + e.bad + "\" (not applied)");
        reg_rect(a, std::string(field.id) + "/error", at, ImGui::GetItemRectMax());
    }
    return changed;
}

// "$2.49", "$30,000": a catalog figure as the hint shows it.
std::string usd(double v, int decimals) { return "$" + (decimals ? fixed(v, decimals) : format_count(std::round(v))); }

// The collapsed "Prices and nodes" section: the chosen GPU's rental price, purchase price and node
// size, each the catalog's unless the user typed their own (for the plan's GPU type only).
bool prices_section(App& a) {
    PlannerView& p = a.ui.planner;
    Config c;
    c.gpu_id = a.inputs.gpu_id;
    const auto hw = plan_hardware(c, PlanInputs{});  // the catalogs' figures for this GPU
    if (!hw.ok) return false;                          // no GPU chosen: the GPU row says so
    const PlanHardware& k = hw.value;
    const bool own = p.price_per_hour_usd || p.purchase_usd || p.gpus_per_node;
    // The figures the plan uses: the user's where set and in range (a refused one reads "?": its message is above).
    auto figure = [](const char* path, const std::optional<double>& v, double catalog, bool& refused) {
        Error e;
        refused = v && !check_value(path, *v, e);
        return v ? *v : catalog;
    };
    bool bad_price = false, bad_buy = false, bad_node = false;
    const double price = figure("plan.price_per_hour_usd", p.price_per_hour_usd, k.price_per_hour_usd, bad_price);
    const double buy = figure("plan.purchase_usd", p.purchase_usd, k.purchase_usd, bad_buy);
    const double node = figure("plan.gpus_per_node", p.gpus_per_node, k.gpus_per_node, bad_node);
    const std::string summary = (bad_price ? std::string("?") : usd(price, 2)) + "/GPU-hour, " + (bad_buy ? std::string("?") : usd(buy, 0)) +
                                "/GPU, " + (bad_node ? std::string("?") : format_count(node)) + " GPUs/node" + (own ? " (yours)" : " (catalog)");
    ImGui::PushFont(font(Font::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    if (own) ImGui::SetNextItemOpen(true, ImGuiCond_Once);  // a link with the user's figures shows them
    const bool open = ImGui::TreeNodeEx(("Prices and nodes: " + summary + "###plan_prices").c_str(),
                                        ImGuiTreeNodeFlags_SpanAvailWidth | ImGuiTreeNodeFlags_NoTreePushOnOpen);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    reg(a, "plan/prices");
    tooltip("The chosen GPU's rental price, purchase price and node size: the catalogs', or your own (a negotiated rate, "
            "an owned cluster, 4-GPU nodes). Your figures apply to this GPU type only; the compared clusters of other types keep the catalogs'.");
    if (!open) return false;
    bool changed = false;
    Form f{a};
    if (begin_form("plan_prices_form")) {
        changed |= override_row(f, {"plan.price_per_hour_usd", "Rent (USD per GPU-hour)", "Rental price per GPU-hour: cost = GPU-hours x this."},
                                p.price_per_hour_usd, usd(k.price_per_hour_usd, 2) + " (catalog)");
        changed |= override_row(f, {"plan.purchase_usd", "Purchase (USD per GPU)", "Purchase price per GPU: a cluster's price = GPUs x this x 1.15 (networking's share)."},
                                p.purchase_usd, usd(k.purchase_usd, 0) + " (catalog)");
        changed |= override_row(f, {"plan.gpus_per_node", "GPUs per node", "GPUs in a node, on its intra-node link: tensor parallelism stays inside one; a cluster is whole nodes."},
                                p.gpus_per_node, format_count(k.gpus_per_node) + " (catalog)");
        end_form(f);
    }
    return changed;
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
                                shown(Step::Double, "%.0f", {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 16384}));
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
                               p.global_batch, shown(Step::Double, "%.0f", {0, 256, 512, 1024, 2048, 4096}));
        view_changed |= number(f, {"plan.train_tokens", "Training tokens", "Token budget: days and rental cost of each layout to train it (0: none)."},
                               p.train_tokens, shown(Step::Double, "%.4g", {1e11, 3e11, 1e12, 2e12, 15e12}, "tokens"));
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
    view_changed |= prices_section(a);
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

// [SECTION] sizing --------------------------------------------------------------------------------
// Network-aware batch sizing on the chosen fabric: the smallest per-GPU batch that keeps the GPUs
// at the target share of compute, its activation memory, the verdict and what fixes it.
void sizing_panel(App& a, const PlanResult& plan, const PlannerExtras& x) {
    panel_begin("plan_sizing_panel", "NETWORK-AWARE BATCH SIZING");
    if (x.chosen_fabric < 0 || !x.fabric_done[static_cast<size_t>(x.chosen_fabric)]) {
        dim_text("Computing\xe2\x80\xa6");
        panel_end();
        return;
    }
    const bool gib = a.ui.show_gib;
    const BatchSizing& b = x.fabrics[static_cast<size_t>(x.chosen_fabric)].sizing;
    dim_text("The best layout's split (%s) on %s: the smallest batch per GPU (micro-batch x accumulation) at which the step loses under %s "
             "to what a bigger batch hides (data-parallel traffic, pipeline bubble and sends).",
             layout_label(plan.ranked.front().layout).c_str(), plan.fabric_id.c_str(), format_percent(1 - kPlannerSizingEfficiency).c_str());
    if (b.per_gpu_batch <= 0) {
        error_text(b.verdict);
    } else {
        ImGui::Text("%s %s per GPU (micro-batch %d x %d), global batch %s: %s of the step computes", format_count(b.per_gpu_batch).c_str(),
                    noun_for(b.per_gpu_batch, "sequences").c_str(), b.layout.micro, b.layout.accum, format_count(b.global_batch).c_str(), format_percent(b.efficiency).c_str());
        ImGui::Text("Activations %s; %s per GPU against the %s target", format_size(b.activation_bytes, gib).c_str(),
                    format_size(b.memory_bytes, gib).c_str(), format_size(plan.target_bytes, gib).c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, b.fits ? palette().good : palette().error);
        text_wrapped("%s", sizes_in_unit(b.fits ? "Fits: the network does not set this run's memory floor." :
                                                        "Does not fit: on this fabric, hiding communication costs more memory than the GPU has.", gib).c_str());
        ImGui::PopStyleColor();
        if (!b.fix.empty()) text_wrapped("Fix: %s", sizes_in_unit(b.fix, gib).c_str());
    }
    reg(a, "plan/sizing");
    panel_end();
}

// [SECTION] checklist -----------------------------------------------------------------------------
// The cluster-sizing guide's checklist (guide_checklist) for the best layout: its nine steps in the
// guide's order, each with the engine's number, ending in the planner's answer.
std::string checklist_number(double v, const std::string& unit, bool gib) {
    if (unit == "bytes") return format_size(v, gib);
    if (unit == "share") return format_percent(v) + " of the target";
    if (unit == "bytes/parameter") return fixed(v, v == std::floor(v) ? 0 : 2) + " bytes/parameter";
    return format_count(v) + " " + unit;
}

void checklist_panel(App& a, const PlannerResults& r) {
    const Checklist& c = r.checklist;
    if (c.steps.empty()) return;
    const bool gib = a.ui.show_gib;
    panel_begin("plan_checklist_panel", "THE GUIDE'S CHECKLIST");
    dim_text(c.serving ? "How much VRAM for this cluster, step by step, serving the goal (the serving engine's numbers: weights + KV cache + "
                         "overhead is the memory per GPU)."
                       : "How much VRAM for this cluster, step by step, for the best layout (the training engine's numbers: model states + "
                         "activations + overhead is the memory per GPU).");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
    if (ImGui::BeginTable("plan_checklist", 3, flags)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Number", ImGuiTableColumnFlags_WidthStretch);
        int i = 0;
        for (const auto& s : c.steps) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", ++i);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.title);
            ImGui::TableNextColumn();
            std::string line = checklist_number(s.value, s.unit, gib);
            if (*s.second_unit)
                line += std::string(s.key) == "overhead" ? "  (total " + checklist_number(s.second, s.second_unit, gib) + ")" : "  (" + checklist_number(s.second, s.second_unit, gib) + ")";
            if (std::string(s.key) == "target") {
                const bool fits = s.second <= 1;
                ImGui::PushStyleColor(ImGuiCol_Text, fits ? palette().good : palette().error);
                ImGui::TextUnformatted(line.c_str());
                ImGui::PopStyleColor();
            } else {
                ImGui::TextUnformatted(line.c_str());
            }
            reg(a, std::string("plan/checklist/") + s.key);
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            text_wrapped("%s", s.detail.c_str());
            ImGui::PopStyleColor();
        }
        ImGui::EndTable();
    }
    const LayoutResult& x = c.answer;
    const ServeClusterResult& sv = c.serve_answer;
    if (c.serving)
        text_wrapped("Answer: %d %s x TP %d, %s %s each; %s tokens/s, $%s per million tokens%s", sv.replicas,
                           noun_for(sv.replicas, "replicas").c_str(), sv.tp, format_count(sv.seqs_per_replica).c_str(),
                           noun_for(sv.seqs_per_replica, "sequences").c_str(), format_count(sv.tokens_per_s).c_str(), fixed(sv.usd_per_mtok, 3).c_str(),
                           sv.meets ? "" : " (short of the goal)");
    else
    text_wrapped("Answer: %s, %s per GPU; %s a step, %s tokens/s per GPU, MFU %s%s", layout_label(x.layout).c_str(),
                       format_size(x.memory_bytes, gib).c_str(), seconds(x.time.total).c_str(), format_count(x.time.tokens_per_s_per_gpu).c_str(),
                       format_percent(x.time.mfu).c_str(),
                       x.train_days > 0 ? (", " + fixed(x.train_days, 1) + " days and " + money(x.rent_usd) + " for the token budget").c_str() : "");
    reg(a, "plan/checklist/answer");
    panel_end();
}

// [SECTION] fabrics -------------------------------------------------------------------------------
// The same job on every fabric, one row each: the best layout's step time (bar), and the memory per
// GPU that the sized batch costs against the target (bar, target marked): "same hardware, different network".
void fabric_chart(App& a, const PlanResult& plan, const PlannerExtras& x, bool narrow) {
    panel_begin("plan_fabrics_panel", "SAME HARDWARE, DIFFERENT NETWORK");
    const bool gib = a.ui.show_gib;
    const Palette& pal = palette();
    double tmax = 0, mmax = 0;
    for (size_t i = 0; i < x.fabrics.size(); ++i) {
        if (!x.fabric_done[i]) continue;
        const FabricPoint& f = x.fabrics[i];
        if (f.ok) tmax = std::max(tmax, f.best.time.total);
        mmax = std::max(mmax, f.sizing.memory_bytes);
    }
    mmax = std::max(mmax, plan.target_bytes * 1.1);
    dim_text("%d x %s, global batch %s: the fastest layout on each fabric (step time), and the memory per GPU of the batch that hides "
             "its communication (network-aware sizing of the best layout's split; dashed: the %s target).",
             plan.gpus, plan.gpu_id.c_str(), format_count(plan.global_batch).c_str(), format_size(plan.target_bytes, gib).c_str());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings;
    if (ImGui::BeginTable("plan_fabrics", 3, flags)) {
        const float bar_w = narrow ? 110.0f : 220.0f;
        ImGui::TableSetupColumn("Fabric", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("Step time (best layout)", ImGuiTableColumnFlags_WidthFixed, bar_w);
        ImGui::TableSetupColumn("Memory at the sized batch", ImGuiTableColumnFlags_WidthFixed, bar_w);
        ImGui::PushFont(font(Font::Small));
        ImGui::TableHeadersRow();
        ImGui::PopFont();
        for (size_t i = 0; i < x.fabrics.size(); ++i) {
            const FabricPoint& f = x.fabrics[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (static_cast<int>(i) == x.chosen_fabric) ImGui::TextColored(pal.accent, "%s", f.fabric_id.c_str());
            else ImGui::TextUnformatted(f.fabric_id.c_str());
            reg(a, "plan/fabric/" + f.fabric_id);
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const float h = ImGui::GetTextLineHeight();
            // Step time.
            ImGui::TableNextColumn();
            if (!x.fabric_done[i]) {
                dim_text("\xe2\x80\xa6");
            } else if (!f.ok) {
                dim_text("no layout fits");
                if (ImGui::IsItemHovered()) tooltip(sizes_in_unit(f.why, gib).c_str());
            } else {
                const ImVec2 at = ImGui::GetCursorScreenPos();
                const float w = tmax > 0 ? static_cast<float>(f.best.time.total / tmax) * (bar_w - 60) : 0;
                dl->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + std::max(1.0f, w), at.y + h - 2), ImGui::GetColorU32(pal.accent));
                ImGui::SetCursorScreenPos(ImVec2(at.x + w + 4, at.y));
                ImGui::TextUnformatted(seconds(f.best.time.total).c_str());
                if (ImGui::IsItemHovered()) {
                    ImGui::BeginTooltip();
                    ImGui::Text("%s on %s", layout_label(f.best.layout).c_str(), f.fabric_id.c_str());
                    ImGui::Text("Step %s: compute %s, exposed communication %s, bubble %s; %s per GPU", seconds(f.best.time.total).c_str(),
                                seconds(f.best.time.compute).c_str(), seconds(f.best.time.comm_exposed()).c_str(), seconds(f.best.time.bubble).c_str(),
                                format_size(f.best.memory_bytes, gib).c_str());
                    ImGui::EndTooltip();
                }
            }
            // Memory of the sized batch, against the target.
            ImGui::TableNextColumn();
            if (x.fabric_done[i]) {
                const BatchSizing& b = f.sizing;
                const ImVec2 at = ImGui::GetCursorScreenPos();
                const float span = bar_w - 60;
                if (b.per_gpu_batch > 0 && b.memory_bytes > 0) {
                    const float w = static_cast<float>(std::min(1.0, b.memory_bytes / mmax)) * span;
                    dl->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + std::max(1.0f, w), at.y + h - 2),
                                      ImGui::GetColorU32(b.fits ? pal.good : pal.error));
                }
                const float tx = at.x + static_cast<float>(plan.target_bytes / mmax) * span;
                for (float y = at.y; y < at.y + h; y += 4) dl->AddLine(ImVec2(tx, y), ImVec2(tx, std::min(y + 2, at.y + h)), pal.target, 1.5f);
                ImGui::SetCursorScreenPos(ImVec2(at.x + span + 4, at.y));
                ImGui::TextUnformatted(b.per_gpu_batch > 0 ? format_size_value(b.memory_bytes, gib).c_str() : "-");
                if (ImGui::IsItemHovered()) tooltip(sizes_in_unit(b.verdict, gib).c_str());
            }
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    panel_end();
}

// [SECTION] pareto --------------------------------------------------------------------------------
// Training time against rental cost for the token budget, over cluster sizes (a quarter to four
// times the GPUs): each size's fastest layouts as dots, the Pareto front joined by a line.
void pareto_chart(App& a, const PlanResult& plan, const PlannerExtras& x) {
    panel_begin("plan_pareto_panel", "TIME AGAINST COST");
    const Palette& pal = palette();
    if (!x.complete) {
        dim_text("Computing %zu of %zu %s\xe2\x80\xa6", x.next, x.units, noun_for(static_cast<double>(x.units), "searches").c_str());
        panel_end();
        return;
    }
    const double tokens = a.ui.planner.train_tokens > 0 ? a.ui.planner.train_tokens : kParetoDefaultTokens;
    dim_text("Days and rental cost to train %s tokens with %s GPUs over %s, at %s GPUs: each size's %d fastest layouts; the line joins the "
             "Pareto front (none both faster and cheaper).",
             format_count(tokens).c_str(), plan.gpu_id.c_str(), plan.fabric_id.c_str(),
             [&] {
                 std::string s;
                 for (int n : x.counts) s += (s.empty() ? "" : ", ") + std::to_string(n);
                 return s;
             }().c_str(),
             kPlannerParetoPerCount);
    for (const auto& n : x.notes) dim_text("%s", n.c_str());
    if (x.pareto.empty()) {
        panel_end();
        return;
    }
    double d0 = 1e300, d1 = 0, c0 = 1e300, c1 = 0;
    for (const auto& p : x.pareto) {
        d0 = std::min(d0, p.layout.train_days);
        d1 = std::max(d1, p.layout.train_days);
        c0 = std::min(c0, p.layout.rent_usd);
        c1 = std::max(c1, p.layout.rent_usd);
    }
    // Log axes (the sizes span 16x), padded.
    const double ld0 = std::log10(d0) - 0.05, ld1 = std::log10(std::max(d1, d0 * 1.01)) + 0.05;
    const double lc0 = std::log10(c0) - 0.05, lc1 = std::log10(std::max(c1, c0 * 1.01)) + 0.05;
    const float width = ImGui::GetContentRegionAvail().x, height = 220;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, height));
    reg_rect(a, "plan/pareto", origin, ImVec2(origin.x + width, origin.y + height));
    const ImVec2 lo(origin.x + 64, origin.y + 8), hi(origin.x + width - 10, origin.y + height - 22);
    if (hi.x - lo.x < 60) {
        panel_end();
        return;
    }
    auto X = [&](double d) { return lo.x + static_cast<float>((std::log10(d) - ld0) / (ld1 - ld0)) * (hi.x - lo.x); };
    auto Y = [&](double c) { return hi.y - static_cast<float>((std::log10(c) - lc0) / (lc1 - lc0)) * (hi.y - lo.y); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushFont(font(Font::Small));
    const ImU32 label_col = ImGui::GetColorU32(pal.dim);
    dl->AddRect(lo, hi, pal.border);
    // Ticks at 1-2-5 steps of each decade inside the range.
    for (int axis = 0; axis < 2; ++axis) {
        const double a0 = axis == 0 ? ld0 : lc0, a1 = axis == 0 ? ld1 : lc1;
        for (int e = static_cast<int>(std::floor(a0)); e <= static_cast<int>(std::ceil(a1)); ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if (std::log10(v) < a0 || std::log10(v) > a1) continue;
                const std::string t = axis == 0 ? fixed(v, v < 1 ? 2 : v < 10 ? 1 : 0) : money(v);
                const ImVec2 sz = ImGui::CalcTextSize(t.c_str());
                if (axis == 0) {
                    const float px = X(v);
                    dl->AddLine(ImVec2(px, lo.y), ImVec2(px, hi.y), pal.grid);
                    dl->AddText(ImVec2(px - sz.x / 2, hi.y + 3), label_col, t.c_str());
                } else {
                    const float py = Y(v);
                    dl->AddLine(ImVec2(lo.x, py), ImVec2(hi.x, py), pal.grid);
                    dl->AddText(ImVec2(lo.x - sz.x - 4, py - sz.y / 2), label_col, t.c_str());
                }
            }
    }
    dl->AddText(ImVec2(hi.x - ImGui::CalcTextSize("days").x, hi.y - ImGui::CalcTextSize("days").y - 2), label_col, "days");
    ImGui::PopFont();
    // The front, then the dots (one colour per cluster size; the planned size ringed).
    const ImU32 front_col = ImGui::GetColorU32(pal.accent);
    for (size_t i = 0, prev = SIZE_MAX; i < x.pareto.size(); ++i) {
        if (!x.pareto[i].front) continue;
        if (prev != SIZE_MAX)
            dl->AddLine(ImVec2(X(x.pareto[prev].layout.train_days), Y(x.pareto[prev].layout.rent_usd)),
                        ImVec2(X(x.pareto[i].layout.train_days), Y(x.pareto[i].layout.rent_usd)), front_col, 1.5f);
        prev = i;
    }
    const ImVec2 m = ImGui::GetIO().MousePos;
    size_t hover = SIZE_MAX;
    float hover_d = 12;
    for (size_t i = 0; i < x.pareto.size(); ++i) {
        const ParetoPoint& p = x.pareto[i];
        const size_t k = static_cast<size_t>(std::find(x.counts.begin(), x.counts.end(), p.gpus) - x.counts.begin());
        const ImVec2 c(X(p.layout.train_days), Y(p.layout.rent_usd));
        dl->AddCircleFilled(c, p.front ? 4.5f : 3.0f, component_color("", static_cast<int>(k)));
        if (p.gpus == plan.gpus) dl->AddCircle(c, 6.5f, ImGui::GetColorU32(pal.text));
        const float d = std::hypot(c.x - m.x, c.y - m.y);
        if (d < hover_d) { hover_d = d; hover = i; }
    }
    if (hover != SIZE_MAX && ImGui::IsWindowHovered()) {
        const ParetoPoint& p = x.pareto[hover];
        ImGui::BeginTooltip();
        ImGui::Text("%d x %s: %s", p.gpus, plan.gpu_id.c_str(), layout_label(p.layout.layout).c_str());
        ImGui::Text("%s days, %s rented; step %s, MFU %s%s", fixed(p.layout.train_days, 1).c_str(), money(p.layout.rent_usd).c_str(),
                    seconds(p.layout.time.total).c_str(), format_percent(p.layout.time.mfu).c_str(), p.front ? "; on the Pareto front" : "");
        ImGui::EndTooltip();
    }
    // Legend: one swatch per cluster size.
    ImGui::PushFont(font(Font::Small));
    for (size_t k = 0; k < x.counts.size(); ++k) {
        if (k) ImGui::SameLine(0, 12);
        ImGui::ColorButton("##n", ImGui::ColorConvertU32ToFloat4(component_color("", static_cast<int>(k))),
                           ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder, ImVec2(9, 9));
        ImGui::SameLine(0, 4);
        ImGui::Text("%d GPUs", x.counts[k]);
    }
    ImGui::PopFont();
    panel_end();
}

// [SECTION] compare -------------------------------------------------------------------------------
// Candidate clusters against a goal: train the token budget (by a deadline), or serve N sequences
// of a context. Inputs are view state (plan.clusters, plan.goal, ...); the rows follow a search at a time.
void compare_panel(App& a, const PlanResult& plan, const PlannerExtras& x) {
    PlannerView& p = a.ui.planner;
    const bool gib = a.ui.show_gib;
    panel_begin("plan_compare_panel", "COMPARE CLUSTERS");
    Form f{a};
    bool changed = false;
    if (begin_form("plan_compare_form")) {
        static const char* const kGoalIds[] = {"train", "serve"};
        static const char* const kGoalLabels[] = {"Train", "Serve"};
        static const char* const kGoalTips[] = {"Train the token budget: days, rental and purchase cost, the best layout of each cluster.",
                                                "Serve concurrent sequences: replicas x TP, decode throughput (roofline), cost per million tokens."};
        int goal = p.serve ? 1 : 0;
        const Field goal_field{"plan.goal", "Goal", "Train the token budget, or serve concurrent sequences of a context."};
        row_begin(f, goal_field);
        if (segmented(a, "plan.goal", 2, goal, kGoalIds, kGoalLabels, kGoalTips, -1)) {
            p.serve = goal == 1;
            changed = true;
        }
        row_end(f, goal_field);
        if (p.serve) {
            changed |= number(f, {"plan.serve.concurrency", "Concurrent sequences", "Sequences in flight across the cluster."}, p.serve_goal.concurrency,
                              shown(Step::Double, "%.0f", {16, 64, 256, 1024, 4096}));
            changed |= number(f, {"plan.serve.context", "Context", "Tokens per sequence (prompt + output)."}, p.serve_goal.context,
                              shown(Step::Double, "%.0f", {4096, 8192, 32768, 131072}, "tokens"));
        } else {
            changed |= number(f, {"plan.deadline_days", "Deadline (0: none)", "Days to train the token budget; each cluster says whether it meets them."},
                              p.deadline_days, shown(Step::Add, "%.0f", {0, 7, 30, 90}, "days"));
        }
        // Candidates as typed text, GPU:COUNT:FABRIC,... (the CLI's --clusters): applies on Enter or leaving the field.
        static char buf[512];
        static bool editing = false;
        const Field list_field{"plan.clusters", "Clusters", "GPU:COUNT:FABRIC, comma-separated (e.g. h100-80gb:64:ib-ndr400,a100-80gb:128:ib-hdr200); empty: four defaults."};
        row_begin(f, list_field);
        if (!editing) std::snprintf(buf, sizeof buf, "%s", p.clusters.c_str());
        ImGui::PushID(list_field.id);
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##v", planner_default_clusters(plan.gpu_id, plan.gpus, plan.fabric_id).c_str(), buf, sizeof buf);
        editing = ImGui::IsItemActive();
        if (ImGui::IsItemDeactivatedAfterEdit() && p.clusters != buf) {
            p.clusters = buf;
            changed = true;
        }
        reg(a, list_field.id);
        tooltip(list_field.tip);
        ImGui::PopID();
        row_end(f, list_field);
        end_form(f);
    }
    if (changed) a.publish = true;
    if (!x.compare_error.empty()) error_text(x.compare_error);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings;
    int row = 0;
    if (!p.serve && !x.clusters.empty() && ImGui::BeginTable("plan_compare", 6, flags)) {
        for (const char* h : {"Cluster", "Days", "Rent", "Buy", "Best layout", ""}) ImGui::TableSetupColumn(h, h[0] == 'B' && h[1] == 'e' ? ImGuiTableColumnFlags_WidthStretch : 0);
        ImGui::PushFont(font(Font::Small));
        ImGui::TableHeadersRow();
        ImGui::PopFont();
        for (const auto& k : x.clusters) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d x %s, %s", k.cluster.gpus, k.cluster.gpu_id.c_str(), k.cluster.fabric.c_str());
            reg(a, "plan/compare/" + std::to_string(row++));
            if (!k.ok) {
                ImGui::TableNextColumn();
                ImGui::TableNextColumn();
                ImGui::TableNextColumn();
                ImGui::TableNextColumn();
                dim_text("%s", sizes_in_unit(k.why, gib).c_str());
                ImGui::TableNextColumn();
                continue;
            }
            const bool meets = p.deadline_days <= 0 || k.train_days <= p.deadline_days;
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, meets ? palette().text : palette().error);
            right_aligned(k.train_days > 0 ? fixed(k.train_days, k.train_days < 10 ? 2 : 1) : "-");
            ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            right_aligned(money(k.rent_usd));
            ImGui::TableNextColumn();
            right_aligned(money(k.purchase_usd));
            ImGui::TableNextColumn();
            ImGui::Text("%s, %s/GPU", layout_label(k.best.layout).c_str(), format_size(k.best.memory_bytes, gib).c_str());
            ImGui::TableNextColumn();
            if (p.deadline_days > 0) ImGui::TextColored(meets ? palette().good : palette().error, meets ? "meets" : "misses");
        }
        ImGui::EndTable();
        dim_text("Rent: GPU-hours x the hourly price; buy: GPUs x price x 1.15 (networking's share). Prices are the catalogs', or yours for %s "
                 "(Prices and nodes).", plan.gpu_id.c_str());
    }
    if (p.serve && !x.serve.empty() && ImGui::BeginTable("plan_compare_serve", 6, flags)) {
        for (const char* h : {"Cluster", "Replicas", "Seq/replica", "Tokens/s", "$/M tokens", "Buy"}) ImGui::TableSetupColumn(h);
        ImGui::PushFont(font(Font::Small));
        ImGui::TableHeadersRow();
        ImGui::PopFont();
        for (const auto& k : x.serve) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d x %s", k.cluster.gpus, k.cluster.gpu_id.c_str());
            reg(a, "plan/compare/" + std::to_string(row++));
            if (!k.ok) {
                ImGui::TableNextColumn();
                dim_text("%s", sizes_in_unit(k.why, gib).c_str());
                continue;
            }
            ImGui::TableNextColumn();
            ImGui::Text("%d x TP%d", k.replicas, k.tp);
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, k.meets ? palette().text : palette().error);
            right_aligned(format_count(k.seqs_per_replica) + " of " + format_count(k.max_seqs_per_replica));
            ImGui::PopStyleColor();
            if (ImGui::IsItemHovered()) tooltip(k.meets ? (format_size(k.memory_bytes, gib) + " per GPU").c_str() : sizes_in_unit(k.why, gib).c_str());
            ImGui::TableNextColumn();
            right_aligned(format_count(std::round(k.tokens_per_s)));
            ImGui::TableNextColumn();
            right_aligned(k.usd_per_mtok > 0 ? "$" + fixed(k.usd_per_mtok, k.usd_per_mtok < 1 ? 3 : 2) : "-");
            ImGui::TableNextColumn();
            right_aligned(money(k.purchase_usd));
        }
        ImGui::EndTable();
        dim_text("Decode throughput from the serving roofline (vLLM, the calculator's weight format and KV type), every replica at the full context; "
                 "cost: GPU-hours x hourly price per million output tokens.");
    }
    if (!x.complete && (p.serve ? x.serve.empty() : x.clusters.size() < 1)) dim_text("Computing\xe2\x80\xa6");
    panel_end();
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

// When nothing fits: the search's answers to "what would" (the fewest GPUs of this type, a larger
// catalog GPU on this count), each one click away; the next frame's search checks it.
namespace {
void suggestion_buttons(App& a, const PlannerResults& r) {
    char label[96];
    if (r.suggest_gpus > 0) {
        std::snprintf(label, sizeof label, "Use %d GPUs", r.suggest_gpus);
        if (button(a, "plan/suggest/gpus", label, "Set the cluster's GPUs (plan.gpus) to the fewest of this type on which a layout fits.")) {
            a.ui.planner.gpus = r.suggest_gpus;
            a.publish = true;
        }
    }
    const GpuSpec* g = r.suggest_gpu.empty() ? nullptr : find_gpu(r.suggest_gpu);
    if (g) {
        if (r.suggest_gpus > 0) ImGui::SameLine();
        std::snprintf(label, sizeof label, "Use %s", g->name.c_str());
        if (button(a, "plan/suggest/gpu", label, "Set the GPU type (gpu) to the catalog GPU with the least memory on which a layout fits on this many GPUs.")) {
            a.inputs.gpu_id = g->id;
            mark_changed(a);
        }
    }
}
}  // namespace

// [SECTION] panel ---------------------------------------------------------------------------------
void planner_panel(App& a, bool narrow) {
    planner_inputs(a);
    // A search takes up to a few hundred ms in the page: it runs in slices over frames, the last
    // plan on screen meanwhile; none starts while a field is dragged, one on release.
    if (planner_step(a, ImGui::IsAnyItemActive(), kFrameBudgetMs)) wake();
    const PlannerResults& r = planner_current();
    long long done = 0, total = 0;
    if (planner_searching(&done, &total)) {
        dim_text("Searching\xe2\x80\xa6 %s of %s %s", format_count(static_cast<double>(done)).c_str(), format_count(static_cast<double>(total)).c_str(),
                 noun_for(static_cast<double>(total), "layouts").c_str());
        reg(a, "plan/searching");
    }
    if (!r.error.field.empty()) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        error_text(r.error.field + ": " + r.error.message + (r.valid ? " (the last valid plan stays below)" : ""));
        reg_rect(a, "plan/error", at, ImGui::GetItemRectMax());
        suggestion_buttons(a, r);
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
    dim_text("%s %s evaluated, %s fit; %s ms", format_count(static_cast<double>(p.evaluated)).c_str(), noun_for(static_cast<double>(p.evaluated), "layouts").c_str(),
             format_count(static_cast<double>(p.fitting)).c_str(), fixed(r.compute_ms, 0).c_str());
    reg(a, "plan/summary");
    const LayoutResult* chosen = p.ranked.empty() ? nullptr : layout_table(a, p, narrow);
    rejections(a, p);
    panel_end();
    if (!chosen) checklist_panel(a, r);
    if (!chosen) {
        // The extras follow the plan a search at a time, in slices within the frame's budget (planner_step).
        const PlannerExtras& x = planner_extras();
        if (x.generation == r.generation) {
            if (!p.ranked.empty()) {
                sizing_panel(a, p, x);
                fabric_chart(a, p, x, narrow);
                pareto_chart(a, p, x);
            }
            compare_panel(a, p, x);
        }
    }
    if (chosen) use_layout(a, *chosen);  // after drawing: the table reads the plan that this replaces
}

}  // namespace vc::shell::ui
