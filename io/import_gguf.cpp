// vramcalc io: GGUF header and tensor table reader (GGUF v2/v3, ggml docs/gguf.md): magic, version,
// tensor count, metadata count, typed key/values (arrays included), tensor infos (name, dims, ggml
// type, offset). The architecture comes from `<arch>.*` keys and the tensor names; the exact
// weight bytes from each tensor's ggml type. Only the header is read: a prefix suffices.
//
// [SECTIONS]
//   types      ggml type ids of the file format and their block layouts
//   header     metadata and tensor infos, every count checked against the file before use
//   model      ModelSpec from `<arch>.*` keys and tensor names
//   weights    exact bytes by component and layer
#include <algorithm>
#include <cmath>
#include <map>

#include "core/fields.hpp"
#include "core/text.hpp"
#include "import_bytes.hpp"
#include "import_internal.hpp"

namespace vc::io {

using detail::Part;

// [SECTION] types ---------------------------------------------------------------------------------
namespace {

// ggml_type ids as GGUF files store them (ggml.h enum ggml_type; ids 4, 5, 31-33 and 36-38 were
// removed or repacked variants). Block layouts of the types core/quant models come from
// ggml_types() by name; the others are listed here from ggml-common.h.
struct FileType {
    int id;
    const char* name;
    int block;        // 0: take the layout from core's ggml_types()
    int block_bytes;
};
constexpr FileType kFileTypes[] = {
    {0, "F32", 0, 0},       {1, "F16", 0, 0},       {2, "Q4_0", 0, 0},      {3, "Q4_1", 0, 0},      {6, "Q5_0", 0, 0},
    {7, "Q5_1", 0, 0},      {8, "Q8_0", 0, 0},      {9, "Q8_1", 32, 36},    {10, "Q2_K", 0, 0},     {11, "Q3_K", 0, 0},
    {12, "Q4_K", 0, 0},     {13, "Q5_K", 0, 0},     {14, "Q6_K", 0, 0},     {15, "Q8_K", 256, 292}, {16, "IQ2_XXS", 0, 0},
    {17, "IQ2_XS", 0, 0},   {18, "IQ3_XXS", 0, 0},  {19, "IQ1_S", 0, 0},    {20, "IQ4_NL", 0, 0},   {21, "IQ3_S", 0, 0},
    {22, "IQ2_S", 0, 0},    {23, "IQ4_XS", 0, 0},   {24, "I8", 1, 1},       {25, "I16", 1, 2},      {26, "I32", 1, 4},
    {27, "I64", 1, 8},      {28, "F64", 1, 8},      {29, "IQ1_M", 0, 0},    {30, "BF16", 0, 0},     {31, "Q4_0_4_4", 32, 18},
    {32, "Q4_0_4_8", 32, 18}, {33, "Q4_0_8_8", 32, 18}, {34, "TQ1_0", 0, 0}, {35, "TQ2_0", 0, 0}, {36, "IQ4_NL_4_4", 32, 18},
    {37, "IQ4_NL_4_8", 32, 18}, {38, "IQ4_NL_8_8", 32, 18}, {39, "MXFP4", 0, 0},  // block_mxfp4 (core/quant: 17 B per 32)
};

bool file_type(int id, const char*& name, int& block, int& block_bytes) {
    for (const auto& t : kFileTypes) {
        if (t.id != id) continue;
        name = t.name;
        block = t.block;
        block_bytes = t.block_bytes;
        if (block == 0)
            for (const auto& g : ggml_types())
                if (std::string(g.name) == t.name) block = g.block, block_bytes = g.block_bytes;
        return block > 0;
    }
    return false;
}

// llama.h LLAMA_FTYPE_* (general.file_type) -> the inference.weights id.
struct FtypeId {
    int id;
    const char* weights;
};
constexpr FtypeId kFtypes[] = {
    {0, "gguf-f32"}, {1, "gguf-f16"}, {2, "q4_0"},    {3, "q4_1"},     {7, "q8_0"},    {8, "q5_0"},    {9, "q5_1"},
    {10, "q2_k"},    {11, "q3_k_s"},  {12, "q3_k_m"}, {13, "q3_k_l"},  {14, "q4_k_s"}, {15, "q4_k_m"}, {16, "q5_k_s"},
    {17, "q5_k_m"},  {18, "q6_k"},    {19, "iq2_xxs"}, {20, "iq2_xs"}, {21, "q2_k_s"}, {22, "iq3_xs"}, {23, "iq3_xxs"},
    {24, "iq1_s"},   {25, "iq4_nl"},  {26, "iq3_s"},  {27, "iq3_m"},   {28, "iq2_s"},  {29, "iq2_m"},  {30, "iq4_xs"},
    {31, "iq1_m"},   {32, "gguf-bf16"}, {36, "tq1_0"}, {37, "tq2_0"},  {38, "mxfp4"},
};

// GGUF metadata value types (gguf.h enum gguf_type).
enum ValueType : std::uint32_t { U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64, kValueTypes };
constexpr int kValueBytes[] = {1, 1, 2, 2, 4, 4, 4, 1, 8 /* length prefix */, 12 /* type + count */, 8, 8, 8};

constexpr std::uint64_t kMaxKeyBytes = 65535;       // gguf.cpp rejects longer keys; a name longer is corrupt
constexpr std::uint32_t kMaxDims = 4;               // GGML_MAX_DIMS
constexpr std::uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;  // empty name, n_dims, type, offset
constexpr std::uint64_t kMinKvBytes = 8 + 4 + 1;    // empty key, type, a one-byte value
constexpr std::size_t kKeptArrayValues = 4096;      // numeric arrays kept (per-layer head counts); longer ones are skipped
// Guesses for the part of a header past a prefix (need_bytes; measured ones replace them as soon as
// one element has been read): a string array's element (a token: 8-byte length + a few bytes), a
// metadata key/value (a key of ~30 bytes and a number; a chat template is the long exception, hence
// the slack), a tensor info ("blk.79.ffn_down.weight", 2-4 dims, type, offset: 70-90 bytes).
constexpr double kArrayElementGuessBytes = 16;
constexpr double kKvGuessBytes = 256;
constexpr double kTensorInfoGuessBytes = 128;
constexpr double kHeaderGuessSlack = 1.125;         // 12.5% over the estimate, plus
constexpr double kHeaderGuessSlackBytes = 1 << 16;  // 64 KiB: one more read in the common case

}  // namespace

// [SECTION] header --------------------------------------------------------------------------------
namespace {

struct Value {
    std::uint32_t type = 0;
    double number = 0;            // numeric and bool values
    std::string text;             // STRING
    std::uint32_t array_type = 0;
    std::uint64_t array_count = 0;
    std::vector<double> array;    // numeric arrays up to kKeptArrayValues
};

struct TensorInfo : GgufTensorShape {
    int type = 0;
    std::uint64_t offset = 0;
    double elements = 0;
    double bytes = 0;
    const char* type_name = "";
};

// Where a prefix ran out: what is known of the rest of the header (estimate_end).
struct Progress {
    std::uint64_t kv_left = 0;          // key/values after the one being read
    std::uint64_t array_start = 0;      // the string (or nested) array being skipped: its first element,
    std::uint64_t array_count = 0;      // its length
    std::uint64_t array_done = 0;       // and the elements read
    std::uint64_t known_end = 0;        // the end of the value being read, when its length is known
    std::uint64_t tensors_start = 0;    // the first tensor info (0: not reached)
    std::uint64_t tensors_done = 0;
};

struct Header {
    std::uint32_t version = 0;
    std::uint64_t tensor_count = 0;
    std::map<std::string, Value> kv;
    std::vector<TensorInfo> tensors;
    std::uint64_t end = 0;  // first byte after the tensor infos
};

bool read_string(ByteReader& in, std::string& out, std::uint64_t limit, const char* what, Progress* p = nullptr) {
    std::uint64_t n = 0;
    if (!in.read(n, what)) return false;
    if (p && n <= in.file_left()) p->known_end = in.pos() + n;
    if (n > in.file_left()) {
        in.fail(std::string(what) + " at byte " + std::to_string(in.pos() - 8) + " has length " + std::to_string(n) +
                ", past the end of the file (" + std::to_string(in.file_left()) + " bytes left)");
        return false;
    }
    if (n > limit) {
        in.fail(std::string(what) + " at byte " + std::to_string(in.pos() - 8) + " has length " + std::to_string(n) + ", more than " +
                std::to_string(limit));
        return false;
    }
    return in.bytes(n, out, what);
}

bool read_scalar(ByteReader& in, std::uint32_t type, double& out) {
    switch (type) {
        case U8: { std::uint8_t v; if (!in.read(v, "a u8 value")) return false; out = v; return true; }
        case I8: { std::int8_t v; if (!in.read(v, "an i8 value")) return false; out = v; return true; }
        case U16: { std::uint16_t v; if (!in.read(v, "a u16 value")) return false; out = v; return true; }
        case I16: { std::int16_t v; if (!in.read(v, "an i16 value")) return false; out = v; return true; }
        case U32: { std::uint32_t v; if (!in.read(v, "a u32 value")) return false; out = v; return true; }
        case I32: { std::int32_t v; if (!in.read(v, "an i32 value")) return false; out = v; return true; }
        case F32: { float v; if (!in.read(v, "an f32 value")) return false; out = v; return true; }
        case BOOL: { std::uint8_t v; if (!in.read(v, "a bool value")) return false; out = v != 0; return true; }
        case U64: { std::uint64_t v; if (!in.read(v, "a u64 value")) return false; out = static_cast<double>(v); return true; }
        case I64: { std::int64_t v; if (!in.read(v, "an i64 value")) return false; out = static_cast<double>(v); return true; }
        case F64: { double v; if (!in.read(v, "an f64 value")) return false; out = v; return true; }
    }
    return false;
}

bool read_value(ByteReader& in, std::uint32_t type, Value& v, const std::string& key, Progress& p) {
    v.type = type;
    if (type >= kValueTypes) {
        in.fail("metadata \"" + key + "\" has value type " + std::to_string(type) + ", not a GGUF type (0-12)");
        return false;
    }
    if (type == STRING) return read_string(in, v.text, kMaxImportHeaderBytes, ("the string value of \"" + key + "\"").c_str(), &p);
    if (type != ARRAY) return read_scalar(in, type, v.number);
    if (!in.read(v.array_type, "an array type") || !in.read(v.array_count, "an array length")) return false;
    if (v.array_type >= kValueTypes) {
        in.fail("metadata \"" + key + "\" is an array of type " + std::to_string(v.array_type) + ", not a GGUF type (0-12)");
        return false;
    }
    // Each element takes at least kValueBytes of its type: a count the file cannot hold is corrupt.
    const std::uint64_t least = static_cast<std::uint64_t>(kValueBytes[v.array_type]);
    if (v.array_count > in.file_left() / least) {
        in.fail("metadata \"" + key + "\" claims " + std::to_string(v.array_count) + " array elements, more than the " +
                std::to_string(in.file_left()) + " bytes left in the file can hold");
        return false;
    }
    if (v.array_type == STRING || v.array_type == ARRAY) {
        p.array_start = in.pos(), p.array_count = v.array_count;
        for (std::uint64_t i = 0; i < v.array_count && in.ok(); ++i) {
            if (v.array_type == STRING) {
                i += in.skip_strings(v.array_count - i);  // those whole in the prefix; then one by one
                p.array_done = i;
                if (i == v.array_count) break;
                std::uint64_t n = 0;
                if (!in.read(n, "an array string length")) return false;
                if (n > in.file_left()) {
                    in.fail("metadata \"" + key + "\" element " + std::to_string(i) + " has length " + std::to_string(n) +
                            ", past the end of the file");
                    return false;
                }
                in.skip(n, "an array string");
            } else {
                p.array_done = i;
                // An array of arrays: each element is {type, count, values} (numeric only in practice).
                std::uint32_t t = 0;
                std::uint64_t count = 0;
                if (!in.read(t, "a nested array type") || !in.read(count, "a nested array length")) return false;
                if (t >= kValueTypes || t == STRING || t == ARRAY) {
                    in.fail("metadata \"" + key + "\" element " + std::to_string(i) + " is a nested array of type " + std::to_string(t) +
                            " (numbers only are read)");
                    return false;
                }
                if (count > in.file_left() / static_cast<std::uint64_t>(kValueBytes[t])) {
                    in.fail("metadata \"" + key + "\" element " + std::to_string(i) + " claims " + std::to_string(count) +
                            " values, past the end of the file");
                    return false;
                }
                in.skip(count * static_cast<std::uint64_t>(kValueBytes[t]), "a nested array");
            }
        }
        if (!in.ok()) return false;  // the prefix ended in the array: estimate_end reads p
        p.array_count = p.array_done = 0;
        return true;
    }
    const std::uint64_t bytes = v.array_count * least;
    p.known_end = in.pos() + bytes;
    if (v.array_count > kKeptArrayValues) return in.skip(bytes, ("the array \"" + key + "\"").c_str());
    if (!in.need(bytes, "an array")) return false;
    v.array.reserve(static_cast<std::size_t>(v.array_count));  // <= kKeptArrayValues
    for (std::uint64_t i = 0; i < v.array_count; ++i) {
        double x = 0;
        if (!read_scalar(in, v.array_type, x)) return false;
        v.array.push_back(x);
    }
    return true;
}

bool read_header(ByteReader& in, Header& h, Progress& p) {
    std::uint32_t magic = 0;
    if (!in.read(magic, "the magic") || !in.read(h.version, "the version")) return false;
    if (h.version == 1) return in.fail("GGUF version 1 (2023, 32-bit counts) is not supported: convert it again with a current llama.cpp"), false;
    if (h.version == 0x02000000u || h.version == 0x03000000u)
        return in.fail("a big-endian GGUF file (version bytes reversed): only little-endian files are read"), false;
    if (h.version != 2 && h.version != 3)
        return in.fail("GGUF version " + std::to_string(h.version) + " is not one this reader knows (2 or 3)"), false;
    std::uint64_t kv_count = 0;
    if (!in.read(h.tensor_count, "the tensor count") || !in.read(kv_count, "the metadata count")) return false;
    if (h.tensor_count > in.file_left() / kMinTensorInfoBytes)
        return in.fail("the tensor count " + std::to_string(h.tensor_count) + " cannot fit in a file of " + std::to_string(in.file_size()) +
                       " bytes (each tensor info takes at least " + std::to_string(kMinTensorInfoBytes) + ")"), false;
    if (kv_count > in.file_left() / kMinKvBytes)
        return in.fail("the metadata count " + std::to_string(kv_count) + " cannot fit in a file of " + std::to_string(in.file_size()) +
                       " bytes"), false;
    for (std::uint64_t i = 0; i < kv_count; ++i) {
        p.kv_left = kv_count - i - 1;
        std::string key;
        std::uint32_t type = 0;
        if (!read_string(in, key, kMaxKeyBytes, "a metadata key") || !in.read(type, "a value type")) return false;
        Value v;
        if (!read_value(in, type, v, key, p)) return false;
        h.kv[key] = std::move(v);
    }
    p.tensors_start = in.pos();
    for (std::uint64_t i = 0; i < h.tensor_count; ++i) {
        p.tensors_done = i;
        TensorInfo t;
        if (!read_string(in, t.name, kMaxKeyBytes, "a tensor name") || !in.read(t.n_dims, "a tensor's dimension count")) return false;
        if (t.n_dims == 0 || t.n_dims > kMaxDims)
            return in.fail("tensor \"" + t.name + "\" has " + std::to_string(t.n_dims) + " dimensions (1 to 4)"), false;
        t.elements = 1;
        for (std::uint32_t d = 0; d < t.n_dims; ++d) {
            if (!in.read(t.ne[d], "a tensor dimension")) return false;
            t.elements *= static_cast<double>(t.ne[d]);
        }
        std::uint32_t type = 0;
        if (!in.read(type, "a tensor type") || !in.read(t.offset, "a tensor offset")) return false;
        int block = 0, block_bytes = 0;
        if (!file_type(static_cast<int>(type), t.type_name, block, block_bytes))
            return in.fail("tensor \"" + t.name + "\" has ggml type " + std::to_string(type) + ", which this reader does not know"), false;
        t.type = static_cast<int>(type);
        if (t.ne[0] % static_cast<std::uint64_t>(block) != 0)
            return in.fail("tensor \"" + t.name + "\" has rows of " + std::to_string(t.ne[0]) + " elements, not a multiple of " +
                           t.type_name + "'s block of " + std::to_string(block)), false;
        t.bytes = t.elements / block * block_bytes;
        // A tensor larger than 2^60 bytes is a corrupt header (and would overflow offsets).
        if (!(t.bytes < std::ldexp(1.0, 60)))
            return in.fail("tensor \"" + t.name + "\" claims " + num(t.elements) + " elements, more than any file holds"), false;
        h.tensors.push_back(std::move(t));
    }
    h.end = in.pos();
    return in.ok();
}

// The header's length estimated from where a prefix ran out, so that one more read suffices: the
// rest of the array being read at its average element so far, the key/values and tensor infos
// left at their guesses (the tensor infos at their average once one has been read), with slack.
std::uint64_t estimate_end(const ByteReader& in, const Progress& p, std::uint64_t tensor_count) {
    double end = static_cast<double>(std::max(in.pos(), p.known_end));
    if (p.array_count > p.array_done) {
        const double each = p.array_done > 0 ? static_cast<double>(in.pos() - p.array_start) / static_cast<double>(p.array_done)
                                             : kArrayElementGuessBytes;
        end += each * static_cast<double>(p.array_count - p.array_done);
    }
    end += kKvGuessBytes * static_cast<double>(p.kv_left);
    const double tensor_each = p.tensors_start > 0 && p.tensors_done > 0
                                   ? static_cast<double>(in.pos() - p.tensors_start) / static_cast<double>(p.tensors_done)
                                   : kTensorInfoGuessBytes;
    end += tensor_each * static_cast<double>(tensor_count - p.tensors_done);
    end = end * kHeaderGuessSlack + kHeaderGuessSlackBytes;
    return end < 1.8e19 ? static_cast<std::uint64_t>(end) : ~std::uint64_t(0);
}

double kv_number(const Header& h, const std::string& key, double fallback = -1) {
    auto it = h.kv.find(key);
    if (it == h.kv.end()) return fallback;
    const Value& v = it->second;
    if (v.type == ARRAY) {  // per-layer values (head counts, FFN sizes): the largest
        if (v.array.empty()) return fallback;
        return *std::max_element(v.array.begin(), v.array.end());
    }
    if (v.type == STRING) return fallback;
    return v.number;
}

// A per-layer numeric array (head_count_kv, feed_forward_length of a hybrid), or nullptr for a scalar.
const std::vector<double>* kv_array(const Header& h, const std::string& key) {
    auto it = h.kv.find(key);
    return it != h.kv.end() && it->second.type == ARRAY && !it->second.array.empty() ? &it->second.array : nullptr;
}

std::string kv_text(const Header& h, const std::string& key) {
    auto it = h.kv.find(key);
    return it != h.kv.end() && it->second.type == STRING ? it->second.text : std::string();
}

}  // namespace

// [SECTION] model ---------------------------------------------------------------------------------
namespace {

template <typename T>
const T* find_tensor(const std::vector<T>& tensors, const std::string& name) {
    for (const auto& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

// general.architecture -> the family core/model names (Phi matters: core/quant fuses its q, k, v).
const char* family_of(const std::string& arch) {
    if (arch.rfind("qwen", 0) == 0) return "Qwen";
    if (arch.rfind("gemma", 0) == 0) return "Gemma";
    if (arch.rfind("phi", 0) == 0) return "Phi";
    if (arch.rfind("deepseek", 0) == 0) return "DeepSeek";
    if (arch == "llama") return "Llama";
    if (arch == "falcon") return "Falcon";
    if (arch == "gpt-oss") return "gpt-oss";
    if (arch == "gpt2") return "GPT-2";
    if (arch == "bert") return "BERT";
    if (arch == "starcoder") return "StarCoder";
    if (arch == "granitehybrid") return "Granite";
    if (arch == "nemotron_h" || arch == "nemotron_h_moe") return "Nemotron";
    if (arch == "lfm2" || arch == "lfm2moe") return "LFM2";
    if (arch == "jamba") return "Jamba";
    if (arch == "falcon-h1") return "Falcon";
    if (arch == "glm4moe") return "GLM";
    if (arch == "minimax-m2") return "MiniMax";
    if (arch == "olmo2") return "OLMo";  // OLMo-2 and OLMo-3 (a window on 3 layers in 4)
    if (arch == "cohere2") return "Cohere";
    if (arch == "seed_oss") return "Seed";
    if (arch == "smollm3") return "SmolLM";
    if (arch == "ernie4_5-moe") return "ERNIE";
    return "Imported";
}

// <arch>.nextn_predict_layers when it is a count below block_count `layers`, else 0.
int mtp_layers(const Header& h, const std::string& arch, int layers) {
    const double n = kv_number(h, arch + ".nextn_predict_layers", 0);
    return n >= 1 && n < layers && std::floor(n) == n ? static_cast<int>(n) : 0;
}

// Fills an int field from `<arch>.<key>`; records the key as missing when required and absent.
void take(ModelImport& r, const Header& h, const std::string& arch, const char* key, const char* field, int& out, bool required) {
    const double v = kv_number(h, arch + "." + key);
    if (v >= 0 && v <= 1e9 && std::floor(v) == v) {
        out = static_cast<int>(v);
    } else if (v >= 0) {
        r.notes.push_back(arch + "." + key + " = " + num(v) + " is not a count; ignored");
        if (required) r.missing.push_back({field, arch + "." + key});
    } else if (required) {
        r.missing.push_back({field, arch + "." + key});
    }
}

// From the tensor table: the vocabulary, the head, biases, norms, the MLP kind, positions. A split
// part without layer 0's tensors (they are in another part) takes its architecture's MLP kind.
void read_tensor_facts(ModelImport& r, const std::vector<GgufTensorShape>& tensors) {
    using T = GgufTensorShape;
    const std::string& arch = r.architecture;
    ModelSpec& m = r.model;
    if (const T* t = find_tensor(tensors, "token_embd.weight"); t && t->n_dims == 2 && t->ne[1] <= 1u << 30) m.vocab = static_cast<int>(t->ne[1]);
    m.tied_embeddings = find_tensor(tensors, "output.weight") == nullptr;
    m.attn_bias = find_tensor(tensors, "blk.0.attn_q.bias") || find_tensor(tensors, "blk.0.attn_qkv.bias");
    m.mlp_bias = find_tensor(tensors, "blk.0.ffn_up.bias") || find_tensor(tensors, "blk.0.ffn_up_exps.bias") ||
                 find_tensor(tensors, "blk.0.attn_output.bias");
    m.norm = find_tensor(tensors, "blk.0.attn_norm.bias") ? NormKind::LayerNorm : NormKind::RmsNorm;
    // ffn_gate, ffn_gate_exps, ffn_gate_shexp are gate matrices; ffn_gate_inp is the router.
    bool gate_matrix = false, layer0 = false;
    for (const auto& t : tensors) {
        if (detail::contains(t.name, ".ffn_gate") && !detail::contains(t.name, ".ffn_gate_inp")) gate_matrix = true;
        if (t.name.rfind("blk.0.", 0) == 0) layer0 = true;
    }
    // Without layer 0: gated unless the family's MLP is plain GELU (llama.cpp's gpt2, bert, starcoder, falcon, phi2).
    if (!layer0) gate_matrix = !(arch == "gpt2" || arch == "bert" || arch == "starcoder" || arch == "falcon" || arch == "phi2");
    m.mlp = !gate_matrix ? MlpKind::Gelu : (arch.rfind("gemma", 0) == 0 ? MlpKind::GeGlu : MlpKind::SwiGlu);
    if (arch == "gpt-oss") m.mlp = MlpKind::SwiGlu;  // ffn_gate_up_exps fused in some conversions
    int norms = 0;
    for (const char* n : {"blk.0.attn_norm.weight", "blk.0.ffn_norm.weight", "blk.0.post_attention_norm.weight", "blk.0.post_ffw_norm.weight",
                          "blk.0.attn_norm_2.weight"})
        if (find_tensor(tensors, n)) ++norms;
    if (norms > 0) m.norms_per_layer = norms;
    // Per-head q/k norms (Qwen3, Gemma-3: one head's width), or norms spanning the whole projections (OLMo-2, MiniMax-M2:
    // attn_q_norm of heads x head_dim, attn_k_norm of kv_heads x head_dim; model.qk_norm_whole).
    if (const T* q = find_tensor(tensors, "blk.0.attn_q_norm.weight"), *k = find_tensor(tensors, "blk.0.attn_k_norm.weight"); q && k) {
        const bool one_dim = q->n_dims == 1 && k->n_dims == 1;
        m.qk_norm = one_dim && q->ne[0] == k->ne[0] && (m.hidden == 0 || q->ne[0] < static_cast<uint64_t>(m.hidden));
        const uint64_t hd = m.head_dim > 0 ? static_cast<uint64_t>(m.head_dim) : m.heads > 0 ? static_cast<uint64_t>(m.hidden / m.heads) : 0;
        if (!m.qk_norm && one_dim && hd > 0 && q->ne[0] == hd * static_cast<uint64_t>(m.heads) && k->ne[0] == hd * static_cast<uint64_t>(m.kv_heads))
            m.qk_norm = m.qk_norm_whole = true;
    }
    if (const T* t = find_tensor(tensors, "position_embd.weight"); t && t->n_dims == 2 && t->ne[1] <= 1u << 30) {
        m.max_position = static_cast<int>(t->ne[1]);
        if (m.context_limit == 0) m.context_limit = m.max_position;
    }
    if (const T* t = find_tensor(tensors, "token_types.weight"); t && t->n_dims == 2 && t->ne[1] <= 1u << 30) m.type_vocab = static_cast<int>(t->ne[1]);
}

// The layer pattern of an architecture whose recurrent layers have head_count_kv(i) 0 (lfm2, jamba): A where a layer
// has KV heads, R elsewhere; named as missing without a per-layer array or without a recurrent layer (`recurrent`).
void attend_where_kv_heads(ModelImport& r, const Header& h, const std::string& arch, const char* recurrent) {
    ModelSpec& m = r.model;
    const std::vector<double>* kv = kv_array(h, arch + ".attention.head_count_kv");
    m.layer_pattern.clear();
    for (int il = 0; kv && il < m.layers; ++il) m.layer_pattern += static_cast<size_t>(il) < kv->size() && (*kv)[static_cast<size_t>(il)] > 0 ? 'A' : 'R';
    if (m.layer_pattern.find('R') == std::string::npos) {
        m.layer_pattern.clear();
        r.missing.push_back({"model.layer_pattern", arch + ".attention.head_count_kv (per layer, 0 for " + recurrent + ")"});
    }
}

// llama.cpp's jamba (ggml-org/llama.cpp@82234e0:src/models/jamba.cpp): Mamba1 layers of jamba.ssm.conv_kernel,
// ssm.inner_size (d_inner: the channels, model.ssm_heads), ssm.state_size and ssm.time_step_rank (dt_rank) (:4-7), recurrent
// where head_count_kv(i) is 0 (:12); a layer's experts are there when its blk.i.ffn_gate_inp.weight is (:87), which
// model.moe_every holds when they fall on every period-th layer from period - 1 (Jamba's expert_layer_period 2, offset 1).
void read_jamba(ModelImport& r, const Header& h) {
    ModelSpec& m = r.model;
    const std::string arch = "jamba";
    m.recurrent = RecurrentKind::Mamba1;
    m.ssm_head_dim = 1, m.ssm_groups = 1;
    take(r, h, arch, "ssm.conv_kernel", "model.ssm_conv", m.ssm_conv, true);
    take(r, h, arch, "ssm.inner_size", "model.ssm_heads", m.ssm_heads, true);
    take(r, h, arch, "ssm.state_size", "model.ssm_state", m.ssm_state, true);
    take(r, h, arch, "ssm.time_step_rank", "model.ssm_dt_rank", m.ssm_dt_rank, true);
    attend_where_kv_heads(r, h, arch, "a Mamba layer");
    if (m.experts == 0) return;
    std::vector<bool> routed(static_cast<size_t>(m.layers), false);
    for (const auto& t : h.tensors) {
        const std::string& n = t.name;
        const size_t dot = n.find('.', 4);
        if (n.rfind("blk.", 0) != 0 || dot == std::string::npos || n.compare(dot, std::string::npos, ".ffn_gate_inp.weight") != 0) continue;
        const std::string digits = n.substr(4, dot - 4);
        if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        int il = 0;
        for (char c : digits) il = il * 10 + (c - '0');
        if (il < m.layers) routed[static_cast<size_t>(il)] = true;
    }
    const auto first = std::find(routed.begin(), routed.end(), true);
    m.moe_every = first == routed.end() ? 1 : static_cast<int>(first - routed.begin()) + 1;
    for (int il = 0; il < m.layers; ++il)
        if (routed[static_cast<size_t>(il)] != ((il + 1) % m.moe_every == 0)) {
            r.missing.push_back({"model.moe_every", "blk.N.ffn_gate_inp.weight (a router on every period-th layer from period - 1)"});
            break;
        }
}

// A hybrid's recurrent layers (llama.cpp's qwen3next, granitehybrid, nemotron_h, nemotron_h_moe): the <arch>.ssm.* keys
// (conv_kernel, state_size, group_count, inner_size = heads x head_dim, time_step_rank = heads), and which
// layers attend: a per-layer head_count_kv array (0: no attention; ggml-org/llama.cpp@01b77b5
// src/llama-model.cpp: granitehybrid recurrent_layer_arr[i] = n_head_kv(i) == 0, nemotron_h and nemotron_h_moe also
// n_ff(i) == 0, an MLP-only block where n_ff(i) > 0, nemotron_h_moe's an MoE block) or qwen3next's full_attention_interval ((i + 1) % interval == 0 attends).
void read_recurrent(ModelImport& r, const Header& h, const std::string& arch) {
    ModelSpec& m = r.model;
    // LFM2 (llama.cpp's lfm2, lfm2moe): short-convolution layers where head_count_kv(i) is 0
    // (src/llama-model.cpp LLM_ARCH_LFM2: recurrent_layer_arr[il] = n_head_kv(il) == 0), of shortconv.l_cache.
    if (kv_number(h, arch + ".shortconv.l_cache") >= 0 && m.layers > 0) {
        take(r, h, arch, "shortconv.l_cache", "model.ssm_conv", m.ssm_conv, true);
        m.recurrent = RecurrentKind::ShortConv;
        m.qk_norm = true;
        attend_where_kv_heads(r, h, arch, "a short-conv layer");
        return;
    }
    if (arch == "jamba" && m.layers > 0) {
        read_jamba(r, h);
        return;
    }
    if (kv_number(h, arch + ".ssm.state_size") < 0 || m.layers <= 0) return;
    int inner = 0;
    m.ssm_groups = 1;
    take(r, h, arch, "ssm.conv_kernel", "model.ssm_conv", m.ssm_conv, true);
    take(r, h, arch, "ssm.state_size", "model.ssm_state", m.ssm_state, true);
    take(r, h, arch, "ssm.group_count", "model.ssm_groups", m.ssm_groups, false);
    take(r, h, arch, "ssm.inner_size", "model.ssm_head_dim", inner, true);
    take(r, h, arch, "ssm.time_step_rank", "model.ssm_heads", m.ssm_heads, true);
    m.ssm_head_dim = m.ssm_heads > 0 ? inner / m.ssm_heads : 0;
    const bool gdn = arch == "qwen3next";
    m.recurrent = gdn ? RecurrentKind::GatedDeltaNet : RecurrentKind::Mamba2;
    if (gdn) m.attn_gate = m.qk_norm = true;  // Qwen3-Next's gated attention with q/k norms (its layer 0 is recurrent)
    const bool nemotron = arch == "nemotron_h" || arch == "nemotron_h_moe";
    if (nemotron) m.norms_per_layer = 1;
    const std::vector<double>* kv = kv_array(h, arch + ".attention.head_count_kv");
    const std::vector<double>* ff = kv_array(h, arch + ".feed_forward_length");
    const double interval = kv_number(h, arch + ".full_attention_interval", 0);
    m.layer_pattern.clear();
    for (int il = 0; il < m.layers; ++il) {
        const size_t i = static_cast<size_t>(il);
        const bool attn = kv ? i < kv->size() && (*kv)[i] > 0 : interval > 0 && (il + 1) % static_cast<int>(interval) == 0;
        const bool mlp = !ff || (i < ff->size() && (*ff)[i] > 0);
        // nemotron_h_moe (Nemotron-3): a block with n_ff(i) > 0 and no attention is its MoE block (E).
        m.layer_pattern += attn ? (mlp ? 'A' : '*') : (mlp && ff && nemotron) ? (m.experts > 0 ? 'E' : '-') : (mlp ? 'R' : 'M');
    }
    // falcon-h1: every layer attends and runs its Mamba2 mixer (ggml-org/llama.cpp@5f0e6cb:src/models/falcon-h1.cpp:14:
    // is_recr_impl all true; one scalar head_count_kv for every layer).
    if (arch == "falcon-h1") m.layer_pattern.assign(static_cast<size_t>(m.layers), 'P');
    if (m.layer_pattern.find_first_of("RMP") == std::string::npos) {
        m.layer_pattern.clear();
        r.missing.push_back({"model.layer_pattern", arch + ".attention.head_count_kv (per layer, 0 for a recurrent layer) or " + arch +
                                                        ".full_attention_interval"});
    }
    // Granite's shared MLP: a dense model's MLP, a MoE's shared expert(s) of expert_feed_forward_length.
    int shared = 0;
    take(r, h, arch, "expert_shared_feed_forward_length", "model.shared_experts", shared, false);
    if (shared > 0 && m.experts == 0) m.ffn = shared;
    else if (shared > 0 && m.expert_ffn > 0) m.shared_experts = std::max(1, static_cast<int>(std::lround(static_cast<double>(shared) / m.expert_ffn)));
}

// A RoPE scaling in the GGUF (<arch>.rope.scaling.type, .factor, .original_context_length) leaves the
// window at <arch>.context_length: llama.cpp's n_ctx_train, what Ollama caps num_ctx at and llama.cpp
// warns past ("n_ctx_seq > n_ctx_train"); YaRN only runs from original_context_length
// (ggml-org/llama.cpp@a5410f0:src/llama-model.cpp load_hparams: n_ctx_orig_yarn = n_ctx_train unless
// the key is given). Said in a note, as vLLM would take the config.json's factor (import_hf.cpp).
void note_rope_scaling(ModelImport& r, const Header& h, const std::string& arch) {
    const std::string type = kv_text(h, arch + ".rope.scaling.type");
    const double factor = kv_number(h, arch + ".rope.scaling.factor"), original = kv_number(h, arch + ".rope.scaling.original_context_length");
    if (type.empty() || type == "none" || !(factor > 1) || r.model.context_limit <= 0) return;  // no stretch: nothing to say
    r.notes.push_back(arch + ".rope.scaling.type " + type + ", factor " + num(factor) +
                      (original > 0 ? ", original_context_length " + count_text(original) : std::string()) + ": model.context_limit is context_length " +
                      count_text(r.model.context_limit) + ", llama.cpp's n_ctx_train (Ollama's cap on num_ctx); vLLM would derive its window from the config.json");
}

void read_model(ModelImport& r, const Header& h) {
    const std::string arch = kv_text(h, "general.architecture");
    r.architecture = arch;
    ModelSpec& m = r.model;
    m.family = family_of(arch);
    m.name = kv_text(h, "general.name");
    if (arch.empty()) {
        r.missing.push_back({"model.layers", "general.architecture"});
        return;
    }
    take(r, h, arch, "block_count", "model.layers", m.layers, true);
    // GLM-4.5's converter counts its multi-token-prediction layer in block_count (num_hidden_layers +
    // num_nextn_predict_layers) and writes <arch>.nextn_predict_layers; llama.cpp runs the others only
    // (ggml-org/llama.cpp@06e514f:src/models/glm4-moe.cpp:23, :54-58: n_layer = n_layer_all - n_layer_nextn).
    const int nextn = mtp_layers(h, arch, m.layers);
    if (nextn > 0) m.layers -= nextn;
    take(r, h, arch, "embedding_length", "model.hidden", m.hidden, true);
    take(r, h, arch, "attention.head_count", "model.heads", m.heads, true);
    m.kv_heads = m.heads;
    take(r, h, arch, "attention.head_count_kv", "model.kv_heads", m.kv_heads, false);
    take(r, h, arch, "context_length", "model.context_limit", m.context_limit, false);
    note_rope_scaling(r, h, arch);
    take(r, h, arch, "expert_count", "model.experts", m.experts, false);
    const bool moe = m.experts > 0;
    take(r, h, arch, "feed_forward_length", "model.ffn", m.ffn, !moe);
    if (moe) {
        take(r, h, arch, "expert_used_count", "model.top_k", m.top_k, true);
        take(r, h, arch, "expert_shared_count", "model.shared_experts", m.shared_experts, false);
        take(r, h, arch, "leading_dense_block_count", "model.dense_layers", m.dense_layers, false);
        m.expert_ffn = m.ffn;  // Mixtral-style: the experts are the FFN
        take(r, h, arch, "expert_feed_forward_length", "model.expert_ffn", m.expert_ffn, m.ffn == 0);
        if (arch == "llama4") {  // one shared expert on each MoE layer; experts every interleave_moe_layer_step-th layer
            if (m.shared_experts == 0) m.shared_experts = 1;
            take(r, h, arch, "interleave_moe_layer_step", "model.moe_every", m.moe_every, false);
        }
        // ERNIE-4.5 MoE: experts where il >= leading_dense_block_count and (il + 1) % interleave_moe_layer_step == 0
        // (ggml-org/llama.cpp@75dc8f6:src/models/ernie4-5-moe.cpp); llama.cpp has no end index.
        if (arch == "ernie4_5-moe") take(r, h, arch, "interleave_moe_layer_step", "model.moe_every", m.moe_every, false);
    }
    take(r, h, arch, "attention.kv_lora_rank", "model.kv_lora_rank", m.kv_lora_rank, false);
    if (m.kv_lora_rank > 0) {  // DeepSeek MLA: key_length = nope + rope, value_length = v
        take(r, h, arch, "attention.q_lora_rank", "model.q_lora_rank", m.q_lora_rank, false);
        take(r, h, arch, "rope.dimension_count", "model.qk_rope_head_dim", m.qk_rope_head_dim, true);
        int key_length = 0;
        take(r, h, arch, "attention.key_length", "model.qk_nope_head_dim", key_length, true);
        m.qk_nope_head_dim = std::max(0, key_length - m.qk_rope_head_dim);
        take(r, h, arch, "attention.value_length", "model.v_head_dim", m.v_head_dim, true);
        // Files converted for llama.cpp's MLA kernels (2025) store the absorbed per-head sizes.
        int mla_key = 0;
        take(r, h, arch, "attention.key_length_mla", "model.qk_nope_head_dim", mla_key, false);
        if (mla_key > 0) {
            m.qk_nope_head_dim = std::max(0, mla_key - m.qk_rope_head_dim);
            take(r, h, arch, "attention.value_length_mla", "model.v_head_dim", m.v_head_dim, false);
        }
        // DeepSeek-V3.2's lightning indexer (deepseek32; GLM's glm-dsa too): ggml-org/llama.cpp src/llama-arch.cpp
        // LLM_KV_ATTENTION_INDEXER_HEAD_COUNT / _KEY_LENGTH ("%s.attention.indexer.head_count", ".key_length").
        take(r, h, arch, "attention.indexer.head_count", "model.index_heads", m.index_heads, false);
        take(r, h, arch, "attention.indexer.key_length", "model.index_head_dim", m.index_head_dim, false);
    } else {
        take(r, h, arch, "attention.key_length", "model.head_dim", m.head_dim, false);
    }
    const bool window_stated = kv_number(h, arch + ".attention.sliding_window") >= 0;
    take(r, h, arch, "attention.sliding_window", "model.sliding_window", m.sliding_window, false);
    if (arch == "llama4" && !window_stated) {
        // llama.cpp's LLM_ARCH_LLAMA4 without the key: LLAMA_SWA_TYPE_CHUNKED, n_swa 8192, set_swa_pattern(4).
        m.sliding_window = 8192;
        m.chunked = true;
        m.global_every = 4;
    } else if (m.sliding_window > 0) {
        // llama.cpp's own per-architecture patterns (src/llama-model.cpp): gemma2 and gpt-oss
        // alternate local and global layers, gemma3 has one global layer in six.
        if (arch == "gemma2" || arch == "gpt-oss") m.global_every = 2;
        else if (arch == "gemma3") m.global_every = 6;
        // cohere2 set_swa_pattern(4); olmo2 (OLMo-3) <arch>.attention.sliding_window_pattern, 4 without it
        // (ggml-org/llama.cpp@8a5c4e0:src/models/olmo2.cpp:6-11).
        else if (arch == "cohere2") m.global_every = 4;
        else if (arch == "olmo2") {
            m.global_every = 4;
            take(r, h, arch, "attention.sliding_window_pattern", "model.global_every", m.global_every, false);
        }
    }
    m.attn_softcap = std::max(0.0, kv_number(h, arch + ".attn_logit_softcapping", 0));
    m.final_softcap = std::max(0.0, kv_number(h, arch + ".final_logit_softcapping", 0));

    read_tensor_facts(r, std::vector<GgufTensorShape>(h.tensors.begin(), h.tensors.end()));
    read_recurrent(r, h, arch);
    if (m.vocab > 0) return;
    if (kv_number(h, arch + ".vocab_size") > 0) take(r, h, arch, "vocab_size", "model.vocab", m.vocab, true);
    else r.missing.push_back({"model.vocab", "token_embd.weight, " + arch + ".vocab_size"});
}

// A vision projector (an mmproj GGUF: general.architecture "clip", llama.cpp tools/mtmd/clip.cpp):
// the encoder's width, heads and MLP from clip.vision.*, the positions one image becomes from the
// image and patch sizes (a class token, v.class_embd, adds one: CLIP ViT-L/14 at 336 px is
// (336/14)^2 + 1 = 577), the parameters exactly from the tensor table, the type as most elements have it.
void read_projector(ModelImport& r, const Header& h) {
    r.kind = "gguf-mmproj";
    r.architecture = "clip";
    r.has_mmproj = true;
    VisionProjector& v = r.mmproj;
    const std::string enc = "clip.vision.";
    auto count = [&](const char* key, const char* field, int& out) {
        const double x = kv_number(h, enc + key);
        if (x > 0 && x <= 1 << 22 && std::floor(x) == x) out = static_cast<int>(x);
        else r.missing.push_back({field, enc + key});
    };
    count("embedding_length", "inference.llamacpp.mmproj.hidden", v.hidden);
    count("attention.head_count", "inference.llamacpp.mmproj.heads", v.heads);
    count("feed_forward_length", "inference.llamacpp.mmproj.ffn", v.ffn);
    int image = 0, patch = 0;
    count("image_size", "inference.llamacpp.mmproj.image_tokens", image);
    count("patch_size", "inference.llamacpp.mmproj.image_tokens", patch);
    if (image > 0 && patch > 0) {
        // In double: 2^22 px in 1 px patches squares past int; more positions than the field takes
        // (core/fields.cpp) are not filled, as a key out of range is not (found by the import fuzz harness).
        const double side = image / patch;
        const double positions = side * side + (find_tensor(h.tensors, "v.class_embd") ? 1 : 0);
        Error range;
        if (check_value("inference.llamacpp.mmproj.image_tokens", positions, range)) v.image_tokens = static_cast<int>(positions);
        else r.missing.push_back({"inference.llamacpp.mmproj.image_tokens", enc + "image_size"});
    }
    std::map<std::string, double> by_type;
    for (const auto& t : h.tensors) {
        v.params += t.elements;
        r.mmproj_bytes += t.bytes;
        if (t.n_dims >= 2) by_type[t.type_name] += t.elements;
    }
    // The type the engine counts every parameter at (core/serve/llamacpp.cpp: f16, bf16, f32, q8_0).
    std::string most;
    double most_elements = -1;
    for (const auto& [type, n] : by_type)
        if (n > most_elements) most = type, most_elements = n;
    const std::string type = ascii_lower(most);
    if (type == "f16" || type == "bf16" || type == "f32" || type == "q8_0") v.type = type;
    else if (!most.empty()) r.notes.push_back("the projector's matrices are mostly " + most + ", which the estimate does not model: counted as f16");
    std::vector<std::pair<std::string, double>> shares(by_type.begin(), by_type.end());
    r.notes.push_back("vision projector: " + count_text(v.params) + " parameters in " + count_text(double(h.tensors.size())) + " tensors, " +
                      count_text(r.mmproj_bytes) + " bytes (" + detail::mix_text(shares) + "); the estimate counts " + v.type +
                      " for every parameter, " + count_text(image) + " px images in " + count_text(v.image_tokens) + " positions");
    r.complete = r.missing.empty();
}

}  // namespace

// [SECTION] weights -------------------------------------------------------------------------------
namespace {

Part part_of(const std::string& n, int n_dims) {
    if (n.rfind("token_embd.", 0) == 0 || n.rfind("position_embd.", 0) == 0 || n.rfind("token_types.", 0) == 0) return Part::Embedding;
    if (n == "output.weight") return Part::Output;
    if (n.rfind("blk.", 0) != 0 || n_dims < 2) return Part::Other;  // norms, biases, rope factors
    if (detail::contains(n, ".ffn_gate_inp")) return Part::Router;
    if (detail::contains(n, "_exps")) return Part::ExpertsRouted;
    if (detail::contains(n, "_shexp")) return Part::ExpertsShared;
    if (detail::contains(n, ".ffn_")) return Part::Mlp;
    if (detail::contains(n, ".attn_")) return Part::Attention;
    return Part::Other;
}

}  // namespace

void detail::gguf_tensor_facts(ModelImport& r, const std::vector<GgufTensorShape>& tensors) { read_tensor_facts(r, tensors); }

ModelImport import_gguf(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size) {
    ByteReader in(data, size, file_size);
    Header h;
    Progress p;
    read_header(in, h, p);
    if (in.more()) {
        // One more read should do (string arrays have no byte length up front: estimate_end); at least
        // a quarter more, so that a bad estimate still reaches the cap within the callers' 16 rounds.
        const std::uint64_t grow = std::max<std::uint64_t>(std::uint64_t(size) + size / 4, 1u << 20);
        const std::uint64_t want = std::min<std::uint64_t>(in.file_size(), std::max(estimate_end(in, p, h.tensor_count), grow));
        if (want > kMaxImportHeaderBytes && size >= kMaxImportHeaderBytes)
            return detail::failure("gguf", name, "the GGUF header is larger than " + count_text(double(kMaxImportHeaderBytes)) + " bytes, more than a model's header takes");
        return detail::failure("gguf", name, "the GGUF header continues past the first " + count_text(double(size)) + " bytes",
                               std::min<std::uint64_t>(want, std::max<std::uint64_t>(kMaxImportHeaderBytes, size + 1)));
    }
    if (!in.ok()) return detail::failure("gguf", name, in.error());

    ModelImport r;
    r.ok = true;
    r.kind = "gguf";
    r.name = name;
    r.engine = "llama.cpp";
    r.header_bytes = h.end;
    r.tensor_count = h.tensor_count;
    if (kv_text(h, "general.architecture") == "clip") {
        read_projector(r, h);
        return r;
    }
    read_model(r, h);

    const double ft = kv_number(h, "general.file_type");
    for (const auto& f : kFtypes)
        if (ft == f.id) r.weights_format = f.weights;
    if (r.weights_format.empty() && ft >= 0) r.notes.push_back("general.file_type " + num(ft) + " is not a llama.cpp file type this tool knows");

    // Tensor data starts at the next multiple of general.alignment after the infos.
    double align = kv_number(h, "general.alignment", 32);
    if (!(align >= 1 && align <= 1 << 20)) align = 32;
    const double data_start = std::ceil(static_cast<double>(h.end) / align) * align;
    detail::WeightsSum sum;
    std::map<std::string, double> by_type;
    double data_end = 0, skipped = 0;
    // The multi-token-prediction layers' tensors: llama.cpp creates them TENSOR_SKIP and subtracts their bytes from
    // what it loads (ggml-org/llama.cpp src/llama-model-loader.cpp create_tensor: "model has unused tensor ... ignoring").
    const int nextn = mtp_layers(h, r.architecture, static_cast<int>(std::min(1e9, kv_number(h, r.architecture + ".block_count", 0))));
    for (const auto& t : h.tensors) {
        data_end = std::max(data_end, static_cast<double>(t.offset) + t.bytes);
        if (nextn > 0 && detail::layer_of(t.name, "blk.") >= r.model.layers) {
            skipped += t.bytes;
            continue;
        }
        const Part part = part_of(t.name, static_cast<int>(t.n_dims));
        sum.add(part, detail::layer_of(t.name, "blk."), t.bytes, t.elements);
        by_type[t.type_name] += t.elements;
    }
    if (skipped > 0 && kv_number(h, "split.count", 1) <= 1) detail::mtp_note(r, nextn, skipped);
    if (file_size > 0 && data_start + data_end > static_cast<double>(file_size))
        r.notes.push_back("the tensor table reaches byte " + count_text(data_start + data_end) + " but the file has " + count_text(double(file_size)) +
                          " bytes: a truncated download?");
    std::vector<std::pair<std::string, double>> shares(by_type.begin(), by_type.end());
    const double split = kv_number(h, "split.count", 1);
    if (split > 1) {
        // gguf-split: split.count and split.no are u16, split.tensors.count the model's whole table.
        const double no = kv_number(h, "split.no", -1), total = kv_number(h, "split.tensors.count", -1);
        if (!(split <= 65535 && std::floor(split) == split && no >= 0 && no < split && std::floor(no) == no))
            return detail::failure("gguf", name, "split.no " + num(no) + " is not a part of a " + num(split) + "-part split (0 to " + num(split - 1) + ")");
        if (!(total >= static_cast<double>(h.tensor_count) && total < std::ldexp(1.0, 40)))
            return detail::failure("gguf", name, "split.tensors.count " + num(total) + " is less than this part's own " + count_text(double(h.tensor_count)) + " tensors");
        GgufSplitPart& part = r.split;
        part.count = static_cast<int>(split);
        part.no = static_cast<int>(no);
        part.tensors_total = static_cast<std::uint64_t>(total);
        part.weights = sum.file;
        part.weights.params = sum.params;
        part.weights.layer_bytes = sum.layers;
        part.weights.layer_routed_bytes = sum.routed;
        part.weights.has_parts = true;
        part.weights.source = name;
        part.tensors.assign(h.tensors.begin(), h.tensors.end());
        // A split GGUF's MTP block can sit in any part, whose metadata is in part 1 only: merge_imports sums the
        // tensors again with part 1's nextn_predict_layers (join_split), as a whole file is summed above.
        part.nextn_layers = nextn;
        part.tensor_bytes.reserve(h.tensors.size());
        for (const auto& t : h.tensors)
            part.tensor_bytes.push_back({static_cast<int>(part_of(t.name, static_cast<int>(t.n_dims))), t.bytes, t.elements, t.type_name});
        // The metadata is in part 1 only: the others name it instead of every key they lack.
        if (part.no > 0 && r.architecture.empty())
            r.missing = {{"model.layers", "general.architecture (in part 1, " + detail::split_part_name(name, part.no, part.count, 0) + ")"}};
    } else if (!h.tensors.empty()) {
        sum.file.mix = detail::mix_text(shares);
        sum.finish(r, name);
    }
    detail::finish_model(r);
    return r;
}

}  // namespace vc::io
