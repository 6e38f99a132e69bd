// vramcalc shell state: the Cluster planner view (planner.hpp).
#include "planner.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "io/config_json.hpp"
#include "io/plan_json.hpp"
#include "shell/app.hpp"
#include "scenario.hpp"

namespace vc::shell {

using nlohmann::json;

namespace {

// A number as the fragment writes it: whole numbers bare ("64"), others in the shortest form
// that reads back ("1e+12" stays exact through %.17g).
std::string number_text(double v) {
    char buf[40];
    if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

bool parse_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

bool parse_rank(const std::string& s, PlanRank& r) {
    if (s == "time") r = PlanRank::Time;
    else if (s == "cost") r = PlanRank::Cost;
    else if (s == "tokens_per_gpu") r = PlanRank::TokensPerGpu;
    else return false;
    return true;
}

// The cache behind planner_results: the inputs it was computed for.
struct Cache {
    bool computed = false;
    unsigned long version = 0;
    PlannerView view;
    PlannerResults results;
};

Cache& cache() {
    static Cache c;
    return c;
}

}  // namespace

const char* plan_rank_name(PlanRank r) {
    switch (r) {
        case PlanRank::Cost: return "cost";
        case PlanRank::TokensPerGpu: return "tokens_per_gpu";
        case PlanRank::Time: break;
    }
    return "time";
}

// [SECTION] fragment ------------------------------------------------------------------------------
void planner_fragment_pairs(const PlannerView& p, std::vector<std::pair<std::string, std::string>>& pairs) {
    const PlannerView d;
    if (p.open) pairs.emplace_back("view", "planner");
    if (p.gpus != d.gpus) pairs.emplace_back("plan.gpus", std::to_string(p.gpus));
    if (p.fabric != d.fabric) pairs.emplace_back("plan.fabric", p.fabric);
    if (p.global_batch != d.global_batch) pairs.emplace_back("plan.global_batch", number_text(p.global_batch));
    if (p.train_tokens != d.train_tokens) pairs.emplace_back("plan.train_tokens", number_text(p.train_tokens));
    if (p.rank != d.rank) pairs.emplace_back("plan.rank", plan_rank_name(p.rank));
}

bool planner_fragment_key(const std::string& key, const std::string& value, PlannerView& p, Error& err) {
    double x = 0;
    if (key == "view") {
        if (value != "planner" && value != "calculator") {
            err = Error{"view", "view must be calculator or planner, got \"" + value + "\""};
            return false;
        }
        p.open = value == "planner";
    } else if (key == "plan.gpus") {
        // The engine checks the range (plan.gpus in [1, 1000000]); here only that it is a whole number an int holds.
        if (!parse_number(value, x) || x != std::floor(x) || x < -1e9 || x > 1e9) {
            err = Error{key, "plan.gpus must be a whole number of GPUs, got \"" + value + "\""};
            return false;
        }
        p.gpus = static_cast<int>(x);
    } else if (key == "plan.fabric") {
        p.fabric = value;  // an unknown id gets the engine's message naming plan.fabric
    } else if (key == "plan.global_batch" || key == "plan.train_tokens") {
        if (!parse_number(value, x)) {
            err = Error{key, key + " must be a number, got \"" + value + "\""};
            return false;
        }
        (key == "plan.global_batch" ? p.global_batch : p.train_tokens) = x;
    } else if (key == "plan.rank") {
        if (!parse_rank(value, p.rank)) {
            err = Error{key, "plan.rank must be time, cost or tokens_per_gpu, got \"" + value + "\""};
            return false;
        }
    } else {
        err = Error{key, key + " is not a planner field (plan.gpus, plan.fabric, plan.global_batch, plan.train_tokens, plan.rank)"};
        return false;
    }
    return true;
}

// [SECTION] request -------------------------------------------------------------------------------
Config planner_config(const Config& inputs) {
    Config c = inputs;
    if (c.task == Task::Inference) set_task(c, Task::Training);
    set_method(c, Method::Detailed);
    return c;
}

json planner_request_json(const Config& inputs, const PlannerView& p) {
    json doc = io::config_to_json(planner_config(inputs));
    doc["plan"] = json{{"gpus", p.gpus}, {"fabric", p.fabric}, {"global_batch", p.global_batch}, {"train_tokens", p.train_tokens},
                       {"rank", plan_rank_name(p.rank)}, {"top", kPlannerTop}};
    return doc;
}

// [SECTION] results -------------------------------------------------------------------------------
const PlannerResults& planner_results(App& a, bool hold) {
    Cache& c = cache();
    if (c.computed && ((hold && c.results.valid) || (c.version == a.version && c.view == a.ui.planner))) return c.results;
    c.computed = true;
    c.version = a.version;
    c.view = a.ui.planner;
    PlannerResults& r = c.results;
    const auto started = std::chrono::steady_clock::now();
    // The same path as `vramcalc plan --config FILE`: the request document, read and run.
    auto req = io::plan_request_from_json(planner_request_json(a.inputs, a.ui.planner));
    Outcome<PlanResult> p = req.ok ? plan(req.value.cfg, req.value.in) : Outcome<PlanResult>::failure(req.error);
    r.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (!p.ok) {
        r.error = p.error;
        return r;
    }
    r.error = Error{};
    r.plan = std::move(p.value);
    r.valid = true;
    r.generation++;
    return r;
}

void use_layout(App& a, const LayoutResult& r) {
    const int gpus = a.ui.planner.gpus;
    Config c = layout_config(planner_config(a.inputs), r.layout, gpus);
    a.inputs = c;
    a.ui.planner.open = false;
    mark_changed(a);
    char buf[160];
    std::snprintf(buf, sizeof buf, "Loaded %s into the detailed training inputs", layout_label(r.layout).c_str());
    a.notice = buf;
}

json planner_state_json(App& a) {
    const PlannerView& p = a.ui.planner;
    json j{{"open", p.open}, {"gpus", p.gpus}, {"fabric", p.fabric}, {"global_batch", p.global_batch}, {"train_tokens", p.train_tokens},
           {"rank", plan_rank_name(p.rank)}};
    j["request"] = planner_request_json(a.inputs, p);
    if (!p.open) return j;  // computed only when shown
    const PlannerResults& r = planner_results(a);
    j["plan"] = r.valid ? io::plan_result_to_json(r.plan) : json(nullptr);
    j["error"] = r.error.field.empty() ? json(nullptr) : json{{"field", r.error.field}, {"message", r.error.message}};
    j["compute_ms"] = r.compute_ms;
    return j;
}

}  // namespace vc::shell
