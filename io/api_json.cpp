// vramcalc io: solve answers, questions, presets and GPUs as JSON (io/api_json.hpp).
#include "api_json.hpp"

#include "../core/presets.hpp"
#include "config_json.hpp"

namespace vc::io {

using nlohmann::json;

json answer_to_json(const Answer& a) {
    return {{"ok", true},        {"question", a.question}, {"label", a.label},  {"value", a.value},
            {"unit", a.unit},    {"explanation", a.explanation}, {"items", a.items}};
}

std::string solve_json(const std::string& config_text, const std::string& question) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    auto r = solve(cfg.value, question);
    if (!r.ok) return dump(error_to_json(r.error));
    return dump(answer_to_json(r.value));
}

std::string resolve_config_json(const std::string& config_text) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    return dump(config_to_json(cfg.value));
}

json questions_to_json() {
    json list = json::array();
    for (const auto& q : solve_questions()) {
        json tasks = json::array();
        const std::string all = q.tasks;
        for (size_t start = 0; start <= all.size();) {
            size_t comma = all.find(',', start);
            if (comma == std::string::npos) comma = all.size();
            if (comma > start) tasks.push_back(all.substr(start, comma - start));
            start = comma + 1;
        }
        list.push_back({{"id", q.id}, {"label", q.label}, {"tasks", tasks}});
    }
    return list;
}

json preset_to_json(const ModelSpec& m) {
    double total_b = 0, active_b = 0;
    auto r = resolve_model(m);
    if (r.ok) {
        const ParamBreakdown b = model_params(r.value);
        total_b = b.total / 1e9;
        active_b = b.active / 1e9;
    }
    json arch = model_to_json(m);
    arch.erase("preset");  // the preset's own fields: a config may give them instead of the id
    arch.erase("name");
    return {{"id", m.id},
            {"name", m.name},
            {"family", m.family},
            {"params_b", total_b},
            {"active_params_b", active_b},
            {"published_params_b", m.published_params_b},
            {"approximate", m.approximate},
            {"architecture", arch}};
}

json presets_to_json() {
    json list = json::array();
    for (const auto& m : model_presets()) list.push_back(preset_to_json(m));
    return list;
}

json gpu_to_json(const GpuSpec& g) {
    return {{"id", g.id},
            {"name", g.name},
            {"nominal_gb", g.nominal_gb},
            {"memory_bytes", g.memory_bytes},
            {"bandwidth_gbps", g.bandwidth_gbps},
            {"bf16_tflops", g.bf16_tflops},
            {"fp8_tflops", g.fp8_tflops},
            {"price_per_hour_usd", g.price_per_hour_usd},
            {"source", g.source}};
}

json gpus_to_json() {
    json list = json::array();
    for (const auto& g : gpu_catalog()) list.push_back(gpu_to_json(g));
    return list;
}

}  // namespace vc::io
