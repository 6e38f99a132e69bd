// vramcalc io: plan requests and results as JSON (plan_json.hpp, docs/planner.md).
#include "io/plan_json.hpp"

#include <cmath>
#include <cstdlib>

#include "io/config_json.hpp"
#include "io/field_json.hpp"
#include "io/json_read.hpp"
#include "io/json_syntax.hpp"

using nlohmann::json;

namespace vc::io {

namespace {

bool read_fabric_spec(ObjectReader& r, const char* key, FabricSpec& f) {
    if (!r.has(key)) return r.ok();
    const json& o = r.at(key);
    if (!o.is_object()) return r.fail(key, "must be an object {\"line_gbps\", \"efficiency\", \"latency_us\"}");
    ObjectReader fr(o, r.path(key) + ".");
    only_section_keys(fr, "plan.fabric_spec", request_fields());  // plan.intra_spec has the same keys
    f.id = "custom";
    f.name = "custom";
    fr.string("id", f.id);
    fr.string("name", f.name);
    fr.number("line_gbps", f.line_gbps);
    fr.number("efficiency", f.efficiency);
    fr.number("latency_us", f.latency_us);
    fr.string("source", f.source);
    if (!fr.ok()) return r.fail_with(fr.error());  // named by its own path: plan.fabric_spec.line_gbps
    // Checked here in full: without a line rate the spec would be ignored (core/plan uses it when
    // line_gbps > 0).
    Error e;
    if (!check_fabric(r.path(key), f, e)) return r.fail_with(e);
    return true;
}

// A list of ids (strings); false when `f` is not one.
bool read_ids(const json& f, std::vector<std::string>& out) {
    if (!f.is_array()) return false;
    for (const auto& x : f) {
        if (!x.is_string()) return false;
        out.push_back(x.get<std::string>());
    }
    return true;
}

}  // namespace

Outcome<PlanRequest> plan_request_from_json(const json& doc_in) {
    using Out = Outcome<PlanRequest>;
    if (!doc_in.is_object()) return Out::failure("config", "the plan request must be a JSON object");
    json doc = doc_in;
    json p = json::object();
    if (doc.contains("plan")) {
        p = doc["plan"];
        doc.erase("plan");
    }
    if (!p.is_object()) return Out::failure("plan", "plan must be an object");
    PlanRequest req;
    auto cfg = config_from_json(doc);
    if (!cfg.ok) return Out::failure(cfg.error);
    req.cfg = cfg.value;
    PlanInputs& in = req.in;
    // The keys and ranges are the request table's (core/fields.cpp, plan.*); the engine checks the ranges.
    ObjectReader r(p, "plan.");
    only_section_keys(r, "plan", request_fields());
    // GPUs default to the config's "gpus", else 8; a config count the plan cannot take (0, 2.5,
    // 2,000,000) is plan.gpus's range error, not replaced by 8.
    Error range;
    if (doc.contains("gpus") && !p.contains("gpus") && !check_value("plan.gpus", cfg.value.gpus, range)) return Out::failure(range);
    in.gpus = doc.contains("gpus") ? static_cast<int>(cfg.value.gpus) : 8;
    double gpus = in.gpus;
    r.number("gpus", gpus);
    if (r.ok() && !check_value("plan.gpus", gpus, range)) return Out::failure(range);
    if (r.ok()) in.gpus = static_cast<int>(gpus);
    r.string("fabric", in.fabric);
    r.number("global_batch", in.global_batch);
    r.number("train_tokens", in.train_tokens);
    r.integer("top", in.top);
    std::string rank = "time";
    r.string("rank", rank);
    int rank_value = 0;
    if (r.ok() && enum_value(kPlanRankNames, rank, rank_value)) in.rank = static_cast<PlanRank>(rank_value);
    else if (r.ok()) r.fail("rank", "must be one of " + enum_choices(kPlanRankNames) + ", got \"" + rank + "\"");
    r.boolean("tp_across_nodes", in.tp_across_nodes);
    r.boolean("uneven_pp", in.uneven_pp);
    r.integer("max_micro_batch", in.max_micro_batch);
    r.integer("max_cp", in.max_cp);
    r.integer("gpus_per_node", in.gpus_per_node);
    r.number("price_per_hour_usd", in.price_per_hour_usd);
    r.number("purchase_usd", in.purchase_usd);
    r.number("network_share", in.network_share);
    r.number("deadline_days", req.deadline_days);
    r.integer("max_gpus", req.max_gpus);
    read_fabric_spec(r, "fabric_spec", in.fabric_override);
    read_fabric_spec(r, "intra_spec", in.intra_override);
    if (r.ok() && r.has("search")) {
        const json& s = r.at("search");
        if (!s.is_object()) return Out::failure("plan.search", "must be an object {\"recompute\", \"sharding\", \"interleave\"}");
        ObjectReader sr(s, "plan.search.");
        only_section_keys(sr, "plan.search", request_fields());
        sr.boolean("recompute", in.search_recompute);
        sr.boolean("sharding", in.search_sharding);
        sr.boolean("interleave", in.search_interleave);
        if (!sr.ok()) return Out::failure(sr.error());
    }
    if (r.ok() && r.has("constants")) {
        const json& c = r.at("constants");
        if (!c.is_object()) return Out::failure("plan.constants", "must be an object");
        ObjectReader cr(c, "plan.constants.");
        PlanConstants& k = in.k;
        only_section_keys(cr, "plan.constants", request_fields());
        cr.number("gemm_efficiency_max", k.gemm_efficiency_max);
        cr.number("gemm_half_dim", k.gemm_half_dim);
        cr.number("attention_efficiency", k.attention_efficiency);
        cr.number("hbm_efficiency", k.hbm_efficiency);
        cr.number("elementwise_passes", k.elementwise_passes);
        cr.number("tp_overlap", k.tp_overlap);
        cr.boolean("dp_overlap", k.dp_overlap);
        cr.number("grad_comm_bytes", k.grad_comm_bytes);
        cr.number("optimizer_bytes_per_param", k.optimizer_bytes_per_param);
        cr.number("step_overhead_s", k.step_overhead_s);
        if (!cr.ok()) return Out::failure(cr.error());
    }
    if (r.ok() && r.has("clusters")) {
        json listed;
        std::string bad;
        if (r.at("clusters").is_string() && !parse_cluster_list(r.at("clusters").get<std::string>(), listed, bad))
            return Out::failure("plan.clusters", "\"" + bad + "\" is not GPU:COUNT:FABRIC with COUNT in " +
                                                     field_range_text(*find_request_field("plan.gpus")) + " (e.g. h100-80gb:512:ib-ndr400)");
        const json& cl = r.at("clusters").is_string() ? listed : r.at("clusters");
        if (!cl.is_array() || cl.size() > 64) return Out::failure("plan.clusters", "must be a list of at most 64 {\"gpu\", \"gpus\", \"fabric\"}");
        for (size_t i = 0; i < cl.size(); ++i) {
            const std::string pre = "plan.clusters[" + std::to_string(i) + "].";
            if (!cl[i].is_object()) return Out::failure(pre.substr(0, pre.size() - 1), "must be an object {\"gpu\", \"gpus\", \"fabric\"}");
            ObjectReader cr(cl[i], pre);
            cr.only_keys({"gpu", "gpus", "fabric"});
            ClusterCandidate c{req.cfg.gpu_id, in.gpus, in.fabric};
            cr.string("gpu", c.gpu_id);
            cr.integer("gpus", c.gpus);
            cr.string("fabric", c.fabric);
            if (!cr.ok()) return Out::failure(cr.error());
            req.clusters.push_back(c);
        }
    }
    if (r.ok() && r.has("batch_sizing")) {
        const json& b = r.at("batch_sizing");
        if (b.is_boolean()) req.batch_sizing = b.get<bool>();
        else if (b.is_object()) {
            req.batch_sizing = true;
            ObjectReader br(b, "plan.batch_sizing.");
            only_section_keys(br, "plan.batch_sizing", request_fields());
            br.number("target_efficiency", req.target_efficiency);
            if (br.ok() && br.has("fabrics") && !read_ids(br.at("fabrics"), req.sizing_fabrics))
                return Out::failure("plan.batch_sizing.fabrics", "must be a list of fabric ids");
            if (!br.ok()) return Out::failure(br.error());
        } else return Out::failure("plan.batch_sizing", "must be true/false or {\"fabrics\", \"target_efficiency\"}");
    }
    if (r.ok() && r.has("pareto")) {
        const json& b = r.at("pareto");
        if (b.is_boolean()) req.pareto = b.get<bool>();
        else if (b.is_object()) {
            req.pareto = true;
            ObjectReader br(b, "plan.pareto.");
            only_section_keys(br, "plan.pareto", request_fields());
            br.integer("per_count", req.pareto_per_count);
            if (br.ok() && br.has("counts")) {
                const json& f = br.at("counts");
                if (!f.is_array() || f.size() > 16) return Out::failure("plan.pareto.counts", "must be a list of at most 16 GPU counts");
                for (const auto& x : f) {
                    Error count;  // each count is a plan.gpus
                    if (!x.is_number() || !check_value("plan.gpus", x.get<double>(), count))
                        return Out::failure("plan.pareto.counts", "must be whole GPU counts in " + field_range_text(*find_request_field("plan.gpus")));
                    req.pareto_counts.push_back(static_cast<int>(x.get<double>()));
                }
            }
            if (!br.ok()) return Out::failure(br.error());
        } else return Out::failure("plan.pareto", "must be true/false or {\"counts\", \"per_count\"}");
    }
    if (r.ok() && r.has("fabric_comparison")) {
        const json& b = r.at("fabric_comparison");
        if (b.is_boolean()) req.fabric_comparison = b.get<bool>();
        else if (b.is_object()) {
            req.fabric_comparison = true;
            ObjectReader br(b, "plan.fabric_comparison.");
            only_section_keys(br, "plan.fabric_comparison", request_fields());
            if (br.ok() && br.has("fabrics") && !read_ids(br.at("fabrics"), req.compare_fabrics))
                return Out::failure("plan.fabric_comparison.fabrics", "must be a list of fabric ids");
            if (!br.ok()) return Out::failure(br.error());
        } else return Out::failure("plan.fabric_comparison", "must be true/false or {\"fabrics\"}");
    }
    if (r.ok() && r.has("serve")) {
        const json& b = r.at("serve");
        if (!b.is_object()) return Out::failure("plan.serve", "must be an object {\"concurrency\", \"context\"}");
        req.serve = true;
        ObjectReader br(b, "plan.serve.");
        only_section_keys(br, "plan.serve", request_fields());
        br.number("concurrency", req.serve_goal.concurrency);
        br.number("context", req.serve_goal.context);
        if (!br.ok()) return Out::failure(br.error());
        if (req.clusters.empty()) req.clusters.push_back({req.cfg.gpu_id, in.gpus, in.fabric});
    }
    if (!r.ok()) return Out::failure(r.error());
    return Out::success(std::move(req));
}

bool parse_cluster_list(const std::string& s, json& out, std::string& bad) {
    out = json::array();
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        size_t a = item.find(':'), b = a == std::string::npos ? a : item.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) { bad = item; return false; }
        char* end = nullptr;
        const std::string count = item.substr(a + 1, b - a - 1);
        long n = std::strtol(count.c_str(), &end, 10);
        Error range;
        if (count.empty() || *end != '\0' || !check_value("plan.gpus", static_cast<double>(n), range)) { bad = item; return false; }
        out.push_back({{"gpu", item.substr(0, a)}, {"gpus", n}, {"fabric", item.substr(b + 1)}});
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return true;
}

Outcome<PlanRequest> parse_plan_request(const std::string& text) {
    json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return Outcome<PlanRequest>::failure("config", not_json_message("the plan request", text));
    return plan_request_from_json(doc);
}

json layout_to_json(const Layout& l) {
    return json{{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"cp", l.cp}, {"ep", l.ep}, {"virtual_stages", l.v},
                {"sp", l.sp}, {"sharding", layout_label_sharding(l.sharding)}, {"micro_batch", l.micro},
                {"grad_accum", l.accum}, {"recompute", recompute_name(l.recompute)}, {"label", layout_label(l)}};
}

json layout_result_to_json(const LayoutResult& r) {
    const StepTime& t = r.time;
    return json{{"layout", layout_to_json(r.layout)},
                {"memory_bytes", r.memory_bytes}, {"memory_share", r.memory_share}, {"fits", r.fits},
                {"step_s", t.total}, {"compute_s", t.compute}, {"bubble_s", t.bubble}, {"optimizer_s", t.optimizer},
                {"comm_exposed_s", t.comm_exposed()},
                {"comm_s", {{"tp", t.tp_comm}, {"cp", t.cp_comm}, {"ep", t.ep_comm}, {"pp", t.pp_comm}, {"dp", t.dp_comm}, {"dp_total", t.dp_comm_total}}},
                {"tokens_per_s_per_gpu", t.tokens_per_s_per_gpu}, {"mfu", t.mfu},
                {"train_days", r.train_days}, {"rent_usd", r.rent_usd}};
}

json plan_result_to_json(const PlanResult& r) {
    json ranked = json::array(), rejected = json::array();
    for (const auto& x : r.ranked) ranked.push_back(layout_result_to_json(x));
    for (const auto& c : r.rejected) rejected.push_back({{"reason", c.reason}, {"count", c.count}, {"example", c.example}});
    // What would fit when nothing does (PlanResult::suggest_*): null when the plan has a layout or none was searched.
    json suggestion = nullptr;
    if (r.ranked.empty() && (r.suggest_gpus > 0 || !r.suggest_gpu.empty()))
        suggestion = json{{"gpus", r.suggest_gpus > 0 ? json(r.suggest_gpus) : json(nullptr)},
                          {"gpus_best", r.suggest_gpus > 0 ? layout_result_to_json(r.suggest_gpus_best) : json(nullptr)},
                          {"gpu", r.suggest_gpu.empty() ? json(nullptr) : json(r.suggest_gpu)},
                          {"gpu_best", r.suggest_gpu.empty() ? json(nullptr) : layout_result_to_json(r.suggest_gpu_best)}};
    return json{{"gpu", r.gpu_id}, {"gpus", r.gpus}, {"gpus_per_node", r.gpus_per_node}, {"fabric", r.fabric_id},
                {"intra_fabric", r.intra_id}, {"global_batch", r.global_batch}, {"seq", r.seq}, {"target_bytes", r.target_bytes},
                {"evaluated", r.evaluated}, {"fitting", r.fitting}, {"ranked", ranked}, {"rejected", rejected}, {"notes", r.notes},
                {"suggestion", suggestion}};
}

json batch_sizing_to_json(const BatchSizing& x) {
    return json{{"fabric", x.fabric_id}, {"layout", layout_to_json(x.layout)}, {"per_gpu_batch", x.per_gpu_batch},
                {"global_batch", x.global_batch}, {"efficiency", x.efficiency}, {"memory_bytes", x.memory_bytes},
                {"activation_bytes", x.activation_bytes}, {"fits", x.fits}, {"step_s", x.step_s}, {"verdict", x.verdict}, {"fix", x.fix}};
}

json pareto_point_to_json(const ParetoPoint& p) {
    return json{{"gpus", p.gpus}, {"front", p.front}, {"train_days", p.layout.train_days}, {"rent_usd", p.layout.rent_usd},
                {"best", layout_result_to_json(p.layout)}};
}

json fabric_point_to_json(const FabricPoint& f) {
    return json{{"fabric", f.fabric_id}, {"ok", f.ok}, {"why", f.why}, {"best", f.ok ? layout_result_to_json(f.best) : json(nullptr)},
                {"sizing", batch_sizing_to_json(f.sizing)}};
}

json checklist_to_json(const Checklist& c) {
    json steps = json::array();
    for (const auto& s : c.steps)
        steps.push_back({{"key", s.key}, {"title", s.title}, {"value", s.value}, {"unit", s.unit}, {"second", s.second},
                         {"second_unit", s.second_unit}, {"detail", s.detail}});
    return json{{"goal", c.serving ? "serve" : "train"}, {"steps", steps},
                {"answer", c.serving ? serve_cluster_to_json(c.serve_answer) : layout_result_to_json(c.answer)}, {"target_bytes", c.target_bytes}};
}

json serve_cluster_to_json(const ServeClusterResult& x) {
    return json{{"gpu", x.cluster.gpu_id}, {"gpus", x.cluster.gpus}, {"fabric", x.cluster.fabric}, {"ok", x.ok}, {"meets", x.meets},
                {"why", x.why}, {"tp", x.tp}, {"replicas", x.replicas}, {"max_seqs_per_replica", x.max_seqs_per_replica},
                {"seqs_per_replica", x.seqs_per_replica}, {"memory_bytes", x.memory_bytes}, {"weights_bytes", x.weights_bytes},
                {"kv_bytes", x.kv_bytes}, {"tokens_per_s_replica", x.tokens_per_s_replica},
                {"tokens_per_s", x.tokens_per_s}, {"rent_usd_per_hour", x.rent_usd_per_hour}, {"usd_per_mtok", x.usd_per_mtok},
                {"purchase_usd", x.purchase_usd}};
}

json cluster_to_json(const ClusterResult& x, double deadline_days) {
    json j{{"gpu", x.cluster.gpu_id}, {"gpus", x.cluster.gpus}, {"fabric", x.cluster.fabric}, {"ok", x.ok},
           {"why", x.why}, {"best", x.ok ? layout_result_to_json(x.best) : json(nullptr)},
           {"train_days", x.train_days}, {"rent_usd", x.rent_usd}, {"purchase_usd", x.purchase_usd}};
    if (deadline_days > 0) j["meets_deadline"] = x.ok && x.train_days > 0 && x.train_days <= deadline_days;
    return j;
}

json run_plan_request(const PlanRequest& req) {
    auto p = plan(req.cfg, req.in);
    if (!p.ok) return error_to_json(p.error);
    json out{{"ok", true}, {"plan", plan_result_to_json(p.value)}};
    // The guide's checklist: the best layout's (training), or the planned cluster serving the goal.
    auto ck = req.serve ? guide_checklist_serve(req.cfg, req.in, req.serve_goal) : guide_checklist(req.cfg, p.value);
    if (!ck.ok && req.serve && ck.error.field != "plan.serve") return error_to_json(ck.error);
    out["checklist"] = ck.ok ? checklist_to_json(ck.value) : json(nullptr);
    if (req.serve) {
        auto c = serve_clusters(req.cfg, req.in, req.serve_goal, req.clusters);
        if (!c.ok) return error_to_json(c.error);
        json arr = json::array();
        for (const auto& x : c.value) arr.push_back(serve_cluster_to_json(x));
        out["serve_clusters"] = arr;
    } else if (!req.clusters.empty()) {
        auto c = plan_clusters(req.cfg, req.in, req.clusters, p.value.memory);
        if (!c.ok) return error_to_json(c.error);
        json arr = json::array();
        for (const auto& x : c.value) arr.push_back(cluster_to_json(x, req.deadline_days));
        out["clusters"] = arr;
    }
    if (req.deadline_days != 0) {  // 0: not asked; anything else is checked against (0, 36500] days
        auto f = fewest_gpus(req.cfg, req.in, req.deadline_days, req.max_gpus);
        if (!f.ok) return error_to_json(f.error);
        const auto& x = f.value;
        out["fewest_gpus"] = {{"ok", x.ok}, {"gpus", x.ok ? x.cluster.gpus : 0}, {"why", x.why},
                              {"best", x.ok ? layout_result_to_json(x.best) : json(nullptr)},
                              {"train_days", x.train_days}, {"rent_usd", x.rent_usd}, {"purchase_usd", x.purchase_usd}};
    }
    if (req.batch_sizing && !p.value.ranked.empty()) {
        auto b = batch_sizing(req.cfg, req.in, p.value.ranked.front().layout, req.sizing_fabrics, req.target_efficiency);
        if (!b.ok) return error_to_json(b.error);
        json arr = json::array();
        for (const auto& x : b.value) arr.push_back(batch_sizing_to_json(x));
        out["batch_sizing"] = arr;
    }
    if (req.pareto) {
        const auto counts = req.pareto_counts.empty() ? pareto_gpu_counts(req.in.gpus, p.value.gpus_per_node) : req.pareto_counts;
        auto s = pareto_sweep(req.cfg, req.in, counts, req.pareto_per_count, p.value.memory);
        if (!s.ok) return error_to_json(s.error);
        json arr = json::array();
        for (const auto& x : s.value) arr.push_back(pareto_point_to_json(x));
        out["pareto"] = arr;
        out["pareto_tokens"] = req.in.train_tokens > 0 ? req.in.train_tokens : kParetoDefaultTokens;
    }
    if (req.fabric_comparison && !p.value.ranked.empty()) {
        auto f = fabric_comparison(req.cfg, req.in, req.compare_fabrics, p.value.ranked.front().layout, req.target_efficiency, p.value.memory);
        if (!f.ok) return error_to_json(f.error);
        json arr = json::array();
        for (const auto& x : f.value) arr.push_back(fabric_point_to_json(x));
        out["fabric_comparison"] = arr;
    }
    return out;
}

std::string plan_json(const std::string& request_text) {
    auto req = parse_plan_request(request_text);
    if (!req.ok) return dump(error_to_json(req.error));
    return dump(run_plan_request(req.value));
}

json fabrics_to_json() {
    json f = json::array(), n = json::array();
    for (const auto& x : fabric_catalog())
        f.push_back({{"id", x.id}, {"name", x.name}, {"intra_node", x.intra_node}, {"line_gbps", x.line_gbps},
                     {"efficiency", x.efficiency}, {"achieved_gbps", x.achieved_gbps()}, {"latency_us", x.latency_us}, {"all_to_all", x.all_to_all}, {"source", x.source}});
    for (const auto& x : node_catalog())
        n.push_back({{"gpu", x.gpu_id}, {"gpus_per_node", x.gpus_per_node}, {"intra_fabric", x.intra_fabric},
                     {"purchase_usd", x.purchase_usd}, {"gemm_share", x.gemm_share}, {"attention_share", x.attention_share},
                     {"source", x.source}, {"speed_source", x.speed_source}});
    return json{{"fabrics", f}, {"nodes", n}};
}

std::string fabrics_json() { return dump(fabrics_to_json()); }

}  // namespace vc::io
