// vramcalc io: "training", "parallel" and "runtime" sections (docs/config.md).
//
// [SECTIONS]
//   names      enum <-> string tables
//   read       JSON -> Config
//   write      Config -> JSON
#include "training_json.hpp"

#include <cctype>

#include "enum_names.hpp"
#include "field_json.hpp"
#include "json_read.hpp"
#include "text_input.hpp"

namespace vc::io {

using nlohmann::json;

// [SECTION] names ---------------------------------------------------------------------------------
namespace {

// Hybrid sharding without an explicit group: one node of 8 GPUs per shard group (HSDP's usual
// layout; FSDP ShardingStrategy.HYBRID_SHARD shards within a node).
constexpr int kHybridDefaultGroup = 8;

}  // namespace

bool parse_train_precision(const std::string& s, TrainPrecision& out) { return lookup(kTrainPrecisionNames, s, out); }
bool parse_train_optimizer(const std::string& s, OptimizerKind& out) { return lookup(kTrainOptimizerNames, s, out); }
bool parse_recompute(const std::string& s, Recompute& out) { return lookup(kRecomputeNames, s, out); }

bool parse_sharding(const std::string& s, Sharding& out, int& shard_group) {
    if (!lookup(kShardingNames, s, out)) return false;
    if (s == "hybrid-shard" && shard_group == 0) shard_group = kHybridDefaultGroup;
    return true;
}

bool parse_lora_targets(const std::string& text, unsigned& out) {
    struct Target {
        const char* name;
        unsigned bits;
    };
    static const Target kTargets[] = {
        {"q", kLoraQ},       {"k", kLoraK},         {"v", kLoraV},        {"o", kLoraO},         {"gate", kLoraGate},
        {"up", kLoraUp},     {"down", kLoraDown},   {"head", kLoraHead},  {"q_proj", kLoraQ},    {"k_proj", kLoraK},
        {"v_proj", kLoraV},  {"o_proj", kLoraO},    {"output_proj", kLoraO}, {"gate_proj", kLoraGate}, {"up_proj", kLoraUp},
        {"down_proj", kLoraDown}, {"lm_head", kLoraHead}, {"output", kLoraHead}, {"attention", kLoraAttention},
        {"attn", kLoraAttention}, {"mlp", kLoraMlp}, {"all-linear", kLoraAllLinear}, {"all_linear", kLoraAllLinear},
        {"all", kLoraAllLinear}, {"linear", kLoraAllLinear},
    };
    unsigned bits = 0;
    std::string word;
    auto flush = [&]() {
        if (word.empty()) return true;
        for (const auto& t : kTargets)
            if (word == t.name) {
                bits |= t.bits;
                word.clear();
                return true;
            }
        return false;
    };
    for (char c : text) {
        if (c == ',' || c == '+' || c == ' ' || c == '/') {
            if (!flush()) return false;
        } else {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    if (!flush() || bits == 0) return false;
    out = bits;
    return true;
}

std::string lora_targets_name(unsigned t) {
    static const char* const kNames[] = {"q", "k", "v", "o", "gate", "up", "down", "head"};
    std::string s;
    for (int i = 0; i < 8; ++i)
        if (t & (1u << i)) s += (s.empty() ? "" : ",") + std::string(kNames[i]);
    return s;
}

// [SECTION] read ----------------------------------------------------------------------------------
namespace {

bool section(const json& doc, const char* key, const char* shape, Error& err) {
    if (!doc.contains(key) || doc.at(key).is_null()) return false;
    if (!doc.at(key).is_object()) {
        err = Error{key, std::string(key) + " must be an object " + shape};
        return false;
    }
    return true;
}

bool read_lora(const json& j, Config& cfg, Error& err) {
    LoraInputs& l = cfg.training.lora;
    if (!j.is_object()) {
        err = Error{"training.lora", "training.lora must be an object {\"rank\", \"targets\", \"dropout\", ...}"};
        return false;
    }
    ObjectReader r(j, "training.lora.");
    only_section_keys(r, "training.lora");
    read_section(r, "training.lora", cfg);
    if (r.ok() && r.has("targets")) {
        const json& t = r.at("targets");
        std::string text;
        if (t.is_string()) {
            r.string("targets", text);
        } else if (t.is_array()) {
            for (const auto& e : t) {
                if (!e.is_string()) {
                    err = Error{"training.lora.targets", "training.lora.targets must be a string or an array of strings"};
                    return false;
                }
                const std::string& name = e.get_ref<const std::string&>();
                if (!check_text("training.lora.targets", name, kMaxTextFieldBytes, err)) return false;
                text += (text.empty() ? "" : ",") + name;
                if (!check_text("training.lora.targets", text, kMaxTextFieldBytes, err)) return false;
            }
        } else {
            r.fail("targets", "training.lora.targets must be a string or an array of strings");
        }
        if (r.ok() && !parse_lora_targets(text, l.targets))
            r.fail("targets", "training.lora.targets must name modules among q, k, v, o, gate, up, down, head (or attention, "
                              "mlp, all-linear), got \"" + text + "\"");
    }
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    return true;
}

bool read_training(const json& j, Config& cfg, Error& err) {
    TrainingInputs& t = cfg.training;
    ObjectReader r(j, "training.");
    only_section_keys(r, "training");
    read_section(r, "training", cfg);
    if (r.ok() && r.has("sharding")) {
        std::string s;
        r.string("sharding", s);
        if (r.ok() && !parse_sharding(s, t.sharding, t.shard_group))
            r.fail("sharding", "training.sharding must be one of " + enum_choices(kShardingNames) + ", got \"" + s + "\"");
    }
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    if (j.contains("lora") && !j.at("lora").is_null() && !read_lora(j.at("lora"), cfg, err)) return false;
    // QLoRA means a 4-bit NF4 base unless the lora section says otherwise.
    if (t.finetune == FinetuneMethod::Qlora && !(j.contains("lora") && j.at("lora").is_object() && j.at("lora").contains("quant")))
        t.lora.quant = BaseQuant::Nf4;
    return true;
}

// "parallel" and "runtime": every field from the table.
bool read_plain(const json& j, const char* name, Config& cfg, Error& err) {
    ObjectReader r(j, std::string(name) + ".");
    only_section_keys(r, name);
    read_section(r, name, cfg);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    return true;
}

}  // namespace

bool read_training_sections(const json& doc, Config& cfg, Error& err) {
    err = Error{};
    const bool recompute_given = doc.contains("training") && doc.at("training").is_object() && doc.at("training").contains("recompute");
    if (section(doc, "training", "{\"precision\", \"optimizer\", \"finetune\", ...}", err) && !read_training(doc.at("training"), cfg, err))
        return false;
    if (!err.field.empty()) return false;
    if (section(doc, "parallel", "{\"tp\", \"pp\", \"dp\", \"cp\", \"ep\", ...}", err) && !read_plain(doc.at("parallel"), "parallel", cfg, err))
        return false;
    if (!err.field.empty()) return false;
    if (section(doc, "runtime", "{\"cuda_context_bytes\", \"nccl_bytes\", ...}", err) && !read_plain(doc.at("runtime"), "runtime", cfg, err))
        return false;
    if (!err.field.empty()) return false;
    if (!recompute_given && cfg.quick.checkpointing) cfg.training.recompute = Recompute::Full;
    return true;
}

// [SECTION] write ---------------------------------------------------------------------------------
void write_training_sections(const Config& cfg, json& j) {
    json training = json::object();
    write_section(cfg, "training", training);
    json lora = json::object();
    write_section(cfg, "training.lora", lora);
    lora["targets"] = lora_targets_name(cfg.training.lora.targets);
    training["lora"] = lora;
    training["sharding"] = sharding_name(cfg.training.sharding);
    j["training"] = training;
    json parallel = json::object(), runtime = json::object();
    write_section(cfg, "parallel", parallel);
    write_section(cfg, "runtime", runtime);
    j["parallel"] = parallel;
    j["runtime"] = runtime;
}

}  // namespace vc::io
