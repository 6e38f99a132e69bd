// training.liger: Liger Kernel (use_liger_kernel) in the detailed training model, checked by hand. Sources
// (linkedin/Liger-Kernel@ead96b6): ops/fused_linear_cross_entropy.py:68-69 (the chunk), :72-86 (the
// gradients and the per-token loss it allocates), :235-257 (the head gradient's matmul); ops/rms_norm.py:452-453,
// :656-657 (LigerRMSNorm saves X and an FP32 rstd); ops/swiglu.py:262 (the gate and up outputs only);
// transformers/monkey_patch.py (which families, apply_liger_kernel_to_*).
#include <catch.hpp>

#include <algorithm>
#include <string>

#include "core/advice.hpp"
#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "io/config_json.hpp"

using namespace vc;
using Catch::Detail::Approx;

namespace {

// Llama-3.1-8B (h 4,096, ffn 14,336, vocab 128,256, 32 layers), one sequence of `seq` tokens, BF16 mixed,
// recomputation off, under `profile`; `training` adds members to the training section.
Config llama(const char* finetune, const std::string& training = "", const char* profile = "hf-trainer", double seq = 4096,
             const char* preset = "llama-3.1-8b") {
    auto cfg = io::parse_config(std::string(R"({"method":"detailed","task":"finetune","model":{"preset":")") + preset +
                                R"("},"batch":1,"seq":)" + std::to_string(static_cast<long long>(seq)) +
                                R"(,"training":{"recompute":"none","finetune":")" + finetune + R"(","profile":")" + profile + "\"" + training + "}}");
    REQUIRE(cfg.ok);
    return cfg.value;
}

TrainingResult result(const Config& c) {
    auto r = training_result(c);
    REQUIRE(r.ok);
    return r.value;
}

bool has_note(const Estimate& e, const char* text) {
    return std::any_of(e.notes.begin(), e.notes.end(), [text](const std::string& n) { return n.find(text) != std::string::npos; });
}

constexpr double kVocab = 128256, kHidden = 4096, kFfn = 14336, kTokens = 4096;

}  // namespace

TEST_CASE("Liger's FLCE chunk: next power of 2 of tokens / ceil(vocab / hidden)", "[training][liger]") {
    // Llama-3.1-8B: ceil(128,256 / 4,096) = 32; 4,096 tokens / 32 = 128 rows a chunk.
    CHECK(liger_flce_chunk_rows(4096, kVocab, kHidden) == 128);
    // The source's own example (fused_linear_cross_entropy.py:63): BT 16,384, V 32,000, H 4,096: 8, 2,048.
    CHECK(liger_flce_chunk_rows(16384, 32000, 4096) == 2048);
    // 3,000 tokens: ceil(3,000 / 32) = 94 -> 128.
    CHECK(liger_flce_chunk_rows(3000, kVocab, kHidden) == 128);
}

TEST_CASE("Liger, Llama-3.1-8B LoRA 1 x 4096: the logits and the per-layer activations by hand", "[training][liger]") {
    const TrainingResult off = result(llama("lora"));
    const TrainingResult on = result(llama("lora", R"(,"liger":true)"));
    // Before: HF's loss upcasts 4,096 x 128,256 logits to FP32, 12 B a logit at its backward (saved log-softmax,
    // its gradient, the logits' gradient): 6,304,038,912 B.
    CHECK(off.logits_loss == kTokens * kVocab * 12);
    CHECK(off.logits_loss == 6304038912.0);
    // After: one chunk of 128 rows of BF16 logits (autocast) 128 x 128,256 x 2 = 32,833,536 B, its
    // `grad_logits_chunk @ weight` 128 x 4,096 x 2 = 1,048,576 B, the hidden states' gradient (BF16 stream,
    // a 16-bit LoRA base) 4,096 x 4,096 x 2 = 33,554,432 B, no head gradient (frozen), FP32 loss 4,096 x 4 =
    // 16,384 B: 67,452,928 B.
    CHECK(on.logits_loss == 128 * kVocab * 2 + 128 * kHidden * 2 + kTokens * kHidden * 2 + kTokens * 4);
    CHECK(on.logits_loss == 67452928.0);
    // A layer, per token: eager RMSNorm's FP32 copy 4 h twice -> LigerRMSNorm's BF16 input 2 h and a 4 B rstd
    // twice (32,768 -> 16,392 B); the SwiGLU's gate, activation and up outputs 3 x 2 f -> gate and up 2 x 2 f
    // (86,016 -> 57,344 B). 45,048 B a token, 184,516,608 B a layer at 4,096 tokens.
    CHECK(off.activation_bytes_per_layer - on.activation_bytes_per_layer == kTokens * (2 * (4 * kHidden - (2 * kHidden + 4)) + 2 * kFfn));
    CHECK(off.activation_bytes_per_layer - on.activation_bytes_per_layer == 184516608.0);
    // 32 layers and the final norm (4 h -> 2 h + 4 a token: 33,538,048 B): 5,938,069,504 B fewer activations.
    CHECK(off.activations - on.activations == 32 * 184516608.0 + kTokens * (4 * kHidden - (2 * kHidden + 4)));
    CHECK(off.activations - on.activations == 5938069504.0);
    // Nothing else moves but the temporaries' allocator share.
    CHECK(on.weights == off.weights);
    CHECK(on.optimizer == off.optimizer);
    CHECK(on.temporary == off.temporary);
}

TEST_CASE("Liger, Llama-3.1-8B full fine-tune 1 x 4096 (autocast, FP32 params): the head's FP32 gradient in the loss", "[training][liger]") {
    TrainingSetup s = [] {
        auto setup = training_setup(llama("full", R"(,"liger":true)"));
        REQUIRE(setup.ok);
        return setup.value;
    }();
    TrainingParts parts;
    const TrainingResult on = compute_training(s, &parts);
    const TrainingResult off = result(llama("full"));
    CHECK(off.logits_loss == 6304038912.0);
    // The chunk's BF16 logits 32,833,536 B; the FP32 residual stream's gradient 4,096 x 4,096 x 4 = 67,108,864 B;
    // the head's gradient zeros_like(weight), FP32: 128,256 x 4,096 x 4 = 2,101,346,304 B; the FP32 gradient and
    // BF16 logits take torch.addmm's out_dtype path (no V x h temporary), so the chunk's temporary is
    // 128 x 4,096 x 2 = 1,048,576 B; the loss 16,384 B: 2,202,353,664 B.
    CHECK(parts.liger_grad_weight == kVocab * kHidden * 4);
    CHECK(parts.liger_grad_input == kTokens * kHidden * 4);
    CHECK(parts.liger_temporaries == 128 * kHidden * 2);
    CHECK(on.logits_loss == 32833536.0 + 67108864.0 + 2101346304.0 + 1048576.0 + 16384.0);
    // A layer, per token: the FP32 copy and the FP32 normalised tensor (its weight trains) 8 h twice -> 4 h + 4
    // twice (32,760 B), and 2 f of the SwiGLU (28,672 B): 61,432 B.
    CHECK(off.activation_bytes_per_layer - on.activation_bytes_per_layer == kTokens * 61432);
    // The final norm 8 h -> 4 h + 4, and the head's BF16 input 2 h is not kept (the fused loss keeps none):
    // 40,960 -> 16,388 B a token.
    CHECK(off.activations - on.activations == 32 * kTokens * 61432 + kTokens * (10 * kHidden - (4 * kHidden + 4)));
}

TEST_CASE("Liger under deepspeed (BF16 params): the head's BF16 gradient takes mm's result and its FP32 copy", "[training][liger]") {
    const TrainingResult on = result(llama("full", R"(,"liger":true)", "deepspeed"));
    // grad_weight BF16 128,256 x 4,096 x 2 = 1,050,673,152 B; `torch.mm(...).float()`: a BF16 V x h and its
    // FP32 copy, 6 B a head weight = 3,152,019,456 B; the BF16 stream's gradient 33,554,432 B; the chunk's
    // logits 32,833,536 B and the loss 16,384 B: 4,269,096,960 B (6,304,038,912 B without).
    CHECK(on.logits_loss == 1050673152.0 + 3152019456.0 + 33554432.0 + 32833536.0 + 16384.0);
    CHECK(result(llama("full", "", "deepspeed")).logits_loss == 6304038912.0);
}

TEST_CASE("Liger: a stack with its own model, or a family without a patch, is unchanged, and noted", "[training][liger]") {
    for (const char* profile : {"torchtune", "litgpt", "torchtitan", "megatron", "hf-legacy"}) {
        INFO(profile);
        const TrainingResult off = result(llama("lora", "", profile));
        const TrainingResult on = result(llama("lora", R"(,"liger":true)", profile));
        CHECK(on.device_total == off.device_total);
        CHECK(on.logits_loss == off.logits_loss);
        CHECK(on.activations == off.activations);
        auto e = estimate(llama("lora", R"(,"liger":true)", profile));
        REQUIRE(e.ok);
        CHECK(has_note(e.value, "nothing changed"));
    }
    // Falcon-7B (model type falcon: no apply_liger_kernel_to_* entry) under hf-trainer.
    const TrainingResult off = result(llama("lora", "", "hf-trainer", 2048, "falcon-7b"));
    const TrainingResult on = result(llama("lora", R"(,"liger":true)", "hf-trainer", 2048, "falcon-7b"));
    CHECK(on.device_total == off.device_total);
    auto e = estimate(llama("lora", R"(,"liger":true)", "hf-trainer", 2048, "falcon-7b"));
    REQUIRE(e.ok);
    CHECK(has_note(e.value, "Liger has no patch for Falcon-7B"));
}

TEST_CASE("Liger: gpt-oss keeps its own expert activation (swiglu False), norms and loss patched", "[training][liger]") {
    auto s = training_setup(llama("lora", R"(,"liger":true)", "hf-trainer", 2048, "gpt-oss-20b"));
    REQUIRE(s.ok);
    CHECK(s.value.liger.flce);
    CHECK(s.value.liger.rms_norm);
    CHECK_FALSE(s.value.liger.glu);
    auto l = training_setup(llama("lora", R"(,"liger":true)"));
    REQUIRE(l.ok);
    CHECK(l.value.liger.glu);
    CHECK(std::string(l.value.liger.fn) == "apply_liger_kernel_to_llama");
}

TEST_CASE("Liger under trl: loss_type nll with Liger's fused loss in place of chunked_nll; chunked_nll refused", "[training][liger][trl]") {
    // TRL's loss_type defaults to "nll" under use_liger_kernel, so the model's forward (Liger's lce_forward) computes
    // the loss: hf-trainer's bytes with Liger (67,452,928 B), plus the FP32 token accuracy TRL asks Liger for
    // (return_token_accuracy, trl@f2cd577 sft_trainer.py:1736; Liger's token_accuracy_1d, one FP32 value a token,
    // fused_linear_cross_entropy.py:88): 4,096 x 4 = 16,384 B, 67,469,312 B.
    const TrainingResult trl = result(llama("lora", R"(,"liger":true)", "trl"));
    const TrainingResult hf = result(llama("lora", R"(,"liger":true)"));
    CHECK(hf.logits_loss == 67452928.0);
    CHECK(trl.logits_loss == 67452928.0 + 4096 * 4);
    CHECK(trl.logits_loss == 67469312.0);
    auto bad = training_result(llama("lora", R"(,"liger":true,"loss_chunk_tokens":256)", "trl"));
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "training.loss_chunk_tokens");
    CHECK(bad.error.message.find("chunked_nll") != std::string::npos);
    // A head adapter, which chunked_nll refuses, is accepted with Liger (its loss is "nll").
    CHECK(training_result(llama("lora", R"(,"liger":true,"lora":{"targets":["q","v","head"]})", "trl")).ok);
}

TEST_CASE("Liger bypasses a LoRA adapter on the LM head: no gradient, no optimizer state, a warning", "[training][liger]") {
    // Liger's fused loss reads lm_head.weight, which peft's LoRA layer returns as its base layer's weight: the head's
    // adapter, r (h + V) = 16 x (4,096 + 128,256) = 2,117,632 params, never enters the loss. Llama-3.1-8B LoRA (FP32
    // adapters under autocast): its weights stay (x 4 B), its gradient (x 4 B) and AdamW's moments (x 8 B) go.
    const double head = 16.0 * (4096 + 128256);
    REQUIRE(head == 2117632.0);
    const TrainingResult with = result(llama("lora", R"(,"liger":true,"lora":{"targets":["q","v","head"]})"));
    const TrainingResult plain = result(llama("lora", R"(,"lora":{"targets":["q","v","head"]})"));
    const TrainingResult qv = result(llama("lora", R"(,"liger":true,"lora":{"targets":["q","v"]})"));
    CHECK(with.weights - qv.weights == head * 4);
    CHECK(with.gradients == qv.gradients);
    CHECK(with.optimizer == qv.optimizer);
    CHECK(plain.optimizer - qv.optimizer == head * 8);  // without Liger the adapter trains
    CHECK(with.params_trainable == plain.params_trainable);  // peft still marks it trainable
    const auto e = estimate(llama("lora", R"(,"liger":true,"lora":{"targets":["q","v","head"]})"));
    REQUIRE(e.ok);
    bool warned = false;
    for (const std::string& n : e.value.notes)
        if (n.find("Warning: training.lora.targets names the LM head") != std::string::npos &&
            n.find("training.liger") != std::string::npos)
            warned = true;
    CHECK(warned);
}

TEST_CASE("Liger under FSDP SHARD_GRAD_OP: the head's gradient in the gathered dtype, as under ZeRO-3", "[training][liger][fsdp]") {
    // Liger's grad_weight = zeros_like(weight) (fused_linear_cross_entropy.py:77) takes the dtype of the head it reads:
    // FSDP's unsharded parameter in param_dtype, BF16 under accelerate's policy, for SHARD_GRAD_OP (the whole stage
    // gathered from forward to backward) as for FULL_SHARD. Llama-3.1-8B full fine-tune, 4 GPUs, hf-trainer:
    // 128,256 x 4,096 x 2 = 1,050,673,152 B (2,101,346,304 B, the FP32 parameter's dtype, before), and the BF16
    // gradient takes mm's BF16 V x h result and its FP32 copy, 6 B a head weight = 3,152,019,456 B.
    auto parts_of = [](const char* sharding) {
        Config c = llama("full", std::string(R"(,"liger":true,"sharding":")") + sharding + "\"");
        c.gpus = 4;
        auto setup = training_setup(c);
        REQUIRE(setup.ok);
        TrainingParts p;
        compute_training(setup.value, &p);
        return p;
    };
    const TrainingParts go = parts_of("fsdp-shard-grad-op"), full = parts_of("fsdp-full-shard");
    CHECK(go.liger_grad_weight == kVocab * kHidden * 2);
    CHECK(go.liger_grad_weight == 1050673152.0);
    CHECK(go.liger_temporaries == kVocab * kHidden * 6);
    CHECK(go.liger_grad_weight == full.liger_grad_weight);
    CHECK(go.liger_temporaries == full.liger_temporaries);
    // DDP keeps the FP32 parameter: its FP32 gradient, no V x h temporary.
    CHECK(parts_of("ddp").liger_grad_weight == kVocab * kHidden * 4);
}

TEST_CASE("Liger's bypassed LoRA head adapter under DDP: its bucket slot stays, the warning names find_unused_parameters", "[training][liger]") {
    // DDP buckets every parameter that requires grad, used or not (torch/nn/parallel/distributed.py
    // _build_params_for_reducer): the head adapter's 16 x (4,096 + 128,256) = 2,117,632 FP32 gradients, 8,470,528 B,
    // in the bucket copy though the adapter gets no gradient. Llama-3.1-8B LoRA on q, v and head, 2 GPUs.
    Config c = llama("lora", R"(,"liger":true,"sharding":"ddp","lora":{"targets":["q","v","head"]})");
    c.gpus = 2;
    auto setup = training_setup(c);
    REQUIRE(setup.ok);
    TrainingParts p;
    compute_training(setup.value, &p);
    CHECK(p.head_adapter_bypassed == 2117632.0);
    CHECK(p.ddp_copy - p.grads_full == 2117632.0 * 4);
    const auto e = estimate(c);
    REQUIRE(e.ok);
    CHECK(has_note(e.value, "needs find_unused_parameters"));
    CHECK_FALSE(has_note(estimate(llama("lora", R"(,"liger":true,"lora":{"targets":["q","v","head"]})")).value, "find_unused_parameters"));
}

TEST_CASE("Liger: training.liger_chunk_tokens overrides the chunk; the note says what it saved", "[training][liger]") {
    // 1,024-row chunks: 1,024 x 128,256 x 2 = 262,668,288 B of logits, 1,024 x 4,096 x 2 = 8,388,608 B temporary.
    const TrainingResult big = result(llama("lora", R"(,"liger":true,"liger_chunk_tokens":1024)"));
    CHECK(big.logits_loss == 1024 * kVocab * 2 + 1024 * kHidden * 2 + kTokens * kHidden * 2 + kTokens * 4);
    auto bad = training_result(llama("lora", R"(,"liger":true,"liger_chunk_tokens":-5)"));
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "training.liger_chunk_tokens");
    auto e = estimate(llama("lora", R"(,"liger":true)"));
    REQUIRE(e.ok);
    // Peak allocated: the loss 6.30 -> 0.07 GB and the activations 5.94 GB fewer.
    CHECK(has_note(e.value, "apply_liger_kernel_to_llama swaps in Liger's fused linear cross-entropy (LM head and loss), RMSNorm, SwiGLU and RoPE"));
    CHECK(has_note(e.value, "logits and loss 6.30 GB -> 0.07 GB"));
}

TEST_CASE("Liger: suggested when the logits outweigh the activations and the stack takes it", "[training][liger][advice]") {
    // LoRA of Llama-3.1-8B, 1 x 32,768 tokens, full recomputation, on an H100 80GB (target 75%): HF's FP32 loss
    // holds 32,768 x 128,256 x 12 B = 50.4 GB, the activations a few GB: Liger's fused loss brings it within.
    Config c = llama("lora", R"(,"recompute":"full")", "hf-trainer", 32768);
    c.gpu_id = "h100-80gb";
    bool found = false;
    for (const auto& s : fit_suggestions(c, 10))
        if (s.id == "liger") {
            found = true;
            CHECK(s.detail == "training.liger: false -> true");
            CHECK(s.config.training.liger);
        }
    CHECK(found);
    // Not under a stack Liger does not patch.
    c.training.profile = "torchtune";
    for (const auto& s : fit_suggestions(c, 10)) CHECK(s.id != "liger");
}
