// The model's context window (ModelSpec::context_limit): what each preset's config.json says, the
// what-fits answer it bounds for serving (max_context; max_seq: test_training_solve.cpp), the
// notes it adds, JSON and its range.
#include <catch.hpp>

#include <cmath>
#include <string>

#include "core/estimate.hpp"
#include "core/serve/inference_solve.hpp"
#include "core/model/model.hpp"
#include "core/model/presets.hpp"
#include "core/solve.hpp"
#include "core/text.hpp"
#include "inference_helpers.hpp"
#include "io/config_json.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_note_has(const Estimate& e, const std::string& part) {
    for (const auto& n : e.notes)
        if (has(n, part)) return true;
    return false;
}

Answer ask(const Config& cfg, const char* question) {
    auto r = solve(cfg, question);
    INFO(question << " -> " << r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

}  // namespace

TEST_CASE("presets carry max_position_embeddings of their config.json") {
    CHECK(find_preset("llama-2-7b")->context_limit == 4096);
    CHECK(find_preset("llama-3-8b")->context_limit == 8192);
    CHECK(find_preset("llama-3.1-70b")->context_limit == 131072);   // rope_type llama3, factor 8 over 8192
    CHECK(find_preset("mistral-7b-v0.1")->context_limit == 32768);
    CHECK(find_preset("mixtral-8x22b")->context_limit == 65536);
    CHECK(find_preset("qwen2.5-0.5b")->context_limit == 32768);
    CHECK(find_preset("qwen2.5-7b")->context_limit == 131072);      // the base config (Instruct: 32768)
    CHECK(find_preset("qwen3-8b")->context_limit == 40960);
    CHECK(find_preset("gemma-2-9b")->context_limit == 8192);
    CHECK(find_preset("deepseek-v3")->context_limit == 163840);
    CHECK(find_preset("llama-4-scout")->context_limit == 10485760);   // rope_type llama3, factor 16 over 8192
    CHECK(find_preset("llama-4-maverick")->context_limit == 1048576);
    // Mistral-Nemo: the card's 128k as Mistral-Nemo-Base-2407's config writes it; the Instruct config's
    // 1,024,000 is no trained length (docs/models.md).
    CHECK(find_preset("mistral-nemo-12b")->context_limit == 128000);
    // Learned positions: the window is the position table.
    CHECK(find_preset("gpt2-xl")->context_limit == find_preset("gpt2-xl")->max_position);
    CHECK(find_preset("bert-large-uncased")->context_limit == 512);
    for (const auto& m : model_presets()) {
        INFO(m.id);
        CHECK(m.context_limit > 0);  // every preset's window was looked up
        if (m.max_position > 0) CHECK(m.context_limit == m.max_position);
    }
    // It adds no parameters.
    ModelSpec m = *find_preset("llama-3.1-8b");
    const double with = model_params(resolve_model(m).value).total;
    m.context_limit = 0;
    CHECK(model_params(resolve_model(m).value).total == with);
}

TEST_CASE("max_context stops at the model's context window; below it the memory answer stands") {
    // vLLM, Llama-3-8B BF16 on an A100-40GB: 16-token blocks of 16 x 128 KiB; one sequence may take
    // every block of the pool, far more than the 8,192 tokens of the model's config.
    Config cfg = serving("llama-3-8b", Engine::Vllm, "bf16", "a100-40gb", 8192);
    const InferencePlan p = plan(cfg);
    const double blocks = std::floor(p.pool / (16 * 131072.0));
    REQUIRE(blocks * 16 > 8192);
    const Answer capped = ask(cfg, "max_context");
    CHECK(capped.value == 8192);
    CHECK(has(capped.explanation, "8,192 tokens: the model's context window"));
    CHECK(has(capped.explanation, "memory would allow " + count_text(blocks * 16)));
    // kv_capacity stays a memory figure.
    CHECK(ask(cfg, "kv_capacity").value == blocks * 16);

    // Unknown window (0): the memory answer (vLLM then keeps no RoPE table of the window's length:
    // the pool is 8,192 x 128 x 2 B = 2 MiB larger).
    Config unknown = cfg;
    unknown.model.context_limit = 0;
    const InferencePlan pu = plan(unknown);
    CHECK(pu.pool - p.pool == 8192.0 * 128 * 2);
    CHECK(ask(unknown, "max_context").value == std::floor(pu.pool / (16 * 131072.0)) * 16);

    // 20 sequences share the blocks: floor(blocks / 20) blocks each, under the window.
    Config c20 = cfg;
    c20.inference.concurrency = 20;
    const double each = std::floor(blocks / 20) * 16;
    REQUIRE(each < 8192);
    const Answer memory = ask(c20, "max_context");
    CHECK(memory.value == each);
    CHECK_FALSE(has(memory.explanation, "context window"));
}

TEST_CASE("an estimate past the context window notes it and still computes") {
    Config cfg = serving("llama-2-7b", Engine::Vllm, "bf16", "h100-80gb", 8192);
    // vLLM itself refuses 8,192 above Llama-2's 4,096 unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1
    // (test_inference.cpp); with it the estimate computes and notes the window.
    CHECK(estimate(cfg).error.field == "inference.context");
    cfg.inference.vllm.allow_long_max_model_len = true;
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(any_note_has(e.value, "exceeds the model's context window of 4,096 tokens"));
    CHECK(e.value.total_bytes > 0);
    cfg.inference.context = 4096;
    auto within = estimate(cfg);
    REQUIRE(within.ok);
    CHECK_FALSE(any_note_has(within.value, "context window"));

    auto t = io::parse_config(R"({"method": "detailed", "task": "training", "model": {"preset": "llama-2-7b"}, "seq": 8192})");
    REQUIRE(t.ok);
    auto te = estimate(t.value);
    REQUIRE(te.ok);
    CHECK(any_note_has(te.value, "The sequence (8,192 tokens) exceeds the model's context window of 4,096 tokens"));
}

TEST_CASE("model.context_limit in JSON: read, written, round-tripped, range-checked") {
    auto preset = io::parse_config(R"({"model": {"preset": "llama-3.1-8b"}})");
    REQUIRE(preset.ok);
    CHECK(preset.value.model.context_limit == 131072);
    CHECK(io::config_to_json(preset.value)["model"]["context_limit"] == 131072);

    auto edited = io::parse_config(R"({"model": {"preset": "llama-3.1-8b", "context_limit": 65536}})");
    REQUIRE(edited.ok);
    CHECK(edited.value.model.context_limit == 65536);
    auto back = io::config_from_json(io::config_to_json(edited.value));
    REQUIRE(back.ok);
    CHECK(back.value.model.context_limit == 65536);

    auto custom = io::parse_config(
        R"({"model": {"layers": 2, "hidden": 256, "heads": 4, "ffn": 512, "vocab": 1000, "context_limit": 2048}})");
    REQUIRE(custom.ok);
    auto custom_back = io::config_from_json(io::config_to_json(custom.value));
    REQUIRE(custom_back.ok);
    CHECK(custom_back.value.model.context_limit == 2048);

    for (const char* bad : {R"({"method": "detailed", "model": {"preset": "llama-3.1-8b", "context_limit": -1}})",
                            R"({"method": "detailed", "model": {"preset": "llama-3.1-8b", "context_limit": 16777217}})",
                            R"({"method": "detailed", "model": {"params_b": 7, "context_limit": -5}})"}) {
        auto cfg = io::parse_config(bad);
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        INFO(bad << " -> " << e.error.message);
        CHECK_FALSE(e.ok);
        CHECK(e.error.field == "model.context_limit");
        CHECK(has(e.error.message, "model.context_limit"));
    }
    // The limits themselves are accepted.
    auto edge = io::parse_config(R"({"method": "detailed", "model": {"preset": "llama-3.1-8b", "context_limit": 16777216}})");
    REQUIRE(edge.ok);
    CHECK(estimate(edge.value).ok);
}

TEST_CASE("the rules of thumb note a sequence past the model's window, as the detailed method does") {
    for (const char* method : {"quick", "guide"}) {
        CAPTURE(method);
        auto cfg = io::parse_config(std::string(R"({"model": {"preset": "llama-3-8b"}, "seq": 16384, "method": ")") + method + "\"}");
        REQUIRE(cfg.ok);
        auto e = estimate(cfg.value);
        REQUIRE(e.ok);
        bool noted = false;
        for (const auto& n : e.value.notes) noted |= n.find("exceeds the model's context window of 8,192 tokens") != std::string::npos;
        CHECK(noted);
        cfg.value.run.seq = 8192;
        for (const auto& n : estimate(cfg.value).value.notes) CHECK(n.find("context window") == std::string::npos);
    }
}
