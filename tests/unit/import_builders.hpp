// Test helpers: small GGUF and safetensors files written byte by byte (no downloads), for the
// import tests and the fuzz corpus generator.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vc::test {

// A GGUF v3 writer: metadata key/values, then tensor infos; the data section is left out unless
// asked for (the readers never need it).
class GgufWriter {
public:
    enum Type : std::uint32_t { U8 = 0, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 };

    void u32(const std::string& key, std::uint32_t v) { kv(key, U32), put(v), ++kv_count_; }
    void u16(const std::string& key, std::uint16_t v) { kv(key, U16), put(v), ++kv_count_; }
    void i32(const std::string& key, std::int32_t v) { kv(key, I32), put(v), ++kv_count_; }
    void f32(const std::string& key, float v) { kv(key, F32), put(v), ++kv_count_; }
    void str(const std::string& key, const std::string& v) { kv(key, STRING), text(v), ++kv_count_; }
    void str_array(const std::string& key, const std::vector<std::string>& v) {
        kv(key, ARRAY), put(std::uint32_t(STRING)), put(std::uint64_t(v.size()));
        for (const auto& s : v) text(s);
        ++kv_count_;
    }
    void i32_array(const std::string& key, const std::vector<std::int32_t>& v) {
        kv(key, ARRAY), put(std::uint32_t(I32)), put(std::uint64_t(v.size()));
        for (auto x : v) put(x);
        ++kv_count_;
    }
    // dims in ggml order (ne[0] = row length first); type a ggml type id (0 F32, 1 F16, 8 Q8_0, 12 Q4_K, 14 Q6_K).
    void tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type) {
        std::string& t = tensors_;
        append(t, std::uint64_t(name.size())), t += name, append(t, std::uint32_t(dims.size()));
        for (auto d : dims) append(t, d);
        append(t, type), append(t, offset_);
        offset_ += 4096;  // any increasing offsets: the readers do not read the data
        ++tensor_count_;
    }
    std::string bytes(std::uint32_t version = 3) const {
        std::string out = "GGUF";
        append(out, version), append(out, tensor_count_), append(out, kv_count_);
        return out + kv_ + tensors_;
    }

private:
    template <typename T>
    static void append(std::string& s, T v) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        s.append(b, sizeof(T));
    }
    template <typename T>
    void put(T v) { append(kv_, v); }
    void text(const std::string& s) { put(std::uint64_t(s.size())), kv_ += s; }
    void kv(const std::string& key, Type t) { text(key), put(std::uint32_t(t)); }

    std::string kv_, tensors_;
    std::uint64_t kv_count_ = 0, tensor_count_ = 0, offset_ = 0;
};

// A safetensors file: the header JSON for (name, dtype, shape) entries, data_offsets laid out in
// order, and `data` zero bytes (or none: then the file is the header alone and offsets are unchecked).
struct StEntry {
    std::string name, dtype;
    std::vector<std::uint64_t> shape;
};
inline std::uint64_t st_dtype_bytes(const std::string& d) {
    if (d == "F32" || d == "I32" || d == "U32") return 4;
    if (d == "F16" || d == "BF16" || d == "I16") return 2;
    if (d == "F64" || d == "I64") return 8;
    return 1;
}
inline std::string safetensors_bytes(const std::vector<StEntry>& entries, bool with_data) {
    std::string h = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::uint64_t off = 0;
    for (const auto& e : entries) {
        std::uint64_t n = st_dtype_bytes(e.dtype);
        std::string shape;
        for (auto d : e.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d), n *= d;
        h += ",\"" + e.name + "\":{\"dtype\":\"" + e.dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" + std::to_string(off) + "," +
             std::to_string(off + n) + "]}";
        off += n;
    }
    h += "}";
    std::string out(8, '\0');
    std::uint64_t len = h.size();
    std::memcpy(&out[0], &len, 8);
    out += h;
    if (with_data) out += std::string(static_cast<size_t>(off), '\0');
    return out;
}

// A small Llama-style GGUF: 2 layers, hidden 256, 4 heads (2 KV), FFN 512, vocab 1000, Q4_K_M
// (Q4_K matrices, Q6_K attn_v and ffn_down, Q8_0 embedding, F32 norms), untied output (Q6_K).
inline void tiny_llama_metadata(GgufWriter& w) {
    w.str("general.architecture", "llama");
    w.str("general.name", "Tiny Llama");
    w.u32("general.file_type", 15);  // LLAMA_FTYPE_MOSTLY_Q4_K_M
    w.u32("llama.block_count", 2);
    w.u32("llama.context_length", 4096);
    w.u32("llama.embedding_length", 256);
    w.u32("llama.feed_forward_length", 512);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(1000, "tok"));
}
// The tensors outside the layers (483,024 B), then layer `first` to `last` (376,064 B each).
inline void tiny_llama_tensors(GgufWriter& w, bool outside, int first, int last) {
    if (outside) {
        w.tensor("token_embd.weight", {256, 1000}, 8);   // Q8_0: 256,000 / 32 x 34 = 272,000 B
        w.tensor("output_norm.weight", {256}, 0);        // 1,024 B
        w.tensor("output.weight", {256, 1000}, 14);      // Q6_K: 256,000 / 256 x 210 = 210,000 B
    }
    for (int i = first; i <= last; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        w.tensor(b + "attn_norm.weight", {256}, 0);          // 1,024
        w.tensor(b + "attn_q.weight", {256, 256}, 12);       // Q4_K: 65,536 / 256 x 144 = 36,864
        w.tensor(b + "attn_k.weight", {256, 128}, 12);       // 18,432
        w.tensor(b + "attn_v.weight", {256, 128}, 14);       // Q6_K: 32,768 / 256 x 210 = 26,880
        w.tensor(b + "attn_output.weight", {256, 256}, 12);  // 36,864
        w.tensor(b + "ffn_norm.weight", {256}, 0);           // 1,024
        w.tensor(b + "ffn_gate.weight", {256, 512}, 12);     // 73,728
        w.tensor(b + "ffn_up.weight", {256, 512}, 12);       // 73,728
        w.tensor(b + "ffn_down.weight", {512, 256}, 14);     // Q6_K: 131,072 / 256 x 210 = 107,520
    }
}
inline std::string tiny_llama_gguf() {
    GgufWriter w;
    tiny_llama_metadata(w);
    tiny_llama_tensors(w, true, 0, 1);
    return w.bytes();
}

// The same model as llama.cpp's gguf-split writes it in 3 parts (tiny-00001-of-00003.gguf ...):
// the metadata in part 1 only, split.no (u16, 0-based), split.count (u16) and split.tensors.count
// (i32, the whole model's 21) in every part; part 1 holds the 3 tensors outside the layers,
// parts 2 and 3 one layer (9 tensors) each. `count` and `total` can be set wrong for the tests.
inline std::string tiny_llama_split(int no, int count = 3, int total = 21) {
    GgufWriter w;
    if (no == 0) tiny_llama_metadata(w);
    w.u16("split.no", static_cast<std::uint16_t>(no));
    w.u16("split.count", static_cast<std::uint16_t>(count));
    w.i32("split.tensors.count", total);
    if (no == 0) tiny_llama_tensors(w, true, 0, -1);
    else tiny_llama_tensors(w, false, no - 1, no - 1);
    return w.bytes();
}

// A small Mixtral-style MoE GGUF as llama-quantize writes Q4_K_M: the tiny Llama's metadata and
// attention with 4 experts (2 used) of FFN 256 in place of its dense FFN. ffn_down_exps is Q6_K in
// layer 0 and Q4_K in layer 1 (use_more_bits of 2 layers), so the layers' routed experts differ:
// layer 0 gate and up 256 x 256 x 4 = 262,144 weights / 256 x 144 = 147,456 B each, down Q6_K
// 262,144 / 256 x 210 = 215,040 B: 509,952 B; layer 1 three times 147,456 = 442,368 B.
inline std::string tiny_moe_gguf() {
    GgufWriter w;
    tiny_llama_metadata(w);
    w.u32("llama.expert_count", 4);
    w.u32("llama.expert_used_count", 2);
    w.u32("llama.expert_feed_forward_length", 256);
    tiny_llama_tensors(w, true, 0, -1);
    for (int i = 0; i <= 1; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        w.tensor(b + "attn_norm.weight", {256}, 0);                 // 1,024
        w.tensor(b + "attn_q.weight", {256, 256}, 12);              // 36,864
        w.tensor(b + "attn_k.weight", {256, 128}, 12);              // 18,432
        w.tensor(b + "attn_v.weight", {256, 128}, 14);              // 26,880
        w.tensor(b + "attn_output.weight", {256, 256}, 12);         // 36,864
        w.tensor(b + "ffn_norm.weight", {256}, 0);                  // 1,024
        w.tensor(b + "ffn_gate_inp.weight", {256, 4}, 0);           // F32: 1,024 x 4 = 4,096
        w.tensor(b + "ffn_gate_exps.weight", {256, 256, 4}, 12);    // 147,456
        w.tensor(b + "ffn_up_exps.weight", {256, 256, 4}, 12);      // 147,456
        w.tensor(b + "ffn_down_exps.weight", {256, 256, 4}, i == 0 ? 14 : 12);  // 215,040 / 147,456
    }
    return w.bytes();
}

// A small CLIP vision projector as llama.cpp's mmproj files hold it (general.architecture "clip",
// clip.vision.* keys): width 64, 4 heads, MLP 256, 56 px images in 14 px patches, one block, a
// class token, a 1-layer projector to the tiny Llama's 256. 104,640 parameters, 210,048 bytes.
inline std::string tiny_mmproj_gguf(uint32_t image_size = 56, uint32_t patch_size = 14) {
    GgufWriter w;
    w.str("general.architecture", "clip");
    w.str("general.name", "Tiny CLIP");
    w.u32("general.file_type", 1);
    w.u32("clip.vision.embedding_length", 64);
    w.u32("clip.vision.attention.head_count", 4);
    w.u32("clip.vision.feed_forward_length", 256);
    w.u32("clip.vision.image_size", image_size);
    w.u32("clip.vision.patch_size", patch_size);
    w.u32("clip.vision.block_count", 1);
    w.str("clip.projector_type", "mlp");
    w.tensor("v.class_embd", {64}, 0);                     // F32: 64 elements, 256 B
    w.tensor("v.patch_embd.weight", {14, 14, 3, 64}, 1);   // F16: 37,632 elements, 75,264 B
    w.tensor("v.position_embd.weight", {64, 17}, 1);       // F16: 1,088, 2,176 B ((56/14)^2 + 1 = 17 positions)
    for (const char* n : {"attn_q", "attn_k", "attn_v", "attn_out"})
        w.tensor(std::string("v.blk.0.") + n + ".weight", {64, 64}, 1);  // F16: 4,096 each, 8,192 B
    w.tensor("v.blk.0.ffn_up.weight", {64, 256}, 1);       // F16: 16,384, 32,768 B
    w.tensor("v.blk.0.ffn_down.weight", {256, 64}, 1);     // F16: 16,384, 32,768 B
    w.tensor("v.blk.0.ln1.weight", {64}, 0);               // F32: 64, 256 B
    w.tensor("mm.0.weight", {64, 256}, 1);                 // F16: 16,384, 32,768 B
    w.tensor("mm.0.bias", {256}, 0);                       // F32: 256, 1,024 B
    return w.bytes();
}

}  // namespace vc::test
