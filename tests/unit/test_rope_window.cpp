// The window a RoPE-scaled checkpoint runs at (io/import_hf.cpp read_rope_window, io/import_gguf.cpp
// note_rope_scaling): a config.json's rope_scaling sets model.context_limit to the max_model_len vLLM
// derives (vllm-project/vllm@0052a5b:vllm/config/model.py _get_and_verify_max_len); a GGUF keeps its
// context_length, llama.cpp's n_ctx_train. Hand figures beside each check.
#include <catch.hpp>

#include <cstdint>
#include <string>

#include "core/estimate.hpp"
#include "io/model_import.hpp"
#include "fixture_file.hpp"
#include "import_builders.hpp"
#include "inference_helpers.hpp"

using namespace vc;

namespace {

io::ModelImport read(const std::string& bytes, const std::string& name) {
    return io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, 0);
}

// Qwen/Qwen2.5-7B-Instruct's published config.json (32,768 positions), with `rope` spliced in: the
// model card's YaRN block is {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}.
std::string qwen25_instruct(const std::string& rope) {
    return R"({"architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu", "hidden_size": 3584, "intermediate_size": 18944,
               "max_position_embeddings": 32768, "max_window_layers": 28, "model_type": "qwen2", "num_attention_heads": 28,
               "num_hidden_layers": 28, "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
               "sliding_window": 131072, "tie_word_embeddings": false, "torch_dtype": "bfloat16", "use_sliding_window": false,
               "vocab_size": 152064)" +
           (rope.empty() ? std::string() : ", \"rope_scaling\": " + rope) + "}";
}

const char* kQwenYarn = R"({"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"})";

bool has_note(const io::ModelImport& r, const std::string& start) {
    for (const auto& n : r.notes)
        if (n.rfind(start, 0) == 0) return true;
    return false;
}

// `from` replaced by `to` once in `text` (the test stops when it is not there).
std::string spliced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("config.json rope_scaling: YaRN multiplies original_max_position_embeddings, llama3 keeps the window", "[import]") {
    // Qwen2.5-7B-Instruct: 32,768 positions; with the YaRN block 32,768 x 4 = 131,072 (vLLM's derived max_model_len).
    auto plain = read(qwen25_instruct(""), "config.json");
    REQUIRE(plain.ok);
    CHECK(plain.model.context_limit == 32768);
    auto yarn = read(qwen25_instruct(kQwenYarn), "config.json");
    REQUIRE(yarn.ok);
    CHECK(yarn.model.context_limit == 131072);
    CHECK(has_note(yarn, "rope_scaling yarn: model.context_limit 131,072 = original_max_position_embeddings 32,768 x factor 4, the max_model_len vLLM "
                         "derives (max_position_embeddings 32,768); a GGUF of it keeps its context_length, llama.cpp's window"));
    // Qwen3-30B-A3B (40,960 positions) with its card's YaRN block: the original 32,768 x 4 = 131,072, not 40,960 x 4.
    const std::string qwen3 = test::fixture("qwen3-30b-a3b.json");
    auto q3 = read(spliced(qwen3, "\"rope_scaling\": null", std::string("\"rope_scaling\": ") + kQwenYarn), "config.json");
    REQUIRE(q3.ok);
    CHECK(q3.model.context_limit == 131072);
    CHECK(read(qwen3, "config.json").model.context_limit == 40960);
    // Llama-3.1-8B: rope_type llama3, factor 8, original 8,192: vLLM does not multiply, 131,072 stays; no note.
    auto llama = read(test::fixture("llama-3.1-8b.json"), "config.json");
    REQUIRE(llama.ok);
    CHECK(llama.model.context_limit == 131072);
    CHECK_FALSE(has_note(llama, "rope_scaling"));
    // DeepSeek-V3: yarn, 4,096 x 40 = 163,840, its max_position_embeddings already: no change, no note.
    auto v3 = read(test::fixture("deepseek-v3.json"), "config.json");
    REQUIRE(v3.ok);
    CHECK(v3.model.context_limit == 163840);
    CHECK_FALSE(has_note(v3, "rope_scaling"));
}

TEST_CASE("config.json rope_scaling: linear and dynamic multiply the window, Gemma-3 and a bad factor do not", "[import]") {
    // dynamic, factor 2 ("type" read as rope_type): 32,768 x 2 = 65,536 (vLLM multiplies every type but su, longrope, llama3).
    auto dyn = read(qwen25_instruct(R"({"type": "dynamic", "factor": 2.0})"), "config.json");
    REQUIRE(dyn.ok);
    CHECK(dyn.model.context_limit == 65536);
    CHECK(has_note(dyn, "rope_scaling dynamic: model.context_limit 65,536 = max_position_embeddings 32,768 x factor 2,"));
    // transformers v5's rope_parameters, per layer type: the same rule, 32,768 x 4 = 131,072.
    auto v5 = read(spliced(qwen25_instruct(""), "\"rope_theta\": 1000000.0,",
                           R"("rope_parameters": {"full_attention": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "rope_theta": 1000000.0}},)"),
                   "config.json");
    REQUIRE(v5.ok);
    CHECK(v5.model.context_limit == 131072);
    // longrope (Phi-3-128k): the window stays 32,768.
    CHECK(read(qwen25_instruct(R"({"type": "longrope", "factor": 4.0})"), "config.json").model.context_limit == 32768);
    // Gemma-3's 32,768 is already the scaled window (vLLM skips gemma3): linear factor 8 leaves it.
    auto gemma = read(spliced(test::fixture("gemma-3-1b.json"), "\"rope_scaling\": null", R"("rope_scaling": {"rope_type": "linear", "factor": 8.0})"),
                      "config.json");
    REQUIRE(gemma.ok);
    CHECK(gemma.model.context_limit == 32768);
    // A factor of 0 gives no window: kept, said.
    auto zero = read(qwen25_instruct(R"({"type": "linear", "factor": 0})"), "config.json");
    REQUIRE(zero.ok);
    CHECK(zero.model.context_limit == 32768);
    CHECK(has_note(zero, "rope_scaling linear factor 0 gives no window; model.context_limit stays max_position_embeddings 32,768"));
}

TEST_CASE("The imported window decides vLLM's refusal: Qwen2.5-7B-Instruct with YaRN runs 131,072 tokens", "[import]") {
    auto run = [](const io::ModelImport& r, int context) {
        Config cfg = test::serving("qwen2.5-7b", Engine::Vllm, "bf16", "h100-80gb", context);
        cfg.model = r.model;
        return estimate(cfg);
    };
    const auto yarn = read(qwen25_instruct(kQwenYarn), "config.json"), plain = read(qwen25_instruct(""), "config.json");
    CHECK(run(yarn, 131072).ok);
    auto over = run(yarn, 131073);
    REQUIRE_FALSE(over.ok);
    CHECK(over.error.field == "inference.context");
    // Without the block the window is 32,768: 131,072 is refused as vLLM refuses it.
    auto refused = run(plain, 131072);
    REQUIRE_FALSE(refused.ok);
    CHECK(refused.error.message.find("above the model's window of 32,768 tokens") != std::string::npos);
}

TEST_CASE("GGUF rope.scaling: the window stays context_length (llama.cpp's n_ctx_train), said in a note", "[import]") {
    // The tiny Llama (llama.context_length 4,096) with a YaRN factor 4 from 4,096: still 4,096.
    test::GgufWriter w;
    test::tiny_llama_metadata(w);
    w.str("llama.rope.scaling.type", "yarn");
    w.f32("llama.rope.scaling.factor", 4.0f);
    w.u32("llama.rope.scaling.original_context_length", 4096);
    test::tiny_llama_tensors(w, true, 0, 1);
    auto r = read(w.bytes(), "tiny.gguf");
    REQUIRE(r.ok);
    CHECK(r.model.context_limit == 4096);
    CHECK(has_note(r, "llama.rope.scaling.type yarn, factor 4, original_context_length 4,096: model.context_limit is context_length 4,096, "
                      "llama.cpp's n_ctx_train (Ollama's cap on num_ctx); vLLM would derive its window from the config.json"));
    // Without the keys: no note.
    CHECK_FALSE(has_note(read(test::tiny_llama_gguf(), "tiny.gguf"), "llama.rope.scaling"));
}
