// vramcalc core: the config field table (see fields.hpp).
//
// [SECTIONS]
//   names      enum spellings (the first of a value is the one written back)
//   builder    the chainable field constructor the table is written with
//   table      every field, section by section, in document order
//   queries    lookup, ranges, checks
#include "core/fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "core/units.hpp"

namespace vc {

// [SECTION] names ---------------------------------------------------------------------------------
namespace {

template <typename E>
constexpr EnumName N(const char* name, E v, bool listed = true) {
    return EnumName{name, static_cast<int>(v), listed};
}

constexpr EnumName kMethods[] = {N("quick", Method::Quick), N("guide", Method::Guide), N("detailed", Method::Detailed)};
constexpr EnumName kTasks[] = {N("training", Task::Training), N("finetune", Task::FineTune), N("inference", Task::Inference)};
constexpr EnumName kQuickPrecisions[] = {N("fp32", QuickPrecision::Fp32), N("fp16", QuickPrecision::Fp16), N("bf16", QuickPrecision::Bf16),
                                     N("int8", QuickPrecision::Int8), N("int4", QuickPrecision::Int4)};
constexpr EnumName kQuickOptimizers[] = {N("adamw-mixed", QuickOptimizer::AdamWMixed), N("adamw", QuickOptimizer::AdamW),
                                     N("adamw-8bit", QuickOptimizer::AdamW8bit), N("sgd", QuickOptimizer::Sgd),
                                     N("inference", QuickOptimizer::Inference)};
constexpr EnumName kMlp[] = {N("gelu", MlpKind::Gelu), N("swiglu", MlpKind::SwiGlu), N("geglu", MlpKind::GeGlu)};
constexpr EnumName kNorm[] = {N("layernorm", NormKind::LayerNorm), N("rmsnorm", NormKind::RmsNorm)};
constexpr EnumName kRecurrent[] = {N("none", RecurrentKind::None), N("gated-deltanet", RecurrentKind::GatedDeltaNet),
                                   N("mamba2", RecurrentKind::Mamba2), N("short-conv", RecurrentKind::ShortConv),
                                   N("mamba1", RecurrentKind::Mamba1)};
constexpr EnumName kTrainPrecisions[] = {
    N("bf16-mixed", TrainPrecision::Bf16Mixed), N("fp32", TrainPrecision::Fp32),         N("fp16-mixed", TrainPrecision::Fp16Mixed),
    N("bf16-true", TrainPrecision::Bf16True),   N("fp16-true", TrainPrecision::Fp16True), N("fp8", TrainPrecision::Fp8Mixed),
    N("bf16", TrainPrecision::Bf16True),        N("fp16", TrainPrecision::Fp16True),      N("32-true", TrainPrecision::Fp32),
    N("amp-bf16", TrainPrecision::Bf16Mixed),   N("amp-fp16", TrainPrecision::Fp16Mixed), N("fp8-mixed", TrainPrecision::Fp8Mixed),
};
constexpr EnumName kTrainOptimizers[] = {
    N("adamw", OptimizerKind::AdamW),        N("adamw-8bit", OptimizerKind::AdamW8bit),  N("paged-adamw", OptimizerKind::PagedAdamW),
    N("paged-adamw-8bit", OptimizerKind::PagedAdamW8bit), N("adafactor", OptimizerKind::Adafactor), N("sgd", OptimizerKind::Sgd),
    N("sgd-momentum", OptimizerKind::SgdMomentum), N("lion", OptimizerKind::Lion), N("custom", OptimizerKind::Custom),
    N("adam", OptimizerKind::AdamW),
};
constexpr EnumName kRecompute[] = {N("none", Recompute::None), N("selective", Recompute::Selective), N("full", Recompute::Full),
                                    N("auto", Recompute::Auto)};
// fa2: transformers' attn_implementation="flash_attention_2" (its spelling accepted too); sdpa-gqa: its
// SDPA with enable_gqa=True. Both keep K and V at their own heads; flash and sdpa keep the profile's.
constexpr EnumName kAttention[] = {N("auto", AttentionKernel::Auto), N("flash", AttentionKernel::Flash), N("sdpa", AttentionKernel::Flash),
                               N("eager", AttentionKernel::Eager), N("fa2", AttentionKernel::Fa2),
                               N("flash_attention_2", AttentionKernel::Fa2, false), N("sdpa-gqa", AttentionKernel::SdpaGqa)};
constexpr EnumName kFinetune[] = {N("full", FinetuneMethod::Full), N("lora", FinetuneMethod::Lora), N("qlora", FinetuneMethod::Qlora)};
constexpr EnumName kBaseQuant[] = {N("none", BaseQuant::None), N("nf4", BaseQuant::Nf4), N("fp4", BaseQuant::Fp4), N("int8", BaseQuant::Int8)};
constexpr EnumName kExpertAdapters[] = {N("auto", ExpertAdapters::Auto), N("per-expert", ExpertAdapters::PerExpert), N("none", ExpertAdapters::None),
                                        N("target-parameters", ExpertAdapters::TargetParameters),
                                        N("target-parameters-unmerged", ExpertAdapters::TargetParametersUnmerged)};
constexpr EnumName kHeads[] = {N("lm", OutputHead::LanguageModel), N("classifier", OutputHead::Classifier)};
// "hybrid-shard" is ZeRO-3 within shard groups (io/ sets a default group of 8 when none is given).
constexpr EnumName kSharding[] = {
    N("ddp", Sharding::None),   N("none", Sharding::None, false), N("zero1", Sharding::Zero1), N("zero2", Sharding::Zero2),
    N("zero3", Sharding::Zero3), N("fsdp-shard-grad-op", Sharding::Zero2), N("fsdp-full-shard", Sharding::Zero3),
    N("fsdp", Sharding::Zero3, false), N("hybrid-shard", Sharding::Zero3),
};
constexpr EnumName kSchedules[] = {N("1f1b", PipelineSchedule::OneFOneB), N("interleaved", PipelineSchedule::Interleaved)};
constexpr EnumName kEngines[] = {N("vllm", Engine::Vllm), N("llama.cpp", Engine::LlamaCpp), N("llamacpp", Engine::LlamaCpp, false),
                             N("hf", Engine::Hf), N("transformers", Engine::Hf, false), N("sglang", Engine::Sglang)};
constexpr EnumName kSplitModes[] = {N("layer", SplitMode::Layer), N("row", SplitMode::Row), N("none", SplitMode::None)};
constexpr EnumName kHfAttention[] = {N("eager", HfAttention::Eager), N("sdpa", HfAttention::Sdpa), N("flash", HfAttention::Flash)};
constexpr EnumName kGptqKernel[] = {N("exllamav2", GptqKernel::Exllamav2), N("exllama", GptqKernel::Exllama), N("marlin", GptqKernel::Marlin),
                                    N("torch", GptqKernel::Torch)};
// bitsandbytes compute dtype, as the bytes of one value (the member holds bytes).
constexpr EnumName kBnbCompute[] = {{"fp32", 4, true}, {"bf16", 2, true}, {"fp16", 2, true}};
constexpr EnumName kProfileLogits[] = {{"sequences", 0, true}, {"tokens", 1, true}};
constexpr EnumName kVllmSamplers[] = {N("auto", VllmSampler::Auto), N("pytorch", VllmSampler::Pytorch), N("flashinfer", VllmSampler::Flashinfer)};
constexpr EnumName kVllmCustomAllReduce[] = {N("auto", VllmCustomAllReduce::Auto), N("on", VllmCustomAllReduce::On),
                                             N("off", VllmCustomAllReduce::Off)};
constexpr EnumName kGpuP2p[] = {N("auto", GpuP2p::Auto), N("on", GpuP2p::On), N("off", GpuP2p::Off)};
constexpr EnumName kLlamaProfiles[] = {{"llama-server", 0, true}, {"ollama", 1, true}};
// The planner's cluster ranking (PlanRank in core/plan/plan.hpp: Time, Cost, TokensPerGpu).
constexpr EnumName kPlanRanks[] = {{"time", 0, true}, {"cost", 1, true}, {"tokens_per_gpu", 2, true}};

}  // namespace

const EnumNames kMethodNames = enum_names(kMethods), kTaskNames = enum_names(kTasks),
                kQuickPrecisionNames = enum_names(kQuickPrecisions), kQuickOptimizerNames = enum_names(kQuickOptimizers),
                kMlpNames = enum_names(kMlp), kNormNames = enum_names(kNorm), kTrainPrecisionNames = enum_names(kTrainPrecisions),
                kTrainOptimizerNames = enum_names(kTrainOptimizers), kRecomputeNames = enum_names(kRecompute),
                kAttentionNames = enum_names(kAttention), kFinetuneNames = enum_names(kFinetune),
                kBaseQuantNames = enum_names(kBaseQuant), kHeadNames = enum_names(kHeads), kShardingNames = enum_names(kSharding),
                kScheduleNames = enum_names(kSchedules), kEngineNames = enum_names(kEngines),
                kSplitModeNames = enum_names(kSplitModes), kHfAttentionNames = enum_names(kHfAttention),
                kGptqKernelNames = enum_names(kGptqKernel),
                kBnbComputeNames = enum_names(kBnbCompute), kProfileLogitsNames = enum_names(kProfileLogits),
                kLlamaProfileNames = enum_names(kLlamaProfiles), kPlanRankNames = enum_names(kPlanRanks);

// [SECTION] builder -------------------------------------------------------------------------------
namespace {

struct B {
    FieldDef f;
    constexpr B(const char* path, FieldKind kind, const char* meaning) {
        f.path = path;
        f.kind = kind;
        f.meaning = meaning;
    }
    constexpr B& range(double lo, double hi, const char* unit = "") {
        f.ranged = true;
        f.min = lo;
        f.max = hi;
        f.unit = unit;
        return *this;
    }
    constexpr B& above(double lo, double hi, const char* unit = "") {  // (lo, hi]
        range(lo, hi, unit);
        f.open_min = true;
        return *this;
    }
    constexpr B& unit(const char* u) { return f.unit = u, *this; }
    constexpr B& step(double s) { return f.step = s, *this; }
    constexpr B& accepts(const char* text) { return f.accepts = text, *this; }
    constexpr B& def(const char* text) { return f.def = text, *this; }
    constexpr B& ts(const char* type) { return f.ts_type = type, *this; }
    constexpr B& cli(const char* spellings) { return f.flags = spellings, *this; }
    constexpr B& scaled(double s) { return f.scale = s, *this; }
    constexpr B& null_when_negative() { return f.null_when_negative = true, *this; }
    constexpr B& nonnegative() { return f.read_nonnegative = true, *this; }
    constexpr B& omit_default() { return f.omit_default = true, *this; }
    constexpr B& whole() { return f.whole = true, *this; }
    constexpr B& hand() { return f.by_hand = true, *this; }
    constexpr B& text_max(unsigned bytes) { return f.text_max = bytes, *this; }
    constexpr B& off_page(const char* why) { return f.off_page = why, *this; }
    constexpr operator FieldDef() const { return f; }
};

// A field held by a member of type T (the accessor's type picks the kind).
template <typename T>
constexpr B held(const char* path, T* (*at)(Config&), const char* meaning) {
    B b(path, FieldKind::Number, meaning);
    FieldDef& f = b.f;
    if constexpr (std::is_same_v<T, int>) f.kind = FieldKind::Int, f.int_at = at;
    else if constexpr (std::is_same_v<T, double>) f.kind = FieldKind::Number, f.number_at = at;
    else if constexpr (std::is_same_v<T, bool>) f.kind = FieldKind::Bool, f.bool_at = at;
    else if constexpr (std::is_same_v<T, Toggle>) f.kind = FieldKind::Toggle, f.toggle_at = at;
    else f.kind = FieldKind::Text, f.text_at = at;
    return b;
}
constexpr B Int(const char* path, int* (*at)(Config&), const char* meaning) { return held(path, at, meaning); }
constexpr B Num(const char* path, double* (*at)(Config&), const char* meaning) { return held(path, at, meaning); }
constexpr B Bool(const char* path, bool* (*at)(Config&), const char* meaning) { return held(path, at, meaning); }
constexpr B Tog(const char* path, Toggle* (*at)(Config&), const char* meaning) { return held(path, at, meaning); }
constexpr B Text(const char* path, std::string* (*at)(Config&), const char* meaning) { return held(path, at, meaning); }
constexpr B Enum(const char* path, EnumNames names, int (*get)(const Config&), void (*set)(Config&, int), const char* meaning) {
    B b(path, FieldKind::Enum, meaning);
    b.f.names = names;
    b.f.enum_get = get;
    b.f.enum_set = set;
    return b;
}
constexpr B Obj(const char* path, const char* meaning) { return B(path, FieldKind::Object, meaning); }
constexpr B List(const char* path, const char* ts_type, const char* meaning) { return B(path, FieldKind::List, meaning).ts(ts_type); }

// The member a field lives in, and an enum member as its int value.
#define AT(member) [](Config& c) { return &c.member; }
#define ENUM(Type, member) \
    [](const Config& c) { return static_cast<int>(c.member); }, [](Config& c, int v) { c.member = static_cast<Type>(v); }

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double k2p20 = 1 << 20, k2p24 = 1 << 24, k2p16 = 1 << 16;

// Why the page has no row for a field (tests/cli/page_controls.test.mjs holds the page to these; a
// section's reason covers its fields). Not in the page's build (fields.hpp).
constexpr const char* kLayoutVersion = "the document's layout version, not an input";
constexpr const char* kSameCount = "the same count as the top-level params_b, which the page's \"Parameters (billions)\" row edits";
constexpr const char* kQuickConstants =
    "the quick rule's constants: the page shows the rule as published (docs/methods.md); a what-if sets them in JSON or on the CLI";
constexpr const char* kDisplayName = "a display name: the preset's or the imported file's; it changes no figure";
constexpr const char* kFamilyDetails =
    "architecture details of particular families (biases: hidden-sized vectors, under 0.01% of the weights; BERT's token types; "
    "DeepSeek's MLA and lightning-indexer dimensions; Gemma's global-layer period, norms and softcaps; the context window, which the charts mark; the "
    "checkpoint's dtype, which only picks the default precision): a preset or an imported config.json sets them, and the custom "
    "architecture panel edits the dimensions every family has";
constexpr const char* kHybridDetails =
    "a hybrid decoder's layer mix and recurrent-mixer dimensions: a preset or an imported config.json / GGUF sets them, and the "
    "model's summary line shows the mix (\"12 attention + 36 gated DeltaNet layers\")";
constexpr const char* kStateDtype =
    "the recurrent state's element type is each engine's own (llama.cpp F32, vLLM and transformers the model dtype), which the "
    "KV cache row's formula states; a what-if sets it in JSON or on the CLI";
constexpr const char* kFrameworkDefaults =
    "the frameworks' own defaults (the CUDA stack limit, cuBLAS workspaces, DeepSpeed and DDP buckets), each sourced where declared; "
    "the page's runtime rows are the CUDA context, NCCL and the allocator slack";
constexpr const char* kVllmMeasured = "figures measured in a vLLM log, replacing the model (the calibration rows, `validate`)";
constexpr const char* kProjectorDetails =
    "the projector's details: the page picks a projector preset (or imports an mmproj file), which fills them";
constexpr const char* kDraftDetails =
    "the draft model's launch details: on the page the draft takes the main model's format, offloads every layer and shares the "
    "main context (the fields' defaults); the page edits its preset, draft tokens and acceptance";
constexpr const char* kServingConstants =
    "sourced or fitted constants of the serving model (docs/inference.md); a what-if sets them in JSON or on the CLI";
constexpr const char* kHostShorthands = "the host shorthands: `ddr` only sets the MT/s row's value; `cpu_tflops` replaces a constant";
constexpr const char* kFromFile = "read from a model file the page imports, never typed";
constexpr const char* kPlanExtras =
    "the planner request's search knobs and extras: the page searches with the request's defaults and the fabric catalog's links "
    "(its \"Prices and nodes\" rows edit the price, purchase price and node size), and runs the fabric, batch-sizing and Pareto "
    "extras itself (docs/planner.md)";

// [SECTION] table ---------------------------------------------------------------------------------
constexpr FieldDef kConfigTable[] = {
        // --- top level (io/config_json.cpp reads these by hand: params_b, the model and the task's
        // optimizer depend on each other) -------------------------------------------------------
        B("schema_version", FieldKind::Int, "the version of this document's layout").off_page(kLayoutVersion).accepts("1").def("1").hand(),
        Enum("method", enum_names(kMethods), ENUM(Method, method), "which estimator runs (docs/methods.md)")
            .def("quick; detailed when the document sets an inference, training, parallel, runtime or plan field").hand().cli("--method"),
        Enum("task", enum_names(kTasks), ENUM(Task, task), "what the GPUs do")
            .def("training; inference when the document sets an inference field and no training, parallel or runtime one").hand().cli("--task"),
        Obj("model", "a preset, a custom architecture, or a parameter count (below)").hand(),
        Num("params_b", AT(quick.params_b), "parameters in billions, a typed count (same as model.params_b); without it the quick and "
                                            "guide methods read the count of model").above(0, 1e5, "billion").step(0.1).hand().cli("--params"),
        Enum("precision", enum_names(kQuickPrecisions), ENUM(QuickPrecision, quick.precision),
             "quick method: bytes per weight 4, 2, 2, 1, 0.5").hand().cli("--precision"),
        Enum("optimizer", enum_names(kQuickOptimizers), ENUM(QuickOptimizer, quick.optimizer),
             "quick method: optimizer bytes per parameter 12, 8, 2, 4, 0 (inference: no gradients either)")
            .def("adamw-mixed (inference when task is inference)").hand().cli("--optimizer"),
        Num("batch", AT(run.batch), "micro-batch size (sequences per step per GPU)").range(1, k2p20, "sequences").whole().hand().cli("--batch"),
        Num("seq", AT(run.seq), "sequence length in tokens").range(1, k2p24, "tokens").whole().hand().cli("--seq"),
        Bool("checkpointing", AT(quick.checkpointing), "quick method: activations x 0.25; detailed: training.recompute full unless given").hand(),
        Num("gpus", AT(gpus), "GPUs in the job (the guide's training formula divides by it)").range(1, k2p20, "GPUs").whole().hand().cli("--gpus"),
        Text("gpu", AT(gpu_id), "the GPU to size for (solvers, fit verdicts): an id from vramcalc --list-gpus (another is refused)").def("none").hand().cli("--gpu"),
        Obj("guide", "guide method inputs (below)"),
        Obj("constants", "quick method constants (below)").off_page(kQuickConstants),
        Num("target_utilization", AT(target_utilization), "plan to use at most this share of a GPU's memory").range(0.05, 1).step(0.05).hand(),
        Obj("training", "detailed training and fine-tuning (below)"),
        Obj("parallel", "parallel layout of detailed training (below)"),
        Obj("runtime", "constants of the machine and the allocator (detailed training)"),
        Obj("inference", "detailed inference and serving (below)"),

        // --- guide ---------------------------------------------------------------------------------
        Num("guide.bytes", AT(guide_bytes), "bytes per value p: weights and gradients at p bytes, plus 12 bytes of optimizer state")
            .above(0, 8, "bytes").step(0.5),
        Num("guide.weight_bytes", AT(guide_weight_bytes), "inference: bytes per weight").above(0, 8, "bytes").step(0.5),

        // --- constants (quick method) --------------------------------------------------------------
        Num("constants.activation_bytes_per_token_param", AT(quick.constants.activation_bytes_per_token_param),
            "activations = this x batch x seq x parameters (bytes)").range(0, 1e3, "bytes"),
        Num("constants.checkpoint_factor", AT(quick.constants.checkpoint_factor), "activations multiplier with checkpointing").range(0, 1).step(0.05),
        Num("constants.buffer_fraction", AT(quick.constants.buffer_fraction), "safety margin added to the total").range(0, 10),
        Num("constants.a100_gb", AT(quick.constants.a100_gb), "the divisor for the A100-80GB count").above(0, 1e6, "GB"),
        Num("constants.rtx4090_gb", AT(quick.constants.rtx4090_gb), "the divisor for the RTX 4090 count").above(0, 1e6, "GB"),

        // --- model ---------------------------------------------------------------------------------
        Text("model.preset", AT(model.id), "a preset id (vramcalc --list-presets); fields beside it override it").def("none").hand().cli("--preset"),
        Text("model.name", AT(model.name), "display name (empty: the preset's)").off_page(kDisplayName).def("none").hand(),
        Int("model.layers", AT(model.layers), "transformer blocks: weights, KV cache and activations grow with them").range(1, 1024).cli("--layers"),
        Int("model.hidden", AT(model.hidden), "model width h: weights grow with h^2, activations with h").range(1, k2p20).step(64).cli("--hidden"),
        Int("model.heads", AT(model.heads), "query heads; eager attention keeps heads x s x s scores").range(1, k2p16).cli("--heads"),
        Int("model.kv_heads", AT(model.kv_heads), "KV heads (= heads for MHA, 1 for MQA): the KV cache is proportional to these")
            .accepts("[0, model.heads]").cli("--kv-heads"),
        Int("model.head_dim", AT(model.head_dim), "width of one head (0: hidden / heads); the KV cache is KV heads x head dim").range(0, k2p20).step(8),
        Int("model.ffn", AT(model.ffn), "dense MLP intermediate width: weights and MLP activations grow with it").range(0, k2p20).step(64).cli("--ffn"),
        Enum("model.mlp", enum_names(kMlp), ENUM(MlpKind, model.mlp), "gelu: 2 matrices; swiglu / geglu: 3 matrices"),
        Int("model.vocab", AT(model.vocab), "vocabulary: embedding and LM head rows; the logits are batch x seq x vocab").range(1, k2p24).step(1024).cli("--vocab"),
        Bool("model.tied_embeddings", AT(model.tied_embeddings), "the LM head shares the embedding matrix: one fewer vocab x h"),
        Enum("model.norm", enum_names(kNorm), ENUM(NormKind, model.norm), "LayerNorm adds a bias per channel"),
        Bool("model.attn_bias", AT(model.attn_bias), "biases on the q, k, v (and o with mlp_bias) projections").off_page(kFamilyDetails),
        Bool("model.mlp_bias", AT(model.mlp_bias), "biases on the MLP and output projections").off_page(kFamilyDetails),
        Int("model.max_position", AT(model.max_position), "learned absolute position embeddings: rows (0: rotary)").off_page(kFamilyDetails).range(0, k2p24),
        Int("model.context_limit", AT(model.context_limit),
            "tokens the model is configured for (max_position_embeddings; 0: unknown): the max_context and max_seq answers stop there")
            .range(0, k2p24, "tokens"),
        Text("model.checkpoint_dtype", AT(model.checkpoint_dtype),
             "the checkpoint's dtype (config.json torch_dtype; empty: unknown). No bytes: choosing the model sets the 2-byte "
             "float choices to it (fp32: bf16)").off_page(kFamilyDetails)
            .accepts("bf16, fp16, fp32 or empty")
            .def("none")
            .omit_default(),
        Text("model.checkpoint_format", AT(model.checkpoint_format),
             "the weight format the published checkpoint stores when quantized (quantization_config: fp8-block, mxfp4, "
             "gptq-int4 ...; empty: unquantized). Serving loads it where inference.weights is not given")
            .off_page(kFamilyDetails)
            .accepts("a weight format id of inference.weights (not a GGUF type) or empty")
            .def("none")
            .omit_default(),
        Int("model.type_vocab", AT(model.type_vocab), "BERT token-type embedding rows").off_page(kFamilyDetails).range(0, k2p24),
        Int("model.experts", AT(model.experts), "routed experts per MoE layer (0: dense); all are stored").range(0, k2p16),
        Int("model.top_k", AT(model.top_k), "routed experts each token uses: compute and routed activations").accepts("[1, model.experts] with experts"),
        Int("model.shared_experts", AT(model.shared_experts), "experts every token uses").range(0, k2p16),
        Int("model.expert_ffn", AT(model.expert_ffn), "intermediate width of one expert").range(0, k2p20).step(64),
        Int("model.dense_layers", AT(model.dense_layers), "leading layers with a dense MLP instead of experts").accepts("[0, model.layers]"),
        Int("model.moe_every", AT(model.moe_every),
            "after the dense layers, the layers whose index + 1 is a multiple of n have the experts and the others a dense MLP "
            "(Llama-4 Maverick: 2; ERNIE-4.5's moe_layer_interval)")
            .off_page(kFamilyDetails).accepts("[1, model.layers]").omit_default(),
        Int("model.dense_tail", AT(model.dense_tail), "trailing layers with a dense MLP instead of experts (ERNIE-4.5: after moe_layer_end_index)")
            .off_page(kFamilyDetails).accepts("[0, model.layers]").omit_default(),
        Int("model.q_lora_rank", AT(model.q_lora_rank), "multi-head latent attention: query rank (0: a plain q projection)").off_page(kFamilyDetails).range(0, k2p20),
        Int("model.kv_lora_rank", AT(model.kv_lora_rank), "multi-head latent attention: the KV latent per token (0: off)").range(0, k2p20).step(64),
        Int("model.qk_rope_head_dim", AT(model.qk_rope_head_dim), "MLA: rotary part of a query/key head").off_page(kFamilyDetails).range(0, k2p20),
        Int("model.qk_nope_head_dim", AT(model.qk_nope_head_dim), "MLA: non-rotary part of a query/key head").off_page(kFamilyDetails).range(0, k2p20),
        Int("model.v_head_dim", AT(model.v_head_dim), "MLA: value head width").off_page(kFamilyDetails).range(0, k2p20),
        Int("model.index_heads", AT(model.index_heads), "DeepSeek-V3.2's lightning indexer: query heads (index_n_heads 64; 0: no indexer)")
            .off_page(kFamilyDetails).range(0, k2p16).omit_default(),
        Int("model.index_head_dim", AT(model.index_head_dim),
            "DeepSeek-V3.2's lightning indexer: head width (index_head_dim 128); one key of it per token and layer is cached beside MLA's")
            .off_page(kFamilyDetails).range(0, k2p16).omit_default(),
        Int("model.sliding_window", AT(model.sliding_window), "local layers cache at most this many tokens (0: none)")
            .range(0, 1073741824.0, "tokens"),
        Int("model.global_every", AT(model.global_every), "every n-th layer attends globally (0: every layer uses the window)").off_page(kFamilyDetails)
            .accepts("[0, model.layers]"),
        Bool("model.chunked", AT(model.chunked),
             "the local layers attend within fixed chunks of sliding_window tokens (Llama 4), not a sliding window; "
             "the engines cache the same")
            .off_page(kFamilyDetails).omit_default(),
        Num("model.params_b", AT(model.params_override_b), "a parameter count in billions; alone, the architecture is filled from "
                                                            "typical ratios").off_page(kSameCount).range(0, 1e5, "billion").hand(),
        Int("model.norms_per_layer", AT(model.norms_per_layer), "2; 1 for a parallel attention/MLP block, 4 for Gemma-2").off_page(kFamilyDetails).range(0, 8),
        Bool("model.qk_norm", AT(model.qk_norm), "RMSNorms on the queries and keys (Qwen3, Gemma-3): 2 x head_dim weights a layer")
            .off_page(kFamilyDetails),
        Bool("model.qk_norm_whole", AT(model.qk_norm_whole),
             "the q/k norms span the whole projections (OLMo-2/3, MiniMax-M2): (heads + kv_heads) x head_dim weights a layer; "
             "under tensor parallelism their inputs are whole on every GPU")
            .off_page(kFamilyDetails).omit_default(),
        Num("model.attn_softcap", AT(model.attn_softcap), "attention logit soft-capping (Gemma-2: 50; 0: none)").off_page(kFamilyDetails).range(0, 1e6),
        Num("model.final_softcap", AT(model.final_softcap), "final logit soft-capping (Gemma-2: 30; 0: none)").off_page(kFamilyDetails).range(0, 1e6),
        Text("model.layer_pattern", AT(model.layer_pattern),
             "hybrid decoders: one letter per layer, A attention + MLP, R recurrent + MLP, * attention, M recurrent, - MLP, "
             "E experts (Nemotron-3's MoE block), P attention and recurrent in parallel + MLP (Falcon-H1; empty: every layer A); "
             "the KV cache is the attention layers', the recurrent layers keep a state")
            .off_page(kHybridDetails).accepts("empty or model.layers letters of A, R, *, M, -, E, P").def("empty").omit_default(),
        Enum("model.recurrent", enum_names(kRecurrent), ENUM(RecurrentKind, model.recurrent),
             "the recurrent layers' mixer: gated-deltanet (Qwen3-Next), mamba2 (Granite-4.0-H, Nemotron-H, Falcon-H1), short-conv (LFM2) or mamba1 (Jamba)").off_page(kHybridDetails).omit_default(),
        Int("model.ssm_heads", AT(model.ssm_heads), "recurrent mixer: value heads (GDN linear_num_value_heads, Mamba2 mamba_n_heads; Mamba1: d_inner)")
            .off_page(kHybridDetails).range(0, k2p16).omit_default(),
        Int("model.ssm_head_dim", AT(model.ssm_head_dim), "recurrent mixer: one value head's width (Mamba1: 1); x ssm_heads = d_inner")
            .off_page(kHybridDetails).range(0, k2p16).omit_default(),
        Int("model.ssm_groups", AT(model.ssm_groups), "recurrent mixer: GDN key heads, Mamba2 B/C groups (n_groups)")
            .off_page(kHybridDetails).range(0, k2p16).omit_default(),
        Int("model.ssm_state", AT(model.ssm_state), "recurrent mixer: GDN key head width, Mamba2 d_state; the state is ssm_state x d_inner a layer")
            .off_page(kHybridDetails).range(0, k2p16).omit_default(),
        Int("model.ssm_conv", AT(model.ssm_conv), "recurrent mixer: causal convolution kernel (4; LFM2's conv_L_cache 3); the conv state keeps kernel - 1 inputs")
            .off_page(kHybridDetails).range(0, 1024).omit_default(),
        Int("model.ssm_dt_rank", AT(model.ssm_dt_rank), "Mamba1's time-step projection rank (Jamba mamba_dt_rank; auto: ceil(hidden / 16))")
            .off_page(kHybridDetails).range(0, k2p16).omit_default(),
        Text("model.ssm_cache_dtype", AT(model.ssm_cache_dtype),
             "the SSM state's dtype the config.json states (mamba_ssm_cache_dtype, Nemotron-H's float32; empty: none): vLLM's "
             "inference.vllm.mamba_ssm_cache_dtype auto takes it")
            .off_page(kHybridDetails).accepts("fp32, bf16, fp16 or empty").def("none").omit_default(),
        Bool("model.attn_gate", AT(model.attn_gate), "gated attention (Qwen3-Next): q_proj twice as wide, the query and an output gate")
            .off_page(kHybridDetails).omit_default(),

        // --- training ------------------------------------------------------------------------------
        Enum("training.precision", enum_names(kTrainPrecisions), ENUM(TrainPrecision, training.precision),
             "dtypes of weights, gradients, optimizer state and activations (docs/training.md)").cli("--training-precision"),
        Enum("training.optimizer", enum_names(kTrainOptimizers), ENUM(OptimizerKind, training.optimizer), "optimizer state per trainable parameter").cli("--training-optimizer"),
        Num("training.optimizer_bytes_per_param", AT(training.optimizer_bytes_per_param),
            "custom optimizer: state bytes per trainable parameter").range(0, 64, "bytes"),
        Tog("training.grad_fp32", AT(training.grad_fp32), "FP32 gradient accumulation buffers (Megatron main_grad); null: the profile"),
        Num("training.grad_accum", AT(training.grad_accum), "micro-batches per optimizer step (0: from global_batch, else 1)")
            .range(0, k2p20).whole().cli("--grad-accum"),
        Num("training.global_batch", AT(training.global_batch),
            "sequences per optimizer step over all data-parallel ranks (0: derived); a multiple of batch x dp")
            .range(0, 1e9, "sequences"),
        Enum("training.recompute", enum_names(kRecompute), ENUM(Recompute, training.recompute),
             "activation recomputation (checkpointing); auto: the profile's, full for a quantized base (QLoRA) under hf-trainer, "
             "hf-legacy, torch-compile and deepspeed (peft's prepare_model_for_kbit_training turns it on), full for every run under trl "
             "(SFTConfig's gradient_checkpointing defaults to true), full for fine-tuning on more than one GPU under litgpt (its "
             "scripts checkpoint every block), else none").cli("--recompute"),
        Enum("training.attention", enum_names(kAttention), ENUM(AttentionKernel, training.attention),
             "attention kernel (auto: the profile's); eager keeps the s x s scores; fa2 (transformers' flash_attention_2) and "
             "sdpa-gqa (SDPA with enable_gqa) keep GQA models' K/V at their own heads"),
        Num("training.dropout", AT(training.dropout), "hidden dropout: > 0 keeps 1-byte masks").range(0, 0.99).step(0.05),
        Num("training.attention_dropout", AT(training.attention_dropout), "attention dropout: > 0 keeps masks and dropped probabilities")
            .range(0, 0.99).step(0.05),
        Enum("training.finetune", enum_names(kFinetune), ENUM(FinetuneMethod, training.finetune),
             "full; LoRA: frozen base + adapters; QLoRA: NF4 base").cli("--finetune"),
        Obj("training.lora", "LoRA and QLoRA adapters (below)"),
        Enum("training.head", enum_names(kHeads), ENUM(OutputHead, training.head), "an LM head over the vocabulary, or a sequence classifier"),
        Int("training.classifier_labels", AT(training.classifier_labels), "classifier head: labels").range(1, k2p24),
        Enum("training.sharding", enum_names(kSharding), ENUM(Sharding, training.sharding),
             "ZeRO / FSDP sharding over dp x cp (hybrid-shard: zero3 in shard groups, 8 GPUs unless shard_group says)")
            .hand().cli("--sharding"),
        Int("training.shard_group", AT(training.shard_group), "hybrid sharding: GPUs per shard group (0: all); divides dp x cp")
            .range(0, k2p20, "GPUs"),
        Bool("training.offload_optimizer", AT(training.offload_optimizer),
             "optimizer state and FP32 master in host RAM (ZeRO-Offload, FSDP CPU offload)"),
        Bool("training.offload_params", AT(training.offload_params), "parameters in host RAM, gathered per layer (needs zero3)"),
        Text("training.profile", AT(training.profile), "framework behaviours (docs/training.md, \"Framework profiles\")")
            .accepts("hf-trainer, hf-legacy, torch-compile, torchtitan, megatron, deepspeed, litgpt, torchtune, trl").cli("--training-profile"),
        Tog("training.compile", AT(training.compile), "torch.compile fusions on or off; null: the profile"),
        Tog("training.logits_fp32", AT(training.logits_fp32), "the loss upcasts logits to FP32; null: the profile"),
        Tog("training.compile_loss", AT(training.compile_loss),
            "the loss under torch.compile (torchtitan since April 2025, torchtune compile=True): 16-bit loss buffers; null: the profile (off)"),
        Num("training.loss_chunk_tokens", AT(training.loss_chunk_tokens),
            "chunked cross-entropy: tokens per chunk (0: off, -1: the profile; trl: 256, its chunked_nll loss, 0 for loss_type nll)")
            .range(-1, 17592186044416.0, "tokens"),
        Tog("training.keeps_logits", AT(training.keeps_logits),
            "the loop holds the logits through backward, beside the recomputed layer (torchtune before July 2024); null: the profile (torchtune: no)"),
        Bool("training.liger", AT(training.liger),
             "Liger Kernel (use_liger_kernel): the LM head and loss fused in chunks (no full logits), RMSNorm and SwiGLU/GeGLU "
             "keep fewer activations; profiles hf-trainer, torch-compile, deepspeed, trl; model families Liger patches"),
        Num("training.liger_chunk_tokens", AT(training.liger_chunk_tokens),
            "training.liger: tokens per fused-loss chunk (0: Liger's rule, next power of 2 of tokens / ceil(vocab / hidden))")
            .range(0, 17592186044416.0, "tokens").whole(),

        // --- training.lora -------------------------------------------------------------------------
        Int("training.lora.rank", AT(training.lora.rank), "adapter rank").range(1, k2p16).cli("--lora-rank"),
        List("training.lora.targets", "string | string[]",
             "adapted modules: q k v o gate up down head, or attention, mlp, all-linear, or HF names like q_proj")
            .def("q,v").hand().cli("--lora-targets"),
        Num("training.lora.dropout", AT(training.lora.dropout), "LoRA dropout: > 0 keeps a mask and a dropped copy of each adapted input")
            .range(0, 0.99).step(0.05),
        Enum("training.lora.quant", enum_names(kBaseQuant), ENUM(BaseQuant, training.lora.quant), "frozen base weights' format")
            .def("none (nf4 for qlora)"),
        Bool("training.lora.double_quant", AT(training.lora.double_quant), "QLoRA: the absmax constants quantized too"),
        Int("training.lora.quant_block", AT(training.lora.quant_block), "values per absmax block").range(16, k2p16),
        Tog("training.lora.quantize_head", AT(training.lora.quantize_head), "the LM head quantized too; null: the profile"),
        Tog("training.lora.saves_inputs", AT(training.lora.saves_inputs),
            "the 4-bit matmul keeps each layer's input (bitsandbytes < 0.43.2); null: the profile (current bitsandbytes: no)"),
        Tog("training.lora.previous_graph", AT(training.lora.previous_graph),
            "the previous step's graph, with the 4-bit layers' kept inputs, alive through the next forward; null: the profile (LitGPT: yes)"),
        Tog("training.lora.dequant_fp16", AT(training.lora.dequant_fp16),
            "the 4-bit weights were quantized from FP16: each dequantized matrix is FP16 plus its cast to the compute dtype; null: the profile (LitGPT: yes)"),
        Tog("training.lora.unchunked_quantize", AT(training.lora.unchunked_quantize),
            "NF4 quantized on the GPU a whole matrix at a time at init (torchao 0.1): the freed blocks stay reserved; null: the profile (no)"),
        Tog("training.lora.upcast_frozen", AT(training.lora.upcast_frozen),
            "a quantized base's embedding, LM head and norms in FP32, and so its hidden states (peft's prepare_model_for_kbit_training); "
            "null: the profile (hf-trainer, hf-legacy, torch-compile: yes)"),
        Tog("training.lora.adapters_bf16", AT(training.lora.adapters_bf16),
            "a quantized base's adapters cast to BF16: BF16 weights, gradients and AdamW moments, no FP32 master (TRL 0.26 and later); "
            "null: the profile (trl: yes)"),
        Tog("training.lora.base_fp32", AT(training.lora.base_fp32),
            "a 16-bit LoRA base held in FP32 under bf16/fp16-mixed, autocast copying each frozen weight per matmul (Lightning "
            "Fabric builds the model in FP32); null: the profile (litgpt: yes)"),
        Tog("training.lora.experts_unquantized", AT(training.lora.experts_unquantized),
            "a quantized base's MoE routed experts left unquantized, in the base's 16-bit (or peft's FP32) dtype: transformers 5's "
            "fused 3-D experts, which its bitsandbytes quantizer skips; null: the profile (hf-trainer, torch-compile, deepspeed: yes); "
            "false: Unsloth, Axolotl's quantize_moe_experts, transformers 4"),
        Enum("training.lora.expert_adapters", enum_names(kExpertAdapters), ENUM(ExpertAdapters, training.lora.expert_adapters),
             "adapters on an MoE's routed experts when the targets name gate, up or down: per-expert (r x (in + out) per expert "
             "matrix: transformers 4, LitGPT, torchtune), none (transformers 5's fused 3-D experts, which peft's target_modules "
             "never match), target-parameters (peft's target_parameters: r x (in + out) per expert per fused tensor, and W + BA "
             "merged per forward and kept for backward; needs lora.dropout 0), target-parameters-unmerged (the same adapters "
             "without the merged copy: Unsloth, Axolotl's MoE kernels); auto: the profile (hf-trainer, torch-compile, deepspeed, "
             "trl: none)"),

        // --- parallel ------------------------------------------------------------------------------
        Int("parallel.tp", AT(parallel.tp), "tensor parallel; divides model.heads, divides or is a multiple of model.kv_heads")
            .range(1, k2p16, "GPUs").cli("--tp"),
        Tog("parallel.sp", AT(parallel.sp), "sequence parallel (with tp > 1): norm and dropout activations split too; null: the "
                                            "profile's TP plan"),
        Int("parallel.pp", AT(parallel.pp), "pipeline stages, at most model.layers").range(1, k2p16, "stages").cli("--pp"),
        Enum("parallel.schedule", enum_names(kSchedules), ENUM(PipelineSchedule, parallel.schedule), "pipeline schedule (interleaved needs pp >= 2)"),
        Int("parallel.virtual_stages", AT(parallel.virtual_stages), "interleaved: model chunks per GPU; at most ceil(layers / pp) layers on a stage (pp x v dividing model.layers, or uneven chunks)")
            .range(1, k2p16),
        Int("parallel.dp", AT(parallel.dp), "data parallel (0: gpus / (tp x pp x cp)); gpus = tp x pp x dp x cp").range(0, k2p20, "GPUs").cli("--dp"),
        Int("parallel.cp", AT(parallel.cp), "context parallel; divides seq").range(1, k2p16, "GPUs").cli("--cp"),
        Int("parallel.ep", AT(parallel.ep), "expert parallel; divides model.experts, ep x etp divides tp x dp x cp").range(1, k2p16, "GPUs").cli("--ep"),
        Int("parallel.etp", AT(parallel.etp), "expert tensor parallel (0: = tp)").range(0, k2p16, "GPUs"),

        // --- runtime -------------------------------------------------------------------------------
        Num("runtime.cuda_context_bytes", AT(runtime.cuda_context_bytes),
            "whole CUDA context (-1: the model, by lazy_loading and the GPU)").range(-1, 1e12, "bytes").step(50 * kMiB),
        Num("runtime.cuda_stack_limit_bytes", AT(runtime.cuda_stack_limit_bytes),
            "cudaLimitStackSize, reserved for every resident thread").off_page(kFrameworkDefaults).range(0, 1048576, "bytes").step(256),
        Tog("runtime.lazy_loading", AT(runtime.lazy_loading), "CUDA lazy module loading; null: the profile (on, except hf-legacy)"),
        Num("runtime.library_workspace_bytes", AT(runtime.library_workspace_bytes), "cuBLAS workspaces inside the caching allocator").off_page(kFrameworkDefaults)
            .range(0, 1e12, "bytes"),
        Num("runtime.nccl_bytes", AT(runtime.nccl_bytes), "NCCL buffers per GPU when gpus > 1 (outside the allocator)").range(0, 1e12, "bytes").step(50 * kMiB),
        Num("runtime.allocator_fragmentation", AT(runtime.allocator_fragmentation),
            "reserved - allocated, as a share of activations + logits + temporaries (-1: the profile)").range(-1, 10).step(0.01),
        Num("runtime.deepspeed_bucket_elements", AT(runtime.deepspeed_bucket_elements), "DeepSpeed reduce / all-gather bucket").off_page(kFrameworkDefaults)
            .range(0, 1e12, "elements"),
        Num("runtime.deepspeed_prefetch_elements", AT(runtime.deepspeed_prefetch_elements), "DeepSpeed ZeRO-3 prefetch bucket").off_page(kFrameworkDefaults)
            .range(0, 1e12, "elements"),
        Num("runtime.ddp_bucket_bytes", AT(runtime.ddp_bucket_bytes), "DDP bucket cap").off_page(kFrameworkDefaults).range(0, 1e12, "bytes"),

        // --- inference -----------------------------------------------------------------------------
        Enum("inference.engine", enum_names(kEngines), ENUM(Engine, inference.engine), "how the engine takes memory (docs/inference.md, \"Engines\")")
            .def("vllm; the engine whose own section (llamacpp, vllm, hf, sglang) alone the document sets").cli("--engine"),
        Text("inference.weights", AT(inference.weights.format),
             "weight format: bf16, fp8, gptq-int4, awq-int4, mxfp4, ...; GGUF types q4_k_m, q8_0, ... (llama.cpp); docs/inference.md").cli("--weights"),
        Text("inference.experts_weights", AT(inference.weights.experts_format), "MoE experts in their own (non-GGUF) format")
            .def("same as weights").omit_default(),
        Int("inference.group_size", AT(inference.weights.group_size), "GPTQ/AWQ inputs per group (-1: per row)")
            .accepts("[1, 1048576] or -1"),
        Bool("inference.zero_point", AT(inference.weights.zero_point), "GPTQ/AWQ asymmetric: a b-bit zero point per group"),
        Bool("inference.act_order", AT(inference.weights.act_order), "GPTQ desc_act: an int32 g_idx per input column"),
        Bool("inference.keep_embeddings", AT(inference.weights.keep_embeddings), "embedding and LM head stay 16-bit in quantized formats"),
        Bool("inference.gguf_imatrix", AT(inference.weights.gguf_imatrix), "the GGUF file was made with an importance matrix"),
        Text("inference.kv_dtype", AT(inference.kv_dtype), "KV cache element type (auto: the model dtype; llama.cpp f16)")
            .accepts("auto, fp32, bf16, fp16, fp8, int8, int4, q8_0, q5_1, q5_0, q4_1, q4_0, iq4_nl").cli("-ctk --ctk --cache-type-k"),
        Text("inference.state_dtype", AT(inference.state_dtype),
             "a hybrid's recurrent state (conv + SSM / delta state) element type: auto is llama.cpp's F32 (recurrent_type_r/s), "
             "the model dtype in vLLM (mamba_cache_dtype auto) and transformers")
            .off_page(kStateDtype).accepts("auto, fp32, bf16, fp16").omit_default().cli("--state-dtype"),
        Int("inference.context", AT(inference.context), "tokens per sequence, prompt + output (vLLM max_model_len)").range(1, k2p24, "tokens")
            .cli("--max-model-len --context-length"),
        Int("inference.concurrency", AT(inference.concurrency), "sequences in flight (batch)").range(1, k2p20, "sequences").cli("-np --parallel"),
        Int("inference.prompt_tokens", AT(inference.prompt_tokens), "prefill length for TTFT and HF activations (0: the context)")
            .range(0, k2p24, "tokens"),
        Int("inference.tp", AT(inference.tp), "GPUs the model is split over (vLLM: tensor parallel; llama.cpp / HF: layers); 0: gpus")
            .range(0, 4096, "GPUs").cli("-tp --tensor-parallel-size"),
        Int("inference.block_size", AT(inference.block_size), "vLLM KV block").range(1, 4096, "tokens"),
        Bool("inference.swa_full", AT(inference.swa_full), "keep the full context in sliding-window layers too"),
        Obj("inference.vllm", "vLLM options (below)"),
        Obj("inference.llamacpp", "llama.cpp options (below; docs/local.md)"),
        Obj("inference.hf", "HF generate options (below)"),
        Obj("inference.gpu_custom", "a GPU not in the catalog, used instead of gpu by every task, method and answer (its fit has id custom; below)").hand(),
        Obj("inference.constants", "serving constants (below; docs/inference.md)"),
        Obj("inference.host", "the machine around the GPU (below); written only when set").hand(),
        Obj("inference.weights_file", "exact weight bytes read from a model file (below; docs/import.md)").off_page(kFromFile).hand(),

        // --- inference.vllm ------------------------------------------------------------------------
        Num("inference.vllm.gpu_memory_utilization", AT(inference.vllm.gpu_memory_utilization), "share of the card vLLM reserves")
            .above(0, 1).step(0.05).cli("--gpu-memory-utilization"),
        Int("inference.vllm.max_num_batched_tokens", AT(inference.vllm.max_num_batched_tokens), "tokens in the profiling forward")
            .range(1, k2p24, "tokens"),
        Int("inference.vllm.max_num_seqs", AT(inference.vllm.max_num_seqs), "sequences vLLM schedules at once").range(1, k2p20, "sequences").cli("--max-num-seqs"),
        Bool("inference.vllm.enforce_eager", AT(inference.vllm.enforce_eager), "no CUDA graphs"),
        Bool("inference.vllm.allow_long_max_model_len", AT(inference.vllm.allow_long_max_model_len),
             "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a context above the model's window (model.context_limit) runs instead of being refused"),
        Enum("inference.vllm.profile_logits", enum_names(kProfileLogits), ENUM(bool, inference.vllm.profile_all_tokens),
             "the profiling run's logits: one per sequence, or one per batched token"),
        Enum("inference.vllm.sampler", enum_names(kVllmSamplers), ENUM(VllmSampler, inference.vllm.sampler),
             "top-k/top-p sampler in the profiling run: pytorch sorts the logits, flashinfer does not (auto: pytorch)"),
        Enum("inference.vllm.custom_all_reduce", enum_names(kVllmCustomAllReduce), ENUM(VllmCustomAllReduce, inference.vllm.custom_all_reduce),
             "custom all-reduce's buffers (auto: at tp 2, or tp 4/6/8 on NVLink/xGMI cards; off: --disable-custom-all-reduce)"),
        Enum("inference.vllm.p2p", enum_names(kGpuP2p), ENUM(GpuP2p, inference.vllm.p2p),
             "GPU peer access: off puts NCCL's buffers in host memory, no custom all-reduce (auto: off on GeForce)"),
        Text("inference.vllm.mamba_ssm_cache_dtype", AT(inference.vllm.mamba_ssm_cache_dtype),
             "a hybrid's SSM / delta state alone, the conv state keeping inference.state_dtype's (--mamba-ssm-cache-dtype; auto: "
             "model.ssm_cache_dtype when the config states one, else the conv state's)")
            .off_page(kStateDtype).accepts("auto, float32, bfloat16, float16").omit_default().cli("--mamba-ssm-cache-dtype"),
        Num("inference.vllm.activation_peak_gib", AT(inference.vllm.activation_peak_bytes),
            "a measured activation peak from vLLM's log replaces the model (null: modelled)").off_page(kVllmMeasured)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).null_when_negative().nonnegative().def("null"),
        Num("inference.vllm.non_torch_gib", AT(inference.vllm.non_torch_bytes), "measured non-torch memory replaces the constant (null: constant)").off_page(kVllmMeasured)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).null_when_negative().nonnegative().def("null"),
        Num("inference.vllm.cuda_graph_gib", AT(inference.vllm.cuda_graph_bytes), "measured CUDA graph memory replaces the constant (null: constant)").off_page(kVllmMeasured)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).null_when_negative().nonnegative().def("null"),

        // --- inference.llamacpp --------------------------------------------------------------------
        Int("inference.llamacpp.n_gpu_layers", AT(inference.llamacpp.n_gpu_layers),
            "-ngl: -1 unset (with fit: --fit places the layers; else all and the output layer); N: the output layer and the last N - 1 layers (output_first), else the last N, layers + 1 also the output layer").range(-1, k2p20, "layers").cli("-ngl --ngl --n-gpu-layers"),
        Int("inference.llamacpp.n_ubatch", AT(inference.llamacpp.n_ubatch),
            "-ub: physical batch; 0: unset (llama.cpp's 512; the Ollama profile: Ollama's automatic num_batch); under Ollama it is num_batch (-b and -ub)")
            .range(0, k2p20, "tokens").cli("-ub --ubatch --ubatch-size"),
        Int("inference.llamacpp.n_batch", AT(inference.llamacpp.n_batch), "-b: logical batch; the compute buffers take min(-ub, -b, context) tokens")
            .range(1, k2p20, "tokens").cli("-b --batch-size"),
        Bool("inference.llamacpp.flash_attn", AT(inference.llamacpp.flash_attn), "-fa: flash attention"),
        Text("inference.llamacpp.kv_dtype_v", AT(inference.llamacpp.kv_dtype_v),
             "-ctv: V cache type (empty: kv_dtype); a quantized V cache needs flash_attn").def("empty").omit_default().cli("-ctv --ctv --cache-type-v"),
        Int("inference.llamacpp.n_cpu_moe", AT(inference.llamacpp.n_cpu_moe), "routed experts of the first N layers in system RAM")
            .range(0, k2p20, "layers").omit_default().cli("--n-cpu-moe"),
        Text("inference.llamacpp.override_tensor", AT(inference.llamacpp.override_tensor),
             "-ot: tensors whose GGUF name a pattern matches go to its buffer type, first match wins (CPU: system RAM)")
            .accepts("pattern=buffer_type pairs, comma-separated, up to 4096 bytes; buffer types CPU, CUDA0.. / ROCm0.. / Metal (one per GPU); patterns in the regex subset of docs/local.md")
            .def("empty").omit_default().text_max(4096),  // one pair per layer is common: 32 x "blk\.N\.ffn_.*_exps\.=CPU" is 863 bytes
        Bool("inference.llamacpp.no_kv_offload", AT(inference.llamacpp.no_kv_offload),
             "-nkvo: every layer's KV cache in system RAM, attention on the CPU")
            .omit_default(),
        Enum("inference.llamacpp.split_mode", enum_names(kSplitModes), ENUM(SplitMode, inference.llamacpp.split_mode), "-sm: how layers split over GPUs")
            .omit_default().cli("-sm --split-mode"),
        List("inference.llamacpp.tensor_split", "number[]", "-ts: one proportion per GPU (empty: by memory)").def("empty").hand(),
        Num("inference.llamacpp.lora_mib", AT(inference.llamacpp.lora_bytes), "LoRA adapter size").range(0, 1e9, "MiB").step(16).scaled(kMiB)
            .omit_default().cli("--lora-mib"),
        Obj("inference.llamacpp.mmproj", "vision projector (below); written when a preset or params_m is set").hand(),
        Obj("inference.llamacpp.draft", "draft model for speculative decoding (below); written when a preset is set").hand(),
        Bool("inference.llamacpp.fit", AT(inference.llamacpp.fit),
             "--fit (llama-server's default): with -ngl unset, layers and MoE experts go to system RAM until ollama_fit_target_mib stays free per GPU; false: --fit off or an older llama.cpp")
            .omit_default(),
        Bool("inference.llamacpp.output_first", AT(inference.llamacpp.output_first),
             "-ngl N offloads the output layer first, then the last N - 1 layers (llama.cpp since PR #18148, 2025-12-18: @57c1e05; Ollama v0.32.15); false: an older build, the last N layers")
            .omit_default(),
        Enum("inference.llamacpp.profile", enum_names(kLlamaProfiles), ENUM(bool, inference.llamacpp.ollama),
             "ollama: Ollama's num_ctx (by the GPUs' VRAM, at most the model's window), OLLAMA_NUM_PARALLEL and, -ngl unset, num_gpu (llama-server's --fit)")
            .omit_default().cli("--profile"),

        // --- inference.llamacpp.mmproj -------------------------------------------------------------
        Text("inference.llamacpp.mmproj.preset", AT(inference.llamacpp.mmproj.preset), "clip-vit-l-14-336, siglip-so400m-896 or llama4-vit-336 (fills the rest)")
            .def("none").omit_default().cli("--mmproj"),
        Num("inference.llamacpp.mmproj.params_m", AT(inference.llamacpp.mmproj.params), "encoder and projector parameters").off_page(kProjectorDetails)
            .range(0, 1e6, "million").scaled(1e6).omit_default(),
        Text("inference.llamacpp.mmproj.type", AT(inference.llamacpp.mmproj.type), "projector weights' type").off_page(kProjectorDetails).accepts("f16, bf16, f32, q8_0"),
        Int("inference.llamacpp.mmproj.image_tokens", AT(inference.llamacpp.mmproj.image_tokens), "positions the encoder attends over per image (patches + class token; pooling projectors give the LLM fewer tokens): its graph grows with their square").off_page(kProjectorDetails)
            .range(0, k2p20, "tokens").omit_default(),
        Int("inference.llamacpp.mmproj.hidden", AT(inference.llamacpp.mmproj.hidden), "encoder width").off_page(kProjectorDetails).range(0, k2p20).omit_default(),
        Int("inference.llamacpp.mmproj.heads", AT(inference.llamacpp.mmproj.heads), "encoder heads").off_page(kProjectorDetails).range(0, 1 << 14).omit_default(),
        Int("inference.llamacpp.mmproj.ffn", AT(inference.llamacpp.mmproj.ffn), "encoder MLP width").off_page(kProjectorDetails).range(0, 1 << 22).omit_default(),

        // --- inference.llamacpp.draft --------------------------------------------------------------
        Text("inference.llamacpp.draft.preset", AT(inference.llamacpp.draft.preset), "a model preset (empty: no draft)").def("none").cli("--draft"),
        Text("inference.llamacpp.draft.weights", AT(inference.llamacpp.draft.weights), "the draft's weight format").off_page(kDraftDetails),
        Int("inference.llamacpp.draft.n_gpu_layers", AT(inference.llamacpp.draft.n_gpu_layers), "-ngld (-1: all)").off_page(kDraftDetails).range(-1, k2p20, "layers"),
        Int("inference.llamacpp.draft.context", AT(inference.llamacpp.draft.context), "-cd per slot (0: the main context)").off_page(kDraftDetails)
            .range(0, k2p24, "tokens"),
        Int("inference.llamacpp.draft.max_tokens", AT(inference.llamacpp.draft.max_tokens),
            "--draft-max: most tokens drafted per cycle").range(1, 1024, "tokens").cli("--draft-max --draft-n"),
        Int("inference.llamacpp.draft.min_tokens", AT(inference.llamacpp.draft.min_tokens),
            "--draft-min: shorter drafts are dropped").off_page(kDraftDetails).range(0, 1024, "tokens").cli("--draft-min --draft-n-min"),
        Num("inference.llamacpp.draft.acceptance", AT(inference.llamacpp.draft.acceptance),
            "chance each drafted token is accepted; depends on the text (0.72 measured: docs/local.md)")
            .range(0, 1).step(0.05).cli("--draft-acceptance"),

        // --- inference.hf --------------------------------------------------------------------------
        Enum("inference.hf.attention", enum_names(kHfAttention), ENUM(HfAttention, inference.hf.attention), "attention implementation (eager keeps s x s scores)"),
        Bool("inference.hf.full_logits", AT(inference.hf.full_logits), "logits for the whole prompt (false: the last token only)"),
        Enum("inference.hf.bnb_compute_dtype", enum_names(kBnbCompute), [](const Config& c) { return static_cast<int>(c.inference.hf.bnb_compute_bytes); },
             [](Config& c, int v) { c.inference.hf.bnb_compute_bytes = v; }, "bitsandbytes compute dtype"),
        Bool("inference.hf.legacy_cache", AT(inference.hf.legacy_cache),
             "transformers < 4.42: two copies of the KV cache while decoding, the prompt's FP32 logits in step two"),
        Enum("inference.hf.gptq_kernel", enum_names(kGptqKernel), ENUM(GptqKernel, inference.hf.gptq_kernel),
             "the GPTQ kernel and its persistent buffers (exllama: transformers' default; exllamav2: AutoGPTQ's scratch)"),
        Bool("inference.hf.gptq_act_order", AT(inference.hf.gptq_act_order),
             "the checkpoint's desc_act: ExLlama v1 then keeps a temp_state of max_input_len x the largest dimension in FP16")
            .omit_default(),
        Bool("inference.hf.lazy_loading", AT(inference.hf.lazy_loading),
             "CUDA lazy module loading (CUDA >= 11.7, driver >= 515; false: every kernel loaded at start-up, the eager context)")
            .omit_default(),
        Bool("inference.hf.sdpa_enable_gqa", AT(inference.hf.sdpa_enable_gqa),
             "SDPA takes enable_gqa: no repeat_kv copies of K/V (transformers >= 4.54, PyTorch >= 2.5, no padding mask)")
            .omit_default(),
        Bool("inference.hf.experts_unquantized", AT(inference.hf.experts_unquantized),
             "bitsandbytes formats: an MoE's routed experts stay in the checkpoint's 16-bit dtype (transformers 5's fused experts, which "
             "its bitsandbytes integration skips); false: transformers 4, or a loader that quantizes them (Unsloth)")
            .omit_default(),
        Bool("inference.hf.litgpt_quantize", AT(inference.hf.litgpt_quantize),
             "bitsandbytes through LitGPT's --quantize (Lightning's BitsandbytesPrecision): the LM head quantized too, 4-bit weights "
             "dequantized to FP16 then the compute dtype, LLM.int8 re-quantized on load (FP16 + two int8 layouts of the largest matrix)")
            .omit_default(),

        // --- inference.gpu_custom (io/inference_json.cpp reads it: memory_gib is required) -----------
        Text("inference.gpu_custom.name", AT(inference.custom_gpu.name), "display name").def("Custom GPU").hand(),
        Num("inference.gpu_custom.memory_gib", AT(inference.custom_gpu.memory_bytes), "the card's memory (required)")
            .above(0, 1e6, "GiB").scaled(kBytesPerGiB).def("required").hand(),
        Bool("inference.gpu_custom.unified", AT(inference.custom_gpu.unified),
             "a Mac: memory_gib is its RAM, the GPU wires macOS's working-set share of it; one machine").hand(),
        Num("inference.gpu_custom.bandwidth_gbps", AT(inference.custom_gpu.bandwidth_gbps), "memory bandwidth (0: unknown, the speed metrics it feeds are 0)").range(0, 1e7, "GB/s").step(50).hand(),
        Num("inference.gpu_custom.bf16_tflops", AT(inference.custom_gpu.bf16_tflops), "dense BF16 throughput (0: unknown)").range(0, 1e7, "TFLOP/s").step(10).hand(),
        Num("inference.gpu_custom.fp8_tflops", AT(inference.custom_gpu.fp8_tflops), "dense FP8 throughput (0: none)").range(0, 1e7, "TFLOP/s").step(10).hand(),
        Int("inference.gpu_custom.sms", AT(inference.custom_gpu.sms), "NVIDIA SMs, for the CUDA context (0: unknown)")
            .range(0, 4096, "SMs").hand(),
        Int("inference.gpu_custom.threads_per_sm", AT(inference.custom_gpu.threads_per_sm), "resident threads per SM (0: unknown)")
            .range(0, 4096, "threads").hand(),

        // --- inference.constants -------------------------------------------------------------------
        Num("inference.constants.cuda_context_gib", AT(inference.constants.cuda_context_bytes),
            "whole CUDA context (-1: the model, by the GPU)")
            .range(-1, 1e6, "GiB").step(0.1).scaled(kBytesPerGiB),
        Num("inference.constants.cuda_context_eager_gib", AT(inference.constants.cuda_context_eager_bytes),
            "the same with eager module loading (hf.lazy_loading false)").off_page(kServingConstants)
            .range(-1, 1e6, "GiB").step(0.1).scaled(kBytesPerGiB),
        Num("inference.constants.cuda_stack_limit_bytes", AT(inference.constants.cuda_stack_limit_bytes),
            "cudaLimitStackSize, reserved for every resident thread").off_page(kServingConstants).range(0, 1048576, "bytes").step(256),
        Num("inference.constants.driver_reserved_gib", AT(inference.constants.driver_reserved_bytes), "memory the driver keeps from a card").off_page(kServingConstants)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).nonnegative(),
        Num("inference.constants.vllm_non_torch_gib", AT(inference.constants.vllm_non_torch_bytes), "vLLM non-torch memory, one GPU").off_page(kServingConstants)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).nonnegative(),
        Num("inference.constants.vllm_non_torch_tp_gib", AT(inference.constants.vllm_non_torch_tp_bytes),
            "vLLM non-torch memory with tp > 1 (NCCL and custom all-reduce)").off_page(kServingConstants)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).nonnegative(),
        Num("inference.constants.vllm_custom_all_reduce_mib", AT(inference.constants.vllm_custom_all_reduce_bytes),
            "custom all-reduce's part of vllm_non_torch_tp_gib").off_page(kServingConstants)
            .range(0, 1e6, "MiB").scaled(kBytesPerMiB).nonnegative(),
        Num("inference.constants.vllm_cuda_graph_gib", AT(inference.constants.vllm_cuda_graph_bytes), "vLLM CUDA graphs").off_page(kServingConstants)
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).nonnegative(),
        Num("inference.constants.vllm_sampler_bytes_per_logit", AT(inference.constants.vllm_sampler_bytes_per_logit),
            "vLLM sampler bytes per logit in the profiling run").off_page(kServingConstants).range(0, 1e6, "bytes"),
        Num("inference.constants.vllm_flashinfer_sampler_bytes_per_logit", AT(inference.constants.vllm_flashinfer_sampler_bytes_per_logit),
            "the same with FlashInfer's sampler (vllm.sampler flashinfer)").off_page(kServingConstants).range(0, 1e6, "bytes"),
        Num("inference.constants.vllm_token_logit_bytes", AT(inference.constants.vllm_token_logit_bytes), "vLLM bytes per token logit").off_page(kServingConstants)
            .range(0, 1e6, "bytes"),
        Num("inference.constants.vllm_indexer_value_bytes", AT(inference.constants.vllm_indexer_value_bytes),
            "vLLM bytes per value of DeepSeek-V3.2's indexer key (FP8 + an FP32 scale per 128: 1.03125)").off_page(kServingConstants)
            .range(0, 64, "bytes"),
        Num("inference.constants.llamacpp_ctx_pad", AT(inference.constants.llamacpp_ctx_pad), "llama.cpp pads the context to a multiple of this").off_page(kServingConstants)
            .range(1, k2p20, "tokens").whole(),
        Num("inference.constants.bandwidth_efficiency", AT(inference.constants.bandwidth_efficiency), "share of peak memory bandwidth reached")
            .above(0, 1).step(0.05),
        Num("inference.constants.compute_efficiency", AT(inference.constants.compute_efficiency), "share of peak tensor throughput reached")
            .above(0, 1).step(0.05),
        Num("inference.constants.host_bandwidth_gbps", AT(inference.constants.host_bandwidth_gbps), "host memory bandwidth when none is given").off_page(kServingConstants)
            .above(0, 1e7, "GB/s"),
        Num("inference.constants.host_bandwidth_efficiency", AT(inference.constants.host_bandwidth_efficiency),
            "share of channels x 8 B x MT/s reached").off_page(kServingConstants).above(0, 1).step(0.05),
        Num("inference.constants.pcie_gbps", AT(inference.constants.pcie_gbps), "host-to-GPU copies").off_page(kServingConstants).above(0, 1e5, "GB/s"),
        Num("inference.constants.cpu_tflops", AT(inference.constants.cpu_tflops), "CPU throughput for layers in system RAM").off_page(kServingConstants).above(0, 1e5, "TFLOP/s"),
        Num("inference.constants.llamacpp_sched_copies", AT(inference.constants.llamacpp_sched_copies),
            "llama.cpp scheduler input copies with pipeline parallelism").off_page(kServingConstants).range(1, 64).whole(),
        Num("inference.constants.llamacpp_max_seq", AT(inference.constants.llamacpp_max_seq),
            "most sequences llama.cpp runs (LLAMA_MAX_SEQ; -np, OLLAMA_NUM_PARALLEL): max_concurrency stops there").off_page(kServingConstants)
            .range(1, k2p20, "sequences").whole(),
        Num("inference.constants.ollama_num_ctx", AT(inference.constants.ollama_num_ctx), "Ollama's default context below ollama_vram_mid_gib of VRAM").off_page(kServingConstants)
            .range(1, k2p24, "tokens").whole(),
        Num("inference.constants.ollama_num_ctx_mid", AT(inference.constants.ollama_num_ctx_mid),
            "Ollama's default context from ollama_vram_mid_gib of VRAM").off_page(kServingConstants).range(1, k2p24, "tokens").whole(),
        Num("inference.constants.ollama_num_ctx_large", AT(inference.constants.ollama_num_ctx_large),
            "Ollama's default context from ollama_vram_large_gib of VRAM").off_page(kServingConstants).range(1, k2p24, "tokens").whole(),
        Num("inference.constants.ollama_vram_mid_gib", AT(inference.constants.ollama_vram_mid_gib),
            "VRAM of all GPUs (a Mac: its working-set limit) from which Ollama defaults to ollama_num_ctx_mid").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.ollama_vram_large_gib", AT(inference.constants.ollama_vram_large_gib),
            "VRAM from which Ollama defaults to ollama_num_ctx_large").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.ollama_num_parallel", AT(inference.constants.ollama_num_parallel), "Ollama's default parallel sequences").off_page(kServingConstants)
            .range(1, k2p20, "sequences").whole(),
        Num("inference.constants.ollama_num_batch", AT(inference.constants.ollama_num_batch),
            "Ollama's automatic num_batch (-b, -ub) up to ollama_batch_medium_ctx tokens, and the floor of its step down").off_page(kServingConstants)
            .range(1, k2p20, "tokens").whole(),
        Num("inference.constants.ollama_num_batch_medium", AT(inference.constants.ollama_num_batch_medium),
            "Ollama's automatic num_batch above ollama_batch_medium_ctx tokens (num_ctx x parallel)").off_page(kServingConstants).range(1, k2p20, "tokens").whole(),
        Num("inference.constants.ollama_num_batch_large", AT(inference.constants.ollama_num_batch_large),
            "Ollama's automatic num_batch above ollama_batch_large_ctx tokens").off_page(kServingConstants).range(1, k2p20, "tokens").whole(),
        Num("inference.constants.ollama_num_batch_constrained", AT(inference.constants.ollama_num_batch_constrained),
            "Ollama's num_batch with flash attention off on a CUDA card of at most ollama_batch_constrained_gib, above ollama_batch_medium_ctx tokens")
            .off_page(kServingConstants).range(1, k2p20, "tokens").whole(),
        Num("inference.constants.ollama_batch_medium_ctx", AT(inference.constants.ollama_batch_medium_ctx),
            "num_ctx x parallel above which Ollama starts at ollama_num_batch_medium").off_page(kServingConstants).range(0, k2p24, "tokens").whole(),
        Num("inference.constants.ollama_batch_large_ctx", AT(inference.constants.ollama_batch_large_ctx),
            "num_ctx x parallel above which Ollama starts at ollama_num_batch_large").off_page(kServingConstants).range(0, k2p24, "tokens").whole(),
        Num("inference.constants.ollama_batch_medium_headroom", AT(inference.constants.ollama_batch_medium_headroom),
            "share of free GPU memory Ollama's prediction may take to keep ollama_num_batch_medium").off_page(kServingConstants).range(0, 1).step(0.05),
        Num("inference.constants.ollama_batch_large_headroom", AT(inference.constants.ollama_batch_large_headroom),
            "share of free GPU memory Ollama's prediction may take to keep ollama_num_batch_large").off_page(kServingConstants).range(0, 1).step(0.05),
        Num("inference.constants.ollama_batch_fit_share", AT(inference.constants.ollama_batch_fit_share),
            "share of free GPU memory the prediction and the batch's surcharge must stay within").off_page(kServingConstants).range(0, 1).step(0.05),
        Num("inference.constants.ollama_batch_medium_surcharge_mib", AT(inference.constants.ollama_batch_medium_surcharge_mib),
            "memory Ollama adds to its prediction for ollama_num_batch_medium").off_page(kServingConstants).range(0, 1e6, "MiB"),
        Num("inference.constants.ollama_batch_large_surcharge_mib", AT(inference.constants.ollama_batch_large_surcharge_mib),
            "memory Ollama adds to its prediction for ollama_num_batch_large").off_page(kServingConstants).range(0, 1e6, "MiB"),
        Num("inference.constants.ollama_batch_constrained_gib", AT(inference.constants.ollama_batch_constrained_gib),
            "free memory of a CUDA card up to which Ollama takes ollama_num_batch_constrained with flash attention off").off_page(kServingConstants)
            .range(0, 1e6, "GiB"),
        Num("inference.constants.ollama_single_gpu_share", AT(inference.constants.ollama_single_gpu_share),
            "share of one GPU's free memory within which Ollama's prediction loads the model on that GPU alone (0: OLLAMA_SCHED_SPREAD=1)")
            .off_page(kServingConstants).range(0, 1).step(0.05),
        Num("inference.constants.ollama_fit_target_mib", AT(inference.constants.fit_target_bytes),
            "memory llama-server's --fit leaves free per GPU with -ngl (Ollama's num_gpu) unset (--fit-target; the name is kept from before plain llama-server's fit)").off_page(kServingConstants)
            .range(0, 1e6, "MiB").scaled(kBytesPerMiB).nonnegative(),
        Num("inference.constants.exllamav2_max_input_len", AT(inference.constants.exllamav2_max_input_len),
            "ExLlamaV2 scratch rows per sequence (AutoGPTQ's max_input_len)").off_page(kServingConstants).range(1, k2p24, "tokens").whole(),
        Num("inference.constants.exllamav2_max_batch_size", AT(inference.constants.exllamav2_max_batch_size),
            "ExLlamaV2 scratch sequences (AutoGPTQ's max_batch_size)").off_page(kServingConstants).range(1, k2p20, "sequences").whole(),
        Num("inference.constants.exllama_max_input_len", AT(inference.constants.exllama_max_input_len),
            "ExLlama v1 temp_state rows with act-order (AutoGPTQ's EXLLAMA_DEFAULT_MAX_INPUT_LENGTH)").off_page(kServingConstants).range(1, k2p24, "tokens").whole(),
        Num("inference.constants.bnb_int8_input_copies", AT(inference.constants.bnb_int8_input_copies),
            "LLM.int8 int8 copies of a matmul's input (bitsandbytes >= 0.45: 1; <= 0.44: 3)").off_page(kServingConstants).range(0, 16),
        Num("inference.constants.bnb_int8_output_bytes", AT(inference.constants.bnb_int8_output_bytes),
            "LLM.int8 bytes per output element beside the 16-bit output (>= 0.45: 4, int32; <= 0.44: 6)").off_page(kServingConstants).range(0, 64, "bytes"),
        Num("inference.constants.torch_min_large_alloc_mib", AT(inference.constants.torch_min_large_alloc_mib),
            "PyTorch caching allocator: requests from this size get a segment of their own (kMinLargeAlloc)").off_page(kServingConstants).range(1, 1e6, "MiB"),
        Num("inference.constants.torch_round_large_mib", AT(inference.constants.torch_round_large_mib),
            "PyTorch caching allocator: such segments are rounded up to this (kRoundLarge)").off_page(kServingConstants).range(0.001, 1e6, "MiB"),
        Num("inference.constants.vllm_min_capability", AT(inference.constants.vllm_min_capability),
            "compute capability x 10 vLLM's quantization method for the weights needs, below which it refuses them (-1: the table, mxfp4 80, awq-int4 75, fp8 80, w8a8 75; 0: none)")
            .off_page(kServingConstants).range(-1, 1000, "capability x 10").step(5),
        Num("inference.constants.vllm_block_alignment", AT(inference.constants.vllm_block_alignment),
            "vLLM hybrids: the attention block that holds a recurrent state page is a multiple of this (16; MLA backends 64, Blackwell "
            "FlashInfer at head_dim 256: 32)").off_page(kServingConstants).range(1, 4096, "tokens").whole(),
        Num("inference.constants.vllm_group_ratio", AT(inference.constants.vllm_group_ratio),
            "vLLM hybrids: KV cache groups take the fewest layers of a kind, or the most when they are under this x the fewest (1.5)")
            .off_page(kServingConstants).range(1, 1000),
        Num("inference.constants.vllm_state_blocks", AT(inference.constants.vllm_state_blocks),
            "vLLM hybrids: state pages a sequence holds in each state group (1; mamba_cache_mode align: 2; + 1 a speculative token)")
            .off_page(kServingConstants).range(1, 64, "blocks").whole(),
        Num("inference.constants.hf_fp8_min_capability", AT(inference.constants.hf_fp8_min_capability),
            "compute capability x 10 from which transformers keeps fp8-block weights in FP8; below it, and on a Mac, it dequantizes them to "
            "BF16 (89; 0: never)").off_page(kServingConstants).range(0, 1000, "capability x 10").step(5),
        Num("inference.constants.hf_mxfp4_min_capability", AT(inference.constants.hf_mxfp4_min_capability),
            "compute capability x 10 from which transformers keeps mxfp4 experts in MXFP4; below it, and on a Mac, it dequantizes them to "
            "BF16 (75; transformers' 2026 fine-grained quantizer: 89; 0: never)").off_page(kServingConstants).range(0, 1000, "capability x 10").step(5),

        // --- inference.host (io/inference_json.cpp reads it: ddr and ram_gib) ------------------------
        Num("inference.host.ram_gib", AT(inference.host.ram_bytes), "system RAM (0: not checked; Apple: the machine's RAM)")
            .range(0, 1e6, "GiB").scaled(kBytesPerGiB).hand().cli("--ram-gib"),
        Int("inference.host.channels", AT(inference.host.channels), "memory channels, 64 bits each").range(0, 64).hand().cli("--channels"),
        Num("inference.host.mts", AT(inference.host.mts), "DDR transfer rate").range(0, 1e5, "MT/s").step(400).hand(),
        B("inference.host.ddr", FieldKind::Text, "generation and speed, \"ddr5-5600\": sets mts").off_page(kHostShorthands).def("none").hand().cli("--ddr"),
        Num("inference.host.bandwidth_gbps", AT(inference.host.bandwidth_gbps), "measured host bandwidth, replaces channels x 8 B x MT/s")
            .range(0, 1e6, "GB/s").step(10).hand().cli("--host-bandwidth-gbps"),
        Num("inference.host.cpu_tflops", AT(inference.host.cpu_tflops), "replaces constants.cpu_tflops (0: the constant)").off_page(kHostShorthands)
            .range(0, 1e5, "TFLOP/s").hand(),
        Num("inference.host.wired_limit_mb", AT(inference.host.wired_limit_mb), "Apple: sysctl iogpu.wired_limit_mb (0: macOS's default)")
            .range(0, 1e9, "MB").step(1024).hand().cli("--wired-limit-mb"),

        // --- inference.weights_file (io/inference_json.cpp reads it) ---------------------------------
        Text("inference.weights_file.source", AT(inference.weights_file.source), "the file it was read from").hand(),
        Num("inference.weights_file.total_bytes", AT(inference.weights_file.total_bytes), "every tensor's bytes (required; 0: no file)")
            .range(0, 1e16, "bytes").def("required").hand(),
        Num("inference.weights_file.params", AT(inference.weights_file.params), "parameters counted in the file (0: derived)").hand(),
        Obj("inference.weights_file.parts", "bytes by component, adding up to total_bytes: embedding, output, attention, mlp, experts, "
                                            "experts_routed, router, other").ts("{ embedding: number; output: number; attention: number; "
                                                                               "mlp: number; experts: number; experts_routed: number; "
                                                                               "router: number; other: number }").hand(),
        List("inference.weights_file.layer_bytes", "number[]", "bytes of each layer, one entry per model.layers").hand(),
        List("inference.weights_file.layer_routed_bytes", "number[]",
             "routed-expert bytes of each layer (0 in a dense one), one entry per model.layers; empty: the derived ones scaled").hand(),
        Text("inference.weights_file.mix", AT(inference.weights_file.mix), "tensor types and their share").hand(),

        // --- inference.sglang (core/serve/sglang.hpp; docs/inference.md "SGLang") -------------------
        Obj("inference.sglang", "SGLang options (below; docs/inference.md, \"SGLang\")"),
        Num("inference.sglang.mem_fraction_static", AT(inference.sglang.mem_fraction_static),
            "share of the free memory after start-up for the weights and the KV pool (null: SGLang's rule by the GPU's memory, TP and graphs)")
            .above(0, 1).step(0.01).null_when_negative().def("null").cli("--mem-fraction-static"),
        Int("inference.sglang.chunked_prefill_size", AT(inference.sglang.chunked_prefill_size),
            "tokens of a prefill chunk: the activations and SGLang's reserve (0: by the GPU's memory, 2048 to 16384; -1: chunked prefill off)")
            .range(-1, k2p24, "tokens").cli("--chunked-prefill-size"),
        Int("inference.sglang.cuda_graph_max_bs", AT(inference.sglang.cuda_graph_max_bs),
            "largest decode batch captured in a CUDA graph (0: by the GPU's memory and TP, 8 to 512)").range(0, k2p16, "sequences").cli("--cuda-graph-max-bs"),
        Bool("inference.sglang.disable_cuda_graph", AT(inference.sglang.disable_cuda_graph), "no CUDA graphs (decode or prefill)"),
        Bool("inference.sglang.prefill_cuda_graph", AT(inference.sglang.prefill_cuda_graph),
             "the prefill phase's piecewise CUDA graphs (SGLang's default tc_piecewise; false: backend disabled, or a release before them)"),
        Int("inference.sglang.max_running_requests", AT(inference.sglang.max_running_requests),
            "requests run at once and the req_to_token pool's rows (0: max_total_num_tokens / 2, at most 2048 to 4096 rows)")
            .range(0, k2p20, "requests").cli("--max-running-requests"),
        Int("inference.sglang.page_size", AT(inference.sglang.page_size), "tokens per KV page: the pool and each sequence round to pages")
            .range(1, 4096, "tokens").cli("--page-size"),
        Num("inference.constants.sglang_tier1_gib", AT(inference.constants.sglang_tier1_gib),
            "SGLang: below this gpu_mem, chunked prefill 2048 and decode graphs to 8").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_tier2_gib", AT(inference.constants.sglang_tier2_gib),
            "SGLang: below this, 4096 and 48 (tp >= 4: 160)").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_tier3_gib", AT(inference.constants.sglang_tier3_gib),
            "SGLang: below this, 4096 and 32 (tp >= 4: 160)").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_tier4_gib", AT(inference.constants.sglang_tier4_gib),
            "SGLang: below this, 8192 and 256 (tp >= 4: 512)").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_tier5_gib", AT(inference.constants.sglang_tier5_gib),
            "SGLang: below this, 8192 and 256 (tp >= 4: 512); from it 16384 and 512").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_reserved_mib", AT(inference.constants.sglang_reserved_mib),
            "SGLang's reserve: constant metadata").off_page(kServingConstants).range(0, 1e7, "MiB"),
        Num("inference.constants.sglang_min_activation_tokens", AT(inference.constants.sglang_min_activation_tokens),
            "SGLang's reserve: activation tokens at least this").off_page(kServingConstants).range(0, k2p24, "tokens"),
        Num("inference.constants.sglang_activation_mib_per_token", AT(inference.constants.sglang_activation_mib_per_token),
            "SGLang's reserve per activation token").off_page(kServingConstants).range(0, 1e4, "MiB"),
        Num("inference.constants.sglang_parallel_mib", AT(inference.constants.sglang_parallel_mib),
            "SGLang's reserve x tp x pp / 8").off_page(kServingConstants).range(0, 1e7, "MiB"),
        Num("inference.constants.sglang_decode_graph_mib_per_bs", AT(inference.constants.sglang_decode_graph_mib_per_bs),
            "SGLang's reserve and graph memory per decode max_bs").off_page(kServingConstants).range(0, 1e4, "MiB"),
        Num("inference.constants.sglang_prefill_graph_mib_per_size", AT(inference.constants.sglang_prefill_graph_mib_per_size),
            "SGLang's reserve and graph memory per prefill graph size").off_page(kServingConstants).range(0, 1e4, "MiB"),
        Num("inference.constants.sglang_mla_prefill_graph_mib", AT(inference.constants.sglang_mla_prefill_graph_mib),
            "SGLang's reserve and graph memory for an MLA model's prefill graphs").off_page(kServingConstants).range(0, 1e7, "MiB"),
        Num("inference.constants.sglang_reserved_floor_mib", AT(inference.constants.sglang_reserved_floor_mib),
            "SGLang's reserve at least this on a card above sglang_floor_from_gib").off_page(kServingConstants).range(0, 1e7, "MiB"),
        Num("inference.constants.sglang_floor_from_gib", AT(inference.constants.sglang_floor_from_gib),
            "SGLang: cards above this get the reserve's floor").off_page(kServingConstants).range(0, 1e6, "GiB"),
        Num("inference.constants.sglang_max_prefill_tokens", AT(inference.constants.sglang_max_prefill_tokens),
            "SGLang's --max-prefill-tokens: the activation tokens with chunked prefill off").off_page(kServingConstants).range(1, k2p24, "tokens").whole(),
        Num("inference.constants.sglang_req_pool_per_token_ratio", AT(inference.constants.sglang_req_pool_per_token_ratio),
            "SGLang's req_to_token rows: pool tokens / context x this").off_page(kServingConstants).range(0, 1e6),
        Num("inference.constants.sglang_req_pool_min", AT(inference.constants.sglang_req_pool_min),
            "SGLang's req_to_token rows at least").off_page(kServingConstants).range(1, k2p20, "requests").whole(),
        Num("inference.constants.sglang_req_pool_max", AT(inference.constants.sglang_req_pool_max),
            "SGLang's req_to_token rows at most").off_page(kServingConstants).range(1, k2p20, "requests").whole(),
        Num("inference.constants.sglang_req_context_pad", AT(inference.constants.sglang_req_context_pad),
            "SGLang's req_to_token columns past the context (extra_max_context_len)").off_page(kServingConstants).range(0, 4096, "tokens").whole(),
};


// [SECTION] request table -------------------------------------------------------------------------
// Fields of requests that carry a config document plus their own section: the cluster planner's
// "plan" object (io/plan_json.cpp reads it into PlanInputs and PlanRequest, core/plan checks it
// against these ranges, the page's planner rows and link keys are these paths). None lives in
// Config: each is read by hand (no accessor) and its default is written in words, equal to
// PlanInputs' / PlanConstants' / PlanRequest's initializers (test_fields checks them).
constexpr FieldDef kRequestTableAll[] = {
        Obj("plan", "the cluster planner's request (docs/planner.md): the cluster, the search and the comparisons").hand(),
        Int("plan.gpus", nullptr, "GPUs in the cluster; whole nodes when more than one node").range(1, 1e6, "GPUs")
            .def("the config's gpus, else 8").hand(),
        B("plan.fabric", FieldKind::Text, "inter-node fabric id (vramcalc plan --list-fabrics)").def("`ib-ndr400`").hand().cli("--fabric"),
        Num("plan.global_batch", nullptr, "sequences per optimizer step over the cluster (0: 4,194,304 tokens / seq)")
            .range(0, 1e7, "sequences").def("0").hand().cli("--global-batch"),
        Num("plan.train_tokens", nullptr, "token budget: days and rental cost of each layout to train it (0: none)")
            .range(0, 1e16, "tokens").step(1e9).def("0").hand().cli("--tokens"),
        Int("plan.top", nullptr, "layouts listed").off_page(kPlanExtras).range(1, 10000, "layouts").def("20").hand().cli("--top"),
        Enum("plan.rank", enum_names(kPlanRanks), nullptr, nullptr, "cluster comparisons rank by time, rental cost or tokens/s per GPU")
            .def("`time`").hand(),
        Bool("plan.tp_across_nodes", nullptr, "allow a tensor-parallel group larger than a node").off_page(kPlanExtras).def("false").hand(),
        Bool("plan.uneven_pp", nullptr, "pipeline stages with unequal layer counts (Megatron, torchtitan)").off_page(kPlanExtras).def("true").hand(),
        Int("plan.max_micro_batch", nullptr, "largest micro-batch tried").off_page(kPlanExtras).range(1, 1024, "sequences").def("16").hand(),
        Int("plan.max_cp", nullptr, "largest context-parallel size tried").off_page(kPlanExtras).range(1, 1024, "GPUs").def("16").hand(),
        Obj("plan.search", "what the search varies (false: the config's value)").off_page(kPlanExtras).hand(),
        Bool("plan.search.recompute", nullptr, "try none, selective and full recomputation").def("true").hand(),
        Bool("plan.search.sharding", nullptr, "try ddp, zero1, zero2 and zero3").def("true").hand(),
        Bool("plan.search.interleave", nullptr, "try the interleaved schedule with v model chunks").def("true").hand(),
        Int("plan.gpus_per_node", nullptr, "GPUs per node (0: the node catalog's for gpu)").range(1, 1024, "GPUs")
            .def("0 (the node catalog's)").hand(),
        Num("plan.price_per_hour_usd", nullptr, "rental price per GPU-hour (negative: the GPU catalog's)").range(0, 1e4, "USD")
            .def("the GPU catalog's").hand(),
        Num("plan.purchase_usd", nullptr, "purchase price per GPU (negative: the node catalog's)").range(0, 1e8, "USD")
            .def("the node catalog's").hand(),
        Num("plan.network_share", nullptr, "networking's share of a cluster's purchase price, added to the GPUs'").off_page(kPlanExtras).range(0, 10)
            .def("0.15").hand(),
        Obj("plan.fabric_spec", "a custom inter-node fabric instead of the catalog's").off_page(kPlanExtras).def("the catalog's").hand(),
        B("plan.fabric_spec.id", FieldKind::Text, "its id").def("`custom`").hand(),
        B("plan.fabric_spec.name", FieldKind::Text, "its display name").def("`custom`").hand(),
        Num("plan.fabric_spec.line_gbps", nullptr, "line rate per GPU (required)").above(0, 1e6, "GB/s").def("required").hand(),
        Num("plan.fabric_spec.efficiency", nullptr, "achieved share of the line rate (required)").range(0.01, 1).def("required").hand(),
        Num("plan.fabric_spec.latency_us", nullptr, "latency per message").range(0, 1e6, "us").def("0").hand(),
        B("plan.fabric_spec.source", FieldKind::Text, "where its figures come from").def("none").hand(),
        Obj("plan.intra_spec", "a custom link inside a node, the same fields as plan.fabric_spec").ts("PlanFabricSpecConfig")
            .def("the catalog's").hand(),
        Obj("plan.constants", "the step-time model's constants (docs/planner.md, \"Constants and their sources\")").off_page(kPlanExtras).hand(),
        Num("plan.constants.gemm_efficiency_max", nullptr, "share of the dense tensor peak a large GEMM reaches (0: the node catalog's)")
            .range(0, 1).def("0").hand(),
        Num("plan.constants.gemm_half_dim", nullptr, "a GEMM whose smallest side is this runs at half the maximum").range(0, 1e6)
            .def("176").hand(),
        Num("plan.constants.attention_efficiency", nullptr, "attention core as a share of peak (0: the node catalog's)").range(0, 1)
            .def("0").hand(),
        Num("plan.constants.hbm_efficiency", nullptr, "achieved share of HBM bandwidth in elementwise kernels").range(0.01, 1)
            .def("0.85").hand(),
        Num("plan.constants.elementwise_passes", nullptr, "memory passes of the elementwise kernels per element").range(0, 100)
            .def("1.5").hand(),
        Num("plan.constants.tp_overlap", nullptr, "share of tensor-parallel communication hidden behind compute").range(0, 1)
            .def("0").hand(),
        Bool("plan.constants.dp_overlap", nullptr, "gradient reduction overlaps the last backward pass").def("true").hand(),
        Num("plan.constants.grad_comm_bytes", nullptr, "bytes per gradient value on the wire (0: from the training setup)")
            .range(0, 8, "bytes").def("0").hand(),
        Num("plan.constants.optimizer_bytes_per_param", nullptr, "optimizer step: bytes read and written per parameter held")
            .range(0, 1000, "bytes").def("36").hand(),
        Num("plan.constants.step_overhead_s", nullptr, "fixed time per step no layout removes").range(0, 3600, "s").def("0").hand(),
        List("plan.clusters", "{ gpu: string; gpus: number; fabric: string }[] | string",
             "clusters to compare: [{gpu, gpus, fabric}] (at most 64) or \"GPU:COUNT:FABRIC,...\"").def("none").hand().cli("--clusters"),
        Num("plan.deadline_days", nullptr, "fewest GPUs of gpu that train train_tokens within these days (0: not asked)")
            .above(0, 36500, "days").def("0").hand().cli("--deadline-days"),
        Int("plan.max_gpus", nullptr, "the deadline search stops at this many GPUs").off_page(kPlanExtras).range(1, 1e6, "GPUs").def("65536").hand(),
        Obj("plan.batch_sizing", "true or an object: the smallest per-GPU batch that hides communication, per fabric").off_page(kPlanExtras)
            .ts("boolean | PlanBatchSizingConfig").def("false").hand().cli("--batch-sizing"),
        List("plan.batch_sizing.fabrics", "string[]", "fabric ids (empty: every inter-node fabric)").def("every inter-node fabric").hand(),
        Num("plan.batch_sizing.target_efficiency", nullptr, "share of the step not lost to what a bigger batch hides")
            .range(0.05, 0.999).def("0.9").hand(),
        Obj("plan.pareto", "true or an object: time against cost over cluster sizes, the front marked").off_page(kPlanExtras)
            .ts("boolean | PlanParetoConfig").def("false").hand().cli("--pareto"),
        List("plan.pareto.counts", "number[]", "GPU counts tried, at most 16 whole counts in [1, 1000000]")
            .def("1/4x, 1/2x, 1x, 2x, 4x gpus").hand(),
        Int("plan.pareto.per_count", nullptr, "layouts per cluster size").range(1, 1000, "layouts").def("5").hand(),
        Obj("plan.fabric_comparison", "true or an object: the same job on every fabric").off_page(kPlanExtras)
            .ts("boolean | PlanFabricComparisonConfig").def("false").hand().cli("--fabric-chart"),
        List("plan.fabric_comparison.fabrics", "string[]", "fabric ids (empty: every inter-node fabric)").def("every inter-node fabric").hand(),
        Obj("plan.serve", "compare clusters (or this one) for serving concurrent sequences instead of training").def("none").hand(),
        Num("plan.serve.concurrency", nullptr, "sequences in flight across the cluster").range(1, 1e7, "sequences").def("required")
            .hand(),
        Num("plan.serve.context", nullptr, "tokens per sequence, prompt + output (0: the config's inference.context)")
            .range(0, 1e8, "tokens").def("0").hand(),
};

#undef AT
#undef ENUM

// [SECTION] the page's subset ---------------------------------------------------------------------
// The tables as this build keeps them. The page's build (VRAMCALC_PAGE_BUILD) drops the texts it
// can never show (fields.hpp): what the tables held only for the docs, the CLI and the tests costs the
// page's download ~2.4 KB gzip (docs/performance.md, "The page's strings"). A text dropped here is not
// in the page's wasm at all: the full tables are only read while these are computed at compile time.
template <size_t N>
struct Table {
    FieldDef at[N];
};

[[maybe_unused]] constexpr bool under_section(const char* path, const char* section) {
    size_t i = 0;
    for (; section[i]; ++i)
        if (path[i] != section[i]) return false;
    return path[i] == '.';
}

template <size_t N>
constexpr Table<N> as_built(const FieldDef (&all)[N]) {
    Table<N> t{};
    for (size_t i = 0; i < N; ++i) t.at[i] = all[i];
#ifdef VRAMCALC_PAGE_BUILD
    size_t off_sections[N] = {}, n_off = 0;  // the sections off the page, whose reason covers their fields
    for (size_t i = 0; i < N; ++i)
        if (all[i].kind == FieldKind::Object && all[i].off_page) off_sections[n_off++] = i;
    for (size_t i = 0; i < N; ++i) {
        FieldDef& f = t.at[i];
        bool shown = f.kind != FieldKind::Object && !f.off_page;  // a section is never a row
        for (size_t k = 0; k < n_off && shown; ++k) shown = !under_section(f.path, all[off_sections[k]].path);
        if (!shown) f.meaning = "";
        f.def = f.flags = f.ts_type = f.off_page = nullptr;
    }
#endif
    return t;
}

constexpr auto kTable = as_built(kConfigTable);
constexpr auto kRequestTable = as_built(kRequestTableAll);

}  // namespace

// [SECTION] queries -------------------------------------------------------------------------------
FieldList config_fields() { return FieldList{std::begin(kTable.at), std::end(kTable.at)}; }
FieldList request_fields() { return FieldList{std::begin(kRequestTable.at), std::end(kRequestTable.at)}; }

std::string FieldDef::key() const {
    const char* dot = std::strrchr(path, '.');
    return dot ? std::string(dot + 1) : std::string(path);
}

std::string FieldDef::section() const {
    const char* dot = std::strrchr(path, '.');
    return dot ? std::string(path, static_cast<size_t>(dot - path)) : std::string();
}

double FieldDef::number_of(const Config& c) const {
    Config& m = const_cast<Config&>(c);  // the accessors take Config&; nothing is written here
    if (int_at) return *int_at(m);
    if (number_at) return *number_at(m) / scale;
    if (bool_at) return *bool_at(m) ? 1 : 0;
    if (enum_get) return enum_get(c);
    return 0;
}

namespace {

// A sorted index of a table, built once: the engine's checks look fields up on every estimate.
const FieldDef* find_in(const std::vector<const FieldDef*>& index, const char* path) {
    const auto it = std::lower_bound(index.begin(), index.end(), path,
                                     [](const FieldDef* f, const char* p) { return std::strcmp(f->path, p) < 0; });
    return it != index.end() && std::strcmp((*it)->path, path) == 0 ? *it : nullptr;
}

std::vector<const FieldDef*> sorted_index(FieldList table) {
    std::vector<const FieldDef*> v;
    for (const auto& f : table) v.push_back(&f);
    std::sort(v.begin(), v.end(), [](const FieldDef* a, const FieldDef* b) { return std::strcmp(a->path, b->path) < 0; });
    return v;
}

}  // namespace

const FieldDef* find_field(const char* path) {
    static const std::vector<const FieldDef*> index = sorted_index(config_fields());
    return find_in(index, path);
}

const FieldDef* find_field(const std::string& path) { return find_field(path.c_str()); }

const FieldDef* find_request_field(const char* path) {
    static const std::vector<const FieldDef*> index = sorted_index(request_fields());
    return find_in(index, path);
}

const FieldDef* find_any_field(const char* path) {
    const FieldDef* f = find_field(path);
    return f ? f : find_request_field(path);
}

const std::vector<const FieldDef*>& section_fields(const std::string& section, FieldList table) {
    // Built once per table: every config read and write asks this of each section (scanning the
    // table on each call was over half of a link round trip's time, perf over the fragment fuzzer's
    // replay). A few dozen sections: a list searched in order.
    using Section = std::pair<std::string, std::vector<const FieldDef*>>;
    using Sections = std::vector<Section>;
    auto build = [](FieldList t) {
        Sections v;
        for (const auto& f : t) {
            const char* dot = std::strrchr(f.path, '.');
            const std::string name = dot ? std::string(f.path, static_cast<size_t>(dot - f.path)) : std::string();
            auto it = std::find_if(v.begin(), v.end(), [&](const Section& s) { return s.first == name; });
            if (it == v.end()) it = v.insert(v.end(), Section{name, {}});
            it->second.push_back(&f);
        }
        return v;
    };
    static const Sections config = build(config_fields()), request = build(request_fields());
    thread_local Sections other;  // a table of neither kind (none today): built on each call
    const Sections* sections = &config;
    if (table.first == request_fields().first) sections = &request;
    else if (table.first != config_fields().first) sections = &(other = build(table));
    static const std::vector<const FieldDef*> none;
    for (const Section& s : *sections)
        if (s.first == section) return s.second;
    return none;
}

const char* off_page_reason(const FieldDef& f) {
    if (f.off_page) return f.off_page;
    // The nearest section's: "plan.batch_sizing.fabrics" -> "plan.batch_sizing" -> "plan".
    std::string section = f.section();
    while (!section.empty()) {
        const FieldDef* s = find_any_field(section.c_str());
        if (s && s->off_page) return s->off_page;
        const size_t dot = section.rfind('.');
        section.resize(dot == std::string::npos ? 0 : dot);
    }
    return nullptr;
}

const FieldDef* find_flag_field(const std::string& flag, FieldList table) {
    for (const auto& f : table) {
        if (!f.flags) continue;
        // The spellings are space-separated: a whole-word match.
        for (const char* w = f.flags; *w;) {
            const char* end = std::strchr(w, ' ');
            const size_t n = end ? static_cast<size_t>(end - w) : std::strlen(w);
            if (n == flag.size() && flag.compare(0, n, w, n) == 0) return &f;
            if (!end) break;
            w = end + 1;
        }
    }
    return nullptr;
}

bool enum_value(const EnumNames& names, const std::string& s, int& out) {
    for (const auto& n : names)
        if (s == n.name) {
            out = n.value;
            return true;
        }
    return false;
}

const char* enum_name(const EnumNames& names, int value) {
    for (const auto& n : names)
        if (n.value == value) return n.name;
    return names.count ? names.items[0].name : "";
}

std::string enum_choices(const EnumNames& names) {
    std::string s;
    for (const auto& n : names)
        if (n.listed) s += (s.empty() ? "" : ", ") + std::string(n.name);
    return s;
}

namespace {

std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

std::string field_range_text(const FieldDef& f) {
    if (f.accepts) return f.accepts;
    if (!f.ranged) return "";
    std::string s = (f.open_min ? "(" : "[") + fmt(f.min) + ", " + fmt(f.max) + "]";
    if (*f.unit) s += " " + std::string(f.unit);
    return s;
}

bool check_number(const FieldDef& f, double v, Error& err) {
    if (!f.ranged || f.accepts) return true;
    if (f.kind == FieldKind::Int || f.whole)
        return check_int_range(f.path, v, static_cast<long long>(f.min), static_cast<long long>(f.max), err, f.unit);
    if (f.open_min && f.min == 0) return check_positive(f.path, v, f.max, err, f.unit);
    return check_range(f.path, v, f.min, f.max, err, f.unit);
}

bool check_field(const Config& c, const FieldDef& f, Error& err) {
    const double v = f.number_of(c);
    return (f.null_when_negative && v < 0) || check_number(f, v, err);
}

namespace {

// The engine's checks name their fields with string literals on every estimate (the planner runs
// thousands): a small cache keyed by the literal's address saves the search. A hit is confirmed
// by comparing the path, so a reused address (a temporary string) is looked up again, not trusted.
// thread_local: no lock and nothing shared.
const FieldDef* cached_field(const char* path) {
    struct Slot {
        const char* key;
        const FieldDef* field;
    };
    constexpr size_t kSlots = 512;  // a power of two, above the number of fields
    static thread_local Slot slots[kSlots] = {};
    size_t h = (reinterpret_cast<uintptr_t>(path) >> 3) & (kSlots - 1);
    for (size_t i = 0; i < kSlots; ++i, h = (h + 1) & (kSlots - 1)) {
        Slot& s = slots[h];
        if (s.key == path && s.field && std::strcmp(s.field->path, path) == 0) return s.field;
        if (!s.key || s.key == path) {
            s = Slot{path, find_any_field(path)};
            return s.field;
        }
    }
    return find_any_field(path);
}

const FieldDef* ranged_field(const char* path, Error& err) {
    const FieldDef* f = cached_field(path);
    if (f && f->ranged && !f->accepts) return f;
    err = Error{path, std::string(path) + " has no range in the field table (core/fields.cpp)"};
    return nullptr;
}

}  // namespace

bool check_value(const char* path, double v, Error& err) {
    const FieldDef* f = ranged_field(path, err);
    return f && check_number(*f, v, err);
}

bool check_members(std::initializer_list<FieldValue> values, Error& err) {
    for (const auto& v : values) {
        const FieldDef* f = ranged_field(v.path, err);
        if (!f) return false;
        if (f->null_when_negative && v.member < 0) continue;
        if (!check_number(*f, v.member / f->scale, err)) return false;
    }
    return true;
}


}  // namespace vc
