// vramcalc core: weight formats. The bytes of a model's weights in a format, tensor by tensor.
//
// [SECTIONS]
//   formats    the format table (element bits, shared scales, sources)
//   gguf       ggml block layouts, llama.cpp file types and llama.cpp's per-tensor type rules
//   tensors    the weight matrices of a ModelSpec, with their roles and shapes
//   bytes      summing a model in a format, per component, per layer and per GPU
#include "core/quant/quant.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/stable_sort.hpp"
#include "core/text.hpp"

namespace vc {

// [SECTION] formats -------------------------------------------------------------------------------
namespace {

// Named layout constants (docs/inference.md, "Weight formats").
constexpr double kFp32ScaleBits = 32;   // an FP32 scale (per tensor / row / block)
constexpr double kFp16ScaleBits = 16;   // an FP16 / BF16 scale
constexpr double kE8M0ScaleBits = 8;    // OCP MX shared exponent (E8M0)
constexpr double kE4M3ScaleBits = 8;    // NVFP4 block scale (FP8 E4M3)
constexpr int kBnbBlock = 64;           // bitsandbytes 4-bit blocksize (QLoRA paper, bnb default)
constexpr double kBnbDqBlockBits = 8 + 32.0 / 256;  // double quant: 8-bit absmax + FP32 scale per 256 absmax
constexpr int kMxBlock = 32;            // OCP Microscaling spec v1.0: 32 elements share one E8M0 scale
constexpr int kNvfp4Block = 16;         // NVIDIA NVFP4: 16 elements share one E4M3 scale
constexpr int kFp8Tile = 128;           // DeepSeek-V3 FP8: one FP32 scale per 128 x 128 weight tile
constexpr double kGIdxBits = 32;        // GPTQ desc_act: an int32 group index per input column

constexpr unsigned kVllmOrHf = kEngineVllm | kEngineHf;
// Formats SGLang has a --quantization method for (sgl-project/sglang@001067f:python/sglang/srt/server_args.py
// QUANTIZATION_CHOICES: "fp8" (per-tensor and DeepSeek's block scales), "awq", "gptq", "w8a8_int8", "mxfp4",
// "modelopt_fp4", "compressed-tensors" for llm-compressor's FP8 channel scales).
constexpr unsigned kVllmSglang = kEngineVllm | kEngineSglang;
constexpr unsigned kVllmSglangHf = kVllmOrHf | kEngineSglang;

// Float and scaled formats. GroupInt entries take their group size from QuantOptions; their
// block_bits field holds the scale bits only (the zero point adds element_bits when on).
const std::vector<WeightFormat>& base_formats() {
    static const std::vector<WeightFormat> formats = {
        {"fp32", "FP32", FormatFamily::Float, 32, 0, 0, 0, 0, 0, 0, false, -1, 0, kEngineAll, "IEEE 754 single precision"},
        {"bf16", "BF16", FormatFamily::Float, 16, 0, 0, 0, 0, 0, 0, false, -1, 1, kEngineAll, "bfloat16, 2 bytes"},
        {"fp16", "FP16", FormatFamily::Float, 16, 0, 0, 0, 0, 0, 0, false, -1, 1, kEngineAll, "IEEE 754 half precision, 2 bytes"},
        {"fp8-block", "FP8 E4M3, 128x128 block scales", FormatFamily::Scaled, 8, 0, 0, 0, 0, kFp8Tile, kFp32ScaleBits, true, -1, 2,
         kVllmSglang | kEngineHf, "DeepSeek-V3 checkpoint: e4m3 weights, weight_scale_inv FP32 per 128x128 tile"},
        {"fp8-channel", "FP8 E4M3, per-channel scales", FormatFamily::Scaled, 8, 0, 0, kFp32ScaleBits, 0, 0, 0, true, -1, 3,
         kVllmSglang, "llm-compressor FP8 (channel strategy): FP32 weight_scale per output row; lm_head kept"},
        {"fp8", "FP8 E4M3, per-tensor scale", FormatFamily::Scaled, 8, 0, 0, 0, kFp32ScaleBits, 0, 0, true, -1, 4, kVllmSglang,
         "vLLM FP8 / llm-compressor FP8 (tensor strategy): one FP32 weight_scale per tensor; lm_head kept"},
        {"w8a8", "INT8 W8A8 (SmoothQuant)", FormatFamily::Scaled, 8, 0, 0, kFp32ScaleBits, 0, 0, 0, true, -1, 5, kVllmSglang,
         "compressed-tensors INT8 W8A8: per-channel FP32 weight scales; lm_head kept"},
        {"int8", "INT8 weight-only (W8A16)", FormatFamily::Scaled, 8, 0, 0, kFp16ScaleBits, 0, 0, 0, true, -1, 5, kVllmOrHf,
         "torchao / compressed-tensors int8 weight-only: per-channel 16-bit scales"},
        {"bnb-int8", "bitsandbytes LLM.int8()", FormatFamily::Scaled, 8, 0, 0, kFp32ScaleBits, 0, 0, 0, true, -1, 6, kVllmOrHf,
         "bitsandbytes Int8Params: int8 CB + FP32 SCB per output row; transformers skips lm_head"},
        {"gptq-int8", "GPTQ INT8", FormatFamily::GroupInt, 8, 0, kFp16ScaleBits, 0, 0, 0, 0, true, -1, 6, kVllmSglangHf,
         "AutoGPTQ packing: qweight int32, qzeros int32, FP16 scales per group"},
        {"nvfp4", "NVFP4 (FP4 E2M1, E4M3 per 16)", FormatFamily::Scaled, 4, kNvfp4Block, kE4M3ScaleBits, 0, kFp32ScaleBits, 0, 0,
         true, -1, 11, kVllmSglang, "NVIDIA NVFP4: E2M1 elements, one E4M3 scale per 16, one FP32 scale per tensor"},
        {"awq-int4", "AWQ INT4", FormatFamily::GroupInt, 4, 0, kFp16ScaleBits, 0, 0, 0, 0, true, -1, 12, kVllmSglangHf,
         "AutoAWQ GEMM packing: qweight int32 [in, out/8], qzeros int32 [in/g, out/8], FP16 scales [in/g, out]"},
        {"gptq-int4", "GPTQ INT4", FormatFamily::GroupInt, 4, 0, kFp16ScaleBits, 0, 0, 0, 0, true, -1, 12, kVllmSglangHf,
         "AutoGPTQ packing: qweight int32 [in/8, out], qzeros int32 [in/g, out/8], FP16 scales [in/g, out]"},
        {"bnb-nf4-dq", "bitsandbytes NF4 + double quant", FormatFamily::Scaled, 4, kBnbBlock, kBnbDqBlockBits, 0, 0, 0, 0, true, -1,
         13, kVllmOrHf, "QLoRA paper sec. 3: 4 bits + 8/64 + 32/(64 x 256) = 4.127 bits"},
        {"bnb-nf4", "bitsandbytes NF4", FormatFamily::Scaled, 4, kBnbBlock, kFp32ScaleBits, 0, 0, 0, 0, true, -1, 13, kVllmOrHf,
         "QLoRA paper sec. 3: 4 bits + FP32 absmax per 64 = 4.5 bits"},
        {"mxfp4", "MXFP4 (FP4 E2M1, E8M0 per 32)", FormatFamily::Scaled, 4, kMxBlock, kE8M0ScaleBits, 0, 0, 0, 0, true, -1, 14,
         kVllmSglang | kEngineLlamaCpp | kEngineHf, "OCP Microscaling v1.0: E2M1 elements, one E8M0 scale per 32 = 4.25 bits"},
        {"bnb-fp4-dq", "bitsandbytes FP4 + double quant", FormatFamily::Scaled, 4, kBnbBlock, kBnbDqBlockBits, 0, 0, 0, 0, true, -1,
         16, kEngineHf, "bitsandbytes FP4 with double quantization, as NF4"},
        {"bnb-fp4", "bitsandbytes FP4", FormatFamily::Scaled, 4, kBnbBlock, kFp32ScaleBits, 0, 0, 0, 0, true, -1, 16, kEngineHf,
         "bitsandbytes FP4: 4 bits + FP32 absmax per 64 (transformers' load_in_4bit default quant type)"},
        {"gptq-int3", "GPTQ INT3", FormatFamily::GroupInt, 3, 0, kFp16ScaleBits, 0, 0, 0, 0, true, -1, 20, kVllmOrHf,
         "AutoGPTQ 3-bit packing: as INT4 with 3-bit values and zero points"},
        {"gptq-int2", "GPTQ INT2", FormatFamily::GroupInt, 2, 0, kFp16ScaleBits, 0, 0, 0, 0, true, -1, 30, kVllmOrHf,
         "AutoGPTQ 2-bit packing"},
    };
    return formats;
}

}  // namespace

// [SECTION] gguf ----------------------------------------------------------------------------------
namespace {

// ggml tensor types. Block layouts from ggml-common.h (block_q4_K: d, dmin, scales[12], qs[128] =
// 144 bytes per 256 weights, and so on); docs/inference.md lists each struct.
enum G : int {
    F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K,
    IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M, IQ4_NL, IQ4_XS, TQ1_0, TQ2_0, MXFP4
};

// llama.cpp file types (llama.h LLAMA_FTYPE_MOSTLY_*).
enum Ft : int {
    FT_F32, FT_F16, FT_BF16, FT_Q8_0, FT_Q6_K, FT_Q5_K_M, FT_Q5_K_S, FT_Q5_1, FT_Q5_0, FT_Q4_K_M, FT_Q4_K_S, FT_IQ4_XS,
    FT_IQ4_NL, FT_Q4_1, FT_Q4_0, FT_Q3_K_L, FT_IQ3_M, FT_Q3_K_M, FT_IQ3_S, FT_Q3_K_S, FT_IQ3_XS, FT_IQ3_XXS, FT_Q2_K,
    FT_Q2_K_S, FT_IQ2_M, FT_IQ2_S, FT_IQ2_XS, FT_IQ2_XXS, FT_TQ2_0, FT_IQ1_M, FT_TQ1_0, FT_IQ1_S, FT_MXFP4_MOE
};


}  // namespace

const std::vector<GgmlType>& ggml_types() {
    static const std::vector<GgmlType> types = {
        {"F32", 1, 4},        {"F16", 1, 2},        {"BF16", 1, 2},       {"Q4_0", 32, 18},    {"Q4_1", 32, 20},
        {"Q5_0", 32, 22},     {"Q5_1", 32, 24},     {"Q8_0", 32, 34},     {"Q2_K", 256, 84},   {"Q3_K", 256, 110},
        {"Q4_K", 256, 144},   {"Q5_K", 256, 176},   {"Q6_K", 256, 210},   {"IQ2_XXS", 256, 66}, {"IQ2_XS", 256, 74},
        {"IQ2_S", 256, 82},   {"IQ3_XXS", 256, 98}, {"IQ3_S", 256, 110},  {"IQ1_S", 256, 50},  {"IQ1_M", 256, 56},
        {"IQ4_NL", 32, 18},   {"IQ4_XS", 256, 136}, {"TQ1_0", 256, 54},   {"TQ2_0", 256, 66},
        {"MXFP4", 32, 17},  // block_mxfp4: an E8M0 exponent + 16 bytes of 32 E2M1 values
    };
    return types;
}

double ggml_bits_per_weight(int type) {
    const auto& t = ggml_types()[static_cast<size_t>(type)];
    return 8.0 * t.block_bytes / t.block;
}

const std::vector<GgufFtype>& gguf_ftypes() {
    // Order matches enum Ft. Default types per llama-quantize (llama_model_quantize_impl); quality
    // ranks follow the perplexity column of llama.cpp's quantize README (lower is better) and
    // interleave with the other formats' ranks.
    static const std::vector<GgufFtype> ftypes = {
        {"F32", "gguf-f32", "GGUF F32", F32, 0},          {"F16", "gguf-f16", "GGUF F16", F16, 1},
        {"BF16", "gguf-bf16", "GGUF BF16", BF16, 1},      {"Q8_0", "q8_0", "GGUF Q8_0", Q8_0, 5},
        {"Q6_K", "q6_k", "GGUF Q6_K", Q6_K, 7},           {"Q5_K_M", "q5_k_m", "GGUF Q5_K_M", Q5_K, 8},
        {"Q5_K_S", "q5_k_s", "GGUF Q5_K_S", Q5_K, 9},     {"Q5_1", "q5_1", "GGUF Q5_1", Q5_1, 10},
        {"Q5_0", "q5_0", "GGUF Q5_0", Q5_0, 10},          {"Q4_K_M", "q4_k_m", "GGUF Q4_K_M", Q4_K, 12},
        {"Q4_K_S", "q4_k_s", "GGUF Q4_K_S", Q4_K, 13},    {"IQ4_XS", "iq4_xs", "GGUF IQ4_XS", IQ4_XS, 13},
        {"IQ4_NL", "iq4_nl", "GGUF IQ4_NL", IQ4_NL, 14},  {"Q4_1", "q4_1", "GGUF Q4_1", Q4_1, 15},
        {"Q4_0", "q4_0", "GGUF Q4_0", Q4_0, 16},          {"Q3_K_L", "q3_k_l", "GGUF Q3_K_L", Q3_K, 17},
        {"IQ3_M", "iq3_m", "GGUF IQ3_M", IQ3_S, 18},      {"Q3_K_M", "q3_k_m", "GGUF Q3_K_M", Q3_K, 19},
        {"IQ3_S", "iq3_s", "GGUF IQ3_S", IQ3_S, 20},      {"Q3_K_S", "q3_k_s", "GGUF Q3_K_S", Q3_K, 21},
        {"IQ3_XS", "iq3_xs", "GGUF IQ3_XS", IQ3_S, 22},   {"IQ3_XXS", "iq3_xxs", "GGUF IQ3_XXS", IQ3_XXS, 23},
        {"Q2_K", "q2_k", "GGUF Q2_K", Q2_K, 24},          {"Q2_K_S", "q2_k_s", "GGUF Q2_K_S", Q2_K, 25},
        {"IQ2_M", "iq2_m", "GGUF IQ2_M", IQ2_S, 26},      {"IQ2_S", "iq2_s", "GGUF IQ2_S", IQ2_XS, 27},
        {"IQ2_XS", "iq2_xs", "GGUF IQ2_XS", IQ2_XS, 28},  {"IQ2_XXS", "iq2_xxs", "GGUF IQ2_XXS", IQ2_XXS, 29},
        {"TQ2_0", "tq2_0", "GGUF TQ2_0", TQ2_0, 30},      {"IQ1_M", "iq1_m", "GGUF IQ1_M", IQ1_M, 31},
        {"TQ1_0", "tq1_0", "GGUF TQ1_0", TQ1_0, 32},      {"IQ1_S", "iq1_s", "GGUF IQ1_S", IQ1_S, 33},
        // LLAMA_FTYPE_MOSTLY_MXFP4_MOE, the file type of llama.cpp's gpt-oss GGUFs: its config name is
        // the base format "mxfp4" (the same weights as vLLM loads them), so it adds no format of its own.
        {"MXFP4_MOE", "mxfp4", "GGUF MXFP4_MOE", MXFP4, 14},
    };
    return ftypes;
}

const std::vector<WeightFormat>& weight_formats() {
    static const std::vector<WeightFormat> all = [] {
        std::vector<WeightFormat> v = base_formats();
        const auto& ft = gguf_ftypes();
        for (size_t i = 0; i < ft.size(); ++i) {
            // A file type named as a base format (MXFP4_MOE: "mxfp4") is that format's GGUF file:
            // the format keeps its family and prices a llama.cpp file by this type's rules.
            auto same = std::find_if(v.begin(), v.end(), [&](const WeightFormat& w) { return std::strcmp(w.id, ft[i].id) == 0; });
            if (same != v.end()) {
                same->gguf_ftype = static_cast<int>(i);
                continue;
            }
            v.push_back({ft[i].id, ft[i].label, FormatFamily::Gguf, ggml_bits_per_weight(ft[i].default_type), 0, 0, 0, 0, 0, 0, true,
                         static_cast<int>(i), ft[i].quality, kEngineLlamaCpp,
                         "llama.cpp llama-quantize: per-tensor types by llama_tensor_get_type"});
        }
        stable_sort_by(v, [](const WeightFormat& a, const WeightFormat& b) {
            if (a.quality != b.quality) return a.quality < b.quality;
            return a.element_bits > b.element_bits;
        });
        return v;
    }();
    return all;
}

const std::vector<WeightFormatAlias>& weight_format_aliases() {
    // bitsandbytes' own names (BitsAndBytesConfig bnb_4bit_quant_type "nf4" / "fp4", "LLM.int8()"),
    // the method names of vllm serve --quantization and of optimum's configs ("awq", "gptq": 4 bits
    // unless the name says otherwise), the "-bnb" suffixes of model repositories' names. Not "fp4"
    // (bitsandbytes' FP4, NVFP4 or MXFP4?) nor "int4" / "int8" (GPTQ, AWQ, W8A8 or bitsandbytes?).
    static const std::vector<WeightFormatAlias> all = {
        {"nf4", "bnb-nf4"},      {"nf4-bnb", "bnb-nf4"},   {"nf4-dq", "bnb-nf4-dq"},  {"fp4-bnb", "bnb-fp4"},
        {"int8-bnb", "bnb-int8"},  {"llm.int8", "bnb-int8"},
        {"llm.int8()", "bnb-int8"}, {"awq", "awq-int4"},   {"awq-4bit", "awq-int4"},  {"gptq", "gptq-int4"},
        {"gptq-4bit", "gptq-int4"}, {"gptq-8bit", "gptq-int8"}, {"gptq-3bit", "gptq-int3"}, {"gptq-2bit", "gptq-int2"},
    };
    return all;
}

bool checkpoint_quantization(const WeightFormat& f) { return f.family != FormatFamily::Float && f.family != FormatFamily::Gguf; }

bool ternary_only(const WeightFormat& f) {
    return f.family == FormatFamily::Gguf && f.gguf_ftype >= 0 &&
           (gguf_ftypes()[static_cast<size_t>(f.gguf_ftype)].default_type == TQ1_0 ||
            gguf_ftypes()[static_cast<size_t>(f.gguf_ftype)].default_type == TQ2_0);
}

std::string canonical_weight_format(const std::string& id) {
    const WeightFormat* f = find_weight_format(id);
    return f ? f->id : id;
}

const WeightFormat* find_weight_format(const std::string& id_in) {
    std::string id = ascii_lower(id_in);
    for (const auto& a : weight_format_aliases())
        if (id == a.name) id = a.id;
    for (const auto& f : weight_formats())
        if (id == f.id) return &f;
    // GGUF file types also by their llama-quantize name with a "gguf-" prefix, and "f16"/"f32".
    const std::string bare = id.rfind("gguf-", 0) == 0 ? id.substr(5) : id;
    for (const auto& f : weight_formats())
        if (f.family == FormatFamily::Gguf && (bare == f.id || "gguf-" + bare == f.id)) return &f;
    return nullptr;
}

// [SECTION] tensors -------------------------------------------------------------------------------
namespace {

enum class Role {
    TokenEmbd, PosEmbd, Output,
    AttnQ, AttnK, AttnV, AttnQkv, AttnOut, AttnQA, AttnQB, AttnKvA, AttnKvB, AttnKB, AttnVB,
    FfnGate, FfnUp, FfnDown, ExpGate, ExpUp, ExpDown, ShGate, ShUp, ShDown, Router,
    SsmIn, SsmOut,  // a hybrid's recurrent mixer: in/out projections (conv and gate vectors are 1-D: "other")
    IdxQB, IdxK, IdxProj  // DeepSeek-V3.2's lightning indexer: wq_b, wk, weights_proj (k_norm is 1-D: "other")
};

struct Tensor {
    Role role;
    int layer;     // -1 for embeddings and the head
    double rows;   // output features (ggml ne[1])
    double cols;   // input features (ggml ne[0], the quantized row length)
    double count;  // stacked copies (experts)
};

bool is_expert(Role r) { return r >= Role::ExpGate && r <= Role::ShDown; }
bool is_routed(Role r) { return r >= Role::ExpGate && r <= Role::ExpDown; }

// Which GGUF files store q, k, v as one attn_qkv tensor (convert_hf_to_gguf keeps the checkpoint's
// fused projection): GPT-style blocks (LayerNorm + plain GELU, no token types: gpt2's c_attn,
// starcoder, falcon's query_key_value) and Phi-3 (qkv_proj). phi-2 stores them apart.
bool fused_qkv(const ModelSpec& m) {
    if (m.family == "Phi") return m.mlp != MlpKind::Gelu;
    return m.norm == NormKind::LayerNorm && m.mlp == MlpKind::Gelu && m.type_vocab == 0;
}

// llama.cpp's LLM_ARCH_FALCON: one LayerNorm before a parallel block, plain GELU, no biases.
bool falcon_like(const ModelSpec& m) {
    return m.norm == NormKind::LayerNorm && m.norms_per_layer == 1 && m.mlp == MlpKind::Gelu && !m.attn_bias && !m.mlp_bias;
}

// The weight matrices of `m` in file order. `fuse` writes q, k, v as one attn_qkv tensor; `gguf`
// writes MLA's kv_b as llama.cpp's GGUF does, split into the 3-D attn_k_b and attn_v_b.
std::vector<Tensor> weight_tensors(const ModelSpec& m, bool fuse, bool gguf = false) {
    std::vector<Tensor> t;
    t.reserve(static_cast<size_t>(m.layers) * 12 + 4);
    const double h = m.hidden, a = m.heads, kv = m.kv_heads, hd = m.head_dim;
    t.push_back({Role::TokenEmbd, -1, static_cast<double>(m.vocab), h, 1});
    if (m.max_position > 0) t.push_back({Role::PosEmbd, -1, static_cast<double>(m.max_position), h, 1});
    if (m.type_vocab > 0) t.push_back({Role::PosEmbd, -1, static_cast<double>(m.type_vocab), h, 1});
    const bool gated = m.mlp != MlpKind::Gelu;
    for (int i = 0; i < m.layers; ++i) {
        if (is_recurrent_layer(m, i)) {
            // The mixer's in projection (GDN: in_proj_qkvz with in_proj_ba's 2 x heads rows; Mamba2: z, x, B, C, dt)
            // and out projection; model_params' recurrent_params has the same rows.
            const double heads = m.ssm_heads, inner = heads * m.ssm_head_dim, key = static_cast<double>(m.ssm_groups) * m.ssm_state;
            const bool short_conv = m.recurrent == RecurrentKind::ShortConv;  // LFM2: in_proj 3h, out_proj h x h
            const bool mamba1 = m.recurrent == RecurrentKind::Mamba1;         // Jamba: in_proj x and z, then x_proj and dt_proj
            const double in_rows = short_conv                                        ? 3 * h
                                   : mamba1                                          ? 2 * inner
                                   : m.recurrent == RecurrentKind::GatedDeltaNet ? 2 * key + 2 * inner + 2 * heads
                                                                                 : 2 * inner + 2 * key + heads;
            t.push_back({Role::SsmIn, i, in_rows, h, 1});
            if (mamba1) {
                // ssm_x {d_inner, dt_rank + 2 d_state} and ssm_dt {dt_rank, d_inner}: 2-D, quantized like the projections
                // (llama-quant keeps ssm_conv1d alone unquantized among a Mamba's matrices).
                t.push_back({Role::SsmIn, i, static_cast<double>(m.ssm_dt_rank) + 2.0 * m.ssm_state, inner, 1});
                t.push_back({Role::SsmIn, i, inner, static_cast<double>(m.ssm_dt_rank), 1});
            }
            t.push_back({Role::SsmOut, i, h, short_conv ? h : inner, 1});
        }
        if (!has_attention(m, i)) {
            // a recurrent or MLP-only layer of a hybrid: no attention tensors
        } else if (m.kv_lora_rank > 0) {
            const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
            if (m.q_lora_rank > 0) {
                t.push_back({Role::AttnQA, i, static_cast<double>(m.q_lora_rank), h, 1});
                t.push_back({Role::AttnQB, i, a * qk, static_cast<double>(m.q_lora_rank), 1});
            } else {
                t.push_back({Role::AttnQ, i, a * qk, h, 1});
            }
            t.push_back({Role::AttnKvA, i, static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim), h, 1});
            if (gguf) {
                // convert_hf_to_gguf.py (ggml-org/llama.cpp@a458664, DeepseekV2Model.modify_tensors: "MLA with the absorption
                // optimization, needs these two split and k_b_proj transposed") writes kv_b as attn_k_b {qk_nope, kv_lora_rank,
                // n_head} and attn_v_b {kv_lora_rank, v_head, n_head} (ggml ne order: the row length first), which llama.cpp
                // loads (src/llama-model.cpp DEEPSEEK2 wk_b / wv_b: "only old legacy GGUF files will have the unsplit wkv_b").
                // attn_k_b's rows are qk_nope_head_dim (128) long.
                t.push_back({Role::AttnKB, i, static_cast<double>(m.kv_lora_rank), static_cast<double>(m.qk_nope_head_dim), a});
                t.push_back({Role::AttnVB, i, static_cast<double>(m.v_head_dim), static_cast<double>(m.kv_lora_rank), a});
            } else {
                t.push_back({Role::AttnKvB, i, a * (m.qk_nope_head_dim + m.v_head_dim), static_cast<double>(m.kv_lora_rank), 1});
            }
            t.push_back({Role::AttnOut, i, h, a * m.v_head_dim, 1});
            if (m.index_head_dim > 0) {
                // The lightning indexer's matrices (model_params' indexer_params has the same rows; llama.cpp's GGUF names them
                // blk.N.indexer.attn_q_b, indexer.attn_k and indexer.proj: src/llama-model.cpp LLM_TENSOR_INDEXER_*).
                t.push_back({Role::IdxQB, i, static_cast<double>(m.index_heads) * m.index_head_dim, static_cast<double>(m.q_lora_rank), 1});
                t.push_back({Role::IdxK, i, static_cast<double>(m.index_head_dim), h, 1});
                t.push_back({Role::IdxProj, i, static_cast<double>(m.index_heads), h, 1});
            }
        } else if (fuse) {
            t.push_back({Role::AttnQkv, i, (a + 2 * kv) * hd, h, 1});
            t.push_back({Role::AttnOut, i, h, a * hd, 1});
        } else {
            t.push_back({Role::AttnQ, i, (m.attn_gate ? 2 : 1) * a * hd, h, 1});
            t.push_back({Role::AttnK, i, kv * hd, h, 1});
            t.push_back({Role::AttnV, i, kv * hd, h, 1});
            t.push_back({Role::AttnOut, i, h, a * hd, 1});
        }
        const bool moe = is_moe_layer(m, i);
        if (!has_mlp(m, i)) {
            // Nemotron-H's mixer-only layers: no MLP tensors
        } else if (!moe) {
            if (gated) t.push_back({Role::FfnGate, i, static_cast<double>(m.ffn), h, 1});
            t.push_back({Role::FfnUp, i, static_cast<double>(m.ffn), h, 1});
            t.push_back({Role::FfnDown, i, h, static_cast<double>(m.ffn), 1});
        } else {
            const double e = m.experts, f = m.expert_ffn;
            t.push_back({Role::Router, i, e, h, 1});
            if (gated) t.push_back({Role::ExpGate, i, f, h, e});
            t.push_back({Role::ExpUp, i, f, h, e});
            t.push_back({Role::ExpDown, i, h, f, e});
            if (m.shared_experts > 0) {
                const double s = m.shared_experts;
                if (gated) t.push_back({Role::ShGate, i, f, h, s});
                t.push_back({Role::ShUp, i, f, h, s});
                t.push_back({Role::ShDown, i, h, f, s});
            }
        }
    }
    if (!m.tied_embeddings) t.push_back({Role::Output, -1, static_cast<double>(m.vocab), h, 1});
    return t;
}

// llama.cpp's use_more_bits(): the first and last eighth of the layers and every third one between.
bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

constexpr int kNoGgufFallback = -1;  // gguf_tensor_type: llama-quantize stops on this tensor

struct GgufContext {
    int ftype;
    int n_layer;
    int n_gqa;
    int n_expert;
    bool has_output;
    bool imatrix;
    bool falcon;
    bool is_70b;
};

// The type llama_tensor_get_type() picks (llama.cpp src/llama-quant.cpp), for the tensors and
// file types modelled here. The layer (i_layer, n_layer) the rules read is the tensor's own layer
// index and the model's layer count (ggml-org/llama.cpp@007dbbf:src/llama-quant.cpp): for a MoE
// model (n_expert > 1) layer_info parses it from the name ("blk.%d.") and init_quantize_state_counters
// sets n_ffn_down = n_layer_all, so ffn_down (DeepSeek's dense first layers, Llama-4's dense
// layers), ffn_down_exps and ffn_down_shexp of layer i all read i of n, however many ffn_down-like
// tensors the model has; for a dense model the counter i_ffn_down counts one ffn_down per layer.
// i_attention_wv counts attn_v / attn_qkv / attn_kv_b tensors in the loader's order (weights_map
// sorted by layer), one per layer; MLA's attn_k_b and attn_v_b are none of these (category OTHER).
int gguf_tensor_type(const GgufContext& c, const Tensor& t, int* wanted = nullptr) {
    const int ft = c.ftype;
    int type = gguf_ftypes()[static_cast<size_t>(ft)].default_type;
    const int i = t.layer, n = c.n_layer;
    const bool iq2_group = ft == FT_IQ2_XXS || ft == FT_IQ2_XS || ft == FT_IQ1_S || ft == FT_IQ2_S || ft == FT_IQ2_M || ft == FT_IQ1_M;
    const bool is_output = t.role == Role::Output || (!c.has_output && t.role == Role::TokenEmbd);
    const bool down = t.role == Role::FfnDown || t.role == Role::ExpDown || t.role == Role::ShDown;
    const bool gate = t.role == Role::FfnGate || t.role == Role::ExpGate || t.role == Role::ShGate;
    const bool up = t.role == Role::FfnUp || t.role == Role::ExpUp || t.role == Role::ShUp;

    if (is_output) {
        if (ft == FT_MXFP4_MOE || c.falcon || static_cast<long long>(t.cols) % ggml_types()[static_cast<size_t>(type)].block != 0) type = Q8_0;
        else if (ft == FT_IQ2_XXS || ft == FT_IQ2_XS || ft == FT_IQ3_XXS || ft == FT_IQ1_S || ft == FT_IQ2_S || ft == FT_IQ2_M ||
                 ft == FT_IQ1_M)
            type = Q5_K;
        else if (type != Q8_0) type = Q6_K;
    } else if (ft == FT_MXFP4_MOE) {
        // "MoE tensors -> MXFP4, other tensors -> Q8_0" (ggml-org/llama.cpp@007dbbf:src/llama-quant.cpp,
        // llama_tensor_get_type_impl): MXFP4 for the 3-D tensors (ne[2] > 1), which are the routed
        // experts and MLA's kv_b; token_embd, attention, dense FFNs and the shared experts are 2-D.
        // MLA's kv_b is 3-D in the file: convert_hf_to_gguf splits it into attn_k_b {qk_nope,
        // kv_lora_rank, n_head} and attn_v_b {kv_lora_rank, v_head, n_head} (ggml-org/llama.cpp@007dbbf:
        // src/llama-model.cpp, LLM_ARCH_DEEPSEEK2 create_tensor wk_b / wv_b: "only old legacy GGUF files
        // will have the unsplit wkv_b tensor"), and the rule excepts only BailingMoE3's ("MLA projection
        // tensors are also 3D, so match expert tensor roles explicitly"). Both row lengths, 128 and 512,
        // are whole MXFP4 blocks of 32.
        type = is_routed(t.role) || t.role == Role::AttnKB || t.role == Role::AttnVB ? MXFP4 : Q8_0;
    } else if (t.role == Role::TokenEmbd) {
        if (ft == FT_IQ2_XXS || ft == FT_IQ2_XS || ft == FT_IQ1_S || ft == FT_IQ1_M) type = Q2_K;
        else if (ft == FT_IQ2_S || ft == FT_IQ2_M) type = IQ3_S;
        else if (ft == FT_IQ3_XXS) type = IQ3_S;
        else if (ft == FT_TQ1_0 || ft == FT_TQ2_0) type = Q4_K;
    } else if (iq2_group) {
        if (t.role == Role::AttnV) {
            if (c.n_gqa >= 4 || c.n_expert >= 4) type = Q4_K;
            else type = (ft == FT_IQ2_S || ft == FT_IQ2_M) ? IQ3_S : Q2_K;
        } else if (c.n_expert == 8 && t.role == Role::AttnK) {
            type = Q4_K;
        } else if (down) {
            if (i < n / 8) type = (ft == FT_IQ2_S || ft == FT_IQ2_M) ? IQ3_S : Q2_K;
        } else if (t.role == Role::AttnOut) {
            if (c.n_expert == 8) type = Q5_K;
            else if (ft == FT_IQ1_S || ft == FT_IQ1_M) type = IQ2_XXS;
            else if (ft == FT_IQ2_S || ft == FT_IQ2_M) type = IQ3_S;
        }
    } else if (t.role == Role::AttnV) {
        if (ft == FT_Q2_K) type = c.n_gqa >= 4 ? Q4_K : Q3_K;
        else if (ft == FT_Q2_K_S && c.n_gqa >= 4) type = Q4_K;
        else if (ft == FT_IQ3_XXS) type = c.n_gqa >= 4 ? Q4_K : !c.imatrix ? IQ3_S : IQ3_XXS;
        else if ((ft == FT_IQ3_XS || ft == FT_IQ3_S) && c.n_gqa >= 4) type = Q4_K;
        else if (ft == FT_IQ3_M) type = Q4_K;
        else if (ft == FT_Q3_K_M) type = i < 2 ? Q5_K : Q4_K;
        else if (ft == FT_Q3_K_L) type = Q5_K;
        else if ((ft == FT_IQ4_NL || ft == FT_IQ4_XS) && c.n_gqa >= 4) type = Q5_K;
        else if ((ft == FT_Q4_K_M || ft == FT_Q5_K_M) && use_more_bits(i, n)) type = Q6_K;
        else if (ft == FT_Q4_K_S && i < 4) type = Q5_K;
        if (c.is_70b && (type == Q3_K || type == Q4_K)) type = Q5_K;
        if (c.n_expert == 8) type = Q8_0;
    } else if (t.role == Role::AttnK) {
        // ggml-org/llama.cpp@007dbbf:src/llama-quant.cpp ATTENTION_K / ATTENTION_Q: IQ3_XS -> IQ3_XXS,
        // IQ3_XXS -> IQ2_S (IQ2_M takes the iq2 branch above and never reaches these).
        if (c.n_expert == 8) type = Q8_0;
        else if (ft == FT_IQ3_XS) type = IQ3_XXS;
        else if (ft == FT_IQ3_XXS) type = IQ2_S;
    } else if (t.role == Role::AttnQ) {
        if (ft == FT_IQ3_XS) type = IQ3_XXS;
        else if (ft == FT_IQ3_XXS) type = IQ2_S;
    } else if (down) {
        if (ft == FT_Q2_K) type = Q3_K;
        else if (ft == FT_Q2_K_S) { if (i < n / 8) type = Q4_K; }
        else if (ft == FT_IQ3_XXS && !c.imatrix) type = i < n / 8 ? Q4_K : Q3_K;
        else if (ft == FT_Q3_K_M) type = i < n / 16 ? Q5_K : (!c.falcon || use_more_bits(i, n)) ? Q4_K : Q3_K;
        else if (ft == FT_IQ3_M && (i < n / 8 || (c.n_expert == 8 && use_more_bits(i, n)))) type = Q4_K;
        else if (ft == FT_Q3_K_L) type = c.falcon ? Q4_K : Q5_K;
        else if (ft == FT_Q4_K_M) {
            if (c.falcon) type = i < n / 16 ? Q6_K : use_more_bits(i, n) ? Q5_K : Q4_K;
            else if (use_more_bits(i, n)) type = Q6_K;
        }
        else if (i < n / 8 && (ft == FT_IQ4_NL || ft == FT_IQ4_XS) && !c.imatrix) type = Q5_K;
        else if (ft == FT_Q5_K_M && use_more_bits(i, n)) type = Q6_K;
        else if (ft == FT_Q4_K_S && !c.falcon && i < n / 8) type = Q5_K;
        else if ((ft == FT_Q4_0 || ft == FT_Q5_0) && c.imatrix && i < n / 8) type = ft == FT_Q4_0 ? Q4_1 : Q5_1;
    } else if (t.role == Role::AttnOut) {
        if (!c.falcon) {
            if (c.n_expert == 8) {
                if (ft == FT_Q2_K || ft == FT_IQ3_XXS || ft == FT_Q3_K_S || ft == FT_Q3_K_M || ft == FT_IQ4_NL || ft == FT_Q4_K_S ||
                    ft == FT_Q4_K_M || ft == FT_IQ3_S || ft == FT_IQ3_M || ft == FT_IQ4_XS)
                    type = Q5_K;
            } else {
                if (ft == FT_Q2_K) type = Q3_K;
                else if (ft == FT_IQ3_XXS) type = IQ3_S;
                else if (ft == FT_Q3_K_M) type = Q4_K;
                else if (ft == FT_Q3_K_L) type = Q5_K;
                else if (ft == FT_IQ3_M) type = Q4_K;
            }
        } else if (ft == FT_Q3_K_L) {
            type = Q4_K;
        }
    } else if (t.role == Role::AttnQkv) {
        if (ft == FT_Q3_K_M || ft == FT_Q3_K_L || ft == FT_IQ3_M) type = Q4_K;
        else if (ft == FT_Q4_K_M) type = Q5_K;
        else if (ft == FT_Q5_K_M) type = Q6_K;
    } else if (gate || up) {
        if (ft == FT_IQ3_XS && i >= n / 8 && i < 7 * n / 8) type = IQ3_XXS;
    }

    // Rows that do not split into whole blocks fall back: ggml-org/llama.cpp@007dbbf:src/llama-quant.cpp
    // tensor_type_fallback, run on the type chosen above (ncols = ne[0], the row length): the 256-blocks
    // IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ4_XS -> IQ4_NL; Q2_K, Q3_K, TQ1_0, TQ2_0 ->
    // Q4_0; Q4_K -> Q5_0; Q5_K -> Q5_1; Q6_K -> Q8_0; F16 when the fallback's 32-block does not divide
    // the row either ("must use F16 due to unusual shape"). Any other type has no fallback: quantize
    // stops ("no tensor type fallback is defined for type"), kNoGgufFallback here.
    const long long cols = static_cast<long long>(t.cols);
    if (wanted) *wanted = type;
    if (cols % ggml_types()[static_cast<size_t>(type)].block != 0) {
        switch (type) {
            case IQ1_S: case IQ1_M: case IQ2_XXS: case IQ2_XS: case IQ2_S: case IQ3_XXS: case IQ3_S: case IQ4_XS: type = IQ4_NL; break;
            case Q2_K: case Q3_K: case TQ1_0: case TQ2_0: type = Q4_0; break;
            case Q4_K: type = Q5_0; break;
            case Q5_K: type = Q5_1; break;
            case Q6_K: type = Q8_0; break;
            default: return kNoGgufFallback;
        }
        if (cols % ggml_types()[static_cast<size_t>(type)].block != 0) type = F16;
    }
    return type;
}

}  // namespace

// [SECTION] bytes ---------------------------------------------------------------------------------
namespace {

// Which share of a tensor one GPU holds under tensor parallelism `tp` (vLLM's layer types):
// column/row-parallel matrices and the vocabulary-parallel embedding and head split tp ways;
// K and V split by KV head but never below one head (replicated when kv_heads < tp); MLA's
// down-projections, the router and position embeddings are replicated.
double tp_share(int heads, int kv_heads, Role r, int tp) {
    if (tp <= 1) return 1;
    switch (r) {
        case Role::PosEmbd: case Role::AttnQA: case Role::AttnKvA: case Role::Router: return 1;
        // vLLM's Indexer: "no tensor parallel, just replicated" (vllm-project/vllm@b863fe5:vllm/model_executor/models/
        // deepseek_v2.py Indexer.__init__, wq_b / wk / weights_proj ReplicatedLinear).
        case Role::IdxQB: case Role::IdxK: case Role::IdxProj: return 1;
        case Role::AttnK: case Role::AttnV: return std::max(1.0 / tp, 1.0 / kv_heads);
        case Role::AttnQkv: {
            const double q = heads, kv = kv_heads;
            return (q / tp + 2 * kv * std::max(1.0 / tp, 1.0 / kv)) / (q + 2 * kv);
        }
        default: return 1.0 / tp;
    }
}

// Bytes of a tensor in a non-GGUF format. GroupInt group scales: FP16 scale (+ b-bit zero point)
// per group of `g` inputs per output row, plus the GPTQ g_idx when act_order is on.
double format_tensor_bytes(const WeightFormat& f, const QuantOptions& q, const Tensor& t) {
    const double n = t.rows * t.cols * t.count;
    double bits = n * f.element_bits;
    if (f.family == FormatFamily::GroupInt) {
        const double g = q.group_size <= 0 ? t.cols : q.group_size;
        const double groups = std::ceil(t.cols / g) * t.rows * t.count;
        bits += groups * (f.block_bits + (q.zero_point ? f.element_bits : 0));
        if (q.act_order && std::strncmp(f.id, "gptq", 4) == 0) bits += t.cols * t.count * kGIdxBits;
    } else if (f.family == FormatFamily::Scaled) {
        if (f.block > 0) bits += std::ceil(t.cols / f.block) * t.rows * t.count * f.block_bits;
        if (f.tile > 0) bits += std::ceil(t.cols / f.tile) * std::ceil(t.rows / f.tile) * t.count * f.tile_bits;
        bits += t.rows * t.count * f.row_bits + t.count * f.tensor_bits;
    }
    return bits / 8;
}

Outcome<const WeightFormat*> lookup_format(const std::string& id, const char* field) {
    const WeightFormat* f = find_weight_format(id);
    if (!f) {
        // Candidates are the ids that hold what was typed ("fp4" in nvfp4, mxfp4, bnb-fp4): format
        // ids are short codes, where did_you_mean's edit distance would offer fp8 for fp4.
        std::string list, near;
        const std::string typed = ascii_lower(id);
        for (const auto& w : weight_formats()) {
            list += (list.empty() ? "" : ", ") + std::string(w.id);
            if (typed.size() >= 2 && std::string(w.id).find(typed) != std::string::npos) near += (near.empty() ? "" : ", ") + std::string(w.id);
        }
        return Outcome<const WeightFormat*>::failure(field, std::string(field) + " \"" + id + "\" is not a known weight format (" +
                                                                (near.empty() ? "" : "did you mean " + near + "? ") + "one of " + list + ")");
    }
    return Outcome<const WeightFormat*>::success(f);
}

void add_part(WeightBreakdown& w, Role r, double bytes) {
    switch (r) {
        case Role::TokenEmbd: case Role::PosEmbd: w.embedding += bytes; break;
        case Role::Output: w.output += bytes; break;
        case Role::Router: w.router += bytes; break;
        case Role::FfnGate: case Role::FfnUp: case Role::FfnDown: w.mlp += bytes; break;
        default:
            if (is_expert(r)) {
                w.experts += bytes;
                if (is_routed(r)) w.experts_routed += bytes;
            } else {
                w.attention += bytes;
            }
    }
}

// The tensor's kind in its GGUF name (llama-arch.cpp LLM_TENSOR_NAMES: "blk.N.<kind>.weight").
// `first_pos` tells position_embd (a learned position table, written first) from token_types.
const char* gguf_tensor_kind(const ModelSpec& m, Role r, bool first_pos) {
    switch (r) {
        case Role::TokenEmbd: return "token_embd";
        case Role::PosEmbd: return first_pos && m.max_position > 0 ? "position_embd" : "token_types";
        case Role::Output: return "output";
        case Role::AttnQ: return "attn_q";
        case Role::AttnK: return "attn_k";
        case Role::AttnV: return "attn_v";
        case Role::AttnQkv: return "attn_qkv";
        case Role::AttnOut: return "attn_output";
        case Role::AttnQA: return "attn_q_a";
        case Role::AttnQB: return "attn_q_b";
        case Role::AttnKvA: return "attn_kv_a_mqa";
        case Role::AttnKvB: return "attn_kv_b";
        case Role::AttnKB: return "attn_k_b";
        case Role::AttnVB: return "attn_v_b";
        case Role::FfnGate: return "ffn_gate";
        case Role::FfnUp: return "ffn_up";
        case Role::FfnDown: return "ffn_down";
        case Role::ExpGate: return "ffn_gate_exps";
        case Role::ExpUp: return "ffn_up_exps";
        case Role::ExpDown: return "ffn_down_exps";
        case Role::ShGate: return "ffn_gate_shexp";
        case Role::ShUp: return "ffn_up_shexp";
        case Role::ShDown: return "ffn_down_shexp";
        case Role::Router: return "ffn_gate_inp";
        case Role::SsmIn: return "ssm_in";
        case Role::SsmOut: return "ssm_out";
        case Role::IdxQB: return "indexer.attn_q_b";
        case Role::IdxK: return "indexer.attn_k";
        case Role::IdxProj: return "indexer.proj";
    }
    return "";
}

// TpShards kept beside sum_tensors (one copy of this code for both of its instantiations).
void start_shards(TpShards* s, const ModelSpec& m, size_t tensors) {
    *s = TpShards{};
    s->heads = m.heads;
    s->kv_heads = m.kv_heads;
    s->parts.reserve(tensors);
}
void add_shard(TpShards* s, double bytes, Role r) { s->parts.push_back(TpShards::Part{bytes, static_cast<int>(r)}); }

// Sums `tensors` with the per-tensor byte function `bytes_of` and spreads the 1-D remainder (norms,
// biases: model_params' total less the matrices) at `other_bytes_per_param`, per layer evenly.
// With `list`, each tensor's name and bytes too (a layer's 1-D share as its attn_norm and ffn_norm);
// with `shards`, each tensor's bytes and role, for per_gpu at another degree (TpShards::per_gpu).
template <typename BytesOf>
WeightBreakdown sum_tensors(const ModelSpec& m, const std::vector<Tensor>& tensors, int tp, double other_bytes_per_param,
                            BytesOf bytes_of, std::vector<TensorBytes>* list, TpShards* shards) {
    WeightBreakdown w;
    if (shards) start_shards(shards, m, tensors.size());
    w.layer_bytes.assign(static_cast<size_t>(m.layers), 0.0);
    w.layer_routed.assign(static_cast<size_t>(m.layers), 0.0);
    const ParamBreakdown p = model_params(m);
    double matrix_params = 0;
    for (const auto& t : tensors) matrix_params += t.rows * t.cols * t.count;
    // A "parameters only" model's total is typed, and its filled matrices may not add up to it:
    // scale them so the sum matches.
    const double scale = matrix_params > p.total && matrix_params > 0 ? p.total / matrix_params : 1.0;
    for (const auto& t : tensors) {
        const double b = bytes_of(t) * scale;
        add_part(w, t.role, b);
        if (t.layer >= 0) w.layer_bytes[static_cast<size_t>(t.layer)] += b;
        if (t.layer >= 0 && is_routed(t.role)) w.layer_routed[static_cast<size_t>(t.layer)] += b;
        w.per_gpu += b * tp_share(m.heads, m.kv_heads, t.role, tp);
        if (shards) add_shard(shards, b, t.role);
        if (t.role != Role::TokenEmbd && t.role != Role::PosEmbd && t.role != Role::Output)
            w.largest_matrix = std::max(w.largest_matrix, t.rows * t.cols * scale);
        if (list) {
            const bool first_pos = t.role == Role::PosEmbd && (list->empty() || std::strcmp(list->back().kind, "position_embd") != 0);
            list->push_back(TensorBytes{gguf_tensor_kind(m, t.role, first_pos), t.layer, b, is_routed(t.role), t.role == Role::Output});
        }
    }
    const double other_params = std::max(0.0, p.total - matrix_params * scale);
    w.other = other_params * other_bytes_per_param;
    for (auto& lb : w.layer_bytes) lb += w.other / m.layers;
    if (list)
        for (int il = 0; il < m.layers; ++il)
            for (const char* norm : {"attn_norm", "ffn_norm"})
                list->push_back(TensorBytes{norm, il, w.other / m.layers / 2, false, false});
    w.per_gpu += w.other;  // replicated (norms; biases are small)
    if (shards) shards->other = w.other;
    w.params = matrix_params * scale + other_params;
    w.total = w.embedding + w.output + w.attention + w.mlp + w.experts + w.router + w.other;
    w.bits_per_weight = w.params > 0 ? 8 * w.total / w.params : 0;
    return w;
}

std::string percent(double part, double whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", whole > 0 ? 100 * part / whole : 0);
    return buf;
}

std::string bits_text(double bits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", bits);
    return buf;
}

}  // namespace

namespace {

Outcome<WeightBreakdown> gguf_bytes(const ModelSpec& m, const std::string& ftype_name, bool imatrix, std::vector<TensorBytes>* list,
                                    TpShards* shards) {
    int ft = -1;
    const auto& fts = gguf_ftypes();
    for (size_t i = 0; i < fts.size(); ++i)
        if (ascii_lower(ftype_name) == ascii_lower(fts[i].name)) ft = static_cast<int>(i);
    if (ft < 0) return Outcome<WeightBreakdown>::failure("inference.weights", "inference.weights: \"" + ftype_name + "\" is not a GGUF file type");

    GgufContext c;
    c.ftype = ft;
    c.n_layer = m.layers;
    c.n_gqa = m.kv_lora_rank > 0 ? 1 : m.heads / std::max(1, m.kv_heads);
    c.n_expert = m.experts;
    c.has_output = !m.tied_embeddings;
    c.imatrix = imatrix;
    c.falcon = falcon_like(m);
    // llama.cpp sizes a llama-architecture model with 80 layers as LLM_TYPE_70B (Llama-2/3 70B).
    c.is_70b = m.layers == 80 && m.experts == 0;
    const int default_type = fts[static_cast<size_t>(ft)].default_type;
    const bool quantized = default_type != F32 && default_type != F16 && default_type != BF16;

    std::vector<double> by_type(ggml_types().size(), 0.0);
    const auto tensors = weight_tensors(m, fused_qkv(m), true);
    const Tensor* refused = nullptr;  // a tensor llama-quantize has no type for (kNoGgufFallback)
    auto bytes_of = [&](const Tensor& t) {
        int type;
        if (t.role == Role::Router || t.role == Role::PosEmbd) type = F32;  // convert_hf_to_gguf keeps these F32
        else if (!quantized) type = default_type;
        else type = gguf_tensor_type(c, t);
        if (type == kNoGgufFallback) {
            if (!refused) refused = &t;
            type = default_type;  // priced on; the result is refused below
        }
        const auto& g = ggml_types()[static_cast<size_t>(type)];
        const double n = t.rows * t.cols * t.count;
        by_type[static_cast<size_t>(type)] += n;
        return n / g.block * g.block_bytes;
    };
    constexpr double kGgufOneDimBytes = 4;  // norms and biases: convert_hf_to_gguf writes 1-D tensors as F32
    WeightBreakdown w = sum_tensors(m, tensors, 1, kGgufOneDimBytes, bytes_of, list, shards);
    if (refused) {
        int wanted = default_type;
        gguf_tensor_type(c, *refused, &wanted);
        const auto& g = ggml_types()[static_cast<size_t>(wanted)];
        return Outcome<WeightBreakdown>::failure(
            "inference.weights", "inference.weights: llama-quantize cannot write " + std::string(fts[static_cast<size_t>(ft)].name) + " for " +
                                     TensorBytes{gguf_tensor_kind(m, refused->role, true), refused->layer}.name() + ": its rows of " +
                                     num(refused->cols) + " values are not a multiple of " + g.name + "'s block of " + std::to_string(g.block) +
                                     " and " + g.name + " has no fallback type (llama-quant.cpp tensor_type_fallback)");
    }
    by_type[F32] += w.other / 4;
    std::string mix;
    for (size_t i = 0; i < by_type.size(); ++i)
        if (by_type[i] > 0) mix += (mix.empty() ? "" : ", ") + std::string(ggml_types()[i].name) + " " + percent(by_type[i], w.params);
    w.mix = mix;
    w.formula = num(w.params) + " weights as GGUF " + fts[static_cast<size_t>(ft)].name + " (" + mix + ") x " +
                bits_text(w.bits_per_weight) + " bits / 8";
    return Outcome<WeightBreakdown>::success(w);
}

Outcome<WeightBreakdown> format_bytes(const ModelSpec& m, const QuantOptions& q, int tp, std::vector<TensorBytes>* list, TpShards* shards) {
    auto main = lookup_format(q.format, "inference.weights");
    if (!main.ok) return Outcome<WeightBreakdown>::failure(main.error);
    const WeightFormat* f = main.value;
    const WeightFormat* fe = f;
    if (!q.experts_format.empty()) {
        auto e = lookup_format(q.experts_format, "inference.experts_weights");
        if (!e.ok) return Outcome<WeightBreakdown>::failure(e.error);
        fe = e.value;
        if (fe->family == FormatFamily::Gguf || f->family == FormatFamily::Gguf)
            return Outcome<WeightBreakdown>::failure("inference.experts_weights",
                                                     "inference.experts_weights cannot be combined with a GGUF file type: llama.cpp "
                                                     "chooses each tensor's type itself");
    }
    if (f->family == FormatFamily::GroupInt || fe->family == FormatFamily::GroupInt) {
        Error err;
        if (q.group_size != -1 && !check_int_range("inference.group_size", q.group_size, 1, 1 << 20, err))
            return Outcome<WeightBreakdown>::failure(Error{err.field, err.message + " (or -1 for one group per row)"});
    }
    // A GGUF type, or a format stored in a llama.cpp file (mxfp4 as MXFP4_MOE) when llama.cpp loads it.
    if (f->family == FormatFamily::Gguf || (q.gguf_file && f->gguf_ftype >= 0)) {
        auto r = gguf_bytes(m, gguf_ftypes()[static_cast<size_t>(f->gguf_ftype)].name, q.gguf_imatrix, list, shards);
        if (r.ok && shards) shards->layer_split = true, shards->total = r.value.total;
        if (r.ok && tp > 1) {
            // llama.cpp splits layers across GPUs (--split-mode layer): an even share of the layers.
            r.value.per_gpu = r.value.total / tp;
        }
        return r;
    }

    // Unquantized parts (kept embeddings, router, norms) stay in the model's dtype; an all-float
    // format sets that dtype itself.
    const double dtype_bytes = f->family == FormatFamily::Float ? f->element_bits / 8 : q.dtype_bytes;
    const auto tensors = weight_tensors(m, false);
    auto bytes_of = [&](const Tensor& t) {
        const bool embedding_like = t.role == Role::TokenEmbd || t.role == Role::PosEmbd || t.role == Role::Output;
        const bool own_format = is_expert(t.role) && (!q.experts_format_routed_only || is_routed(t.role));
        const WeightFormat& use = own_format ? *fe : *f;
        // The indexer's weights_proj is not quantized (vLLM's Indexer: ReplicatedLinear(..., quant_config=None); the FP8
        // checkpoint stores it BF16), as the router.
        if (t.role == Role::PosEmbd || t.role == Role::Router || t.role == Role::IdxProj || (embedding_like && use.keeps_embeddings && q.keep_embeddings))
            return t.rows * t.cols * t.count * dtype_bytes;
        return format_tensor_bytes(use, q, t);
    };
    WeightBreakdown w = sum_tensors(m, tensors, tp, dtype_bytes, bytes_of, list, shards);
    w.formula = num(w.params) + " weights as " + f->label +
                (fe != f ? std::string(q.experts_format_routed_only ? ", routed experts " : ", experts ") + fe->label : std::string()) +
                " x " + bits_text(w.bits_per_weight) + " bits / 8";
    if (f->family != FormatFamily::Float && q.keep_embeddings) w.formula += " (embeddings and LM head kept at " + num(dtype_bytes) + " B)";
    return Outcome<WeightBreakdown>::success(w);
}

}  // namespace

Outcome<WeightBreakdown> gguf_weight_bytes(const ModelSpec& m, const std::string& ftype_name, bool imatrix) {
    return gguf_bytes(m, ftype_name, imatrix, nullptr, nullptr);
}

Outcome<WeightBreakdown> weight_bytes(const ModelSpec& m, const QuantOptions& q, int tp, std::vector<TensorBytes>* tensors, TpShards* shards) {
    if (tensors) tensors->clear();
    return format_bytes(m, q, tp, tensors, shards);
}

double TpShards::per_gpu(int tp) const {
    // The sums of sum_tensors and format_bytes, in their order (the same doubles, the same result).
    double bytes = 0;
    if (layer_split && tp > 1) {
        bytes = total / tp;
    } else {
        for (const Part& p : parts) bytes += p.bytes * tp_share(heads, kv_heads, static_cast<Role>(p.role), tp);
        bytes += other;
    }
    return bytes * file_scale;  // x 1 without a weights file: exact
}

bool apply_weights_file(WeightBreakdown& w, const WeightsFile& f, int layers, Error& err, TpShards* shards) {
    constexpr double kMaxFileBytes = 1e16;  // 10 PB: more is a typo
    if (!check_positive("inference.weights_file.total_bytes", f.total_bytes, kMaxFileBytes, err) ||
        !check_range("inference.weights_file.params", f.params, 0, kMaxFileBytes, err))
        return false;
    if (!f.layer_bytes.empty() && static_cast<int>(f.layer_bytes.size()) != layers) {
        err = Error{"inference.weights_file.layer_bytes", "inference.weights_file.layer_bytes has " + std::to_string(f.layer_bytes.size()) +
                                                              " entries, the model has " + std::to_string(layers) + " layers"};
        return false;
    }
    double layer_sum = 0;
    for (size_t i = 0; i < f.layer_bytes.size(); ++i) {
        if (!check_range(("inference.weights_file.layer_bytes[" + std::to_string(i) + "]").c_str(), f.layer_bytes[i], 0, kMaxFileBytes, err)) return false;
        layer_sum += f.layer_bytes[i];
    }
    if (!f.layer_routed_bytes.empty() && static_cast<int>(f.layer_routed_bytes.size()) != layers) {
        err = Error{"inference.weights_file.layer_routed_bytes", "inference.weights_file.layer_routed_bytes has " +
                                                                     std::to_string(f.layer_routed_bytes.size()) + " entries, the model has " +
                                                                     std::to_string(layers) + " layers"};
        return false;
    }
    for (size_t i = 0; i < f.layer_routed_bytes.size(); ++i) {
        const std::string field = "inference.weights_file.layer_routed_bytes[" + std::to_string(i) + "]";
        // A layer's routed experts are part of it: at most its layer_bytes entry (or the total).
        const double most = f.layer_bytes.empty() ? f.total_bytes : f.layer_bytes[i];
        if (!check_range(field.c_str(), f.layer_routed_bytes[i], 0, most, err)) return false;
    }
    const double parts = f.embedding + f.output + f.attention + f.mlp + f.experts + f.router + f.other;
    if (f.has_parts) {
        // Each part named by the key the file's JSON gives it (inference.weights_file.parts.mlp).
        const std::pair<const char*, double> named[] = {{"embedding", f.embedding}, {"output", f.output},
                                                        {"attention", f.attention}, {"mlp", f.mlp},
                                                        {"experts", f.experts},     {"experts_routed", f.experts_routed},
                                                        {"router", f.router},       {"other", f.other}};
        for (const auto& [part, b] : named)
            if (!check_range((std::string("inference.weights_file.parts.") + part).c_str(), b, 0, kMaxFileBytes, err)) return false;
        // The parts are whole bytes: they add up to the total to within rounding.
        if (std::fabs(parts - f.total_bytes) > 1e-9 * f.total_bytes + 1) {
            err = Error{"inference.weights_file.parts", "inference.weights_file.parts add up to " + num(parts) + " B, total_bytes is " +
                                                            num(f.total_bytes) + " B"};
            return false;
        }
    }
    if (layer_sum > f.total_bytes * (1 + 1e-9) + 1) {
        err = Error{"inference.weights_file.layer_bytes",
                    "inference.weights_file.layer_bytes add up to " + num(layer_sum) + " B, more than total_bytes " + num(f.total_bytes) + " B"};
        return false;
    }
    const double scale = w.total > 0 ? f.total_bytes / w.total : 1;
    // Per-layer routed experts: the file's, else the derived ones scaled as the routed total is.
    const double routed_scale = !f.has_parts ? scale : w.experts_routed > 0 ? f.experts_routed / w.experts_routed : 0;
    if (!f.layer_routed_bytes.empty()) w.layer_routed = f.layer_routed_bytes;
    else
        for (auto& b : w.layer_routed) b *= routed_scale;
    if (f.has_parts) {
        w.embedding = f.embedding, w.output = f.output, w.attention = f.attention, w.mlp = f.mlp, w.experts = f.experts;
        w.experts_routed = f.experts_routed, w.router = f.router, w.other = f.other;
    } else {
        for (double* part : {&w.embedding, &w.output, &w.attention, &w.mlp, &w.experts, &w.experts_routed, &w.router, &w.other}) *part *= scale;
    }
    if (!f.layer_bytes.empty()) w.layer_bytes = f.layer_bytes;
    else
        for (auto& b : w.layer_bytes) b *= scale;
    w.per_gpu *= scale;
    if (shards) shards->file_scale = scale;
    w.largest_matrix *= scale;
    w.total = f.total_bytes;
    if (f.params > 0) w.params = f.params;
    w.bits_per_weight = w.params > 0 ? 8 * w.total / w.params : 0;
    if (!f.mix.empty()) w.mix = f.mix;
    w.formula = num(w.total) + " B read from " + (f.source.empty() ? std::string("the model file") : f.source) + " (" + num(w.params) +
                " weights, " + bits_text(w.bits_per_weight) + " bits each" + (f.mix.empty() ? std::string() : ": " + f.mix) + ")";
    return true;
}

}  // namespace vc
