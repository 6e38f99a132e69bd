// The checkpoint's dtype (ModelSpec::checkpoint_dtype, config.json torch_dtype): what the presets
// say, the 2-byte float choices that follow it when a model is chosen (follow_checkpoint_dtype: the
// page's preset list, a config.json import) and the choices it leaves alone, its range and JSON.
#include <catch.hpp>

#include <algorithm>
#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "core/solve.hpp"
#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "shell/state/model_file.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"
#include "shell/app.hpp"

using namespace vc;

namespace {

const ModelSpec& preset(const char* id) {
    const ModelSpec* m = find_preset(id);
    REQUIRE(m != nullptr);
    return *m;
}

}  // namespace

TEST_CASE("checkpoint dtype: each preset's config.json torch_dtype, or unknown") {
    CHECK(preset("llama-3.1-8b").checkpoint_dtype == "bf16");
    CHECK(preset("llama-3-8b").checkpoint_dtype == "bf16");
    CHECK(preset("llama-2-7b").checkpoint_dtype == "fp16");
    CHECK(preset("phi-2").checkpoint_dtype == "fp16");
    CHECK(preset("gemma-2-9b").checkpoint_dtype == "fp32");
    // Not found stated for that checkpoint: unknown.
    CHECK(preset("gpt2-xl").checkpoint_dtype.empty());
    // Session 18's presets whose dtype was left unknown, and Llama 4: every one's config.json says "bfloat16"
    // (core/model/presets.cpp names each source); DeepSeek-R1 and Kimi-K2 store FP8 weights beside it.
    for (const char* id : {"llama-3.3-70b", "mistral-nemo-12b", "mistral-small-24b", "qwen3-1.7b", "qwen3-4b", "qwen3-14b", "qwen3-32b",
                           "qwen3-235b-a22b", "gemma-3-12b", "gemma-3-27b", "phi-4-mini", "deepseek-r1", "kimi-k2", "llama-4-scout",
                           "llama-4-maverick"}) {
        INFO(id);
        CHECK(preset(id).checkpoint_dtype == "bf16");
    }
    for (const auto& m : model_presets()) {
        INFO(m.id);
        const std::string& d = m.checkpoint_dtype;
        CHECK((d.empty() || d == "bf16" || d == "fp16" || d == "fp32"));
    }
}

TEST_CASE("checkpoint dtype: choosing Llama-3.1 turns FP16 into BF16; INT8, 4 bits, FP32 and unknown dtypes stay") {
    using P = QuickPrecision;
    struct Row {
        const char* id;
        P precision;          // before the preset is chosen
        const char* weights;  // the serving weight format before
        P want_precision;
        const char* want_weights;
    };
    const Row rows[] = {
        {"llama-3.1-8b", P::Fp16, "fp16", P::Bf16, "bf16"},          // config.json "bfloat16"
        {"llama-3.1-8b", P::Int8, "awq-int4", P::Int8, "awq-int4"},  // a user's non-2-byte choice stays
        {"llama-3.1-8b", P::Fp32, "fp32", P::Fp32, "fp32"},
        {"llama-2-7b", P::Bf16, "bf16", P::Fp16, "fp16"},            // "float16"
        {"gemma-2-9b", P::Fp16, "fp16", P::Bf16, "bf16"},            // "float32": vLLM's dtype auto serves BF16
        {"gpt2-xl", P::Fp16, "fp16", P::Fp16, "fp16"},               // its config states none: unknown
    };
    for (const Row& r : rows) {
        INFO(r.id << " from " << r.weights);
        Config c;
        c.quick.precision = r.precision;
        c.inference.weights.format = r.weights;
        shell::use_preset(c, preset(r.id));
        CHECK(c.quick.precision == r.want_precision);
        CHECK(c.inference.weights.format == r.want_weights);
    }
}

TEST_CASE("checkpoint dtype: both 16-bit types are 2 bytes, so no size changes") {
    const WeightFormat* bf16 = find_weight_format("bf16");
    const WeightFormat* fp16 = find_weight_format("fp16");
    REQUIRE(bf16 != nullptr);
    REQUIRE(fp16 != nullptr);
    CHECK(bf16->element_bits == fp16->element_bits);
    CHECK(quick_precision_bytes(QuickPrecision::Bf16) == quick_precision_bytes(QuickPrecision::Fp16));
}

TEST_CASE("checkpoint dtype: a config document carries it and refuses anything else") {
    auto ok = io::parse_config(R"({"model": {"preset": "llama-2-7b"}})");
    REQUIRE(ok.ok);
    CHECK(ok.value.model.checkpoint_dtype == "fp16");
    const auto j = io::config_to_json(ok.value);
    CHECK(j["model"]["checkpoint_dtype"] == "fp16");

    Config c;
    c.model = preset("llama-3.1-8b");
    c.model.checkpoint_dtype = "float8";
    Error err;
    CHECK_FALSE(check_model_ranges(c.model, err));
    CHECK(err.field == "model.checkpoint_dtype");
}

TEST_CASE("checkpoint dtype: a config.json import reads torch_dtype (or dtype) and the choices follow it") {
    const std::string text = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2,
        "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128,
        "vocab_size": 1000, "torch_dtype": "float16"})";
    const auto r = io::import_model(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), "config.json", 0);
    CHECK(r.model.checkpoint_dtype == "fp16");

    Config base;
    base.quick.precision = QuickPrecision::Bf16;
    Config out;
    const auto o = shell::apply_import(base, io::import_to_json(r), out);
    REQUIRE(o.applied);
    CHECK(out.model.checkpoint_dtype == "fp16");
    CHECK(out.quick.precision == QuickPrecision::Fp16);

    std::string newer = text;
    newer.replace(newer.find("torch_dtype"), 11, "dtype");
    newer.replace(newer.find("float16"), 7, "bfloat16");
    const auto n = io::import_model(reinterpret_cast<const std::uint8_t*>(newer.data()), newer.size(), "config.json", 0);
    CHECK(n.model.checkpoint_dtype == "bf16");
}

// [SECTION] checkpoint format: a quantized checkpoint served as it is stored ---------------------

namespace {

Outcome<Estimate> serve(const std::string& doc) {
    auto cfg = io::parse_config(doc);
    INFO(cfg.error.field << ": " << cfg.error.message);
    REQUIRE(cfg.ok);
    return estimate(cfg.value);
}

}  // namespace

TEST_CASE("checkpoint format: the presets whose published weights are quantized name the format") {
    for (const char* id : {"deepseek-v3", "deepseek-v3.2", "deepseek-r1", "kimi-k2", "minimax-m2"}) {
        INFO(id);
        CHECK(preset(id).checkpoint_format == "fp8-block");  // quantization_config fp8, weight_block_size [128, 128]
    }
    CHECK(preset("gpt-oss-120b").checkpoint_format == "mxfp4");
    CHECK(preset("gpt-oss-20b").checkpoint_format == "mxfp4");
    CHECK(preset("llama-3.1-8b").checkpoint_format.empty());
    for (const auto& m : model_presets()) {
        INFO(m.id);
        Error err;
        CHECK(check_model_ranges(m, err));
    }
    Config c;
    c.model = preset("llama-3.1-8b");
    for (const char* bad : {"bf16", "q4_k_m", "fp9"}) {
        INFO(bad);
        c.model.checkpoint_format = bad;
        Error err;
        CHECK_FALSE(check_model_ranges(c.model, err));
        CHECK(err.field == "model.checkpoint_format");
    }
}

TEST_CASE("checkpoint format: gpt-oss-120b with no weights named is served in MXFP4 and fits one H100, as OpenAI says") {
    const auto e = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "h100-80gb", "inference": {"engine": "vllm", "context": 8192}})");
    REQUIRE(e.ok);
    // By hand: 36 layers x 128 experts x (2880 x 5760 gate/up + 2880 x 2880 down) = 114,661,785,600 expert weights in
    // MXFP4 at 4 + 8/32 = 4.25 bits = 60,914,073,600 B; the rest BF16: embeddings and LM head 2 x 201,088 x 2880 =
    // 1,158,266,880, attention 36 x (2880 x 4096 + 2 x 2880 x 512 + 4096 x 2880 + 4096 + 512 + 512 + 2880 biases + 64
    // sinks) = 955,805,184, routers 36 x (2880 x 128 + 128) = 13,275,648, expert biases 36 x 128 x (5760 + 2880) =
    // 39,813,120, norms 36 x 5760 + 2880 = 210,240: 2,167,371,072 x 2 B = 4,334,742,144 B; with the FP32 YaRN table
    // 131,072 x 64 x 4 B = 33,554,432: 65,282,370,176 B (the Hub's checkpoint: 65.3 GB). The preset's count differs by
    // +194,176 weights in BF16 (core/model/presets.cpp: an LM-head bias of 201,088 counted, the 2,304 sinks and 4,608
    // router biases not): + 388,352 B.
    CHECK(e.value.component("weights")->bytes == Approx(65282370176.0 + 388352).epsilon(1e-9));
    const auto bf16 = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "h100-80gb",
                                "inference": {"engine": "vllm", "context": 8192, "weights": "bf16"}})");
    REQUIRE(bf16.ok);
    // Named, the user's choice stays: 116.8e9 x 2 B, far past one card.
    CHECK(bf16.value.component("weights")->bytes > 2.3e11);
    bool fits = false;
    for (const auto& f : e.value.fits)
        if (f.gpu_id == "h100-80gb") fits = f.fits;
    CHECK(fits);
}

TEST_CASE("checkpoint format: DeepSeek-V3 on 8 x H200 loads its FP8 blocks, where the engine loads them") {
    const char* doc = R"({"task": "inference", "model": {"preset": "deepseek-v3"}, "gpu": "h200-141gb", "gpus": 8,
                          "inference": {"engine": "ENGINE", "context": 8192}})";
    auto with = [&](const char* engine) {
        std::string d = doc;
        d.replace(d.find("ENGINE"), 6, engine);
        return d;
    };
    auto stored = io::parse_config(with("vllm"));
    REQUIRE(stored.ok);
    CHECK(stored.value.inference.weights.format == "fp8-block");
    // The same bytes as naming the format: one rule, not a second size.
    auto named = io::parse_config(R"({"task": "inference", "model": {"preset": "deepseek-v3"}, "gpu": "h200-141gb", "gpus": 8,
                                      "inference": {"engine": "vllm", "context": 8192, "weights": "fp8-block"}})");
    REQUIRE(named.ok);
    const auto a = estimate(stored.value), b = estimate(named.value);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(a.value.total_bytes == b.value.total_bytes);
    // About a byte a weight: 671.0e9 weights at 8 bits + an FP32 scale per 128 x 128 tile, the embeddings and LM head
    // (2 x 129,280 x 7168) at 2 B: 85.2 GB on each of 8 GPUs, where BF16 needs 169.6 GB and does not fit.
    CHECK(a.value.component("weights")->bytes == Approx(85.16e9).epsilon(0.001));
    // llama.cpp reads GGUF files, which have no FP8 blocks: the 16-bit default stays. transformers loads them
    // (FineGrainedFP8Config from quantization_config).
    auto gguf_cfg = io::parse_config(with("llama.cpp"));
    REQUIRE(gguf_cfg.ok);
    CHECK(gguf_cfg.value.inference.weights.format == "bf16");
    auto hf_cfg = io::parse_config(with("hf"));
    REQUIRE(hf_cfg.ok);
    CHECK(hf_cfg.value.inference.weights.format == "fp8-block");
    // BF16 named: the user's choice, with a note saying what it means.
    const auto bf16 = serve(R"({"task": "inference", "model": {"preset": "deepseek-v3"}, "gpu": "h200-141gb", "gpus": 8,
                               "inference": {"engine": "vllm", "context": 8192, "weights": "bf16"}})");
    REQUIRE(bf16.ok);
    CHECK(bf16.value.component("weights")->bytes > 1.69e11);  // 671e9 x 2 B / 8 GPUs
    auto note_of = [](const Estimate& est) {
        for (const auto& n : est.notes)
            if (n.find("published checkpoint is quantized") != std::string::npos) return n;
        return std::string();
    };
    CHECK(note_of(bf16.value).find("inference.weights fp8-block serves it as stored") != std::string::npos);
    const auto gguf = serve(with("llama.cpp"));
    REQUIRE(gguf.ok);
    CHECK_FALSE(note_of(gguf.value).empty());
    CHECK(note_of(gguf.value).find("serves it as stored") == std::string::npos);  // llama.cpp loads no FP8 blocks
    CHECK(note_of(a.value).empty());                                               // served as stored: nothing to say
    // Training reads no serving weights: left alone.
    auto t = io::parse_config(R"({"model": {"preset": "deepseek-v3"}, "task": "training"})");
    REQUIRE(t.ok);
    CHECK(t.value.inference.weights.format == "bf16");
}

TEST_CASE("checkpoint format: transformers keeps MXFP4 experts and FP8 blocks from a compute capability, else loads BF16") {
    // gpt-oss-120b with no weights named: transformers loads the checkpoint's MXFP4 experts (Mxfp4GptOssExperts) and
    // BF16 rest on an H100 (compute capability 9.0 >= 7.5): the vLLM test's 65,282,758,528 B less vLLM's FP32 YaRN
    // table (131,072 x 64 x 4 B = 33,554,432 B) = 65,249,204,096 B, and a note on the kernels it needs.
    const auto h100 = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "h100-80gb", "inference": {"engine": "hf", "context": 8192}})");
    REQUIRE(h100.ok);
    CHECK(h100.value.component("weights")->bytes == Approx(65249204096.0).epsilon(1e-12));
    auto note_with = [](const Estimate& est, const char* text) {
        for (const auto& n : est.notes)
            if (n.find(text) != std::string::npos) return n;
        return std::string();
    };
    CHECK_FALSE(note_with(h100.value, "triton >= 3.4 and the kernels package").empty());
    // On a V100 (7.0 < 7.5) transformers dequantizes it: 116.8e9 weights x 2 B, the same bytes as BF16 named.
    const auto v100 = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "v100-16gb", "inference": {"engine": "hf", "context": 8192}})");
    const auto v100_bf16 = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "v100-16gb",
                                    "inference": {"engine": "hf", "context": 8192, "weights": "bf16"}})");
    REQUIRE(v100.ok);
    REQUIRE(v100_bf16.ok);
    CHECK(v100.value.component("weights")->bytes == v100_bf16.value.component("weights")->bytes);
    CHECK(v100.value.component("weights")->label == "Weights (BF16, mxfp4 dequantized)");
    const std::string dq = note_with(v100.value, "dequantizes the mxfp4 checkpoint to BF16");
    CHECK(dq.find("compute capability 7.0 is below inference.constants.hf_mxfp4_min_capability 7.5") != std::string::npos);
    // transformers' 2026 fine-grained quantizer gates MXFP4 at 8.9: an A100 (8.0) then dequantizes too.
    const auto a100 = serve(R"({"model": {"preset": "gpt-oss-120b"}, "gpu": "a100-80gb",
                               "inference": {"engine": "hf", "context": 8192, "constants": {"hf_mxfp4_min_capability": 89}}})");
    REQUIRE(a100.ok);
    CHECK(a100.value.component("weights")->bytes == v100_bf16.value.component("weights")->bytes);

    // Qwen3-8B in fine-grained FP8 (Qwen/Qwen3-8B-FP8): FP8 on an RTX 4090 (8.9); on an A100 (8.0) and on a Mac (no
    // CUDA device) dequantized to BF16: 8,190,735,360 weights x 2 B = 16,381,470,720 B, the BF16 checkpoint's bytes.
    auto qwen = [&](const char* gpu) {
        return serve(std::string(R"({"model": {"preset": "qwen3-8b"}, "gpu": ")") + gpu +
                     R"(", "inference": {"engine": "hf", "context": 4096, "weights": "fp8-block"}})");
    };
    const auto q4090 = qwen("rtx-4090-24gb"), qa100 = qwen("a100-80gb"), qmac = qwen("apple-m2-max-64gb");
    REQUIRE(q4090.ok);
    REQUIRE(qa100.ok);
    REQUIRE(qmac.ok);
    Config q;
    q.model = preset("qwen3-8b");
    QuantOptions fp8;
    fp8.format = "fp8-block";
    auto stored = weight_bytes(resolve_model(q.model).value, fp8, 1);
    REQUIRE(stored.ok);
    CHECK(q4090.value.component("weights")->bytes == Approx(stored.value.total).epsilon(1e-12));
    CHECK(qa100.value.component("weights")->bytes == Approx(16381470720.0).epsilon(1e-12));
    CHECK(qmac.value.component("weights")->bytes == Approx(16381470720.0).epsilon(1e-12));
    CHECK(note_with(qmac.value, "no CUDA or XPU device").size() > 0);
    // The GPU table judges each GPU by what transformers loads on it: the 4090's share is of the FP8 weights, the
    // A100's of the BF16 ones, whichever GPU the estimate was made for.
    auto share = [](const Estimate& est, const char* id) {
        for (const auto& f : est.fits)
            if (f.gpu_id == id) return f.utilization;
        return -1.0;
    };
    CHECK(share(q4090.value, "a100-80gb") == Approx(share(qa100.value, "a100-80gb")).epsilon(1e-9));
    CHECK(share(qa100.value, "rtx-4090-24gb") == Approx(share(q4090.value, "rtx-4090-24gb")).epsilon(1e-9));
    CHECK(share(q4090.value, "a100-80gb") * 80 > share(q4090.value, "rtx-4090-24gb") * 24 * 1.5);  // ~16.7 against ~10.3 GiB
    // Never dequantized (0), the A100 keeps the FP8 bytes.
    const auto kept = serve(R"({"model": {"preset": "qwen3-8b"}, "gpu": "a100-80gb",
                               "inference": {"engine": "hf", "context": 4096, "weights": "fp8-block", "constants": {"hf_fp8_min_capability": 0}}})");
    REQUIRE(kept.ok);
    CHECK(kept.value.component("weights")->bytes == Approx(stored.value.total).epsilon(1e-12));
}

TEST_CASE("checkpoint format: transformers' best formats leave out one it would dequantize, and MXFP4 for a dense model") {
    auto formats = [](const char* gpu) {
        auto c = io::parse_config(std::string(R"({"model": {"preset": "qwen3-8b"}, "gpu": ")") + gpu +
                                  R"(", "inference": {"engine": "hf", "context": 4096}})");
        REQUIRE(c.ok);
        auto a = solve(c.value, "best_format");
        REQUIRE(a.ok);
        return a.value.items;
    };
    auto has = [](const std::vector<std::string>& v, const char* id) { return std::find(v.begin(), v.end(), id) != v.end(); };
    const auto h100 = formats("h100-80gb"), a100 = formats("a100-80gb");
    CHECK(has(h100, "fp8-block"));
    CHECK_FALSE(has(a100, "fp8-block"));  // BF16 there: the bf16 entry already says it
    CHECK(has(a100, "bf16"));
    CHECK_FALSE(has(h100, "mxfp4"));      // transformers' MXFP4 replaces gpt-oss-style experts alone
}

TEST_CASE("checkpoint format: choosing the preset on the page, and changing the engine, follow it; other choices stay") {
    Config c;
    c.inference.engine = Engine::Vllm;
    c.inference.weights.format = "bf16";
    shell::use_preset(c, preset("minimax-m2"));
    CHECK(c.inference.weights.format == "fp8-block");
    c.inference.weights.format = "awq-int4";
    shell::use_preset(c, preset("deepseek-r1"));
    CHECK(c.inference.weights.format == "awq-int4");  // a user's non-16-bit choice stays
    Config l;
    l.inference.engine = Engine::LlamaCpp;
    l.inference.weights.format = "bf16";
    shell::use_preset(l, preset("gpt-oss-20b"));
    CHECK(l.inference.weights.format == "mxfp4");  // llama.cpp's gpt-oss GGUF: MXFP4_MOE
    shell::use_preset(l, preset("kimi-k2"));
    CHECK(l.inference.weights.format == "mxfp4");  // not 16-bit: stays
    l.inference.weights.format = "bf16";
    CHECK_FALSE(follow_checkpoint_format(l));      // llama.cpp loads no FP8-block checkpoint
    CHECK(l.inference.weights.format == "bf16");
    l.inference.engine = Engine::Vllm;
    CHECK(follow_checkpoint_format(l));
    CHECK(l.inference.weights.format == "fp8-block");
}

TEST_CASE("checkpoint format: a config.json with quantization_config names it on the imported model") {
    const std::string text = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2,
        "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 512,
        "vocab_size": 1000, "torch_dtype": "bfloat16",
        "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}})";
    const auto r = io::import_model(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), "config.json", 0);
    REQUIRE(r.ok);
    const auto j = io::import_to_json(r);
    CHECK(j["model"]["checkpoint_format"] == "fp8-block");
    CHECK(j["config"]["inference"]["weights"] == "fp8-block");
    // An unquantized checkpoint names none.
    std::string plain = text;
    plain.erase(plain.find(",\n        \"quantization_config\""), std::string::npos);
    plain += "}";
    const auto p = io::import_model(reinterpret_cast<const std::uint8_t*>(plain.data()), plain.size(), "config.json", 0);
    REQUIRE(p.ok);
    CHECK_FALSE(io::import_to_json(p)["model"].contains("checkpoint_format"));
}

TEST_CASE("checkpoint format: a page link reads back to the weights it was made with, the checkpoint's or a float") {
    for (const char* weights : {"fp8-block", "bf16"}) {
        INFO(weights);
        Config c = shell::default_inputs();
        c.task = Task::Inference;
        c.method = Method::Detailed;
        c.inference.engine = Engine::Vllm;
        shell::use_preset(c, preset("deepseek-v3"));
        c.inference.weights.format = weights;
        const std::string link = shell::encode_fragment(c, shell::UiState{}, shell::default_inputs());
        Config back;
        shell::UiState ui;
        Error err;
        REQUIRE(shell::decode_fragment(link, shell::default_inputs(), back, ui, err));
        CHECK(err.field.empty());
        CHECK(back.inference.weights.format == weights);
    }
}
