// Unit-test helper: JSON documents edited by dotted path ("inference.vllm.max_num_seqs").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace vc::test {

// Sets `value` at the dotted `path` of `doc`, making the objects on the way.
inline void set_at(nlohmann::json& doc, const std::string& path, const nlohmann::json& value) {
    nlohmann::json* at = &doc;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (dot == std::string::npos) {
            (*at)[key] = value;
            return;
        }
        at = &(*at)[key];
        start = dot + 1;
    }
}

}  // namespace vc::test
