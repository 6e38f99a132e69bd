// vramcalc io: the "inference" config section. Byte-valued fields are given in GiB (2^30 bytes)
// and named *_gib; the engine works in bytes.
#include "inference_json.hpp"

#include <cstdlib>

#include "core/serve/llamacpp.hpp"
#include "core/units.hpp"
#include "enum_names.hpp"
#include "field_json.hpp"
#include "json_read.hpp"

namespace vc::io {

using nlohmann::json;

bool parse_engine(const std::string& s, Engine& out) { return lookup(kEngineNames, s, out); }

namespace {

bool object_at(ObjectReader& r, const char* key, Error& err) {
    if (!r.has(key)) return false;
    if (!r.at(key).is_object()) {
        err = Error{r.path(key), r.path(key) + " must be an object"};
        return false;
    }
    return true;
}

// A section read from the table alone: "inference.vllm", "inference.hf", "inference.constants".
bool read_plain(const json& j, const char* name, Config& cfg, Error& err) {
    ObjectReader r(j, std::string(name) + ".");
    only_section_keys(r, name);
    read_section(r, name, cfg);
    if (!r.ok()) err = r.error();
    return r.ok();
}

// DDR generation and speed, "ddr5-5600": the transfer rate in MT/s.
bool parse_ddr(const std::string& s, double& mts) {
    if (s.size() < 6 || (s.rfind("ddr", 0) != 0 && s.rfind("DDR", 0) != 0 && s.rfind("lpddr", 0) != 0 && s.rfind("LPDDR", 0) != 0)) return false;
    const auto dash = s.find('-');
    if (dash == std::string::npos) return false;
    char* end = nullptr;
    const double v = std::strtod(s.c_str() + dash + 1, &end);
    if (!end || *end != 0 || !(v >= 100 && v <= 20000)) return false;
    mts = v;
    return true;
}

bool read_host(const json& j, HostInputs& h, Error& err) {
    ObjectReader r(j, "inference.host.");
    only_section_keys(r, "inference.host");
    double ram = h.ram_bytes / kBytesPerGiB;
    r.number("ram_gib", ram);
    r.integer("channels", h.channels);
    r.number("mts", h.mts);
    std::string ddr;
    r.string("ddr", ddr);
    if (r.ok() && !ddr.empty() && !parse_ddr(ddr, h.mts))
        r.fail("ddr", "inference.host.ddr must name a generation and speed such as \"ddr5-5600\" or \"ddr4-3200\", got \"" + ddr + "\"");
    r.number("bandwidth_gbps", h.bandwidth_gbps);
    r.number("cpu_tflops", h.cpu_tflops);
    r.number("wired_limit_mb", h.wired_limit_mb);
    if (r.ok()) {
        if (!(ram >= 0 && ram <= 1e6)) r.fail("ram_gib", "inference.host.ram_gib must be between 0 and 1e6 (GiB)");
        else h.ram_bytes = gib_to_bytes(ram);
    }
    if (!r.ok()) err = r.error();
    return r.ok();
}

// "inference.llamacpp", its "mmproj" and "draft": the table's fields, then the tensor split.
bool read_llamacpp(const json& j, Config& cfg, Error& err) {
    LlamaCppOptions& o = cfg.inference.llamacpp;
    ObjectReader l(j, "inference.llamacpp.");
    only_section_keys(l, "inference.llamacpp");
    read_section(l, "inference.llamacpp", cfg);
    if (l.ok() && l.has("tensor_split")) {
        const json& ts = l.at("tensor_split");
        if (!ts.is_array() || ts.size() > 4096) {
            l.fail("tensor_split", "inference.llamacpp.tensor_split must be an array of proportions, one per GPU (e.g. [10, 6])");
        } else {
            o.tensor_split.clear();
            for (const auto& v : ts) {
                if (!v.is_number()) {
                    l.fail("tensor_split", "inference.llamacpp.tensor_split entries must be numbers (proportions)");
                    break;
                }
                o.tensor_split.push_back(v.get<double>());
            }
        }
    }
    for (const char* sub : {"mmproj", "draft"}) {
        if (!l.ok() || !l.has(sub)) continue;
        const std::string name = std::string("inference.llamacpp.") + sub;
        if (!l.at(sub).is_object()) {
            l.fail(sub, name + " must be an object");
        } else if (!read_plain(l.at(sub), name.c_str(), cfg, err)) {
            return false;
        }
    }
    if (!l.ok()) err = l.error();
    return l.ok();
}

bool read_weights_file(const json& j, WeightsFile& f, Error& err) {
    ObjectReader r(j, "inference.weights_file.");
    r.only_keys({"source", "total_bytes", "params", "parts", "layer_bytes", "layer_routed_bytes", "mix"});
    r.string("source", f.source);
    r.number("total_bytes", f.total_bytes);
    r.number("params", f.params);
    r.string("mix", f.mix);
    if (r.ok() && !r.has("total_bytes")) r.fail("total_bytes", "inference.weights_file.total_bytes is required (the file's tensor bytes)");
    if (r.ok() && r.has("layer_bytes")) {
        const json& a = r.at("layer_bytes");
        if (!a.is_array()) return err = Error{"inference.weights_file.layer_bytes", "inference.weights_file.layer_bytes must be an array of bytes per layer"}, false;
        f.layer_bytes.clear();
        for (const auto& v : a) {
            if (!v.is_number()) return err = Error{"inference.weights_file.layer_bytes", "inference.weights_file.layer_bytes must hold numbers (bytes)"}, false;
            f.layer_bytes.push_back(v.get<double>());
        }
    }
    if (r.ok() && r.has("layer_routed_bytes")) {
        const json& a = r.at("layer_routed_bytes");
        const char* field = "inference.weights_file.layer_routed_bytes";
        if (!a.is_array()) return err = Error{field, std::string(field) + " must be an array of routed-expert bytes per layer"}, false;
        f.layer_routed_bytes.clear();
        for (const auto& v : a) {
            if (!v.is_number()) return err = Error{field, std::string(field) + " must hold numbers (bytes)"}, false;
            f.layer_routed_bytes.push_back(v.get<double>());
        }
    }
    if (r.ok() && r.has("parts")) {
        const json& p = r.at("parts");
        if (!p.is_object()) return err = Error{"inference.weights_file.parts", "inference.weights_file.parts must be an object of bytes"}, false;
        ObjectReader pr(p, "inference.weights_file.parts.");
        pr.only_keys({"embedding", "output", "attention", "mlp", "experts", "experts_routed", "router", "other"});
        pr.number("embedding", f.embedding);
        pr.number("output", f.output);
        pr.number("attention", f.attention);
        pr.number("mlp", f.mlp);
        pr.number("experts", f.experts);
        pr.number("experts_routed", f.experts_routed);
        pr.number("router", f.router);
        pr.number("other", f.other);
        if (!pr.ok()) return err = pr.error(), false;
        f.has_parts = true;
    }
    if (!r.ok()) err = r.error();
    return r.ok();
}

bool read_custom_gpu(const json& j, GpuSpec& g, Error& err) {
    ObjectReader r(j, "inference.gpu_custom.");
    r.only_keys({"name", "memory_gib", "unified", "bandwidth_gbps", "bf16_tflops", "fp8_tflops", "sms", "threads_per_sm"});
    g.id = "custom";
    g.name = "Custom GPU";
    r.string("name", g.name);
    double mem = 0;
    r.number("memory_gib", mem);
    if (r.ok() && !r.has("memory_gib")) r.fail("memory_gib", "inference.gpu_custom.memory_gib is required (the card's memory in GiB)");
    r.boolean("unified", g.unified);
    r.number("bandwidth_gbps", g.bandwidth_gbps);
    r.number("bf16_tflops", g.bf16_tflops);
    r.number("fp8_tflops", g.fp8_tflops);
    r.integer("sms", g.sms);
    r.integer("threads_per_sm", g.threads_per_sm);
    g.memory_bytes = gib_to_bytes(mem);
    g.nominal_gb = bytes_to_gb(g.memory_bytes);
    g.source = "config inference.gpu_custom";
    if (!r.ok()) err = r.error();
    return r.ok();
}

}  // namespace

namespace {

bool read_inference_section(const json& j, Config& cfg, Error& err) {
    InferenceInputs& in = cfg.inference;
    ObjectReader r(j, "inference.");
    only_section_keys(r, "inference");
    read_section(r, "inference", cfg);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    if (object_at(r, "vllm", err) && !read_plain(r.at("vllm"), "inference.vllm", cfg, err)) return false;
    if (object_at(r, "llamacpp", err)) {
        if (!read_llamacpp(r.at("llamacpp"), cfg, err)) return false;
    }
    if (object_at(r, "host", err) && !read_host(r.at("host"), in.host, err)) return false;
    if (object_at(r, "hf", err) && !read_plain(r.at("hf"), "inference.hf", cfg, err)) return false;
    if (object_at(r, "sglang", err) && !read_plain(r.at("sglang"), "inference.sglang", cfg, err)) return false;
    if (object_at(r, "gpu_custom", err)) {
        if (!read_custom_gpu(r.at("gpu_custom"), in.custom_gpu, err)) return false;
        in.has_custom_gpu = true;
    }
    if (object_at(r, "weights_file", err) && !read_weights_file(r.at("weights_file"), in.weights_file, err)) return false;
    if (object_at(r, "constants", err) && !read_plain(r.at("constants"), "inference.constants", cfg, err)) return false;
    // The Ollama profile: its context and parallel defaults where the config gives none, once the
    // GPU (a custom one, the host's wired limit) and the constants are read. Flash attention keeps
    // llama.cpp's default: Ollama passes --flash-attn auto since v0.13.4 (llm/llama_server.go
    // LlamaServerFlashAttention; OLLAMA_FLASH_ATTENTION unset), on where the GPU supports it.
    if (in.llamacpp.ollama) {
        if (!r.has("context")) in.context = ollama_default_context(cfg);
        if (!r.has("concurrency")) in.concurrency = static_cast<int>(in.constants.ollama_num_parallel);
    }
    return err.field.empty();
}

}  // namespace

bool read_inference(const json& j, Config& cfg, Error& err) {
    if (!j.is_object()) {
        err = Error{"inference", "inference must be an object (docs/config.md, \"inference\")"};
        return false;
    }
    return read_inference_section(j, cfg, err);
}

json weights_file_to_json(const WeightsFile& f) {
    json j;
    if (!f.source.empty()) j["source"] = f.source;
    j["total_bytes"] = f.total_bytes;
    if (f.params > 0) j["params"] = f.params;
    if (f.has_parts)
        j["parts"] = {{"embedding", f.embedding}, {"output", f.output},   {"attention", f.attention},           {"mlp", f.mlp},
                      {"experts", f.experts},     {"experts_routed", f.experts_routed}, {"router", f.router}, {"other", f.other}};
    if (!f.layer_bytes.empty()) j["layer_bytes"] = f.layer_bytes;
    if (!f.layer_routed_bytes.empty()) j["layer_routed_bytes"] = f.layer_routed_bytes;
    if (!f.mix.empty()) j["mix"] = f.mix;
    return j;
}

json inference_to_json(const InferenceInputs& in) {
    Config holder;
    holder.inference = in;
    const Config& cfg = holder;
    json j = json::object();
    write_section(cfg, "inference", j);
    json vllm = json::object(), llamacpp = json::object(), hf = json::object(), constants = json::object();
    write_section(cfg, "inference.vllm", vllm);
    j["vllm"] = vllm;
    // The local-inference fields only when set (omit_default), so configs without them echo as before.
    write_section(cfg, "inference.llamacpp", llamacpp);
    const auto& o = in.llamacpp;
    if (!o.tensor_split.empty()) llamacpp["tensor_split"] = o.tensor_split;
    if (!o.mmproj.preset.empty() || o.mmproj.params > 0) {
        json v = json::object();
        write_section(cfg, "inference.llamacpp.mmproj", v);
        llamacpp["mmproj"] = v;
    }
    if (!o.draft.preset.empty()) {
        json d = json::object();
        write_section(cfg, "inference.llamacpp.draft", d);
        llamacpp["draft"] = d;
    }
    j["llamacpp"] = llamacpp;
    const auto& h = in.host;
    if (h.ram_bytes > 0 || h.channels > 0 || h.mts > 0 || h.bandwidth_gbps > 0 || h.cpu_tflops > 0 || h.wired_limit_mb > 0)
        j["host"] = {{"ram_gib", bytes_to_gib(h.ram_bytes)}, {"channels", h.channels}, {"mts", h.mts}, {"bandwidth_gbps", h.bandwidth_gbps},
                     {"cpu_tflops", h.cpu_tflops}, {"wired_limit_mb", h.wired_limit_mb}};
    write_section(cfg, "inference.hf", hf);
    j["hf"] = hf;
    // SGLang's section under its engine, or when a field of it is set (configs of the other engines echo as before).
    json sglang = json::object();
    write_section(cfg, "inference.sglang", sglang);
    holder.inference.sglang = SglangOptions{};
    json sglang_default = json::object();
    write_section(cfg, "inference.sglang", sglang_default);
    if (in.engine == Engine::Sglang || sglang != sglang_default) j["sglang"] = sglang;
    if (in.has_custom_gpu) {
        const GpuSpec& g = in.custom_gpu;
        j["gpu_custom"] = {{"name", g.name},
                           {"memory_gib", bytes_to_gib(g.memory_bytes)},
                           {"bandwidth_gbps", g.bandwidth_gbps},
                           {"bf16_tflops", g.bf16_tflops},
                           {"fp8_tflops", g.fp8_tflops}};
        // Unified memory only when set (a card's own memory otherwise); the SM figures only when
        // given (a card without them keeps the flat CUDA context).
        if (g.unified) j["gpu_custom"]["unified"] = true;
        if (g.sms > 0 || g.threads_per_sm > 0) {
            j["gpu_custom"]["sms"] = g.sms;
            j["gpu_custom"]["threads_per_sm"] = g.threads_per_sm;
        }
    }
    if (in.weights_file.total_bytes != 0) j["weights_file"] = weights_file_to_json(in.weights_file);
    write_section(cfg, "inference.constants", constants);
    j["constants"] = constants;
    return j;
}

}  // namespace vc::io
