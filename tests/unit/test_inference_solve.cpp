// Inference "what fits" solvers: worked examples a user can redo with the KV block arithmetic,
// and the defining property of each answer (it fits, one more does not) over many shapes.
#include <catch.hpp>

#include <algorithm>
#include <string>

#include "core/serve/inference_solve.hpp"
#include "core/model/presets.hpp"
#include "core/solve.hpp"
#include "core/units.hpp"
#include "io/solve_json.hpp"
#include "inference_helpers.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;

namespace {

Answer ask(const Config& cfg, const char* question) {
    auto r = solve(cfg, question);
    INFO(question << " -> " << r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

double share_of(const InferencePlan& p) { return p.engine == Engine::Vllm ? 1.0 : p.target_utilization; }

}  // namespace

TEST_CASE("vLLM worked example: Llama-3-8B BF16 on an A100-40GB, blocks of 16 x 128 KiB") {
    Config cfg = serving("llama-3-8b", Engine::Vllm, "bf16", "a100-40gb", 8192);
    cfg.model.context_limit = 0;  // memory alone (the model's 8,192-token window: test_context_limit.cpp)
    const InferencePlan p = plan(cfg);
    const double blocks = std::floor(p.pool / (16 * 131072.0));
    // One sequence may take every block; 19 sequences share them (floor(blocks / 19) each).
    CHECK(ask(cfg, "kv_capacity").value == blocks * 16);
    CHECK(ask(cfg, "max_context").value == blocks * 16);
    Config c19 = cfg;
    c19.inference.concurrency = 19;
    CHECK(ask(c19, "max_context").value == std::floor(blocks / 19) * 16);
    // 8192-token sequences take 512 blocks each.
    CHECK(ask(cfg, "max_concurrency").value == std::floor(blocks / 512));
}

TEST_CASE("longest context and most sequences: the answer fits, one more does not (every engine)") {
    struct Case {
        const char* preset;
        Engine engine;
        const char* weights;
        const char* gpu;
    };
    const Case cases[] = {
        {"llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb"},     {"gemma-2-9b", Engine::Vllm, "fp8", "l40s-48gb"},
        {"mistral-7b-v0.1", Engine::Vllm, "awq-int4", "a10g-24gb"}, {"gpt-oss-20b", Engine::Vllm, "bf16", "h100-80gb"},
        {"deepseek-v2", Engine::Vllm, "fp8", "mi300x-192gb"},    {"llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb"},
        {"qwen2.5-7b", Engine::LlamaCpp, "iq4_xs", "l4-24gb"},   {"llama-3.1-8b", Engine::Hf, "bf16", "a100-80gb"},
        {"starcoder", Engine::Hf, "bnb-nf4", "a100-40gb"},
    };
    for (const auto& k : cases) {
        INFO(k.preset << " " << engine_name(k.engine) << " " << k.weights << " " << k.gpu);
        Config cfg = serving(k.preset, k.engine, k.weights, k.gpu, 4096);
        if (k.engine == Engine::Hf) cfg.inference.hf.attention = HfAttention::Eager;
        const InferencePlan p = plan(cfg);
        const double share = share_of(p);
        std::vector<int> ns;
        for (int n = 1; n <= 256; ++n) ns.push_back(n);
        const auto curve = longest_context_curve(p, ns, share);
        for (size_t i = 0; i < ns.size(); ++i) {
            const double c = curve[i];
            INFO("n = " << ns[i] << ", c = " << c);
            if (c >= kMaxSolveContext) continue;  // memory stops growing (every layer windowed)
            if (c > 0) CHECK(fits_at(p, c, ns[i], share));
            CHECK_FALSE(fits_at(p, c + 1, ns[i], share));
            if (i > 0) CHECK(c <= curve[i - 1]);
        }
        for (int c : {128, 4096, 32768}) {
            const double n = most_sequences(p, c, share);
            INFO("context " << c << ", n = " << n);
            if (n > 0) CHECK(fits_at(p, c, n, share));
            CHECK_FALSE(fits_at(p, c, n + 1, share));
        }
    }
}

TEST_CASE("Mistral v0.1 keeps at most its 4096-token window: memory stops growing") {
    Config cfg = serving("mistral-7b-v0.1", Engine::Vllm, "bf16", "h100-80gb", 4096);
    // The model's context window (32,768 tokens) answers; memory would allow any length.
    const Answer a = ask(cfg, "max_context");
    CHECK(a.value == 32768);
    CHECK(a.explanation.find("memory would allow any length") != std::string::npos);
    cfg.model.context_limit = 0;
    CHECK(ask(cfg, "max_context").value == kMaxSolveContext);
}

TEST_CASE("fewest GPUs: Llama-3.1-70B BF16 needs tensor parallelism 2 on H100s, 1 on an MI300X") {
    Config cfg = serving("llama-3.1-70b", Engine::Vllm, "bf16", "h100-80gb", 8192);
    CHECK(ask(cfg, "min_gpus").value == 2);
    cfg.gpu_id = "mi300x-192gb";
    CHECK(ask(cfg, "min_gpus").value == 1);
    // llama.cpp splits layers: Q4_K_M (about 40 GiB) over 24 GiB cards takes 3 at 75% of each.
    Config l = serving("llama-3.1-70b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192);
    CHECK(ask(l, "min_gpus").value == 3);
}

TEST_CASE("best format that fits: ordered best first, every listed one fits, the 16-bit one first when it fits") {
    // Llama-3.1-70B on one H100: BF16 (131 GiB) cannot fit; the 8-bit formats lead the list.
    const Config cfg = serving("llama-3.1-70b", Engine::Vllm, "bf16", "h100-80gb", 2048);
    const Answer a = ask(cfg, "best_format");
    REQUIRE_FALSE(a.items.empty());
    CHECK(a.value == a.items.size());
    CHECK(std::find(a.items.begin(), a.items.end(), "bf16") == a.items.end());
    CHECK(find_weight_format(a.items.front())->element_bits == 8);
    int prev_quality = -1;
    for (const auto& id : a.items) {
        const WeightFormat* f = find_weight_format(id);
        REQUIRE(f);
        CHECK(f->quality >= prev_quality);
        prev_quality = f->quality;
        auto r = make_inference_plan(cfg, 0, id);
        REQUIRE(r.ok);
        CHECK(fits_at(r.value, 2048, 1, 1.0));
    }
    // llama.cpp on a 24 GB card: GGUF types (and MXFP4) only; Llama-3.1-8B fits even at 16 bits.
    const Answer g = ask(serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 8192), "best_format");
    REQUIRE_FALSE(g.items.empty());
    CHECK(g.items.front() == "gguf-f16");
    for (const auto& id : g.items) CHECK((find_weight_format(id)->family == FormatFamily::Gguf || id == "mxfp4"));
}

TEST_CASE("inference questions: listed, dispatched for detailed inference only, errors name the field") {
    int listed = 0;
    for (const auto& q : solve_questions())
        if (std::string(q.tasks) == "inference") ++listed;
    CHECK(listed == 5);
    Config cfg = serving("llama-3-8b", Engine::Hf, "bf16", "a100-80gb", 4096);
    auto r = solve(cfg, "max_batch_size");
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "question");
    cfg.gpu_id.clear();
    r = solve(cfg, "max_context");
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "gpu");
    cfg.gpu_id = "a100-80gb";
    cfg.inference.context = 0;
    r = solve(cfg, "max_concurrency");
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "inference.context");
}

TEST_CASE("solve_json: the browser's answer document") {
    const std::string ok = io::solve_json(
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"gpu":"a100-40gb","inference":{"context":8192}})",
        "max_concurrency");
    auto j = nlohmann::json::parse(ok);
    CHECK(j["ok"] == true);
    CHECK(j["question"] == "max_concurrency");
    CHECK(j["unit"] == "sequences");
    CHECK(j["value"].get<double>() >= 1);
    auto bad = nlohmann::json::parse(io::solve_json(R"({"task":"inference","method":"detailed","inference":{"context":-1}})", "max_context"));
    CHECK(bad["ok"] == false);
    CHECK(bad["error"]["field"] == "inference.context");
    auto list = nlohmann::json::parse(io::questions_json());
    CHECK(list.size() == solve_questions().size());
}
