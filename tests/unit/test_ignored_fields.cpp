// Unit tests: input is never dropped without a word (core/estimate.cpp note_ignored_fields). A field
// a config sets (differing from the default Config's) that its task or engine never reads gets a
// note naming it and why; a config written by config_to_json, and the page's own states, carry every
// section at its defaults and get none.
#include <catch.hpp>

#include <string>
#include <vector>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/scenario.hpp"

using namespace vc;

namespace {

std::vector<std::string> ignored_notes(const Estimate& e) {
    std::vector<std::string> v;
    const std::string tail = ": ignored";
    for (const auto& n : e.notes)
        if (n.size() > tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0) v.push_back(n);
    return v;
}

// The estimate of a config text; a refused config or estimate fails the test, naming the field.
Estimate run(const std::string& text) {
    const auto cfg = io::parse_config(text);
    const auto e = cfg.ok ? estimate_document(cfg.value) : Outcome<Estimate>::failure(cfg.error);
    INFO(e.error.field << ": " << e.error.message);
    REQUIRE(e.ok);
    return e.value;
}

}  // namespace

TEST_CASE("a JSON config naming vllm with llama.cpp's and HF's sections set: one note per engine", "[ignored_fields]") {
    // n_batch 2048 is llama.cpp's default: given, but equal to it, not named.
    const auto e = run(R"({"model": {"preset": "llama-3.1-8b"}, "gpu": "rtx-4090-24gb",
        "inference": {"engine": "vllm", "llamacpp": {"n_gpu_layers": 30, "n_batch": 2048, "split_mode": "row"},
                      "hf": {"full_logits": true}}})");
    CHECK(ignored_notes(e) == std::vector<std::string>{
                                  "inference.llamacpp.n_gpu_layers, inference.llamacpp.split_mode are llama.cpp's; inference.engine is vllm: ignored",
                                  "inference.hf.full_logits is hf's; inference.engine is vllm: ignored"});
    // The bytes are vLLM's without them: the same document without the two sections.
    const auto plain = run(R"({"model": {"preset": "llama-3.1-8b"}, "gpu": "rtx-4090-24gb", "inference": {"engine": "vllm"}})");
    CHECK(e.total_bytes == plain.total_bytes);
    CHECK(ignored_notes(plain).empty());
}

TEST_CASE("the engine's own section and the task's own sections are read: no note", "[ignored_fields]") {
    CHECK(ignored_notes(run(R"({"model": {"preset": "llama-3.1-8b"}, "gpu": "rtx-4090-24gb",
        "inference": {"llamacpp": {"n_gpu_layers": 30}}})")).empty());  // names llama.cpp (complete_document)
    CHECK(ignored_notes(run(R"({"method": "detailed", "task": "training", "model": {"preset": "llama-3.1-8b"}, "gpus": 2,
        "parallel": {"tp": 2}, "training": {"precision": "fp32"}})")).empty());
}

TEST_CASE("training fields with task inference are named with the task", "[ignored_fields]") {
    const auto e = run(R"({"task": "inference", "model": {"preset": "llama-3.1-8b"}, "gpu": "rtx-4090-24gb",
        "inference": {"engine": "vllm"}, "parallel": {"tp": 2}, "runtime": {"nccl_bytes": 1000}})");
    CHECK(ignored_notes(e) == std::vector<std::string>{"parallel.tp, runtime.nccl_bytes are training's; task is inference: ignored"});
}

TEST_CASE("config_to_json of any engine and task, and the page's states, read back with no note", "[ignored_fields]") {
    for (Task task : {Task::Training, Task::FineTune, Task::Inference})
        for (Engine engine : {Engine::Vllm, Engine::LlamaCpp, Engine::Hf}) {
            Config c = shell::default_inputs();
            shell::use_preset(c, *find_preset("llama-3.1-8b"));
            shell::set_task(c, task);
            c.inference.engine = engine;
            CAPTURE(static_cast<int>(task), engine_name(engine));
            auto direct = estimate_document(c);
            REQUIRE(direct.ok);
            CHECK(ignored_notes(direct.value).empty());
            CHECK(ignored_notes(run(io::dump(io::config_to_json(c)))).empty());
        }
}

TEST_CASE("the page's estimate() names no hidden field: a visitor's llama.cpp settings after switching to vLLM", "[ignored_fields]") {
    // The page keeps every section's values while another engine or task is shown (switching back
    // restores them), so its estimate() carries no such note; the document front ends do.
    Config c = shell::default_inputs();
    shell::use_preset(c, *find_preset("llama-3.1-8b"));
    shell::set_task(c, Task::Inference);
    c.inference.engine = Engine::LlamaCpp;
    c.inference.llamacpp.n_gpu_layers = 30;
    c.inference.engine = Engine::Vllm;
    const auto page = estimate(c);
    REQUIRE(page.ok);
    CHECK(ignored_notes(page.value).empty());
    const auto document = estimate_document(c);
    REQUIRE(document.ok);
    CHECK(ignored_notes(document.value) ==
          std::vector<std::string>{"inference.llamacpp.n_gpu_layers is llama.cpp's; inference.engine is vllm: ignored"});
    CHECK(document.value.total_bytes == page.value.total_bytes);
}

TEST_CASE("parallel.virtual_stages with the 1f1b schedule is named: virtual stages need the interleaved schedule", "[ignored_fields]") {
    // Megatron-LM has no 1F1B with model chunks to refuse: a virtual pipeline size is what selects the
    // interleaved schedule (megatron/core/pipeline_parallel/schedules.py get_forward_backward_func), so the
    // setting is dropped here, with a word, not refused.
    const std::string base = R"({"method": "detailed", "task": "training", "model": {"preset": "llama-3.1-8b"}, "gpus": 2, "parallel": {"pp": 2)";
    const auto e = run(base + R"(, "virtual_stages": 4, "schedule": "1f1b"}})");
    CHECK(ignored_notes(e) == std::vector<std::string>{"parallel.virtual_stages is the interleaved schedule's; parallel.schedule is 1f1b: ignored"});
    // Ignored means ignored: the bytes of the same 1F1B run without it, to the byte.
    const auto plain = run(base + "}}");
    CHECK(ignored_notes(plain).empty());
    CHECK(e.total_bytes == plain.total_bytes);
    // With the interleaved schedule it is read (32 layers: 2 stages x 4 chunks of 4): no note.
    CHECK(ignored_notes(run(base + R"(, "virtual_stages": 4, "schedule": "interleaved"}})")).empty());
}
