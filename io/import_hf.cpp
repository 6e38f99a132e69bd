// vramcalc io: Hugging Face config.json -> ModelSpec, for every architecture core/model knows:
// Llama, Mistral/Mixtral, Qwen2/Qwen3 and their MoE, Gemma 1/2/3, Phi-2/Phi-3, Falcon, DeepSeek
// V2/V3/V3.2 and Kimi-K2 (MLA + MoE), GLM-4.5/4.6 (glm4_moe), MiniMax-M2 (minimax_m2), ERNIE-4.5 MoE, Seed-OSS, OLMo-2/3,
// Command-R7B/A (cohere2), SmolLM3, gpt-oss, GPT-2,
// StarCoder (gpt_bigcode), BERT, and the hybrids Qwen3-Next
// (qwen3_next), Granite-4.0-H (granitemoehybrid), Nemotron-H (nemotron_h), Jamba (jamba) and Falcon-H1 (falcon_h1). Key names and defaults follow
// each transformers configuration_*.py (a key left out of config.json takes the class default).
// A model_type not listed is read as a Llama-style decoder, with a note. Multimodal configs
// (Gemma 3, Llama 4, Mistral 3) keep the language model in text_config: that is what is read.
#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "core/text.hpp"
#include "import_internal.hpp"
#include "io/json_syntax.hpp"

namespace vc::io {

using nlohmann::json;

namespace {

struct Reader {
    const json& doc;
    ModelImport& r;

    const json* find(std::initializer_list<const char*> keys, std::string* which = nullptr) const {
        for (const char* k : keys) {
            auto it = doc.find(k);
            if (it != doc.end() && !it->is_null()) {
                if (which) *which = k;
                return &*it;
            }
        }
        return nullptr;
    }
    static std::string names(std::initializer_list<const char*> keys) {
        std::string s;
        for (const char* k : keys) s += (s.empty() ? "" : ", ") + std::string(k);
        return s;
    }
    // An integer field: the first key present; `required` records it missing otherwise.
    bool integer(std::initializer_list<const char*> keys, const char* field, int& out, bool required) {
        std::string key;
        const json* v = find(keys, &key);
        if (!v) {
            if (required) r.missing.push_back({field, names(keys)});
            return false;
        }
        if (!v->is_number() || !(v->get<double>() >= 0) || v->get<double>() > 1e9 || std::floor(v->get<double>()) != v->get<double>()) {
            r.missing.push_back({field, key + " (is " + v->dump() + ", not a count)"});
            return false;
        }
        out = static_cast<int>(v->get<double>());
        return true;
    }
    bool boolean(std::initializer_list<const char*> keys, bool& out) {
        const json* v = find(keys);
        if (!v || !v->is_boolean()) return false;
        out = v->get<bool>();
        return true;
    }
    double number(std::initializer_list<const char*> keys, double fallback) {
        const json* v = find(keys);
        return v && v->is_number() && std::isfinite(v->get<double>()) ? v->get<double>() : fallback;
    }
    std::string text(std::initializer_list<const char*> keys) {
        const json* v = find(keys);
        return v && v->is_string() ? v->get<std::string>() : std::string();
    }
};

// Typed reads that never throw (json::value() aborts on a wrong type with exceptions off).
std::string text_at(const json& j, const char* key, const std::string& fallback = "") {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}
bool flag_at(const json& j, const char* key, bool fallback = false) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

bool one_of(const std::string& s, std::initializer_list<const char*> list) {
    for (const char* x : list)
        if (s == x) return true;
    return false;
}

// The period of global layers in a layer_types list ("sliding_attention" / "full_attention"),
// 0 when every layer slides, -1 when the pattern is not "every N-th layer global".
int global_period(const json& types) {
    int n = static_cast<int>(types.size()), first = -1;
    for (int i = 0; i < n; ++i)
        if (types[static_cast<size_t>(i)].is_string() && types[static_cast<size_t>(i)].get<std::string>() == "full_attention") {
            first = i;
            break;
        }
    if (first < 0) return 0;
    const int period = first + 1;
    for (int i = 0; i < n; ++i) {
        const bool full = types[static_cast<size_t>(i)].is_string() && types[static_cast<size_t>(i)].get<std::string>() == "full_attention";
        if (full != ((i + 1) % period == 0)) return -1;
    }
    return period;
}

// A hybrid's layer mix (ModelSpec::layer_pattern) from a layer_types list: `attention` names the
// attention entries, `recurrent` the recurrent ones; "" when an entry is neither.
std::string pattern_of(const json& types, const char* attention, const char* recurrent) {
    std::string p;
    for (const auto& t : types) {
        const std::string s = t.is_string() ? t.get<std::string>() : "";
        if (s == attention) p += 'A';
        else if (s == recurrent) p += 'R';
        else return "";
    }
    return p;
}

// LiquidAI's LFM2 (transformers models/lfm2 Lfm2Config, models/lfm2_moe Lfm2MoeConfig): short-convolution layers
// ("conv" in layer_types; the first checkpoints list the attention layers in full_attn_idxs instead) of
// conv_L_cache (3), attention layers with per-head q/k norms, tied embeddings. LFM2's MLP (Lfm2MLP) is
// block_ff_dim (newer configs: intermediate_size) adjusted when block_auto_adjust_ff_dim (true): 2/3 of it, times
// block_ffn_dim_multiplier (1.0), rounded up to block_multiple_of (256); LFM2-MoE's first num_dense_layers
// layers have an MLP of intermediate_size, the others num_experts of moe_intermediate_size.
void read_lfm2(Reader& rd, const std::string& type, ModelSpec& m, const json* types) {
    m.recurrent = RecurrentKind::ShortConv;
    m.qk_norm = true;
    m.ssm_conv = 3;
    rd.integer({"conv_L_cache"}, "model.ssm_conv", m.ssm_conv, false);
    if (types && types->is_array()) m.layer_pattern = pattern_of(*types, "full_attention", "conv");
    else if (const json* idx = rd.find({"full_attn_idxs"}); idx && idx->is_array()) {
        m.layer_pattern.assign(static_cast<size_t>(std::max(0, m.layers)), 'R');
        for (const auto& i : *idx)
            if (i.is_number_integer() && i.get<long long>() >= 0 && i.get<long long>() < m.layers) m.layer_pattern[static_cast<size_t>(i.get<long long>())] = 'A';
    }
    bool tied = true;  // Lfm2Config tie_word_embeddings default; the LFM2 checkpoints spell it tie_embedding
    rd.boolean({"tie_embedding"}, tied);
    rd.boolean({"tie_word_embeddings"}, tied);
    m.tied_embeddings = tied;
    if (type == "lfm2_moe") {
        rd.integer({"num_dense_layers"}, "model.dense_layers", m.dense_layers, false);
        return;
    }
    int ff = m.ffn;
    rd.integer({"block_ff_dim", "intermediate_size"}, "model.ffn", ff, m.ffn == 0);
    bool adjust = true;
    rd.boolean({"block_auto_adjust_ff_dim"}, adjust);
    if (adjust && ff > 0) {
        ff = 2 * ff / 3;
        const double multiplier = rd.number({"block_ffn_dim_multiplier"}, 1.0);
        ff = static_cast<int>(multiplier * ff);
        int multiple = 256;
        rd.integer({"block_multiple_of"}, "model.ffn", multiple, false);
        if (multiple > 0) ff = multiple * ((ff + multiple - 1) / multiple);
    }
    m.ffn = ff;
}

// AI21's Jamba (transformers models/jamba JambaConfig; Jamba-v0.1, Jamba-1.5-Mini / Large): attention where
// i % attn_layer_period == attn_layer_offset (8, 4), Mamba1 elsewhere (mamba_expand 2 x hidden channels, mamba_d_state 16,
// mamba_d_conv 4, mamba_dt_rank "auto" = ceil(hidden / 16)); num_experts (16) of intermediate_size where
// i % expert_layer_period == expert_layer_offset (2, 1), a dense MLP elsewhere, and one MLP everywhere when num_experts is 1
// (JambaDecoderLayer: JambaSparseMoeBlock only for num_experts > 1). model.moe_every puts the experts where
// i % period == period - 1: another offset is named, not guessed.
void read_jamba(Reader& rd, ModelSpec& m, ModelImport& r) {
    m.recurrent = RecurrentKind::Mamba1;
    int attn_period = 8, attn_offset = 4, expert_period = 2, expert_offset = 1, expand = 2;
    rd.integer({"attn_layer_period"}, "model.layer_pattern", attn_period, false);
    rd.integer({"attn_layer_offset"}, "model.layer_pattern", attn_offset, false);
    m.layer_pattern.clear();
    for (int il = 0; attn_period > 0 && il < m.layers; ++il) m.layer_pattern += il % attn_period == attn_offset ? 'A' : 'R';
    m.ssm_head_dim = 1, m.ssm_groups = 1, m.ssm_state = 16, m.ssm_conv = 4;
    rd.integer({"mamba_expand"}, "model.ssm_heads", expand, false);
    m.ssm_heads = expand * m.hidden;
    rd.integer({"mamba_d_state"}, "model.ssm_state", m.ssm_state, false);
    rd.integer({"mamba_d_conv"}, "model.ssm_conv", m.ssm_conv, false);
    m.ssm_dt_rank = (m.hidden + 15) / 16;  // mamba_dt_rank "auto": math.ceil(hidden_size / 16)
    if (const json* rank = rd.find({"mamba_dt_rank"}); rank && rank->is_number()) rd.integer({"mamba_dt_rank"}, "model.ssm_dt_rank", m.ssm_dt_rank, false);
    if (m.experts <= 1) {  // one expert: a plain MLP in every layer
        m.experts = m.top_k = 0;
        m.expert_ffn = 0;
        return;
    }
    rd.integer({"expert_layer_period"}, "model.moe_every", expert_period, false);
    rd.integer({"expert_layer_offset"}, "model.moe_every", expert_offset, false);
    m.moe_every = expert_period;
    if (expert_period < 1 || expert_offset != expert_period - 1)
        r.missing.push_back({"model.moe_every", "expert_layer_period / expert_layer_offset (" + std::to_string(expert_period) + " / " +
                                                    std::to_string(expert_offset) + "): model.moe_every puts the experts where i % period is period - 1"});
}

// TII's Falcon-H1 (transformers models/falcon_h1 FalconH1Config, FalconH1Mixer): attention and a Mamba2 mixer side by
// side in every layer (P), then the MLP. The mixer is mamba_d_ssm wide (null: mamba_expand x hidden) in mamba_n_heads
// heads of mamba_d_head ("auto": d_ssm / heads), mamba_n_groups B/C groups of mamba_d_state, mamba_d_conv; the class
// defaults where a key is left out. The mlp / attention / ssm multipliers and mamba_chunk_size change no memory.
void read_falcon_h1(Reader& rd, ModelSpec& m, ModelImport& r) {
    m.recurrent = RecurrentKind::Mamba2;
    m.layer_pattern.assign(static_cast<size_t>(std::max(0, m.layers)), 'P');
    int expand = 2, d_ssm = 0;
    rd.integer({"mamba_expand"}, "model.ssm_head_dim", expand, false);
    d_ssm = expand * m.hidden;
    rd.integer({"mamba_d_ssm"}, "model.ssm_head_dim", d_ssm, false);
    m.ssm_heads = 128, m.ssm_groups = 1, m.ssm_state = 256, m.ssm_conv = 4;
    rd.integer({"mamba_n_heads"}, "model.ssm_heads", m.ssm_heads, false);
    m.ssm_head_dim = m.ssm_heads > 0 ? d_ssm / m.ssm_heads : 0;
    if (const json* d = rd.find({"mamba_d_head"}); d && d->is_number()) rd.integer({"mamba_d_head"}, "model.ssm_head_dim", m.ssm_head_dim, false);
    rd.integer({"mamba_n_groups"}, "model.ssm_groups", m.ssm_groups, false);
    rd.integer({"mamba_d_state"}, "model.ssm_state", m.ssm_state, false);
    rd.integer({"mamba_d_conv"}, "model.ssm_conv", m.ssm_conv, false);
    if (static_cast<long long>(m.ssm_heads) * m.ssm_head_dim != d_ssm)
        r.notes.push_back("mamba_n_heads x mamba_d_head (" + std::to_string(m.ssm_heads) + " x " + std::to_string(m.ssm_head_dim) +
                          ") is not mamba_d_ssm (" + std::to_string(d_ssm) + "): the mixer is sized by the heads");
    bool rms_norm = true;
    if (rd.boolean({"mamba_rms_norm"}, rms_norm) && !rms_norm)
        r.notes.push_back("mamba_rms_norm false: the mixer's gated RMSNorm (" + std::to_string(d_ssm) +
                          " weights a layer) is counted all the same");
}

// The hybrids' layer mix and recurrent mixer (transformers' configuration_qwen3_next.py,
// configuration_granitemoehybrid.py, configuration_nemotron_h.py; their defaults where a key is left out).
void read_hybrid(Reader& rd, const std::string& type, ModelSpec& m, ModelImport& r) {
    const json* types = rd.find({"layer_types", "layers_block_type"});
    if (type == "qwen3_next") {
        m.recurrent = RecurrentKind::GatedDeltaNet;
        m.attn_gate = true;  // Qwen3NextAttention: q_proj of 2 x heads x head_dim (query + gate)
        m.qk_norm = true;
        int interval = 4;  // full_attention_interval default
        rd.integer({"full_attention_interval"}, "model.layer_pattern", interval, false);
        if (types && types->is_array()) m.layer_pattern = pattern_of(*types, "full_attention", "linear_attention");
        else
            for (int il = 0; il < m.layers; ++il) m.layer_pattern += interval > 0 && (il + 1) % interval == 0 ? 'A' : 'R';
        m.ssm_heads = 32, m.ssm_head_dim = 128, m.ssm_groups = 16, m.ssm_state = 128, m.ssm_conv = 4;  // Qwen3NextConfig defaults
        rd.integer({"linear_num_value_heads"}, "model.ssm_heads", m.ssm_heads, false);
        rd.integer({"linear_value_head_dim"}, "model.ssm_head_dim", m.ssm_head_dim, false);
        rd.integer({"linear_num_key_heads"}, "model.ssm_groups", m.ssm_groups, false);
        rd.integer({"linear_key_head_dim"}, "model.ssm_state", m.ssm_state, false);
        rd.integer({"linear_conv_kernel_dim"}, "model.ssm_conv", m.ssm_conv, false);
    } else if (type == "granitemoehybrid") {
        m.recurrent = RecurrentKind::Mamba2;
        if (types && types->is_array()) m.layer_pattern = pattern_of(*types, "attention", "mamba");
        // GraniteMoeHybridConfig defaults: mamba_n_heads 128, mamba_d_head "auto" (mamba_expand x hidden / heads),
        // mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4, mamba_expand 2.
        m.ssm_heads = 128, m.ssm_groups = 1, m.ssm_state = 256, m.ssm_conv = 4;
        rd.integer({"mamba_n_heads"}, "model.ssm_heads", m.ssm_heads, false);
        int expand = 2;
        rd.integer({"mamba_expand"}, "model.ssm_head_dim", expand, false);
        m.ssm_head_dim = m.ssm_heads > 0 ? expand * m.hidden / m.ssm_heads : 0;
        rd.integer({"mamba_d_head"}, "model.ssm_head_dim", m.ssm_head_dim, false);
        rd.integer({"mamba_n_groups"}, "model.ssm_groups", m.ssm_groups, false);
        rd.integer({"mamba_d_state"}, "model.ssm_state", m.ssm_state, false);
        rd.integer({"mamba_d_conv"}, "model.ssm_conv", m.ssm_conv, false);
        // The shared MLP of shared_intermediate_size: a dense model's MLP, a MoE's shared expert(s).
        int shared_ffn = 0;
        if (rd.integer({"shared_intermediate_size"}, "model.ffn", shared_ffn, false) && shared_ffn > 0) {
            if (m.experts == 0) m.ffn = shared_ffn;
            else if (m.expert_ffn > 0) {
                m.shared_experts = std::max(1, static_cast<int>(std::lround(static_cast<double>(shared_ffn) / m.expert_ffn)));
                if (shared_ffn % m.expert_ffn != 0)
                    r.notes.push_back("the shared MLP (" + std::to_string(shared_ffn) + ") is not a whole number of experts (" +
                                      std::to_string(m.expert_ffn) + "): counted as " + std::to_string(m.shared_experts));
            }
        }
    } else if (type == "nemotron_h") {
        m.recurrent = RecurrentKind::Mamba2;
        m.mlp = MlpKind::Gelu;   // squared-ReLU up + down: two matrices
        m.norms_per_layer = 1;   // one RMSNorm per block
        // hybrid_override_pattern: M Mamba2, * attention, - MLP, E MoE (Nemotron-3), each a layer of its own.
        const std::string pattern = rd.text({"hybrid_override_pattern"});
        if (pattern.find_first_not_of("M*-E") == std::string::npos) m.layer_pattern = pattern;
        // Nemotron-3's E blocks (transformers models/nemotron_h NemotronHMOE): n_routed_experts of moe_intermediate_size
        // and one shared expert of moe_shared_expert_intermediate_size, counted as that many expert-sized ones.
        int shared_ffn = 0;
        if (m.experts > 0 && rd.integer({"moe_shared_expert_intermediate_size"}, "model.shared_experts", shared_ffn, false) && shared_ffn > 0 &&
            m.expert_ffn > 0) {
            m.shared_experts = std::max(1, static_cast<int>(std::lround(static_cast<double>(shared_ffn) / m.expert_ffn)));
            if (shared_ffn % m.expert_ffn != 0)
                r.notes.push_back("the shared expert (" + std::to_string(shared_ffn) + ") is not a whole number of experts (" +
                                  std::to_string(m.expert_ffn) + "): counted as " + std::to_string(m.shared_experts));
        }
        // NemotronHConfig defaults: mamba_num_heads 128, mamba_head_dim 64, n_groups 8, ssm_state_size 128, conv_kernel 4.
        m.ssm_heads = 128, m.ssm_head_dim = 64, m.ssm_groups = 8, m.ssm_state = 128, m.ssm_conv = 4;
        rd.integer({"mamba_num_heads"}, "model.ssm_heads", m.ssm_heads, false);
        rd.integer({"mamba_head_dim"}, "model.ssm_head_dim", m.ssm_head_dim, false);
        rd.integer({"n_groups", "mamba_n_groups"}, "model.ssm_groups", m.ssm_groups, false);
        rd.integer({"ssm_state_size", "mamba_d_state"}, "model.ssm_state", m.ssm_state, false);
        rd.integer({"conv_kernel", "mamba_d_conv"}, "model.ssm_conv", m.ssm_conv, false);
    } else if (type == "lfm2" || type == "lfm2_moe") {
        read_lfm2(rd, type, m, types);
    } else if (type == "jamba") {
        read_jamba(rd, m, r);
    } else if (type == "falcon_h1") {
        read_falcon_h1(rd, m, r);
    }
    // The SSM state's dtype some configs state for vLLM (Nemotron-H's "mamba_ssm_cache_dtype": "float32").
    const std::string ssm_dtype = rd.text({"mamba_ssm_cache_dtype"});
    m.ssm_cache_dtype = ssm_dtype == "float32" ? "fp32" : ssm_dtype == "bfloat16" ? "bf16" : ssm_dtype == "float16" ? "fp16" : "";
    if (m.layer_pattern.empty() || static_cast<int>(m.layer_pattern.size()) != m.layers) {
        m.layer_pattern.clear();
        r.missing.push_back({"model.layer_pattern", type == "nemotron_h" ? "hybrid_override_pattern (one of M, *, -, E per layer)"
                                                                        : "layer_types (one attention or recurrent entry per layer)"});
    }
}

// Families read by their own keys (docs/import.md "Recent MoE families"): the family name, or nullptr.
const char* recent_family(const std::string& type) {
    if (type == "glm4_moe") return "GLM";
    if (type == "minimax_m2") return "MiniMax";
    if (type == "kimi_k2") return "Kimi";  // moonshotai/Kimi-K2-*: DeepseekV3ForCausalLM under its own model_type
    if (type == "deepseek_v32") return "DeepSeek";
    if (type == "seed_oss") return "Seed";
    if (one_of(type, {"olmo2", "olmo3"})) return "OLMo";
    if (type == "cohere2") return "Cohere";
    if (type == "smollm3") return "SmolLM";
    if (type == "ernie4_5_moe") return "ERNIE";
    return nullptr;
}

// GLM-4.5 / 4.6 / 4.5-Air (glm4_moe) and MiniMax-M2 (minimax_m2): the keys the shared reader leaves at a
// Llama default, with each transformers class's own defaults where config.json leaves a key out.
void read_recent(Reader& rd, const std::string& type, ModelSpec& m, ModelImport& r) {
    if (type == "glm4_moe") {
        // huggingface/transformers@c7ec229:src/transformers/models/glm4_moe/configuration_glm4_moe.py Glm4MoeConfig:
        // n_shared_experts 1, first_k_dense_replace 1, use_qk_norm False (GLM-4.5 / 4.6 set it, the Air does not:
        // q_norm and k_norm of head_dim each, as Qwen3's). partial_rotary_factor 0.5 rotates half of each head; the
        // keys are cached whole, so it changes no byte.
        if (m.experts > 0 && !rd.find({"n_shared_experts"})) m.shared_experts = 1;
        if (m.experts > 0 && !rd.find({"first_k_dense_replace"})) m.dense_layers = 1;
        m.qk_norm = false;
        rd.boolean({"use_qk_norm"}, m.qk_norm);
    } else if (type == "deepseek_v32") {
        // DeepSeek-V3.2's lightning indexer (model.index_heads, model.index_head_dim: its weights counted in attention, its
        // key cached beside MLA's): index_n_heads and index_head_dim, DeepseekV32Config's defaults 64 and 128
        // (huggingface/transformers@01f8fa5:src/transformers/models/deepseek_v32/modular_deepseek_v32.py).
        m.index_heads = 64, m.index_head_dim = 128;
        rd.integer({"index_n_heads"}, "model.index_heads", m.index_heads, false);
        rd.integer({"index_head_dim"}, "model.index_head_dim", m.index_head_dim, false);
    } else if (type == "seed_oss") {
        // huggingface/transformers@d9aa776:src/transformers/models/seed_oss/configuration_seed_oss.py SeedOssConfig:
        // attention_bias True (q, k, v), attention_out_bias False, mlp_bias False, untied.
        if (!rd.find({"attention_bias"})) m.attn_bias = true;
    } else if (one_of(type, {"olmo2", "olmo3"})) {
        // OLMo-2/3 norm the whole q and k projections (q_norm of heads x head_dim, k_norm of kv_heads x head_dim:
        // huggingface/transformers@000c33f:src/transformers/models/olmo2/modeling_olmo2.py Olmo2Attention), not one head's
        // width; their two norms a layer follow attention and the MLP (post-norms: the same count).
        m.qk_norm = m.qk_norm_whole = true;
    } else if (type == "cohere2") {
        // huggingface/transformers@eab64a0:src/transformers/models/cohere2/configuration_cohere2.py Cohere2Config:
        // tie_word_embeddings True, sliding_window 4096 on all but every sliding_window_pattern-th (4) layer; one
        // weight-only LayerNorm a layer before the parallel attention and MLP (h weights, as an RMSNorm's).
        if (!rd.find({"tie_word_embeddings"})) m.tied_embeddings = true;
        m.norms_per_layer = 1;
        if (!rd.find({"sliding_window"})) m.sliding_window = 4096;
        m.global_every = 4;
        rd.integer({"sliding_window_pattern"}, "model.global_every", m.global_every, false);
    } else if (type == "ernie4_5_moe") {
        // huggingface/transformers@f479d93:src/transformers/models/ernie4_5_moe/configuration_ernie4_5_moe.py
        // Ernie4_5_MoeConfig (its defaults are ERNIE-4.5-21B-A3B's): moe_num_experts 64 of moe_intermediate_size 1536,
        // moe_k 6, one shared MLP of moe_num_shared_experts (2) x that width, use_bias False, tied. The experts are on the
        // layers from moe_layer_start_index (1) to moe_layer_end_index (-1: the last) whose index + 1 is a multiple of
        // moe_layer_interval (1) (modeling_ernie4_5_moe.py Ernie4_5_MoeDecoderLayer): model.dense_layers, model.dense_tail
        // and model.moe_every, the same rule. ERNIE-4.5-21B-A3B: 1 to 27 of 28; 300B-A47B: 3 to 53 of 54.
        int start = 1, interval = 1;
        m.experts = 64, m.top_k = 6, m.expert_ffn = 1536, m.shared_experts = 2;
        rd.integer({"moe_num_experts"}, "model.experts", m.experts, false);
        rd.integer({"moe_k"}, "model.top_k", m.top_k, false);
        rd.integer({"moe_intermediate_size"}, "model.expert_ffn", m.expert_ffn, false);
        rd.integer({"moe_num_shared_experts"}, "model.shared_experts", m.shared_experts, false);
        rd.integer({"moe_layer_start_index"}, "model.dense_layers", start, false);
        rd.integer({"moe_layer_interval"}, "model.moe_every", interval, false);
        m.dense_layers = start;
        m.moe_every = std::max(1, interval);
        const double end = rd.number({"moe_layer_end_index"}, -1);
        if (end >= 0 && end < m.layers - 1) m.dense_tail = m.layers - 1 - static_cast<int>(end);
        if (m.top_k > m.experts) r.missing.push_back({"model.top_k", "moe_k (larger than moe_num_experts)"});
        if (!rd.find({"tie_word_embeddings"})) m.tied_embeddings = true;
        bool bias = false;
        rd.boolean({"use_bias"}, bias);
        m.attn_bias = m.attn_bias || bias;
        m.mlp_bias = m.mlp_bias || bias;
    } else if (type == "smollm3") {
        // SmolLM3Config ties the embeddings unless told otherwise; its NoPE layers (no_rope_layers) have no parameters.
        if (!rd.find({"tie_word_embeddings"})) m.tied_embeddings = true;
    } else if (type == "minimax_m2") {
        // MiniMax-M2's q_norm and k_norm (use_qk_norm) span the whole projection (heads x head_dim, kv_heads x head_dim:
        // transformers' MiniMaxM2Attention is FlexOlmoAttention, huggingface/transformers@ea9df1d:src/transformers/models/
        // minimax_m2/modular_minimax_m2.py), not one head's width.
        m.qk_norm = m.qk_norm_whole = flag_at(rd.doc, "use_qk_norm");
    }
    // Multi-token-prediction layers: GLM-4.5's checkpoint stores them after the decoder (model.layers.<num_hidden_layers>.*),
    // DeepSeek-V3's too. vLLM's Glm4MoeModel.load_weights skips them (skip_spec_layers; vllm-project/vllm@002d607:
    // vllm/model_executor/models/glm4_moe.py) unless a speculative config loads Glm4MoeMTP; llama.cpp creates them
    // TENSOR_SKIP (ggml-org/llama.cpp@06e514f:src/models/glm4-moe.cpp:54-58), so neither keeps them in memory.
    const double mtp = rd.number({"num_nextn_predict_layers"}, 0);
    if (mtp >= 1 && mtp <= 1e6)
        r.notes.push_back("num_nextn_predict_layers " + std::to_string(static_cast<int>(mtp)) +
                          ": the checkpoint's multi-token-prediction layer(s) after the decoder are not counted (vLLM loads them only for "
                          "speculative decoding; llama.cpp does not load them)");
}

// Vision-language checkpoints: Qwen3-VL's text_config decoder has Qwen3's per-head q/k norms
// (huggingface/transformers@68a7b7e:src/transformers/models/qwen3_vl/modeling_qwen3_vl.py Qwen3VLTextAttention: q_norm,
// k_norm of head_dim); a config with the language model's keys at the top beside a vision_config (Qwen2-VL,
// Qwen2.5-VL) gets the note a text_config gets: the tower is not counted.
void read_vision_language(const json& top, const std::string& type, ModelSpec& m, ModelImport& r) {
    if (one_of(type, {"qwen3_vl_text", "qwen3_vl_moe_text"})) m.qk_norm = true;
    const bool text_apart = (top.contains("text_config") && top["text_config"].is_object()) ||
                            (top.contains("llm_config") && top["llm_config"].is_object()) ||
                            (top.contains("language_config") && top["language_config"].is_object());
    if (!text_apart && top.contains("vision_config") && top["vision_config"].is_object())
        r.notes.push_back("the language model's keys are read; the vision tower (vision_config) is not counted");
}

void read_quantization(const json& q, ModelImport& r) {
    if (!q.is_object()) return;
    const std::string method = text_at(q, "quant_method");
    const int bits = q.contains("bits") && q["bits"].is_number_integer() ? q["bits"].get<int>()
                     : q.contains("w_bit") && q["w_bit"].is_number_integer() ? q["w_bit"].get<int>() : 4;
    auto group = [&](const char* key) {
        if (q.contains(key) && q[key].is_number_integer()) r.group_size = q[key].get<int>();
    };
    if (method == "gptq") {
        r.weights_format = "gptq-int" + std::to_string(bits);
        group("group_size");
        if (q.contains("desc_act") && q["desc_act"].is_boolean()) r.act_order = q["desc_act"].get<bool>();
        if (q.contains("sym") && q["sym"].is_boolean()) r.has_zero_point = !q["sym"].get<bool>();
    } else if (method == "awq") {
        r.weights_format = "awq-int" + std::to_string(bits);
        group("group_size");
        group("q_group_size");
        if (q.contains("zero_point") && q["zero_point"].is_boolean()) r.has_zero_point = q["zero_point"].get<bool>();
    } else if (method == "fp8") {
        r.weights_format = q.contains("weight_block_size") ? "fp8-block" : "fp8";
    } else if (method == "mxfp4") {
        r.weights_format = "mxfp4";
    } else if (method == "bitsandbytes") {
        if (flag_at(q, "load_in_8bit")) r.weights_format = "bnb-int8";
        else {
            r.weights_format = text_at(q, "bnb_4bit_quant_type", "fp4") == "nf4" ? "bnb-nf4" : "bnb-fp4";
            if (flag_at(q, "bnb_4bit_use_double_quant")) r.weights_format += "-dq";
        }
    } else if (!method.empty()) {
        r.notes.push_back("quantization_config.quant_method \"" + method + "\" is not read; the weights format is left to you");
    }
    if (!r.weights_format.empty() && find_weight_format(r.weights_format) == nullptr) {
        r.notes.push_back("the checkpoint's " + r.weights_format + " is not a format this tool models; pick the nearest");
        r.weights_format.clear();
    }
}

// The window vLLM derives from a RoPE scaling block (config.json's rope_scaling; transformers v5's
// rope_parameters, also per layer type): vllm-project/vllm@0052a5b:vllm/config/model.py
// _get_and_verify_max_len multiplies max_position_embeddings by `factor` unless rope_type is "su",
// "longrope" or "llama3" ("type" is read as rope_type), takes original_max_position_embeddings x factor
// for "yarn", and leaves Gemma-3 alone (its 131,072 is already scaled). model.context_limit takes that
// window; a GGUF keeps its context_length (llama.cpp's n_ctx_train, import_gguf.cpp).
void read_rope_window(const json& doc, const std::string& type, ModelSpec& m, ModelImport& r) {
    const json* block = nullptr;
    for (const char* key : {"rope_scaling", "rope_parameters"})
        if (auto it = doc.find(key); it != doc.end() && it->is_object()) block = &*it;
    if (!block || m.context_limit <= 0 || type.rfind("gemma3", 0) == 0) return;
    const json* rp = block;
    if (!block->contains("rope_type") && !block->contains("type"))  // {"full_attention": {...}, ...}
        for (auto it = block->begin(); it != block->end(); ++it)
            if (it->is_object()) { rp = &*it; break; }
    const std::string rope = text_at(*rp, "rope_type", text_at(*rp, "type"));
    auto number = [&](const char* key) {
        auto it = rp->find(key);
        return it != rp->end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>() : -1.0;
    };
    const double factor = number("factor"), original = number("original_max_position_embeddings");
    if (rope.empty() || factor < 0) return;  // "default", "mrope": no factor, the window stays
    if (one_of(rope, {"su", "longrope", "llama3"})) return;  // Llama-3.1's 131,072 stays
    const std::string given = "max_position_embeddings " + count_text(m.context_limit);
    const bool yarn = rope == "yarn" && original > 0;
    const double window = (yarn ? original : m.context_limit) * factor;
    if (!(factor > 0) || window < 1 || window > 1e9) {
        r.notes.push_back("rope_scaling " + rope + " factor " + num(factor) + " gives no window; model.context_limit stays " + given);
        return;
    }
    const int tokens = static_cast<int>(std::floor(window));
    if (tokens == m.context_limit) return;  // DeepSeek-V3: 4,096 x 40 = its 163,840
    r.notes.push_back("rope_scaling " + rope + ": model.context_limit " + count_text(tokens) + " = " +
                      (yarn ? "original_max_position_embeddings " + count_text(static_cast<int>(original)) : given) + " x factor " + num(factor) +
                      ", the max_model_len vLLM derives (" + given + "); a GGUF of it keeps its context_length, llama.cpp's window");
    m.context_limit = tokens;
}

}  // namespace

ModelImport import_hf_config(const std::string& text, const std::string& name) {
    json top = json::parse(text, nullptr, false);
    if (top.is_discarded()) return detail::failure("hf-config", name, "not valid JSON" + json_syntax_suffix(text));
    if (!top.is_object()) return detail::failure("hf-config", name, "a config.json is a JSON object; this is a " + std::string(top.type_name()));
    ModelImport r;
    r.ok = true;
    r.kind = "hf-config";
    r.name = name;
    // The language model of a multimodal config; its quantization and dtype stay at the top.
    json doc = top;
    for (const char* sub : {"text_config", "llm_config", "language_config"})
        if (top.contains(sub) && top[sub].is_object()) {
            for (auto it = top[sub].begin(); it != top[sub].end(); ++it) doc[it.key()] = it.value();
            r.notes.push_back("the language model's \"" + std::string(sub) + "\" is read; vision towers are not counted");
            break;
        }
    Reader rd{doc, r};
    std::string type = rd.text({"model_type"});
    if (top.contains("text_config") && top["text_config"].is_object() && top["text_config"].contains("model_type") &&
        top["text_config"]["model_type"].is_string())
        type = top["text_config"]["model_type"].get<std::string>();
    if (top.contains("architectures") && top["architectures"].is_array() && !top["architectures"].empty() && top["architectures"][0].is_string())
        r.architecture = top["architectures"][0].get<std::string>();
    else
        r.architecture = type;
    if (type.empty() && r.architecture.empty() && !doc.contains("num_hidden_layers") && !doc.contains("n_layer"))
        return detail::failure("hf-config", name, "this JSON has no model_type, architectures or num_hidden_layers: not a Hugging Face config.json");

    const bool gpt2 = type == "gpt2", bert = one_of(type, {"bert", "roberta"}), bigcode = type == "gpt_bigcode";
    const bool falcon = one_of(type, {"falcon", "RefinedWeb", "RefinedWebModel"}), phi2 = type == "phi";
    const bool gemma = type.rfind("gemma", 0) == 0, gemma23 = one_of(type, {"gemma2", "gemma3", "gemma3_text"});
    const bool deepseek = one_of(type, {"deepseek_v2", "deepseek_v3"}), oss = type == "gpt_oss";
    const bool qwen = type.rfind("qwen", 0) == 0, mixtral = type == "mixtral";
    const bool qwen_moe = one_of(type, {"qwen2_moe", "qwen3_moe", "qwen3_next"});
    const bool llama4 = one_of(type, {"llama4", "llama4_text"});
    const bool lfm2 = one_of(type, {"lfm2", "lfm2_moe"});
    const bool hybrid = one_of(type, {"qwen3_next", "granitemoehybrid", "nemotron_h", "jamba", "falcon_h1"}) || lfm2;
    const bool known = gpt2 || bert || bigcode || falcon || phi2 || gemma || deepseek || oss || qwen || mixtral || llama4 || hybrid ||
                       one_of(type, {"llama", "mistral", "phi3", "starcoder2"}) || recent_family(type) != nullptr;
    if (!known)
        r.notes.push_back("model_type \"" + type + "\" is not one this tool knows: read as a Llama-style decoder (RMSNorm, SwiGLU); check the fields");

    ModelSpec& m = r.model;
    m.family = gemma ? "Gemma" : qwen ? "Qwen" : (phi2 || type == "phi3") ? "Phi" : deepseek ? "DeepSeek" : oss ? "gpt-oss"
             : gpt2 ? "GPT-2" : bert ? "BERT" : bigcode ? "StarCoder" : falcon ? "Falcon" : mixtral || type == "mistral" ? "Mistral"
             : type == "llama" || llama4 ? "Llama" : type == "granitemoehybrid" ? "Granite" : type == "nemotron_h" ? "Nemotron" : lfm2 ? "LFM2" : "Imported";
    if (const char* f = recent_family(type)) m.family = f;
    if (type == "jamba") m.family = "Jamba";
    if (type == "falcon_h1") m.family = "Falcon";
    m.name = rd.text({"_name_or_path"});
    if (m.name.empty()) m.name = name;

    rd.integer({"num_hidden_layers", "n_layer", "num_layers"}, "model.layers", m.layers, true);
    rd.integer({"hidden_size", "n_embd", "d_model"}, "model.hidden", m.hidden, true);
    rd.integer({"num_attention_heads", "n_head"}, "model.heads", m.heads, true);
    m.kv_heads = m.heads;  // transformers: num_key_value_heads defaults to num_attention_heads
    if (!rd.integer({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, "model.kv_heads", m.kv_heads, false)) {
        bool mq = false;
        if ((falcon || bigcode) && rd.boolean({"multi_query"}, mq) && mq && !flag_at(doc, "new_decoder_architecture")) m.kv_heads = 1;
        if (bigcode && !doc.contains("multi_query")) m.kv_heads = 1;  // GPTBigCodeConfig multi_query defaults to True
        if (falcon && !doc.contains("multi_query")) m.kv_heads = 1;   // FalconConfig multi_query defaults to True
    }
    rd.integer({"head_dim"}, "model.head_dim", m.head_dim, false);
    rd.integer({"vocab_size", "padded_vocab_size"}, "model.vocab", m.vocab, true);
    rd.integer({"max_position_embeddings", "n_positions", "seq_length", "n_ctx"}, "model.context_limit", m.context_limit, false);

    // MLP: gated (SwiGLU / GeGLU) unless a GPT-2-style block.
    const bool plain_mlp = gpt2 || bert || bigcode || falcon || phi2;
    const std::string act = ascii_lower(rd.text({"hidden_activation", "hidden_act", "activation_function"}));
    m.mlp = plain_mlp ? MlpKind::Gelu : (act.rfind("gelu", 0) == 0 || gemma) ? MlpKind::GeGlu : MlpKind::SwiGlu;
    if (plain_mlp) {
        m.norm = NormKind::LayerNorm;
        m.ffn = 4 * m.hidden;  // GPT-2 n_inner, Falcon ffn_hidden_size default: 4 x hidden
        rd.integer({"n_inner", "intermediate_size", "ffn_hidden_size"}, "model.ffn", m.ffn, false);
    }

    // Mixture of experts.
    rd.integer({"num_local_experts", "num_experts", "n_routed_experts"}, "model.experts", m.experts, false);
    const bool moe = m.experts > 0;
    if (!plain_mlp) rd.integer({"intermediate_size"}, "model.ffn", m.ffn, (!moe || deepseek) && type != "granitemoehybrid" && type != "lfm2");
    if (moe) {
        rd.integer({"num_experts_per_tok", "experts_per_token", "num_experts_per_token"}, "model.top_k", m.top_k, true);
        m.expert_ffn = m.ffn;  // Mixtral, gpt-oss: each expert is an intermediate_size MLP
        rd.integer({"moe_intermediate_size"}, "model.expert_ffn", m.expert_ffn, m.ffn == 0);
        rd.integer({"n_shared_experts"}, "model.shared_experts", m.shared_experts, false);
        int shared_ffn = 0;
        if (qwen_moe && rd.integer({"shared_expert_intermediate_size"}, "model.shared_experts", shared_ffn, false) && shared_ffn > 0 &&
            m.expert_ffn > 0) {
            // Qwen-MoE's one shared expert of shared_expert_intermediate_size counts as that many
            // expert-sized ones (the same parameters).
            m.shared_experts = std::max(1, static_cast<int>(std::lround(static_cast<double>(shared_ffn) / m.expert_ffn)));
            if (shared_ffn % m.expert_ffn != 0)
                r.notes.push_back("the shared expert (" + std::to_string(shared_ffn) + ") is not a whole number of experts (" +
                                  std::to_string(m.expert_ffn) + "): counted as " + std::to_string(m.shared_experts));
        }
        rd.integer({"first_k_dense_replace"}, "model.dense_layers", m.dense_layers, false);
        if (llama4) {
            // Llama 4 (transformers' Llama4TextConfig): experts and the one shared expert of intermediate_size,
            // dense layers of intermediate_size_mlp, experts on every interleave_moe_layer_step-th layer.
            m.shared_experts = 1;
            rd.integer({"intermediate_size_mlp"}, "model.ffn", m.ffn, false);
            rd.integer({"interleave_moe_layer_step"}, "model.moe_every", m.moe_every, false);
        }
        if (m.top_k > m.experts) r.missing.push_back({"model.top_k", "num_experts_per_tok (larger than the expert count)"});
    }

    // DeepSeek multi-head latent attention.
    if (doc.contains("kv_lora_rank") && !doc["kv_lora_rank"].is_null()) {
        rd.integer({"kv_lora_rank"}, "model.kv_lora_rank", m.kv_lora_rank, true);
        rd.integer({"q_lora_rank"}, "model.q_lora_rank", m.q_lora_rank, false);  // null in V2-Lite: a plain q projection
        rd.integer({"qk_rope_head_dim"}, "model.qk_rope_head_dim", m.qk_rope_head_dim, true);
        rd.integer({"qk_nope_head_dim"}, "model.qk_nope_head_dim", m.qk_nope_head_dim, true);
        rd.integer({"v_head_dim"}, "model.v_head_dim", m.v_head_dim, true);
        m.head_dim = 0;
    }

    // Embeddings, biases, norms.
    m.tied_embeddings = gpt2 || bert || bigcode || falcon || gemma || type == "granitemoehybrid" || !known;  // each class's tie_word_embeddings default
    if (!known) r.notes.push_back("tie_word_embeddings defaults to true (PretrainedConfig) when the config leaves it out");
    rd.boolean({"tie_word_embeddings"}, m.tied_embeddings);
    if (gpt2 || bigcode || bert) {
        m.attn_bias = m.mlp_bias = true;
        m.max_position = m.context_limit;
        if (m.max_position == 0) r.missing.push_back({"model.max_position", "n_positions, max_position_embeddings"});
        if (bert) {
            m.type_vocab = 2;
            rd.integer({"type_vocab_size"}, "model.type_vocab", m.type_vocab, false);
        }
    } else if (phi2) {
        m.attn_bias = m.mlp_bias = true;
        m.norms_per_layer = 1;
    } else if (falcon) {
        bool bias = false;
        rd.boolean({"bias"}, bias);
        m.attn_bias = m.mlp_bias = bias;
        bool parallel = true, new_arch = false;
        rd.boolean({"parallel_attn"}, parallel);
        rd.boolean({"new_decoder_architecture"}, new_arch);
        m.norms_per_layer = new_arch ? 2 : parallel ? 1 : 2;
        if (m.context_limit == 0) m.context_limit = 2048;  // FalconConfig max_position_embeddings default
    } else {
        m.attn_bias = one_of(type, {"qwen2", "qwen2_moe"}) || oss;  // Qwen2 q/k/v biases are in the code, not the config
        rd.boolean({"attention_bias"}, m.attn_bias);
        m.mlp_bias = oss;
        rd.boolean({"mlp_bias"}, m.mlp_bias);
        if (gemma23) m.norms_per_layer = 4;
        // Qwen3 and Gemma-3 normalize each query and key head (q_norm, k_norm of head_dim weights:
        // huggingface/transformers@9ee3f43:src/transformers/models/qwen3/modeling_qwen3.py Qwen3Attention).
        m.qk_norm = one_of(type, {"qwen3", "qwen3_moe", "gemma3", "gemma3_text"});
    }
    if (hybrid) read_hybrid(rd, type, m, r);
    if (recent_family(type) || deepseek) read_recent(rd, type, m, r);
    read_vision_language(top, type, m, r);

    // Sliding windows.
    int window = 0;
    bool use_window = true;
    rd.boolean({"use_sliding_window"}, use_window);
    if (rd.integer({"sliding_window", "sliding_window_size"}, "model.sliding_window", window, false) && use_window && window > 0 &&
        (m.context_limit == 0 || window < m.context_limit)) {
        m.sliding_window = window;
        if (doc.contains("layer_types") && doc["layer_types"].is_array()) {
            const int p = global_period(doc["layer_types"]);
            if (p >= 0) m.global_every = p;
            else r.notes.push_back("layer_types is not \"every N-th layer global\": every layer counted with the window");
        } else if (type == "gemma2") {
            m.global_every = 2;
        } else if (one_of(type, {"gemma3", "gemma3_text"})) {
            m.global_every = 6;
            rd.integer({"sliding_window_pattern"}, "model.global_every", m.global_every, false);
        } else if (oss) {
            m.global_every = 2;
        }
    }
    // Llama 4's chunked attention: attention_chunk_size tokens on every layer but each no_rope_layer_interval-th
    // (4: the NoPE layers attend globally; Llama4TextConfig's layer_types "chunked_attention" / "full_attention").
    if (llama4 && rd.integer({"attention_chunk_size"}, "model.sliding_window", window, false) && window > 0 &&
        (m.context_limit == 0 || window < m.context_limit)) {
        m.sliding_window = window;
        m.chunked = true;
        m.global_every = 4;
        if (doc.contains("layer_types") && doc["layer_types"].is_array() && global_period(doc["layer_types"]) >= 0)
            m.global_every = global_period(doc["layer_types"]);
        else
            rd.integer({"no_rope_layer_interval"}, "model.global_every", m.global_every, false);
    }
    read_rope_window(doc, type, m, r);
    m.attn_softcap = std::max(0.0, rd.number({"attn_logit_softcapping"}, 0));
    m.final_softcap = std::max(0.0, rd.number({"final_logit_softcapping"}, 0));

    // The checkpoint's dtype (newer transformers write "dtype") and its weights.
    const std::string dtype = ascii_lower(text_at(top, "torch_dtype", text_at(top, "dtype")));
    m.checkpoint_dtype = dtype == "bfloat16" ? "bf16" : dtype == "float16" ? "fp16" : dtype == "float32" ? "fp32" : "";
    if (top.contains("quantization_config")) read_quantization(top["quantization_config"], r);
    if (r.weights_format.empty()) r.weights_format = m.checkpoint_dtype;
    detail::finish_model(r);
    return r;
}

}  // namespace vc::io
