// Worked examples of the quick and guide methods, as a user would check them by hand.
#include <catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/rules/quick.hpp"
#include "core/units.hpp"
#include "io/config_json.hpp"

using namespace vc;
using Catch::Detail::Approx;

static double gb(const Estimate& e, const char* key) { return bytes_to_gb(e.component(key)->bytes); }
static int needed(const Estimate& e, const char* gpu) {
    for (const auto& f : e.fits)
        if (f.gpu_id == gpu) return f.gpus_needed;
    return -1;
}

TEST_CASE("quick method: 7B FP16 AdamW mixed, batch 4, seq 2048 (the calculator's worked example)") {
    QuickInputs in;
    in.params_b = 7;
    in.precision = QuickPrecision::Fp16;
    in.optimizer = QuickOptimizer::AdamWMixed;
    const RunShape run{4, 2048};
    auto r = quick_estimate(in, run);
    REQUIRE(r.ok);
    const Estimate& e = r.value;
    CHECK(gb(e, "weights") == Approx(14.0));
    CHECK(gb(e, "gradients") == Approx(14.0));
    CHECK(gb(e, "optimizer") == Approx(84.0));
    CHECK(gb(e, "activations") == Approx(143.36));
    CHECK(bytes_to_gb(e.total_bytes) == Approx(255.36));
    CHECK(bytes_to_gb(e.buffered_bytes) == Approx(306.432));
    CHECK(needed(e, "a100-80gb") == 4);
    CHECK(needed(e, "rtx-4090-24gb") == 13);

    SECTION("with checkpointing: activations x 0.25") {
        in.checkpointing = true;
        auto c = quick_estimate(in, run);
        REQUIRE(c.ok);
        CHECK(gb(c.value, "activations") == Approx(35.84));
        CHECK(bytes_to_gb(c.value.buffered_bytes) == Approx(177.408));
        CHECK(needed(c.value, "a100-80gb") == 3);
        CHECK(needed(c.value, "rtx-4090-24gb") == 8);
    }
}

TEST_CASE("quick method: bytes per weight and optimizer factors") {
    CHECK(quick_precision_bytes(QuickPrecision::Fp32) == 4);
    CHECK(quick_precision_bytes(QuickPrecision::Bf16) == 2);
    CHECK(quick_precision_bytes(QuickPrecision::Int8) == 1);
    CHECK(quick_precision_bytes(QuickPrecision::Int4) == 0.5);
    CHECK(quick_optimizer_bytes_per_param(QuickOptimizer::AdamWMixed) == 12);
    CHECK(quick_optimizer_bytes_per_param(QuickOptimizer::AdamW) == 8);
    CHECK(quick_optimizer_bytes_per_param(QuickOptimizer::AdamW8bit) == 2);
    CHECK(quick_optimizer_bytes_per_param(QuickOptimizer::Sgd) == 4);
    CHECK(quick_optimizer_bytes_per_param(QuickOptimizer::Inference) == 0);

    QuickInputs in;
    in.params_b = 13;
    in.precision = QuickPrecision::Int4;
    in.optimizer = QuickOptimizer::Inference;
    auto r = quick_estimate(in, RunShape{1, 1000});
    REQUIRE(r.ok);
    CHECK(r.value.task == "inference");
    CHECK(gb(r.value, "weights") == Approx(6.5));
    CHECK(gb(r.value, "gradients") == 0);
    CHECK(gb(r.value, "optimizer") == 0);
    CHECK(gb(r.value, "activations") == Approx(32.5));  // 2.5e-3 x 1000 x 13e9 B: the rule's flaw
}

TEST_CASE("guide formulas reproduce the guide's code") {
    GuideInputs t;
    t.params = 70e9;
    t.run.batch = 1;
    t.run.seq = 4096;
    t.hidden = 8192;
    t.layers = 80;
    t.gpus = 8;
    t.bytes = 2;
    CHECK(bytes_to_gb(guide_training_bytes_per_gpu(t)) == Approx(162.54).epsilon(1e-4));

    GuideInputs kv;
    kv.layers = 80;
    kv.hidden = 8192;
    kv.heads = 32;
    kv.run.batch = 64;
    kv.run.seq = 4096;
    kv.bytes = 2;
    CHECK(bytes_to_gb(guide_kv_cache_bytes(kv)) == Approx(687.19).epsilon(1e-5));

    GuideInputs inf;
    inf.params = 70e9;
    inf.bytes = 1;
    inf.run.seq = 8192;
    inf.run.batch = 4;
    inf.layers = 80;
    inf.hidden = 8192;
    inf.heads = 32;
    CHECK(bytes_to_gb(guide_inference_bytes(inf)) == Approx(83.59).epsilon(1e-4));

    auto r = guide_estimate(inf, /*training=*/false);
    REQUIRE(r.ok);
    CHECK(bytes_to_gb(r.value.buffered_bytes) == Approx(83.59).epsilon(1e-4));
    CHECK(bytes_to_gb(r.value.component("weights")->bytes) == Approx(70.0));
}

TEST_CASE("guide method through a JSON config") {
    auto cfg = io::parse_config(R"({"method":"guide","task":"training","model":{"layers":80,"hidden":8192,"heads":64},
                                    "params_b":70,"batch":1,"seq":4096,"gpus":8,"guide":{"bytes":2}})");
    REQUIRE(cfg.ok);
    auto r = estimate(cfg.value);
    REQUIRE(r.ok);
    CHECK(bytes_to_gb(r.value.buffered_bytes) == Approx(162.54).epsilon(1e-4));
}

TEST_CASE("the rules of thumb read a preset's count; a config's JSON round trip keeps every method's result") {
    // Llama-3.1 70B: 70,553,706,496 parameters from its architecture (docs/models.md).
    auto quick = io::parse_config(R"({"method":"quick","model":{"preset":"llama-3.1-70b"}})");
    REQUIRE(quick.ok);
    auto q = estimate(quick.value);
    REQUIRE(q.ok);
    CHECK(q.value.component("weights")->bytes == 70553706496.0 * 2);  // FP16: 2 bytes per weight
    // A typed count beside the preset wins.
    auto typed = io::parse_config(R"({"method":"quick","model":{"preset":"llama-3.1-70b","params_b":70}})");
    REQUIRE(typed.ok);
    CHECK(estimate(typed.value).value.component("weights")->bytes == 140e9);

    for (const char* method : {"quick", "guide", "detailed"})
        for (const char* task : {"training", "finetune", "inference"}) {
            CAPTURE(method, task);
            auto cfg = io::parse_config(std::string(R"({"model":{"preset":"llama-3.1-70b"},"gpu":"h100-80gb","gpus":8,"method":")") +
                                        method + R"(","task":")" + task + "\"}");
            REQUIRE(cfg.ok);
            auto first = estimate(cfg.value);
            REQUIRE(first.ok);
            auto back = io::config_from_json(io::config_to_json(cfg.value));
            REQUIRE(back.ok);
            auto again = estimate(back.value);
            REQUIRE(again.ok);
            CHECK(again.value.total_bytes == first.value.total_bytes);
            CHECK(again.value.buffered_bytes == first.value.buffered_bytes);
        }
}

TEST_CASE("quick method: a serving config without an optimizer has none (the quick method's inference mode)") {
    auto cfg = io::parse_config(R"({"task":"inference","params_b":7,"batch":1,"seq":2048})");
    REQUIRE(cfg.ok);
    CHECK(cfg.value.quick.optimizer == QuickOptimizer::Inference);
    auto r = estimate(cfg.value);
    REQUIRE(r.ok);
    CHECK(r.value.component("weights")->bytes == 14e9);
    CHECK(r.value.component("optimizer")->bytes == 0);
    CHECK(r.value.component("gradients")->bytes == 0);
}

TEST_CASE("a document with no method runs the detailed model when it sets what only that model reads") {
    // The JS API and `vramcalc batch` read documents with parse_config: an engine, a weight format or
    // a llama.cpp option would be dropped by the quick rule without a word.
    auto served = io::parse_config(R"({"task":"inference","model":{"preset":"llama-3.1-8b"},
                                       "inference":{"engine":"llama.cpp","weights":"q4_k_m","context":8192}})");
    REQUIRE(served.ok);
    CHECK(served.value.method == Method::Detailed);
    auto r = estimate(served.value);
    REQUIRE(r.ok);
    // Llama-3.1-8B's KV at 8,192 cells: 32 layers x 2 x 8 heads x 128 x 2 B = 128 KiB a token, 1 GiB.
    CHECK(r.value.component("kv_cache")->bytes == 8192.0 * 32 * 2 * 8 * 128 * 2);
    std::string section;
    CHECK(io::method_for_document(nlohmann::json::parse(R"({"training":{"zero":3}})"), &section) == Method::Detailed);
    CHECK(section == "training");
    // A named method wins; an empty section or the shared fields alone keep the quick rule.
    io::method_for_document(nlohmann::json::parse(R"({"method":"guide","inference":{"engine":"vllm"}})"), &section);
    CHECK(section.empty());
    auto named = io::parse_config(R"({"method":"guide","task":"inference","params_b":7,"inference":{"engine":"vllm"}})");
    REQUIRE(named.ok);
    CHECK(named.value.method == Method::Guide);
    auto bare = io::parse_config(R"({"task":"inference","params_b":7,"inference":{}})");
    REQUIRE(bare.ok);
    CHECK(bare.value.method == Method::Quick);
}

TEST_CASE("a document with no task that sets only inference fields is an inference") {
    // `vramcalc --preset llama-3.1-8b --engine llama.cpp -c 8192` names no task: a training estimate
    // would drop the engine and the context without a word.
    auto served = io::parse_config(R"({"model":{"preset":"llama-3.1-8b"},
                                       "inference":{"engine":"llama.cpp","weights":"q4_k_m","context":8192}})");
    REQUIRE(served.ok);
    CHECK(served.value.method == Method::Detailed);
    CHECK(served.value.task == Task::Inference);
    auto r = estimate(served.value);
    REQUIRE(r.ok);
    // the same KV as above: 8,192 cells x 32 layers x 2 x 8 heads x 128 x 2 B = 1 GiB
    CHECK(r.value.component("kv_cache")->bytes == 8192.0 * 32 * 2 * 8 * 128 * 2);
    // A named task wins; a training, parallel or runtime field beside it keeps the default task.
    auto named = io::parse_config(R"({"task":"finetune","model":{"preset":"llama-3.1-8b"},"inference":{"context":8192}})");
    REQUIRE(named.ok);
    CHECK(named.value.task == Task::FineTune);
    auto mixed = io::parse_config(R"({"model":{"preset":"llama-3.1-8b"},"inference":{"context":8192},"training":{"recompute":"full"}})");
    REQUIRE(mixed.ok);
    CHECK(mixed.value.task == Task::Training);
    auto bare = io::parse_config(R"({"params_b":7,"inference":{}})");
    REQUIRE(bare.ok);
    CHECK(bare.value.task == Task::Training);
}

TEST_CASE("a document that sets one engine's own section and names no engine runs that engine") {
    // `vramcalc --preset llama-3.1-8b -ngl 16 --gpu rtx-4090-24gb`: vLLM would drop -ngl without a word.
    auto local = io::parse_config(R"({"model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
                                      "inference":{"weights":"q4_k_m","llamacpp":{"n_gpu_layers":16}}})");
    REQUIRE(local.ok);
    CHECK(local.value.task == Task::Inference);
    CHECK(local.value.inference.engine == Engine::LlamaCpp);
    auto r = estimate(local.value);
    REQUIRE(r.ok);
    // -ngl 16: the output layer and 15 of 32 layers (llama.cpp PR #18148), their KV on the GPU,
    // 4,096 cells x 15 layers x 2 x 8 heads x 128 x 2 B
    CHECK(r.value.component("kv_cache")->bytes == 4096.0 * 15 * 2 * 8 * 128 * 2);
    auto hf = io::parse_config(R"({"inference":{"hf":{"attention":"eager"}}})");
    REQUIRE(hf.ok);
    CHECK(hf.value.inference.engine == Engine::Hf);
    // A named engine wins; two engines' sections name none (the default stays).
    auto named = io::parse_config(R"({"inference":{"engine":"vllm","llamacpp":{"n_gpu_layers":16}}})");
    REQUIRE(named.ok);
    CHECK(named.value.inference.engine == Engine::Vllm);
    auto both = io::parse_config(R"({"inference":{"hf":{"attention":"eager"},"llamacpp":{"n_gpu_layers":16}}})");
    REQUIRE(both.ok);
    CHECK(both.value.inference.engine == Config{}.inference.engine);
}

TEST_CASE("bad input is an error value naming the field and the range") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    struct Case {
        double params_b, batch, seq;
        const char* field;
    };
    const Case cases[] = {
        {-7, 4, 2048, "params_b"}, {0, 4, 2048, "params_b"},  {nan, 4, 2048, "params_b"}, {inf, 4, 2048, "params_b"},
        {1e30, 4, 2048, "params_b"}, {7, 0, 2048, "batch"},   {7, 2.5, 2048, "batch"},     {7, nan, 2048, "batch"},
        {7, 4, -1, "seq"},           {7, 4, 1e30, "seq"},     {7, 4, inf, "seq"},
    };
    for (const auto& c : cases) {
        QuickInputs in;
        in.params_b = c.params_b;
        auto r = quick_estimate(in, RunShape{c.batch, c.seq});
        INFO(c.field);
        CHECK_FALSE(r.ok);
        CHECK(r.error.field == c.field);
        CHECK(r.error.message.find(c.field) != std::string::npos);
        CHECK((r.error.message.find('[') != std::string::npos || r.error.message.find("greater than") != std::string::npos));
    }
}

TEST_CASE("bad JSON configs are error values, never crashes") {
    const char* docs[] = {
        "",        "[]",  "{\"params_b\": \"seven\"}", "{\"batch\": null, \"seq\": []}", "{\"precision\": \"fp12\"}",
        "{\"nope\": 1}", "{\"method\": \"magic\"}", "{\"model\": 3}", "{\"model\": {\"preset\": \"gpt-9\"}}",
        "{\"schema_version\": 2}", "{\"params_b\": 1e400}", "{\"batch\": 1e30}", "{\"params_b\": -1}",
        "{\"model\": {\"layers\": 1.5}}", "{\"guide\": {\"bytes\": \"x\"}}", "{\"gpus\": 0, \"method\": \"guide\"}",
    };
    for (const char* d : docs) {
        INFO(d);
        std::string out = io::estimate_json(d);
        auto j = nlohmann::json::parse(out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["ok"].get<bool>() == false);
        CHECK_FALSE(j["error"]["field"].get<std::string>().empty());
        CHECK_FALSE(j["error"]["message"].get<std::string>().empty());
        CHECK(out.find("NaN") == std::string::npos);
        CHECK(out.find("null") == std::string::npos);
    }
}

TEST_CASE("estimate_json gives the worked example in bytes") {
    std::string out = io::estimate_json(R"({"method":"quick","params_b":7,"precision":"fp16","optimizer":"adamw-mixed","batch":4,"seq":2048})");
    auto j = nlohmann::json::parse(out, nullptr, false);
    REQUIRE(j["ok"].get<bool>() == true);
    CHECK(j["breakdown"]["weights"].get<double>() == Approx(14e9));
    CHECK(j["breakdown"]["activations"].get<double>() == Approx(143.36e9));
    CHECK(j["total_bytes"].get<double>() == Approx(255.36e9));
    CHECK(j["fits"][0]["gpus_needed"].get<int>() == 4);
}

TEST_CASE("run shape: every method but detailed serving reads Config::run; serving reads its engine's") {
    Config c;
    c.run = RunShape{8, 4096};
    c.inference.concurrency = 64;
    c.inference.context = 32768;
    for (Method m : {Method::Quick, Method::Guide, Method::Detailed}) {
        c.method = m;
        c.task = Task::Training;
        CHECK(run_shape(c).batch == 8);
        CHECK(std::string(run_shape_paths(c).seq) == "seq");
    }
    c.task = Task::Inference;
    c.method = Method::Guide;
    CHECK(run_shape(c).seq == 4096);
    c.method = Method::Detailed;
    CHECK(run_shape(c).batch == 64);
    CHECK(run_shape(c).seq == 32768);
    CHECK(std::string(run_shape_paths(c).batch) == "inference.concurrency");
    // Written back whole (truncated), and carried to `run` when the method switches.
    set_run_shape(c, RunShape{16.7, 8192});
    CHECK(c.inference.concurrency == 16);
    CHECK(c.run.batch == 8);
    align_run_shapes(c);
    CHECK(c.run.batch == 16);
    CHECK(c.run.seq == 8192);
    c.method = Method::Quick;
    c.run = RunShape{2, 1024};
    align_run_shapes(c);
    CHECK(c.inference.concurrency == 2);
    CHECK(c.inference.context == 1024);
}
