// vramcalc core: llama.cpp's -ot / --override-tensor. The value is comma-separated
// `pattern=buffer_type` pairs (common/arg.cpp parse_tensor_buffer_overrides: split at ',', the
// first '=' ends the pattern, the buffer type is a registered device's name: CPU, CUDA0, ROCm1,
// Metal ...). llama-model.cpp create_tensor matches each tensor's GGUF name against the patterns
// in order with std::regex_search; the first match replaces the buffer type the layer placement
// (-ngl, -ts) gives. The patterns are read here by a small matcher for the ECMAScript subset
// users write (docs/local.md lists it); std::regex throws on a bad pattern, and the WebAssembly
// build has exceptions off, so a bad pattern is an Error naming inference.llamacpp.override_tensor.
#pragma once

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.hpp"

namespace vc {

// A compiled pattern: a Thompson program run as a Pike VM (linear in the name's length, no
// backtracking), searched anywhere in the name as std::regex_search does.
class TensorPattern {
public:
    // Compiles `pattern`; false with `why` ("unbalanced parenthesis ...") when it is outside the
    // subset or malformed.
    bool compile(const std::string& pattern, std::string& why);
    // std::regex_search(name, pattern): a match anywhere in `name`.
    bool search(const std::string& name) const;

    struct Inst {
        enum Op : unsigned char { Class, Split, Jmp, Match, Bol, Eol } op;
        int x = 0, y = 0;  // Split: both targets; Jmp: x; Class: index into classes_
    };

private:
    std::vector<Inst> prog_;
    std::vector<std::bitset<256>> classes_;  // which bytes each class takes
    // Scratch kept between searches (no allocation per name): thread lists, the follow stack, and
    // for each pc the stamp of the position it was last added at (stamps grow across searches).
    mutable std::vector<int> clist_, nlist_, stack_;
    mutable std::vector<std::uint64_t> mark_;
    mutable std::uint64_t stamp_ = 0;
    friend struct PatternCompiler;
};

// One `pattern=buffer_type` pair: the device it names (-1: the host, CPU; i: the i-th GPU).
struct TensorOverride {
    std::string pattern;
    std::string buffer;
    int device = -1;
    TensorPattern re;
};

// Parses the -ot value for a machine of `n_gpus` GPUs whose llama.cpp backend is `backend`
// ("CUDA", "ROCm", "SYCL", "Metal", or "CPU" without a GPU). Accepted buffer types: CPU and
// backend0 .. backend(n_gpus - 1) (Metal also as "Metal", its name before 2025). Errors name
// inference.llamacpp.override_tensor.
bool parse_tensor_overrides(const std::string& value, const std::string& backend, int n_gpus, std::vector<TensorOverride>& out,
                            Error& err);

// The index of the first override whose pattern `name` matches, -1 if none.
int first_override(const std::vector<TensorOverride>& overrides, const std::string& name);

}  // namespace vc
