// "Which models and formats fit my GPU?" (core/fit_models.hpp): every row is estimate()'s figure for
// that preset and format, the verdict is the headline's, and the order is larger models first, then
// higher precision.
#include <catch.hpp>

#include <string>

#include "core/estimate.hpp"
#include "core/fit_models.hpp"
#include "core/gpu_choice.hpp"
#include "core/model/presets.hpp"
#include "core/units.hpp"
#include "inference_helpers.hpp"

using namespace vc;
using vc::test::serving;

namespace {

const ModelFit* row_of(const ModelFits& list, const std::string& model, const std::string& format) {
    for (const auto& r : list.rows)
        if (r.model == model && r.format == format) return &r;
    return nullptr;
}

ModelFits fits_of(const Config& cfg) {
    auto r = fit_models(cfg);
    INFO(r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

}  // namespace

TEST_CASE("models that fit a 24 GB card: the 8B at BF16 (16.06 GB of weights) against the 75% budget", "[fit_models]") {
    // transformers serving one 4,096-token sequence on an RTX 4090 (24,564 MiB = 25.76 GB).
    const Config cfg = serving("llama-3.1-8b", Engine::Hf, "bf16", "rtx-4090-24gb", 4096);
    const ModelFits list = fits_of(cfg);
    // The budget: 75% of 24,564 MiB = 19.32 GB.
    CHECK(list.budget_bytes == Approx(0.75 * 24564 * 1048576.0));
    CHECK(list.gpu_id == "rtx-4090-24gb");
    // 31 presets x 3 transformers formats (BF16, bitsandbytes INT8 and NF4).
    CHECK(list.rows.size() == model_presets().size() * 3);

    const ModelFit* bf16 = row_of(list, "llama-3.1-8b", "bf16");
    REQUIRE(bf16);
    // The same config through estimate(): the row is its total and its verdict.
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(e.value.component("weights")->bytes == Approx(16.06e9).epsilon(0.001));  // 8.03e9 parameters x 2 B
    CHECK(bf16->total_bytes == e.value.total_bytes);
    CHECK(bf16->share == Approx(bf16->total_bytes / list.budget_bytes).epsilon(1e-9));
    CHECK(bf16->fits == (bf16->total_bytes <= list.budget_bytes));
    for (const auto& g : e.value.fits)
        if (g.gpu_id == "rtx-4090-24gb") CHECK(bf16->fits == g.within_target);
    // 70B at BF16 (141 GB of weights) never fits one 24 GB card; its NF4 (~39 GB) neither.
    CHECK_FALSE(row_of(list, "llama-3.1-70b", "bf16")->fits);
    CHECK_FALSE(row_of(list, "llama-3.1-70b", "bnb-nf4")->fits);

    // Ranking: parameters descending, a model's formats by quality (BF16 before INT8 before NF4).
    for (size_t i = 1; i < list.rows.size(); ++i) {
        const ModelFit &p = list.rows[i - 1], &q = list.rows[i];
        CHECK(p.params >= q.params);
        if (p.model == q.model) CHECK(p.quality < q.quality);
    }
    int fitting = 0;
    for (const auto& r : list.rows) fitting += r.fits ? 1 : 0;
    CHECK(fitting == list.fitting);

    // A smaller target shrinks the budget: at 50% (12.88 GB) the 8B at BF16 no longer fits, at INT8 it does.
    Config half = cfg;
    half.target_utilization = 0.5;
    const ModelFits h = fits_of(half);
    CHECK(h.budget_bytes == Approx(0.5 * 24564 * 1048576.0));
    CHECK_FALSE(row_of(h, "llama-3.1-8b", "bf16")->fits);
    CHECK(row_of(h, "llama-3.1-8b", "bnb-int8")->fits);
    CHECK(h.fitting < list.fitting);
}

TEST_CASE("models that fit: GGUF types for llama.cpp, the task's formats, and what a click loads", "[fit_models]") {
    Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 4096);
    const ModelFits list = fits_of(cfg);
    // Every preset in the seven GGUF types, but gpt-oss-20b and -120b in their one published file
    // type (MXFP4_MOE).
    CHECK(list.rows.size() == (model_presets().size() - 2) * 7 + 2);
    const ModelFit* q4 = row_of(list, "llama-3.1-70b", "q4_k_m");
    REQUIRE(q4);
    CHECK_FALSE(q4->fits);  // ~42.5 GB of Q4_K_M weights on a 25.76 GB card
    // The best-ranked row that fits is a model at least as large as any other that fits.
    const ModelFit* best = nullptr;
    for (const auto& r : list.rows)
        if (r.fits && !best) best = &r;
    REQUIRE(best);
    for (const auto& r : list.rows)
        if (r.fits) CHECK(r.params <= best->params);

    // What a click loads: the preset and the format, the rest of the config kept.
    Config loaded = cfg;
    Error err;
    REQUIRE(apply_model_format(loaded, best->model, best->format, err));
    CHECK(loaded.model.id == best->model);
    CHECK(loaded.inference.weights.format == best->format);
    CHECK(loaded.inference.context == 4096);
    auto e = estimate(loaded);
    REQUIRE(e.ok);
    CHECK(e.value.total_bytes == best->total_bytes);
    CHECK_FALSE(apply_model_format(loaded, "no-such-model", "q4_k_m", err));
    CHECK(err.field == "model");
    CHECK_FALSE(apply_model_format(loaded, "llama-3.1-8b", "fp8", err));  // not a llama.cpp format
    CHECK(err.field == "format");

    // Fine-tuning tries full, LoRA and QLoRA; training two precisions.
    Config ft = cfg;
    ft.task = Task::FineTune;
    CHECK(fit_formats(ft).size() == 3);
    CHECK(fit_formats(ft)[2].id == "qlora");
    const ModelFits f = fits_of(ft);
    CHECK(row_of(f, "llama-3.1-8b", "qlora")->total_bytes < row_of(f, "llama-3.1-8b", "full")->total_bytes);
    Config tr = cfg;
    tr.task = Task::Training;
    CHECK(fit_formats(tr).size() == 2);

    // vLLM reserves gpu_memory_utilization (90%) of the H100 whole: a row's share is what its load
    // takes of that reservation (the total less the pool's blocks the one sequence does not use).
    const Config v = serving("llama-3.1-8b", Engine::Vllm, "bf16", "h100-80gb", 4096);
    const ModelFits vl = fits_of(v);
    CHECK(vl.budget_bytes == Approx(0.9 * 81559 * 1048576.0));
    const ModelFit* v8 = row_of(vl, "llama-3.1-8b", "bf16");
    auto ve = estimate(v);
    REQUIRE(ve.ok);
    CHECK(v8->total_bytes == ve.value.total_bytes);
    CHECK(v8->load_bytes == Approx(ve.value.total_bytes - ve.value.component("kv_cache")->bytes + 131072.0 * 4096));  // 128 KiB per token
    CHECK(v8->share == Approx(v8->load_bytes / vl.budget_bytes));
    CHECK(v8->fits);
    CHECK(v8->share < 0.3);

    // llama.cpp with 64 GiB of system RAM: a model the GPU alone cannot hold runs with its layers
    // split (-ngl, the rest in RAM); Load sets that -ngl, and the headline then says it fits.
    Config ram = cfg;
    ram.inference.host.ram_bytes = gib_to_bytes(64);
    const ModelFits rl = fits_of(ram);
    const ModelFit* big = row_of(rl, "llama-3.1-70b", "q4_k_m");
    REQUIRE(big);
    CHECK(big->partial);
    CHECK(big->fits);
    CHECK(big->gpu_layers > 0);
    CHECK(big->gpu_layers < 81);  // of 80 layers + the output layer
    CHECK(big->total_bytes <= rl.budget_bytes);
    Config split = ram;
    REQUIRE(apply_model_fit(split, *big, err));
    CHECK(split.inference.llamacpp.n_gpu_layers == big->gpu_layers);
    auto se = estimate(split);
    REQUIRE(se.ok);
    CHECK(se.value.total_bytes == big->total_bytes);
    // The 8B fits whole: no split.
    CHECK_FALSE(row_of(rl, "llama-3.1-8b", "q4_k_m")->partial);
    // 405B at BF16 (810 GB) does not fit 64 GiB of RAM at any split.
    CHECK_FALSE(row_of(rl, "llama-3.1-405b", "gguf-bf16")->fits);
    CHECK(rl.fitting > list.fitting);

    // No GPU: the list says which field to set.
    Config none = cfg;
    none.gpu_id.clear();
    auto r = fit_models(none);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "gpu");
}

TEST_CASE("models that fit with llama-server's --fit: weights in system RAM of no stated size are not counted as fitting", "[fit_models]") {
    // An RTX 4090, llama.cpp, one 4,096-token sequence, -ngl unset (--fit on), no inference.host.ram_gib.
    const Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 4096);
    const ModelFits list = fits_of(cfg);
    // DeepSeek-V3 Q6_K: --fit keeps the 61 layers and the output layer on the GPU (17.74 GB, 91.8% of
    // the 19.32 GB budget) and the routed experts of the 58 MoE layers in system RAM. The RAM it
    // needs, by hand: token_embd 129,280 x 7,168 x 210/256 B = 760,166,400 B, the experts 58 x 256 x
    // 3 x 2,048 x 7,168 x 210/256 B = 536,409,538,560 B, the CPU compute buffer (4,096 + 7,168) x 512
    // x 4 B = 23,068,672 B and the logits 129,280 x 4 B = 517,120 B: 537,193,290,752 B = 537.19 GB.
    const ModelFit* ds = row_of(list, "deepseek-v3", "q6_k");
    REQUIRE(ds);
    CHECK(ds->total_bytes <= list.budget_bytes);  // the GPU part alone would fit
    CHECK(ds->needs_ram);
    CHECK_FALSE(ds->fits);
    CHECK(ds->ram_bytes == Approx(129280.0 * 7168 * 210 / 256 + 58 * 256 * 3 * 2048.0 * 7168 * 210 / 256 + (4096 + 7168) * 512 * 4.0 + 129280 * 4.0).epsilon(1e-12));
    CHECK(ds->ram_bytes / 1e9 == Approx(537.19).margin(0.005));
    // The headline's verdict for the same config is the row's (one rule: GpuFit::needs_ram_bytes).
    Config one = cfg;
    Error err;
    REQUIRE(apply_model_format(one, "deepseek-v3", "q6_k", err));
    auto e = estimate(one);
    REQUIRE(e.ok);
    CHECK(ds->ram_bytes == e.value.metric("host_total_bytes")->value);
    for (const auto& g : e.value.fits) {
        if (g.gpu_id != "rtx-4090-24gb") continue;
        CHECK(g.needs_ram_bytes == ds->ram_bytes);
        CHECK(g.gpu_within_target);
        CHECK_FALSE(g.within_target);
    }
    // The 8B keeps only token_embd (295.5 MB of Q4_K) in RAM, as llama.cpp always does, and fits.
    const ModelFit* small = row_of(list, "llama-3.1-8b", "q4_k_m");
    CHECK(small->fits);
    CHECK_FALSE(small->needs_ram);
    CHECK(small->ram_bytes > 128256.0 * 4096 * 4.5 / 8);  // token_embd, and the CPU compute buffer
    int fitting = 0, needing = 0;
    for (const auto& r : list.rows) fitting += r.fits ? 1 : 0, needing += r.needs_ram ? 1 : 0;
    CHECK(fitting == list.fitting);
    CHECK(needing == list.needing_ram);
    // DeepSeek-V3, -R1 and -V3.2 Q6_K, Kimi-K2 Q8_0, Q6_K, Q5_K_M and Q3_K_M, Llama-3.1-405B BF16, Llama-4 Maverick Q6_K, Q5_K_M and Q3_K_M
    // (gpt-oss-120b's MXFP4_MOE file, below, fills the card past the budget, so its GPU part is not within it).
    // The 405B BF16: --fit's -ngl 3 is the output layer (4,202,692,608 B) and 2 layers, 18.68 GB (96.7%), since
    // llama.cpp PR #18148 offloads the output layer first (before, 3 layers filled the card to 24.16 GB).
    // MiniMax-M2 BF16 (449.36 GB of routed experts: 62 x 256 x 3 x 3,072 x 1,536 x 2 B): --fit keeps 18.16 GB on the
    // card and the experts of most layers in system RAM, 443.36 GB.
    CHECK(needing == 12);
    CHECK(row_of(list, "deepseek-v3.2", "q6_k")->needs_ram);
    CHECK(row_of(list, "minimax-m2", "gguf-bf16")->needs_ram);
    CHECK(row_of(list, "llama-3.1-405b", "gguf-bf16")->needs_ram);
    for (const char* q : {"q6_k", "q5_k_m", "q3_k_m"}) CHECK(row_of(list, "llama-4-maverick", q)->needs_ram);
    CHECK(row_of(list, "deepseek-r1", "q6_k")->needs_ram);
    for (const char* q : {"q8_0", "q6_k", "q5_k_m", "q3_k_m"}) CHECK(row_of(list, "kimi-k2", q)->needs_ram);

    // With the RAM given the estimate checks the buffers against it (within the 75% target): 1,024 GiB
    // (768 GiB usable) holds the 500.30 GiB, 512 GiB (384 GiB) does not.
    Config ram = cfg;
    ram.inference.host.ram_bytes = gib_to_bytes(1024);
    const ModelFit* big = row_of(fits_of(ram), "deepseek-v3", "q6_k");
    CHECK(big->fits);
    CHECK_FALSE(big->needs_ram);
    CHECK(big->ram_bytes == ds->ram_bytes);
    ram.inference.host.ram_bytes = gib_to_bytes(512);
    CHECK_FALSE(row_of(fits_of(ram), "deepseek-v3", "q6_k")->needs_ram);
    CHECK_FALSE(row_of(fits_of(ram), "deepseek-v3", "q6_k")->fits);
    // Other engines have no RAM figure.
    CHECK(row_of(fits_of(serving("llama-3.1-8b", Engine::Hf, "bf16", "rtx-4090-24gb", 4096)), "llama-3.1-8b", "bf16")->ram_bytes == 0);
}

TEST_CASE("models that fit under llama.cpp: gpt-oss in its published MXFP4_MOE file, its rows by hand", "[fit_models]") {
    // ggml-org publishes gpt-oss as one MXFP4_MOE GGUF (gpt-oss-20b-mxfp4.gguf, 12.1 GB); the K-quant
    // files others publish keep the experts in MXFP4, so the list offers gpt-oss that file alone.
    const Config cfg = serving("llama-3.1-8b", Engine::LlamaCpp, "q4_k_m", "rtx-4090-24gb", 4096);
    const auto oss = fit_formats(cfg, "gpt-oss-20b");
    REQUIRE(oss.size() == 1);
    CHECK(oss[0].id == "mxfp4");
    CHECK(oss[0].label == "GGUF MXFP4_MOE");
    CHECK(fit_formats(cfg, "llama-3.1-8b").size() == 7);
    CHECK(fit_formats(cfg, "gpt-oss-120b").size() == 1);
    Config c = cfg;
    Error err;
    CHECK_FALSE(apply_model_format(c, "gpt-oss-20b", "q4_k_m", err));
    CHECK(err.field == "format");
    CHECK(err.message.find("mxfp4") != std::string::npos);
    // transformers keeps its list; vLLM serves OpenAI's MXFP4 checkpoint (below).
    CHECK(fit_formats(serving("llama-3.1-8b", Engine::Hf, "bf16", "h100-80gb", 4096), "gpt-oss-20b").size() == 3);

    const ModelFits list = fits_of(cfg);
    CHECK(row_of(list, "gpt-oss-20b", "q4_k_m") == nullptr);
    // gpt-oss-20b: the file, by hand: the experts 24 layers x 32 x 3 x 2,880 x 2,880 x 17/32 B (MXFP4)
    // = 10,152,345,600 B; attention 24 x (4,096 + 512 + 512 + 4,096) x 2,880 x 34/32 B (Q8_0) =
    // 676,823,040 B; token_embd and output 2 x 201,088 x 2,880 x 34/32 B = 1,230,658,560 B; the router
    // 24 x 32 x 2,880 x 4 B (F32) = 8,847,360 B; the 1-D tensors (biases, norms, sinks) in F32: the
    // preset's 20,914,955,968 parameters less those matrices' 20,907,786,240 = 7,169,728 x 4 B =
    // 28,678,912 B. Together 12,097,353,472 B = 12.10 GB, ggml-org's file size.
    const double experts = 24 * 32 * 3 * 2880.0 * 2880 * 17 / 32, attention = 24 * (4096 + 512 + 512 + 4096) * 2880.0 * 34 / 32;
    const double embd = 201088.0 * 2880 * 34 / 32, router = 24 * 32 * 2880 * 4.0;
    const double matrices = 24 * 32 * 3 * 2880.0 * 2880 + 24 * (4096 + 512 + 512 + 4096) * 2880.0 + 2 * 201088.0 * 2880 + 24 * 32 * 2880.0;
    CHECK(matrices == 20907786240.0);
    const double file = experts + attention + 2 * embd + router + (20914955968.0 - matrices) * 4;
    CHECK(file == 12097353472.0);
    // On the GPU: the file less token_embd (llama.cpp keeps it in RAM); F16 KV, 12 full layers x 4,096
    // cells + 12 window layers x 768 (the 128-token window + the 512-token ubatch, padded to 256) x 2 x
    // 8 KV heads x 64 x 2 B = 119,537,664 B; the compute buffer, its output phase: 201,088 x 512 x 4 B
    // of logits + 2,880 x 512 x 4 B = 417,726,464 B; the CUDA context 488,062,976 B (465.45 MiB).
    // 12,507,351,296 B = 12.51 GB, 64.7% of the 19.32 GB budget.
    const double kv = (12 * 4096 + 12 * 768) * 2 * 8 * 64 * 2.0, compute = (201088 + 2880) * 512 * 4.0, context = 488062976;
    const ModelFit* r20 = row_of(list, "gpt-oss-20b", "mxfp4");
    REQUIRE(r20);
    CHECK(r20->format_label == "GGUF MXFP4_MOE");
    CHECK(r20->total_bytes == Approx(file - embd + kv + compute + context).epsilon(1e-12));
    CHECK(r20->total_bytes == Approx(12507351296.0).epsilon(1e-12));
    CHECK(r20->share == Approx(12507351296.0 / (0.75 * 24564 * 1048576.0)).epsilon(1e-9));
    CHECK(r20->fits);
    CHECK_FALSE(r20->needs_ram);
    // RAM: token_embd, the CPU compute buffer (4,096 + 2,880) x 512 x 4 B = 14,286,848 B, the logits
    // 201,088 x 4 B = 804,352 B.
    CHECK(r20->ram_bytes == Approx(embd + (4096 + 2880) * 512 * 4.0 + 201088 * 4.0).epsilon(1e-12));
    // gpt-oss-120b: --fit keeps the 36 layers on the GPU and moves the experts of 24 of them to RAM,
    // filling the card to 23.46 GB (121.4% of the budget): not within it, so not a needs-RAM row.
    // Its RAM, by hand: token_embd 615,329,280 B + 24 x 128 x 3 x 2,880 x 2,880 x 17/32 B =
    // 40,609,382,400 B + the CPU buffers 14,286,848 + 804,352 B = 41,239,802,880 B.
    const ModelFit* r120 = row_of(list, "gpt-oss-120b", "mxfp4");
    REQUIRE(r120);
    CHECK_FALSE(r120->fits);
    CHECK_FALSE(r120->needs_ram);
    CHECK(r120->share == Approx(1.214).margin(5e-4));
    CHECK(r120->ram_bytes == Approx(embd + 24 * 128 * 3 * 2880.0 * 2880 * 17 / 32 + 14286848 + 804352).epsilon(1e-12));
    // With 64 GiB of RAM it runs at -ngl 11: the output layer and the last 10 layers (llama.cpp PR
    // #18148, output first), the other 26 layers in RAM, within both budgets (19.06 GB).
    Config ram = cfg;
    ram.inference.host.ram_bytes = gib_to_bytes(64);
    const ModelFit* split = row_of(fits_of(ram), "gpt-oss-120b", "mxfp4");
    CHECK(split->fits);
    CHECK(split->partial);
    CHECK(split->gpu_layers == 11);
}

TEST_CASE("models that fit under vLLM: gpt-oss in OpenAI's MXFP4 checkpoint where vLLM loads it, its row by hand", "[fit_models]") {
    // vLLM loads openai/gpt-oss-20b as published (quant_method "mxfp4": experts MXFP4, the rest BF16)
    // on compute capability 8.0 and up (vllm@007d500 mxfp4.py:186 Mxfp4Config.get_min_capability 80).
    const Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "rtx-4090-24gb", 4096);
    const auto oss = fit_formats(cfg, "gpt-oss-20b");
    REQUIRE(oss.size() == 1);
    CHECK(oss[0].id == "mxfp4");
    CHECK(fit_formats(cfg, "gpt-oss-120b").size() == 1);
    CHECK(fit_formats(cfg, "llama-3.1-8b").size() == 4);  // bf16, fp8, int8, awq-int4
    // A T4 (compute capability 7.5) is below vLLM's minimum: gpt-oss keeps the vLLM ladder there.
    const Config t4 = serving("llama-3.1-8b", Engine::Vllm, "bf16", "t4-16gb", 4096);
    CHECK(fit_formats(t4, "gpt-oss-20b").size() == 4);
    CHECK(fit_formats(t4, "gpt-oss-20b")[0].id == std::string("bf16"));
    CHECK(row_of(fits_of(t4), "gpt-oss-20b", "mxfp4") == nullptr);

    const ModelFits list = fits_of(cfg);
    CHECK(row_of(list, "gpt-oss-20b", "bf16") == nullptr);
    const ModelFit* r20 = row_of(list, "gpt-oss-20b", "mxfp4");
    REQUIRE(r20);
    // The weights on an RTX 4090 (compute capability 8.9: Marlin), by hand: the non-expert matrices
    // 1,795,276,800 and the 1-D tensors 9,381,568 parameters in BF16 (2 B), the experts
    // 19,110,297,600 parameters in MXFP4 (4.25 bits), Marlin's padding 3 x (2,944 x 3,072 - 2,880 x
    // 2,880) x 32 x 24 x 4.25 / 8 = 917,471,232 B, the FP32 RoPE table 131,072 x 64 x 4 B:
    // 3,609,316,736 + 10,152,345,600 + 917,471,232 + 33,554,432 = 14,712,688,000 B.
    const double weights = (1795276800.0 + 9381568) * 2 + 19110297600.0 * 4.25 / 8 + 917471232 + 131072 * 64 * 4.0;
    CHECK(weights == 14712688000.0);
    Config one = cfg;
    Error err;
    REQUIRE(apply_model_format(one, "gpt-oss-20b", "mxfp4", err));
    auto e = estimate(one);
    REQUIRE(e.ok);
    CHECK(e.value.component("weights")->bytes == weights);
    // The row's load: the reservation less the pool's unused blocks (the KV one 4,096-token sequence
    // needs), 75.9% of vLLM's 0.9 x 25.76 GB budget: it fits.
    const double needed = e.value.metric("kv_needed_bytes")->value;
    CHECK(r20->load_bytes == Approx(e.value.total_bytes - e.value.component("kv_cache")->bytes + needed).epsilon(1e-12));
    CHECK(r20->share == Approx(0.759).margin(5e-4));
    CHECK(r20->fits);
    // gpt-oss-120b's 73.57 GB reservation does not fit one 4090.
    CHECK_FALSE(row_of(list, "gpt-oss-120b", "mxfp4")->fits);
}
