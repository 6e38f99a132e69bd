// vramcalc io: "training", "parallel" and "runtime" sections (docs/config.md).
//
// [SECTIONS]
//   names      enum <-> string tables
//   read       JSON -> Config
//   write      Config -> JSON
#include "training_json.hpp"

#include <cctype>

#include "enum_names.hpp"
#include "json_read.hpp"
#include "text_input.hpp"

namespace vc::io {

using nlohmann::json;

// [SECTION] names ---------------------------------------------------------------------------------
namespace {

const Name<TrainPrecision> kPrecisions[] = {
    {"bf16-mixed", TrainPrecision::Bf16Mixed}, {"fp32", TrainPrecision::Fp32},         {"fp16-mixed", TrainPrecision::Fp16Mixed},
    {"bf16-true", TrainPrecision::Bf16True},   {"fp16-true", TrainPrecision::Fp16True}, {"fp8", TrainPrecision::Fp8Mixed},
    {"bf16", TrainPrecision::Bf16True},        {"fp16", TrainPrecision::Fp16True},      {"32-true", TrainPrecision::Fp32},
    {"amp-bf16", TrainPrecision::Bf16Mixed},   {"amp-fp16", TrainPrecision::Fp16Mixed}, {"fp8-mixed", TrainPrecision::Fp8Mixed},
};
const Name<OptimizerKind> kOptimizers[] = {
    {"adamw", OptimizerKind::AdamW},         {"adamw-8bit", OptimizerKind::AdamW8bit}, {"paged-adamw", OptimizerKind::PagedAdamW},
    {"paged-adamw-8bit", OptimizerKind::PagedAdamW8bit}, {"adafactor", OptimizerKind::Adafactor}, {"sgd", OptimizerKind::Sgd},
    {"sgd-momentum", OptimizerKind::SgdMomentum}, {"lion", OptimizerKind::Lion}, {"custom", OptimizerKind::Custom},
    {"adam", OptimizerKind::AdamW},
};
const Name<Recompute> kRecompute[] = {{"none", Recompute::None}, {"selective", Recompute::Selective}, {"full", Recompute::Full}};
const Name<AttentionKernel> kAttention[] = {{"auto", AttentionKernel::Auto}, {"flash", AttentionKernel::Flash},
                                            {"sdpa", AttentionKernel::Flash}, {"eager", AttentionKernel::Eager}};
const Name<FinetuneMethod> kFinetune[] = {{"full", FinetuneMethod::Full}, {"lora", FinetuneMethod::Lora}, {"qlora", FinetuneMethod::Qlora}};
const Name<BaseQuant> kQuant[] = {{"none", BaseQuant::None}, {"nf4", BaseQuant::Nf4}, {"fp4", BaseQuant::Fp4}, {"int8", BaseQuant::Int8}};
const Name<OutputHead> kHeads[] = {{"lm", OutputHead::LanguageModel}, {"classifier", OutputHead::Classifier}};
const Name<PipelineSchedule> kSchedules[] = {{"1f1b", PipelineSchedule::OneFOneB}, {"interleaved", PipelineSchedule::Interleaved}};

// Hybrid sharding without an explicit group: one node of 8 GPUs per shard group (HSDP's usual
// layout; FSDP ShardingStrategy.HYBRID_SHARD shards within a node).
constexpr int kHybridDefaultGroup = 8;

bool read_toggle(ObjectReader& r, const char* key, Toggle& out) {
    if (!r.has(key)) return r.ok();
    bool b = false;
    if (!r.boolean(key, b)) return false;
    out = b ? Toggle::On : Toggle::Off;
    return true;
}

}  // namespace

bool parse_train_precision(const std::string& s, TrainPrecision& out) { return lookup(kPrecisions, s, out); }
bool parse_train_optimizer(const std::string& s, OptimizerKind& out) { return lookup(kOptimizers, s, out); }
bool parse_recompute(const std::string& s, Recompute& out) { return lookup(kRecompute, s, out); }

bool parse_sharding(const std::string& s, Sharding& out, int& shard_group) {
    struct Alias {
        const char* name;
        Sharding value;
    };
    static const Alias kSharding[] = {
        {"ddp", Sharding::None},   {"none", Sharding::None},  {"zero1", Sharding::Zero1}, {"zero2", Sharding::Zero2},
        {"zero3", Sharding::Zero3}, {"fsdp-shard-grad-op", Sharding::Zero2}, {"fsdp-full-shard", Sharding::Zero3},
        {"fsdp", Sharding::Zero3}, {"hybrid-shard", Sharding::Zero3},
    };
    for (const auto& a : kSharding)
        if (s == a.name) {
            out = a.value;
            if (s == "hybrid-shard" && shard_group == 0) shard_group = kHybridDefaultGroup;
            return true;
        }
    return false;
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

bool read_lora(const json& j, LoraInputs& l, Error& err) {
    if (!j.is_object()) {
        err = Error{"training.lora", "training.lora must be an object {\"rank\", \"targets\", \"dropout\", ...}"};
        return false;
    }
    ObjectReader r(j, "training.lora.");
    r.only_keys({"rank", "targets", "dropout", "quant", "double_quant", "quant_block", "quantize_head", "saves_inputs"});
    r.integer("rank", l.rank);
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
    r.number("dropout", l.dropout);
    read_enum(r, "quant", kQuant, l.quant);
    r.boolean("double_quant", l.double_quant);
    r.integer("quant_block", l.quant_block);
    read_toggle(r, "quantize_head", l.quantize_head);
    read_toggle(r, "saves_inputs", l.saves_inputs);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    return true;
}

bool read_training(const json& j, Config& cfg, Error& err) {
    TrainingInputs& t = cfg.training;
    ObjectReader r(j, "training.");
    r.only_keys({"precision", "optimizer", "optimizer_bytes_per_param", "grad_fp32", "grad_accum", "global_batch", "recompute",
                 "attention", "dropout", "attention_dropout", "finetune", "lora", "head", "classifier_labels", "sharding",
                 "shard_group", "offload_optimizer", "offload_params", "profile", "compile", "logits_fp32", "loss_chunk_tokens"});
    read_enum(r, "precision", kPrecisions, t.precision);
    read_enum(r, "optimizer", kOptimizers, t.optimizer);
    r.number("optimizer_bytes_per_param", t.optimizer_bytes_per_param);
    read_toggle(r, "grad_fp32", t.grad_fp32);
    r.number("grad_accum", t.grad_accum);
    r.number("global_batch", t.global_batch);
    read_enum(r, "recompute", kRecompute, t.recompute);
    read_enum(r, "attention", kAttention, t.attention);
    r.number("dropout", t.dropout);
    r.number("attention_dropout", t.attention_dropout);
    read_enum(r, "finetune", kFinetune, t.finetune);
    read_enum(r, "head", kHeads, t.head);
    r.integer("classifier_labels", t.classifier_labels);
    r.integer("shard_group", t.shard_group);
    if (r.ok() && r.has("sharding")) {
        std::string s;
        r.string("sharding", s);
        if (r.ok() && !parse_sharding(s, t.sharding, t.shard_group))
            r.fail("sharding", "training.sharding must be one of ddp, zero1, zero2, zero3, fsdp-shard-grad-op, "
                               "fsdp-full-shard, hybrid-shard, got \"" + s + "\"");
    }
    r.boolean("offload_optimizer", t.offload_optimizer);
    r.boolean("offload_params", t.offload_params);
    r.string("profile", t.profile);
    read_toggle(r, "compile", t.compile);
    read_toggle(r, "logits_fp32", t.logits_fp32);
    r.number("loss_chunk_tokens", t.loss_chunk_tokens);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    if (j.contains("lora") && !j.at("lora").is_null() && !read_lora(j.at("lora"), t.lora, err)) return false;
    // QLoRA means a 4-bit NF4 base unless the lora section says otherwise.
    if (t.finetune == FinetuneMethod::Qlora && !(j.contains("lora") && j.at("lora").is_object() && j.at("lora").contains("quant")))
        t.lora.quant = BaseQuant::Nf4;
    return true;
}

bool read_parallel(const json& j, ParallelInputs& p, Error& err) {
    ObjectReader r(j, "parallel.");
    r.only_keys({"tp", "sp", "pp", "schedule", "virtual_stages", "dp", "cp", "ep", "etp"});
    r.integer("tp", p.tp);
    read_toggle(r, "sp", p.sp);
    r.integer("pp", p.pp);
    read_enum(r, "schedule", kSchedules, p.schedule);
    r.integer("virtual_stages", p.virtual_stages);
    r.integer("dp", p.dp);
    r.integer("cp", p.cp);
    r.integer("ep", p.ep);
    r.integer("etp", p.etp);
    if (!r.ok()) {
        err = r.error();
        return false;
    }
    return true;
}

bool read_runtime(const json& j, RuntimeConstants& k, Error& err) {
    ObjectReader r(j, "runtime.");
    r.only_keys({"cuda_context_bytes", "lazy_loading", "library_workspace_bytes", "nccl_bytes", "allocator_fragmentation",
                 "deepspeed_bucket_elements", "deepspeed_prefetch_elements", "ddp_bucket_bytes"});
    r.number("cuda_context_bytes", k.cuda_context_bytes);
    read_toggle(r, "lazy_loading", k.lazy_loading);
    r.number("library_workspace_bytes", k.library_workspace_bytes);
    r.number("nccl_bytes", k.nccl_bytes);
    r.number("allocator_fragmentation", k.allocator_fragmentation);
    r.number("deepspeed_bucket_elements", k.deepspeed_bucket_elements);
    r.number("deepspeed_prefetch_elements", k.deepspeed_prefetch_elements);
    r.number("ddp_bucket_bytes", k.ddp_bucket_bytes);
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
    if (section(doc, "parallel", "{\"tp\", \"pp\", \"dp\", \"cp\", \"ep\", ...}", err) && !read_parallel(doc.at("parallel"), cfg.parallel, err))
        return false;
    if (!err.field.empty()) return false;
    if (section(doc, "runtime", "{\"cuda_context_bytes\", \"nccl_bytes\", ...}", err) && !read_runtime(doc.at("runtime"), cfg.runtime, err))
        return false;
    if (!err.field.empty()) return false;
    if (!recompute_given && cfg.quick.checkpointing) cfg.training.recompute = Recompute::Full;
    return true;
}

// [SECTION] write ---------------------------------------------------------------------------------
namespace {

json toggle_json(Toggle t) { return t == Toggle::Auto ? json(nullptr) : json(t == Toggle::On); }

}  // namespace

void write_training_sections(const Config& cfg, json& j) {
    const TrainingInputs& t = cfg.training;
    j["training"] = {
        {"precision", name_of(kPrecisions, t.precision)},
        {"optimizer", name_of(kOptimizers, t.optimizer)},
        {"optimizer_bytes_per_param", t.optimizer_bytes_per_param},
        {"grad_fp32", toggle_json(t.grad_fp32)},
        {"grad_accum", t.grad_accum},
        {"global_batch", t.global_batch},
        {"recompute", name_of(kRecompute, t.recompute)},
        {"attention", name_of(kAttention, t.attention)},
        {"dropout", t.dropout},
        {"attention_dropout", t.attention_dropout},
        {"finetune", name_of(kFinetune, t.finetune)},
        {"lora",
         {{"rank", t.lora.rank},
          {"targets", lora_targets_name(t.lora.targets)},
          {"dropout", t.lora.dropout},
          {"quant", name_of(kQuant, t.lora.quant)},
          {"double_quant", t.lora.double_quant},
          {"quant_block", t.lora.quant_block},
          {"quantize_head", toggle_json(t.lora.quantize_head)},
          {"saves_inputs", toggle_json(t.lora.saves_inputs)}}},
        {"head", name_of(kHeads, t.head)},
        {"classifier_labels", t.classifier_labels},
        {"sharding", sharding_name(t.sharding)},
        {"shard_group", t.shard_group},
        {"offload_optimizer", t.offload_optimizer},
        {"offload_params", t.offload_params},
        {"profile", t.profile},
        {"compile", toggle_json(t.compile)},
        {"logits_fp32", toggle_json(t.logits_fp32)},
        {"loss_chunk_tokens", t.loss_chunk_tokens},
    };
    const ParallelInputs& p = cfg.parallel;
    j["parallel"] = {{"tp", p.tp}, {"sp", toggle_json(p.sp)}, {"pp", p.pp}, {"schedule", name_of(kSchedules, p.schedule)},
                     {"virtual_stages", p.virtual_stages}, {"dp", p.dp}, {"cp", p.cp}, {"ep", p.ep}, {"etp", p.etp}};
    const RuntimeConstants& k = cfg.runtime;
    j["runtime"] = {{"cuda_context_bytes", k.cuda_context_bytes},
                    {"lazy_loading", toggle_json(k.lazy_loading)},
                    {"library_workspace_bytes", k.library_workspace_bytes},
                    {"nccl_bytes", k.nccl_bytes},
                    {"allocator_fragmentation", k.allocator_fragmentation},
                    {"deepspeed_bucket_elements", k.deepspeed_bucket_elements},
                    {"deepspeed_prefetch_elements", k.deepspeed_prefetch_elements},
                    {"ddp_bucket_bytes", k.ddp_bucket_bytes}};
}

}  // namespace vc::io
