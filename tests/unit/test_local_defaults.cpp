// The defaults local-inference users get without setting them: Ollama's automatic num_batch (the
// ubatch its llama-server builds the compute buffers for) and vLLM on a Mac (no Metal backend),
// with numbers a reader can check by hand.
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "core/serve/llamacpp.hpp"
#include "core/units.hpp"
#include "io/config_json.hpp"
#include "io/report.hpp"
#include "inference_helpers.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;
using Catch::Detail::Approx;

namespace {

// Llama-3.1-8B Q4_K_M under the Ollama profile with num_batch (-ub) unset, `n` slots of `context`.
Config ollama_8b(const char* gpu, int context, int n = 1) {
    Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", gpu, context, n);
    cfg.inference.llamacpp.ollama = true;
    return cfg;
}

int auto_batch(const Config& cfg) {
    const InferencePlan p = plan(cfg);
    return ollama_auto_batch(p, cfg.inference.context, cfg.inference.concurrency).batch;
}

double compute_mib(const Config& cfg) {
    const InferencePlan p = plan(cfg);
    return llamacpp_buffers(p, cfg.inference.context, cfg.inference.concurrency).gpus.at(0).compute / kBytesPerMiB;
}

const Estimate& estimate_ok(const Config& cfg, Outcome<Estimate>& r) {
    r = estimate(cfg);
    INFO(r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

}  // namespace

// By hand, shared by the cases below. Ollama v0.32.15 server/sched.go automaticGenerationBatch.
// The GGUF file (Ollama's prediction reads its size): 4,617,396,224 B on the GPU + 295,501,824 B of
// token_embd = 4,912,898,048 B (4.58 GiB). Its F16 KV estimate: 2 x 32 layers x 8 KV heads x
// (4,096 / 32) x tokens x 2 B = 131,072 B per token (1 GiB at 8,192). The RTX 4090's free memory:
// 24,564 MiB less its 465.45 MiB CUDA context = 24,098.55 MiB; 80% of it is 19,278.84 MiB.
TEST_CASE("Ollama's automatic num_batch: Llama-3.1-8B Q4_K_M on an RTX 4090 at 8,192 tokens is 1,024, at 65,536 2,048") {
    // 8,192 tokens (> 4,096): 1,024 to start. Prediction 4,912,898,048 + 1,073,741,824 B = 5,709.34 MiB:
    // within 75% (18,073.91 MiB) and 768 MiB <= 19,278.84 - 5,709.34: it stays 1,024.
    const Config at8k = ollama_8b("rtx-4090-24gb", 8192);
    const InferencePlan p = plan(at8k);
    const OllamaBatch b = ollama_auto_batch(p, 8192, 1);
    CHECK(b.batch == 1024);
    CHECK(b.start == 1024);
    CHECK(b.tokens == 8192);
    CHECK(b.predicted == 4912898048.0 + 1073741824.0);
    CHECK(b.available / kBytesPerMiB == Approx(24098.55).epsilon(1e-6));
    CHECK(llamacpp_ubatch(p, 8192, 1) == 1024);
    // The compute buffer follows: the F32 logits (128,256 + 4,096) x 1,024 x 4 B = 542,113,792 B
    // (517 MiB) exceed a layer's inputs and FFN; at llama.cpp's 512 they are half, 258.5 MiB.
    CHECK(llamacpp_buffers(p, 8192, 1).gpus[0].compute == 542113792.0);
    Config plain = at8k;
    plain.inference.llamacpp.ollama = false;
    CHECK(compute_mib(plain) == Approx(258.5));
    // The launch command says what Ollama passes (num_batch stays Ollama's choice).
    CHECK(launch_command(p) == "OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 8192  # automatic num_batch 1024: "
                               "llama-server -b 1024 -ub 1024");
    Outcome<Estimate> r;
    const Estimate& e = estimate_ok(at8k, r);
    REQUIRE(e.metric("auto_num_batch"));
    CHECK(e.metric("auto_num_batch")->value == 1024);

    // 65,536 tokens (> 32,768): 2,048 to start. Prediction 4,912,898,048 + 8 GiB = 12,877.34 MiB:
    // within 60% (14,459.13 MiB) and 2,048 MiB <= 19,278.84 - 12,877.34 = 6,401.50: it stays 2,048.
    // Compute: a layer's inputs, the F32 mask 65,536 x 2,048 x 4 B (512 MiB), the hidden state
    // (32 MiB) and the F16 mask (256 MiB), + the FFN (2 x 4,096 + 2 x 14,336) x 2,048 x 4 B (288 MiB)
    // = 1,088 MiB, above the logits' 1,034 MiB; at 512 tokens it was 272 MiB.
    const Config at64k = ollama_8b("rtx-4090-24gb", 65536);
    CHECK(auto_batch(at64k) == 2048);
    CHECK(compute_mib(at64k) == Approx(1088));
    // Every threshold is a constant: with 2,048 kept only within 50% (12,049.28 MiB) the prediction
    // is over it, and 1,024 (within 75%, 768 MiB more) is taken.
    Config half = at64k;
    half.inference.constants.ollama_batch_large_headroom = 0.5;
    CHECK(auto_batch(half) == 1024);
    // Up to 4,096 tokens: 512, llama.cpp's default.
    CHECK(auto_batch(ollama_8b("rtx-4090-24gb", 4096)) == 512);
}

TEST_CASE("Ollama's automatic num_batch on an 8 GB card: 512 at 8,192 tokens, 256 with flash attention off") {
    // The RTX 4060 8GB: 8,192 MiB less its 162.90 MiB CUDA context = 8,029.10 MiB free; 80% is
    // 6,423.28 MiB. The prediction (5,709.34 MiB) is within 75% (6,021.83 MiB), but 768 MiB more is
    // not within 80% (714 MiB left): 1,024 steps down to 512.
    const Config cfg = ollama_8b("rtx-4060-8gb", 8192);
    const OllamaBatch b = ollama_auto_batch(plan(cfg), 8192, 1);
    CHECK(b.start == 1024);
    CHECK(b.batch == 512);
    CHECK(b.available / kBytesPerMiB == Approx(8029.10).epsilon(1e-5));
    CHECK(compute_mib(cfg) == Approx(258.5));
    // OLLAMA_FLASH_ATTENTION=0 on a CUDA card of at most 8 GiB free above 4,096 tokens: 256, no
    // prediction (constrainedCUDAWithoutFlashAttention); at 4,096 tokens 512.
    Config off = cfg;
    off.inference.llamacpp.flash_attn = false;
    CHECK(auto_batch(off) == 256);
    off.inference.context = 4096;
    CHECK(auto_batch(off) == 512);
    // On the RTX 4090 (23.53 GiB free) flash attention off is 512 whatever the context.
    Config big = ollama_8b("rtx-4090-24gb", 65536);
    big.inference.llamacpp.flash_attn = false;
    CHECK(auto_batch(big) == 512);
}

TEST_CASE("Ollama's automatic num_batch: two GPUs count together only when one cannot hold the prediction") {
    // Two RTX 4090s at 98,304 tokens: the prediction 4,912,898,048 B + 12 GiB = 16,973.34 MiB is
    // within 80% of one card (19,278.84 MiB), so Ollama places on one card (bestSingleGPUFit) and
    // checks that card: over 60% (14,459.13 MiB) for 2,048, within 75% (18,073.91) with 768 MiB more
    // within 80%: 1,024. At 131,072 tokens (21,069.34 MiB) one card is not enough: both, 48,197.10
    // MiB free, 44%: 2,048.
    Config cfg = ollama_8b("rtx-4090-24gb", 98304);
    cfg.inference.tp = 2;
    CHECK(auto_batch(cfg) == 1024);
    cfg.inference.context = 131072;
    const OllamaBatch b = ollama_auto_batch(plan(cfg), 131072, 1);
    CHECK(b.batch == 2048);
    CHECK(b.available / kBytesPerMiB == Approx(2 * 24098.55).epsilon(1e-6));
}

TEST_CASE("Ollama's num_batch given (-ub) is kept and printed; no GPU: the context alone decides") {
    // num_batch set (PARAMETER num_batch): Ollama passes it as -b and -ub and chooses nothing.
    Config cfg = ollama_8b("rtx-4090-24gb", 65536);
    cfg.inference.llamacpp.n_ubatch = 512;
    const InferencePlan p = plan(cfg);
    CHECK(ollama_auto_batch(p, 65536, 1).batch == 0);
    CHECK(llamacpp_ubatch(p, 65536, 1) == 512);
    CHECK(launch_command(p) == "OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 65536; PARAMETER num_batch 512");
    Outcome<Estimate> r;
    CHECK(estimate_ok(cfg, r).metric("auto_num_batch") == nullptr);
    // Plain llama-server: -ub unset is 512 and no flag is printed.
    cfg.inference.llamacpp.ollama = false;
    cfg.inference.llamacpp.n_ubatch = 0;
    CHECK(llamacpp_ubatch(plan(cfg), 65536, 1) == kLlamaCppUbatch);
    CHECK(launch_command(plan(cfg)).find(" -ub ") == std::string::npos);
    // No GPU: no free memory to check, so generationBatchFits keeps the context's batch.
    CHECK(auto_batch(ollama_8b("cpu", 65536)) == 2048);
}

TEST_CASE("vLLM on a Mac is refused: vLLM has no Metal backend (macOS: the CPU only)") {
    Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "apple-m4-max-128gb", 8192);
    const auto r = make_inference_plan(cfg);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "inference.engine");
    CHECK(r.error.message.find("no Metal backend for the Apple M4 Max 128GB") != std::string::npos);
    // The custom GPU marked unified is a Mac too.
    cfg.gpu_id.clear();
    cfg.inference.has_custom_gpu = true;
    cfg.inference.custom_gpu.memory_bytes = gib_to_bytes(64);
    cfg.inference.custom_gpu.bandwidth_gbps = 400;
    cfg.inference.custom_gpu.unified = true;
    CHECK_FALSE(make_inference_plan(cfg).ok);
    // The same config runs under llama.cpp (Metal).
    Config metal = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "apple-m4-max-128gb", 8192);
    CHECK(make_inference_plan(metal).ok);
    // On an H100 the GPU table's Mac rows hold nothing (before, a 32 GB M1 Pro read "1 needed, fits
    // within target": 90% of its RAM as if it were a CUDA card's).
    Outcome<Estimate> e;
    const Estimate& h100 = estimate_ok(serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 8192), e);
    int macs = 0;
    for (const auto& f : h100.fits) {
        if (f.gpu_id.rfind("apple-", 0) != 0) {
            CHECK(f.no_backend == nullptr);  // a CUDA or ROCm card: vLLM runs there
            continue;
        }
        ++macs;
        CHECK_FALSE(f.fits);
        CHECK(f.gpus_needed == 0);
        // The row says why (no Metal backend), not a size: no "smallest Mac that holds it".
        REQUIRE(f.no_backend != nullptr);
        CHECK(std::string(f.no_backend) == "vLLM has no Metal backend");
        CHECK(f.mac_needed_bytes == 0);
    }
    CHECK(macs > 10);
    // The rows carry the reason, so no note about Macs rides in every vLLM result (issue 15).
    for (const auto& n : h100.notes) CHECK(n.find("Mac") == std::string::npos);
    // The JSON: "no_backend": true on a Mac's row and no mac_needed_bytes there; the text table's row
    // says why: "does not fit; vLLM has no Metal backend" (before: "no Mac in the catalog holds it").
    const std::string json = io::estimate_text(h100);
    CHECK_THAT(json, Catch::Contains("{\"fits\":false,\"gpu\":\"apple-m1-16gb\",\"gpus_needed\":0,\"no_backend\":true,\"utilization\":0.0,\"within_target\":false}"));
    CHECK_THAT(json, !Catch::Contains("mac_needed_bytes"));
    const std::string table = io::format_table(h100, gpu_count_rule(serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 8192)));
    CHECK_THAT(table, Catch::Contains("does not fit; vLLM has no Metal backend"));
    CHECK_THAT(table, !Catch::Contains("no Mac in the catalog holds it"));
    // llama.cpp runs on a Mac (Metal): no row of its table has no_backend.
    Outcome<Estimate> l;
    const Estimate& llama = estimate_ok(serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "h100-80gb", 8192), l);
    for (const auto& f : llama.fits) CHECK(f.no_backend == nullptr);
}
