// vramcalc core: KV cache bytes per token and per sequence.
#include "core/serve/kv_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/fields.hpp"
#include "core/text.hpp"

namespace vc {

const std::vector<KvDtype>& kv_dtypes() {
    // Integer caches (LMDeploy quant_policy 8/4) quantize each (token, head) vector asymmetrically
    // with an FP16 scale and an FP16 zero point: 4 bytes per vector. llama.cpp's cache types use
    // ggml blocks of 32 values (q8_0: 34 bytes, q4_0: 18 bytes, ...).
    static const std::vector<KvDtype> dtypes = {
        {"fp32", 4, 0, "IEEE single precision"},
        {"bf16", 2, 0, "bfloat16 (vLLM / transformers default for a BF16 model)"},
        {"fp16", 2, 0, "half precision (llama.cpp default cache type f16)"},
        {"fp8", 1, 0, "vLLM kv_cache_dtype fp8 (E4M3 / E5M2), per-tensor scales only"},
        {"int8", 1, 4, "LMDeploy KV int8: per-head per-token FP16 scale and zero point"},
        {"int4", 0.5, 4, "LMDeploy KV int4: per-head per-token FP16 scale and zero point"},
        {"q8_0", 34.0 / 32, 0, "llama.cpp cache type q8_0: 34-byte blocks of 32"},
        {"q5_1", 24.0 / 32, 0, "llama.cpp cache type q5_1: 24-byte blocks of 32"},
        {"q5_0", 22.0 / 32, 0, "llama.cpp cache type q5_0: 22-byte blocks of 32"},
        {"q4_1", 20.0 / 32, 0, "llama.cpp cache type q4_1: 20-byte blocks of 32"},
        {"q4_0", 18.0 / 32, 0, "llama.cpp cache type q4_0: 18-byte blocks of 32"},
        {"iq4_nl", 18.0 / 32, 0, "llama.cpp cache type iq4_nl: 18-byte blocks of 32"},
    };
    return dtypes;
}

const KvDtype* find_kv_dtype(const std::string& id) {
    std::string s = id;
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "f16") s = "fp16";
    if (s == "f32") s = "fp32";
    if (s == "fp8_e4m3" || s == "fp8_e5m2" || s == "fp8-e4m3" || s == "fp8-e5m2") s = "fp8";
    for (const auto& d : kv_dtypes())
        if (s == d.id) return &d;
    return nullptr;
}

Outcome<KvLayout> kv_layout(const ModelSpec& m, const KvDtype& dtype, int tp, bool cap_windows, double state_bytes_per_element,
                            double ssm_bytes_per_element, double indexer_value_bytes) {
    Error err;
    static const FieldDef& tp_field = *find_field("inference.tp");  // a resolved tp: at least 1, at most the table's
    if (!check_int_range("inference.tp", tp, 1, static_cast<long long>(tp_field.max), err)) return Outcome<KvLayout>::failure(err);
    if (m.heads % tp != 0)
        return Outcome<KvLayout>::failure("inference.tp", "inference.tp (" + std::to_string(tp) + ") must divide model.heads (" +
                                                              std::to_string(m.heads) + ") so each GPU holds whole attention heads");
    KvLayout kv;
    kv.mla = m.kv_lora_rank > 0;
    const int layers = attention_layer_count(m);  // a hybrid's recurrent and MLP-only layers cache no keys or values
    double per_layer;  // bytes per token per layer on one GPU
    if (kv.mla) {
        // One latent vector (kv_lora_rank) plus the shared RoPE key per token and layer; every
        // tensor-parallel rank keeps the whole latent (it is not split by head).
        const double width = m.kv_lora_rank + m.qk_rope_head_dim;
        per_layer = width * dtype.bytes_per_element + dtype.bytes_per_vector;
        kv.kv_heads_per_gpu = 1;
        kv.replicated = tp > 1;
        kv.formula = num(layers) + " layers x (kv_lora_rank " + num(m.kv_lora_rank) + " + qk_rope_head_dim " + num(m.qk_rope_head_dim) + ") x " +
                     num(dtype.bytes_per_element) + " B";
    } else {
        if (m.kv_heads % tp != 0 && tp % m.kv_heads != 0)
            return Outcome<KvLayout>::failure("inference.tp", "inference.tp (" + std::to_string(tp) + ") and model.kv_heads (" +
                                                                  std::to_string(m.kv_heads) +
                                                                  ") must divide one another (KV heads are split, or repeated, whole)");
        // KV heads split across ranks; with fewer KV heads than ranks each rank keeps one copy.
        kv.kv_heads_per_gpu = m.kv_heads >= tp ? static_cast<double>(m.kv_heads) / tp : 1;
        kv.replicated = m.kv_heads < tp;
        per_layer = 2 * kv.kv_heads_per_gpu * (m.head_dim * dtype.bytes_per_element + dtype.bytes_per_vector);
        kv.formula = "2 x " + num(layers) + (layers < m.layers ? " attention" : "") + " layers x " + num(kv.kv_heads_per_gpu) + " KV heads x head_dim " + num(m.head_dim) + " x " +
                     num(dtype.bytes_per_element) + " B";
        if (dtype.bytes_per_vector > 0) kv.formula += " (+ " + num(dtype.bytes_per_vector) + " B scales per head)";
    }

    // DeepSeek-V3.2's lightning indexer keeps one key of index_head_dim a token and layer beside the latent, whole on
    // every GPU (its wk is replicated): at `indexer_value_bytes` a value, or the cache type's (one vector's scales).
    if (kv.mla && m.index_head_dim > 0) {
        const double dim = m.index_head_dim;
        kv.indexer_bytes_per_layer = indexer_value_bytes >= 0 ? dim * indexer_value_bytes : dim * dtype.bytes_per_element + dtype.bytes_per_vector;
        per_layer += kv.indexer_bytes_per_layer;
        kv.formula += " + the lightning indexer's keys, " + num(layers) + " layers x index_head_dim " + num(dim) + " x " +
                      num(kv.indexer_bytes_per_layer / dim) + " B";
    }

    // Sliding-window layers: all of them (global_every 0) or all but every global_every-th.
    int local = 0;
    if (m.sliding_window > 0) local = m.global_every > 0 ? layers - layers / m.global_every : layers;
    const int global = layers - local;
    if (global > 0) kv.groups[kv.group_count++] = KvGroup{global, global * per_layer, 0, false};
    if (local > 0) kv.groups[kv.group_count++] = KvGroup{local, local * per_layer, cap_windows ? static_cast<double>(m.sliding_window) : 0, true};
    kv.bytes_per_token = layers * per_layer;
    if (local > 0 && cap_windows)
        kv.formula += "; " + num(local) + " of " + num(layers) + " layers keep at most the " + num(m.sliding_window) + (m.chunked ? "-token chunk" : "-token window");
    kv.state_layers = recurrent_layer_count(m);
    if (kv.state_layers > 0 && m.ssm_heads % tp != 0)
        return Outcome<KvLayout>::failure("inference.tp", "inference.tp (" + std::to_string(tp) + ") must divide model.ssm_heads (" +
                                                              std::to_string(m.ssm_heads) + ") so each GPU holds whole recurrent heads");
    if (kv.state_layers > 0) {
        const double conv = recurrent_conv_elements(m), ssm = recurrent_ssm_elements(m);
        const double ssm_b = ssm_bytes_per_element > 0 ? ssm_bytes_per_element : state_bytes_per_element;
        kv.state_bytes_per_layer = (conv * state_bytes_per_element + ssm * ssm_b) / tp;
        kv.state_bytes = kv.state_layers * kv.state_bytes_per_layer;
        const std::string per_layer = ssm_b == state_bytes_per_element
                                          ? "(conv " + num(conv) + " + SSM " + num(ssm) + ") x " + num(state_bytes_per_element) + " B"
                                          : "(conv " + num(conv) + " x " + num(state_bytes_per_element) + " B + SSM " + num(ssm) + " x " + num(ssm_b) + " B)";
        kv.formula += "; + a recurrent state per sequence in " + num(kv.state_layers) + " layers: " + per_layer +
                      (tp > 1 ? " / " + num(tp) + " GPUs" : std::string()) + " = " + num(kv.state_bytes) + " B";
    }
    return Outcome<KvLayout>::success(kv);
}

void vllm_hybrid_pages(KvLayout& kv, int attention_layers, int block_size, int alignment, double group_ratio, int state_blocks) {
    if (kv.state_layers <= 0 || attention_layers <= 0 || kv.group_count != 1 || alignment < 1) return;
    const double token_page = kv.bytes_per_token / attention_layers;  // one token, one attention layer, one GPU
    const double state_page = kv.state_bytes_per_layer;
    const int needed = alignment * static_cast<int>(std::ceil(state_page / (alignment * token_page)));
    kv.page_block = std::max(block_size, needed);
    const double page = kv.page_block * token_page;
    const int fewest = std::min(attention_layers, kv.state_layers), most = std::max(attention_layers, kv.state_layers);
    const int group = most < fewest * group_ratio ? most : fewest;
    const int attention_groups = (attention_layers + group - 1) / group, state_groups = (kv.state_layers + group - 1) / group;
    kv.block_bytes = group * page;
    kv.state_bytes_per_layer = page;
    kv.state_bytes = static_cast<double>(state_groups) * state_blocks * kv.block_bytes;
    kv.bytes_per_token = attention_groups * kv.block_bytes / kv.page_block;
    kv.groups[0].bytes_per_token = kv.bytes_per_token;
    kv.formula += "; vLLM pages: block " + num(kv.page_block) + " tokens (a " + num(state_page) + " B state in a multiple of " +
                  num(alignment) + " tokens x " + num(token_page) + " B), the state padded to " + num(page) + " B, groups of " + num(group) +
                  " layers (" + num(attention_groups) + " attention, " + num(state_groups) + " state x " + num(state_blocks) + " blocks of " +
                  num(kv.block_bytes) + " B) = " + num(kv.state_bytes) + " B of state a sequence";
}

double kv_sequence_bytes(const KvLayout& kv, double tokens, int block) {
    double bytes = kv.state_bytes;
    for (int g = 0; g < kv.group_count; ++g) {
        const KvGroup& grp = kv.groups[g];
        double t = grp.cap_tokens > 0 ? std::min(tokens, grp.cap_tokens) : tokens;
        if (block > 1) t = std::ceil(t / block) * block;
        bytes += grp.bytes_per_token * t;
    }
    return bytes;
}

}  // namespace vc
