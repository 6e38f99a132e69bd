// Shared by the unit tests: a Config from its JSON text, failing the test (with the field and the
// message) when the text is refused.
#pragma once

#include <catch.hpp>

#include "core/config.hpp"
#include "io/config_json.hpp"

namespace vc::test {

inline Config parse(const char* json) {
    auto c = io::parse_config(json);
    INFO(c.error.field << ": " << c.error.message);
    REQUIRE(c.ok);
    return c.value;
}

}  // namespace vc::test
