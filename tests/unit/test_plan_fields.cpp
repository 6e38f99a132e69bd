// The planner's request fields (plan.*, the request table of core/fields.cpp): their defaults are
// the planner's own initializers, each stated range is the one the planner enforces (a value past
// either end is refused naming that field), the request reader's keys are the table's, and a
// config document alone refuses "plan".
#include <catch.hpp>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/fields.hpp"
#include "io/config_json.hpp"
#include "io/plan_json.hpp"
#include "shell/state/planner.hpp"
#include "json_path.hpp"

using namespace vc;
using nlohmann::json;

namespace {

// A small request: Llama-3.1-8B on 8 H100s, every comparison on, so that every plan.* check runs.
json base_request() {
    return json{{"method", "detailed"}, {"model", {{"preset", "llama-3.1-8b"}}}, {"seq", 4096}, {"gpu", "h100-80gb"},
                {"training", {{"profile", "megatron"}}},
                {"plan",
                 {{"gpus", 8}, {"top", 3}, {"train_tokens", 1e9}, {"deadline_days", 30}, {"max_gpus", 64},
                  {"batch_sizing", {{"fabrics", {"ib-ndr400"}}}}, {"pareto", {{"counts", {8}}, {"per_count", 1}}},
                  {"search", {{"recompute", false}, {"sharding", false}, {"interleave", false}}}}}};
}

using test::set_at;

// The error field of running the request (empty: it ran).
std::string refused_field(const json& doc) {
    auto req = io::plan_request_from_json(doc);
    if (!req.ok) return req.error.field;
    const json out = io::run_plan_request(req.value);
    return out.value("ok", false) ? std::string() : out["error"].value("field", "");
}

}  // namespace

TEST_CASE("plan fields: the table's defaults are the planner's initializers", "[plan][fields]") {
    const PlanInputs in;
    const PlanConstants& k = in.k;
    const io::PlanRequest req;
    const std::map<std::string, double> defaults = {
        {"plan.global_batch", in.global_batch}, {"plan.train_tokens", in.train_tokens}, {"plan.top", in.top},
        {"plan.max_micro_batch", in.max_micro_batch}, {"plan.max_cp", in.max_cp}, {"plan.gpus_per_node", in.gpus_per_node}, {"plan.network_share", in.network_share},
        {"plan.tp_across_nodes", in.tp_across_nodes}, {"plan.uneven_pp", in.uneven_pp},
        {"plan.search.recompute", in.search_recompute}, {"plan.search.sharding", in.search_sharding},
        {"plan.search.interleave", in.search_interleave},
        {"plan.constants.gemm_efficiency_max", k.gemm_efficiency_max}, {"plan.constants.gemm_half_dim", k.gemm_half_dim},
        {"plan.constants.attention_efficiency", k.attention_efficiency}, {"plan.constants.hbm_efficiency", k.hbm_efficiency},
        {"plan.constants.elementwise_passes", k.elementwise_passes}, {"plan.constants.tp_overlap", k.tp_overlap},
        {"plan.constants.dp_overlap", k.dp_overlap}, {"plan.constants.grad_comm_bytes", k.grad_comm_bytes},
        {"plan.constants.optimizer_bytes_per_param", k.optimizer_bytes_per_param},
        {"plan.constants.step_overhead_s", k.step_overhead_s},
        {"plan.deadline_days", req.deadline_days}, {"plan.max_gpus", req.max_gpus},
        {"plan.batch_sizing", req.batch_sizing}, {"plan.batch_sizing.target_efficiency", req.target_efficiency},
        {"plan.pareto", req.pareto}, {"plan.pareto.per_count", req.pareto_per_count},
        {"plan.fabric_comparison", req.fabric_comparison}, {"plan.serve.context", req.serve_goal.context},
        {"plan.fabric_spec.latency_us", FabricSpec{}.latency_us},
    };
    int numeric = 0;
    for (const auto& f : request_fields()) {
        INFO(f.path);
        CHECK(f.by_hand);
        CHECK_FALSE(f.has_member());
        CHECK(find_field(f.path) == nullptr);  // not a config field
        const std::string d = f.def ? f.def : "";
        // A default written as a number or a bool is the initializer's.
        double v = 0;
        char* end = nullptr;
        if (d == "true" || d == "false") v = d == "true";
        else if (!d.empty()) v = std::strtod(d.c_str(), &end);
        if (d.empty() || (end && (end == d.c_str() || (*end != '\0' && d.find(" (") == std::string::npos)))) continue;
        const auto it = defaults.find(f.path);
        REQUIRE(it != defaults.end());
        CHECK(it->second == v);
        ++numeric;
    }
    CHECK(numeric == static_cast<int>(defaults.size()));
    CHECK(std::string(find_request_field("plan.fabric")->def) == "`" + in.fabric + "`");
    CHECK(std::string(find_request_field("plan.rank")->def) == "`time`");
    CHECK(in.rank == PlanRank::Time);
}

TEST_CASE("plan fields: each stated range is the one the planner enforces", "[plan][fields]") {
    REQUIRE(refused_field(base_request()).empty());
    int checked = 0;
    for (const auto& f : request_fields()) {
        if (!f.ranged || f.accepts) continue;
        INFO(f.path);
        const std::string path = f.path;
        json above = base_request();
        if (path.rfind("plan.serve.", 0) == 0) set_at(above, "plan.serve", {{"concurrency", 8}});
        if (path.rfind("plan.fabric_spec.", 0) == 0)
            set_at(above, "plan.fabric_spec", {{"line_gbps", 50}, {"efficiency", 0.9}, {"latency_us", 5}});
        json below = above;
        set_at(above, path, f.max + (f.kind == FieldKind::Int || f.whole ? 1 : f.max * 0.5 + 1));
        CHECK(refused_field(above) == path);
        // A minimum below which the value means "the catalog's" or "none" is not a bound to refuse at.
        const bool sentinel = path == "plan.gpus_per_node" || path == "plan.price_per_hour_usd" || path == "plan.purchase_usd" ||
                              path == "plan.deadline_days" || path == "plan.fabric_spec.line_gbps";
        if (!sentinel) {
            set_at(below, path, f.min - (f.kind == FieldKind::Int || f.whole ? 1 : 0.001));
            CHECK(refused_field(below) == path);
        }
        ++checked;
    }
    CHECK(checked >= 25);
}

TEST_CASE("plan fields: the reader's keys are the table's; a config refuses plan", "[plan][fields]") {
    json doc = base_request();
    doc["plan"]["gpu_count"] = 8;
    auto r = io::plan_request_from_json(doc);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.gpu_count");
    doc = base_request();
    doc["plan"]["constants"]["gemm_half"] = 1;
    r = io::plan_request_from_json(doc);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "plan.constants.gemm_half");
    // plan.rank's names are the table's.
    doc = base_request();
    doc["plan"]["rank"] = "speed";
    r = io::plan_request_from_json(doc);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.message.find("time, cost, tokens_per_gpu") != std::string::npos);
    doc["plan"]["rank"] = "tokens_per_gpu";
    r = io::plan_request_from_json(doc);
    REQUIRE(r.ok);
    CHECK(r.value.in.rank == PlanRank::TokensPerGpu);
    // A config document is not a plan request.
    auto c = io::config_from_json(base_request());
    REQUIRE_FALSE(c.ok);
    CHECK(c.error.field == "plan");
}

TEST_CASE("plan fields: the page's link keys are the request's paths; old serve keys still read", "[plan][fields]") {
    shell::PlannerView p;
    p.serve_goal = {512, 32768};
    std::vector<std::pair<std::string, std::string>> pairs;
    shell::planner_fragment_pairs(p, pairs);
    CHECK(pairs == std::vector<std::pair<std::string, std::string>>{{"plan.serve.concurrency", "512"}, {"plan.serve.context", "32768"}});
    for (const auto& kv : pairs) CHECK(find_request_field(kv.first.c_str()) != nullptr);
    // A link written before: plan.serve_concurrency / plan.serve_context.
    shell::PlannerView q;
    Error err;
    REQUIRE(shell::planner_fragment_key("plan.serve_concurrency", "512", q, err));
    REQUIRE(shell::planner_fragment_key("plan.serve_context", "32768", q, err));
    CHECK(q.serve_goal.concurrency == 512);
    CHECK(q.serve_goal.context == 32768);
    // The request the page runs says plan.serve.{concurrency, context}, as the CLI reads it.
    q.serve = true;
    const json doc = shell::planner_request_json(Config{}, q);
    CHECK(doc["plan"]["serve"] == json{{"concurrency", 512}, {"context", 32768}});
    CHECK_FALSE(shell::planner_fragment_key("plan.rank", "speed", q, err));
    CHECK(err.message == "plan.rank must be one of time, cost, tokens_per_gpu, got \"speed\"");
}

TEST_CASE("plan fields: the page's price and node overrides travel in the link and the request, checked by the table", "[plan][fields]") {
    shell::PlannerView p;
    Error err;
    // Unset: the catalog's; neither the link nor the request names them.
    std::vector<std::pair<std::string, std::string>> pairs;
    shell::planner_fragment_pairs(p, pairs);
    CHECK(pairs.empty());
    Config cfg;
    cfg.gpu_id = "h100-80gb";
    json doc = shell::planner_request_json(cfg, p);
    CHECK_FALSE(doc["plan"].contains("price_per_hour_usd"));
    CHECK_FALSE(doc["plan"].contains("purchase_usd"));
    CHECK_FALSE(doc["plan"].contains("gpus_per_node"));
    // A negotiated price, an owned cluster's price, 4-GPU nodes: written by path, read back alike.
    p.price_per_hour_usd = 1.85;
    p.purchase_usd = 21000;
    p.gpus_per_node = 4;
    shell::planner_fragment_pairs(p, pairs);
    CHECK(pairs == std::vector<std::pair<std::string, std::string>>{
                       {"plan.price_per_hour_usd", "1.8500000000000001"}, {"plan.purchase_usd", "21000"}, {"plan.gpus_per_node", "4"}});
    shell::PlannerView q;
    for (const auto& kv : pairs) REQUIRE(shell::planner_fragment_key(kv.first, kv.second, q, err));
    CHECK(q == p);
    CHECK(shell::planner_check_overrides(q, err));
    doc = shell::planner_request_json(cfg, q);
    CHECK(doc["plan"]["price_per_hour_usd"] == 1.85);
    CHECK(doc["plan"]["purchase_usd"] == 21000.0);
    CHECK(doc["plan"]["gpus_per_node"].is_number_integer());
    CHECK(doc["plan"]["gpus_per_node"] == 4);
    // The request reads them as the CLI's --set plan.*=... does: the plan's hardware is the user's.
    auto req = io::plan_request_from_json(doc);
    REQUIRE(req.ok);
    CHECK(req.value.in.price_per_hour_usd == 1.85);
    CHECK(req.value.in.purchase_usd == 21000);
    CHECK(req.value.in.gpus_per_node == 4);
    // Refused by the table's ranges in the field's unit, naming the field: a negative price (which the
    // request would read as "the catalog's"), a node of 0 or 2.5 GPUs, a price past the range.
    q.price_per_hour_usd = -2;
    CHECK_FALSE(shell::planner_check_overrides(q, err));
    CHECK(err.field == "plan.price_per_hour_usd");
    CHECK(err.message == "plan.price_per_hour_usd must be a number in [0, 10000] USD, got -2");
    q.price_per_hour_usd.reset();
    q.gpus_per_node = 0;
    CHECK_FALSE(shell::planner_check_overrides(q, err));
    CHECK(err.field == "plan.gpus_per_node");
    CHECK(err.message.find("[1, 1024] GPUs") != std::string::npos);
    q.gpus_per_node = 2.5;
    CHECK_FALSE(shell::planner_check_overrides(q, err));
    CHECK(err.field == "plan.gpus_per_node");
    q.gpus_per_node.reset();
    q.purchase_usd = 2e8;
    CHECK_FALSE(shell::planner_check_overrides(q, err));
    CHECK(err.field == "plan.purchase_usd");
    // Not a number: the link's key is named.
    CHECK_FALSE(shell::planner_fragment_key("plan.price_per_hour_usd", "cheap", q, err));
    CHECK(err.field == "plan.price_per_hour_usd");
    CHECK(err.message == "plan.price_per_hour_usd must be a number, got \"cheap\"");
}
