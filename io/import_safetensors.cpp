// vramcalc io: safetensors header reader (an 8-byte little-endian length, then a JSON object of
// tensor name -> {dtype, shape, data_offsets}, huggingface/safetensors docs) and the sharded
// checkpoint's model.safetensors.index.json ({metadata: {total_size}, weight_map}). Gives the exact
// parameter count, the bytes by component and layer, and the checkpoint's quantization from tensor
// names and dtypes (GPTQ/AWQ qweight + scales + qzeros, FP8 + weight_scale(_inv), MXFP4 _blocks +
// _scales, bitsandbytes quant_state). A header holds shapes, not head counts: the architecture
// stays incomplete unless a config.json comes with it (merge_imports).
//
// [SECTIONS]
//   dtypes     element sizes
//   header     the JSON header, parsed with every array kept short
//   tensors    roles, parameters, quantization
//   index      model.safetensors.index.json
#include <algorithm>
#include <cmath>
#include <map>

#include "core/text.hpp"
#include "import_internal.hpp"

namespace vc::io {

using detail::contains;
using detail::ends_with;
using detail::Part;
using nlohmann::json;

// [SECTION] dtypes --------------------------------------------------------------------------------
namespace {

// Bytes per element of each safetensors dtype (safetensors/src/tensor.rs Dtype::size); the
// sub-byte F4/F6 types are counted by data_offsets alone.
double dtype_bytes(const std::string& d) {
    if (d == "BOOL" || d == "U8" || d == "I8" || d == "F8_E5M2" || d == "F8_E4M3" || d == "F8_E8M0") return 1;
    if (d == "I16" || d == "U16" || d == "F16" || d == "BF16") return 2;
    if (d == "I32" || d == "U32" || d == "F32") return 4;
    if (d == "I64" || d == "U64" || d == "F64") return 8;
    return 0;
}

// A safetensors header of more than 16 MiB is not a model's (DeepSeek-V3's largest shard header is
// about 0.1 MB); the limit also bounds the parsed document's memory.
constexpr std::uint64_t kMaxSafetensorsHeader = 16ull << 20;
constexpr std::size_t kMaxShapeValues = 16;  // array elements kept per array (shapes have at most 8 dims)

}  // namespace

// [SECTION] header --------------------------------------------------------------------------------
namespace {

// Parses JSON keeping at most kMaxShapeValues elements of any array below the top two levels, so
// a hostile header cannot grow the document beyond a few times its text.
json parse_bounded(const std::string& text) {
    std::vector<std::size_t> counts;
    json::parser_callback_t keep = [&counts](int depth, json::parse_event_t event, json&) {
        switch (event) {
            case json::parse_event_t::array_start: counts.push_back(0); return true;
            case json::parse_event_t::array_end: if (!counts.empty()) counts.pop_back(); return true;
            case json::parse_event_t::value:
                if (!counts.empty() && depth >= 2) return ++counts.back() <= kMaxShapeValues;
                return true;
            default: return true;
        }
    };
    return json::parse(text, keep, /*allow_exceptions=*/false);
}

struct StTensor {
    std::string name;
    std::string dtype;
    std::vector<double> shape;
    double elements = 1;
    double bytes = 0;
};

bool read_tensor(const std::string& name, const json& v, std::uint64_t data_bytes, StTensor& t, std::string& err) {
    t.name = name;
    if (!v.is_object() || !v.contains("dtype") || !v["dtype"].is_string() || !v.contains("shape") || !v["shape"].is_array() ||
        !v.contains("data_offsets") || !v["data_offsets"].is_array() || v["data_offsets"].size() != 2) {
        err = "tensor \"" + name + "\" is not {dtype, shape, data_offsets: [begin, end]}";
        return false;
    }
    t.dtype = v["dtype"].get<std::string>();
    if (v["shape"].size() > 8) return err = "tensor \"" + name + "\" has more than 8 dimensions", false;
    for (const auto& d : v["shape"]) {
        if (!d.is_number_unsigned()) return err = "tensor \"" + name + "\" has a dimension that is not a whole number", false;
        t.shape.push_back(static_cast<double>(d.get<std::uint64_t>()));
        t.elements *= t.shape.back();
    }
    const json& off = v["data_offsets"];
    if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned())
        return err = "tensor \"" + name + "\" has data_offsets that are not whole numbers", false;
    const std::uint64_t begin = off[0].get<std::uint64_t>(), end = off[1].get<std::uint64_t>();
    if (begin > end) return err = "tensor \"" + name + "\" has data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] reversed", false;
    if (end > data_bytes)
        return err = "tensor \"" + name + "\" ends at data byte " + std::to_string(end) + ", past the file's " + std::to_string(data_bytes) +
                     " bytes of data",
               false;
    t.bytes = static_cast<double>(end - begin);
    const double per = dtype_bytes(t.dtype);
    if (per > 0 && t.elements * per != t.bytes)
        return err = "tensor \"" + name + "\" of shape " + std::to_string(t.shape.size()) + "-D " + t.dtype + " takes " + num(t.elements * per) +
                     " bytes, its data_offsets span " + num(t.bytes),
               false;
    return true;
}

}  // namespace

// [SECTION] tensors -------------------------------------------------------------------------------
namespace {

Part part_of(const std::string& n, size_t dims) {
    if (contains(n, "embed_tokens") || contains(n, "wte.") || contains(n, "wpe.") || contains(n, "word_embeddings") ||
        contains(n, "position_embeddings") || contains(n, "token_type_embeddings") || contains(n, "embed_in."))
        return Part::Embedding;
    if (n.rfind("lm_head", 0) == 0 || contains(n, ".lm_head.") || n.rfind("embed_out", 0) == 0) return Part::Output;
    if (contains(n, "shared_expert_gate") || contains(n, ".mlp.gate.") || contains(n, ".block_sparse_moe.gate.") || contains(n, ".router."))
        return Part::Router;
    if (contains(n, "shared_expert")) return Part::ExpertsShared;
    if (contains(n, ".experts.")) return Part::ExpertsRouted;
    if (dims < 2 || contains(n, "norm")) return Part::Other;
    if (contains(n, "attn") || contains(n, "attention.self.") || contains(n, "attention.output.") || contains(n, "self_attention"))
        return Part::Attention;
    if (contains(n, ".mlp.") || contains(n, "feed_forward") || contains(n, ".ffn.") || contains(n, "intermediate.") || contains(n, ".output.dense"))
        return Part::Mlp;
    return Part::Other;
}

int layer_index(const std::string& n) {
    for (const char* mk : {"layers.", "h.", "layer.", "blocks."}) {
        const int l = detail::layer_of(n, mk);
        if (l >= 0) return l;
    }
    return -1;
}

// Tensors that hold quantization metadata, not parameters.
bool is_quant_metadata(const std::string& n) {
    for (const char* s : {".scales", ".qzeros", ".g_idx", "weight_scale", "weight_scale_inv", "input_scale", "weight_zero_point", ".SCB",
                          ".absmax", ".quant_map", "quant_state", "nested_absmax", "nested_quant_map", "_scales"})
        if (ends_with(n, s) || contains(n, std::string(s + std::string(".")).c_str()) || contains(n, "quant_state")) return true;
    return false;
}

std::string prefix_of(const std::string& n) {
    const size_t dot = n.rfind('.');
    return dot == std::string::npos ? std::string() : n.substr(0, dot);
}

}  // namespace

ModelImport import_safetensors(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size) {
    if (file_size < size) file_size = size;
    if (size < 8) return detail::failure("safetensors", name, "a safetensors file starts with an 8-byte header length; there are " + std::to_string(size) + " bytes");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | data[i];
    if (n > file_size - 8)
        return detail::failure("safetensors", name, "the header length " + std::to_string(n) + " runs past the end of the file (" +
                                                        std::to_string(file_size) + " bytes)");
    if (n > kMaxSafetensorsHeader)
        return detail::failure("safetensors", name, "the header length " + std::to_string(n) + " is more than " +
                                                        std::to_string(kMaxSafetensorsHeader) + " bytes, larger than any model's header");
    if (8 + n > size) return detail::failure("safetensors", name, "the header continues past the bytes given", 8 + n);
    const std::string text(reinterpret_cast<const char*>(data + 8), static_cast<size_t>(n));
    const json doc = parse_bounded(text);
    if (doc.is_discarded() || !doc.is_object()) return detail::failure("safetensors", name, "the header is not a JSON object");

    const std::uint64_t data_bytes = file_size - 8 - n;
    const bool whole_file = file_size > size || size == 8 + n + data_bytes;  // offsets can be checked against the file's length
    std::vector<StTensor> tensors;
    std::map<std::string, size_t> by_name;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        StTensor t;
        std::string err;
        if (!read_tensor(it.key(), it.value(), whole_file ? data_bytes : ~0ull, t, err)) return detail::failure("safetensors", name, err);
        by_name[t.name] = tensors.size();
        tensors.push_back(std::move(t));
    }
    if (tensors.empty()) return detail::failure("safetensors", name, "the header lists no tensor");

    ModelImport r;
    r.ok = true;
    r.kind = "safetensors";
    r.name = name;
    r.header_bytes = 8 + n;
    r.tensor_count = tensors.size();
    auto find = [&](const std::string& k) -> const StTensor* {
        auto f = by_name.find(k);
        return f == by_name.end() ? nullptr : &tensors[f->second];
    };

    // Quantization from names and dtypes.
    bool gptq = false, awq = false, mxfp4 = false, nf4 = false, fp4 = false, bnb_dq = false, bnb8 = false;
    int bits = 0, group = 0;
    std::string fp8;
    std::map<std::string, double> float_bytes;
    for (const auto& t : tensors) {
        if (ends_with(t.name, ".qweight") && t.shape.size() == 2) {
            const std::string p = prefix_of(t.name);
            const StTensor* sc = find(p + ".scales");
            const StTensor* qz = find(p + ".qzeros");
            if (sc && qz && sc->shape.size() == 2 && qz->shape.size() == 2 && qz->shape[1] > 0 && sc->shape[0] > 0) {
                const double pack = sc->shape[1] / qz->shape[1];
                if (pack >= 1 && 32 / pack == std::floor(32 / pack)) bits = static_cast<int>(32 / pack);
                const bool is_gptq = t.shape[1] == sc->shape[1];
                (is_gptq ? gptq : awq) = true;
                const double in = is_gptq ? t.shape[0] * pack : t.shape[0];
                group = static_cast<int>(in / sc->shape[0]);
            }
        }
        if (ends_with(t.name, "_blocks") && t.dtype == "U8") mxfp4 = true;
        if (contains(t.name, "quant_state.bitsandbytes__nf4")) nf4 = true;
        if (contains(t.name, "quant_state.bitsandbytes__fp4")) fp4 = true;
        if (contains(t.name, "nested_absmax")) bnb_dq = true;
        if (ends_with(t.name, ".SCB")) bnb8 = true;
        if (ends_with(t.name, "weight_scale_inv") && t.shape.size() == 2) fp8 = "fp8-block";
        else if (ends_with(t.name, "weight_scale") && fp8.empty()) fp8 = t.elements <= 1 ? "fp8" : "fp8-channel";
        if ((t.dtype == "F8_E4M3" || t.dtype == "F8_E5M2") && t.shape.size() == 2 && fp8.empty()) fp8 = "fp8";
        if (t.shape.size() >= 2 && (t.dtype == "BF16" || t.dtype == "F16" || t.dtype == "F32")) float_bytes[t.dtype] += t.bytes;
    }
    if (gptq || awq) {
        r.weights_format = std::string(gptq ? "gptq" : "awq") + "-int" + std::to_string(bits > 0 ? bits : 4);
        if (find_weight_format(r.weights_format) == nullptr) {
            r.notes.push_back(r.weights_format + " is not a format this tool models; read as " + (gptq ? "gptq-int4" : "awq-int4"));
            r.weights_format = gptq ? "gptq-int4" : "awq-int4";
        }
        r.group_size = group > 0 ? group : 128;
    } else if (mxfp4) {
        r.weights_format = "mxfp4";
    } else if (nf4 || fp4) {
        r.weights_format = std::string(nf4 ? "bnb-nf4" : "bnb-fp4") + (bnb_dq ? "-dq" : "");
    } else if (bnb8) {
        r.weights_format = "bnb-int8";
    } else if (!fp8.empty()) {
        r.weights_format = fp8;
    } else if (!float_bytes.empty()) {
        auto top = std::max_element(float_bytes.begin(), float_bytes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        r.weights_format = top->first == "BF16" ? "bf16" : top->first == "F16" ? "fp16" : "fp32";
    }

    // Parameters and bytes by component and layer.
    const double pack4 = 32.0 / (bits > 0 ? bits : 4);
    detail::WeightsSum sum;
    std::map<std::string, double> by_dtype;
    int max_layer = -1;
    for (const auto& t : tensors) {
        double params = t.elements;
        if (ends_with(t.name, ".qweight")) params = t.elements * pack4;
        else if (ends_with(t.name, "_blocks") && t.dtype == "U8") params = t.elements * 2;  // two E2M1 values per byte
        else if ((nf4 || fp4) && t.dtype == "U8" && ends_with(t.name, ".weight")) params = t.elements * 2;
        else if (is_quant_metadata(t.name)) params = 0;
        const int layer = layer_index(t.name);
        max_layer = std::max(max_layer, layer);
        sum.add(part_of(t.name, t.shape.size()), layer, t.bytes, params);
        by_dtype[t.dtype] += t.bytes;
    }

    // What the shapes tell of the architecture.
    ModelSpec& m = r.model;
    m.family = "Imported";
    if (max_layer >= 0) m.layers = max_layer + 1;
    for (const auto& t : tensors) {
        if (part_of(t.name, t.shape.size()) == Part::Embedding && contains(t.name, "embed_tokens") && t.shape.size() == 2 && t.shape[0] < 1e9) {
            m.vocab = static_cast<int>(t.shape[0]);
            m.hidden = static_cast<int>(t.shape[1]);
        }
        if ((ends_with(t.name, "mlp.up_proj.weight") || ends_with(t.name, "mlp.gate_proj.weight")) && t.shape.size() == 2 && t.shape[0] < 1e9)
            m.ffn = static_cast<int>(t.shape[0]);
    }
    const char* why = " (config.json; a safetensors header has shapes, not head counts)";
    if (m.layers == 0) r.missing.push_back({"model.layers", std::string("num_hidden_layers") + why});
    if (m.hidden == 0) r.missing.push_back({"model.hidden", std::string("hidden_size") + why});
    r.missing.push_back({"model.heads", std::string("num_attention_heads") + why});
    r.missing.push_back({"model.kv_heads", std::string("num_key_value_heads") + why});
    if (m.ffn == 0) r.missing.push_back({"model.ffn", std::string("intermediate_size") + why});
    if (m.vocab == 0) r.missing.push_back({"model.vocab", std::string("vocab_size") + why});

    sum.file.mix = detail::mix_text(std::vector<std::pair<std::string, double>>(by_dtype.begin(), by_dtype.end()));
    sum.finish(r, name);
    detail::finish_model(r);
    return r;
}

// [SECTION] index ---------------------------------------------------------------------------------
ModelImport import_safetensors_index(const std::string& text, const std::string& name) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return detail::failure("safetensors-index", name, "the index is not a JSON object");
    if (!doc.contains("weight_map") || !doc["weight_map"].is_object())
        return detail::failure("safetensors-index", name, "the index has no \"weight_map\" object (tensor name -> shard file)");
    ModelImport r;
    r.ok = true;
    r.kind = "safetensors-index";
    r.name = name;
    const json& wm = doc["weight_map"];
    r.tensor_count = wm.size();
    int max_layer = -1;
    bool qweight = false, gidx = false, blocks = false, scale_inv = false, scale = false;
    std::map<std::string, int> shards;
    for (auto it = wm.begin(); it != wm.end(); ++it) {
        const std::string& n = it.key();
        max_layer = std::max(max_layer, layer_index(n));
        qweight = qweight || ends_with(n, ".qweight");
        gidx = gidx || ends_with(n, ".g_idx");
        blocks = blocks || ends_with(n, "_blocks");
        scale_inv = scale_inv || ends_with(n, "weight_scale_inv");
        scale = scale || ends_with(n, "weight_scale");
        if (it.value().is_string()) shards[it.value().get<std::string>()]++;
    }
    if (qweight) {
        r.weights_format = gidx ? "gptq-int4" : "awq-int4";
        r.notes.push_back("qweight tensors: " + r.weights_format + " assumed (the index has no shapes; drop config.json for the bits and group size)");
    } else if (blocks) {
        r.weights_format = "mxfp4";
    } else if (scale_inv) {
        r.weights_format = "fp8-block";
    } else if (scale) {
        r.weights_format = "fp8";
    }
    if (max_layer >= 0) r.model.layers = max_layer + 1;
    r.model.family = "Imported";
    const char* why = " (config.json; an index has tensor names, not sizes)";
    for (const auto& f : {std::make_pair("model.hidden", "hidden_size"), std::make_pair("model.heads", "num_attention_heads"),
                          std::make_pair("model.kv_heads", "num_key_value_heads"), std::make_pair("model.ffn", "intermediate_size"),
                          std::make_pair("model.vocab", "vocab_size")})
        r.missing.push_back({f.first, std::string(f.second) + why});
    if (doc.contains("metadata") && doc["metadata"].is_object() && doc["metadata"].contains("total_size")) {
        const json& ts = doc["metadata"]["total_size"];
        const double total = ts.is_number() ? ts.get<double>() : ts.is_string() ? std::atof(ts.get<std::string>().c_str()) : 0;
        if (total > 0 && total < 1e16) {
            r.weights.total_bytes = total;
            r.weights.source = name;
        } else {
            r.notes.push_back("metadata.total_size is not a byte count; the weights stay derived");
        }
    } else {
        r.notes.push_back("the index has no metadata.total_size; the weights stay derived");
    }
    r.notes.push_back(std::to_string(shards.size()) + " shard files, " + std::to_string(wm.size()) + " tensors");
    detail::finish_model(r);
    return r;
}

}  // namespace vc::io
