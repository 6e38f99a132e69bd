// Detailed inference: KV cache per token for every preset (hand-computed), the three engine
// profiles against the calibration rows (C08-C10 HF generate, C30 vLLM), speed from the roofline,
// bad input, and the properties memory must keep (monotone in context and sequences, smaller with
// tensor parallelism and fewer bits).
#include <catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "core/estimate.hpp"
#include "core/serve/caching_allocator.hpp"
#include "core/serve/inference.hpp"
#include "core/solve.hpp"
#include "core/model/presets.hpp"
#include "core/units.hpp"
#include "core/text.hpp"
#include "inference_helpers.hpp"
#include "io/config_json.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;
using Catch::Detail::Approx;

namespace {

KvLayout layout(const char* preset, const char* dtype = "bf16", int tp = 1, bool cap = true) {
    auto m = resolve_model(*find_preset(preset));
    REQUIRE(m.ok);
    auto r = kv_layout(m.value, *find_kv_dtype(dtype), tp, cap);
    REQUIRE(r.ok);
    return r.value;
}

double gib(double bytes) { return bytes_to_gib(bytes); }

}  // namespace

TEST_CASE("KV cache per token, BF16, one GPU: every preset against the hand-computed figure") {
    // 2 x layers x KV heads x head_dim x 2 bytes; MLA: layers x (kv_lora_rank + rope dim) x 2 bytes.
    const std::map<std::string, double> expected = {
        {"llama-2-7b", 2.0 * 32 * 32 * 128 * 2},   {"llama-2-13b", 2.0 * 40 * 40 * 128 * 2}, {"llama-2-70b", 2.0 * 80 * 8 * 128 * 2},
        {"llama-3-8b", 131072},                    {"llama-3-70b", 2.0 * 80 * 8 * 128 * 2},  {"llama-3.1-8b", 131072},
        {"llama-3.1-70b", 327680},                 {"llama-3.1-405b", 2.0 * 126 * 8 * 128 * 2}, {"llama-3.2-1b", 2.0 * 16 * 8 * 64 * 2},
        {"llama-3.2-3b", 2.0 * 28 * 8 * 128 * 2},  {"tinyllama-1.1b", 2.0 * 22 * 4 * 64 * 2}, {"mistral-7b-v0.1", 131072},
        {"mistral-7b-v0.3", 131072},               {"mixtral-8x7b", 131072},                 {"mixtral-8x22b", 2.0 * 56 * 8 * 128 * 2},
        {"qwen2.5-0.5b", 2.0 * 24 * 2 * 64 * 2},   {"qwen2.5-1.5b", 2.0 * 28 * 2 * 128 * 2}, {"qwen2.5-3b", 2.0 * 36 * 2 * 128 * 2},
        {"qwen2.5-7b", 2.0 * 28 * 4 * 128 * 2},    {"qwen2.5-14b", 2.0 * 48 * 8 * 128 * 2},  {"qwen2.5-32b", 2.0 * 64 * 8 * 128 * 2},
        {"qwen2.5-72b", 2.0 * 80 * 8 * 128 * 2},   {"qwen3-8b", 2.0 * 36 * 8 * 128 * 2},     {"qwen3-30b-a3b", 2.0 * 48 * 4 * 128 * 2},
        {"gemma-2b", 2.0 * 18 * 1 * 256 * 2},      {"gemma-7b", 2.0 * 28 * 16 * 256 * 2},    {"gemma-2-2b", 2.0 * 26 * 4 * 256 * 2},
        {"gemma-2-9b", 2.0 * 42 * 8 * 256 * 2},    {"gemma-2-27b", 2.0 * 46 * 16 * 128 * 2}, {"gemma-3-1b", 2.0 * 26 * 1 * 256 * 2},
        {"phi-3-mini", 2.0 * 32 * 32 * 96 * 2},    {"phi-2", 2.0 * 32 * 32 * 80 * 2},        {"falcon-7b", 2.0 * 32 * 1 * 64 * 2},
        {"deepseek-v3", 61.0 * (512 + 64) * 2},    {"deepseek-v2", 60.0 * (512 + 64) * 2},   {"gpt-oss-120b", 2.0 * 36 * 8 * 64 * 2},
        {"gpt-oss-20b", 2.0 * 24 * 8 * 64 * 2},    {"gpt2-xl", 2.0 * 48 * 25 * 64 * 2},      {"starcoder", 2.0 * 40 * 1 * 128 * 2},
        {"bert-large-uncased", 2.0 * 24 * 16 * 64 * 2},
        // 2026's presets.
        {"llama-3.3-70b", 327680},                 {"mistral-nemo-12b", 2.0 * 40 * 8 * 128 * 2}, {"mistral-small-24b", 2.0 * 40 * 8 * 128 * 2},
        {"qwen3-0.6b", 2.0 * 28 * 8 * 128 * 2},    {"qwen3-1.7b", 2.0 * 28 * 8 * 128 * 2},   {"qwen3-4b", 2.0 * 36 * 8 * 128 * 2},
        {"qwen3-14b", 2.0 * 40 * 8 * 128 * 2},     {"qwen3-32b", 2.0 * 64 * 8 * 128 * 2},    {"qwen3-235b-a22b", 2.0 * 94 * 4 * 128 * 2},
        {"gemma-3-4b", 2.0 * 34 * 4 * 256 * 2},    {"gemma-3-12b", 2.0 * 48 * 8 * 256 * 2},  {"gemma-3-27b", 2.0 * 62 * 16 * 128 * 2},
        {"phi-4", 2.0 * 40 * 10 * 128 * 2},        {"phi-4-mini", 2.0 * 32 * 8 * 128 * 2},   {"deepseek-r1", 61.0 * (512 + 64) * 2},
        {"kimi-k2", 61.0 * (512 + 64) * 2},        {"llama-4-scout", 2.0 * 48 * 8 * 128 * 2}, {"llama-4-maverick", 2.0 * 48 * 8 * 128 * 2},
        // Hybrids: the attention layers only (their recurrent state is per sequence, test_hybrid.cpp).
        {"qwen3-next-80b-a3b", 2.0 * 12 * 2 * 256 * 2}, {"granite-4.0-h-small", 2.0 * 4 * 8 * 128 * 2},
        {"nemotron-nano-9b-v2", 2.0 * 4 * 8 * 128 * 2}, {"nemotron-3-nano-30b-a3b", 2.0 * 6 * 2 * 128 * 2},
        {"lfm2-1.2b", 2.0 * 6 * 8 * 64 * 2},       {"jamba-v0.1", 2.0 * 4 * 8 * 128 * 2},
        // GLM-4.5 family and MiniMax-M2 (test_families.cpp): full attention on every layer of the decoder.
        {"glm-4.5-air", 2.0 * 46 * 8 * 128 * 2},   {"glm-4.5", 2.0 * 92 * 8 * 128 * 2},      {"glm-4.6", 2.0 * 92 * 8 * 128 * 2},
        {"minimax-m2", 2.0 * 62 * 8 * 128 * 2},
        // DeepSeek-V3.2: MLA's latent + the lightning indexer's key of 128 at the cache type (test_families.cpp).
        {"deepseek-v3.2", 61.0 * (512 + 64 + 128) * 2},
        // Falcon-H1: every layer attends (beside its Mamba2 mixer).
        {"falcon-h1-7b", 2.0 * 44 * 2 * 128 * 2},
    };
    for (const auto& p : model_presets()) {
        INFO(p.id);
        auto it = expected.find(p.id);
        REQUIRE(it != expected.end());  // a new preset needs its hand-computed figure here
        CHECK(layout(p.id.c_str()).bytes_per_token == it->second);
    }
    CHECK(layout("llama-3-8b").bytes_per_token == 131072);  // the issue's check: exactly 128 KiB
}

TEST_CASE("KV cache: sliding windows cap local layers, full-attention layers grow") {
    // Gemma-2 9B at 8192 tokens: 21 global layers keep 8192 tokens, 21 local ones 4096; 8192 B per
    // layer per token (2 x 8 heads x 256 x 2 B).
    CHECK(kv_sequence_bytes(layout("gemma-2-9b"), 8192, 0) == 21.0 * 8192 * 8192 + 21.0 * 8192 * 4096);
    // A window larger than the context is fine: nothing is capped.
    CHECK(kv_sequence_bytes(layout("gemma-2-9b"), 1000, 0) == 42.0 * 8192 * 1000);
    // gpt-oss-120b at 128K: 18 full layers, 18 with a 128-token window, 2048 B per layer per token.
    CHECK(kv_sequence_bytes(layout("gpt-oss-120b"), 131072, 0) == 18.0 * 2048 * 131072 + 18.0 * 2048 * 128);
    // Gemma-3 27B at 32K: layers 5, 11, ..., 59 global (10 of 62; sliding_window_pattern 6), the other 52
    // keep their 1,024-token window; 2 x 16 heads x 128 x 2 B = 8,192 B a layer a token:
    // 10 x 8,192 x 32,768 + 52 x 8,192 x 1,024 = 3,120,562,176 B (2.91 GiB) against 62 x 8,192 x 32,768 =
    // 16,642,998,272 B (15.5 GiB) with every layer global (swa_full).
    CHECK(kv_sequence_bytes(layout("gemma-3-27b"), 32768, 0) == 10.0 * 8192 * 32768 + 52.0 * 8192 * 1024);
    CHECK(kv_sequence_bytes(layout("gemma-3-27b", "bf16", 1, false), 32768, 0) == 62.0 * 8192 * 32768);
    // Mistral v0.1: every layer windowed at 4096; without capping (swa_full) it grows.
    CHECK(kv_sequence_bytes(layout("mistral-7b-v0.1"), 32768, 0) == 131072.0 * 4096);
    CHECK(kv_sequence_bytes(layout("mistral-7b-v0.1", "bf16", 1, false), 32768, 0) == 131072.0 * 32768);
    // Gemma-3 1B: 4 global layers of 26 (every 6th), 22 local with a 512 window.
    CHECK(kv_sequence_bytes(layout("gemma-3-1b"), 32768, 0) == 1024.0 * (4 * 32768 + 22 * 512));
}

TEST_CASE("KV cache: dtypes, tensor parallelism, MLA replication, paged blocks") {
    CHECK(layout("llama-3-8b", "fp8").bytes_per_token == 65536);
    CHECK(layout("llama-3-8b", "fp32").bytes_per_token == 262144);
    // int8 / int4 carry an FP16 scale and zero point per (token, head): 4 bytes per vector.
    CHECK(layout("llama-3-8b", "int8").bytes_per_token == 2.0 * 32 * 8 * (128 + 4));
    CHECK(layout("llama-3-8b", "int4").bytes_per_token == 2.0 * 32 * 8 * (64 + 4));
    CHECK(layout("llama-3-8b", "q8_0").bytes_per_token == 2.0 * 32 * 8 * 128 * 34 / 32);
    // 8 KV heads: TP 8 splits them, TP 16 repeats one head per GPU.
    CHECK(layout("llama-3-70b", "bf16", 8).bytes_per_token == 40960);
    CHECK(layout("llama-3-70b", "bf16", 16).bytes_per_token == 40960);
    CHECK(layout("llama-3-70b", "bf16", 16).replicated);
    // MLA's latent is not split by head: every rank keeps all of it.
    CHECK(layout("deepseek-v3", "bf16", 8).bytes_per_token == 70272);
    // A 1-token sequence occupies a whole 16-token block.
    CHECK(kv_sequence_bytes(layout("llama-3-8b"), 1, 16) == 16.0 * 131072);
    CHECK(kv_sequence_bytes(layout("llama-3-8b"), 17, 16) == 32.0 * 131072);
}

TEST_CASE("vLLM profile: Llama-3-8B BF16 on an A100-40GB at 0.90, max_model_len 8192 (C30, vLLM issue 12330)") {
    Config cfg = serving("llama-3-8b", Engine::Vllm, "bf16", "a100-40gb", 8192);
    const InferencePlan p = plan(cfg);
    CHECK(gib(p.weights_gpu) == Approx(14.96).epsilon(0.001));
    // The default profile is vLLM >= 0.8's: a forward over 8192 tokens and the sampler over 256
    // sequences. vLLM PR #10511 logs 1.26 GiB for this model and these settings.
    CHECK(gib(p.activation_peak) == Approx(1.26).epsilon(0.05));

    SECTION("with the peak and non-torch memory the C30 log prints, the pool comes to its 5,691 blocks") {
        cfg.inference.vllm.activation_peak_bytes = gib_to_bytes(9.37);
        cfg.inference.vllm.non_torch_bytes = gib_to_bytes(0.10);
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.metric("kv_blocks")->value == Approx(5691).epsilon(0.005));
        CHECK(gib(e.value.component("kv_cache")->bytes) == Approx(11.12).epsilon(0.005));
    }
    SECTION("the older V1 profile (logits for every batched token) lands near C30 on its own") {
        cfg.inference.vllm.profile_all_tokens = true;
        const InferencePlan q = plan(cfg);
        CHECK(gib(q.activation_peak) == Approx(9.37).epsilon(0.06));
        CHECK(gib(q.pool) == Approx(11.12).epsilon(0.05));
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.metric("kv_blocks")->value == Approx(5691).epsilon(0.05));
    }
    SECTION("vLLM's weights include one RoPE cos/sin table of the model's window: 8,192 x 128 x 2 B") {
        CHECK(p.rope_cache == 8192.0 * 128 * 2);
        CHECK(p.weights_gpu == p.weights.per_gpu + p.rope_cache);
        // Llama-3.1's 131,072-token window: 32 MiB; llama.cpp and HF keep no such table.
        Config c31 = serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 8192);
        CHECK(plan(c31).rope_cache == 32.0 * 1024 * 1024);
        CHECK(plan(serving("llama-3.1-8b", Engine::Hf, "bf16", "h100-80gb", 8192)).rope_cache == 0);
    }
    SECTION("blocks follow from the pool: 16 tokens x 128 KiB = 2 MiB each") {
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.metric("kv_blocks")->value == std::floor(p.pool / (16 * 131072.0)));
        CHECK(e.value.metric("kv_capacity_tokens")->value == 16 * e.value.metric("kv_blocks")->value);
        CHECK(e.value.metric("kv_bytes_per_token")->value == 131072);
    }
}

TEST_CASE("vLLM: weights larger than the card leave no KV pool, and the formula says so without a negative size") {
    // Llama-2-70B in BF16 (137.95 GB) on one H100 80GB: 0.9 x usable - weights - peak - non-torch < 0.
    const Config cfg = serving("llama-2-70b", Engine::Vllm, "bf16", "h100-80gb", 4096, 16);  // its window
    const InferencePlan p = plan(cfg);
    REQUIRE(p.pool < 0);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    const Component* kv = e.value.component("kv_cache");
    REQUIRE(kv != nullptr);
    CHECK(kv->bytes == 0);
    CHECK(kv->formula.find("nothing left for the KV cache (short by " + num(-p.pool) + " B)") != std::string::npos);
    CHECK(kv->formula.find("= -") == std::string::npos);
    CHECK(e.value.metric("kv_blocks")->value == 0);
}

TEST_CASE("inference.weights in the spellings people write: nf4 and AWQ plan as bnb-nf4 and awq-int4") {
    const InferencePlan nf4 = plan(serving("llama-3.1-8b", Engine::Hf, "nf4", "a100-80gb", 4096));
    const InferencePlan bnb = plan(serving("llama-3.1-8b", Engine::Hf, "bnb-nf4", "a100-80gb", 4096));
    CHECK(std::string(nf4.format->id) == "bnb-nf4");
    CHECK(nf4.weights_gpu == bnb.weights_gpu);
    CHECK(nf4.in.weights.format == "bnb-nf4");
    const InferencePlan awq = plan(serving("llama-3.1-8b", Engine::Vllm, "AWQ", "a100-80gb", 4096));
    CHECK(std::string(awq.format->id) == "awq-int4");
}

TEST_CASE("HF generate: octocoder (StarCoder 15.5B) bf16 / LLM.int8 / 4-bit, ~20-token prompt + 60 new (C08-C10)") {
    // Measured torch.cuda.max_memory_allocated: 29.026, 15.219, 9.544 GiB (transformers'
    // llm_tutorial_optimization). The allocator's figure excludes the CUDA context.
    struct Row {
        const char* weights;
        double gib;
    };
    const Row rows[] = {{"bf16", 29.026}, {"bnb-int8", 15.219}, {"bnb-fp4", 9.544}};
    for (const auto& r : rows) {
        INFO(r.weights);
        Config cfg = serving("starcoder", Engine::Hf, r.weights, "a100-80gb", 80);
        cfg.inference.prompt_tokens = 20;
        cfg.inference.hf.attention = HfAttention::Eager;
        const MemoryAt m = memory_at(plan(cfg), 80, 1);
        const double allocated = m.weights + m.kv + m.activations;
        CHECK(gib(allocated) == Approx(r.gib).epsilon(0.03));
    }
}

TEST_CASE("llama.cpp profile: Llama-3.1-8B Q4_K_M, 8192 context, full and partial offload") {
    Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192);
    const InferencePlan p = plan(cfg);
    const MemoryAt m = memory_at(p, 8192, 1);
    // f16 KV for 8192 cells: 8192 x 128 KiB = 1 GiB.
    CHECK(m.kv == 8192.0 * 131072);
    // Compute buffer (flash attention): the F32 logits of a 512-token ubatch, 512 x 128256 x 4 B =
    // 250.5 MiB, plus the 8 MiB hidden state feeding them: the "CUDA0 compute buffer size = 258.50
    // MiB" llama.cpp prints for Llama-3 8B.
    CHECK(m.activations / kBytesPerMiB == 258.5);
    // Everything but token_embd (on the CPU) and the output layer (Q6_K) on the GPU.
    CHECK(m.weights == Approx(p.weights.total - p.weights.embedding));
    CHECK(p.host_bytes == Approx(p.weights.embedding));

    SECTION("-ngl 16: the output layer and the last 15 layers (llama.cpp PR #18148), their KV on the GPU") {
        cfg.inference.llamacpp.n_gpu_layers = 16;
        const InferencePlan h = plan(cfg);
        double last15 = 0;
        for (int i = 17; i < 32; ++i) last15 += h.weights.layer_bytes[static_cast<size_t>(i)];
        CHECK(h.weights_gpu == Approx(last15 + h.weights.output));
        CHECK(memory_at(h, 8192, 1).kv == 15.0 / 16 * 4096 * 131072);
        CHECK(h.host_bytes == Approx(h.weights.total - last15 - h.weights.output));
        // An older build (output_first off): the last 16 layers, half the KV, no output layer.
        cfg.inference.llamacpp.output_first = false;
        const InferencePlan o = plan(cfg);
        double last16 = 0;
        for (int i = 16; i < 32; ++i) last16 += o.weights.layer_bytes[static_cast<size_t>(i)];
        CHECK(o.weights_gpu == Approx(last16));
        CHECK(memory_at(o, 8192, 1).kv == 4096.0 * 131072);
        CHECK(o.host_bytes == Approx(o.weights.total - last16));
    }
    SECTION("without flash attention one layer's F32 scores for the ubatch dominate") {
        cfg.inference.llamacpp.flash_attn = false;
        // Inputs (the F32 KQ mask 8192 x 512 and the hidden state 512 x 4096), then one layer's
        // scores 8192 x 512 x 32 heads with its Q and residual: 16 + 8 + 512 + 16 = 552 MiB
        // (Ollama logs 560 MiB for this run, tests/calibration/llamacpp.csv L04).
        CHECK(memory_at(plan(cfg), 8192, 1).activations ==
              512.0 * 8192 * 4 + 512.0 * 4096 * 4 + 512.0 * 8192 * 32 * 4 + (4096.0 + 4096) * 512 * 4);
    }
}

TEST_CASE("speed: decode from bandwidth, prefill from FLOPs (Llama-3.1-8B BF16, H100)") {
    Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 4096);
    cfg.inference.constants.bandwidth_efficiency = 1;
    cfg.inference.constants.compute_efficiency = 1;
    const InferencePlan p = plan(cfg);
    // One sequence: every weight but the embedding table is read once per token, plus the KV.
    const Speed s = inference_speed(p, 4096, 1, 4096);
    const double bytes = p.weights.total - p.weights.embedding + 4096.0 * 131072;
    CHECK(s.bytes_per_step == Approx(bytes));
    CHECK(s.memory_bound);
    CHECK(s.tokens_per_s == Approx(3350e9 / bytes));
    // Prefill of 4096 tokens: 2 x 8.03e9 x 4096 + attention, at 989 TFLOP/s.
    const double flops = 2 * p.params.active * 4096 + 4.0 * 32 * 32 * 128 * 4096 * 4096 / 2;
    CHECK(s.prefill_s == Approx(flops / 989e12));
    // Many short sequences turn compute bound, and the aggregate grows with them.
    const Speed many = inference_speed(p, 128, 1024, 128);
    CHECK_FALSE(many.memory_bound);
    CHECK(many.tokens_per_s_total > s.tokens_per_s_total);
    // llama.cpp: the GPU streams its layers and their KV, the CPU the layers left in system memory
    // with their KV (60 GB/s).
    Config l = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 4096);
    l.inference.constants.bandwidth_efficiency = 1;
    l.inference.llamacpp.n_gpu_layers = 16;
    const InferencePlan lp = plan(l);
    const Speed ls = inference_speed(lp, 4096, 1, 4096);
    // -ngl 16: the output layer and 15 of 32 layers (output first), so 15 layers' KV on the GPU.
    const double gpu_s = (lp.weights_gpu + 4096.0 * 131072 * 15 / 32) / 1008e9;
    const double cpu_s = (lp.host_bytes - lp.weights.embedding + 4096.0 * 131072 * 17 / 32) / 60e9;
    CHECK(ls.step_s == Approx(gpu_s + cpu_s));
    // FP8 weights read half the bytes.
    cfg.inference.weights.format = "fp8";
    CHECK(inference_speed(plan(cfg), 4096, 1, 4096).tokens_per_s > 1.8 * s.tokens_per_s * 0.95);
}

TEST_CASE("speed: a layer split passes each token through the GPUs in turn; tensor parallelism reads the shares at once") {
    auto decode = [](Engine engine, const char* format, int tp) {
        Config c = serving("llama-3.1-8b", engine, format, "h100-80gb", 4096);
        c.inference.tp = tp;
        auto e = estimate(c);
        REQUIRE(e.ok);
        return e.value.metric("decode_tokens_per_s")->value;
    };
    // Llama-3.1-8B Q4_K_M in llama.cpp: two GPUs read the same bytes per token as one, in turn.
    CHECK(decode(Engine::LlamaCpp, "q4_k_m", 2) == Approx(decode(Engine::LlamaCpp, "q4_k_m", 1)).epsilon(0.02));
    // vLLM at TP 2: each GPU reads half the weights at the same time, nearly twice the speed.
    CHECK(decode(Engine::Vllm, "bf16", 2) > 1.8 * decode(Engine::Vllm, "bf16", 1));
}

TEST_CASE("inference input errors name the field") {
    struct Bad {
        const char* what;
        void (*edit)(Config&);
        const char* field;
    };
    const Bad cases[] = {
        {"context 0", [](Config& c) { c.inference.context = 0; }, "inference.context"},
        {"concurrency 0", [](Config& c) { c.inference.concurrency = 0; }, "inference.concurrency"},
        {"kv heads not dividing heads", [](Config& c) { c.model.kv_heads = 5; }, "model.kv_heads"},
        {"tp not dividing heads", [](Config& c) { c.inference.tp = 3; }, "inference.tp"},
        {"tp and kv heads not dividing one another", [](Config& c) { c.inference.tp = 16; c.model.heads = 48; c.model.kv_heads = 12; c.model.head_dim = 128; }, "inference.tp"},
        {"unknown format", [](Config& c) { c.inference.weights.format = "int5"; }, "inference.weights"},
        {"GGUF type outside llama.cpp", [](Config& c) { c.inference.weights.format = "q4_k_m"; }, "inference.weights"},
        {"unknown KV dtype", [](Config& c) { c.inference.kv_dtype = "fp6"; }, "inference.kv_dtype"},
        {"utilization above 1", [](Config& c) { c.inference.vllm.gpu_memory_utilization = 1.5; }, "inference.vllm.gpu_memory_utilization"},
        {"no GPU for vLLM", [](Config& c) { c.gpu_id.clear(); }, "gpu"},
        {"unknown GPU", [](Config& c) { c.gpu_id = "h900"; }, "gpu"},
        {"NaN efficiency", [](Config& c) { c.inference.constants.bandwidth_efficiency = std::nan(""); }, "inference.constants.bandwidth_efficiency"},
    };
    for (const auto& b : cases) {
        INFO(b.what);
        Config cfg = serving("llama-3-8b", Engine::Vllm, "bf16", "h100-80gb", 4096);
        b.edit(cfg);
        auto r = estimate(cfg);
        CHECK_FALSE(r.ok);
        CHECK(r.error.field == b.field);
        CHECK_FALSE(r.error.message.empty());
    }
    // tp 0 (the default) takes the top-level gpus.
    Config two = serving("llama-3-70b", Engine::Vllm, "bf16", "h100-80gb", 4096);
    two.gpus = 2;
    CHECK(plan(two).tp == 2);
    two.gpus = 1.5;
    CHECK(make_inference_plan(two).error.field == "gpus");
    // A window longer than the context is fine.
    Config cfg = serving("mistral-7b-v0.1", Engine::Hf, "bf16", "h100-80gb", 100);
    auto r = estimate(cfg);
    REQUIRE(r.ok);
    CHECK(r.value.component("kv_cache")->bytes == 100.0 * 131072);
}

TEST_CASE("properties: memory grows with context and sequences, shrinks with TP and fewer bits; all finite") {
    const char* presets[] = {"llama-3.1-8b", "gemma-2-9b", "deepseek-v3", "mixtral-8x7b", "gpt-oss-20b", "qwen2.5-0.5b", "starcoder"};
    const Engine engines[] = {Engine::Hf, Engine::LlamaCpp};
    for (const char* id : presets) {
        for (Engine e : engines) {
            INFO(id << " " << engine_name(e));
            Config cfg = serving(id, e, e == Engine::LlamaCpp ? "q8_0" : "bf16", "h200-141gb", 1024);
            cfg.inference.llamacpp.fit = false;  // every layer on the GPU: --fit would move DeepSeek-V3's experts to RAM
            const InferencePlan p = plan(cfg);
            double prev = 0;
            for (int c = 1; c <= 1 << 20; c *= 4) {
                const double t = memory_at(p, c, 4).total();
                CHECK(std::isfinite(t));
                CHECK(t >= prev);
                prev = t;
            }
            prev = 0;
            for (int n = 1; n <= 512; n *= 2) {
                const double t = memory_at(p, 4096, n).total();
                CHECK(t >= prev);
                prev = t;
            }
            // Lower-bit formats take less.
            Config low = cfg;
            low.inference.weights.format = e == Engine::LlamaCpp ? "q4_k_m" : "bnb-nf4";
            CHECK(memory_at(plan(low), 4096, 4).weights < memory_at(p, 4096, 4).weights);
            // Splitting over more GPUs leaves less on each.
            Config two = cfg;
            two.inference.tp = 2;
            CHECK(memory_at(plan(two), 4096, 4).total() < memory_at(p, 4096, 4).total());
        }
        // vLLM: more GPUs, a bigger pool per GPU; KV per token per GPU never grows with TP.
        Config v = serving(id, Engine::Vllm, "bf16", "h200-141gb", 1024);
        double prev_kv = 1e300;
        for (int tp = 1; tp <= 8; tp *= 2) {
            v.inference.tp = tp;
            auto r = make_inference_plan(v);
            if (!r.ok) continue;  // heads not divisible
            CHECK(r.value.kv.bytes_per_token <= prev_kv);
            CHECK(std::isfinite(r.value.pool));
            prev_kv = r.value.kv.bytes_per_token;
        }
    }
}

TEST_CASE("inference config JSON: the section reads, writes back, and names unknown fields") {
    auto r = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"gpu":"a100-40gb",
        "inference":{"engine":"vllm","weights":"fp8","kv_dtype":"fp8","context":8192,"concurrency":16,"tp":1,
                     "vllm":{"gpu_memory_utilization":0.85,"activation_peak_gib":2.5},
                     "gpu_custom":{"name":"Lab card","memory_gib":48,"bandwidth_gbps":960,"bf16_tflops":180}}})");
    REQUIRE(r.ok);
    const InferenceInputs& in = r.value.inference;
    CHECK(in.weights.format == "fp8");
    CHECK(in.concurrency == 16);
    CHECK(in.vllm.gpu_memory_utilization == 0.85);
    CHECK(in.vllm.activation_peak_bytes == gib_to_bytes(2.5));
    CHECK(in.has_custom_gpu);
    CHECK(in.custom_gpu.memory_bytes == gib_to_bytes(48));
    // The custom GPU is the one sized for.
    auto e = estimate(r.value);
    REQUIRE(e.ok);
    CHECK(e.value.component("activations")->bytes == gib_to_bytes(2.5));
    CHECK(e.value.fits.back().gpu_id == "custom");
    // Round trip.
    auto back = io::config_from_json(io::config_to_json(r.value));
    REQUIRE(back.ok);
    CHECK(back.value.inference.vllm.activation_peak_bytes == in.vllm.activation_peak_bytes);
    CHECK(back.value.inference.custom_gpu.bandwidth_gbps == 960);

    auto bad = io::parse_config(R"({"task":"inference","inference":{"contex":8192}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.contex");
    bad = io::parse_config(R"({"task":"inference","inference":{"engine":"tgi"}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.engine");
    bad = io::parse_config(R"({"task":"inference","inference":{"vllm":{"profile_logits":"all"}}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.vllm.profile_logits");
}

TEST_CASE("every preset x engine x format x KV dtype: a plan or a named error, finite figures") {
    const Engine engines[] = {Engine::Vllm, Engine::LlamaCpp, Engine::Hf};
    const char* kv[] = {"auto", "int4"};
    int plans = 0;
    std::string first_bad;  // the first combination that failed, if any
    for (const auto& preset : model_presets()) {
        for (Engine e : engines) {
            for (const auto& f : weight_formats()) {
                for (const char* dtype : kv) {
                    for (int tp : {1, 8}) {
                        Config cfg = serving(preset.id.c_str(), e, f.id, "h100-80gb", 32768, 8);
                        cfg.inference.kv_dtype = dtype;
                        cfg.inference.tp = tp;
                        auto r = make_inference_plan(cfg);
                        const std::string what = preset.id + " " + engine_name(e) + " " + f.id + " " + dtype + " tp " + std::to_string(tp);
                        bool good;
                        if (!r.ok) {
                            good = r.error.field.rfind("inference.", 0) == 0 && !r.error.message.empty();
                        } else {
                            ++plans;
                            const MemoryAt m = memory_at(r.value, 32768, 8);
                            const Speed sp = inference_speed(r.value, 32768, 8, 1024);
                            good = std::isfinite(m.total()) && m.total() > 0 && std::isfinite(r.value.pool) && std::isfinite(sp.step_s) &&
                                   std::isfinite(sp.prefill_s);
                        }
                        if (!good && first_bad.empty()) first_bad = what;
                    }
                }
            }
        }
    }
    CHECK(first_bad == "");
    CHECK(plans > 1000);
}

TEST_CASE("HF generate, GPTQ kernels: ExLlamaV2's scratch, ExLlama's FP16 matrix buffer, Marlin's none") {
    auto activations = [](GptqKernel k) {
        Config cfg = serving("llama-2-7b", Engine::Hf, "gptq-int4", "a100-80gb", 1024);
        cfg.inference.prompt_tokens = 512;
        cfg.inference.hf.gptq_kernel = k;
        return memory_at(plan(cfg), 1024, 1).activations;
    };
    const double marlin = activations(GptqKernel::Marlin);
    // The largest layer is gate/up (4096 -> 11008): temp_dq 4096 x 11008 x 2 B = 90,177,536 and
    // temp_fwd 11008 outputs x 2048 x 8 rows x 4 B = 721,420,288, 128 B of alignment each.
    CHECK(activations(GptqKernel::Exllamav2) - marlin == 90177536.0 + 721420288.0 + 256);
    // ExLlama v1: temp_dq only (qweight.numel() x 8 halves of the largest matrix).
    CHECK(activations(GptqKernel::Exllama) - marlin == 90177536.0);
    // Dequantize-then-matmul kernels hold that matrix in FP16 while it runs.
    CHECK(activations(GptqKernel::Torch) - marlin == 90177536.0);
    // The scratch is sized by max_input_len x max_batch_size (overridable).
    Config cfg = serving("llama-2-7b", Engine::Hf, "gptq-int4", "a100-80gb", 1024);
    cfg.inference.prompt_tokens = 512;
    cfg.inference.constants.exllamav2_max_batch_size = 1;
    cfg.inference.hf.gptq_kernel = GptqKernel::Exllamav2;
    CHECK(memory_at(plan(cfg), 1024, 1).activations - marlin == 90177536.0 + 11008.0 * 2048 * 4 + 256);
}

TEST_CASE("HF generate, GPTQ: the default kernel is transformers' ExLlama v1") {
    Config cfg = serving("llama-2-7b", Engine::Hf, "gptq-int4", "a100-80gb", 1024);
    cfg.inference.prompt_tokens = 512;
    // GPTQConfig.post_init: exllama_config {"version": 1} when the checkpoint names none.
    CHECK(Config{}.inference.hf.gptq_kernel == GptqKernel::Exllama);
    CHECK(plan(cfg).kernel_scratch == 4096.0 * 11008 * 2);
}

TEST_CASE("HF generate, GPTQ with act-order: ExLlama v1's temp_state, max_input_len x the largest dimension in FP16") {
    // AutoGPTQ autogptq_post_init: temp_state = zeros((max_input_len, max_inner_outer_dim), float16)
    // with act-order (desc_act), max_input_len EXLLAMA_DEFAULT_MAX_INPUT_LENGTH = 2048.
    Config cfg = serving("llama-2-13b", Engine::Hf, "gptq-int4", "a100-80gb", 1024);
    cfg.inference.prompt_tokens = 512;
    const double without = plan(cfg).kernel_scratch;
    CHECK(without == 5120.0 * 13824 * 2);  // temp_dq of gate/up, 5120 -> 13824: 141,557,760 B
    cfg.inference.hf.gptq_act_order = true;
    // + 2048 rows x 13824 (the largest in/out dimension) x 2 B = 56,623,104 B (54 MiB).
    CHECK(plan(cfg).kernel_scratch - without == 56623104.0);
    cfg.inference.constants.exllama_max_input_len = 4096;  // exllama_set_max_input_length(model, 4096)
    CHECK(plan(cfg).kernel_scratch - without == 2 * 56623104.0);
    cfg.inference.hf.gptq_kernel = GptqKernel::Marlin;     // the other kernels keep no temp_state
    CHECK(plan(cfg).kernel_scratch == 0);
}

TEST_CASE("HF generate, bitsandbytes: LLM.int8's int8 input copies and int32 accumulator, Linear4bit's FP32 compute copies") {
    // Llama-2-7B, one 512-token prompt. The projections (in, out): q/k/v/o 4096 x 4096, gate/up
    // 4096 -> 11008, down 11008 -> 4096.
    auto acts = [](const char* format, double copies, double out_bytes, double compute) {
        Config cfg = serving("llama-2-7b", Engine::Hf, format, "a100-80gb", 512);
        cfg.inference.prompt_tokens = 512;
        cfg.inference.constants.bnb_int8_input_copies = copies;
        cfg.inference.constants.bnb_int8_output_bytes = out_bytes;
        cfg.inference.hf.bnb_compute_bytes = compute;
        return memory_at(plan(cfg), 512, 1).activations;
    };
    const double none = acts("bnb-int8", 0, 0, 4);
    // bitsandbytes >= 0.45: CA (1 B per input) + int32 out32 (4 B per output); gate/up is the most:
    // 4096 + 4 x 11008 = 48,128 B per token.
    CHECK(acts("bnb-int8", 1, 4, 4) - none == 512.0 * 48128);
    // <= 0.44: CA, CAt and the col32 copy (3 B) + out32 and the output's clone (6 B): 12,288 + 66,048.
    CHECK(acts("bnb-int8", 3, 6, 4) - none == 512.0 * 78336);
    // NF4 with the default FP32 compute dtype: the input cast to FP32 and the FP32 matmul output,
    // (4096 + 11008) x 4 = 60,416 B per token, beside the FP32 copy of the dequantized matrix.
    Config cfg = serving("llama-2-7b", Engine::Hf, "bnb-nf4", "a100-80gb", 512);
    const double largest = plan(cfg).weights.largest_matrix;
    CHECK(acts("bnb-nf4", 0, 0, 4) - acts("bnb-nf4", 0, 0, 2) == Approx(largest * 4 + 512.0 * 60416));
}

TEST_CASE("HF generate, LitGPT's --quantize bnb.*: the LM head quantized, FP16 dequantization, LLM.int8 re-quantized on load") {
    // Llama-2-7B (head 32,000 x 4,096 = 131,072,000 weights apart from the embedding), one 6-token
    // prompt + 50 new tokens, compute dtype BF16 (LitGPT's bf16-true).
    auto cfg_of = [](const char* format, bool litgpt) {
        Config cfg = serving("llama-2-7b", Engine::Hf, format, "a100-40gb", 56);
        cfg.inference.prompt_tokens = 6;
        cfg.inference.hf.bnb_compute_bytes = 2;
        cfg.inference.hf.litgpt_quantize = litgpt;
        return cfg;
    };
    const double head = 32000.0 * 4096;
    const InferencePlan hf = plan(cfg_of("bnb-nf4", false)), lit = plan(cfg_of("bnb-nf4", true));
    // The head in NF4 with an FP32 absmax per 64 weights: 4.5 bits, 73,728,000 B instead of 2 B a
    // weight (262,144,000 B); the token embedding stays 16-bit in both.
    CHECK(hf.weights.output == head * 2);
    CHECK(lit.weights.output == head * 4.5 / 8);
    CHECK(lit.weights.total == Approx(hf.weights.total - head * 2 + head * 4.5 / 8));
    CHECK(lit.weights.embedding == hf.weights.embedding);
    // transformers dequantizes the largest 4-bit matrix, the MLP's 4,096 x 11,008, once to BF16:
    // 90,177,536 B. LitGPT's largest is its quantized head, dequantized to FP16 (Lightning quantizes
    // from torch.half) and copied to BF16: 131,072,000 x (2 + 2) = 524,288,000 B.
    CHECK(hf.dequant_bytes == 4096.0 * 11008 * 2);
    CHECK(lit.dequant_bytes == head * 4);
    CHECK(memory_at(lit, 56, 1).activations - memory_at(hf, 56, 1).activations == Approx(head * 4 - 4096.0 * 11008 * 2));
    // LLM.int8 under LitGPT: the head in int8 too, and while the checkpoint loads, the head's FP16
    // copy and double_quant's two int8 layouts beside the init's int8 head: 131,072,000 x (2 + 1 + 1)
    // = 524,288,000 B, above a 6-token prefill (the head's col_ampere copy, 131 MB, and small terms).
    const InferencePlan lit8 = plan(cfg_of("bnb-int8", true)), hf8 = plan(cfg_of("bnb-int8", false));
    CHECK(lit8.load_transient == head * 4);
    CHECK(hf8.load_transient == 0);
    CHECK(memory_at(lit8, 56, 1).activations == head * 4);
    // A 16-bit format, or a model without a separate head, is unchanged by the setting.
    CHECK(plan(cfg_of("bf16", true)).weights.total == plan(cfg_of("bf16", false)).weights.total);
    Config tied = serving("llama-3.2-1b", Engine::Hf, "bnb-nf4", "a100-40gb", 56);
    const double tied_total = plan(tied).weights.total;
    tied.inference.hf.litgpt_quantize = true;
    CHECK(plan(tied).weights.total == tied_total);
}

TEST_CASE("Caching allocator replay: PyTorch's size classes, best fit, splitting, merging, release on a failed cudaMalloc") {
    const std::uint64_t MiB = 1u << 20;
    CachingAllocatorSim a(CachingAllocatorRules{});
    // 1 MiB and less: the small pool (not replayed).
    CHECK(a.malloc(MiB) == -1);
    // Under 10 MiB: a 20 MiB segment, split; the second 5 MiB request takes the rest of it.
    const auto x = a.malloc(5 * MiB), y = a.malloc(5 * MiB);
    CHECK(a.reserved == 20 * MiB);
    CHECK(a.allocated == 10 * MiB);
    // 10 MiB and more: a segment of its own, the request rounded to 512 B and the segment to 2 MiB.
    const auto z = a.malloc(11 * MiB + 1);
    CHECK(a.reserved == 32 * MiB);
    // 1 MiB - 512 B would remain: no split, the block is the whole 12 MiB segment.
    CHECK(a.allocated == 22 * MiB);
    // Freed blocks merge within their segment: 15 MiB fits the first segment again, no new segment.
    a.free(x), a.free(y);
    const auto w = a.malloc(15 * MiB);
    CHECK(a.reserved == 32 * MiB);
    // A block left with 1 MiB or less is not split: 19.5 MiB takes the whole 20 MiB segment.
    a.free(w);
    a.malloc(19 * MiB + MiB / 2);
    CHECK(a.allocated == 32 * MiB);
    // The 12 MiB segment is free but too small for 14 MiB; with 40 MiB for segments, cudaMalloc
    // would fail (32 + 14), so the free unsplit segment is released first: 20 + 14 reserved.
    a.free(z);
    CachingAllocatorRules limited;
    limited.limit = 40 * MiB;
    CachingAllocatorSim b(limited);
    const auto big = b.malloc(20 * MiB);
    const auto twelve = b.malloc(12 * MiB);
    b.free(twelve);
    b.malloc(14 * MiB);
    CHECK(b.releases == 1);
    CHECK(b.reserved == 34 * MiB);
    CHECK(b.peak_reserved == 34 * MiB);
    CHECK_FALSE(b.oom);
    b.free(big);
}

TEST_CASE("Caching allocator replay: tensors grown by torch.cat strand one segment of their size per 2 MiB") {
    // scripts/alloc_replay.py cache_only: 80 tensors growing 80 -> 160 MiB in 160 KiB steps leave
    // 4,818 MiB each reserved beyond the peak allocated; the continuous sum (160^2 - 80^2) / (2 x 2)
    // is 4,800 MiB.
    const std::uint64_t MiB = 1u << 20;
    CachingAllocatorSim a(CachingAllocatorRules{});
    std::vector<std::int64_t> live(80);
    for (auto& t : live) t = a.malloc(80 * MiB);
    for (int step = 1; step <= 512; ++step)
        for (auto& t : live) {
            const auto grown = a.malloc(80 * MiB + step * 160 * 1024);
            a.free(t);
            t = grown;
        }
    CHECK((a.peak_reserved - a.peak_allocated) / 80.0 / MiB == Approx(4818).margin(1));
}

TEST_CASE("HF generate: the caching allocator replay of DynamicCache growth (nvidia-smi while decoding)") {
    // Llama-2-13B FP16, 512-token prompts, 1,024 tokens: scripts/alloc_replay.py's generate() replays
    // the same tensors and reads 0.17 / 2.11 / 9.03 GiB reserved beyond the peak at batch 1 / 2 / 4.
    auto replay = [](int n, double limit) {
        Config cfg = serving("llama-2-13b", Engine::Hf, "fp16", "a100-80gb", 1024, n);
        cfg.inference.prompt_tokens = 512;
        return hf_allocator_replay(plan(cfg), 1024, n, limit);
    };
    const double GiB = 1073741824.0;
    auto stranded = [&](int n) {
        const HfAllocatorReplay r = replay(n, 0);
        return (r.peak_reserved - r.peak_allocated) / GiB;
    };
    CHECK(stranded(1) == Approx(0.17).margin(0.005));
    CHECK(stranded(2) == Approx(2.11).margin(0.005));
    CHECK(stranded(4) == Approx(9.03).margin(0.005));
    // The peak allocated is the cache at 1,024 tokens plus the prefill's largest moment: batch 4,
    // 80 x 4 x 1,024 x 40 x 128 x 2 B = 3.125 GiB of cache.
    CHECK(replay(4, 0).peak_allocated / GiB == Approx(3.16).margin(0.005));
    // Batch 16 with 53 GiB for the allocator: cudaMalloc fails, the cache is released and fills
    // again; the peak is the limit (within one segment), the mean over the steps lower.
    const HfAllocatorReplay full = replay(16, 53 * GiB);
    CHECK(full.releases >= 1);
    CHECK(full.peak_reserved <= 53 * GiB);
    CHECK(full.peak_reserved > 52.5 * GiB);
    CHECK(full.mean_reserved < full.peak_reserved);
    CHECK_FALSE(replay(16, 0).releases);

    Config cfg = serving("llama-2-13b", Engine::Hf, "fp16", "a100-80gb", 1024, 4);
    cfg.inference.prompt_tokens = 512;
    const auto e = inference_estimate(cfg);
    REQUIRE(e.ok);
    REQUIRE(e.value.metric("reserved_decoding_bytes"));
    // Batch 4 fits with room: nvidia-smi reads the total plus the 9.03 GiB.
    CHECK(e.value.metric("reserved_decoding_bytes")->value == Approx(e.value.total_bytes + stranded(4) * GiB).margin(0.01 * GiB));
    CHECK(e.value.metric("allocator_releases")->value == 0);
    // Batch 16 on the 80 GB card: the card, and the mean over the steps below it.
    cfg.inference.concurrency = 16;
    const auto e16 = inference_estimate(cfg);
    REQUIRE(e16.ok);
    CHECK(e16.value.metric("allocator_releases")->value >= 1);
    CHECK(e16.value.metric("reserved_decoding_bytes")->value <= find_gpu("a100-80gb")->memory_bytes);
    CHECK(e16.value.metric("reserved_decoding_bytes")->value > find_gpu("a100-80gb")->memory_bytes - 0.5 * GiB);
    CHECK(e16.value.metric("reserved_decoding_mean_bytes")->value < e16.value.metric("reserved_decoding_bytes")->value);
    CHECK(e16.value.total_bytes < find_gpu("a100-80gb")->memory_bytes);
    // A decode that does not grow keeps nothing: no metric. Nor without a GPU to bound the reading.
    cfg.inference.prompt_tokens = 1024;
    CHECK_FALSE(inference_estimate(cfg).value.metric("reserved_decoding_bytes"));
    cfg.inference.prompt_tokens = 512;
    cfg.gpu_id.clear();
    const auto none = inference_estimate(cfg);
    REQUIRE(none.ok);
    CHECK_FALSE(none.value.metric("reserved_decoding_bytes"));
}

TEST_CASE("HF generate, transformers < 4.42: two copies of the cache while decoding, the prompt's FP32 logits in step two") {
    // Llama-2-13B BF16, 16 sequences, 1,000-token prompts, 1,024 tokens in all, SDPA.
    Config cfg = serving("llama-2-13b", Engine::Hf, "bf16", "a100-80gb", 1024);
    cfg.inference.prompt_tokens = 1000;
    const MemoryAt now = memory_at(plan(cfg), 1024, 16);
    cfg.inference.hf.legacy_cache = true;
    const MemoryAt old = memory_at(plan(cfg), 1024, 16);
    // KV per token 2 x 40 layers x 40 heads x 128 x 2 B = 819,200 B: 16 x 1024 tokens = 13.42 GB.
    const double kv = 16.0 * 1024 * 819200;
    CHECK(now.kv == kv);
    CHECK(old.kv == kv);
    // Step two: the prefill's cache twice (2 x 16 x 1000 x 819,200 B) and the prompt's FP32 logits
    // (16 x 1000 x 32,000 x 4 B), with the KV component carrying one full-length copy.
    const double second_step = 2 * 16.0 * 1000 * 819200 + 16.0 * 1000 * 32000 * 4 - kv;
    // The last step: the whole cache twice, plus the last token's logits (BF16 + FP32).
    const double last_step = kv + 16.0 * 32000 * 6;
    CHECK(old.activations == Approx(std::max(second_step, last_step)));
    CHECK(old.activations > now.activations);
    // Batch 1 costs far less: one 1,024-token cache.
    CHECK(memory_at(plan(cfg), 1024, 1).activations == Approx(std::max(2 * 1000.0 * 819200 + 1000.0 * 32000 * 4 - 1024.0 * 819200,
                                                                        1024.0 * 819200 + 32000.0 * 6)));
}

TEST_CASE("HF generate with one new token runs the prefill alone (optimum's GPTQ benchmark --prefill)") {
    // Llama-2-13B FP16, 16 sequences of 512 prompt tokens, max_new_tokens 1 (context 513), SDPA,
    // transformers 4.32 (two cache copies while decoding, the prompt's logits in full).
    Config cfg = serving("llama-2-13b", Engine::Hf, "fp16", "a100-80gb", 513);
    cfg.inference.prompt_tokens = 512;
    cfg.inference.hf.legacy_cache = true;
    cfg.inference.hf.full_logits = true;
    // The prefill by hand: hidden states and a normed copy 2 x 16 x 512 x 5120 x 2 B = 167,772,160;
    // the largest transient, the prompt's logits in FP16 and FP32, 16 x 512 x 32,000 x (2 + 4) B =
    // 1,572,864,000 (above the MLP's 16 x 512 x 13,824 x 2 B x 3 = 679,477,248); one layer's cache
    // torch.cat, 16 x 513 x 819,200 B / 80 = 84,049,920. No decode step: no second cache copy.
    const double prefill = 167772160.0 + 1572864000.0 + 84049920.0;
    CHECK(memory_at(plan(cfg), 513, 16).activations == Approx(prefill));
    cfg.inference.hf.legacy_cache = false;
    CHECK(memory_at(plan(cfg), 513, 16).activations == Approx(prefill));
    // Two new tokens: one decode step holds the 512-token cache twice and the prompt's FP32 logits.
    cfg.inference.hf.legacy_cache = true;
    const double second_step = 2 * 16.0 * 512 * 819200 + 16.0 * 512 * 32000 * 4 - 16.0 * 514 * 819200;
    CHECK(memory_at(plan(cfg), 514, 16).activations == Approx(second_step));
    // Without a prompt length the context is the prefill and the decode bound stays (unchanged).
    cfg.inference.prompt_tokens = 0;
    CHECK(memory_at(plan(cfg), 513, 16).activations > prefill);
}

TEST_CASE("CUDA context: lazy module loading and what rules it out (one model for training and serving)") {
    // NVIDIA's Lazy Loading requirements: CUDA runtime >= 11.7, driver >= 515; LAZY when the
    // environment says so, when PyTorch >= 1.13 sets it, or by the driver's default from CUDA 12.2.
    ModuleLoading m;
    CHECK(lazy_loading_in_effect(m));  // nothing known: PyTorch >= 1.13 on a new enough stack
    m.cuda_runtime = 1106;
    CHECK_FALSE(lazy_loading_in_effect(m));  // a cu116 wheel
    m = ModuleLoading{};
    m.driver = 470;
    CHECK_FALSE(lazy_loading_in_effect(m));  // R470 runs cu117 wheels (minor-version compatibility) but cannot load lazily
    m.driver = 525;
    CHECK(lazy_loading_in_effect(m));
    m.framework_sets_lazy = false;  // PyTorch 1.12 sets nothing; R525 defaults to eager
    CHECK_FALSE(lazy_loading_in_effect(m));
    m.driver = 535;  // the CUDA 12.2 driver: LAZY by default
    CHECK(lazy_loading_in_effect(m));
    m.env = -1;  // CUDA_MODULE_LOADING=EAGER wins
    CHECK_FALSE(lazy_loading_in_effect(m));

    // HF generate on an A100: the runtime component is the lazy context (0.5 GiB, the A100 reading)
    // or, with inference.hf.lazy_loading false, the eager one (1343 MiB on a V100, calibration row
    // C07, plus the A100's 28 more SMs x 2048 threads x 1986 B = 113,885,184 B of local memory,
    // core/catalog/cuda_context.hpp); the config field reads and both constants stay overridable.
    auto r = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"gpu":"a100-80gb",
        "inference":{"engine":"hf","weights":"bf16","context":1024,"hf":{"lazy_loading":false}}})");
    REQUIRE(r.ok);
    CHECK_FALSE(r.value.inference.hf.lazy_loading);
    auto eager = estimate(r.value);
    REQUIRE(eager.ok);
    CHECK(eager.value.component("runtime")->bytes == 1343.0 * 1048576 + 113885184);
    Config cfg = r.value;
    cfg.inference.hf.lazy_loading = true;
    auto lazy = estimate(cfg);
    REQUIRE(lazy.ok);
    CHECK(lazy.value.component("runtime")->bytes == 512.0 * 1048576);
    CHECK(eager.value.total_bytes - lazy.value.total_bytes == 831.0 * 1048576 + 113885184);
    cfg.inference.hf.lazy_loading = false;
    cfg.inference.constants.cuda_context_eager_bytes = gib_to_bytes(1.0);
    CHECK(estimate(cfg).value.component("runtime")->bytes == gib_to_bytes(1.0));
    auto back = io::config_from_json(io::config_to_json(r.value));
    REQUIRE(back.ok);
    CHECK_FALSE(back.value.inference.hf.lazy_loading);
}

TEST_CASE("HF generate, multi-query models under SDPA: the math fallback materializes the scores") {
    auto activations = [](const char* preset, HfAttention a) {
        Config cfg = serving(preset, Engine::Hf, "bnb-nf4", "a100-80gb", 1024);
        cfg.inference.prompt_tokens = 512;
        cfg.inference.hf.attention = a;
        return memory_at(plan(cfg), 1024, 4).activations;
    };
    // Falcon-7B (71 query heads, one K/V head), 4 x 512-token prompts: QK^T and its softmax in FP16,
    // 2 x 4 x 71 x 512^2 x 2 B = 297,795,584 B, replace the MLP's 4 x 512 x 18,176 x 2 x 2 B =
    // 148,897,792 B as the largest prefill term; FlashAttention-2 takes the one head natively.
    CHECK(activations("falcon-7b", HfAttention::Sdpa) - activations("falcon-7b", HfAttention::Flash) == 297795584.0 - 148897792.0);
    // Gemma's one-head presets repeat K/V to every head (repeat_kv) and keep the fused kernels.
    CHECK(activations("gemma-2b", HfAttention::Sdpa) == activations("gemma-2b", HfAttention::Flash));
}

TEST_CASE("HF generate, one KV head: only the GPTBigCode and Falcon classes attend on it as it is", "[mqa]") {
    // The last decode step at 8,192 tokens, 4 sequences of 64-token prompts, BF16, SDPA.
    auto decode = [](const char* preset, int kv_heads) {
        Config cfg = serving(preset, Engine::Hf, "bf16", "a100-80gb", 8192, 4);
        cfg.model.kv_heads = kv_heads;
        cfg.inference.prompt_tokens = 64;
        cfg.inference.hf.attention = HfAttention::Sdpa;
        return memory_at(plan(cfg), 8192, 4).activations;
    };
    // A Llama-3-8B with one KV head (a Llama-style class: repeat_kv) holds K and V expanded to its
    // 32 query heads, 2 x 4 x 32 x 8,192 x 128 x 2 B = 536,870,912 B, more than its prefill (hidden
    // states 4 x 64 x 4,096 x 2 x 2 B, the MLP 4 x 64 x 14,336 x 3 x 2 B, one layer's torch.cat
    // 4 x 8,192 x 512 B: about 35 MB). The rule reads the class (family), not the head count.
    CHECK(decode("llama-3-8b", 1) == 536870912.0);
    CHECK(decode("gemma-2b", 1) == 2.0 * 4 * 8 * 8192 * 256 * 2);  // Gemma 2B: 8 heads of 256
    // Falcon-7B attends on its one head: no copies, so its decode step is below the prefill's
    // MLP alone (4 x 64 x 18,176 x 2 x 2 B = 18,612,224 B, GELU: two tensors).
    CHECK(decode("falcon-7b", 1) < 2.0 * 4 * 64 * 4544 * 2 + 18612224.0 + 4.0 * 8192 * 32 * 256 / 64 + 1e6);
}

TEST_CASE("HF generate, gpt-oss: no SDPA path in transformers, so the default runs eager with the sink column", "[attention]") {
    auto run = [](HfAttention a, int n, int prompt, int context) {
        Config cfg = serving("gpt-oss-20b", Engine::Hf, "bf16", "h100-80gb", context, n);
        cfg.inference.prompt_tokens = prompt;
        cfg.inference.hf.attention = a;
        return cfg;
    };
    // gpt-oss-20b (64 query heads, 8 K/V heads, head_dim 64, hidden 2,880), 2 x 4,096-token prompts
    // to 8,192. eager_attention_forward keeps QK^T, the cat with the sink column and the row-max
    // shifted copy, then the softmax in the dtype: three BF16 tensors, two one column wider,
    // 2 x 64 x 4,096 x (3 x 4,096 + 2) x 2 B = 12,886,999,040 B; repeat_kv's prefill copies
    // 2 x 2 x 64 x 4,096 x 64 x 2 B = 134,217,728 B; hidden states 2 x 2 x 4,096 x 2,880 x 2 B =
    // 94,371,840 B; one layer's keys at 8,192 tokens while torch.cat grows them: 8,519,680 B.
    const double eager = 94371840.0 + 12886999040.0 + 134217728.0 + 8519680.0;
    CHECK(memory_at(plan(run(HfAttention::Eager, 2, 4096, 8192)), 8192, 2).activations == eager);
    // hf.attention sdpa (transformers' default attn_implementation) falls back to eager: the same,
    // where SDPA's q, k, v (2 x 4,096 x (64 + 16) x 64 x 2 B = 83,886,080 B) would have stood.
    CHECK(memory_at(plan(run(HfAttention::Sdpa, 2, 4096, 8192)), 8192, 2).activations == eager);
    auto e = estimate(run(HfAttention::Sdpa, 2, 4096, 8192));
    REQUIRE(e.ok);
    bool noted = false;
    for (const auto& note : e.value.notes) noted |= note.find("gpt-oss has no SDPA path in transformers") != std::string::npos;
    CHECK(noted);
    CHECK(e.value.component("activations")->formula.find("eager attention scores") != std::string::npos);
    // Decoding, its full-attention layers (every other one) attend over the whole cache while the
    // 128-token windowed ones keep 128: 1 x 64 tokens to 8,192, the last step's copies at 8,192,
    // 2 x 64 x 8,192 x 64 x 2 B = 134,217,728 B, and one query row's scores, 64 x (3 x 8,192 + 2) x 2 B
    // = 3,145,984 B.
    CHECK(memory_at(plan(run(HfAttention::Sdpa, 1, 64, 8192)), 8192, 1).activations == 134217728.0 + 3145984.0);
    // Mistral-7B v0.1 windows every layer (4,096 tokens): eager's last decode row at 16,384 tokens
    // attends over the 4,096 its cache keeps, 32 x 4,096 x (2 + 4 + 2) B = 1,048,576 B, beside the
    // copies 2 x 32 x 4,096 x 128 x 2 B = 67,108,864 B.
    Config mistral = serving("mistral-7b-v0.1", Engine::Hf, "bf16", "a100-80gb", 16384, 1);
    mistral.inference.prompt_tokens = 64;
    mistral.inference.hf.attention = HfAttention::Eager;
    CHECK(memory_at(plan(mistral), 16384, 1).activations == 67108864.0 + 1048576.0);
}

TEST_CASE("HF generate, GQA models: repeat_kv's copies of K and V in eager and SDPA attention") {
    auto activations = [](const char* preset, HfAttention a, int n, int prompt, int context, bool enable_gqa = false) {
        Config cfg = serving(preset, Engine::Hf, "bf16", "a100-80gb", context, n);
        cfg.inference.prompt_tokens = prompt;
        cfg.inference.hf.attention = a;
        cfg.inference.hf.sdpa_enable_gqa = enable_gqa;
        return memory_at(plan(cfg), context, n).activations;
    };
    // Llama-3.1-8B (32 query heads, 8 K/V heads, head_dim 128), 8 x 64-token prompts to 4,096: the
    // last step's attention expands the layer's K and V to every query head,
    // 2 x 8 x 32 x 4,096 x 128 x 2 B = 536,870,912 B (536.9 MB), and eager adds the one query row's
    // scores, its FP32 softmax and probabilities, 8 x 32 x 4,096 x (2 + 4 + 2) B = 8,388,608 B. The
    // prefill is smaller: 2 x 8 x 64 x 4,096 x 2 B of hidden states + the gated MLP's
    // 8 x 64 x 14,336 x 2 x 3 B + one layer's keys at 4,096 tokens, 8 x 4,096 x 8 x 128 x 2 B
    // = 8,388,608 + 44,040,192 + 67,108,864 = 119,537,664 B.
    CHECK(activations("llama-3.1-8b", HfAttention::Eager, 8, 64, 4096) == 536870912.0 + 8388608.0);
    CHECK(activations("llama-3.1-8b", HfAttention::Sdpa, 8, 64, 4096) == 536870912.0);
    // SDPA with enable_gqa (transformers >= 4.54, PyTorch >= 2.5, no mask) and FlashAttention-2 take
    // the 8 heads as they are: the prefill is the largest step.
    CHECK(activations("llama-3.1-8b", HfAttention::Sdpa, 8, 64, 4096, true) == 119537664.0);
    CHECK(activations("llama-3.1-8b", HfAttention::Flash, 8, 64, 4096) == 119537664.0);
    // A 4,096-token prompt at batch 1 under eager: the prefill's expanded K and V,
    // 2 x 32 x 4,096 x 128 x 2 B = 67,108,864 B, beside the scores 32 x 4,096^2 x 8 B =
    // 4,294,967,296 B; with the hidden states 2 x 4,096 x 4,096 x 2 B = 67,108,864 B and one layer's
    // keys 4,096 x 2,048 B = 8,388,608 B.
    CHECK(activations("llama-3.1-8b", HfAttention::Eager, 1, 4096, 4096) == 67108864.0 + 4294967296.0 + 67108864.0 + 8388608.0);
    // Gemma's one-K/V-head class repeats too: 2 x 8 x 8 x 4,096 x 256 x 2 B = 268,435,456 B.
    CHECK(activations("gemma-2b", HfAttention::Sdpa, 8, 64, 4096) == 268435456.0);
    // Mistral-7B v0.1 keeps a 4,096-token sliding window: at 8,192 tokens its copies stay at 4,096,
    // 2 x 8 x 32 x 4,096 x 128 x 2 B = 536,870,912 B.
    CHECK(activations("mistral-7b-v0.1", HfAttention::Sdpa, 8, 64, 8192) == 536870912.0);
    // Falcon's multi-query class attends on its one head: eager keeps the prefill, 2 x 8 x 64 x
    // 4,544 x 2 B + the GELU MLP's 8 x 64 x 18,176 x 2 x 2 B + one layer's keys 8 x 4,096 x 64 x 2 B
    // = 9,306,112 + 37,224,448 + 4,194,304 B (its would-be copies: 595 MB).
    CHECK(activations("falcon-7b", HfAttention::Eager, 8, 64, 4096) == 9306112.0 + 37224448.0 + 4194304.0);

    // The allocator replay: Llama-3.1-8B, 8 x 64 tokens to 1,024. At the last layer of the last step
    // the cache holds 64 tensors of 8 x 1,024 x 8 x 128 x 2 B = 16 MiB (1 GiB) beside the two copies,
    // 2 x 8 x 32 x 1,024 x 128 x 2 B = 128 MiB (within 1 MiB: a cached block that would leave
    // 1 MiB or less is handed out whole and counted, should_split); enable_gqa leaves the cache and
    // one grown tensor.
    auto replay = [](bool enable_gqa, int context = 1024) {
        Config cfg = serving("llama-3.1-8b", Engine::Hf, "bf16", "a100-80gb", context, 8);
        cfg.inference.prompt_tokens = 64;
        cfg.inference.hf.sdpa_enable_gqa = enable_gqa;
        return hf_allocator_replay(plan(cfg), context, 8, 0);
    };
    const HfAllocatorReplay copies = replay(false), none = replay(true);
    CHECK(copies.peak_allocated == Approx(1073741824.0 + 134217728.0).margin(1048576.0));
    CHECK(none.peak_allocated < copies.peak_allocated - 100e6);
    // The copies' blocks grow with the cache and strand segments of their own: scripts/alloc_replay.py
    // (the same tensors, steps of 8 tokens) reads 1.18 GiB reserved beyond the peak with the copies
    // and 0.93 GiB without.
    CHECK((copies.peak_reserved - copies.peak_allocated) / 1073741824.0 == Approx(1.18).margin(0.005));
    CHECK((none.peak_reserved - none.peak_allocated) / 1073741824.0 == Approx(0.93).margin(0.005));
    // To 4,096 tokens (steps of 32) the copies' freed blocks serve the cache's growth: the script
    // reads 27.98 GiB with them and 59.15 GiB without.
    const HfAllocatorReplay long_copies = replay(false, 4096), long_none = replay(true, 4096);
    CHECK((long_copies.peak_reserved - long_copies.peak_allocated) / 1073741824.0 == Approx(27.98).margin(0.005));
    CHECK((long_none.peak_reserved - long_none.peak_allocated) / 1073741824.0 == Approx(59.15).margin(0.005));

    // The field: read from JSON, written back, off by default (the copies: older transformers or
    // PyTorch, or a padding mask).
    auto r = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"a100-80gb",
        "inference":{"engine":"hf","weights":"bf16","context":1024,"hf":{"sdpa_enable_gqa":true}}})");
    REQUIRE(r.ok);
    CHECK(r.value.inference.hf.sdpa_enable_gqa);
    auto back = io::config_from_json(io::config_to_json(r.value));
    REQUIRE(back.ok);
    CHECK(back.value.inference.hf.sdpa_enable_gqa);
    CHECK_FALSE(Config{}.inference.hf.sdpa_enable_gqa);
}

TEST_CASE("a plan points to its catalog GPU and keeps its own copy of a custom one, past the config") {
    // Catalog: the plan's GPU is the catalog's entry itself (no copy of its strings, issue 15).
    const Config h100 = vc::test::serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 8192);
    const InferencePlan on_h100 = plan(h100);
    REQUIRE(on_h100.has_gpu);
    CHECK(on_h100.gpu.get() == find_gpu("h100-80gb"));
    // Custom: a copy the plan owns, which a copy or a move of the plan carries with it, and which
    // the config's own struct can go away before.
    InferencePlan copied, moved;
    {
        Config c = h100;
        c.inference.has_custom_gpu = true;
        c.inference.custom_gpu.id = "custom";
        c.inference.custom_gpu.name = "My 48 GB card";
        c.inference.custom_gpu.memory_bytes = 48 * kBytesPerGiB;
        c.inference.custom_gpu.bandwidth_gbps = 960;
        InferencePlan p = plan(c);
        REQUIRE(p.has_gpu);
        CHECK(p.gpu.get() != &c.inference.custom_gpu);
        copied = p;
        moved = std::move(p);
        c.inference.custom_gpu.name = "renamed";
    }
    for (const InferencePlan* p : {&copied, &moved}) {
        CHECK(p->gpu->name == "My 48 GB card");
        CHECK(p->gpu->memory_bytes == 48 * kBytesPerGiB);  // 51,539,607,552 B
        CHECK(p->gpu.get() != find_gpu("h100-80gb"));
    }
    CHECK(copied.gpu.get() != moved.gpu.get());  // each plan its own copy
    // Set back on a catalog GPU, a plan points to the catalog again.
    copied = on_h100;
    CHECK(copied.gpu.get() == find_gpu("h100-80gb"));
}

TEST_CASE("vLLM refuses a max_model_len above the model's derived window unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (inference.vllm.allow_long_max_model_len)") {
    // Qwen3-8B's config.json: max_position_embeddings 40,960, no rope_scaling, so vLLM derives 40,960
    // (vllm/config/model.py _get_and_verify_max_len) and raises at 65,536.
    Config cfg = serving("qwen3-8b", Engine::Vllm, "bf16", "h100-80gb", 65536);
    auto refused = make_inference_plan(cfg);
    REQUIRE_FALSE(refused.ok);
    CHECK(refused.error.field == "inference.context");
    CHECK(refused.error.message ==
          "inference.context (vLLM's max_model_len) 65,536 is above the model's window of 40,960 tokens (model.context_limit, max_position_embeddings "
          "in its config.json): vLLM refuses it at start-up; lower it, correct model.context_limit, or set inference.vllm.allow_long_max_model_len "
          "(VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; vLLM says with extreme caution: past the window RoPE positions give not-a-number values)");
    CHECK(solve(cfg, "max_concurrency").error.field == "inference.context");
    // At the window it runs.
    Config at_window = cfg;
    at_window.inference.context = 40960;
    CHECK(make_inference_plan(at_window).ok);
    // The variable set: computed (36 layers x 8 KV heads x 128 x 2 x 2 B = 147,456 B a token, 65,536 x
    // that per sequence) and the launch command carries it.
    Config allowed = cfg;
    allowed.inference.vllm.allow_long_max_model_len = true;
    auto e = estimate(allowed);
    REQUIRE(e.ok);
    CHECK(e.value.metric("kv_bytes_per_sequence")->value == 65536.0 * 147456);
    CHECK(e.value.launch_command.rfind("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve qwen3-8b --max-model-len 65536 ", 0) == 0);
    // The checkpoint's own window: DeepSeek-R1-0528-Qwen3-8B's config.json says 131,072, the calibration
    // rows X17-X19's model.context_limit: no refusal, no variable.
    Config own = cfg;
    own.model.context_limit = 131072;
    auto o = estimate(own);
    REQUIRE(o.ok);
    CHECK(o.value.launch_command.rfind("vllm serve qwen3-8b --max-model-len 65536 ", 0) == 0);
    // Other engines keep computing past the window with a note (llama.cpp and transformers run it).
    Config hf = serving("qwen3-8b", Engine::Hf, "bf16", "h100-80gb", 65536);
    CHECK(estimate(hf).ok);
}
