// Detailed training: properties over thousands of random valid configs. Every output is finite
// and non-negative; memory never decreases when the micro-batch, the sequence or the model grows;
// it never increases when the ZeRO stage, TP or the recomputation level goes up.
// Documented exceptions (docs/training.md, "Monotonicity"):
//  - ZeRO-3 adds gathered-layer buffers, so ZeRO-2 -> ZeRO-3 may grow by at most those buffers
//    when the data-parallel group is small;
//  - ZeRO-2 gradient shards come from the reduce-scatter stream's pool, so reserved memory may grow
//    by them when gradients are not alive at the peak (allocated memory never grows);
//  - TP with sequence parallelism off keeps the replicated norm/dropout terms, so only the sum
//    of states and sharded terms must shrink; we check the total with SP on;
//  - recomputation adds one layer's recompute working set, which only pays off beyond one layer.
#include <catch.hpp>

#include <cmath>
#include <random>

#include "core/config.hpp"
#include "core/train/training.hpp"

using namespace vc;

namespace {

const char* const kProfiles[] = {"hf-trainer", "hf-legacy", "torch-compile", "torchtitan", "megatron", "deepspeed", "litgpt", "torchtune"};
const TrainPrecision kPrecisions[] = {TrainPrecision::Fp32, TrainPrecision::Bf16Mixed, TrainPrecision::Fp16Mixed,
                                      TrainPrecision::Bf16True, TrainPrecision::Fp8Mixed};
const OptimizerKind kOptimizers[] = {OptimizerKind::AdamW, OptimizerKind::AdamW8bit, OptimizerKind::PagedAdamW,
                                     OptimizerKind::Adafactor, OptimizerKind::Sgd, OptimizerKind::SgdMomentum,
                                     OptimizerKind::Lion};

struct Gen {
    std::mt19937 rng{12345};
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    int pow2(int lo, int hi) { return 1 << std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin() { return pick(2) == 1; }
};

// Whether the config's profile refuses its base on more than one GPU (LitGPT's quantized base).
bool refuses_multi_gpu(const Config& c) {
    const ProfileBehaviour* p = find_training_profile(c.training.profile);
    return p && p->qlora_single_gpu && quantized_base(c.training);
}

// A random valid config: heads, layers and sizes chosen so every parallel split divides.
Config random_config(Gen& g) {
    Config c;
    c.method = Method::Detailed;
    ModelSpec& m = c.model;
    m.id = "random";
    const int head_dim = g.coin() ? 64 : 128;
    m.heads = g.pow2(2, 6);
    m.kv_heads = g.coin() ? m.heads : std::max(1, m.heads / g.pow2(0, 3));
    m.head_dim = head_dim;
    m.hidden = m.heads * head_dim;
    m.layers = 4 * (1 + g.pick(20));
    m.ffn = m.hidden * (2 + g.pick(3));
    m.mlp = g.coin() ? MlpKind::SwiGlu : MlpKind::Gelu;
    m.norm = m.mlp == MlpKind::Gelu ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.vocab = 1000 * (1 + g.pick(150));
    m.tied_embeddings = g.coin();
    if (g.pick(4) == 0) {
        m.experts = g.pow2(2, 4);
        m.top_k = 1 + g.pick(2);
        m.expert_ffn = m.hidden * 2;
    }
    c.run.batch = 1 + g.pick(8);
    c.run.seq = 256 * g.pow2(0, 4);
    TrainingInputs& t = c.training;
    t.profile = kProfiles[g.pick(8)];
    t.precision = kPrecisions[g.pick(5)];
    t.optimizer = kOptimizers[g.pick(7)];
    t.recompute = static_cast<Recompute>(g.pick(3));
    t.attention = g.coin() ? AttentionKernel::Auto : AttentionKernel::Eager;
    t.dropout = g.coin() ? 0.1 : 0;
    t.attention_dropout = t.dropout;
    t.grad_accum = 1 + g.pick(4);
    t.sharding = static_cast<Sharding>(g.pick(4));
    const int f = g.pick(3);
    t.finetune = static_cast<FinetuneMethod>(f);
    t.lora.rank = g.pow2(2, 6);
    t.lora.targets = g.coin() ? (kLoraQ | kLoraV) : kLoraAllLinear;
    t.lora.dropout = g.coin() ? 0.05 : 0;
    ParallelInputs& p = c.parallel;
    p.tp = std::min(m.kv_heads, g.pow2(0, 2));
    p.sp = g.coin() ? Toggle::On : Toggle::Off;
    p.pp = g.pow2(0, 2);
    p.cp = g.pow2(0, 1);
    const int dp = g.pow2(0, 3);
    c.gpus = static_cast<double>(p.tp) * p.pp * p.cp * dp;
    // LitGPT refuses a quantized base under mixed precision and on more than one GPU (training_setup):
    // its QLoRA runs 16-bit true (or FP32) on one GPU.
    if (refuses_multi_gpu(c)) {
        if (t.precision == TrainPrecision::Fp16Mixed) t.precision = TrainPrecision::Fp16True;
        else if (t.precision != TrainPrecision::Fp32) t.precision = TrainPrecision::Bf16True;
        p.tp = p.pp = p.cp = 1;
        c.gpus = 1;
    }
    return c;
}

double total(const Config& c) {
    auto r = training_result(c);
    REQUIRE(r.ok);
    return r.value.device_total;
}

bool all_finite_nonnegative(const TrainingResult& r) {
    for (double v : {r.weights, r.gradients, r.optimizer, r.activations, r.logits_loss, r.temporary, r.step_temporary,
                     r.peak_allocated, r.peak_reserved, r.allocator_slack, r.runtime, r.device_total, r.host_ram})
        if (!std::isfinite(v) || v < 0) return false;
    return true;
}

constexpr int kConfigs = 2000;
constexpr double kTol = 1e-9;  // relative

}  // namespace

TEST_CASE("random valid configs: finite, non-negative, monotone") {
    Gen g;
    int checked = 0;
    for (int i = 0; i < kConfigs; ++i) {
        Config c = random_config(g);
        auto r = training_result(c);
        if (!r.ok) {
            INFO(r.error.field << ": " << r.error.message);
            FAIL("a generated config was rejected");
        }
        CHECK(all_finite_nonnegative(r.value));
        const double base = r.value.device_total;

        // Growing the micro-batch, the sequence or the model never lowers memory.
        Config b = c;
        b.run.batch += 1;
        CHECK(total(b) >= base * (1 - kTol));
        Config s = c;
        s.run.seq *= 2;
        CHECK(total(s) >= base * (1 - kTol));
        Config m = c;
        m.model.layers += 4 * c.parallel.pp;
        INFO("profile " << c.training.profile << " precision " << static_cast<int>(c.training.precision) << " finetune "
                        << static_cast<int>(c.training.finetune) << " zero " << static_cast<int>(c.training.sharding)
                        << " recompute " << static_cast<int>(c.training.recompute) << " pp " << c.parallel.pp << " tp "
                        << c.parallel.tp << " gpus " << c.gpus << " experts " << c.model.experts);
        CHECK(total(m) >= base * (1 - kTol));

        // More ZeRO never allocates more (ZeRO-2 -> 3 aside: gathered layers, checked below). The
        // reserved total may grow by the sharded gradients at most: with ZeRO-2 they come from the
        // reduce-scatter stream's own pool when they appear after the peak.
        if (c.training.sharding == Sharding::None || c.training.sharding == Sharding::Zero1) {
            Config z = c;
            z.training.sharding = static_cast<Sharding>(static_cast<int>(c.training.sharding) + 1);
            auto rz = training_result(z);
            REQUIRE(rz.ok);
            const ProfileBehaviour* pr = find_training_profile(c.training.profile);
            if (z.training.sharding == Sharding::Zero2 && pr && pr->fsdp_zero2) {
                // FSDP's SHARD_GRAD_OP shards the parameters at rest but holds the whole stage gathered from
                // forward to backward (as ZeRO-3 its gathered layers): only the model states never grow (with one
                // pipeline stage: with more, the gathered stage can make the other stage the worst rank reported).
                if (c.parallel.pp == 1)
                    CHECK(rz.value.weights + rz.value.gradients + rz.value.optimizer <=
                      (r.value.weights + r.value.gradients + r.value.optimizer) * (1 + kTol));
            } else {
                CHECK(rz.value.peak_allocated <= r.value.peak_allocated * (1 + kTol));
                CHECK(rz.value.device_total <= (base + rz.value.gradients) * (1 + kTol));
            }
        }
        // Full recomputation never costs more than none.
        if (c.training.recompute == Recompute::None) {
            Config f = c;
            f.training.recompute = Recompute::Full;
            CHECK(total(f) <= base * (1 + kTol));
        }
        ++checked;
    }
    CHECK(checked == kConfigs);
}

TEST_CASE("ZeRO-3 costs at most its gathered layers more than ZeRO-2") {
    Gen g;
    for (int i = 0; i < 300; ++i) {
        Config c = random_config(g);
        c.training.sharding = Sharding::Zero2;
        c.training.offload_params = false;
        const double z2 = total(c);
        c.training.sharding = Sharding::Zero3;
        auto r3 = training_result(c);
        REQUIRE(r3.ok);
        // The gathered buffers are temporary; everything else shrinks or stays.
        CHECK(r3.value.weights + r3.value.gradients + r3.value.optimizer <= z2);
    }
}

TEST_CASE("tensor parallelism with sequence parallelism never costs more") {
    Gen g;
    for (int i = 0; i < 300; ++i) {
        Config c = random_config(g);
        c.parallel.tp = 1;
        c.parallel.sp = Toggle::On;
        c.gpus = static_cast<double>(c.parallel.pp) * c.parallel.cp;  // dp 1
        const double t1 = total(c);
        if (c.model.kv_heads % 2 != 0 || c.model.heads % 2 != 0 || refuses_multi_gpu(c)) continue;
        c.parallel.tp = 2;
        c.gpus *= 2;
        CHECK(total(c) <= t1 * (1 + kTol));
    }
}
