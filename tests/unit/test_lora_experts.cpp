// vramcalc tests: LoRA adapters on an MoE's routed experts (training.lora.expert_adapters;
// docs/training.md "LoRA on fused MoE experts"): per expert (transformers 4), none (transformers 5's
// fused experts under peft's target_modules), peft's target_parameters with its merged weights, and
// the same adapters unmerged (Unsloth, Axolotl's MoE kernels). Every figure below is worked by hand.
#include <catch.hpp>

#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/plan/plan.hpp"
#include "plan_helpers.hpp"
#include "core/train/training.hpp"
#include "core/train/training_internal.hpp"
#include "io/config_json.hpp"
#include "training_helpers.hpp"
#include "shell/app.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using namespace vc::shell;

namespace {

// LoRA (BF16 base, BF16 mixed precision: FP32 adapters) of `preset`, r 16 on `targets`, one
// 2,048-token sequence on one H100 80GB, with `extra` inside "lora" and `training` inside "training".
Config lora(const char* preset, const char* targets, const char* adapters, const char* training = "") {
    return test::parsed(std::string(R"({"method":"detailed","task":"finetune","gpu":"h100-80gb","model":{"preset":")") + preset +
                        R"("},"batch":1,"seq":2048,"training":{"finetune":"lora")" + training + R"(,"lora":{"rank":16,"dropout":0,"targets":")" +
                        targets + R"(","expert_adapters":")" + adapters + R"("}}})");
}

TrainingResult result(const Config& c) { return test::trained(c); }

using test::has_note;

// Qwen3-30B-A3B: 48 MoE layers, hidden 2,048, 128 routed experts of width 768, top 8, no shared expert.
// Per expert, r 16 on gate, up and down as nn.Linear: 3 x 16 x (2,048 + 768) = 135,168;
// as peft's target_parameters on gate_up_proj [E, 1536, 2048] and down_proj [E, 2048, 768]:
// 16 x (2,048 + 1,536) + 16 x (768 + 2,048) = 57,344 + 45,056 = 102,400.
constexpr double kQwenPerExpert = 48.0 * 128 * 135168;  // 830,472,192
constexpr double kQwenFused = 48.0 * 128 * 102400;      // 629,145,600
// One layer's merged expert weights W + B A in BF16: 128 x (1,536 x 2,048 + 2,048 x 768) x 2 B.
constexpr double kQwenMergedLayer = 128.0 * (1536 * 2048 + 2048 * 768) * 2;  // 1,207,959,552 B

}  // namespace

TEST_CASE("Qwen3-30B-A3B LoRA r16 on gate, up, down: the routed experts' adapters per setting, by hand", "[training][lora_experts]") {
    REQUIRE(kQwenPerExpert == 830472192.0);
    REQUIRE(kQwenFused == 629145600.0);
    const TrainingResult per = result(lora("qwen3-30b-a3b", "gate,up,down", "per-expert"));
    const TrainingResult none = result(lora("qwen3-30b-a3b", "gate,up,down", "none"));
    const TrainingResult fused = result(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters"));
    const TrainingResult unmerged = result(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters-unmerged"));
    CHECK(per.params_trainable == kQwenPerExpert);
    CHECK(none.params_trainable == 0);  // no dense MLP, no shared expert: nothing left for target_modules
    CHECK(fused.params_trainable == kQwenFused);
    CHECK(unmerged.params_trainable == kQwenFused);
    // Adapters in FP32 (4 B) and AdamW's two FP32 moments (8 B): per expert 830,472,192 x 4 =
    // 3,321,888,768 B of weights and x 8 = 6,643,777,536 B of optimizer state over none.
    CHECK(per.weights - none.weights == 3321888768.0);
    CHECK(per.optimizer - none.optimizer == 6643777536.0);
    CHECK(none.optimizer == 0);
    // target_parameters: 629,145,600 x 4 = 2,516,582,400 B of weights, x 8 = 5,033,164,800 B of state.
    CHECK(fused.weights - none.weights == 2516582400.0);
    CHECK(fused.optimizer == 5033164800.0);
    // Merged and kept for backward on all 48 layers (LoRA without a quantized base: no recompute under
    // hf-trainer): 48 x 1,207,959,552 = 57,982,058,496 B of activations more than the unmerged path.
    REQUIRE(kQwenMergedLayer == 1207959552.0);
    CHECK(fused.activations - unmerged.activations == 48 * kQwenMergedLayer);
    // The temporary: the largest fused tensor, gate_up_proj's 128 x 1,536 x 2,048 = 402,653,184 values,
    // as the delta (or backward's gradient) in BF16 beside its FP32 form: x (2 + 4) = 2,415,919,104 B.
    CHECK(fused.temporary - unmerged.temporary == 2415919104.0);
    // Unmerged: the same adapters, nothing merged.
    CHECK(unmerged.weights == fused.weights);
}

TEST_CASE("target-parameters under full recompute keeps one layer's merged experts", "[training][lora_experts]") {
    const char* full = R"(,"recompute":"full")";
    const TrainingResult fused = result(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters", full));
    const TrainingResult unmerged = result(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters-unmerged", full));
    // Checkpointed layers save only their input; the layer recomputed in backward merges again.
    CHECK(fused.activations - unmerged.activations == kQwenMergedLayer);
}

TEST_CASE("Mixtral-8x7B LoRA r16 on q, v and the MLP: auto follows the profile, by hand", "[training][lora_experts]") {
    // q: 16 x (4,096 + 4,096) = 131,072; v: 16 x (4,096 + 1,024) = 81,920; 32 layers: 6,815,744.
    const double attention = 32.0 * (131072 + 81920);
    REQUIRE(attention == 6815744.0);
    // Per expert: 32 layers x 8 experts x 3 x 16 x (4,096 + 14,336) = 226,492,416.
    const double per_expert = 32.0 * 8 * 3 * 16 * (4096 + 14336);
    REQUIRE(per_expert == 226492416.0);
    // target_parameters: 32 x 8 x (16 x (4,096 + 28,672) + 16 x (14,336 + 4,096)) = 32 x 8 x 819,200 = 209,715,200.
    const double fused = 32.0 * 8 * (16 * (4096 + 28672) + 16 * (14336 + 4096));
    REQUIRE(fused == 209715200.0);
    const char* targets = "q,v,gate,up,down";
    CHECK(result(lora("mixtral-8x7b", targets, "auto")).params_trainable == attention);  // hf-trainer: transformers 5, none
    CHECK(result(lora("mixtral-8x7b", targets, "auto", R"(,"profile":"hf-legacy")")).params_trainable == attention + per_expert);
    CHECK(result(lora("mixtral-8x7b", targets, "auto", R"(,"profile":"litgpt")")).params_trainable == attention + per_expert);
    CHECK(result(lora("mixtral-8x7b", targets, "auto", R"(,"profile":"trl")")).params_trainable == attention);
    CHECK(result(lora("mixtral-8x7b", targets, "target-parameters")).params_trainable == attention + fused);
    // One layer merged: 8 x (28,672 x 4,096 + 4,096 x 14,336) x 2 B = 2,818,572,288 B, on 32 layers.
    const TrainingResult merged = result(lora("mixtral-8x7b", targets, "target-parameters"));
    const TrainingResult side = result(lora("mixtral-8x7b", targets, "target-parameters-unmerged"));
    CHECK(merged.activations - side.activations == 32 * 2818572288.0);
    // The attention-only run is the same under every setting.
    const double qv = result(lora("mixtral-8x7b", "q,v", "auto")).device_total;
    for (const char* a : {"per-expert", "none", "target-parameters", "target-parameters-unmerged"})
        CHECK(result(lora("mixtral-8x7b", "q,v", a)).device_total == qv);
}

TEST_CASE("DeepSeek-V3: none keeps the shared experts' and the dense layers' adapters", "[training][lora_experts]") {
    // 58 MoE layers x 1 shared expert x 3 x 16 x (7,168 + 2,048) = 25,657,344; 3 dense layers x
    // 3 x 16 x (7,168 + 18,432) = 3,686,400; 29,343,744 in all.
    CHECK(result(lora("deepseek-v3", "gate,up,down", "none")).params_trainable == 58.0 * 3 * 16 * (7168 + 2048) + 3.0 * 3 * 16 * (7168 + 18432));
}

TEST_CASE("A dense model is the same under every expert_adapters setting", "[training][lora_experts]") {
    const double base = result(lora("llama-3.1-8b", "all-linear", "auto")).device_total;
    for (const char* a : {"per-expert", "none", "target-parameters", "target-parameters-unmerged"}) {
        INFO(a);
        CHECK(result(lora("llama-3.1-8b", "all-linear", a)).device_total == base);
    }
    // Full fine-tuning of an MoE ignores it too.
    Config full = lora("mixtral-8x7b", "q,v,gate,up,down", "none");
    full.training.finetune = FinetuneMethod::Full;
    full.training.lora.expert_adapters = ExpertAdapters::TargetParameters;
    const double t = result(full).device_total;
    full.training.lora.expert_adapters = ExpertAdapters::Auto;
    CHECK(result(full).device_total == t);
}

TEST_CASE("The step's FLOPs count the adapters a token meets on its top-k experts", "[training][lora_experts]") {
    // Qwen3-30B-A3B, r 16 on gate, up, down: 8 experts a token x 135,168 per expert = 1,081,344;
    // target_parameters: 8 x 102,400 = 819,200; none: 0.
    const ModelSpec m = resolve_model(lora("qwen3-30b-a3b", "gate,up,down", "none").model).value;
    CHECK(lora_active_params(m, lora("qwen3-30b-a3b", "gate,up,down", "per-expert").training).moe_layer == 1081344.0);
    CHECK(lora_active_params(m, lora("qwen3-30b-a3b", "gate,up,down", "target-parameters").training).moe_layer == 819200.0);
    CHECK(lora_active_params(m, lora("qwen3-30b-a3b", "gate,up,down", "none").training).moe_layer == 0);
    CHECK(lora_active_params(m, lora("qwen3-30b-a3b", "gate,up,down", "auto").training).moe_layer == 0);
}

TEST_CASE("target-parameters with LoRA dropout is refused as peft refuses it", "[training][lora_experts]") {
    Config c = lora("qwen3-30b-a3b", "gate,up,down", "target-parameters");
    c.training.lora.dropout = 0.05;
    const auto r = training_result(c);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "training.lora.dropout");
    CHECK(r.error.message.find("must be 0 with training.lora.expert_adapters target-parameters") != std::string::npos);
    // The unmerged kernels go through the same ParamWrapper: refused too; none and per-expert accept it.
    c.training.lora.expert_adapters = ExpertAdapters::TargetParametersUnmerged;
    CHECK_FALSE(training_result(c).ok);
    c.training.lora.expert_adapters = ExpertAdapters::None;
    CHECK(training_result(c).ok);
    // A dense model has no fused experts: the setting applies to nothing, dropout stays allowed.
    Config dense = lora("llama-3.1-8b", "all-linear", "target-parameters");
    dense.training.lora.dropout = 0.05;
    CHECK(training_result(dense).ok);
}

TEST_CASE("The notes name the setting, its count and the others'", "[training][lora_experts]") {
    const auto none = training_estimate(lora("qwen3-30b-a3b", "q,v,gate,up,down", "auto"));
    REQUIRE(none.ok);
    // 830,472,192 x 16 B (4 weight + 4 gradient + 8 AdamW) = 13.29 GB; 629,145,600 x 16 B = 10.07 GB.
    CHECK(has_note(none.value, "training.lora.expert_adapters none, auto, profile hf-trainer"));
    CHECK(has_note(none.value, "8.305e8 params, 13.29 GB at 16 B each"));
    CHECK(has_note(none.value, "adds 6.291e8, 10.07 GB"));
    const auto fused = training_estimate(lora("qwen3-30b-a3b", "q,v,gate,up,down", "target-parameters"));
    REQUIRE(fused.ok);
    CHECK(has_note(fused.value, "1.21 GB a layer on this GPU"));
    CHECK(has_note(fused.value, "kept for backward on 48 layers"));
    const auto empty = training_estimate(lora("qwen3-30b-a3b", "gate,up,down", "none"));
    REQUIRE(empty.ok);
    CHECK(has_note(empty.value, "Target modules ... not found in the base model"));
    const auto qv = training_estimate(lora("qwen3-30b-a3b", "q,v", "auto"));
    REQUIRE(qv.ok);
    CHECK_FALSE(has_note(qv.value, "expert_adapters"));
}

TEST_CASE("expert_adapters travels in the page's link", "[training][lora_experts]") {
    Config c = lora("qwen3-30b-a3b", "q,v,gate,up,down", "target-parameters");
    const std::string fragment = encode_fragment(c, UiState{}, default_inputs());
    INFO(fragment);
    CHECK(fragment.find("training.lora.expert_adapters=") != std::string::npos);
    Config back;
    UiState view;
    Error err;
    REQUIRE(decode_fragment(fragment, default_inputs(), back, view, err));
    CHECK(back.training.lora.expert_adapters == ExpertAdapters::TargetParameters);
    c.training.lora.expert_adapters = ExpertAdapters::Auto;  // the profile's: not written
    CHECK(encode_fragment(c, UiState{}, default_inputs()).find("expert_adapters") == std::string::npos);
}

TEST_CASE("Expert parallelism: each GPU holds its experts' adapters, by hand", "[training][lora_experts]") {
    // Qwen3-30B-A3B LoRA r16 on gate, up and down, per expert: 830,472,192 adapter parameters on the routed
    // experts (above), nothing else adapted. An adapter lives with its expert, so a GPU of an EP group holds
    // E / EP experts' adapters: EP 2 -> 415,236,096, EP 4 -> 207,618,048. TP 2 (ETP = TP) splits every expert's
    // matrices and their adapters in two: 415,236,096 as well. Before, the count was divided by TP alone, so
    // EP 2 and EP 4 kept all 830,472,192 on every GPU.
    auto run = [](int gpus, const char* parallel, const char* extra = "") {
        return result(test::parsed(std::string(R"({"method":"detailed","task":"finetune","gpu":"h100-80gb","model":{"preset":"qwen3-30b-a3b"},)") +
                                   R"("gpus":)" + std::to_string(gpus) + R"(,"parallel":{)" + parallel + R"(},"batch":1,"seq":2048,)" +
                                   R"("training":{"finetune":"lora")" + extra +
                                   R"(,"lora":{"rank":16,"dropout":0,"targets":"gate,up,down","expert_adapters":"per-expert"}}})"));
    };
    const TrainingResult ep2 = run(2, R"("ep":2)");
    const TrainingResult ep4 = run(4, R"("ep":4)");
    const TrainingResult tp2 = run(2, R"("tp":2)");
    CHECK(ep2.params_trainable_on_gpu == kQwenPerExpert / 2);
    CHECK(ep2.params_trainable_on_gpu == 415236096.0);
    CHECK(ep4.params_trainable_on_gpu == 207618048.0);
    CHECK(tp2.params_trainable_on_gpu == 415236096.0);
    // Their FP32 weights, gradients and AdamW moments: 415,236,096 x (4 + 4 + 8) = 6,643,777,536 B under EP 2.
    CHECK(ep2.gradients == 415236096.0 * 4);
    CHECK(ep2.optimizer == 415236096.0 * 8);
    // ZeRO-1 over 4 GPUs with EP 2: the routed experts' state shards over the expert-data-parallel group,
    // dp x tp / (ep x etp) = 4 / 2 = 2 GPUs: 415,236,096 x 8 B / 2 = 1,660,944,384 B (not / 4).
    const TrainingResult z1 = run(4, R"("ep":2)", R"(,"sharding":"zero1")");
    CHECK(z1.params_trainable_on_gpu == 415236096.0);
    CHECK(z1.optimizer == 415236096.0 * 8 / 2);
    // target_parameters: 629,145,600 adapters, EP 4 -> 157,286,400 on a GPU.
    const TrainingResult fused = result(test::parsed(
        R"({"method":"detailed","task":"finetune","gpu":"h100-80gb","model":{"preset":"qwen3-30b-a3b"},"gpus":4,"parallel":{"ep":4},)"
        R"("batch":1,"seq":2048,"training":{"finetune":"lora","lora":{"rank":16,"dropout":0,"targets":"gate,up,down","expert_adapters":"target-parameters"}}})"));
    CHECK(fused.params_trainable_on_gpu == kQwenFused / 4);
    // The whole model's count is unchanged.
    CHECK(ep4.params_trainable == kQwenPerExpert);
}

TEST_CASE("Step time: peft's merge of the experts costs its GEMMs every forward, by hand", "[training][lora_experts][plan]") {
    // Qwen3-30B-A3B, r 16 on gate, up, down, one 2,048-token sequence on one H100. target_parameters merges each MoE
    // layer's experts at every forward: per expert gate_up_proj 1,536 x 16 x 2,048 and down_proj 2,048 x 16 x 768,
    // 2 x 16 x (1,536 x 2,048 + 2,048 x 768) = 150,994,944 FLOPs; x 128 experts = 19,327,352,832 a layer, x 48 layers
    // = 927,712,935,936 a forward. Backward forms A's and B's gradients from the merged weight's (2 x), no recompute:
    // 3 x 927,712,935,936 = 2,783,138,807,808 FLOPs a micro-batch more than the same adapters unmerged (Unsloth).
    // At 50% of the H100's BF16 peak, no shape penalty, HBM passes off (bandwidth 1e12 GB/s).
    PlanHardware hw = test::node_hardware("h100-80gb", "nvlink4", "ib-ndr400");
    hw.gpu.bandwidth_gbps = 1e12;
    const PlanConstants k = test::flops_only_constants();
    Layout l;
    l.sharding = Sharding::None;
    l.recompute = Recompute::None;
    const double rate = hw.gpu.bf16_tflops * 1e12 * 0.5;
    const double merge = 3 * 48 * 128 * 2.0 * 16 * (1536 * 2048 + 2048 * 768);
    REQUIRE(merge == 2783138807808.0);
    const StepTime merged = step_time(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters"), hw, k, l);
    const StepTime unmerged = step_time(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters-unmerged"), hw, k, l);
    CHECK(merged.compute - unmerged.compute == Approx(merge / rate).epsilon(1e-6));
    // EP 4: a GPU merges its 32 experts, a quarter.
    Layout ep4 = l;
    ep4.ep = 4;
    const StepTime m4 = step_time(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters"), hw, k, ep4);
    const StepTime u4 = step_time(lora("qwen3-30b-a3b", "gate,up,down", "target-parameters-unmerged"), hw, k, ep4);
    CHECK(m4.compute - u4.compute == Approx(merge / 4 / rate).epsilon(1e-6));
    // Per expert (no merge) and full recomputation: full recompute merges again in the recomputed forward (4 x).
    Layout full = l;
    full.recompute = Recompute::Full;
    Config fc = lora("qwen3-30b-a3b", "gate,up,down", "target-parameters", R"(,"recompute":"full")");
    Config fu = lora("qwen3-30b-a3b", "gate,up,down", "target-parameters-unmerged", R"(,"recompute":"full")");
    CHECK(step_time(fc, hw, k, full).compute - step_time(fu, hw, k, full).compute == Approx(merge * 4 / 3 / rate).epsilon(1e-6));
}
