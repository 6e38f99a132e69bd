// Several files of one model (io/model_import.hpp merge_imports): the three parts of a split GGUF
// add up to the whole file's bytes, one part alone gives none; an mmproj GGUF fills
// inference.llamacpp.mmproj from its tensor table and clip.vision.* keys; files that are not one
// model's are refused with a message naming the file. The byte counts are worked out beside each
// tensor in import_builders.hpp.
#include <catch.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "core/estimate.hpp"
#include "io/config_json.hpp"
#include "core/model/presets.hpp"
#include "io/model_import.hpp"
#include "shell/state/model_file.hpp"
#include "import_builders.hpp"

using namespace vc;

namespace {

io::ModelImport read(const std::string& bytes, const std::string& name) {
    return io::import_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name, 0);
}

std::string part_name(int no) { return "tiny-0000" + std::to_string(no + 1) + "-of-00003.gguf"; }

io::ModelImport merge(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<io::ModelImport> parts;
    for (const auto& f : files) parts.push_back(read(f.second, f.first));
    return io::merge_imports(parts);
}

std::string message(const io::ModelImport& r) { return r.error.message; }

}  // namespace

TEST_CASE("split GGUF: every part gives the whole file's exact bytes, in any order", "[import][import-merge]") {
    const auto whole = read(test::tiny_llama_gguf(), "tiny.gguf");
    const auto r = merge({{part_name(2), test::tiny_llama_split(2)}, {part_name(0), test::tiny_llama_split(0)}, {part_name(1), test::tiny_llama_split(1)}});
    REQUIRE(r.ok);
    CHECK(r.complete);
    CHECK(r.split.count == 0);  // one model now
    CHECK(r.tensor_count == 21);  // 3 + 9 + 9
    // Part 1: 272,000 (Q8_0 embedding) + 1,024 + 210,000 (Q6_K output) = 483,024; parts 2 and 3: one layer of 376,064 each.
    CHECK(r.weights.total_bytes == 483024 + 2 * 376064);
    CHECK(r.weights.total_bytes == whole.weights.total_bytes);
    CHECK(r.weights.embedding == 272000);
    CHECK(r.weights.output == 210000);
    REQUIRE(r.weights.layer_bytes.size() == 2);
    CHECK(r.weights.layer_bytes[0] == 376064);
    CHECK(r.weights.layer_bytes[1] == 376064);
    CHECK(r.weights.params == whole.weights.params);
    CHECK(r.weights.mix == whole.weights.mix);
    CHECK(r.weights.source == part_name(0) + " + " + part_name(1) + " + " + part_name(2));
    // The gate matrices are in parts 2 and 3, the metadata in part 1: SwiGLU, as the whole file reads.
    CHECK(r.model.mlp == MlpKind::SwiGlu);
    CHECK(io::model_to_json(r.model) == io::model_to_json(whole.model));
    REQUIRE(r.files.size() == 3);
    CHECK(r.files[1].gave == "the architecture (llama), part 1 of 3, 3 tensors of 483,024 bytes, format q4_k_m");
    CHECK(r.files[0].gave == "part 3 of 3, 9 tensors of 376,064 bytes");
}

TEST_CASE("split GGUF: one part alone gives the architecture, the bytes are inferred", "[import][import-merge]") {
    const auto first = read(test::tiny_llama_split(0), part_name(0));
    REQUIRE(first.ok);
    CHECK(first.complete);
    CHECK(first.weights.total_bytes == 0);  // never one shard's 483,024 B as the model's
    CHECK(first.split.count == 3);
    CHECK(first.split.tensors_total == 21);
    CHECK(first.model.mlp == MlpKind::SwiGlu);  // no layer tensors here: llama's gated MLP
    const auto doc = io::import_to_json(first);
    CHECK(doc["weights_bytes"] == 0);
    CHECK_FALSE(doc["config"]["inference"].contains("weights_file"));
    CHECK(doc["notes"].back() == "part 1 of a 3-part split GGUF: it holds 3 of the model's 21 tensors, so the exact bytes are unknown until every "
                                 "part is given; the weights are inferred from the architecture and the file type");
    // Part 2 has no metadata: it names part 1.
    const auto second = read(test::tiny_llama_split(1), part_name(1));
    REQUIRE(second.ok);
    CHECK_FALSE(second.complete);
    REQUIRE(second.missing.size() == 1);
    CHECK(second.missing[0].keys == "general.architecture (in part 1, tiny-00001-of-00003.gguf)");
}

TEST_CASE("split GGUF: a missing, repeated or foreign part is named", "[import][import-merge]") {
    auto r = merge({{part_name(0), test::tiny_llama_split(0)}, {part_name(2), test::tiny_llama_split(2)}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "tiny-00001-of-00003.gguf: is part of a 3-part split GGUF and tiny-00002-of-00003.gguf is missing: give every part "
                        "for the exact bytes, or one part alone for the architecture");
    r = merge({{part_name(0), test::tiny_llama_split(0)}, {part_name(1), test::tiny_llama_split(1)}, {"copy.gguf", test::tiny_llama_split(1)}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "copy.gguf: is part 2 of 3, as tiny-00002-of-00003.gguf is");
    r = merge({{part_name(0), test::tiny_llama_split(0)}, {"other-00002-of-00004.gguf", test::tiny_llama_split(1, 4, 30)}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "other-00002-of-00004.gguf: is part of a 4-part split of 30 tensors, tiny-00001-of-00003.gguf of a 3-part split of 21: "
                        "parts of two different models");
    // Every part there, but their tables do not add up to split.tensors.count.
    r = merge({{part_name(0), test::tiny_llama_split(0, 3, 22)}, {part_name(1), test::tiny_llama_split(1, 3, 22)}, {part_name(2), test::tiny_llama_split(2, 3, 22)}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "tiny-00001-of-00003.gguf: the 3 parts list 21 tensors, but split.tensors.count is 22");
    // split.no past split.count is a corrupt part.
    const auto bad = read(test::tiny_llama_split(3, 3, 21), "bad.gguf");
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.message == "bad.gguf: split.no 3 is not a part of a 3-part split (0 to 2)");
}

TEST_CASE("mmproj GGUF: the vision projector from its tensor table and clip.vision keys", "[import][import-merge]") {
    const auto p = read(test::tiny_mmproj_gguf(), "mmproj.gguf");
    REQUIRE(p.ok);
    CHECK(p.complete);
    CHECK(p.kind == "gguf-mmproj");
    CHECK(p.has_mmproj);
    // 64 + 37,632 + 1,088 + 4 x 4,096 + 2 x 16,384 + 64 + 16,384 + 256 = 104,640 parameters.
    CHECK(p.mmproj.params == 104640);
    // 256 + 75,264 + 2,176 + 4 x 8,192 + 2 x 32,768 + 256 + 32,768 + 1,024 = 210,048 bytes.
    CHECK(p.mmproj_bytes == 210048);
    CHECK(p.mmproj.type == "f16");
    CHECK(p.mmproj.hidden == 64);
    CHECK(p.mmproj.heads == 4);
    CHECK(p.mmproj.ffn == 256);
    CHECK(p.mmproj.image_tokens == 17);  // (56 / 14)^2 patches + the class token
    // 4,194,304 px images in 1 px patches: 2^44 + 1 positions (int would overflow), past the field's
    // 2^20: not filled, named as missing; 1,024 px in 1 px patches: 1,048,577 positions, one past 2^20;
    // 1,023 px: 1,046,530, filled.
    for (const auto& [image, patch, filled] : {std::tuple{4194304u, 1u, false}, {1024u, 1u, false}, {1023u, 1u, true}}) {
        const auto big = read(test::tiny_mmproj_gguf(image, patch), "big.gguf");
        REQUIRE(big.ok);
        CHECK(big.complete == filled);
        CHECK(big.mmproj.image_tokens == (filled ? 1023 * 1023 + 1 : 0));
        CHECK((!big.missing.empty() && big.missing[0].field == "inference.llamacpp.mmproj.image_tokens") == !filled);
    }
    const auto doc = io::import_to_json(p);
    CHECK(doc["model"].is_null());
    CHECK_FALSE(doc["config"].contains("model"));
    CHECK(doc["config"]["inference"]["llamacpp"]["mmproj"]["params_m"] == 0.10464);

    // With the model: the estimate carries the projector. clip graph for T = 17 positions:
    // 17 x 17 x 4 heads x 4 B + 17 x 256 x 4 B + 2 x 17 x 64 x 4 B = 4,624 + 17,408 + 8,704 = 30,736 B,
    // weights 104,640 x 2 B (f16) = 209,280 B: 240,016 B more on the GPU.
    const auto both = merge({{"tiny.gguf", test::tiny_llama_gguf()}, {"mmproj.gguf", test::tiny_mmproj_gguf()}});
    REQUIRE(both.ok);
    CHECK(both.complete);
    CHECK(both.weights.total_bytes == 1235152);
    CHECK(both.mmproj.params == 104640);
    auto cfg = io::import_to_json(both)["config"];
    cfg["method"] = "detailed", cfg["task"] = "inference", cfg["gpu"] = "rtx-4090-24gb";
    auto with = estimate(io::config_from_json(cfg).value);
    cfg["inference"].erase("llamacpp");
    auto without = estimate(io::config_from_json(cfg).value);
    REQUIRE(with.ok);
    REQUIRE(without.ok);
    CHECK(with.value.total_bytes - without.value.total_bytes == 209280 + 30736);

    // On the page, a projector alone keeps the model chosen and adds itself to it.
    Config base;
    base.model = *find_preset("llama-3.1-8b");
    Config out;
    const auto o = shell::apply_import(base, doc, out);
    REQUIRE(o.applied);
    CHECK_FALSE(o.problem);
    CHECK(out.model.layers == 32);
    CHECK(out.inference.llamacpp.mmproj.params == 104640);
    CHECK(out.inference.llamacpp.mmproj.image_tokens == 17);
    CHECK(o.message.rfind("Imported mmproj.gguf (vision projector GGUF, clip): 104,640 parameters", 0) == 0);
}

TEST_CASE("several files that are not one model's: a message naming the file", "[import][import-merge]") {
    const std::string config = R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                                   "intermediate_size": 14336, "vocab_size": 128256})";
    auto r = merge({{"config.json", config}, {"b/config.json", config}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "b/config.json: a second config.json (config.json is one already): give the files of one model");
    r = merge({{"tiny.gguf", test::tiny_llama_gguf()}, {"tiny.gguf", test::tiny_llama_gguf()}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "tiny.gguf: is given twice");
    r = merge({{"tiny.gguf", test::tiny_llama_gguf()}, {"other.gguf", test::tiny_llama_gguf()}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "other.gguf: a second GGUF model (tiny.gguf is one already): give the files of one model");
    r = merge({{"a.gguf", test::tiny_mmproj_gguf()}, {"b.gguf", test::tiny_mmproj_gguf()}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "b.gguf: a second vision projector (a.gguf is one already): give the files of one model");
    // The 8B config's width is 4,096, the tiny GGUF's 256.
    r = merge({{"config.json", config}, {"tiny.gguf", test::tiny_llama_gguf()}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "tiny.gguf: gives a hidden size of 256, config.json 4,096: files of two different models");
    // A GGUF with a safetensors checkpoint: weights of two formats.
    r = merge({{"tiny.gguf", test::tiny_llama_gguf()}, {"model.safetensors", test::safetensors_bytes({{"model.norm.weight", "F32", {256}}}, true)}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r) == "tiny.gguf: is a GGUF, model.safetensors a safetensors checkpoint: give the weights of one format");
    // A file of the wrong kind among several: the reader's own message, naming it.
    r = merge({{"config.json", config}, {"photo.safetensors", "\x89PNG\r\n\x1a\n...."}});
    REQUIRE_FALSE(r.ok);
    CHECK(message(r).rfind("photo.safetensors: this is not a safetensors file", 0) == 0);
    // One file is returned as it is.
    const auto one = merge({{"tiny.gguf", test::tiny_llama_gguf()}});
    CHECK(one.files.empty());
    CHECK(io::import_to_json(one) == io::import_to_json(read(test::tiny_llama_gguf(), "tiny.gguf")));
}
