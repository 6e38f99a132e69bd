// [FOLDER] core/model/: model.hpp (ModelSpec, model_params, context window), presets.hpp (built-in
//   models with their published configs).
// vramcalc core: model description. A ModelSpec holds architecture dimensions as published in a
// model's config; the parameter count is derived from them (model_params), never typed in, except
// for a "parameters only" entry, where the architecture is filled from typical ratios and flagged.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/status.hpp"

namespace vc {

enum class MlpKind { Gelu, SwiGlu, GeGlu };   // Gelu: 2 matrices (up, down); gated kinds: 3 (gate, up, down)
enum class NormKind { LayerNorm, RmsNorm };     // LayerNorm has weight + bias, RMSNorm weight only
// The recurrent (linear-attention) mixer of a hybrid decoder's non-attention layers.
//   GatedDeltaNet: Qwen3-Next (transformers models/qwen3_next Qwen3NextGatedDeltaNet)
//   Mamba2: Granite-4.0-H, Nemotron-H (transformers models/granitemoehybrid, models/nemotron_h: Mamba2 mixer)
//   ShortConv: LFM2 (transformers models/lfm2 Lfm2ShortConv)
//   Mamba1: Jamba (transformers models/jamba JambaMambaMixer): a selective scan per channel, written here as d_inner
//           heads of width 1 (ssm_heads = d_inner, ssm_head_dim 1, one B/C group), dt through a rank-ssm_dt_rank projection
enum class RecurrentKind { None, GatedDeltaNet, Mamba2, ShortConv, Mamba1 };

struct ModelSpec {
    std::string id;            // preset key, e.g. "llama-3.1-8b"; empty for a custom architecture
    std::string name;          // display name
    std::string family;        // grouping for lists, e.g. "Llama"
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kv_heads = 0;          // == heads for MHA, 1 for MQA, between for GQA
    int head_dim = 0;          // 0 = hidden / heads
    int ffn = 0;               // intermediate size of a dense MLP
    MlpKind mlp = MlpKind::SwiGlu;
    int vocab = 0;
    bool tied_embeddings = false;
    NormKind norm = NormKind::RmsNorm;
    bool attn_bias = false;    // biases on q/k/v (and o when mlp_bias) projections
    bool mlp_bias = false;     // biases on MLP and output projections (and the LM head when untied: phi-2)
    int norms_per_layer = 2;   // 2: pre-attention + pre-MLP; 1: one norm feeding a parallel attention/MLP
                               // block (Falcon, phi-2); 4: Gemma-2's pre+post norms around both
    bool qk_norm = false;      // an RMSNorm of head_dim weights on the queries and one on the keys, each
                               // shared by every head (Qwen3, Gemma-3: q_norm, k_norm); counted in attention
    bool qk_norm_whole = false;  // with qk_norm: the two norms span the whole projections instead, heads x head_dim and
                                 // kv_heads x head_dim weights (OLMo-2/3, MiniMax-M2), one RMS over all the heads
    int max_position = 0;      // learned absolute position embeddings (GPT-2, BERT): rows; 0 = rotary
    int context_limit = 0;     // tokens the model is configured for (config.json max_position_embeddings;
                               // with learned positions the same as max_position); 0 = unknown. No
                               // parameters: the what-fits answers stop there, estimates note it.
    int type_vocab = 0;        // BERT token-type embeddings rows
    std::string checkpoint_dtype;  // config.json torch_dtype: "bf16", "fp16", "fp32"; empty = unknown. No
                                   // bytes: the 2-byte float choices follow it (follow_checkpoint_dtype)
    std::string checkpoint_format; // the weight format the published checkpoint stores when it is quantized
                                   // (quantization_config: "fp8-block" for DeepSeek-V3, "mxfp4" for gpt-oss);
                                   // empty = unquantized (checkpoint_dtype). Serving reads it where the
                                   // weights are not given (follow_checkpoint_format)
    // Mixture of experts (0 experts = dense).
    int experts = 0;
    int top_k = 0;
    int shared_experts = 0;
    int expert_ffn = 0;        // intermediate size of one routed/shared expert
    int dense_layers = 0;      // leading layers that keep a dense MLP (DeepSeek: first_k_dense_replace)
    int moe_every = 1;         // after them, the layers whose index + 1 is a multiple of n have the experts and the
                               // others a dense MLP of width ffn (Llama-4 Maverick: interleave_moe_layer_step 2, layers
                               // 1, 3, ..., 47; ERNIE-4.5: moe_layer_interval)
    int dense_tail = 0;        // trailing layers that keep a dense MLP (ERNIE-4.5: those after moe_layer_end_index)
    // DeepSeek-style multi-head latent attention (kv_lora_rank > 0 turns it on).
    int q_lora_rank = 0;       // 0 = plain q projection
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;
    int v_head_dim = 0;
    // DeepSeek-V3.2's lightning indexer (DeepSeek Sparse Attention; index_head_dim > 0 turns it on, MLA with a
    // q latent only): per attention layer wq_b (q_lora_rank x index_heads x index_head_dim), wk (hidden x
    // index_head_dim), a LayerNorm k_norm (weight + bias) and weights_proj (hidden x index_heads), counted in
    // attention; and one key of index_head_dim per token and layer, cached beside the MLA latent
    // (deepseek-ai's inference/model.py Indexer: k_cache FP8 + k_scale_cache FP32 per 128).
    int index_heads = 0;       // config.json index_n_heads (64)
    int index_head_dim = 0;    // config.json index_head_dim (128)
    // Attention span: sliding window (0 = none) and how many layers use it.
    int sliding_window = 0;
    int global_every = 0;      // 0: every layer uses the window when sliding_window > 0;
                               // N: every N-th layer is global (full context), the others local
    bool chunked = false;      // the local layers attend within fixed chunks of sliding_window tokens (Llama 4's
                               // attention_chunk_size) rather than a sliding window: a token sees its own chunk's
                               // earlier tokens only. The cache each engine keeps is the window's (docs/inference.md)
    // Logit soft-capping, cap x tanh(x / cap) (Gemma-2: 50 on attention scores, 30 on the output
    // logits); 0 = none. No parameters; it changes what training keeps (docs/training.md).
    double attn_softcap = 0;
    double final_softcap = 0;
    // Hybrid decoders: the mixer of each layer (docs/models.md "Hybrid models"). One character per
    // layer, empty = every layer attention + MLP. 'A' attention + MLP, 'R' recurrent mixer + MLP
    // (Qwen3-Next, Granite-4.0-H: every layer has its MLP or experts); Nemotron-H's single-block
    // layers in its own hybrid_override_pattern letters: '*' attention alone, 'M' recurrent alone,
    // '-' MLP alone; 'P' attention and the recurrent mixer side by side, then the MLP (Falcon-H1: each layer keeps
    // a KV cache and a recurrent state).
    std::string layer_pattern;
    RecurrentKind recurrent = RecurrentKind::None;
    // The recurrent mixer's dimensions, named as llama.cpp's GGUF keys hold them (<arch>.ssm.*):
    int ssm_heads = 0;     // value heads: GDN linear_num_value_heads, Mamba2 mamba_n_heads (ssm.time_step_rank)
    int ssm_head_dim = 0;  // one value head's width: GDN linear_value_head_dim, Mamba2 mamba_d_head;
                           // heads x head_dim = d_inner (ssm.inner_size)
    int ssm_groups = 0;    // GDN key heads (linear_num_key_heads), Mamba2 B/C groups (n_groups) (ssm.group_count)
    int ssm_state = 0;     // GDN key head width (linear_key_head_dim), Mamba2 d_state (ssm.state_size)
    int ssm_conv = 0;      // causal convolution kernel (linear_conv_kernel_dim, d_conv; LFM2's conv_L_cache) (ssm.conv_kernel,
                           // shortconv.l_cache); LFM2's short convolution needs no other ssm_* dimension
    int ssm_dt_rank = 0;   // Mamba1's time-step projection rank (Jamba mamba_dt_rank, "auto" = ceil(hidden / 16); ssm.time_step_rank);
                           // unused by the other mixers
    std::string ssm_cache_dtype;  // the SSM state's dtype the config.json states (mamba_ssm_cache_dtype: "fp32", "bf16", "fp16";
                                  // empty: none stated): vLLM's auto for inference.vllm.mamba_ssm_cache_dtype
    bool attn_gate = false;  // gated attention (Qwen3-Next): q_proj also yields a per-channel output gate, twice as wide
    double params_override_b = 0;  // "parameters only" entry: the count the user typed, in billions
    bool approximate = false;  // architecture filled from typical ratios
    double published_params_b = 0;  // the total the model card states, for tests and display
};

// Parameter counts by component, derived from the dimensions (all layers summed).
struct ParamBreakdown {
    double embedding = 0;      // token (+ position, token-type) embeddings
    double output = 0;         // LM head; 0 when tied to the embedding
    double attention = 0;      // q, k, v, o projections (MLA: the low-rank down/up projections; DeepSeek-V3.2: its lightning indexer), with biases
    double recurrent = 0;      // the recurrent mixers of a hybrid's other layers (in/out projections, conv, gates, norm)
    double mlp_dense = 0;      // dense MLP layers
    double experts_routed = 0; // all routed experts of all MoE layers
    double experts_shared = 0; // shared experts of all MoE layers
    double router = 0;         // MoE gates
    double norms = 0;          // layer norms (and the final norm), with biases for LayerNorm
    double total = 0;          // sum of the above
    double active = 0;         // touched per token: total less the routed experts not in the top-k
    double per_layer_attention = 0;   // one layer's attention
    double per_layer_recurrent = 0;   // one recurrent layer's mixer
    double per_layer_mlp = 0;         // one dense layer's MLP
    double per_expert = 0;            // one routed expert
    // A "parameters only" entry: the typed count over the filled architecture's own count (1
    // otherwise). Counts read from dimensions (vocab x hidden) take it too, so they stay parts of
    // the scaled total (a tiny count would otherwise quantize more head than the model holds).
    double count_scale = 1;
};

// Fills derived defaults (head_dim = hidden / heads, kv_heads = heads when 0) and checks the
// architecture is consistent; the Error names the field ("model.kv_heads") and the rule.
// `ranges_checked`: the caller has run check_model_ranges on this spec (the planner, once per
// search): the field-table ranges are skipped, every consistency rule still runs.
Outcome<ModelSpec> resolve_model(const ModelSpec& m, bool ranges_checked = false);
// The field-table ranges of the architecture's members (resolve_model's first checks).
bool check_model_ranges(const ModelSpec& m, Error& err);

// The mixer of layer `il` (model.layer_pattern; every layer attention + MLP when it is empty).
inline char layer_kind(const ModelSpec& m, int il) {
    return m.layer_pattern.empty() || il < 0 || il >= static_cast<int>(m.layer_pattern.size()) ? 'A' : m.layer_pattern[static_cast<size_t>(il)];
}
inline bool has_attention(const ModelSpec& m, int il) { const char c = layer_kind(m, il); return c == 'A' || c == '*' || c == 'P'; }
inline bool is_recurrent_layer(const ModelSpec& m, int il) { const char c = layer_kind(m, il); return c == 'R' || c == 'M' || c == 'P'; }
inline bool has_mlp(const ModelSpec& m, int il) { const char c = layer_kind(m, il); return c == 'A' || c == 'R' || c == '-' || c == 'E' || c == 'P'; }
// A layer pattern with Nemotron-3's MoE blocks (E): its experts are in those layers and no others.
inline bool has_moe_blocks(const ModelSpec& m) { return m.layer_pattern.find('E') != std::string::npos; }
int attention_layer_count(const ModelSpec& m);
int recurrent_layer_count(const ModelSpec& m);
int mlp_layer_count(const ModelSpec& m);
// A sliding-window layer (llama.cpp set_swa_pattern: all but every global_every-th, the period's last).
inline bool is_local_layer(const ModelSpec& m, int il) {
    return m.sliding_window > 0 && (m.global_every <= 0 || il % m.global_every != m.global_every - 1);
}
// The recurrent state one sequence keeps in layer `il`'s mixer, in elements (llama.cpp
// ggml-org/llama.cpp@01b77b5:src/llama-hparams.cpp n_embd_r, n_embd_s, the same for Mamba2 and
// Qwen3-Next's gated DeltaNet): the causal conv's last (conv - 1) inputs over its channels
// (d_inner + 2 x groups x state) and the SSM / delta-rule state, state x d_inner.
// LFM2's short convolution keeps the conv state alone, over the hidden width (n_embd_r "for LFM2 models":
// n_embd x (n_shortconv_l_cache - 1); n_embd_s 0). Mamba1 (Jamba) convolves x alone, not B and C: n_embd_r with
// ssm_n_group 0 is (d_conv - 1) x d_inner (ggml-org/llama.cpp@01b77b5:src/llama-hparams.cpp:141; vLLM's
// mamba1_state_shape, vllm-project/vllm@02d7108:vllm/model_executor/layers/mamba/mamba_utils.py:159-171: conv
// (d_inner / tp, d_conv - 1), temporal (d_inner / tp, d_state)).
inline double recurrent_conv_elements(const ModelSpec& m) {
    if (m.recurrent == RecurrentKind::ShortConv) return m.ssm_conv > 0 ? (m.ssm_conv - 1.0) * m.hidden : 0;
    if (m.recurrent == RecurrentKind::Mamba1) return m.ssm_conv > 0 ? (m.ssm_conv - 1.0) * m.ssm_heads * m.ssm_head_dim : 0;
    return m.ssm_conv > 0 ? (m.ssm_conv - 1.0) * (static_cast<double>(m.ssm_heads) * m.ssm_head_dim + 2.0 * m.ssm_groups * m.ssm_state) : 0;
}
inline double recurrent_ssm_elements(const ModelSpec& m) {
    return m.recurrent == RecurrentKind::ShortConv ? 0 : static_cast<double>(m.ssm_state) * m.ssm_heads * m.ssm_head_dim;
}
// "12 attention + 36 gated DeltaNet layers"; empty for a decoder with attention only.
std::string layer_mix_text(const ModelSpec& m);

// Layers with routed experts: those from the dense_layers-th to the last before the dense_tail trailing ones whose
// index + 1 is a multiple of moe_every (transformers' Llama4 moe_layers, range(step - 1, layers, step); llama.cpp's
// `il >= n_layer_dense_lead && (il + 1) % n_moe_layer_step == 0`, ggml-org/llama.cpp@75dc8f6:src/models/ernie4-5-moe.cpp;
// ERNIE-4.5's `(layer_idx + 1) % moe_layer_interval == 0 and moe_layer_start_index <= layer_idx <= moe_layer_end_index`,
// huggingface/transformers modeling_ernie4_5_moe.py Ernie4_5_MoeDecoderLayer); 0 for a dense model.
// A hybrid's layer pattern with E blocks (Nemotron-3) puts the experts in those layers alone.
inline bool is_moe_layer(const ModelSpec& m, int il) {
    if (m.experts > 0 && has_moe_blocks(m)) return layer_kind(m, il) == 'E';
    const int step = m.moe_every > 1 ? m.moe_every : 1;
    return m.experts > 0 && il >= m.dense_layers && il < m.layers - m.dense_tail && (il + 1) % step == 0;
}
inline int moe_layer_count(const ModelSpec& m) {
    if (m.experts > 0 && has_moe_blocks(m)) return static_cast<int>(std::count(m.layer_pattern.begin(), m.layer_pattern.end(), 'E'));
    int n = 0;
    for (int il = 0; m.experts > 0 && il < m.layers; ++il) n += is_moe_layer(m, il) ? 1 : 0;
    return n;
}
// Layers with a dense MLP of width ffn: every layer of a dense model, the others of an MoE one.
inline int dense_mlp_layers(const ModelSpec& m) { return mlp_layer_count(m) - moe_layer_count(m); }

// Derived parameter counts. Expects a resolved spec. For a "parameters only" spec the total is
// the typed count and the components follow from the filled-in architecture.
ParamBreakdown model_params(const ModelSpec& m);

// A dense decoder architecture with about `params_b` billion parameters, filled from typical
// ratios of published models (flagged approximate).
ModelSpec model_from_params(double params_b);

// The note an estimate adds when `tokens` (a sequence, a context) run past the model's context
// window: "The sequence (16,384 tokens) exceeds the model's context window of 8,192 tokens; ...".
// Empty when the window is unknown (0) or not exceeded.
std::string context_window_note(const char* what, double tokens, const ModelSpec& m);

// gpt-oss: a learned attention-sink logit per head, concatenated beside every score row
// (transformers' models/gpt_oss/modeling_gpt_oss.py eager_attention_forward). transformers has no
// SDPA path for it (GptOssPreTrainedModel._supports_sdpa = False), so its default is eager.
inline bool gpt_oss_sinks(const ModelSpec& m) { return m.family == "gpt-oss"; }

// Multi-query attention as transformers' GPTBigCode and Falcon classes run it: the one K/V head is
// attended as it is (GPTBigCode folds the heads into the query for baddbmm; Falcon hands the head to
// `@` or SDPA broadcast over the query heads), where Llama-style classes with one KV head (Gemma's
// one-head presets, an imported Llama or Qwen config) call repeat_kv like any GQA model
// (models/gpt_bigcode/modeling_gpt_bigcode.py, models/falcon/modeling_falcon.py; import_hf reads
// model_type gpt_bigcode and falcon as these families).
inline bool hf_one_head_mqa(const ModelSpec& m) {
    return m.kv_heads == 1 && m.heads > 1 && (m.family == "StarCoder" || m.family == "Falcon");
}

}  // namespace vc
