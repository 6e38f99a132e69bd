// Unit tests: a custom GPU (inference.gpu_custom: memory, bandwidth, TFLOP/s) is the GPU every
// answer uses, for training as for serving (core/gpu_choice.hpp), the page's state names it, and a
// speed figure it leaves out is unknown (0 from the engine, "unknown" on the page), never a
// figure from the other half of the roofline.
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "core/model/presets.hpp"
#include "core/solve.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "io/config_json.hpp"
#include "io/report.hpp"
#include "shell/app.hpp"
#include "shell/state/report.hpp"
#include "shell/state/scenario.hpp"

using namespace vc;
using namespace vc::shell;

namespace {

Config with_custom(double memory_gib, double bandwidth, double tflops) {
    Config c = default_inputs();
    use_preset(c, *find_preset("llama-3.1-8b"));
    c.inference.has_custom_gpu = true;
    c.inference.custom_gpu.id = kCustomGpuId;
    c.inference.custom_gpu.name = "My 32 GB card";
    c.inference.custom_gpu.memory_bytes = memory_gib * kBytesPerGiB;
    c.inference.custom_gpu.bandwidth_gbps = bandwidth;
    c.inference.custom_gpu.bf16_tflops = tflops;
    return c;
}

}  // namespace

TEST_CASE("custom GPU: training fits, answers and the page's verdict use it, not the catalog's gpu") {
    Config c = with_custom(32, 0, 0);
    REQUIRE(c.gpu_id == "h100-80gb");  // left as it was: the custom GPU replaces it
    CHECK(config_gpu(c)->name == "My 32 GB card");
    App a;
    a.inputs = c;
    recompute(a);
    complete_results(a);
    REQUIRE(a.error.field.empty());
    const GpuFit* f = chosen_fit(a.inputs, a.results);
    REQUIRE(f);
    CHECK(f->gpu_id == "custom");
    CHECK(f->utilization == Approx(a.results.estimate.total_bytes / (32 * kBytesPerGiB)));
    // The answers ask for the custom card: a 32 GiB budget at 75% (25.77 GB), not the H100's 64.14 GB.
    Config lora = c;
    set_task(lora, Task::FineTune, FinetuneMethod::Lora);
    lora.run.batch = 1;
    sync_shared(lora);
    set_method(lora, Method::Detailed);
    auto s = solve(lora, "max_seq");
    REQUIRE(s.ok);
    CHECK(s.value.explanation.find("within 25.77 GB (75% of My 32 GB card)") != std::string::npos);
    Config h100 = lora;
    h100.inference.has_custom_gpu = false;
    auto s80 = solve(h100, "max_seq");
    REQUIRE(s80.ok);
    CHECK(s.value.value < s80.value.value / 4);
    // The GPU table's custom row asks the solver for the custom card too.
    bool row = false;
    for (const auto& r : a.results.gpus)
        if (r.fit.gpu_id == "custom") {
            row = true;
            CHECK(r.from_solver);
        }
    CHECK(row);
    CHECK(budget_text(c, c.target_utilization, false).find("of 34.36 GB") != std::string::npos);
}

TEST_CASE("custom GPU: a speed figure it leaves out is unknown, not the other bound") {
    Config c = with_custom(24, 1008, 0);  // bandwidth known, TFLOP/s not
    set_task(c, Task::Inference);
    set_method(c, Method::Detailed);
    auto e = estimate(c);
    REQUIRE(e.ok);
    CHECK(e.value.metric("decode_tokens_per_s")->value > 0);  // memory-bound decode from the bandwidth
    CHECK(e.value.metric("ttft_s")->value == 0);
    CHECK(e.value.metric("prefill_tokens_per_s")->value == 0);
    CHECK(metric_text(*e.value.metric("prefill_tokens_per_s"), false) == "unknown");
    c.inference.custom_gpu.bandwidth_gbps = 0;
    e = estimate(c);
    REQUIRE(e.ok);
    CHECK(metric_text(*e.value.metric("decode_tokens_per_s"), false) == "unknown");
    // The CLI's table says the same, names the row by the card's name, and no roofline note bounds
    // a step it cannot time (it read "memory-bandwidth bound ...: 0 B and 0 FLOP per step").
    c.inference.custom_gpu.name = "My card";
    e = estimate(c);
    REQUIRE(e.ok);
    const std::string table = io::format_table(e.value, "", fit_gpu(c, kCustomGpuId));
    const auto at = table.find("Decode speed per sequence");
    REQUIRE(at != std::string::npos);
    const std::string row = table.substr(at, table.find('\n', at) - at);
    CHECK(row.find("unknown") != std::string::npos);
    CHECK_THAT(table, Catch::Contains("  My card "));
    CHECK_THAT(table, !Catch::Contains("  custom "));
    CHECK_THAT(table, !Catch::Contains("bound on"));
    CHECK_THAT(table, !Catch::Contains("0 tokens/s"));
    // With both figures the speeds are back.
    c.inference.custom_gpu.bandwidth_gbps = 1008;
    c.inference.custom_gpu.bf16_tflops = 165;
    e = estimate(c);
    REQUIRE(e.ok);
    CHECK(e.value.metric("prefill_tokens_per_s")->value > 0);
}

TEST_CASE("custom GPU: bad figures are named by field for every task") {
    Config c = with_custom(0, 0, 0);
    auto e = estimate(c);
    REQUIRE_FALSE(e.ok);
    CHECK(e.error.field == "inference.gpu_custom.memory_gib");
    c = with_custom(24, -1, 0);
    e = estimate(c);
    REQUIRE_FALSE(e.ok);
    CHECK(e.error.field == "inference.gpu_custom.bandwidth_gbps");
}

// [SECTION] a Mac the catalog lacks: inference.gpu_custom.unified ---------------------------------

namespace {

Config parsed(const std::string& json) {
    auto c = io::parse_config(json);
    INFO(c.error.field << ": " << c.error.message);
    REQUIRE(c.ok);
    return c.value;
}

const GpuFit& fit_of(const Estimate& e, const std::string& id) {
    for (const auto& f : e.fits)
        if (f.gpu_id == id) return f;
    FAIL("no row " << id);
    return e.fits.front();
}

const char* kLlamaOnMac = R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"apple-m4-max-64gb",
    "inference":{"engine":"llama.cpp","weights":"q8_0","context":4096)";

}  // namespace

TEST_CASE("custom GPU marked unified is a Mac: the same answer as the catalog Mac with the same figures", "[custom_gpu][mac]") {
    // Llama-3.1-8B Q8_0 under llama.cpp at 4,096 tokens on the M4 Max 64GB (546 GB/s, 18.4 TF), and on
    // a custom GPU of 64 GiB, 546 GB/s, 18.4 TF marked unified: every component, metric and fit the same.
    auto mac = estimate(parsed(std::string(kLlamaOnMac) + "}}"));
    auto custom = estimate(parsed(std::string(kLlamaOnMac) +
                                  R"(,"gpu_custom":{"name":"My Mac","memory_gib":64,"unified":true,"bandwidth_gbps":546,"bf16_tflops":18.4}}})"));
    REQUIRE(mac.ok);
    REQUIRE(custom.ok);
    CHECK(custom.value.total_bytes == mac.value.total_bytes);
    REQUIRE(custom.value.components.size() == mac.value.components.size());
    for (size_t i = 0; i < mac.value.components.size(); ++i) {
        INFO(mac.value.components[i].key);
        CHECK(custom.value.components[i].label == mac.value.components[i].label);
        CHECK(custom.value.components[i].bytes == mac.value.components[i].bytes);
    }
    CHECK(custom.value.component("runtime")->label == "Metal context");
    REQUIRE(custom.value.metrics.size() == mac.value.metrics.size());
    for (size_t i = 0; i < mac.value.metrics.size(); ++i) {
        INFO(mac.value.metrics[i].key);
        CHECK(custom.value.metrics[i].key == mac.value.metrics[i].key);
        CHECK(custom.value.metrics[i].value == mac.value.metrics[i].value);
    }
    // The working-set limit: 64 GiB x 3/4 (above 32 GiB) = 48 GiB = 51,539,607,552 B.
    REQUIRE(custom.value.metric("gpu_working_set_bytes"));
    CHECK(custom.value.metric("gpu_working_set_bytes")->value == 51539607552.0);
    const GpuFit& own = fit_of(custom.value, "custom");
    const GpuFit& m4 = fit_of(custom.value, "apple-m4-max-64gb");
    CHECK(own.mac);
    CHECK(m4.mac);
    CHECK(own.utilization == m4.utilization);
    CHECK(own.fits == m4.fits);
    CHECK(own.within_target == m4.within_target);
    CHECK(own.gpus_needed == 1);
    CHECK(m4.gpus_needed == 1);
    // Not marked: the same figures are a 64 GiB card, no working-set limit, no Metal.
    auto card = estimate(parsed(std::string(kLlamaOnMac) +
                                R"(,"gpu_custom":{"memory_gib":64,"bandwidth_gbps":546,"bf16_tflops":18.4}}})"));
    REQUIRE(card.ok);
    CHECK(card.value.component("runtime")->label == "CUDA context");
    CHECK_FALSE(fit_of(card.value, "custom").mac);
    CHECK(card.value.metric("gpu_working_set_bytes") == nullptr);
}

TEST_CASE("a load a 48 GB Mac does not hold names the 64 GB Macs; a custom unified 48 GiB machine says the same", "[gpu_counts][mac]") {
    // The guide's inference total for 20e9 parameters at 2 B: weights 40e9 B + one head's KV
    // 48 layers x 2,048 x 128 x 2 x 2 B = 50,331,648 B, x 1.15 margin = 46,057,881,395 B = 42.89 GiB.
    // M4 Pro 48GB: 48 GiB x 75% = 36 GiB, too little; the 64 GB Macs: 64 x 75% = 48 GiB, enough.
    // Before the 64 GB rows the smallest Mac named was the M2 Max 96GB.
    const std::string base = R"({"method":"guide","task":"inference","params_b":20,"gpu":"apple-m4-pro-48gb")";
    auto e = estimate(parsed(base + "}"));
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes == 40050331648.0);
    CHECK(e.value.buffered_bytes == Approx(46057881395.2).epsilon(1e-9));
    const GpuFit& pro = fit_of(e.value, "apple-m4-pro-48gb");
    CHECK(pro.gpus_needed == 0);
    CHECK(pro.mac_needed_bytes == 64 * kBytesPerGiB);
    CHECK(fit_of(e.value, "apple-m4-pro-64gb").gpus_needed == 1);
    // A Mac the catalog lacks, 48 GiB of unified memory: one machine, and the same Mac named.
    auto c = estimate(parsed(base + R"(,"inference":{"gpu_custom":{"name":"Studio 48","memory_gib":48,"unified":true}}})"));
    REQUIRE(c.ok);
    const GpuFit& own = fit_of(c.value, "custom");
    CHECK(own.mac);
    CHECK(own.gpus_needed == 0);
    CHECK(own.mac_needed_bytes == 64 * kBytesPerGiB);
    CHECK_THAT(io::format_table(c.value, ""), Catch::Contains("one Mac: needs a Mac with >= 64 GiB (69 GB)"));
    CHECK_THAT(io::estimate_text(c.value, -1), Catch::Contains("\"mac_needed_bytes\":68719476736"));
}

TEST_CASE("custom unified machine in training: one machine, the fewest GPUs is 1 or 0", "[custom_gpu][mac]") {
    // Llama-3.1-8B full fine-tuning, ZeRO-3: about 130 GB, more than a 64 GiB machine holds. As a
    // card, ZeRO-3 over several of them fits; as a Mac, none.
    const std::string base = R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpus":1,"batch":1,"seq":2048,
        "training":{"sharding":"zero3"},"inference":{"gpu_custom":{"memory_gib":64)";
    auto mac = solve(parsed(base + R"(,"unified":true}}})"), "min_gpus");
    REQUIRE(mac.ok);
    CHECK(mac.value.value == 0);
    CHECK_THAT(mac.value.explanation, Catch::StartsWith("a Mac is one machine"));
    auto card = solve(parsed(base + "}}}"), "min_gpus");
    REQUIRE(card.ok);
    CHECK(card.value.value > 1);
}

TEST_CASE("custom GPU unified: JSON reads and writes it, only when set", "[custom_gpu][mac]") {
    Config c = parsed(std::string(kLlamaOnMac) + R"(,"gpu_custom":{"memory_gib":64,"unified":true}}})");
    CHECK(c.inference.custom_gpu.unified);
    const std::string text = io::dump(io::config_to_json(c), 2);
    CHECK_THAT(text, Catch::Contains("\"unified\": true"));
    auto back = io::parse_config(text);
    REQUIRE(back.ok);
    CHECK(back.value.inference.custom_gpu.unified);
    c.inference.custom_gpu.unified = false;
    CHECK_THAT(io::dump(io::config_to_json(c), 2), !Catch::Contains("\"unified\""));
    auto bad = io::parse_config(std::string(kLlamaOnMac) + R"(,"gpu_custom":{"memory_gib":64,"unified":"yes"}}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.gpu_custom.unified");
}

TEST_CASE("an unknown preset or GPU id names the nearest ids (did you mean)", "[mac]") {
    // The refusal of a config text: "field: message".
    auto refusal = [](const std::string& json) {
        auto r = io::parse_config(json);
        if (r.ok) {
            const auto e = estimate(r.value);
            if (e.ok) return std::string("config: ok");
            r = Outcome<Config>::failure(e.error);
        }
        return r.error.field + ": " + r.error.message;
    };
    // llama-3.1-8bb is one edit from llama-3.1-8b, two from llama-3.1-70b: only the nearest is named.
    CHECK(refusal(R"({"model":{"preset":"llama-3.1-8bb"}})") ==
          "model.preset: model.preset \"llama-3.1-8bb\" is not a known preset (see vramcalc --list-presets); did you mean llama-3.1-8b?");
    // "h100" begins two ids (one edit each): both, in the catalog's order.
    CHECK_THAT(refusal(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100"})"),
               Catch::StartsWith("gpu: gpu \"h100\"") && Catch::EndsWith("; did you mean h100-80gb or h100-nvl-94gb?"));
    // Every task and method refuses it: training (quick, guide, detailed) said nothing and named no row.
    for (const char* doc : {R"({"model":{"preset":"llama-3.1-8b"},"gpu":"h100"})", R"({"method":"guide","params_b":7,"gpu":"h100"})",
                            R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"h100"})"})
        CHECK(refusal(doc) == "gpu: gpu \"h100\" is not in the catalog (vramcalc --list-gpus), or give inference.gpu_custom; "
                              "did you mean h100-80gb or h100-nvl-94gb?");
    // A custom GPU is the GPU whatever gpu says; "cpu" is serving's CPU-only choice.
    CHECK(refusal(R"({"model":{"preset":"llama-3.1-8b"},"gpu":"h100","inference":{"gpu_custom":{"memory_gib":80}}})") == "config: ok");
    // Nothing near: no suggestion, the message as before.
    CHECK(refusal(R"({"model":{"preset":"no-such-model"}})") ==
          "model.preset: model.preset \"no-such-model\" is not a known preset (see vramcalc --list-presets)");
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(nearest_names("LLAMA-3.1-8B", {"llama-3.1-8b", "llama-3.1-70b"}) == std::vector<std::string>{"llama-3.1-8b"});
    CHECK(did_you_mean("a100", {"a100-80gb", "a100-40gb", "h100-80gb"}) == "; did you mean a100-80gb or a100-40gb?");
    // A name holding the typed text as whole words (4 bytes or more) is one edit away: the vendor prefix
    // left out ("m2-max-64gb"), a field's path without its section ("lora.rank"); not inside a word.
    CHECK(nearest_names("m2-max-64gb", {"apple-m2-max-64gb", "apple-m2-max-96gb"}) == std::vector<std::string>{"apple-m2-max-64gb"});
    CHECK(nearest_names("4090", {"rtx-4090-24gb", "rtx-3090-24gb", "rtx-4090-laptop-16gb"}) ==
          std::vector<std::string>{"rtx-4090-24gb", "rtx-4090-laptop-16gb"});
    CHECK(nearest_names("lora.rank", {"training.lora.rank", "training.lora.dropout"}) == std::vector<std::string>{"training.lora.rank"});
    CHECK(nearest_names("0-24", {"rtx-4090-24gb"}).empty());
}
