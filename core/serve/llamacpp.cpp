// vramcalc core: llama.cpp's allocation rules (core/serve/llamacpp.hpp has the index).
//
// [SECTIONS]
//   setup      layer and expert placement, projector and draft model, checks
//   buffers    model, KV, compute and output buffers per device
//   speed      decode and prompt time for the split
//   launch     the command line matching the plan
#include "core/serve/llamacpp.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/catalog/cuda_context.hpp"
#include "core/config.hpp"
#include "core/fields.hpp"
#include "core/model/presets.hpp"
#include "core/serve/tensor_override.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {
namespace {

constexpr double kF32 = 4;  // bytes of an F32 activation (llama.cpp computes activations in F32)
constexpr double kF16 = 2;

// Vision encoders as their GGUF mmproj files hold them (weights counted in parameters).
struct ProjectorPreset {
    const char* id;
    double params;
    int image_tokens, hidden, heads, ffn;
    const char* source;
};
const ProjectorPreset kProjectors[] = {
    // CLIP ViT-L/14 at 336 px without its last layer (LLaVA uses the penultimate) plus LLaVA's
    // 2-layer MLP projector: 290.9M + 21.0M parameters, 577 positions (24 x 24 patches + class).
    {"clip-vit-l-14-336", 311.9e6, 577, 1024, 16, 4096, "openai/clip-vit-large-patch14-336 config + LLaVA-1.5/1.6 mm_projector (mlp2x_gelu)"},
    // SigLIP so400m/14 at 896 px (Gemma 3): ~417M parameters with the projector, 64 x 64 patches.
    {"siglip-so400m-896", 417e6, 4096, 1152, 16, 4304, "google/gemma-3 vision_config (siglip so400m, image_size 896, patch 14)"},
    // Llama 4's vision tower, as transformers builds it from vision_config (hidden 1408, 34 layers, 16 heads, MLP 5632,
    // image 336, patch 14): patch linear 588 x 1408, class and 577 position embeddings, 34 layers of biased q/k/v/o
    // and fc1/fc2 with two LayerNorms (23,807,872 each), pre/post LayerNorms, the pixel-shuffle MLP 5632 x 4096 +
    // 4096 x 4096 and the projector 4096 x 5120: 871,932,416, which with Scout's text decoder makes the Hub's 108.64B.
    {"llama4-vit-336", 871932416, 577, 1408, 16, 5632, "meta-llama/Llama-4-Scout-17B-16E vision_config (image_size 336, patch 14)"},
};

bool float_type_bytes(const std::string& t, double& bytes) {
    if (t == "f16" || t == "bf16") bytes = 2;
    else if (t == "f32") bytes = 4;
    else if (t == "q8_0") bytes = 34.0 / 32;
    else return false;
    return true;
}

// Routed-expert bytes of layer `il` (0 in a dense layer): the layer's own, since a GGUF file type
// gives ffn_down_exps more bits on some layers (Q4_K_M: Q6_K where use_more_bits picks the layer);
// the average where the breakdown has no per-layer figure.
double layer_expert_bytes(const InferencePlan& p, int il) {
    const ModelSpec& m = p.model;
    if (!is_moe_layer(m, il) || m.experts <= 0) return 0;
    const auto& routed = p.weights.layer_routed;
    if (static_cast<int>(routed.size()) == m.layers) return routed[static_cast<size_t>(il)];
    const int moe_layers = moe_layer_count(m);
    return moe_layers > 0 ? p.weights.experts_routed / moe_layers : 0;
}

bool moe_layer(const ModelSpec& m, int il) { return is_moe_layer(m, il); }

// A number as a command line takes it: integers whole ("131072"), others with up to 4 digits.
std::string num_plain(double v) {
    char buf[48];
    // A whole number's digits are printf's "%.0f" (to_chars: no printf call), but -0's "-0".
    if (v == std::floor(v) && std::fabs(v) < 1e15 && !(v == 0 && std::signbit(v)))
        return std::string(buf, std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v)).ptr);
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// -ot parsed, and each tensor's first matching pair. The what-fits searches and the planner build a
// plan per candidate (thousands), with the same value and names: the last answer is kept, confirmed
// against the value, the machine and every tensor's kind and layer (thread_local: nothing shared).
struct OverrideCache {
    std::string value, backend;
    int n_gpus = -1;
    bool ok = false;
    Error err;
    std::vector<TensorOverride> pairs;
    // A memo of the last tensor list's matches (override_hits), kept beside the parsed pairs.
    mutable std::vector<std::pair<const char*, int>> names;  // kind and layer of each tensor `hits` is for
    mutable std::vector<int> hits;                           // index of the first matching pair, -1: none
};

const OverrideCache& parsed_overrides(const std::string& value, const std::string& backend, int n_gpus) {
    static thread_local OverrideCache c;
    if (c.n_gpus != n_gpus || c.value != value || c.backend != backend) {
        c = OverrideCache{};
        c.value = value, c.backend = backend, c.n_gpus = n_gpus;
        c.ok = parse_tensor_overrides(value, backend, n_gpus, c.pairs, c.err);
    }
    return c;
}

const std::vector<int>& override_hits(const OverrideCache& c, const std::vector<TensorBytes>& list) {
    bool same = c.names.size() == list.size();
    for (size_t k = 0; same && k < list.size(); ++k) same = c.names[k].first == list[k].kind && c.names[k].second == list[k].layer;
    if (!same) {
        c.names.clear();
        c.hits.clear();
        for (const auto& t : list) {
            c.names.emplace_back(t.kind, t.layer);
            c.hits.push_back(first_override(c.pairs, t.name()));
        }
    }
    return c.hits;
}

// -ot: places every tensor of the model by the first override its name matches, else where the
// layer placement and --n-cpu-moe put it (llama-model.cpp create_tensor: the overrides are searched
// in order and the first match replaces the buffer type; -ot's pairs come before --n-cpu-moe's, as
// when -ot is first on the command line). A GPU layer whose routed experts alone go to the CPU is
// --n-cpu-moe's case (experts_on_host, the same bytes); every other difference is a TensorMove.
void place_tensors(InferencePlan& p, const OverrideCache& ov, std::vector<TensorBytes> list) {
    const ModelSpec& m = p.model;
    const LlamaCppOptions& o = p.in.llamacpp;
    const size_t nl = static_cast<size_t>(m.layers);
    // Each part scaled to the breakdown's bytes (a weights file replaces the derived ones).
    std::vector<double> derived(nl, 0.0);
    double emb = 0, out = 0;
    for (const auto& t : list) (t.layer >= 0 ? derived[static_cast<size_t>(t.layer)] : t.output ? out : emb) += t.bytes;
    for (auto& t : list) {
        const double have = t.layer >= 0 ? derived[static_cast<size_t>(t.layer)] : t.output ? out : emb;
        const double want = t.layer >= 0 ? p.weights.layer_bytes[static_cast<size_t>(t.layer)] : t.output ? p.weights.output : p.weights.embedding;
        if (have > 0) t.bytes *= want / have;
    }
    // A tied head is token_embd duplicated on the output's device, created under token_embd's name.
    if (m.tied_embeddings) list.push_back(TensorBytes{"token_embd", -1, p.weights.embedding, false, true});
    const std::vector<int>& hits = override_hits(ov, list);

    auto home = [&](const TensorBytes& t) { return t.layer >= 0 ? p.layer_device[static_cast<size_t>(t.layer)] : t.output ? p.output_device : -1; };
    std::vector<int> to(list.size());
    std::vector<char> routed_all_host(nl, 1), others_home(nl, 1), has_routed(nl, 0);
    for (size_t k = 0; k < list.size(); ++k) {
        const TensorBytes& t = list[k];
        const int h = home(t);
        const bool cpu_moe = t.layer >= 0 && t.routed && t.layer < o.n_cpu_moe;
        to[k] = hits[k] >= 0 ? ov.pairs[static_cast<size_t>(hits[k])].device : cpu_moe ? -1 : h;
        if (t.layer < 0) continue;
        const size_t il = static_cast<size_t>(t.layer);
        if (t.routed) has_routed[il] = 1, routed_all_host[il] &= to[k] < 0 ? 1 : 0;
        else others_home[il] &= to[k] == h ? 1 : 0;
    }
    p.tensor_moves.clear();
    p.host_moved_largest = 0;
    for (size_t il = 0; il < nl; ++il)
        if (p.layer_device[il] >= 0) p.experts_on_host[il] = has_routed[il] && routed_all_host[il] && others_home[il];
    for (size_t k = 0; k < list.size(); ++k) {
        const TensorBytes& t = list[k];
        const int h = home(t);
        if (to[k] == h || (t.layer >= 0 && h >= 0 && p.experts_on_host[static_cast<size_t>(t.layer)])) continue;
        p.tensor_moves.push_back(InferencePlan::TensorMove{t.layer, h, to[k], t.bytes, t.routed, t.layer >= 0 || t.output});
        if (to[k] < 0 && t.layer >= 0) p.host_moved_largest = std::max(p.host_moved_largest, t.bytes);
    }
}

// What -ngl N (clamped to [0, layers + 1]) offloads: the repeating layers (the last ones) and
// whether the output layer goes too. llama.cpp numbers the output layer n_layer and offloads from
// i_gpu_start on: since PR #18148 (output_first; ggml-org/llama.cpp@57c1e05:src/llama-model.cpp:2381)
// i_gpu_start = n_layer + 1 - N, the output layer and the last N - 1 layers; before it n_layer - N,
// the last N layers and the output layer only at N > layers.
struct NglSplit {
    int layers = 0;
    bool output = false;
};
NglSplit ngl_split(int ngl, int layers, bool output_first) {
    if (output_first) return {std::clamp(ngl - 1, 0, layers), ngl > 0};
    return {std::clamp(ngl, 0, layers), ngl > layers};
}

}  // namespace

bool kv_type_quantized(const std::string& id) {
    // llama.cpp's own spellings (-ctv f16, f32) are the same types as fp16 and fp32 (find_kv_dtype).
    const KvDtype* d = find_kv_dtype(id);
    const std::string t = d ? d->id : id;
    return t != "fp16" && t != "bf16" && t != "fp32" && t != "auto" && !t.empty();
}

const char* llamacpp_backend(const InferencePlan& p) {
    if (p.cpu_only || !p.has_gpu) return "CPU";
    const std::string v = gpu_vendor(*p.gpu);
    if (v == "apple") return gpu_runtime_name(p.gpu.get());
    if (v == "amd") return "ROCm";
    if (v == "intel") return "SYCL";
    return "CUDA";
}

OllamaContext ollama_context(const Config& cfg) {
    const InferenceInputs& in = cfg.inference;
    const InferenceConstants& k = in.constants;
    const GpuSpec* gpu = in.has_custom_gpu ? &in.custom_gpu : cfg.gpu_id.empty() || cfg.gpu_id == "cpu" ? nullptr : find_gpu(cfg.gpu_id);
    // Ollama sums TotalMemory over the GPUs it finds (less OLLAMA_GPU_OVERHEAD, 0 by default); Metal's
    // TotalMemory is recommendedMaxWorkingSetSize, the unified budget.
    const double count = in.tp > 0 ? in.tp : std::max(1.0, cfg.gpus);
    const double each = !gpu ? 0 : gpu->unified ? unified_gpu_budget(gpu->memory_bytes, in.host.wired_limit_mb) : gpu->memory_bytes;
    OllamaContext r;
    r.unified = gpu && gpu->unified;
    r.vram_bytes = each * count;
    r.tier_tokens = static_cast<int>(r.vram_bytes >= gib_to_bytes(k.ollama_vram_large_gib) ? k.ollama_num_ctx_large
                                     : r.vram_bytes >= gib_to_bytes(k.ollama_vram_mid_gib) ? k.ollama_num_ctx_mid
                                                                                             : k.ollama_num_ctx);
    r.tokens = r.tier_tokens;
    ModelSpec spec = cfg.model;
    if (spec.layers == 0 && spec.params_override_b <= 0) spec.params_override_b = cfg.quick.params_b;
    const auto rm = resolve_model(spec);
    if (rm.ok && rm.value.context_limit > 0) r.tokens = std::min(r.tokens, rm.value.context_limit);
    return r;
}

double ollama_retry_context(const InferenceConstants& k, double context) {
    return context > k.ollama_num_ctx_mid ? k.ollama_num_ctx_mid : context > k.ollama_num_ctx ? k.ollama_num_ctx : 0;
}

void ollama_oom_retry(InferencePlan& p, const Config& cfg) {
    const InferenceInputs& in = p.in;
    const InferenceConstants& k = in.constants;
    if (p.engine != Engine::LlamaCpp || !in.llamacpp.ollama || !p.has_gpu || p.cpu_only || p.ollama_asked_context > 0) return;
    const double c = in.context, n = in.concurrency;
    if (c != ollama_context(cfg).tokens || fits_at(p, c, n, 1.0)) return;
    const double lower = ollama_retry_context(k, c);
    if (lower <= 0) return;  // nextLowerAutoNumCtx has none: the load's error stands
    p.ollama_oom_context = c;
    place_at_shape(p, lower, n);
    p.ollama_oom_failed = !fits_at(p, lower, n, 1.0);
}

// [SECTION] setup ---------------------------------------------------------------------------------
bool llamacpp_setup(InferencePlan& p, Error& err) {
    const ModelSpec& m = p.model;
    const LlamaCppOptions& o = p.in.llamacpp;
    if (!check_members({{"inference.llamacpp.n_cpu_moe", o.n_cpu_moe}, {"inference.llamacpp.lora_mib", o.lora_bytes}}, err)) return false;
    p.ram_bytes = p.in.host.ram_bytes;
    // Ollama may load on one of the GPUs alone (ollama_single_gpu, decided per GPU in set_plan_gpu).
    p.n_devices = o.split_mode == SplitMode::None || p.cpu_only || p.ollama_one_gpu ? 1 : p.tp;
    if (!o.tensor_split.empty()) {
        if (static_cast<int>(o.tensor_split.size()) != p.n_devices) {
            err = Error{"inference.llamacpp.tensor_split", "inference.llamacpp.tensor_split has " + std::to_string(o.tensor_split.size()) +
                                                               " entries; it needs one per GPU (" + std::to_string(p.n_devices) + ")"};
            return false;
        }
        double sum = 0;
        for (double v : o.tensor_split) {
            if (!std::isfinite(v) || v < 0 || v > 1e6) {
                err = Error{"inference.llamacpp.tensor_split", "inference.llamacpp.tensor_split entries must be between 0 and 1e6 (proportions)"};
                return false;
            }
            sum += v;
        }
        if (sum <= 0) {
            err = Error{"inference.llamacpp.tensor_split", "inference.llamacpp.tensor_split needs at least one entry above 0"};
            return false;
        }
    }
    if (!o.override_tensor.empty() && o.ollama) {
        err = Error{"inference.llamacpp.override_tensor", "inference.llamacpp.override_tensor (-ot) has no Ollama parameter: clear it or the profile"};
        return false;
    }
    // Ollama runs no draft model (its Modelfile and API options have no speculative decoding).
    if (!o.draft.preset.empty() && o.ollama) {
        err = Error{"inference.llamacpp.draft.preset", "inference.llamacpp.draft.preset (-md) has no Ollama parameter: clear it or the profile"};
        return false;
    }
    if (o.no_kv_offload && o.ollama) {
        err = Error{"inference.llamacpp.no_kv_offload", "inference.llamacpp.no_kv_offload (-nkvo) has no Ollama parameter: clear it or the profile"};
        return false;
    }
    // V cache quantization needs flash attention: llama_init_from_model refuses the context, "quantized V
    // cache requires flash_attn to be enabled" (ggml-org/llama.cpp@001d906:src/llama-context.cpp; older
    // releases "V cache quantization requires flash_attn"); a quantized K cache alone runs. Ollama passes
    // OLLAMA_KV_CACHE_TYPE to llama-server as both --cache-type-k and -v beside its --flash-attn
    // (ollama/ollama@fb30760:llm/llama_server.go:393-398, :613-620), so its profile is refused the same way.
    const std::string v_type = o.kv_dtype_v.empty() ? p.kv_dtype->id : o.kv_dtype_v;
    if (kv_type_quantized(v_type) && !o.flash_attn) {
        const char* field = o.kv_dtype_v.empty() ? "inference.kv_dtype" : "inference.llamacpp.kv_dtype_v";
        err = Error{field, std::string(field) + " \"" + v_type + "\" quantizes the V cache, which llama.cpp allows only with flash attention (-fa): set inference.llamacpp.flash_attn or an f16 V cache"};
        return false;
    }

    // Layers: -ngl N offloads the output layer and the last N - 1 layers, or before PR #18148 the
    // last N (ngl_split); llama.cpp's act_gpu_layers = min(N, n_layer + 1) of its indices from
    // i_gpu_start on, where the output layer is index n_layer. Each layer brings its own bytes
    // (p.weights.layer_bytes, its tensors at their GGUF types).
    const int ngl = p.cpu_only ? 0 : (o.n_gpu_layers < 0 ? m.layers + 1 : std::min(o.n_gpu_layers, m.layers + 1));
    const NglSplit split = ngl_split(ngl, m.layers, o.output_first);
    const int start = m.layers - split.layers;  // i_gpu_start (-ngl 0: nothing from here on is offloaded, act 0)
    const int act = std::min(ngl, m.layers + 1);
    p.gpu_layers = split.layers;
    p.output_on_gpu = split.output;
    llamacpp_set_gpu(p);  // the split by memory needs the GPU; placement follows
    // Split points: cumulative shares of --tensor-split (or of each GPU's memory).
    std::vector<double> splits(static_cast<size_t>(p.n_devices), 1.0);
    if (!o.tensor_split.empty()) splits = o.tensor_split;
    double sum = 0;
    for (auto& s : splits) s = (sum += s);
    for (auto& s : splits) s /= sum;
    p.row_share.assign(static_cast<size_t>(p.n_devices), 0.0);
    for (int d = 0; d < p.n_devices; ++d) p.row_share[static_cast<size_t>(d)] = splits[static_cast<size_t>(d)] - (d > 0 ? splits[static_cast<size_t>(d - 1)] : 0);
    auto device_of = [&](int il) {
        if (il < start || il - start >= act) return -1;
        if (o.split_mode != SplitMode::Layer) return 0;  // row / none: layers on the main GPU
        const double x = static_cast<double>(il - start) / act;
        return static_cast<int>(std::upper_bound(splits.begin(), splits.end(), x) - splits.begin());
    };
    p.layer_device.assign(static_cast<size_t>(m.layers), -1);
    p.experts_on_host.assign(static_cast<size_t>(m.layers), false);
    for (int il = 0; il < m.layers; ++il) {
        p.layer_device[static_cast<size_t>(il)] = std::min(device_of(il), p.n_devices - 1);
        p.experts_on_host[static_cast<size_t>(il)] = moe_layer(m, il) && (il < o.n_cpu_moe || p.layer_device[static_cast<size_t>(il)] < 0);
    }
    p.output_device = p.output_on_gpu ? std::min(device_of(m.layers), p.n_devices - 1) : -1;
    // -ot: the tensors its patterns name go to the buffer type they give.
    p.tensor_moves.clear();
    p.host_moved_largest = 0;
    if (!o.override_tensor.empty()) {
        const OverrideCache& ov = parsed_overrides(o.override_tensor, llamacpp_backend(p), p.cpu_only ? 0 : p.n_devices);
        if (!ov.ok) {
            err = ov.err;
            return false;
        }
        place_tensors(p, ov, p.tensors);
    }
    // Pipeline parallelism: several GPUs, every layer and the output offloaded, layer split, the KV
    // offloaded and no tensor overrides such as --n-cpu-moe or -ot (llama-context.cpp: pipeline_parallel =
    // n_devices > 1 && n_gpu_layers > n_layer && split_mode == LAYER && offload_kqv && !has_tensor_overrides).
    p.n_copies = p.n_devices > 1 && ngl > m.layers && o.split_mode == SplitMode::Layer && o.n_cpu_moe == 0 && o.override_tensor.empty() &&
                         !o.no_kv_offload
                     ? p.in.constants.llamacpp_sched_copies
                     : 1;

    // Weights: on the GPUs, the layers they hold (less routed experts kept on the host) and the
    // output layer (with tied embeddings a duplicate of token_embd); the rest in host RAM.
    const double head = m.tied_embeddings ? p.weights.embedding : p.weights.output;
    double on_gpu = 0;
    for (int il = 0; il < m.layers; ++il) {
        if (p.layer_device[static_cast<size_t>(il)] < 0) continue;
        on_gpu += p.weights.layer_bytes[static_cast<size_t>(il)] - (p.experts_on_host[static_cast<size_t>(il)] ? layer_expert_bytes(p, il) : 0);
    }
    p.host_bytes = p.weights.total - on_gpu - (p.output_on_gpu && !m.tied_embeddings ? head : 0);
    for (const auto& mv : p.tensor_moves) p.host_bytes += (mv.to < 0 ? mv.bytes : 0) - (mv.from < 0 ? mv.bytes : 0);

    // Vision projector.
    const VisionProjector& v = o.mmproj;
    p.vision_weights = p.vision_compute = 0;
    if (!v.preset.empty() || v.params > 0) {
        VisionProjector e = v;
        if (!v.preset.empty()) {
            const ProjectorPreset* found = nullptr;
            for (const auto& pr : kProjectors)
                if (v.preset == pr.id) found = &pr;
            if (!found) {
                std::string list;
                for (const auto& pr : kProjectors) list += (list.empty() ? "" : ", ") + std::string(pr.id);
                err = Error{"inference.llamacpp.mmproj.preset", "inference.llamacpp.mmproj.preset \"" + v.preset + "\" is not known (one of " + list + ")"};
                return false;
            }
            if (e.params <= 0) e.params = found->params;
            if (e.image_tokens <= 0) e.image_tokens = found->image_tokens;
            if (e.hidden <= 0) e.hidden = found->hidden;
            if (e.heads <= 0) e.heads = found->heads;
            if (e.ffn <= 0) e.ffn = found->ffn;
        }
        double bytes = 0;
        if (!float_type_bytes(e.type, bytes)) {
            err = Error{"inference.llamacpp.mmproj.type", "inference.llamacpp.mmproj.type must be one of f16, bf16, f32, q8_0, got \"" + e.type + "\""};
            return false;
        }
        if (!check_members({{"inference.llamacpp.mmproj.params_m", e.params},
                            {"inference.llamacpp.mmproj.image_tokens", e.image_tokens},
                            {"inference.llamacpp.mmproj.hidden", e.hidden},
                            {"inference.llamacpp.mmproj.heads", e.heads},
                            {"inference.llamacpp.mmproj.ffn", e.ffn}},
                           err))
            return false;
        p.vision_weights = e.params * bytes;
        // clip.cpp's graph peak for one image of T positions: one layer's F32 attention scores
        // (T x T x heads), the MLP intermediate (T x ffn) and the residual with its normed copy.
        const double T = e.image_tokens;
        p.vision_compute = T * T * e.heads * kF32 + T * e.ffn * kF32 + 2 * T * e.hidden * kF32;
    }

    // Draft model.
    p.has_draft = !o.draft.preset.empty();
    if (p.has_draft) {
        const ModelSpec* preset = find_preset(o.draft.preset);
        if (!preset) {
            err = Error{"inference.llamacpp.draft.preset", "inference.llamacpp.draft.preset \"" + o.draft.preset + "\" is not a model preset (vramcalc --list-presets)" + preset_suggestion(o.draft.preset)};
            return false;
        }
        auto rm = resolve_model(*preset);
        if (!rm.ok) {
            err = rm.error;
            return false;
        }
        p.draft_model = rm.value;
        QuantOptions q;
        q.format = o.draft.weights;
        q.gguf_file = true;  // a GGUF file, as the target's (mxfp4: MXFP4_MOE)
        auto rw = weight_bytes(p.draft_model, q, 1);
        if (!rw.ok) {
            err = Error{"inference.llamacpp.draft.weights", "inference.llamacpp.draft.weights: " + rw.error.message};
            return false;
        }
        p.draft_weights = rw.value;
        if (!check_members({{"inference.llamacpp.draft.n_gpu_layers", o.draft.n_gpu_layers},
                            {"inference.llamacpp.draft.context", o.draft.context},
                            {"inference.llamacpp.draft.max_tokens", o.draft.max_tokens},
                            {"inference.llamacpp.draft.min_tokens", o.draft.min_tokens},
                            {"inference.llamacpp.draft.acceptance", o.draft.acceptance}},
                           err))
            return false;
        // The draft's KV is F16 whatever -ctk/-ctv say: llama-server sets params_dft.cache_type_k/v
        // from params.speculative (-ctkd/-ctvd, default GGML_TYPE_F16 in common/common.h); builds
        // before them forced F16 ("force F16 KV cache for the draft model for extra performance").
        auto rk = kv_layout(p.draft_model, *find_kv_dtype("fp16"), 1, !p.in.swa_full);
        if (!rk.ok) {
            err = Error{"inference.llamacpp.draft.preset", rk.error.message};
            return false;
        }
        p.draft_kv = rk.value;
    }
    return true;
}

// [SECTION] llama-server's --fit (-ngl unset) ---------------------------------------------------
// llama-server runs --fit by default (ggml-org/llama.cpp PR #16653, 2025-12; @001d906
// common/common.h: n_gpu_layers = -1 "auto", fit_params = true, fit_params_target 1024 MiB per
// device, fit_params_min_ctx = 4096), placing the model in common/fit.cpp common_params_fit_impl
// (@08033df). Ollama v0.32.15 (b7871fc) llm/llama_server.go passes no -ngl when num_gpu is unset
// ("NumGPU == -1 (default): don't pass -ngl, let llama-server auto-detect"), so the same fit runs
// there. The steps: (1) nothing changes when every device keeps its target free; (2) only with
// the context unset (no -c: n_ctx_auto) the context is lowered first, from the trained one towards
// --fit-ctx; the launch command here always passes -c, so this step keeps it ("context size set by
// user ... no change"); (3) the layers move, which --fit refuses ("abort": the load then takes the
// user's settings, every layer) when -ngl, a tensor split, row split or a tensor override
// (-ot, --n-cpu-moe: both tensor_buft_overrides) was given.
// Since PR #18148 --fit's N counts the output layer first, as -ngl does (common/fit.cpp
// set_ngl_tensor_split_tbo: il0 = hp_ngl + 1 - n_gpu_layers; "the last device has the output layer,
// which cannot be a partial layer"): the search below tries -ngl values and llamacpp_setup places them.
bool llamacpp_fit_applies(const InferencePlan& p) {
    const LlamaCppOptions& o = p.in.llamacpp;
    return o.fit && o.n_gpu_layers < 0 && p.has_gpu && !p.cpu_only && o.split_mode != SplitMode::Row && o.tensor_split.empty() &&
           o.override_tensor.empty() && o.n_cpu_moe == 0;
}

bool llamacpp_fit(InferencePlan& p, double context_bytes, Error& err) {
    const ModelSpec& m = p.model;
    LlamaCppOptions& o = p.in.llamacpp;
    if (p.auto_gpu_layers >= 0) {  // fitted before (another GPU): from the user's settings again
        o.n_gpu_layers = -1;
        if (p.auto_cpu_moe >= 0) o.n_cpu_moe = 0;
    }
    const double c = p.in.context, n = p.in.concurrency;
    // --fit's target per device: its free memory (the card less the CUDA context) less the margin.
    const double target = p.gpu_capacity - context_bytes - p.in.constants.fit_target_bytes;
    bool failed = false;
    auto fits = [&](int ngl, int cpu_moe) {
        o.n_gpu_layers = ngl;
        o.n_cpu_moe = cpu_moe;
        if (!llamacpp_setup(p, err)) {
            failed = true;
            return false;
        }
        const LlamaCppBuffers b = llamacpp_buffers(p, c, n);
        for (const auto& g : b.gpus)
            if (g.total() > target) return false;
        return true;
    };
    const int all = m.layers + 1;
    const bool experts = m.experts > 0;  // the user's --n-cpu-moe or -ot stops the fit (llamacpp_fit_applies)
    int ngl = all, cpu_moe = 0;
    // Step 1: every layer and the output layer leave the margin: no change.
    if (!fits(all, 0)) {
        // Steps 3-4: for a MoE model whose dense weights of every layer fit, every layer on the GPU
        // and the routed experts of the most layers with them (--fit fills whole layers front to
        // back); else the most layers (a MoE model's without their experts), filled back to front.
        const bool moe_first = experts && fits(all, m.layers);
        if (experts) cpu_moe = m.layers;
        int lo = 0, hi = m.layers;  // the largest count that fits (0 always "fits": the least there is)
        while (lo < hi) {
            const int mid = lo + (hi - lo + 1) / 2;
            if (moe_first ? fits(all, m.layers - mid) : fits(mid, cpu_moe)) lo = mid;
            else hi = mid - 1;
        }
        if (moe_first) cpu_moe = m.layers - lo;
        else ngl = lo;
    }
    if (failed || (fits(ngl, cpu_moe), failed)) return false;
    p.auto_gpu_layers = ngl;
    p.auto_cpu_moe = experts ? cpu_moe : -1;
    return true;
}

bool llamacpp_fit_shown(const InferencePlan& p) {
    return p.auto_gpu_layers >= 0 && (p.in.llamacpp.ollama || p.auto_gpu_layers <= p.model.layers || p.auto_cpu_moe > 0);
}

std::string llamacpp_fit_placement(const InferencePlan& p, bool* in_ram) {
    const ModelSpec& m = p.model;
    int moe_host = 0;  // MoE layers among the first auto_cpu_moe (--n-cpu-moe: the first N layers' experts)
    for (int il = 0; il < std::min(p.auto_cpu_moe, m.layers); ++il) moe_host += is_moe_layer(m, il) ? 1 : 0;
    // snprintf: the wasm page's size budget (tests/browser/size.test.mjs).
    char experts[80] = "", buf[200];
    if (moe_host > 0) std::snprintf(experts, sizeof experts, " with the routed experts of %d of %d MoE layers in system RAM", moe_host, moe_layer_count(m));
    const char* gpus = p.n_devices > 1 ? "GPUs" : "GPU";
    if (in_ram) *in_ram = moe_host > 0 || p.auto_gpu_layers <= m.layers;
    // The count llama.cpp prints: output first, "offloaded N/(layers + 1) layers to GPU", the output
    // layer and N - 1 repeating layers (llamacpp_setup); before PR #18148 the last N layers, the
    // output layer only past them.
    if (!p.in.llamacpp.output_first)
        std::snprintf(buf, sizeof buf, "%d of %d layers%s on the %s%s", p.gpu_layers, m.layers, p.output_on_gpu ? " and the output layer" : "", gpus, experts);
    else if (p.auto_gpu_layers == 1) std::snprintf(buf, sizeof buf, "1 of %d layers (the output layer alone) on the %s%s", m.layers + 1, gpus, experts);
    else if (p.auto_gpu_layers > 0)
        std::snprintf(buf, sizeof buf, "%d of %d layers (the output layer and %d repeating layer%s) on the %s%s", p.auto_gpu_layers, m.layers + 1, p.gpu_layers,
                      p.gpu_layers == 1 ? "" : "s", gpus, experts);
    else std::snprintf(buf, sizeof buf, "0 of %d layers on the %s%s", m.layers + 1, gpus, experts);
    return buf;
}

void llamacpp_set_gpu(InferencePlan& p) {
    if (!p.has_gpu) return;
    p.gpu_capacity = p.gpu->unified ? unified_gpu_budget(p.gpu->memory_bytes, p.in.host.wired_limit_mb) : p.gpu->memory_bytes;
    p.ram_bytes = p.gpu->unified ? p.gpu->memory_bytes : p.in.host.ram_bytes;
}

double llamacpp_unchecked_ram(const InferencePlan& p, double context, double n) {
    if (p.engine != Engine::LlamaCpp || !p.has_gpu || p.cpu_only || p.ram_bytes > 0) return 0;
    // A byte of slack: host_bytes is a difference of sums. KV cells are in host RAM only for CPU
    // layers (weights there too) or with -nkvo.
    const bool weights = p.host_bytes > p.weights.embedding + 1e-9 * p.weights.total + 1;
    if (!weights && !p.in.llamacpp.no_kv_offload) return 0;
    const LlamaCppBuffers b = llamacpp_buffers(p, context, n);
    return weights || b.host.kv > 0 ? b.host.total() : 0;
}

double ollama_predicted_bytes(const InferencePlan& p, double context, double n) {
    const ModelSpec& m = p.model;
    // effectiveLlamaServerContext (sched.go:793): num_ctx capped at the trained context, x parallel.
    const double tokens = (m.context_limit > 0 ? std::min<double>(context, m.context_limit) : context) * std::max(1.0, n);
    // PredictServerVRAM (llm/llama_server.go:2681): the file's size + 2 (K, V) x layers x the fewest
    // KV heads x (embedding / heads) x tokens x 2 B (F16), whatever the cache type and head_dim.
    const double head_dim = m.heads > 0 ? static_cast<double>(m.hidden) / m.heads : 0;
    return p.weights.total + 2.0 * m.layers * std::max(1, m.kv_heads) * head_dim * tokens * kF16;
}

bool ollama_single_gpu(const InferencePlan& p) {
    const LlamaCppOptions& o = p.in.llamacpp;
    // num_gpu as the user gave it (a fit from another GPU leaves its count in n_gpu_layers): 0 is
    // CPU only, which selectLlamaServerPlacement leaves alone. A tensor split or row split has no
    // Ollama parameter; given anyway, it keeps every GPU.
    const int num_gpu = p.auto_gpu_layers >= 0 ? -1 : o.n_gpu_layers;
    if (!o.ollama || p.tp <= 1 || !p.has_gpu || p.cpu_only || num_gpu == 0 || o.split_mode != SplitMode::Layer || !o.tensor_split.empty()) return false;
    const double free_one = std::max(0.0, p.gpu_capacity - p.runtime_gpu);
    const double predicted = ollama_predicted_bytes(p, p.in.context, p.in.concurrency);
    return predicted > 0 && predicted <= free_one * p.in.constants.ollama_single_gpu_share;
}

// [SECTION] buffers -------------------------------------------------------------------------------
OllamaBatch ollama_auto_batch(const InferencePlan& p, double context, double n) {
    OllamaBatch r;
    const LlamaCppOptions& o = p.in.llamacpp;
    if (!o.ollama || o.n_ubatch > 0) return r;  // num_batch given (routes.go usesAutomaticNumBatch)
    const InferenceConstants& k = p.in.constants;
    const ModelSpec& m = p.model;
    // effectiveLlamaServerContext (sched.go:793): num_ctx capped at the trained context, x parallel.
    r.tokens = (m.context_limit > 0 ? std::min<double>(context, m.context_limit) : context) * std::max(1.0, n);
    r.predicted = ollama_predicted_bytes(p, context, n);
    // The free memory Ollama places on (sched.go:952 availableMemoryForPlacement): each GPU's free
    // memory, here its memory (a Mac: the working-set limit) less the CUDA context as for --fit, of
    // the GPUs it loads on: one alone when the prediction fits one (ollama_single_gpu, :1060
    // bestSingleGPUFit), else all of them. No GPU: 0, and generationBatchFits keeps any batch.
    const bool gpu = p.has_gpu && !p.cpu_only;
    const double free_one = gpu ? std::max(0.0, p.gpu_capacity - p.runtime_gpu) : 0;
    const int gpus = gpu ? std::max(1, p.n_devices) : 0;
    r.available = free_one * gpus;
    // CUDA with flash attention off (OLLAMA_FLASH_ATTENTION=0): 512, or 256 above the medium context
    // on a card with at most 8 GiB (sched.go:823-828), before any prediction.
    if (gpu && !o.flash_attn && std::string(llamacpp_backend(p)) == "CUDA") {
        r.cuda_fa_off = true;
        const bool small = free_one > 0 && free_one <= gib_to_bytes(k.ollama_batch_constrained_gib);
        r.batch = r.start = static_cast<int>(r.tokens > k.ollama_batch_medium_ctx && small ? k.ollama_num_batch_constrained : k.ollama_num_batch);
        return r;
    }
    const double large = k.ollama_num_batch_large, medium = k.ollama_num_batch_medium, base = k.ollama_num_batch;
    double batch = r.tokens > k.ollama_batch_large_ctx ? large : r.tokens > k.ollama_batch_medium_ctx ? medium : base;
    r.start = static_cast<int>(batch);
    // generationBatchFits (sched.go:870): within 80% of the free memory, within the batch's headroom
    // share, and the surcharge within what the 80% leaves; else the next lower batch.
    auto fits = [&](double b) {
        if (r.predicted <= 0 || r.available <= 0) return true;
        const double threshold = r.available * k.ollama_batch_fit_share;
        if (r.predicted > threshold) return false;
        const double headroom = b >= large ? k.ollama_batch_large_headroom : b >= medium ? k.ollama_batch_medium_headroom : 1.0;
        if (r.predicted > r.available * headroom) return false;
        const double surcharge = b >= large ? k.ollama_batch_large_surcharge_mib : b >= medium ? k.ollama_batch_medium_surcharge_mib : 0;
        return surcharge * kBytesPerMiB <= threshold - r.predicted;
    };
    while (batch > base && !fits(batch)) batch = batch > medium ? medium : base;
    r.batch = static_cast<int>(batch);
    return r;
}

int llamacpp_ubatch(const InferencePlan& p, double context, double n) {
    const LlamaCppOptions& o = p.in.llamacpp;
    const int ub = o.n_ubatch > 0 ? o.n_ubatch : o.ollama ? ollama_auto_batch(p, context, n).batch : kLlamaCppUbatch;
    return std::min(ub, o.n_batch);
}

namespace {

struct GraphShape {
    double embd = 0, q_width = 0, heads = 0, vocab = 0, ffn_peak = 0;
};

// Widths of one ubatch's tensors (per token, in values) for `m`.
GraphShape graph_shape(const ModelSpec& m) {
    GraphShape g;
    g.embd = m.hidden;
    g.heads = m.heads;
    g.q_width = static_cast<double>(m.heads) * (m.kv_lora_rank > 0 ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim);
    g.vocab = m.vocab;
    const bool gated = m.mlp != MlpKind::Gelu;
    // FFN phase: the attention output added to the residual (kept for the next add), its normed
    // copy, and the up and gate projections (SiLU and the product run in place; ggml-alloc).
    const double dense = dense_mlp_layers(m) > 0 ? (gated ? 2.0 : 1.0) * m.ffn : 0;
    // MoE: mul_mat_id writes [expert_ffn, top_k, tokens] for up and gate, plus the router's logits
    // and probabilities over every expert.
    const double moe = m.experts > 0 ? (gated ? 2.0 : 1.0) * m.expert_ffn * m.top_k + 2.0 * m.experts : 0;
    g.ffn_peak = 2 * g.embd + std::max(dense, moe);
    return g;
}

// The graph allocator's peak on one device: its inputs (the KQ mask and the hidden state, copied
// n_copies times for pipelining; Metal reads host memory in place) live through every layer; a
// layer's peak is its attention (F32 scores n_kv x ub x heads without flash attention, softmax in
// place) or its FFN; the output phase holds the F32 logits of every token of the ubatch.
double device_compute(const GraphShape& g, double ub, double n_kv, bool fa, double copies, bool layers, bool output) {
    const double mask = n_kv * ub * kF32;
    const double inputs = copies * (mask + g.embd * ub * kF32) + (fa ? n_kv * ub * kF16 : 0);
    const double attn = fa ? (2 * g.q_width + g.embd) * ub * kF32 : n_kv * ub * g.heads * kF32 + (g.q_width + g.embd) * ub * kF32;
    const double layer_peak = std::max(attn, g.ffn_peak * ub * kF32);
    const double out = (g.vocab + g.embd) * ub * kF32 + (layers ? 0 : copies * g.embd * ub * kF32);
    return std::max(layers ? inputs + layer_peak : 0.0, output ? out : 0.0);
}

double kv_cells(const InferencePlan& p, double context, double n) {
    const double pad = p.in.constants.llamacpp_ctx_pad;
    return std::ceil(n * context / pad) * pad;
}

// A hybrid's recurrent layer keeps one state cell per sequence (llama-memory-recurrent, mem_size max(1, n_seq_max)).
double layer_state(const KvLayout& kv, const ModelSpec& m, int il, double n) {
    return is_recurrent_layer(m, il) ? kv.state_bytes_per_layer * std::max(1.0, n) : 0;
}

// KV bytes of layer `il` for `n` x `context` cells (SWA layers keep their window plus a ubatch), with its recurrent
// state (layer_state): Falcon-H1's parallel layer (P) keeps both (llama-memory-hybrid), an MLP-only layer nothing.
double layer_kv(const InferencePlan& p, const KvLayout& kv, const ModelSpec& m, int il, double context, double n) {
    const double state = layer_state(kv, m, il, n);
    if (!has_attention(m, il)) return state;
    const bool local = is_local_layer(m, il);
    for (int gi = 0; gi < kv.group_count; ++gi) {
        const KvGroup& grp = kv.groups[gi];
        if (grp.local != local || grp.layers <= 0 || !has_attention(m, il)) continue;
        const double per_seq = grp.cap_tokens > 0 ? std::min(context, grp.cap_tokens + llamacpp_ubatch(p, context, n)) : context;
        const double pad = p.in.constants.llamacpp_ctx_pad;
        return state + grp.bytes_per_token / grp.layers * std::ceil(n * per_seq / pad) * pad;
    }
    return state;
}

}  // namespace

LlamaCppBuffers llamacpp_buffers(const InferencePlan& p, double context, double n) {
    const ModelSpec& m = p.model;
    const LlamaCppOptions& o = p.in.llamacpp;
    LlamaCppBuffers b;
    const std::string backend = llamacpp_backend(p);
    const bool unified = p.has_gpu && p.gpu->unified;
    const int nd = p.cpu_only ? 0 : p.n_devices;
    b.gpus.resize(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d)
        b.gpus[static_cast<size_t>(d)].device = backend == std::string("Metal") && nd == 1 ? backend : backend + std::to_string(d);
    b.host.device = p.cpu_only || unified || !p.has_gpu ? "CPU" : backend + "_Host";

    const double lora_layer = m.layers > 0 ? o.lora_bytes / m.layers : 0;
    std::vector<int> layers_on(static_cast<size_t>(nd), 0);
    int cpu_layers = 0;
    double gpu_layer_bytes = 0;
    for (int il = 0; il < m.layers; ++il) {
        const int d = p.layer_device[static_cast<size_t>(il)];
        const double w = p.weights.layer_bytes[static_cast<size_t>(il)];
        const double experts_host = p.experts_on_host[static_cast<size_t>(il)] ? layer_expert_bytes(p, il) : 0;
        const double kv_layer = layer_kv(p, p.kv, m, il, context, n);
        const double state_layer = layer_state(p.kv, m, il, n);
        if (d < 0) {
            b.host.model += w;
            b.host.kv += kv_layer;
            b.host.state += state_layer;
            b.host.extras += lora_layer;
            ++cpu_layers;
            continue;
        }
        DeviceBuffers& g = b.gpus[static_cast<size_t>(d)];
        b.host.model += experts_host;
        gpu_layer_bytes += w - experts_host;
        if (o.split_mode == SplitMode::Layer) g.model += w - experts_host;
        // -nkvo: the KV of an offloaded layer is in host RAM too (src/llama-kv-cache.cpp: the
        // layer's buffer type is its device's only when offload, else ggml_backend_cpu_buffer_type()).
        (o.no_kv_offload ? b.host.kv : g.kv) += kv_layer;
        (o.no_kv_offload ? b.host.state : g.state) += state_layer;
        g.extras += lora_layer;
        ++layers_on[static_cast<size_t>(d)];
    }
    // -ot: tensors moved off their layer's (or the embedding's, the head's) device onto another.
    for (const auto& mv : p.tensor_moves) {
        if (mv.from < 0) b.host.model -= mv.bytes;
        else if (mv.layer >= 0 && o.split_mode != SplitMode::Layer) gpu_layer_bytes -= mv.bytes;
        else b.gpus[static_cast<size_t>(mv.from)].model -= mv.bytes;
        if (mv.to < 0) {
            b.host.model += mv.bytes;
        } else {
            b.gpus[static_cast<size_t>(mv.to)].model += mv.bytes;
            if (mv.layer >= 0) ++layers_on[static_cast<size_t>(mv.to)];  // it runs that layer's ops: a graph to hold
        }
    }
    if (o.split_mode != SplitMode::Layer)  // row: each GPU a share of every matrix; none: all on GPU 0
        for (int d = 0; d < nd; ++d)
            b.gpus[static_cast<size_t>(d)].model += gpu_layer_bytes * (o.split_mode == SplitMode::Row ? p.row_share[static_cast<size_t>(d)] : 1);
    // token_embd (and learned positions) stay in host RAM; the output layer where -ngl puts it.
    const double head = m.tied_embeddings ? p.weights.embedding : p.weights.output;
    b.host.model += p.weights.embedding;
    if (p.output_device >= 0 && nd > 0) b.gpus[static_cast<size_t>(p.output_device)].model += head;
    else if (!m.tied_embeddings) b.host.model += head;
    b.host.model += p.weights.total - p.weights.embedding - p.weights.output - [&] {
        double s = 0;
        for (double w : p.weights.layer_bytes) s += w;
        return s;
    }();  // the final norm and anything outside the layers

    // Compute buffers for the worst ubatch against every cell: llama_context reserves its graphs
    // for min(n_ctx, n_ubatch) tokens, n_ubatch already capped by -b (llama-context.cpp sched_reserve).
    const GraphShape shape = graph_shape(m);
    const double ub = std::min<double>(llamacpp_ubatch(p, context, n), n * context);
    const double n_kv = kv_cells(p, context, n);
    const double copies = unified ? 0 : p.n_copies;
    for (int d = 0; d < nd; ++d) {
        DeviceBuffers& g = b.gpus[static_cast<size_t>(d)];
        g.compute = device_compute(shape, ub, n_kv, o.flash_attn, copies, layers_on[static_cast<size_t>(d)] > 0, p.output_device == d);
    }
    // Op offload: for ubatches of 32+ tokens the scheduler runs the matmuls of host-resident
    // weights on the first GPU, copying each weight into its compute buffer (ggml-cuda offload_op).
    bool host_experts = false;
    for (bool e : p.experts_on_host) host_experts = host_experts || e;
    // The copied expert tensor: a MoE layer's routed experts on average over its matrices (the
    // largest single tensor, a Q6_K ffn_down_exps under Q4_K_M, is not tracked).
    const double host_expert_layer = moe_layer_count(m) > 0 ? p.weights.experts_routed / moe_layer_count(m) : 0;
    const bool host_moved = p.host_moved_largest > 0;  // -ot put layer tensors in host RAM
    if (nd > 0 && !unified && ub >= 32 && (cpu_layers > 0 || host_experts || host_moved || p.output_device < 0)) {
        const double mats = m.mlp != MlpKind::Gelu ? 3 : 2;
        double copy = 0, max_layer = 0;
        for (double w : p.weights.layer_bytes) max_layer = std::max(max_layer, w);
        if (cpu_layers > 0) copy = std::max(copy, std::min(p.weights.largest_matrix, max_layer / mats));
        if (host_experts) copy = std::max(copy, host_expert_layer / mats);
        copy = std::max(copy, p.host_moved_largest);
        const double out_phase = p.output_device < 0 ? (shape.vocab + shape.embd) * ub * kF32 + head : 0;
        const double in_mask = n_kv * ub * kF32;
        const double layer_phase = cpu_layers > 0 || host_experts || host_moved
                                       ? copies * (in_mask + shape.embd * ub * kF32) + (o.flash_attn ? n_kv * ub * kF16 : 0) + shape.ffn_peak * ub * kF32 + copy
                                       : 0;
        b.gpus[0].compute = std::max({b.gpus[0].compute, out_phase, layer_phase});
    }
    // Host: the mask and token embeddings (rows of token_embd, plus learned positions) for the
    // GPUs, copied n_copies times when pipelining; or the whole graph when the CPU runs layers.
    const double rows = (m.max_position > 0 ? 2 : 1) * shape.embd * ub * kF32;
    const double mask = n_kv * ub * kF32;
    if (nd == 0) {
        b.host.compute = mask + device_compute(shape, ub, n_kv, o.flash_attn, 0, true, true) ;
    } else {
        const double host_copies = unified ? 1 : p.n_copies;
        b.host.compute = host_copies * mask + rows;
        // The CPU keeps the attention of its layers (their KV is in host RAM); the rest is offloaded.
        // With -nkvo every layer's KV is in host RAM and llama.cpp pins the attention output to the
        // CPU ("all nodes between the KV store and the attention output are run on the CPU":
        // llama-context.cpp graph_get_cb, !offload_kqv -> kqv_merged_cont on backend_cpu), so the
        // host graph holds one layer's attention. The GPUs' compute buffers are left as they are
        // (llama.cpp issue #9302, ggerganov: "The CUDA compute buffer is normal to not be affected").
        if (cpu_layers > 0 || o.no_kv_offload) {
            const double attn = o.flash_attn ? (2 * shape.q_width + shape.embd) * ub * kF32 + n_kv * ub * kF16
                                             : n_kv * ub * shape.heads * kF32 + (shape.q_width + shape.embd) * ub * kF32;
            b.host.compute = std::max(b.host.compute, mask + rows + attn);
        }
    }
    // Output buffer: F32 logits for one token of each slot (n_seq_max), in host memory.
    b.host.output = m.vocab * std::max(1.0, n) * kF32;

    // Projector, draft model: on the main GPU (or the host without one).
    DeviceBuffers& main = nd > 0 ? b.gpus[0] : b.host;
    main.extras += p.vision_weights + p.vision_compute;
    if (p.has_draft) {
        const ModelSpec& dm = p.draft_model;
        const double dctx = o.draft.context > 0 ? o.draft.context : context;
        const int dngl = o.draft.n_gpu_layers < 0 ? dm.layers + 1 : std::min(o.draft.n_gpu_layers, dm.layers + 1);
        const NglSplit dsplit = ngl_split(dngl, dm.layers, o.output_first);  // -ngld: the same load_tensors
        const double share = dm.layers > 0 ? static_cast<double>(dsplit.layers) / dm.layers : 0;
        double dkv = 0;
        for (int il = 0; il < dm.layers; ++il) dkv += layer_kv(p, p.draft_kv, dm, il, dctx, n);
        const double dhead = dm.tied_embeddings ? p.draft_weights.embedding : p.draft_weights.output;
        const double dlayers = p.draft_weights.total - p.draft_weights.embedding - p.draft_weights.output;
        const double on = nd > 0 ? dlayers * share + (dsplit.output ? dhead : 0) : 0;
        const double dcomp = device_compute(graph_shape(dm), ub, kv_cells(p, dctx, n), o.flash_attn, nd > 0 ? 1 : 0, dsplit.layers > 0, dsplit.output);
        // -nkvo reaches the draft too: llama-server builds the draft's parameters as a copy of the
        // main ones (tools/server/server.cpp load_model: auto params_dft = params_base; then only
        // devices, model, n_ctx, n_gpu_layers, n_parallel and the cache types are replaced), and
        // common_context_params_to_llama sets offload_kqv = !no_kv_offload: its KV is in host RAM.
        const double dkv_gpu = nd > 0 && !o.no_kv_offload ? dkv * share : nd > 0 ? 0 : dkv;
        main.extras += on + dkv_gpu + (nd > 0 ? dcomp : 0);
        b.host.extras += p.draft_weights.total - on + (nd > 0 ? dkv - dkv_gpu : 0);
    }
    double best = -1;
    for (int d = 0; d < nd; ++d)
        if (b.gpus[static_cast<size_t>(d)].total() > best) {
            best = b.gpus[static_cast<size_t>(d)].total();
            b.fullest = d;
        }
    return b;
}

// [SECTION] speed ---------------------------------------------------------------------------------
double host_bandwidth(const InferencePlan& p) {
    const HostInputs& h = p.in.host;
    if (h.bandwidth_gbps > 0) return h.bandwidth_gbps * 1e9;
    if (h.channels > 0 && h.mts > 0) return h.channels * 8.0 * h.mts * 1e6 * p.in.constants.host_bandwidth_efficiency;
    return p.in.constants.host_bandwidth_gbps * 1e9;
}

LlamaCppTiming llamacpp_timing(const InferencePlan& p, double context, double n, double prompt, double tokens) {
    LlamaCppTiming t;
    const ModelSpec& m = p.model;
    const LlamaCppBuffers b = llamacpp_buffers(p, context, n);
    // A decode step of n sequences touches 1 - (1 - k/E)^n of each layer's routed experts (a
    // verification batch: 1 - (1 - k/E)^tokens).
    const double touched = m.experts > 0 ? 1 - std::pow(1 - static_cast<double>(m.top_k) / m.experts, tokens > 0 ? tokens : n) : 1;
    const double kv_seq_layer = m.layers > 0 ? kv_sequence_bytes(p.kv, context, 0) / m.layers : 0;
    const int nd = static_cast<int>(b.gpus.size());
    std::vector<double> gpu_read(static_cast<size_t>(nd), 0.0);
    double host_read = 0, host_layer_weights = 0;
    for (int il = 0; il < m.layers; ++il) {
        const int d = p.layer_device[static_cast<size_t>(il)];
        const double w = p.weights.layer_bytes[static_cast<size_t>(il)];
        const double e = layer_expert_bytes(p, il);
        const bool exp_host = p.experts_on_host[static_cast<size_t>(il)];
        const double dense = w - e, experts = e * touched, kv = n * kv_seq_layer;
        if (d < 0) {
            host_read += dense + experts + kv;
            host_layer_weights += w;
            continue;
        }
        host_read += exp_host ? experts : 0;
        host_layer_weights += exp_host ? e : 0;
        // -nkvo: the CPU runs the attention and reads the layer's KV from system RAM.
        host_read += p.in.llamacpp.no_kv_offload ? kv : 0;
        const double on_gpu = dense + (exp_host ? 0 : experts) + (p.in.llamacpp.no_kv_offload ? 0 : kv);
        if (p.in.llamacpp.split_mode == SplitMode::Row)
            for (int g = 0; g < nd; ++g) gpu_read[static_cast<size_t>(g)] += on_gpu * p.row_share[static_cast<size_t>(g)];
        else
            gpu_read[static_cast<size_t>(d)] += on_gpu;
    }
    const double head = m.tied_embeddings ? p.weights.embedding : p.weights.output;
    if (p.output_device >= 0 && nd > 0) gpu_read[static_cast<size_t>(p.output_device)] += head;
    else host_read += head;
    // -ot: a moved tensor is read where it lives (routed experts: the share a step touches).
    for (const auto& mv : p.tensor_moves) {
        if (!mv.read) continue;
        const double r = mv.routed ? mv.bytes * touched : mv.bytes;
        const double layer_w = mv.layer >= 0 ? mv.bytes : 0;
        if (mv.from < 0) host_read -= r, host_layer_weights -= layer_w;
        else if (mv.layer >= 0 && p.in.llamacpp.split_mode == SplitMode::Row)
            for (int g = 0; g < nd; ++g) gpu_read[static_cast<size_t>(g)] -= r * p.row_share[static_cast<size_t>(g)];
        else gpu_read[static_cast<size_t>(mv.from)] -= r;
        if (mv.to < 0) host_read += r, host_layer_weights += layer_w;
        else gpu_read[static_cast<size_t>(mv.to)] += r;
    }
    const double bw = p.has_gpu ? p.gpu->bandwidth_gbps * 1e9 * p.in.constants.bandwidth_efficiency : 0;
    double gpu_s = 0;
    for (double r : gpu_read) {
        t.gpu_bytes += r;
        if (bw > 0) gpu_s = p.in.llamacpp.split_mode == SplitMode::Row ? std::max(gpu_s, r / bw) : gpu_s + r / bw;
    }
    t.host_bytes = host_read;
    t.decode_memory_s = gpu_s + host_read / host_bandwidth(p);
    // Prompt batches of 32+ tokens run CPU-resident weights on the GPU: each ubatch copies them.
    if (nd > 0 && !(p.has_gpu && p.gpu->unified) && host_layer_weights > 0 && prompt >= 32)
        t.prefill_extra_s = std::ceil(prompt / llamacpp_ubatch(p, context, n)) * host_layer_weights / (p.in.constants.pcie_gbps * 1e9);
    return t;
}

LlamaCppTiming llamacpp_draft_timing(const InferencePlan& p, double context) {
    LlamaCppTiming t;
    if (!p.has_draft) return t;
    const ModelSpec& dm = p.draft_model;
    const LlamaCppOptions& o = p.in.llamacpp;
    const bool gpu = p.has_gpu && !p.cpu_only;
    // The same placement as the buffers above: -ngld's share of the layers and the output layer
    // (ngl_split) on the main GPU; the KV with its layers unless -nkvo.
    const int dngl = !gpu ? 0 : o.draft.n_gpu_layers < 0 ? dm.layers + 1 : std::min(o.draft.n_gpu_layers, dm.layers + 1);
    const NglSplit dsplit = ngl_split(dngl, dm.layers, o.output_first);
    const double share = dm.layers > 0 ? static_cast<double>(dsplit.layers) / dm.layers : 0;
    const double dhead = dm.tied_embeddings ? p.draft_weights.embedding : p.draft_weights.output;
    const double dlayers = p.draft_weights.total - p.draft_weights.embedding - p.draft_weights.output;
    const double dctx = o.draft.context > 0 ? std::min<double>(o.draft.context, context) : context;
    const double kv = kv_sequence_bytes(p.draft_kv, dctx, 0);
    const double kv_gpu = gpu && !o.no_kv_offload ? kv * share : 0;
    t.gpu_bytes = dlayers * share + (dsplit.output ? dhead : 0) + kv_gpu;
    t.host_bytes = dlayers * (1 - share) + (dsplit.output ? 0 : dhead) + kv - kv_gpu;
    const double bw = gpu ? p.gpu->bandwidth_gbps * 1e9 * p.in.constants.bandwidth_efficiency : 0;
    t.decode_memory_s = (bw > 0 ? t.gpu_bytes / bw : 0) + t.host_bytes / host_bandwidth(p);
    return t;
}

// [SECTION] launch --------------------------------------------------------------------------------
namespace {

std::string llama_type(const std::string& kv_id) {
    if (kv_id == "fp16") return "f16";
    if (kv_id == "bf16") return "bf16";
    if (kv_id == "fp32") return "f32";
    return kv_id;
}

std::string gguf_name(const InferencePlan& p) {
    std::string t = p.format->id;
    if (t.rfind("gguf-", 0) == 0) t = t.substr(5);
    for (auto& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return (p.model.id.empty() ? std::string("model") : p.model.id) + "-" + t + ".gguf";
}

// A word a POSIX shell reads back as it is: single-quoted where it holds anything but
// [A-Za-z0-9_.,=/:+-] (a quote inside as '\'').
std::string shell_quote(const std::string& v) {
    bool plain = !v.empty();
    for (char c : v)
        plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::string("_.,=/:+-").find(c) != std::string::npos);
    if (plain) return v;
    std::string q = "'";
    for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string ctx_total(const InferencePlan& p) { return num_plain(static_cast<double>(p.in.context) * p.in.concurrency); }

}  // namespace

std::vector<ProjectorInfo> projector_presets() {
    std::vector<ProjectorInfo> out;
    for (const auto& v : kProjectors) out.push_back(ProjectorInfo{v.id, v.source});
    return out;
}

std::string launch_command(const InferencePlan& p) {
    const InferenceInputs& in = p.in;
    const ModelSpec& m = p.model;
    const std::string model = m.id.empty() ? "MODEL" : m.id;
    if (p.engine == Engine::Sglang) return sglang_launch_command(p);  // core/serve/sglang.cpp
    if (p.engine == Engine::Vllm) {
        // Above the window vLLM starts only with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (start_plan refuses it otherwise).
        std::string s = std::string(m.context_limit > 0 && in.context > m.context_limit ? "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 " : "") + "vllm serve " + model + " --max-model-len " + num_plain(in.context) + " --gpu-memory-utilization " +
                        num_plain(in.vllm.gpu_memory_utilization) + " --tensor-parallel-size " + num_plain(p.tp) + " --max-num-seqs " +
                        num_plain(std::min(in.concurrency, in.vllm.max_num_seqs));
        if (in.vllm.max_num_batched_tokens != 8192) s += " --max-num-batched-tokens " + num_plain(in.vllm.max_num_batched_tokens);
        if (p.kv_dtype && std::string(p.kv_dtype->id) == "fp8") s += " --kv-cache-dtype fp8";
        if (in.vllm.enforce_eager) s += " --enforce-eager";
        // Without P2P the plan keeps custom all-reduce off (unless forced on): say so, since vLLM's own
        // P2P test (custom_all_reduce.py _can_p2p) passes on a card that has P2P and p2p set off.
        const bool no_p2p = !p.p2p && p.tp > 1;
        if (p.tp > 1 && (in.vllm.custom_all_reduce == VllmCustomAllReduce::Off || (no_p2p && in.vllm.custom_all_reduce == VllmCustomAllReduce::Auto)))
            s += " --disable-custom-all-reduce";
        // FlashInfer's sampler is the default only in some releases (VllmSampler): ask for it.
        if (in.vllm.sampler == VllmSampler::Flashinfer) s = "VLLM_USE_FLASHINFER_SAMPLER=1 " + s;
        // The plan's NCCL buffers without P2P are the SHM transport's, in host memory (inference.hpp,
        // GpuP2p): NCCL_P2P_DISABLE=1 makes NCCL take it (docs.nvidia.com/deeplearning/nccl env.html: "disables
        // the peer to peer (P2P) transport, which uses CUDA direct access between GPUs").
        if (no_p2p) s = "NCCL_P2P_DISABLE=1 " + s;
        return s;
    }
    if (p.engine == Engine::Hf) return "";
    const LlamaCppOptions& o = in.llamacpp;
    const std::string ctk = llama_type(p.kv_dtype->id);
    const std::string ctv = o.kv_dtype_v.empty() ? ctk : llama_type(o.kv_dtype_v);
    const int ngl = p.cpu_only ? 0 : (o.n_gpu_layers < 0 ? m.layers + 1 : o.n_gpu_layers);
    if (o.ollama) {
        // Ollama: the server's environment, then the model's parameters (Modelfile PARAMETER or
        // the API's "options").
        std::string s = "OLLAMA_NUM_PARALLEL=" + num_plain(in.concurrency) + " OLLAMA_FLASH_ATTENTION=" + (o.flash_attn ? "1" : "0");
        if (ctk != "f16") s += " OLLAMA_KV_CACHE_TYPE=" + ctk;
        s += " ollama serve; PARAMETER num_ctx " + num_plain(in.context);
        if (p.auto_gpu_layers < 0) s += "; PARAMETER num_gpu " + num_plain(ngl);  // automatic: llama-server's --fit chooses it
        // num_batch given: Ollama passes it as -b and -ub (any value, 512 too, turns the automatic
        // batch off); unset: Ollama chooses it, and the command says what it passes (a comment).
        const int ub = llamacpp_ubatch(p, in.context, in.concurrency);
        if (o.n_ubatch > 0) s += "; PARAMETER num_batch " + num_plain(ub);
        else s += "  # automatic num_batch " + num_plain(ub) + ": llama-server -b " + num_plain(ub) + " -ub " + num_plain(ub);
        return s;
    }
    std::string s = "llama-server -m " + gguf_name(p) + " -c " + ctx_total(p);
    if (in.concurrency > 1) s += " -np " + num_plain(in.concurrency);
    // -ngl unset and --fit moving layers or experts: llama-server places them itself (llamacpp_fit),
    // so no -ngl is passed (nor the --n-cpu-moe it chose). Otherwise -ngl is printed, layers + 1 for
    // "all": with -ngl and -c given --fit changes nothing, and releases before it run the same.
    const bool fitted = llamacpp_fit_shown(p);
    if (!fitted) s += " -ngl " + num_plain(ngl);
    s += std::string(" -fa ") + (o.flash_attn ? "on" : "off");
    if (ctk != "f16") s += " -ctk " + ctk;
    if (ctv != "f16") s += " -ctv " + ctv;
    if (o.n_ubatch > 0 && o.n_ubatch != kLlamaCppUbatch) s += " -ub " + num_plain(o.n_ubatch);
    if (o.n_batch != 2048) s += " -b " + num_plain(o.n_batch);
    // -ot before --n-cpu-moe: llama.cpp keeps the overrides in command-line order, first match wins.
    if (!o.override_tensor.empty()) s += " -ot " + shell_quote(o.override_tensor);
    // Every layer's experts: --cpu-moe (llama.cpp's --n-cpu-moe adds one tensor override per layer
    // up to N, so N past the last layer is printed as the flag for all of them).
    if (!fitted && o.n_cpu_moe >= m.layers && m.experts > 0) s += " --cpu-moe";
    else if (!fitted && o.n_cpu_moe > 0) s += " --n-cpu-moe " + num_plain(o.n_cpu_moe);
    if (o.no_kv_offload) s += " -nkvo";
    if (p.n_devices > 1 || o.split_mode == SplitMode::None) {
        if (o.split_mode == SplitMode::Row) s += " -sm row";
        if (o.split_mode == SplitMode::None) s += " -sm none";
        if (!o.tensor_split.empty()) {
            s += " -ts ";
            for (size_t i = 0; i < o.tensor_split.size(); ++i) s += (i ? "," : "") + num_plain(o.tensor_split[i]);
        }
    }
    if (p.vision_weights > 0) s += " --mmproj mmproj-" + (o.mmproj.preset.empty() ? std::string("model") : o.mmproj.preset) + ".gguf";
    if (p.has_draft) {
        std::string t = o.draft.weights;
        for (auto& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        s += " -md " + o.draft.preset + "-" + t + ".gguf -ngld " + num_plain(o.draft.n_gpu_layers < 0 ? 99 : o.draft.n_gpu_layers);
        if (o.draft.context > 0) s += " -cd " + num_plain(o.draft.context);
        if (o.draft.max_tokens != DraftModel{}.max_tokens) s += " --draft-max " + num_plain(o.draft.max_tokens);
        if (o.draft.min_tokens != DraftModel{}.min_tokens) s += " --draft-min " + num_plain(o.draft.min_tokens);
    }
    if (o.lora_bytes > 0) s += " --lora adapter.gguf";
    return s;
}

}  // namespace vc
