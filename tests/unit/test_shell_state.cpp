// The shell's pure state: shared links (URL fragment), one scenario across methods, the exports
// and the chart series, checked the way a user would: a link restores exactly what was shown.
#include <catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/format.hpp"
#include "shell/state/planner.hpp"
#include "shell/state/report.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/sweep.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using namespace vc::shell;

static std::string doc(const Config& c) { return io::dump(io::config_to_json(c)); }

static Config round_trip(const Config& c, const UiState& ui, UiState* ui_out = nullptr) {
    const std::string f = encode_fragment(c, ui, default_inputs());
    Config back;
    UiState view;
    Error err;
    INFO("fragment: " << f);
    REQUIRE(decode_fragment(f, default_inputs(), back, view, err));
    CHECK(err.field == "");  // every key of its own link reads
    if (ui_out) *ui_out = view;
    return back;
}

// Llama-3.1 8B served by the detailed method: 16 sequences of 8192 tokens.
static Config serving_llama_8b() {
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    set_task(c, Task::Inference);
    set_method(c, Method::Detailed);
    c.inference.context = 8192;
    c.inference.concurrency = 16;
    return c;
}

TEST_CASE("shell link: the default state is the empty fragment, and it reads back as the defaults") {
    const Config d = default_inputs();
    CHECK(encode_fragment(d, UiState{}, d) == "");
    Config back;
    UiState ui;
    Error err;
    REQUIRE(decode_fragment("", d, back, ui, err));
    CHECK(doc(back) == doc(d));
}

TEST_CASE("shell link: a preset, the detailed serving method and its inputs round-trip exactly") {
    Config c = serving_llama_8b();
    c.inference.weights.format = "awq-int4";
    c.gpu_id = "a100-80gb";
    sync_shared(c);
    UiState ui;
    ui.show_gib = true;
    ui.theme = ThemeChoice::Dark;
    const std::string f = encode_fragment(c, ui, default_inputs());
    // Readable: the preset by its id alone, the changed fields by their config paths.
    CHECK(f.rfind("v=2&task=inference&model.preset=llama-3.1-8b", 0) == 0);
    CHECK(f.find("inference.context=8192") != std::string::npos);
    CHECK(f.find("inference.weights=awq-int4") != std::string::npos);
    CHECK(f.find("units=gib&theme=dark") != std::string::npos);
    c.run.batch = 8;  // a whole number in a double field reads as one
    CHECK(encode_fragment(c, UiState{}, default_inputs()).find("&batch=8&") != std::string::npos);
    CHECK(f.find("model.layers") == std::string::npos);
    UiState view;
    const Config back = round_trip(c, ui, &view);
    CHECK(doc(back) == doc(c));
    CHECK(view.show_gib);
    CHECK(view.theme == ThemeChoice::Dark);
    const auto a = estimate(c), b = estimate(back);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(a.value.total_bytes == b.value.total_bytes);
}

TEST_CASE("shell link: transformers' SDPA enable_gqa (no repeat_kv copies) round-trips and changes the figure") {
    Config c = serving_llama_8b();
    c.inference.engine = Engine::Hf;
    c.inference.context = 4096;
    c.inference.prompt_tokens = 64;
    c.inference.concurrency = 8;
    c.gpu_id = "a100-80gb";
    sync_shared(c);
    const auto copies = estimate(c);
    c.inference.hf.sdpa_enable_gqa = true;
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    CHECK(f.find("inference.hf.sdpa_enable_gqa=true") != std::string::npos);
    const Config back = round_trip(c, UiState{});
    CHECK(back.inference.hf.sdpa_enable_gqa);
    const auto none = estimate(back);
    REQUIRE(copies.ok);
    REQUIRE(none.ok);
    // Llama-3.1-8B, 8 x 64 + 4,032 tokens: the last step's copies, 2 x 8 x 32 x 4,096 x 128 x 2 B =
    // 536,870,912 B, against the 64-token prefill's 119,537,664 B (tests/unit/test_inference.cpp).
    CHECK(copies.value.total_bytes - none.value.total_bytes == 536870912.0 - 119537664.0);
}

TEST_CASE("shell link: training.compile_loss round-trips (on, off, auto) and a bad value names the field", "[training]") {
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    set_task(c, Task::Training);
    set_method(c, Method::Detailed);
    c.training.profile = "torchtitan";
    c.training.compile = Toggle::On;
    c.training.compile_loss = Toggle::On;
    CHECK(encode_fragment(c, UiState{}, default_inputs()).find("training.compile_loss=true") != std::string::npos);
    CHECK(round_trip(c, UiState{}).training.compile_loss == Toggle::On);
    c.training.compile_loss = Toggle::Off;
    CHECK(round_trip(c, UiState{}).training.compile_loss == Toggle::Off);
    c.training.compile_loss = Toggle::Auto;
    CHECK(encode_fragment(c, UiState{}, default_inputs()).find("compile_loss") == std::string::npos);  // the default
    CHECK(round_trip(c, UiState{}).training.compile_loss == Toggle::Auto);
    Config back;
    UiState view;
    Error err;
    REQUIRE(decode_fragment("v=2&method=detailed&training.compile_loss=7", default_inputs(), back, view, err));
    CHECK(err.field == "training.compile_loss");
    CHECK(back.training.compile_loss == Toggle::Auto);
}

TEST_CASE("shell link: the framework-version toggles (keeps_logits and the QLoRA base's) round-trip and change the figure", "[training]") {
    // The page's LitGPT QLoRA of Llama-3.1-8B in bf16-true, one 512-token sequence, bitsandbytes < 0.43.2 keeping
    // the 4-bit layers' inputs, no LoRA dropout.
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    set_task(c, Task::FineTune, FinetuneMethod::Qlora);
    set_method(c, Method::Detailed);
    c.training.profile = "litgpt";
    c.training.precision = TrainPrecision::Bf16True;  // LitGPT refuses --quantize with a mixed precision
    c.training.lora.saves_inputs = Toggle::On;
    c.training.lora.dropout = 0;
    c.run.batch = 1;
    c.run.seq = 512;
    struct Tog {
        const char* key;
        Toggle TrainingInputs::*top;
        Toggle LoraInputs::*lora;
    };
    const Tog toggles[] = {{"training.keeps_logits", &TrainingInputs::keeps_logits, nullptr},
                           {"training.lora.previous_graph", nullptr, &LoraInputs::previous_graph},
                           {"training.lora.dequant_fp16", nullptr, &LoraInputs::dequant_fp16},
                           {"training.lora.unchunked_quantize", nullptr, &LoraInputs::unchunked_quantize},
                           {"training.lora.upcast_frozen", nullptr, &LoraInputs::upcast_frozen},
                           {"training.lora.adapters_bf16", nullptr, &LoraInputs::adapters_bf16},
                           {"training.lora.experts_unquantized", nullptr, &LoraInputs::experts_unquantized}};
    for (const Tog& t : toggles) {
        Config d = c;
        Toggle& v = t.top ? d.training.*t.top : d.training.lora.*t.lora;
        for (const auto& [value, text] : {std::pair<Toggle, const char*>{Toggle::On, "=true"}, {Toggle::Off, "=false"}}) {
            v = value;
            INFO(t.key << text);
            CHECK(encode_fragment(d, UiState{}, default_inputs()).find(std::string(t.key) + text) != std::string::npos);
            const Config back = round_trip(d, UiState{});
            CHECK((t.top ? back.training.*t.top : back.training.lora.*t.lora) == value);
        }
        v = Toggle::Auto;  // the profile's: not written
        CHECK(encode_fragment(d, UiState{}, default_inputs()).find(t.key) == std::string::npos);
    }
    // The figure follows the link: LitGPT's previous graph keeps the 4-bit layers' inputs a second
    // time, 32 layers x 512 tokens x 2 B x (gate/up's input 4,096 + down's 14,336) = 603,979,776 B
    // (q and v read the attention norm's output, which their adapters keep either way).
    Config kept = c, freed = c;
    kept.training.lora.previous_graph = Toggle::On;
    freed.training.lora.previous_graph = Toggle::Off;
    const auto twice = estimate(round_trip(kept, UiState{}));
    const auto once = estimate(round_trip(freed, UiState{}));
    REQUIRE(twice.ok);
    REQUIRE(once.ok);
    CHECK(twice.value.component("activations")->bytes - once.value.component("activations")->bytes == 32.0 * 512 * 2 * (4096 + 14336));
    // training.lora.upcast_frozen=true (peft's FP32 cast, which LitGPT's loop never runs): the embedding
    // and the norms, 128,256 x 4,096 + 2 x 4,096 x 32 + 4,096 = 525,602,816 parameters (LitGPT quantizes
    // the head), 2 B more each: 1,051,205,632 B of weights.
    Config cast = c;
    cast.training.lora.upcast_frozen = Toggle::On;
    const auto upcast = estimate(round_trip(cast, UiState{}));
    const auto plain = estimate(c);
    REQUIRE(upcast.ok);
    REQUIRE(plain.ok);
    CHECK(upcast.value.component("weights")->bytes - plain.value.component("weights")->bytes == 525602816.0 * 2);
}

TEST_CASE("shell link: vLLM's sampler and custom all-reduce round-trip and change the figure", "[vllm-mech]") {
    Config c = serving_llama_8b();
    c.gpu_id = "l40s-48gb";
    c.inference.tp = 2;
    sync_shared(c);
    const auto before = estimate(c);
    c.inference.vllm.sampler = VllmSampler::Flashinfer;
    c.inference.vllm.custom_all_reduce = VllmCustomAllReduce::Off;
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    CHECK(f.find("inference.vllm.sampler=flashinfer") != std::string::npos);
    CHECK(f.find("inference.vllm.custom_all_reduce=off") != std::string::npos);
    const Config back = round_trip(c, UiState{});
    CHECK(back.inference.vllm.sampler == VllmSampler::Flashinfer);
    CHECK(back.inference.vllm.custom_all_reduce == VllmCustomAllReduce::Off);
    const auto after = estimate(back);
    REQUIRE(before.ok);
    REQUIRE(after.ok);
    // Llama-3.1-8B at TP 2: 256 x 128,256 logits x (40 - 14) B = 853,671,936 B less profile peak
    // (the logits, not the forward, are its peak either way) and the 16 MiB of custom all-reduce's
    // buffers less non-torch memory.
    CHECK(before.value.component("activations")->bytes - after.value.component("activations")->bytes == 256.0 * 128256 * 26);
    CHECK(before.value.component("runtime")->bytes - after.value.component("runtime")->bytes == 16.0 * 1048576);
}

TEST_CASE("shell link: training.attention fa2 round-trips; old links' flash and sdpa keep their meaning", "[attention]") {
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    set_task(c, Task::FineTune);
    set_method(c, Method::Detailed);
    c.training.attention = AttentionKernel::Fa2;
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    CHECK(f.find("training.attention=fa2") != std::string::npos);
    CHECK(round_trip(c, UiState{}).training.attention == AttentionKernel::Fa2);
    c.training.attention = AttentionKernel::SdpaGqa;
    CHECK(round_trip(c, UiState{}).training.attention == AttentionKernel::SdpaGqa);
    for (const char* old : {"flash", "sdpa"}) {
        Config back;
        UiState view;
        Error err;
        const std::string link = encode_fragment(c, UiState{}, default_inputs());
        std::string edited = link.substr(0, link.find("training.attention=")) + "training.attention=" + old +
                             link.substr(link.find("training.attention=") + std::string("training.attention=sdpa-gqa").size());
        INFO(edited);
        REQUIRE(decode_fragment(edited, default_inputs(), back, view, err));
        CHECK(back.training.attention == AttentionKernel::Flash);
    }
}

TEST_CASE("shell link: a custom architecture and a parameter count alone round-trip") {
    Config c = default_inputs();
    use_preset(c, *find_preset("mistral-7b-v0.1"));
    c.model.layers = 40;
    model_edited(c);
    CHECK(model_mode(c) == ModelMode::Custom);
    set_method(c, Method::Guide);
    Config back = round_trip(c, UiState{});
    CHECK(doc(back) == doc(c));
    CHECK(model_mode(back) == ModelMode::Custom);

    Config p = default_inputs();
    use_params_only(p, 13);
    back = round_trip(p, UiState{});
    CHECK(model_mode(back) == ModelMode::ParamsOnly);
    CHECK(back.quick.params_b == 13);
    CHECK(doc(back) == doc(p));
}

TEST_CASE("shell link: a hand-written serving link computes serving, as the Inference button does") {
    Config typed, clicked = default_inputs();
    UiState ui;
    Error err;
    REQUIRE(decode_fragment("v=1&task=inference&model.preset=llama-3.1-8b", default_inputs(), typed, ui, err));
    set_method(clicked, Method::Quick);  // a v=1 link without a method: the quick method's
    use_preset(clicked, *find_preset("llama-3.1-8b"));
    set_task(clicked, Task::Inference);
    CHECK(typed.quick.optimizer == QuickOptimizer::Inference);
    auto a = estimate(typed), b = estimate(clicked);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(a.value.total_bytes == b.value.total_bytes);
    CHECK(a.value.component("gradients")->bytes == 0);  // serving: weights and activations only
    // An optimizer the link names stays.
    REQUIRE(decode_fragment("v=1&task=inference&optimizer=sgd", default_inputs(), typed, ui, err));
    CHECK(typed.quick.optimizer == QuickOptimizer::Sgd);
}

TEST_CASE("shell link: text needing escapes and a bad link") {
    Config c = default_inputs();
    set_task(c, Task::FineTune, FinetuneMethod::Lora);
    set_method(c, Method::Detailed);
    c.training.profile = "torchtune";
    c.gpu_id = "h200-141gb";
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    CHECK(f.find(' ') == std::string::npos);
    CHECK(doc(round_trip(c, UiState{})) == doc(c));

    Config out = default_inputs();
    UiState ui;
    Error err;
    // A key that cannot be read is left out (named in err), the rest of the link applies.
    CHECK(decode_fragment("v=1&batch=abc&seq=4096", default_inputs(), out, ui, err));
    CHECK(err.field == "batch");
    CHECK(out.run.batch == 4);     // the starting value
    CHECK(out.run.seq == 4096);    // the link's
    CHECK(decode_fragment("v=1&nonsense=3&batch=8", default_inputs(), out, ui, err));
    CHECK(err.field == "nonsense");
    CHECK(out.run.batch == 8);
    CHECK(decode_fragment("v=1&units=furlongs&theme=dark", default_inputs(), out, ui, err));
    CHECK(err.field == "units");
    CHECK_FALSE(ui.show_gib);
    CHECK(ui.theme == ThemeChoice::Dark);
    // An unknown version: nothing applies.
    out = default_inputs();
    out.run.batch = 2;
    CHECK_FALSE(decode_fragment("v=9&batch=8", default_inputs(), out, ui, err));
    CHECK(err.field == "v");
    CHECK(out.run.batch == 2);  // untouched
}

TEST_CASE("shell scenario: switching method keeps the shared inputs") {
    Config c = default_inputs();
    set_method(c, Method::Quick);
    use_preset(c, *find_preset("llama-3.1-8b"));
    CHECK(c.quick.params_b == Approx(8.03).epsilon(0.01));  // the quick method reads the preset's count

    // FP32 in the quick method is FP32 in the detailed one and 4 bytes in the guide.
    c.quick.precision = QuickPrecision::Fp32;
    sync_shared(c);
    CHECK(c.training.precision == TrainPrecision::Fp32);
    CHECK(c.guide_bytes == 4);

    // The detailed method's 8-bit AdamW and full recomputation read back in the quick method.
    set_method(c, Method::Detailed);
    c.training.precision = TrainPrecision::Fp32;
    c.training.optimizer = OptimizerKind::AdamW8bit;
    c.training.recompute = Recompute::Full;
    sync_shared(c);
    CHECK(c.quick.precision == QuickPrecision::Fp32);  // FP32 stays FP32 ...
    c.training.precision = TrainPrecision::Bf16Mixed;
    c.quick.precision = QuickPrecision::Fp16;
    sync_shared(c);
    CHECK(c.quick.precision == QuickPrecision::Fp16);  // ... and 2 bytes stay 2 bytes (the quick method cannot tell FP16 from BF16)
    CHECK(c.quick.optimizer == QuickOptimizer::AdamW8bit);
    CHECK(c.quick.checkpointing);

    // Serving: concurrency and context are the batch and sequence of the other methods.
    set_task(c, Task::Inference);
    c.inference.concurrency = 32;
    c.inference.context = 16384;
    c.inference.weights.format = "awq-int4";
    sync_shared(c);
    CHECK(c.run.batch == 32);
    CHECK(c.run.seq == 16384);
    CHECK(c.quick.precision == QuickPrecision::Int4);
    CHECK(c.quick.optimizer == QuickOptimizer::Inference);
    set_method(c, Method::Quick);
    c.run.batch = 8;
    sync_shared(c);
    CHECK(c.inference.concurrency == 8);
    CHECK(c.inference.weights.format == "awq-int4");  // INT4 in the quick method keeps the 4-bit format

    // Back to training: the optimizer returns, fine-tuning picks its variant.
    set_task(c, Task::FineTune, FinetuneMethod::Qlora);
    CHECK(c.quick.optimizer == QuickOptimizer::AdamWMixed);
    CHECK(c.training.finetune == FinetuneMethod::Qlora);
    set_task(c, Task::Training);
    CHECK(c.training.finetune == FinetuneMethod::Full);
}

TEST_CASE("shell reports: summary, CSV and Markdown of the quick worked example") {
    App a;
    a.inputs = default_inputs();
    set_method(a.inputs, Method::Quick);  // the page opens on the detailed model; the worked example is the quick rule's
    recompute(a);
    REQUIRE(a.results.valid);
    const Results& r = a.results;
    CHECK(r.estimate.buffered_bytes == Approx(306.432e9));
    REQUIRE(r.methods.size() == 3);

    const std::string text = summary_text(a.inputs, r, false, "https://x/#v=1");
    CHECK(text.find("Memory per GPU: 306.43 GB") != std::string::npos);
    CHECK(text.find("Activations: 143.36 GB (56.1%)") != std::string::npos);
    CHECK(text.find("https://x/#v=1") != std::string::npos);

    const std::string csv = export_csv(a.inputs, r);
    CHECK(csv.rfind("section,key,label,bytes,GB,GiB,share,formula\n", 0) == 0);
    CHECK(csv.find("component,activations,Activations,143360000000,143.360000,133.514404,") != std::string::npos);
    CHECK(csv.find("total,total_bytes,Per-GPU total,255360000000,") != std::string::npos);

    const std::string md = export_markdown(a.inputs, r, true, "");
    CHECK(md.find("## Memory per GPU: 285.39 GiB") != std::string::npos);
    CHECK(md.find("| Activations | 133.51 | 56.1% |") != std::string::npos);

    const auto j = nlohmann::json::parse(export_json(a.inputs, r));
    CHECK(j["result"]["total_bytes"] == 255.36e9);
    CHECK(j["config"]["batch"] == 4);

    const auto s = nlohmann::json::parse(accessible_summary_json(a));
    // A rule of thumb: the detailed model's answer first (issue 14), then the rule's figure.
    CHECK(s["results"][0][0] == "Rule of thumb (Quick method)");
    // (On the page's H100 the CUDA context is 605 MiB, core/catalog/cuda_context.hpp; the fused attention
    // kernel's output is o_proj's input, no copy: core/train/training_activations.cpp. The final norm keeps
    // eager RMSNorm's FP32 input and FP32 normalised tensor under autocast: 4 + 4 B, was 4.)
    CHECK(s["results"][0][1] == "a comparison, not the answer; the detailed model gives 182.83 GB per GPU");
    CHECK(s["results"][1][0] == "Per-GPU total");
    CHECK(s["results"][1][1] == "255.36 GB");
    CHECK(export_file_name(a.inputs, "csv") == "vramcalc-params-training-quick.csv");
}

TEST_CASE("shell reports: the summary lists the inputs the detailed method reads") {
    auto has = [](const std::vector<Row>& rows, const std::string& label, const std::string& value) {
        for (const auto& r : rows)
            if (r.first == label) return r.second == value;
        return false;
    };
    const auto serving = input_rows(serving_llama_8b());
    CHECK(has(serving, "Engine", "vllm"));
    CHECK(has(serving, "Context length", "8,192"));
    CHECK(has(serving, "Concurrent sequences", "16"));
    CHECK_FALSE(has(serving, "Sequence length", "2,048"));  // the quick method's, not read when serving

    Config qlora = default_inputs();
    use_preset(qlora, *find_preset("llama-3.1-8b"));
    set_task(qlora, Task::FineTune, FinetuneMethod::Qlora);
    set_method(qlora, Method::Detailed);
    const auto rows = input_rows(qlora);
    CHECK(has(rows, "Adapters", "QLoRA rank 16, targets q,v"));
    CHECK(has(rows, "Micro-batch", "4"));
    // Recomputation left to the profile: HF/peft's prepare_model_for_kbit_training checkpoints in full.
    CHECK(has(rows, "Recomputation", "auto: full"));
}

TEST_CASE("shell results: invalid inputs keep the last valid result beside the error") {
    App a;
    a.inputs = default_inputs();
    recompute(a);
    const double before = a.results.estimate.total_bytes;
    a.inputs.run.batch = 0;
    mark_changed(a);
    results(a);
    CHECK(a.error.field == "batch");
    CHECK(a.results.estimate.total_bytes == before);
    a.inputs.run.batch = 4;
    mark_changed(a);
    results(a);
    CHECK(a.error.field.empty());
}

TEST_CASE("shell charts: samples on a log2 axis include the present value; memory grows with it") {
    Config c = default_inputs();
    set_method(c, Method::Quick);
    const Sweep s = compute_sweep(c, SweepAxis::Batch);
    CHECK(s.x.front() == 1);
    CHECK(s.x.back() >= 64);
    bool has_current = false;
    for (double x : s.x) has_current |= x == 4;
    CHECK(has_current);
    for (size_t i = 1; i < s.x.size(); ++i) {
        CHECK(s.x[i] > s.x[i - 1]);
        CHECK(s.total[i] >= s.total[i - 1]);
    }
    // The quick method's activations: 2.5e-3 x batch x seq x params bytes at batch 1.
    REQUIRE(s.series.size() == 4);
    CHECK(s.series[3].key == "activations");
    CHECK(s.series[3].bytes[0] == Approx(2.5e-3 * 1 * 2048 * 7e9));
    const Sweep q = compute_sweep(c, SweepAxis::Seq);
    CHECK(q.x.front() == 128);
    CHECK(q.current == 2048);
}

TEST_CASE("shell format: the engine's text restates its sizes in the unit shown") {
    // 2.10 GB = 2.1e9 / 2^30 = 1.9558 GiB; 1.00 GiB = 1.073741824 GB.
    CHECK(sizes_in_unit("QLoRA dequantized weight 2.10 GB + cuBLAS workspace 0.01 GB", true) ==
          "QLoRA dequantized weight 1.96 GiB + cuBLAS workspace 0.01 GiB");
    CHECK(sizes_in_unit("peak 1.00 GiB, pool 1,500.0 GiB", false) == "peak 1.07 GB, pool 1,610.6 GB");
    CHECK(sizes_in_unit("even micro-batch 1 needs 143.43 GB per GPU, over 64.14 GB (75% of NVIDIA H100 80GB (SXM))", true) ==
          "even micro-batch 1 needs 133.58 GiB per GPU, over 59.74 GiB (75% of NVIDIA H100 80GB (SXM))");
    // Not sizes: names, e-notation, other units, a unit that only starts the same way.
    const std::string keep = "8.03e9 params x 2 B; H100 80GB; 128 GBps; x2 GB; 12 MiB; layer 3 GBs";
    CHECK(sizes_in_unit(keep, true) == keep);
    CHECK(sizes_in_unit("", true).empty());
}

TEST_CASE("shell format: an error restates the value a user typed into a whole-number field") {
    const std::string m = "inference.context must be a whole number in [1, 16777216] tokens, got 2147483647";
    CHECK(with_typed_value(m, 1e30) == "inference.context must be a whole number in [1, 16777216] tokens, got 1e+30");
    CHECK(with_typed_value(m, std::nan("")) == "inference.context must be a whole number in [1, 16777216] tokens, got not a number");
    CHECK(with_typed_value(m, -HUGE_VAL) == "inference.context must be a whole number in [1, 16777216] tokens, got -infinity");
    CHECK(with_typed_value("no value here", 3) == "no value here");
}

TEST_CASE("shell format: sizes with their unit label, counts grouped") {
    CHECK(format_size(14e9, false) == "14.00 GB");
    CHECK(format_size(1234.5e9, false) == "1,234.5 GB");
    CHECK(format_size(12345e9, false) == "12,345 GB");
    CHECK(format_size(1073741824.0, true) == "1.00 GiB");
    CHECK(format_exact_bytes(306432000000) == "306,432,000,000 bytes");
    CHECK(format_count(131072) == "131,072");
    CHECK(format_value(1, "GPUs", false) == "1 GPU");
    CHECK(format_value(0.1183, "s", false) == "118.3 ms");
    CHECK(format_percent(0.901) == "90.1%");
}

TEST_CASE("shell charts: detailed serving samples concurrency and context through the engine's plan") {
    Config c = serving_llama_8b();
    const Sweep s = compute_sweep(c, SweepAxis::Batch);
    CHECK(s.field == "inference.concurrency");
    CHECK(s.current == 16);
    // vLLM takes its whole pool up front: the total is flat, what 16 sequences need is the estimate's.
    REQUIRE(s.demand.size() == s.x.size());
    CHECK(s.total.front() == s.total.back());
    const auto e = estimate(c);
    REQUIRE(e.ok);
    for (size_t i = 0; i < s.x.size(); ++i)
        if (s.x[i] == 16) CHECK(s.total[i] == Approx(e.value.total_bytes));
    // Each sequence of 8192 tokens adds 8192 x 128 KiB of KV cache (Llama-3 8B in BF16).
    CHECK(s.demand[1] - s.demand[0] == Approx((s.x[1] - s.x[0]) * 8192 * 131072.0));
    const Sweep q = compute_sweep(c, SweepAxis::Seq);
    CHECK(q.field == "inference.context");
    CHECK(q.current == 8192);
}

TEST_CASE("the GPU table's count for training is the Fewest GPUs answer for each GPU") {
    // Llama-3.1-70B pretraining on 256 GPUs with FSDP, TP 8: the table used to read "1 GPU" (the
    // per-GPU fit at the job's layout) while "Fewest GPUs" said far more.
    App a;
    auto cfg = io::parse_config(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-70b"},"gpu":"h100-80gb",
        "batch":1,"seq":4096,"gpus":256,"parallel":{"tp":8},"training":{"sharding":"fsdp","recompute":"full"}})");
    REQUIRE(cfg.ok);
    a.inputs = cfg.value;
    recompute(a);
    REQUIRE(a.results.valid);
    REQUIRE(a.results.complete);
    const SolveResult* fewest = nullptr;
    for (const auto& s : a.results.answers)
        if (s.question == "min_gpus") fewest = &s;
    REQUIRE(fewest);
    REQUIRE(fewest->ok);
    int checked = 0;
    for (const auto& row : a.results.gpus) {
        INFO(row.fit.gpu_id);
        CHECK(row.from_solver);
        Config c = a.inputs;
        c.gpu_id = row.fit.gpu_id;
        auto s = solve(c, "min_gpus");
        REQUIRE(s.ok);
        CHECK(row.fit.gpus_needed == static_cast<int>(s.value.value));
        if (row.fit.gpu_id == "h100-80gb") {
            CHECK(row.fit.gpus_needed == static_cast<int>(fewest->answer.value));
            CHECK(row.fit.gpus_needed > 1);
            CHECK(row.fit.gpus_needed % 8 == 0);  // whole TP groups
            ++checked;
        }
    }
    CHECK(checked == 1);
}

TEST_CASE("the page's verdict with system RAM of no stated size: the GPU part's, and the RAM it needs, not 'fits'") {
    // DeepSeek-V3 Q6_K on an RTX 4090 at 4,096 tokens: --fit keeps the experts of 58 layers in RAM,
    // 760,166,400 + 58 x 9,248,440,320 + 23,068,672 + 517,120 B = 537.19 GB (500.30 GiB).
    App a;
    auto cfg = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"deepseek-v3"},"gpu":"rtx-4090-24gb",
        "inference":{"engine":"llama.cpp","weights":"q6_k","context":4096}})");
    REQUIRE(cfg.ok);
    a.inputs = cfg.value;
    recompute(a);
    const GpuFit* f = chosen_fit(a.inputs, a.results);
    REQUIRE(f);
    CHECK(verdict_text(*f) == "GPU part fits within the budget");
    CHECK(ram_text(*f, false) == "; needs 537.19 GB of system RAM, not checked (SYSTEM RAM)");
    CHECK(ram_text(*f, true) == "; needs 500.30 GiB of system RAM, not checked (SYSTEM RAM)");
    bool row = false;
    for (const auto& [label, value] : result_rows(a.inputs, a.results, false))
        row = row || (label == "On NVIDIA GeForce RTX 4090 24GB" &&
                      value == "GPU part fits within the budget; needs 537.19 GB of system RAM, not checked (SYSTEM RAM) (68.9% of its memory)");
    CHECK(row);
    // The RAM given: the plain verdict.
    a.inputs.inference.host.ram_bytes = 1024.0 * 1073741824;
    mark_changed(a);
    recompute(a);
    f = chosen_fit(a.inputs, a.results);
    REQUIRE(f);
    CHECK(verdict_text(*f) == "fits within the budget");
    CHECK(ram_text(*f, false).empty());
}

TEST_CASE("one budget: the verdict, the GPU table and the answers agree, and the page says which budget") {
    App a;
    // vLLM on a 24 GB card: it reserves 90% whatever the load; one 4k sequence fits in its pool.
    auto cfg = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
        "inference":{"engine":"vllm","context":4096,"concurrency":1}})");
    REQUIRE(cfg.ok);
    a.inputs = cfg.value;
    recompute(a);
    REQUIRE(a.results.complete);
    const GpuFit* f = chosen_fit(a.inputs, a.results);
    REQUIRE(f);
    CHECK(f->within_target);  // the pool holds the sequence: green, not "above the target"
    CHECK(verdict_text(*f) == "fits within the budget");
    CHECK(budget_text(a.inputs, a.inputs.target_utilization, false).find("vLLM reserves 90.0% of") != std::string::npos);
    // HF transformers on the same card (24 GiB = 25.76 GB), 4 sequences of 4k: 79% of it, over the 75% target.
    a.inputs.inference.engine = Engine::Hf;
    a.inputs.inference.concurrency = 4;
    mark_changed(a);
    recompute(a);
    f = chosen_fit(a.inputs, a.results);
    REQUIRE(f);
    INFO("utilization " << f->utilization);
    const SolveResult* most = nullptr;
    const SolveResult* fewest = nullptr;
    for (const auto& s : a.results.answers) {
        if (s.question == "max_concurrency") most = &s;
        if (s.question == "min_gpus") fewest = &s;
    }
    REQUIRE(most);
    REQUIRE(fewest);
    REQUIRE(most->ok);
    // Within the budget exactly when the answer says the load fits.
    CHECK(f->within_target == (most->answer.value >= 4));
    CHECK(budget_text(a.inputs, a.inputs.target_utilization, false) == "Budget: 19.32 GB, the 75.0% target of 25.76 GB; the verdict, the bar, the GPU table and every answer use it.");
    // The table's count for the chosen GPU is the Fewest GPUs answer.
    for (const auto& row : a.results.gpus)
        if (row.fit.gpu_id == a.inputs.gpu_id && fewest->ok) CHECK(row.fit.gpus_needed == static_cast<int>(fewest->answer.value));
}

TEST_CASE("shell link: the Cluster planner's state round-trips and bad planner keys name themselves") {
    Config c = default_inputs();
    UiState ui;
    ui.planner.open = true;
    ui.planner.gpus = 32;
    ui.planner.fabric = "roce-200";
    ui.planner.global_batch = 512;
    ui.planner.train_tokens = 2.5e11;
    ui.planner.rank = PlanRank::Cost;
    const std::string f = encode_fragment(c, ui, default_inputs());
    CHECK(f == "v=2&view=planner&plan.gpus=32&plan.fabric=roce-200&plan.global_batch=512&plan.train_tokens=250000000000&plan.rank=cost");
    UiState back;
    round_trip(c, ui, &back);
    CHECK(back.planner == ui.planner);
    // The defaults write nothing; a closed planner keeps its fields in the link.
    CHECK(encode_fragment(c, UiState{}, default_inputs()).empty());
    ui.planner.open = false;
    CHECK(encode_fragment(c, ui, default_inputs()).find("view=") == std::string::npos);

    Config out;
    UiState view;
    Error err;
    err = Error{};
    CHECK(decode_fragment("v=1&plan.rank=speed", default_inputs(), out, view, err));  // the rest applies; the bad key is named
    CHECK(err.field == "plan.rank");
    err = Error{};
    CHECK(decode_fragment("v=1&plan.gpus=1.5", default_inputs(), out, view, err));  // the rest applies; the bad key is named
    CHECK(err.field == "plan.gpus");
    err = Error{};
    CHECK(decode_fragment("v=1&plan.top=3", default_inputs(), out, view, err));  // the rest applies; the bad key is named
    CHECK(err.field == "plan.top");
    err = Error{};
    CHECK(decode_fragment("v=1&view=chart", default_inputs(), out, view, err));  // the rest applies; the bad key is named
    CHECK(err.field == "view");
}

TEST_CASE("shell planner: the page's request is the calculator's config plus the plan fields, and Use loads a layout") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    a.ui.planner.gpus = 16;
    a.ui.planner.global_batch = 256;
    const auto req = planner_request_json(a.inputs, a.ui.planner);
    CHECK(req["method"] == "detailed");
    CHECK(req["plan"]["gpus"] == 16);
    CHECK(req["plan"]["top"] == kPlannerTop);
    const PlannerResults& r = planner_results(a);
    REQUIRE(r.valid);
    REQUIRE(!r.plan.ranked.empty());
    CHECK(r.plan.gpus == 16);
    CHECK(r.plan.global_batch == 256);
    const Layout l = r.plan.ranked.front().layout;
    CHECK(l.tp * l.pp * l.dp * l.cp == 16);
    CHECK(l.dp * l.micro * l.accum == 256);  // the global batch, in sequences
    use_layout(a, r.plan.ranked.front());
    CHECK(a.inputs.method == Method::Detailed);
    CHECK(a.inputs.gpus == 16);
    CHECK(a.inputs.parallel.tp == l.tp);
    CHECK(a.inputs.parallel.pp == l.pp);
    CHECK(a.inputs.training.grad_accum == l.accum);
    CHECK(a.inputs.run.batch == l.micro);
    CHECK_FALSE(a.ui.planner.open);
    // A GPU count no node size divides: the engine's message names plan.gpus; the last plan stays.
    a.ui.planner.gpus = 12;
    const PlannerResults& bad = planner_results(a);
    CHECK(bad.error.field == "plan.gpus");
    CHECK(bad.valid);
}

TEST_CASE("shell planner: exports of the ranked layouts, escaped as the calculator's exports") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    a.ui.planner.open = true;
    a.ui.planner.gpus = 16;
    a.ui.planner.global_batch = 256;
    a.ui.planner.train_tokens = 1e11;
    const PlannerResults& r = planner_results(a);
    REQUIRE(r.valid);
    REQUIRE(r.plan.ranked.size() == static_cast<size_t>(kPlannerTop));
    const std::string csv = planner_export_csv(a);
    // A header and one line per ranked layout; the first row is the first layout, unrounded.
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + kPlannerTop);
    const LayoutResult& best = r.plan.ranked.front();
    const std::string row1 = csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n') - 1);
    CHECK(row1.rfind("1," + layout_label(best.layout) + "," + std::to_string(best.layout.tp) + ",", 0) == 0);
    char mem[32];
    std::snprintf(mem, sizeof mem, ",%.0f,", best.memory_bytes);
    CHECK(row1.find(mem) != std::string::npos);
    // Markdown: a name with table and link syntax stays in its cell; the link reopens the plan.
    a.inputs.model.name = "evil|[x](http://e)";
    const std::string md = planner_export_markdown(a, "https://example.org/#v=1&view=planner");
    CHECK(md.find("# vramcalc cluster plan: evil\\|\\[x\\]\\(http://e\\)") == 0);
    CHECK(md.find("| 1 | " + md_cell(layout_label(best.layout)) + " | ") != std::string::npos);
    CHECK(md.find("[Open this plan](https://example.org/#v=1&view=planner)") != std::string::npos);
    const auto j = nlohmann::json::parse(planner_export_json(a));
    CHECK(j["request"]["plan"]["gpus"] == 16);
    CHECK(j["plan"]["ranked"].size() == static_cast<size_t>(kPlannerTop));
    CHECK(j["plan"]["ranked"][0]["step_s"].get<double>() == best.time.total);
}

TEST_CASE("shell planner: the extras follow a search at a time: fabrics with their batch sizing, then the Pareto sizes") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    a.ui.planner.open = true;
    a.ui.planner.gpus = 16;
    const PlannerResults& r = planner_results(a);
    REQUIRE(r.valid);
    // 6 fabrics + 5 cluster sizes + 4 candidate clusters = 15 units, each a search; a budget of 0 ms
    // runs one slice of a search (64 layouts) per call, so a unit takes several calls.
    int calls = 0;
    size_t units_seen = 0;
    while (planner_extras_step(a, 0)) {
        ++calls;
        CHECK(planner_extras().next <= units_seen + 1);  // at most one unit finishes per slice
        units_seen = planner_extras().next;
    }
    ++calls;
    const PlannerExtras& x = planner_extras();
    CHECK(x.units == 15);
    CHECK(calls > 15);
    // The default candidates: this cluster, 16 A100-80GB on HDR200, 16 B200 on NDR400, 32 A100-80GB; ranked by time.
    REQUIRE(x.clusters.size() == 4);
    for (size_t i = 1; i < x.clusters.size(); ++i)
        if (x.clusters[i].ok) CHECK(x.clusters[i - 1].train_days <= x.clusters[i].train_days);
    const auto h100 = std::find_if(x.clusters.begin(), x.clusters.end(), [](const ClusterResult& k) { return k.cluster.gpu_id == "h100-80gb"; });
    REQUIRE(h100 != x.clusters.end());
    CHECK(h100->train_days == Approx(r.plan.ranked.front().train_days));  // the planned cluster's best layout
    CHECK(h100->purchase_usd == Approx(16 * 25000 * 1.15));
    CHECK(x.complete);
    REQUIRE(x.chosen_fabric >= 0);
    CHECK(x.fabrics[static_cast<size_t>(x.chosen_fabric)].fabric_id == "ib-ndr400");
    // The chosen fabric's best layout is the plan's.
    CHECK(layout_label(x.fabrics[static_cast<size_t>(x.chosen_fabric)].best.layout) == layout_label(r.plan.ranked.front().layout));
    CHECK(x.counts == std::vector<int>{4, 8, 16, 32, 64});
    bool front = false;
    for (const auto& p : x.pareto) front = front || p.front;
    CHECK(front);
    // Serving: one unit for all candidates; 256 sequences of 8192 tokens of Llama-3.1-8B.
    a.ui.planner.serve = true;
    planner_results(a);
    while (planner_extras_step(a, 1000)) {}
    REQUIRE(planner_extras().serve.size() == 4);
    for (const auto& k : planner_extras().serve)
        if (k.ok) CHECK(k.replicas * k.tp == k.cluster.gpus);
    // A bad candidate names its field; the last valid plan stays.
    a.ui.planner.clusters = "h100-80gb:many:ib-ndr400";
    CHECK(planner_results(a).error.field == "plan.clusters");
    CHECK(planner_results(a).valid);
    a.ui.planner.clusters.clear();
    a.ui.planner.serve = false;
    // A new plan restarts them.
    a.ui.planner.gpus = 32;
    const unsigned long gen = planner_results(a).generation;
    CHECK(planner_extras_step(a, 0));
    CHECK(planner_extras().generation == gen);
    CHECK(planner_extras().next == 0);  // one slice of the first fabric's search
    CHECK_FALSE(planner_extras().complete);
}

TEST_CASE("shell planner: the page's search runs in slices over frames, the last plan on screen meanwhile") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    a.ui.planner.open = true;
    a.ui.planner.gpus = 16;
    const PlanResult whole = planner_results(a).plan;
    REQUIRE_FALSE(whole.ranked.empty());
    // A new GPU count: the plan on screen stays while the new search runs, one 64-layout slice a call.
    a.ui.planner.gpus = 32;
    long long done = 0, total = 0;
    CHECK(planner_step(a, false, 0));
    REQUIRE(planner_searching(&done, &total));
    CHECK(done == 64);
    CHECK(total > 64 * 3);
    CHECK(planner_current().plan.gpus == 16);
    int frames = 1;
    while (planner_searching()) {
        planner_step(a, false, 0);
        ++frames;
    }
    CHECK(frames == (total + 63) / 64);
    CHECK(planner_current().plan.gpus == 32);
    CHECK(planner_current().plan.evaluated == total);
    // The same plan as at once.
    a.ui.planner.gpus = 16;
    const PlanResult back = planner_results(a).plan;
    CHECK(layout_label(back.ranked.front().layout) == layout_label(whole.ranked.front().layout));
    CHECK(back.ranked.front().time.total == whole.ranked.front().time.total);
    CHECK(back.fitting == whole.fitting);
    // A bad count is refused at once, naming the field; the last plan stays and no search runs.
    a.ui.planner.gpus = 12;
    planner_step(a, false, 0);
    CHECK_FALSE(planner_searching());
    CHECK(planner_current().error.field == "plan.gpus");
    CHECK(planner_current().valid);
}
