// Hybrid decoders (attention + recurrent layers): Qwen3-Next-80B-A3B (gated DeltaNet), Granite-4.0-H Small
// and Nemotron Nano 9B v2 (Mamba2). Their parameter counts by hand against the published ones, the KV
// cache of the attention layers only and the recurrent state of the others as llama.cpp, vLLM and
// transformers keep it, llama.cpp's per-layer placement under -ngl, the config.json imports and the errors.
#include <catch.hpp>

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "core/serve/inference.hpp"
#include "core/serve/kv_cache.hpp"
#include "core/serve/llamacpp.hpp"
#include "core/solve.hpp"
#include "import_builders.hpp"
#include "inference_helpers.hpp"
#include "training_helpers.hpp"
#include "io/model_import.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;
using Catch::Detail::Approx;

namespace {

ModelSpec resolved(const char* id) { return vc::test::resolved_preset(id); }

// `<arch>.<key>` = value, U32 each, as convert_hf_to_gguf writes the hybrids' hyperparameters.
void put_u32(test::GgufWriter& w, const std::string& prefix, std::initializer_list<std::pair<const char*, std::uint32_t>> keys) {
    for (const auto& k : keys) w.u32(prefix + k.first, k.second);
}

// Qwen3-Next: one K and V cell of an attention layer, 2 x 2 KV heads x 256 x 2 B (f16); the recurrent
// state of one gated DeltaNet layer and sequence: conv (4 - 1) x (4,096 + 2 x 16 x 128) = 24,576 and
// delta state 128 x 4,096 = 524,288 elements, F32 in llama.cpp: 2,195,456 B.
constexpr double kQwenKvCell = 2.0 * 2 * 256 * 2;          // 2,048 B
constexpr double kQwenStateLayer = (24576.0 + 524288) * 4;  // 2,195,456 B

}  // namespace

TEST_CASE("Qwen3-Next-80B-A3B by hand: 12 gated-attention + 36 gated DeltaNet layers, 79,674,292,992 parameters") {
    // h 2,048, 48 layers, vocab 151,936 untied: embedding and head 2 x 311,164,928.
    // Gated attention (layers 3, 7, ..., 47): q_proj 2,048 x (2 x 16 x 256) 16,777,216, k and v 2,048 x 512 each
    //   1,048,576, o 4,096 x 2,048 8,388,608, q/k norms 2 x 256: 27,263,488 a layer, x 12 = 327,161,856.
    // Gated DeltaNet (36 layers): key_dim 16 x 128 = 2,048, value_dim 32 x 128 = 4,096; in_proj_qkvz
    //   2,048 x 12,288 = 25,165,824, in_proj_ba 2,048 x 64 = 131,072, conv1d 8,192 x 4 = 32,768, dt_bias + A_log 64,
    //   norm 128, out_proj 4,096 x 2,048 = 8,388,608: 33,718,464 a layer, x 36 = 1,213,864,704.
    // MoE on every layer: 513 experts (512 routed + 1 shared) x 3 x 2,048 x 512 + router 512 x 2,048 =
    //   1,614,807,040, x 48 = 77,510,737,920. Norms 2 x 48 x 2,048 + 2,048 = 198,656.
    const ModelSpec m = resolved("qwen3-next-80b-a3b");
    CHECK(attention_layer_count(m) == 12);
    CHECK(recurrent_layer_count(m) == 36);
    CHECK(has_attention(m, 3));
    CHECK(is_recurrent_layer(m, 0));
    CHECK(layer_mix_text(m) == "12 attention + 36 gated DeltaNet layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 27263488.0);
    CHECK(b.attention == 327161856.0);
    CHECK(b.per_layer_recurrent == 33718464.0);
    CHECK(b.recurrent == 1213864704.0);
    CHECK(b.total == 2 * 311164928.0 + 327161856.0 + 1213864704.0 + 77510737920.0 + 198656.0);
    CHECK(b.total == 79674292992.0);
    // The safetensors hold 79,674,391,296 without the MTP layer: 98,304 = 48 x 2,048 more, the shared expert's
    // sigmoid gate (hidden x 1 a layer), which is not modelled.
    CHECK(79674391296.0 - b.total == 48 * 2048);
    CHECK(b.total / 1e9 == Approx(find_preset("qwen3-next-80b-a3b")->published_params_b).epsilon(1e-4));
}

TEST_CASE("Granite-4.0-H Small by hand: 4 attention + 36 Mamba2 layers, 32,207,337,984 parameters (the card's 32B)") {
    // h 4,096, vocab 100,352 tied: 411,041,792. Attention (4 layers): q, o 4,096^2, k, v 4,096 x 1,024: 41,943,040.
    // Mamba2 (36): d_inner 128 x 64 = 8,192, 1 group of state 128; in_proj 4,096 x (2 x 8,192 + 2 x 128 + 128) =
    //   68,681,728; conv1d 8,448 channels x (4 + a bias) = 42,240; dt_bias, A_log, D 3 x 128; norm 8,192;
    //   out_proj 8,192 x 4,096 = 33,554,432: 102,286,976 a layer, x 36 = 3,682,331,136.
    // MoE on every layer: 72 experts + the shared MLP of 1,536 (2 experts' width) x 3 x 4,096 x 768, router
    //   72 x 4,096: 698,646,528, x 40 = 27,945,861,120. Norms 80 x 4,096 + 4,096 = 331,776.
    const ModelSpec m = resolved("granite-4.0-h-small");
    CHECK(attention_layer_count(m) == 4);
    CHECK(has_attention(m, 5));
    CHECK(has_attention(m, 35));
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 41943040.0);
    CHECK(b.per_layer_recurrent == 102286976.0);
    CHECK(b.total == 411041792.0 + 4 * 41943040.0 + 36 * 102286976.0 + 40 * 698646528.0 + 331776.0);
    CHECK(b.total == 32207337984.0);
    CHECK(b.total / 1e9 == Approx(32.2).epsilon(1e-3));
}

TEST_CASE("Nemotron Nano 9B v2 by hand: 27 Mamba2 + 4 attention + 25 MLP blocks, 8,888,227,328 parameters (the card's 8.9B)") {
    // h 4,480, vocab 131,072 untied: 2 x 587,202,560. Attention (4): q, o 4,480 x 5,120, k, v 4,480 x 1,024: 55,050,240.
    // Mamba2 (27): d_inner 128 x 80 = 10,240, 8 groups of state 128; in_proj 4,480 x (20,480 + 2,048 + 128) =
    //   101,498,880; conv1d 12,288 x 5 = 61,440; 3 x 128; norm 10,240; out_proj 10,240 x 4,480 = 45,875,200:
    //   147,446,144. MLP (25): up + down 2 x 4,480 x 15,680 = 140,492,800. One norm a block: 57 x 4,480.
    const ModelSpec m = resolved("nemotron-nano-9b-v2");
    CHECK(attention_layer_count(m) == 4);
    CHECK(recurrent_layer_count(m) == 27);
    CHECK(mlp_layer_count(m) == 25);
    CHECK(layer_mix_text(m) == "4 attention + 27 Mamba2 layers + 25 MLP layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 55050240.0);
    CHECK(b.per_layer_recurrent == 147446144.0);
    CHECK(b.mlp_dense == 25 * 140492800.0);
    CHECK(b.total == 2 * 587202560.0 + 4 * 55050240.0 + 27 * 147446144.0 + 25 * 140492800.0 + 57 * 4480.0);
    CHECK(b.total == 8888227328.0);
    CHECK(b.total / 1e9 == Approx(8.9).epsilon(2e-3));
}

TEST_CASE("Qwen3-Next in llama.cpp: KV for the 12 attention layers, an F32 state per sequence for the other 36") {
    // Q4_K_M on one H100, -c 32,768: 12 x 32,768 cells x 2,048 B + 36 x 2,195,456 B = 805,306,368 + 79,036,416.
    Config cfg = serving("qwen3-next-80b-a3b", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 32768);
    CHECK(memory_at(plan(cfg), 32768, 1).kv == 12 * 32768 * kQwenKvCell + 36 * kQwenStateLayer);
    CHECK(memory_at(plan(cfg), 32768, 1).kv == 884342784.0);
    // At the trained 262,144 tokens: 6,442,450,944 + 79,036,416 (read as a Llama-style decoder, all 48 layers
    // cached 48 x 262,144 x 2,048 = 25,769,803,776 B).
    cfg.inference.context = 262144;
    CHECK(memory_at(plan(cfg), 262144, 1).kv == 6521487360.0);
    // -np 4: the state is one cell per sequence (n_seq_max), the KV cells the same 4 x 8,192.
    cfg.inference.context = 8192;
    cfg.inference.concurrency = 4;
    CHECK(memory_at(plan(cfg), 8192, 4).kv == 12 * 32768 * kQwenKvCell + 4 * 36 * kQwenStateLayer);
    // -nkvo: KV and state in system RAM (the hybrid memory's offload is offload_kqv for both).
    cfg.inference.llamacpp.no_kv_offload = true;
    const LlamaCppBuffers b = llamacpp_buffers(plan(cfg), 8192, 4);
    CHECK(b.gpus[0].kv == 0);
    CHECK(b.host.kv == 12 * 32768 * kQwenKvCell + 4 * 36 * kQwenStateLayer);
}

TEST_CASE("llama.cpp's per-layer KV under -ngl: the layers on the GPU are the last N - 1, each with its own cache") {
    // Qwen3-Next -ngl 5 (the output layer and layers 44-47): layer 47 attends (32,768 cells x 2,048 B), 44-46
    // are gated DeltaNet (one state each), not 4/48 of the whole cache.
    Config cfg = serving("qwen3-next-80b-a3b", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 32768);
    cfg.inference.llamacpp.n_gpu_layers = 5;
    const LlamaCppBuffers q = llamacpp_buffers(plan(cfg), 32768, 1);
    CHECK(q.gpus[0].kv == 32768 * kQwenKvCell + 3 * kQwenStateLayer);
    CHECK(q.gpus[0].kv + q.host.kv == 884342784.0);
    // Gemma-2 9B, -c 32,768, -ngl 2: layer 41 is global (set_swa_pattern(2): every second layer), 32,768 cells of
    // 2 x 8 x 256 x 2 = 8,192 B = 268,435,456 B; the average over the 21 global and 21 local layers (4,096 + 512
    // cells) was 150,994,944 B.
    Config g = serving("gemma-2-9b", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 32768);
    g.inference.llamacpp.n_gpu_layers = 2;
    CHECK(llamacpp_buffers(plan(g), 32768, 1).gpus[0].kv == 32768 * 8192.0);
    g.inference.llamacpp.n_gpu_layers = 3;  // layers 40 (local) and 41 (global)
    CHECK(llamacpp_buffers(plan(g), 32768, 1).gpus[0].kv == (32768 + 4608) * 8192.0);
}

TEST_CASE("vLLM and transformers keep the recurrent state in the model dtype, split by tensor parallelism") {
    // BF16 state: 36 x 548,864 x 2 B = 39,518,208 B a sequence; TP 2 halves it (548,864 B a layer) and the 2 KV heads
    // (1,024 B a token and layer). vLLM pads each layer's state to its attention page: block 16 x ceil(548,864 / 16,384)
    // = 544 tokens x 1,024 B = 557,056 B, 36 x 557,056 = 20,054,016 B a sequence (19,759,104 unpadded).
    Config cfg = serving("qwen3-next-80b-a3b", Engine::Vllm, "bf16", "h200-141gb", 32768);
    cfg.inference.tp = 2;
    const InferencePlan p = plan(cfg);
    CHECK(p.kv.state_layers == 36);
    CHECK(p.kv.state_bytes == 36 * 557056.0);
    CHECK(kv_sequence_bytes(p.kv, 32768, 16) == 12 * 32768 * 1024.0 + 20054016.0);
    Config hf = serving("granite-4.0-h-small", Engine::Hf, "bf16", "h200-141gb", 8192);
    // Granite: 36 x ((3 x 8,448) + 128 x 8,192) x 2 B = 77,324,288 B; 4 attention layers x 8,192 x 2 x 8 x 128 x 2 B.
    CHECK(memory_at(plan(hf), 8192, 1).kv == 4 * 8192 * 4096.0 + 36 * (25344.0 + 1048576) * 2);
    hf.inference.state_dtype = "fp32";
    CHECK(memory_at(plan(hf), 8192, 1).kv == 4 * 8192 * 4096.0 + 36 * (25344.0 + 1048576) * 4);
    // TP must split the recurrent heads whole, as the attention heads: 24 value heads (8 groups) on 16 GPUs do
    // not, where Qwen3-Next's 16 heads over 2 KV heads do.
    cfg.inference.tp = 16;
    cfg.model.ssm_heads = 24, cfg.model.ssm_groups = 8;
    auto split = make_inference_plan(cfg);
    CHECK_FALSE(split.ok);
    CHECK(split.error.message == "inference.tp (16) must divide model.ssm_heads (24) so each GPU holds whole recurrent heads");
    hf.inference.state_dtype = "int8";
    auto r = make_inference_plan(hf);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "inference.state_dtype");
}

TEST_CASE("Hybrid config.json imports: qwen3_next, granitemoehybrid, nemotron_h read as their presets") {
    const std::string qwen = R"({"architectures":["Qwen3NextForCausalLM"],"model_type":"qwen3_next","decoder_sparse_step":1,
      "full_attention_interval":4,"head_dim":256,"hidden_size":2048,"intermediate_size":5120,"linear_conv_kernel_dim":4,
      "linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,
      "max_position_embeddings":262144,"moe_intermediate_size":512,"num_attention_heads":16,"num_experts":512,
      "num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":2,"shared_expert_intermediate_size":512,
      "tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":151936})";
    io::ModelImport r = io::import_hf_config(qwen, "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.layer_pattern == find_preset("qwen3-next-80b-a3b")->layer_pattern);
    CHECK(r.model.attn_gate);
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 79674292992.0);

    std::string types;
    for (int il = 0; il < 40; ++il) types += std::string(il ? "," : "") + (il % 10 == 5 ? "\"attention\"" : "\"mamba\"");
    const std::string granite = R"({"model_type":"granitemoehybrid","hidden_size":4096,"num_hidden_layers":40,"num_attention_heads":32,
      "num_key_value_heads":8,"num_local_experts":72,"num_experts_per_tok":10,"shared_intermediate_size":1536,"intermediate_size":768,
      "mamba_n_heads":128,"mamba_d_head":64,"mamba_d_state":128,"mamba_n_groups":1,"mamba_d_conv":4,"mamba_expand":2,
      "vocab_size":100352,"tie_word_embeddings":true,"max_position_embeddings":131072,"layer_types":[)" + types + "]}";
    r = io::import_hf_config(granite, "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.family == "Granite");
    CHECK(r.model.shared_experts == 2);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 32207337984.0);

    const std::string nemotron = R"({"model_type":"nemotron_h","vocab_size":131072,"hidden_size":4480,"intermediate_size":15680,
      "num_hidden_layers":56,"num_attention_heads":40,"num_key_value_heads":8,"head_dim":128,"mamba_num_heads":128,
      "mamba_head_dim":80,"n_groups":8,"ssm_state_size":128,"conv_kernel":4,"max_position_embeddings":131072,
      "hybrid_override_pattern":"M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-"})";
    r = io::import_hf_config(nemotron, "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.family == "Nemotron");
    CHECK_FALSE(r.model.tied_embeddings);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 8888227328.0);
    // A pattern of the wrong length is reported missing (the import incomplete), not guessed.
    r = io::import_hf_config(R"({"model_type":"nemotron_h","vocab_size":8,"hidden_size":64,"num_hidden_layers":3,
      "num_attention_heads":4,"intermediate_size":64,"hybrid_override_pattern":"M*"})", "config.json");
    CHECK_FALSE(r.complete);
    REQUIRE_FALSE(r.missing.empty());
    CHECK(r.missing.back().field == "model.layer_pattern");
}

TEST_CASE("Hybrid GGUF imports: the ssm.* keys, head_count_kv 0 for a recurrent layer, full_attention_interval") {
    // Granite-4.0-H Small as llama.cpp's granitehybrid writes it (the keys of a granite-4.0-h-tiny dump:
    // head_count_kv per layer, 0 where the layer is Mamba2; ssm.inner_size 8,192 = time_step_rank 128 heads x 64).
    test::GgufWriter g;
    g.str("general.architecture", "granitehybrid");
    put_u32(g, "granitehybrid.", {{"block_count", 40}, {"embedding_length", 4096}, {"feed_forward_length", 768},
                                  {"attention.head_count", 32}, {"vocab_size", 100352}, {"expert_count", 72},
                                  {"expert_used_count", 10}, {"expert_shared_feed_forward_length", 1536}, {"ssm.conv_kernel", 4},
                                  {"ssm.state_size", 128}, {"ssm.group_count", 1}, {"ssm.inner_size", 8192}, {"ssm.time_step_rank", 128}});
    std::vector<std::int32_t> kv(40, 0);
    for (int il : {5, 15, 25, 35}) kv[static_cast<size_t>(il)] = 8;
    g.i32_array("granitehybrid.attention.head_count_kv", kv);
    const std::string gb = g.bytes();
    io::ModelImport r = io::import_model(reinterpret_cast<const std::uint8_t*>(gb.data()), gb.size(), "granite.gguf", 0);
    REQUIRE(r.ok);
    CHECK(r.model.family == "Granite");
    CHECK(r.model.layer_pattern == find_preset("granite-4.0-h-small")->layer_pattern);
    CHECK(r.model.kv_heads == 8);
    CHECK(r.model.shared_experts == 2);
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 32207337984.0);

    // Qwen3-Next as qwen3next: a scalar head_count_kv 2 and full_attention_interval 4.
    test::GgufWriter q;
    q.str("general.architecture", "qwen3next");
    put_u32(q, "qwen3next.", {{"block_count", 48}, {"embedding_length", 2048}, {"feed_forward_length", 5120}, {"attention.head_count", 16},
                              {"attention.head_count_kv", 2}, {"attention.key_length", 256}, {"full_attention_interval", 4},
                              {"expert_count", 512}, {"expert_used_count", 10}, {"expert_feed_forward_length", 512},
                              {"expert_shared_feed_forward_length", 512}, {"ssm.conv_kernel", 4}, {"ssm.state_size", 128},
                              {"ssm.group_count", 16}, {"ssm.inner_size", 4096}, {"ssm.time_step_rank", 32}});
    q.tensor("token_embd.weight", {2048, 151936}, 12);
    q.tensor("output.weight", {2048, 151936}, 14);
    const std::string qb = q.bytes();
    r = io::import_model(reinterpret_cast<const std::uint8_t*>(qb.data()), qb.size(), "qwen3-next.gguf", 0);
    REQUIRE(r.ok);
    CHECK(r.model.layer_pattern == find_preset("qwen3-next-80b-a3b")->layer_pattern);
    CHECK(r.model.recurrent == RecurrentKind::GatedDeltaNet);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 79674292992.0);
}

TEST_CASE("model.layer_pattern and the recurrent dimensions are checked with the field named") {
    ModelSpec m = *find_preset("qwen3-next-80b-a3b");
    m.layer_pattern = "RRRA";
    auto r = resolve_model(m);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "model.layer_pattern");
    m = *find_preset("qwen3-next-80b-a3b");
    m.layer_pattern[0] = 'X';
    CHECK(resolve_model(m).error.field == "model.layer_pattern");
    m = *find_preset("qwen3-next-80b-a3b");
    m.recurrent = RecurrentKind::None;
    CHECK(resolve_model(m).error.field == "model.recurrent");
    m = *find_preset("qwen3-next-80b-a3b");
    m.ssm_groups = 5;
    CHECK(resolve_model(m).error.field == "model.ssm_groups");
    m = *find_preset("qwen3-next-80b-a3b");
    m.ssm_conv = 0;
    CHECK(resolve_model(m).error.field == "model.ssm_conv");
    m = *find_preset("nemotron-nano-9b-v2");
    m.experts = 8, m.top_k = 2, m.expert_ffn = 64;
    CHECK(resolve_model(m).error.field == "model.layer_pattern");
}

TEST_CASE("Training a hybrid: every parameter on the GPU once, and a note that the recurrent activations are approximate") {
    // Full fine-tune of Nemotron Nano 9B v2 on one GPU: the stage holds the model's 8,888,227,328 parameters
    // (its 56 layers each the average of the 27 Mamba2, 4 attention and 25 MLP blocks), BF16 weights 2 B each.
    const Config c = vc::test::parsed(R"({"method":"detailed","task":"finetune","model":{"preset":"nemotron-nano-9b-v2"},
        "gpu":"h100-80gb","training":{"finetune":"full"}})");
    const TrainingResult r = vc::test::trained(c);
    CHECK(r.params_total == 8888227328.0);
    CHECK(r.params_on_gpu == Approx(8888227328.0).epsilon(1e-12));
    auto e = estimate(c);
    REQUIRE(e.ok);
    CHECK(vc::test::has_note(e.value, "Hybrid model (4 attention + 27 Mamba2 layers + 25 MLP layers)"));
    CHECK(vc::test::has_note(e.value, "the activation term is approximate"));
}

TEST_CASE("KV capacity counts token room only: a hybrid's recurrent states on the GPU are not tokens") {
    // Qwen3-Next Q4_K_M on one H100 at 32,768 tokens, one slot: the 36 gated DeltaNet layers' F32 state,
    // 36 x 2,195,456 = 79,036,416 B, sits in the KV buffer beside 12 x 2,048 = 24,576 B a token of attention KV.
    // Counted as room it was 79,036,416 / 24,576 = 3,216 tokens too many.
    Config cfg = serving("qwen3-next-80b-a3b", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 32768);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    const double card = find_gpu("h100-80gb")->memory_bytes, rest = e.value.total_bytes - e.value.component("kv_cache")->bytes;
    CHECK(e.value.metric("kv_bytes_per_token")->value == 24576.0);
    const double cap = e.value.metric("kv_capacity_tokens")->value;
    CHECK(cap == std::floor((card * 0.75 - rest - 79036416.0) / 24576.0));
    CHECK(std::floor((card * 0.75 - rest) / 24576.0) - cap == 3216);
    auto a = solve(cfg, "kv_capacity");
    REQUIRE(a.ok);
    CHECK(a.value.value == cap);
    // -np 4: four states, 4 x 3,216 = 12,864 tokens less than the room they were counted as.
    cfg.inference.concurrency = 4;
    cfg.inference.context = 8192;
    auto e4 = estimate(cfg);
    REQUIRE(e4.ok);
    const double rest4 = e4.value.total_bytes - e4.value.component("kv_cache")->bytes;
    CHECK(std::floor((card * 0.75 - rest4) / 24576.0) - e4.value.metric("kv_capacity_tokens")->value == 12864);
    // transformers, Nemotron Nano 9B v2 BF16 with an FP32 state: 27 Mamba2 layers x 1,347,584 x 4 = 145,539,072 B, 8,883
    // tokens of its 4 attention layers' 4 x 4,096 = 16,384 B.
    Config hf = serving("nemotron-nano-9b-v2", Engine::Hf, "bf16", "h100-80gb", 8192);
    hf.inference.state_dtype = "fp32";
    auto eh = estimate(hf);
    REQUIRE(eh.ok);
    const double resth = eh.value.total_bytes - eh.value.component("kv_cache")->bytes;
    CHECK(eh.value.metric("kv_bytes_per_token")->value == 16384.0);
    CHECK(eh.value.metric("kv_capacity_tokens")->value > 0);
    CHECK(std::floor((card * 0.75 - resth) / 16384.0) - eh.value.metric("kv_capacity_tokens")->value == 8883);
}

TEST_CASE("vLLM's hybrid pool: the attention block holds a state page, the state pages padded, states taken from the pool") {
    // Qwen3-Next FP8 on an H200, BF16 KV and state: one token of one attention layer 2 x 2 KV heads x 256 x 2 = 2,048 B;
    // one gated DeltaNet layer's state (24,576 + 524,288) x 2 = 1,097,728 B. The attention block is the smallest multiple
    // of 16 tokens whose page holds it: 16 x ceil(1,097,728 / 32,768) = 16 x 34 = 544 tokens, a page of 1,114,112 B, to
    // which the state is padded (+1.49%). KV cache groups of 12 layers (the 12 attention layers; 36 >= 1.5 x 12): one
    // attention group and 3 state groups, a block 12 x 1,114,112 = 13,369,344 B; a sequence's state 3 blocks, 40,108,032 B.
    Config cfg = serving("qwen3-next-80b-a3b", Engine::Vllm, "fp8", "h200-141gb", 32768);
    const InferencePlan p = plan(cfg);
    CHECK(p.block == 544);
    CHECK(p.kv.state_bytes_per_layer == 1114112.0);
    CHECK(p.kv.block_bytes == 13369344.0);
    CHECK(p.kv.state_bytes == 40108032.0);
    CHECK(p.kv.bytes_per_token == 24576.0);
    // 32,768 tokens: ceil(32,768 / 544) = 61 attention blocks + 3 state blocks = 64 blocks, 855,638,016 B.
    CHECK(kv_sequence_bytes(p.kv, 32768, p.block) == 64 * 13369344.0);
    // The capacity: the pool's blocks / 64 per sequence x 32,768 tokens (vLLM's max_concurrency x max_model_len).
    const double blocks = std::floor(p.pool / 13369344.0);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(e.value.metric("kv_blocks")->value == blocks);
    CHECK(e.value.metric("kv_capacity_tokens")->value == std::floor(blocks / 64 * 32768));
    auto a = solve(cfg, "kv_capacity");
    REQUIRE(a.ok);
    CHECK(a.value.value == std::floor(blocks / 64 * 32768));
    // A block_size above the aligned one is kept (vLLM overrides only a smaller one): 1,024 tokens, a 2,097,152 B page.
    cfg.inference.block_size = 1024;
    CHECK(plan(cfg).block == 1024);
    CHECK(plan(cfg).kv.state_bytes == 3 * 12 * 2097152.0);
    // mamba_cache_mode "align" (prefix caching) keeps 2 state blocks a sequence per state group.
    cfg.inference.block_size = 16;
    cfg.inference.constants.vllm_state_blocks = 2;
    CHECK(plan(cfg).kv.state_bytes == 2 * 40108032.0);
    // Nemotron Nano 9B v2: 4 attention layers (2 x 8 KV heads x 128 x 2 = 4,096 B a token each) and 27 Mamba2 layers
    // ((3 x (10,240 + 2 x 8 x 128) + 128 x 10,240) x 2 = (36,864 + 1,310,720) x 2 = 2,695,168 B): block
    // 16 x ceil(2,695,168 / 65,536) = 16 x 42 = 672 tokens, page 2,752,512 B; groups of 4: 7 state groups (27 layers
    // and one padding slot), 28 x 2,752,512 = 77,070,336 B a sequence.
    Config nem = serving("nemotron-nano-9b-v2", Engine::Vllm, "bf16", "h100-80gb", 8192);
    const InferencePlan q = plan(nem);
    CHECK(q.block == 672);
    CHECK(q.kv.state_bytes == 28 * 2752512.0);
}

TEST_CASE("Nemotron-3 Nano 30B-A3B by hand: 23 Mamba2 + 6 attention + 23 MoE blocks, 31,577,937,344 parameters (31.6B)") {
    // h 2,688, vocab 131,072 untied: 2 x 352,321,536. Attention (6): q, o 2,688 x 4,096, k, v 2,688 x 256: 23,396,352.
    // Mamba2 (23): d_inner 64 x 64 = 4,096, 8 groups of state 128; in_proj 2,688 x (8,192 + 2,048 + 64) = 27,697,152;
    //   conv1d 6,144 x 5 = 30,720; 3 x 64; norm 4,096; out_proj 4,096 x 2,688 = 11,010,048: 38,742,208.
    // MoE (23, the E blocks): 128 experts x up + down 2 x 2,688 x 1,856 = 1,277,165,568, the shared expert of 3,712 =
    //   2 x 2,688 x 3,712 = 19,955,712 (2 experts' width), the router 128 x 2,688 = 344,064. One norm a block: 53 x 2,688.
    // NVIDIA's 31.6B; the routers' e_score_correction_bias (23 x 128 = 2,944) is not modelled.
    const ModelSpec m = resolved("nemotron-3-nano-30b-a3b");
    CHECK(attention_layer_count(m) == 6);
    CHECK(recurrent_layer_count(m) == 23);
    CHECK(moe_layer_count(m) == 23);
    CHECK(dense_mlp_layers(m) == 0);
    CHECK(is_moe_layer(m, 1));
    CHECK_FALSE(is_moe_layer(m, 0));
    CHECK_FALSE(is_moe_layer(m, 5));  // layer 5 attends
    CHECK(layer_mix_text(m) == "6 attention + 23 Mamba2 layers + 23 MoE layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_attention == 23396352.0);
    CHECK(b.per_layer_recurrent == 38742208.0);
    CHECK(b.experts_routed == 23 * 1277165568.0);
    CHECK(b.experts_shared == 23 * 19955712.0);
    CHECK(b.router == 23 * 344064.0);
    CHECK(b.total == 2 * 352321536.0 + 6 * 23396352.0 + 23 * 38742208.0 + 23 * (1277165568.0 + 19955712.0 + 344064.0) + 53 * 2688.0);
    CHECK(b.total == 31577937344.0);
    CHECK(b.total / 1e9 == Approx(31.6).epsilon(1e-3));
    // Active: 6 of 128 routed experts, 23 x 122 x 9,977,856 fewer: 3,580,073,408 (the card's "3.5B active").
    CHECK(b.active == 31577937344.0 - 23.0 * 122 * 9977856);
    CHECK(b.active == 3580073408.0);
    // llama.cpp, -c 32,768: KV for the 6 attention layers 6 x 32,768 x 1,024 B = 201,326,592 B and an F32 state for
    // the 23 Mamba2 layers, 23 x (3 x 6,144 + 128 x 4,096) x 4 = 49,930,240 B.
    Config cfg = serving("nemotron-3-nano-30b-a3b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 32768);
    CHECK(memory_at(plan(cfg), 32768, 1).kv == 201326592.0 + 49930240.0);
}

TEST_CASE("Nemotron-3 imports: hybrid_override_pattern's E blocks from config.json, nemotron_h_moe's per-layer keys from a GGUF") {
    const std::string nano = R"({"architectures":["NemotronHForCausalLM"],"model_type":"nemotron_h","vocab_size":131072,
      "hidden_size":2688,"intermediate_size":1856,"num_hidden_layers":52,"num_attention_heads":32,"num_key_value_heads":2,
      "head_dim":128,"mamba_num_heads":64,"mamba_head_dim":64,"n_groups":8,"ssm_state_size":128,"conv_kernel":4,
      "max_position_embeddings":262144,"moe_intermediate_size":1856,"moe_shared_expert_intermediate_size":3712,
      "n_routed_experts":128,"n_shared_experts":1,"num_experts_per_tok":6,"tie_word_embeddings":false,
      "hybrid_override_pattern":"MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"})";
    io::ModelImport r = io::import_hf_config(nano, "config.json");
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.layer_pattern == find_preset("nemotron-3-nano-30b-a3b")->layer_pattern);
    CHECK(r.model.experts == 128);
    CHECK(r.model.shared_experts == 2);  // one shared expert of 3,712 = 2 of 1,856
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 31577937344.0);

    // llama.cpp's nemotron_h_moe: head_count_kv 2 on the attention blocks, feed_forward_length > 0 on the MoE blocks,
    // both 0 on a Mamba2 block (src/llama-model.cpp: recurrent iff n_head_kv(i) == 0 and n_ff(i) == 0).
    const std::string pattern = r.model.layer_pattern;
    test::GgufWriter g;
    g.str("general.architecture", "nemotron_h_moe");
    put_u32(g, "nemotron_h_moe.", {{"block_count", 52}, {"embedding_length", 2688}, {"attention.head_count", 32},
                                   {"attention.key_length", 128}, {"vocab_size", 131072}, {"expert_count", 128},
                                   {"expert_used_count", 6}, {"expert_shared_count", 1}, {"expert_feed_forward_length", 1856},
                                   {"expert_shared_feed_forward_length", 3712}, {"ssm.conv_kernel", 4}, {"ssm.state_size", 128},
                                   {"ssm.group_count", 8}, {"ssm.inner_size", 4096}, {"ssm.time_step_rank", 64}});
    std::vector<std::int32_t> kv(52, 0), ff(52, 0);
    for (size_t il = 0; il < pattern.size(); ++il) {
        if (pattern[il] == '*') kv[il] = 2;
        if (pattern[il] == 'E') ff[il] = 1856;
    }
    g.i32_array("nemotron_h_moe.attention.head_count_kv", kv);
    g.i32_array("nemotron_h_moe.feed_forward_length", ff);
    g.tensor("token_embd.weight", {2688, 131072}, 8);    // Q8_0: 2,688 is no multiple of the k-quants' 256
    g.tensor("output.weight", {2688, 131072}, 8);
    g.tensor("blk.0.ssm_in.weight", {2688, 10304}, 8);   // layer 0, no ffn_gate anywhere: squared-ReLU, two matrices
    const std::string gb = g.bytes();
    r = io::import_model(reinterpret_cast<const std::uint8_t*>(gb.data()), gb.size(), "nemotron-3-nano.gguf", 0);
    INFO(r.error.message);
    REQUIRE(r.ok);
    CHECK(r.model.family == "Nemotron");
    CHECK(r.model.layer_pattern == pattern);
    CHECK(r.model.shared_experts == 2);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 31577937344.0);

    // E blocks need experts; experts with * / M / - blocks need E blocks for them.
    ModelSpec m = *find_preset("nemotron-3-nano-30b-a3b");
    m.experts = 0, m.top_k = 0, m.shared_experts = 0;
    auto bad = resolve_model(m);
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "model.layer_pattern");
    CHECK(bad.error.message.find("MoE blocks (E)") != std::string::npos);
}

TEST_CASE("LFM2 1.2B by hand: 6 attention + 10 short-conv layers, 1,170,340,608 parameters (the Hub's 1.17B)") {
    // h 2,048, vocab 65,536 tied: 134,217,728. Short conv (10): in_proj 2,048 x 6,144 = 12,582,912, depthwise conv
    // 2,048 x 3, out_proj 2,048 x 2,048: 16,783,360. Attention (6): q, o 2,048 x 2,048, k, v 2,048 x 512, q/k norms 2 x 64:
    // 10,485,888. SwiGLU (16) of 2/3 x 12,288 = 8,192: 3 x 2,048 x 8,192 = 50,331,648. Norms 2 a layer + the final one.
    const ModelSpec m = resolved("lfm2-1.2b");
    CHECK(attention_layer_count(m) == 6);
    CHECK(recurrent_layer_count(m) == 10);
    CHECK(layer_mix_text(m) == "6 attention + 10 short-conv layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_recurrent == 16783360.0);
    CHECK(b.per_layer_attention == 10485888.0);
    CHECK(b.total == 134217728.0 + 10 * 16783360.0 + 6 * 10485888.0 + 16 * 50331648.0 + 33 * 2048.0);
    CHECK(b.total == 1170340608.0);
    CHECK(b.total / 1e9 == Approx(1.17).epsilon(1e-3));
    // The state: the conv's last 2 inputs over the hidden width, 2 x 2,048 = 4,096 elements a layer (llama.cpp n_embd_r
    // "for LFM2 models", n_embd_s 0): F32 in llama.cpp, 10 x 16,384 = 163,840 B a sequence beside 6 x 2,048 B a token.
    CHECK(recurrent_conv_elements(m) == 4096.0);
    CHECK(recurrent_ssm_elements(m) == 0.0);
    Config cfg = serving("lfm2-1.2b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192, 4);
    CHECK(memory_at(plan(cfg), 8192, 4).kv == 6 * 32768 * 2048.0 + 4 * 10 * 16384.0);
    // vLLM: a BF16 state of 8,192 B fits a 16-token page of 16 x 2,048 = 32,768 B, to which it is padded; groups of 6
    // (10 < 1.5 x 6 is false), 2 state groups: 12 x 32,768 = 393,216 B a sequence.
    Config v = serving("lfm2-1.2b", Engine::Vllm, "bf16", "l4-24gb", 8192);
    const InferencePlan pv = plan(v);
    CHECK(pv.block == 16);
    CHECK(pv.kv.state_bytes == 12 * 32768.0);
    // A short convolution needs a kernel of at least 2 (one input kept).
    ModelSpec bad = *find_preset("lfm2-1.2b");
    bad.ssm_conv = 1;
    CHECK(resolve_model(bad).error.field == "model.ssm_conv");
}

TEST_CASE("LFM2 imports: full_attn_idxs or layer_types from config.json, lfm2's per-layer head_count_kv from a GGUF") {
    // LiquidAI/LFM2-1.2B's config.json (the keys that size it): block_ff_dim 12,288 adjusted to 8,192.
    const std::string cfg = R"({"architectures":["Lfm2ForCausalLM"],"model_type":"lfm2","vocab_size":65536,"hidden_size":2048,
      "num_hidden_layers":16,"num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":128000,"norm_eps":1e-05,
      "conv_bias":false,"conv_L_cache":3,"block_dim":2048,"block_ff_dim":12288,"block_multiple_of":256,
      "block_ffn_dim_multiplier":1.0,"block_auto_adjust_ff_dim":true,"full_attn_idxs":[2,5,8,10,12,14],"tie_embedding":true,
      "torch_dtype":"bfloat16"})";
    io::ModelImport r = io::import_hf_config(cfg, "config.json");
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.family == "LFM2");
    CHECK(r.model.ffn == 8192);
    CHECK(r.model.layer_pattern == find_preset("lfm2-1.2b")->layer_pattern);
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 1170340608.0);
    // layer_types (newer configs) in place of full_attn_idxs; LFM2-MoE's dense layers and experts.
    std::string types;
    for (int il = 0; il < 4; ++il) types += std::string(il ? "," : "") + (il % 2 ? "\"full_attention\"" : "\"conv\"");
    r = io::import_hf_config(R"({"model_type":"lfm2_moe","vocab_size":64,"hidden_size":64,"intermediate_size":128,
      "moe_intermediate_size":32,"num_hidden_layers":4,"num_experts":8,"num_experts_per_tok":2,"num_dense_layers":1,
      "num_attention_heads":4,"num_key_value_heads":2,"conv_L_cache":3,"layer_types":[)" + types + "]}", "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.layer_pattern == "RARA");
    CHECK(r.model.dense_layers == 1);
    CHECK(r.model.experts == 8);
    CHECK(r.model.recurrent == RecurrentKind::ShortConv);
    REQUIRE(resolve_model(r.model).ok);

    // llama.cpp's lfm2: shortconv.l_cache 3, head_count_kv 0 on a short-conv layer.
    test::GgufWriter g;
    g.str("general.architecture", "lfm2");
    put_u32(g, "lfm2.", {{"block_count", 16}, {"embedding_length", 2048}, {"feed_forward_length", 8192}, {"attention.head_count", 32},
                         {"vocab_size", 65536}, {"shortconv.l_cache", 3}});
    std::vector<std::int32_t> kv(16, 0);
    for (int il : {2, 5, 8, 10, 12, 14}) kv[static_cast<size_t>(il)] = 8;
    g.i32_array("lfm2.attention.head_count_kv", kv);
    g.tensor("token_embd.weight", {2048, 65536}, 12);
    g.tensor("blk.0.ffn_gate.weight", {2048, 8192}, 12);
    const std::string gb = g.bytes();
    r = io::import_model(reinterpret_cast<const std::uint8_t*>(gb.data()), gb.size(), "lfm2.gguf", 0);
    INFO(r.error.message);
    REQUIRE(r.ok);
    CHECK(r.model.family == "LFM2");
    CHECK(r.model.layer_pattern == find_preset("lfm2-1.2b")->layer_pattern);
    CHECK(r.model.kv_heads == 8);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 1170340608.0);
}

TEST_CASE("Jamba v0.1 by hand: 4 attention + 28 Mamba1 layers, 16 of them with 16 experts, 51,570,323,328 parameters") {
    // h 4,096, d_inner 8,192 (mamba_expand 2), d_state 16, d_conv 4, dt_rank 256. One Mamba1 mixer: in_proj 4,096 x 16,384
    // = 67,108,864; conv1d 8,192 x 4 + 8,192 bias = 40,960; x_proj 8,192 x (256 + 32) = 2,359,296; dt_proj 256 x 8,192 +
    // 8,192 bias = 2,105,344; A_log 8,192 x 16 = 131,072; D 8,192; out_proj 8,192 x 4,096 = 33,554,432; dt / B / C norms
    // 256 + 16 + 16 = 288: 105,308,448. Attention (4, at 4, 12, 20, 28): q, o 4,096 x 4,096, k, v 4,096 x 1,024 =
    // 41,943,040. SwiGLU 3 x 4,096 x 14,336 = 176,160,768: dense on the 16 even layers, 16 experts + a 16 x 4,096 router
    // on the 16 odd ones. Embedding and head 2 x 65,536 x 4,096 = 536,870,912; norms 2 a layer + the final one.
    // 4 x 41,943,040 + 28 x 105,308,448 + 16 x 176,160,768 + 16 x (16 x 176,160,768 + 65,536) + 536,870,912 + 65 x 4,096
    // = 51,570,323,328 (the Hub's 51.6B; the card's "52B").
    const ModelSpec m = resolved("jamba-v0.1");
    CHECK(attention_layer_count(m) == 4);
    CHECK(recurrent_layer_count(m) == 28);
    CHECK(moe_layer_count(m) == 16);
    CHECK(dense_mlp_layers(m) == 16);
    CHECK(is_moe_layer(m, 1));
    CHECK_FALSE(is_moe_layer(m, 4));
    CHECK(has_attention(m, 4));
    CHECK(layer_mix_text(m) == "4 attention + 28 Mamba1 layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_recurrent == 105308448.0);
    CHECK(b.per_layer_attention == 41943040.0);
    CHECK(b.total == 4 * 41943040.0 + 28 * 105308448.0 + 16 * 176160768.0 + 16 * (16 * 176160768.0 + 65536) + 536870912.0 + 65 * 4096.0);
    CHECK(b.total == 51570323328.0);
    CHECK(b.total / 1e9 == Approx(51.6).epsilon(1e-3));
    // Active: 14 of the 16 experts idle on each of 16 layers: 51,570,323,328 - 16 x 14 x 176,160,768 = 12,110,311,296
    // (the card's "12B active").
    CHECK(b.active == 12110311296.0);
    // The state of one Mamba1 layer and sequence: conv (4 - 1) x 8,192 = 24,576 (x alone: B and C are not convolved)
    // and SSM 16 x 8,192 = 131,072 elements (llama.cpp n_embd_r with no groups, n_embd_s; vLLM mamba1_state_shape).
    CHECK(recurrent_conv_elements(m) == 24576.0);
    CHECK(recurrent_ssm_elements(m) == 131072.0);
    // llama.cpp, -c 8,192 -np 1: KV 4 layers x 8,192 cells x (2 x 8 x 128 x 2 B = 4,096 B) = 134,217,728 B and the F32
    // state 28 x 155,648 x 4 B = 17,432,576 B.
    Config cfg = serving("jamba-v0.1", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 8192, 1);
    CHECK(memory_at(plan(cfg), 8192, 1).kv == 4 * 8192 * 4096.0 + 28 * 622592.0);
    // vLLM, BF16: a state of 155,648 x 2 = 311,296 B a layer; the attention block 16 x ceil(311,296 / 65,536) = 80 tokens,
    // a page of 80 x 4,096 = 327,680 B; groups of 4 (28 >= 1.5 x 4): 7 state groups, 28 pages = 9,175,040 B a sequence.
    Config v = serving("jamba-v0.1", Engine::Vllm, "bf16", "h200-141gb", 32768);
    const InferencePlan pv = plan(v);
    CHECK(pv.block == 80);
    CHECK(pv.kv.state_bytes == 28 * 327680.0);
    CHECK(pv.kv.bytes_per_token == 4 * 4096.0);
    // Tensor parallelism splits d_inner (vLLM's divide(intermediate_size, tp)): 2 GPUs hold half a state each.
    v.inference.tp = 2;
    CHECK(plan(v).kv.state_bytes == 28 * 327680.0 / 2);
    // Mamba1's channels scan alone (head width 1), share one B and C, and need their dt rank.
    ModelSpec bad = *find_preset("jamba-v0.1");
    bad.ssm_head_dim = 2;
    CHECK(resolve_model(bad).error.field == "model.ssm_head_dim");
    bad = *find_preset("jamba-v0.1");
    bad.ssm_dt_rank = 0;
    auto rb = resolve_model(bad);
    CHECK(rb.error.field == "model.ssm_dt_rank");
    CHECK(rb.error.message.find("256") != std::string::npos);
}

TEST_CASE("Jamba imports: the layer periods and Mamba dimensions from config.json, jamba's keys and routers from a GGUF") {
    // ai21labs/Jamba-v0.1's config.json (the keys that size it).
    const std::string cfg = R"({"architectures":["JambaForCausalLM"],"model_type":"jamba","vocab_size":65536,"hidden_size":4096,
      "intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"num_experts":16,
      "num_experts_per_tok":2,"expert_layer_period":2,"expert_layer_offset":1,"attn_layer_period":8,"attn_layer_offset":4,
      "mamba_d_state":16,"mamba_d_conv":4,"mamba_expand":2,"mamba_dt_rank":256,"mamba_conv_bias":true,"mamba_proj_bias":false,
      "max_position_embeddings":262144,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
    io::ModelImport r = io::import_hf_config(cfg, "config.json");
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.family == "Jamba");
    CHECK(r.model.recurrent == RecurrentKind::Mamba1);
    CHECK(r.model.layer_pattern == find_preset("jamba-v0.1")->layer_pattern);
    CHECK(r.model.moe_every == 2);
    CHECK(r.model.context_limit == 262144);
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 51570323328.0);
    // mamba_dt_rank "auto" is ceil(hidden / 16); an expert offset model.moe_every cannot place is named.
    r = io::import_hf_config(R"({"model_type":"jamba","vocab_size":64,"hidden_size":72,"intermediate_size":128,"num_hidden_layers":4,
      "num_attention_heads":4,"num_key_value_heads":2,"num_experts":4,"num_experts_per_tok":2,"expert_layer_period":2,
      "expert_layer_offset":0,"attn_layer_period":2,"attn_layer_offset":1,"mamba_dt_rank":"auto"})", "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.ssm_dt_rank == 5);
    CHECK(r.model.layer_pattern == "RARA");
    CHECK_FALSE(r.complete);
    bool named = false;
    for (const auto& f : r.missing) named = named || f.field == "model.moe_every";
    CHECK(named);

    // llama.cpp's jamba: ssm.* with inner_size = d_inner and time_step_rank = dt_rank, head_count_kv 0 on a Mamba layer,
    // a router (ffn_gate_inp) on each odd layer.
    test::GgufWriter g;
    g.str("general.architecture", "jamba");
    put_u32(g, "jamba.", {{"block_count", 32}, {"embedding_length", 4096}, {"feed_forward_length", 14336}, {"attention.head_count", 32},
                          {"expert_count", 16}, {"expert_used_count", 2}, {"ssm.conv_kernel", 4}, {"ssm.inner_size", 8192},
                          {"ssm.state_size", 16}, {"ssm.time_step_rank", 256}, {"context_length", 262144}});
    std::vector<std::int32_t> kv(32, 0);
    for (int il : {4, 12, 20, 28}) kv[static_cast<size_t>(il)] = 8;
    g.i32_array("jamba.attention.head_count_kv", kv);
    g.tensor("token_embd.weight", {4096, 65536}, 12);
    g.tensor("output.weight", {4096, 65536}, 12);
    g.tensor("blk.0.ffn_gate.weight", {4096, 14336}, 12);
    for (int il = 1; il < 32; il += 2) g.tensor("blk." + std::to_string(il) + ".ffn_gate_inp.weight", {4096, 16}, 0);
    const std::string gb = g.bytes();
    r = io::import_model(reinterpret_cast<const std::uint8_t*>(gb.data()), gb.size(), "jamba.gguf", 0);
    INFO(r.error.message);
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.family == "Jamba");
    CHECK(r.model.layer_pattern == find_preset("jamba-v0.1")->layer_pattern);
    CHECK(r.model.moe_every == 2);
    CHECK(r.model.ssm_heads == 8192);
    CHECK(r.model.ssm_dt_rank == 256);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 51570323328.0);
}

TEST_CASE("Falcon-H1 7B by hand: 44 layers of attention and Mamba2 in parallel (P), 7,585,648,736 parameters (7.59B)") {
    // h 3,072. Mamba2 (mamba_d_ssm 3,072 = 24 heads x 128, 1 group of 256, conv 4): in_proj 3,072 x (3,072 + 3,584 + 24) =
    // 20,520,960; conv1d 3,584 x (4 + 1) = 17,920; dt_bias, A_log, D 3 x 24 = 72; gated RMSNorm 3,072; out_proj 3,072 x 3,072
    // = 9,437,184: 29,979,208. Attention: q, o 3,072 x 1,536, k, v 3,072 x 256 = 11,010,048. SwiGLU 3 x 3,072 x 12,288 =
    // 113,246,208. Every layer has all three and 2 norms; embedding and head 2 x 130,048 x 3,072 = 799,014,912; final norm.
    const ModelSpec m = resolved("falcon-h1-7b");
    CHECK(attention_layer_count(m) == 44);
    CHECK(recurrent_layer_count(m) == 44);
    CHECK(mlp_layer_count(m) == 44);
    CHECK(layer_mix_text(m) == "44 parallel attention + Mamba2 layers");
    const ParamBreakdown b = model_params(m);
    CHECK(b.per_layer_recurrent == 29979208.0);
    CHECK(b.per_layer_attention == 11010048.0);
    CHECK(b.total == 44 * (29979208.0 + 11010048.0 + 113246208.0 + 2 * 3072.0) + 799014912.0 + 3072.0);
    CHECK(b.total == 7585648736.0);
    CHECK(b.total / 1e9 == Approx(7.59).epsilon(1e-3));
    // Each layer keeps both: KV of 2 x 2 x 128 x 2 B = 1,024 B a token, and a state of conv 3 x (3,072 + 2 x 256) = 10,752 +
    // SSM 256 x 3,072 = 786,432 elements. llama.cpp at -c 8,192, one slot: 44 x 8,192 x 1,024 + 44 x 797,184 x 4 B.
    CHECK(recurrent_conv_elements(m) == 10752.0);
    CHECK(recurrent_ssm_elements(m) == 786432.0);
    Config cfg = serving("falcon-h1-7b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192, 1);
    const InferencePlan p = plan(cfg);
    CHECK(memory_at(p, 8192, 1).kv == 44 * 8192 * 1024.0 + 44 * 3188736.0);
    CHECK(memory_at(p, 8192, 1).state == 44 * 3188736.0);
    // vLLM, BF16: a 1,594,368 B state, the block 16 x ceil(1,594,368 / 16,384) = 1,568 tokens, pages of 1,605,632 B; one group
    // of 44 attention layers and one of 44 state layers: 44 x 1,605,632 = 70,647,808 B a sequence's state.
    Config v = serving("falcon-h1-7b", Engine::Vllm, "bf16", "l4-24gb", 8192);
    const InferencePlan pv = plan(v);
    CHECK(pv.block == 1568);
    CHECK(pv.kv.state_bytes == 44 * 1605632.0);
    CHECK(pv.kv.bytes_per_token == 44 * 1024.0);
    // The letter is checked with the others.
    ModelSpec bad = *find_preset("falcon-h1-7b");
    bad.layer_pattern[3] = 'Q';
    auto rb = resolve_model(bad);
    CHECK(rb.error.field == "model.layer_pattern");
    CHECK(rb.error.message.find("P (attention and recurrent in parallel + MLP)") != std::string::npos);
}

TEST_CASE("Falcon-H1 imports: falcon_h1's mamba_* keys from config.json, falcon-h1's ssm.* keys from a GGUF, every layer P") {
    // tiiuae/Falcon-H1-7B's config.json (the keys that size it).
    const std::string cfg = R"({"architectures":["FalconH1ForCausalLM"],"model_type":"falcon_h1","vocab_size":130048,"hidden_size":3072,
      "intermediate_size":12288,"num_hidden_layers":44,"num_attention_heads":12,"num_key_value_heads":2,"head_dim":128,
      "mamba_d_ssm":3072,"mamba_n_heads":24,"mamba_d_head":128,"mamba_n_groups":1,"mamba_d_state":256,"mamba_d_conv":4,
      "mamba_expand":2,"mamba_chunk_size":128,"mamba_rms_norm":true,"mlp_multipliers":[0.88,0.59],"tie_word_embeddings":false,
      "max_position_embeddings":262144})";
    io::ModelImport r = io::import_hf_config(cfg, "config.json");
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.family == "Falcon");
    CHECK(r.model.layer_pattern == std::string(44, 'P'));
    CHECK(r.model.ssm_head_dim == 128);
    auto rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 7585648736.0);
    // mamba_d_head "auto": d_ssm / heads; a config without the gated norm says it is counted.
    r = io::import_hf_config(R"({"model_type":"falcon_h1","vocab_size":64,"hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
      "num_attention_heads":4,"num_key_value_heads":2,"mamba_d_ssm":96,"mamba_n_heads":4,"mamba_d_head":"auto","mamba_rms_norm":false})",
                               "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.ssm_head_dim == 24);
    bool noted = false;
    for (const auto& n : r.notes) noted = noted || n.find("mamba_rms_norm false") != std::string::npos;
    CHECK(noted);

    // llama.cpp's falcon-h1: ssm.inner_size 3,072, time_step_rank = the 24 heads, group_count 1; one head_count_kv.
    test::GgufWriter g;
    g.str("general.architecture", "falcon-h1");
    put_u32(g, "falcon-h1.", {{"block_count", 44}, {"embedding_length", 3072}, {"feed_forward_length", 12288}, {"attention.head_count", 12},
                              {"attention.head_count_kv", 2}, {"attention.key_length", 128}, {"ssm.conv_kernel", 4},
                              {"ssm.inner_size", 3072}, {"ssm.state_size", 256}, {"ssm.time_step_rank", 24}, {"ssm.group_count", 1}});
    g.tensor("token_embd.weight", {3072, 130048}, 12);
    g.tensor("output.weight", {3072, 130048}, 12);
    g.tensor("blk.0.ffn_gate.weight", {3072, 12288}, 12);
    const std::string gb = g.bytes();
    r = io::import_model(reinterpret_cast<const std::uint8_t*>(gb.data()), gb.size(), "falcon-h1.gguf", 0);
    INFO(r.error.message);
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.model.family == "Falcon");
    CHECK(r.model.layer_pattern == std::string(44, 'P'));
    CHECK(r.model.recurrent == RecurrentKind::Mamba2);
    rm = resolve_model(r.model);
    REQUIRE(rm.ok);
    CHECK(model_params(rm.value).total == 7585648736.0);
}

TEST_CASE("vLLM's mamba_ssm_cache_dtype: the SSM state in float32 beside a BF16 conv state, auto from the config.json") {
    // Nemotron Nano 9B v2, BF16, --mamba-ssm-cache-dtype float32: a Mamba2 layer's state 36,864 conv elements x 2 B + 1,310,720
    // SSM elements x 4 B = 5,316,608 B (against 2,695,168 B all BF16); the attention block 16 x ceil(5,316,608 / 65,536) =
    // 16 x 82 = 1,312 tokens, each state padded to 1,312 x 4,096 = 5,373,952 B; 7 state groups of 4: 28 pages a sequence.
    Config nem = serving("nemotron-nano-9b-v2", Engine::Vllm, "bf16", "h100-80gb", 8192);
    nem.inference.vllm.mamba_ssm_cache_dtype = "float32";
    const InferencePlan q = plan(nem);
    CHECK(q.ssm_state_bytes == 4);
    CHECK(q.block == 1312);
    CHECK(q.kv.state_bytes == 28 * 5373952.0);
    CHECK(q.kv.formula.find("(conv 36864 x 2 B + SSM 1310720 x 4 B)") != std::string::npos);
    // auto: the dtype the model's config.json states (model.ssm_cache_dtype), else the conv state's.
    nem.inference.vllm.mamba_ssm_cache_dtype = "auto";
    CHECK(plan(nem).block == 672);
    nem.model.ssm_cache_dtype = "fp32";
    CHECK(plan(nem).kv.state_bytes == 28 * 5373952.0);
    // llama.cpp keeps its F32 state whatever vLLM's flag says: 27 x 1,347,584 x 4 B a sequence.
    Config cpp = serving("nemotron-nano-9b-v2", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 8192);
    cpp.inference.vllm.mamba_ssm_cache_dtype = "bfloat16";
    CHECK(plan(cpp).kv.state_bytes == 27 * 1347584.0 * 4);
    // A name vLLM does not take, and a model dtype outside fp32 / bf16 / fp16, are refused naming their field.
    nem.inference.vllm.mamba_ssm_cache_dtype = "fp8";
    auto bad = make_inference_plan(nem);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.vllm.mamba_ssm_cache_dtype");
    nem.inference.vllm.mamba_ssm_cache_dtype = "auto";
    nem.model.ssm_cache_dtype = "int8";
    bad = make_inference_plan(nem);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "model.ssm_cache_dtype");
    // config.json's mamba_ssm_cache_dtype "float32" reads as fp32.
    io::ModelImport r = io::import_hf_config(R"({"model_type":"nemotron_h","vocab_size":64,"hidden_size":64,"intermediate_size":128,
      "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"hybrid_override_pattern":"M*","mamba_num_heads":4,
      "mamba_head_dim":16,"n_groups":1,"ssm_state_size":16,"conv_kernel":4,"mamba_ssm_cache_dtype":"float32"})", "config.json");
    REQUIRE(r.ok);
    CHECK(r.model.ssm_cache_dtype == "fp32");
}
