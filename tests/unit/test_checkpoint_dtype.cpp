// The checkpoint's dtype (ModelSpec::checkpoint_dtype, config.json torch_dtype): what the presets
// say, the 2-byte float choices that follow it when a model is chosen (follow_checkpoint_dtype: the
// page's preset list, a config.json import) and the choices it leaves alone, its range and JSON.
#include <catch.hpp>

#include <string>

#include "core/config.hpp"
#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "shell/state/model_file.hpp"
#include "shell/state/scenario.hpp"

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
