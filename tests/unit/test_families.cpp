// Recent MoE families read end to end (docs/import.md "Recent MoE families"): GLM-4.5 / 4.6 / 4.5-Air
// (glm4_moe, GGUF glm4moe) and MiniMax-M2 (minimax_m2), their presets' counts against the Hub's
// safetensors totals, and Kimi-K2's own model_type. Every number below is worked by hand in its comment.
#include <catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "core/serve/kv_cache.hpp"
#include "fixture_file.hpp"
#include "import_builders.hpp"
#include "inference_helpers.hpp"
#include "io/model_import.hpp"

using namespace vc;

namespace {

using test::fixture;

io::ModelImport read(const std::string& bytes, const std::string& name) {
    return io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, 0);
}

bool has_note(const io::ModelImport& r, const std::string& part) {
    for (const auto& n : r.notes)
        if (n.find(part) != std::string::npos) return true;
    return false;
}

// A published config.json read whole, as its family and not as the Llama-style fallback; the resolved spec.
ModelSpec known_family(const io::ModelImport& r, const char* family) {
    REQUIRE(r.ok);
    REQUIRE(r.complete);
    CHECK(r.model.family == family);
    CHECK_FALSE(has_note(r, "not one this tool knows"));
    auto m = resolve_model(r.model);
    REQUIRE(m.ok);
    return m.value;
}

// The MoE layout: layers, leading dense layers, routed experts, top-k, shared experts, one expert's width.
void check_moe(const ModelSpec& m, int layers, int dense, int experts, int top_k, int shared, int expert_ffn) {
    CHECK(m.layers == layers);
    CHECK(m.dense_layers == dense);
    CHECK(m.experts == experts);
    CHECK(m.top_k == top_k);
    CHECK(m.shared_experts == shared);
    CHECK(m.expert_ffn == expert_ffn);
}

double kv_bytes_per_token(const ModelSpec& m) { return kv_layout(m, *find_kv_dtype("bf16"), 1, true).value.bytes_per_token; }

// A tiny GLM-4.5 as llama.cpp's converter writes it (glm4moe): 3 blocks of 64, the last the MTP block
// (nextn_predict_layers 1); layer 0 dense of 128, layers 1 and 2 4 experts of 32 (2 used) and a shared one; F16.
void glm_tiny_metadata(test::GgufWriter& w) {
    w.str("general.architecture", "glm4moe");
    w.u32("general.file_type", 1);  // MOSTLY_F16
    for (auto [k, v] : std::initializer_list<std::pair<const char*, std::uint32_t>>{
             {"block_count", 3}, {"context_length", 4096}, {"embedding_length", 64}, {"feed_forward_length", 128},
             {"attention.head_count", 4}, {"attention.head_count_kv", 2}, {"expert_count", 4}, {"expert_used_count", 2},
             {"expert_shared_count", 1}, {"leading_dense_block_count", 1}, {"expert_feed_forward_length", 32}, {"nextn_predict_layers", 1}})
        w.u32(std::string("glm4moe.") + k, v);
}
void glm_tiny_outside(test::GgufWriter& w) {  // 12,800 x 2 + 256 = 25,856 B
    w.tensor("token_embd.weight", {64, 100}, 1);  // F16: 6,400 x 2 = 12,800 B
    w.tensor("output.weight", {64, 100}, 1);      // 12,800
    w.tensor("output_norm.weight", {64}, 0);      // F32: 256
}
void glm_tiny_attention(test::GgufWriter& w, const std::string& b) {  // 256 + 8,192 + 4,096 + 4,096 + 8,192 + 256 = 25,088 B
    w.tensor(b + "attn_norm.weight", {64}, 0);
    w.tensor(b + "attn_q.weight", {64, 64}, 1);
    w.tensor(b + "attn_k.weight", {64, 32}, 1);
    w.tensor(b + "attn_v.weight", {64, 32}, 1);
    w.tensor(b + "attn_output.weight", {64, 64}, 1);
    w.tensor(b + "post_attention_norm.weight", {64}, 0);
}
void glm_tiny_dense(test::GgufWriter& w) {  // layer 0: 25,088 + 3 x 64 x 128 x 2 = 74,240 B
    glm_tiny_attention(w, "blk.0.");
    w.tensor("blk.0.ffn_gate.weight", {64, 128}, 1);
    w.tensor("blk.0.ffn_up.weight", {64, 128}, 1);
    w.tensor("blk.0.ffn_down.weight", {128, 64}, 1);
}
void glm_tiny_moe(test::GgufWriter& w, const std::string& b) {  // 25,088 + 1,024 + 3 x 16,384 + 3 x 4,096 = 87,552 B
    glm_tiny_attention(w, b);
    w.tensor(b + "ffn_gate_inp.weight", {64, 4}, 0);
    w.tensor(b + "ffn_gate_exps.weight", {64, 32, 4}, 1);
    w.tensor(b + "ffn_up_exps.weight", {64, 32, 4}, 1);
    w.tensor(b + "ffn_down_exps.weight", {32, 64, 4}, 1);
    w.tensor(b + "ffn_gate_shexp.weight", {64, 32}, 1);
    w.tensor(b + "ffn_up_shexp.weight", {64, 32}, 1);
    w.tensor(b + "ffn_down_shexp.weight", {32, 64}, 1);
}
void glm_tiny_mtp(test::GgufWriter& w) {  // blk.2: 87,552 + eh_proj 128 x 64 x 2 = 103,936 B
    glm_tiny_moe(w, "blk.2.");
    w.tensor("blk.2.nextn.eh_proj.weight", {128, 64}, 1);
}
// Its weights without the MTP block: 25,856 + 74,240 + 87,552 = 187,648 B, 2 layers; the block's 103,936 noted.
void check_glm_tiny_bytes(const io::ModelImport& r) {
    check_moe(r.model, 2, 1, 4, 2, 1, 32);  // block_count 3 less nextn_predict_layers 1
    CHECK(r.weights.total_bytes == 187648.0);
    REQUIRE(r.weights.layer_bytes.size() == 2);
    CHECK(r.weights.layer_bytes[0] == 74240.0);
    CHECK(r.weights.layer_bytes[1] == 87552.0);
    CHECK(has_note(r, "1 multi-token-prediction layer(s) (glm4moe.nextn_predict_layers, blk.2) hold 103,936 bytes that llama.cpp does not load"));
    CHECK_FALSE(has_note(r, "count in the total, outside the per-layer bytes"));
}

}  // namespace

TEST_CASE("GLM-4.5-Air's config.json: dense first layer, shared expert, q/k/v biases, the MTP layer left out", "[families]") {
    auto r = read(fixture("glm-4.5-air.json"), "config.json");
    const ModelSpec m = known_family(r, "GLM");
    CHECK(has_note(r, "num_nextn_predict_layers 1"));
    check_moe(m, 46, 1, 128, 8, 1, 1408);  // num_hidden_layers 46: the MTP layer (model.layers.46) is not one of them
    CHECK(m.ffn == 10944);
    CHECK(m.attn_bias);
    CHECK_FALSE(m.mlp_bias);
    CHECK_FALSE(m.qk_norm);          // use_qk_norm false
    CHECK_FALSE(m.tied_embeddings);
    CHECK(moe_layer_count(m) == 45);
    // Attention a layer: q 4096 x 12288 + k, v 2 x 4096 x 1024 + o 12288 x 4096 + biases 12288 + 2 x 1024
    //   = 50,331,648 + 8,388,608 + 50,331,648 + 14,336 = 109,066,240; x 46 = 5,017,047,040.
    // Dense layer 0: 3 x 4096 x 10944 = 134,479,872. One expert 3 x 4096 x 1408 = 17,301,504:
    //   routed 45 x 128 x it = 99,656,663,040, shared 45 x it = 778,567,680; router 45 x 128 x 4096 = 23,592,960.
    // Embedding + head 2 x 151552 x 4096 = 1,241,513,984; norms (46 x 2 + 1) x 4096 = 380,928.
    // Sum: 106,852,245,504.
    const ParamBreakdown b = model_params(m);
    CHECK(b.total == 106852245504.0);
    CHECK(b.attention == 5017047040.0);
    CHECK(b.experts_shared == 778567680.0);
    // Active: less 45 x (128 - 8) x 17,301,504 = 93,428,121,600 -> 13,424,123,904 (the card's 12B leaves out the embeddings).
    CHECK(b.active == 13424123904.0);
    // KV cache, bf16: 2 (K, V) x 46 layers x 8 KV heads x 128 x 2 B = 188,416 B a token. partial_rotary_factor 0.5
    // rotates half of each key; the key is cached whole, so it changes nothing here.
    CHECK(kv_bytes_per_token(m) == 188416.0);
    CHECK(r.weights_format == "bf16");
}

TEST_CASE("glm4_moe keys left out take Glm4MoeConfig's defaults; use_qk_norm adds per-head q/k norms", "[families]") {
    // Glm4MoeConfig: n_shared_experts 1, first_k_dense_replace 1, use_qk_norm False, tie_word_embeddings False.
    auto r = io::import_hf_config(R"({"model_type":"glm4_moe","num_hidden_layers":4,"hidden_size":256,"num_attention_heads":4,
      "num_key_value_heads":2,"head_dim":64,"intermediate_size":512,"moe_intermediate_size":64,"n_routed_experts":8,
      "num_experts_per_tok":2,"vocab_size":1000})", "config.json");
    REQUIRE(r.complete);
    CHECK(r.model.shared_experts == 1);
    CHECK(r.model.dense_layers == 1);
    CHECK_FALSE(r.model.qk_norm);
    CHECK_FALSE(r.model.tied_embeddings);
    // GLM-4.5 / 4.6 set use_qk_norm true: q_norm and k_norm of head_dim 64 weights a layer, 2 x 64 x 4 layers = 512 more.
    auto q = io::import_hf_config(R"({"model_type":"glm4_moe","num_hidden_layers":4,"hidden_size":256,"num_attention_heads":4,
      "num_key_value_heads":2,"head_dim":64,"intermediate_size":512,"moe_intermediate_size":64,"n_routed_experts":8,
      "num_experts_per_tok":2,"vocab_size":1000,"use_qk_norm":true})", "config.json");
    REQUIRE(q.complete);
    CHECK(q.model.qk_norm);
    CHECK(model_params(resolve_model(q.model).value).total - model_params(resolve_model(r.model).value).total == 512.0);
}

TEST_CASE("GLM-4.5, GLM-4.6 and GLM-4.5-Air presets against the Hub's safetensors totals", "[families]") {
    // The derived count is the decoder the engines load. Each checkpoint also stores an expert-bias vector a MoE layer
    // (e_score_correction_bias, not modelled) and its MTP layer (model.layers.<L>): one more MoE layer, eh_proj 2h x h,
    // enorm, hnorm and shared_head.norm (h each), and in GLM-4.5 and the Air copies of embed_tokens and shared_head.head.
    auto total = [](const char* id) { return model_params(resolve_model(*find_preset(id)).value).total; };
    // GLM-4.5: attention a layer 5120 x 12288 x 2 + 2 x 5120 x 1024 + biases 14,336 + q/k norms 256 = 136,329,472;
    //   x 92 = 12,542,311,424; dense 3 x 3 x 5120 x 12288 = 566,231,040; one expert 3 x 5120 x 1536 = 23,592,960, routed
    //   89 x 160 x it = 335,963,750,400, shared 89 x it = 2,099,773,440; router 89 x 160 x 5120 = 72,908,800;
    //   embedding + head 2 x 151552 x 5120 = 1,551,892,480; norms 185 x 5120 = 947,200. Sum 352,797,814,784.
    CHECK(total("glm-4.5") == 352797814784.0);
    CHECK(total("glm-4.6") == 352797814784.0);  // the same decoder; only the context window differs
    // MTP layer: 136,329,472 + 161 x 23,592,960 + 160 x 5120 + 160 (bias) + 2 x 5120 (norms) + 2 x 5120 x 5120
    //   + 3 x 5120 = 3,988,069,792; expert biases 89 x 160 = 14,240; vocab copies 1,551,892,480.
    const double glm45_mtp = 3988069792.0, glm45_bias = 14240.0, glm45_copies = 1551892480.0;
    // The Hub's GLM-4.5: 358.34B (zai-org/GLM-4.5's safetensors count). 352,797,814,784 + 14,240 + 3,988,069,792
    // + 1,551,892,480 = 358,337,791,296.
    CHECK((total("glm-4.5") + glm45_bias + glm45_mtp + glm45_copies) / 1e9 == Catch::Detail::Approx(358.34).margin(0.005));
    // The Hub's GLM-4.6: 357B; without the vocab copies: 356,785,898,816.
    CHECK((total("glm-4.6") + glm45_bias + glm45_mtp) / 1e9 == Catch::Detail::Approx(357).margin(0.5));
    // GLM-4.5-Air: the Hub's 110B. MTP layer 109,066,240 + 129 x 17,301,504 + 128 x 4096 + 128 + 8,192 + 2 x 4096
    //   x 4096 + 3 x 4096 = 2,375,059,584; expert biases 45 x 128 = 5,760; vocab copies 1,241,513,984: 110,468,824,832.
    CHECK((total("glm-4.5-air") + 5760.0 + 2375059584.0 + 1241513984.0) / 1e9 == Catch::Detail::Approx(110).margin(0.5));
    // KV cache, bf16: 2 x 92 x 8 x 128 x 2 B = 376,832 B a token (at GLM-4.6's 202,752 tokens: 76.4 GB).
    CHECK(kv_bytes_per_token(resolve_model(*find_preset("glm-4.6")).value) == 376832.0);
    CHECK(find_preset("glm-4.6")->context_limit == 202752);
}

TEST_CASE("MiniMax-M2's config.json: 256 experts on every layer, FP8 weights, whole-projection q/k norms counted", "[families]") {
    auto r = read(fixture("minimax-m2.json"), "config.json");
    const ModelSpec m = known_family(r, "MiniMax");
    CHECK_FALSE(has_note(r, "which model.qk_norm does not count"));
    CHECK(r.weights_format == "fp8-block");
    check_moe(m, 62, 0, 256, 8, 0, 1536);
    CHECK(m.qk_norm);
    CHECK(m.qk_norm_whole);
    CHECK(m.sliding_window == 0);  // attn_type_list all 1: full attention on every layer
    // Attention a layer 3072 x 6144 x 2 + 2 x 3072 x 1024 = 44,040,192, + the q/k norms over the whole projections
    // (48 + 8) x 128 = 7,168 (per-head ones would be 2 x 128 = 256) = 44,047,360; x 62 = 2,730,936,320. One expert
    // 3 x 3072 x 1536 = 14,155,776; 62 x 256 x it = 224,680,476,672; router 62 x 256 x 3072 = 48,758,784; embedding + head
    // 2 x 200064 x 3072 = 1,229,193,216; norms 125 x 3072 = 384,000. Sum 228,689,748,992; the checkpoint adds 62 x 256
    // expert biases: 228,689,764,864 (the Hub's 229B, the card's 230B).
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 44047360.0);
    CHECK(b.total == 228689748992.0);
    CHECK(b.total + 62 * 256.0 == 228689764864.0);
    CHECK(b.total == model_params(resolve_model(*find_preset("minimax-m2")).value).total);
    // Active: less 62 x 248 x 14,155,776 -> 11,030,537,216 (the card's 10B leaves out the embeddings).
    CHECK(b.active == 11030537216.0);
    // KV cache, bf16: 2 x 62 x 8 x 128 x 2 B = 253,952 B a token.
    CHECK(kv_bytes_per_token(m) == 253952.0);
}

TEST_CASE("Kimi-K2's model_type kimi_k2 reads as DeepSeek-V3's architecture, untied", "[families]") {
    // moonshotai/Kimi-K2-Instruct: DeepseekV3ForCausalLM under model_type kimi_k2 (the kimi-k2 preset's dimensions).
    auto r = io::import_hf_config(R"({"architectures":["DeepseekV3ForCausalLM"],"model_type":"kimi_k2","num_hidden_layers":61,
      "hidden_size":7168,"num_attention_heads":64,"num_key_value_heads":64,"intermediate_size":18432,"moe_intermediate_size":2048,
      "n_routed_experts":384,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":1,"kv_lora_rank":512,
      "q_lora_rank":1536,"qk_rope_head_dim":64,"qk_nope_head_dim":128,"v_head_dim":128,"vocab_size":163840,
      "num_nextn_predict_layers":0})", "config.json");
    REQUIRE(r.complete);
    CHECK(r.model.family == "Kimi");
    CHECK_FALSE(has_note(r, "not one this tool knows"));
    CHECK_FALSE(has_note(r, "num_nextn_predict_layers"));  // 0: nothing left out
    CHECK_FALSE(r.model.tied_embeddings);  // DeepseekV3Config's default, where PretrainedConfig's would tie
    CHECK(model_params(resolve_model(r.model).value).total == model_params(resolve_model(*find_preset("kimi-k2")).value).total);
}

TEST_CASE("A glm4moe GGUF: block_count less nextn_predict_layers, the MTP layer's bytes not counted", "[families]") {
    // llama.cpp's convert_hf_to_gguf writes GLM-4.5's block_count as num_hidden_layers + num_nextn_predict_layers and
    // keeps the MTP layer's tensors, which llama.cpp creates TENSOR_SKIP. A 3-block file with 1 MTP block: 2 layers.
    test::GgufWriter w;
    glm_tiny_metadata(w);
    glm_tiny_outside(w);
    glm_tiny_dense(w);
    glm_tiny_moe(w, "blk.1.");
    glm_tiny_mtp(w);  // skipped
    auto r = read(w.bytes(), "glm-4.5-air-tiny.gguf");
    REQUIRE(r.ok);
    CHECK(r.model.family == "GLM");
    CHECK(r.model.norms_per_layer == 2);  // attn_norm + post_attention_norm
    check_glm_tiny_bytes(r);
    CHECK(r.complete);
}

TEST_CASE("A split glm4moe GGUF: part 1's nextn_predict_layers leaves the MTP block in part 2 out, as the whole file does", "[families]") {
    // The same tiny GLM as the whole-file case above, as llama.cpp's gguf-split writes it in 2 parts: the metadata in part
    // 1 only (with split.no 0, split.count 2, split.tensors.count 39), part 1 the 3 tensors outside the layers and
    // layer 0 (12 tensors), part 2 layer 1 and the MTP block blk.2 (13 + 14 tensors). Merged: 187,648 B, as the whole
    // file; the MTP block's 103,936 B (all in part 2, whose header has no nextn_predict_layers) left out with the note.
    auto split_keys = [](test::GgufWriter& w, int no) {
        w.u16("split.no", static_cast<std::uint16_t>(no));
        w.u16("split.count", 2);
        w.i32("split.tensors.count", 39);
    };
    test::GgufWriter one;
    glm_tiny_metadata(one);
    split_keys(one, 0);
    glm_tiny_outside(one);
    glm_tiny_dense(one);
    test::GgufWriter two;
    split_keys(two, 1);
    glm_tiny_moe(two, "blk.1.");
    glm_tiny_mtp(two);
    const auto first = read(one.bytes(), "glm-tiny-00001-of-00002.gguf"), second = read(two.bytes(), "glm-tiny-00002-of-00002.gguf");
    REQUIRE(first.ok);
    REQUIRE(second.ok);
    const auto merged = io::merge_imports({first, second});
    REQUIRE(merged.ok);
    check_glm_tiny_bytes(merged);
    // The parts in the other order merge the same.
    CHECK(io::merge_imports({second, first}).weights.total_bytes == 187648.0);
}

TEST_CASE("DeepSeek-V3.2 (deepseek_v32): the lightning indexer's weights counted in attention, its key cached per engine", "[families]") {
    // DeepSeek-V3.2-Exp's config: V3's dimensions plus index_n_heads 64, index_head_dim 128, index_topk 2048.
    auto r = io::import_hf_config(R"({"architectures":["DeepseekV32ForCausalLM"],"model_type":"deepseek_v32","num_hidden_layers":61,
      "hidden_size":7168,"num_attention_heads":128,"num_key_value_heads":128,"intermediate_size":18432,"moe_intermediate_size":2048,
      "n_routed_experts":256,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"kv_lora_rank":512,
      "q_lora_rank":1536,"qk_rope_head_dim":64,"qk_nope_head_dim":128,"v_head_dim":128,"vocab_size":129280,"tie_word_embeddings":false,
      "index_n_heads":64,"index_head_dim":128,"index_topk":2048,"num_nextn_predict_layers":1})", "config.json");
    const ModelSpec m = known_family(r, "DeepSeek");
    CHECK(m.index_heads == 64);
    CHECK(m.index_head_dim == 128);
    CHECK_FALSE(has_note(r, "indexer is not counted"));
    CHECK(has_note(r, "num_nextn_predict_layers 1"));
    // Indexer a layer (deepseek-ai's inference/model.py Indexer): wq_b 1536 x 64 x 128 = 12,582,912 + wk 7168 x 128 = 917,504
    // + k_norm (LayerNorm, weight + bias) 2 x 128 = 256 + weights_proj 7168 x 64 = 458,752 = 13,959,424; x 61 = 851,524,864.
    const ParamBreakdown v3 = model_params(test::resolved_preset("deepseek-v3")), v32 = model_params(m);
    CHECK(v32.per_layer_attention - v3.per_layer_attention == 13959424.0);
    CHECK(v32.attention - v3.attention == 851524864.0);
    // V3's 671,026,404,352 + 851,524,864 = 671,877,929,216, the preset's count. The Hub's 685.4B (DeepSeek-V3.2's
    // safetensors total) adds the MTP layer 61: attention 187,107,328 + its indexer 13,959,424 + 257 experts x 44,040,192
    // + router 256 x 7168 + 4 norms x 7168 + eh_proj 14336 x 7168 = 102,760,448 + its embedding and head copies 2 x
    // 926,679,040 = 13,477,385,472, and the FP8 blocks' FP32 scales (about 669.9B / 16,384 = 0.04B).
    CHECK(v3.total == 671026404352.0);
    CHECK(v32.total == 671877929216.0);
    const ModelSpec preset = test::resolved_preset("deepseek-v3.2");
    CHECK(model_params(preset).total == v32.total);
    CHECK(preset.context_limit == 163840);
    CHECK(std::abs((v32.total + 13477385472.0) / 1e9 + 0.04 - 685.4) < 0.01);
    // Its key cache a token: MLA's latent 576 values + the indexer's key of 128 a layer. At the cache type (llama.cpp's K
    // type, transformers' model dtype), BF16: 61 x (576 + 128) x 2 = 85,888 B; q8_0: 61 x 704 x 34 / 32 = 45,628.
    // vLLM keeps the key FP8 with one FP32 scale per 128 (132 B) whatever kv_cache_dtype is: 61 x (1,152 + 132) = 78,324.
    CHECK(kv_bytes_per_token(m) == 85888.0);
    CHECK(kv_layout(m, *find_kv_dtype("q8_0"), 1, true).value.bytes_per_token == 45628.0);
    const KvLayout vllm = kv_layout(m, *find_kv_dtype("bf16"), 8, true, 4, 0, 1 + 4.0 / 128).value;
    CHECK(vllm.bytes_per_token == 78324.0);
    CHECK(vllm.indexer_bytes_per_layer == 132.0);
    CHECK(vllm.formula.find("the lightning indexer's keys, 61 layers x index_head_dim 128 x 1.03125 B") != std::string::npos);
    // The engines: vLLM at TP 8 (the latent and the indexer's key whole on every GPU), llama.cpp with -ctk q8_0.
    Config on_vllm = test::serving("deepseek-v3.2", Engine::Vllm, "fp8-block", "h100-80gb", 8192);
    on_vllm.inference.tp = 8;
    CHECK(test::plan(on_vllm).kv.bytes_per_token == 78324.0);
    on_vllm.inference.constants.vllm_indexer_value_bytes = 2;  // a what-if: the key at BF16, 61 x (1,152 + 256)
    CHECK(test::plan(on_vllm).kv.bytes_per_token == 85888.0);
    Config on_llamacpp = test::serving("deepseek-v3.2", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 8192);
    on_llamacpp.inference.kv_dtype = "q8_0";
    CHECK(test::plan(on_llamacpp).kv.bytes_per_token == 45628.0);
    // The weights: the indexer's 851,524,864 parameters in an FP8 checkpoint, wq_b and wk FP8 with a 4-byte scale per
    // 128 x 128 tile (8,192 x 1,536: 64 x 12 tiles; 128 x 7,168: 56), weights_proj kept BF16: 61 x (12,582,912 + 768 x 4 +
    // 917,504 + 56 x 4 + 458,752 x 2) = 61 x 14,421,216 = 879,694,176 B more than V3's, + the 1-D k_norm at 2 B: 61 x 256 x 2.
    Config v3_vllm = on_vllm;
    v3_vllm.model = *find_preset("deepseek-v3");
    on_vllm.inference.constants.vllm_indexer_value_bytes = 1 + 4.0 / 128;
    CHECK(test::plan(on_vllm).weights.total - test::plan(v3_vllm).weights.total == 879694176.0 + 31232.0);
}

TEST_CASE("DeepSeek-V3.2's indexer: refused without a q latent; a deepseek32 GGUF's indexer keys", "[families]") {
    ModelSpec bad = *find_preset("llama-3-8b");
    bad.index_heads = 64, bad.index_head_dim = 128;
    auto rb = resolve_model(bad);
    REQUIRE_FALSE(rb.ok);
    CHECK(rb.error.field == "model.index_head_dim");
    ModelSpec no_heads = *find_preset("deepseek-v3.2");
    no_heads.index_heads = 0;
    CHECK(resolve_model(no_heads).error.field == "model.index_heads");
    // llama.cpp's deepseek32 header: <arch>.attention.indexer.head_count / key_length. A tiny MLA model of 2 layers of 64 wide,
    // q latent 32, indexer 4 heads of 16: a layer's indexer 32 x 64 + 64 x 16 + 2 x 16 + 64 x 4 = 3,360.
    test::GgufWriter w;
    w.str("general.architecture", "deepseek32");
    w.u32("general.file_type", 1);
    for (auto [k, v] : std::initializer_list<std::pair<const char*, std::uint32_t>>{
             {"block_count", 2}, {"context_length", 4096}, {"embedding_length", 64}, {"feed_forward_length", 128},
             {"attention.head_count", 4}, {"attention.head_count_kv", 4}, {"attention.kv_lora_rank", 16}, {"attention.q_lora_rank", 32},
             {"rope.dimension_count", 8}, {"attention.key_length", 24}, {"attention.value_length", 16},
             {"attention.indexer.head_count", 4}, {"attention.indexer.key_length", 16}, {"attention.indexer.top_k", 2048}})
        w.u32(std::string("deepseek32.") + k, v);
    w.tensor("token_embd.weight", {64, 100}, 1);
    const auto r = read(w.bytes(), "ds32.gguf");
    REQUIRE(r.ok);
    CHECK(r.model.index_heads == 4);
    CHECK(r.model.index_head_dim == 16);
    auto m = resolve_model(r.model);
    REQUIRE(m.ok);
    ModelSpec plain = m.value;
    plain.index_heads = plain.index_head_dim = 0;
    CHECK(model_params(m.value).total - model_params(plain).total == 2 * 3360.0);
}

TEST_CASE("Seed-OSS, OLMo-3, Command-R7B (cohere2) and SmolLM3: their classes' defaults, windows and norms", "[families]") {
    // Seed-OSS without attention_bias: SeedOssConfig's True (q, k, v; o and MLP without), untied. Tiny: 2 layers of 64,
    // 4 heads over 2 of 32, MLP 128, vocab 100. Attention a layer 64 x 128 + 2 x 64 x 64 + 128 x 64 = 24,576 + biases
    // 128 + 2 x 64 = 24,832; x 2 = 49,664; MLP 2 x 3 x 64 x 128 = 49,152; embedding + head 2 x 100 x 64 = 12,800;
    // norms 5 x 64 = 320: 111,936.
    const char* tiny = R"("num_hidden_layers":%d,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100)";
    auto with = [tiny](const std::string& head, int layers, const std::string& tail) {
        char dims[256];
        std::snprintf(dims, sizeof dims, tiny, layers);
        return io::import_hf_config("{" + head + "," + dims + tail + "}", "config.json");
    };
    ModelSpec m = known_family(with(R"("model_type":"seed_oss","num_key_value_heads":2,"head_dim":32)", 2, ""), "Seed");
    CHECK(m.attn_bias);
    CHECK_FALSE(m.mlp_bias);
    CHECK_FALSE(m.tied_embeddings);
    CHECK(model_params(m).total == 111936.0);

    // OLMo-3: a 16-token window on three layers in four (layer_types), q/k norms over the whole projections
    // ((4 + 4) x 16 = 128 weights a layer, where per-head ones would be 2 x 16 = 32), untied. Attention a layer
    // 4 x 64 x 64 = 16,384 + 128 = 16,512; x 4 = 66,048; MLP 4 x 3 x 64 x 128 = 98,304; embedding + head 12,800; norms
    // 9 x 64 = 576: 177,728.
    auto olmo = with(R"("model_type":"olmo3","num_key_value_heads":4,"sliding_window":16,"max_position_embeddings":1024,
      "layer_types":["sliding_attention","sliding_attention","sliding_attention","full_attention"])", 4, "");
    m = known_family(olmo, "OLMo");
    CHECK(m.qk_norm);
    CHECK(m.qk_norm_whole);
    CHECK(model_params(m).per_layer_attention == 16512.0);
    CHECK(model_params(m).total == 177728.0);
    CHECK(m.sliding_window == 16);
    CHECK(m.global_every == 4);
    CHECK_FALSE(m.tied_embeddings);
    // KV, BF16: 2 x 4 x 16 x 2 B = 256 B a token a layer; at 1,024 tokens 3 local layers keep 16 tokens, 1 keeps 1,024:
    // 256 x (3 x 16 + 1,024) = 274,432 B.
    CHECK(kv_sequence_bytes(kv_layout(m, *find_kv_dtype("bf16"), 1, true).value, 1024, 0) == 274432.0);

    // Command-R7B's cohere2 without the window keys: Cohere2Config's 4096 on all but every 4th layer, tied, one norm a
    // layer (8 x 1 + 1 = 9 x 64 weights). Attention 8 x 4 x 64 x 64 = 131,072; MLP 8 x 3 x 64 x 128 = 196,608;
    // embedding 6,400; norms 576: 334,656.
    m = known_family(with(R"("model_type":"cohere2")", 8, ""), "Cohere");
    CHECK(m.sliding_window == 4096);
    CHECK(m.global_every == 4);
    CHECK(m.norms_per_layer == 1);
    CHECK(m.tied_embeddings);
    CHECK(model_params(m).total == 334656.0);
    CHECK(is_local_layer(m, 2));
    CHECK_FALSE(is_local_layer(m, 3));

    // SmolLM3 ties its embeddings by default: 2 x (4 x 64 x 64 + 3 x 64 x 128) + 6,400 + 5 x 64 = 81,920 + 6,400 + 320 = 88,640.
    m = known_family(with(R"("model_type":"smollm3")", 2, ""), "SmolLM");
    CHECK(m.tied_embeddings);
    CHECK(model_params(m).total == 88640.0);
}

TEST_CASE("GGUF windows by llama.cpp's own patterns: cohere2 one global layer in 4, olmo2 (OLMo-3) its sliding_window_pattern or 4", "[families]") {
    auto gguf = [](const std::string& arch, int window, int pattern) {
        test::GgufWriter w;
        w.str("general.architecture", arch);
        for (auto [k, v] : std::initializer_list<std::pair<const char*, std::uint32_t>>{
                 {"block_count", 8}, {"embedding_length", 64}, {"feed_forward_length", 128}, {"attention.head_count", 4},
                 {"attention.head_count_kv", 4}, {"attention.sliding_window", static_cast<std::uint32_t>(window)}})
            w.u32(arch + "." + k, v);
        if (pattern > 0) w.u32(arch + ".attention.sliding_window_pattern", static_cast<std::uint32_t>(pattern));
        w.tensor("token_embd.weight", {64, 100}, 1);
        return read(w.bytes(), arch + ".gguf");
    };
    auto cohere = gguf("cohere2", 4096, 0);
    CHECK(cohere.model.family == "Cohere");
    CHECK(cohere.model.sliding_window == 4096);
    CHECK(cohere.model.global_every == 4);  // layers 3 and 7 global
    auto olmo = gguf("olmo2", 4096, 0);
    CHECK(olmo.model.family == "OLMo");
    CHECK(olmo.model.global_every == 4);
    CHECK(gguf("olmo2", 4096, 2).model.global_every == 2);
    // KV of the OLMo-3 file, BF16, 8 layers at 8,192 tokens: 2 x 4 x 16 x 2 B = 256 B a token a layer; 6 local layers keep
    // 4,096 tokens, 2 global 8,192: 256 x (6 x 4,096 + 2 x 8,192) = 10,485,760 B.
    auto m = resolve_model(olmo.model);
    REQUIRE(m.ok);
    CHECK(kv_sequence_bytes(kv_layout(m.value, *find_kv_dtype("bf16"), 1, true).value, 8192, 0) == 10485760.0);
}

TEST_CASE("ERNIE-4.5 MoE (ernie4_5_moe): its own expert keys, dense first layer, two shared experts' width, tied", "[families]") {
    // ERNIE-4.5-21B-A3B (Ernie4_5_MoeConfig's defaults, written out here but tie_word_embeddings): 28 x 2560, 20 heads over 4
    // KV heads of 128, layer 0 dense of 12288, then 64 experts of 1536, top-6, and a shared MLP of 2 x 1536; vocab 103424.
    auto r = io::import_hf_config(R"({"architectures":["Ernie4_5_MoeForCausalLM"],"model_type":"ernie4_5_moe","hidden_size":2560,
      "intermediate_size":12288,"num_hidden_layers":28,"num_attention_heads":20,"num_key_value_heads":4,"vocab_size":103424,
      "max_position_embeddings":131072,"moe_num_experts":64,"moe_k":6,"moe_intermediate_size":1536,"moe_num_shared_experts":2,
      "moe_layer_start_index":1,"moe_layer_interval":1,"use_bias":false})", "config.json");
    const ModelSpec m = known_family(r, "ERNIE");
    check_moe(m, 28, 1, 64, 6, 2, 1536);
    CHECK(m.tied_embeddings);
    // Attention 28 x (2 x 2560 x 2560 + 2 x 2560 x 512) = 440,401,920; dense layer 3 x 2560 x 12288 = 94,371,840; one
    // expert 3 x 2560 x 1536 = 11,796,480: routed 27 x 64 x it = 20,384,317,440, shared 27 x 2 x it = 637,009,920; router
    // 27 x 64 x 2560 = 4,423,680; embedding (tied) 103424 x 2560 = 264,765,440; norms 57 x 2560 = 145,920.
    // Sum 21,825,436,160 (the card's 21B); active less 27 x 58 x 11,796,480: 3,352,148,480 (the card's A3B).
    CHECK(model_params(m).total == 21825436160.0);
    CHECK(model_params(m).active == 3352148480.0);
    CHECK(kv_bytes_per_token(m) == 2.0 * 28 * 4 * 128 * 2);  // 57,344 B, BF16
    // The checkpoint's own moe_layer_end_index 27 (the last layer) changes nothing: experts on layers 1 to 27.
    CHECK(m.dense_tail == 0);
    CHECK(moe_layer_count(m) == 27);
}

TEST_CASE("ERNIE-4.5 MoE's expert layers: moe_layer_start_index to moe_layer_end_index, (index + 1) a multiple of the interval", "[families]") {
    // transformers' Ernie4_5_MoeDecoderLayer: experts iff (layer_idx + 1) % moe_layer_interval == 0 and
    // moe_layer_start_index <= layer_idx <= moe_layer_end_index (-1: the last layer).
    // ERNIE-4.5-300B-A47B (its config as Ascend's MindIE-LLM tests copy it): 54 x 8192, 64 heads over 8 of 128, layers 0-2
    // dense of 28672, 3 to 53 with 64 experts of 3584, top-8, no shared expert, vocab 103424 tied.
    auto big = io::import_hf_config(R"({"architectures":["Ernie4_5_MoeForCausalLM"],"model_type":"ernie4_5_moe","hidden_size":8192,
      "intermediate_size":28672,"num_hidden_layers":54,"num_attention_heads":64,"num_key_value_heads":8,"vocab_size":103424,
      "moe_num_experts":64,"moe_num_shared_experts":0,"moe_layer_start_index":3,"moe_layer_end_index":53,"moe_intermediate_size":3584,
      "moe_k":8,"moe_layer_interval":1,"tie_word_embeddings":true})", "config.json");
    const ModelSpec m = known_family(big, "ERNIE");
    CHECK(moe_layer_count(m) == 51);
    // Attention 54 x (2 x 8192 x 8192 + 2 x 8192 x 1024) = 8,153,726,976; dense 3 x 3 x 8192 x 28672 = 2,113,929,216; one expert
    // 3 x 8192 x 3584 = 88,080,384, 51 x 64 of them 287,494,373,376; router 51 x 64 x 8192 = 26,738,688; embedding
    // 103424 x 8192 = 847,249,408; norms 109 x 8192 = 892,928: 298,636,910,592 (the card's 300B); active less
    // 51 x 56 x 88,080,384: 47,079,333,888 (A47B).
    CHECK(model_params(m).total == 298636910592.0);
    CHECK(model_params(m).active == 47079333888.0);
    // A what-if on the 21B's 28 layers: experts from 1 to 25, interval 2: layers 1, 3, ..., 25 (13), the other 15 dense,
    // 26 and 27 among them (model.dense_tail 2). Each MoE layer that turns dense trades 66 x 11,796,480 + 64 x 2560 =
    // 778,731,520 for 94,371,840: 14 x 684,359,680 = 9,581,035,520 fewer than the 21,825,436,160 with 27 MoE layers.
    auto what_if = io::import_hf_config(R"({"model_type":"ernie4_5_moe","hidden_size":2560,"intermediate_size":12288,"num_hidden_layers":28,
      "num_attention_heads":20,"num_key_value_heads":4,"vocab_size":103424,"moe_layer_start_index":1,"moe_layer_end_index":25,
      "moe_layer_interval":2})", "config.json");
    const ModelSpec w = known_family(what_if, "ERNIE");
    CHECK(w.dense_tail == 2);
    CHECK(moe_layer_count(w) == 13);
    CHECK(is_moe_layer(w, 1));
    CHECK_FALSE(is_moe_layer(w, 2));
    CHECK(is_moe_layer(w, 25));
    CHECK_FALSE(is_moe_layer(w, 27));
    CHECK(model_params(w).total == 21825436160.0 - 9581035520.0);
    CHECK(dense_mlp_layers(w) == 15);
}

TEST_CASE("Vision-language configs: the tower is named as not counted; Qwen3-VL's decoder has Qwen3's q/k norms", "[families]") {
    // Qwen2.5-VL keeps the language model's keys at the top, beside vision_config.
    auto r = io::import_hf_config(R"({"model_type":"qwen2_5_vl","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,
      "num_key_value_heads":2,"intermediate_size":128,"vocab_size":100,"vision_config":{"depth":32,"hidden_size":1280}})", "config.json");
    REQUIRE(r.complete);
    CHECK(has_note(r, "the vision tower (vision_config) is not counted"));
    // Qwen3-VL: text_config (qwen3_vl_text) is read, with its per-head q/k norms (2 x 16 weights a layer here).
    auto q = io::import_hf_config(R"({"model_type":"qwen3_vl","vision_config":{"depth":27},"text_config":{"model_type":"qwen3_vl_text",
      "num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":128,"vocab_size":100}})",
                                  "config.json");
    REQUIRE(q.complete);
    CHECK(q.model.qk_norm);
    CHECK(has_note(q, "vision towers are not counted"));
    CHECK_FALSE(has_note(q, "(vision_config) is not counted"));  // one note, not two
}
