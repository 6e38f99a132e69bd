// SGLang as a serving engine (core/serve/sglang.hpp): its default mem_fraction_static, the KV pool it
// sizes at start-up, max_running_requests, the refusal, the answers and the launch command, each
// number worked by hand from SGLang's source (docs/inference.md, "SGLang").
#include <catch.hpp>

#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/serve/inference.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/solve.hpp"
#include "inference_helpers.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;
using vc::io::config_to_json;
using vc::io::parse_config;

namespace {

const double kGiB = 1073741824.0, kMiB = 1048576.0;

// The CUDA context as a round figure, so the free memory is worked by hand (the model's own context is
// tested in test_cuda_context.cpp).
Config sglang(const char* preset, const char* weights, const char* gpu, int context, int n = 1) {
    Config cfg = serving(preset, Engine::Sglang, weights, gpu, context, n);
    cfg.inference.constants.cuda_context_bytes = 0.5 * kGiB;
    return cfg;
}

bool has_note(const Estimate& e, const std::string& text) {
    for (const auto& n : e.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

// Whether the estimate of `cfg` says `text` in a note (the estimate must succeed).
bool estimate_says(const Config& cfg, const std::string& text) {
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    return has_note(e.value, text);
}

// The answer's value (the question must be answered).
double answer_of(const Config& cfg, const char* question) {
    auto a = solve(cfg, question);
    INFO(a.error.field << ": " << a.error.message);
    REQUIRE(a.ok);
    return a.value.value;
}

}  // namespace

TEST_CASE("SGLang, Llama-3.1-8B BF16 on one H100 80GB at SGLang's own mem_fraction_static", "[sglang]") {
    const Config cfg = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192);
    const InferencePlan p = plan(cfg);
    const SglangMemory& s = p.sglang;
    // gpu_mem = nvidia-smi's 81,559 MiB: below 90 GiB (92,160 MiB), so chunked_prefill_size 8192 and the
    // decode graphs' max_bs 256 (tp < 4). Prefill graphs up to 8192 tokens: 8 + 14 + 8 + 8 + 12 + 8 = 58 sizes.
    CHECK(s.gpu_mem_mib == 81559);
    CHECK(s.chunked_prefill_size == 8192);
    CHECK(s.cuda_graph_max_bs == 256);
    CHECK(s.prefill_graph_sizes == 58);
    // reserved_mem = 512 + 8192 x 1.5 + 1 x 1 / 8 x 1024 + 256 x 2 + 58 x 8 = 512 + 12,288 + 128 + 512 + 464
    // = 13,904 MiB (above the 10,240 floor); round((81,559 - 13,904) / 81,559, 3) = round(0.82952, 3) = 0.83.
    CHECK(s.reserved_mib == 13904);
    CHECK(s.mem_fraction_static == Approx(0.83));
    // Free after start-up: 81,559 MiB = 85,520,809,984 B less the driver's 0.47 GiB (504,658,247.68 B)
    // and the CUDA context 0.5 GiB (536,870,912 B) = 84,479,280,824.32 B.
    CHECK(s.total_free == Approx(85520809984.0 - 0.47 * kGiB - 0.5 * kGiB));
    CHECK(s.total_free == Approx(84479280824.32).margin(1));
    // The static part: 0.83 x 84,479,280,824.32 = 70,117,803,084.19 B. Weights 16,060,522,496 B
    // (8,030,261,248 x 2 B) + the RoPE table 131,072 x 128 x 2 B = 33,554,432 B: 16,094,076,928 B.
    CHECK(p.weights.per_gpu == 16060522496.0);
    CHECK(p.weights_gpu == 16094076928.0);
    CHECK(p.budget == Approx(70117803084.19).margin(1));
    // rest 54,023,726,156.19 B / (8 KV heads x 128 x 32 layers x 2 x 2 B = 131,072 B) = 412,168.32:
    // 412,168 tokens (page_size 1), a pool of 412,168 x 131,072 = 54,023,716,864 B.
    CHECK(p.kv.bytes_per_token == 131072);
    CHECK(s.max_total_tokens == 412168);
    CHECK(p.pool == 412168.0 * 131072);
    // max_running_requests at --context-length 8192: req_to_token rows min(max(int(412,168 / 8192 x 512)
    // = 25,760, 2048), 4096) = 4096; min(412,168 // 2 = 206,084, 4096) = 4096. The rows take
    // 4096 x (8192 + 4) x 4 B = 134,283,264 B outside the static part.
    CHECK(sglang_req_pool_rows(p, 8192) == 4096);
    CHECK(sglang_max_running(p, 8192) == 4096);
    CHECK(sglang_req_to_token_bytes(p, 8192) == 134283264.0);
    // Sequences of 8192 tokens at once: floor(412,168 / 8192) = 50.
    CHECK(sglang_max_sequences(p, 8192) == 50);
    CHECK(fits_at(p, 8192, 50, 1.0));
    CHECK_FALSE(fits_at(p, 8192, 51, 1.0));
    // At the model's 131,072-token context: int(412,168 / 131,072 x 512) = 1610 rows, raised to 2048; 3 sequences.
    CHECK(sglang_req_pool_rows(p, 131072) == 2048);
    CHECK(sglang_max_sequences(p, 131072) == 3);

    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(e.value.metric("kv_capacity_tokens")->value == 412168);
    CHECK(e.value.metric("max_concurrency")->value == 50);
    CHECK(e.value.component("kv_cache")->bytes == 412168.0 * 131072);
    CHECK(e.value.launch_command == "python -m sglang.launch_server --model-path llama-3.1-8b --tp 1 --context-length 8192 --mem-fraction-static 0.83");
    CHECK(has_note(e.value, "mem_fraction_static 0.830 is SGLang's own rule for 81559 MiB"));
}

TEST_CASE("SGLang's page size and settings move the pool as its source says", "[sglang]") {
    Config cfg = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192);
    SECTION("page_size 16: 412,168 rounds down to 412,160 tokens; a 8193-token sequence takes 8208") {
        cfg.inference.sglang.page_size = 16;
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.max_total_tokens == 412160);
        CHECK(sglang_sequence_tokens(p, 8193) == 8208);
    }
    SECTION("mem_fraction_static 0.9 given: 0.9 x 84,479,280,824.32 - 16,094,076,928 = 59,937,275,813.9 B = 457,285 tokens") {
        cfg.inference.sglang.mem_fraction_static = 0.9;
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.reserved_mib == 0);
        CHECK(p.sglang.max_total_tokens == std::floor((0.9 * 84479280824.32 - 16094076928.0) / 131072));
        CHECK(p.sglang.max_total_tokens == 457285);
    }
    SECTION("disable_cuda_graph: no graphs, reserved 512 + 12,288 + 128 = 12,928 MiB, fraction round(68,631 / 81,559, 3) = 0.841") {
        cfg.inference.sglang.disable_cuda_graph = true;
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.graph_bytes == 0);
        CHECK(p.sglang.reserved_mib == 12928);
        CHECK(p.sglang.mem_fraction_static == Approx(0.841));
    }
    SECTION("fp8_e5m2 KV: 1 B a value, 65,536 B a token; the launch command names the dtype") {
        cfg.inference.kv_dtype = "fp8_e5m2";
        const InferencePlan p = plan(cfg);
        CHECK(p.kv.bytes_per_token == 65536);
        CHECK(p.sglang.max_total_tokens == std::floor((0.83 * 84479280824.32 - 16094076928.0) / 65536));
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.find("--kv-cache-dtype fp8_e5m2") != std::string::npos);
    }
    SECTION("max_running_requests 64: the req_to_token pool has 64 rows and 64 run at once") {
        cfg.inference.sglang.max_running_requests = 64;
        const InferencePlan p = plan(cfg);
        CHECK(sglang_req_pool_rows(p, 8192) == 64);
        CHECK(sglang_max_running(p, 8192) == 64);
        CHECK(sglang_max_sequences(p, 1024) == 64);  // the pool would hold 402
    }
}

TEST_CASE("SGLang's tiers by the GPU's memory and TP", "[sglang]") {
    SECTION("RTX 4090 24GB: chunk 4096, max_bs 48; reserved 512 + 6144 + 128 + 96 + 50 x 8 = 7280 MiB, no floor below 60 GiB") {
        const InferencePlan p = plan(sglang("llama-3.2-1b", "bf16", "rtx-4090-24gb", 4096));
        CHECK(p.sglang.chunked_prefill_size == 4096);
        CHECK(p.sglang.cuda_graph_max_bs == 48);
        CHECK(p.sglang.prefill_graph_sizes == 50);
        CHECK(p.sglang.reserved_mib == 7280);
        const double mib = p.sglang.gpu_mem_mib;
        CHECK(p.sglang.mem_fraction_static == Approx(std::round((mib - 7280) / mib * 1000) / 1000));
    }
    SECTION("A100 40GB: chunk 4096, max_bs 32") {
        const InferencePlan p = plan(sglang("llama-3.2-1b", "bf16", "a100-40gb", 4096));
        CHECK(p.sglang.chunked_prefill_size == 4096);
        CHECK(p.sglang.cuda_graph_max_bs == 32);
    }
    SECTION("T4 16GB: chunk 2048, max_bs 8") {
        const InferencePlan p = plan(sglang("llama-3.2-1b", "fp16", "t4-16gb", 4096));
        CHECK(p.sglang.chunked_prefill_size == 2048);
        CHECK(p.sglang.cuda_graph_max_bs == 8);
    }
    SECTION("the tiers' bounds are constants: sglang_tier4_gib and sglang_tier5_gib 70 put the H100's 81,559 MiB in the B200's tier") {
        Config cfg = sglang("llama-3.2-1b", "bf16", "h100-80gb", 4096);
        cfg.inference.constants.sglang_tier4_gib = 70;
        cfg.inference.constants.sglang_tier5_gib = 70;
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.chunked_prefill_size == 16384);
        CHECK(p.sglang.cuda_graph_max_bs == 512);
    }
}

TEST_CASE("SGLang, DeepSeek-V3 FP8 (block scales) on 8 x H200: the MLA latent cell", "[sglang]") {
    const Config cfg = [] {
        Config c = sglang("deepseek-v3", "fp8-block", "h200-141gb", 131072);
        c.inference.tp = 8;
        return c;
    }();
    const InferencePlan p = plan(cfg);
    const SglangMemory& s = p.sglang;
    // MLA: (kv_lora_rank 512 + qk_rope_head_dim 64) x 61 layers x 2 B = 70,272 B a token, whole on every GPU
    // (get_cell_size_per_token's use_mla_backend branch).
    CHECK(p.kv.mla);
    CHECK(p.kv.bytes_per_token == 70272);
    // gpu_mem 143,771 MiB (below 160 GiB): chunk 8192, max_bs 512 at tp 8. reserved_mem = 512 + 12,288 +
    // 8 / 8 x 1024 + 512 x 2 + 1536 (MLA prefill graphs) = 16,384 MiB; round(127,387 / 143,771, 3) = 0.886.
    CHECK(s.cuda_graph_max_bs == 512);
    CHECK(s.reserved_mib == 16384);
    CHECK(s.mem_fraction_static == Approx(0.886));
    // Free: 143,771 MiB = 150,755,098,624 B - 0.47 GiB - 0.5 GiB context - 0.6 GiB NCCL and custom all-reduce
    // (inference.constants.vllm_non_torch_tp_gib) = 149,069,045,432.32 B; x 0.886 = 132,075,174,253.03 B.
    CHECK(s.total_free == Approx(149069045432.32).margin(1));
    // Weights on one GPU 85,140,071,456 B + the RoPE table 163,840 x 64 x 2 B = 20,971,520 B = 85,161,042,976 B;
    // rest 46,914,131,277.03 B / 70,272 = 667,607.8: 667,607 tokens.
    CHECK(p.weights_gpu == 85161042976.0);
    CHECK(s.max_total_tokens == std::floor((0.886 * s.total_free - p.weights_gpu) / 70272));
    CHECK(s.max_total_tokens == 667607);
    // 131,072-token sequences at once: floor(667,607 / 131,072) = 5.
    CHECK(sglang_max_sequences(p, 131072) == 5);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(e.value.launch_command.rfind("python -m sglang.launch_server --model-path deepseek-v3 --tp 8 --context-length 131072 --mem-fraction-static 0.886", 0) == 0);
}

TEST_CASE("SGLang refuses to start when the weights take the static fraction", "[sglang]") {
    SECTION("Llama-3.1-70B BF16 on one H100: 141 GB of weights against 0.83 x 84.5 GB") {
        const Config cfg = sglang("llama-3.1-70b", "bf16", "h100-80gb", 8192);
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.rest < 0);
        CHECK(p.sglang.max_total_tokens == 0);
        CHECK_FALSE(fits_at(p, 8192, 1, 1.0));
        CHECK(estimate_says(cfg, "Not enough memory. Please try to increase --mem-fraction-static."));
        // 4 GPUs: 141.1 GB / 4 per GPU fits the static part (min_gpus walks 1, 2, 4).
        CHECK(answer_of(cfg, "min_gpus") == 4);
    }
    SECTION("a pool below the context: SGLang starts and caps a request at max_total_num_tokens - 1") {
        // mem_fraction_static 0.2: 0.2 x 84,479,280,824.32 - 16,094,076,928 = 801,779,236.9 B / 131,072 = 6117 tokens.
        Config cfg = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192);
        cfg.inference.sglang.mem_fraction_static = 0.2;
        const InferencePlan p = plan(cfg);
        CHECK(p.sglang.max_total_tokens == 6117);
        CHECK_FALSE(fits_at(p, 8192, 1, 1.0));
        CHECK(fits_at(p, 6117, 1, 1.0));
        CHECK(estimate_says(cfg, "a request is capped at 6116"));
        CHECK(answer_of(cfg, "max_context") == 6117);
    }
}

TEST_CASE("SGLang answers: the pool's tokens and sequences", "[sglang]") {
    const Config cfg = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192);
    CHECK(answer_of(cfg, "kv_capacity") == 412168);
    CHECK(answer_of(cfg, "max_concurrency") == 50);
    // 4 sequences: floor(412,168 / 4) = 103,042 tokens each.
    Config four = cfg;
    four.inference.concurrency = 4;
    CHECK(answer_of(four, "max_context") == 103042);
    // Formats SGLang loads only: no bitsandbytes among them.
    auto best = solve(cfg, "best_format");
    REQUIRE(best.ok);
    for (const auto& id : best.value.items) CHECK(id.rfind("bnb-", 0) != 0);
}

TEST_CASE("SGLang's refusals name the field", "[sglang]") {
    // The plan is refused, naming `field`, with the reason in its message.
    auto refused = [](const Config& cfg, const char* field, const char* words) {
        auto r = make_inference_plan(cfg);
        REQUIRE_FALSE(r.ok);
        CHECK(r.error.field == field);
        CHECK(r.error.message.find(words) != std::string::npos);
    };
    SECTION("a KV cache dtype SGLang has no --kv-cache-dtype for") {
        Config cfg = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192);
        cfg.inference.kv_dtype = "int8";
        refused(cfg, "inference.kv_dtype", "is not an SGLang --kv-cache-dtype");
    }
    SECTION("a weight format it has no --quantization method for") {
        refused(sglang("llama-3.1-8b", "bnb-nf4", "h100-80gb", 8192), "inference.weights", "is not a format SGLang loads");
    }
    SECTION("a hybrid's recurrent-state pool is not modelled") {
        refused(sglang("qwen3-next-80b-a3b", "bf16", "h200-141gb", 8192), "inference.engine", "recurrent-state pool");
    }
    SECTION("a context above the model's window") {
        refused(sglang("llama-3.1-8b", "bf16", "h100-80gb", 262144), "inference.context", "SGLang refuses it at start-up");
    }
    SECTION("a Mac: SGLang's MLX backend is not modelled") {
        refused(sglang("llama-3.2-1b", "bf16", "apple-m1-max-32gb", 4096), "inference.engine", "not its MLX backend");
    }
    SECTION("mem_fraction_static outside (0, 1], read from JSON") {
        auto c = parse_config(R"({"model": {"preset": "llama-3.1-8b"}, "gpu": "h100-80gb",
                                  "inference": {"engine": "sglang", "sglang": {"mem_fraction_static": 1.5}}})");
        if (c.ok) {
            auto e = estimate(c.value);
            REQUIRE_FALSE(e.ok);
            CHECK(e.error.field == "inference.sglang.mem_fraction_static");
        } else {
            CHECK(c.error.field == "inference.sglang.mem_fraction_static");
        }
    }
}

TEST_CASE("SGLang from JSON: the engine and its section read and written back", "[sglang]") {
    auto c = parse_config(R"({"model": {"preset": "llama-3.1-8b"}, "gpu": "h100-80gb",
                              "inference": {"sglang": {"mem_fraction_static": 0.9, "page_size": 16}}})");
    REQUIRE(c.ok);
    // The section alone names its engine (complete_document).
    CHECK(c.value.inference.engine == Engine::Sglang);
    CHECK(c.value.inference.sglang.mem_fraction_static == 0.9);
    CHECK(c.value.inference.sglang.page_size == 16);
    const std::string text = config_to_json(c.value).dump();
    CHECK(text.find("\"sglang\"") != std::string::npos);
    auto back = parse_config(text);
    REQUIRE(back.ok);
    CHECK(back.value.inference.sglang.mem_fraction_static == 0.9);
    CHECK(back.value.inference.sglang.page_size == 16);
}

TEST_CASE("SGLang against a public log: Qwen3-235B-A22B-FP8 on 4 x H100 at mem_fraction_static 0.93", "[sglang]") {
    // vLLM issue #21348 (2025-07-22) quotes SGLang's start-up line for
    //   python3 -m sglang.launch_server --model Qwen3-235B-A22B-FP8 --tp 4 --mem-fraction-static 0.93
    //   "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB"
    // The cell: 94 layers x (4 KV heads / 4 GPUs) x 128 x 2 x 2 B = 48,128 B; 367,404 x 24,064 B = 8.234 GiB a side
    // (SGLang's "GB" is GiB), as logged. The pool here is 388,107 tokens with the modelled CUDA context and NCCL:
    // 5.6% more, about 1 GB a GPU of that release's start-up memory and the checkpoint's BF16 parts the log does
    // not show. Not fitted: the test holds the cell exactly and the tokens within 6%.
    Config cfg = serving("qwen3-235b-a22b", Engine::Sglang, "fp8-block", "h100-80gb", 40960);
    cfg.inference.tp = 4;
    cfg.inference.sglang.mem_fraction_static = 0.93;
    const InferencePlan p = plan(cfg);
    CHECK(p.kv.bytes_per_token == 48128);
    CHECK(367404.0 * 48128 / 2 / kGiB == Approx(8.23).margin(0.005));
    CHECK(p.sglang.max_total_tokens / 367404.0 == Approx(1.0).margin(0.06));
    CHECK(p.sglang.max_total_tokens > 367404);
}

TEST_CASE("shell link: the SGLang engine and its fields round-trip and keep the figure", "[sglang]") {
    using namespace vc::shell;
    Config c = sglang("llama-3.1-8b", "bf16", "h100-80gb", 8192, 16);
    c.inference.sglang.mem_fraction_static = 0.85;
    c.inference.sglang.page_size = 16;
    c.inference.sglang.chunked_prefill_size = 4096;
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    INFO("fragment: " << f);
    CHECK(f.find("inference.engine=sglang") != std::string::npos);
    CHECK(f.find("inference.sglang.mem_fraction_static=0.85") != std::string::npos);
    Config back;
    UiState view;
    Error err;
    REQUIRE(decode_fragment(f, default_inputs(), back, view, err));
    CHECK(err.field == "");
    CHECK(back.inference.engine == Engine::Sglang);
    CHECK(back.inference.sglang.mem_fraction_static == 0.85);
    CHECK(back.inference.sglang.page_size == 16);
    CHECK(back.inference.sglang.chunked_prefill_size == 4096);
    // The same pool from the link: floor((0.85 x 84,479,280,824.32 - 16,094,076,928) / 131,072) // 16 x 16.
    const InferencePlan p = plan(back);
    CHECK(p.sglang.max_total_tokens == std::floor(std::floor((0.85 * 84479280824.32 - 16094076928.0) / 131072) / 16) * 16);
}
