// Training solvers: the answer fits the chosen GPU at the target and the next value does not.
#include <catch.hpp>

#include "core/gpus.hpp"
#include "core/solve.hpp"
#include "core/training.hpp"
#include "io/config_json.hpp"

using namespace vc;

namespace {

Config base() {
    auto cfg = io::parse_config(R"({"method": "detailed", "task": "finetune", "model": {"preset": "llama-3.1-8b"},
        "batch": 1, "seq": 2048, "gpu": "h100-80gb", "training": {"finetune": "lora", "recompute": "full"}})");
    REQUIRE(cfg.ok);
    return cfg.value;
}

double total(const Config& c) {
    auto r = training_result(c);
    REQUIRE(r.ok);
    return r.value.device_total;
}

}  // namespace

TEST_CASE("largest micro-batch and longest sequence sit on the target's edge") {
    const Config cfg = base();
    const double budget = find_gpu("h100-80gb")->memory_bytes * cfg.target_utilization;
    auto b = solve(cfg, "max_batch");
    REQUIRE(b.ok);
    REQUIRE(b.value.value >= 1);
    Config c = cfg;
    c.quick.batch = b.value.value;
    CHECK(total(c) <= budget);
    c.quick.batch += 1;
    CHECK(total(c) > budget);

    auto s = solve(cfg, "max_seq");
    REQUIRE(s.ok);
    c = cfg;
    c.quick.seq = s.value.value;
    CHECK(total(c) <= budget);
    c.quick.seq += 1;
    CHECK(total(c) > budget);
}

TEST_CASE("fewest GPUs: full fine-tuning of 70B needs ZeRO-3 over many GPUs") {
    auto cfg = io::parse_config(R"({"method": "detailed", "model": {"preset": "llama-3.1-70b"}, "batch": 1, "seq": 4096,
        "gpu": "h100-80gb", "training": {"sharding": "zero3", "recompute": "full", "profile": "torchtitan"}})");
    REQUIRE(cfg.ok);
    auto n = solve(cfg.value, "min_gpus");
    REQUIRE(n.ok);
    REQUIRE(n.value.value > 1);
    Config c = cfg.value;
    c.gpus = n.value.value;
    CHECK(total(c) <= find_gpu("h100-80gb")->memory_bytes * 0.75);
    c.gpus = n.value.value - 1;
    CHECK(total(c) > find_gpu("h100-80gb")->memory_bytes * 0.75);
    // Without sharding more GPUs never help: no count fits.
    c = cfg.value;
    c.training.sharding = Sharding::None;
    auto none = solve(c, "min_gpus");
    REQUIRE(none.ok);
    CHECK(none.value.value == 0);
}

TEST_CASE("solvers need a known GPU") {
    Config cfg = base();
    cfg.gpu_id.clear();
    CHECK(solve(cfg, "max_batch").error.field == "gpu");
    cfg.gpu_id = "tpu-v9";
    CHECK(solve(cfg, "max_batch").error.field == "gpu");
    CHECK(solve(base(), "max_happiness").error.field == "question");
}
