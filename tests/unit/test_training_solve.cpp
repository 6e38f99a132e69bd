// Training solvers: the answer fits the chosen GPU at the target and the next value does not.
#include <catch.hpp>

#include <cstdio>
#include <string>

#include "core/advice.hpp"
#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/solve.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"
#include "io/config_json.hpp"

using namespace vc;

namespace {

// LoRA with full recomputation, one sequence of 2048 tokens per micro-batch.
Config base(const std::string& preset = "llama-3.1-8b", const std::string& gpu = "h100-80gb") {
    auto cfg = io::parse_config(R"({"method": "detailed", "task": "finetune", "model": {"preset": ")" + preset +
                                R"("}, "batch": 1, "seq": 2048, "gpu": ")" + gpu + R"(", "training": {"finetune": "lora", "recompute": "full"}})");
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
    c.run.batch = b.value.value;
    CHECK(total(c) <= budget);
    c.run.batch += 1;
    CHECK(total(c) > budget);

    auto s = solve(cfg, "max_seq");
    REQUIRE(s.ok);
    c = cfg;
    c.run.seq = s.value.value;
    CHECK(total(c) <= budget);
    c.run.seq += 1;
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
    CHECK(none.value.explanation.find("try zero3 / FSDP full sharding") != std::string::npos);
}

TEST_CASE("fewest GPUs: when no count fits, the reason is what each GPU keeps, and the advice is what the run does not do yet") {
    // Llama-3.1 8B, ZeRO-3, micro-batch 4 x 2048, no recomputation: each GPU keeps its own
    // activations and logits however far the states are sharded.
    auto cfg = io::parse_config(R"({"method": "detailed", "model": {"preset": "llama-3.1-8b"}, "batch": 4, "seq": 2048, "gpus": 8,
        "gpu": "h100-80gb", "training": {"sharding": "zero3"}})");
    REQUIRE(cfg.ok);
    auto r = solve(cfg.value, "min_gpus");
    REQUIRE(r.ok);
    CHECK(r.value.value == 0);
    const std::string& why = r.value.explanation;
    auto at = training_result(cfg.value);
    REQUIRE(at.ok);
    char act[32];
    std::snprintf(act, sizeof act, "activations %.2f GB", at.value.activations / 1e9);  // the same at any count
    CHECK(why.find(act) != std::string::npos);
    CHECK(why.find("zero3 / FSDP") == std::string::npos);  // already sharded
    CHECK(why.find("activation recomputation") != std::string::npos);
    CHECK(why.find("a smaller micro-batch") != std::string::npos);
}

TEST_CASE("solvers need a known GPU") {
    Config cfg = base();
    cfg.gpu_id.clear();
    CHECK(solve(cfg, "max_batch").error.field == "gpu");
    cfg.gpu_id = "tpu-v9";
    CHECK(solve(cfg, "max_batch").error.field == "gpu");
    CHECK(solve(base(), "max_happiness").error.field == "question");
}

TEST_CASE("max_seq stops at the model's context window; below it the memory answer stands") {
    // Llama-2-7B LoRA on an H200: memory holds far more than the 4,096 tokens of its config.json,
    // which is the answer, and fits.
    const Config cfg = base("llama-2-7b", "h200-141gb");
    const double budget = find_gpu("h200-141gb")->memory_bytes * cfg.target_utilization;
    Config unknown = cfg;
    unknown.model.context_limit = 0;
    auto memory = solve(unknown, "max_seq");
    REQUIRE(memory.ok);
    REQUIRE(memory.value.value > 4096);
    auto capped = solve(cfg, "max_seq");
    REQUIRE(capped.ok);
    CHECK(capped.value.value == 4096);
    CHECK(capped.value.explanation.find("4,096 tokens: the model's context window (memory would allow " +
                                        count_text(memory.value.value) + ")") != std::string::npos);
    Config at = cfg;
    at.run.seq = 4096;
    CHECK(total(at) <= budget);

    // Llama-3.1-8B on an H100-80GB: memory runs out before its 131,072 tokens.
    auto s = solve(base(), "max_seq");
    REQUIRE(s.ok);
    CHECK(s.value.value > 0);
    CHECK(s.value.value < 131072);
    CHECK(s.value.explanation.find("context window") == std::string::npos);
}

TEST_CASE("fit suggestions: the smallest changes that make a config fit, each checked by the model", "[advice]") {
    // QLoRA of Llama-3.1-8B on an RTX 4090 (24 GB, target 75%: 19.32 GB) at micro-batch 1, 2048 tokens,
    // checkpointing off as stated (auto: peft's full): 31.22 GB does not fit; full recomputation brings it
    // to 14.67 GB (both with peft's FP32 embedding, head and norms).
    auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
        "batch":1,"seq":2048,"training":{"finetune":"qlora","recompute":"none"}})");
    REQUIRE(cfg.ok);
    auto list = fit_suggestions(cfg.value);
    REQUIRE(!list.empty());
    CHECK(list.front().id == "recompute_full");
    for (const auto& s : list) {
        INFO(s.id);
        auto e = estimate(s.config);
        REQUIRE(e.ok);
        CHECK(e.value.total_bytes == Approx(s.total_bytes));
        CHECK(s.utilization <= 0.75);  // within the target, as the verdict reads it
    }
    // Micro-batch 4: no single change is enough; recomputation with micro-batch 1 and 4 accumulation
    // steps (the same global batch of 4) is (micro-batch 2 with recomputation: 19.72 GB, above the target).
    cfg.value.run.batch = 4;
    list = fit_suggestions(cfg.value);
    REQUIRE(!list.empty());
    CHECK(list.front().id == "recompute_full+batch_accumulate");
    CHECK(list.front().config.run.batch == 1);
    CHECK(list.front().config.training.grad_accum == 4);
    // A config that fits gets none.
    cfg.value.run.batch = 1;
    cfg.value.gpu_id = "h100-80gb";
    CHECK(fit_suggestions(cfg.value).empty());
}

TEST_CASE("fit suggestions: the FP32 cast of a QLoRA base, and shorter sequences only when nothing else fits", "[advice]") {
    // QLoRA of Llama-3.1-8B on an RTX 4090 (target 75% of 24 GiB = 19.33 GB), 4 x 4,096 tokens: 50.01 GB.
    // Micro-batch 1 (4 accumulation steps) alone leaves 4,096 tokens of FP32 logits (4,096 x 128,256 x
    // 12 B = 6.30 GB) beside peft's FP32 embedding, head and norms (1.051e9 x 4 B) and the head's 16-bit
    // copy: above the target. Without the cast (1.051e9 x 2 B: -2.10 GB weights, -1.05 GB head copy,
    // the hidden states 2 B) it fits: the pair keeps the data, so no shorter sequence is offered.
    auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
        "batch":4,"seq":4096,"training":{"finetune":"qlora"}})");
    REQUIRE(cfg.ok);
    auto list = fit_suggestions(cfg.value);
    bool pair = false;
    for (const auto& x : list) {
        INFO(x.id);
        CHECK(x.config.run.seq == 4096);  // every change keeps the data
        CHECK(x.utilization <= 0.75);
        if (x.id != "batch_accumulate+frozen_16bit") continue;
        pair = true;
        CHECK(x.detail == "batch: 4 -> 1, training.grad_accum -> 4 (same global batch); training.lora.upcast_frozen: auto (true) -> false");
    }
    CHECK(pair);
    // The cast is offered only where it is made: TRL's profile makes none.
    Config trl = cfg.value;
    trl.training.profile = "trl";
    for (const auto& s : fit_suggestions(trl, 20)) CHECK(s.id.find("frozen_16bit") == std::string::npos);
    // Liger on, 1 x 65,536 tokens: each layer's checkpointed input alone is 65,536 x 4,096 x 4 B (FP32
    // hidden states after peft's cast) = 1.07 GB, x 32 layers: nothing that keeps the data fits, so the
    // longest halved sequence that does is offered alone, and the next longer one does not fit. Beside
    // it, the change that keeps a longer sequence: without the cast the checkpointed inputs are 2 B
    // (16,384 x 4,096 x 2 B = 0.13 GB a layer) and 16,384 tokens fit.
    cfg.value.run.batch = 1;
    cfg.value.run.seq = 65536;
    cfg.value.training.liger = true;
    list = fit_suggestions(cfg.value);
    REQUIRE(list.size() == 2);
    CHECK(list.front().id == "seq_shorter");
    CHECK(list.front().detail == "seq: 65536 -> 8192");
    CHECK(list[1].id == "frozen_16bit+seq_shorter");
    CHECK(list[1].config.run.seq == 16384);
    CHECK(list[1].total_bytes < 0.75 * 24.0 * 1024 * 1024 * 1024);
    Config longer = cfg.value;
    longer.run.seq = 16384;
    auto e = estimate(longer);
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes > 0.75 * 24.0 * 1024 * 1024 * 1024);
    CHECK(list.front().total_bytes < 0.75 * 24.0 * 1024 * 1024 * 1024);
}

TEST_CASE("fit suggestions: a shorter sequence alone, and the change that keeps a longer one (torchtune QLoRA 1 x 16,384 on an RTX 4090)", "[advice]") {
    // Llama-3.1-8B QLoRA under torchtune (recompute auto: none), 1 x 16,384 tokens on an RTX 4090
    // (target 75% of 24,564 MiB = 19.32 GB): 126.93 GB. Halving the sequence: 2,048 tokens are 21.48 GB
    // (83.4%: 11.58 GB of activations, 32 layers x 0.36 GB, and 2.63 GB of logits and loss, 2,048 x
    // 128,256 x 10 B), above the target; 1,024 tokens 13.95 GB (54.2%) fit. With full recomputation
    // (torchtune's enable_activation_checkpointing) 8,192 tokens are 19.98 GB (77.6%), 4,096 tokens
    // 13.20 GB (51.2%): the pair keeps four times the tokens and is offered after the single change.
    auto cfg = io::parse_config(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
        "batch":1,"seq":16384,"training":{"finetune":"qlora","profile":"torchtune"}})");
    REQUIRE(cfg.ok);
    const auto list = fit_suggestions(cfg.value);
    REQUIRE(list.size() == 2);
    CHECK(list[0].id == "seq_shorter");
    CHECK(list[0].config.run.seq == 1024);
    CHECK(list[0].total_bytes / 1e9 == Approx(13.95).epsilon(1e-3));
    CHECK(list[1].id == "recompute_full+seq_shorter");
    CHECK(list[1].config.run.seq == 4096);
    CHECK(list[1].detail == "training.recompute: none -> full; seq: 16384 -> 4096");
    CHECK(list[1].total_bytes / 1e9 == Approx(13.20).epsilon(1e-3));
    // 2,048 tokens alone really are above the target (the search's next step after 4,096).
    Config at2k = cfg.value;
    at2k.run.seq = 2048;
    const auto e = estimate(at2k);
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes / 1e9 == Approx(21.48).epsilon(1e-3));
    CHECK(e.value.total_bytes > 0.75 * 24564.0 * 1048576);
}
