// Unit tests: a model file imported on the page (shell/state/model_file.hpp): what was read becomes
// the inputs (a custom architecture; a GGUF's engine, file type and per-tensor bytes for serving
// with the detailed model), a partial architecture keeps what was read and names the keys it lacks,
// and a file that cannot be read changes nothing. The same state survives a link.
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "shell/app.hpp"
#include "shell/state/model_file.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"
#include "import_builders.hpp"

using namespace vc;
using namespace vc::shell;

namespace {

// The import document, as the JS library's importFile gives it to the page.
nlohmann::json read(const std::string& bytes, const std::string& name) {
    return io::import_to_json(io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, bytes.size()));
}

const char* kLlamaConfig = R"({"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"num_attention_heads":32,
    "num_key_value_heads":8,"intermediate_size":14336,"vocab_size":128256,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";

}  // namespace

TEST_CASE("page import: a whole config.json becomes a custom architecture with the same estimate as the preset") {
    const Config base = default_inputs();
    Config out = base;
    const ImportOutcome o = apply_import(base, read(kLlamaConfig, "config.json"), out);
    CHECK(o.applied);
    CHECK_FALSE(o.problem);
    CHECK(o.message.rfind("Imported config.json (config.json, llama): 8,030,261,248 parameters", 0) == 0);
    CHECK(model_mode(out) == ModelMode::Custom);
    CHECK(out.model.name == "config.json");
    CHECK(out.model.layers == 32);
    CHECK(out.model.kv_heads == 8);
    CHECK(out.task == base.task);  // a config.json names no engine: the task stays
    CHECK(model_params_b(out) == Approx(8.030261248));
    // The quick method reads the count: it follows the imported architecture.
    CHECK(out.quick.params_b == Approx(8.030261248));
}

TEST_CASE("page import: a GGUF switches to detailed serving with llama.cpp and the file's own bytes") {
    Config base = default_inputs();
    Config out = base;
    const ImportOutcome o = apply_import(base, read(test::tiny_llama_gguf(), "tiny.gguf"), out);
    REQUIRE(o.applied);
    CHECK_FALSE(o.problem);
    CHECK(out.task == Task::Inference);
    CHECK(out.method == Method::Detailed);
    CHECK(out.inference.engine == Engine::LlamaCpp);
    CHECK(out.inference.weights.format == "q4_k_m");
    CHECK(out.inference.weights_file.total_bytes == 1235152);
    CHECK(out.model.name == "Tiny Llama");
    CHECK(o.message.find("weights 1,235,152 bytes from the file's 21 tensors") != std::string::npos);
    CHECK(o.message.find("Task is now Inference and method Detailed") != std::string::npos);
    // The estimate's weights are the file's bytes, and a link carries them.
    const auto e = estimate(out);
    REQUIRE(e.ok);
    CHECK(e.value.metric("weights_total_bytes")->value == 1235152);
    Config back;
    UiState ui;
    Error err;
    REQUIRE(decode_fragment(encode_fragment(out, ui, default_inputs()), default_inputs(), back, ui, err));
    CHECK(err.field.empty());
    CHECK(back.inference.weights_file.total_bytes == 1235152);
    CHECK(back.model.layers == 2);
}

TEST_CASE("page import: missing keys keep what was read, name the keys, and leave the field to fill") {
    const Config base = default_inputs();
    Config out = base;
    const ImportOutcome o = apply_import(
        base, read(R"({"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"intermediate_size":11008,"vocab_size":32000})", "my-config.json"),
        out);
    CHECK(o.applied);
    CHECK(o.problem);
    CHECK(o.message.find("my-config.json lacks num_attention_heads, n_head") == 0);
    CHECK(model_mode(out) == ModelMode::Custom);
    CHECK(out.model.layers == 32);
    CHECK(out.model.ffn == 11008);
    CHECK(out.model.heads == 0);
    const auto e = estimate(out);
    REQUIRE_FALSE(e.ok);
    CHECK(e.error.field == "model.heads");
}

TEST_CASE("page import: a file that cannot be read changes nothing") {
    Config base = default_inputs();
    base.gpu_id = "rtx-4090-24gb";
    Config out = base;
    const std::string before = io::dump(io::config_to_json(out));
    const ImportOutcome png = apply_import(base, read(std::string("\x89PNG\r\n\x1a\n0000000000000000", 24), "model.gguf"), out);
    CHECK_FALSE(png.applied);
    CHECK(png.problem);
    CHECK(png.message.rfind("Import failed, nothing changed: ", 0) == 0);
    CHECK(png.message.find("89 50 4e 47") != std::string::npos);
    const ImportOutcome json = apply_import(base, read("{\"model_type\": ", "config.json"), out);
    CHECK_FALSE(json.applied);
    // (the page's own build names no line and column: io/json_syntax.hpp)
    CHECK(json.message.rfind("Import failed, nothing changed: config.json: not valid JSON", 0) == 0);
    CHECK(io::dump(io::config_to_json(out)) == before);
}
