// vramcalc io: what-fits answers as JSON.
#include "solve_json.hpp"

#include "config_json.hpp"

namespace vc::io {

nlohmann::json answer_to_json(const Answer& a) {
    nlohmann::json j = {{"ok", true},     {"question", a.question},       {"label", a.label}, {"value", a.value},
                        {"unit", a.unit}, {"explanation", a.explanation}, {"items", a.items}};
    // Present only when the answer's layout needs system RAM nobody checked (as GpuFit's field).
    if (a.needs_ram_bytes > 0) j["needs_ram_bytes"] = a.needs_ram_bytes;
    return j;
}

std::string solve_json(const std::string& config_text, const std::string& question) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    auto r = solve(cfg.value, question);
    if (!r.ok) return dump(error_to_json(r.error));
    return dump(answer_to_json(r.value));
}

nlohmann::json suggestions_to_json(const std::vector<Suggestion>& list) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& s : list)
        items.push_back({{"id", s.id}, {"label", s.label}, {"detail", s.detail}, {"total_bytes", s.total_bytes},
                         {"utilization", s.utilization}, {"config", config_to_json(s.config)}});
    return {{"ok", true}, {"suggestions", items}};
}

std::string suggest_json(const std::string& config_text) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    return dump(suggestions_to_json(fit_suggestions(cfg.value)));
}

nlohmann::json model_fits_to_json(const ModelFits& list) {
    nlohmann::json rows = nlohmann::json::array();
    int rank = 0;
    for (const auto& r : list.rows) {
        nlohmann::json j = {{"rank", ++rank},          {"model", r.model}, {"model_name", r.model_name}, {"format", r.format},
                            {"format_label", r.format_label}, {"params", r.params}, {"ok", r.ok}, {"total_bytes", r.total_bytes},
                            {"load_bytes", r.load_bytes}, {"share", r.share},        {"fits", r.fits}};
        if (r.partial) j["gpu_layers"] = r.gpu_layers;
        if (r.ram_bytes > 0) j["ram_bytes"] = r.ram_bytes;
        if (r.needs_ram) j["needs_ram"] = true;
        if (!r.ok) j["error"] = r.error;
        rows.push_back(j);
    }
    return {{"ok", true}, {"gpu", list.gpu_id}, {"budget_bytes", list.budget_bytes}, {"budget", list.budget}, {"fitting", list.fitting}, {"needing_ram", list.needing_ram}, {"models", rows}};
}

std::string fit_models_json(const std::string& config_text) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    auto r = fit_models(cfg.value);
    if (!r.ok) return dump(error_to_json(r.error));
    return dump(model_fits_to_json(r.value));
}

nlohmann::json questions_to_json() {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& q : solve_questions()) list.push_back({{"id", q.id}, {"label", q.label}, {"tasks", q.tasks}});
    return list;
}

std::string questions_json() { return dump(questions_to_json()); }

}  // namespace vc::io
