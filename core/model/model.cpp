// vramcalc core: model description. Checks an architecture (resolve_model), derives its
// parameter count per component (model_params) and fills an architecture for a bare parameter
// count (model_from_params). The formulas are written out in docs/models.md.
//
// [SECTION] limits        accepted ranges of every field
// [SECTION] resolve_model defaults and consistency rules
// [SECTION] model_params  parameter counts per component
// [SECTION] from_params   the "parameters only" architecture
#include "core/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <iterator>
#include <string>
#include <vector>

#include "core/fields.hpp"
#include "core/quant/quant.hpp"
#include "core/text.hpp"

namespace vc {

// [SECTION] limits --------------------------------------------------------------------------------
// Generous bounds: they exist to reject typos and overflow, not to judge designs. Each field's range
// is in the field table (core/fields.cpp, docs/config.md); check_value applies it.

// [SECTION] resolve_model -------------------------------------------------------------------------
namespace {

std::string str(long long v) { return std::to_string(v); }

Outcome<ModelSpec> fail(const char* field, const std::string& rule) {
    return Outcome<ModelSpec>::failure(field, std::string(field) + " " + rule);
}

bool is_mla(const ModelSpec& m) { return m.kv_lora_rank > 0; }

// The architecture's range checks, in the order they are reported: the field table's range, or
// [0, another dimension] (kv_heads <= heads, top_k <= experts, dense_layers and global_every <= layers).
struct Checked {
    const char* path;
    int ModelSpec::*member;
    int ModelSpec::*max_member;  // null: the table's range
};
const Checked kChecked[] = {
    {"model.layers", &ModelSpec::layers, nullptr},         {"model.hidden", &ModelSpec::hidden, nullptr},
    {"model.heads", &ModelSpec::heads, nullptr},           {"model.kv_heads", &ModelSpec::kv_heads, &ModelSpec::heads},
    {"model.head_dim", &ModelSpec::head_dim, nullptr},     {"model.ffn", &ModelSpec::ffn, nullptr},
    {"model.vocab", &ModelSpec::vocab, nullptr},           {"model.max_position", &ModelSpec::max_position, nullptr},
    {"model.type_vocab", &ModelSpec::type_vocab, nullptr}, {"model.norms_per_layer", &ModelSpec::norms_per_layer, nullptr},
    {"model.experts", &ModelSpec::experts, nullptr},       {"model.top_k", &ModelSpec::top_k, &ModelSpec::experts},
    {"model.shared_experts", &ModelSpec::shared_experts, nullptr}, {"model.expert_ffn", &ModelSpec::expert_ffn, nullptr},
    {"model.dense_layers", &ModelSpec::dense_layers, &ModelSpec::layers}, {"model.dense_tail", &ModelSpec::dense_tail, &ModelSpec::layers},
    {"model.q_lora_rank", &ModelSpec::q_lora_rank, nullptr},
    {"model.kv_lora_rank", &ModelSpec::kv_lora_rank, nullptr}, {"model.qk_rope_head_dim", &ModelSpec::qk_rope_head_dim, nullptr},
    {"model.qk_nope_head_dim", &ModelSpec::qk_nope_head_dim, nullptr}, {"model.v_head_dim", &ModelSpec::v_head_dim, nullptr},
    {"model.sliding_window", &ModelSpec::sliding_window, nullptr}, {"model.global_every", &ModelSpec::global_every, &ModelSpec::layers},
    {"model.ssm_heads", &ModelSpec::ssm_heads, nullptr},   {"model.ssm_head_dim", &ModelSpec::ssm_head_dim, nullptr},
    {"model.ssm_groups", &ModelSpec::ssm_groups, nullptr}, {"model.ssm_state", &ModelSpec::ssm_state, nullptr},
    {"model.ssm_conv", &ModelSpec::ssm_conv, nullptr},
    {"model.index_heads", &ModelSpec::index_heads, nullptr}, {"model.index_head_dim", &ModelSpec::index_head_dim, nullptr},
    {"model.ssm_dt_rank", &ModelSpec::ssm_dt_rank, nullptr},
};

// The table's entries for kChecked, looked up once (resolve_model runs on every estimate).
const std::vector<const FieldDef*>& checked_fields() {
    static const std::vector<const FieldDef*> fields = [] {
        std::vector<const FieldDef*> v;
        for (const auto& c : kChecked) v.push_back(find_field(c.path));
        return v;
    }();
    return fields;
}

}  // namespace

bool check_model_ranges(const ModelSpec& in, Error& err) {
    static const FieldDef& params_b = *find_field("model.params_b");
    static const FieldDef& context_limit = *find_field("model.context_limit");
    static const FieldDef& count = *find_field("params_b");
    // A "parameters only" architecture (approximate: filled from a count) is its count: 0 there is
    // not "unset" but a count refused with params_b's range, never the filled 1B fallback.
    if (in.approximate && !check_number(count, in.params_override_b, err)) return false;
    if (!check_number(params_b, in.params_override_b, err) || !check_number(context_limit, in.context_limit, err)) return false;
    const std::string& dtype = in.checkpoint_dtype;
    if (!dtype.empty() && dtype != "bf16" && dtype != "fp16" && dtype != "fp32") {
        err.field = "model.checkpoint_dtype";
        err.message = "must be bf16, fp16, fp32 or empty (unknown), got \"" + dtype + "\"";
        return false;
    }
    if (const std::string& fmt = in.checkpoint_format; !fmt.empty()) {
        const WeightFormat* f = find_weight_format(fmt);
        if (!f || !checkpoint_quantization(*f)) {
            err.field = "model.checkpoint_format";
            err.message = "must be a quantized weight format of inference.weights (fp8-block, mxfp4, gptq-int4, ...; not a float type, which "
                          "model.checkpoint_dtype names, nor a GGUF type) or empty, got \"" + fmt + "\"";
            return false;
        }
    }
    if (in.layers == 0 && in.params_override_b > 0) return true;  // "parameters only": no architecture to check
    for (size_t i = 0; i < std::size(kChecked); ++i) {
        const Checked& c = kChecked[i];
        const bool ok = c.max_member ? check_int_range(c.path, in.*c.member, 0, in.*c.max_member, err)
                                     : check_number(*checked_fields()[i], in.*c.member, err);
        if (!ok) return false;
    }
    return true;
}

Outcome<ModelSpec> resolve_model(const ModelSpec& in, bool ranges_checked) {
    Error err;
    if (!ranges_checked && !check_model_ranges(in, err)) return Outcome<ModelSpec>::failure(err);
    if (in.layers == 0 && in.params_override_b > 0) {
        // "Parameters only": the architecture comes from typical ratios, the total stays as typed.
        ModelSpec m = model_from_params(in.params_override_b);
        if (!in.name.empty()) m.name = in.name;
        m.context_limit = in.context_limit;
        return Outcome<ModelSpec>::success(m);
    }

    ModelSpec m = in;

    // Attention heads: GQA needs whole groups of query heads per KV head.
    if (m.kv_heads == 0) m.kv_heads = m.heads;
    if (m.heads % m.kv_heads != 0)
        return fail("model.kv_heads", "must divide model.heads (" + str(m.heads) + ") into equal query groups, got " + str(m.kv_heads));

    // Multi-head latent attention: all of its dimensions or none.
    if (is_mla(m)) {
        if (m.qk_rope_head_dim < 1) return fail("model.qk_rope_head_dim", "must be at least 1 with MLA (model.kv_lora_rank > 0)");
        if (m.qk_nope_head_dim < 1) return fail("model.qk_nope_head_dim", "must be at least 1 with MLA (model.kv_lora_rank > 0)");
        if (m.v_head_dim < 1) return fail("model.v_head_dim", "must be at least 1 with MLA (model.kv_lora_rank > 0)");
        if (m.attn_bias) return fail("model.attn_bias", "must be false with MLA (DeepSeek's latent projections have no biases)");
        if (m.qk_norm) return fail("model.qk_norm", "must be false with MLA (its norms sit on the latents, counted in attention)");
        if (m.kv_heads != m.heads)
            return fail("model.kv_heads", "must equal model.heads with MLA (every head gets its own keys and values from the latent)");
        if (m.head_dim == 0) m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;  // query/key width per head
    } else if (m.q_lora_rank > 0 || m.qk_rope_head_dim > 0 || m.qk_nope_head_dim > 0 || m.v_head_dim > 0) {
        return fail("model.kv_lora_rank", "must be greater than 0 when the MLA fields (q_lora_rank, qk_rope_head_dim, "
                                          "qk_nope_head_dim, v_head_dim) are set");
    }
    // DeepSeek-V3.2's lightning indexer: its queries come from MLA's q latent (wq_b reads q_lora_rank values).
    if (m.index_heads > 0 || m.index_head_dim > 0) {
        if (!is_mla(m) || m.q_lora_rank < 1)
            return fail("model.index_head_dim", "needs multi-head latent attention with a query latent (model.kv_lora_rank and "
                                                "model.q_lora_rank > 0): the lightning indexer's queries come from the q latent");
        if (m.index_heads < 1) return fail("model.index_heads", "must be at least 1 with a lightning indexer (model.index_head_dim > 0)");
        if (m.index_head_dim < 1) return fail("model.index_head_dim", "must be at least 1 with lightning-indexer heads (model.index_heads > 0)");
    }
    if (m.head_dim == 0) {
        if (m.hidden % m.heads != 0)
            return fail("model.head_dim", "is needed: model.hidden (" + str(m.hidden) + ") is not divisible by model.heads (" +
                                              str(m.heads) + ")");
        m.head_dim = m.hidden / m.heads;
    }

    // Mixture of experts.
    if (m.experts > 0) {
        if (m.top_k < 1) return fail("model.top_k", "must be a whole number in [1, " + str(m.experts) + "] (model.experts), got 0");
        if (m.expert_ffn < 1) return fail("model.expert_ffn", "must be at least 1 with experts (model.experts > 0)");
    } else if (m.shared_experts > 0) {
        return fail("model.shared_experts", "must be 0 without routed experts (model.experts = 0)");
    }
    // Interleaved MoE (Llama-4 Maverick): every moe_every-th layer after the dense ones has the experts.
    if (m.moe_every < 1 || m.moe_every > m.layers)
        return fail("model.moe_every", "must be a whole number in [1, " + str(m.layers) + "] (model.layers), got " + str(m.moe_every));
    if (m.experts > 0 && moe_layer_count(m) == 0)
        return fail("model.moe_every", "leaves no layer with experts: layers " + str(m.dense_layers) + " to " + str(m.layers - m.dense_tail - 1) +
                                           " (model.dense_layers, model.dense_tail), those whose index + 1 is a multiple of " + str(m.moe_every));
    const int dense = dense_mlp_layers(m);
    if (dense > 0 && m.ffn < 1) return fail("model.ffn", "must be at least 1: " + str(dense) + " layers have a dense MLP");

    // Hybrid decoders: one mixer letter per layer, and the recurrent mixer's dimensions when a layer has one.
    if (!m.layer_pattern.empty()) {
        if (static_cast<int>(m.layer_pattern.size()) != m.layers)
            return fail("model.layer_pattern", "must have one letter per layer (" + str(m.layers) + ", model.layers), got " +
                                                   str(static_cast<long long>(m.layer_pattern.size())));
        for (char c : m.layer_pattern)
            if (std::string("AR*M-EP").find(c) == std::string::npos)
                return fail("model.layer_pattern", std::string("takes A (attention + MLP), R (recurrent + MLP), * (attention), M (recurrent), "
                                                               "- (MLP), E (experts) or P (attention and recurrent in parallel + MLP) per layer, got '") +
                                                       c + "'");
        if (has_moe_blocks(m) && m.experts == 0)
            return fail("model.layer_pattern", "has MoE blocks (E), which need routed experts: set model.experts, model.top_k and model.expert_ffn");
        if (m.experts > 0 && !has_moe_blocks(m) && m.layer_pattern.find_first_of("*M-") != std::string::npos)
            return fail("model.layer_pattern", "has layers without an MLP (*, M) or without a mixer (-) but no MoE block (E) for this model's "
                                               "experts (model.experts > 0): use A and R, or E for the expert layers");
        if (recurrent_layer_count(m) > 0) {
            if (m.recurrent == RecurrentKind::None)
                return fail("model.recurrent", "must name the recurrent mixer (gated-deltanet, mamba2, short-conv, mamba1): model.layer_pattern has " +
                                                   str(recurrent_layer_count(m)) + " recurrent layers");
            const bool short_conv = m.recurrent == RecurrentKind::ShortConv;  // LFM2: the kernel alone sizes it
            if (short_conv && m.ssm_conv < 2)
                return fail("model.ssm_conv", "must be at least 2 for a short convolution (LFM2's conv_L_cache 3), got " + str(m.ssm_conv));
            const std::pair<const char*, int> dims[] = {{"model.ssm_heads", m.ssm_heads}, {"model.ssm_head_dim", m.ssm_head_dim},
                                                        {"model.ssm_groups", m.ssm_groups}, {"model.ssm_state", m.ssm_state},
                                                        {"model.ssm_conv", m.ssm_conv}};
            for (const auto& d : dims)
                if (!short_conv && d.second < 1) return fail(d.first, "must be at least 1: model.layer_pattern has recurrent layers");
            if (!short_conv && m.ssm_heads % m.ssm_groups != 0)
                return fail("model.ssm_groups", "must divide model.ssm_heads (" + str(m.ssm_heads) + ") into equal groups, got " + str(m.ssm_groups));
            if (m.recurrent == RecurrentKind::Mamba1) {  // Jamba: d_inner channels of width 1 sharing one B and C
                if (m.ssm_head_dim != 1)
                    return fail("model.ssm_head_dim", "must be 1 for mamba1 (each of model.ssm_heads = d_inner channels scans alone), got " + str(m.ssm_head_dim));
                if (m.ssm_groups != 1)
                    return fail("model.ssm_groups", "must be 1 for mamba1 (one B and C for every channel), got " + str(m.ssm_groups));
                if (m.ssm_dt_rank < 1)
                    return fail("model.ssm_dt_rank", "must be at least 1 for mamba1 (Jamba's mamba_dt_rank; \"auto\" is ceil(hidden / 16) = " +
                                                         str((m.hidden + 15) / 16) + ")");
            }
            if (m.sliding_window > 0)
                return fail("model.sliding_window", "must be 0 with recurrent layers (a windowed hybrid is not modelled)");
        }
    }
    if (m.qk_norm_whole && !m.qk_norm)
        return fail("model.qk_norm_whole", "needs q/k norms: set model.qk_norm true (or qk_norm_whole false)");
    if (!m.ssm_cache_dtype.empty() && m.ssm_cache_dtype != "fp32" && m.ssm_cache_dtype != "bf16" && m.ssm_cache_dtype != "fp16")
        return fail("model.ssm_cache_dtype", "must be fp32, bf16, fp16 or empty (none stated), got \"" + m.ssm_cache_dtype + "\"");
    if (m.global_every > 0 && m.sliding_window == 0)
        return fail("model.global_every", "needs a window: set model.sliding_window > 0 (or global_every 0)");
    if (m.chunked && m.sliding_window == 0)
        return fail("model.chunked", "needs a chunk: set model.sliding_window > 0 to the chunk's tokens (or chunked false)");
    return Outcome<ModelSpec>::success(m);
}

// [SECTION] model_params --------------------------------------------------------------------------
namespace {

// One MLP of width `ffn`: gated kinds have gate, up and down matrices, plain GELU up and down.
double mlp_params(const ModelSpec& m, double ffn) {
    const double h = m.hidden;
    const bool gated = m.mlp != MlpKind::Gelu;
    double p = (gated ? 3 : 2) * h * ffn;
    if (m.mlp_bias) p += (gated ? 2 : 1) * ffn + h;
    return p;
}

// DeepSeek-V3.2's lightning indexer in one layer (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py Indexer.__init__, the
// same in huggingface/transformers@01f8fa5:src/transformers/models/deepseek_v32/modular_deepseek_v32.py DeepseekV32Indexer):
// wq_b q_lora_rank x (index_heads x index_head_dim), wk hidden x index_head_dim, k_norm a LayerNorm of index_head_dim (weight
// and bias), weights_proj hidden x index_heads; no projection biases. V3.2-Exp: 1,536 x 8,192 + 7,168 x 128 + 2 x 128
// + 7,168 x 64 = 13,959,424 a layer.
double indexer_params(const ModelSpec& m) {
    if (m.index_head_dim <= 0) return 0;
    const double h = m.hidden, heads = m.index_heads, dim = m.index_head_dim;
    return static_cast<double>(m.q_lora_rank) * heads * dim + h * dim + 2 * dim + h * heads;
}

double attention_params(const ModelSpec& m) {
    const double h = m.hidden;
    const double a = m.heads;
    const double norm = m.norm == NormKind::LayerNorm ? 2 : 1;  // weights per norm element
    if (is_mla(m)) {
        const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
        double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + norm * m.q_lora_rank + m.q_lora_rank * a * qk : h * a * qk;
        double kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + norm * m.kv_lora_rank +
                    m.kv_lora_rank * a * (m.qk_nope_head_dim + m.v_head_dim);
        double o = a * m.v_head_dim * h + (m.mlp_bias ? h : 0);
        return q + kv + o + indexer_params(m);
    }
    const double q_width = a * m.head_dim;
    const double kv_width = static_cast<double>(m.kv_heads) * m.head_dim;
    double p = h * q_width + 2 * h * kv_width + q_width * h;
    if (m.attn_bias) p += q_width + 2 * kv_width;
    if (m.mlp_bias) p += h;  // output projection bias
    // Gated attention (transformers models/qwen3_next Qwen3NextAttention): q_proj is hidden x (2 x
    // heads x head_dim), the query and a sigmoid gate on the attention output.
    if (m.attn_gate) p += h * q_width;
    // q_norm and k_norm: head_dim weights each, shared by the heads; spanning the whole projections (OLMo-2:
    // huggingface/transformers@000c33f:src/transformers/models/olmo2/modeling_olmo2.py Olmo2Attention, q_norm of
    // num_attention_heads x head_dim, k_norm of num_key_value_heads x head_dim) one weight per channel.
    if (m.qk_norm) p += m.qk_norm_whole ? norm * (q_width + kv_width) : 2 * norm * m.head_dim;
    return p;
}

// One recurrent layer's mixer, as the transformers classes build it (no projection biases):
// GatedDeltaNet (models/qwen3_next/modeling_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz
// h x (2 key_dim + 2 value_dim), in_proj_ba h x 2 heads, conv1d (2 key_dim + value_dim) x kernel,
// dt_bias and A_log (heads each), a gated RMSNorm of head_dim, out_proj value_dim x h.
// Mamba2 (models/granitemoehybrid GraniteMoeHybridMambaLayer, models/nemotron_h NemotronHMamba2Mixer):
// in_proj h x (2 d_inner + 2 groups x state + heads), conv1d over d_inner + 2 groups x state channels
// with a bias (use_conv_bias true), dt_bias, A_log and D (heads each), a gated RMSNorm of d_inner,
// out_proj d_inner x h.
double recurrent_params(const ModelSpec& m) {
    const double h = m.hidden, heads = m.ssm_heads, inner = heads * m.ssm_head_dim, key = static_cast<double>(m.ssm_groups) * m.ssm_state;
    switch (m.recurrent) {
        case RecurrentKind::GatedDeltaNet:
            return h * (2 * key + 2 * inner) + h * 2 * heads + (2 * key + inner) * m.ssm_conv + 2 * heads + m.ssm_head_dim + inner * h;
        case RecurrentKind::Mamba2: {
            const double conv_ch = inner + 2 * key;
            return h * (inner + conv_ch + heads) + conv_ch * (m.ssm_conv + 1) + 3 * heads + inner + inner * h;
        }
        case RecurrentKind::ShortConv:
            // LFM2 (transformers models/lfm2 Lfm2ShortConv, conv_bias false): in_proj h x 3h (B, C, x), a depthwise
            // conv1d of h channels x conv_L_cache, out_proj h x h.
            return h * 3 * h + h * m.ssm_conv + h * h;
        case RecurrentKind::Mamba1: {
            // Jamba (transformers models/jamba JambaMambaMixer, mamba_proj_bias false, mamba_conv_bias true): in_proj
            // h x 2 d_inner, a depthwise conv1d of d_inner x d_conv with a bias, x_proj d_inner x (dt_rank + 2 d_state),
            // dt_proj dt_rank x d_inner with a bias, A_log d_inner x d_state, D d_inner, out_proj d_inner x h, and Jamba's
            // dt / B / C RMSNorms (dt_rank + 2 d_state weights; ggml-org/llama.cpp@82234e0:src/models/jamba.cpp:57-77).
            const double rank = m.ssm_dt_rank, state = m.ssm_state;
            return h * 2 * inner + inner * (m.ssm_conv + 1) + inner * (rank + 2 * state) + rank * inner + inner + inner * state + inner +
                   inner * h + rank + 2 * state;
        }
        case RecurrentKind::None: break;
    }
    return 0;
}

void scale(ParamBreakdown& b, double f) {
    for (double* v : {&b.embedding, &b.output, &b.attention, &b.recurrent, &b.per_layer_recurrent, &b.mlp_dense, &b.experts_routed, &b.experts_shared, &b.router,
                      &b.norms, &b.total, &b.active, &b.per_layer_attention, &b.per_layer_mlp, &b.per_expert})
        *v *= f;
    b.count_scale *= f;
}

}  // namespace

ParamBreakdown model_params(const ModelSpec& m) {
    ParamBreakdown b;
    const double h = m.hidden;
    const double V = m.vocab;
    const double norm = m.norm == NormKind::LayerNorm ? 2 * h : h;
    const int moe_layers = moe_layer_count(m);
    const int dense_layers = dense_mlp_layers(m);

    b.embedding = V * h + static_cast<double>(m.max_position) * h + static_cast<double>(m.type_vocab) * h;
    b.output = m.tied_embeddings ? 0 : V * h + (m.mlp_bias ? V : 0);
    b.per_layer_attention = attention_params(m);
    b.attention = attention_layer_count(m) * b.per_layer_attention;
    const int recurrent_layers = recurrent_layer_count(m);
    b.per_layer_recurrent = recurrent_layers > 0 ? recurrent_params(m) : 0;
    b.recurrent = recurrent_layers * b.per_layer_recurrent;
    b.per_layer_mlp = dense_layers > 0 ? mlp_params(m, m.ffn) : 0;
    b.mlp_dense = dense_layers * b.per_layer_mlp;
    if (moe_layers > 0) {
        b.per_expert = mlp_params(m, m.expert_ffn);
        b.experts_routed = static_cast<double>(moe_layers) * m.experts * b.per_expert;
        b.experts_shared = static_cast<double>(moe_layers) * m.shared_experts * b.per_expert;
        b.router = static_cast<double>(moe_layers) * m.experts * h;
    }
    // Per layer norms plus one more: the final norm (decoders) or the embedding norm (BERT).
    b.norms = (static_cast<double>(m.layers) * m.norms_per_layer + 1) * norm;
    b.total = b.embedding + b.output + b.attention + b.recurrent + b.mlp_dense + b.experts_routed + b.experts_shared + b.router + b.norms;
    b.active = b.total - static_cast<double>(moe_layers) * (m.experts - m.top_k) * b.per_expert;

    // A "parameters only" entry keeps the count the user typed; the filled architecture only
    // apportions it among the components.
    if (m.approximate && m.params_override_b > 0 && b.total > 0) scale(b, m.params_override_b * 1e9 / b.total);
    return b;
}

namespace {
// Layers 0..n-1 for which `kind` holds (has_attention, is_recurrent_layer, has_mlp).
int count_layers(const ModelSpec& m, int n, bool (*kind)(const ModelSpec&, int)) {
    int c = 0;
    for (int il = 0; il < n; ++il) c += kind(m, il) ? 1 : 0;
    return c;
}
}  // namespace

int attention_layer_count(const ModelSpec& m) { return m.layer_pattern.empty() ? m.layers : count_layers(m, m.layers, has_attention); }
int recurrent_layer_count(const ModelSpec& m) { return count_layers(m, static_cast<int>(m.layer_pattern.size()), is_recurrent_layer); }
int mlp_layer_count(const ModelSpec& m) { return m.layer_pattern.empty() ? m.layers : count_layers(m, m.layers, has_mlp); }

std::string layer_mix_text(const ModelSpec& m) {
    const int rec = recurrent_layer_count(m);
    if (m.layer_pattern.empty() || (rec == 0 && attention_layer_count(m) == m.layers)) return {};
    const std::string mixer = m.recurrent == RecurrentKind::Mamba2          ? " Mamba2"
                              : m.recurrent == RecurrentKind::GatedDeltaNet ? " gated DeltaNet"
                              : m.recurrent == RecurrentKind::ShortConv     ? " short-conv"
                              : m.recurrent == RecurrentKind::Mamba1        ? " Mamba1"
                                                                            : " recurrent";
    // Falcon-H1's P layers hold both mixers side by side: named apart, not counted twice.
    const int parallel = static_cast<int>(std::count(m.layer_pattern.begin(), m.layer_pattern.end(), 'P'));
    const int attention = attention_layer_count(m) - parallel, recurrent = rec - parallel;
    std::string s;
    if (attention > 0 || recurrent > 0) s = std::to_string(attention) + " attention + " + std::to_string(recurrent) + mixer + " layers";
    if (parallel > 0) s += (s.empty() ? "" : " + ") + std::to_string(parallel) + " parallel attention +" + mixer + " layers";
    const int mlp_only = static_cast<int>(std::count(m.layer_pattern.begin(), m.layer_pattern.end(), '-'));
    if (mlp_only > 0) s += " + " + std::to_string(mlp_only) + " MLP layers";
    const int moe_only = static_cast<int>(std::count(m.layer_pattern.begin(), m.layer_pattern.end(), 'E'));
    if (moe_only > 0) s += " + " + std::to_string(moe_only) + " MoE layers";
    return s;
}

// [SECTION] from_params ---------------------------------------------------------------------------
// Typical ratios of recent dense decoders (Llama-3, Qwen2.5, Mistral): head_dim 128 (64 below
// 1024 wide), depth = hidden / 128 (Llama-3.1 8B: 4096/32, 70B: 8192/80, 405B: 16384/126),
// SwiGLU at 3.5 x hidden (Llama-3: 14336/4096), 8 KV heads (or the largest divisor of the heads below), the Llama-3 vocabulary, embeddings
// tied below 4096 wide (Llama-3.2 1B/3B, Qwen2.5 <= 3B).
static constexpr int kFillVocab = 128256;
static constexpr double kFillFfnRatio = 3.5;
static constexpr int kFillWidthPerLayer = 128;
static constexpr int kFillKvHeads = 8;
static constexpr int kFillTiedBelow = 4096;
static constexpr int kFillMaxWidth = 65536;

static ModelSpec filled_architecture(int hidden) {
    ModelSpec m;
    m.hidden = hidden;
    m.head_dim = hidden < 1024 ? 64 : 128;
    m.heads = hidden / m.head_dim;
    m.kv_heads = std::gcd(m.heads, kFillKvHeads);  // 8 when the heads allow, a divisor of them otherwise
    m.layers = hidden / kFillWidthPerLayer < 2 ? 2 : hidden / kFillWidthPerLayer;
    m.ffn = static_cast<int>(std::ceil(kFillFfnRatio * hidden / 256.0)) * 256;  // hidden <= kFillMaxWidth: fits
    m.mlp = MlpKind::SwiGlu;
    m.norm = NormKind::RmsNorm;
    m.vocab = kFillVocab;
    m.tied_embeddings = hidden < kFillTiedBelow;
    return m;
}

ModelSpec model_from_params(double params_b) {
    const double target = std::isfinite(params_b) && params_b > 0 ? params_b * 1e9 : 1e9;
    // The width whose natural count is nearest the target, by ratio. Widths run 128, 256, 512, then
    // multiples of 1024 (so the heads come in groups of 8 KV heads); the count grows with the
    // width, so a bisection finds the first width at or above the target.
    auto width = [](int k) { return k <= 3 ? 64 << k : (k - 3) * 1024; };
    auto total_at = [&](int k) { return model_params(filled_architecture(width(k))).total; };
    int lo = 1, hi = 3 + kFillMaxWidth / 1024;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (total_at(mid) >= target) hi = mid;
        else lo = mid + 1;
    }
    if (lo > 1 && std::log(total_at(lo) / target) > std::log(target / total_at(lo - 1))) --lo;
    ModelSpec best = filled_architecture(width(lo));
    best.name = "Approximate dense decoder";
    best.family = "Approximate";
    best.params_override_b = target / 1e9;
    best.approximate = true;
    return best;
}

std::string context_window_note(const char* what, double tokens, const ModelSpec& m) {
    if (m.context_limit <= 0 || tokens <= m.context_limit) return {};
    return std::string("The ") + what + " (" + count_text(tokens) + " tokens) exceeds the model's context window of " +
           count_text(m.context_limit) + " tokens; computed anyway (RoPE scaling can extend it).";
}

}  // namespace vc
