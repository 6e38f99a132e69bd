// Inference "what fits" solvers: worked examples a user can redo with the KV block arithmetic,
// and the defining property of each answer (it fits, one more does not) over many shapes.
#include <catch.hpp>

#include <algorithm>
#include <string>

#include "core/estimate.hpp"
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

// A Q4_K_M llama.cpp config under the Ollama profile (num_gpu unset) at `context` tokens.
Config ollama_q4(const char* preset, const char* gpu, int context) {
    Config cfg = serving(preset, Engine::LlamaCpp, "q4_k_m", gpu, context);
    cfg.inference.llamacpp.ollama = true;
    return cfg;
}

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
            // llama.cpp runs at most LLAMA_MAX_SEQ (256) sequences whatever memory holds: 128-token
            // sequences of these 7-8B models stop there (257 would fit the card).
            if (k.engine == Engine::LlamaCpp && c == 128) CHECK(n == 256);
            if (k.engine != Engine::LlamaCpp || n < p.in.constants.llamacpp_max_seq) CHECK_FALSE(fits_at(p, c, n + 1, share));
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
    // TQ1_0 / TQ2_0 pack ternary weights (BitNet b1.58, TriLMs): not offered for Llama-3.1-8B ...
    for (const char* id : {"tq1_0", "tq2_0"}) {
        CHECK(std::find(g.items.begin(), g.items.end(), id) == g.items.end());
        CHECK(ternary_only(*find_weight_format(id)));
    }
    CHECK_FALSE(ternary_only(*find_weight_format("iq1_s")));
    // ... nor as the best GGUF for GPU + RAM; Llama-2-7B at 32,768 tokens on the 4090 (16 GiB of KV)
    // fitted only as TQ1_0 before: now no format fits.
    const Answer best7 = ask(serving("llama-2-7b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 32768), "best_format");
    CHECK(best7.items.empty());
    const Answer local = ask(serving("llama-2-7b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 32768), "best_local_format");
    for (const auto& item : local.items) CHECK(item.rfind("tq", 0) != 0);
    // A model already in a ternary type (a BitNet GGUF) keeps them on its list.
    const Answer tern = ask(serving("llama-2-7b", Engine::LlamaCpp, "tq2_0", "rtx-4090-24gb", 32768), "best_format");
    REQUIRE(tern.items.size() == 1);
    CHECK(tern.items.front() == "tq1_0");
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

TEST_CASE("System RAM nobody checked: llama.cpp's answers are the GPU part's and say so (DeepSeek-V3 Q6_K on an RTX 4090)") {
    // -c 4096, -ngl unset (--fit), no inference.host.ram_gib: --fit keeps the routed experts of the 58
    // MoE layers in system RAM (test_llamacpp.cpp: 537,193,290,752 B). Every answer follows the GPU
    // table's rule (verdict_at): its value is bounded by the GPU part alone and it carries the RAM
    // its layout needs, which nothing checked. The RAM at a context of c cells (padded to 256) by hand:
    // token_embd 760,166,400 B + the experts 536,409,538,560 B + the CPU compute buffer (c + 7,168
    // hidden) x 512 x 4 B + the logits 129,280 x 4 B per sequence.
    Config cfg = serving("deepseek-v3", Engine::LlamaCpp, "q6_k", "rtx-4090-24gb", 4096);
    const double weights = 760166400.0 + 536409538560.0;
    auto ram = [&](double cells, double seqs) { return weights + (cells + 7168) * 512 * 4.0 + 129280 * 4.0 * seqs; };
    CHECK(ram(4096, 1) == 537193290752.0);
    const std::string unchecked = "bounded by the GPU part alone: needs ";

    // The split --fit chose at 4,096 tokens, stated (-ngl 62 --cpu-moe: held at every shape): the
    // longest context is 25,600 tokens (100 x 256), filling the GPU part to the 75% target; the RAM
    // there 537,237,330,944 B (537.24 GB). (27,136 before llama-quantize's attn_k_b fallback to Q8_0 put
    // 123,928,576 B more on the GPU: 1,764 tokens of MLA cache at 61 x 576 x 2 = 70,272 B a token.)
    Config pinned = cfg;
    pinned.inference.llamacpp.n_gpu_layers = 62;
    pinned.inference.llamacpp.n_cpu_moe = 61;
    const Answer ctx = ask(pinned, "max_context");
    CHECK(ctx.value == 25600);
    CHECK(ctx.needs_ram_bytes == Approx(ram(25600, 1)).epsilon(1e-12));
    CHECK(ctx.needs_ram_bytes == Approx(537237330944.0).epsilon(1e-12));
    CHECK(ctx.explanation.find(unchecked + "537.24 GB (500.34 GiB) of system RAM at that context, not checked") != std::string::npos);
    // The most sequences of 4,096 tokens: 6, one cache of 6 x 4,096 cells and 6 rows of logits.
    const Answer seqs = ask(pinned, "max_concurrency");
    CHECK(seqs.value == 6);
    CHECK(seqs.needs_ram_bytes == Approx(ram(6 * 4096, 6)).epsilon(1e-12));
    // -ngl unset, --fit places the model again at each context: at the model's window, 163,840 tokens,
    // it keeps the output layer and 50 of the 61 layers on the GPU (94.5% of the card) with every
    // routed expert in RAM; RAM then holds 542.91 GB, the estimate's figure at that context.
    const Answer fit = ask(cfg, "max_context");
    CHECK(fit.value == 163840);
    Config window = cfg;
    window.inference.context = 163840;
    const auto we = estimate(window);
    REQUIRE(we.ok);
    CHECK(we.value.metric("auto_gpu_layers")->value == 51);
    CHECK(fit.needs_ram_bytes == we.value.metric("host_total_bytes")->value);
    CHECK(fit.explanation.find("puts 51 of 62 layers (the output layer and 50 repeating layers) on the GPU with the routed experts of 58 of 58 MoE layers "
                               "in system RAM there, 94.5% of its memory") != std::string::npos);
    // The KV capacity: the estimate's own split and its RAM, the GPU table's needs_ram_bytes.
    const Answer kv = ask(cfg, "kv_capacity");
    CHECK(kv.value == 26578);  // 28,342 - 1,764: the fallback's 123,928,576 B / 70,272 B a token
    CHECK(kv.needs_ram_bytes == Approx(537193290752.0).epsilon(1e-12));
    // The fewest GPUs: as the table counts, a split that keeps experts in RAM nobody checked is not
    // a fit; 61 cards hold one layer each (the GPU part fits one card with the RAM).
    const Answer gpus = ask(cfg, "min_gpus");
    CHECK(gpus.value == 61);
    CHECK(gpus.needs_ram_bytes == 0);
    CHECK(gpus.explanation.find("the GPU part alone fits on 1 with system RAM nobody checked") != std::string::npos);
    // The best weight format that fits: none without the RAM; Q6_K's GPU part (and four more) with it.
    const Answer fmt = ask(cfg, "best_format");
    CHECK(fmt.value == 0);
    CHECK(fmt.items.empty());
    CHECK(fmt.explanation.find("the GPU part of 5 formats fits with system RAM nobody checked (the best, GGUF Q6_K, needs 537.19 GB (500.30 GiB)") !=
          std::string::npos);
    // The experts answer keeps every routed expert in RAM too.
    const Answer experts = ask(cfg, "max_gpu_experts");
    CHECK(experts.needs_ram_bytes == Approx(537193290752.0).epsilon(1e-12));
    // JSON: the field only where it applies.
    CHECK(io::answer_to_json(ctx)["needs_ram_bytes"] == ctx.needs_ram_bytes);

    // The RAM given (1,024 GiB: 768 GiB within the target holds it): the same values, checked, and
    // nothing said about unchecked RAM; the formats fit again.
    cfg.inference.host.ram_bytes = gib_to_bytes(1024);
    pinned.inference.host.ram_bytes = gib_to_bytes(1024);
    const Answer checked = ask(pinned, "max_context");
    CHECK(checked.value == 25600);
    CHECK(ask(cfg, "max_context").value == 163840);  // --fit's split at the window holds its 505.63 GiB too
    CHECK(checked.needs_ram_bytes == 0);
    CHECK(checked.explanation.find("not checked") == std::string::npos);
    CHECK_FALSE(io::answer_to_json(checked).contains("needs_ram_bytes"));
    CHECK(ask(cfg, "min_gpus").value == 1);
    CHECK(ask(cfg, "best_format").items.size() == 5);
}

TEST_CASE("System RAM nobody checked under Ollama: Llama-3.1-70B Q4_K_M on one RTX 4090 at 32,768 tokens") {
    // Ollama's --fit split keeps 45 of 80 layers in RAM (test_llamacpp.cpp: 30.66 GB) and fills the
    // card to 94.7%, above the 75% target: no KV capacity is left within it (no RAM said then); the
    // most layers within the target is -ngl 27 (the output layer and 26 layers), its other 54 layers,
    // token_embd and their KV in RAM: the answer says what the estimate of that split says (host_total_bytes).
    const Config cfg = ollama_q4("llama-3.1-70b", "rtx-4090-24gb", 32768);
    const Answer kv = ask(cfg, "kv_capacity");
    CHECK(kv.value == 0);
    CHECK(kv.needs_ram_bytes == 0);
    const Answer layers = ask(cfg, "max_gpu_layers");
    CHECK(layers.value == 27);
    Config at27 = cfg;
    at27.inference.llamacpp.n_gpu_layers = 27;
    auto e = estimate(at27);
    REQUIRE(e.ok);
    CHECK(layers.needs_ram_bytes == e.value.metric("host_total_bytes")->value);
    for (const auto& f : e.value.fits)
        if (f.gpu_id == "rtx-4090-24gb") CHECK(layers.needs_ram_bytes == f.needs_ram_bytes);
    // -ngl 27 is the output layer and layers 54-79 (llama.cpp PR #18148; ngl's output_first): 35.54 GB in RAM,
    // 35.78 GB under the old rule (layers 53-79, the output layer in RAM).
    CHECK(layers.explanation.find("bounded by the GPU part alone: needs 35.54 GB (33.10 GiB) of system RAM for the rest") != std::string::npos);
    // Four cards hold every layer within the target: no RAM.
    const Answer gpus = ask(cfg, "min_gpus");
    CHECK(gpus.value == 4);
    CHECK(gpus.needs_ram_bytes == 0);
}

TEST_CASE("Automatic placement: Ollama places Llama-3.1-70B Q4_K_M on one RTX 4090 again at each context and count the answers try") {
    // num_gpu unset: llama-server's --fit chooses the layers for the context it is started with, so
    // max_context and max_concurrency place them again at each shape they try (place_at_shape) and
    // stop where Ollama keeps no layer on the GPU or, with a RAM size, where the host buffers fill it.
    // The config's own context does not matter to max_context: 8,192 and 32,768 answer alike. By hand
    // (the CLI's devices table, MiB): --fit's room is 24,564 - 465.45 (CUDA context) - 1,024 = 23,074.55
    // MiB. The KV is F16: 8 KV heads x 128 x 2 (K, V) x 2 B = 4,096 B per token and layer.
    auto at = [](int context, int n, double ram_gib) {
        Config c = serving("llama-3.1-70b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", context, n);
        c.inference.llamacpp.ollama = true;
        c.inference.host.ram_bytes = gib_to_bytes(ram_gib);
        return c;
    };
    auto shape = [&](int context, int n, double ram_gib) {
        auto e = estimate(at(context, n, ram_gib));
        REQUIRE(e.ok);
        return e.value;
    };
    const double ram_target = 0.75 * gib_to_bytes(64);  // 51,539,607,552 B
    for (int config_context : {8192, 32768}) {
        INFO("config context " << config_context);
        // No RAM size: the model's window, 131,072 tokens. Ollama puts the output layer and 21 layers
        // there (21 x (460.06 or 518.88 MiB + 512 MiB of KV)), 23,241.06 MiB with the context, 94.6% of
        // the card; the other 59 layers, token_embd and their KV in RAM: 62.80 GB, the estimate's
        // host_total_bytes and the GPU table's needs_ram_bytes at that context (nothing checks it).
        const Answer ctx = ask(at(config_context, 1, 0), "max_context");
        CHECK(ctx.value == 131072);
        const Estimate window = shape(131072, 1, 0);
        CHECK(window.metric("auto_gpu_layers")->value == 22);
        CHECK(ctx.needs_ram_bytes == window.metric("host_total_bytes")->value);
        for (const auto& f : window.fits)
            if (f.gpu_id == "rtx-4090-24gb") CHECK(ctx.needs_ram_bytes == f.needs_ram_bytes);
        CHECK(ctx.explanation.find("131,072 tokens: the model's context window; 1 sequence on NVIDIA GeForce RTX 4090 24GB: Ollama's automatic num_gpu, "
                                   "placed again at each context, puts 22 of 81 layers (the output layer and 21 repeating layers) on the GPU there, "
                                   "94.6% of its memory (--fit leaves 1.00 GiB free per GPU, past the 75% target); bounded by the GPU part alone: "
                                   "needs 62.80 GB (58.49 GiB) of system RAM at that context") == 0);
        // 64 GiB of RAM (48 GiB within the 75% target): 96,000 tokens (375 x 256 cells). Ollama puts
        // the output layer and layers 56-79 there, 22,359.86 MiB without the context (-ngl 26 adds
        // layer 55, 460.06 MiB, and its 375 MiB of KV: 23,194.92, past 23,074.55); RAM holds
        // token_embd and layers 0-55 (29,147,748,761.6 B), their KV 56 x 96,000 x 4,096 =
        // 22,020,096,000 B, the CPU compute buffer 362,020,864 B and the logits 513,024 B:
        // 51,530,378,649.6 B, within 51,539,607,552. One more token pads to 96,256 cells: 58,720,256 B
        // more KV and 786,432 B more compute, 51,589,885,337.6 B: RAM binds.
        const Answer ram = ask(at(config_context, 1, 64), "max_context");
        CHECK(ram.value == 96000);
        CHECK(ram.needs_ram_bytes == 0);
        const Estimate last = shape(96000, 1, 64), over = shape(96001, 1, 64);
        CHECK(last.metric("auto_gpu_layers")->value == 25);
        CHECK(last.devices[1].kv == 56.0 * 96000 * 4096);
        CHECK(last.metric("host_total_bytes")->value == Approx(51530378649.6).epsilon(1e-12));
        CHECK(last.metric("host_total_bytes")->value <= ram_target);
        CHECK(over.metric("auto_gpu_layers")->value == 25);
        CHECK(over.metric("host_total_bytes")->value == Approx(51589885337.6).epsilon(1e-12));
        CHECK(over.metric("host_total_bytes")->value > ram_target);
        CHECK(ram.explanation.find("puts 25 of 81 layers (the output layer and 24 repeating layers) on the GPU there") != std::string::npos);
        CHECK(ram.explanation.find("; system RAM binds: 64.00 GiB at 75% holds the host buffers") != std::string::npos);
    }
    // The most sequences, each placed again: 64 GiB holds 11 of 8,192 tokens (the output layer and 25
    // layers; RAM: 55 x 90,112 x 4,096 = 20,300,431,360 B of KV, 49,315,345,408 B in all) but not 12
    // (25 layers, 52,071,582,105.6 B); 2 of 32,768 (29 layers, 41,384,540,979.2 B), not 3
    // (52,066,964,889.6 B).
    CHECK(ask(at(8192, 1, 64), "max_concurrency").value == 11);
    CHECK(shape(8192, 11, 64).metric("host_total_bytes")->value == Approx(49315345408.0).epsilon(1e-12));
    CHECK(shape(8192, 11, 64).devices[1].kv == 55.0 * 90112 * 4096);
    CHECK(shape(8192, 12, 64).metric("host_total_bytes")->value > ram_target);
    CHECK(ask(at(32768, 1, 64), "max_concurrency").value == 2);
    CHECK(shape(32768, 2, 64).metric("host_total_bytes")->value <= ram_target);
    CHECK(shape(32768, 3, 64).metric("host_total_bytes")->value > ram_target);
    // Without a RAM size the engine's own limits bound it, and the answer carries the RAM it needs:
    // llama.cpp runs at most 256 sequences (LLAMA_MAX_SEQ), where Ollama keeps the output layer and one
    // layer on the GPU; 256 x 8,192 = 2,097,152 cells of KV, 79 layers of them in RAM: 79 x 2,097,152
    // x 4,096 B = 678,604,832,768 B of the 726.35 GB it needs there.
    const Answer seqs = ask(at(8192, 1, 0), "max_concurrency");
    CHECK(seqs.value == 256);
    const Estimate at256 = shape(8192, 256, 0);
    CHECK(at256.metric("auto_gpu_layers")->value == 2);
    CHECK(at256.devices[1].kv == 79.0 * 256 * 8192 * 4096);
    CHECK(seqs.needs_ram_bytes == at256.metric("host_total_bytes")->value);
    CHECK(seqs.explanation.find("puts 2 of 81 layers (the output layer and 1 repeating layer) on the GPU there") != std::string::npos);
    CHECK(seqs.explanation.find("; llama.cpp runs at most 256 sequences (LLAMA_MAX_SEQ: inference.constants.llamacpp_max_seq); bounded by the GPU part "
                                "alone: needs 726.35 GB (676.47 GiB) of system RAM at that count") != std::string::npos);
    // The cap is a constant: raised past what the GPU holds, the GPU stops it as before session 22,
    // at 913 sequences (the output layer alone on the GPU; its compute buffer's masks grow with the
    // 7.5 M cells), 914 keep none.
    Config raised = at(8192, 1, 0);
    raised.inference.constants.llamacpp_max_seq = 4096;
    const Answer gpu_bound = ask(raised, "max_concurrency");
    CHECK(gpu_bound.value == 913);
    // (The estimate at 913 sequences needs the raised constant too: at 256 it is refused, as llama.cpp refuses -np 913.)
    auto raised_shape = [&](int n) {
        Config c = at(8192, n, 0);
        c.inference.constants.llamacpp_max_seq = 4096;
        auto e = estimate(c);
        REQUIRE(e.ok);
        return e.value;
    };
    CHECK_FALSE(estimate(at(8192, 913, 0)).ok);
    CHECK(raised_shape(913).metric("auto_gpu_layers")->value == 1);
    CHECK(raised_shape(914).metric("auto_gpu_layers")->value == 0);
    CHECK(gpu_bound.explanation.find("; one more sequence leaves no layer on the GPU") != std::string::npos);
    // 32,768-token sequences: the GPU stops first, at 228 (2.51 TB of RAM, said).
    const Answer long_seqs = ask(at(32768, 1, 0), "max_concurrency");
    CHECK(long_seqs.value == 228);
    CHECK(long_seqs.explanation.find("needs 2512.92 GB (2340.34 GiB) of system RAM at that count, not checked") != std::string::npos);
    // A stated num_gpu (-ngl) is the user's split: held at every shape, within the target as before
    // (36 layers at 8,192 tokens leave no room at 75%).
    Config stated = at(8192, 1, 64);
    stated.inference.llamacpp.n_gpu_layers = 36;
    CHECK(ask(stated, "max_context").value == 0);
}

TEST_CASE("Automatic placement on a 64 GB Mac: Ollama's Llama-3.1-70B Q4_K_M is bounded by the unified memory, and the text says so") {
    // A Mac's RAM is its GPU's memory: every buffer, the GPU's and the host's, sits in the 64 GiB,
    // held within 75% = 48 GiB = 51,539,607,552 B (Metal's working-set limit is also 3/4 of 64 GiB).
    // At 26,112 tokens Ollama puts the output layer and 78 layers on the GPU: KV 78 x 26,112 x 4,096 =
    // 8,342,470,656 B there and 2 x 26,112 x 4,096 = 213,909,504 B on the CPU, all buffers
    // 51,496,195,072 B. One more token pads to 26,368 cells: 78 x 26,368 x 4,096 = 8,424,259,584 B of
    // GPU KV, 51,580,867,584 B in all, past 48 GiB.
    const Config cfg = ollama_q4("llama-3.1-70b", "apple-m4-max-64gb", 8192);
    auto at = [&](int context) {
        auto e = estimate(ollama_q4("llama-3.1-70b", "apple-m4-max-64gb", context));
        REQUIRE(e.ok);
        return e.value;
    };
    const Answer ctx = ask(cfg, "max_context");
    CHECK(ctx.value == 26112);
    CHECK(ctx.needs_ram_bytes == 0);
    const Estimate last = at(26112), over = at(26113);
    CHECK(last.devices[0].kv == 78.0 * 26112 * 4096);
    CHECK(last.devices[1].kv == 2.0 * 26112 * 4096);
    CHECK(last.metric("host_total_bytes")->value == 51496195072.0);  // "Unified memory in use"
    CHECK(over.devices[0].kv == 78.0 * 26368 * 4096);
    CHECK(over.metric("host_total_bytes")->value == 51580867584.0);
    CHECK(last.metric("host_total_bytes")->value <= 0.75 * gib_to_bytes(64));
    CHECK(over.metric("host_total_bytes")->value > 0.75 * gib_to_bytes(64));
    // What binds is the unified memory, named as such (not "system RAM ... the layers left on the CPU").
    CHECK(ctx.explanation.find("; the unified memory binds: 64.00 GiB at 75% holds every buffer (the GPU's, within its 48.00 GiB working-set limit, "
                               "and the host's: the layers left on the CPU and their KV)") != std::string::npos);
    CHECK(ctx.explanation.find("system RAM binds") == std::string::npos);
    CHECK(ask(cfg, "max_concurrency").value == 3);
}
