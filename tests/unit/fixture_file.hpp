// Test helper: a file of tests/fixtures/hf/ read whole (the config.json files tests/fixtures/README.md lists).
#pragma once

#include <catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace vc::test {

inline std::string fixture(const std::string& file) {
    std::ifstream f(std::string(VRAMCALC_IMPORT_FIXTURES) + "/hf/" + file, std::ios::binary);
    REQUIRE(f.good());
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace vc::test
