// vramcalc CLI: `vramcalc plan [options]` ranks every parallel layout of a cluster by step time
// (core/plan/plan.hpp): the config flags describe the model and training setup, plan flags the
// cluster; --set plan.FIELD=VALUE reaches every field of docs/planner.md. --list-fabrics lists
// the interconnects.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../core/fields.hpp"
#include "../core/text.hpp"
#include "../io/config_json.hpp"
#include "../io/fields_doc.hpp"
#include "../io/plan_json.hpp"
#include "flags.hpp"

using nlohmann::json;

namespace vc::cli {

namespace {

// The flags that set a plan.* field are the request table's (core/fields.cpp); --serve, whose
// value is two fields, and --list-fabrics are this command's own.
std::string plan_usage() {
    return "usage: vramcalc plan [options]   rank every parallel layout of a cluster by step time\n"
           "Cluster (each sets a field of the config's \"plan\" object; see docs/planner.md):\n" +
           io::fields_flag_help(100, request_fields()) +
           "  --serve C[xCONTEXT]    compare --clusters for serving C concurrent sequences of CONTEXT tokens\n"
           "                         (plan.serve.concurrency, plan.serve.context)\n"
           "  --list-fabrics         the interconnect and node catalogs\n"
           "Model and training setup: the estimate's flags (--preset, --gpu, --gpus, --seq, --training-precision, --finetune,\n"
           "--training-profile, --set training.FIELD=..., --config FILE); --set plan.FIELD=VALUE sets any plan field. The layout\n"
           "(--tp, --pp, --dp, --cp, --ep, --sharding, --recompute, --grad-accum, --batch) is what the plan searches: a value given\n"
           "there is not a constraint (a note says so).\n";
}

// Sets `f` (a plan.* field) in the request's "plan" object from a flag's text; false with a message.
bool set_plan_field(json& plan, const FieldDef& f, const std::string& flag, const std::string& v) {
    const std::string key = std::string(f.path).substr(std::strlen("plan."));
    if (f.kind == FieldKind::Text) plan[key] = v;
    else if (f.kind == FieldKind::List) {  // plan.clusters: GPU:COUNT:FABRIC,...
        json c;
        std::string bad;
        if (!io::parse_cluster_list(v, c, bad)) {
            std::fprintf(stderr, "vramcalc: %s: \"%s\" is not GPU:COUNT:FABRIC (e.g. h100-80gb:512:ib-ndr400)\n", flag.c_str(), bad.c_str());
            return false;
        }
        plan[key] = c;
    } else {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0') {
            std::fprintf(stderr, "vramcalc: %s needs a number, got \"%s\"\n", flag.c_str(), v.c_str());
            return false;
        }
        plan[key] = x;
    }
    return true;
}

std::string gb(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", bytes / 1e9);
    return buf;
}

// A checklist number in its unit: bytes in GB, the share in percent, counts whole.
std::string checklist_number(double v, const std::string& unit) {
    char buf[64];
    if (unit == "bytes") return gb(v) + " GB";
    if (unit == "share") std::snprintf(buf, sizeof buf, "%.1f%% of the target", 100 * v);
    else if (unit == "bytes/parameter") std::snprintf(buf, sizeof buf, "%.4g bytes/parameter", v);
    else std::snprintf(buf, sizeof buf, "%.0f %s", v, noun_for(v, unit).c_str());
    return buf;
}

// The fields of the document that the search chooses itself (core/plan: layout_config writes them
// for the layout it loads), so a value given is not a constraint: "parallel.tp 2, training.sharding
// zero1". Empty when the document sets none.
std::string searched_fields_given(const json& doc) {
    std::string out;
    auto add = [&out](const std::string& path, const json& v) {
        out += (out.empty() ? "" : ", ") + path + " " + (v.is_string() ? v.get<std::string>() : v.dump());
    };
    if (doc.contains("parallel") && doc["parallel"].is_object())
        for (const auto& [key, value] : doc["parallel"].items()) add("parallel." + key, value);
    if (doc.contains("training") && doc["training"].is_object())
        for (const char* key : {"sharding", "recompute", "grad_accum"})
            if (doc["training"].contains(key)) add(std::string("training.") + key, doc["training"][key]);
    if (doc.contains("batch")) add("batch", doc["batch"]);
    return out;
}

}  // namespace

int plan_command(int argc, char** argv) {
    json plan = json::object();
    bool list_fabrics = false;
    std::vector<char*> rest = {argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") { std::printf("%s", plan_usage().c_str()); return 0; }
        if (a == "--list-fabrics") { list_fabrics = true; continue; }
        if (a == "--serve") {
            if (i + 1 >= argc) { std::fprintf(stderr, "vramcalc: --serve needs a value\n"); return 2; }
            const std::string v = argv[++i];
            const size_t x = v.find('x');
            char* end = nullptr;
            const double c = std::strtod(v.substr(0, x).c_str(), &end);
            double ctx = 0;
            bool good = !v.empty() && end && *end == '\0';
            if (good && x != std::string::npos) {
                const std::string t = v.substr(x + 1);
                ctx = std::strtod(t.c_str(), &end);
                good = !t.empty() && *end == '\0';
            }
            if (!good) { std::fprintf(stderr, "vramcalc: --serve: \"%s\" is not CONCURRENCY[xCONTEXT] (e.g. 256x8192)\n", v.c_str()); return 2; }
            plan["serve"] = {{"concurrency", c}};
            if (x != std::string::npos) plan["serve"]["context"] = ctx;  // the engine checks its range
            continue;
        }
        if (const FieldDef* f = find_flag_field(a, request_fields())) {
            // An object (plan.pareto, ...) is switched on by its flag; every other field takes a value.
            if (f->kind == FieldKind::Object) {
                plan[std::string(f->path).substr(std::strlen("plan."))] = true;
                continue;
            }
            if (i + 1 >= argc) { std::fprintf(stderr, "vramcalc: %s needs a value\n", argv[i]); return 2; }
            if (!set_plan_field(plan, *f, a, argv[++i])) return 2;
            continue;
        }
        rest.push_back(argv[i]);
    }
    Options opt;
    const int rc = parse_flags(static_cast<int>(rest.size()), rest.data(), 1, opt);
    if (rc >= 0) return rc;
    if (list_fabrics) {
        if (opt.format == "json") { std::printf("%s\n", io::dump(io::fabrics_to_json(), 2).c_str()); return 0; }
        for (const auto& f : fabric_catalog())
            std::printf("%-16s %-44s %7.1f GB/s x %.2f, %4.0f us  %s\n", f.id.c_str(), f.name.c_str(), f.line_gbps, f.efficiency,
                        f.latency_us, f.intra_node ? "(inside a node)" : "");
        return 0;
    }
    json doc = opt.doc;
    if (doc.contains("plan") && doc["plan"].is_object()) {
        // A switch (--batch-sizing, --pareto, --fabric-chart) keeps the object --set or --config gave it.
        for (const auto& [key, value] : plan.items())
            if (!(value.is_boolean() && value.get<bool>() && doc["plan"].contains(key) && doc["plan"][key].is_object())) doc["plan"][key] = value;
    } else if (!plan.empty()) doc["plan"] = plan;
    auto req = io::plan_request_from_json(doc);
    if (!req.ok) { print_error(opt, req.error); return 1; }
    const json out = io::run_plan_request(req.value);
    if (!out.value("ok", false)) { print_error(opt, Error{out["error"].value("field", ""), out["error"].value("message", "")}); return 1; }
    if (opt.format == "json") { std::printf("%s\n", io::dump(out, 2).c_str()); return 0; }
    const json& p = out["plan"];
    // A serving goal (--serve) answers with its checklist and clusters: the training search of the
    // same cluster (global batch, layouts, rejections) would read as the answer; --format json keeps it.
    const bool serving = out.contains("serve_clusters");
    if (serving)
        std::printf("%d x %s (%d per node on %s): serving; the training layouts of this cluster are in --format json (plan)\n",
                    p["gpus"].get<int>(), p["gpu"].get<std::string>().c_str(), p["gpus_per_node"].get<int>(), p["intra_fabric"].get<std::string>().c_str());
    else
        std::printf("%d x %s (%d per node on %s), %s between nodes; global batch %.0f x %.0f tokens; target %s GB per GPU\n",
                    p["gpus"].get<int>(), p["gpu"].get<std::string>().c_str(), p["gpus_per_node"].get<int>(), p["intra_fabric"].get<std::string>().c_str(),
                    p["fabric"].get<std::string>().c_str(), p["global_batch"].get<double>(), p["seq"].get<double>(), gb(p["target_bytes"].get<double>()).c_str());
    if (!serving) {
        const long long evaluated = p["evaluated"].get<long long>();
        std::printf("%lld %s evaluated, %lld fit\n", evaluated, noun_for(static_cast<double>(evaluated), "layouts").c_str(), p["fitting"].get<long long>());
        if (!p["ranked"].empty()) {
            std::printf("%3s  %-46s %9s %8s %6s %10s %8s %8s %9s %12s\n", "#", "layout", "GB/GPU", "step s", "MFU", "tok/s/GPU", "comm s", "bubble s", "days", "rent USD");
            int i = 0;
            bool budget = false;  // days and cost exist for a token budget only (plan.train_tokens > 0)
            for (const auto& r : p["ranked"]) {
                char days[32] = "-", rent[32] = "-";
                if (r["train_days"].get<double>() > 0) {
                    budget = true;
                    std::snprintf(days, sizeof days, "%.1f", r["train_days"].get<double>());
                    std::snprintf(rent, sizeof rent, "%.0f", r["rent_usd"].get<double>());
                }
                std::printf("%3d  %-46s %9s %8.2f %5.1f%% %10.0f %8.2f %8.2f %9s %12s\n", ++i, r["layout"]["label"].get<std::string>().c_str(),
                            gb(r["memory_bytes"].get<double>()).c_str(), r["step_s"].get<double>(), 100 * r["mfu"].get<double>(),
                            r["tokens_per_s_per_gpu"].get<double>(), r["comm_exposed_s"].get<double>(), r["bubble_s"].get<double>(), days, rent);
            }
            if (!budget) std::printf("days and cost: --tokens N (plan.train_tokens) sets the token budget they are for\n");
        }
        if (!p["rejected"].empty()) {
            std::printf("rejected:\n");
            for (const auto& c : p["rejected"])
                std::printf("  %6lld  %s; e.g. %s\n", c["count"].get<long long>(), c["reason"].get<std::string>().c_str(), c["example"].get<std::string>().c_str());
        }
        for (const auto& n : p["notes"]) std::printf("note: %s\n", n.get<std::string>().c_str());
        // --tp, --sharding, ... describe one layout; the plan ranks every layout instead.
        const std::string given = searched_fields_given(doc);
        if (!given.empty())
            std::printf("note: the plan searches the parallel layout, sharding, micro-batch, accumulation and recomputation itself; "
                        "%s given are not constraints (without `plan`, the same flags estimate that one layout)\n", given.c_str());
    }
    if (out["checklist"].is_object()) {
        const json& c = out["checklist"];
        const bool serve = c["goal"] == "serve";
        std::printf("the guide's checklist (%s):\n", serve ? "the planned cluster serving the goal" : "the best layout");
        int i = 0;
        for (const auto& s : c["steps"]) {
            std::string line = checklist_number(s["value"].get<double>(), s["unit"].get<std::string>());
            const std::string su = s["second_unit"].get<std::string>();
            if (!su.empty()) line += (s["key"] == "overhead" ? " (total " : " (") + checklist_number(s["second"].get<double>(), su) + ")";
            std::printf("  %d. %-13s %-44s %s\n", ++i, s["title"].get<std::string>().c_str(), line.c_str(), s["detail"].get<std::string>().c_str());
        }
        const json& a = c["answer"];
        if (serve)
            std::printf("  answer: %d x %s as %d %s x TP%d, %.0f %s each%s, %.0f tokens/s, $%.3f per million tokens\n",
                        a["gpus"].get<int>(), a["gpu"].get<std::string>().c_str(), a["replicas"].get<int>(), noun_for(a["replicas"].get<int>(), "replicas").c_str(),
                        a["tp"].get<int>(), a["seqs_per_replica"].get<double>(), noun_for(a["seqs_per_replica"].get<double>(), "sequences").c_str(), a["meets"].get<bool>() ? "" : " (short of the goal)", a["tokens_per_s"].get<double>(),
                        a["usd_per_mtok"].get<double>());
        else
            std::printf("  answer: %s, %s GB per GPU, %.2f s a step, MFU %.1f%%\n", a["layout"]["label"].get<std::string>().c_str(),
                        gb(a["memory_bytes"].get<double>()).c_str(), a["step_s"].get<double>(), 100 * a["mfu"].get<double>());
    }
    if (out.contains("clusters")) {
        std::printf("clusters:\n");
        for (const auto& c : out["clusters"]) {
            if (!c["ok"].get<bool>()) { std::printf("  %5d x %-14s %-12s  %s\n", c["gpus"].get<int>(), c["gpu"].get<std::string>().c_str(), c["fabric"].get<std::string>().c_str(), c["why"].get<std::string>().c_str()); continue; }
            std::printf("  %5d x %-14s %-12s  %8.1f days  rent $%.0f  buy $%.0f  %s%s\n", c["gpus"].get<int>(), c["gpu"].get<std::string>().c_str(),
                        c["fabric"].get<std::string>().c_str(), c["train_days"].get<double>(), c["rent_usd"].get<double>(), c["purchase_usd"].get<double>(),
                        c["best"]["layout"]["label"].get<std::string>().c_str(),
                        !c.contains("meets_deadline") ? "" : c["meets_deadline"].get<bool>() ? "  (meets the deadline)" : "  (misses the deadline)");
        }
    }
    if (out.contains("serve_clusters")) {
        std::printf("clusters for serving (replicas x TP, decode throughput from the roofline, rental cost per million output tokens):\n");
        for (const auto& c : out["serve_clusters"]) {
            if (!c["ok"].get<bool>()) { std::printf("  %5d x %-14s  %s\n", c["gpus"].get<int>(), c["gpu"].get<std::string>().c_str(), c["why"].get<std::string>().c_str()); continue; }
            std::printf("  %5d x %-14s %4d x TP%-2d %6.0f seq/replica (max %.0f), %s GB/GPU, %10.0f tok/s, $%.3f/Mtok, buy $%.0f%s%s\n", c["gpus"].get<int>(),
                        c["gpu"].get<std::string>().c_str(), c["replicas"].get<int>(), c["tp"].get<int>(), c["seqs_per_replica"].get<double>(),
                        c["max_seqs_per_replica"].get<double>(), gb(c["memory_bytes"].get<double>()).c_str(), c["tokens_per_s"].get<double>(),
                        c["usd_per_mtok"].get<double>(), c["purchase_usd"].get<double>(), c["meets"].get<bool>() ? "" : "  short: ",
                        c["meets"].get<bool>() ? "" : c["why"].get<std::string>().c_str());
        }
    }
    if (out.contains("pareto")) {
        std::printf("time against cost for %.3g tokens (* on the Pareto front):\n", out["pareto_tokens"].get<double>());
        for (const auto& x : out["pareto"])
            std::printf("  %s %6d %-4s %9.1f days  rent $%-12.0f %s\n", x["front"].get<bool>() ? "*" : " ", x["gpus"].get<int>(), noun_for(x["gpus"].get<int>(), "GPUs").c_str(),
                        x["train_days"].get<double>(), x["rent_usd"].get<double>(), x["best"]["layout"]["label"].get<std::string>().c_str());
    }
    if (out.contains("fabric_comparison")) {
        std::printf("the same job on each fabric (best layout; batch sizing of the best layout's split):\n");
        for (const auto& f : out["fabric_comparison"]) {
            if (!f["ok"].get<bool>()) std::printf("  %-12s %s\n", f["fabric"].get<std::string>().c_str(), f["why"].get<std::string>().c_str());
            else std::printf("  %-12s step %7.2f s, %s GB/GPU, %s\n", f["fabric"].get<std::string>().c_str(), f["best"]["step_s"].get<double>(),
                             gb(f["best"]["memory_bytes"].get<double>()).c_str(), f["best"]["layout"]["label"].get<std::string>().c_str());
            std::printf("  %-12s   %s\n", "", f["sizing"]["verdict"].get<std::string>().c_str());
        }
    }
    if (out.contains("fewest_gpus")) {
        const json& f = out["fewest_gpus"];
        if (f["ok"].get<bool>()) std::printf("fewest GPUs for the deadline: %d (%.1f days, %s)\n", f["gpus"].get<int>(), f["train_days"].get<double>(), f["best"]["layout"]["label"].get<std::string>().c_str());
        else std::printf("fewest GPUs for the deadline: %s\n", f["why"].get<std::string>().c_str());
    }
    if (out.contains("batch_sizing")) {
        std::printf("network-aware batch sizing (best layout's split):\n");
        for (const auto& b : out["batch_sizing"]) std::printf("  %-12s %s\n", b["fabric"].get<std::string>().c_str(), b["verdict"].get<std::string>().c_str());
    }
    return 0;
}

}  // namespace vc::cli
