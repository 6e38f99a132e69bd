// Unit tests: the page's llama.cpp state (shell/ui_local.cpp edits these fields) survives a link,
// and the page's answers include the local questions when the engine is llama.cpp.
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "io/config_json.hpp"
#include "shell/app.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using namespace vc::shell;

namespace {

std::string doc(const Config& c) { return io::dump(io::config_to_json(c)); }

// Qwen3-30B-A3B Q4_K_M with llama.cpp on an RTX 4090: the example.
Config local_qwen() {
    Config c = default_inputs();
    use_preset(c, *find_preset("qwen3-30b-a3b"));
    set_task(c, Task::Inference);
    set_method(c, Method::Detailed);
    c.gpu_id = "rtx-4090-24gb";
    c.inference.engine = Engine::LlamaCpp;
    c.inference.weights.format = "q4_k_m";
    c.inference.context = 8192;
    c.inference.concurrency = 1;
    c.inference.llamacpp.n_gpu_layers = 30;
    sync_shared(c);
    return c;
}

// The config read back from its own link (what the page's Copy link gives another tab).
Config via_link(const Config& c, const char* in_link = nullptr) {
    Config back;
    UiState view;
    Error err;
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    INFO("fragment: " << f);
    if (in_link) CHECK(f.find(in_link) != std::string::npos);  // the link carries the field
    REQUIRE(decode_fragment(f, default_inputs(), back, view, err));
    return back;
}

}  // namespace

TEST_CASE("shell link: every llama.cpp field the page edits round-trips, with the same buffers") {
    Config c = local_qwen();
    auto& o = c.inference.llamacpp;
    o.n_cpu_moe = 6;
    c.inference.kv_dtype = "q8_0";
    o.kv_dtype_v = "q4_0";
    o.split_mode = SplitMode::Row;
    o.tensor_split = {3, 1.5};
    c.gpus = 2;
    o.mmproj.preset = "clip-vit-l-14-336";
    o.draft.preset = "qwen3-8b";
    o.lora_bytes = 160 * 1048576.0;
    c.inference.host.ram_bytes = 64 * 1073741824.0;
    c.inference.host.bandwidth_gbps = 85;
    c.inference.host.channels = 2;
    c.inference.host.mts = 5600;
    c.inference.host.wired_limit_mb = 0;
    sync_shared(c);
    const std::string f = encode_fragment(c, UiState{}, default_inputs());
    INFO("fragment: " << f);
    // Readable keys, the split as a JSON list.
    CHECK(f.find("inference.llamacpp.n_gpu_layers=30") != std::string::npos);
    CHECK(f.find("inference.llamacpp.n_cpu_moe=6") != std::string::npos);
    CHECK(f.find("inference.llamacpp.kv_dtype_v=q4_0") != std::string::npos);
    CHECK(f.find("inference.llamacpp.split_mode=row") != std::string::npos);
    CHECK(f.find("inference.llamacpp.tensor_split=[3,1.5]") != std::string::npos);  // whole numbers as integers (config_to_json)
    CHECK(f.find("inference.llamacpp.mmproj.preset=clip-vit-l-14-336") != std::string::npos);
    CHECK(f.find("inference.llamacpp.draft.preset=qwen3-8b") != std::string::npos);
    CHECK(f.find("inference.llamacpp.lora_mib=160") != std::string::npos);
    CHECK(f.find("inference.host.ram_gib=64") != std::string::npos);
    CHECK(f.find("inference.host.bandwidth_gbps=85") != std::string::npos);

    Config back;
    UiState view;
    Error err;
    REQUIRE(decode_fragment(f, default_inputs(), back, view, err));
    CHECK(doc(back) == doc(c));
    const auto a = estimate(c), b = estimate(back);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    REQUIRE(a.value.devices.size() == b.value.devices.size());
    for (size_t i = 0; i < a.value.devices.size(); ++i) {
        CHECK(a.value.devices[i].device == b.value.devices[i].device);
        CHECK(a.value.devices[i].total() == b.value.devices[i].total());
    }
    CHECK(a.value.launch_command == b.value.launch_command);

    // The Ollama profile (which runs no draft model: the engine refuses the pair) round-trips too.
    o.draft.preset.clear();
    o.ollama = true;
    CHECK(encode_fragment(c, UiState{}, default_inputs()).find("inference.llamacpp.profile=ollama") != std::string::npos);
    const Config ollama = via_link(c);
    CHECK(doc(ollama) == doc(c));
    const auto served = estimate(ollama);
    REQUIRE(served.ok);
    CHECK(served.value.launch_command == estimate(c).value.launch_command);
    CHECK(served.value.launch_command.rfind("OLLAMA_NUM_PARALLEL=", 0) == 0);
}

TEST_CASE("shell link: -nkvo (KV cache in system RAM) round-trips with the same buffers and command") {
    Config c = local_qwen();
    c.inference.llamacpp.no_kv_offload = true;
    sync_shared(c);
    const Config back = via_link(c, "inference.llamacpp.no_kv_offload=true");
    CHECK(back.inference.llamacpp.no_kv_offload);
    const auto a = estimate(c), b = estimate(back);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    REQUIRE(a.value.devices.size() == 2);
    CHECK(a.value.devices[0].kv == 0);  // every layer's KV in system RAM
    CHECK(b.value.devices[1].kv == a.value.devices[1].kv);
    CHECK(a.value.launch_command == b.value.launch_command);
    CHECK(a.value.launch_command.find(" -nkvo") != std::string::npos);
}

TEST_CASE("shell link: an -ot value with regex characters round-trips with the same buffers and command") {
    Config c = local_qwen();
    c.inference.llamacpp.override_tensor = "blk\\.(1[6-9]|2[0-9]|3[01])\\.ffn_.*_exps\\.=CPU,token_embd\\.weight=CUDA0";
    sync_shared(c);
    const Config back = via_link(c, "inference.llamacpp.override_tensor=");
    CHECK(back.inference.llamacpp.override_tensor == c.inference.llamacpp.override_tensor);
    const auto a = estimate(c), b = estimate(back);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(b.value.devices[0].model == a.value.devices[0].model);
    CHECK(b.value.devices[1].model == a.value.devices[1].model);
    CHECK(a.value.launch_command == b.value.launch_command);
    CHECK(a.value.launch_command.find(" -ot 'blk\\.(1[6-9]|2[0-9]|3[01])\\.ffn_.*_exps\\.=CPU,token_embd\\.weight=CUDA0'") != std::string::npos);
}

TEST_CASE("shell link: -ngl 30 on a 24 GB card reads back as -ngl 30, and the page's answers add the local questions") {
    App a;
    a.inputs = local_qwen();
    a.defer_extras = false;
    recompute(a);
    REQUIRE(a.error.field.empty());
    const Estimate& e = a.results.estimate;
    REQUIRE(e.devices.size() == 2);
    CHECK(e.devices[0].device == "CUDA0");
    CHECK(e.devices[1].device == "CUDA_Host");
    CHECK(e.devices[1].host);
    CHECK(e.launch_command == "llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 8192 -ngl 30 -fa on");
    bool layers = false, experts = false, best = false;
    for (const auto& s : a.results.answers) {
        layers |= s.question == "max_gpu_layers" && s.ok && s.answer.value > 30;
        experts |= s.question == "max_gpu_experts" && s.ok;
        best |= s.question == "best_local_format" && s.ok;
    }
    CHECK(layers);
    CHECK(experts);
    CHECK(best);

    // vLLM: no llama.cpp questions.
    a.inputs.inference.engine = Engine::Vllm;
    a.inputs.inference.weights.format = "bf16";
    mark_changed(a);
    recompute(a);
    for (const auto& s : a.results.answers) CHECK(s.question.rfind("max_gpu_", 0) != 0);
}
