// vramcalc tests: an MoE's routed experts that a transformers 5 bitsandbytes base leaves
// unquantized (training.lora.experts_unquantized; docs/training.md "MoE experts under bitsandbytes").
#include <catch.hpp>

#include <string>

#include "core/advice.hpp"
#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "io/config_json.hpp"
#include "training_helpers.hpp"

using namespace vc;

namespace {

// QLoRA (NF4, double-quantized absmax, r 16 on q and v) of `preset`, one 2,048-token sequence, BF16
// mixed, one H100 80GB, hf-trainer unless `extra` says otherwise.
Config qlora(const char* preset, const char* extra = "") {
    return test::parsed(std::string(R"({"method":"detailed","task":"finetune","gpu":"h100-80gb","model":{"preset":")") + preset +
                        R"("},"batch":1,"seq":2048,"training":{"finetune":"qlora","lora":{"rank":16)" + extra + "}}}");
}

// The weights on the GPU (bytes).
double weights(const Config& c) { return test::trained(c).weights; }

using test::has_note;

// Mixtral-8x7B's routed experts: 32 layers x 8 experts x 3 matrices x 4,096 x 14,336 = 45,097,156,608.
constexpr double kMixtralExperts = 32.0 * 8 * 3 * 4096 * 14336;
// NF4 with double-quantized absmax: 0.5 + 1/64 + 4 / (64 x 256) = 0.515869140625 B per weight.
constexpr double kNf4Dq = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);

}  // namespace

TEST_CASE("Mixtral-8x7B QLoRA r16 on one H100: the routed experts left unquantized by hand", "[training][moe_experts]") {
    REQUIRE(kMixtralExperts == 45097156608.0);
    // In the checkpoint's BF16: 45,097,156,608 x 2 B = 90,194,313,216 B (90.19 GB); in NF4:
    // 45,097,156,608 x 0.515869140625 = 23,264,231,424 B (23.26 GB); after peft's FP32 cast
    // (hf-trainer's prepare_model_for_kbit_training): x 4 B = 180,388,626,432 B (180.39 GB).
    REQUIRE(kMixtralExperts * 2 == 90194313216.0);
    REQUIRE(kMixtralExperts * kNf4Dq == 23264231424.0);
    // Without the FP32 cast (TRL 0.26+ skips prepare_model_for_kbit_training): the weights grow by
    // the experts x (2 - 0.515869140625) B = 66,930,081,792 B, from 24,510,799,872 B to 91,440,881,664 B.
    const double quantized = weights(qlora("mixtral-8x7b", R"(,"upcast_frozen":false,"experts_unquantized":false)"));
    const double left = weights(qlora("mixtral-8x7b", R"(,"upcast_frozen":false,"experts_unquantized":true)"));
    CHECK(left - quantized == kMixtralExperts * (2 - kNf4Dq));
    CHECK(quantized == 24510799872.0);
    CHECK(left == 91440881664.0);
    // hf-trainer's auto is transformers 5's: unquantized, and peft casts them to FP32 with the rest:
    // experts x (4 - 0.515869140625) B = 157,124,395,008 B more than quantized under the same cast.
    const double auto_cast = weights(qlora("mixtral-8x7b"));
    const double quantized_cast = weights(qlora("mixtral-8x7b", R"(,"experts_unquantized":false)"));
    CHECK(auto_cast - quantized_cast == kMixtralExperts * (4 - kNf4Dq));
    // The largest 4-bit matrix a matmul dequantizes (BF16) is no longer an expert's 4,096 x 14,336 but
    // q_proj's 4,096 x 4,096: 2 x (58,720,256 - 16,777,216) = 83,886,080 B less temporary.
    auto s_left = training_setup(qlora("mixtral-8x7b", R"(,"upcast_frozen":false)"));
    auto s_quant = training_setup(qlora("mixtral-8x7b", R"(,"upcast_frozen":false,"experts_unquantized":false)"));
    REQUIRE(s_left.ok);
    REQUIRE(s_quant.ok);
    TrainingParts p_left, p_quant;
    compute_training(s_left.value, &p_left);
    compute_training(s_quant.value, &p_quant);
    CHECK(p_quant.dequant == 4096.0 * 14336 * 2);
    CHECK(p_left.dequant == 4096.0 * 4096 * 2);
    CHECK(p_left.stage_experts_unquantized == kMixtralExperts);
    CHECK(p_quant.stage_experts_unquantized == 0);
    // Totals on the H100: 27.39 GB quantized (as before this field), 94.24 GB with BF16 experts, 186.16
    // GB with peft's FP32 cast: a QLoRA that fits the card three times over does not fit it once.
    auto e_quant = estimate(qlora("mixtral-8x7b", R"(,"upcast_frozen":false,"experts_unquantized":false)"));
    auto e_left = estimate(qlora("mixtral-8x7b", R"(,"upcast_frozen":false)"));
    auto e_auto = estimate(qlora("mixtral-8x7b"));
    REQUIRE(e_quant.ok);
    REQUIRE(e_left.ok);
    REQUIRE(e_auto.ok);
    CHECK(e_quant.value.total_bytes == Approx(27.39e9).epsilon(1e-3));
    CHECK(e_left.value.total_bytes == Approx(94.24e9).epsilon(1e-3));
    CHECK(e_auto.value.total_bytes == Approx(186.16e9).epsilon(1e-3));
    // The note says what was assumed, what it costs, and the way out.
    CHECK(has_note(e_left.value, "training.lora.experts_unquantized auto, profile hf-trainer"));
    CHECK(has_note(e_left.value, "4.51e10 params stay at 2 B (the checkpoint's 16 bits): 90.19 GB of weights where quantized they would take 23.26 GB"));
    CHECK(has_note(e_auto.value, "4.51e10 params stay at 4 B (BF16, cast to FP32 by peft): 180.39 GB"));
    CHECK(has_note(e_auto.value, "--set training.lora.experts_unquantized=false"));
    CHECK_FALSE(has_note(e_quant.value, "experts_unquantized"));
    CHECK(e_left.value.component("weights")->formula.find("4.51e10 of them routed experts left unquantized") != std::string::npos);
}

TEST_CASE("Routed experts unquantized: only an MoE on a bitsandbytes base under a transformers 5 profile", "[training][moe_experts]") {
    // A dense model: the field changes nothing (Llama-3.1-8B's linears are all nn.Linear).
    CHECK(weights(qlora("llama-3.1-8b")) == weights(qlora("llama-3.1-8b", R"(,"experts_unquantized":false)")));
    CHECK(weights(qlora("llama-3.1-8b")) == weights(qlora("llama-3.1-8b", R"(,"experts_unquantized":true)")));
    // Profiles on transformers 5 (hf-trainer, torch-compile, deepspeed) leave them; hf-legacy
    // (transformers 4's ModuleList of nn.Linear), LitGPT (LLaMAMoE of nn.Linear), torchtune, torchtitan
    // and megatron (their own models, no bitsandbytes) quantize them.
    for (const char* profile : {"hf-trainer", "torch-compile", "deepspeed"}) {
        INFO(profile);
        auto s = training_setup(qlora("mixtral-8x7b", (std::string(R"(},"profile":")") + profile + R"(","lora":{"rank":16)").c_str()));
        REQUIRE(s.ok);
        CHECK(s.value.experts_unquantized);
    }
    for (const char* profile : {"hf-legacy", "litgpt", "torchtune", "torchtitan", "megatron"}) {
        INFO(profile);
        // LitGPT refuses a quantized base under mixed precision (training_setup): its QLoRA runs bf16-true.
        const std::string p = std::string(R"(},"profile":")") + profile + (std::string(profile) == "litgpt" ? R"(","precision":"bf16-true)" : "") +
                              R"(","lora":{"rank":16)";
        auto s = training_setup(qlora("mixtral-8x7b", p.c_str()));
        REQUIRE(s.ok);
        CHECK_FALSE(s.value.experts_unquantized);
        auto forced = training_setup(qlora("mixtral-8x7b", (p + R"(,"experts_unquantized":true)").c_str()));
        REQUIRE(forced.ok);
        CHECK(forced.value.experts_unquantized);  // true wins over the profile
    }
    // A 16-bit LoRA base quantizes nothing: nothing to leave. LoRA over INT8 (load_in_8bit) skips them too.
    Config lora16 = qlora("mixtral-8x7b");
    lora16.training.finetune = FinetuneMethod::Lora;
    lora16.training.lora.quant = BaseQuant::None;
    CHECK_FALSE(experts_left_unquantized(lora16.training, lora16.model));
    Config int8 = lora16;
    int8.training.lora.quant = BaseQuant::Int8;
    CHECK(experts_left_unquantized(int8.training, int8.model));
    // DeepSeek-V3's shared expert is a plain MLP of nn.Linear in transformers 5 (DeepseekV3MoE.shared_experts,
    // a DeepseekV3MLP): quantized; only the 58 MoE layers x 256 routed experts x 3 x 7,168 x 2,048 =
    // 653,908,770,816 stay. The largest 4-bit matrix stays what it was, the attention's q at 7,168 x
    // (128 heads x 192) = 176,160,768 values (a dense layer's MLP, 7,168 x 18,432, is smaller).
    auto s = training_setup(qlora("deepseek-v3", R"(,"upcast_frozen":false)"));
    REQUIRE(s.ok);
    TrainingParts parts;
    compute_training(s.value, &parts);
    CHECK(parts.stage_experts_unquantized == 58.0 * 256 * 3 * 7168 * 2048);
    CHECK(parts.dequant_values == 7168.0 * 128 * 192);
}

TEST_CASE("Suggestions: a QLoRA with unquantized experts is told to quantize them", "[training][moe_experts][advice]") {
    Config c = qlora("mixtral-8x7b");
    auto s = fit_suggestions(c, 10);
    REQUIRE_FALSE(s.empty());
    bool found = false;
    for (const auto& x : s)
        if (x.id == "experts_quantized") {
            found = true;
            CHECK(x.detail == "training.lora.experts_unquantized: auto (true) -> false");
            CHECK(x.label.find("Axolotl with quantize_moe_experts: true") != std::string::npos);
        }
    CHECK(found);
    // A full fine-tune of the same MoE (46.7B x 16 B: no single card) offered QLoRA on an MI325X (256 GB,
    // where the 186 GB QLoRA fits) is told the experts stay 16-bit.
    Config full = c;
    full.training.finetune = FinetuneMethod::Full;
    full.gpu_id = "mi325x-256gb";
    bool labelled = false;
    for (const auto& x : fit_suggestions(full, 20))
        if (x.id == "qlora") labelled = x.label.find("routed experts stay 16-bit") != std::string::npos;
    CHECK(labelled);
}

TEST_CASE("experts_unquantized false reproduces the figures recorded before the field", "[training][moe_experts]") {
    // tests/golden/expected.jsonl at fa724c9 (before this field): Mixtral-8x7B QLoRA under hf-trainer, 8 GPUs
    // (PP 2 x CP 2 x DP 2), 16 x 2,048 tokens, optimizer offloaded: 208,148,136,591.36 B; DeepSeek-V3 QLoRA
    // in FP32 under torch-compile, FSDP over CP 2: 317,584,085,856.21 B. "false" gives them to the byte.
    auto mixtral = io::parse_config(
        R"({"method":"detailed","task":"finetune","model":{"preset":"mixtral-8x7b"},"batch":16,"seq":2048,"gpu":"rtx-4090-24gb",)"
        R"("parallel":{"tp":1,"pp":2,"sp":false,"cp":2,"schedule":"interleaved","virtual_stages":1},"training":{"precision":"bf16-true",)"
        R"("optimizer":"adamw","sharding":"ddp","recompute":"selective","attention":"auto","profile":"hf-trainer","offload_optimizer":true,)"
        R"("finetune":"qlora","lora":{"rank":16,"targets":"q,v","experts_unquantized":false}},"gpus":8})");
    REQUIRE(mixtral.ok);
    auto e = estimate(mixtral.value);
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes == 208148136591.36);
    auto deepseek = io::parse_config(
        R"({"method":"detailed","task":"finetune","model":{"preset":"deepseek-v3"},"batch":1,"seq":1024,"gpu":"a10g-24gb",)"
        R"("parallel":{"tp":1,"pp":1,"sp":false,"cp":2,"schedule":"1f1b"},"training":{"precision":"fp32","optimizer":"sgd-momentum",)"
        R"("sharding":"fsdp","recompute":"none","attention":"auto","profile":"torch-compile","offload_optimizer":false,"finetune":"qlora",)"
        R"("lora":{"rank":64,"targets":"q,v","experts_unquantized":false}},"gpus":2})");
    REQUIRE(deepseek.ok);
    auto d = estimate(deepseek.value);
    REQUIRE(d.ok);
    CHECK(d.value.total_bytes == 317584085856.21);
}

TEST_CASE("HF inference in bitsandbytes: Mixtral-8x7B's routed experts stay BF16 under transformers 5", "[inference][moe_experts]") {
    auto config = [](const char* weights, const char* extra) {
        const std::string json = std::string(R"({"method":"detailed","task":"inference","gpu":"h100-80gb","model":{"preset":"mixtral-8x7b"},)") +
                                 R"("inference":{"engine":"hf","weights":")" + weights + R"(","hf":{"experts_unquantized":)" + extra + "}}}";
        const auto cfg = io::parse_config(json);
        REQUIRE(cfg.ok);
        const auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        return e.value;
    };
    const Estimate left = config("bnb-nf4-dq", "true"), quantized = config("bnb-nf4-dq", "false");
    // The experts at 2 B instead of 4 + 8/64 + 32/(64 x 256) bits = 0.515869140625 B: +66,930,081,792 B.
    CHECK(left.component("weights")->bytes - quantized.component("weights")->bytes == kMixtralExperts * (2 - kNf4Dq));
    CHECK(left.component("weights")->formula.find("routed experts BF16") != std::string::npos);
    CHECK(has_note(left, "inference.hf.experts_unquantized"));
    CHECK(has_note(left, "84.00 GiB of the weights are the experts"));  // 90,194,313,216 B / 2^30
    CHECK_FALSE(has_note(quantized, "experts_unquantized"));
    // The default is transformers 5's.
    const auto plain = io::parse_config(
        R"({"method":"detailed","task":"inference","gpu":"h100-80gb","model":{"preset":"mixtral-8x7b"},"inference":{"engine":"hf","weights":"bnb-nf4-dq"}})");
    REQUIRE(plain.ok);
    const auto e = estimate(plain.value);
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes == left.total_bytes);
    // A 16-bit checkpoint and the other engines are untouched: bf16 is bf16 either way.
    CHECK(config("bf16", "true").total_bytes == config("bf16", "false").total_bytes);
}
