// vramcalc io: the "inference" config section. Byte-valued fields are given in GiB (2^30 bytes)
// and named *_gib; the engine works in bytes.
#include "inference_json.hpp"

#include <cstdlib>

#include "core/units.hpp"
#include "json_read.hpp"

namespace vc::io {

using nlohmann::json;

bool parse_engine(const std::string& s, Engine& out) {
    if (s == "vllm") out = Engine::Vllm;
    else if (s == "llama.cpp" || s == "llamacpp") out = Engine::LlamaCpp;
    else if (s == "hf") out = Engine::Hf;
    else return false;
    return true;
}

namespace {

const char* attention_name(HfAttention a) {
    switch (a) {
        case HfAttention::Eager: return "eager";
        case HfAttention::Sdpa: return "sdpa";
        case HfAttention::Flash: return "flash";
    }
    return "sdpa";
}

// A byte field given in GiB; a negative value (unset override) stays negative.
bool gib_field(ObjectReader& r, const char* key, double& bytes) {
    double g = bytes < 0 ? -1 : bytes_to_gib(bytes);
    if (!r.number(key, g)) return false;
    if (r.has(key)) {
        if (g < 0) return r.fail(key, r.path(key) + " must be at least 0 (GiB)");
        bytes = gib_to_bytes(g);
    }
    return true;
}

bool object_at(ObjectReader& r, const char* key, Error& err) {
    if (!r.has(key)) return false;
    if (!r.at(key).is_object()) {
        err = Error{r.path(key), r.path(key) + " must be an object"};
        return false;
    }
    return true;
}

bool read_vllm(const json& j, VllmOptions& v, Error& err) {
    ObjectReader r(j, "inference.vllm.");
    r.only_keys({"gpu_memory_utilization", "max_num_batched_tokens", "max_num_seqs", "enforce_eager", "profile_logits",
                 "activation_peak_gib", "non_torch_gib", "cuda_graph_gib"});
    r.number("gpu_memory_utilization", v.gpu_memory_utilization);
    r.integer("max_num_batched_tokens", v.max_num_batched_tokens);
    r.integer("max_num_seqs", v.max_num_seqs);
    r.boolean("enforce_eager", v.enforce_eager);
    std::string logits = v.profile_all_tokens ? "tokens" : "sequences";
    r.string("profile_logits", logits);
    if (r.ok()) {
        if (logits == "tokens") v.profile_all_tokens = true;
        else if (logits == "sequences") v.profile_all_tokens = false;
        else r.fail("profile_logits", "inference.vllm.profile_logits must be \"sequences\" or \"tokens\", got \"" + logits + "\"");
    }
    gib_field(r, "activation_peak_gib", v.activation_peak_bytes);
    gib_field(r, "non_torch_gib", v.non_torch_bytes);
    gib_field(r, "cuda_graph_gib", v.cuda_graph_bytes);
    if (!r.ok()) err = r.error();
    return r.ok();
}

bool read_constants(const json& j, InferenceConstants& k, Error& err) {
    ObjectReader r(j, "inference.constants.");
    r.only_keys({"cuda_context_gib", "driver_reserved_gib", "vllm_non_torch_gib", "vllm_non_torch_tp_gib", "vllm_cuda_graph_gib",
                 "vllm_sampler_bytes_per_logit", "vllm_token_logit_bytes", "llamacpp_ctx_pad", "bandwidth_efficiency",
                 "compute_efficiency", "host_bandwidth_gbps", "host_bandwidth_efficiency", "pcie_gbps", "cpu_tflops",
                 "llamacpp_sched_copies", "ollama_num_ctx", "ollama_num_parallel", "exllamav2_max_input_len",
                 "exllamav2_max_batch_size"});
    gib_field(r, "cuda_context_gib", k.cuda_context_bytes);
    gib_field(r, "driver_reserved_gib", k.driver_reserved_bytes);
    gib_field(r, "vllm_non_torch_gib", k.vllm_non_torch_bytes);
    gib_field(r, "vllm_non_torch_tp_gib", k.vllm_non_torch_tp_bytes);
    gib_field(r, "vllm_cuda_graph_gib", k.vllm_cuda_graph_bytes);
    r.number("vllm_sampler_bytes_per_logit", k.vllm_sampler_bytes_per_logit);
    r.number("vllm_token_logit_bytes", k.vllm_token_logit_bytes);
    r.number("llamacpp_ctx_pad", k.llamacpp_ctx_pad);
    r.number("bandwidth_efficiency", k.bandwidth_efficiency);
    r.number("compute_efficiency", k.compute_efficiency);
    r.number("host_bandwidth_gbps", k.host_bandwidth_gbps);
    r.number("host_bandwidth_efficiency", k.host_bandwidth_efficiency);
    r.number("pcie_gbps", k.pcie_gbps);
    r.number("cpu_tflops", k.cpu_tflops);
    r.number("llamacpp_sched_copies", k.llamacpp_sched_copies);
    r.number("ollama_num_ctx", k.ollama_num_ctx);
    r.number("ollama_num_parallel", k.ollama_num_parallel);
    r.number("exllamav2_max_input_len", k.exllamav2_max_input_len);
    r.number("exllamav2_max_batch_size", k.exllamav2_max_batch_size);
    if (!r.ok()) err = r.error();
    return r.ok();
}

const char* split_mode_name(SplitMode m) {
    switch (m) {
        case SplitMode::Layer: return "layer";
        case SplitMode::Row: return "row";
        case SplitMode::None: return "none";
    }
    return "layer";
}

const char* gptq_kernel_name(GptqKernel k) {
    switch (k) {
        case GptqKernel::Exllamav2: return "exllamav2";
        case GptqKernel::Exllama: return "exllama";
        case GptqKernel::Marlin: return "marlin";
        case GptqKernel::Torch: return "torch";
    }
    return "exllamav2";
}

bool parse_gptq_kernel(const std::string& s, GptqKernel& k) {
    for (GptqKernel c : {GptqKernel::Exllamav2, GptqKernel::Exllama, GptqKernel::Marlin, GptqKernel::Torch})
        if (s == gptq_kernel_name(c)) {
            k = c;
            return true;
        }
    return false;
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
    r.only_keys({"ram_gib", "channels", "mts", "ddr", "bandwidth_gbps", "cpu_tflops", "wired_limit_mb"});
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

bool read_llamacpp(const json& j, InferenceInputs& in, Error& err) {
    LlamaCppOptions& o = in.llamacpp;
    ObjectReader l(j, "inference.llamacpp.");
    l.only_keys({"n_gpu_layers", "n_ubatch", "flash_attn", "kv_dtype_v", "n_cpu_moe", "split_mode", "tensor_split", "lora_mib", "mmproj",
                 "draft", "profile"});
    l.integer("n_gpu_layers", o.n_gpu_layers);
    l.integer("n_ubatch", o.n_ubatch);
    l.boolean("flash_attn", o.flash_attn);
    l.string("kv_dtype_v", o.kv_dtype_v);
    l.integer("n_cpu_moe", o.n_cpu_moe);
    std::string mode = split_mode_name(o.split_mode);
    l.string("split_mode", mode);
    if (l.ok()) {
        if (mode == "layer") o.split_mode = SplitMode::Layer;
        else if (mode == "row") o.split_mode = SplitMode::Row;
        else if (mode == "none") o.split_mode = SplitMode::None;
        else l.fail("split_mode", "inference.llamacpp.split_mode must be one of layer, row, none, got \"" + mode + "\"");
    }
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
    double lora_mib = o.lora_bytes / kBytesPerMiB;
    l.number("lora_mib", lora_mib);
    if (l.ok()) o.lora_bytes = lora_mib * kBytesPerMiB;
    std::string profile = o.ollama ? "ollama" : "llama-server";
    l.string("profile", profile);
    if (l.ok()) {
        if (profile == "ollama") o.ollama = true;
        else if (profile == "llama-server") o.ollama = false;
        else l.fail("profile", "inference.llamacpp.profile must be \"llama-server\" or \"ollama\", got \"" + profile + "\"");
    }
    if (l.ok() && l.has("mmproj")) {
        if (!l.at("mmproj").is_object()) l.fail("mmproj", "inference.llamacpp.mmproj must be an object");
        else {
            ObjectReader v(l.at("mmproj"), "inference.llamacpp.mmproj.");
            v.only_keys({"preset", "params_m", "type", "image_tokens", "hidden", "heads", "ffn"});
            double params_m = o.mmproj.params / 1e6;
            v.string("preset", o.mmproj.preset);
            v.number("params_m", params_m);
            v.string("type", o.mmproj.type);
            v.integer("image_tokens", o.mmproj.image_tokens);
            v.integer("hidden", o.mmproj.hidden);
            v.integer("heads", o.mmproj.heads);
            v.integer("ffn", o.mmproj.ffn);
            if (v.ok()) o.mmproj.params = params_m * 1e6;
            if (!v.ok()) {
                err = v.error();
                return false;
            }
        }
    }
    if (l.ok() && l.has("draft")) {
        if (!l.at("draft").is_object()) l.fail("draft", "inference.llamacpp.draft must be an object");
        else {
            ObjectReader d(l.at("draft"), "inference.llamacpp.draft.");
            d.only_keys({"preset", "weights", "n_gpu_layers", "context"});
            d.string("preset", o.draft.preset);
            d.string("weights", o.draft.weights);
            d.integer("n_gpu_layers", o.draft.n_gpu_layers);
            d.integer("context", o.draft.context);
            if (!d.ok()) {
                err = d.error();
                return false;
            }
        }
    }
    if (!l.ok()) err = l.error();
    return l.ok();
}

bool read_weights_file(const json& j, WeightsFile& f, Error& err) {
    ObjectReader r(j, "inference.weights_file.");
    r.only_keys({"source", "total_bytes", "params", "parts", "layer_bytes", "mix"});
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
    r.only_keys({"name", "memory_gib", "bandwidth_gbps", "bf16_tflops", "fp8_tflops"});
    g.id = "custom";
    g.name = "Custom GPU";
    r.string("name", g.name);
    double mem = 0;
    r.number("memory_gib", mem);
    if (r.ok() && !r.has("memory_gib")) r.fail("memory_gib", "inference.gpu_custom.memory_gib is required (the card's memory in GiB)");
    r.number("bandwidth_gbps", g.bandwidth_gbps);
    r.number("bf16_tflops", g.bf16_tflops);
    r.number("fp8_tflops", g.fp8_tflops);
    g.memory_bytes = gib_to_bytes(mem);
    g.nominal_gb = bytes_to_gb(g.memory_bytes);
    g.source = "config inference.gpu_custom";
    if (!r.ok()) err = r.error();
    return r.ok();
}

}  // namespace

bool read_inference(const json& j, InferenceInputs& in, Error& err) {
    if (!j.is_object()) {
        err = Error{"inference", "inference must be an object (docs/config.md, \"inference\")"};
        return false;
    }
    ObjectReader r(j, "inference.");
    r.only_keys({"engine", "weights", "experts_weights", "group_size", "zero_point", "act_order", "keep_embeddings", "gguf_imatrix",
                 "kv_dtype", "context", "concurrency", "prompt_tokens", "tp", "block_size", "swa_full", "vllm", "llamacpp", "hf",
                 "gpu_custom", "constants", "host", "weights_file"});
    std::string engine;
    r.string("engine", engine);
    if (r.ok() && r.has("engine") && !parse_engine(engine, in.engine))
        r.fail("engine", "inference.engine must be one of vllm, llama.cpp, hf, got \"" + engine + "\"");
    r.string("weights", in.weights.format);
    r.string("experts_weights", in.weights.experts_format);
    r.integer("group_size", in.weights.group_size);
    r.boolean("zero_point", in.weights.zero_point);
    r.boolean("act_order", in.weights.act_order);
    r.boolean("keep_embeddings", in.weights.keep_embeddings);
    r.boolean("gguf_imatrix", in.weights.gguf_imatrix);
    r.string("kv_dtype", in.kv_dtype);
    r.integer("context", in.context);
    r.integer("concurrency", in.concurrency);
    r.integer("prompt_tokens", in.prompt_tokens);
    r.integer("tp", in.tp);
    r.integer("block_size", in.block_size);
    r.boolean("swa_full", in.swa_full);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    if (object_at(r, "vllm", err) && !read_vllm(r.at("vllm"), in.vllm, err)) return false;
    if (object_at(r, "llamacpp", err)) {
        if (!read_llamacpp(r.at("llamacpp"), in, err)) return false;
        // The Ollama profile: its context and parallel defaults where the config gives none, and
        // flash attention off unless asked (OLLAMA_FLASH_ATTENTION defaults to 0).
        if (in.llamacpp.ollama) {
            if (!r.has("context")) in.context = static_cast<int>(in.constants.ollama_num_ctx);
            if (!r.has("concurrency")) in.concurrency = static_cast<int>(in.constants.ollama_num_parallel);
            if (!r.at("llamacpp").contains("flash_attn")) in.llamacpp.flash_attn = false;
        }
    }
    if (object_at(r, "host", err) && !read_host(r.at("host"), in.host, err)) return false;
    if (object_at(r, "hf", err)) {
        ObjectReader h(r.at("hf"), "inference.hf.");
        h.only_keys({"attention", "full_logits", "bnb_compute_dtype", "legacy_cache", "gptq_kernel"});
        std::string att = attention_name(in.hf.attention);
        h.string("attention", att);
        h.boolean("full_logits", in.hf.full_logits);
        h.boolean("legacy_cache", in.hf.legacy_cache);
        std::string kernel = gptq_kernel_name(in.hf.gptq_kernel);
        h.string("gptq_kernel", kernel);
        if (h.ok() && !parse_gptq_kernel(kernel, in.hf.gptq_kernel))
            h.fail("gptq_kernel", "inference.hf.gptq_kernel must be one of exllamav2, exllama, marlin, torch, got \"" + kernel + "\"");
        std::string compute = in.hf.bnb_compute_bytes == 4 ? "fp32" : "bf16";
        h.string("bnb_compute_dtype", compute);
        if (h.ok()) {
            if (compute == "fp32") in.hf.bnb_compute_bytes = 4;
            else if (compute == "bf16" || compute == "fp16") in.hf.bnb_compute_bytes = 2;
            else h.fail("bnb_compute_dtype", "inference.hf.bnb_compute_dtype must be one of fp32, bf16, fp16, got \"" + compute + "\"");
        }
        if (h.ok()) {
            if (att == "eager") in.hf.attention = HfAttention::Eager;
            else if (att == "sdpa") in.hf.attention = HfAttention::Sdpa;
            else if (att == "flash") in.hf.attention = HfAttention::Flash;
            else h.fail("attention", "inference.hf.attention must be one of eager, sdpa, flash, got \"" + att + "\"");
        }
        if (!h.ok()) {
            err = h.error();
            return false;
        }
    }
    if (object_at(r, "gpu_custom", err)) {
        if (!read_custom_gpu(r.at("gpu_custom"), in.custom_gpu, err)) return false;
        in.has_custom_gpu = true;
    }
    if (object_at(r, "weights_file", err) && !read_weights_file(r.at("weights_file"), in.weights_file, err)) return false;
    if (object_at(r, "constants", err) && !read_constants(r.at("constants"), in.constants, err)) return false;
    return err.field.empty();
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
    if (!f.mix.empty()) j["mix"] = f.mix;
    return j;
}

json inference_to_json(const InferenceInputs& in) {
    auto gib_or_null = [](double bytes) { return bytes < 0 ? json(nullptr) : json(bytes_to_gib(bytes)); };
    json j;
    j["engine"] = engine_name(in.engine);
    j["weights"] = in.weights.format;
    if (!in.weights.experts_format.empty()) j["experts_weights"] = in.weights.experts_format;
    j["group_size"] = in.weights.group_size;
    j["zero_point"] = in.weights.zero_point;
    j["act_order"] = in.weights.act_order;
    j["keep_embeddings"] = in.weights.keep_embeddings;
    j["gguf_imatrix"] = in.weights.gguf_imatrix;
    j["kv_dtype"] = in.kv_dtype;
    j["context"] = in.context;
    j["concurrency"] = in.concurrency;
    j["prompt_tokens"] = in.prompt_tokens;
    j["tp"] = in.tp;
    j["block_size"] = in.block_size;
    j["swa_full"] = in.swa_full;
    const auto& v = in.vllm;
    j["vllm"] = {{"gpu_memory_utilization", v.gpu_memory_utilization},
                 {"max_num_batched_tokens", v.max_num_batched_tokens},
                 {"max_num_seqs", v.max_num_seqs},
                 {"enforce_eager", v.enforce_eager},
                 {"profile_logits", v.profile_all_tokens ? "tokens" : "sequences"},
                 {"activation_peak_gib", gib_or_null(v.activation_peak_bytes)},
                 {"non_torch_gib", gib_or_null(v.non_torch_bytes)},
                 {"cuda_graph_gib", gib_or_null(v.cuda_graph_bytes)}};
    const auto& o = in.llamacpp;
    j["llamacpp"] = {{"n_gpu_layers", o.n_gpu_layers}, {"n_ubatch", o.n_ubatch}, {"flash_attn", o.flash_attn}};
    // The local-inference fields only when set, so configs without them echo as before.
    if (!o.kv_dtype_v.empty()) j["llamacpp"]["kv_dtype_v"] = o.kv_dtype_v;
    if (o.n_cpu_moe > 0) j["llamacpp"]["n_cpu_moe"] = o.n_cpu_moe;
    if (o.split_mode != SplitMode::Layer) j["llamacpp"]["split_mode"] = split_mode_name(o.split_mode);
    if (!o.tensor_split.empty()) j["llamacpp"]["tensor_split"] = o.tensor_split;
    if (o.lora_bytes > 0) j["llamacpp"]["lora_mib"] = o.lora_bytes / kBytesPerMiB;
    if (o.ollama) j["llamacpp"]["profile"] = "ollama";
    if (!o.mmproj.preset.empty() || o.mmproj.params > 0) {
        json v = {{"type", o.mmproj.type}};
        if (!o.mmproj.preset.empty()) v["preset"] = o.mmproj.preset;
        if (o.mmproj.params > 0) v["params_m"] = o.mmproj.params / 1e6;
        if (o.mmproj.image_tokens > 0) v["image_tokens"] = o.mmproj.image_tokens;
        if (o.mmproj.hidden > 0) v["hidden"] = o.mmproj.hidden;
        if (o.mmproj.heads > 0) v["heads"] = o.mmproj.heads;
        if (o.mmproj.ffn > 0) v["ffn"] = o.mmproj.ffn;
        j["llamacpp"]["mmproj"] = v;
    }
    if (!o.draft.preset.empty())
        j["llamacpp"]["draft"] = {{"preset", o.draft.preset}, {"weights", o.draft.weights}, {"n_gpu_layers", o.draft.n_gpu_layers}, {"context", o.draft.context}};
    const auto& h = in.host;
    if (h.ram_bytes > 0 || h.channels > 0 || h.mts > 0 || h.bandwidth_gbps > 0 || h.cpu_tflops > 0 || h.wired_limit_mb > 0)
        j["host"] = {{"ram_gib", bytes_to_gib(h.ram_bytes)}, {"channels", h.channels}, {"mts", h.mts}, {"bandwidth_gbps", h.bandwidth_gbps},
                     {"cpu_tflops", h.cpu_tflops}, {"wired_limit_mb", h.wired_limit_mb}};
    j["hf"] = {{"attention", attention_name(in.hf.attention)},
               {"full_logits", in.hf.full_logits},
               {"legacy_cache", in.hf.legacy_cache},
               {"gptq_kernel", gptq_kernel_name(in.hf.gptq_kernel)},
               {"bnb_compute_dtype", in.hf.bnb_compute_bytes == 4 ? "fp32" : "bf16"}};
    if (in.has_custom_gpu) {
        const GpuSpec& g = in.custom_gpu;
        j["gpu_custom"] = {{"name", g.name},
                           {"memory_gib", bytes_to_gib(g.memory_bytes)},
                           {"bandwidth_gbps", g.bandwidth_gbps},
                           {"bf16_tflops", g.bf16_tflops},
                           {"fp8_tflops", g.fp8_tflops}};
    }
    if (in.weights_file.total_bytes != 0) j["weights_file"] = weights_file_to_json(in.weights_file);
    const auto& k = in.constants;
    j["constants"] = {{"cuda_context_gib", bytes_to_gib(k.cuda_context_bytes)},
                      {"driver_reserved_gib", bytes_to_gib(k.driver_reserved_bytes)},
                      {"vllm_non_torch_gib", bytes_to_gib(k.vllm_non_torch_bytes)},
                      {"vllm_non_torch_tp_gib", bytes_to_gib(k.vllm_non_torch_tp_bytes)},
                      {"vllm_cuda_graph_gib", bytes_to_gib(k.vllm_cuda_graph_bytes)},
                      {"vllm_sampler_bytes_per_logit", k.vllm_sampler_bytes_per_logit},
                      {"vllm_token_logit_bytes", k.vllm_token_logit_bytes},
                      {"llamacpp_ctx_pad", k.llamacpp_ctx_pad},
                      {"bandwidth_efficiency", k.bandwidth_efficiency},
                      {"compute_efficiency", k.compute_efficiency},
                      {"host_bandwidth_gbps", k.host_bandwidth_gbps},
                      {"host_bandwidth_efficiency", k.host_bandwidth_efficiency},
                      {"pcie_gbps", k.pcie_gbps},
                      {"cpu_tflops", k.cpu_tflops},
                      {"llamacpp_sched_copies", k.llamacpp_sched_copies},
                      {"ollama_num_ctx", k.ollama_num_ctx},
                      {"ollama_num_parallel", k.ollama_num_parallel},
                      {"exllamav2_max_input_len", k.exllamav2_max_input_len},
                      {"exllamav2_max_batch_size", k.exllamav2_max_batch_size}};
    return j;
}

}  // namespace vc::io
