// The planner (core/plan): collective formulas, group links, the pipeline bubble, FLOP counting,
// a hand-enumerated small search, and bad input. Numbers a user can check with a calculator.
#include <catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/model/presets.hpp"
#include "core/plan/collectives.hpp"
#include "core/plan/plan.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"
#include "plan_helpers.hpp"

using namespace vc;
using Catch::Detail::Approx;

TEST_CASE("collectives: alpha-beta formulas", "[plan]") {
    const Link l{100e9, 5e-6, false};  // 100 GB/s, 5 us per step
    // ring all-reduce of 1 GB over 8: 2 x 7/8 x 1e9 / 1e11 = 17.5 ms, + 2 x 7 x 5 us = 70 us
    CHECK(ring_all_reduce_s(1e9, 8, l) == Approx(0.0175 + 70e-6));
    // tree keeps the bandwidth term, latency 2 x log2(8) x 5 us = 30 us; all_reduce takes the faster
    CHECK(tree_all_reduce_s(1e9, 8, l) == Approx(0.0175 + 30e-6));
    CHECK(all_reduce_s(1e9, 8, l) == Approx(0.0175 + 30e-6));
    // reduce-scatter / all-gather: 3/4 x 1e9 / 1e11 = 7.5 ms + 3 x 5 us
    CHECK(reduce_scatter_s(1e9, 4, l) == Approx(0.0075 + 15e-6));
    CHECK(all_gather_s(1e9, 4, l) == Approx(0.0075 + 15e-6));
    CHECK(all_to_all_s(1e9, 4, l) == Approx(0.0075 + 15e-6));
    CHECK(p2p_s(1e9, l) == Approx(0.01 + 5e-6));
    CHECK(ring_all_reduce_s(1e9, 1, l) == 0);
}

TEST_CASE("collectives: which link a group uses", "[plan]") {
    const FabricSpec& nv = *find_fabric("nvlink4");   // 450 GB/s x 0.80 = 360 GB/s
    const FabricSpec& ib = *find_fabric("ib-ndr400"); // 50 GB/s x 0.90 = 45 GB/s per GPU
    CHECK(group_link(8, 1, 8, nv, ib).bw == Approx(360e9));          // one node
    CHECK_FALSE(group_link(8, 1, 8, nv, ib).inter);
    CHECK(group_link(16, 1, 8, nv, ib).bw == Approx(360e9));         // 8 NICs per node: min(360, 8 x 45)
    CHECK(group_link(4, 8, 8, nv, ib).bw == Approx(45e9));           // one GPU per node: its own NIC
    CHECK(group_link(8, 2, 8, nv, ib).bw == Approx(4 * 45e9));       // stride 2: 4 members per node
    CHECK(group_link(8, 2, 8, nv, ib).alpha == Approx(5e-6));
}

namespace {
Config small_config() {
    Config c;
    c.method = Method::Detailed;
    c.task = Task::Training;
    c.gpu_id = "h100-80gb";
    c.model = *find_preset("llama-3.1-8b");
    c.run.seq = 4096;
    c.training.profile = "megatron";
    return c;
}
// A 4-layer, 4-head model with a 512-token sequence: small enough to enumerate by hand.
Config tiny_config() {
    Config c = small_config();
    c.model = ModelSpec{};
    c.model.name = "tiny";
    c.model.layers = 4;
    c.model.hidden = 512;
    c.model.heads = 4;
    c.model.kv_heads = 4;
    c.model.ffn = 2048;
    c.model.vocab = 1000;
    c.run.seq = 512;
    return c;
}
// 16 GPUs, 256 sequences a step, a 100B-token budget.
PlanInputs sixteen_gpus() {
    PlanInputs in;
    in.gpus = 16;
    in.global_batch = 256;
    in.train_tokens = 1e11;
    return in;
}
PlanHardware h100() { return test::node_hardware("h100-80gb", "nvlink4", "ib-ndr400"); }
}  // namespace

TEST_CASE("step time: the pipeline bubble is (p-1)/(v m) of the compute", "[plan]") {
    const Config c = small_config();
    Layout l;
    l.pp = 4;
    l.accum = 8;
    l.sharding = Sharding::None;
    const StepTime t = step_time(c, h100(), PlanConstants{}, l);
    CHECK(t.bubble / t.compute == Approx(3.0 / 8));
    l.v = 2;
    const StepTime t2 = step_time(c, h100(), PlanConstants{}, l);
    CHECK(t2.bubble / t2.compute == Approx(3.0 / 16));
    CHECK(t.total == Approx(t.compute + t.comm_exposed() + t.bubble + t.optimizer));
}

TEST_CASE("step time: FLOPs per token are 6N + 12 L s w", "[plan]") {
    Config c = small_config();
    c.run.seq = 8192;
    // Llama-3.1-8B: 6.98e9 matmul parameters in the layers + 4096 x 128256 in the head
    const double L = 32, h = 4096, ffn = 14336, V = 128256, kv = 1024;
    const double matmul = L * (h * h * 2 + 2 * h * kv + 3 * h * ffn) + h * V;
    const TrainingFlops f = training_flops_per_token(c);
    CHECK(f.model() == Approx(6 * matmul + 12 * L * 8192 * h).epsilon(1e-6));
    CHECK(f.forward == Approx(2 * matmul + 4 * L * 8192 * h).epsilon(1e-6));
    CHECK(f.recompute == 0);
}

TEST_CASE("step time: a LoRA step's frozen base computes input gradients only (FLOPs by hand)", "[plan]") {
    // Llama-3.1-8B, seq 2048: N = 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 3 x 4096 x 14336) + 4096 x
    // 128256 = 7,504,658,432 matmul weights a token meets (the head's 525,336,576 among them);
    // the attention core 4 x 32 x 2048 x 4096 = 1,073,741,824 FLOPs per token forward; LoRA rank 16
    // on q and v: 32 x 16 x ((4096 + 4096) + (4096 + 1024)) = 6,815,744 adapter weights.
    Config c = small_config();
    c.run.seq = 2048;
    const double N = 7504658432.0, head = 525336576.0, A = 1073741824.0, ad = 6815744.0;
    const TrainingFlops full = training_flops_per_token(c);
    CHECK(full.forward == Approx(2 * N + A));
    CHECK(full.backward == Approx(4 * N + 2 * A));  // input and weight gradients: 2x the forward
    c.task = Task::FineTune;
    c.training.finetune = FinetuneMethod::Lora;
    const TrainingFlops lora = training_flops_per_token(c);
    // Forward 2N + A + 2 x adapters = 16,096,690,176; backward: the frozen base's input gradients
    // (2N, 1x its forward), the attention core's 2A, the adapters' 4 x 6,815,744 = 17,184,063,488.
    CHECK(lora.forward == Approx(16096690176.0));
    CHECK(lora.backward == Approx(17184063488.0));
    CHECK(lora.backward == Approx(2 * N + 2 * A + 4 * ad));
    CHECK(lora.recompute == 0);
    CHECK(lora.model() / full.model() == Approx(33280753664.0 / 48249176064.0));  // 0.69 of full training's FLOPs
    // Full recomputation: the layers' forward again (not the head's): 2 x (N - head) + A + 2 x adapters.
    c.training.recompute = Recompute::Full;
    CHECK(training_flops_per_token(c).recompute == Approx(2 * (N - head) + A + 2 * ad));
    c.training.recompute = Recompute::Selective;
    CHECK(training_flops_per_token(c).recompute == Approx(A));
    c.training.finetune = FinetuneMethod::Qlora;  // QLoRA's base is frozen too
    c.training.recompute = Recompute::None;
    CHECK(training_flops_per_token(c).backward == Approx(2 * N + 2 * A + 4 * ad));
}

TEST_CASE("step time: the step's compute is the FLOPs by hand at the GEMM rate, LoRA and full, with and without recomputation", "[plan]") {
    // One GPU, one micro-batch of 2048 tokens, every GEMM and the attention at 50% of the BF16 peak
    // (no shape penalty: gemm_half_dim 0), elementwise kernels and the logits' passes off (HBM at
    // 1e12 GB/s), eager attention (keys = seq, as the FLOP count): compute = FLOPs x T / (peak / 2).
    Config c = small_config();
    c.run.seq = 2048;
    c.training.attention = AttentionKernel::Eager;
    PlanHardware hw = h100();
    hw.gpu.bandwidth_gbps = 1e12;
    const PlanConstants k = test::flops_only_constants();
    const double rate = hw.gpu.bf16_tflops * 1e12 * 0.5, T = 2048;
    for (FinetuneMethod f : {FinetuneMethod::Full, FinetuneMethod::Lora})
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            c.task = f == FinetuneMethod::Full ? Task::Training : Task::FineTune;
            c.training.finetune = f;
            c.training.recompute = r;
            Layout l;
            l.sharding = Sharding::None;
            l.recompute = r;
            const StepTime t = step_time(c, hw, k, l);
            INFO("lora " << (f == FinetuneMethod::Lora) << " recompute " << static_cast<int>(r));
            CHECK(t.compute == Approx(training_flops_per_token(c).total() * T / rate).epsilon(1e-6));
            CHECK(t.model_flops_per_gpu == Approx(training_flops_per_token(c).model() * T));
        }
}

TEST_CASE("step time: more GPUs in TP shrink GEMMs and add communication", "[plan]") {
    const Config c = small_config();
    Layout a, b;
    a.sharding = b.sharding = Sharding::None;
    b.tp = 8;
    b.sp = true;
    const StepTime ta = step_time(c, h100(), PlanConstants{}, a), tb = step_time(c, h100(), PlanConstants{}, b);
    CHECK(tb.tp_comm > 0);
    CHECK(ta.tp_comm == 0);
    CHECK(tb.compute * 8 > ta.compute);  // TP8 is less efficient per GPU than one GPU
    CHECK(ta.mfu > 0.3);
    CHECK(ta.mfu < 0.8);
}

TEST_CASE("search: a hand-enumerated small space", "[plan]") {
    Config c = tiny_config();
    c.training.sharding = Sharding::Zero1;
    PlanInputs in;
    in.gpus = 4;
    in.global_batch = 4;
    in.max_micro_batch = 1;
    in.max_cp = 1;
    in.search_recompute = false;
    in.search_sharding = false;
    in.search_interleave = false;
    auto r = plan(c, in);
    REQUIRE(r.ok);
    // (tp, pp): (1,1) (1,2) (1,4) (2,1) (2,2) (4,1): six layouts, each with micro-batch 1
    CHECK(r.value.evaluated == 6);
    CHECK(r.value.fitting == 6);
    REQUIRE(r.value.ranked.size() == 6);
    for (size_t i = 1; i < r.value.ranked.size(); ++i) CHECK(r.value.ranked[i - 1].time.total <= r.value.ranked[i].time.total);
    // the global batch of 4 is made by DP x micro x accum on every layout
    for (const auto& l : r.value.ranked) CHECK(l.layout.dp * l.layout.micro * l.layout.accum == 4);
}

TEST_CASE("search: Llama-3.1-70B on 64 H100s ranks fitting layouts under 75%", "[plan]") {
    Config c = small_config();
    c.model = *find_preset("llama-3.1-70b");
    PlanInputs in;
    in.gpus = 64;
    in.train_tokens = 1e12;
    auto r = plan(c, in);
    REQUIRE(r.ok);
    REQUIRE_FALSE(r.value.ranked.empty());
    const auto& best = r.value.ranked.front();
    CHECK(best.memory_bytes <= 0.75 * find_gpu("h100-80gb")->memory_bytes);
    CHECK(best.time.mfu > 0.2);
    CHECK(best.time.mfu < 0.75);
    CHECK(best.train_days > 0);
    CHECK(best.rent_usd == Approx(best.train_days * 24 * 64 * 3.00));
    bool oom = false;
    for (const auto& k : r.value.rejected) oom = oom || k.reason == "out of memory";
    CHECK(oom);  // e.g. TP1 PP1: 70B with AdamW states does not fit one GPU's share
}

TEST_CASE("search: a search run in slices is the same plan", "[plan]") {
    Config c = small_config();
    c.model = *find_preset("llama-3.1-8b");
    PlanInputs in;
    in.gpus = 16;
    in.top = 5;
    auto whole = plan(c, in);
    REQUIRE(whole.ok);
    PlanSearch s;
    REQUIRE(s.start(c, in).field.empty());
    const long long total = s.total();
    CHECK(total == whole.value.evaluated);
    int calls = 0;
    while (!s.step(7)) {
        ++calls;
        CHECK(s.evaluated() == 7LL * calls);  // seven layouts a slice
    }
    CHECK(calls == (total - 1) / 7);
    CHECK_FALSE(s.result().ok == false);
    auto again = PlanSearch{};
    REQUIRE(again.start(c, in).field.empty());
    while (!again.step(100)) {}
    auto sliced = again.result();
    REQUIRE(sliced.ok);
    CHECK_FALSE(again.started());
    CHECK(sliced.value.fitting == whole.value.fitting);
    REQUIRE(sliced.value.ranked.size() == whole.value.ranked.size());
    for (size_t i = 0; i < sliced.value.ranked.size(); ++i) {
        CHECK(layout_label(sliced.value.ranked[i].layout) == layout_label(whole.value.ranked[i].layout));
        CHECK(sliced.value.ranked[i].time.total == whole.value.ranked[i].time.total);
        CHECK(sliced.value.ranked[i].memory_bytes == whole.value.ranked[i].memory_bytes);
    }
    REQUIRE(sliced.value.rejected.size() == whole.value.rejected.size());
    for (size_t i = 0; i < sliced.value.rejected.size(); ++i) {
        CHECK(sliced.value.rejected[i].count == whole.value.rejected[i].count);
        CHECK(sliced.value.rejected[i].example == whole.value.rejected[i].example);
    }
    // Bad input is refused at the start, naming the field.
    in.gpus = 12;
    PlanSearch bad;
    CHECK(bad.start(c, in).field == "plan.gpus");
    CHECK_FALSE(bad.started());
}

TEST_CASE("search: bad input names the field", "[plan]") {
    Config c = small_config();
    PlanInputs in;
    in.gpus = 100;
    auto r = plan(c, in);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.gpus");
    CHECK(r.error.message.find("96 or 104") != std::string::npos);
    in.gpus = 8;
    in.fabric = "carrier-pigeon";
    r = plan(c, in);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.fabric");
    in.fabric = "ib-ndr400";
    in.global_batch = 2.5;
    CHECK(plan(c, in).error.field == "plan.global_batch");
    in.global_batch = 0;
    c.gpu_id = "";
    CHECK(plan(c, in).error.field == "gpu");
    c.gpu_id = "h100-80gb";
    in.k.gemm_efficiency_max = std::nan("");
    CHECK(plan(c, in).error.field == "plan.constants.gemm_efficiency_max");
}

TEST_CASE("search: a global batch no layout can make names plan.global_batch and the batches that would work", "[plan]") {
    Config c = tiny_config();  // 4 layers, 4 heads: TP and PP at most 4 each, so 64 GPUs have DP 4 or more
    PlanInputs in;
    in.gpus = 64;
    in.max_cp = 1;
    in.global_batch = 6;  // DP is 4, 8, 16, 32 or 64 (64 / (TP x PP)): none divides 6
    auto r = plan(c, in);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.global_batch");
    CHECK(r.error.message.find("DP 4 or more; 4 or 8 (multiples of 4) would work") != std::string::npos);
    in.global_batch = 8;  // what it suggests works
    r = plan(c, in);
    REQUIRE(r.ok);
    CHECK(r.value.evaluated > 0);
    in.global_batch = 2;  // below the smallest DP: the smallest multiple
    CHECK(plan(c, in).error.message.find("; 4 (multiples of 4) would work") != std::string::npos);
    // A sliced search refuses it at start, as plan() does.
    PlanSearch s;
    CHECK(s.start(c, in).field == "plan.global_batch");
    CHECK_FALSE(s.started());
}

TEST_CASE("search: 100,000 GPUs and a model nothing fits end without NaN", "[plan]") {
    Config c = small_config();
    c.model = *find_preset("llama-3.1-405b");
    PlanInputs in;
    in.gpus = 100000;
    // 100,000 = 2^5 x 5^5: PP takes 125 (of 126 layers) and TP x CP 32 at most, so DP is 25 or more,
    // and the default 1,024 sequences of 4,096 tokens are no multiple of any such DP.
    auto r = plan(c, in);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.global_batch");
    CHECK(r.error.message.find("DP 25 or more; 1000 or 1025 (multiples of 25) would work") != std::string::npos);
    in.global_batch = 1000;  // every switch on: the whole space
    r = plan(c, in);
    REQUIRE(r.ok);
    CHECK(r.value.evaluated > 1000);
    REQUIRE_FALSE(r.value.ranked.empty());
    for (const auto& l : r.value.ranked) {
        CHECK(std::isfinite(l.time.total));
        CHECK(l.time.total > 0);
    }
    in.gpus = 8;
    in.search_recompute = in.search_sharding = true;
    r = plan(c, in);
    REQUIRE(r.ok);
    CHECK(r.value.ranked.empty());  // 405B with AdamW needs ~6.5 TB of states: not on 8 x 80 GB
    REQUIRE_FALSE(r.value.notes.empty());
    CHECK(r.value.notes.back().find("no layout") != std::string::npos);
}

TEST_CASE("batch sizing: a slower fabric needs a bigger per-GPU batch", "[plan]") {
    Config c = small_config();
    PlanInputs in;
    in.gpus = 64;
    Layout l;
    l.tp = 1;
    l.sharding = Sharding::Zero1;
    auto r = batch_sizing(c, in, l, {"ib-ndr400", "eth-100-tcp"}, 0.9);
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 2);
    CHECK(r.value[0].per_gpu_batch > 0);
    CHECK(r.value[1].per_gpu_batch > r.value[0].per_gpu_batch);
    CHECK(r.value[1].efficiency >= 0.9);
    // The request's path: plan.batch_sizing.target_efficiency (docs/planner.md).
    auto off = batch_sizing(c, in, l, {"ib-ndr400"}, 1.5);
    REQUIRE_FALSE(off.ok);
    CHECK(off.error.field == "plan.batch_sizing.target_efficiency");
    CHECK(off.error.message.rfind("plan.batch_sizing.target_efficiency must be a number in [0.05, 0.999], got 1.5", 0) == 0);
}

TEST_CASE("clusters: comparison and fewest GPUs to a deadline", "[plan]") {
    Config c = small_config();
    PlanInputs in;
    in.train_tokens = 1e11;
    auto r = plan_clusters(c, in, {{"h100-80gb", 16, "ib-ndr400"}, {"a100-80gb", 16, "ib-hdr200"}});
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 2);
    CHECK(r.value[0].cluster.gpu_id == "h100-80gb");  // faster first
    CHECK(r.value[0].train_days < r.value[1].train_days);
    CHECK(r.value[0].purchase_usd == Approx(16 * 25000 * 1.15));
    // A cluster that cannot be planned names its own fields, by its place in the request.
    auto bad = plan_clusters(c, in, {{"h100-80gb", 16, "ib-ndr400"}, {"h100-80gb", 12, "ib-ndr400"}, {"no-such-gpu", 8, "ib-ndr400"},
                                     {"h100-80gb", 16, "carrier-pigeon"}});
    REQUIRE(bad.ok);
    std::vector<std::string> why;
    for (const auto& x : bad.value)
        if (!x.ok) why.push_back(x.why);
    std::sort(why.begin(), why.end());
    REQUIRE(why.size() == 3);
    CHECK(why[0].rfind("plan.clusters[1].gpus: must be whole nodes of 8 GPUs", 0) == 0);
    CHECK(why[1].rfind("plan.clusters[2].gpu: must name a GPU of the catalog", 0) == 0);
    CHECK(why[2].rfind("plan.clusters[3].fabric: must be one of", 0) == 0);
    ServeGoal goal;
    goal.concurrency = 8;
    auto served = serve_clusters(c, in, goal, {{"h100-80gb", 8, "ib-ndr400"}, {"h100-80gb", 0, "ib-ndr400"}});
    REQUIRE(served.ok);
    CHECK(served.value.back().why == "plan.clusters[1].gpus must be a whole number in [1, 1000000] GPUs, got 0");
    auto f = fewest_gpus(c, in, r.value[0].train_days * 1.01, 4096);
    REQUIRE(f.ok);
    CHECK(f.value.ok);
    CHECK(f.value.cluster.gpus <= 16);
    CHECK(f.value.train_days <= r.value[0].train_days * 1.01);
}

TEST_CASE("pareto: the front keeps the points no other is both faster and cheaper than", "[plan]") {
    std::vector<ParetoPoint> pts(5);
    const double dc[5][2] = {{12, 90}, {10, 100}, {11, 120}, {15, 90}, {20, 50}};  // (days, rental USD)
    for (int i = 0; i < 5; ++i) {
        pts[i].gpus = 8 * (i + 1);
        pts[i].layout.train_days = dc[i][0];
        pts[i].layout.rent_usd = dc[i][1];
    }
    mark_pareto_front(pts);
    // Sorted by days: 10/$100 (front), 11/$120 (10 days is faster and cheaper), 12/$90 (front),
    // 15/$90 (12 days costs the same), 20/$50 (front).
    const double days[5] = {10, 11, 12, 15, 20};
    const bool front[5] = {true, false, true, false, true};
    for (int i = 0; i < 5; ++i) {
        CHECK(pts[i].layout.train_days == days[i]);
        CHECK(pts[i].front == front[i]);
    }
    // Cluster sizes tried: a quarter to four times, whole 8-GPU nodes beyond one node.
    CHECK(pareto_gpu_counts(64, 8) == std::vector<int>{16, 32, 64, 128, 256});
    CHECK(pareto_gpu_counts(8, 8) == std::vector<int>{2, 4, 8, 16, 32});
    CHECK(pareto_gpu_counts(12, 8) == std::vector<int>{3, 6, 16, 24, 48});
    CHECK(pareto_gpu_counts(1000000, 8) == std::vector<int>{250000, 500000, 1000000});
}

TEST_CASE("pareto: each point's days and rent follow from its throughput", "[plan]") {
    Config c = small_config();
    PlanInputs in;
    in.gpus = 16;  // train_tokens 0: priced for kParetoDefaultTokens (1T)
    auto r = pareto_sweep(c, in, {8, 16, 32}, 2);
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 6);
    bool any_front = false;
    for (const auto& p : r.value) {
        const LayoutResult& l = p.layout;
        // days = 1e12 tokens / (tokens/s/GPU x GPUs) / 86400; rent = days x 24 h x GPUs x $3.00 (H100 per hour)
        CHECK(l.train_days == Approx(1e12 / (l.time.tokens_per_s_per_gpu * p.gpus) / 86400));
        CHECK(l.rent_usd == Approx(l.train_days * 24 * p.gpus * 3.00));
        CHECK(l.layout.tp * l.layout.pp * l.layout.dp * l.layout.cp == p.gpus);
        any_front = any_front || p.front;
    }
    CHECK(any_front);
    // The fastest point is always on the front.
    CHECK(r.value.front().front);
}

TEST_CASE("fabrics: the same job on a slower network is slower and needs a bigger batch", "[plan]") {
    Config c = small_config();
    PlanInputs in;
    in.gpus = 64;
    Layout ref;
    ref.sharding = Sharding::Zero1;
    auto r = fabric_comparison(c, in, {"ib-ndr400", "eth-100-tcp"}, ref, 0.9);
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 2);
    REQUIRE(r.value[0].ok);
    REQUIRE(r.value[1].ok);
    CHECK(r.value[0].fabric_id == "ib-ndr400");
    CHECK(r.value[1].best.time.total > r.value[0].best.time.total);
    CHECK(r.value[1].sizing.per_gpu_batch > r.value[0].sizing.per_gpu_batch);
    CHECK(r.value[1].sizing.activation_bytes >= r.value[0].sizing.activation_bytes);
    // The sizing keeps the reference split: DP = 64 GPUs / (TP1 x PP1 x CP1).
    CHECK(r.value[1].sizing.layout.dp == 64);
    CHECK(r.value[1].sizing.global_batch == r.value[1].sizing.per_gpu_batch * 64);
    auto bad = fabric_comparison(c, in, {"carrier-pigeon"}, ref, 0.9);
    REQUIRE_FALSE(bad.ok);
    // Named by the list it came from, with the catalog's inter-node fabrics.
    CHECK(bad.error.field == "plan.fabric_comparison.fabrics");
    CHECK(bad.error.message == "plan.fabric_comparison.fabrics must be one of ib-ndr400, ib-hdr200, roce-400, roce-200, roce-100, eth-100-tcp, got \"carrier-pigeon\"");
    CHECK(batch_sizing(c, in, ref, {"nvlink4"}, 0.9).error.field == "plan.batch_sizing.fabrics");  // inside a node: not a choice
}

TEST_CASE("batch sizing: a batch that does not fit says what would", "[plan]") {
    Config c = small_config();
    c.model = *find_preset("llama-3.1-70b");
    c.run.seq = 8192;
    PlanInputs in;
    in.gpus = 512;
    // ZeRO-3 gathers the parameters every micro-batch: only a bigger micro-batch hides them.
    Layout l;
    l.sharding = Sharding::Zero3;
    l.recompute = Recompute::Full;
    auto r = batch_sizing(c, in, l, {"ib-ndr400", "eth-100-tcp"}, 0.9);
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 2);
    const BatchSizing& ib = r.value[0];
    CHECK(ib.per_gpu_batch == 1);
    CHECK(ib.fits);
    CHECK(ib.fix.empty());
    // 100 GbE TCP (one NIC per node: 12.5/8 GB/s x 0.6 per GPU) needs 16 sequences per GPU in one
    // micro-batch, whose activations do not fit 75% of 80 GB; the slowest faster fabric that fits
    // at its own batch is RoCE 100 GbE (one sequence per GPU).
    const BatchSizing& tcp = r.value[1];
    CHECK(tcp.per_gpu_batch == 16);
    CHECK(tcp.layout.micro == 16);
    CHECK_FALSE(tcp.fits);
    CHECK(tcp.activation_bytes > ib.activation_bytes * 8);
    CHECK(tcp.fix.find("a faster fabric: on roce-100") == 0);
    CHECK(tcp.verdict.find("; fix: a faster fabric") != std::string::npos);
}

TEST_CASE("serving clusters: replicas x TP, throughput from the roofline, cost per million tokens", "[plan]") {
    Config c = small_config();  // Llama-3.1-8B, BF16 weights (vLLM)
    PlanInputs in;
    ServeGoal g;
    g.concurrency = 64;
    g.context = 8192;
    auto r = serve_clusters(c, in, g, {{"h100-80gb", 8, "ib-ndr400"}, {"h100-80gb", 1, "ib-ndr400"}});
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == 2);
    const ServeClusterResult& a = r.value[0];
    REQUIRE(a.ok);
    CHECK(a.meets);
    CHECK(a.cluster.gpus == 8);
    CHECK(a.replicas * a.tp == 8);
    CHECK(a.seqs_per_replica == std::ceil(64.0 / a.replicas));
    CHECK(a.tokens_per_s == Approx(a.tokens_per_s_replica * a.replicas));
    // $/Mtok = GPUs x $3.00 per hour / (tokens/s x 3600) x 1e6
    CHECK(a.usd_per_mtok == Approx(8 * 3.00 / (a.tokens_per_s * 3600) * 1e6));
    CHECK(a.purchase_usd == Approx(8 * 25000 * 1.15));
    // Decode is memory-bound: one step reads ~15 GB of weights + 8 sequences x 8192 tokens x
    // 128 KiB of KV (32 layers x 8 KV heads x 128 x 2 x 2 bytes) ~ 8.6 GB, at 0.8 x 3.35 TB/s:
    // ~9 ms, so 8 sequences decode ~900 tokens/s per replica (TP1).
    if (a.tp == 1) CHECK(a.tokens_per_s_replica == Approx(8 / ((15.0e9 + 8 * 8192 * 131072.0) / (0.8 * 3350e9))).epsilon(0.1));
    // One GPU cannot hold 64 sequences of 8192 tokens next to 16 GB of weights at vLLM's 0.9.
    const ServeClusterResult& b = r.value[1];
    CHECK(b.ok);
    CHECK_FALSE(b.meets);
    CHECK(b.max_seqs_per_replica < 64);
    CHECK(b.why.find("of the 64 sequences") != std::string::npos);
    // Bad goal names its field.
    g.concurrency = 0;
    CHECK(serve_clusters(c, in, g, {{"h100-80gb", 8, "ib-ndr400"}}).error.field == "plan.serve.concurrency");
    g.concurrency = std::nan("");
    CHECK(serve_clusters(c, in, g, {{"h100-80gb", 8, "ib-ndr400"}}).error.field == "plan.serve.concurrency");
}

TEST_CASE("checklist: the guide's nine steps for the best layout add up to its memory per GPU", "[plan]") {
    Config c = small_config();  // Llama-3.1-8B, seq 4096, Megatron, BF16 mixed precision, AdamW
    const PlanInputs in = sixteen_gpus();
    auto p = plan(c, in);
    REQUIRE(p.ok);
    REQUIRE_FALSE(p.value.ranked.empty());
    auto ck = guide_checklist(c, p.value);
    REQUIRE(ck.ok);
    const auto& s = ck.value.steps;
    REQUIRE(s.size() == 9);
    const char* keys[] = {"model", "precision", "parallelism", "batch", "sequence", "states", "activations", "overhead", "target"};
    for (size_t i = 0; i < 9; ++i) CHECK(std::string(s[i].key) == keys[i]);
    const LayoutResult& best = p.value.ranked.front();
    const Layout& l = best.layout;
    CHECK(layout_label(ck.value.answer.layout) == layout_label(l));
    CHECK(s[0].value == Approx(8.03e9).epsilon(0.001));           // Llama-3.1-8B: 8.03B parameters
    // Megatron's BF16 mixed precision: BF16 weights 2 + FP32 main_grad 4 + FP32 master, m, v 12 bytes per parameter.
    CHECK(s[1].value == Approx(18));
    CHECK(s[2].value == 16);
    CHECK(l.tp * l.pp * l.dp * l.cp == 16);
    CHECK(s[3].value == 256);
    CHECK(s[3].value == l.dp * l.micro * l.accum);                  // global = DP x micro-batch x accumulation
    CHECK(s[3].second == l.micro * l.accum);                        // per GPU
    CHECK(s[4].value == 4096);
    CHECK(s[4].second == Approx(4096.0 * l.micro / l.cp));           // tokens per micro-batch on a GPU
    // States + activations + overhead = the layout's memory per GPU, the plan's own figure.
    CHECK(s[5].value + s[6].value + s[7].value == Approx(best.memory_bytes).epsilon(1e-12));
    CHECK(s[7].second == best.memory_bytes);
    CHECK(s[7].value > 0);
    // The 75% target of the H100's 81,559 MiB (85.5 GB): 64.1 GB; the share is memory / target, under 1 when it fits.
    CHECK(s[8].value == Approx(0.75 * 81559.0 * 1048576));
    CHECK(s[8].second == Approx(best.memory_bytes / (0.75 * 81559.0 * 1048576)));
    CHECK(s[8].second <= 1);
    // No fitting layout: refused, naming the plan.
    PlanResult none = p.value;
    none.ranked.clear();
    CHECK(guide_checklist(c, none).error.field == "plan");
}

TEST_CASE("checklist: serving, step 7 is the KV cache the serving comparison sizes", "[plan]") {
    Config c = small_config();  // Llama-3.1-8B, BF16 weights and KV cache (vLLM)
    PlanInputs in;
    in.gpus = 8;
    ServeGoal g;
    g.concurrency = 64;
    g.context = 8192;
    auto ck = guide_checklist_serve(c, in, g);
    REQUIRE(ck.ok);
    const Checklist& k = ck.value;
    CHECK(k.serving);
    const auto& s = k.steps;
    REQUIRE(s.size() == 9);
    const char* keys[] = {"model", "precision", "parallelism", "batch", "sequence", "states", "kv", "overhead", "target"};
    for (size_t i = 0; i < 9; ++i) CHECK(std::string(s[i].key) == keys[i]);
    // The answer is the serving comparison's own for the planned cluster (8 x H100).
    auto cmp = serve_clusters(c, in, g, {{"h100-80gb", 8, "ib-ndr400"}});
    REQUIRE(cmp.ok);
    const ServeClusterResult& r = cmp.value.front();
    const ServeClusterResult& a = k.serve_answer;
    CHECK(a.tp == r.tp);
    CHECK(a.replicas == r.replicas);
    CHECK(a.kv_bytes == r.kv_bytes);
    CHECK(s[0].value == Approx(8.03e9).epsilon(0.001));      // 8.03B parameters
    CHECK(s[1].value == Approx(2).epsilon(1e-9));            // BF16 weights: 2 bytes per parameter
    CHECK(s[2].value == 8);
    CHECK(s[2].second == a.tp);
    CHECK(a.replicas * a.tp == 8);
    CHECK(s[3].value == 64);
    CHECK(s[3].second == std::ceil(64.0 / a.replicas));      // sequences per replica
    CHECK(s[4].value == 8192);
    CHECK(s[4].second == s[3].second * 8192);
    // Weights on a GPU: ~16.06 GB of BF16 split over TP (vLLM adds its RoPE table).
    CHECK(s[5].value == Approx(16.06e9 / a.tp).epsilon(0.02));
    // KV: 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 128 KiB a token, the KV heads split over TP.
    CHECK(s[6].value == Approx(s[3].second * 8192 * 131072.0 / a.tp));
    CHECK(s[6].value == a.kv_bytes);
    // Weights + KV + overhead = the memory per GPU in use; the target is vLLM's reservation (its pool
    // included), so the share is at most 1 exactly when the sequences fit the pool.
    CHECK(s[5].value + s[6].value + s[7].value == Approx(s[7].second));
    CHECK(s[7].value > 0);
    CHECK(s[8].value == Approx(a.memory_bytes));
    CHECK(s[8].second == Approx(s[7].second / s[8].value));
    CHECK(s[8].second <= 1);
    CHECK(a.meets);
    // One H100 cannot hold one replica's 64 sequences: over the reservation, short of the goal.
    in.gpus = 1;
    auto one = guide_checklist_serve(c, in, g);
    REQUIRE(one.ok);
    CHECK_FALSE(one.value.serve_answer.meets);
    CHECK(one.value.steps[3].second == one.value.serve_answer.max_seqs_per_replica);
    CHECK(one.value.steps[8].second <= 1);                   // it serves the most that fit
    // Bad goal: named.
    g.concurrency = 0;
    CHECK(guide_checklist_serve(c, in, g).error.field == "plan.serve.concurrency");
}

TEST_CASE("search: the fabric chart and the plan's own size reuse the plan's memory per layout", "[plan]") {
    Config c = small_config();
    const PlanInputs in = sixteen_gpus();
    auto p = plan(c, in);
    REQUIRE(p.ok);
    REQUIRE(p.value.memory);
    for (const char* f : {"ib-hdr200", "eth-100-tcp"}) {
        PlanInputs fi = fabric_plan_inputs(in, f);
        PlanSearch reused, fresh;
        REQUIRE(reused.start(c, fi, p.value.memory).field.empty());
        REQUIRE(fresh.start(c, fi).field.empty());
        CHECK(reused.reusing());
        CHECK_FALSE(fresh.reusing());
        while (!reused.step(64)) {
        }
        while (!fresh.step(64)) {
        }
        auto a = reused.result(), b = fresh.result();
        REQUIRE(a.ok);
        REQUIRE(b.ok);
        // The same plan either way: the memory is the engine's, the fabric changes only the step time.
        CHECK(a.value.evaluated == b.value.evaluated);
        CHECK(a.value.fitting == b.value.fitting);
        REQUIRE(a.value.ranked.size() == b.value.ranked.size());
        for (size_t i = 0; i < a.value.ranked.size(); ++i) {
            CHECK(layout_label(a.value.ranked[i].layout) == layout_label(b.value.ranked[i].layout));
            CHECK(a.value.ranked[i].memory_bytes == b.value.ranked[i].memory_bytes);
            CHECK(a.value.ranked[i].time.total == b.value.ranked[i].time.total);
        }
        REQUIRE(a.value.rejected.size() == b.value.rejected.size());
        for (size_t i = 0; i < a.value.rejected.size(); ++i) CHECK(a.value.rejected[i].example == b.value.rejected[i].example);
    }
    // Not for another GPU count (other layouts, other memory) nor another configuration.
    PlanSearch other;
    REQUIRE(other.start(c, pareto_plan_inputs(in, 32, 3), p.value.memory).field.empty());
    CHECK_FALSE(other.reusing());
    Config bigger = c;
    bigger.run.seq = 8192;
    PlanSearch changed;  // the same layouts, other memory: the first layout's check refuses it
    REQUIRE(changed.start(bigger, in, p.value.memory).field.empty());
    CHECK_FALSE(changed.reusing());
    // The same size in a Pareto sweep: the plan's own points.
    auto pts = pareto_points(c, in, 16, 3, p.value.memory);
    REQUIRE(pts.ok);
    REQUIRE(pts.value.size() == 3);
    for (size_t i = 0; i < 3; ++i) CHECK(layout_label(pts.value[i].layout.layout) == layout_label(p.value.ranked[i].layout));
}

TEST_CASE("wording: a count of one takes the singular (noun_for)", "[plan]") {
    CHECK(noun_for(1, "replicas") == "replica");
    CHECK(noun_for(2, "replicas") == "replicas");
    CHECK(noun_for(0, "replicas") == "replicas");
    CHECK(noun_for(1, "micro-batches") == "micro-batch");
    CHECK(noun_for(3, "micro-batches") == "micro-batches");
    CHECK(noun_for(1, "sequences") == "sequence");
    CHECK(noun_for(1, "GPUs/replica") == "GPU/replica");
    CHECK(noun_for(1, "tokens/micro-batch") == "token/micro-batch");
    CHECK(noun_for(1, "searches") == "search");
    CHECK(noun_for(1, "classes") == "class");
    CHECK(noun_for(1, "s") == "s");    // a symbol, not a noun
    CHECK(noun_for(1, "us") == "us");
    CHECK(noun_for(1, "GB/s") == "GB/s");
    // As %.0f prints the count: 1.4 reads "1", 1.5 reads "2" (half to even), 0.5 reads "0".
    CHECK(noun_for(1.4, "days") == "day");
    CHECK(noun_for(1.5, "days") == "days");
    CHECK(noun_for(0.5, "days") == "days");
    CHECK(noun_for(std::nan(""), "days") == "days");
}

TEST_CASE("wording: one replica, one sequence, one micro-batch read singular in the checklists", "[plan]") {
    // Llama-3.1-8B served on one H100, one sequence of 8,192 tokens: 1 replica x TP 1.
    Config c = small_config();
    PlanInputs in;
    in.gpus = 1;
    ServeGoal g;
    g.concurrency = 1;
    g.context = 8192;
    auto ck = guide_checklist_serve(c, in, g);
    REQUIRE(ck.ok);
    const auto& s = ck.value.steps;
    CHECK(ck.value.serve_answer.replicas == 1);
    CHECK(s[2].detail.rfind("1 replica x TP 1 ", 0) == 0);
    CHECK(s[3].detail.rfind("1 concurrent sequence over 1 replica: 1 on each", 0) == 0);
    CHECK(s[4].detail == "1 sequence x 8192 tokens of context cached on each replica");
    for (const auto& st : s) {
        CHECK(st.detail.find("1 replicas") == std::string::npos);
        CHECK(st.detail.find(" 1 sequences") == std::string::npos);
    }
    // Training: a 1F1B pipeline of 2 stages with one micro-batch per step has 1 in flight.
    Config t = tiny_config();
    PlanInputs ti;
    ti.gpus = 2;
    ti.max_cp = 1;
    ti.global_batch = 1;
    ti.search_recompute = ti.search_sharding = ti.search_interleave = false;
    auto p = plan(t, ti);
    REQUIRE(p.ok);
    bool checked = false;
    for (size_t i = 0; i < p.value.ranked.size(); ++i) {
        if (p.value.ranked[i].layout.pp != 2) continue;
        auto k = guide_checklist(t, p.value, i);
        REQUIRE(k.ok);
        CHECK(k.value.steps[3].detail == "global = DP 1 x micro-batch 1 x accumulation 1; per GPU 1 sequence a step");
        CHECK(k.value.steps[6].detail.find(", 1 micro-batch in flight;") != std::string::npos);
        checked = true;
    }
    CHECK(checked);
}

TEST_CASE("search: a model no layout fits says how many GPUs, and which GPU, would fit it", "[plan]") {
    // Llama-3.1-405B with AdamW under Megatron's BF16 mixed precision holds 18 bytes a parameter of
    // model states: 405e9 x 18 = 7.3 TB, so even with every state sharded 60 GB targets (75% of
    // 80 GB) need 7.3e12 / 61.2e9 = 119 GPUs or more: 15 nodes of 8 at least.
    Config c = small_config();
    c.model = *find_preset("llama-3.1-405b");
    PlanInputs in;
    in.gpus = 8;
    auto r = plan(c, in);
    REQUIRE(r.ok);
    REQUIRE(r.value.ranked.empty());
    const PlanResult& p = r.value;
    CHECK(p.suggest_gpus >= 120);
    CHECK(p.suggest_gpus % 8 == 0);
    CHECK(p.suggest_gpus <= kFitSuggestMaxGpus);
    // The suggestion is a plan: on that many GPUs its layout is the fastest that fits ...
    PlanInputs more = in;
    more.gpus = p.suggest_gpus;
    auto there = plan(c, more);
    REQUIRE(there.ok);
    REQUIRE_FALSE(there.value.ranked.empty());
    CHECK(layout_label(there.value.ranked.front().layout) == layout_label(p.suggest_gpus_best.layout));
    CHECK(there.value.ranked.front().memory_bytes == p.suggest_gpus_best.memory_bytes);
    CHECK(p.suggest_gpus_best.memory_bytes <= p.target_bytes);
    // ... and one node fewer fits none (the bisection's last miss).
    more.gpus = p.suggest_gpus - 8;
    auto fewer = plan(c, more);
    CHECK((!fewer.ok || fewer.value.ranked.empty()));
    // The note names the field and the count.
    const std::string& note = p.notes.back();
    CHECK(note.find(std::to_string(p.suggest_gpus) + " x h100-80gb would fit it (plan.gpus: " + std::to_string(p.suggest_gpus)) != std::string::npos);
    CHECK(note.find("closest: ") != std::string::npos);
    // No catalog GPU holds 405B on 8: 7.3 TB / 8 = 911 GB a GPU.
    CHECK(p.suggest_gpu.empty());
    CHECK(note.find("no catalog GPU fits it on 8 GPUs (gpu)") != std::string::npos);

    // Llama-3.1-8B on one H100: 8.03e9 x 18 = 144.5 GB of states; a GPU whose 75% holds that has
    // 193 GB or more. The suggested GPU fits it alone; every catalog GPU with less memory does not.
    Config e = small_config();
    PlanInputs one;
    one.gpus = 1;
    auto s = plan(e, one);
    REQUIRE(s.ok);
    REQUIRE(s.value.ranked.empty());
    REQUIRE_FALSE(s.value.suggest_gpu.empty());
    const GpuSpec* g = find_gpu(s.value.suggest_gpu);
    REQUIRE(g);
    CHECK(g->memory_bytes * 0.75 >= 144.5e9);
    Config on = e;
    on.gpu_id = g->id;
    auto fits = plan(on, one);
    REQUIRE(fits.ok);
    REQUIRE_FALSE(fits.value.ranked.empty());
    CHECK(layout_label(fits.value.ranked.front().layout) == layout_label(s.value.suggest_gpu_best.layout));
    for (const auto& other : gpu_catalog()) {
        if (other.unified || other.memory_bytes <= find_gpu("h100-80gb")->memory_bytes || other.memory_bytes >= g->memory_bytes) continue;
        Config o = e;
        o.gpu_id = other.id;
        auto q = plan(o, one);
        CHECK((!q.ok || q.value.ranked.empty()));
    }
    CHECK(s.value.notes.back().find("; 1 x " + g->id + " would (gpu: " + g->id) != std::string::npos);
    // And the GPU count: 2 x H100 cannot (144.5 / 2 = 72 GB of states each even fully sharded, over
    // the 61.2 GB target); 3 can, as a pipeline of 3 stages (32 layers as 11 + 11 + 10: 48 GB of
    // states on the busiest).
    CHECK(s.value.suggest_gpus == 3);
    CHECK(s.value.suggest_gpus_best.layout.pp == 3);
    // A comparison's own searches do not look further (suggest_fit off): nothing suggested.
    one.suggest_fit = false;
    auto off = plan(e, one);
    REQUIRE(off.ok);
    CHECK(off.value.suggest_gpus == 0);
    CHECK(off.value.suggest_gpu.empty());
    CHECK(off.value.notes.back().find("More GPUs (plan.gpus), a GPU with more memory (gpu)") != std::string::npos);
}

TEST_CASE("interleaving with uneven chunks keeps the busiest stage at ceil(L / PP) layers", "[plan]") {
    // Llama 3 405B: 126 layers in 16 stages hold at most 8 each; 16 x 8 chunks of 1 layer (two empty:
    // the embedding's and the loss's), 16 x 4 of 2 (or 1), 16 x 2 of 4 (or 3) keep that.
    CHECK(interleave_split_ok(126, 16, 8));
    CHECK(interleave_split_ok(126, 16, 4));
    CHECK(interleave_split_ok(126, 16, 2));
    CHECK_FALSE(interleave_split_ok(126, 16, 3));  // chunks of 3: 9 layers on a stage
    CHECK(interleave_split_ok(128, 16, 8));        // dividing: always
    CHECK_FALSE(interleave_split_ok(80, 16, 2));   // chunks of 3: 6 > 5 layers on a stage
    CHECK(interleave_split_ok(80, 16, 5));
    // The engine takes such a layout and refuses one that overloads a stage, naming the field.
    Config c;
    c.method = Method::Detailed;
    c.task = Task::Training;
    c.gpu_id = "h100-80gb";
    c.model = *find_preset("llama-3.1-405b");
    c.run.seq = 8192;
    c.run.batch = 1;
    c.gpus = 128;
    c.parallel.tp = 8;
    c.parallel.pp = 16;
    c.parallel.schedule = PipelineSchedule::Interleaved;
    c.parallel.virtual_stages = 8;
    c.training.recompute = Recompute::Full;
    REQUIRE(training_result(c).ok);
    c.parallel.virtual_stages = 3;
    auto bad = training_result(c);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "parallel.virtual_stages");
    CHECK(bad.error.message.find("at most 8 layers on a stage") != std::string::npos);
    // On 512 H100 the search ranks PP16 at v = 2, 4 and 8 (plan.uneven_pp, the default), none when it is off.
    Config p = c;
    p.parallel = {};
    p.training.recompute = Recompute::None;
    PlanInputs in;
    in.gpus = 512;
    in.global_batch = 128;
    in.top = 10000;
    auto r = plan(p, in);
    REQUIRE(r.ok);
    std::set<int> vs;
    for (const auto& l : r.value.ranked) if (l.layout.pp == 16) vs.insert(l.layout.v);
    CHECK(vs == std::set<int>{1, 2, 4, 8});
    in.uneven_pp = false;
    auto even = plan(p, in);
    REQUIRE(even.ok);
    for (const auto& l : even.value.ranked) CHECK(126 % (l.layout.pp * l.layout.v) == 0);
}

TEST_CASE("step time: gradients cross the wire in the bytes the training engine holds them", "[plan]") {
    // Llama-3.1-8B, bf16-mixed: the default profile (hf-trainer, torch autocast) keeps FP32 params,
    // so its gradients are FP32 (training engine: 4 B per parameter); DDP all-reduces them as they are.
    // Megatron keeps BF16 params with FP32 main_grad buffers: 4 B too. Pure BF16 training: 2 B.
    Config c = small_config();
    c.gpus = 8;
    Layout l;  // TP1 PP1 DP8 ddp mb1 x1: the whole model's gradients all-reduced over 8 GPUs of one node
    l.dp = 8;
    l.sharding = Sharding::None;
    const double n = model_params(c.model).total;  // 8,030,261,248
    // ring all-reduce over NVLink 4 (450 GB/s x 0.80 = 360 GB/s): 2 x 7/8 x n x B / 360e9,
    // + tree latency 2 x log2(8) x 3 us = 18 us; 8.03e9 x 4 B: 0.15614 s
    auto wire = [&](double bytes) { return 2.0 * 7 / 8 * n * bytes / 360e9 + 18e-6; };
    for (const char* profile : {"hf-trainer", "megatron"}) {
        c.training.profile = profile;
        auto mem = training_result(layout_config(c, l, 8));
        REQUIRE(mem.ok);
        CHECK(mem.value.gradients / mem.value.params_trainable_on_gpu == Approx(4));
        CHECK(step_time(c, h100(), PlanConstants{}, l).dp_comm_total == Approx(wire(4)));
    }
    c.training.profile = "hf-trainer";
    c.training.precision = TrainPrecision::Bf16True;
    auto mem = training_result(layout_config(c, l, 8));
    REQUIRE(mem.ok);
    CHECK(mem.value.gradients / mem.value.params_trainable_on_gpu == Approx(2));
    CHECK(step_time(c, h100(), PlanConstants{}, l).dp_comm_total == Approx(wire(2)));
}

TEST_CASE("clusters: an overridden price is the plan's GPU type's; other GPU types keep their catalog's", "[plan]") {
    Config c = small_config();  // the plan's GPU: h100-80gb
    PlanInputs in;
    in.train_tokens = 1e11;
    in.price_per_hour_usd = 2.5;  // what the user pays for an H100-hour (catalog: $3.00)
    in.purchase_usd = 20000;      // and for an H100 (catalog: $25,000)
    auto r = plan_clusters(c, in, {{"h100-80gb", 16, "ib-ndr400"}, {"b200-180gb", 16, "ib-ndr400"}});
    REQUIRE(r.ok);
    for (const auto& x : r.value) {
        REQUIRE(x.ok);
        const bool h100 = x.cluster.gpu_id == "h100-80gb";
        // rent = GPUs x hours x price: 16 x days x 24 x ($2.50 for the H100s, the catalog's $6.00 for the B200s)
        CHECK(x.rent_usd == Approx(16 * x.train_days * 24 * (h100 ? 2.5 : 6.0)));
        // purchase = GPUs x price x 1.15: 16 x $20,000 x 1.15 = $368,000; 16 x $45,000 x 1.15 = $828,000
        CHECK(x.purchase_usd == Approx(h100 ? 368000 : 828000));
    }
    ServeGoal goal;
    goal.concurrency = 8;
    goal.context = 4096;
    auto s = serve_clusters(c, in, goal, {{"h100-80gb", 8, "ib-ndr400"}, {"b200-180gb", 8, "ib-ndr400"}});
    REQUIRE(s.ok);
    for (const auto& x : s.value) {
        REQUIRE(x.ok);
        const bool h100 = x.cluster.gpu_id == "h100-80gb";
        CHECK(x.rent_usd_per_hour == Approx(8 * (h100 ? 2.5 : 6.0)));  // 8 GPUs x $/GPU-hour
        CHECK(x.purchase_usd == Approx(8 * (h100 ? 20000 : 45000) * 1.15));
    }
}

namespace {
// A plan.fabric_spec: line rate per GPU (GB/s), achieved share, latency (us).
FabricSpec fabric_spec(const char* id, double line_gbps, double efficiency, double latency_us) {
    FabricSpec f;
    f.id = f.name = id;
    f.line_gbps = line_gbps;
    f.efficiency = efficiency;
    f.latency_us = latency_us;
    return f;
}
}  // namespace

TEST_CASE("batch sizing and the fabric chart include the request's own fabric (plan.fabric_spec)", "[plan]") {
    // Llama-3.1-8B on 64 H100, TP1 ZeRO-1: the custom fabric is RoCE 100 GbE's figures under another
    // name (12.5 GB/s x 0.85, 8 us), so its sizing and best layout are roce-100's exactly.
    Config c = small_config();
    PlanInputs in;
    in.gpus = 64;
    in.fabric_override = fabric_spec("my-roce", 12.5, 0.85, 8);
    Layout l;
    l.sharding = Sharding::Zero1;
    auto r = batch_sizing(c, in, l, {}, 0.9);  // empty: the request's fabric, then every inter-node fabric
    REQUIRE(r.ok);
    REQUIRE(r.value.size() == inter_node_fabrics().size() + 1);
    const BatchSizing& mine = r.value.front();
    CHECK(mine.fabric_id == "my-roce");
    const auto roce = std::find_if(r.value.begin(), r.value.end(), [](const BatchSizing& b) { return b.fabric_id == "roce-100"; });
    REQUIRE(roce != r.value.end());
    CHECK(mine.per_gpu_batch == roce->per_gpu_batch);
    CHECK(mine.step_s == Approx(roce->step_s));
    CHECK(mine.memory_bytes == roce->memory_bytes);
    // Named in a list too; an id that is neither it nor the catalog's is named by the list.
    auto named = batch_sizing(c, in, l, {"my-roce"}, 0.9);
    REQUIRE(named.ok);
    CHECK(named.value.front().per_gpu_batch == roce->per_gpu_batch);
    auto f = fabric_comparison(c, in, {"my-roce", "roce-100"}, l, 0.9);
    REQUIRE(f.ok);
    REQUIRE(f.value.size() == 2);
    REQUIRE(f.value[0].ok);
    CHECK(f.value[0].fabric_id == "my-roce");
    CHECK(f.value[0].best.time.total == Approx(f.value[1].best.time.total));
    CHECK(f.value[0].best.layout.tp == f.value[1].best.layout.tp);
}

TEST_CASE("batch sizing tries per-GPU batches up to 8192 sequences, not 12,288", "[plan]") {
    // 8B on 16 H100 (two nodes), TP8 SP DP2 ZeRO-1 (the plan's best split) over 0.1 GB/s x 0.5 per
    // GPU: the gradients need a batch past 8192 sequences to hide (92% compute at 12,288, the next
    // 1.5x step, which the search tried before): no batch within the limit.
    Config c = small_config();
    PlanInputs in;
    in.gpus = 16;
    in.fabric_override = fabric_spec("slow", 0.1, 0.5, 100);
    Layout l;
    l.tp = 8;
    l.sp = true;
    l.sharding = Sharding::Zero1;
    auto r = batch_sizing(c, in, l, {"slow"}, 0.9);
    REQUIRE(r.ok);
    CHECK(r.value.front().per_gpu_batch == 0);
    CHECK(r.value.front().verdict == "no per-GPU batch up to 8192 sequences reaches 90% compute on slow");
}

TEST_CASE("step time: a LoRA fine-tune reduces and updates the adapters, not the frozen base", "[plan]") {
    // Llama-3.1-8B, LoRA rank 16 on q and v: 32 layers x 16 x ((4096 + 4096) + (4096 + 1024)) =
    // 6,815,744 trainable parameters, FP32 (the training engine's 27,262,976 B of gradients).
    Config c = small_config();
    c.task = Task::FineTune;
    c.training.profile = "hf-trainer";
    c.training.finetune = FinetuneMethod::Lora;
    c.gpus = 8;
    Layout l;  // TP1 PP1 DP8 ddp mb1 x1
    l.dp = 8;
    l.sharding = Sharding::None;
    auto mem = training_result(layout_config(c, l, 8));
    REQUIRE(mem.ok);
    const double trainable = 32.0 * 16 * (4096 + 4096 + 4096 + 1024);
    CHECK(mem.value.params_trainable == Approx(trainable));
    CHECK(mem.value.gradients == Approx(trainable * 4));
    // ring all-reduce over NVLink 4 (360 GB/s): 2 x 7/8 x 6,815,744 x 4 B / 360e9 = 0.133 ms, + 18 us
    const StepTime t = step_time(c, h100(), PlanConstants{}, l);
    CHECK(t.dp_comm_total == Approx(2.0 * 7 / 8 * trainable * 4 / 360e9 + 18e-6));
    // the optimizer step reads and writes 36 B per trainable parameter at 0.85 x 3.35 TB/s
    CHECK(t.optimizer == Approx(trainable * 36 / (0.85 * 3350e9)));
}
