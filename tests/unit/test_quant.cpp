// Weight formats, checked against the sizes their tools print: llama.cpp's quantize README table
// for Llama-3.1-8B, the QLoRA paper's bits, GPTQ/AWQ group layouts worked by hand.
#include <catch.hpp>

#include <cmath>

#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "core/units.hpp"

using namespace vc;
using Catch::Detail::Approx;

static ModelSpec preset(const char* id) {
    auto r = resolve_model(*find_preset(id));
    REQUIRE(r.ok);
    return r.value;
}

// `gguf_file`: as the llama.cpp engine prices it (mxfp4 as the MXFP4_MOE file type).
static WeightBreakdown weights(const ModelSpec& m, const char* format, int group = 128, bool gguf_file = false) {
    QuantOptions q;
    q.format = format;
    q.group_size = group;
    q.gguf_file = gguf_file;
    auto r = weight_bytes(m, q);
    REQUIRE(r.ok);
    return r.value;
}

TEST_CASE("GGUF: Llama-3.1-8B file sizes and bits per weight match llama.cpp's quantize README") {
    const ModelSpec m = preset("llama-3.1-8b");
    // The README's table: Q4_K_M 4.58 GiB at 4.8944 bpw, Q8_0 7.95 GiB at 8.5008.
    const auto q4 = weights(m, "q4_k_m");
    CHECK(q4.params == 8030261248.0);
    CHECK(bytes_to_gib(q4.total) == Approx(4.5754).epsilon(1e-4));
    CHECK(q4.bits_per_weight == Approx(4.8944).epsilon(1e-4));
    // Q4_K_M is a mix: attn_v and ffn_down in Q6_K on 16 of 32 layers (use_more_bits), output Q6_K,
    // token_embd Q4_K. Hand count: Q4_K 6,498,025,472 weights x 4.5 bits, Q6_K 1,531,969,536 x
    // 6.5625 bits, 266,240 F32 norm weights x 32 bits.
    CHECK(q4.total == 6498025472.0 * 4.5 / 8 + 1531969536.0 * 6.5625 / 8 + 266240.0 * 4);
    CHECK(q4.mix == "F32 0%, Q4_K 81%, Q6_K 19%");

    const auto q8 = weights(m, "q8_0");
    CHECK(bytes_to_gib(q8.total) == Approx(7.95).epsilon(2e-3));
    CHECK(q8.bits_per_weight == Approx(8.5008).epsilon(1e-4));

    struct Row {
        const char* type;
        double bpw;
    };
    const Row rows[] = {{"q2_k", 3.1593}, {"iq4_xs", 4.4597}, {"q5_k_m", 5.7036}, {"q6_k", 6.5633}, {"gguf-f16", 16.0005}};
    for (const auto& r : rows) {
        INFO(r.type);
        CHECK(weights(m, r.type).bits_per_weight == Approx(r.bpw).epsilon(1e-4));
    }
}

TEST_CASE("GGUF block layouts: bits per weight of each ggml type") {
    // From the block structs: Q4_K = (2 + 2 + 12 + 128) bytes / 256 weights = 4.5 bits, etc.
    struct Row {
        const char* name;
        double bits;
    };
    const Row rows[] = {{"Q4_0", 4.5},   {"Q8_0", 8.5},     {"Q2_K", 2.625},   {"Q3_K", 3.4375}, {"Q4_K", 4.5},
                        {"Q5_K", 5.5},   {"Q6_K", 6.5625},  {"IQ2_XXS", 2.0625}, {"IQ2_XS", 2.3125}, {"IQ3_XXS", 3.0625},
                        {"IQ1_S", 1.5625}, {"IQ4_XS", 4.25}, {"F16", 16},        {"MXFP4", 4.25}};
    for (const auto& r : rows) {
        int idx = -1;
        for (size_t i = 0; i < ggml_types().size(); ++i)
            if (std::string(ggml_types()[i].name) == r.name) idx = static_cast<int>(i);
        REQUIRE(idx >= 0);
        CHECK(ggml_bits_per_weight(idx) == r.bits);
    }
}

TEST_CASE("GPTQ / AWQ: bits per weight = (b x g + 16 + b) / g, embeddings kept in 16-bit") {
    // One 4096 x 4096 matrix of Llama: 4-bit, group 128, FP16 scale + 4-bit zero per group:
    // (4 x 128 + 16 + 4) / 128 = 4.15625 bits.
    const ModelSpec m = preset("llama-3.1-8b");
    const auto g = weights(m, "gptq-int4", 128);
    const double attn_params = 32.0 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024);
    CHECK(g.attention == Approx(attn_params * 4.15625 / 8));
    CHECK(g.embedding == 128256.0 * 4096 * 2);
    CHECK(g.output == 128256.0 * 4096 * 2);
    // AWQ has the same layout.
    CHECK(weights(m, "awq-int4", 128).total == g.total);
    // Group 32 costs more, per-channel (-1) less: (4 x 4096 + 20) / 4096 bits.
    CHECK(weights(m, "gptq-int4", 32).attention == Approx(attn_params * (4 + 20.0 / 32) / 8));
    CHECK(weights(m, "gptq-int4", -1).attention == Approx(attn_params * (4 + 20.0 / 4096) / 8));
    // 3-bit, group 128: (3 x 128 + 16 + 3) / 128 = 3.1484 bits.
    CHECK(weights(m, "gptq-int3", 128).attention == Approx(attn_params * (3 + 19.0 / 128) / 8));
    QuantOptions sym;
    sym.format = "gptq-int4";
    sym.zero_point = false;
    CHECK(weight_bytes(m, sym).value.attention == Approx(attn_params * (4 + 16.0 / 128) / 8));
}

TEST_CASE("bitsandbytes NF4 with and without double quantization (QLoRA paper)") {
    const ModelSpec m = preset("llama-3.1-8b");
    const double mlp_params = 32.0 * 3 * 4096 * 14336;
    CHECK(weights(m, "bnb-nf4").mlp == Approx(mlp_params * 4.5 / 8));
    CHECK(weights(m, "bnb-nf4-dq").mlp == Approx(mlp_params * (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8));
    CHECK(weights(m, "bnb-int8").mlp == Approx(mlp_params * 1 + 32.0 * (14336 * 2 + 4096) * 4));
}

TEST_CASE("MXFP4 / NVFP4 / FP8 element and scale bits") {
    const ModelSpec m = preset("llama-3.1-8b");
    const double mlp_params = 32.0 * 3 * 4096 * 14336;
    CHECK(weights(m, "mxfp4").mlp == Approx(mlp_params * 4.25 / 8));
    CHECK(weights(m, "nvfp4").mlp == Approx(mlp_params * 4.5 / 8 + 96 * 4));
    CHECK(weights(m, "fp8").mlp == Approx(mlp_params + 96 * 4));
    CHECK(weights(m, "bf16").total == 8030261248.0 * 2);
    CHECK(weights(m, "fp32").total == 8030261248.0 * 4);
}

TEST_CASE("MoE: experts quantized apart from attention (gpt-oss: MXFP4 experts, BF16 rest)") {
    const ModelSpec m = preset("gpt-oss-120b");
    QuantOptions q;
    q.format = "bf16";
    q.experts_format = "mxfp4";
    auto r = weight_bytes(m, q);
    REQUIRE(r.ok);
    const ParamBreakdown p = model_params(m);
    const double expert_matrices = 36.0 * 128 * 3 * 2880 * 2880;
    CHECK(r.value.experts == Approx(expert_matrices * 4.25 / 8));
    CHECK(r.value.attention == Approx(2 * 36.0 * (2880 * 64 * 64 * 2 + 2 * 2880 * 8 * 64)));
    // gpt-oss-120b ships about 60.8 GiB of safetensors (MXFP4 experts); the model here lands near.
    CHECK(bytes_to_gib(r.value.total) == Approx(60.8).epsilon(0.03));
    CHECK(r.value.params == Approx(p.total));
}

// llama.cpp's gpt-oss GGUFs (ggml-org/gpt-oss-20b-GGUF, gpt-oss-120b-GGUF) are file type MXFP4_MOE:
// llama-quant.cpp gives the 3-D expert tensors MXFP4 and every other matrix Q8_0 (token_embd and
// output too); the router and the 1-D tensors stay F32. llama.cpp's loader counts them: 20b "type
// f32: 289, q8_0: 98, mxfp4: 72" (llama.cpp PR #17609's log) and prints 11.27 GiB (discussion #15396's
// llama-bench table); 120b "f32: 433, q8_0: 146, mxfp4: 108, file size = 59.02 GiB (4.34 BPW)"
// (ggml-org/llama.cpp issue #15253). The Hub lists the files at 12.1 GB and 63.4 GB.
static WeightBreakdown gguf_file(const ModelSpec& m, const char* format) { return weights(m, format, 128, true); }

TEST_CASE("gpt-oss in llama.cpp's MXFP4_MOE GGUF: experts MXFP4, other matrices Q8_0, the rest F32") {
    const ModelSpec m20 = preset("gpt-oss-20b");
    const auto w20 = gguf_file(m20, "mxfp4");
    // Q8_0 (34 B per 32): token_embd + output 2 x 201,088 x 2,880, and 24 layers of attention
    // (q 4,096 x 2,880, k and v 512 x 2,880, o 2,880 x 4,096) = 1,158,266,880 + 637,009,920 =
    // 1,795,276,800 weights = 1,907,481,600 B.
    const double q8_20 = 2 * 201088.0 * 2880 + 24 * (4096.0 + 512 + 512 + 4096) * 2880;
    CHECK(q8_20 == 1795276800.0);
    // MXFP4 (17 B per 32): 24 layers x gate, up, down x 32 experts x 2,880 x 2,880 = 19,110,297,600
    // weights = 10,152,345,600 B.
    const double mx_20 = 24 * 3 * 32 * 2880.0 * 2880;
    // F32: the router (24 x 32 x 2,880) and every 1-D weight (biases, norms): the parameters left.
    const double f32_20 = model_params(m20).total - q8_20 - mx_20;
    CHECK(w20.total == q8_20 * 34 / 32 + mx_20 * 17 / 32 + f32_20 * 4);
    CHECK(w20.total == 12097353472.0);                           // 11.27 GiB, llama.cpp's 11.27 GiB
    CHECK(bytes_to_gib(w20.total) == Approx(11.27).margin(0.005));
    CHECK(w20.total / 1e9 == Approx(12.1).epsilon(0.01));         // the Hub's 12.1 GB
    CHECK(w20.bits_per_weight == Approx(4.63).margin(0.005));     // llama.cpp's 4.63 BPW
    CHECK(w20.mix == "F32 0%, Q8_0 9%, MXFP4 91%");
    CHECK(w20.experts == mx_20 * 17 / 32);
    CHECK(w20.embedding == 201088.0 * 2880 * 34 / 32);

    const ModelSpec m120 = preset("gpt-oss-120b");
    const auto w120 = gguf_file(m120, "mxfp4");
    const double q8_120 = 2 * 201088.0 * 2880 + 36 * (4096.0 + 512 + 512 + 4096) * 2880;  // 2,113,781,760
    const double mx_120 = 36 * 3 * 128 * 2880.0 * 2880;                                    // 114,661,785,600
    const double f32_120 = model_params(m120).total - q8_120 - mx_120;
    CHECK(w120.total == q8_120 * 34 / 32 + mx_120 * 17 / 32 + f32_120 * 4);
    CHECK(bytes_to_gib(w120.total) == Approx(59.02).margin(0.005));  // llama.cpp's 59.02 GiB
    CHECK(w120.total / 1e9 == Approx(63.4).epsilon(0.01));           // the Hub's 63.4 GB
    CHECK(w120.bits_per_weight == Approx(4.34).margin(0.005));       // 4.34 BPW

    // Before: the checkpoint's split (embeddings and head BF16, attention MXFP4) cost 12.83 GB for
    // the 20b, 0.73 GB (6%) above the file. Without gguf_file (vLLM's and transformers' view) the
    // format is unchanged.
    CHECK(weights(m20, "mxfp4").total == Approx(12826054016.0));
    // The same rule on another MoE: Mixtral's experts MXFP4, attention and embeddings Q8_0.
    const ModelSpec mx = preset("mixtral-8x7b");
    const auto wm = gguf_file(mx, "mxfp4");
    CHECK(wm.experts == 32 * 8 * 3 * 14336.0 * 4096 * 17 / 32);
    CHECK(wm.attention == 32 * (4096.0 + 1024 + 1024 + 4096) * 4096 * 34 / 32);
    // A dense model has no 3-D tensor: llama-quantize's MXFP4_MOE makes it Q8_0 throughout, the
    // same bytes as the q8_0 file type but for its output tensor (Q8_0 either way) -- every matrix.
    const ModelSpec l8 = preset("llama-3.1-8b");
    CHECK(gguf_file(l8, "mxfp4").total == gguf_file(l8, "q8_0").total);
}

TEST_CASE("DeepSeek-V3 in an MXFP4_MOE GGUF: MLA's attn_k_b and attn_v_b are 3-D, so MXFP4 like the experts, not Q8_0") {
    // llama.cpp's GGUF splits kv_b into attn_k_b {128, 512, 128 heads} and attn_v_b {512, 128, 128
    // heads}; MXFP4_MOE gives every tensor with ne[2] > 1 MXFP4 (llama-quant.cpp at 007dbbf). Per layer
    // 128 heads x (128 + 128) x 512 = 16,777,216 weights; 61 layers = 1,023,410,176 weights: 1,087,373,312 B
    // at Q8_0 (34 B per 32), 543,686,656 B at MXFP4 (17 B per 32), 543,686,656 B (0.54 GB) less.
    const ModelSpec m = preset("deepseek-v3");
    const auto w = gguf_file(m, "mxfp4");
    const double kv_b = 61 * 128 * (128 + 128) * 512.0;
    CHECK(kv_b == 1023410176.0);
    // The rest of the attention stays Q8_0: q_a 1,536 x 7,168, q_b 128 x 192 x 1,536, kv_a_mqa 576 x 7,168,
    // o 7,168 x 128 x 128 per layer.
    const double q8_attention = 61 * (1536 * 7168.0 + 128 * 192 * 1536.0 + 576 * 7168.0 + 7168 * 128 * 128.0);
    CHECK(w.attention == Approx(q8_attention * 34 / 32 + kv_b * 17 / 32).epsilon(1e-12));
    // What the Q8_0 rule priced: 543,686,656 B more.
    CHECK(q8_attention * 34 / 32 + kv_b * 34 / 32 - w.attention == Approx(543686656.0).epsilon(1e-12));
    // The routed experts MXFP4 (58 MoE layers x 256 x 3 x 2,048 x 7,168), the shared expert Q8_0.
    CHECK(w.experts == Approx(58 * 256 * 3 * 2048.0 * 7168 * 17 / 32 + 58 * 3 * 2048.0 * 7168 * 34 / 32).epsilon(1e-12));
}

TEST_CASE("tensor parallelism: per-GPU weights shard, KV projections replicate below kv_heads") {
    const ModelSpec m = preset("llama-3.1-70b");
    QuantOptions q;
    auto one = weight_bytes(m, q, 1).value;
    auto eight = weight_bytes(m, q, 8).value;
    CHECK(eight.per_gpu == Approx(one.total / 8).epsilon(1e-3));
    // TP 16 with 8 KV heads: each GPU still holds one whole KV head of k and v.
    auto sixteen = weight_bytes(m, q, 16).value;
    const double kv_proj = 80.0 * 2 * 8192 * 1024 * 2;
    CHECK(sixteen.per_gpu == Approx((one.total - kv_proj - one.other) / 16 + kv_proj / 8 + one.other).epsilon(1e-9));
}

TEST_CASE("TpShards: per-GPU weights at another degree are weight_bytes' at that degree, bit for bit") {
    // Llama-3.1-8B in BF16: 16,060,522,496 B, of which 532,480 B of norms (32 layers x 2 x 4,096 +
    // 4,096 weights x 2 B) stay whole on every GPU; 8 KV heads split evenly up to tp 8. At tp 2:
    // (16,060,522,496 - 532,480) / 2 + 532,480 = 8,030,527,488 B.
    const ModelSpec llama = preset("llama-3.1-8b");
    QuantOptions bf16;
    TpShards shards;
    auto one = weight_bytes(llama, bf16, 1, nullptr, &shards);
    REQUIRE(one.ok);
    CHECK(one.value.per_gpu == 16060522496.0);
    CHECK(shards.per_gpu(1) == 16060522496.0);
    CHECK(shards.per_gpu(2) == 8030527488.0);
    // The same sums as weight_bytes at each degree, for models whose tensors split differently:
    // K/V replicated past kv_heads (70B at 16 and 64), MLA's replicated down-projections
    // (DeepSeek-V3), experts in another format, a fused attn_qkv GGUF (layers split evenly), and
    // bytes scaled from a model file.
    struct Case {
        const char* preset;
        const char* format;
        const char* experts;
        double file_bytes;
    };
    const Case cases[] = {{"llama-3.1-70b", "bf16", "", 0},     {"llama-3.1-70b", "gptq-int4", "", 0}, {"deepseek-v3", "fp8-block", "", 0},
                          {"gpt-oss-120b", "bf16", "mxfp4", 0}, {"falcon-7b", "q4_k_m", "", 0},        {"llama-3.1-8b", "awq-int4", "", 15e9}};
    for (const auto& c : cases) {
        INFO(c.preset << " " << c.format);
        const ModelSpec m = preset(c.preset);
        QuantOptions q;
        q.format = c.format;
        q.experts_format = c.experts;
        WeightsFile file;
        file.total_bytes = c.file_bytes;
        TpShards s;
        auto base = weight_bytes(m, q, 2, nullptr, &s);
        REQUIRE(base.ok);
        Error err;
        if (c.file_bytes > 0) REQUIRE(apply_weights_file(base.value, file, m.layers, err, &s));
        for (int tp : {1, 2, 3, 4, 8, 16, 64}) {
            auto w = weight_bytes(m, q, tp);
            REQUIRE(w.ok);
            if (c.file_bytes > 0) REQUIRE(apply_weights_file(w.value, file, m.layers, err));
            CHECK(s.per_gpu(tp) == w.value.per_gpu);
        }
    }
}

TEST_CASE("weight formats: unknown names and bad group sizes are errors naming the field") {
    const ModelSpec m = preset("llama-3.1-8b");
    QuantOptions q;
    q.format = "int5";
    auto r = weight_bytes(m, q);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "inference.weights");
    q.format = "gptq-int4";
    q.group_size = 0;
    r = weight_bytes(m, q);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "inference.group_size");
    q.group_size = 128;
    q.experts_format = "bogus";
    r = weight_bytes(m, q);
    CHECK_FALSE(r.ok);
    CHECK(r.error.field == "inference.experts_weights");
    CHECK(find_weight_format("Q4_K_M") == find_weight_format("gguf-q4_k_m"));
    CHECK(find_weight_format("BF16")->family == FormatFamily::Float);
    CHECK(find_weight_format("gguf-bf16")->family == FormatFamily::Gguf);
}

TEST_CASE("weight formats: the names people write (nf4, AWQ, gptq-8bit) are the formats' own; ambiguous ones are refused with candidates") {
    CHECK(canonical_weight_format("nf4") == "bnb-nf4");
    CHECK(canonical_weight_format("NF4-DQ") == "bnb-nf4-dq");
    CHECK(canonical_weight_format("AWQ") == "awq-int4");
    CHECK(canonical_weight_format("gptq") == "gptq-int4");
    CHECK(canonical_weight_format("gptq-8bit") == "gptq-int8");
    CHECK(canonical_weight_format("LLM.int8()") == "bnb-int8");
    CHECK(canonical_weight_format("gguf-Q4_K_M") == "q4_k_m");
    CHECK(canonical_weight_format("int5") == "int5");  // not a format: left as typed for the error
    // Every alias names a format that exists, and no alias shadows a format's own id.
    for (const auto& a : weight_format_aliases()) {
        INFO(a.name);
        CHECK(find_weight_format(a.id) != nullptr);
        for (const auto& f : weight_formats()) CHECK(std::string(a.name) != f.id);
    }
    // "fp4" could be bitsandbytes' FP4, NVFP4 or MXFP4; "int4" GPTQ or AWQ: the error lists them.
    const ModelSpec m = preset("llama-3.1-8b");
    QuantOptions q;
    q.format = "fp4";
    auto r = weight_bytes(m, q);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "inference.weights");
    CHECK(r.error.message.find("did you mean nvfp4, mxfp4, bnb-fp4-dq, bnb-fp4?") != std::string::npos);
    q.format = "int4";
    r = weight_bytes(m, q);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.message.find("did you mean awq-int4, gptq-int4?") != std::string::npos);
}

TEST_CASE("every format on every preset: finite, lower-bit formats smaller") {
    for (const auto& p : model_presets()) {
        auto rm = resolve_model(p);
        REQUIRE(rm.ok);
        double prev_bf16 = 0;
        for (const auto& f : weight_formats()) {
            QuantOptions q;
            q.format = f.id;
            auto r = weight_bytes(rm.value, q);
            INFO(p.id << " " << f.id);
            REQUIRE(r.ok);
            CHECK(std::isfinite(r.value.total));
            CHECK(r.value.total > 0);
            if (std::string(f.id) == "bf16") prev_bf16 = r.value.total;
        }
        QuantOptions a, b;
        a.format = "q8_0";
        b.format = "q4_k_m";
        CHECK(weight_bytes(rm.value, b).value.total < weight_bytes(rm.value, a).value.total);
        CHECK(weight_bytes(rm.value, a).value.total < prev_bf16);
    }
}

// The tensor of `name` in m's GGUF list at file type `format` (its bytes), or -1.
static double gguf_tensor(const ModelSpec& m, const char* format, const std::string& name) {
    QuantOptions q;
    q.format = format;
    std::vector<TensorBytes> list;
    REQUIRE(weight_bytes(m, q, 1, &list).ok);
    for (const auto& t : list)
        if (t.name() == name) return t.bytes;
    return -1;
}

TEST_CASE("GGUF DeepSeek-V3: attn_k_b's 128-wide rows fall back (Q4_K -> Q5_0, Q6_K -> Q8_0); bartowski's one-attn_kv_b files match") {
    // convert_hf_to_gguf writes MLA's kv_b as attn_k_b {128, 512, 128 heads} and attn_v_b {512, 128,
    // 128 heads}: 128 x 512 x 128 = 8,388,608 weights each per layer, category OTHER in llama-quant.cpp,
    // so the file type's default type, then tensor_type_fallback on the row length (ne[0]): attn_k_b's
    // 128 is no multiple of 256. 61 layers: 511,705,088 weights of attn_k_b.
    const ModelSpec m = preset("deepseek-v3");
    CHECK(gguf_tensor(m, "q4_k_m", "blk.60.attn_k_b.weight") == 8388608.0 * 22 / 32);    // Q5_0: 5,767,168 B
    CHECK(gguf_tensor(m, "q4_k_m", "blk.60.attn_v_b.weight") == 8388608.0 * 144 / 256);  // Q4_K: 4,718,592 B
    CHECK(gguf_tensor(m, "q4_k_m", "blk.60.attn_kv_b.weight") == -1);                     // no unsplit tensor
    // The fallback table of ggml-org/llama.cpp@007dbbf src/llama-quant.cpp tensor_type_fallback, on
    // attn_k_b: Q6_K -> Q8_0 (34 B / 32), Q5_K -> Q5_1 (24 / 32), Q3_K and Q2_K -> Q4_0 (18 / 32), IQ4_XS
    // and IQ2_XXS -> IQ4_NL (18 / 32); Q8_0 (a 32-block) keeps its type.
    CHECK(gguf_tensor(m, "q6_k", "blk.0.attn_k_b.weight") == 8388608.0 * 34 / 32);
    CHECK(gguf_tensor(m, "q5_k_m", "blk.0.attn_k_b.weight") == 8388608.0 * 24 / 32);
    CHECK(gguf_tensor(m, "q3_k_m", "blk.0.attn_k_b.weight") == 8388608.0 * 18 / 32);
    CHECK(gguf_tensor(m, "q2_k", "blk.0.attn_k_b.weight") == 8388608.0 * 18 / 32);
    CHECK(gguf_tensor(m, "iq4_xs", "blk.0.attn_k_b.weight") == 8388608.0 * 18 / 32);
    CHECK(gguf_tensor(m, "iq2_xxs", "blk.0.attn_k_b.weight") == 8388608.0 * 18 / 32);
    CHECK(gguf_tensor(m, "q8_0", "blk.0.attn_k_b.weight") == 8388608.0 * 34 / 32);

    // Q4_K_M: the 61 layers of the counters test below, 403,207,364,608 B, + token_embd Q4_K 129,280 x
    // 7,168 x 144/256 = 521,256,960 B + output Q6_K 760,166,400 B = 404,488,787,968 B; attn_k_b at Q5_0 costs
    // 511,705,088 x (5.5 - 4.5) / 8 = 63,963,136 B more than at Q4_K, Q6_K's at Q8_0 511,705,088 x
    // (8.5 - 6.5625) / 8 = 123,928,576 B more. Files converted before the split (llama.cpp PR #12801,
    // April 2025) hold one attn_kv_b with 512-wide rows, no fallback: bartowski's
    // DeepSeek-V3-0324-GGUF (llama.cpp b4944) lists Q4_K_M 404.43 GB, Q6_K 550.80 GB, Q8_0 713.29 GB,
    // each with a few MB of metadata over the tensor data here.
    const auto q4 = weights(m, "q4_k_m"), q6 = weights(m, "q6_k"), q8 = weights(m, "q8_0");
    CHECK(q4.total == Approx(404488787968.0).epsilon(1e-12));
    CHECK((q4.total - 63963136.0) / 1e9 == Approx(404.43).margin(0.01));
    CHECK((q6.total - 123928576.0) / 1e9 == Approx(550.80).margin(0.01));
    CHECK(q8.total / 1e9 == Approx(713.29).margin(0.01));
    CHECK(q4.mix == "F32 0%, Q5_0 0%, Q4_K 85%, Q6_K 15%");
}

TEST_CASE("GGUF IQ3_XXS: attn_q and attn_k in IQ2_S, as llama-quant.cpp@007dbbf's ATTENTION_Q / _K rules give them") {
    // ggml-org/llama.cpp@007dbbf src/llama-quant.cpp: "else if (ftype == LLAMA_FTYPE_MOSTLY_IQ3_XXS)
    // new_type = GGML_TYPE_IQ2_S" for attn_k and attn_q (IQ2_S: 82 B per 256). Llama-3.1-8B: attn_q
    // 4,096 x 4,096 x 82/256 = 5,373,952 B, attn_k 1,024 x 4,096 x 82/256 = 1,343,488 B; attn_output
    // is IQ3_S (its IQ3_XXS rule: 110 B per 256), 4,096 x 4,096 x 110/256 = 7,208,960 B.
    const ModelSpec m = preset("llama-3.1-8b");
    CHECK(gguf_tensor(m, "iq3_xxs", "blk.0.attn_q.weight") == 4096.0 * 4096 * 82 / 256);
    CHECK(gguf_tensor(m, "iq3_xxs", "blk.0.attn_k.weight") == 1024.0 * 4096 * 82 / 256);
    CHECK(gguf_tensor(m, "iq3_xxs", "blk.0.attn_output.weight") == 4096.0 * 4096 * 110 / 256);
}

TEST_CASE("GGUF: a row length with no fallback type is refused as llama-quantize refuses it") {
    // Q8_0's block is 32: a 4,100-wide model's token_embd rows (4,100 = 128 x 32 + 4) fit no Q8_0
    // block, and tensor_type_fallback has no entry for Q8_0 ("no tensor type fallback is defined
    // for type q8_0"): llama-quantize stops, so the estimate does too, naming the field.
    ModelSpec m = preset("llama-3.1-8b");
    m.hidden = 4100;
    QuantOptions q;
    q.format = "q8_0";
    auto r = weight_bytes(m, q);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.field == "inference.weights");
    CHECK(r.error.message ==
          "inference.weights: llama-quantize cannot write Q8_0 for token_embd.weight: its rows of 4100 values are not a multiple of "
          "Q8_0's block of 32 and Q8_0 has no fallback type (llama-quant.cpp tensor_type_fallback)");
    // Q4_K_M too: its output tensor's rows are no multiple of 256, so the output rule picks Q8_0
    // (llama_tensor_get_type_impl: "nx % qk_k != 0" -> Q8_0), which has no fallback.
    q.format = "q4_k_m";
    r = weight_bytes(m, q);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error.message.find("cannot write Q4_K_M for output.weight") != std::string::npos);
    // A fallback whose 32-block does not divide the row either gives F16: an FFN 14,340 wide (448 x 32
    // + 4) leaves ffn_down's rows without blocks; Q4_K_M's layer 1 (not use_more_bits: Q4_K) -> Q5_0
    // -> F16, 4,096 x 14,340 x 2 B; layer 0's Q6_K -> Q8_0 -> F16 the same.
    ModelSpec wide = preset("llama-3.1-8b");
    wide.ffn = 14340;
    CHECK(gguf_tensor(wide, "q4_k_m", "blk.1.ffn_down.weight") == 4096.0 * 14340 * 2);
    CHECK(gguf_tensor(wide, "q4_k_m", "blk.0.ffn_down.weight") == 4096.0 * 14340 * 2);
    CHECK(gguf_tensor(wide, "q4_k_m", "blk.1.ffn_up.weight") == 14340.0 * 4096 * 144 / 256);  // rows of 4,096: Q4_K
}

TEST_CASE("GGUF layer counters with MoE: ffn_down, ffn_down_exps and ffn_down_shexp of layer i all read i of n") {
    // llama-quant.cpp@007dbbf: for n_expert > 1 layer_info parses the layer from "blk.%d." and
    // n_ffn_down = n_layer_all, so DeepSeek-V3's dense ffn_down (layers 0-2), ffn_down_exps and
    // ffn_down_shexp take Q6_K under Q4_K_M where use_more_bits(i, 61) holds: i < 7, i >= 53, or
    // (i - 7) % 3 == 2. Per layer (bytes; Q4_K 144/256, Q6_K 210/256, Q5_0 22/32, F32 4):
    //   attention: q_a 1,536 x 7,168 + q_b 24,576 x 1,536 + kv_a 576 x 7,168 + attn_output 7,168 x 16,384,
    //     170,328,064 weights x 144/256 = 95,809,536; attn_k_b 5,767,168; attn_v_b 4,718,592;
    //   1-D: (61 x (2 x 7,168 + 1,536 + 512) + 7,168) x 4 / 61 = 66,006.03;
    //   dense (0-2): gate, up 18,432 x 7,168 x 144/256 = 74,317,824 each, down Q6_K 108,380,160 (all < 7);
    //     layer 0 = 95,809,536 + 5,767,168 + 4,718,592 + 2 x 74,317,824 + 108,380,160 + 66,006.03 = 363,377,110.03;
    //   MoE: router 256 x 7,168 x 4 = 7,340,032; routed gate, up 256 x 2,048 x 7,168 x 144/256 =
    //     2,113,929,216 each, down Q6_K 3,082,813,440 or Q4_K 2,113,929,216: 7,310,671,872 or 6,341,787,648;
    //     shared gate, up 8,257,536 each, down Q6_K 12,042,240 or Q4_K 8,257,536.
    //   layer 51 ((51 - 7) % 3 == 2): 7,452,930,518.03; layer 52: 6,480,261,590.03.
    // Llama-4 Maverick (48 layers, MoE on the odd ones): use_more_bits(i, 48) is i < 6, i >= 42 or
    // i % 3 == 2, the same for attn_v (i_attention_wv, one per layer), the dense layers' ffn_down and
    // the MoE layers' ffn_down_exps / _shexp. Attention 5,120 x 5,120 x 2 + 1,024 x 5,120 x 2 (attn_v
    // Q6_K 4,300,800 B or Q4_K 2,949,120 B); 1-D (48 x 2 + 1) x 5,120 x 4 / 48 = 41,386.67 B.
    //   layer 24 (dense, 24 % 3 == 0): 2 x 14,745,600 + 2,949,120 + 2,949,120 + 2 x 47,185,920 + 47,185,920 + 41,386.67 = 176,988,586.67;
    //   layer 26 (dense, 26 % 3 == 2): attn_v 4,300,800, down Q6_K 68,812,800: 199,967,146.67;
    //   layer 25 (MoE, 25 % 3 == 1): router 2,621,440, routed 3 x 3,019,898,880, shared 3 x 23,592,960: 9,168,527,786.67;
    //   layer 47 (MoE, >= 42): attn_v and both downs Q6_K: 10,564,813,226.67.
    // One row per layer checked: the preset, the layer, its bytes and its routed experts' bytes.
    struct Layer {
        const char* preset;
        int layer;
        double bytes, routed;
    };
    const Layer rows[] = {{"deepseek-v3", 0, 363377110.0328, 0},
                          {"deepseek-v3", 3, 7452930518.0328, 7310671872.0},
                          {"deepseek-v3", 51, 7452930518.0328, 7310671872.0},
                          {"deepseek-v3", 52, 6480261590.0328, 6341787648.0},
                          {"llama-4-maverick", 24, 176988586.6667, 0},
                          {"llama-4-maverick", 26, 199967146.6667, 0},
                          {"llama-4-maverick", 25, 9168527786.6667, 3 * 3019898880.0},
                          {"llama-4-maverick", 47, 10564813226.6667, 2 * 3019898880.0 + 128 * 5120.0 * 8192 * 210 / 256}};
    for (const Layer& r : rows) {
        INFO(r.preset << " layer " << r.layer);
        const auto w = weights(preset(r.preset), "q4_k_m");
        CHECK(w.layer_bytes[static_cast<size_t>(r.layer)] == Approx(r.bytes).epsilon(1e-12));
        CHECK(w.layer_routed[static_cast<size_t>(r.layer)] == r.routed);
    }
}
