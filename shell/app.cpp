// vramcalc shell: application state and the one call into the engine.
#include "app.hpp"

#include "core/estimate.hpp"

namespace vc::shell {

App& app() {
    static App instance;
    return instance;
}

Config default_inputs() {
    Config c;
    c.method = Method::Quick;
    c.task = Task::Training;
    c.quick.params_b = 7;
    c.quick.precision = QuickPrecision::Fp16;
    c.quick.optimizer = QuickOptimizer::AdamWMixed;
    c.quick.batch = 4;
    c.quick.seq = 2048;
    // The guide's example model (a 70B dense decoder) for when the user switches method.
    c.model.layers = 80;
    c.model.hidden = 8192;
    c.model.heads = 64;
    c.gpus = 8;
    return c;
}

bool is_locked(const App& a, const std::string& field) {
    for (const auto& f : a.embed.locked)
        if (f == field) return true;
    return false;
}

void recompute(App& a) {
    ++a.revision;
    auto r = estimate(a.inputs);
    if (r.ok) {
        a.result = std::move(r.value);
        a.has_result = true;
        a.error = Error{};
    } else {
        a.error = r.error;
    }
}

}  // namespace vc::shell
