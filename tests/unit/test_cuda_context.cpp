// The CUDA context per GPU (core/catalog/cuda_context.hpp): a framework part re-based on the GPU
// each reading ran on, plus the driver's local memory for every thread the GPU holds resident.
// Every figure below is worked by hand from the SM counts and threads per SM of the catalog.
#include <catch.hpp>

#include <cmath>

#include "core/catalog/cuda_context.hpp"
#include "core/catalog/gpus.hpp"
#include "core/config.hpp"
#include "core/estimate.hpp"
#include "io/config_json.hpp"

using namespace vc;
using Catch::Detail::Approx;

namespace {

constexpr double MiB = 1024.0 * 1024;

// The runtime component of an estimate (the CUDA context alone: one GPU, no NCCL).
double runtime_of(const std::string& text) {
    auto cfg = io::parse_config(text);
    REQUIRE(cfg.ok);
    auto e = estimate(cfg.value);
    REQUIRE(e.ok);
    return e.value.component("runtime")->bytes;
}

// The error an estimate of `text` stops with (the config itself reads).
Error refusal_of(const std::string& text) {
    auto cfg = io::parse_config(text);
    REQUIRE(cfg.ok);
    auto e = estimate(cfg.value);
    REQUIRE_FALSE(e.ok);
    return e.error;
}

std::string lora(const std::string& gpu, const std::string& runtime = "") {
    return R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"training":{"finetune":"lora"},)" +
           (runtime.empty() ? std::string() : R"("runtime":{)" + runtime + "},") + R"("gpu":")" + gpu + R"("})";
}

std::string hf(const std::string& gpu, const std::string& extra = "") {
    return R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"gpu":")" + gpu +
           R"(","inference":{"engine":"hf","weights":"bf16","context":1024)" + extra + "}}";
}

GpuSpec card(int sms, int threads) {
    GpuSpec g;
    g.name = "test card";
    g.memory_bytes = 96 * 1024 * MiB;
    g.sms = sms;
    g.threads_per_sm = threads;
    return g;
}

}  // namespace

TEST_CASE("CUDA context: the bare contexts it was fitted on and three it was not", "[cuda_context]") {
    // Fitted (llama.cpp PR #23604): 107 MiB on an RTX 4060 Ti (34 SMs x 1536) and 555 MiB on an
    // RTX PRO 6000 Blackwell (188 x 1536): (555 - 107) MiB / (154 x 1536 threads) = 1986 B a
    // thread, 1024 of them the stack limit; the rest 107 MiB - 52,224 x 1986 B = 8,480,768 B.
    CHECK(kCudaStackLimitBytes + kCudaDriverBytesPerThread == 1986);
    CHECK(kCudaBareContextBytes == 8480768);
    CHECK(cuda_bare_context_bytes(*find_gpu("rtx-4060-ti-16gb")) == 107 * MiB);
    CHECK(cuda_bare_context_bytes(card(188, 1536)) / MiB == Approx(555).epsilon(0.001));  // 555.01 MiB
    // Held out: 8,480,768 B + 1986 B x threads against torch.cuda.mem_get_info's context (PyTorch
    // adds its own on top, so the model reads a little low).
    // RTX 6000 Ada, 142 x 1536: 421.2 MiB vs 426 (unsloth-zoo PR #1053).
    CHECK(cuda_bare_context_bytes(card(142, 1536)) / MiB == Approx(426).epsilon(0.02));
    // RTX 3090, 82 x 1536: 246.6 MiB vs 256 (InvokeAI issue #9413).
    CHECK(cuda_bare_context_bytes(*find_gpu("rtx-3090-24gb")) / MiB == Approx(256).epsilon(0.04));
    // B200, 148 x 2048: 582.2 MiB vs 612 (unsloth PR #8669).
    CHECK(cuda_bare_context_bytes(*find_gpu("b200-180gb")) / MiB == Approx(612).epsilon(0.05));
    // (The stack alone and a constant cannot hold both fitted readings: the constant would be
    // 107 - 51 = 56 MiB on the 4060 Ti and 555 - 282 = 273 MiB on the PRO 6000.)
}

TEST_CASE("CUDA context: the framework part re-based on the readings' own GPUs, one model for training and serving", "[cuda_context]") {
    // The readings come back on the GPUs they ran on: 0.5 GiB lazy on an A100 (X10, X11), 1343 MiB
    // eager on a V100 (C07).
    CHECK(cuda_context(find_gpu("a100-80gb"), true).bytes == 512 * MiB);
    CHECK(cuda_context(find_gpu("v100-16gb"), false).bytes == 1343 * MiB);
    // H100 lazy: framework 512 MiB - 1986 x 108 x 2048 = 97,599,488 B, plus (1024 + 962) x 2048 x
    // 132 = 536,887,296 B of local memory: 634,486,784 B (605.1 MiB).
    CHECK(cuda_context(find_gpu("h100-80gb"), true).bytes == 634486784);
    CHECK(runtime_of(lora("h100-80gb")) == 634486784);
    CHECK(runtime_of(hf("h100-80gb")) == 634486784);
    // A100 eager: 1343 MiB + 1986 x (108 - 80) x 2048 = 1,522,122,752 B.
    CHECK(runtime_of(lora("a100-80gb", R"("lazy_loading":false)")) == 1522122752);
    CHECK(runtime_of(hf("a100-80gb", R"(,"hf":{"lazy_loading":false})")) == 1522122752);
    // T4, 40 SMs x 1024 threads: 97,599,488 + 1986 x 40,960 = 178,946,048 B.
    CHECK(runtime_of(hf("t4-16gb")) == 178946048);
    // The explanation names the GPU's reservation.
    const std::string f = cuda_context(find_gpu("h100-80gb"), true).formula;
    CHECK(f.find("x 132 SMs x 2048 threads = 512 MiB on NVIDIA H100 80GB (SXM)") != std::string::npos);
}

TEST_CASE("CUDA context: the stack limit and a whole context as given", "[cuda_context]") {
    // A stack limit of 4096 B: 3072 more per thread, x 132 x 2048 on an H100 = 830,472,192 B more.
    CHECK(runtime_of(lora("h100-80gb", R"("cuda_stack_limit_bytes":4096)")) == 634486784.0 + 830472192);
    CHECK(runtime_of(hf("h100-80gb", R"(,"constants":{"cuda_stack_limit_bytes":4096})")) == 634486784.0 + 830472192);
    // A reading of the whole context stays the whole context on any GPU.
    CHECK(runtime_of(lora("h100-80gb", R"("cuda_context_bytes":838860800)")) == 800 * MiB);
    CHECK(runtime_of(hf("h100-80gb", R"(,"constants":{"cuda_context_gib":0.6})")) == Approx(0.6 * 1024 * MiB));
    // A stack limit outside [0, 1 MiB] is named with its range.
    const Error stack = refusal_of(lora("h100-80gb", R"("cuda_stack_limit_bytes":-5)"));
    CHECK(stack.field == "runtime.cuda_stack_limit_bytes");
    CHECK(stack.message.find("[0, 1048576] bytes") != std::string::npos);
}

TEST_CASE("CUDA context: GPUs without SM figures keep the flat readings and say so", "[cuda_context]") {
    // No GPU chosen, AMD, Apple: 0.5 GiB lazy, 1343 MiB eager, as before the per-GPU model.
    CHECK(cuda_context(nullptr, true).bytes == 512 * MiB);
    CHECK(cuda_context(nullptr, false).bytes == 1343 * MiB);
    CHECK(runtime_of(lora("mi300x-192gb")) == 512 * MiB);
    CHECK(cuda_context(find_gpu("apple-m2-max-96gb"), true).bytes == 512 * MiB);
    CHECK(cuda_context(find_gpu("mi300x-192gb"), true).formula.find("AMD Instinct MI300X 192GB has no SM figures") != std::string::npos);
    // A custom GPU: flat without SM figures, modelled with them (and they survive the JSON round trip).
    const std::string custom = R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"inference":{"engine":"hf","weights":"bf16",)"
                               R"("context":1024,"gpu_custom":{"memory_gib":80)";
    CHECK(runtime_of(custom + "}}}") == 512 * MiB);
    const std::string with_sms = custom + R"(,"sms":132,"threads_per_sm":2048}}})";
    CHECK(runtime_of(with_sms) == 634486784);
    auto cfg = io::parse_config(with_sms);
    REQUIRE(cfg.ok);
    auto back = io::config_from_json(io::config_to_json(cfg.value));
    REQUIRE(back.ok);
    CHECK(back.value.inference.custom_gpu.sms == 132);
    CHECK(back.value.inference.custom_gpu.threads_per_sm == 2048);
    const Error sms = refusal_of(custom + R"(,"sms":5000}}})");
    CHECK(sms.field == "inference.gpu_custom.sms");
    CHECK(sms.message.find("[0, 4096] SMs") != std::string::npos);
}

TEST_CASE("CUDA context: each GPU's fit counts its own context, training and serving", "[cuda_context]") {
    // Sized on an H100 (605.1 MiB context, 634,486,784 B): the RTX 4090's fit holds the 4090's
    // 97,599,488 + 1986 x 128 x 1536 = 488,062,976 B instead; the MI300X the flat 512 MiB.
    for (const std::string& text : {lora("h100-80gb"), hf("h100-80gb")}) {
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        const double total = e.value.metric("device_total_bytes") ? e.value.metric("device_total_bytes")->value : e.value.total_bytes;
        auto used = [&](const char* id) {
            for (const auto& f : e.value.fits)
                if (f.gpu_id == id) return f.utilization * find_gpu(id)->memory_bytes;
            return -1.0;
        };
        CHECK(used("h100-80gb") == Approx(total));
        CHECK(used("rtx-4090-24gb") == Approx(total - 634486784 + 488062976));
        CHECK(used("mi300x-192gb") == Approx(total - 634486784 + 512 * MiB));
    }
}
