// The planner's step-time model against measured training speed of published runs
// (tests/calibration/throughput.csv: Megatron-LM on A100 / Selene, Narayanan et al. 2021 and
// Korthikanti et al. 2022). Reports the error of the shipped constants on every row, and the
// honest figure: leave-one-model-out, where the two fitted constants (gemm_half_dim,
// elementwise_passes) are refitted without the held-out model's rows and that model is
// predicted with them. Targets (issue 11): median |error| <= 5%, worst <= 12%.
#include <catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/plan/plan.hpp"
#include "io/calibration.hpp"

using namespace vc;

#ifndef VRAMCALC_THROUGHPUT_CSV
#define VRAMCALC_THROUGHPUT_CSV "tests/calibration/throughput.csv"
#endif

namespace {

struct Row {
    std::string id, model, what;
    double value = 0;
    double narayanan_flops = 0;  // per step, the papers' count (with recomputation)
    int gpus = 0;
    // Candidate layouts (micro-batch / interleaving not stated: every one that fits in memory).
    std::vector<Layout> candidates;
    Config cfg;
};

double num(const io::CalibrationRow& r, const char* c) { return std::atof(r.get(c).c_str()); }

std::vector<Row> load_rows() {
    std::ifstream f(VRAMCALC_THROUGHPUT_CSV, std::ios::binary);
    REQUIRE(f.good());  // the data lives in the repository: no skipping
    std::ostringstream ss;
    ss << f.rdbuf();
    auto t = io::parse_csv(ss.str());
    REQUIRE(t.ok);
    static io::CsvTable table;
    table = t.value;
    std::vector<Row> rows;
    for (size_t i = 0; i < table.rows.size(); ++i) {
        io::CalibrationRow r{&table, i};
        Row row;
        row.id = r.get("id");
        row.model = r.get("model");
        row.what = r.get("what");
        row.value = num(r, "value");
        row.gpus = static_cast<int>(num(r, "gpus"));
        Config c;
        c.method = Method::Detailed;
        c.task = Task::Training;
        c.gpu_id = r.get("gpu");
        c.target_utilization = 1.0;  // the runs ran: anything under the whole memory could have been theirs
        ModelSpec& m = c.model;
        m.name = row.model;
        m.layers = static_cast<int>(num(r, "layers"));
        m.hidden = static_cast<int>(num(r, "hidden"));
        m.heads = static_cast<int>(num(r, "heads"));
        m.kv_heads = m.heads;
        m.vocab = static_cast<int>(num(r, "vocab"));
        m.ffn = 4 * m.hidden;
        m.mlp = MlpKind::Gelu;
        m.norm = NormKind::LayerNorm;
        m.attn_bias = m.mlp_bias = true;
        m.tied_embeddings = true;
        const double seq = num(r, "seq");
        m.max_position = static_cast<int>(seq);
        c.run.seq = seq;
        c.training.profile = "megatron";
        c.training.attention = AttentionKernel::Eager;  // Megatron-LM 2021-22: fused softmax, no FlashAttention
        c.training.precision = r.get("precision") == "fp16" ? TrainPrecision::Fp16Mixed : TrainPrecision::Bf16Mixed;
        c.training.sharding = Sharding::None;
        row.cfg = c;
        const double B = num(r, "global_batch"), l = m.layers, h = m.hidden, V = m.vocab;
        row.narayanan_flops = 96.0 * B * seq * l * h * h * (1 + seq / (6 * h) + V / (16 * l * h));
        Layout base;
        base.tp = static_cast<int>(num(r, "tp"));
        base.pp = static_cast<int>(num(r, "pp"));
        base.dp = static_cast<int>(num(r, "dp"));
        base.sp = r.get("sequence_parallel") == "yes";
        base.recompute = r.get("recompute") == "selective" ? Recompute::Selective : Recompute::Full;
        base.sharding = Sharding::None;
        const int local = static_cast<int>(B) / base.dp;
        std::vector<int> micros, vs;
        if (!r.get("micro_batch").empty()) micros = {static_cast<int>(num(r, "micro_batch"))};
        else for (int mb = 1; mb <= 8 && mb <= local; mb *= 2) if (local % mb == 0) micros.push_back(mb);
        if (!r.get("interleave").empty()) vs = {static_cast<int>(num(r, "interleave"))};
        else if (base.pp == 1) vs = {1};
        else for (int v = 1; v <= 8; ++v) if (m.layers % (base.pp * v) == 0) vs.push_back(v);
        for (int mb : micros)
            for (int v : vs) {
                Layout lay = base;
                lay.micro = mb;
                lay.accum = local / mb;
                lay.v = v;
                auto mem = training_result(layout_config(c, lay, row.gpus));
                REQUIRE(mem.ok);
                if (mem.value.device_total <= 81920.0 * 1048576) row.candidates.push_back(lay);
            }
        REQUIRE(!row.candidates.empty());
        rows.push_back(row);
    }
    return rows;
}

PlanHardware selene() {
    PlanHardware hw;
    hw.gpu = *find_gpu("a100-80gb");
    hw.gemm_share = find_node("a100-80gb")->gemm_share;
    hw.attention_share = find_node("a100-80gb")->attention_share;
    hw.intra = *find_fabric("nvlink3");
    hw.inter = *find_fabric("ib-hdr200");
    hw.gpus_per_node = 8;
    return hw;
}

// Predicted value in the row's unit (the fastest candidate layout: what the authors tuned for).
double predict(const Row& row, const PlanConstants& k) {
    static const PlanHardware hw = selene();
    double best = 1e300;
    for (const auto& l : row.candidates) best = std::min(best, step_time(row.cfg, hw, k, l).total);
    if (row.what == "step_time") return best;
    return row.narayanan_flops / best / row.gpus / 1e12;  // TFLOP/s per GPU as the paper counts
}

PlanConstants era_constants() {
    PlanConstants k;
    k.dp_overlap = false;  // Megatron-LM 2021-22 reduced gradients after the backward pass
    return k;
}

double err(const Row& r, const PlanConstants& k) { return (predict(r, k) - r.value) / r.value; }

struct Stats { double median = 0, worst = 0, mean = 0; };
Stats stats(std::vector<double> e) {
    for (auto& x : e) x = std::fabs(x);
    std::sort(e.begin(), e.end());
    Stats s;
    if (e.empty()) return s;
    s.median = e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2;
    s.worst = e.back();
    for (double x : e) s.mean += x / e.size();
    return s;
}

// Grid fit of the two fitted constants on `rows`, minimising the mean |error|.
PlanConstants fit(const std::vector<const Row*>& rows) {
    PlanConstants best = era_constants();
    double best_loss = 1e300;
    for (double half = 0; half <= 512; half += 16)
        for (double passes = 0; passes <= 8; passes += 0.5) {
            PlanConstants k = era_constants();
            k.gemm_half_dim = half;
            k.elementwise_passes = passes;
            double loss = 0;
            for (const Row* r : rows) loss += std::fabs(err(*r, k));
            if (loss < best_loss) { best_loss = loss; best = k; }
        }
    return best;
}

std::string group_of(const Row& r) {
    // Models by size: the 530B and 1T runs appear in both papers under slightly different names.
    std::string m = r.model;
    if (m == "GPT 529.6B") return "GPT 530B";
    if (m == "GPT 1008B") return "GPT 1T";
    return m;
}

}  // namespace

TEST_CASE("plan calibration: shipped constants on every published row", "[plan_calibration]") {
    const auto rows = load_rows();
    REQUIRE(rows.size() == 18);
    const PlanConstants k = era_constants();
    std::vector<double> e;
    for (const auto& r : rows) {
        const double p = predict(r, k);
        std::printf("  %s %-12s %-15s measured %8.2f predicted %8.2f  error %+6.1f%%\n", r.id.c_str(), r.model.c_str(),
                    r.what.c_str(), r.value, p, 100 * (p - r.value) / r.value);
        e.push_back((p - r.value) / r.value);
    }
    const Stats s = stats(e);
    std::printf("plan_calibration (shipped constants, fitted on these rows): median |error| %.1f%%, mean %.1f%%, worst %.1f%%\n",
                100 * s.median, 100 * s.mean, 100 * s.worst);
    CHECK(s.median <= 0.05);
    CHECK(s.worst <= 0.12);
}

TEST_CASE("plan calibration: leave one model out (the evidence)", "[plan_calibration]") {
    const auto rows = load_rows();
    std::set<std::string> groups;
    for (const auto& r : rows) groups.insert(group_of(r));
    std::vector<double> held;
    for (const auto& g : groups) {
        std::vector<const Row*> train;
        for (const auto& r : rows) if (group_of(r) != g) train.push_back(&r);
        const PlanConstants k = fit(train);
        for (const auto& r : rows)
            if (group_of(r) == g) {
                held.push_back(err(r, k));
                std::printf("  held out %-9s %s: fitted half_dim %.0f passes %.1f -> error %+6.1f%%\n", g.c_str(), r.id.c_str(),
                            k.gemm_half_dim, k.elementwise_passes, 100 * held.back());
            }
    }
    const Stats s = stats(held);
    std::printf("plan_calibration (leave one model out, %zu groups): median |error| %.1f%%, mean %.1f%%, worst %.1f%%\n",
                groups.size(), 100 * s.median, 100 * s.mean, 100 * s.worst);
    CHECK(s.median <= 0.05);
    CHECK(s.worst <= 0.12);
    // And one paper predicted from the other alone.
    for (const char* paper : {"Narayanan", "Korthikanti"}) {
        std::vector<const Row*> train;
        std::vector<const Row*> test;
        for (const auto& r : rows) (r.id < "T11") == (std::string(paper) == "Narayanan") ? test.push_back(&r) : train.push_back(&r);
        const PlanConstants k = fit(train);
        std::vector<double> e;
        for (const Row* r : test) e.push_back(err(*r, k));
        const Stats ps = stats(e);
        std::printf("plan_calibration (%s rows predicted from the other paper's fit): median %.1f%%, worst %.1f%%\n", paper,
                    100 * ps.median, 100 * ps.worst);
    }
}

TEST_CASE("plan calibration: the fit on all rows is the shipped constants", "[plan_calibration]") {
    const auto rows = load_rows();
    std::vector<const Row*> all;
    for (const auto& r : rows) all.push_back(&r);
    const PlanConstants k = fit(all);
    const PlanConstants shipped;
    std::printf("fit on all rows: gemm_half_dim %.0f, elementwise_passes %.1f\n", k.gemm_half_dim, k.elementwise_passes);
    CHECK(k.gemm_half_dim == shipped.gemm_half_dim);
    CHECK(k.elementwise_passes == shipped.elementwise_passes);
}
