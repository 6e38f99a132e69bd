// vramcalc io: what the model importers share (io/model_import.hpp is the interface).
#pragma once

#include <string>
#include <vector>

#include "model_import.hpp"

namespace vc::io::detail {

// Where a tensor's bytes go in WeightsFile (the components of core's WeightBreakdown).
enum class Part { Embedding, Output, Attention, Mlp, ExpertsRouted, ExpertsShared, Router, Other };

// Collects tensors into a WeightsFile: parts, per-layer bytes (layer -1: outside the layers).
struct WeightsSum {
    WeightsFile file{};
    std::vector<double> layers;      // grown as layers appear
    std::vector<double> routed;      // routed-expert bytes by layer, grown as they appear
    double params = 0;
    void add(Part part, int layer, double bytes, double params);
    // Moves the sums into `r.weights` once the model's layer count is known.
    void finish(ModelImport& r, const std::string& source);
};

// The note on a GGUF's multi-token-prediction layers left out of the weights (`layers` of them, `bytes` in all):
// llama.cpp creates their tensors TENSOR_SKIP and does not load them.
void mtp_note(ModelImport& r, int layers, double bytes);

// A failed import: field "import", the message prefixed with the file's name.
ModelImport failure(const std::string& kind, const std::string& name, const std::string& message, std::uint64_t need = 0);

// Sets r.complete (no missing key and resolve_model accepts the spec) and the notes.
void finish_model(ModelImport& r);

// The layer index in a tensor name after `marker` ("blk.", "layers.", "h."), or -1.
int layer_of(const std::string& name, const char* marker);

bool ends_with(const std::string& s, const char* suffix);
bool contains(const std::string& s, const char* part);

// The file name of part `want_no` (0-based) of a split, from a part's name in llama.cpp's pattern
// (llama_split_path: "PREFIX-%05d-of-%05d.gguf"); "part N of the split" when the name is not in it.
std::string split_part_name(const std::string& given, int given_no, int count, int want_no);

// What a GGUF's tensor table says of the architecture (vocabulary, tied head, biases, norms, the MLP
// kind, positions), from the tensors of every part of a split (io/import_gguf.cpp).
void gguf_tensor_facts(ModelImport& r, const std::vector<GgufTensorShape>& tensors);

// "Q4_K 81%, Q6_K 19%" from (type name, bytes or parameters) pairs, largest first.
std::string mix_text(std::vector<std::pair<std::string, double>> shares);

}  // namespace vc::io::detail
