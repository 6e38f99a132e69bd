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

#include "core/model/presets.hpp"
#include "core/plan/plan.hpp"
#include "core/train/training.hpp"
#include "io/calibration.hpp"

using namespace vc;

#ifndef VRAMCALC_THROUGHPUT_CSV
#define VRAMCALC_THROUGHPUT_CSV "tests/calibration/throughput.csv"
#endif
#ifndef VRAMCALC_THROUGHPUT_H100_CSV
#define VRAMCALC_THROUGHPUT_H100_CSV "tests/calibration/throughput_h100.csv"
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

io::CsvTable load_csv(const char* path) {
    std::ifstream f(path, std::ios::binary);
    REQUIRE(f.good());  // the data lives in the repository: no skipping
    std::ostringstream ss;
    ss << f.rdbuf();
    auto t = io::parse_csv(ss.str());
    REQUIRE(t.ok);
    return t.value;
}

std::vector<Row> load_rows() {
    static io::CsvTable table;
    table = load_csv(VRAMCALC_THROUGHPUT_CSV);
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

// Held out: Llama-3.1-405B on 8,192 and 16,384 H100 (tests/calibration/throughput_h100.csv, the Llama
// 3 paper's Table 4). No constant is fitted on these rows; the H100's GEMM and attention shares come
// from datasheets and papers (core/catalog/fabrics.cpp). The paper states TP, CP, PP, DP and the
// batch; interleaving, micro-batch, recomputation and the DP group's sharding are the fastest choice
// that fits in the GPU's memory by the training engine (what the authors tuned for).
TEST_CASE("plan calibration: held-out Llama 3 405B runs on H100", "[plan_calibration]") {
    const io::CsvTable table = load_csv(VRAMCALC_THROUGHPUT_H100_CSV);
    REQUIRE(table.rows.size() == 3);
    std::vector<double> e;
    for (size_t i = 0; i < table.rows.size(); ++i) {
        io::CalibrationRow r{&table, i};
        Config c;
        c.method = Method::Detailed;
        c.task = Task::Training;
        c.gpu_id = r.get("gpu");
        c.model = *find_preset(r.get("model_preset"));
        c.run.seq = num(r, "seq");
        c.training.precision = TrainPrecision::Bf16Mixed;
        c.training.profile = "megatron";
        c.target_utilization = 1.0;
        const int gpus = static_cast<int>(num(r, "gpus"));
        PlanHardware hw;
        hw.gpu = *find_gpu(c.gpu_id);
        hw.gemm_share = find_node(c.gpu_id)->gemm_share;
        hw.attention_share = find_node(c.gpu_id)->attention_share;
        hw.intra = *find_fabric(r.get("intra_node"));
        hw.inter = *find_fabric(r.get("inter_node"));
        hw.gpus_per_node = static_cast<int>(num(r, "gpus_per_node"));
        const PlanConstants k;  // shipped
        Layout base;
        base.tp = static_cast<int>(num(r, "tp"));
        base.cp = static_cast<int>(num(r, "cp"));
        base.pp = static_cast<int>(num(r, "pp"));
        base.dp = static_cast<int>(num(r, "dp"));
        base.sp = true;
        REQUIRE(base.tp * base.cp * base.pp * base.dp == gpus);
        const int local = static_cast<int>(num(r, "global_batch")) / base.dp;
        double best = 1e300, mfu = 0;
        std::string pick;
        for (int v = 1; v <= 8; v *= 2) {
            if (!interleave_split_ok(c.model.layers, base.pp, v)) continue;
            for (int mb = 1; mb <= 2 && mb <= local; mb *= 2)
                for (Recompute rc : {Recompute::None, Recompute::Selective, Recompute::Full})
                    for (Sharding sh : {Sharding::Zero1, Sharding::Zero2, Sharding::Zero3}) {
                        Layout l = base;
                        l.v = v;
                        l.micro = mb;
                        l.accum = local / mb;
                        l.recompute = rc;
                        l.sharding = sh;
                        auto mem = training_result(layout_config(c, l, gpus));
                        REQUIRE(mem.ok);
                        if (mem.value.device_total > hw.gpu.memory_bytes) continue;
                        const StepTime st = step_time(c, hw, k, l);
                        if (st.total < best) {
                            best = st.total;
                            mfu = st.mfu;
                            char buf[160];
                            std::snprintf(buf, sizeof buf, "v%d mb%d %s %s, %.1f GB", v, mb, recompute_name(rc), sharding_name(sh),
                                          mem.value.device_total / 1e9);
                            pick = buf;
                        }
                    }
        }
        REQUIRE(best < 1e300);
        const double predicted = mfu * hw.gpu.bf16_tflops;  // TFLOP/s of model FLOPs per GPU
        const double measured = num(r, "value");
        e.push_back((predicted - measured) / measured);
        std::printf("  %s %d H100 TP%d CP%d PP%d DP%d seq %.0f: measured %.0f predicted %.0f TFLOP/s (%s)  error %+6.1f%%\n",
                    r.get("id").c_str(), gpus, base.tp, base.cp, base.pp, base.dp, c.run.seq, measured, predicted, pick.c_str(),
                    100 * e.back());
    }
    const Stats s = stats(e);
    std::printf("plan_calibration (held out, H100, no constant fitted on them): median |error| %.1f%%, worst %.1f%%\n", 100 * s.median,
                100 * s.worst);
    CHECK(s.worst <= 0.25);
}
