// [FOLDER] core/quant/: quant.hpp/.cpp (weight formats, GGUF ftypes, weight bytes per format).
// vramcalc core: weight formats and what a model's weights take in each. A format's cost is its
// storage layout: bits per stored element plus the scales shared by a block, a row or a tensor.
// GGUF files mix tensor types per tensor, as llama.cpp's quantizer chooses them. Every figure is
// derived in docs/inference.md with its source.
#pragma once

#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/status.hpp"

namespace vc {

// Which engines load a format (a bit mask), for "best format that fits" lists.
enum EngineMask : unsigned { kEngineVllm = 1, kEngineLlamaCpp = 2, kEngineHf = 4, kEngineSglang = 8, kEngineAll = 15 };

enum class FormatFamily {
    Float,     // fp32, bf16, fp16: every weight at the element width
    Scaled,    // fp8 / int8 / bitsandbytes / MX and NV fp4: elements + scales per block, row or tensor
    GroupInt,  // GPTQ / AWQ: b-bit integers, a 16-bit scale (and a b-bit zero point) per group of g inputs
    Gguf,      // llama.cpp: tensor types chosen per tensor (see gguf_* below)
};

// A weight format as the config names it. For GroupInt the group size and zero points come from
// QuantOptions; for Gguf the per-tensor types come from the llama.cpp rules.
struct WeightFormat {
    const char* id;            // config name: "bf16", "fp8", "gptq-int4", "q4_k_m", ...
    const char* label;         // display name
    FormatFamily family;
    double element_bits;       // bits of one stored weight
    int block;                 // Scaled: consecutive inputs sharing block_bits (0: none)
    double block_bits;         // Scaled: bits of the shared scale data per block
    double row_bits;           // bits stored per output row (per-channel scales)
    double tensor_bits;        // bits stored per tensor (per-tensor scales)
    int tile;                  // Scaled: square tiles of tile x tile weights share tile_bits (0: none)
    double tile_bits;
    bool keeps_embeddings;     // the token embedding and LM head stay in the model's 16-bit dtype
    int gguf_ftype;            // Gguf, and a format llama.cpp stores as a file type of its own (mxfp4:
                               // MXFP4_MOE, for QuantOptions::gguf_file): index into gguf_ftypes(); -1 otherwise
    int quality;               // expected quality, lower is better (for ordered "fits" lists)
    unsigned engines;          // EngineMask of the engines that load it
    const char* source;        // one line: where the layout comes from
};

// Every built-in format, best quality first.
const std::vector<WeightFormat>& weight_formats();
// The format named `id` (case-insensitive; GGUF types also as "gguf-q4_k_m"; the spellings of
// weight_format_aliases() too), or nullptr.
const WeightFormat* find_weight_format(const std::string& id);
// Other names people write for a format, lower case ("nf4" for bnb-nf4, "awq" for awq-int4, ...).
struct WeightFormatAlias {
    const char* name;
    const char* id;
};
const std::vector<WeightFormatAlias>& weight_format_aliases();
// `id` as its format's own id when it names one (any spelling find_weight_format accepts), else `id`.
std::string canonical_weight_format(const std::string& id);
// GGUF TQ1_0 / TQ2_0: ternary packings for models trained ternary (BitNet b1.58, TriLMs; llama.cpp
// PR #8151), which any other model does not survive: the format solvers offer them only to a model
// already in one.
bool ternary_only(const WeightFormat& f);
// A format a published checkpoint stores as its quantization (model.checkpoint_format): quantized,
// and not a GGUF type (a GGUF file is a conversion, which inference.weights names instead).
bool checkpoint_quantization(const WeightFormat& f);

// GGUF / ggml tensor types with their block layouts (ggml-common.h): `block` weights stored in
// `block_bytes` bytes.
struct GgmlType {
    const char* name;
    int block;
    int block_bytes;
};
const std::vector<GgmlType>& ggml_types();
double ggml_bits_per_weight(int type);  // 8 * block_bytes / block

// A llama.cpp file type (llama-quantize's argument): the default tensor type it starts from.
struct GgufFtype {
    const char* name;   // "Q4_K_M", as llama-quantize takes it
    const char* id;     // the config name: "q4_k_m" ("gguf-f16" for the unquantized types)
    const char* label;  // "GGUF Q4_K_M"
    int default_type;   // index into ggml_types()
    int quality;        // expected quality rank, as WeightFormat::quality
};
const std::vector<GgufFtype>& gguf_ftypes();

struct QuantOptions {
    std::string format = "bf16";
    std::string experts_format;   // MoE experts (routed and shared) in another format; empty = `format`
    bool experts_format_routed_only = false;  // experts_format for the routed experts alone (shared ones take `format`)
    int group_size = 128;         // GPTQ/AWQ: inputs per group; -1 = one group per row (per channel)
    bool zero_point = true;       // GPTQ/AWQ: asymmetric, a b-bit zero point per group
    bool act_order = false;       // GPTQ: desc_act stores g_idx, an int32 per input column
    bool keep_embeddings = true;  // false: the embedding and LM head take the format too (where it allows)
    bool gguf_imatrix = false;    // GGUF: an importance matrix was used (changes a few llama.cpp rules)
    bool gguf_file = false;       // llama.cpp loads it: a format with a llama.cpp file type (WeightFormat::gguf_ftype,
                                  // mxfp4: MXFP4_MOE) takes that file type's per-tensor types (set by the engine)
    double dtype_bytes = 2;       // bytes of an unquantized weight (the model's bf16/fp16 dtype)
};

// Weights of one model in one format. Whole-model bytes by component, per layer, and per GPU
// under tensor parallelism.
struct WeightBreakdown {
    double embedding = 0;      // token (+ position) embeddings
    double output = 0;         // LM head (0 when tied)
    double attention = 0;      // attention matrices
    double mlp = 0;            // dense MLP matrices
    double experts = 0;        // routed + shared expert matrices
    double experts_routed = 0; // routed experts alone (what a decode step reads only in part)
    double router = 0;         // MoE gates
    double other = 0;          // norms and biases (1-D, never quantized)
    double total = 0;          // bytes
    double params = 0;         // parameters counted
    double bits_per_weight = 0;  // 8 x total / params
    std::vector<double> layer_bytes;  // bytes of each layer (attention + MLP/experts + its norms and biases)
    std::vector<double> layer_routed; // routed-expert bytes of each layer (0 in a dense one): a GGUF file type gives
                                      // ffn_down_exps more bits on some layers, so they differ (--n-cpu-moe, --fit)
    double per_gpu = 0;        // bytes on one GPU with the `tp` given (sharded matrices / tp, the rest replicated)
    double largest_matrix = 0; // weights of the largest single quantized matrix (dequantization buffers)
    std::string mix;           // GGUF: tensor types and their share, e.g. "Q4_K 81%, Q6_K 19%, F32 0%"
    std::string formula;       // how the total follows
};

// WeightBreakdown::per_gpu at another tensor-parallel degree without the model's tensors listed
// and priced again (an estimate plans several GPU counts: issue 15): each tensor's bytes and role
// in weight_bytes' order, so per_gpu(tp) repeats its sum bit for bit. Filled by weight_bytes; owned
// by the caller, for that model and format only.
struct TpShards {
    struct Part {
        double bytes;
        int role;  // the tensor's role in core/quant/quant.cpp (how tensor parallelism splits it)
    };
    std::vector<Part> parts;
    int heads = 0, kv_heads = 0;
    double other = 0;          // 1-D tensors (norms, biases): replicated
    bool layer_split = false;  // a GGUF type: llama.cpp splits whole layers, an even share each
    double total = 0;          // layer_split: the bytes split
    double file_scale = 1;     // apply_weights_file's scale (the file's bytes over the derived ones)
    double per_gpu(int tp) const;
};

// Exact weight bytes read from a model file's tensor table (a GGUF file's per-tensor ggml types, a
// safetensors header's dtypes and shapes, an index's total_size): config "inference.weights_file".
// total_bytes > 0 turns it on; it replaces the bytes the format's rules derive (docs/import.md).
struct WeightsFile {
    std::string source;               // the file it was read from, for the formula
    double total_bytes = 0;           // every tensor's bytes; 0 = not set
    double params = 0;                // parameters counted in the file; 0 = keep the derived count
    bool has_parts = false;           // the components below were read (else the derived ones are scaled)
    double embedding = 0, output = 0, attention = 0, mlp = 0, experts = 0, experts_routed = 0, router = 0, other = 0;
    std::vector<double> layer_bytes;  // bytes of each layer; empty = the derived ones scaled
    std::vector<double> layer_routed_bytes;  // routed-expert bytes of each layer; empty = the derived ones scaled
    std::string mix;                  // tensor types and their share, e.g. "Q4_K 81%, Q6_K 19%"
};

// Replaces `w`'s bytes with the file's, for a model of `layers` layers. Per-GPU bytes and the
// largest matrix scale with the total (and `shards`' per_gpu alike). Errors name "inference.weights_file.*".
bool apply_weights_file(WeightBreakdown& w, const WeightsFile& f, int layers, Error& err, TpShards* shards = nullptr);

// One weight tensor as a GGUF file names it, with the bytes weight_bytes counts for it.
struct TensorBytes {
    const char* kind = "";  // "ffn_up_exps", "attn_norm", "token_embd", "output" (a literal: no allocation per tensor)
    int layer = -1;         // its repeating layer; -1 for the embeddings and the head
    double bytes = 0;
    bool routed = false;   // a routed-experts tensor (ffn_{gate,up,down}_exps): a decode step reads a share
    bool output = false;   // the LM head
    // The GGUF name: "blk.7.ffn_up_exps.weight", "token_embd.weight".
    std::string name() const { return (layer >= 0 ? "blk." + std::to_string(layer) + "." : std::string()) + kind + ".weight"; }
};

// Resolves the format and computes the weights. Errors name "inference.weights",
// "inference.experts_weights" or "inference.group_size". `m` must be resolved (resolve_model).
// With `tensors`, every tensor of `m` too (whole, whatever `tp`), in file order, with its bytes: a layer's 1-D
// tensors (norms, biases) as its attn_norm and ffn_norm, half of the layer's share each, so the
// list adds up to the total (llama.cpp's -ot places tensors by name). With `shards`, per_gpu at
// any other tp (TpShards).
Outcome<WeightBreakdown> weight_bytes(const ModelSpec& m, const QuantOptions& q, int tp = 1, std::vector<TensorBytes>* tensors = nullptr,
                                      TpShards* shards = nullptr);



// The GGUF tensor type llama.cpp's quantizer gives each tensor of `m` for file type `ftype_name`,
// summed: bytes of the tensor data (no metadata). Exposed for tests and docs.
Outcome<WeightBreakdown> gguf_weight_bytes(const ModelSpec& m, const std::string& ftype_name, bool imatrix);

}  // namespace vc
