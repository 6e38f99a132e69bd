// Unit tests: the page opens on the detailed model, and a rule of thumb names each input the user
// set that it ignores (shell/state/rules.hpp): adapters, a quantized format, the KV cache type.
#include <catch.hpp>

#include <string>

#include "core/model/presets.hpp"
#include "shell/app.hpp"
#include "shell/state/rules.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using namespace vc::shell;

TEST_CASE("the page opens on the detailed model") {
    CHECK(default_inputs().method == Method::Detailed);
    CHECK(rule_ignores(default_inputs(), Method::Detailed).empty());
    CHECK(rule_ignores(default_inputs(), Method::Quick).empty());  // a full training run: nothing the rule cannot read
}

TEST_CASE("a rule of thumb names the inputs it ignores") {
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    set_task(c, Task::FineTune, FinetuneMethod::Qlora);
    auto q = rule_ignores(c, Method::Quick);
    REQUIRE(q.size() == 1);
    CHECK(q[0] == "Fine-tuning QLoRA: The quick rule sizes a full fine-tune (gradients and optimizer state for every parameter, 16-bit "
                  "base weights), not the adapters.");
    CHECK(rule_ignores(c, Method::Guide)[0].rfind("Fine-tuning QLoRA: The guide's formula sizes a full fine-tune", 0) == 0);
    CHECK(rule_ignores(c, Method::Detailed).empty());

    set_task(c, Task::Inference);
    c.inference.weights.format = "q4_k_m";
    c.inference.kv_dtype = "fp8";
    sync_shared(c);
    auto s = rule_ignores(c, Method::Quick);
    REQUIRE(s.size() == 2);
    CHECK(s[0].rfind("Weight format GGUF Q4_K_M: The quick rule counts", 0) == 0);
    CHECK(s[0].find("counts 0.5 bytes per weight") != std::string::npos);
    CHECK(s[1] == "KV cache type fp8: the quick rule has no KV cache at all (it scales activations with the parameter count).");
    CHECK(rule_ignores(c, Method::Guide)[1] == "KV cache type fp8: the guide's KV term counts 2-byte values.");

    c.inference.weights.format = "bf16";
    c.inference.kv_dtype = "auto";
    CHECK(rule_ignores(c, Method::Quick).empty());
}

TEST_CASE("links: one edit writes that key alone; a v=1 link without a method is the quick method's") {
    const Config d = default_inputs();
    Config c = d;
    c.run.batch = 8;
    sync_shared(c);
    CHECK(encode_fragment(c, UiState{}, d) == "v=2&batch=8");
    // A task switch writes the task and what the task itself changes, not every default.
    Config s = d;
    set_task(s, Task::Inference);
    const std::string f = encode_fragment(s, UiState{}, d);
    INFO(f);
    CHECK(f.size() < 120);
    CHECK(f.find("null") == std::string::npos);
    // Old links: written against the quick starting state.
    Config back;
    UiState ui;
    Error err;
    REQUIRE(decode_fragment("v=1&batch=8", d, back, ui, err));
    CHECK(err.field.empty());
    CHECK(back.method == Method::Quick);
    CHECK(back.run.batch == 8);
    REQUIRE(decode_fragment("v=2&batch=8", d, back, ui, err));
    CHECK(back.method == Method::Detailed);
    REQUIRE_FALSE(decode_fragment("v=3&batch=8", d, back, ui, err));
    CHECK(err.message == "the link's version v=3 is not known (this page reads v=1 to v=2)");
}

TEST_CASE("page messages name page controls, not CLI commands") {
    App a;
    a.inputs = default_inputs();
    REQUIRE(apply_fragment(a, "v=2&model.preset=no-such-model&batch=8"));
    CHECK(a.link_error == "model.preset: model.preset \"no-such-model\" is not a known preset (the Preset list)");
    CHECK(a.inputs.run.batch == 8);  // the rest applied
    a.inputs.gpu_id = "no-such-gpu";
    set_task(a.inputs, Task::Inference);
    recompute(a);
    CHECK(a.error.field == "gpu");
    CHECK(a.error.message == "gpu \"no-such-gpu\" is not in the catalog (the GPU list), or choose Custom GPU");
    a.inputs.gpu_id.clear();
    set_task(a.inputs, Task::Training);
    recompute(a);
    complete_results(a);
    bool named = false;
    for (const auto& s : a.results.answers) {
        CHECK(s.error.message.find("vramcalc --") == std::string::npos);
        named |= s.error.message.find("(the GPU list), or choose Custom GPU") != std::string::npos;
    }
    CHECK(named);
}
