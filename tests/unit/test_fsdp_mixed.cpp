// FSDP mixed precision under the HF Trainer (accelerate), checked by hand. accelerate sets
// MixedPrecision(param_dtype = reduce_dtype = buffer_dtype = bf16) for --bf16 (huggingface/accelerate@16cb6eb
// src/accelerate/utils/dataclasses.py:2092-2126, state.py:1012-1013): the layers compute on the gathered BF16
// parameters, so the residual stream and the saved activations are BF16 where plain autocast over FP32
// parameters keeps an FP32 stream (ProfileBehaviour::fsdp_params_16bit).
#include <catch.hpp>

#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "config_text.hpp"

using namespace vc;

namespace {

// Meta-Llama-3-8B full fine-tune, BF16 mixed, 4 GPUs, micro-batch 32 x 512 (Liger's example chart, extra.csv X71),
// under `sharding`, `recompute` and `profile`; its training setup.
Config llama3(const char* sharding, const char* recompute, const char* profile = "hf-trainer") {
    const std::string json = std::string(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3-8b"},"gpus":4,)") +
                             R"("batch":32,"seq":512,"training":{"finetune":"full","precision":"bf16-mixed","sharding":")" + sharding +
                             R"(","recompute":")" + recompute + R"(","profile":")" + profile + "\"}}";
    return test::parse(json.c_str());
}

TrainingSetup setup(const Config& c) {
    auto made = training_setup(c);
    INFO(made.error.field << ": " << made.error.message);
    REQUIRE(made.ok);
    return made.value;
}

constexpr double kHidden = 4096, kFfn = 14336, kTokens = 32 * 512;

}  // namespace

TEST_CASE("FSDP under hf-trainer: the gathered BF16 parameters make the residual stream BF16", "[training][fsdp]") {
    const TrainingSetup fsdp = setup(llama3("fsdp-full-shard", "none"));
    CHECK(fsdp.fsdp_params_16bit);
    CHECK_FALSE(fsdp.autocast_active);
    CHECK(fsdp.residual == 2);
    // The sharded parameters stay FP32 (accelerate upcasts the flat params): 8.03e9 x 4 B / 4 GPUs.
    CHECK(fsdp.weight_bytes == 4);
    // DDP: autocast over the FP32 parameters, an FP32 stream.
    const TrainingSetup ddp = setup(llama3("ddp", "none"));
    CHECK_FALSE(ddp.fsdp_params_16bit);
    CHECK(ddp.autocast_active);
    CHECK(ddp.residual == 4);
    // hybrid-shard and SHARD_GRAD_OP take the same policy; torchtitan has its own (no autocast: already 2).
    auto hybrid = llama3("hybrid-shard", "none");
    hybrid.training.shard_group = 2;
    CHECK(setup(hybrid).residual == 2);
    CHECK(setup(llama3("fsdp-shard-grad-op", "none")).residual == 2);
    CHECK(setup(llama3("fsdp-full-shard", "none", "torch-compile")).residual == 2);
    CHECK_FALSE(setup(llama3("fsdp-full-shard", "none", "torchtitan")).fsdp_params_16bit);
    // LoRA was 16-bit already (the base loaded in BF16): unchanged.
    auto lora = llama3("fsdp-full-shard", "none");
    lora.training.finetune = FinetuneMethod::Lora;
    CHECK_FALSE(setup(lora).fsdp_params_16bit);
}

TEST_CASE("FSDP under hf-trainer: Llama-3-8B 32 x 512 on 4 GPUs, a layer's activations by hand", "[training][fsdp]") {
    const TrainingResult fsdp = compute_training(setup(llama3("fsdp-full-shard", "none")), nullptr);
    const TrainingResult ddp = compute_training(setup(llama3("ddp", "none")), nullptr);
    // A layer, per token, BF16 stream (recompute none, SDPA, eager RMSNorm):
    //   2 RMSNorms: FP32 copy 4 h + the normalised BF16 tensor 2 h (the weight trains)  2 x 6 x 4,096 =  49,152
    //   q/k/v input, BF16, once (nothing to cast)                                      2 x 4,096     =   8,192
    //   SDPA: q, K and V repeated to 32 heads, output, 2 x (4 x 4,096), FP32 LSE 4 x 32              =  32,896
    //   gate/up input, once                                                            2 x 4,096     =   8,192
    //   SwiGLU: gate, activation, up outputs and the down projection's input           4 x 2 x 14,336 = 114,688
    // 213,120 B a token; x 16,384 tokens = 3,491,758,080 B a layer.
    CHECK(fsdp.activation_bytes_per_layer == kTokens * (2 * 6 * kHidden + 2 * kHidden + (2 * 4 * kHidden + 4 * 32) + 2 * kHidden + 4 * 2 * kFfn));
    CHECK(fsdp.activation_bytes_per_layer == 3491758080.0);
    // Under autocast (DDP) the norms' normalised tensors are FP32 (8 h each) and autocast casts the FP32 norm
    // output once per projection (3 for q/k/v, 2 for gate/up): 254,080 B a token, 40,960 (10 h) more.
    CHECK(ddp.activation_bytes_per_layer - fsdp.activation_bytes_per_layer == kTokens * 10 * kHidden);
    CHECK(ddp.activation_bytes_per_layer == 4162846720.0);
}

TEST_CASE("FSDP under hf-trainer: full recomputation keeps each layer's BF16 input", "[training][fsdp]") {
    TrainingParts fsdp_parts, ddp_parts;
    const TrainingSetup fsdp = setup(llama3("fsdp-full-shard", "full"));
    compute_training(fsdp, &fsdp_parts);
    compute_training(setup(llama3("ddp", "full")), &ddp_parts);
    // 32 layers x 16,384 tokens x 4,096 x 2 B = 4,294,967,296 B (8,589,934,592 B with autocast's FP32 stream).
    CHECK(fsdp_parts.stage_act_one_mb == 32 * kTokens * kHidden * 2);
    CHECK(fsdp_parts.stage_act_one_mb == 4294967296.0);
    CHECK(ddp_parts.stage_act_one_mb == 2 * fsdp_parts.stage_act_one_mb);
    // The gathered buffers were BF16 before and are unchanged: two layers (current + prefetched) of
    // 218,112,000 params x 2 B, and the LM head 525,336,576 x (2 + 4) B.
    CHECK(fsdp_parts.gather == 2 * 218112000.0 * 2 + 525336576.0 * 6);
    CHECK(fsdp_parts.autocast_copies == 0);
}

TEST_CASE("FSDP under hf-trainer: the estimate says the stream is 16-bit", "[training][fsdp]") {
    const auto with = estimate(llama3("fsdp-full-shard", "full"));
    const auto without = estimate(llama3("ddp", "full"));
    REQUIRE(with.ok);
    REQUIRE(without.ok);
    auto noted = [](const Estimate& e) {
        for (const std::string& n : e.notes)
            if (n.find("FSDP mixed precision (accelerate's MixedPrecision") != std::string::npos) return true;
        return false;
    };
    CHECK(noted(with.value));
    CHECK_FALSE(noted(without.value));
}
