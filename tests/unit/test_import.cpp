// Local model import (io/model_import.hpp): published config.json files read to the same
// architecture as the presets built from them; GGUF and safetensors bytes written here read to the
// byte counts worked out by hand beside each tensor; truncated, absurd and mislabelled files get a
// message, never a crash; exact weight bytes reach the inference estimate.
#include <catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "core/serve/llamacpp.hpp"
#include "io/config_json.hpp"
#include "io/model_import.hpp"
#include "fixture_file.hpp"
#include "import_builders.hpp"

using namespace vc;
using Catch::Detail::Approx;

namespace {

io::ModelImport read(const std::string& bytes, const std::string& name, std::uint64_t file_size = 0) {
    return io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, file_size);
}

using test::fixture;

std::string u64le(std::uint64_t v) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}

}  // namespace

TEST_CASE("config.json of each family reads to its preset's architecture", "[import]") {
    // tests/fixtures/hf/<preset id>.json: the model's published config.json (README.md there).
    const char* ids[] = {"llama-3.1-8b", "llama-3.2-1b", "mistral-7b-v0.1", "mixtral-8x7b", "qwen2.5-7b", "qwen3-30b-a3b",
                         "gemma-2-9b",   "gemma-3-1b",   "phi-3-mini",      "phi-2",        "falcon-7b",  "deepseek-v3",
                         "deepseek-v2",  "gpt-oss-20b",  "gpt2-xl",         "starcoder",    "bert-large-uncased",
                         "glm-4.5-air",  "minimax-m2"};
    for (const char* id : ids) {
        INFO(id);
        auto r = read(fixture(std::string(id) + ".json"), "config.json");
        REQUIRE(r.ok);
        REQUIRE(r.missing.empty());
        REQUIRE(r.complete);
        auto got = resolve_model(r.model);
        auto want = resolve_model(*find_preset(id));
        REQUIRE(got.ok);
        const ModelSpec& a = got.value;
        const ModelSpec& b = want.value;
        CHECK(a.layers == b.layers);
        CHECK(a.hidden == b.hidden);
        CHECK(a.heads == b.heads);
        CHECK(a.kv_heads == b.kv_heads);
        CHECK(a.head_dim == b.head_dim);
        CHECK(a.ffn == b.ffn);
        CHECK(a.mlp == b.mlp);
        CHECK(a.vocab == b.vocab);
        CHECK(a.tied_embeddings == b.tied_embeddings);
        CHECK(a.norm == b.norm);
        CHECK(a.checkpoint_dtype == b.checkpoint_dtype);  // torch_dtype, or none stated in either
        CHECK(a.attn_bias == b.attn_bias);
        CHECK(a.mlp_bias == b.mlp_bias);
        CHECK(a.norms_per_layer == b.norms_per_layer);
        CHECK(a.qk_norm == b.qk_norm);
        CHECK(a.max_position == b.max_position);
        CHECK(a.context_limit == b.context_limit);
        CHECK(a.type_vocab == b.type_vocab);
        CHECK(a.experts == b.experts);
        CHECK(a.top_k == b.top_k);
        CHECK(a.shared_experts == b.shared_experts);
        CHECK(a.expert_ffn == b.expert_ffn);
        CHECK(a.dense_layers == b.dense_layers);
        CHECK(a.q_lora_rank == b.q_lora_rank);
        CHECK(a.kv_lora_rank == b.kv_lora_rank);
        CHECK(a.qk_rope_head_dim == b.qk_rope_head_dim);
        CHECK(a.qk_nope_head_dim == b.qk_nope_head_dim);
        CHECK(a.v_head_dim == b.v_head_dim);
        // Phi-3-mini-4k's config sets sliding_window 2047 (transformers uses it); the preset leaves it out.
        if (std::string(id) != "phi-3-mini") {
            CHECK(a.sliding_window == b.sliding_window);
            CHECK(a.global_every == b.global_every);
        } else {
            CHECK(a.sliding_window == 2047);
        }
        CHECK(a.attn_softcap == b.attn_softcap);
        CHECK(a.final_softcap == b.final_softcap);
        CHECK(model_params(a).total == model_params(b).total);
    }
}

TEST_CASE("config.json: the checkpoint's format and the missing keys by name", "[import]") {
    auto v3 = read(fixture("deepseek-v3.json"), "config.json");
    CHECK(v3.weights_format == "fp8-block");  // quantization_config fp8 with weight_block_size
    CHECK(read(fixture("gpt-oss-20b.json"), "config.json").weights_format == "mxfp4");
    CHECK(read(fixture("llama-3.1-8b.json"), "config.json").weights_format == "bf16");

    auto gptq = read(R"({"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"num_attention_heads":32,
        "intermediate_size":11008,"vocab_size":32000,"quantization_config":{"quant_method":"gptq","bits":4,"group_size":128,"desc_act":true,"sym":true}})",
                     "config.json");
    CHECK(gptq.weights_format == "gptq-int4");
    CHECK(gptq.group_size == 128);
    CHECK(gptq.act_order);
    CHECK_FALSE(gptq.has_zero_point);

    // No head count: read, incomplete, the key named, the rest filled in.
    auto partial = read(R"({"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"intermediate_size":11008,"vocab_size":32000})",
                        "my-config.json");
    REQUIRE(partial.ok);
    CHECK_FALSE(partial.complete);
    REQUIRE(partial.missing.size() == 1);
    CHECK(partial.missing[0].field == "model.heads");
    CHECK(partial.missing[0].keys == "num_attention_heads, n_head");
    CHECK(partial.model.layers == 32);
    CHECK(partial.model.ffn == 11008);
    const auto j = io::import_to_json(partial);
    CHECK(j["message"].get<std::string>().find("num_attention_heads") != std::string::npos);
    CHECK(j["config"]["model"]["layers"] == 32);

    // A string where a count belongs: missing, with what it was.
    auto bad = read(R"({"model_type":"llama","num_hidden_layers":"32","hidden_size":4096,"num_attention_heads":32,"intermediate_size":1,"vocab_size":1})", "c.json");
    REQUIRE(bad.ok);
    CHECK_FALSE(bad.complete);
    CHECK(bad.missing[0].keys == "num_hidden_layers (is \"32\", not a count)");

    auto notjson = read("{\"model_type\": ", "config.json");
    CHECK_FALSE(notjson.ok);
    // The text ends after the colon (15 bytes): nlohmann reports the end at line 1, column 16.
    CHECK(notjson.error.message ==
          "config.json: not valid JSON: line 1, column 16: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
}

TEST_CASE("GGUF: architecture and exact bytes from the header", "[import]") {
    const std::string file = test::tiny_llama_gguf();
    auto r = read(file, "tiny.gguf");
    REQUIRE(r.ok);
    CHECK(r.kind == "gguf");
    CHECK(r.architecture == "llama");
    CHECK(r.complete);
    CHECK(r.model.name == "Tiny Llama");
    CHECK(r.model.layers == 2);
    CHECK(r.model.hidden == 256);
    CHECK(r.model.heads == 4);
    CHECK(r.model.kv_heads == 2);
    CHECK(r.model.ffn == 512);
    CHECK(r.model.vocab == 1000);
    CHECK(r.model.context_limit == 4096);
    CHECK(r.model.mlp == MlpKind::SwiGlu);
    CHECK_FALSE(r.model.tied_embeddings);
    CHECK(r.weights_format == "q4_k_m");
    CHECK(r.engine == "llama.cpp");
    CHECK(r.tensor_count == 21);
    // Bytes as worked out beside each tensor in import_builders.hpp.
    CHECK(r.weights.total_bytes == 1235152);
    CHECK(r.weights.embedding == 272000);
    CHECK(r.weights.output == 210000);
    REQUIRE(r.weights.layer_bytes.size() == 2);
    CHECK(r.weights.layer_bytes[0] == 376064);
    CHECK(r.weights.attention == 2 * (36864 + 18432 + 26880 + 36864));
    CHECK(r.weights.mlp == 2 * (73728 + 73728 + 107520));
    CHECK(r.weights.other == 1024 * 5);
    CHECK(r.weights.params == 256000 * 2 + 256 * 5 + 2 * (65536 * 2 + 32768 * 2 + 131072 * 3));
    CHECK(r.weights.mix.rfind("Q4_K ", 0) == 0);
}

TEST_CASE("GGUF: per-head q/k norm tensors set qk_norm; whole-width ones (OLMo-2) do not", "[import]") {
    // The tiny Llama (hidden 256, 4 heads of 64) with blk.N.attn_q_norm / attn_k_norm of one head's
    // width, as convert_hf_to_gguf writes Qwen3's and Gemma-3's: qk_norm, 2 x 64 weights a layer more.
    auto with_norms = [](std::uint64_t width) {
        test::GgufWriter w;
        test::tiny_llama_metadata(w);
        test::tiny_llama_tensors(w, true, 0, 1);
        for (int i = 0; i <= 1; ++i) {
            w.tensor("blk." + std::to_string(i) + ".attn_q_norm.weight", {width}, 0);
            w.tensor("blk." + std::to_string(i) + ".attn_k_norm.weight", {width}, 0);
        }
        return w.bytes();
    };
    auto per_head = read(with_norms(64), "qk.gguf");
    REQUIRE(per_head.ok);
    CHECK(per_head.model.qk_norm);
    auto plain = read(test::tiny_llama_gguf(), "tiny.gguf");
    REQUIRE(plain.ok);
    CHECK_FALSE(plain.model.qk_norm);
    auto a = resolve_model(per_head.model), b = resolve_model(plain.model);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(model_params(a.value).total - model_params(b.value).total == 2.0 * 2 * 64);
    // OLMo-2's norms span the whole projection (256 wide here): not per-head norms.
    auto whole = read(with_norms(256), "olmo.gguf");
    REQUIRE(whole.ok);
    CHECK_FALSE(whole.model.qk_norm);
}

TEST_CASE("GGUF: a prefix asks for more; the answer is the same", "[import]") {
    const std::string file = test::tiny_llama_gguf();
    std::size_t have = 64;
    io::ModelImport r;
    int rounds = 0;
    while (true) {
        r = read(file.substr(0, have), "tiny.gguf", file.size());
        if (r.ok || r.need_bytes == 0) break;
        REQUIRE(r.need_bytes > have);
        have = static_cast<std::size_t>(r.need_bytes);
        REQUIRE(++rounds < 10);
    }
    REQUIRE(r.ok);
    CHECK(r.weights.total_bytes == 1235152);
    CHECK(rounds >= 1);
}

TEST_CASE("GGUF: a prefix that ends in the tokenizer or the tensor table asks for the whole header at once", "[import]") {
    // A Llama-3-shaped tokenizer (128,256 tokens, 280,147 merges; tokens grow longer down the
    // vocabulary, as BPE vocabularies do), a 6 KB chat template and 723 tensor infos: a ~6 MB header.
    test::GgufWriter w;
    w.str("general.architecture", "llama");
    w.u32("llama.block_count", 80);
    w.u32("llama.embedding_length", 8192);
    w.u32("llama.feed_forward_length", 28672);
    w.u32("llama.attention.head_count", 64);
    std::vector<std::string> tokens, merges;
    for (int i = 0; i < 128256; ++i) tokens.push_back(std::string(static_cast<size_t>(1 + i / 16000), 'x') + std::to_string(i));
    for (int i = 0; i < 280147; ++i) merges.push_back("a" + std::to_string(i) + " b" + std::to_string(i));
    w.str_array("tokenizer.ggml.tokens", tokens);
    w.i32_array("tokenizer.ggml.token_type", std::vector<std::int32_t>(128256, 1));
    w.str_array("tokenizer.ggml.merges", merges);
    w.str("tokenizer.chat_template", std::string(6000, 't'));
    w.u32("tokenizer.ggml.bos_token_id", 128000);
    w.tensor("token_embd.weight", {8192, 128256}, 8);
    w.tensor("output.weight", {8192, 128256}, 14);
    for (int i = 0; i < 80; ++i)
        for (const char* t : {"attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up", "ffn_down"})
            w.tensor("blk." + std::to_string(i) + "." + t + ".weight", {8192, 8192}, 12);
    const std::string file = w.bytes();
    const double header = static_cast<double>(file.size());
    const std::uint64_t file_size = 40ull << 30;  // the tensor data after it is never read
    // The readers (the CLI, the JS importFile) read only the bytes past the prefix each round. Once the
    // prefix reaches the last string array (the merges, a chat template, the tensor table), the
    // next read is the whole header (at most 25% + 64 KiB more); a prefix that ends earlier cannot
    // see arrays further on (here the token types, then the merges), and takes a round more for each.
    for (const std::size_t cut : {std::size_t(1) << 20, std::size_t(2300000), std::size_t(4) << 20, file.size() - 60000, file.size() - 100}) {
        INFO("first read " << cut << " of a " << file.size() << "-byte header");
        std::size_t have = cut;
        int rounds = 0;
        io::ModelImport r;
        while (!(r = read(file.substr(0, std::min(have, file.size())), "big.gguf", file_size)).ok && r.need_bytes > have && rounds < 16) {
            have = static_cast<std::size_t>(r.need_bytes);
            ++rounds;
        }
        CHECK(r.ok);
        CHECK(r.tensor_count == 722);
        CHECK(rounds == (cut == (1u << 20) ? 3 : cut < (4u << 20) ? 2 : 1));
        CHECK(static_cast<double>(have) <= 1.25 * header + 65536);
    }
}

TEST_CASE("GGUF: corrupt headers get a message naming what is wrong", "[import]") {
    auto error_of = [](const std::string& bytes, std::uint64_t file_size = 0) {
        auto r = read(bytes, "m.gguf", file_size);
        CHECK_FALSE(r.ok);
        CHECK(r.need_bytes == 0);
        return r.error.message;
    };
    std::string head = "GGUF" + std::string("\x03\x00\x00\x00", 4);
    // A tensor count of 2^60.
    CHECK(error_of(head + u64le(1ull << 60) + u64le(0)) ==
          "m.gguf: the tensor count 1152921504606846976 cannot fit in a file of 24 bytes (each tensor info takes at least 24)");
    // A key whose length runs past the end of the file.
    CHECK(error_of(head + u64le(0) + u64le(1) + u64le(1ull << 40) + "abcdefghij") ==
          "m.gguf: a metadata key at byte 24 has length 1099511627776, past the end of the file (10 bytes left)");
    // An array of 2^62 u32s.
    std::string arr = head + u64le(0) + u64le(1) + u64le(1) + "a" + std::string("\x09\0\0\0", 4) + std::string("\x04\0\0\0", 4) + u64le(1ull << 62);
    CHECK(error_of(arr).find("claims 4611686018427387904 array elements") != std::string::npos);
    // Truncated: the whole file is given and ends inside the tensor table.
    const std::string file = test::tiny_llama_gguf();
    CHECK(error_of(file.substr(0, file.size() - 5)).find("the file ends after") != std::string::npos);
    // Version 1 and a big-endian file.
    CHECK(error_of("GGUF" + std::string("\x01\0\0\0", 4) + u64le(0) + u64le(0)).find("version 1") != std::string::npos);
    CHECK(error_of("GGUF" + std::string("\0\0\0\x03", 4) + u64le(0) + u64le(0)).find("big-endian") != std::string::npos);
    // An unknown tensor type.
    test::GgufWriter w;
    w.tensor("x", {32}, 99);
    CHECK(error_of(w.bytes()) == "m.gguf: tensor \"x\" has ggml type 99, which this reader does not know");
    // A row that does not fill whole blocks.
    test::GgufWriter w2;
    w2.tensor("y", {100, 2}, 12);
    CHECK(error_of(w2.bytes()).find("not a multiple of Q4_K's block of 256") != std::string::npos);
}

TEST_CASE("a file that is not what its name says", "[import]") {
    auto png = read(std::string("\x89PNG\r\n\x1a\n", 8) + "data", "model.gguf");
    CHECK_FALSE(png.ok);
    CHECK(png.error.message == "model.gguf: this is not a GGUF file (it would start with the magic \"GGUF\"); it starts with 89 50 4e 47 0d 0a 1a 0a");
    auto empty = read("", "model.safetensors");
    CHECK_FALSE(empty.ok);
    CHECK(empty.error.message.find("it starts with nothing") != std::string::npos);
}

TEST_CASE("safetensors: exact parameters and the checkpoint's quantization", "[import]") {
    using test::StEntry;
    // A bf16 shard: 2 layers of a tiny Llama.
    std::vector<StEntry> e = {{"model.embed_tokens.weight", "BF16", {1000, 64}}, {"lm_head.weight", "BF16", {1000, 64}},
                              {"model.norm.weight", "BF16", {64}}};
    for (int i = 0; i < 2; ++i) {
        const std::string p = "model.layers." + std::to_string(i) + ".";
        e.push_back({p + "self_attn.q_proj.weight", "BF16", {64, 64}});
        e.push_back({p + "mlp.up_proj.weight", "BF16", {128, 64}});
        e.push_back({p + "input_layernorm.weight", "BF16", {64}});
    }
    const std::string file = test::safetensors_bytes(e, true);
    auto r = read(file, "model.safetensors");
    REQUIRE(r.ok);
    CHECK(r.kind == "safetensors");
    CHECK(r.weights_format == "bf16");
    CHECK(r.weights.params == 2 * 64000 + 64 + 2 * (4096 + 8192 + 64));
    CHECK(r.weights.total_bytes == 2 * r.weights.params);
    CHECK(r.weights.embedding == 128000);
    CHECK(r.weights.output == 128000);
    CHECK(r.weights.attention == 2 * 8192);
    CHECK(r.weights.mlp == 2 * 16384);
    CHECK(r.model.layers == 2);
    CHECK(r.model.hidden == 64);
    CHECK(r.model.vocab == 1000);
    CHECK(r.model.ffn == 128);
    CHECK_FALSE(r.complete);  // no head count in a safetensors header
    CHECK(r.missing[0].field == "model.heads");

    // Only the header is given (a File.slice): the same answer; a shorter prefix asks for the header.
    const std::uint64_t header = 8 + [&] { std::uint64_t n; std::memcpy(&n, file.data(), 8); return n; }();
    auto head = read(file.substr(0, static_cast<size_t>(header)), "model.safetensors", file.size());
    REQUIRE(head.ok);
    CHECK(head.weights.total_bytes == r.weights.total_bytes);
    auto shortp = read(file.substr(0, 20), "model.safetensors", file.size());
    CHECK_FALSE(shortp.ok);
    CHECK(shortp.need_bytes == header);

    // GPTQ 4-bit, group 128: qweight int32 [in/8, out], qzeros int32 [in/128, out/8], scales fp16 [in/128, out].
    std::vector<StEntry> g = {{"model.layers.0.mlp.down_proj.qweight", "I32", {1024 / 8, 512}},
                              {"model.layers.0.mlp.down_proj.qzeros", "I32", {8, 512 / 8}},
                              {"model.layers.0.mlp.down_proj.scales", "F16", {8, 512}},
                              {"model.layers.0.mlp.down_proj.g_idx", "I32", {1024}}};
    auto q = read(test::safetensors_bytes(g, true), "gptq.safetensors");
    REQUIRE(q.ok);
    CHECK(q.weights_format == "gptq-int4");
    CHECK(q.group_size == 128);
    CHECK(q.weights.params == 1024 * 512);
    // AWQ: qweight [in, out/8].
    std::vector<StEntry> a = {{"model.layers.0.mlp.down_proj.qweight", "I32", {1024, 512 / 8}},
                              {"model.layers.0.mlp.down_proj.qzeros", "I32", {8, 512 / 8}},
                              {"model.layers.0.mlp.down_proj.scales", "F16", {8, 512}}};
    auto aw = read(test::safetensors_bytes(a, true), "awq.safetensors");
    CHECK(aw.weights_format == "awq-int4");
    CHECK(aw.group_size == 128);
    CHECK(aw.weights.params == 1024 * 512);
    // FP8 with 128 x 128 block scales; MXFP4 blocks of 32 E2M1 (16 bytes) and E8M0 scales.
    std::vector<StEntry> f8 = {{"model.layers.0.mlp.down_proj.weight", "F8_E4M3", {256, 256}},
                               {"model.layers.0.mlp.down_proj.weight_scale_inv", "F32", {2, 2}}};
    auto f = read(test::safetensors_bytes(f8, true), "fp8.safetensors");
    CHECK(f.weights_format == "fp8-block");
    CHECK(f.weights.params == 65536);
    std::vector<StEntry> mx = {{"model.layers.0.mlp.experts.down_proj_blocks", "U8", {4, 2880, 90, 16}},
                               {"model.layers.0.mlp.experts.down_proj_scales", "U8", {4, 2880, 90}}};
    auto m = read(test::safetensors_bytes(mx, true), "mx.safetensors");
    CHECK(m.weights_format == "mxfp4");
    CHECK(m.weights.params == 4.0 * 2880 * 2880);
    CHECK(m.weights.experts_routed == m.weights.total_bytes);
}

TEST_CASE("safetensors: corrupt headers", "[import]") {
    auto error_of = [](const std::string& bytes, std::uint64_t fs = 0) {
        auto r = read(bytes, "x.safetensors", fs);
        CHECK_FALSE(r.ok);
        return r.error.message;
    };
    CHECK(error_of(u64le(1ull << 39) + "{}") == "x.safetensors: the header length 549755813888 runs past the end of the file (10 bytes)");
    CHECK(error_of(u64le(2) + "{]") == "x.safetensors: the header is not a JSON object");
    const std::string off = "{\"w\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,8]}}";
    CHECK(error_of(u64le(off.size()) + off + std::string(4, '\0')) == "x.safetensors: tensor \"w\" ends at data byte 8, past the file's 4 bytes of data");
    const std::string mismatch = "{\"w\":{\"dtype\":\"F16\",\"shape\":[3],\"data_offsets\":[0,8]}}";
    CHECK(error_of(u64le(mismatch.size()) + mismatch + std::string(8, '\0')).find("takes 6 bytes, its data_offsets span 8") != std::string::npos);
    const std::string neg = "{\"w\":{\"dtype\":\"F16\",\"shape\":[-3],\"data_offsets\":[0,8]}}";
    CHECK(error_of(u64le(neg.size()) + neg + std::string(8, '\0')).find("not a whole number") != std::string::npos);
}

TEST_CASE("model.safetensors.index.json: total bytes and the format from names", "[import]") {
    auto r = read(R"({"metadata":{"total_size":16060522496},"weight_map":{"model.layers.0.mlp.down_proj.weight":"model-00001-of-00004.safetensors",
        "model.layers.31.self_attn.q_proj.weight":"model-00004-of-00004.safetensors","lm_head.weight":"model-00004-of-00004.safetensors"}})",
                  "model.safetensors.index.json");
    REQUIRE(r.ok);
    CHECK(r.kind == "safetensors-index");
    CHECK(r.weights.total_bytes == 16060522496.0);
    CHECK(r.model.layers == 32);
    CHECK_FALSE(r.complete);

    // With its config.json: the architecture of the one, the bytes of the other.
    auto merged = io::merge_imports({read(fixture("llama-3.1-8b.json"), "config.json"), r});
    CHECK(merged.complete);
    CHECK(merged.weights.total_bytes == 16060522496.0);
    CHECK(merged.weights_format == "bf16");
}

TEST_CASE("inference.weights_file: exact bytes replace the derived ones", "[import]") {
    const std::string file = test::tiny_llama_gguf();
    auto r = read(file, "tiny.gguf");
    REQUIRE(r.ok);
    auto doc = io::import_to_json(r)["config"];
    doc["method"] = "detailed";
    doc["task"] = "inference";
    doc["gpu"] = "rtx-4090-24gb";
    auto cfg = io::config_from_json(doc);
    REQUIRE(cfg.ok);
    auto est = estimate(cfg.value);
    REQUIRE(est.ok);
    double weights = -1, total = -1;
    for (const auto& m : est.value.metrics)
        if (m.key == "weights_total_bytes") total = m.value;
    for (const auto& c : est.value.components)
        if (c.key == "weights") weights = c.bytes;
    CHECK(total == 1235152);
    CHECK(weights == 2 * 376064 + 210000);  // -ngl all: both layers and the output on the GPU; token_embd stays in RAM

    // Without the file: the derived Q4_K_M bytes differ (the embedding is Q4_K by the rules, Q8_0 here).
    doc["inference"].erase("weights_file");
    auto derived = estimate(io::config_from_json(doc).value);
    REQUIRE(derived.ok);
    for (const auto& m : derived.value.metrics)
        if (m.key == "weights_total_bytes") CHECK(m.value != 1235152);

    // Bad values name the field.
    doc["inference"]["weights_file"] = {{"total_bytes", -5}};
    auto bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.weights_file.total_bytes");
    doc["inference"]["weights_file"] = {{"total_bytes", 1e6}, {"layer_bytes", {1, 2, 3}}};
    bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.message == "inference.weights_file.layer_bytes has 3 entries, the model has 2 layers");
    // A bad entry or part is named by the path the file's JSON gives it (with the index or part).
    doc["inference"]["weights_file"] = {{"total_bytes", 1e6}, {"layer_bytes", {1, -2}}};
    bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.weights_file.layer_bytes[1]");
    CHECK(bad.error.message.rfind("inference.weights_file.layer_bytes[1] must be a number in [0, ", 0) == 0);
    doc["inference"]["weights_file"] = {{"total_bytes", 1e6}, {"parts", {{"embedding", 1e6}, {"mlp", -1}}}};
    bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.weights_file.parts.mlp");
    CHECK(bad.error.message.rfind("inference.weights_file.parts.mlp must be a number in [0, ", 0) == 0);
}

TEST_CASE("GGUF MoE: each layer's routed-expert bytes are the file's, and --n-cpu-moe moves exactly those", "[import]") {
    // tiny_moe_gguf (import_builders.hpp): ffn_down_exps Q6_K in layer 0, Q4_K in layer 1, so the
    // routed experts are 147,456 x 2 + 215,040 = 509,952 B in layer 0 and 3 x 147,456 = 442,368 B in
    // layer 1 (476,160 B on average, what the engine took for every layer before).
    auto r = read(test::tiny_moe_gguf(), "tiny-moe.gguf");
    REQUIRE(r.ok);
    REQUIRE(r.complete);
    CHECK(r.model.experts == 4);
    CHECK(r.weights.experts_routed == 509952 + 442368);
    REQUIRE(r.weights.layer_routed_bytes.size() == 2);
    CHECK(r.weights.layer_routed_bytes[0] == 509952);
    CHECK(r.weights.layer_routed_bytes[1] == 442368);
    auto doc = io::import_to_json(r)["config"];
    CHECK(doc["inference"]["weights_file"]["layer_routed_bytes"] == nlohmann::json::array({509952, 442368}));
    doc["method"] = "detailed";
    doc["task"] = "inference";
    doc["gpu"] = "rtx-4090-24gb";
    doc["inference"]["llamacpp"]["n_cpu_moe"] = 1;  // layer 0's experts in system RAM
    auto cfg = io::config_from_json(doc);
    REQUIRE(cfg.ok);
    auto p = make_inference_plan(cfg.value);
    REQUIRE(p.ok);
    // Host: token_embd (Q8_0, 272,000 B), output_norm (1,024 B: outside the layers, counted in host
    // RAM) and layer 0's routed experts, 509,952 B; the average would have moved 476,160 B.
    CHECK(llamacpp_buffers(p.value, 4096, 1).host.model == 272000 + 1024 + 509952);

    // A layer_routed_bytes entry above its layer's bytes, or one entry per layer missing, names the field.
    doc["inference"]["weights_file"]["layer_routed_bytes"] = {509952, 1e9};
    auto bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.weights_file.layer_routed_bytes[1]");
    doc["inference"]["weights_file"]["layer_routed_bytes"] = {509952};
    bad = estimate(io::config_from_json(doc).value);
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.message == "inference.weights_file.layer_routed_bytes has 1 entries, the model has 2 layers");
}
