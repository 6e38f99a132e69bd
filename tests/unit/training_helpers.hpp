// Shared by the training unit tests: a Config read from JSON, a training result that must succeed,
// and whether an Estimate carries a note.
#pragma once

#include <catch.hpp>

#include <string>

#include "core/config.hpp"
#include "core/estimate.hpp"
#include "core/train/training.hpp"
#include "io/config_json.hpp"

namespace vc::test {

inline Config parsed(const std::string& json) {
    const auto cfg = io::parse_config(json);
    INFO(json);
    REQUIRE(cfg.ok);
    return cfg.value;
}

inline TrainingResult trained(const Config& c) {
    const auto r = training_result(c);
    INFO(r.error.field << ": " << r.error.message);
    REQUIRE(r.ok);
    return r.value;
}

inline bool has_note(const Estimate& e, const std::string& text) {
    for (const auto& n : e.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace vc::test
