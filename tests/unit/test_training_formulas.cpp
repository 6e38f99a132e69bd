// Detailed training: the published formulas, checked by hand. Korthikanti et al. 2022 Table 2
// (activations of a GPT layer) and the ZeRO paper's per-GPU model-state totals (Rajbhandari et
// al. 2020, Figure 1: 7.5B parameters, 64 GPUs, K = 12).
#include <catch.hpp>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/serve/inference.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "io/config_json.hpp"

using namespace vc;
using Catch::Detail::Approx;

namespace {

// A GPT layer as Korthikanti et al. analyse it: 16-bit activations, LayerNorm, MHA, a 4h GELU MLP,
// dropout on attention probabilities and residuals, eager attention, Megatron's fused kernels.
LayerActivationInputs gpt_layer(double h, double a, double s) {
    LayerActivationInputs in;
    in.hidden = h;
    in.q_width = h;
    in.kv_width = h;
    in.heads = a;
    in.ffn = 4 * h;
    in.gated = false;
    in.layernorm = true;
    in.norms = 2;
    in.seq_kv = s;
    in.bytes = 2;
    in.residual_bytes = 2;
    in.linear_input_bytes = 2;
    in.dropout = true;
    in.attention_dropout = true;
    in.attention = AttentionKernel::Eager;
    in.profile = find_training_profile("megatron");
    return in;
}

// A 4,096-wide RMSNorm layer with a gated MLP under hf-trainer (eager RMSNorm), q and k `q_width` and `kv_width` wide.
LayerActivationInputs hf_rms_layer(double q_width, double kv_width) {
    LayerActivationInputs in = gpt_layer(4096, 32, 2048);
    in.q_width = q_width;
    in.kv_width = kv_width;
    in.layernorm = false;
    in.gated = true;
    in.profile = find_training_profile("hf-trainer");
    return in;
}

}  // namespace

TEST_CASE("Korthikanti Table 2: a GPT layer's activations per token") {
    // GPT-3 175B shapes: h = 12288, a = 96, s = 2048.
    const double h = 12288, a = 96, s = 2048;
    LayerActivationInputs in = gpt_layer(h, a, s);

    SECTION("no parallelism: sbh(34 + 5as/h)") {
        const LayerActivation la = layer_activation(in);
        CHECK(la.per_token(1, false) == Approx(h * (34 + 5 * a * s / h)));
        CHECK(la.replicated == Approx(10 * h));   // LayerNorm inputs 4, QKV and fc1 inputs 4, dropout masks 2
        CHECK(la.sharded == Approx(24 * h));      // Q, K, V, projection input, GELU in/out
        CHECK(la.scores == Approx(5 * a * s));    // softmax 2, mask 1, dropped probabilities 2
    }
    SECTION("tensor parallel t = 8: sbh(10 + 24/t + 5as/(ht))") {
        const double t = 8;
        CHECK(layer_activation(in).per_token(t, false) == Approx(h * (10 + 24 / t + 5 * a * s / (h * t))));
    }
    SECTION("tensor + sequence parallel: sbh/t (34 + 5as/h)") {
        const double t = 8;
        CHECK(layer_activation(in).per_token(t, true) == Approx(h / t * (34 + 5 * a * s / h)));
    }
    SECTION("selective recomputation with TP + SP: 34 sbh / t") {
        in.recompute = Recompute::Selective;
        CHECK(layer_activation(in).per_token(8, true) == Approx(34 * h / 8));
    }
    SECTION("full recomputation: 2sbh (the layer input only)") {
        in.recompute = Recompute::Full;
        CHECK(layer_activation(in).per_token(1, false) == Approx(2 * h));
    }
    SECTION("FlashAttention drops the 5as/h term and keeps its output and log-sum-exp") {
        in.attention = AttentionKernel::Flash;
        in.attention_dropout = false;
        // Q, K, V, the kernel's output (= the projection input with Megatron) and FP32 lse per head.
        CHECK(layer_activation(in).per_token(1, false) == Approx(34 * h + 4 * a));
    }
    SECTION("without dropout the three 1-byte masks go") {
        in.dropout = false;
        in.attention_dropout = false;
        // Residual masks 2h; attention: no mask and the softmax output feeds P.V directly (-3as).
        CHECK(layer_activation(in).per_token(1, false) == Approx(32 * h + 2 * a * s));
    }
}

TEST_CASE("Qwen3 / Gemma-3 q/k norms save q and k again, as the layer norms save their inputs") {
    // Qwen3-8B's attention: h 4096, q 32 x 128 = 4096, k 8 x 128 = 1024, under hf-trainer (eager
    // RMSNorm: the FP32 input, 4 bytes, and with full training the normalized BF16 product). The q/k
    // norms add norm_saved_bytes x (4096 + 1024) a token, split over TP with the heads.
    LayerActivationInputs in = hf_rms_layer(4096, 1024);
    const LayerActivation bare = layer_activation(in);
    in.qk_norm = true;
    const LayerActivation normed = layer_activation(in);
    const double per_value = norm_saved_bytes(in);
    CHECK(per_value >= 4);  // the FP32 copy at least
    CHECK(normed.sharded - bare.sharded == Approx(per_value * (4096 + 1024)));
    CHECK(normed.replicated == Approx(bare.replicated));
    CHECK(normed.per_token(2, false) - bare.per_token(2, false) == Approx(per_value * 5120 / 2));
    // Full recomputation keeps the layer input only: nothing of the norms.
    in.recompute = Recompute::Full;
    CHECK(layer_activation(in).per_token(1, false) == Approx(2 * 4096));
}

TEST_CASE("OLMo-2/3 and MiniMax-M2 q/k norms over the whole projections: the same values saved, whole on every TP rank") {
    // OLMo-2 7B's attention: h 4096, 32 heads and 32 KV heads of 128: q 4,096 and k 4,096 values a token, q_norm and
    // k_norm over 4,096 each (huggingface/transformers@000c33f olmo2/modeling_olmo2.py: Olmo2RMSNorm(num_heads x
    // head_dim) on q_proj's output). hf-trainer's eager RMSNorm saves its FP32 input, 4 B a value, and, the norm weights
    // training, the normalized product at the residual's 2 B: 6 x 8,192 = 49,152 B a token a layer, as Qwen3's per-head
    // norms save of the same widths.
    LayerActivationInputs in = hf_rms_layer(4096, 4096);
    in.qk_norm = true;
    REQUIRE(norm_saved_bytes(in) == 6);
    const LayerActivation per_head = layer_activation(in);
    in.qk_norm_whole = true;
    const LayerActivation whole = layer_activation(in);
    CHECK(per_head.per_token(1, false) == whole.per_token(1, false));
    CHECK(whole.gathered - per_head.gathered == 49152.0);
    CHECK(per_head.sharded - whole.sharded == 49152.0);
    // Under TP 2 a per-head norm's input is split with the heads (24,576 B a GPU); one over all the heads needs the
    // projection gathered first (Olmo2Config's tp plan: q_proj, k_proj "colwise_gather_output"): 49,152 B on each GPU,
    // with or without sequence parallelism.
    CHECK(whole.per_token(2, false) - per_head.per_token(2, false) == 49152.0 - 24576.0);
    CHECK(whole.per_token(2, true) - per_head.per_token(2, true) == 49152.0 - 24576.0);
}

TEST_CASE("DTensor TP (torchtitan): the all-gathered q/k/v and MLP inputs are saved whole under sequence parallelism") {
    const double h = 12288, a = 96, s = 2048, t = 8;
    LayerActivationInputs in = gpt_layer(h, a, s);
    in.attention = AttentionKernel::Flash;
    in.attention_dropout = false;
    ProfileBehaviour dtensor = *find_training_profile("megatron");
    dtensor.tp_saves_gathered = true;
    const double megatron = layer_activation(in).per_token(t, true);
    in.profile = &dtensor;
    // Megatron's SP keeps the QKV and fc1 inputs sequence-sharded (2 x 2h / t); DTensor's colwise
    // linears keep the all-gathered tensors: 2 x 2h whole.
    CHECK(layer_activation(in).per_token(t, true) - megatron == Approx(4 * h - 4 * h / t));
    // Without TP nothing changes.
    CHECK(layer_activation(in).per_token(1, false) == Approx(34 * h + 4 * a));
    // Op-level SAC (torchtitan's save list): the rowwise w2 matmul output whole (h), the
    // reduce-scatter outputs of wo and w2 sequence-sharded (2h / t); Megatron-style keeps w2's / t.
    in.gated = true;
    in.ffn = 4 * h;
    in.recompute = Recompute::Selective;
    ProfileBehaviour sac = *find_training_profile("torchtitan");
    ProfileBehaviour sac_megatron_tp = sac;
    sac_megatron_tp.tp_saves_gathered = false;
    in.profile = &sac_megatron_tp;
    const double sharded_down = layer_activation(in).per_token(t, true);
    in.profile = &sac;
    CHECK(layer_activation(in).per_token(t, true) - sharded_down == Approx(2 * (h - h / t) + 2 * 2 * h / t));
    // One GPU: no collectives, the same bytes either way.
    const double one_gpu = layer_activation(in).per_token(1, false);
    in.profile = &sac_megatron_tp;
    CHECK(one_gpu == Approx(layer_activation(in).per_token(1, false)));
}

namespace {

// One Llama-3.1-8B layer (h 4096, 32 query heads and 8 K/V heads of 128, SwiGLU 14336, RMSNorm),
// BF16 activations, under a profile.
LayerActivationInputs llama_8b_layer(const char* profile, double seq, AttentionKernel attention = AttentionKernel::Flash) {
    LayerActivationInputs in;
    in.hidden = 4096;
    in.q_width = 4096;
    in.kv_width = 1024;
    in.heads = 32;
    in.ffn = 14336;
    in.gated = true;
    in.seq_kv = seq;
    in.attention = attention;
    in.profile = find_training_profile(profile);
    return in;
}

}  // namespace

TEST_CASE("gated MLP and GQA terms") {
    // Llama-3.1-8B layer under Megatron.
    const LayerActivation la = layer_activation(llama_8b_layer("megatron", 8192));
    // norms 2 x 2h, QKV input 2h, Q 2h + K, V 2 x 2(kv) + flash out 2h + lse 4a, MLP input 2h,
    // gate/act/up/product 4 x 2f.
    const double h = 4096, kv = 1024, f = 14336;
    CHECK(la.per_token(1, false) == Approx(4 * h + 2 * h + 2 * h + 4 * kv + 2 * h + 4 * 32 + 2 * h + 8 * f));
}

TEST_CASE("op-level SAC compiled: the partitioner leaves out the down projection's output, which backward never reads") {
    // torchtitan's policy saves mm outputs 1, 3, 5, 7 of a Llama-3.1-8B layer (q, v, gate, down),
    // the SDPA output and its log-sum-exp, beside the layer input.
    LayerActivationInputs in = llama_8b_layer("torchtitan", 8192);
    in.recompute = Recompute::Selective;
    const double h = 4096, kv = 1024, f = 14336;
    // Eager: input 2h + (q h + v kv + gate f + down h) x 2 B + SDPA output 2h + LSE 4 x 32 heads.
    const double eager = 2 * h + 2 * (h + kv + f + h) + 2 * h + 4 * 32;
    CHECK(layer_activation(in).per_token(1, false) == Approx(eager));  // 63,616 B
    ProfileBehaviour compiled = *find_training_profile("torchtitan");
    compiled.compiled = true;
    in.profile = &compiled;
    // Compiled: the down projection's output (h x 2 B = 8,192 B a token) is not saved: 55,424 B.
    CHECK(layer_activation(in).per_token(1, false) == Approx(eager - 2 * h));
    CHECK(layer_activation(in).per_token(1, false) == Approx(55424));
    // 32 layers x 8,192 tokens x 8,192 B = 2,147,483,648 B less for one 8k sequence of Llama-3.1-8B.
    // Under TP 4 + SP: wo's reduce-scatter output (2h / 4) stays, w2's goes: 2h / 4 less again.
    const double tp4_eager = [&] {
        LayerActivationInputs e = in;
        ProfileBehaviour eager_profile = compiled;
        eager_profile.compiled = false;
        e.profile = &eager_profile;
        return layer_activation(e).per_token(4, true);
    }();
    CHECK(tp4_eager - layer_activation(in).per_token(4, true) == Approx(2 * h + 2 * h / 4));
    // A non-gated MLP keeps mm 1, 3, 5 (q, v, up): the down projection (6th) is recomputed either way.
    in.gated = false;
    const double plain_compiled = layer_activation(in).per_token(1, false);
    compiled.compiled = false;
    CHECK(layer_activation(in).per_token(1, false) == Approx(plain_compiled));
}

TEST_CASE("torchtitan's fused AdamW makes no foreach temporaries at the optimizer step") {
    // Llama-3.1-8B, FSDP over 8 GPUs: hf-trainer's foreach AdamW materialises sqrt(v) for the local
    // shard, 8.03e9 / 8 x 4 B = 4.0 GB at the step; torchtitan's fused kernel (PR #881) none.
    auto step_temp = [](const char* profile) {
        auto cfg = io::parse_config(std::string(R"({"method":"detailed","model":{"preset":"llama-3.1-8b"},"batch":1,"seq":8192,"gpus":8,)") +
                                    R"("training":{"sharding":"fsdp","profile":")" + profile + R"("}})");
        REQUIRE(cfg.ok);
        auto r = training_result(cfg.value);
        REQUIRE(r.ok);
        return r.value.step_temporary;
    };
    // Both keep the library workspaces (8.125 MiB cuBLAS); only hf-trainer adds the foreach copy.
    CHECK(step_temp("torchtitan") < 0.05e9);
    CHECK(step_temp("hf-trainer") - step_temp("torchtitan") == Approx(8.03e9 / 8 * 4).epsilon(0.01));
}

namespace {

// ZeRO paper, Figure 1: model states per GPU for Psi = 7.5B with mixed-precision Adam (K = 12).
double model_states_gb(Sharding sharding) {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.model.params_override_b = 7.5;
    cfg.gpus = 64;
    cfg.training.profile = "deepspeed";
    cfg.training.precision = TrainPrecision::Bf16Mixed;
    cfg.training.sharding = sharding;
    cfg.runtime.deepspeed_bucket_elements = 0;
    auto r = training_result(cfg);
    REQUIRE(r.ok);
    return (r.value.weights + r.value.gradients + r.value.optimizer) / 1e9;
}

}  // namespace

TEST_CASE("ZeRO stage totals: 7.5B params, 64 GPUs, K = 12 (Rajbhandari et al. 2020)") {
    CHECK(model_states_gb(Sharding::None) == Approx(120).epsilon(1e-3));    // (2 + 2 + K) Psi
    CHECK(model_states_gb(Sharding::Zero1) == Approx(31.4).epsilon(2e-3));  // 4 Psi + K Psi / Nd
    CHECK(model_states_gb(Sharding::Zero2) == Approx(16.6).epsilon(3e-3));  // 2 Psi + (2 + K) Psi / Nd
    CHECK(model_states_gb(Sharding::Zero3) == Approx(1.875).epsilon(1e-3)); // (2 + 2 + K) Psi / Nd
}

TEST_CASE("detailed training through the JSON config") {
    auto cfg = io::parse_config(R"({"method": "detailed", "model": {"preset": "llama-3.1-8b"}, "batch": 1, "seq": 4096,
        "gpus": 8, "training": {"precision": "bf16-mixed", "sharding": "fsdp-full-shard", "recompute": "full",
        "profile": "torchtitan"}})");
    REQUIRE(cfg.ok);
    CHECK(cfg.value.training.sharding == Sharding::Zero3);
    auto e = estimate(cfg.value);
    REQUIRE(e.ok);
    CHECK(e.value.method == "detailed");
    double sum = 0;
    for (const auto& c : e.value.components) sum += c.bytes;
    CHECK(sum == Approx(e.value.total_bytes));
    CHECK(e.value.metric("device_total_bytes")->value == Approx(e.value.total_bytes));
    // FP32 params, grads and Adam state over 8 shards: 16 B x 8.03e9 / 8.
    const double states = e.value.component("weights")->bytes + e.value.metric("gradients_bytes")->value +
                          e.value.component("optimizer")->bytes;
    CHECK(states / 1e9 == Approx(16 * 8.03026e9 / 8 / 1e9).epsilon(1e-3));
}

namespace {

Config llama2_7b_lora() {
    auto cfg = io::parse_config(R"({"method": "detailed", "task": "finetune", "model": {"preset": "llama-2-7b"},
        "batch": 1, "seq": 512, "training": {"precision": "bf16-true", "finetune": "lora",
        "lora": {"rank": 8, "targets": "q_proj,v_proj", "dropout": 0}}})");
    REQUIRE(cfg.ok);
    return cfg.value;
}

// The QLoRA dequantized-weight temporary (bytes) of Llama-3-8B, r 8 on q and v, 512 tokens.
double llama3_8b_qlora_dequant(const char* profile, const char* lora_extra, const char* precision) {
    const std::string text = std::string(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3-8b"},"batch":1,"seq":512,)") +
                             R"("training":{"finetune":"qlora","precision":")" + precision + R"(","profile":")" + profile +
                             R"(","lora":{"rank":8,"targets":"q,v")" + lora_extra + "}}}";
    auto cfg = io::parse_config(text);
    REQUIRE(cfg.ok);
    auto s = training_setup(cfg.value);
    REQUIRE(s.ok);
    TrainingParts parts;
    compute_training(s.value, &parts);
    return parts.dequant;
}

}  // namespace

TEST_CASE("LoRA adapters: Llama-2-7B, r 8 on q and v = 4,194,304 trainable (PEFT's count)") {
    auto r = training_result(llama2_7b_lora());
    REQUIRE(r.ok);
    // 32 layers x 8 x ((4096 + 4096) + (4096 + 4096))
    CHECK(r.value.params_trainable_on_gpu == 4194304);
    // BF16 adapters (2 B), BF16 grads (2 B), AdamW moments in BF16 (2 x 2 B): 8 B per adapter parameter.
    CHECK(r.value.optimizer == 4194304.0 * 4);
    CHECK(r.value.gradients == 4194304.0 * 2);
}

TEST_CASE("QLoRA base: NF4 in blocks of 64 with FP32 absmax, or double-quantized") {
    Config cfg = llama2_7b_lora();
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.quant = BaseQuant::Nf4;
    cfg.training.lora.quantize_head = Toggle::Off;
    cfg.training.lora.double_quant = false;
    auto plain = training_result(cfg);
    cfg.training.lora.double_quant = true;
    auto dq = training_result(cfg);
    REQUIRE(plain.ok);
    REQUIRE(dq.ok);
    // The 32 layers' linear weights: 32 x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376.
    const double linear = 6476005376.0;
    // 0.5 B per weight + 4 B absmax per 64 = 0.5625 B; double quantization: 0.5 + 1/64 + 4/(64 x 256).
    CHECK(plain.value.weights - dq.value.weights == Approx(linear * (4.0 / 64 - (1.0 / 64 + 4.0 / (64 * 256)))));
}

TEST_CASE("QLoRA saved inputs: bitsandbytes before 0.43.2 keeps every 4-bit layer's input, current bitsandbytes none") {
    Config cfg = llama2_7b_lora();
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.quant = BaseQuant::Nf4;
    cfg.training.recompute = Recompute::None;  // every layer keeps what it saves (auto: full under HF/peft)
    auto current = training_result(cfg);  // profile default: bitsandbytes >= 0.43.2 (ctx.tensors = (None, B))
    cfg.training.lora.saves_inputs = Toggle::On;
    auto legacy = training_result(cfg);
    cfg.training.lora.saves_inputs = Toggle::Off;
    auto off = training_result(cfg);
    REQUIRE(current.ok);
    REQUIRE(legacy.ok);
    REQUIRE(off.ok);
    CHECK(current.value.activation_bytes_per_layer == off.value.activation_bytes_per_layer);
    // q and v carry adapters (which keep the attention norm's output either way); the legacy matmul
    // adds the inputs of gate/up (the MLP norm's output, 4096) and down (11008): 512 tokens x 2 B x
    // 15,104 = 15,466,496 B per layer. o's input is SDPA's saved output itself (the fused kernel's
    // transpose makes the model's .contiguous() a view), kept either way.
    CHECK(legacy.value.activation_bytes_per_layer - off.value.activation_bytes_per_layer == Approx(512.0 * 2 * (4096 + 11008)));
}

TEST_CASE("QLoRA under HF/peft: recompute auto is full, as prepare_model_for_kbit_training turns checkpointing on", "[training]") {
    Config cfg = llama2_7b_lora();
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.quant = BaseQuant::Nf4;
    REQUIRE(cfg.training.recompute == Recompute::Auto);  // the default when the config says nothing
    auto by_default = training_result(cfg);
    cfg.training.recompute = Recompute::Full;
    auto full = training_result(cfg);
    cfg.training.recompute = Recompute::None;
    auto none = training_result(cfg);
    REQUIRE(by_default.ok);
    REQUIRE(full.ok);
    REQUIRE(none.ok);
    // peft's use_gradient_checkpointing=True: the same bytes as full recomputation, and each layer keeps
    // only its checkpointed input, 512 tokens x 4096 x 4 B (the same call's FP32 embedding and norms
    // keep the hidden states FP32: training.lora.upcast_frozen, below).
    CHECK(by_default.value.device_total == full.value.device_total);
    CHECK(by_default.value.activation_bytes_per_layer == 512.0 * 4096 * 4);
    CHECK(none.value.activations > full.value.activations);
    // The estimate says why.
    cfg.training.recompute = Recompute::Auto;
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    auto noted = [](const Estimate& est) {
        for (const auto& n : est.notes)
            if (n.find("turns gradient checkpointing on") != std::string::npos) return true;
        return false;
    };
    CHECK(noted(e.value));
    cfg.training.recompute = Recompute::Full;
    CHECK_FALSE(noted(estimate(cfg).value));  // stated, not assumed: no note
    // deepspeed and torch-compile load a transformers model through peft too; LoRA over an NF4 base as well.
    cfg.training.recompute = Recompute::Auto;
    for (const char* profile : {"deepspeed", "torch-compile"}) {
        cfg.training.profile = profile;
        CHECK(resolved_recompute(cfg) == Recompute::Full);
    }
    cfg.training.profile = "hf-trainer";
    cfg.training.finetune = FinetuneMethod::Lora;
    CHECK(resolved_recompute(cfg) == Recompute::Full);
    // A 16-bit LoRA base is not prepared for k-bit training: auto is none, the same bytes as none.
    cfg.training.lora.quant = BaseQuant::None;
    CHECK(resolved_recompute(cfg) == Recompute::None);
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.quant = BaseQuant::Nf4;
    // Stacks with their own loop and model never call peft: none unless the config says so.
    for (const char* profile : {"litgpt", "torchtune", "torchtitan", "megatron"}) {
        cfg.training.profile = profile;
        CHECK(resolved_recompute(cfg) == Recompute::None);
    }
    // Full fine-tuning under HF: none (TrainingArguments.gradient_checkpointing defaults to False).
    Config ft = llama2_7b_lora();
    ft.training.finetune = FinetuneMethod::Full;
    CHECK(resolved_recompute(ft) == Recompute::None);
}

namespace {

// Llama-3.1-8B QLoRA (NF4, double-quantized, r 16 on q and v), one 2,048-token sequence, BF16 mixed.
Config llama31_8b_qlora(const char* extra, const char* finetune = "qlora") {
    auto cfg = io::parse_config(std::string(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"batch":1,"seq":2048,)") +
                                R"("training":{"finetune":")" + finetune + "\"" + extra + "}}");
    REQUIRE(cfg.ok);
    return cfg.value;
}

bool has_note(const Estimate& e, const char* text) {
    for (const auto& n : e.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("QLoRA under HF/peft: prepare_model_for_kbit_training keeps the embedding, the head and the norms in FP32", "[training][upcast]") {
    // Llama-3.1-8B: the 32 layers' linears, 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 3 x 4096 x 14336) =
    // 6,979,321,856, in NF4 with double-quantized absmax, 0.5 + 1/64 + 4/(64 x 256) = 0.515869140625 B:
    // 3,600,416,768 B. Outside them: the embedding and the untied head, 2 x 128,256 x 4,096 = 1,050,673,152,
    // and the norms, 2 x 4,096 x 32 + 4,096 = 266,240: 1,050,939,392 parameters. Adapters: 32 x 16 x
    // ((4096 + 4096) + (4096 + 1024)) = 6,815,744, FP32 under autocast (4 B).
    const double quantized = 6979321856.0 * 0.515869140625, outside = 1050939392.0, adapters = 6815744.0 * 4;
    REQUIRE(quantized == 3600416768.0);
    auto cast = training_result(llama31_8b_qlora(""));  // hf-trainer, auto: peft's cast
    auto kept = training_result(llama31_8b_qlora(R"(,"lora":{"upcast_frozen":false})"));
    REQUIRE(cast.ok);
    REQUIRE(kept.ok);
    // Before (16-bit): 3,600,416,768 + 1,050,939,392 x 2 + 27,262,976 = 5,729,558,528 B;
    // after (FP32):    3,600,416,768 + 1,050,939,392 x 4 + 27,262,976 = 7,831,437,312 B, +2,101,878,784 B.
    CHECK(kept.value.weights == quantized + outside * 2 + adapters);
    CHECK(kept.value.weights == 5729558528.0);
    CHECK(cast.value.weights == quantized + outside * 4 + adapters);
    CHECK(cast.value.weights == 7831437312.0);
    // The hidden states stay FP32 (the embedding's output; bitsandbytes' layers return their input's
    // dtype): each checkpointed layer input is 2,048 x 4,096 x 4 B = 33,554,432 B, not 16,777,216.
    CHECK(cast.value.activation_bytes_per_layer == 2048.0 * 4096 * 4);
    CHECK(kept.value.activation_bytes_per_layer == 2048.0 * 4096 * 2);
    // The FP32 head under autocast: its BF16 copy, 128,256 x 4,096 x 2 B = 1,050,673,152 B, held from the
    // head's forward to its backward (a temporary at the loss's peak).
    auto s = training_setup(llama31_8b_qlora(""));
    REQUIRE(s.ok);
    TrainingParts parts;
    compute_training(s.value, &parts);
    CHECK(parts.head_cast == 128256.0 * 4096 * 2);
    CHECK(parts.stage_unquantized == outside);
    CHECK(cast.value.temporary - kept.value.temporary == 128256.0 * 4096 * 2);
    // Without recomputation, the MLP's gate output, SiLU output and up output are FP32 too: 2,048 x 3 x
    // 14,336 x 2 B = 176,160,768 B more per layer (the norms' saved FP32 copies are 4 B either way).
    auto cast_none = training_result(llama31_8b_qlora(R"(,"recompute":"none")"));
    auto kept_none = training_result(llama31_8b_qlora(R"(,"recompute":"none","lora":{"upcast_frozen":false})"));
    REQUIRE(cast_none.ok);
    REQUIRE(kept_none.ok);
    CHECK(cast_none.value.activation_bytes_per_layer - kept_none.value.activation_bytes_per_layer == 2048.0 * 3 * 14336 * 2);
    // The estimate names it: the weights formula and a note with the way out.
    auto e = estimate(llama31_8b_qlora(""));
    REQUIRE(e.ok);
    CHECK(e.value.component("weights")->formula.find("1.051e9 x 4 B (frozen base in FP32: peft's cast) +") != std::string::npos);
    CHECK(has_note(e.value, "training.lora.upcast_frozen auto"));
    CHECK(has_note(e.value, "+2.10 GB of weights"));
    CHECK(has_note(e.value, "--set training.lora.upcast_frozen=false"));
    CHECK(e.value.component("temporary")->formula.find("FP32 LM head's 16-bit autocast copy 1.05 GB") != std::string::npos);
    auto off = estimate(llama31_8b_qlora(R"(,"lora":{"upcast_frozen":false})"));
    REQUIRE(off.ok);
    CHECK_FALSE(has_note(off.value, "upcast_frozen"));
    CHECK(off.value.component("weights")->formula.find("1.051e9 x 2 B (frozen base) +") != std::string::npos);
}

TEST_CASE("QLoRA FP32 cast: only where the stack runs peft's prepare_model_for_kbit_training on a bitsandbytes base", "[training][upcast]") {
    const double outside = 1050939392.0;  // embedding + head + norms of Llama-3.1-8B (above)
    auto weights = [](const char* extra, const char* finetune = "qlora") {
        auto r = training_result(llama31_8b_qlora(extra, finetune));
        REQUIRE(r.ok);
        return r.value.weights;
    };
    const double hf = weights("");
    // torch-compile and hf-legacy load the model through peft too.
    CHECK(weights(R"(,"profile":"torch-compile")") == hf);
    CHECK(weights(R"(,"profile":"hf-legacy")") == hf);
    // DeepSpeed casts every floating-point parameter back to BF16 (engine.py _cast_module_mixed_precision);
    // LitGPT, torchtune and torchtitan never call peft: 2 B, as the override off gives under hf-trainer.
    const double off = weights(R"(,"lora":{"upcast_frozen":false})");
    CHECK(hf - off == outside * 2);
    for (const char* profile : {"deepspeed", "litgpt", "torchtune", "torchtitan"}) {
        INFO(profile);
        // LitGPT refuses a quantized base under mixed precision (training_setup): its QLoRA runs bf16-true.
        const std::string p = std::string(R"(,"profile":")") + profile + "\"" + (std::string(profile) == "litgpt" ? R"(,"precision":"bf16-true")" : "");
        const std::string on = p + R"(,"lora":{"upcast_frozen":true})";
        auto r = training_setup(llama31_8b_qlora(p.c_str()));
        REQUIRE(r.ok);
        CHECK_FALSE(r.value.upcast_frozen);
        CHECK(r.value.weight_bytes == 2);
        auto forced = training_setup(llama31_8b_qlora(on.c_str()));
        REQUIRE(forced.ok);
        CHECK(forced.value.upcast_frozen);  // true wins over the profile
        CHECK(forced.value.weight_bytes == 4);
    }
    // LoRA over an INT8 base: Int8Params are int8, not cast; everything else is (the same 1,050,939,392 at 4 B).
    const double int8_on = weights(R"(,"lora":{"quant":"int8"})", "lora");
    const double int8_off = weights(R"(,"lora":{"quant":"int8","upcast_frozen":false})", "lora");
    CHECK(int8_on - int8_off == outside * 2);
    // A 16-bit LoRA base is never prepared for k-bit training: true changes nothing there.
    CHECK(weights(R"(,"lora":{"upcast_frozen":true})", "lora") == weights("", "lora"));
    // FP32 training keeps the base in FP32 already: no head copy (no autocast), the same weights.
    CHECK(weights(R"(,"precision":"fp32")") == weights(R"(,"precision":"fp32","lora":{"upcast_frozen":false})"));
    // Without autocast (bf16-true) the FP32 head makes no 16-bit copy.
    auto s = training_setup(llama31_8b_qlora(R"(,"precision":"bf16-true")"));
    REQUIRE(s.ok);
    TrainingParts parts;
    compute_training(s.value, &parts);
    CHECK(parts.head_cast == 0);
}

TEST_CASE("QLoRA saved inputs in LitGPT: the previous step's graph keeps them a second time, unless training.lora.previous_graph is off") {
    Config cfg = llama2_7b_lora();
    cfg.training.profile = "litgpt";
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.quant = BaseQuant::Nf4;
    cfg.training.lora.saves_inputs = Toggle::On;
    auto twice = training_result(cfg);  // LitGPT's loop: the old loss's graph lives through the next forward
    cfg.training.lora.previous_graph = Toggle::Off;
    auto once = training_result(cfg);   // lit-gpt 2023: the longest sample alone in step one
    REQUIRE(twice.ok);
    REQUIRE(once.ok);
    // The second copy: 32 layers x the inputs of gate/up and down, 512 tokens x 2 B x 15,104 B (o's
    // input is the attention kernel's saved output, not a 4-bit layer's own copy).
    CHECK(twice.value.activations - once.value.activations == Approx(32 * 512.0 * 2 * (4096 + 11008)));
    // Current bitsandbytes keeps no input: the previous graph retains nothing of it.
    cfg.training.lora.saves_inputs = Toggle::Off;
    const double activations_off = training_result(cfg).value.activations;
    cfg.training.lora.previous_graph = Toggle::On;
    CHECK(training_result(cfg).value.activations == activations_off);
}

TEST_CASE("QLoRA dequantized weight: the largest 4-bit matrix, the head only where the stack quantizes it", "[training]") {
    // Llama-3-8B QLoRA in BF16, one GPU: the temporary a 4-bit matmul dequantizes for its call.
    auto dequant = [](const char* profile, const char* lora_extra, const char* precision) { return llama3_8b_qlora_dequant(profile, lora_extra, precision); };
    // HF/PEFT keeps lm_head in 16 bits (transformers' get_keys_to_not_convert) and current
    // bitsandbytes dequantizes to the weight's own dtype: one MLP matrix, 14336 x 4096 x 2 B.
    CHECK(dequant("hf-trainer", "", "bf16-true") == 14336.0 * 4096 * 2);
    // torchtune never quantizes output_proj either ("quantize_base is not applied to final output_proj").
    CHECK(dequant("torchtune", "", "bf16-true") == 14336.0 * 4096 * 2);
    // The head forced to 4 bits: it is the largest matrix, 128256 x 4096 x 2 B.
    CHECK(dequant("hf-trainer", R"(,"quantize_head":true)", "bf16-true") == 128256.0 * 4096 * 2);
}

TEST_CASE("QLoRA in LitGPT: the 4-bit head dequantized to FP16 and cast to BF16, both alive at the cast", "[training]") {
    // Lightning's BitsandbytesPrecision (no ignore_modules in finetune/lora.py) replaces every
    // nn.Linear, lm_head included, and quantizes each from torch.half, so bitsandbytes'
    // dequantize_4bit returns FP16 and MatMul4Bit's .to(A.dtype) makes the BF16 copy.
    auto dequant = [](const char* lora_extra, const char* precision) { return llama3_8b_qlora_dequant("litgpt", lora_extra, precision); };
    // The head, 128256 x 4096, in FP16 (2 B) and its BF16 cast (2 B): 2,101,346,304 B.
    CHECK(dequant("", "bf16-true") == 128256.0 * 4096 * (2 + 2));
    CHECK(dequant("", "bf16-true") == 2101346304.0);
    // FP16 compute: .to(torch.float16) returns the same tensor, one copy.
    CHECK(dequant("", "fp16-true") == 128256.0 * 4096 * 2);
    // training.lora.dequant_fp16 off (a stack that quantizes from BF16): one BF16 copy.
    CHECK(dequant(R"(,"dequant_fp16":false)", "bf16-true") == 128256.0 * 4096 * 2);
    // The head left in 16 bits: the largest 4-bit matrix is an MLP one, 14336 x 4096, FP16 + BF16.
    CHECK(dequant(R"(,"quantize_head":false)", "bf16-true") == 14336.0 * 4096 * (2 + 2));
}

TEST_CASE("optimizer state per trainable parameter") {
    auto bytes_per_param = [](OptimizerKind o, TrainPrecision p) {
        Config cfg;
        cfg.method = Method::Detailed;
        cfg.model.params_override_b = 1;
        cfg.training.profile = "megatron";  // BF16 params + FP32 master in mixed precision
        cfg.training.optimizer = o;
        cfg.training.precision = p;
        auto r = training_result(cfg);
        REQUIRE(r.ok);
        return r.value.optimizer / r.value.params_trainable_on_gpu;
    };
    CHECK(bytes_per_param(OptimizerKind::AdamW, TrainPrecision::Bf16Mixed) == Approx(12));    // master 4 + m 4 + v 4
    CHECK(bytes_per_param(OptimizerKind::AdamW, TrainPrecision::Bf16True) == Approx(4));      // m, v in BF16
    CHECK(bytes_per_param(OptimizerKind::AdamW, TrainPrecision::Fp32) == Approx(8));
    CHECK(bytes_per_param(OptimizerKind::AdamW8bit, TrainPrecision::Fp32) == Approx(2 + 8.0 / 2048));
    CHECK(bytes_per_param(OptimizerKind::SgdMomentum, TrainPrecision::Fp32) == Approx(4));
    CHECK(bytes_per_param(OptimizerKind::Sgd, TrainPrecision::Fp32) == Approx(0));
    CHECK(bytes_per_param(OptimizerKind::Lion, TrainPrecision::Bf16Mixed) == Approx(8));     // master 4 + m 4
}

TEST_CASE("pipeline: the first stage holds pp micro-batches (1F1B), more when interleaved") {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.model.params_override_b = 7;
    cfg.gpus = 4;
    cfg.parallel.pp = 4;
    cfg.training.profile = "megatron";
    cfg.training.grad_accum = 16;
    auto one = training_result(cfg);
    REQUIRE(one.ok);
    CHECK(one.value.in_flight_micro_batches == 4);
    cfg.parallel.schedule = PipelineSchedule::Interleaved;
    cfg.parallel.virtual_stages = 2;
    auto inter = training_result(cfg);
    REQUIRE(inter.ok);
    CHECK(inter.value.in_flight_micro_batches == Approx(4 * (1 + 3.0 / 8)));  // pp (1 + (pp - 1) / (pp v))
    cfg.training.grad_accum = 2;  // fewer micro-batches than stages: all of them
    cfg.parallel.schedule = PipelineSchedule::OneFOneB;
    auto few = training_result(cfg);
    REQUIRE(few.ok);
    CHECK(few.value.in_flight_micro_batches == 2);
}

TEST_CASE("CPU offload moves optimizer state to host RAM") {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.model.params_override_b = 7;
    cfg.gpus = 8;
    cfg.training.profile = "deepspeed";
    cfg.training.sharding = Sharding::Zero2;
    cfg.training.offload_optimizer = true;
    auto r = training_result(cfg);
    REQUIRE(r.ok);
    CHECK(r.value.optimizer == 0);
    // FP32 master + Adam moments (12 B) and FP32 gradients (4 B) per parameter, over 8 shards.
    CHECK(r.value.host_ram == Approx(7e9 * 16 / 8).epsilon(1e-3));
}

TEST_CASE("sequence parallel follows the profile's TP plan unless the config says", "[training]") {
    // Llama-3.1-8B, TP 4 x DP 2 with FSDP, 8k tokens: torchtitan's and Megatron's TP plans shard the
    // norm/dropout regions on the sequence; HF Trainer's has no SP.
    auto acts = [](const char* profile, const char* sp) {
        const std::string text = std::string(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},)") +
                                 R"("batch":1,"seq":8192,"gpus":8,"parallel":{"tp":4,"sp":)" + sp +
                                 R"(},"training":{"sharding":"fsdp","profile":")" + profile + R"("}})";
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        return e.value.component("activations")->bytes;
    };
    for (const char* profile : {"torchtitan", "megatron"}) {
        INFO(profile);
        CHECK(acts(profile, "null") == acts(profile, "true"));
        CHECK(acts(profile, "true") < acts(profile, "false"));
    }
    CHECK(acts("hf-trainer", "null") == acts("hf-trainer", "false"));
    // What SP saves is the norm inputs and the residual copies that TP alone keeps whole: with TP 4
    // those per-layer tensors shrink to a quarter, so the gap is at least 3/4 of one h x tokens BF16
    // tensor per layer (32 layers x 8192 tokens x 4096 x 2 bytes x 3/4 = 0.81 GB).
    CHECK(acts("megatron", "false") - acts("megatron", "true") >= 32 * 8192.0 * 4096 * 2 * 0.75);
}

TEST_CASE("torchtitan's loss_parallel under TP: the vocabulary shard's loss holds four FP32 buffers, not three", "[training]") {
    // Llama-3.1-8B, batch 1 x 8192 tokens, 8 GPUs with FSDP: the logits component per GPU.
    auto logits = [](int tp) {
        const std::string text = std::string(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},)") +
                                 R"("batch":1,"seq":8192,"gpus":8,"parallel":{"tp":)" + std::to_string(tp) +
                                 R"(},"training":{"sharding":"fsdp","profile":"torchtitan"}})";
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        return e.value.component("logits_loss")->bytes;
    };
    // Without TP: the fused log_softmax / nll_loss keep the FP32 copy's log-probabilities, the
    // gradient and its output: 8192 x 128,256 x 3 x 4 B.
    CHECK(logits(1) == 8192.0 * 128256 * 12);
    // TP 4: a quarter of the vocabulary, and (zeros + exp(x)) * grad beside the saved
    // log-probabilities (torch/distributed/tensor/parallel/loss.py): 8192 x 32,064 x 4 x 4 B.
    CHECK(logits(4) == 8192.0 * 32064 * 16);
}

TEST_CASE("a compiled loss keeps the 16-bit logits and writes a 16-bit gradient: 4 B per logit, not 12", "[training]") {
    // Llama-3.1-8B, batch 1 x 8192 tokens, 8 GPUs with FSDP: the logits component per GPU.
    auto logits = [](const std::string& profile, const std::string& extra, int tp) {
        const std::string text = std::string(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},)") +
                                 R"("batch":1,"seq":8192,"gpus":8,"parallel":{"tp":)" + std::to_string(tp) +
                                 R"(},"training":{"sharding":"fsdp","profile":")" + profile + "\"" + extra + "}}";
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        return e.value.component("logits_loss")->bytes;
    };
    // torchtitan, eager loss: the FP32 copy's log-probabilities, the gradient and its output,
    // 8192 x 128,256 x 3 x 4 B = 12.61 GB; auto (off) is that too.
    CHECK(logits("torchtitan", "", 1) == 8192.0 * 128256 * 12);
    CHECK(logits("torchtitan", R"(,"compile_loss":false)", 1) == 8192.0 * 128256 * 12);
    // Compiled: the saved BF16 logits and the BF16 gradient, 8192 x 128,256 x (2 + 2) B = 4.20 GB,
    // 8.41 GB (7.83 GiB) less; logits_fp32 no longer matters (the upcast is inside the kernels).
    CHECK(logits("torchtitan", R"(,"compile_loss":true)", 1) == 8192.0 * 128256 * 4);
    CHECK(logits("torchtitan", R"(,"compile_loss":true,"logits_fp32":true)", 1) == 8192.0 * 128256 * 4);
    // TP 4 (loss_parallel): eager 8192 x 32,064 x 4 x 4 B; compiled the same 4 B per logit of the shard.
    CHECK(logits("torchtitan", R"(,"compile_loss":true)", 4) == 8192.0 * 32064 * 4);
    // torchtune's CEWithChunkedOutputLoss, 1,024-token chunks compiled one by one: the BF16 logits
    // (held and saved, 2 B) plus one chunk's BF16 gradient at a time (2 B x 1024 / 8192):
    // 8192 x 128,256 x 2.25 B = 2.36 GB.
    CHECK(logits("torchtune", R"(,"compile_loss":true,"loss_chunk_tokens":1024)", 1) == 8192.0 * 128256 * 2.25);
}

// torchtune QLoRA (all linears, r 8), batch 2 x 2048, full recompute, one GPU: the training result.
TrainingResult torchtune_qlora(const std::string& preset, const std::string& extra, const std::string& lora_extra) {
    const std::string text = R"({"method":"detailed","task":"finetune","model":{"preset":")" + preset +
                             R"("},"batch":2,"seq":2048,"training":{"finetune":"qlora","precision":"bf16-true","profile":"torchtune",)"
                             R"("recompute":"full","optimizer":"adamw")" + extra +
                             R"(,"lora":{"rank":8,"targets":"all-linear","dropout":0)" + lora_extra + "}}}";
    auto cfg = io::parse_config(text);
    REQUIRE(cfg.ok);
    auto r = training_result(cfg.value);
    REQUIRE(r.ok);
    return r.value;
}

TEST_CASE("torchtune QLoRA: the init residue only where torchao quantized whole matrices (torchao 0.1)", "[training]") {
    // Llama-3.1-8B's 32 layers of linears: 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 3 x 4096 x 14336)
    // = 6,979,321,856 weights, 13.96 GB in BF16; torchtune never quantizes output_proj.
    const double linear = 6979321856.0;
    // README setting of September 2024: compile=True, CEWithChunkedOutputLoss (8 chunks of 512).
    const std::string loss = R"(,"compile":true,"compile_loss":true,"loss_chunk_tokens":512)";
    const TrainingResult current = torchtune_qlora("llama-3.1-8b", loss, "");
    const TrainingResult old = torchtune_qlora("llama-3.1-8b", loss, R"(,"unchunked_quantize":true)");
    // torchao 0.1: the freed blocks of 0.40 of the BF16 linears stay reserved, a floor of the NF4
    // weights + 5,583,457,484.8 B over the step's peak (about 8.3 GB here).
    CHECK(old.peak_reserved == Approx(old.weights + 0.40 * 2 * linear));
    CHECK(old.peak_allocated == current.peak_allocated);
    // Chunked torchao (PR #196, May 2024; torchtune issue #1398 logs 6.27 GiB reserved after init of
    // this model's recipe): no floor, the step's own reserved memory.
    CHECK(current.peak_reserved < current.weights + 0.40 * 2 * linear);
    CHECK(current.peak_reserved == torchtune_qlora("llama-3.1-8b", loss, R"(,"unchunked_quantize":false)").peak_reserved);
}

TEST_CASE("torchtune frees the logits before the last checkpointed layer is recomputed: the backward holds one or the other", "[training]") {
    // Llama-3.1-8B, 2 x 2048 tokens, CEWithChunkedOutputLoss compiled in 8 chunks of 512: the BF16
    // logits and one chunk's gradient, 4096 x 128,256 x 2.25 B = 1,182,007,296 B, more than one
    // layer's recompute, which then adds nothing: the activations are the 32 layer inputs and the
    // final norm's input, 33 x 4096 x 4096 x 2 B = 1,107,296,256 B (docs/accuracy.md, X52).
    const std::string loss = R"(,"compile":true,"compile_loss":true,"loss_chunk_tokens":512)";
    const TrainingResult freed = torchtune_qlora("llama-3.1-8b", loss, "");
    CHECK(freed.logits_loss == 4096.0 * 128256 * 2.25);
    CHECK(freed.activations == 33.0 * 4096 * 4096 * 2);
    // training.keeps_logits (the recipe before PR #1235 kept `logits` referenced): both add.
    const TrainingResult kept = torchtune_qlora("llama-3.1-8b", loss + R"(,"keeps_logits":true)", "");
    CHECK(kept.activations > freed.activations);
    CHECK(kept.logits_loss == freed.logits_loss);
    // Llama-2-7B (vocabulary 32,000): the logits are 4096 x 32,000 x 2.25 B = 294,912,000 B, less
    // than the recompute, which adds only its excess over them: kept - freed = the logits.
    const TrainingResult small = torchtune_qlora("llama-2-7b", loss, "");
    const TrainingResult small_kept = torchtune_qlora("llama-2-7b", loss + R"(,"keeps_logits":true)", "");
    CHECK(small.logits_loss == 4096.0 * 32000 * 2.25);
    CHECK(small_kept.activations - small.activations == Approx(4096.0 * 32000 * 2.25));
}

TEST_CASE("torchtune's May 2024 loop keeps its FP32 logits: 16 B per logit at the loss's backward, 4 beside the recompute", "[training]") {
    // X02's shape (torchtune README at 0217d44c2): Llama-2-7B, LoRA r8 on q and v, 4 x 2048 tokens,
    // full recompute, training.keeps_logits. The loop's `logits` (the FP32 shifted copy) is alive while
    // log_softmax's backward holds its saved output, nll_loss2d's gradient and its own gradient:
    // 4 x 4 B = 16 B per logit, 8192 x 32,000 x 16 B = 4,194,304,000 B.
    auto run = [](double vocab, TrainingParts& parts) {
        auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-2-7b"},"batch":4,"seq":2048,)"
                                    R"("training":{"finetune":"lora","precision":"bf16-true","profile":"torchtune","recompute":"full",)"
                                    R"("optimizer":"adamw","keeps_logits":true,"lora":{"rank":8,"targets":"q,v","dropout":0}}})");
        REQUIRE(cfg.ok);
        cfg.value.model.vocab = static_cast<int>(vocab);
        auto s = training_setup(cfg.value);
        REQUIRE(s.ok);
        return compute_training(s.value, &parts);
    };
    TrainingParts parts;
    const TrainingResult r = run(32000, parts);
    CHECK(r.logits_loss == 8192.0 * 32000 * 16);
    // After the loss's and the head's backward only the kept copy (8192 x 32,000 x 4 B = 1,048,576,000 B)
    // is beside the last layer's recompute (about 1.08 GB), under the 12 B per logit the loss's backward
    // freed: the activations are the 32 layer inputs, 32 x 8192 x 4096 x 2 B, and the final norm's
    // FP32 input copy (torchtune/modules/rms_norm.py x.float(); its scale is frozen under LoRA),
    // 8192 x 4096 x 4 B: 2,147,483,648 + 134,217,728 = 2,281,701,376 B.
    REQUIRE(parts.recompute_transient > 0);
    CHECK(parts.recompute_transient < 8192.0 * 32000 * 12);
    CHECK(parts.recompute_counted == 0);
    CHECK(r.activations == 2281701376.0);
    // A vocabulary of 8,000: the loss's extra buffers are 8192 x 8,000 x 12 B = 786,432,000 B, less than
    // the recompute, which adds what exceeds them: the peak is max(16 B x N, 4 B x N + recompute).
    TrainingParts small_parts;
    const TrainingResult small = run(8000, small_parts);
    CHECK(small.logits_loss == 8192.0 * 8000 * 16);
    CHECK(small_parts.recompute_counted == Approx(small_parts.recompute_transient - 8192.0 * 8000 * 12));
    CHECK(small.activations + small.logits_loss == Approx(2281701376.0 + 8192.0 * 8000 * 4 + small_parts.recompute_transient));
    // The recipe since PR #1235 frees the logits (the profile's default): 10 B per logit, and the
    // recompute adds only its excess over them.
    auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-2-7b"},"batch":4,"seq":2048,)"
                                R"("training":{"finetune":"lora","precision":"bf16-true","profile":"torchtune","recompute":"full",)"
                                R"("optimizer":"adamw","lora":{"rank":8,"targets":"q,v","dropout":0}}})");
    REQUIRE(cfg.ok);
    auto freed = training_result(cfg.value);
    REQUIRE(freed.ok);
    CHECK(freed.value.logits_loss == 8192.0 * 32000 * 10);
}

TEST_CASE("the final norm saves what a layer's norm saves: eager RMSNorm's FP32 copy, compiled only its input", "[training]") {
    // Llama-2-7B (hidden 4096), 4 x 2048 = 8192 tokens, full recompute: the activations are the 32
    // checkpointed layer inputs (32 x 8192 x 4096 x 2 B = 2,147,483,648 B) plus the final norm and head.
    auto acts = [](const std::string& training) {
        auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-2-7b"},"batch":4,"seq":2048,)"
                                    R"("training":{"precision":"bf16-true","recompute":"full","optimizer":"adamw",)" + training + "}}");
        REQUIRE(cfg.ok);
        TrainingParts parts;
        auto s = training_setup(cfg.value);
        REQUIRE(s.ok);
        const TrainingResult r = compute_training(s.value, &parts);
        return r.activations - parts.recompute_counted - 32.0 * 8192 * 4096 * 2;
    };
    const double th = 8192.0 * 4096;  // tokens x hidden
    // torchtune full fine-tuning (torchtune/modules/rms_norm.py): x.float() saved (4 B), x_normed
    // (BF16, 2 B) for the trained scale, and the output projection's input (2 B): 8 B x 33,554,432.
    CHECK(acts(R"("finetune":"full","profile":"torchtune")") == 8 * th);
    // LoRA: the scale and the head are frozen, only the FP32 copy stays: 4 B (2 B before this change).
    CHECK(acts(R"("finetune":"lora","profile":"torchtune","lora":{"rank":8,"targets":"q,v","dropout":0})") == 4 * th);
    // LitGPT (litgpt/model.py RMSNorm): x.float() (4 B), the FP32 x_normed times weight.float() (4 B), head input 2 B.
    CHECK(acts(R"("finetune":"full","profile":"litgpt")") == 10 * th);
    // Compiled (inductor fuses the norm): its BF16 input (2 B) and the head's input (2 B).
    CHECK(acts(R"("finetune":"full","profile":"torchtune","compile":true)") == 4 * th);
}

TEST_CASE("torchtitan and torchtune under compile note that recent versions compile the loss; auto leaves it off", "[training]") {
    auto noted = [](const std::string& training) {
        auto cfg = io::parse_config(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"batch":1,"seq":8192,)"
                                    R"("gpus":8,"training":{"sharding":"fsdp",)" + training + "}}");
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        bool found = false;
        for (const auto& n : e.value.notes) found |= n.find("training.compile_loss true") != std::string::npos;
        return found;
    };
    CHECK(noted(R"("profile":"torchtitan","compile":true)"));
    CHECK(noted(R"("profile":"torchtune","compile":true)"));
    CHECK_FALSE(noted(R"("profile":"torchtitan")"));                                   // eager: no compiled loss
    CHECK_FALSE(noted(R"("profile":"torchtitan","compile":true,"compile_loss":false)"));  // said, so no note
    CHECK_FALSE(noted(R"("profile":"torchtitan","compile":true,"compile_loss":true)"));
    CHECK_FALSE(noted(R"("profile":"torch-compile")"));                                 // HF's loss: not this mechanism
}

TEST_CASE("torchtitan with PP: FSDP keeps the stage gathered and its FP32 gradients unsharded across micro-batches", "[training]") {
    // Llama-3.1-8B, 16 GPUs: PP 2 x FSDP 8, 2 micro-batches of 1 x 2048 tokens, 1F1B.
    auto cfg = io::parse_config(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"batch":1,"seq":2048,
        "gpus":16,"parallel":{"pp":2},"training":{"sharding":"fsdp","profile":"torchtitan","grad_accum":2}})");
    REQUIRE(cfg.ok);
    auto s = training_setup(cfg.value);
    REQUIRE(s.ok);
    TrainingParts on_parts, off_parts;
    const TrainingResult on = compute_training(s.value, &on_parts);
    TrainingSetup off_setup = s.value;
    off_setup.profile.pp_keeps_unsharded = false;
    const TrainingResult off = compute_training(off_setup, &off_parts);
    // A stage: 16 layers of 4096 x (4096 + 1024 + 1024 + 4096) + 3 x 4096 x 14336 + 2 x 4096 =
    // 218,112,000 parameters, and the embedding (first stage) or the final norm and head (last).
    const double layers = 16 * 218112000.0;
    const double stage = on_parts.stage_params;
    CHECK((stage == layers + 128256.0 * 4096 || stage == layers + 4096 + 128256.0 * 4096));
    // Gradients: reduce_dtype FP32, unsharded until the last micro-batch (FSDP2's
    // unsharded_accumulated_grad), instead of an eighth after each reduce-scatter.
    CHECK(on.gradients == stage * 4);
    CHECK(off.gradients == Approx(stage * 4 / 8));
    // The stage's BF16 parameters stay gathered (reshard_after_forward=False), not two blocks at a time.
    CHECK(on_parts.gather == stage * 2);
    CHECK(off_parts.gather < on_parts.gather / 4);
    // Without PP nothing changes: FSDP reshards after forward and reduce-scatters every backward.
    auto flat = io::parse_config(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"batch":1,"seq":2048,
        "gpus":16,"training":{"sharding":"fsdp","profile":"torchtitan","grad_accum":2}})");
    REQUIRE(flat.ok);
    auto fs = training_setup(flat.value);
    REQUIRE(fs.ok);
    const TrainingResult f = compute_training(fs.value, nullptr);
    CHECK(f.gradients == Approx(8030261248.0 * 4 / 16));
}

TEST_CASE("one CUDA context model: lazy loading unless the stack predates it", "[training]") {
    // Llama-3.1-8B LoRA on one GPU: the runtime component is the context alone.
    auto runtime = [](const char* profile, const char* lazy, double context) {
        std::string text = std::string(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},)") +
                           R"("training":{"finetune":"lora","profile":")" + profile + R"("},"runtime":{"lazy_loading":)" + lazy +
                           R"(,"cuda_context_bytes":)" + std::to_string(context) + "}}";
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        return e.value.component("runtime")->bytes;
    };
    const double MiB = 1024.0 * 1024;
    CHECK(runtime("hf-trainer", "null", -1) == 512 * MiB);    // PyTorch >= 1.13: lazy
    CHECK(runtime("hf-legacy", "null", -1) == 1343 * MiB);    // the 2022 docs' stack: eager (C07)
    CHECK(runtime("hf-trainer", "false", -1) == 1343 * MiB);  // CUDA_MODULE_LOADING=EAGER
    CHECK(runtime("hf-legacy", "true", -1) == 512 * MiB);
    CHECK(runtime("hf-trainer", "null", 800 * MiB) == 800 * MiB);  // a reading overrides the model
    // Serving uses the same model (core/catalog/cuda_context.hpp; per GPU: test_cuda_context.cpp).
    CHECK(InferenceConstants{}.cuda_context_bytes < 0);
}

namespace {

// The HF Trainer's Llama-3.1-8B layer at 4,096 tokens.
LayerActivationInputs hf_llama_layer(AttentionKernel attention) { return llama_8b_layer("hf-trainer", 4096, attention); }

// Activations per layer of one sequence of `seq` tokens (`training_extra`: more training members).
double layer_bytes(const char* preset, double seq, const char* profile, const char* attention, const char* training_extra = "") {
    const std::string text = std::string(R"({"method":"detailed","task":"finetune","model":{"preset":")") + preset + R"("},"batch":1,"seq":)" +
                             std::to_string(static_cast<int>(seq)) + R"(,"training":{"profile":")" + profile + R"(","attention":")" + attention +
                             R"(")" + training_extra + "}}";
    auto cfg = io::parse_config(text);
    REQUIRE(cfg.ok);
    auto r = training_result(cfg.value);
    REQUIRE(r.ok);
    return r.value.activation_bytes_per_layer;
}

double llama_layer_bytes(const char* profile, const char* attention) { return layer_bytes("llama-3.1-8b", 4096, profile, attention); }

}  // namespace

TEST_CASE("transformers' FlashAttention-2 and SDPA enable_gqa keep GQA models' K and V at their own heads", "[training][attention]") {
    const double tokens = 4096;
    const double flash = layer_activation(hf_llama_layer(AttentionKernel::Flash)).per_token(1, false);
    // repeat_kv's K and V at 32 heads against 8: 2 tensors x (32 - 8) heads x 128 x 2 B = 12,288 B a
    // token, 50,331,648 B a layer at 1 x 4,096 tokens.
    CHECK(flash - layer_activation(hf_llama_layer(AttentionKernel::SdpaGqa)).per_token(1, false) == 12288.0);
    // FlashAttention-2 hands o_proj the kernel's own (batch, seq, heads, head_dim) output, as SDPA's
    // fused backends do (their transposed output is a view): only repeat_kv's copies differ.
    CHECK(flash - layer_activation(hf_llama_layer(AttentionKernel::Fa2)).per_token(1, false) == 12288.0);
    // Through the JSON config: the same per layer, and "sdpa" and "flash" keep their old meaning.
    const double repeated = llama_layer_bytes("hf-trainer", "sdpa");
    CHECK(llama_layer_bytes("hf-trainer", "flash") == repeated);
    CHECK(repeated - llama_layer_bytes("hf-trainer", "sdpa-gqa") == Approx(12288.0 * tokens));  // 50,331,648 B
    CHECK(repeated - llama_layer_bytes("hf-trainer", "fa2") == Approx(12288.0 * tokens));       // 50,331,648 B
    CHECK(llama_layer_bytes("deepspeed", "fa2") == llama_layer_bytes("deepspeed", "flash_attention_2"));
    // MHA (Llama-2-7B): no repeat_kv to drop, and the output is shared under every fused kernel:
    // flash, sdpa-gqa and fa2 keep the same bytes.
    LayerActivationInputs mha = hf_llama_layer(AttentionKernel::Flash);
    mha.kv_width = 4096;
    const double mha_flash = layer_activation(mha).per_token(1, false);
    mha.attention = AttentionKernel::SdpaGqa;
    CHECK(layer_activation(mha).per_token(1, false) == mha_flash);
    mha.attention = AttentionKernel::Fa2;
    CHECK(layer_activation(mha).per_token(1, false) == mha_flash);
}

TEST_CASE("training.attention fa2 / sdpa-gqa: written back by name, refused for stacks with their own attention", "[training][attention]") {
    auto parsed = io::parse_config(R"({"method":"detailed","training":{"attention":"flash_attention_2"}})");
    REQUIRE(parsed.ok);
    CHECK(parsed.value.training.attention == AttentionKernel::Fa2);
    CHECK(io::config_to_json(parsed.value)["training"]["attention"] == "fa2");
    for (const char* profile : {"litgpt", "torchtune", "torchtitan", "megatron", "hf-legacy"}) {
        INFO(profile);
        auto cfg = io::parse_config(std::string(R"({"method":"detailed","model":{"preset":"llama-3.1-8b"},"training":{"profile":")") + profile +
                                    R"(","attention":"sdpa-gqa"}})");
        REQUIRE(cfg.ok);
        auto r = training_result(cfg.value);
        REQUIRE_FALSE(r.ok);
        CHECK(r.error.field == "training.attention");
        CHECK(r.error.message.find("accepts auto, flash, sdpa or eager") != std::string::npos);
    }
}

TEST_CASE("gpt-oss trains with eager attention under the transformers profiles (no SDPA path for its sinks)", "[training][attention]") {
    // gpt-oss-20b (64 query heads, 8 K/V heads of 64), LoRA on a BF16 base, one 2,048-token
    // sequence. auto is eager: the scores' softmax runs in BF16 (dtype=combined_logits.dtype) and P.V
    // reads it, 2 B a score, 64 x 2,048 x 2 B = 262,144 B a token, in place of FlashAttention's output
    // (4,096 x 2 B) and log-sum-exp (64 x 4 B): 253,696 B a token, 519,569,408 B a layer.
    const double flash = layer_bytes("gpt-oss-20b", 2048, "hf-trainer", "flash", R"(,"finetune":"lora")");
    CHECK(layer_bytes("gpt-oss-20b", 2048, "hf-trainer", "auto", R"(,"finetune":"lora")") - flash == 519569408.0);
    CHECK(layer_bytes("gpt-oss-20b", 2048, "hf-trainer", "eager", R"(,"finetune":"lora")") - flash == 519569408.0);
    // Under autocast (full fine-tuning, FP32 params) torch.cat promotes the BF16 scores beside the
    // FP32 sinks: the FP32 softmax output and its BF16 cast for P.V, 6 B a score, as Llama's eager,
    // less FlashAttention's log-sum-exp (64 x 4 B); eager's transposed copy of the attention output
    // for o_proj (4,096 x 2 B) takes the place of the kernel's saved output, which o_proj shares.
    const double full_flash = layer_bytes("gpt-oss-20b", 2048, "hf-trainer", "flash");
    CHECK(layer_bytes("gpt-oss-20b", 2048, "hf-trainer", "auto") - full_flash == 2048.0 * (64 * 2048 * 6 - 64 * 4));
    // Stacks with their own attention keep their default.
    CHECK(layer_bytes("gpt-oss-20b", 2048, "megatron", "auto") == layer_bytes("gpt-oss-20b", 2048, "megatron", "flash"));
}

namespace {

// The trl profile (TRL's SFTTrainer over the HF Trainer), by hand. Sources: huggingface/trl@35def3e
// (v1.9.0): trl/trainer/base_config.py:61-62 (gradient_checkpointing True), sft_config.py:334-336
// (loss_type "chunked_nll"), sft_trainer.py:85 (256-token chunks), :98-114 (`h.float() @ w.float().t()`
// per chunk), :1127-1130 (a quantized model's adapters in BF16).
// Llama-3.1-8B QLoRA as llama31_8b_qlora, on an RTX 4090, under `profile`; `extra` adds training members.
Config qlora_4090(const char* profile, const char* extra = "") {
    const std::string members = std::string(R"(,"profile":")") + profile + "\"" + extra;
    Config cfg = llama31_8b_qlora(members.c_str());
    cfg.gpu_id = "rtx-4090-24gb";
    return cfg;
}

// Llama-3.1-8B: vocabulary 128,256, hidden 4,096; its 6,979,321,856 linear weights in NF4 with double-
// quantized absmax, 0.515869140625 B each = 3,600,416,768 B; 1,050,939,392 parameters outside them
// (embedding and head 2 x 128,256 x 4,096, norms 266,240); 6,815,744 adapters (32 x 16 x (8,192 + 5,120)).
constexpr double kQuantized = 3600416768.0, kOutside = 1050939392.0, kAdapters = 6815744.0;
constexpr double kHead = 128256.0 * 4096;  // 525,336,576 head weights

}  // namespace

TEST_CASE("trl worked example: Llama-3.1-8B QLoRA r16, 1 x 2048, RTX 4090, hf-trainer vs trl", "[training][trl]") {
    auto hf = training_result(qlora_4090("hf-trainer"));
    auto trl = training_result(qlora_4090("trl"));
    REQUIRE(hf.ok);
    REQUIRE(trl.ok);
    const TrainingResult& a = hf.value;
    const TrainingResult& b = trl.value;
    // Weights. hf-trainer: peft's FP32 cast, 3,600,416,768 + 1,050,939,392 x 4 + 6,815,744 x 4 = 7,831,437,312 B.
    // trl (no peft cast since 0.26, adapters cast to BF16): 3,600,416,768 + 1,050,939,392 x 2 + 6,815,744 x 2
    // = 5,715,927,040 B.
    CHECK(a.weights == kQuantized + kOutside * 4 + kAdapters * 4);
    CHECK(b.weights == kQuantized + kOutside * 2 + kAdapters * 2);
    CHECK(b.weights == 5715927040.0);
    // AdamW: FP32 moments 8 B vs BF16 moments 4 B a trainable parameter, no master either way:
    // 54,525,952 B vs 27,262,976 B. Gradients, 4 B vs 2 B, are allocated as backward frees activations (not
    // at the peak).
    CHECK(a.optimizer == kAdapters * 8);
    CHECK(b.optimizer == kAdapters * 4);
    CHECK(a.gradients == kAdapters * 4);
    CHECK(b.gradients == kAdapters * 2);
    // Activations, full recompute both (peft's use_gradient_checkpointing / SFTConfig's default): each layer
    // keeps its checkpointed input, FP32 under the peft cast (2,048 x 4,096 x 4 = 33,554,432 B) and BF16 under
    // trl (16,777,216 B); the final norm's FP32 input copy, 2,048 x 4,096 x 4 = 33,554,432 B, either way.
    CHECK(a.activation_bytes_per_layer == 2048.0 * 4096 * 4);
    CHECK(b.activation_bytes_per_layer == 2048.0 * 4096 * 2);
    // trl's chunked loss frees everything before the last layer's recompute (0.34 GB < its 3.19 GB), so
    // the activations are the 32 checkpoints and the final norm's copy: 536,870,912 + 33,554,432 = 570,425,344 B.
    CHECK(b.activations == 32 * 2048.0 * 4096 * 2 + 2048.0 * 4096 * 4);
    CHECK(b.activations == 570425344.0);
    // Loss. hf-trainer: 2,048 tokens x 128,256 x 12 B (log-softmax saved, its gradient, the logits' gradient,
    // FP32) = 3,152,019,456 B. trl: at a chunk's matmul, the head's FP32 copy (w.float(), 4 B) and autocast's
    // BF16 cast of it (2 B): 525,336,576 x 6 = 3,152,019,456 B, more than the saved BF16 copy 1,050,673,152 B
    // + one chunk's 256 x 128,256 x (2 B logits + 3 x 4 B) = 459,669,504 B; plus the sorted hidden states and
    // their gradient, 2 x 2,048 x 4,096 x 2 B = 33,554,432 B: 3,185,573,888 B.
    CHECK(a.logits_loss == 2048.0 * 128256 * 12);
    CHECK(b.logits_loss == kHead * 6 + 2 * 2048.0 * 4096 * 2);
    CHECK(b.logits_loss == 3185573888.0);
    // Temporaries: the largest dequantized matrix, 14,336 x 4,096 x 2 B = 117,440,512 B, and cuBLAS's
    // 8.125 MiB = 8,519,680 B; hf-trainer adds the FP32 head's BF16 autocast copy, 1,050,673,152 B.
    CHECK(b.temporary == 14336.0 * 4096 * 2 + 8519680);
    CHECK(a.temporary - b.temporary == kHead * 2);
    // Peak allocated: trl 5,715,927,040 + 27,262,976 + 125,960,192 + 570,425,344 + 3,185,573,888 = 9,625,149,440 B
    // (8.96 GiB); hf-trainer 13,825,490,944 B (12.88 GiB). Reserved adds 0.06 x (activations + loss + temporaries):
    // 232,917,565.44 B under trl.
    CHECK(b.peak_allocated == 9625149440.0);
    CHECK(a.peak_allocated == 13825490944.0);
    CHECK(b.peak_reserved == Approx(9625149440.0 + 0.06 * (570425344.0 + 3185573888.0 + 125960192.0)));
    // nvidia-smi: the same CUDA context on the same card; trl needs 4.32 GB (4.03 GiB) less.
    CHECK(a.runtime == b.runtime);
    CHECK(a.device_total - b.device_total == Approx((13825490944.0 + 0.06 * (1610874880.0 + 3152019456.0 + 1176633344.0)) -
                                                    (9625149440.0 + 0.06 * (570425344.0 + 3185573888.0 + 125960192.0))));
    CHECK(a.activations == 1610874880.0);
}

TEST_CASE("trl: recompute auto is full for every run (SFTConfig's gradient_checkpointing), noted; stated values win", "[training][trl]") {
    Config cfg = qlora_4090("trl");
    cfg.training.finetune = FinetuneMethod::Full;  // full fine-tuning too, unlike peft's k-bit rule
    CHECK(resolved_recompute(cfg) == Recompute::Full);
    cfg.training.finetune = FinetuneMethod::Lora;  // a 16-bit LoRA base
    cfg.training.lora.quant = BaseQuant::None;
    CHECK(resolved_recompute(cfg) == Recompute::Full);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(has_note(e.value, "SFTConfig defaults gradient_checkpointing to True"));
    CHECK_FALSE(has_note(e.value, "prepare_model_for_kbit_training, which"));
    cfg.training.recompute = Recompute::None;
    CHECK(resolved_recompute(cfg) == Recompute::None);
    auto none = estimate(cfg);
    REQUIRE(none.ok);
    CHECK_FALSE(has_note(none.value, "SFTConfig defaults gradient_checkpointing"));
    // hf-trainer's auto stays none for a 16-bit LoRA base (TrainingArguments defaults to False).
    cfg.training.recompute = Recompute::Auto;
    cfg.training.profile = "hf-trainer";
    CHECK(resolved_recompute(cfg) == Recompute::None);
}

TEST_CASE("torchtune: recompute auto is none (the recipes' code default), with a note on the shipped configs; stated values drop it", "[training][torchtune]") {
    Config cfg = qlora_4090("torchtune");
    cfg.training.finetune = FinetuneMethod::Lora;  // a 16-bit LoRA base, as llama3_1/8B_lora_single_device.yaml
    cfg.training.lora.quant = BaseQuant::None;
    CHECK(resolved_recompute(cfg) == Recompute::None);
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(has_note(e.value, "most of its shipped configs set it True (58 of 70 single-device ones"));
    // Stated full: the layers keep their checkpointed inputs only, and the note goes.
    cfg.training.recompute = Recompute::Full;
    auto full = estimate(cfg);
    REQUIRE(full.ok);
    CHECK_FALSE(has_note(full.value, "shipped configs"));
    CHECK(full.value.total_bytes < e.value.total_bytes);
    // Another profile's auto says nothing of torchtune's configs.
    cfg.training.recompute = Recompute::Auto;
    cfg.training.profile = "hf-trainer";
    auto hf = estimate(cfg);
    REQUIRE(hf.ok);
    CHECK_FALSE(has_note(hf.value, "shipped configs"));
}

TEST_CASE("trl: loss_chunk_tokens 0 is loss_type nll, hf-trainer's loss; the chunk size overrides", "[training][trl]") {
    auto nll = training_result(qlora_4090("trl", R"(,"loss_chunk_tokens":0)"));
    REQUIRE(nll.ok);
    // The HF loss over all 2,048 tokens: 12 B a logit, 3,152,019,456 B. SFTTrainer's metrics (entropy in
    // 128-row chunks, argmax) run after the loss under no_grad beside the BF16 logits and the saved FP32
    // log-probabilities, 2 + 4 (+ 2 for a contiguous shifted copy when batch > 1) B a logit: below 12.
    CHECK(nll.value.logits_loss == 2048.0 * 128256 * 12);
    // 512-token chunks: the chunk's buffers are 512 x 128,256 x 14 B = 919,339,008 B; with the saved BF16
    // head copy 1,970,012,160 B, still below the 3,152,019,456 B at the cast.
    auto big = training_result(qlora_4090("trl", R"(,"loss_chunk_tokens":512)"));
    REQUIRE(big.ok);
    CHECK(big.value.logits_loss == kHead * 6 + 2 * 2048.0 * 4096 * 2);
    // 2,048-token chunks (the whole sequence in one): 2,048 x 128,256 x 14 = 3,677,356,032 B + the saved copy
    // 1,050,673,152 B = 4,728,029,184 B, now above the cast.
    auto one = training_result(qlora_4090("trl", R"(,"loss_chunk_tokens":4096)"));
    REQUIRE(one.ok);
    CHECK(one.value.logits_loss == 2048.0 * 128256 * 14 + kHead * 2 + 2 * 2048.0 * 4096 * 2);
    // Without autocast (bf16-true) the chunk's matmul is FP32: only w.float() (4 B), which it saves,
    // and FP32 logits: max(525,336,576 x 4, 525,336,576 x 4 + 256 x 128,256 x 16) + the hidden states.
    auto pure = training_result(qlora_4090("trl", R"(,"precision":"bf16-true")"));
    REQUIRE(pure.ok);
    CHECK(pure.value.logits_loss == kHead * 4 + 256 * 128256.0 * 16 + 2 * 2048.0 * 4096 * 2);
}

TEST_CASE("trl: adapters in BF16 on a quantized base only; training.lora.adapters_bf16 overrides", "[training][trl]") {
    auto s = training_setup(qlora_4090("trl"));
    REQUIRE(s.ok);
    CHECK(s.value.adapter_bytes == 2);
    CHECK(s.value.grad_bytes == 2);
    CHECK(s.value.master_bytes == 0);
    CHECK(s.value.state_bytes == 2);
    CHECK_FALSE(s.value.upcast_frozen);  // no peft cast since TRL 0.26
    // TRL 0.25 and earlier: FP32 adapters under autocast, as hf-trainer: 6,815,744 x (4 - 2) B more weights,
    // x (8 - 4) B more AdamW state.
    auto old = training_result(qlora_4090("trl", R"(,"lora":{"adapters_bf16":false})"));
    auto now = training_result(qlora_4090("trl"));
    REQUIRE(old.ok);
    REQUIRE(now.ok);
    CHECK(old.value.weights - now.value.weights == kAdapters * 2);
    CHECK(old.value.optimizer - now.value.optimizer == kAdapters * 4);
    // A 16-bit LoRA base: TRL casts only a 4-/8-bit model's adapters (FP32 under autocast, 4 B).
    auto lora = training_setup(qlora_4090("trl", R"(,"finetune":"lora")"));
    REQUIRE(lora.ok);
    CHECK(lora.value.adapter_bytes == 4);
    CHECK(gradient_bytes(lora.value.in, lora.value.profile) == 4);
    // true under hf-trainer: the same BF16 bytes there.
    auto forced = training_setup(qlora_4090("hf-trainer", R"(,"lora":{"adapters_bf16":true})"));
    REQUIRE(forced.ok);
    CHECK(forced.value.adapter_bytes == 2);
    CHECK(forced.value.master_bytes == 0);
}

TEST_CASE("trl: the chunked loss refuses an adapter on the LM head, naming the field and the way out", "[training][trl]") {
    auto bad = training_result(qlora_4090("trl", R"(,"lora":{"targets":["q","v","head"]})"));
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "training.lora.targets");
    CHECK(bad.error.message.find("training.loss_chunk_tokens 0") != std::string::npos);
    // loss_type "nll" adapts the head.
    CHECK(training_result(qlora_4090("trl", R"(,"loss_chunk_tokens":0,"lora":{"targets":["q","v","head"]})")).ok);
}

TEST_CASE("trl: listed with the profiles, as the field table accepts it", "[training][trl]") {
    const ProfileBehaviour* p = find_training_profile("trl");
    REQUIRE(p != nullptr);
    CHECK(std::string(p->label) == "TRL SFTTrainer (HF Trainer + peft)");
    CHECK(p->hf_attention);  // a transformers model: fa2 and sdpa-gqa are accepted
    CHECK(training_result(qlora_4090("trl", R"(,"attention":"fa2")")).ok);
}
