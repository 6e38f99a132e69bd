// vramcalc core: model presets. Each entry is the model's published config (config.json on its
// Hugging Face model card); published_params_b is the total its card (or, where the card only
// rounds, the Hub's safetensors count) states. docs/models.md tabulates derived vs published.
#include "core/model/presets.hpp"

#include <string>
#include <utility>

#include "core/text.hpp"

namespace vc {
namespace {

// The fields every preset has; the rest are set per preset below.
ModelSpec dense(const char* id, const char* name, const char* family, int L, int h, int a, int kv, int hd, int ffn,
                MlpKind mlp, int V, bool tied, double published_b) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = family;
    m.layers = L;
    m.hidden = h;
    m.heads = a;
    m.kv_heads = kv;
    m.head_dim = hd;
    m.ffn = ffn;
    m.mlp = mlp;
    m.vocab = V;
    m.tied_embeddings = tied;
    m.published_params_b = published_b;
    return m;
}

// GPT-2-style blocks: LayerNorm, biases on every projection, plain GELU MLP.
ModelSpec gpt_style(ModelSpec m) {
    m.norm = NormKind::LayerNorm;
    m.attn_bias = true;
    m.mlp_bias = true;
    return m;
}

ModelSpec moe(ModelSpec m, int experts, int top_k, int shared, int expert_ffn, int dense_layers) {
    m.experts = experts;
    m.top_k = top_k;
    m.shared_experts = shared;
    m.expert_ffn = expert_ffn;
    m.dense_layers = dense_layers;
    return m;
}

ModelSpec mla(ModelSpec m, int q_lora, int kv_lora, int rope, int nope, int v) {
    m.q_lora_rank = q_lora;
    m.kv_lora_rank = kv_lora;
    m.qk_rope_head_dim = rope;
    m.qk_nope_head_dim = nope;
    m.v_head_dim = v;
    return m;
}

ModelSpec window(ModelSpec m, int tokens, int global_every) {
    m.sliding_window = tokens;
    m.global_every = global_every;
    return m;
}

// Llama 4's chunked attention: `tokens`-token chunks on all but every global_every-th layer.
ModelSpec chunks(ModelSpec m, int tokens, int global_every) {
    m = window(m, tokens, global_every);
    m.chunked = true;
    return m;
}

// Interleaved MoE: every `step`-th layer has the experts, the others a dense MLP of width ffn.
ModelSpec moe_every(ModelSpec m, int step) {
    m.moe_every = step;
    return m;
}

ModelSpec with_bias(ModelSpec m, bool attn, bool mlp) {
    m.attn_bias = attn;
    m.mlp_bias = mlp;
    return m;
}

ModelSpec with_norms(ModelSpec m, NormKind kind, int per_layer) {
    m.norm = kind;
    m.norms_per_layer = per_layer;
    return m;
}

// Gemma-2's logit soft-capping (config.json attn_logit_softcapping 50, final_logit_softcapping 30).
ModelSpec softcap(ModelSpec m, double attn, double final) {
    m.attn_softcap = attn;
    m.final_softcap = final;
    return m;
}

// Qwen3's and Gemma-3's per-head RMSNorms on the queries and keys (q_norm, k_norm: head_dim weights each).
ModelSpec qk_norms(ModelSpec m) {
    m.qk_norm = true;
    return m;
}

// A hybrid decoder: the mixer of each layer and the recurrent mixer's dimensions (ModelSpec::layer_pattern).
ModelSpec hybrid(ModelSpec m, std::string pattern, RecurrentKind kind, int heads, int head_dim, int groups, int state, int conv) {
    m.layer_pattern = std::move(pattern);
    m.recurrent = kind;
    m.ssm_heads = heads;
    m.ssm_head_dim = head_dim;
    m.ssm_groups = groups;
    m.ssm_state = state;
    m.ssm_conv = conv;
    return m;
}

// Mamba1's time-step projection rank (Jamba's mamba_dt_rank).
ModelSpec dt_rank(ModelSpec m, int rank) {
    m.ssm_dt_rank = rank;
    return m;
}

// `period` repeated `times` times: a layer pattern from its published period.
std::string repeat(const char* period, int times) {
    std::string s;
    for (int i = 0; i < times; ++i) s += period;
    return s;
}

ModelSpec gated_attention(ModelSpec m) {
    m.attn_gate = true;
    return m;
}

// q/k norms over the whole projections (OLMo-2/3, MiniMax-M2: model.qk_norm_whole).
ModelSpec whole_qk_norms(ModelSpec m) {
    m.qk_norm = m.qk_norm_whole = true;
    return m;
}

// DeepSeek-V3.2's lightning indexer (model.index_heads, model.index_head_dim).
ModelSpec indexer(ModelSpec m, int heads, int head_dim) {
    m.index_heads = heads;
    m.index_head_dim = head_dim;
    return m;
}

ModelSpec positions(ModelSpec m, int rows, int type_rows) {
    m.max_position = rows;
    m.type_vocab = type_rows;
    return m;
}

constexpr MlpKind kSwiGlu = MlpKind::SwiGlu;
constexpr MlpKind kGeGlu = MlpKind::GeGlu;
constexpr MlpKind kGelu = MlpKind::Gelu;
constexpr NormKind kRms = NormKind::RmsNorm;
constexpr NormKind kLayerNorm = NormKind::LayerNorm;

std::vector<ModelSpec> build_presets() {
    return {
        // Llama (meta-llama/*). Llama-2 cards say 7B/13B/70B; the Hub counts 6.74B, 13.0B, 69.0B.
        dense("llama-2-7b", "Llama-2 7B", "Llama", 32, 4096, 32, 32, 128, 11008, kSwiGlu, 32000, false, 6.74),
        dense("llama-2-13b", "Llama-2 13B", "Llama", 40, 5120, 40, 40, 128, 13824, kSwiGlu, 32000, false, 13.0),
        dense("llama-2-70b", "Llama-2 70B", "Llama", 80, 8192, 64, 8, 128, 28672, kSwiGlu, 32000, false, 69.0),
        dense("llama-3-8b", "Llama-3 8B", "Llama", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 128256, false, 8.03),
        dense("llama-3-70b", "Llama-3 70B", "Llama", 80, 8192, 64, 8, 128, 28672, kSwiGlu, 128256, false, 70.6),
        dense("llama-3.1-8b", "Llama-3.1 8B", "Llama", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 128256, false, 8.03),
        dense("llama-3.1-70b", "Llama-3.1 70B", "Llama", 80, 8192, 64, 8, 128, 28672, kSwiGlu, 128256, false, 70.6),
        dense("llama-3.1-405b", "Llama-3.1 405B", "Llama", 126, 16384, 128, 8, 128, 53248, kSwiGlu, 128256, false, 405.9),
        dense("llama-3.2-1b", "Llama-3.2 1B", "Llama", 16, 2048, 32, 8, 64, 8192, kSwiGlu, 128256, true, 1.24),
        dense("llama-3.2-3b", "Llama-3.2 3B", "Llama", 28, 3072, 24, 8, 128, 8192, kSwiGlu, 128256, true, 3.21),
        // meta-llama/Llama-3.3-70B-Instruct: the Llama-3.1 70B architecture (config.json identical in every
        // dimension), listed apart because it is the id people look for.
        dense("llama-3.3-70b", "Llama-3.3 70B", "Llama", 80, 8192, 64, 8, 128, 28672, kSwiGlu, 128256, false, 70.6),
        dense("tinyllama-1.1b", "TinyLlama 1.1B", "Llama", 22, 2048, 32, 4, 64, 5632, kSwiGlu, 32000, false, 1.1),
        // meta-llama/Llama-4-Scout-17B-16E-Instruct and Llama-4-Maverick-17B-128E-Instruct, text_config: 48 x 5120,
        // 40 heads over 8 KV heads of 128, vocab 202048, untied; experts of width intermediate_size 8192, top-1, plus
        // one shared expert of the same width (transformers' Llama4TextMoe: shared_expert = Llama4TextMLP(config));
        // dense layers of width intermediate_size_mlp 16384. Scout: 16 experts on every layer
        // (interleave_moe_layer_step 1); Maverick: 128 experts on every other layer (step 2: layers 1, 3, ..., 47,
        // the other 24 dense). Attention: 8192-token chunks (attention_chunk_size) on 3 layers of 4, every 4th
        // layer global and without RoPE (no_rope_layers; llama.cpp set_swa_pattern(4)); the L2 q/k norm has no
        // weights. The vision tower (0.87B) is the mmproj's (--mmproj llama4-vit-336, docs/local.md).
        // Published: llama.cpp's parameter count of each GGUF (llama-bench model_n_params): Scout 107,769,861,184
        // (lhl/strix-halo-testing@f1197fc:llm-bench/Llama-4-Scout-17B-16E-Instruct-UD-Q4_K_XL/raw_runs.jsonl; the
        // 64 above the derived count are the rope_freqs table llama.cpp adds for the llama3 RoPE scaling), Maverick
        // 400.71B (AUGMXNT/llm-tracker.info-vault@b56234c:_TOORG/Strix Halo.md:606). The cards' 109B and 400B count
        // the vision tower too (the Hub's safetensors: 108.64B for Scout).
        chunks(moe(dense("llama-4-scout", "Llama-4 Scout 17B-16E (text)", "Llama", 48, 5120, 40, 8, 128, 16384, kSwiGlu, 202048, false,
                         107.770),
                   16, 1, 1, 8192, 0),
               8192, 4),
        chunks(moe_every(moe(dense("llama-4-maverick", "Llama-4 Maverick 17B-128E (text)", "Llama", 48, 5120, 40, 8, 128, 16384, kSwiGlu,
                                   202048, false, 400.71),
                             128, 1, 1, 8192, 0),
                         2),
               8192, 4),

        // Mistral AI. v0.1 attends within a 4096-token sliding window on every layer; v0.3 has none.
        window(dense("mistral-7b-v0.1", "Mistral-7B v0.1", "Mistral", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 32000, false, 7.24), 4096, 0),
        dense("mistral-7b-v0.3", "Mistral-7B v0.3", "Mistral", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 32768, false, 7.25),
        // mistralai/Mistral-Nemo-Base-2407: head_dim 128 with hidden 5120 (32 heads x 128 = 4096), vocab
        // 131072, untied. 12,247,782,400 parameters (the GGUF's general.parameter_count; the card says 12B).
        dense("mistral-nemo-12b", "Mistral-Nemo 12B", "Mistral", 40, 5120, 32, 8, 128, 14336, kSwiGlu, 131072, false, 12.248),
        // mistralai/Mistral-Small-3.1-24B-Instruct-2503 and 3.2-2506, text_config (Mistral-Small-24B-2501 has the
        // same decoder): 40 x 5120, ffn 32768, head_dim 128. The text decoder's 23,572,403,200 parameters
        // (keras-team/keras-hub@0e1444f:keras_hub/src/models/mistral/mistral_presets.py magistral_small_2506_en,
        // the same decoder); the Hub's 24.01B for 3.2 adds the Pixtral vision encoder and projector (0.44B),
        // not counted here.
        dense("mistral-small-24b", "Mistral-Small-3.x 24B", "Mistral", 40, 5120, 32, 8, 128, 32768, kSwiGlu, 131072, false,
              23.572),
        moe(dense("mixtral-8x7b", "Mixtral-8x7B", "Mistral", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 32000, false, 46.7), 8, 2, 0, 14336, 0),
        moe(dense("mixtral-8x22b", "Mixtral-8x22B", "Mistral", 56, 6144, 48, 8, 128, 16384, kSwiGlu, 32768, false, 141), 8, 2, 0, 16384, 0),

        // Qwen2.5 (Qwen/*): biases on q, k, v only; embeddings tied up to 3B.
        with_bias(dense("qwen2.5-0.5b", "Qwen2.5 0.5B", "Qwen", 24, 896, 14, 2, 64, 4864, kSwiGlu, 151936, true, 0.49), true, false),
        with_bias(dense("qwen2.5-1.5b", "Qwen2.5 1.5B", "Qwen", 28, 1536, 12, 2, 128, 8960, kSwiGlu, 151936, true, 1.54), true, false),
        with_bias(dense("qwen2.5-3b", "Qwen2.5 3B", "Qwen", 36, 2048, 16, 2, 128, 11008, kSwiGlu, 151936, true, 3.09), true, false),
        with_bias(dense("qwen2.5-7b", "Qwen2.5 7B", "Qwen", 28, 3584, 28, 4, 128, 18944, kSwiGlu, 152064, false, 7.61), true, false),
        with_bias(dense("qwen2.5-14b", "Qwen2.5 14B", "Qwen", 48, 5120, 40, 8, 128, 13824, kSwiGlu, 152064, false, 14.7), true, false),
        with_bias(dense("qwen2.5-32b", "Qwen2.5 32B", "Qwen", 64, 5120, 40, 8, 128, 27648, kSwiGlu, 152064, false, 32.5), true, false),
        with_bias(dense("qwen2.5-72b", "Qwen2.5 72B", "Qwen", 80, 8192, 64, 8, 128, 29568, kSwiGlu, 152064, false, 72.7), true, false),

        // Qwen3 (Qwen/*): no biases, q/k norms (2 x 128 per layer); embeddings tied up to 4B. The
        // published counts of 0.6B, 1.7B, 4B, 14B, 32B and 235B-A22B are keras-hub's exact ones for the
        // same checkpoints (8B and 30B-A3B keep their cards' 8.2B and 30.5B)
        // (keras-team/keras-hub@1df65da:keras_hub/src/models/qwen3/qwen3_presets.py: 596,049,920;
        // 1,720,574,976; 4,022,468,096; 14,768,307,200; 32,762,123,264; and @79c5664:
        // keras_hub/src/models/qwen3_moe/qwen3_moe_presets.py: 235,093,634,560), which the dimensions
        // below derive to the parameter. 30B-A3B and 235B-A22B: 128 experts, 8 active, every layer MoE.
        qk_norms(dense("qwen3-0.6b", "Qwen3 0.6B", "Qwen", 28, 1024, 16, 8, 128, 3072, kSwiGlu, 151936, true, 0.596)),
        qk_norms(dense("qwen3-1.7b", "Qwen3 1.7B", "Qwen", 28, 2048, 16, 8, 128, 6144, kSwiGlu, 151936, true, 1.721)),
        qk_norms(dense("qwen3-4b", "Qwen3 4B", "Qwen", 36, 2560, 32, 8, 128, 9728, kSwiGlu, 151936, true, 4.022)),
        qk_norms(dense("qwen3-8b", "Qwen3 8B", "Qwen", 36, 4096, 32, 8, 128, 12288, kSwiGlu, 151936, false, 8.2)),
        qk_norms(dense("qwen3-14b", "Qwen3 14B", "Qwen", 40, 5120, 40, 8, 128, 17408, kSwiGlu, 151936, false, 14.768)),
        qk_norms(dense("qwen3-32b", "Qwen3 32B", "Qwen", 64, 5120, 64, 8, 128, 25600, kSwiGlu, 151936, false, 32.762)),
        qk_norms(moe(dense("qwen3-30b-a3b", "Qwen3 30B-A3B", "Qwen", 48, 2048, 32, 4, 128, 6144, kSwiGlu, 151936, false, 30.5), 128, 8, 0, 768,
                     0)),
        qk_norms(moe(dense("qwen3-235b-a22b", "Qwen3 235B-A22B", "Qwen", 94, 4096, 64, 4, 128, 12288, kSwiGlu, 151936, false, 235.094), 128,
                     8, 0, 1536, 0)),

        // Hybrid decoders (docs/models.md "Hybrid models"; huggingface.co/ID/blob/main/config.json).
        // Qwen/Qwen3-Next-80B-A3B-Instruct: 48 x 2048, full_attention_interval 4 (layers 3, 7, ..., 47 gated attention:
        // 16 heads over 2 KV heads of 256, q_proj doubled for the output gate, q/k norms), the other 36 gated DeltaNet
        // (linear_num_value_heads 32 x linear_value_head_dim 128, linear_num_key_heads 16 x linear_key_head_dim 128,
        // linear_conv_kernel_dim 4); every layer 512 experts of moe_intermediate_size 512, top-10, and one shared expert of
        // 512 (shared_expert_intermediate_size); vocab 151936, untied. Published: 79,674,391,296 in the safetensors less
        // the MTP layer (the card's 80B; the Hub's 81.3B counts mtp_num_hidden_layers 1, which llama.cpp does not load);
        // the derived count is 98,304 below it: the shared expert's sigmoid gate, hidden x 1 a layer, is not modelled.
        gated_attention(qk_norms(hybrid(moe(dense("qwen3-next-80b-a3b", "Qwen3-Next 80B-A3B", "Qwen", 48, 2048, 16, 2, 256, 5120, kSwiGlu,
                                                  151936, false, 79.674),
                                            512, 10, 1, 512, 0),
                                        repeat("RRRA", 12), RecurrentKind::GatedDeltaNet, 32, 128, 16, 128, 4))),
        // ibm-granite/granite-4.0-h-small (granitemoehybrid): 40 x 4096, layer_types attention at 5, 15, 25, 35 (32 heads
        // over 8 KV heads of 128, no positional encoding), the other 36 Mamba2 (mamba_n_heads 128 x mamba_d_head 64 =
        // mamba_expand 2 x 4096, mamba_n_groups 1, mamba_d_state 128, mamba_d_conv 4); every layer 72 experts of
        // intermediate_size 768, top-10, plus the shared MLP of shared_intermediate_size 1536 = 2 experts' width; vocab
        // 100352, tied. Published: the card's 32B (the Hub's safetensors 32.2B).
        hybrid(moe(dense("granite-4.0-h-small", "Granite-4.0-H Small", "Granite", 40, 4096, 32, 8, 128, 1536, kSwiGlu, 100352, true, 32.2),
                   72, 10, 2, 768, 0),
               repeat("RRRRRARRRR", 4), RecurrentKind::Mamba2, 128, 64, 1, 128, 4),
        // nvidia/NVIDIA-Nemotron-Nano-9B-v2 (nemotron_h): 56 single-block layers by hybrid_override_pattern, 27 Mamba2
        // (mamba_num_heads 128 x mamba_head_dim 80, n_groups 8, ssm_state_size 128, conv_kernel 4), 4 attention (40 heads
        // over 8 KV heads of 128), 25 MLP (squared-ReLU up + down, intermediate_size 15680: two matrices, as GELU); one
        // RMSNorm a block; vocab 131072, untied. Published: the card's 8.9B.
        with_norms(hybrid(dense("nemotron-nano-9b-v2", "Nemotron Nano 9B v2", "Nemotron", 56, 4480, 40, 8, 128, 15680, kGelu, 131072, false,
                                8.89),
                          "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-", RecurrentKind::Mamba2, 128, 80, 8, 128, 4),
                   kRms, 1),

        // Gemma (google/*): GeGLU, tied embeddings, head_dim set apart from hidden / heads. Gemma-2
        // alternates a 4096-token local layer with a global one (layer 0 local) and wraps both
        // attention and MLP in pre- and post-norms (4 per layer).
        dense("gemma-2b", "Gemma 2B", "Gemma", 18, 2048, 8, 1, 256, 16384, kGeGlu, 256000, true, 2.51),
        dense("gemma-7b", "Gemma 7B", "Gemma", 28, 3072, 16, 16, 256, 24576, kGeGlu, 256000, true, 8.54),
        softcap(with_norms(window(dense("gemma-2-2b", "Gemma-2 2B", "Gemma", 26, 2304, 8, 4, 256, 9216, kGeGlu, 256000, true, 2.61), 4096, 2), kRms, 4), 50, 30),
        softcap(with_norms(window(dense("gemma-2-9b", "Gemma-2 9B", "Gemma", 42, 3584, 16, 8, 256, 14336, kGeGlu, 256000, true, 9.24), 4096, 2), kRms, 4), 50, 30),
        softcap(with_norms(window(dense("gemma-2-27b", "Gemma-2 27B", "Gemma", 46, 4608, 32, 16, 128, 36864, kGeGlu, 256000, true, 27.2), 4096, 2), kRms, 4), 50, 30),

        // Gemma-3: 5 local layers to each global one (sliding_window_pattern 6; 1B window 512, the others
        // 1024), 4 norms per layer and q/k norms (2 x head_dim). 1B is text only. 4B, 12B and 27B are
        // multimodal: these presets are their text_config (vocab 262208 rows in the checkpoint); the
        // SigLIP vision tower and projector (0.42B) are not counted (an mmproj file adds them, docs/local.md).
        // Published: keras-hub's text-only counts (keras-team/keras-hub@00d9f10:keras_hub/src/models/gemma3/
        // gemma3_presets.py gemma3_1b 999,885,952; gemma3_4b_text 3,880,099,328; gemma3_12b_text
        // 11,765,788,416; gemma3_27b_text 27,009,002,240), whose tables have 262144 rows (64·h fewer).
        qk_norms(with_norms(window(dense("gemma-3-1b", "Gemma-3 1B", "Gemma", 26, 1152, 4, 1, 256, 6912, kGeGlu, 262144, true, 1.0), 512, 6),
                            kRms, 4)),
        qk_norms(with_norms(window(dense("gemma-3-4b", "Gemma-3 4B (text)", "Gemma", 34, 2560, 8, 4, 256, 10240, kGeGlu, 262208, true, 3.880),
                                   1024, 6),
                            kRms, 4)),
        qk_norms(with_norms(window(dense("gemma-3-12b", "Gemma-3 12B (text)", "Gemma", 48, 3840, 16, 8, 256, 15360, kGeGlu, 262208, true,
                                         11.766),
                                   1024, 6),
                            kRms, 4)),
        qk_norms(with_norms(window(dense("gemma-3-27b", "Gemma-3 27B (text)", "Gemma", 62, 5376, 32, 16, 128, 21504, kGeGlu, 262208, true,
                                         27.009),
                                   1024, 6),
                            kRms, 4)),

        // Microsoft Phi. phi-2: parallel attention/MLP block behind one LayerNorm, biases everywhere
        // including the LM head; the card says 2.7B, the Hub counts 2.78B.
        // microsoft/phi-4: 40 x 5120, 40 heads over 10 KV heads, vocab 100352, untied; 14,659,507,200
        // parameters (its GGUF's general.parameter_count; the card says 14B). microsoft/Phi-4-mini-instruct:
        // 32 x 3072, 24 heads over 8, vocab 200064, tied; 3,836,021,760 (the Hub's count; the card says 3.8B).
        dense("phi-4", "Phi-4 (14B)", "Phi", 40, 5120, 40, 10, 128, 17920, kSwiGlu, 100352, false, 14.660),
        dense("phi-4-mini", "Phi-4-mini (3.8B)", "Phi", 32, 3072, 24, 8, 128, 8192, kSwiGlu, 200064, true, 3.836),
        dense("phi-3-mini", "Phi-3-mini (3.8B)", "Phi", 32, 3072, 32, 32, 96, 8192, kSwiGlu, 32064, false, 3.82),
        with_norms(gpt_style(dense("phi-2", "phi-2", "Phi", 32, 2560, 32, 32, 80, 10240, kGelu, 51200, false, 2.78)), kLayerNorm, 1),

        // Falcon-7B (tiiuae): multi-query attention, parallel block behind one LayerNorm, no biases.
        // NOTE: the card says 7B and the Hub 7.22B, but the checkpoint stores lm_head although
        // transformers ties it to the embedding (the config leaves tie_word_embeddings at true):
        // 7.22B - 65024 x 4544 = 6.92B distinct parameters, which is what occupies memory.
        with_norms(dense("falcon-7b", "Falcon-7B", "Falcon", 32, 4544, 71, 1, 64, 18176, kGelu, 65024, true, 6.92), kLayerNorm, 1),

        // DeepSeek-V3 (deepseek-ai/DeepSeek-V3): MLA + MoE, first 3 layers dense. The card's 671B is
        // the main model; the Hub's 685B adds the 14B multi-token-prediction module, which inference
        // engines may load for speculative decoding and which is not counted here.
        mla(moe(dense("deepseek-v3", "DeepSeek-V3 (671B)", "DeepSeek", 61, 7168, 128, 128, 0, 18432, kSwiGlu, 129280, false, 671),
                256, 8, 1, 2048, 3),
            1536, 512, 64, 128, 128),
        // deepseek-ai/DeepSeek-R1 (and R1-0528): the V3 architecture, config.json identical in every
        // dimension; listed apart because it is the name people look for.
        mla(moe(dense("deepseek-r1", "DeepSeek-R1 (671B)", "DeepSeek", 61, 7168, 128, 128, 0, 18432, kSwiGlu, 129280, false, 671),
                256, 8, 1, 2048, 3),
            1536, 512, 64, 128, 128),
        mla(moe(dense("deepseek-v2", "DeepSeek-V2 (236B)", "DeepSeek", 60, 5120, 128, 128, 0, 12288, kSwiGlu, 102400, false, 236),
                160, 6, 2, 1536, 1),
            1536, 512, 64, 128, 128),

        // moonshotai/Kimi-K2-Instruct (model_type kimi_k2, DeepseekV3ForCausalLM): the DeepSeek-V3
        // architecture with 384 routed experts (8 active, 1 shared), 64 heads, one dense layer, vocab
        // 163840, no multi-token-prediction module. The card says 1T total and 32B activated; the Hub
        // counts 1026.5B (its model page's safetensors total, as https://drose.io/aitools/tools/kimi-k2-instruct
        // quotes it).
        mla(moe(dense("kimi-k2", "Kimi-K2 (1T)", "Kimi", 61, 7168, 64, 64, 0, 18432, kSwiGlu, 163840, false, 1026.5), 384, 8, 1, 2048, 1),
            1536, 512, 64, 128, 128),

        // gpt-oss (openai/*): MoE with biases on every projection and expert, a 128-token window on
        // every other layer (layer 0 local). Not modelled: the per-head attention sinks (64 per
        // layer); and its LM head has no bias, which mlp_bias counts (201,088, 0.0002%). The cards'
        // 5.1B / 3.6B active leave out the embedding table, which `active` here includes.
        window(with_bias(moe(dense("gpt-oss-120b", "gpt-oss-120b", "gpt-oss", 36, 2880, 64, 8, 64, 2880, kSwiGlu, 201088, false, 117),
                             128, 4, 0, 2880, 0),
                         true, true),
               128, 2),
        window(with_bias(moe(dense("gpt-oss-20b", "gpt-oss-20b", "gpt-oss", 24, 2880, 64, 8, 64, 2880, kSwiGlu, 201088, false, 21),
                             32, 4, 0, 2880, 0),
                         true, true),
               128, 2),

        // GPT-2 XL (openai-community/gpt2-xl): learned positions, tied head. OpenAI names the
        // checkpoint "1558M" (the paper's table says 1542M).
        positions(gpt_style(dense("gpt2-xl", "GPT-2 XL", "GPT-2", 48, 1600, 25, 25, 64, 6400, kGelu, 50257, true, 1.558)), 1024, 0),

        // StarCoder 15.5B (bigcode/starcoder; OctoCoder shares it): MQA, learned positions, tied head.
        positions(gpt_style(dense("starcoder", "StarCoder / OctoCoder 15.5B", "StarCoder", 40, 6144, 48, 1, 128, 24576, kGelu, 49152,
                                  true, 15.5)),
                  8192, 0),

        // BERT-large (google-bert/bert-large-uncased), an encoder: positions and token types, an
        // embedding LayerNorm (counted as the "final" norm), no LM head. The pooler (1.05M) and the
        // pre-training heads are not modelled. The card's table says 336M.
        positions(gpt_style(dense("bert-large-uncased", "BERT-large (uncased)", "BERT", 24, 1024, 16, 16, 64, 4096, kGelu, 30522, true,
                                  0.336)),
                  512, 2),

        // GLM-4.5 family (zai-org/*, model_type glm4_moe; huggingface.co/ID/blob/main/config.json): q/k/v biases
        // (attention_bias), GQA 96 heads over 8 KV heads of 128, SwiGLU, vocab 151552 untied; the first
        // first_k_dense_replace layers dense (intermediate_size), the others n_routed_experts of moe_intermediate_size,
        // top-8, plus n_shared_experts 1 of the same width. Published: the derived count is the decoder the engines load;
        // each checkpoint also stores its num_nextn_predict_layers 1 multi-token-prediction layer (model.layers.<L>.*,
        // one more MoE layer + eh_proj 2h x h + 3 norms, and in GLM-4.5 and the Air copies of embed_tokens and
        // shared_head.head), which neither vLLM nor llama.cpp loads without speculative decoding (docs/models.md
        // "GLM-4.5"). tests/unit/test_families.cpp works each Hub total out from the derived one.
        // GLM-4.5-Air: 46 x 4096, 1 dense layer of 10944, 128 experts of 1408, no q/k norms (use_qk_norm false).
        // 106,852,245,504 derived; the Hub's 110B = + 5,760 expert biases + the MTP layer 3,616,573,568 = 110.47B.
        with_bias(moe(dense("glm-4.5-air", "GLM-4.5-Air", "GLM", 46, 4096, 96, 8, 128, 10944, kSwiGlu, 151552, false, 106.852), 128, 8, 1,
                      1408, 1),
                  true, false),
        // GLM-4.5: 92 x 5120, 3 dense layers of 12288, 160 experts of 1536, q/k norms (use_qk_norm true). 352,797,814,784
        // derived; the Hub's 358.34B = + 14,240 expert biases + the MTP layer 5,539,962,272 (with the vocab copies).
        qk_norms(with_bias(moe(dense("glm-4.5", "GLM-4.5", "GLM", 92, 5120, 96, 8, 128, 12288, kSwiGlu, 151552, false, 352.798), 160, 8, 1,
                               1536, 3),
                           true, false)),
        // GLM-4.6: GLM-4.5's decoder with a 200K window (max_position_embeddings 202752); its MTP layer has no vocab
        // copies: the Hub's 357B = 352.80B + 14,240 + 3,988,069,792 = 356.79B.
        qk_norms(with_bias(moe(dense("glm-4.6", "GLM-4.6", "GLM", 92, 5120, 96, 8, 128, 12288, kSwiGlu, 151552, false, 352.798), 160, 8, 1,
                               1536, 3),
                           true, false)),
        // MiniMaxAI/MiniMax-M2 (minimax_m2): 62 x 3072, 48 heads over 8 KV heads of 128 (full attention on every layer),
        // every layer 256 experts of intermediate_size 1536, top-8, no shared expert, vocab 200064 untied; weights stored
        // FP8 (quantization_config fp8, 128 x 128 blocks); use_qk_norm: q/k norms over the whole projections ((48 + 8) x 128
        // a layer, model.qk_norm_whole). Published: the card's 230B, the Hub's 229B; derived 228,689,748,992, 15,872 below
        // the checkpoint's 228,689,764,864: its 256 expert biases a layer are not modelled.
        // No MTP weights are published (use_mtp and num_mtp_modules 3 in the config notwithstanding).
        whole_qk_norms(moe(dense("minimax-m2", "MiniMax-M2", "MiniMax", 62, 3072, 48, 8, 128, 1536, kSwiGlu, 200064, false, 228.690), 256, 8, 0,
                             1536, 0)),
        // nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (nemotron_h with MoE blocks): 52 single-block layers by
        // hybrid_override_pattern, 23 Mamba2 (mamba_num_heads 64 x mamba_head_dim 64, n_groups 8, ssm_state_size 128,
        // conv_kernel 4), 6 attention (32 heads over 2 KV heads of 128), 23 MoE blocks (E: n_routed_experts 128 of
        // moe_intermediate_size 1856, squared-ReLU up + down, top-6, one shared expert of moe_shared_expert_intermediate_size
        // 3712 = 2 experts' width); one RMSNorm a block; vocab 131072, untied. Published: 31.6B (NVIDIA's Nemotron 3 Nano
        // report; the derived count leaves out the routers' e_score_correction_bias, 23 x 128).
        with_norms(hybrid(moe(dense("nemotron-3-nano-30b-a3b", "Nemotron-3 Nano 30B-A3B", "Nemotron", 52, 2688, 32, 2, 128, 1856, kGelu, 131072,
                                    false, 31.6),
                              128, 6, 2, 1856, 0),
                          "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME", RecurrentKind::Mamba2, 64, 64, 8, 128, 4),
                   kRms, 1),
        // LiquidAI/LFM2-1.2B (lfm2): 16 layers x 2048, full_attn_idxs 2, 5, 8, 10, 12, 14 (32 heads over 8 KV heads of 64,
        // per-head q/k norms), the other 10 short convolutions of conv_L_cache 3 (in_proj 3h, depthwise conv, out_proj);
        // SwiGLU of block_ff_dim 12288 adjusted to 2/3 = 8192 (block_auto_adjust_ff_dim, multiple of 256); vocab 65536,
        // tied. Published: the Hub's 1.17B.
        qk_norms(hybrid(dense("lfm2-1.2b", "LFM2 1.2B", "LFM2", 16, 2048, 32, 8, 64, 8192, kSwiGlu, 65536, true, 1.17), "RRARRARRARARARAR",
                        RecurrentKind::ShortConv, 0, 0, 0, 0, 3)),
        // deepseek-ai/DeepSeek-V3.2 and DeepSeek-V3.2-Exp (deepseek_v32, DeepseekV32ForCausalLM): DeepSeek-V3's MLA + MoE
        // with a lightning indexer on every layer (index_n_heads 64, index_head_dim 128: 13,959,424 parameters a layer,
        // 851,524,864 in all); weights stored FP8 (128 x 128 blocks). Derived 671,877,929,216 (V3's 671,026,404,352 +
        // the indexer); the Hub's 685.4B adds the multi-token-prediction layer 61 (13,477,385,472 with its indexer and its
        // copies of the embedding and head, loaded only for speculative decoding) and the FP8 blocks' FP32 scales (~0.04B).
        indexer(mla(moe(dense("deepseek-v3.2", "DeepSeek-V3.2 (671B)", "DeepSeek", 61, 7168, 128, 128, 0, 18432, kSwiGlu, 129280, false,
                              671.878),
                        256, 8, 1, 2048, 3),
                    1536, 512, 64, 128, 128),
                64, 128),
        // ai21labs/Jamba-v0.1 (jamba): 32 layers x 4096, attention where i % attn_layer_period 8 == attn_layer_offset 4 (32 heads
        // over 8 KV heads of 128, no positional encoding), the other 28 Mamba1 (mamba_expand 2: d_inner 8192, mamba_d_state 16,
        // mamba_d_conv 4, mamba_dt_rank 256, conv bias, no projection bias, the dt / B / C RMSNorms); 16 experts of
        // intermediate_size 14336, top-2, where i % expert_layer_period 2 == expert_layer_offset 1, a dense SwiGLU MLP of
        // 14336 elsewhere; vocab 65536, untied. 51,570,323,328 by hand (tests/unit/test_hybrid.cpp); the Hub's 51.6B.
        dt_rank(hybrid(moe_every(moe(dense("jamba-v0.1", "Jamba v0.1", "Jamba", 32, 4096, 32, 8, 128, 14336, kSwiGlu, 65536, false, 51.6), 16, 2,
                                     0, 14336, 0),
                                 2),
                       repeat("RRRRARRR", 4), RecurrentKind::Mamba1, 8192, 1, 1, 16, 4),
                256),
        // tiiuae/Falcon-H1-7B (falcon_h1): 44 layers x 3072, each attention (12 heads over 2 KV heads of 128) and a Mamba2 mixer
        // (mamba_n_heads 24 x mamba_d_head 128 = mamba_d_ssm 3072, mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4) side by
        // side, then a SwiGLU of 12288; vocab 130048, untied (huggingface/transformers docs/source/en/model_doc/falcon_h1.md's
        // table; the config.json's intermediate_size and vocab_size). 7,585,648,736 by hand (tests/unit/test_hybrid.cpp); the
        // Hub's 7.59B.
        hybrid(dense("falcon-h1-7b", "Falcon-H1 7B", "Falcon", 44, 3072, 12, 2, 128, 12288, kSwiGlu, 130048, false, 7.59), repeat("P", 44),
               RecurrentKind::Mamba2, 24, 128, 1, 256, 4),
    };
}

// Context windows: max_position_embeddings in each model's config.json (n_positions for GPT-2
// and StarCoder, the rows of their learned position table). Where the config states RoPE scaling
// (Llama-3.1/3.2, DeepSeek, gpt-oss) its max_position_embeddings already includes it; scaling a
// model only documents as optional (Qwen2.5 Instruct's YaRN) is not counted.
struct ContextWindow {
    const char* id;
    int tokens;
};
constexpr ContextWindow kContextWindows[] = {
    // meta-llama/Llama-2-*-hf 4096; Meta-Llama-3-* 8192; Meta-Llama-3.1-* and Llama-3.2-* 131072 (rope_type llama3).
    {"llama-2-7b", 4096}, {"llama-2-13b", 4096}, {"llama-2-70b", 4096}, {"llama-3-8b", 8192}, {"llama-3-70b", 8192},
    {"llama-3.1-8b", 131072}, {"llama-3.1-70b", 131072}, {"llama-3.1-405b", 131072}, {"llama-3.2-1b", 131072},
    {"llama-3.2-3b", 131072}, {"llama-3.3-70b", 131072},
    // meta-llama/Llama-4-Scout-17B-16E-Instruct text_config 10485760, rope_scaling llama3 factor 16 (aws-neuron/
    // neuronx-distributed-inference@f9e99f9:test/unit/models/llama4/test_modelling_llama4.py copies its text_config);
    // Llama-4-Maverick-17B-128E-Instruct 1048576 (NVIDIA/TensorRT-LLM@b35ac1b:tests/unittest/_torch/modeling/
    // test_modeling_llama_min_latency.py keeps a copy of its config).
    {"llama-4-scout", 10485760}, {"llama-4-maverick", 1048576},
    // TinyLlama/TinyLlama-1.1B 2048.
    {"tinyllama-1.1b", 2048},
    // mistralai: Mistral-7B-v0.1 and v0.3, Mixtral-8x7B-v0.1 32768; Mixtral-8x22B-v0.1 65536;
    // Mistral-Nemo-Base-2407 128000, the cards' "trained with a 128k context window" (Mistral-Nemo-Instruct-2407's
    // config says 1024000, a RoPE table's size: its GGUF's llama.context_length, ollama/ollama#8277);
    // Mistral-Small-3.1-24B-Instruct-2503 text_config 131072 (3.0's 2501: 32768).
    {"mistral-7b-v0.1", 32768}, {"mistral-7b-v0.3", 32768}, {"mixtral-8x7b", 32768}, {"mixtral-8x22b", 65536},
    {"mistral-nemo-12b", 128000}, {"mistral-small-24b", 131072},
    // Qwen/Qwen2.5-* base configs: 0.5B and 3B 32768; 1.5B, 7B, 14B, 32B, 72B 131072 (the Instruct configs say 32768).
    {"qwen2.5-0.5b", 32768}, {"qwen2.5-1.5b", 131072}, {"qwen2.5-3b", 32768}, {"qwen2.5-7b", 131072},
    {"qwen2.5-14b", 131072}, {"qwen2.5-32b", 131072}, {"qwen2.5-72b", 131072},
    // Qwen/Qwen3-* 40960 (YaRN to 131072 is optional, per the cards).
    {"qwen3-0.6b", 40960}, {"qwen3-1.7b", 40960}, {"qwen3-4b", 40960}, {"qwen3-8b", 40960}, {"qwen3-14b", 40960},
    {"qwen3-32b", 40960}, {"qwen3-30b-a3b", 40960}, {"qwen3-235b-a22b", 40960},
    // google/gemma-2b, gemma-7b, gemma-2-* 8192; gemma-3-1b 32768; gemma-3-4b, 12b, 27b text_config 131072
    // (rope_scaling linear, factor 8, in the config).
    {"gemma-2b", 8192}, {"gemma-7b", 8192}, {"gemma-2-2b", 8192}, {"gemma-2-9b", 8192}, {"gemma-2-27b", 8192},
    {"gemma-3-1b", 32768}, {"gemma-3-4b", 131072}, {"gemma-3-12b", 131072}, {"gemma-3-27b", 131072},
    // microsoft/phi-4 16384; Phi-4-mini-instruct 131072 (LongRoPE in the config); Phi-3-mini-4k-instruct 4096; phi-2 2048.
    {"phi-4", 16384}, {"phi-4-mini", 131072}, {"phi-3-mini", 4096}, {"phi-2", 2048},
    // tiiuae/falcon-7b 2048 (its training sequence length; FalconConfig's max_position_embeddings default).
    {"falcon-7b", 2048},
    // deepseek-ai/DeepSeek-V3, DeepSeek-R1 and DeepSeek-V2 163840 (YaRN factor 40 over 4096); moonshotai/Kimi-K2-Instruct
    // 131072 (YaRN factor 32 over 4096; its 0905 update says 262144).
    {"deepseek-v3", 163840}, {"deepseek-r1", 163840}, {"deepseek-v2", 163840}, {"kimi-k2", 131072},
    // openai/gpt-oss-* 131072 (YaRN-scaled in the config).
    {"gpt-oss-120b", 131072}, {"gpt-oss-20b", 131072},
    // Qwen3-Next-80B-A3B 262144; granite-4.0-h-small 131072; NVIDIA-Nemotron-Nano-9B-v2 131072.
    {"qwen3-next-80b-a3b", 262144}, {"granite-4.0-h-small", 131072}, {"nemotron-nano-9b-v2", 131072},
    // Learned positions: GPT-2 XL n_positions 1024, StarCoder 8192, BERT-large max_position_embeddings 512.
    {"gpt2-xl", 1024}, {"starcoder", 8192}, {"bert-large-uncased", 512},
    // zai-org/GLM-4.5-Air and GLM-4.5 131072, GLM-4.6 202752 (the card's 200K); MiniMaxAI/MiniMax-M2 196608.
    {"glm-4.5-air", 131072}, {"glm-4.5", 131072}, {"glm-4.6", 202752}, {"minimax-m2", 196608},
    // NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 262144 (its card: up to 1M with long-context settings).
    {"nemotron-3-nano-30b-a3b", 262144},
    // LiquidAI/LFM2-1.2B 128000.
    {"lfm2-1.2b", 128000},
    // deepseek-ai/DeepSeek-V3.2(-Exp) 163840 (V3's YaRN factor 40 over 4096).
    {"deepseek-v3.2", 163840},
    // ai21labs/Jamba-v0.1 262144 (the card's 256K; "up to 140K tokens on a single 80GB GPU").
    {"jamba-v0.1", 262144},
    // tiiuae/Falcon-H1-7B-Base and -Instruct 262144 (the card's 256K).
    {"falcon-h1-7b", 262144},
};

// Checkpoint dtypes: torch_dtype in each model's config.json, as "bf16", "fp16" or "fp32"
// (tests/fixtures/hf holds 19 of these configs). Only a dtype found stated for that
// very checkpoint is listed (docs/models.md names where); the others stay unknown (empty), and the
// 2-byte float choices keep what they were (follow_checkpoint_dtype).
struct CheckpointDtype {
    const char* id;
    const char* dtype;
};
constexpr CheckpointDtype kCheckpointDtypes[] = {
    // meta-llama/Llama-2-7b-hf, -13b-hf, -70b-hf "float16".
    {"llama-2-7b", "fp16"}, {"llama-2-13b", "fp16"}, {"llama-2-70b", "fp16"},
    // meta-llama/Meta-Llama-3-8B, Llama-3.1-8B, Meta-Llama-3.1-405B, Llama-3.2-1B "bfloat16".
    {"llama-3-8b", "bf16"}, {"llama-3.1-8b", "bf16"}, {"llama-3.1-405b", "bf16"}, {"llama-3.2-1b", "bf16"},
    // mistralai/Mistral-7B-v0.1 and Mixtral-8x7B-v0.1 "bfloat16".
    {"mistral-7b-v0.1", "bf16"}, {"mixtral-8x7b", "bf16"},
    // Qwen/Qwen2.5-7B, Qwen3-0.6B, Qwen3-8B and Qwen3-30B-A3B "bfloat16".
    {"qwen2.5-7b", "bf16"}, {"qwen3-0.6b", "bf16"}, {"qwen3-8b", "bf16"}, {"qwen3-30b-a3b", "bf16"},
    // google/gemma-2-2b and gemma-2-9b "float32"; gemma-3-1b-pt and gemma-3-4b-it "bfloat16".
    {"gemma-2-2b", "fp32"}, {"gemma-2-9b", "fp32"}, {"gemma-3-1b", "bf16"}, {"gemma-3-4b", "bf16"},
    // microsoft/phi-4 and Phi-3-mini-4k-instruct "bfloat16"; microsoft/phi-2 "float16".
    {"phi-4", "bf16"}, {"phi-3-mini", "bf16"}, {"phi-2", "fp16"},
    // tiiuae/falcon-7b "bfloat16".
    {"falcon-7b", "bf16"},
    // deepseek-ai/DeepSeek-V3 and DeepSeek-V2 "bfloat16" (V3 stores FP8 weights; quantization_config says so).
    {"deepseek-v3", "bf16"}, {"deepseek-v2", "bf16"},
    // bigcode/starcoder "float32". GPT-2 XL, BERT-large and gpt-oss-20b state none.
    {"starcoder", "fp32"},
    // Copies that keep the checkpoint's config whole: Qwen/Qwen3-4B (4.51.2), Qwen3-14B and Qwen3-32B (4.51.0),
    // Qwen2.5-3B (4.40.1), Qwen2.5-14B and 32B (4.43.1), meta-llama/Llama-3.2-3B (4.45.0.dev0) "bfloat16"
    // (citsjtu2020/LLM-Prof@8434c8d:sglang/Model_Config.md); meta-llama/Llama-4-Maverick-17B-128E-Instruct
    // "bfloat16" (4.51.0.dev0; NVIDIA/TensorRT-LLM@b35ac1b:tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py).
    {"qwen3-4b", "bf16"}, {"qwen3-14b", "bf16"}, {"qwen3-32b", "bf16"}, {"qwen2.5-3b", "bf16"}, {"qwen2.5-14b", "bf16"},
    {"qwen2.5-32b", "bf16"}, {"llama-3.2-3b", "bf16"}, {"llama-4-maverick", "bf16"},
    // The Hub's config.json of each (huggingface.co/ID/blob/main/config.json) "bfloat16": meta-llama/Llama-3.3-70B-Instruct,
    // Llama-4-Scout-17B-16E-Instruct; mistralai/Mistral-Nemo-Instruct-2407, Mistral-Small-3.1-24B-Instruct-2503;
    // Qwen/Qwen3-1.7B, Qwen3-235B-A22B; google/gemma-3-12b-it, gemma-3-27b-it; microsoft/Phi-4-mini-instruct;
    // deepseek-ai/DeepSeek-R1 and moonshotai/Kimi-K2-Instruct (both store FP8 weights: quantization_config).
    {"llama-3.3-70b", "bf16"}, {"llama-4-scout", "bf16"}, {"mistral-nemo-12b", "bf16"}, {"mistral-small-24b", "bf16"},
    {"qwen3-1.7b", "bf16"}, {"qwen3-235b-a22b", "bf16"}, {"gemma-3-12b", "bf16"}, {"gemma-3-27b", "bf16"},
    {"phi-4-mini", "bf16"}, {"deepseek-r1", "bf16"}, {"kimi-k2", "bf16"},
    // The hybrids' config.json "bfloat16": Qwen3-Next-80B-A3B-Instruct, granite-4.0-h-small, NVIDIA-Nemotron-Nano-9B-v2.
    {"qwen3-next-80b-a3b", "bf16"}, {"granite-4.0-h-small", "bf16"}, {"nemotron-nano-9b-v2", "bf16"},
    // zai-org/GLM-4.5-Air (fixture), GLM-4.5, GLM-4.6 "bfloat16"; MiniMaxAI/MiniMax-M2 "bfloat16" (its weights FP8:
    // quantization_config says so, as DeepSeek-V3's).
    {"glm-4.5-air", "bf16"}, {"glm-4.5", "bf16"}, {"glm-4.6", "bf16"}, {"minimax-m2", "bf16"},
    // NVIDIA-Nemotron-3-Nano-30B-A3B-BF16's config.json "bfloat16".
    {"nemotron-3-nano-30b-a3b", "bf16"},
    // LiquidAI/LFM2-1.2B's config.json "bfloat16".
    {"lfm2-1.2b", "bf16"},
    // deepseek-ai/DeepSeek-V3.2(-Exp)'s config.json "bfloat16" (its weights FP8: quantization_config, as DeepSeek-V3's).
    {"deepseek-v3.2", "bf16"},
    // ai21labs/Jamba-v0.1's config.json "bfloat16".
    {"jamba-v0.1", "bf16"},
};

// Checkpoint formats: the weights' own format where the published checkpoint is quantized (its
// config.json quantization_config), which serving loads where no weights are given
// (follow_checkpoint_format). The unquantized ones stay empty.
constexpr CheckpointDtype kCheckpointFormats[] = {
    // deepseek-ai/DeepSeek-V3, DeepSeek-R1, moonshotai/Kimi-K2-Instruct, MiniMaxAI/MiniMax-M2: quantization_config
    // {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]} (FP8 weights, an FP32 weight_scale_inv per
    // 128 x 128 tile; embeddings, norms, routers and the LM head BF16): DeepSeek-V3's README "FP8 weights".
    {"deepseek-v3", "fp8-block"}, {"deepseek-r1", "fp8-block"}, {"kimi-k2", "fp8-block"}, {"minimax-m2", "fp8-block"},
    // openai/gpt-oss-120b and gpt-oss-20b: quantization_config {"quant_method": "mxfp4", "modules_to_not_convert": attention,
    // router, embeddings, LM head}: the MoE experts' weights in MXFP4, the rest BF16 (OpenAI's model card, "MXFP4
    // quantization of the MoE weights"; vLLM reads the experts as mxfp4, core/serve/inference.cpp).
    {"gpt-oss-120b", "mxfp4"}, {"gpt-oss-20b", "mxfp4"},
    // deepseek-ai/DeepSeek-V3.2-Exp: DeepSeek-V3's quantization_config (fp8, weight_block_size [128, 128]).
    {"deepseek-v3.2", "fp8-block"},
};

std::vector<ModelSpec> with_context_windows(std::vector<ModelSpec> presets) {
    for (auto& m : presets)
        for (const auto& w : kContextWindows)
            if (m.id == w.id) m.context_limit = w.tokens;
    return presets;
}

std::vector<ModelSpec> with_checkpoint_dtypes(std::vector<ModelSpec> presets) {
    for (auto& m : presets)
        for (const auto& d : kCheckpointDtypes)
            if (m.id == d.id) m.checkpoint_dtype = d.dtype;
    for (auto& m : presets)
        for (const auto& f : kCheckpointFormats)
            if (m.id == f.id) m.checkpoint_format = f.dtype;
    return presets;
}

}  // namespace

const std::vector<ModelSpec>& model_presets() {
    static const std::vector<ModelSpec> presets = with_checkpoint_dtypes(with_context_windows(build_presets()));
    return presets;
}

const ModelSpec* find_preset(const std::string& id) {
    for (const auto& m : model_presets())
        if (m.id == id) return &m;
    return nullptr;
}

std::string preset_suggestion(const std::string& id) { return did_you_mean_id(id, model_presets()); }

}  // namespace vc
