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

// SHARD_GRAD_OP (training.sharding zero2 / fsdp-shard-grad-op under an FSDP profile): "parameters are sharded
// outside computation ... does not reshard them after the forward, and only reshards them after the backward"
// (pytorch/pytorch@0aafd81 torch/distributed/fsdp/api.py:43-49). Llama-3-8B: 8,030,261,248 parameters
// (32 x 218,103,808 linear + embedding and head 2 x 525,336,576 + norms 266,240).
constexpr double kLlama3Params = 8030261248.0;

TEST_CASE("FSDP SHARD_GRAD_OP under hf-trainer: FP32 params sharded at rest, the BF16 stage gathered to backward", "[training][fsdp]") {
    TrainingParts parts;
    const TrainingResult r = compute_training(setup(llama3("fsdp-shard-grad-op", "none")), &parts);
    // At rest the FP32 flat parameters are sharded over 4 GPUs: 8,030,261,248 x 4 B / 4 = 8,030,261,248 B
    // (not 32,121,044,992 B unsharded, the figure before, as DeepSpeed's ZeRO-2 keeps its 16-bit weights).
    CHECK(r.weights == kLlama3Params * 4 / 4);
    // Gradients and AdamW's moments sharded as before: 8,030,261,248 x 4 / 4 and x 8 / 4.
    CHECK(r.gradients == kLlama3Params * 4 / 4);
    CHECK(r.optimizer == kLlama3Params * 8 / 4);
    // From the end of forward to the backward every unit's unsharded BF16 flat parameter is alive, the embedding,
    // norms and head too (the root unit): 8,030,261,248 x 2 B = 16,060,522,496 B; no autocast copies on top.
    CHECK(parts.gather == kLlama3Params * 2);
    CHECK(parts.gather == 16060522496.0);
    CHECK(parts.autocast_copies == 0);
    // The same run under DeepSpeed's ZeRO-2 keeps its BF16 weights whole: 8,030,261,248 x 2 B, no gather.
    TrainingParts ds_parts;
    const TrainingResult ds = compute_training(setup(llama3("zero2", "none", "deepspeed")), &ds_parts);
    CHECK(ds.weights == kLlama3Params * 2);
    CHECK(ds_parts.gather == 0);
    // The estimate's formulas say so.
    const auto e = estimate(llama3("fsdp-shard-grad-op", "none"));
    REQUIRE(e.ok);
    bool weights_sharded = false, gathered = false;
    for (const auto& c : e.value.components) {
        if (c.formula.find("FSDP SHARD_GRAD_OP shards the parameters at rest") != std::string::npos) weights_sharded = true;
        if (c.formula.find("FSDP SHARD_GRAD_OP: the stage's parameters gathered") != std::string::npos) gathered = true;
    }
    CHECK(weights_sharded);
    CHECK(gathered);
}

TEST_CASE("FSDP SHARD_GRAD_OP: torchtitan gathers BF16, one GPU keeps only the BF16 cast", "[training][fsdp]") {
    // torchtitan's fully_shard(reshard_after_forward=False): FP32 shards, BF16 gathered (its MixedPrecisionPolicy).
    TrainingParts tt;
    const TrainingResult t = compute_training(setup(llama3("zero2", "none", "torchtitan")), &tt);
    CHECK(t.weights == kLlama3Params * 4 / 4);
    CHECK(tt.gather == kLlama3Params * 2);
    // One GPU: FSDP runs NO_SHARD, nothing to gather; accelerate's param_dtype BF16 still casts the FP32 flat
    // parameters for forward and keeps the cast to backward: 8,030,261,248 x 2 B, the FP32 weights whole.
    Config one = llama3("fsdp-shard-grad-op", "none");
    one.gpus = 1;
    TrainingParts p1;
    const TrainingResult r1 = compute_training(setup(one), &p1);
    CHECK(r1.weights == kLlama3Params * 4);
    CHECK(p1.gather == kLlama3Params * 2);
}

TEST_CASE("LitGPT's FSDP under bf16-mixed gathers FP32 parameters and autocast copies them", "[training][fsdp]") {
    // Lightning Fabric's FSDPPrecision("bf16-mixed"): MixedPrecision(param_dtype=torch.float32, reduce_dtype=
    // buffer_dtype=bf16) and forward under torch.autocast (Lightning-AI/pytorch-lightning@b89ca6e
    // src/lightning/fabric/plugins/precision/fsdp.py). Llama-3-8B, 4 GPUs, FULL_SHARD (LitGPT's FSDPStrategy default).
    TrainingParts full;
    const TrainingSetup s = setup(llama3("fsdp-full-shard", "none", "litgpt"));
    CHECK(s.autocast_active);
    CHECK(s.residual == 4);
    const TrainingResult r = compute_training(s, &full);
    CHECK(r.weights == kLlama3Params * 4 / 4);
    // Gathered at 4 B: two layers (current + prefetched) of 218,112,000 params, and the head 525,336,576 x (4 + 4 B
    // reduce buffer): 1,744,896,000 + 4,202,692,608 = 5,947,588,608 B (2 B a value before: 3,024,420,864 B).
    CHECK(full.gather == 2 * 218112000.0 * 4 + 525336576.0 * 8);
    CHECK(full.gather == 5947588608.0);
    // Autocast's BF16 copy of every matmul weight, saved by its matmul for backward, which FSDP's reshard does not
    // free: (32 x 218,103,808 + the head 525,336,576) x 2 B = 15,009,316,864 B (0 before).
    CHECK(full.autocast_copies == (32 * 218103808.0 + 525336576.0) * 2);
    // bf16-true (LitGPT's default precision): BF16 parameters, gathered in BF16, no autocast.
    Config true16 = llama3("fsdp-full-shard", "none", "litgpt");
    true16.training.precision = TrainPrecision::Bf16True;
    TrainingParts t16;
    compute_training(setup(true16), &t16);
    CHECK(t16.gather == 2 * 218112000.0 * 2 + 525336576.0 * 6);
    CHECK(t16.autocast_copies == 0);
    // SHARD_GRAD_OP under LitGPT bf16-mixed: the whole FP32 stage gathered, 8,030,261,248 x 4 B, and the copies.
    TrainingParts go;
    compute_training(setup(llama3("fsdp-shard-grad-op", "none", "litgpt")), &go);
    CHECK(go.gather == kLlama3Params * 4);
    CHECK(go.autocast_copies == full.autocast_copies);
}
