// GPU counts mean one thing (docs/methods.md, "GPU counts"): the fewest GPUs of a type at which the
// per-GPU total is within the headroom target; "fits" is the whole card; a Mac is one machine. And
// the figures beside them: llama.cpp's KV capacity within the same target, a Mac's runtime named
// Metal, the planner's node overrides kept to the plan's own GPU type.
#include <catch.hpp>

#include <cmath>
#include <string>

#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/plan/plan.hpp"
#include "core/solve.hpp"
#include "core/units.hpp"
#include "io/config_json.hpp"
#include "config_text.hpp"
#include "io/report.hpp"

using namespace vc;

namespace {

using test::parse;

const GpuFit& row(const Estimate& e, const std::string& id) {
    for (const auto& f : e.fits)
        if (f.gpu_id == id) return f;
    FAIL("no row " << id);
    return e.fits.front();
}

double min_gpus_on(Config c, const std::string& gpu) {
    c.gpu_id = gpu;
    auto a = solve(c, "min_gpus");
    INFO(a.error.message);
    REQUIRE(a.ok);
    return a.value.value;
}

}  // namespace

TEST_CASE("guide training: GPUs needed is the fewest within the target, its per-GPU formula divided over them", "[gpu_counts]") {
    // The guide's worked example: 70e9 parameters, b 1, s 4096, h 8192, L 80, p 2 over 8 GPUs:
    // 162.54 GB per GPU (x 1.15), so the job is 8 x 162.54 = 1300.3 GB. An H100 (80 GiB = 85.90 GB) at
    // 75%: 64.42 GB per GPU, ceil(1300.3 / 64.42) = 21 GPUs; at the whole card (the old count) it read 0.
    Config c = parse(R"({"method":"guide","task":"training","params_b":70,"model":{"layers":80,"hidden":8192,"heads":64},
                         "batch":1,"seq":4096,"gpus":8,"guide":{"bytes":2},"gpu":"h100-80gb"})");
    auto e = estimate(c);
    REQUIRE(e.ok);
    const double job = e.value.buffered_bytes * 8;
    CHECK(bytes_to_gb(job) == Approx(1300.3).epsilon(1e-4));
    const GpuFit& h100 = row(e.value, "h100-80gb");
    CHECK_FALSE(h100.fits);
    CHECK(h100.gpus_needed == 21);
    CHECK(job / 21 <= find_gpu("h100-80gb")->memory_bytes * 0.75);
    CHECK(job / 20 > find_gpu("h100-80gb")->memory_bytes * 0.75);
    // The target is the config's one field: at 100% the whole card, ceil(1300.3 / 85.90) = 16.
    c.target_utilization = 1.0;
    auto whole = estimate(c);
    REQUIRE(whole.ok);
    CHECK(row(whole.value, "h100-80gb").gpus_needed == 16);
}

TEST_CASE("detailed training: each row's GPUs needed is the solver's fewest GPUs of that type, not '1' for a layout that fits", "[gpu_counts]") {
    // Llama-3.1-8B full fine-tuning, ZeRO-3, on 1 GPU: about 130 GB per GPU, more than any single
    // card; ZeRO-3 over more GPUs spreads the states. The estimate's rows and solve min_gpus are one search.
    Config c = parse(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","gpus":1,
                         "batch":1,"seq":2048,"training":{"sharding":"zero3"}})");
    auto e = estimate(c);
    REQUIRE(e.ok);
    int checked = 0;
    for (const auto& f : e.value.fits) {
        const GpuSpec* g = find_gpu(f.gpu_id);
        REQUIRE(g);
        INFO(f.gpu_id);
        CHECK(f.gpus_needed == min_gpus_on(c, f.gpu_id));
        CHECK((!f.within_target || f.gpus_needed >= 1));
        ++checked;
    }
    CHECK(checked == static_cast<int>(gpu_catalog().size()));
    const GpuFit& h100 = row(e.value, "h100-80gb");
    CHECK_FALSE(h100.fits);          // one H100 does not hold it
    CHECK(h100.gpus_needed > 1);     // it used to read 0 ("does not fit at any count")
    // A layout within the target counts no more GPUs than it has: ZeRO-3 over 8 H100s.
    c.gpus = 8;
    auto eight = estimate(c);
    REQUIRE(eight.ok);
    const GpuFit& h8 = row(eight.value, "h100-80gb");
    CHECK(h8.within_target);
    CHECK(h8.gpus_needed == h100.gpus_needed);  // the same fewest count, whatever count the config has
    CHECK(h8.gpus_needed <= 8);
}

TEST_CASE("a Mac is one machine: 1 or none, never '2 x M2 Max', and the row names the Mac that would hold it", "[gpu_counts]") {
    // Llama-3.1-70B Q8_0 (about 75 GB of weights) under llama.cpp at 8,192 tokens: an M2 Max 96GB's
    // working set (72 GiB) x 75% is 54 GiB, too little; split over two "GPUs" it would have read 2.
    Config c = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-70b"},"gpu":"apple-m2-max-96gb",
                         "inference":{"engine":"llama.cpp","weights":"q8_0","context":8192}})");
    auto e = estimate(c);
    REQUIRE(e.ok);
    double smallest = 0;  // the smallest Mac whose row needs 1
    for (const auto& f : e.value.fits) {
        const GpuSpec* g = find_gpu(f.gpu_id);
        if (!g || !g->unified) continue;
        INFO(f.gpu_id);
        CHECK(f.gpus_needed <= 1);
        if (f.gpus_needed == 1 && (smallest == 0 || g->memory_bytes < smallest)) smallest = g->memory_bytes;
    }
    REQUIRE(smallest > 96 * kBytesPerGiB);
    const GpuFit& m2 = row(e.value, "apple-m2-max-96gb");
    CHECK(m2.gpus_needed == 0);
    CHECK_FALSE(m2.within_target);
    CHECK(m2.mac_needed_bytes == smallest);
    // The chosen Mac's own answer agrees: min_gpus is 0 there.
    CHECK(min_gpus_on(c, "apple-m2-max-96gb") == 0);
    // The CLI's row says so in words, with both units.
    const std::string table = io::format_table(e.value, gpu_count_rule(c));
    const std::string want = "one Mac: needs a Mac with >= " + std::to_string(static_cast<int>(std::round(bytes_to_gib(smallest)))) + " GiB";
    CHECK_THAT(table, Catch::Contains(want));
    CHECK_THAT(table, Catch::Contains("a Mac (unified memory) is one machine"));
    // The JSON names it on the Mac rows that need none.
    const std::string json = io::estimate_text(e.value, -1);
    CHECK_THAT(json, Catch::Contains("\"mac_needed_bytes\""));
}

TEST_CASE("the one-machine rule finds each row's GPU by its id, the rows in any order", "[gpu_counts]") {
    // Rows as a caller may list them (not the catalog's order; the rule looks at the catalog's row
    // at the same index first), with a custom unified GPU and an id the catalog does not have.
    Config c = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},
                         "inference":{"engine":"llama.cpp","gpu_custom":{"name":"Mac Studio","memory_gib":256,"unified":true}}})");
    REQUIRE(c.inference.has_custom_gpu);
    auto fit = [](const char* id, int needed) {
        GpuFit f;
        f.gpu_id = id;
        f.gpus_needed = needed;
        f.fits = f.within_target = needed > 0;
        return f;
    };
    Estimate e;
    e.fits = {fit("h100-80gb", 2), fit("custom", 1), fit("apple-m2-max-96gb", 2), fit("apple-m2-ultra-192gb", 1),
              fit("apple-m3-ultra-512gb", 1), fit("apple-m1-16gb", 0), fit("not-a-gpu", 3)};
    apply_one_machine_rule(e, c);
    // The H100 and the unknown id: not Macs, untouched.
    CHECK_FALSE(row(e, "h100-80gb").mac);
    CHECK(row(e, "h100-80gb").gpus_needed == 2);
    CHECK_FALSE(row(e, "not-a-gpu").mac);
    CHECK(row(e, "not-a-gpu").gpus_needed == 3);
    // The custom unified GPU is a Mac that holds it: 1.
    CHECK(row(e, "custom").mac);
    CHECK(row(e, "custom").gpus_needed == 1);
    // "2 x M2 Max 96GB" is one Mac that does not hold it: 0, not within the target, and the Mac that
    // would is the smallest catalog Mac whose row needs 1 and has more memory: the M2 Ultra 192GB,
    // 192 x 2^30 = 206,158,430,208 B (the 512 GB M3 Ultra is larger; the custom 256 GiB is never named).
    const GpuFit& m2 = row(e, "apple-m2-max-96gb");
    CHECK(m2.mac);
    CHECK(m2.gpus_needed == 0);
    CHECK_FALSE(m2.fits);
    CHECK_FALSE(m2.within_target);
    CHECK(m2.mac_needed_bytes == 192 * kBytesPerGiB);
    CHECK(row(e, "apple-m1-16gb").mac_needed_bytes == 192 * kBytesPerGiB);
    CHECK(row(e, "apple-m2-ultra-192gb").gpus_needed == 1);
    CHECK(row(e, "apple-m2-ultra-192gb").mac_needed_bytes == 0);
}

TEST_CASE("a Mac in training: one machine, the solver's fewest GPUs is 1 or 0", "[gpu_counts]") {
    // Llama-3.1-8B full fine-tuning on an M2 Max 96GB: about 130 GB, more than one Mac holds;
    // ZeRO-3 "over 2 Macs" would have read 2.
    Config c = parse(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"apple-m2-max-96gb","gpus":1,
                         "batch":1,"seq":2048,"training":{"sharding":"zero3"}})");
    auto a = solve(c, "min_gpus");
    REQUIRE(a.ok);
    CHECK(a.value.value == 0);
    CHECK_THAT(a.value.explanation, Catch::Contains("a Mac is one machine"));
    auto e = estimate(c);
    REQUIRE(e.ok);
    for (const auto& f : e.value.fits)
        if (const GpuSpec* g = find_gpu(f.gpu_id); g && g->unified) CHECK(f.gpus_needed <= 1);
    // Its runtime is PyTorch's MPS backend: a Metal context, no NCCL.
    CHECK(e.value.component("runtime")->label == "Metal context");
}

TEST_CASE("llama.cpp's KV capacity is what the target leaves, the same figure as solve kv_capacity", "[gpu_counts]") {
    // Llama-3.1-8B Q4_K_M at 8,192 tokens on an RTX 4090: the KV cells that fit in its memory x 75% after the weights, the compute buffer and the context, not in the whole card.
    Config c = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
                         "inference":{"engine":"llama.cpp","weights":"q4_k_m","context":8192}})");
    auto e = estimate(c);
    REQUIRE(e.ok);
    const Metric* cap = e.value.metric("kv_capacity_tokens");
    REQUIRE(cap);
    CHECK(cap->label == "KV capacity within the target");
    const double rest = e.value.total_bytes - e.value.component("kv_cache")->bytes;
    const double per_token = e.value.metric("kv_bytes_per_token")->value;
    const double card = find_gpu("rtx-4090-24gb")->memory_bytes;  // 24,564 MiB as nvidia-smi reports it
    CHECK(card == 24564 * kBytesPerMiB);
    CHECK(cap->value == std::floor((card * 0.75 - rest) / per_token));
    CHECK(cap->value < std::floor((card - rest) / per_token));  // the whole card's figure, as before
    auto a = solve(c, "kv_capacity");
    REQUIRE(a.ok);
    CHECK(a.value.value == cap->value);
    // With the layers stated (-ngl 33: every layer and the output layer) the max_context answer stops
    // at the same budget: the capacity holds its context.
    Config stated = c;
    stated.inference.llamacpp.n_gpu_layers = 33;
    auto m = solve(stated, "max_context");
    REQUIRE(m.ok);
    CHECK(m.value.value <= cap->value + 256);  // (llama.cpp pads the context to 256 cells)
    // -ngl unset, llama-server's --fit places the layers for the context it starts with and keeps
    // every one on the GPU up to the model's 131,072-token window (its own 1 GiB margin, past the
    // 75% target: docs/local.md, "What fits under automatic placement").
    auto fit = solve(c, "max_context");
    REQUIRE(fit.ok);
    CHECK(fit.value.value == 131072);
    CHECK(fit.value.needs_ram_bytes == 0);
    CHECK_THAT(fit.value.explanation, Catch::Contains("puts 33 of 33 layers (the output layer and 32 repeating layers) on the GPU there"));
    CHECK_THAT(fit.value.explanation, Catch::Contains("past the 75% target"));
}

TEST_CASE("transformers on a Mac labels its runtime Metal, as llama.cpp's; on a CUDA card CUDA", "[gpu_counts]") {
    Config c = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"apple-m2-max-96gb",
                         "inference":{"engine":"hf","context":4096}})");
    auto mac = estimate(c);
    REQUIRE(mac.ok);
    CHECK(mac.value.component("runtime")->label == "Metal context");
    c.gpu_id = "rtx-4090-24gb";
    auto cuda = estimate(c);
    REQUIRE(cuda.ok);
    CHECK(cuda.value.component("runtime")->label == "CUDA context");
    c.gpu_id = "apple-m2-max-96gb";
    c.inference.engine = Engine::LlamaCpp;
    auto llama = estimate(c);
    REQUIRE(llama.ok);
    CHECK(llama.value.component("runtime")->label == "Metal context");
}

TEST_CASE("the rule is stated where the counts are shown: the quick rule's whole-card count is labelled", "[gpu_counts]") {
    Config q = parse(R"({"method":"quick","params_b":7,"batch":4})");
    CHECK_THAT(gpu_count_rule(q), Catch::Contains("the whole card, no headroom target"));
    Config d = parse(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","target_utilization":0.8})");
    CHECK_THAT(gpu_count_rule(d), Catch::Contains("within the 80% target"));
    Config v = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","inference":{"engine":"vllm"}})");
    CHECK_THAT(gpu_count_rule(v), Catch::Contains("gpu_memory_utilization 0.9"));
}

TEST_CASE("clusters: node overrides (gpus_per_node, intra_spec) are the plan's GPU type's; other types keep their node catalog's", "[gpu_counts][plan]") {
    Config c = parse(R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","seq":4096})");
    PlanInputs base;
    base.train_tokens = 1e11;
    PlanInputs in = base;
    in.gpus_per_node = 2;                      // the user's H100 boxes hold 2 GPUs each
    in.intra_override.id = in.intra_override.name = "slow-pcie";
    in.intra_override.line_gbps = 4;           // and a slow link between them
    in.intra_override.efficiency = 0.5;
    in.intra_override.latency_us = 20;
    const std::vector<ClusterCandidate> clusters = {{"h100-80gb", 16, "ib-ndr400"}, {"b200-180gb", 16, "ib-ndr400"}};
    auto with = plan_clusters(c, in, clusters);
    auto without = plan_clusters(c, base, clusters);
    REQUIRE(with.ok);
    REQUIRE(without.ok);
    auto find = [](const std::vector<ClusterResult>& v, const char* id) {
        for (const auto& r : v)
            if (r.cluster.gpu_id == id) return r;
        FAIL(id);
        return v.front();
    };
    const ClusterResult b_with = find(with.value, "b200-180gb"), b_without = find(without.value, "b200-180gb");
    REQUIRE(b_with.ok);
    REQUIRE(b_without.ok);
    // The B200s keep their 8-GPU node and its NVLink: the same time as without the H100's overrides.
    CHECK(b_with.train_days == b_without.train_days);
    CHECK(b_with.best.time.total == b_without.best.time.total);
    // The H100s take them: 2 per node on a 4 GB/s link is slower than the catalog's 8 on NVLink.
    const ClusterResult h_with = find(with.value, "h100-80gb"), h_without = find(without.value, "h100-80gb");
    REQUIRE(h_with.ok);
    REQUIRE(h_without.ok);
    CHECK(h_with.train_days > h_without.train_days);
    // Serving: Llama-3.1-405B in BF16 (about 810 GB) needs tensor parallelism 8 on B200s (180 GB
    // each), within their node of 8; the H100 plan's 1 GPU per node must not cut them to TP 1.
    Config big = parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-405b"},"gpu":"h100-80gb",
                          "inference":{"engine":"vllm","weights":"bf16"}})");
    ServeGoal goal;
    goal.concurrency = 8;
    goal.context = 4096;
    in.gpus_per_node = 1;
    auto s = serve_clusters(big, in, goal, {{"b200-180gb", 8, "ib-ndr400"}});
    auto s0 = serve_clusters(big, base, goal, {{"b200-180gb", 8, "ib-ndr400"}});
    REQUIRE(s.ok);
    REQUIRE(s0.ok);
    INFO(s.value.front().why);
    CHECK(s0.value.front().ok);
    CHECK(s.value.front().ok);
    CHECK(s.value.front().tp == s0.value.front().tp);
    CHECK(s.value.front().tp == 8);
}
