// Detailed training: inconsistent configurations are Error values that name the field and the
// rule; nothing aborts and nothing is NaN.
#include <catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/train/training.hpp"
#include "io/config_json.hpp"

using namespace vc;

namespace {

Config llama8b() {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.model.id = "custom";
    cfg.model.layers = 32;
    cfg.model.hidden = 4096;
    cfg.model.heads = 32;
    cfg.model.kv_heads = 8;
    cfg.model.ffn = 14336;
    cfg.model.vocab = 128256;
    cfg.run.batch = 1;
    cfg.run.seq = 4096;
    return cfg;
}

// The error's field, or "" when the config is accepted.
std::string field_of(const Config& cfg) {
    auto r = training_result(cfg);
    return r.ok ? std::string() : r.error.field;
}

std::string message_of(const Config& cfg) { return training_result(cfg).error.message; }

}  // namespace

TEST_CASE("a valid config is accepted") { CHECK(field_of(llama8b()).empty()); }

TEST_CASE("tensor parallelism must split the heads") {
    Config cfg = llama8b();
    cfg.gpus = 3;
    cfg.parallel.tp = 3;
    CHECK(field_of(cfg) == "parallel.tp");
    CHECK(message_of(cfg).find("model.heads (32)") != std::string::npos);
    cfg.gpus = 16;
    cfg.parallel.tp = 16;  // divides 32 heads, a multiple of 8 KV heads (replicated): accepted
    CHECK(field_of(cfg).empty());
}

TEST_CASE("pipeline stages cannot exceed the layers") {
    Config cfg = llama8b();
    cfg.gpus = 64;
    cfg.parallel.pp = 64;
    CHECK(field_of(cfg) == "parallel.pp");
    CHECK(message_of(cfg).find("model.layers (32)") != std::string::npos);
}

TEST_CASE("GPUs must equal TP x PP x DP x CP") {
    Config cfg = llama8b();
    cfg.gpus = 8;
    cfg.parallel.tp = 2;
    cfg.parallel.pp = 2;
    cfg.parallel.dp = 4;  // 2 x 2 x 4 = 16, not 8
    CHECK(field_of(cfg) == "gpus");
    CHECK(message_of(cfg).find("= 16, got 8") != std::string::npos);
    cfg.parallel.dp = 0;  // derived: 8 / (2 x 2) = 2
    CHECK(field_of(cfg).empty());
    cfg.gpus = 6;
    cfg.parallel.tp = 4;
    cfg.parallel.pp = 1;
    CHECK(field_of(cfg) == "gpus");  // 6 is not a multiple of 4
}

TEST_CASE("context parallelism must split the sequence") {
    Config cfg = llama8b();
    cfg.gpus = 3;
    cfg.parallel.cp = 3;
    cfg.run.seq = 4096;
    CHECK(field_of(cfg) == "parallel.cp");
}

TEST_CASE("interleaved pipelines need whole chunks of layers") {
    Config cfg = llama8b();
    cfg.gpus = 4;
    cfg.parallel.pp = 4;
    cfg.parallel.schedule = PipelineSchedule::Interleaved;
    cfg.parallel.virtual_stages = 3;  // 4 x 3 = 12 does not divide 32
    CHECK(field_of(cfg) == "parallel.virtual_stages");
    cfg.parallel.virtual_stages = 2;
    CHECK(field_of(cfg).empty());
}

TEST_CASE("expert parallelism needs experts it can divide") {
    Config cfg = llama8b();
    cfg.gpus = 8;
    cfg.parallel.ep = 2;
    CHECK(field_of(cfg) == "parallel.ep");  // dense model
    cfg.model.experts = 8;
    cfg.model.top_k = 2;
    cfg.model.expert_ffn = 14336;
    cfg.parallel.ep = 3;
    CHECK(field_of(cfg) == "parallel.ep");  // 3 does not divide 8 experts
    cfg.parallel.ep = 8;
    CHECK(field_of(cfg).empty());
}

TEST_CASE("top-k cannot exceed the experts") {
    Config cfg = llama8b();
    cfg.model.experts = 8;
    cfg.model.top_k = 9;
    cfg.model.expert_ffn = 14336;
    CHECK(field_of(cfg) == "model.top_k");
}

TEST_CASE("KV heads must group the query heads") {
    Config cfg = llama8b();
    cfg.model.kv_heads = 5;
    CHECK(field_of(cfg) == "model.kv_heads");
}

TEST_CASE("LoRA needs a positive rank and a target") {
    Config cfg = llama8b();
    cfg.training.finetune = FinetuneMethod::Lora;
    cfg.training.lora.rank = 0;
    CHECK(field_of(cfg) == "training.lora.rank");
    cfg.training.lora.rank = -4;
    CHECK(field_of(cfg) == "training.lora.rank");
    cfg.training.lora.rank = 8;
    cfg.training.lora.targets = 0;
    CHECK(field_of(cfg) == "training.lora.targets");
}

TEST_CASE("LoRA rank above the hidden size is refused with the model's range", "[training]") {
    Config cfg = llama8b();
    cfg.training.finetune = FinetuneMethod::Qlora;
    cfg.training.lora.rank = 4096;  // h: B A of a 4096-wide matrix has rank at most 4096
    CHECK(field_of(cfg).empty());
    cfg.training.lora.rank = 4097;
    CHECK(field_of(cfg) == "training.lora.rank");
    CHECK(message_of(cfg).find("training.lora.rank must be a whole number in [1, 4096]") == 0);
    CHECK(message_of(cfg).find("got 4097") != std::string::npos);
    cfg.training.finetune = FinetuneMethod::Full;  // no adapters: the rank is not read
    CHECK(field_of(cfg).empty());
}

TEST_CASE("offloading parameters needs ZeRO-3") {
    Config cfg = llama8b();
    cfg.training.offload_params = true;
    CHECK(field_of(cfg) == "training.offload_params");
    cfg.training.sharding = Sharding::Zero3;
    CHECK(field_of(cfg).empty());
}

TEST_CASE("the global batch must be a whole number of micro-batches per rank") {
    Config cfg = llama8b();
    cfg.gpus = 8;
    cfg.run.batch = 2;
    cfg.training.global_batch = 24;  // 24 / (2 x 8) = 1.5
    CHECK(field_of(cfg) == "training.global_batch");
    cfg.training.global_batch = 32;
    auto r = training_result(cfg);
    REQUIRE(r.ok);
    CHECK(r.value.grad_accum == 2);
}

TEST_CASE("out-of-range numbers and NaN name their field") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Config cfg = llama8b();
    cfg.run.batch = 0;
    CHECK(field_of(cfg) == "batch");
    cfg = llama8b();
    cfg.run.seq = nan;
    CHECK(field_of(cfg) == "seq");
    cfg = llama8b();
    cfg.training.dropout = 1.5;
    CHECK(field_of(cfg) == "training.dropout");
    cfg = llama8b();
    cfg.runtime.cuda_context_bytes = -2;  // -1 is "by lazy_loading"
    CHECK(field_of(cfg) == "runtime.cuda_context_bytes");
    cfg = llama8b();
    cfg.training.profile = "no-such-stack";
    CHECK(field_of(cfg) == "training.profile");
    cfg = llama8b();
    cfg.model.layers = 0;
    cfg.model.params_override_b = 0;
    CHECK(field_of(cfg) == "model");
}

TEST_CASE("JSON errors name the dotted path") {
    auto bad = [](const char* text) { return io::parse_config(text).error.field; };
    CHECK(bad(R"({"training": {"precision": "fp12"}})") == "training.precision");
    CHECK(bad(R"({"training": {"lora": {"targets": "q,zz"}}})") == "training.lora.targets");
    CHECK(bad(R"({"training": {"sharding": "zero4"}})") == "training.sharding");
    CHECK(bad(R"({"parallel": {"tp": 1.5}})") == "parallel.tp");
    CHECK(bad(R"({"parallel": {"tq": 2}})") == "parallel.tq");
    CHECK(bad(R"({"runtime": {"nccl_bytes": "big"}})") == "runtime.nccl_bytes");
    CHECK(bad(R"({"training": 3})") == "training");
    // Through estimate(): a detailed config with a bad layout fails with the field, as JSON.
    auto cfg = io::parse_config(R"({"method": "detailed", "model": {"preset": "llama-3.1-8b"}, "gpus": 3,
                                    "parallel": {"tp": 3}})");
    REQUIRE(cfg.ok);
    auto e = estimate(cfg.value);
    REQUIRE_FALSE(e.ok);
    CHECK(e.error.field == "parallel.tp");
}
