// The model description: parameter counts a user can check by hand, every preset against its
// published total, and the errors an inconsistent architecture gets.
#include <catch.hpp>

#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "io/config_json.hpp"

using namespace vc;
using Catch::Detail::Approx;

static ModelSpec preset(const char* id) {
    const ModelSpec* p = find_preset(id);
    REQUIRE(p != nullptr);
    auto r = resolve_model(*p);
    REQUIRE(r.ok);
    return r.value;
}

static double total_b(const char* id) { return model_params(preset(id)).total / 1e9; }

TEST_CASE("every preset resolves and its derived total is within 1% of the published one") {
    REQUIRE(model_presets().size() >= 25);
    for (const auto& p : model_presets()) {
        INFO(p.id);
        auto r = resolve_model(p);
        REQUIRE(r.ok);
        const ParamBreakdown b = model_params(r.value);
        CHECK(p.published_params_b > 0);
        CHECK_FALSE(p.family.empty());
        CHECK(b.total / 1e9 == Approx(p.published_params_b).epsilon(0.01));
        CHECK(b.total == Approx(b.embedding + b.output + b.attention + b.recurrent + b.mlp_dense + b.experts_routed + b.experts_shared + b.router +
                                b.norms));
        CHECK(b.active <= b.total);
        CHECK(b.active > 0);
        CHECK_FALSE(r.value.approximate);
    }
}

TEST_CASE("published totals named in the issue") {
    CHECK(total_b("llama-3.1-8b") == Approx(8.03).epsilon(0.001));
    CHECK(total_b("llama-3.1-70b") == Approx(70.6).epsilon(0.001));
    CHECK(total_b("llama-3.1-405b") == Approx(405.9).epsilon(0.001));
    CHECK(total_b("mixtral-8x7b") == Approx(46.7).epsilon(0.001));
    CHECK(total_b("deepseek-v3") == Approx(671).epsilon(0.001));
    // Exact counts known from the checkpoints.
    CHECK(model_params(preset("llama-3.1-8b")).total == 8030261248.0);
    CHECK(model_params(preset("llama-2-7b")).total == 6738415616.0);
    CHECK(model_params(preset("gpt2-xl")).total == 1557611200.0);
    CHECK(model_params(preset("phi-2")).total == 2779683840.0);
    CHECK(model_params(preset("mixtral-8x7b")).total == 46702792704.0);
}

TEST_CASE("Qwen3 by hand: q/k norms make the derived count the checkpoint's, to the parameter") {
    // Qwen3-0.6B (config.json: 28 x 1024, 16 heads over 8 KV heads of 128, ffn 3072, vocab 151936, tied):
    //   embedding 151,936 x 1,024                                   = 155,582,464 (the head is the same matrix)
    //   attention q 1,024 x 2,048 + k, v 2 x 1,024 x 1,024 + o 2,048 x 1,024 = 6,291,456, q/k norms 2 x 128 = 256
    //   MLP 3 x 1,024 x 3,072 = 9,437,184; norms 2 x 1,024 = 2,048  -> 15,730,944 a layer, x 28 = 440,466,432
    //   final norm 1,024                                            -> 596,049,920, keras-hub's count
    const ParamBreakdown b = model_params(preset("qwen3-0.6b"));
    CHECK(b.output == 0);
    CHECK(b.per_layer_attention == 6291456.0 + 256);
    CHECK(b.total == 596049920.0);
    // Without the q/k norms the same dimensions fall 28 x 256 = 7,168 short.
    ModelSpec bare = preset("qwen3-0.6b");
    bare.qk_norm = false;
    CHECK(model_params(bare).total == 596049920.0 - 7168);
    // The other sizes, each keras-hub's count for the checkpoint (core/model/presets.cpp).
    CHECK(model_params(preset("qwen3-1.7b")).total == 1720574976.0);
    CHECK(model_params(preset("qwen3-4b")).total == 4022468096.0);
    CHECK(model_params(preset("qwen3-8b")).total == 8190735360.0);
    CHECK(model_params(preset("qwen3-14b")).total == 14768307200.0);
    CHECK(model_params(preset("qwen3-32b")).total == 32762123264.0);
    CHECK(model_params(preset("qwen3-30b-a3b")).total == 30532122624.0);
    // Qwen3-235B-A22B: 94 MoE layers of 128 experts (8 active) of width 1536 over h 4096, 64 heads over 4:
    //   attention 2 x 4,096 x 8,192 + 2 x 4,096 x 512 + 256 = 71,303,424; experts 128 x 3 x 4,096 x 1,536
    //   = 2,415,919,104; router 128 x 4,096 = 524,288; norms 8,192 -> 2,487,755,008 a layer, x 94 =
    //   233,848,970,752; + final norm 4,096 + embedding and head 2 x 151,936 x 4,096 = 1,244,659,712
    //   -> 235,093,634,560. Active: less 94 x 120 idle experts x 18,874,368 = 22,190,763,520 (the card's 22B).
    const ParamBreakdown big = model_params(preset("qwen3-235b-a22b"));
    CHECK(big.total == 235093634560.0);
    CHECK(big.active == 22190763520.0);
}

TEST_CASE("2026's presets: exact counts of the checkpoints, Gemma-3's text part, Kimi-K2 on DeepSeek-V3's shape") {
    // Gemma-3 27B text_config: 62 x 5376, 32 heads over 16 of 128, ffn 21504, vocab 262208, tied, 4 norms a
    // layer and q/k norms: attention 2 x 5,376 x 4,096 + 2 x 5,376 x 2,048 + 2 x 128 = 66,060,544; MLP 3 x
    // 5,376 x 21,504 = 346,816,512; norms 4 x 5,376 = 21,504 -> 412,898,560 a layer, x 62 = 25,599,710,720;
    // + embedding 262,208 x 5,376 = 1,409,630,208 + final norm 5,376 = 27,009,346,304: keras-hub's text-only
    // 27,009,002,240 plus 64 rows (64 x 5,376 = 344,064) its table leaves out. The vision tower is not counted.
    CHECK(model_params(preset("gemma-3-27b")).total == 27009346304.0);
    CHECK(model_params(preset("gemma-3-1b")).total == 999885952.0);  // keras-hub gemma3_1b, 262144 rows as published
    const ModelSpec g = preset("gemma-3-12b");
    CHECK(g.sliding_window == 1024);
    CHECK(g.global_every == 6);
    CHECK(g.head_dim == 256);  // 16 heads x 256 = 4096 while hidden is 3840
    // GGUF general.parameter_count / the Hub's counts: Phi-4 14,659,507,200 (40 x (65,536,000 attention +
    // 275,251,200 MLP + 10,240 norms) + 2 x 100,352 x 5,120 + 5,120), Phi-4-mini 3,836,021,760, Mistral-Nemo
    // 12,247,782,400, Mistral-Small-3.x's decoder 23,572,403,200.
    CHECK(model_params(preset("phi-4")).total == 14659507200.0);
    CHECK(model_params(preset("phi-4-mini")).total == 3836021760.0);
    CHECK(model_params(preset("mistral-nemo-12b")).total == 12247782400.0);
    CHECK(model_params(preset("mistral-small-24b")).total == 23572403200.0);
    // The alias-like presets are their architecture's counts to the parameter.
    CHECK(model_params(preset("llama-3.3-70b")).total == model_params(preset("llama-3.1-70b")).total);
    CHECK(model_params(preset("deepseek-r1")).total == model_params(preset("deepseek-v3")).total);
    // Kimi-K2: DeepSeek-V3's layer with 384 routed experts over 64 heads, one dense layer, vocab 163840:
    // 60 x 385 experts x 3 x 7,168 x 2,048 = 1,017,328,435,200 of 1,026.4B; active 32.9B (the card's 32B).
    const ParamBreakdown k = model_params(preset("kimi-k2"));
    CHECK(k.experts_routed + k.experts_shared == 60.0 * 385 * 3 * 7168 * 2048);
    CHECK(k.total / 1e9 == Approx(1026.4).epsilon(0.0001));
    CHECK(k.active / 1e9 == Approx(32.86).epsilon(0.001));
}

TEST_CASE("Llama-2-7B by hand: MHA, SwiGLU, untied, RMSNorm") {
    const ParamBreakdown b = model_params(preset("llama-2-7b"));
    CHECK(b.embedding == 32000.0 * 4096);
    CHECK(b.output == 32000.0 * 4096);
    CHECK(b.per_layer_attention == 4.0 * 4096 * 4096);  // q, k, v, o all 4096 x 4096
    CHECK(b.attention == 32 * 4.0 * 4096 * 4096);
    CHECK(b.per_layer_mlp == 3.0 * 4096 * 11008);       // gate, up, down
    CHECK(b.mlp_dense == 32 * 3.0 * 4096 * 11008);
    CHECK(b.norms == (32 * 2 + 1) * 4096.0);            // two RMSNorm weights per layer + final
    CHECK(b.experts_routed == 0);
    CHECK(b.router == 0);
    CHECK(b.active == b.total);
}

TEST_CASE("GQA: Llama-3.1-8B keys and values are a quarter of the queries") {
    const ModelSpec m = preset("llama-3.1-8b");
    CHECK(m.head_dim == 128);
    const ParamBreakdown b = model_params(m);
    // q and o: 4096 x 4096 each; k and v: 4096 x (8 x 128) each.
    CHECK(b.per_layer_attention == 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024);
    CHECK(b.embedding == 128256.0 * 4096);
}

TEST_CASE("tied embeddings have no LM head: Llama-3.2-1B") {
    const ParamBreakdown b = model_params(preset("llama-3.2-1b"));
    CHECK(b.output == 0);
    CHECK(b.embedding == 128256.0 * 2048);
    CHECK(b.per_layer_attention == 2.0 * 2048 * 2048 + 2.0 * 2048 * 512);  // 32 heads x 64, 8 KV heads x 64
    CHECK(b.total == 1235814400.0);
}

TEST_CASE("biases: Qwen2.5-7B has them on q, k, v only") {
    const ParamBreakdown b = model_params(preset("qwen2.5-7b"));
    const double h = 3584, kv = 4 * 128;
    CHECK(b.per_layer_attention == 2 * h * h + 2 * h * kv + h + 2 * kv);
    CHECK(b.per_layer_mlp == 3 * h * 18944);
}

TEST_CASE("MQA and a parallel block: Falcon-7B") {
    const ModelSpec m = preset("falcon-7b");
    CHECK(m.kv_heads == 1);
    CHECK(m.head_dim == 64);
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 4544.0 * (4544 + 2 * 64) + 4544.0 * 4544);  // fused qkv 4544 -> 4672, dense
    CHECK(b.per_layer_mlp == 2.0 * 4544 * 18176);                              // GELU: up and down
    CHECK(b.norms == (32 * 1 + 1) * 2 * 4544.0);                               // one LayerNorm per layer + ln_f
    // The Hub's 7.22B counts the checkpoint's stored copy of the tied head.
    CHECK((b.total + 65024.0 * 4544) / 1e9 == Approx(7.22).epsilon(0.001));
}

TEST_CASE("GPT-2 XL and BERT-large: learned positions, token types, LayerNorm and biases") {
    const ParamBreakdown g = model_params(preset("gpt2-xl"));
    CHECK(g.embedding == (50257.0 + 1024) * 1600);
    CHECK(g.output == 0);
    CHECK(g.per_layer_attention == 4.0 * 1600 * 1600 + 4 * 1600);                 // c_attn (3h) + c_proj, with biases
    CHECK(g.per_layer_mlp == 2.0 * 1600 * 6400 + 6400 + 1600);
    CHECK(g.norms == (48 * 2 + 1) * 2 * 1600.0);
    const ParamBreakdown bert = model_params(preset("bert-large-uncased"));
    CHECK(bert.embedding == (30522.0 + 512 + 2) * 1024);
}

TEST_CASE("MoE: Mixtral-8x7B experts, router and active parameters") {
    const ParamBreakdown b = model_params(preset("mixtral-8x7b"));
    const double expert = 3.0 * 4096 * 14336;
    CHECK(b.per_expert == expert);
    CHECK(b.experts_routed == 32 * 8 * expert);
    CHECK(b.router == 32 * 8 * 4096.0);
    CHECK(b.mlp_dense == 0);
    CHECK(b.active == b.total - 32 * 6 * expert);  // 2 of 8 experts per token
    CHECK(b.active / 1e9 == Approx(12.9).epsilon(0.01));
}

TEST_CASE("MLA + MoE: DeepSeek-V3 by component") {
    const ModelSpec m = preset("deepseek-v3");
    CHECK(m.head_dim == 192);  // qk_nope 128 + qk_rope 64
    const ParamBreakdown b = model_params(m);
    const double h = 7168, a = 128;
    const double q = h * 1536 + 1536 + 1536 * a * 192;          // q_a, q_a_layernorm, q_b
    const double kv = h * (512 + 64) + 512 + 512 * a * (128 + 128);  // kv_a (latent + rope key), norm, kv_b
    const double o = a * 128 * h;
    CHECK(b.per_layer_attention == q + kv + o);
    CHECK(b.mlp_dense == 3 * 3.0 * h * 18432);                  // first 3 layers dense
    CHECK(b.per_expert == 3.0 * h * 2048);
    CHECK(b.experts_routed == 58 * 256 * b.per_expert);
    CHECK(b.experts_shared == 58 * 1 * b.per_expert);
    CHECK(b.router == 58 * 256 * h);
    CHECK(b.active / 1e9 == Approx(37.5).epsilon(0.01));        // the card's "37B activated"
}

TEST_CASE("Gemma-2: head_dim apart from hidden / heads, four norms per layer, local/global window") {
    const ModelSpec m = preset("gemma-2-9b");
    CHECK(m.head_dim == 256);
    CHECK(m.sliding_window == 4096);
    CHECK(m.global_every == 2);
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 2.0 * 3584 * 16 * 256 + 2.0 * 3584 * 8 * 256);
    CHECK(b.norms == (42 * 4 + 1) * 3584.0);
    CHECK(preset("mistral-7b-v0.1").sliding_window == 4096);
}

TEST_CASE("parameters only: the typed total, apportioned by a filled architecture") {
    for (double p : {0.05, 1.0, 7.0, 13.0, 70.0, 405.0, 2000.0}) {
        INFO(p);
        ModelSpec in;
        in.params_override_b = p;
        auto r = resolve_model(in);
        REQUIRE(r.ok);
        const ModelSpec& m = r.value;
        CHECK(m.approximate);
        CHECK(m.heads % m.kv_heads == 0);
        CHECK(m.head_dim * m.heads == m.hidden);
        const ParamBreakdown b = model_params(m);
        CHECK(b.total == Approx(p * 1e9));
        CHECK(b.embedding + b.output + b.attention + b.mlp_dense + b.norms == Approx(p * 1e9));
        CHECK(b.per_layer_mlp * m.layers == Approx(b.mlp_dense));
        // The filled architecture lands near the typed count before scaling (a factor of 2 at most).
        ModelSpec unscaled = m;
        unscaled.approximate = false;
        const double natural = model_params(unscaled).total;
        CHECK(natural / (p * 1e9) < 2.0);
        CHECK(natural / (p * 1e9) > 0.5);
    }
    // 7B lands on the Llama-3-8B shape.
    const ModelSpec m7 = model_from_params(7);
    CHECK(m7.layers == 32);
    CHECK(m7.hidden == 4096);
    CHECK(m7.kv_heads == 8);
    CHECK(m7.ffn == 14336);
}

TEST_CASE("parameters only with no count (the page's 0): refused with params_b's range, not the filled 1.17B") {
    for (double typed : {0.0, -3.0}) {
        ModelSpec m = model_from_params(typed);  // the architecture falls back to 1B's
        m.params_override_b = typed;             // the count stays as typed (shell/state/scenario.cpp)
        for (Method method : {Method::Detailed, Method::Quick, Method::Guide}) {
            Config c;
            c.method = method;
            c.model = m;
            auto r = estimate(c);
            INFO(typed << " " << method_name(method) << ": " << r.error.message);
            CHECK_FALSE(r.ok);
            CHECK(r.error.field == "params_b");
            CHECK(r.error.message.rfind("params_b must be a number greater than 0 and at most 100000 billion, got ", 0) == 0);
        }
    }
}

// A small dense architecture that resolves: 4 layers, 512 wide, 8 heads.
static ModelSpec small_model() {
    ModelSpec m;
    m.layers = 4;
    m.hidden = 512;
    m.heads = 8;
    m.ffn = 1024;
    m.vocab = 1000;
    return m;
}

TEST_CASE("resolve_model fills head_dim and kv_heads") {
    auto r = resolve_model(small_model());
    REQUIRE(r.ok);
    CHECK(r.value.head_dim == 64);
    CHECK(r.value.kv_heads == 8);
}

TEST_CASE("resolve_model errors name the field") {
    const ModelSpec base = small_model();
    REQUIRE(resolve_model(base).ok);

    struct Case {
        const char* field;
        void (*edit)(ModelSpec&);
    };
    const Case cases[] = {
        {"model.layers", [](ModelSpec& m) { m.layers = 0; }},
        {"model.layers", [](ModelSpec& m) { m.layers = -3; }},
        {"model.hidden", [](ModelSpec& m) { m.hidden = 0; }},
        {"model.heads", [](ModelSpec& m) { m.heads = 0; }},
        {"model.kv_heads", [](ModelSpec& m) { m.kv_heads = 3; }},   // 8 query heads do not split into 3 groups
        {"model.kv_heads", [](ModelSpec& m) { m.kv_heads = 16; }},  // more KV heads than heads
        {"model.head_dim", [](ModelSpec& m) { m.heads = 7; }},      // 512 / 7 is not whole
        {"model.vocab", [](ModelSpec& m) { m.vocab = 0; }},
        {"model.ffn", [](ModelSpec& m) { m.ffn = 0; }},
        {"model.top_k", [](ModelSpec& m) { m.experts = 8; m.top_k = 9; m.expert_ffn = 256; }},
        {"model.top_k", [](ModelSpec& m) { m.experts = 8; m.top_k = 0; m.expert_ffn = 256; }},
        {"model.top_k", [](ModelSpec& m) { m.top_k = 2; }},  // top-k without experts
        {"model.expert_ffn", [](ModelSpec& m) { m.experts = 8; m.top_k = 2; }},
        {"model.shared_experts", [](ModelSpec& m) { m.shared_experts = 1; }},
        {"model.dense_layers", [](ModelSpec& m) { m.experts = 8; m.top_k = 2; m.expert_ffn = 256; m.dense_layers = 5; }},
        {"model.ffn", [](ModelSpec& m) { m.experts = 8; m.top_k = 2; m.expert_ffn = 256; m.dense_layers = 1; m.ffn = 0; }},
        {"model.kv_lora_rank", [](ModelSpec& m) { m.qk_rope_head_dim = 64; }},
        {"model.qk_rope_head_dim", [](ModelSpec& m) { m.kv_lora_rank = 128; m.qk_nope_head_dim = 64; m.v_head_dim = 64; }},
        {"model.v_head_dim", [](ModelSpec& m) { m.kv_lora_rank = 128; m.qk_nope_head_dim = 64; m.qk_rope_head_dim = 32; }},
        {"model.kv_heads", [](ModelSpec& m) { m.kv_lora_rank = 128; m.qk_nope_head_dim = 64; m.qk_rope_head_dim = 32; m.v_head_dim = 64; m.kv_heads = 2; }},
        {"model.global_every", [](ModelSpec& m) { m.global_every = 2; }},
        {"model.global_every", [](ModelSpec& m) { m.sliding_window = 128; m.global_every = 5; }},  // more than layers
        {"model.sliding_window", [](ModelSpec& m) { m.sliding_window = -1; }},
        {"model.context_limit", [](ModelSpec& m) { m.context_limit = -1; }},
        {"model.context_limit", [](ModelSpec& m) { m.context_limit = (1 << 24) + 1; }},
        {"model.norms_per_layer", [](ModelSpec& m) { m.norms_per_layer = -1; }},
        {"model.qk_norm", [](ModelSpec& m) { m.kv_lora_rank = 128; m.qk_nope_head_dim = 64; m.qk_rope_head_dim = 32; m.v_head_dim = 64; m.qk_norm = true; }},
        {"model.params_b", [](ModelSpec& m) { m.params_override_b = NAN; }},
        {"model.params_b", [](ModelSpec& m) { m.params_override_b = -1; }},
        {"model.layers", [](ModelSpec& m) { m = ModelSpec{}; }},  // nothing given at all
    };
    for (const auto& c : cases) {
        ModelSpec m = base;
        c.edit(m);
        auto r = resolve_model(m);
        INFO(c.field << ": " << r.error.message);
        CHECK_FALSE(r.ok);
        CHECK(r.error.field == c.field);
        CHECK(r.error.message.find(c.field) != std::string::npos);
    }
}

TEST_CASE("guide method derives the count from a preset when no params_b is typed") {
    auto cfg = io::parse_config(R"({"method":"guide","task":"inference","model":{"preset":"llama-3.1-8b"},
                                    "batch":1,"seq":4096,"guide":{"weight_bytes":2}})");
    REQUIRE(cfg.ok);
    auto r = estimate(cfg.value);
    REQUIRE(r.ok);
    CHECK(r.value.component("weights")->bytes == Approx(2 * 8030261248.0));

    // A typed count still wins.
    auto typed = io::parse_config(R"({"method":"guide","task":"inference","model":{"preset":"llama-3.1-8b"},"params_b":7,
                                      "batch":1,"seq":4096,"guide":{"weight_bytes":2}})");
    REQUIRE(typed.ok);
    auto t = estimate(typed.value);
    REQUIRE(t.ok);
    CHECK(t.value.component("weights")->bytes == Approx(14e9));

    // An incomplete architecture without a count names the missing field.
    auto partial = io::parse_config(R"({"method":"guide","model":{"layers":80,"hidden":8192,"heads":64}})");
    REQUIRE(partial.ok);
    auto p = estimate(partial.value);
    CHECK_FALSE(p.ok);
    CHECK(p.error.field == "model.vocab");
}

TEST_CASE("model JSON round-trips norms_per_layer and preset overrides") {
    auto cfg = io::parse_config(R"({"model":{"preset":"gemma-2-9b"}})");
    REQUIRE(cfg.ok);
    CHECK(cfg.value.model.norms_per_layer == 4);
    auto edited = io::parse_config(R"({"model":{"preset":"llama-3.1-8b","kv_heads":32}})");
    REQUIRE(edited.ok);
    CHECK(edited.value.model.kv_heads == 32);
    auto r = resolve_model(edited.value.model);
    REQUIRE(r.ok);
    CHECK(model_params(r.value).per_layer_attention == 4.0 * 4096 * 4096);
}

TEST_CASE("gpt-oss: biased experts, alternating 128-token window; Gemma-3: 5 local to 1 global") {
    const ModelSpec m = preset("gpt-oss-120b");
    CHECK(m.sliding_window == 128);
    CHECK(m.global_every == 2);
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_expert == 3.0 * 2880 * 2880 + 2 * 2880 + 2880);  // gate+up+down, their biases
    CHECK(b.per_layer_attention == 2.0 * 2880 * 4096 + 2.0 * 2880 * 512 + 4096 + 2 * 512 + 2880);
    CHECK((b.active - b.embedding) / 1e9 == Approx(5.13).epsilon(0.01));  // the card's 5.1B active, less the table
    const ModelSpec g = preset("gemma-3-1b");
    CHECK(g.sliding_window == 512);
    CHECK(g.global_every == 6);
}
