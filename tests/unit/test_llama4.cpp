// Llama 4 Scout and Maverick: their parameter counts by hand against the published ones, the
// interleaved MoE layers (model.moe_every), the chunked attention's KV cache as llama.cpp, vLLM and
// transformers allocate it (docs/inference.md), the vision tower as an mmproj, and the errors.
#include <catch.hpp>

#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "core/serve/inference.hpp"
#include "core/serve/kv_cache.hpp"
#include "core/serve/llamacpp.hpp"
#include "core/units.hpp"
#include "inference_helpers.hpp"
#include "io/config_json.hpp"
#include "io/model_import.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;
using Catch::Detail::Approx;

namespace {

ModelSpec resolved(const char* id) { return vc::test::resolved_preset(id); }

// One expert of width 8,192 (SwiGLU: gate, up, down) over h 5,120.
constexpr double kExpert = 3.0 * 5120 * 8192;                                // 125,829,120
constexpr double kAttention = 5120.0 * 5120 * 2 + 2.0 * 5120 * 1024;         // q, o 5,120 x 5,120; k, v 5,120 x 1,024
constexpr double kEmbedAndHead = 2.0 * 202048 * 5120;                        // untied: 2 x 1,034,485,760
// Layer widths per token of the K and V caches: 2 x 8 KV heads x 128 x 2 B (f16 / bf16).
constexpr double kKvLayerToken = 2.0 * 8 * 128 * 2;                          // 4,096 B

}  // namespace

TEST_CASE("Llama-4 Scout by hand: 107,769,861,120 parameters, llama.cpp's GGUF count less its rope_freqs") {
    // text_config: 48 layers x 5,120, 40 heads over 8 KV heads of 128, 16 experts (top-1) + 1 shared of
    // width 8,192 on every layer (interleave_moe_layer_step 1), vocab 202,048, untied.
    //   attention 62,914,560; 17 experts x 125,829,120 = 2,139,095,040; router 16 x 5,120 = 81,920;
    //   norms 2 x 5,120 -> 2,202,101,760 a layer, x 48 = 105,700,884,480
    //   + embedding and LM head 2,068,971,520 + final norm 5,120 = 107,769,861,120
    const ModelSpec m = resolved("llama-4-scout");
    CHECK(moe_layer_count(m) == 48);
    CHECK(dense_mlp_layers(m) == 0);
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == kAttention);
    CHECK(b.per_expert == kExpert);
    CHECK(b.router == 48.0 * 16 * 5120);
    CHECK(b.total == 48.0 * (kAttention + 17 * kExpert + 16 * 5120 + 2 * 5120) + kEmbedAndHead + 5120);
    CHECK(b.total == 107769861120.0);
    // llama-bench's model_n_params for the Scout GGUF is 107,769,861,184: the 64 more are llama.cpp's
    // rope_freqs table (head_dim / 2 factors for the llama3 RoPE scaling), not a weight of the model.
    CHECK(107769861184.0 - b.total == 128 / 2);
    // Within 0.1% of the published (displayed) 107.77B.
    CHECK(std::fabs(b.total / 1e9 / find_preset("llama-4-scout")->published_params_b - 1) < 0.001);
    // Active: 15 of the 16 routed experts idle on each of the 48 layers: 17,172,894,720 (the card's "17B").
    CHECK(b.active == b.total - 48.0 * 15 * kExpert);
    CHECK(b.active == 17172894720.0);
}

TEST_CASE("Llama-4 Maverick by hand: experts on every other layer, 400,711,848,960 parameters") {
    // 128 experts (top-1) + 1 shared on layers 1, 3, ..., 47 (interleave_moe_layer_step 2); layers 0, 2, ..., 46
    // dense of width intermediate_size_mlp 16,384.
    //   MoE layer: 62,914,560 + 129 x 125,829,120 + router 128 x 5,120 + norms 10,240 = 16,295,536,640
    //   dense layer: 62,914,560 + 3 x 5,120 x 16,384 + 10,240 = 314,583,040
    //   24 of each: 391,092,879,360 + 7,549,992,960, + 2,068,971,520 + 5,120 = 400,711,848,960
    const ModelSpec m = resolved("llama-4-maverick");
    CHECK(moe_layer_count(m) == 24);
    CHECK(dense_mlp_layers(m) == 24);
    CHECK_FALSE(is_moe_layer(m, 0));
    CHECK(is_moe_layer(m, 1));
    CHECK_FALSE(is_moe_layer(m, 46));
    CHECK(is_moe_layer(m, 47));
    const ParamBreakdown b = model_params(m);
    const double moe_layer = kAttention + 129 * kExpert + 128 * 5120 + 2 * 5120;
    const double dense_layer = kAttention + 3.0 * 5120 * 16384 + 2 * 5120;
    CHECK(moe_layer == 16295536640.0);
    CHECK(dense_layer == 314583040.0);
    CHECK(b.mlp_dense == 24.0 * 3 * 5120 * 16384);
    CHECK(b.total == 24 * moe_layer + 24 * dense_layer + kEmbedAndHead + 5120);
    CHECK(b.total == 400711848960.0);
    // llama-bench's 400.71 B for the Maverick GGUF (no RoPE scaling, so no rope_freqs): within 0.1%.
    CHECK(std::fabs(b.total / 1e9 / find_preset("llama-4-maverick")->published_params_b - 1) < 0.001);
    // Active: 127 idle experts on 24 layers: 17,184,691,200 (the card's "17B").
    CHECK(b.active == 17184691200.0);
}

TEST_CASE("Llama 4's vision tower is the mmproj: 871,932,416 parameters, with Scout's decoder the Hub's 108.64B") {
    // vision_config: patch linear 3 x 14 x 14 -> 1,408 (827,904), class embedding 1,408, 577 positions x 1,408
    // (812,416), pre/post LayerNorms 2 x 2,816; 34 layers of q/k/v/o with biases (4 x 1,983,872) and fc1/fc2
    // 1,408 <-> 5,632 with biases (15,866,752) and two LayerNorms (5,632): 23,807,872 each, 809,467,648;
    // pixel-shuffle MLP 5,632 x 4,096 + 4,096 x 4,096 (39,845,888); projector 4,096 x 5,120 (20,971,520).
    const double vision = 827904.0 + 1408 + 812416 + 2 * 2816 + 34 * 23807872.0 + 39845888 + 20971520;
    CHECK(vision == 871932416.0);
    Config cfg = serving("llama-4-scout", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 8192);
    cfg.inference.llamacpp.mmproj.preset = "llama4-vit-336";
    const InferencePlan p = plan(cfg);
    CHECK(p.vision_weights == vision * 2);  // F16 mmproj
    // One 336 px tile is 24 x 24 patches + the class token: 577 positions, 16 heads, MLP 5,632, width 1,408.
    CHECK(p.vision_compute == 577.0 * 577 * 16 * 4 + 577.0 * 5632 * 4 + 2 * 577.0 * 1408 * 4);
    // The Hub's safetensors total for Llama-4-Scout-17B-16E-Instruct (decoder + vision) reads 108.64B: within 0.1%.
    const double with_vision = model_params(resolved("llama-4-scout")).total + vision;
    CHECK(with_vision == 108641793536.0);
    CHECK(std::fabs(with_vision / 108.64e9 - 1) < 0.001);
    // The cards round: Scout "109B" total; transformers' Llama4 page "402B" for Maverick with its vision tower.
    CHECK(std::round(with_vision / 1e9) == 109);
    CHECK(std::round((model_params(resolved("llama-4-maverick")).total + vision) / 1e9) == 402);
}

TEST_CASE("Chunked attention, llama.cpp: 36 of 48 layers in the SWA cache of 8,192 + n_ubatch cells, as a sliding window") {
    // Scout Q4_K_M, one H100, -c 131072: layers 3, 7, ..., 47 global (set_swa_pattern(4): 12 of 48) keep
    // 131,072 cells; the 36 chunked ones keep min(131,072, 8,192 + 512) = 8,704 cells (padded to 256: 8,704),
    // 4,096 B a cell each: 12 x 131,072 x 4,096 + 36 x 8,704 x 4,096 = 7,725,907,968 B (7,368 MiB)
    // against 25,769,803,776 B (24 GiB) with every layer full (--swa-full).
    Config cfg = serving("llama-4-scout", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 131072);
    const double kv = 12.0 * 131072 * kKvLayerToken + 36.0 * 8704 * kKvLayerToken;
    CHECK(kv == 7725907968.0);
    CHECK(memory_at(plan(cfg), 131072, 1).kv == Approx(kv).epsilon(1e-12));
    cfg.inference.swa_full = true;
    CHECK(memory_at(plan(cfg), 131072, 1).kv == Approx(48.0 * 131072 * kKvLayerToken).epsilon(1e-12));
    // At 4,096 tokens nothing is capped: the chunk is larger than the context.
    cfg.inference.swa_full = false;
    cfg.inference.context = 4096;
    CHECK(memory_at(plan(cfg), 4096, 1).kv == Approx(48.0 * 4096 * kKvLayerToken).epsilon(1e-12));
}

TEST_CASE("Chunked attention, vLLM: one 8,192-token chunk a sequence in the chunked layers (hybrid KV cache manager)") {
    // Maverick FP8 on 8 H100 (TP 8: one KV head a GPU, 2 x 128 x 2 B = 512 B a layer a token), 131,072 tokens:
    // 12 full layers x 131,072 + 36 chunked layers x 8,192 (512 blocks of 16) = 956,301,312 B a sequence a GPU,
    // against 3,221,225,472 B when every layer keeps the context (the hybrid manager off: swa_full).
    Config cfg = serving("llama-4-maverick", Engine::Vllm, "fp8", "h100-80gb", 131072);
    cfg.inference.tp = 8;
    const InferencePlan p = plan(cfg);
    CHECK(p.kv.bytes_per_token == 48.0 * 512);
    CHECK(kv_sequence_bytes(p.kv, 131072, 16) == 12.0 * 131072 * 512 + 36.0 * 8192 * 512);
    CHECK(kv_sequence_bytes(p.kv, 131072, 16) == 956301312.0);
    cfg.inference.swa_full = true;
    CHECK(kv_sequence_bytes(plan(cfg).kv, 131072, 16) == 48.0 * 131072 * 512);
    // The estimate says which cache it modelled.
    cfg.inference.swa_full = false;
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    bool said = false;
    for (const auto& n : e.value.notes) said |= n.find("one 8192-token chunk") != std::string::npos && n.find("vLLM") != std::string::npos;
    CHECK(said);
}

TEST_CASE("Chunked attention, transformers: the chunked layers' cache is a sliding-window layer of the chunk") {
    // Scout BF16 under HF generate, 32,768 tokens: DynamicCache gives "chunked_attention" layers a
    // DynamicSlidingWindowLayer, so 12 x 32,768 + 36 x 8,192 token-layers of 4,096 B = 2,818,572,288 B.
    Config cfg = serving("llama-4-scout", Engine::Hf, "bf16", "b200-180gb", 32768);
    CHECK(memory_at(plan(cfg), 32768, 1).kv == 12.0 * 32768 * kKvLayerToken + 36.0 * 8192 * kKvLayerToken);
    CHECK(memory_at(plan(cfg), 32768, 1).kv == 2818572288.0);
}

TEST_CASE("model.moe_every and model.chunked: checked, read and written") {
    ModelSpec m = *find_preset("llama-4-maverick");
    m.moe_every = 0;
    auto r = resolve_model(m);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "model.moe_every");
    m.moe_every = 49;
    REQUIRE_FALSE(resolve_model(m).ok);
    CHECK(resolve_model(m).error.field == "model.moe_every");
    // Every layer would be dense: refused, naming the field. Layers 46 alone (46 leading dense, the last trailing
    // dense) and 46 + 1 = 47 is not a multiple of 2. With the last layer back, 47 + 1 = 48 is: one MoE layer.
    m = *find_preset("llama-4-maverick");
    m.dense_layers = 46;
    m.dense_tail = 1;
    m.moe_every = 2;
    CHECK(resolve_model(m).error.field == "model.moe_every");
    m.dense_tail = 0;
    REQUIRE(resolve_model(m).ok);
    CHECK(moe_layer_count(resolve_model(m).value) == 1);
    m.dense_tail = 1;
    CHECK(resolve_model(m).error.field == "model.moe_every");
    m = *find_preset("llama-4-scout");
    m.sliding_window = 0;
    m.global_every = 0;
    CHECK(resolve_model(m).error.field == "model.chunked");
    // A document spells both; they read back, and a config that leaves them out keeps 1 and false.
    auto cfg = io::config_from_json(nlohmann::json::parse(
        R"({"model":{"layers":48,"hidden":5120,"heads":40,"kv_heads":8,"head_dim":128,"ffn":16384,"vocab":202048,"experts":128,
            "top_k":1,"shared_experts":1,"expert_ffn":8192,"moe_every":2,"sliding_window":8192,"global_every":4,"chunked":true}})"));
    REQUIRE(cfg.ok);
    CHECK(cfg.value.model.moe_every == 2);
    CHECK(cfg.value.model.chunked);
    CHECK(model_params(resolve_model(cfg.value.model).value).total == 400711848960.0);
    const std::string doc = io::config_to_json(cfg.value).dump();
    CHECK(doc.find("\"moe_every\":2") != std::string::npos);
    CHECK(doc.find("\"chunked\":true") != std::string::npos);
    const std::string plain = io::config_to_json(Config{}).dump();
    CHECK(plain.find("\"moe_every\"") == std::string::npos);
    CHECK(plain.find("\"chunked\"") == std::string::npos);
}

TEST_CASE("Llama 4 config.json imports as the presets: text_config, interleaved experts, chunked attention") {
    // Maverick's config.json as NVIDIA/TensorRT-LLM@b35ac1b's test copies it, with its 48 layers (the test cuts
    // them to 2) and its vision tower left out (not read).
    const std::string text = R"({"architectures":["Llama4ForConditionalGeneration"],"model_type":"llama4","torch_dtype":"bfloat16",
      "text_config":{"attention_bias":false,"attention_chunk_size":8192,"head_dim":128,"hidden_act":"silu","hidden_size":5120,
        "interleave_moe_layer_step":2,"intermediate_size":8192,"intermediate_size_mlp":16384,"max_position_embeddings":1048576,
        "model_type":"llama4_text","num_attention_heads":40,"num_experts_per_tok":1,"num_hidden_layers":48,"num_key_value_heads":8,
        "num_local_experts":128,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":500000.0,"torch_dtype":"bfloat16",
        "use_qk_norm":false,"vocab_size":202048}})";
    const io::ModelImport r = io::import_hf_config(text, "config.json");
    REQUIRE(r.ok);
    const ModelSpec& m = r.model;
    CHECK(m.family == "Llama");
    CHECK(m.experts == 128);
    CHECK(m.shared_experts == 1);
    CHECK(m.expert_ffn == 8192);
    CHECK(m.ffn == 16384);
    CHECK(m.moe_every == 2);
    CHECK(m.sliding_window == 8192);
    CHECK(m.global_every == 4);
    CHECK(m.chunked);
    CHECK(m.context_limit == 1048576);
    CHECK(m.checkpoint_dtype == "bf16");
    auto rm = resolve_model(m);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 400711848960.0);
    CHECK(kv_sequence_bytes(kv_layout(rm.value, *find_kv_dtype("bf16"), 1, true).value, 32768, 0) ==
          12.0 * 32768 * kKvLayerToken + 36.0 * 8192 * kKvLayerToken);
}
