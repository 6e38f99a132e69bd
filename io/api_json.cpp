// vramcalc io: the effective config, presets and GPUs as JSON (io/api_json.hpp).
#include "api_json.hpp"

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "config_json.hpp"

namespace vc::io {

using nlohmann::json;

std::string resolve_config_json(const std::string& config_text) {
    auto cfg = parse_config(config_text);
    if (!cfg.ok) return dump(error_to_json(cfg.error));
    // What the estimate refuses (a value outside its field's range) is refused here too, as
    // `vramcalc --print-config` refuses it: the same error, no config.
    const auto est = estimate(cfg.value);
    if (!est.ok) return dump(error_to_json(est.error));
    return dump(config_to_json(cfg.value));
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
            {"sms", g.sms},
            {"threads_per_sm", g.threads_per_sm},
            {"compute_capability", g.compute_capability},
            {"source", g.source}};
}

json gpus_to_json() {
    json list = json::array();
    for (const auto& g : gpu_catalog()) list.push_back(gpu_to_json(g));
    return list;
}

}  // namespace vc::io
