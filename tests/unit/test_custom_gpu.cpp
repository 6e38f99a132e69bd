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
#include "core/units.hpp"
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
