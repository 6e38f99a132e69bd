// vramcalc io: local model import: the kind of a file from its bytes, what the readers share,
// several files of one model merged, and the JSON the CLI and the JS API give (docs/import.md).
//
// [SECTIONS]
//   shared     failures, weights sums, finishing a model, name helpers
//   dispatch   which reader a file's bytes call for
//   merge      config.json + weights files
//   json       the import document
#include "model_import.hpp"

#include <algorithm>
#include <cstdio>

#include "config_json.hpp"
#include "core/text.hpp"
#include "import_internal.hpp"
#include "inference_json.hpp"

namespace vc::io {

// [SECTION] shared --------------------------------------------------------------------------------
namespace detail {

void WeightsSum::add(Part part, int layer, double bytes, double p) {
    WeightsFile& f = file;
    switch (part) {
        case Part::Embedding: f.embedding += bytes; break;
        case Part::Output: f.output += bytes; break;
        case Part::Attention: f.attention += bytes; break;
        case Part::Mlp: f.mlp += bytes; break;
        case Part::ExpertsRouted: f.experts += bytes, f.experts_routed += bytes; break;
        case Part::ExpertsShared: f.experts += bytes; break;
        case Part::Router: f.router += bytes; break;
        case Part::Other: f.other += bytes; break;
    }
    f.total_bytes += bytes;
    params += p;
    // Layer indices beyond a model's size (multi-token-prediction blocks) are checked in finish().
    if (layer >= 0 && layer < (1 << 20)) {
        if (static_cast<size_t>(layer) >= layers.size()) layers.resize(static_cast<size_t>(layer) + 1, 0.0);
        layers[static_cast<size_t>(layer)] += bytes;
    }
}

void WeightsSum::finish(ModelImport& r, const std::string& source) {
    file.source = source;
    file.params = params;
    file.has_parts = true;
    const int L = r.model.layers;
    if (L > 0 && static_cast<int>(layers.size()) >= L) {
        file.layer_bytes.assign(layers.begin(), layers.begin() + L);
        double extra = 0;
        for (size_t i = static_cast<size_t>(L); i < layers.size(); ++i) extra += layers[i];
        if (extra > 0)
            r.notes.push_back("layers past the model's " + std::to_string(L) + " (" + num(extra) +
                              " B, e.g. a multi-token-prediction block) count in the total, outside the per-layer bytes");
    } else if (!layers.empty()) {
        r.notes.push_back("the tensor names give " + std::to_string(layers.size()) + " layers, the architecture " + std::to_string(L) +
                          ": per-layer bytes are left to the derived ones");
    }
    r.weights = file;
}

ModelImport failure(const std::string& kind, const std::string& name, const std::string& message, std::uint64_t need) {
    ModelImport r;
    r.kind = kind;
    r.name = name;
    r.need_bytes = need;
    r.error = Error{"import", (name.empty() ? std::string() : name + ": ") + message};
    return r;
}

void finish_model(ModelImport& r) {
    r.model.id.clear();
    if (r.model.name.empty()) r.model.name = r.name;
    if (!r.missing.empty()) {
        r.complete = false;
        return;
    }
    auto resolved = resolve_model(r.model);
    if (!resolved.ok) {
        r.complete = false;
        r.notes.push_back("the architecture read is not consistent: " + resolved.error.message);
        return;
    }
    r.complete = true;
}

int layer_of(const std::string& name, const char* marker) {
    const std::string mk = marker;
    size_t at = 0;
    while ((at = name.find(mk, at)) != std::string::npos) {
        if (at == 0 || name[at - 1] == '.') {
            size_t i = at + mk.size();
            long long v = 0;
            size_t digits = 0;
            while (i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 8) v = v * 10 + (name[i++] - '0'), ++digits;
            if (digits > 0 && i < name.size() && name[i] == '.') return static_cast<int>(v);
        }
        at += mk.size();
    }
    return -1;
}

bool ends_with(const std::string& s, const char* suffix) {
    const std::string x = suffix;
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

std::string mix_text(std::vector<std::pair<std::string, double>> shares) {
    double total = 0;
    for (const auto& s : shares) total += s.second;
    std::stable_sort(shares.begin(), shares.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& s : shares) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f%%", total > 0 ? 100 * s.second / total : 0);
        out += (out.empty() ? "" : ", ") + s.first + " " + pct;
    }
    return out;
}

}  // namespace detail

// [SECTION] dispatch ------------------------------------------------------------------------------
namespace {

bool json_start(const std::uint8_t* d, std::size_t n) {
    for (std::size_t i = 0; i < n && i < 4096; ++i) {
        const char c = static_cast<char>(d[i]);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        if (i == 0 && n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) return json_start(d + 3, n - 3);  // UTF-8 BOM
        return c == '{';
    }
    return false;
}

std::string printable_start(const std::uint8_t* d, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n && i < 8; ++i) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%02x", d[i]);
        s += (i ? " " : "") + std::string(buf);
    }
    return s.empty() ? "nothing" : s;
}

}  // namespace

ModelImport import_model(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size) {
    if (file_size < size) file_size = size;
    const std::string lower = ascii_lower(name);
    if (size >= 4 && data[0] == 'G' && data[1] == 'G' && data[2] == 'U' && data[3] == 'F') return import_gguf(data, size, name, file_size);
    // safetensors: an 8-byte little-endian header length (under 2^40: bytes 5-7 zero) and '{'.
    if (size >= 9 && data[8] == '{' && data[5] == 0 && data[6] == 0 && data[7] == 0) return import_safetensors(data, size, name, file_size);
    if (json_start(data, size)) {
        if (file_size > kMaxImportJsonBytes)
            return detail::failure("json", name, "a JSON document of " + count_text(double(file_size)) + " bytes is larger than any model config (" +
                                                     count_text(double(kMaxImportJsonBytes)) + " bytes at most)");
        if (file_size > size) return detail::failure("json", name, "the JSON document continues past the bytes given", file_size);
        const std::string text(reinterpret_cast<const char*>(data), size);
        nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
        if (!doc.is_discarded() && doc.is_object() && doc.contains("weight_map")) return import_safetensors_index(text, name);
        return import_hf_config(text, name);
    }
    std::string expected = "a Hugging Face config.json, a .gguf, a .safetensors or a model.safetensors.index.json";
    if (detail::ends_with(lower, ".gguf")) expected = "a GGUF file (it would start with the magic \"GGUF\")";
    else if (detail::ends_with(lower, ".safetensors")) expected = "a safetensors file (an 8-byte header length, then '{')";
    else if (detail::ends_with(lower, ".json")) expected = "a JSON object";
    return detail::failure("unknown", name, "this is not " + expected + "; it starts with " + printable_start(data, size));
}

// [SECTION] merge ---------------------------------------------------------------------------------
ModelImport merge_imports(const std::vector<ModelImport>& parts) {
    if (parts.empty()) return detail::failure("", "", "no file to import");
    for (const auto& p : parts)
        if (!p.ok) return p;
    // The architecture: the first complete one, else the first read.
    const ModelImport* arch = &parts[0];
    for (const auto& p : parts)
        if (p.complete) {
            arch = &p;
            break;
        }
    ModelImport r = *arch;
    r.weights = WeightsFile{};
    std::string sources;
    int with_weights = 0;
    for (const auto& p : parts) {
        if (&p != arch) {
            for (const auto& n : p.notes) r.notes.push_back(p.name + ": " + n);
            if (r.weights_format.empty()) r.weights_format = p.weights_format;
            if (!p.weights_format.empty() && p.weights_format != r.weights_format)
                r.notes.push_back(p.name + " reads as " + p.weights_format + ", " + arch->name + " as " + r.weights_format);
            if (p.group_size > 0 && r.group_size == 0) r.group_size = p.group_size, r.has_zero_point = p.has_zero_point, r.act_order = p.act_order;
            if (r.engine.empty()) r.engine = p.engine;
        }
        const WeightsFile& w = p.weights;
        if (w.total_bytes <= 0) continue;
        ++with_weights;
        WeightsFile& t = r.weights;
        // Shards of one checkpoint: parts and layers add up; an index's total has no parts.
        if (with_weights == 1) {
            t = w;
        } else {
            t.total_bytes += w.total_bytes, t.params += w.params;
            t.has_parts = t.has_parts && w.has_parts;
            t.embedding += w.embedding, t.output += w.output, t.attention += w.attention, t.mlp += w.mlp;
            t.experts += w.experts, t.experts_routed += w.experts_routed, t.router += w.router, t.other += w.other;
            if (t.layer_bytes.size() == w.layer_bytes.size())
                for (size_t i = 0; i < t.layer_bytes.size(); ++i) t.layer_bytes[i] += w.layer_bytes[i];
            else
                t.layer_bytes.clear();
            t.mix.clear();
        }
        sources += (sources.empty() ? "" : " + ") + p.name;
    }
    if (with_weights > 0) r.weights.source = sources;
    // Per-layer bytes must match the architecture chosen.
    if (!r.weights.layer_bytes.empty() && static_cast<int>(r.weights.layer_bytes.size()) != r.model.layers) r.weights.layer_bytes.clear();
    return r;
}

// [SECTION] json ----------------------------------------------------------------------------------
nlohmann::json import_to_json(const ModelImport& r) {
    using nlohmann::json;
    if (!r.ok) {
        json j = error_to_json(r.error);
        if (r.need_bytes > 0) j["need_bytes"] = r.need_bytes;
        if (!r.kind.empty()) j["kind"] = r.kind;
        return j;
    }
    json j;
    j["ok"] = true;
    j["kind"] = r.kind;
    j["name"] = r.name;
    j["architecture"] = r.architecture;
    j["complete"] = r.complete;
    json missing = json::array();
    std::string keys;
    for (const auto& m : r.missing) {
        missing.push_back({{"field", m.field}, {"keys", m.keys}});
        keys += (keys.empty() ? "" : ", ") + m.keys;
    }
    j["missing"] = missing;
    std::string message;
    if (!r.missing.empty())
        message = (r.name.empty() ? std::string("the file") : r.name) + " lacks " + keys +
                  ": the architecture is filled with what was read; complete the missing fields in the custom architecture";
    else if (!r.complete)
        message = r.notes.empty() ? "the architecture read is not consistent" : r.notes.back();
    j["message"] = message;
    j["notes"] = r.notes;
    j["model"] = model_to_json(r.model);
    double params = r.weights.params;
    if (params <= 0 && r.complete) {
        auto m = resolve_model(r.model);
        if (m.ok) params = model_params(m.value).total;
    }
    j["params"] = params;
    j["weights_bytes"] = r.weights.total_bytes;
    j["weights_format"] = r.weights_format;
    j["header_bytes"] = r.header_bytes;
    j["tensor_count"] = r.tensor_count;

    // A config fragment to merge into the user's: the model and, for serving, the weights.
    json cfg;
    cfg["model"] = j["model"];
    json inf = json::object();
    if (!r.engine.empty()) inf["engine"] = r.engine;
    if (!r.weights_format.empty()) inf["weights"] = r.weights_format;
    if (r.group_size != 0) {
        inf["group_size"] = r.group_size;
        inf["zero_point"] = r.has_zero_point;
        inf["act_order"] = r.act_order;
    }
    if (r.weights.total_bytes > 0) inf["weights_file"] = weights_file_to_json(r.weights);
    if (!inf.empty()) cfg["inference"] = inf;
    j["config"] = cfg;
    return j;
}

std::string import_json(const std::uint8_t* data, std::size_t size, const std::string& name, double file_size) {
    const std::uint64_t fs = file_size > 0 && file_size < 1.8e19 ? static_cast<std::uint64_t>(file_size) : 0;
    return dump(import_to_json(import_model(data, size, name, fs)));
}

}  // namespace vc::io
