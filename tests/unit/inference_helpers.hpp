// Shared by the inference unit tests: a serving Config for a preset, and its plan.
#pragma once

#include <catch.hpp>

#include "core/config.hpp"
#include "core/serve/inference.hpp"
#include "core/model/presets.hpp"

namespace vc::test {

inline Config serving(const char* preset, Engine engine, const char* weights, const char* gpu, int context, int n = 1) {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.task = Task::Inference;
    cfg.model = *find_preset(preset);
    cfg.gpu_id = gpu;
    cfg.inference.engine = engine;
    cfg.inference.weights.format = weights;
    cfg.inference.context = context;
    cfg.inference.concurrency = n;
    return cfg;
}

// A preset, resolved (head_dim, kv_heads filled); the test stops when it is missing or refused.
inline ModelSpec resolved_preset(const char* id) {
    const ModelSpec* p = find_preset(id);
    REQUIRE(p != nullptr);
    auto r = resolve_model(*p);
    INFO(r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

inline InferencePlan plan(const Config& cfg) {
    auto r = make_inference_plan(cfg);
    INFO(r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

}  // namespace vc::test
