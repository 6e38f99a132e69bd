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
#include "training_helpers.hpp"

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
            if (n.find("FSDP mixed precision (param_dtype 16-bit: accelerate's MixedPrecision") != std::string::npos) return true;
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

TEST_CASE("LitGPT full fine-tuning under FSDP bf16-mixed: Lightning 2.6's BF16 gathers, no autocast copies", "[training][fsdp][litgpt]") {
    // finetune/full.py's FSDPStrategy takes Fabric's FSDPPrecision("bf16-mixed"): MixedPrecision(param_dtype=
    // reduce_dtype=buffer_dtype=bf16) since Lightning 2.6.0 over FP32 parameters at rest (Lightning-AI/pytorch-lightning
    // @7f0c343 src/lightning/fabric/plugins/precision/fsdp.py:68-76, 94-97, 114-115; LitGPT requires lightning>=2.6.1).
    // Llama-3-8B, 4 GPUs, FULL_SHARD (FSDPStrategy's default), as accelerate's policy does.
    TrainingParts full;
    const TrainingSetup s = setup(llama3("fsdp-full-shard", "none", "litgpt"));
    CHECK(s.fsdp_params_16bit);
    CHECK_FALSE(s.autocast_active);
    CHECK(s.residual == 2);
    const TrainingResult r = compute_training(s, &full);
    CHECK(r.weights == kLlama3Params * 4 / 4);
    // Gathered at 2 B: two layers (current + prefetched) of 218,112,000 params, and the head 525,336,576 x (2 + 4 B
    // reduce buffer): 872,448,000 + 3,152,019,456 = 4,024,467,456 B (5,947,588,608 B at Lightning 2.5's FP32).
    CHECK(full.gather == 2 * 218112000.0 * 2 + 525336576.0 * 6);
    CHECK(full.gather == 4024467456.0);
    CHECK(full.autocast_copies == 0);  // the gathered weights are BF16 already: autocast casts nothing
    // bf16-true: BF16 parameters, gathered in BF16, no autocast: the same gathers.
    Config true16 = llama3("fsdp-full-shard", "none", "litgpt");
    true16.training.precision = TrainPrecision::Bf16True;
    TrainingParts t16;
    compute_training(setup(true16), &t16);
    CHECK(t16.gather == full.gather);
    CHECK(t16.autocast_copies == 0);
    // SHARD_GRAD_OP: the whole stage gathered in BF16, 8,030,261,248 x 2 B.
    TrainingParts go;
    compute_training(setup(llama3("fsdp-shard-grad-op", "none", "litgpt")), &go);
    CHECK(go.gather == kLlama3Params * 2);
    CHECK(go.autocast_copies == 0);
}

TEST_CASE("LitGPT recompute auto: every block checkpointed when its fine-tuning scripts run on more than one GPU", "[training][litgpt]") {
    // finetune/full.py: FSDPStrategy(activation_checkpointing_policy={Block}) when devices x num_nodes > 1; lora.py:
    // parallelize_fn(activation_checkpointing=True); one device: strategy "auto"; pretrain.py's FSDPStrategy has no
    // checkpointing policy (Lightning-AI/litgpt@2685705 litgpt/finetune/full.py:107-114, finetune/lora.py:152-161 and
    // 522-528, pretrain.py:142-143).
    Config ft = llama3("fsdp-full-shard", "auto", "litgpt");
    CHECK(resolved_recompute(ft) == Recompute::Full);
    CHECK(recompute_from_multi_gpu_rule(ft));
    const auto e = estimate(ft);
    REQUIRE(e.ok);
    CHECK(test::has_note(e.value, "LitGPT's fine-tuning scripts checkpoint every transformer block on more than one GPU"));
    // Llama-3-8B, 32 x 512 tokens a GPU: with full recomputation each layer keeps its BF16 input, 16,384 x 4,096 x 2 B
    // = 134,217,728 B, instead of its whole activations; the estimate is the same as recompute full stated.
    Config stated = ft;
    stated.training.recompute = Recompute::Full;
    const TrainingResult a = test::trained(ft);
    const TrainingResult b = test::trained(stated);
    CHECK(a.activations == b.activations);
    CHECK(a.device_total == b.device_total);
    Config none = ft;
    none.training.recompute = Recompute::None;
    CHECK(test::trained(none).activations > 5 * a.activations);
    CHECK_FALSE(test::has_note(estimate(stated).value, "LitGPT's fine-tuning scripts checkpoint"));  // stated: no note
    // LoRA (lora.py) on 4 GPUs too; one GPU, pretraining (task training, full), and other profiles: none.
    Config lora = ft;
    lora.training.finetune = FinetuneMethod::Lora;
    lora.task = Task::Training;  // a LoRA run is lora.py whatever the task says
    CHECK(resolved_recompute(lora) == Recompute::Full);
    Config one = ft;
    one.gpus = 1;
    one.training.sharding = Sharding::None;
    CHECK(resolved_recompute(one) == Recompute::None);
    Config pretrain = ft;
    pretrain.task = Task::Training;
    CHECK(resolved_recompute(pretrain) == Recompute::None);
    for (const char* profile : {"hf-trainer", "torchtune", "torchtitan", "deepspeed"}) {
        Config other = ft;
        other.training.profile = profile;
        CHECK(resolved_recompute(other) == Recompute::None);
    }
}

TEST_CASE("LitGPT LoRA under bf16-mixed: the frozen base in FP32 and autocast's per-call copies", "[training][litgpt][lora]") {
    // lora.py builds GPT(config) inside fabric.init_module() (litgpt/finetune/lora.py:210-211): under "bf16-mixed" Fabric's
    // MixedPrecision plugin has no module_init_context, so Precision's nullcontext keeps FP32 (Lightning-AI/pytorch-lightning
    // @7f0c343 src/lightning/fabric/plugins/precision/precision.py:60-66) and load_checkpoint copies the BF16 checkpoint
    // into FP32 parameters. Llama-3-8B, LoRA r16 on q and v, one GPU, 32 x 512 tokens, recompute none.
    Config one = llama3("ddp", "none", "litgpt");
    one.gpus = 1;
    one.training.finetune = FinetuneMethod::Lora;
    one.training.lora.rank = 16;
    TrainingParts p;
    const TrainingSetup s = setup(one);
    CHECK(s.lora_base_fp32);
    CHECK(s.autocast_active);
    CHECK(s.residual == 4);
    CHECK(s.weight_bytes == 4);
    const TrainingResult r = compute_training(s, &p);
    // Adapters: 32 layers x 16 x ((4,096 + 4,096) + (4,096 + 1,024)) = 6,815,744 params, FP32.
    const double adapters = 32 * 16.0 * (8192 + 5120);
    CHECK(adapters == 6815744.0);
    CHECK(r.weights == kLlama3Params * 4 + adapters * 4);
    // Autocast casts every frozen linear weight at each call and the matmul keeps the BF16 copy for backward:
    // (32 x 218,103,808 + the head 525,336,576) x 2 B = 15,009,316,864 B.
    CHECK(p.autocast_copies == (32 * 218103808.0 + 525336576.0) * 2);
    // With every block checkpointed only one block's copies live (its recompute to its backward) and the head's:
    // (218,103,808 + 525,336,576) x 2 = 1,486,880,768 B.
    Config ckpt = one;
    ckpt.training.recompute = Recompute::Full;
    TrainingParts pc;
    compute_training(setup(ckpt), &pc);
    CHECK(pc.autocast_copies == 1486880768.0);
    // bf16-true builds in BF16 (HalfPrecision.module_init_context): 2 B a frozen weight, no copies.
    Config true16 = one;
    true16.training.precision = TrainPrecision::Bf16True;
    TrainingParts pt;
    const TrainingResult rt = compute_training(setup(true16), &pt);
    CHECK(rt.weights == kLlama3Params * 2 + adapters * 2);
    CHECK(pt.autocast_copies == 0);
    // training.lora.base_fp32 false: a 16-bit base under bf16-mixed, as hf-trainer's LoRA.
    Config off = one;
    off.training.lora.base_fp32 = Toggle::Off;
    const TrainingSetup so = setup(off);
    CHECK_FALSE(so.autocast_active);
    CHECK(so.residual == 2);
    CHECK(compute_training(so, nullptr).weights == kLlama3Params * 2 + adapters * 4);
    // The estimate notes it.
    const auto e = estimate(one);
    REQUIRE(e.ok);
    CHECK(test::has_note(e.value, "Frozen base in FP32 (training.lora.base_fp32 auto)"));
    // 4 GPUs: lora.py's ModelParallelStrategy, fully_shard with no policy, gathers the FP32 base per block, and auto
    // checkpoints every block: two layers x 218,112,000 x 4 B + the head 525,336,576 x (4 + 4 B) = 5,947,588,608 B,
    // and the checkpointed block's and the head's copies, 1,486,880,768 B.
    Config four = llama3("fsdp-full-shard", "auto", "litgpt");
    four.training.finetune = FinetuneMethod::Lora;
    four.training.lora.rank = 16;
    TrainingParts pf;
    const TrainingSetup sf = setup(four);
    CHECK(sf.recompute == Recompute::Full);
    CHECK(fsdp_gathered_bytes(sf) == 4);
    compute_training(sf, &pf);
    CHECK(pf.gather == 5947588608.0);
    CHECK(pf.autocast_copies == 1486880768.0);
    // hf-trainer's LoRA base stays BF16 (from_pretrained's torch_dtype): unchanged.
    Config hf = one;
    hf.training.profile = "hf-trainer";
    CHECK_FALSE(setup(hf).lora_base_fp32);
}
