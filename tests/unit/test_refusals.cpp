// Configurations the framework refuses to start: an error that names the field (and, for a GPU
// table row, the reason instead of a figure), never a memory figure for a run that cannot happen.
// vLLM's minimum compute capability per quantization method (vllm_quant_gates) and LitGPT's quantized
// base (ProfileBehaviour::qlora_refuses_mixed, qlora_single_gpu), llama.cpp's quantized V cache without flash
// attention (llamacpp_setup).
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "core/fit_models.hpp"
#include "core/serve/inference.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "inference_helpers.hpp"
#include "training_helpers.hpp"

using namespace vc;
using vc::test::serving;

namespace {

const GpuFit* fit_row(const Estimate& e, const char* gpu) {
    for (const auto& f : e.fits)
        if (f.gpu_id == gpu) return &f;
    return nullptr;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// A refusal: no figure, the field and the whole message.
template <typename T>
void check_refused(const Outcome<T>& r, const char* field, const std::string& message) {
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == field);
    CHECK(r.error.message == message);
}

}  // namespace

TEST_CASE("vLLM refuses a quantization method below its minimum compute capability: the estimate is an error naming the GPU and both capabilities", "[refusals]") {
    // gpt-oss-20b's MXFP4 checkpoint on a T4 (7.5): Mxfp4Config.get_min_capability is 80.
    check_refused(estimate(serving("gpt-oss-20b", Engine::Vllm, "mxfp4", "t4-16gb", 8192)), "inference.weights",
          "inference.weights \"mxfp4\" needs compute capability 8.0 under vLLM (mxfp4), and the NVIDIA T4 16GB has 7.5: vLLM refuses the checkpoint "
          "at start-up (\"not supported for the current GPU\", minimum 80, current 75); use a GPU of compute capability 8.0 or newer, another format "
          "or another engine");
    // AWQ on a V100 (7.0): AWQConfig.get_min_capability 75; on the T4 (7.5) it loads.
    auto v100 = estimate(serving("llama-3.1-8b", Engine::Vllm, "awq-int4", "v100-16gb", 4096));
    REQUIRE_FALSE(v100.ok);
    CHECK(contains(v100.error.message, "needs compute capability 7.5 under vLLM (awq), and the NVIDIA V100 16GB has 7.0"));
    CHECK(estimate(serving("llama-3.1-8b", Engine::Vllm, "awq-int4", "t4-16gb", 4096)).ok);
    // FP8 (Fp8Config, 80) in each of its layouts, and INT8 W8A8 (compressed-tensors, 75), on the V100.
    for (const char* f : {"fp8", "fp8-channel", "fp8-block"}) {
        INFO(f);
        auto r = estimate(serving("llama-3.1-8b", Engine::Vllm, f, "v100-16gb", 4096));
        REQUIRE_FALSE(r.ok);
        CHECK(contains(r.error.message, "needs compute capability 8.0 under vLLM (fp8)"));
    }
    CHECK_FALSE(estimate(serving("llama-3.1-8b", Engine::Vllm, "w8a8", "v100-16gb", 4096)).ok);
    CHECK(estimate(serving("llama-3.1-8b", Engine::Vllm, "w8a8", "t4-16gb", 4096)).ok);
    // Formats with no row load everywhere vLLM runs: BF16, GPTQ, bitsandbytes on the V100.
    for (const char* f : {"bf16", "gptq-int4", "bnb-nf4"}) {
        INFO(f);
        CHECK(estimate(serving("llama-3.1-8b", Engine::Vllm, f, "v100-16gb", 4096)).ok);
    }
    // llama.cpp and transformers have no such gate: gpt-oss's MXFP4 runs on the T4 under llama.cpp.
    CHECK(estimate(serving("gpt-oss-20b", Engine::LlamaCpp, "mxfp4", "t4-16gb", 8192)).ok);
    // inference.constants.vllm_min_capability sets another vLLM release's minimum: 75 (Turing Marlin) lets
    // the T4 load FP8, 0 checks nothing, 90 refuses the A100 too.
    Config fp8_t4 = serving("llama-3.1-8b", Engine::Vllm, "fp8", "t4-16gb", 4096);
    CHECK_FALSE(estimate(fp8_t4).ok);
    fp8_t4.inference.constants.vllm_min_capability = 75;
    CHECK(estimate(fp8_t4).ok);
    fp8_t4.inference.constants.vllm_min_capability = 0;
    CHECK(estimate(fp8_t4).ok);
    Config a100 = serving("llama-3.1-8b", Engine::Vllm, "bf16", "a100-80gb", 4096);
    a100.inference.constants.vllm_min_capability = 90;
    auto strict = estimate(a100);
    REQUIRE_FALSE(strict.ok);
    CHECK(contains(strict.error.message, "needs compute capability 9.0 under vLLM (inference.constants.vllm_min_capability), and the NVIDIA A100 80GB (SXM) has 8.0"));
    // Out of range: the field and its range.
    a100.inference.constants.vllm_min_capability = -2;
    auto bad = estimate(a100);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.constants.vllm_min_capability");
}

TEST_CASE("vLLM's GPU table: a card below the format's minimum holds nothing and says why; an unknown capability is not refused", "[refusals]") {
    // gpt-oss-20b MXFP4 on an H100: the V100 and T4 rows are vLLM's refusal, not a size.
    auto e = estimate(serving("gpt-oss-20b", Engine::Vllm, "mxfp4", "h100-80gb", 8192));
    REQUIRE(e.ok);
    for (const char* gpu : {"v100-16gb", "t4-16gb"}) {
        INFO(gpu);
        const GpuFit* f = fit_row(e.value, gpu);
        REQUIRE(f);
        REQUIRE(f->no_backend != nullptr);
        CHECK(std::string(f->no_backend) == "vLLM refuses the format below its compute capability");
        CHECK_FALSE(f->fits);
        CHECK(f->gpus_needed == 0);
        CHECK(f->utilization == 0);
    }
    // The A100 (8.0) and the AMD MI300X (no CUDA capability known) are sized as before.
    for (const char* gpu : {"a100-80gb", "mi300x-192gb"}) {
        INFO(gpu);
        const GpuFit* f = fit_row(e.value, gpu);
        REQUIRE(f);
        CHECK(f->no_backend == nullptr);
        CHECK(f->fits);
    }
    // BF16 Llama-3.1-8B: no row refused on a CUDA card.
    auto bf16 = estimate(serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 4096));
    REQUIRE(bf16.ok);
    CHECK(fit_row(bf16.value, "v100-16gb")->no_backend == nullptr);
}

TEST_CASE("vLLM's FP8 below compute capability 8.9 runs weight-only through Marlin: a note, the same bytes", "[refusals]") {
    // Fp8LinearMethod: use_marlin = not has_device_capability(89): the A100 (8.0) and A10G (8.6) warn,
    // the L40S (8.9) and H100 (9.0) run FP8 natively.
    const auto marlin = [](const char* gpu) {
        auto e = estimate(serving("llama-3.1-8b", Engine::Vllm, "fp8", gpu, 4096));
        REQUIRE(e.ok);
        for (const auto& n : e.value.notes)
            if (contains(n, "Marlin kernel")) return n;
        return std::string();
    };
    CHECK(marlin("a100-80gb") ==
          "vLLM loads fp8 on the NVIDIA A100 80GB (SXM) as weight-only FP8 through the Marlin kernel (no FP8 tensor cores): its compute capability 8.0 "
          "is below 8.9; the weights keep their bytes, vLLM logs a warning.");
    CHECK(contains(marlin("a10g-24gb"), "compute capability 8.6 is below 8.9"));
    CHECK(marlin("l40s-48gb").empty());
    CHECK(marlin("h100-80gb").empty());
    // The weights are the same bytes on the A100 as on the H100 (the fallback changes the kernel only).
    auto a = estimate(serving("llama-3.1-8b", Engine::Vllm, "fp8", "a100-80gb", 4096));
    auto h = estimate(serving("llama-3.1-8b", Engine::Vllm, "fp8", "h100-80gb", 4096));
    REQUIRE(a.ok);
    REQUIRE(h.ok);
    CHECK(a.value.component("weights")->bytes == h.value.component("weights")->bytes);
}

TEST_CASE("vLLM's best-format answer and the models-that-fit list skip what vLLM refuses on the card", "[refusals]") {
    // On a V100 the vLLM ladder's FP8 and AWQ rows carry the refusal instead of a figure.
    const Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "v100-16gb", 4096);
    auto list = fit_models(cfg);
    REQUIRE(list.ok);
    int refused = 0;
    for (const auto& r : list.value.rows) {
        if (r.model != "llama-3.1-8b") continue;
        if (r.format == "fp8" || r.format == "awq-int4") {
            CHECK_FALSE(r.ok);
            CHECK(contains(r.error, "vLLM refuses the checkpoint at start-up"));
            // The field once: the message already starts with it.
            CHECK(r.error.rfind("inference.weights \"" + r.format + "\" needs compute capability", 0) == 0);
            ++refused;
        } else {
            CHECK(r.ok);
        }
    }
    CHECK(refused == 2);
    // gpt-oss on the T4: not its MXFP4 checkpoint, the vLLM ladder (as before).
    const auto oss = fit_formats(serving("llama-3.1-8b", Engine::Vllm, "bf16", "t4-16gb", 4096), "gpt-oss-20b");
    REQUIRE_FALSE(oss.empty());
    CHECK(oss[0].id == "bf16");
    CHECK(fit_formats(serving("llama-3.1-8b", Engine::Vllm, "bf16", "a100-80gb", 4096), "gpt-oss-20b")[0].id == "mxfp4");
}

TEST_CASE("LitGPT refuses a quantized base under mixed precision and on more than one GPU, in its scripts' order", "[refusals]") {
    // Lightning-AI/litgpt@2685705 litgpt/finetune/lora.py:141-143 (ValueError) and :152-157 (NotImplementedError).
    const auto qlora = [](const char* extra, int gpus = 1) {
        return test::parsed(std::string(R"({"method":"detailed","task":"finetune","gpu":"a100-40gb","model":{"preset":"llama-2-7b"},"gpus":)") +
                            std::to_string(gpus) + R"(,"batch":1,"seq":512,"training":{"finetune":"qlora","profile":"litgpt")" + extra + "}}");
    };
    // bf16-mixed (LitGPT's own default for training: get_default_supported_precision(training=True)).
    check_refused(training_setup(qlora("")), "training.precision",
          "training.precision \"bf16-mixed\" with a quantized base (training.finetune qlora, training.lora.quant) is refused by LitGPT (Lightning "
          "Fabric): its finetune scripts take --quantize bnb.* only with bf16-true, fp16-true or fp32 (\"Quantization and mixed precision is not "
          "supported.\"); set training.precision bf16-true");
    for (const char* p : {R"(,"precision":"fp16-mixed")", R"(,"precision":"fp8")"}) {
        INFO(p);
        auto r = training_setup(qlora(p));
        REQUIRE_FALSE(r.ok);
        CHECK(r.error.field == "training.precision");
    }
    // Mixed precision on 2 GPUs: the precision is checked first, as lora.py does.
    auto both = training_setup(qlora("", 2));
    REQUIRE_FALSE(both.ok);
    CHECK(both.error.field == "training.precision");
    // bf16-true on 2 GPUs: the device count.
    check_refused(training_setup(qlora(R"(,"precision":"bf16-true")", 2)), "gpus",
          "gpus must be 1 with a quantized base (training.finetune qlora, training.lora.quant) under LitGPT (Lightning Fabric), got 2: its "
          "finetune scripts stop with \"Quantization is currently not supported for multi-GPU training\"");
    // bf16-true, fp16-true and fp32 on one GPU run; so does a LoRA over a 16-bit base under bf16-mixed on 2.
    for (const char* p : {R"(,"precision":"bf16-true")", R"(,"precision":"fp16-true")", R"(,"precision":"fp32")"}) {
        INFO(p);
        CHECK(training_setup(qlora(p)).ok);
    }
    CHECK(training_setup(test::parsed(R"({"method":"detailed","task":"finetune","gpus":2,"model":{"preset":"llama-2-7b"},"batch":1,"seq":512,)"
                                      R"("training":{"finetune":"lora","profile":"litgpt"}})"))
              .ok);
    // The same QLoRA under hf-trainer (peft + bitsandbytes) is a figure in bf16-mixed on 2 GPUs.
    CHECK(training_setup(test::parsed(R"({"method":"detailed","task":"finetune","gpus":2,"model":{"preset":"llama-2-7b"},"batch":1,"seq":512,)"
                                      R"("training":{"finetune":"qlora","profile":"hf-trainer"}})"))
              .ok);
}

TEST_CASE("llama.cpp refuses a quantized V cache without flash attention (llama_init_from_model); a quantized K cache alone runs", "[refusals]") {
    // llama-server -fa off -ctk q8_0 -ctv q8_0: "quantized V cache requires flash_attn to be enabled".
    Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192);
    cfg.inference.llamacpp.flash_attn = false;
    cfg.inference.kv_dtype = "q8_0";
    check_refused(estimate(cfg), "inference.kv_dtype",
          "inference.kv_dtype \"q8_0\" quantizes the V cache, which llama.cpp allows only with flash attention (-fa): set "
          "inference.llamacpp.flash_attn or an f16 V cache");
    // -ctv q4_0 under an f16 K cache: the V field is named.
    Config v = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192);
    v.inference.llamacpp.flash_attn = false;
    v.inference.llamacpp.kv_dtype_v = "q4_0";
    auto rv = estimate(v);
    REQUIRE_FALSE(rv.ok);
    CHECK(rv.error.field == "inference.llamacpp.kv_dtype_v");
    // -ctk q8_0 -ctv f16 without flash attention runs: the K cache is half the size of F16's, so the KV
    // per token is (8.5 + 16) / 2 bits' share of F16's 32 x 2 x 8 x 128 x 2 B = 131,072 B: 100,352 B.
    Config k = v;
    k.inference.kv_dtype = "q8_0";
    k.inference.llamacpp.kv_dtype_v = "f16";
    REQUIRE(estimate(k).ok);
    CHECK(test::plan(k).kv.bytes_per_token == 131072.0 * (8.5 / 16 + 1) / 2);
    // With flash attention the quantized V cache runs.
    cfg.inference.llamacpp.flash_attn = true;
    CHECK(estimate(cfg).ok);
    // Ollama (OLLAMA_FLASH_ATTENTION=0 with OLLAMA_KV_CACHE_TYPE=q8_0) passes both to llama-server: refused too.
    Config ollama = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192);
    ollama.inference.llamacpp.ollama = true;
    ollama.inference.llamacpp.flash_attn = false;
    ollama.inference.kv_dtype = "q8_0";
    auto ro = estimate(ollama);
    REQUIRE_FALSE(ro.ok);
    CHECK(ro.error.field == "inference.kv_dtype");
}
