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
#include <map>

#include "config_json.hpp"
#include "core/stable_sort.hpp"
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
        if (part == Part::ExpertsRouted) {
            if (static_cast<size_t>(layer) >= routed.size()) routed.resize(static_cast<size_t>(layer) + 1, 0.0);
            routed[static_cast<size_t>(layer)] += bytes;
        }
    }
}

void WeightsSum::finish(ModelImport& r, const std::string& source) {
    file.source = source;
    file.params = params;
    file.has_parts = true;
    const int L = r.model.layers;
    if (L > 0 && static_cast<int>(layers.size()) >= L) {
        file.layer_bytes.assign(layers.begin(), layers.begin() + L);
        // Routed experts by layer (a file type gives some layers' ffn_down_exps more bits); none: dense.
        if (!routed.empty()) {
            routed.resize(std::max(routed.size(), static_cast<size_t>(L)), 0.0);
            file.layer_routed_bytes.assign(routed.begin(), routed.begin() + L);
        }
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

void mtp_note(ModelImport& r, int layers, double bytes) {
    r.notes.push_back(std::to_string(layers) + " multi-token-prediction layer(s) (" + r.architecture + ".nextn_predict_layers, blk." +
                      std::to_string(r.model.layers) + ") hold " + count_text(bytes) + " bytes that llama.cpp does not load: not counted in the weights");
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

std::string split_part_name(const std::string& given, int given_no, int count, int want_no) {
    char tail[40], want[40];
    std::snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", given_no + 1, count);
    std::snprintf(want, sizeof want, "-%05d-of-%05d.gguf", want_no + 1, count);
    if (ends_with(given, tail)) return given.substr(0, given.size() - std::string(tail).size()) + want;
    return "part " + std::to_string(want_no + 1) + " of the split";
}

std::string mix_text(std::vector<std::pair<std::string, double>> shares) {
    double total = 0;
    for (const auto& s : shares) total += s.second;
    stable_sort_by(shares, [](const auto& a, const auto& b) { return a.second > b.second; });
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
namespace {

// The parts of one split GGUF as one file: every part present once, of the same split, their
// tensor tables adding up to split.tensors.count; the architecture from part 1. False: `out` is
// the failure, naming the file.
bool join_split(const std::vector<const ModelImport*>& given, ModelImport& out) {
    const ModelImport& a = *given[0];
    const int n = a.split.count;
    std::vector<const ModelImport*> by_no(static_cast<size_t>(n), nullptr);
    for (const ModelImport* p : given) {
        if (p->split.count != n || p->split.tensors_total != a.split.tensors_total) {
            out = detail::failure("gguf", p->name, "is part of a " + std::to_string(p->split.count) + "-part split of " + count_text(double(p->split.tensors_total)) +
                                                       " tensors, " + a.name + " of a " + std::to_string(n) + "-part split of " +
                                                       count_text(double(a.split.tensors_total)) + ": parts of two different models");
            return false;
        }
        const ModelImport*& slot = by_no[static_cast<size_t>(p->split.no)];
        if (slot) {
            out = detail::failure("gguf", p->name, "is part " + std::to_string(p->split.no + 1) + " of " + std::to_string(n) + ", as " + slot->name + " is");
            return false;
        }
        slot = p;
    }
    std::string absent;
    for (int k = 0; k < n; ++k)
        if (!by_no[static_cast<size_t>(k)]) absent += (absent.empty() ? "" : ", ") + detail::split_part_name(a.name, a.split.no, n, k);
    if (!absent.empty()) {
        out = detail::failure("gguf", a.name, "is part of a " + std::to_string(n) + "-part split GGUF and " + absent +
                                                  " is missing: give every part for the exact bytes, or one part alone for the architecture");
        return false;
    }
    std::uint64_t tensors = 0;
    for (const ModelImport* p : by_no) tensors += p->tensor_count;
    if (tensors != a.split.tensors_total) {
        out = detail::failure("gguf", a.name, "the " + std::to_string(n) + " parts list " + count_text(double(tensors)) + " tensors, but split.tensors.count is " +
                                                  count_text(double(a.split.tensors_total)));
        return false;
    }
    out = *by_no[0];
    out.split = GgufSplitPart{};
    out.tensor_count = tensors;
    detail::WeightsSum sum;
    std::map<std::string, double> types;
    std::string source;
    // Every part's tensors summed as one file's: part 1's nextn_predict_layers (GLM-4.5's MTP block, counted in
    // block_count) leaves the blocks past the decoder out, in whichever part they are.
    const int nextn = by_no[0]->split.nextn_layers, layers = out.model.layers;
    double skipped = 0;
    for (const ModelImport* p : by_no) {
        const GgufSplitPart& part = p->split;
        for (size_t i = 0; i < part.tensor_bytes.size() && i < part.tensors.size(); ++i) {
            const GgufSplitPart::TensorBytes& t = part.tensor_bytes[i];
            const int layer = detail::layer_of(part.tensors[i].name, "blk.");
            if (nextn > 0 && layer >= layers) {
                skipped += t.bytes;
                continue;
            }
            sum.add(static_cast<detail::Part>(t.part), layer, t.bytes, t.elements);
            types[t.type_name] += t.elements;
        }
        if (p != by_no[0]) out.header_bytes += p->header_bytes;
        source += (source.empty() ? "" : " + ") + p->name;
    }
    if (skipped > 0) detail::mtp_note(out, nextn, skipped);
    sum.file.mix = detail::mix_text(std::vector<std::pair<std::string, double>>(types.begin(), types.end()));
    // The architecture's facts from every part's tensor names (the vocabulary, a tied head, the MLP kind).
    std::vector<GgufTensorShape> all;
    for (const ModelImport* p : by_no) all.insert(all.end(), p->split.tensors.begin(), p->split.tensors.end());
    detail::gguf_tensor_facts(out, all);
    if (out.model.vocab > 0)
        out.missing.erase(std::remove_if(out.missing.begin(), out.missing.end(), [](const MissingKey& k) { return k.field == "model.vocab"; }), out.missing.end());
    detail::finish_model(out);
    sum.finish(out, source);
    out.notes.push_back("exact bytes from the " + std::to_string(n) + " parts of the split GGUF (" + count_text(double(tensors)) + " tensors)");
    return true;
}

// What one file gave, for the status line: "the architecture (llama)", "1,234 parameters, 2,468 bytes".
std::string gave_text(const ModelImport& p, bool architecture) {
    std::string s;
    auto add = [&s](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
    if (p.has_mmproj) return "a vision projector of " + count_text(p.mmproj.params) + " parameters (" + p.mmproj.type + ")";
    if (architecture) add("the architecture" + (p.architecture.empty() ? std::string() : " (" + p.architecture + ")"));
    if (p.split.count > 1)
        add("part " + std::to_string(p.split.no + 1) + " of " + std::to_string(p.split.count) + ", " + count_text(double(p.tensor_count)) + " tensors of " +
            count_text(p.split.weights.total_bytes) + " bytes");
    else if (p.weights.total_bytes > 0 && p.weights.params > 0)
        add(count_text(p.weights.params) + " parameters, " + count_text(p.weights.total_bytes) + " bytes of weights");
    else if (p.weights.total_bytes > 0)
        add(count_text(p.weights.total_bytes) + " bytes of weights in all");
    if (!p.weights_format.empty() && p.kind != "hf-config") add("format " + p.weights_format);
    return s.empty() ? "nothing used (its architecture comes from another file)" : s;
}

}  // namespace

ModelImport merge_imports(const std::vector<ModelImport>& given) {
    if (given.empty()) return detail::failure("", "", "no file to import");
    for (const auto& p : given)
        if (!p.ok) return p;
    if (given.size() == 1) return given[0];
    if (given.size() > kMaxImportFiles)
        return detail::failure("", "", count_text(double(given.size())) + " files are more than one model has (" + count_text(double(kMaxImportFiles)) + " at most)");
    // Which file is which: one model's config, its weights (a GGUF, or safetensors shards with or
    // without their index), the parts of one split GGUF, one projector.
    const ModelImport* projector = nullptr;
    const ModelImport* config = nullptr;
    const ModelImport* gguf = nullptr;
    std::vector<const ModelImport*> split;
    std::vector<ModelImport> parts;
    size_t split_at = 0;
    for (size_t i = 0; i < given.size(); ++i) {
        const ModelImport& p = given[i];
        for (size_t j = 0; j < i; ++j)
            if (given[j].name == p.name && !p.name.empty()) return detail::failure(p.kind, p.name, "is given twice");
        const ModelImport** one = p.has_mmproj ? &projector : p.kind == "hf-config" ? &config : p.kind == "gguf" && p.split.count <= 1 ? &gguf : nullptr;
        if (one && *one)
            return detail::failure(p.kind, p.name, std::string(p.has_mmproj ? "a second vision projector" : p.kind == "gguf" ? "a second GGUF model" : "a second config.json") +
                                                       " (" + (*one)->name + " is one already): give the files of one model");
        if (one) *one = &p;
        if (p.split.count > 1) {
            if (split.empty()) split_at = parts.size();
            split.push_back(&p);
        } else if (!p.has_mmproj) {
            parts.push_back(p);
        }
    }
    if (split.size() == 1) {
        parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(split_at), *split[0]);  // one part: the architecture, no exact bytes
    } else if (!split.empty()) {
        ModelImport whole;
        if (!join_split(split, whole)) return whole;
        parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(split_at), whole);
    }
    if (gguf && !split.empty())
        return detail::failure("gguf", split[0]->name, "is part of a split GGUF, " + gguf->name + " a whole GGUF: give the files of one model");
    const ModelImport* safetensors = nullptr;
    for (const auto& p : parts)
        if (p.kind.rfind("safetensors", 0) == 0) safetensors = &p;
    for (const auto& p : parts)
        if (p.kind == "gguf" && safetensors)
            return detail::failure(p.kind, p.name, "is a GGUF, " + safetensors->name + " a safetensors checkpoint: give the weights of one format");

    ModelImport r;
    {
        // The architecture: the first complete one, else the first read.
        const ModelImport* arch = &parts[0];
        for (const auto& p : parts)
            if (p.complete) {
                arch = &p;
                break;
            }
        // Every file's tensors must fit the architecture's width (files of two models otherwise).
        for (const auto& p : parts)
            if (&p != arch && p.model.hidden > 0 && arch->model.hidden > 0 && p.model.hidden != arch->model.hidden)
                return detail::failure(p.kind, p.name, "gives a hidden size of " + count_text(p.model.hidden) + ", " + arch->name + " " +
                                                           count_text(arch->model.hidden) + ": files of two different models");
        r = *arch;
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
                if (t.layer_routed_bytes.size() == w.layer_routed_bytes.size())
                    for (size_t i = 0; i < t.layer_routed_bytes.size(); ++i) t.layer_routed_bytes[i] += w.layer_routed_bytes[i];
                else
                    t.layer_routed_bytes.clear();
                t.mix.clear();
            }
            sources += (sources.empty() ? "" : " + ") + (w.source.empty() ? p.name : w.source);
        }
        if (with_weights > 0) r.weights.source = sources;
        // Per-layer bytes must match the architecture chosen.
        if (!r.weights.layer_bytes.empty() && static_cast<int>(r.weights.layer_bytes.size()) != r.model.layers) r.weights.layer_bytes.clear();
        if (static_cast<int>(r.weights.layer_routed_bytes.size()) != r.model.layers) r.weights.layer_routed_bytes.clear();
        for (const auto& p : given)
            r.files.push_back({p.name, p.kind, gave_text(p, p.name == arch->name)});
    }
    if (projector) {
        r.has_mmproj = true;
        r.mmproj = projector->mmproj;
        r.mmproj_bytes = projector->mmproj_bytes;
        for (const auto& n : projector->notes) r.notes.push_back(projector->name + ": " + n);
        if (r.engine.empty()) r.engine = "llama.cpp";  // --mmproj is llama.cpp's
    }
    return r;
}

std::string import_files_json(const std::vector<ImportBytes>& files) {
    std::vector<ModelImport> parts;
    parts.reserve(files.size());
    for (const auto& f : files) parts.push_back(import_model(f.data, f.size, f.name, f.file_size));
    return dump(import_to_json(merge_imports(parts)));
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
    // A projector alone has no model: the document's model is null and its fragment has none.
    const bool has_model = r.kind != "gguf-mmproj";
    std::vector<std::string> notes = r.notes;
    if (r.split.count > 1)
        notes.push_back("part " + std::to_string(r.split.no + 1) + " of a " + std::to_string(r.split.count) + "-part split GGUF: it holds " +
                        count_text(double(r.tensor_count)) + " of the model's " + count_text(double(r.split.tensors_total)) +
                        " tensors, so the exact bytes are unknown until every part is given; the weights are inferred from the architecture and the file type");
    j["notes"] = notes;
    // A quantized checkpoint (quantization_config, the safetensors' dtypes) names its format on the model
    // too, so serving it with no weights given loads it as stored (core/config.hpp follow_checkpoint_format).
    ModelSpec model = r.model;
    if (const WeightFormat* f = find_weight_format(r.weights_format); f && checkpoint_quantization(*f))
        model.checkpoint_format = f->id;
    j["model"] = has_model ? model_to_json(model) : json(nullptr);
    double params = has_model ? r.weights.params : r.mmproj.params;
    if (params <= 0 && r.complete && has_model) {
        auto m = resolve_model(r.model);
        if (m.ok) params = model_params(m.value).total;
    }
    j["params"] = params;
    j["weights_bytes"] = r.weights.total_bytes;
    j["weights_format"] = r.weights_format;
    j["header_bytes"] = r.header_bytes;
    j["tensor_count"] = r.tensor_count;
    if (!r.files.empty()) {
        json files = json::array();
        for (const auto& f : r.files) {
            json one = json::object();
            one["name"] = f.name, one["kind"] = f.kind, one["gave"] = f.gave;
            files.push_back(std::move(one));
        }
        j["files"] = files;
    }

    // A config fragment to merge into the user's: the model and, for serving, the weights.
    json cfg = json::object();
    if (has_model) cfg["model"] = j["model"];
    json inf = json::object();
    if (!r.engine.empty()) inf["engine"] = r.engine;
    if (!r.weights_format.empty()) inf["weights"] = r.weights_format;
    if (r.group_size != 0) {
        inf["group_size"] = r.group_size;
        inf["zero_point"] = r.has_zero_point;
        inf["act_order"] = r.act_order;
    }
    if (r.weights.total_bytes > 0) inf["weights_file"] = weights_file_to_json(r.weights);
    if (r.has_mmproj) {
        const VisionProjector& v = r.mmproj;
        json& p = inf["llamacpp"]["mmproj"];
        p["params_m"] = v.params / 1e6, p["type"] = v.type, p["image_tokens"] = v.image_tokens;
        p["hidden"] = v.hidden, p["heads"] = v.heads, p["ffn"] = v.ffn;
    }
    if (!inf.empty()) cfg["inference"] = inf;
    j["config"] = cfg;
    return j;
}

std::string import_json(const std::uint8_t* data, std::size_t size, const std::string& name, double file_size) {
    const std::uint64_t fs = file_size > 0 && file_size < 1.8e19 ? static_cast<std::uint64_t>(file_size) : 0;
    return dump(import_to_json(import_model(data, size, name, fs)));
}

}  // namespace vc::io
