// The config field table (core/fields.hpp): one entry per field, every surface reads it. These
// tests hold the table to the code: each path is read and written by io/, each stated range is
// the one the engine enforces (a value past either end is refused naming that field), each enum
// spelling reads back, and core's name functions say the table's first spelling.
#include <catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "io/config_json.hpp"
#include "io/field_json.hpp"
#include "json_path.hpp"

using namespace vc;
using nlohmann::json;

namespace {

using test::set_at;

// A config under which the engine reads the field at `path`.
json base_for(const std::string& path) {
    auto starts = [&](const char* p) { return path.rfind(p, 0) == 0; };
    if (starts("inference.llamacpp.mmproj."))
        return json::parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
                              "inference":{"engine":"llama.cpp","weights":"q4_k_m","llamacpp":{"mmproj":{"params_m":300,"image_tokens":576}}}})");
    if (starts("inference.llamacpp.draft."))
        return json::parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
                              "inference":{"engine":"llama.cpp","weights":"q4_k_m","llamacpp":{"draft":{"preset":"llama-3.2-1b"}}}})");
    if (starts("inference.llamacpp.") || starts("inference.host."))
        return json::parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
                              "inference":{"engine":"llama.cpp","weights":"q4_k_m"}})");
    if (starts("inference.gpu_custom."))
        return json::parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},
                              "inference":{"gpu_custom":{"memory_gib":80}}})");
    if (starts("inference."))
        return json::parse(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb"})");
    if (starts("training.") || starts("parallel.") || starts("runtime.") || starts("model."))
        return json::parse(R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb",
                              "training":{"finetune":"lora"}})");
    if (path == "guide.weight_bytes") return json::parse(R"({"method":"guide","task":"inference","model":{"preset":"llama-3.1-8b"}})");
    if (starts("guide.") || path == "gpus") return json::parse(R"({"method":"guide","model":{"preset":"llama-3.1-8b"}})");
    return json::parse(R"({"method":"quick","params_b":7})");
}

Outcome<Estimate> run(const json& doc) {
    auto cfg = io::config_from_json(doc);
    if (!cfg.ok) return Outcome<Estimate>::failure(cfg.error);
    return estimate(cfg.value);
}

}  // namespace

TEST_CASE("fields: every path is declared once, inside a declared section", "[fields]") {
    std::set<std::string> paths;
    for (const auto& f : config_fields()) {
        INFO(f.path);
        CHECK(paths.insert(f.path).second);
        const std::string s = f.section();
        if (!s.empty()) {
            const FieldDef* parent = find_field(s);
            REQUIRE(parent != nullptr);
            CHECK(parent->kind == FieldKind::Object);
        }
        CHECK(std::string(f.meaning).size() > 0);
        if (f.kind == FieldKind::Enum) CHECK(f.names.count > 0);
    }
    CHECK(find_field("inference.vllm.max_num_seqs") != nullptr);
    CHECK(find_field("inference.vllm.nope") == nullptr);
}

TEST_CASE("fields: each stated range is the engine's, named in the field's unit", "[fields]") {
    int checked = 0;
    for (const auto& f : config_fields()) {
        if (!f.ranged || f.accepts || !f.has_member()) continue;
        // model.params_b beside a preset and the top-level params_b/gpus of the detailed methods are
        // read elsewhere; the base configs use the method that reads each.
        INFO(f.path << " " << field_range_text(f));
        const json base = base_for(f.path);
        {
            auto ok = run(base);
            INFO("base config: " << ok.error.field << " " << ok.error.message);
            REQUIRE(ok.ok);
        }
        const double step = (f.kind == FieldKind::Int || f.whole) ? 1 : std::max(1e-6, (f.max - f.min) * 1e-3);
        for (double bad : {f.open_min ? f.min : f.min - step, f.max + std::max(step, std::fabs(f.max))}) {
            // A projector of no parameters is no projector: a negative count is not read either.
            if (std::string(f.path) == "inference.llamacpp.mmproj.params_m" && bad < f.min) continue;
            json doc = base;
            if (f.kind == FieldKind::Int && (bad > 2147483647.0 || bad < -2147483647.0)) continue;  // refused by the reader
            set_at(doc, f.path, bad);
            auto r = run(doc);
            INFO("value " << bad);
            CHECK_FALSE(r.ok);
            // A model without layers is no architecture. (The guide's checks name guide.bytes and
            // guide.weight_bytes themselves since fb9132a.)
            const std::string path = f.path;
            const std::string named = path == "model.layers" && bad < f.min ? "model" : path;
            CHECK(r.error.field == named);
        }
        ++checked;
    }
    CHECK(checked > 100);
}

TEST_CASE("fields: every field with a member reads back what it writes", "[fields]") {
    for (const auto& f : config_fields()) {
        if (!f.has_member() || f.by_hand) continue;
        INFO(f.path);
        auto parsed = io::config_from_json(base_for(f.path));
        REQUIRE(parsed.ok);
        const json v = io::field_json(parsed.value, f);
        if (f.kind == FieldKind::Enum) {
            // Every spelling reads, and the value writes back as its first spelling.
            for (const auto& n : f.names) {
                json doc = base_for(f.path);
                set_at(doc, f.path, n.name);
                auto cfg = io::config_from_json(doc);
                REQUIRE(cfg.ok);
                CHECK(f.enum_get(cfg.value) == n.value);
                CHECK(std::string(enum_name(f.names, n.value)) == io::field_json(cfg.value, f).get<std::string>());
            }
        }
        json doc = base_for(f.path);
        if (!v.is_null()) set_at(doc, f.path, v);
        auto cfg = io::config_from_json(doc);
        REQUIRE(cfg.ok);
        CHECK(io::field_json(cfg.value, f) == v);
    }
}

TEST_CASE("fields: enum names are the engine's names", "[fields]") {
    // core's name functions read the table: the first spelling of a value is the one written back.
    CHECK(std::string(engine_name(Engine::LlamaCpp)) == "llama.cpp");
    CHECK(std::string(method_name(Method::Detailed)) == "detailed");
    CHECK(std::string(task_name(Task::FineTune)) == "finetune");
    CHECK(std::string(sharding_name(Sharding::None)) == "ddp");           // not "none", which is accepted too
    CHECK(std::string(recompute_name(Recompute::Selective)) == "selective");
    CHECK(std::string(precision_name(TrainPrecision::Fp8Mixed)) == "fp8");  // not "fp8-mixed"
    CHECK(std::string(optimizer_name(OptimizerKind::AdamW)) == "adamw");    // not "adam"
    // The engine's own name is accepted for Hugging Face transformers and written back as "hf".
    const auto hf = io::parse_config(R"({"task":"inference","inference":{"engine":"transformers"}})");
    REQUIRE(hf.ok);
    CHECK(hf.value.inference.engine == Engine::Hf);
    CHECK(io::config_to_json(hf.value)["inference"]["engine"] == "hf");
    for (int i = 0; i <= static_cast<int>(OptimizerKind::Custom); ++i)
        CHECK(std::string(optimizer_name(static_cast<OptimizerKind>(i))) == enum_name(kTrainOptimizerNames, i));
}

TEST_CASE("fields: a range message names the field and its range in the field's unit", "[fields]") {
    Config c;
    c.inference.context = 0;
    Error err;
    const FieldDef* f = find_field("inference.context");
    REQUIRE(f);
    CHECK_FALSE(check_field(c, *f, err));
    CHECK(err.field == "inference.context");
    CHECK(err.message == "inference.context must be a whole number in [1, 16777216] tokens, got 0");
    CHECK(field_range_text(*f) == "[1, 16777216] tokens");
    c.inference.vllm.gpu_memory_utilization = 0;
    const FieldDef* g = find_field("inference.vllm.gpu_memory_utilization");
    REQUIRE(g);
    CHECK_FALSE(check_field(c, *g, err));
    CHECK(err.message == "inference.vllm.gpu_memory_utilization must be a number greater than 0 and at most 1, got 0");
    CHECK(field_range_text(*g) == "(0, 1]");
}

TEST_CASE("fields: the engine's checks read the table's range, in the field's unit", "[fields]") {
    // A 2,000,000 GiB CUDA context is refused in GiB (the member holds bytes).
    json doc = base_for("inference.constants.cuda_context_gib");
    set_at(doc, "inference.constants.cuda_context_gib", 2e6);
    auto r = run(doc);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "inference.constants.cuda_context_gib");
    CHECK(r.error.message == "inference.constants.cuda_context_gib must be a number in [-1, 1000000] GiB, got 2000000");
    // null (unset, held as -1) passes.
    json unset = base_for("inference.vllm.activation_peak_gib");
    set_at(unset, "inference.vllm.activation_peak_gib", nullptr);
    CHECK(run(unset).ok);
    // A path without a range is a programming error, named as such.
    Error err;
    CHECK_FALSE(check_members({{"inference.weights", 1}}, err));
    CHECK(err.field == "inference.weights");
    CHECK_FALSE(check_members({{"no.such.field", 1}}, err));
    CHECK(err.field == "no.such.field");
    CHECK(check_members({{"parallel.tp", 8}, {"training.dropout", 0.1}}, err));
}

TEST_CASE("fields: each ranged field's page step fits its range", "[fields]") {
    // The page's -/+ buttons add the table's step (shell/ui_widgets.cpp); an open minimum starts a
    // step above it, so the step must leave room below the maximum.
    for (const auto& f : config_fields()) {
        if (!f.ranged || f.accepts) continue;
        INFO(f.path);
        CHECK(f.step > 0);
        CHECK(f.step < f.max - f.min);
    }
    CHECK(find_field("runtime.nccl_bytes")->step == 50.0 * 1024 * 1024);  // 50 MiB, shown in MiB
    CHECK(find_field("inference.vllm.gpu_memory_utilization")->step == 0.05);
}
