// vramcalc shell: the inputs. The task and method bar, the model picker, then every input the
// engine has for the task and method, each with a one-line tooltip saying what it does to memory.
// Edits write the active method's fields; a switch of task or method carries the shared inputs
// (state/scenario.hpp).
//
// [SECTIONS]
//   choices    enum <-> label tables
//   bar        task and method pickers
//   model      preset list (searchable, by family), custom architecture, parameters only
//   quick      the quick method's inputs
//   guide      the guide's inputs
//   training   detailed training and fine-tuning
//   serving    detailed inference and serving
//   gpu        the GPU sized for and the headroom target
//   panel      the whole inputs column
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/units.hpp"
#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "core/serve/kv_cache.hpp"
#include "core/serve/llamacpp.hpp"
#include "platform.hpp"
#include "state/format.hpp"
#include "state/scenario.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

// [SECTION] choices -------------------------------------------------------------------------------
const Choice<QuickPrecision> kQuickPrecisions[] = {
    {QuickPrecision::Fp32, "FP32 (4 bytes)", "4 bytes per weight (and per gradient)."},
    {QuickPrecision::Fp16, "FP16 (2 bytes)", "2 bytes per weight (and per gradient)."},
    {QuickPrecision::Bf16, "BF16 (2 bytes)", "2 bytes per weight (and per gradient)."},
    {QuickPrecision::Int8, "INT8 (1 byte)", "1 byte per weight."},
    {QuickPrecision::Int4, "INT4 (0.5 bytes)", "Half a byte per weight."},
};
const Choice<QuickOptimizer> kQuickOptimizers[] = {
    {QuickOptimizer::AdamWMixed, "AdamW mixed (12 B)", "FP32 master copy + two FP32 moments: 12 bytes per parameter."},
    {QuickOptimizer::AdamW, "AdamW (8 B)", "Two FP32 moments: 8 bytes per parameter."},
    {QuickOptimizer::AdamW8bit, "8-bit AdamW (2 B)", "Two 8-bit moments: 2 bytes per parameter."},
    {QuickOptimizer::Sgd, "SGD momentum (4 B)", "One FP32 momentum buffer: 4 bytes per parameter."},
};
const Choice<TrainPrecision> kTrainPrecisions[] = {
    {TrainPrecision::Bf16Mixed, "BF16 mixed", "BF16 compute with FP32 weights or an FP32 master copy (profile): 4 + 2 bytes per parameter, plus FP32 gradients."},
    {TrainPrecision::Fp16Mixed, "FP16 mixed", "As BF16 mixed with FP16 compute; loss scaling costs no memory."},
    {TrainPrecision::Bf16True, "BF16 pure", "Weights, gradients and optimizer state in BF16: no FP32 master copy (half the state)."},
    {TrainPrecision::Fp16True, "FP16 pure", "Everything in FP16: no FP32 master copy."},
    {TrainPrecision::Fp32, "FP32", "Weights, gradients, optimizer state and activations in FP32: 4 bytes each."},
    {TrainPrecision::Fp8Mixed, "FP8 linear layers", "FP8 matmul inputs saved for backward (1 byte instead of 2) on BF16 mixed training."},
};
const Choice<OptimizerKind> kOptimizers[] = {
    {OptimizerKind::AdamW, "AdamW", "Two moments per trainable parameter (8 bytes in FP32)."},
    {OptimizerKind::AdamW8bit, "AdamW 8-bit (bitsandbytes)", "Two 8-bit moments plus block scales: about 2 bytes per parameter."},
    {OptimizerKind::PagedAdamW, "Paged AdamW", "32-bit AdamW in unified memory: can spill to host RAM under pressure."},
    {OptimizerKind::PagedAdamW8bit, "Paged AdamW 8-bit", "8-bit AdamW in unified memory (QLoRA's default)."},
    {OptimizerKind::Adafactor, "Adafactor", "Factored second moment (a row and a column per matrix): almost no state."},
    {OptimizerKind::Lion, "Lion", "One momentum buffer per parameter."},
    {OptimizerKind::SgdMomentum, "SGD + momentum", "One momentum buffer per parameter."},
    {OptimizerKind::Sgd, "SGD", "No optimizer state."},
    {OptimizerKind::Custom, "Custom bytes/param", "Your own optimizer state per trainable parameter."},
};
const Choice<Recompute> kRecompute[] = {
    {Recompute::Auto, "Profile default", "As the framework does: full for a quantized base under HF/peft (prepare_model_for_kbit_training), else none."},
    {Recompute::None, "None", "Every layer keeps its activations for the backward pass."},
    {Recompute::Selective, "Selective", "Recompute the attention internals (Korthikanti et al.): drops the s x s terms."},
    {Recompute::Full, "Full", "Keep only each layer's input; recompute the rest in backward (~1 layer live)."},
};
const Choice<AttentionKernel> kAttention[] = {
    {AttentionKernel::Auto, "Profile default", "The framework profile's attention kernel."},
    {AttentionKernel::Flash, "Flash / SDPA", "No s x s attention scores are kept."},
    {AttentionKernel::Eager, "Eager", "Softmax scores (heads x s x s) are kept for backward."},
    {AttentionKernel::Fa2, "FlashAttention-2 (HF)", "transformers' flash_attention_2: GQA models' K and V stay at their own heads."},
    {AttentionKernel::SdpaGqa, "SDPA enable_gqa (HF)", "transformers >= 4.54, PyTorch >= 2.5, no padding mask: no repeat_kv copies."},
};
const Choice<Sharding> kSharding[] = {
    {Sharding::None, "DDP (none)", "Every data-parallel GPU holds all weights, gradients and optimizer state."},
    {Sharding::Zero1, "ZeRO-1", "Optimizer state split over the data-parallel GPUs."},
    {Sharding::Zero2, "ZeRO-2 / FSDP grad-op", "Optimizer state and gradients split over the data-parallel GPUs."},
    {Sharding::Zero3, "ZeRO-3 / FSDP full", "Weights too; a few layers are gathered at a time."},
};
const Choice<PipelineSchedule> kSchedules[] = {
    {PipelineSchedule::OneFOneB, "1F1B", "The first stage holds up to pp micro-batches of activations."},
    {PipelineSchedule::Interleaved, "Interleaved", "v model chunks per GPU: more micro-batches in flight, smaller bubble."},
};
const Choice<Toggle> kToggles[] = {
    {Toggle::Auto, "Profile", "As the framework profile does.", "auto"},
    {Toggle::On, "On", nullptr, "on"},
    {Toggle::Off, "Off", nullptr, "off"},
};
const Choice<BaseQuant> kBaseQuant[] = {
    {BaseQuant::None, "None (16-bit)", "Frozen base weights in BF16 (QLoRA uses NF4 regardless)."},
    {BaseQuant::Nf4, "NF4", "4-bit NormalFloat base with block absmax scales."},
    {BaseQuant::Fp4, "FP4", "4-bit float base with block absmax scales."},
    {BaseQuant::Int8, "INT8", "LLM.int8() base weights: 1 byte each."},
};
// The routed experts' adapters (training.lora.expert_adapters; docs/training.md "LoRA on fused MoE experts").
const Choice<ExpertAdapters> kExpertAdapters[] = {
    {ExpertAdapters::Auto, "Profile", "As the framework profile loads the model: none under transformers 5 (HF, TRL), per expert otherwise."},
    {ExpertAdapters::PerExpert, "Per expert", "One adapter per expert matrix: transformers 4, LitGPT, torchtune."},
    {ExpertAdapters::None, "None", "transformers 5's fused experts: peft's target_modules adapt no routed expert."},
    {ExpertAdapters::TargetParameters, "peft target_parameters", "One adapter per fused tensor, W + BA merged each forward and kept for backward; LoRA dropout 0."},
    {ExpertAdapters::TargetParametersUnmerged, "Unmerged (Unsloth)", "The same adapters beside the grouped matmul, no merged copy (Unsloth, Axolotl's MoE kernels)."},
};
const Choice<OutputHead> kHeads[] = {
    {OutputHead::LanguageModel, "LM head", "Logits over the whole vocabulary: often the largest single buffer."},
    {OutputHead::Classifier, "Classifier", "A few labels: the logits are tiny."},
};
const Choice<Engine> kEngines[] = {
    {Engine::Vllm, "vLLM", "Reserves gpu_memory_utilization of the card and pages the rest into KV blocks."},
    {Engine::LlamaCpp, "llama.cpp", "Weights of the offloaded layers, KV for the whole context, a compute buffer."},
    {Engine::Hf, "HF generate", "Weights, a growing KV cache and the current step's activations."},
    {Engine::Sglang, "SGLang", "Takes mem_fraction_static of the free memory for weights and a KV pool; activations and CUDA graphs outside it."},
};
const Choice<HfAttention> kHfAttention[] = {
    {HfAttention::Sdpa, "SDPA", "PyTorch scaled-dot-product attention: no s x s scores (one-KV-head models: the math fallback keeps them)."},
    {HfAttention::Flash, "FlashAttention-2", "No s x s scores."},
    {HfAttention::Eager, "Eager", "Keeps heads x s x s scores during prefill."},
};
const Choice<GptqKernel> kGptqKernels[] = {
    {GptqKernel::Exllama, "ExLlama", "transformers' GPTQConfig default: an FP16 buffer of the largest matrix."},
    {GptqKernel::Exllamav2, "ExLlamaV2", "AutoGPTQ's from_quantized default: a scratch of 2048 x 8 rows for the largest layer."},
    {GptqKernel::Marlin, "Marlin", "Fused dequantization: no buffer."},
    {GptqKernel::Torch, "Dequantize", "Triton / torch kernels: the largest matrix in FP16 while it runs."},
};
const Choice<VllmSampler> kVllmSamplers[] = {
    {VllmSampler::Auto, "Auto (PyTorch)", "The default changed between releases: taken as the PyTorch sort."},
    {VllmSampler::Pytorch, "PyTorch", "Top-k/top-p sorts the logits: 40 B per logit in the profile."},
    {VllmSampler::Flashinfer, "FlashInfer", "Rejection sampling without a sort: 14 B per logit (VLLM_USE_FLASHINFER_SAMPLER=1)."},
};
const Choice<VllmCustomAllReduce> kVllmCustomAllReduce[] = {
    {VllmCustomAllReduce::Auto, "Auto", "As vLLM decides: on at TP 2, and at TP 4, 6, 8 on NVLink / xGMI boards."},
    {VllmCustomAllReduce::On, "On", "Its two 8 MiB IPC buffers per GPU counted."},
    {VllmCustomAllReduce::Off, "Off", "--disable-custom-all-reduce: NCCL alone."},
};
const Choice<GpuP2p> kGpuP2p[] = {
    {GpuP2p::Auto, "Auto", "Off on GeForce cards (no peer access over PCIe), on otherwise."},
    {GpuP2p::On, "On", "NCCL's buffers in device memory; custom all-reduce may run."},
    {GpuP2p::Off, "Off", "NCCL's buffers in host memory (SHM transport); no custom all-reduce."},
};

// Powers of two for batch-like inputs and context lengths.
constexpr std::initializer_list<double> kBatchPresets = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
constexpr std::initializer_list<double> kSeqPresets = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};
constexpr std::initializer_list<double> kGpuPresets = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
constexpr std::initializer_list<double> kDegreePresets = {1, 2, 4, 8, 16, 32, 64};

// Doubling rows; their ranges are the field table's (batch, seq, gpus, parallel.*).
const NumberSpec kBatchSpec = shown(Step::Double, "%.0f", kBatchPresets);
const NumberSpec kSeqSpec = shown(Step::Double, "%.0f", kSeqPresets);
const NumberSpec kGpusSpec = shown(Step::Double, "%.0f", kGpuPresets);
const NumberSpec kDegreeSpec = shown(Step::Double, "%.0f", kDegreePresets);

// [SECTION] bar -----------------------------------------------------------------------------------
const char* const kTaskIds[] = {"training", "finetune", "inference"};
const char* const kTaskLabels[] = {"Training", "Fine-tuning", "Inference"};
const char* const kTaskTips[] = {"Pre-training or full training from scratch: weights, gradients, optimizer state, activations.",
                                 "Adapting a pretrained model: full, LoRA (frozen base + adapters) or QLoRA (4-bit base).",
                                 "Serving: weights, the KV cache for the context and concurrency, engine overheads."};
const char* const kMethodIds[] = {"quick", "guide", "detailed"};
const char* const kMethodLabels[] = {"Quick", "Guide", "Detailed"};
const char* const kMethodTips[] = {"The popular public calculator's rule of thumb (params x bytes, activations proportional to params, +20%).",
                                   "A cluster-sizing guide's three formulas, as published.",
                                   "Architecture- and parallelism-aware model of a real run (this tool's own)."};
const char* const kFinetuneIds[] = {"full", "lora", "qlora"};
const char* const kFinetuneLabels[] = {"Full", "LoRA", "QLoRA"};
const char* const kFinetuneTips[] = {"Every weight trains: gradients and optimizer state for all of them.",
                                     "Frozen base + low-rank adapters: gradients and optimizer state only for the adapters.",
                                     "LoRA on a 4-bit NF4 base: the base weights take about a quarter of BF16."};

FinetuneMethod g_last_finetune = FinetuneMethod::Lora;  // the variant fine-tuning returns to

}  // namespace

bool task_method_bar(App& a, bool narrow) {
    Config& c = a.inputs;
    bool changed = false;
    int task = static_cast<int>(c.task);
    int method = static_cast<int>(c.method);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float half = narrow ? avail : (avail - ImGui::GetStyle().ItemSpacing.x) / 2;
    ImGui::BeginGroup();
    ImGui::BeginDisabled(is_locked(a, "task"));
    form_row(a, "task", "Task");
    if (segmented(a, "task", 3, task, kTaskIds, kTaskLabels, kTaskTips, half)) {
        set_task(c, static_cast<Task>(task), g_last_finetune);
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::EndGroup();
    if (!narrow) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::BeginDisabled(is_locked(a, "method"));
    form_row(a, "method", "Method");
    if (segmented(a, "method", 3, method, kMethodIds, kMethodLabels, kMethodTips, half)) {
        set_method(c, static_cast<Method>(method));
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::EndGroup();
    form_row_end(a, "method", "");
    if (c.task == Task::FineTune) {
        int ft = static_cast<int>(c.training.finetune);
        ImGui::BeginGroup();
        ImGui::BeginDisabled(is_locked(a, "training.finetune"));
        form_row(a, "training.finetune", "Fine-tuning method");
        if (segmented(a, "finetune", 3, ft, kFinetuneIds, kFinetuneLabels, kFinetuneTips, half)) {
            c.training.finetune = g_last_finetune = static_cast<FinetuneMethod>(ft);
            changed = true;
        }
        ImGui::EndDisabled();
        ImGui::EndGroup();
        form_row_end(a, "training.finetune", "");
        if (c.method != Method::Detailed && c.training.finetune != FinetuneMethod::Full) {
            if (!narrow) ImGui::SameLine();
            dim_text("The %s method sizes a full fine-tune: it has no notion of adapters.", c.method == Method::Quick ? "quick" : "guide");
        }
    }
    if (changed) mark_changed(a);
    return changed;
}

namespace {

// A titled panel holding one form; `body(Form&)` draws its rows and returns true on a change.
template <typename Body>
bool form_panel(App& a, const char* id, const char* title, Body body) {
    panel_begin(id, title);
    Form f{a};
    bool changed = false;
    if (begin_form(id)) {
        changed = body(f);
        end_form(f);
    }
    panel_end();
    return changed;
}

// A collapsed "More inputs" panel: the rest of the engine's inputs for the task.
template <typename Body>
bool advanced_panel(App& a, const char* id, Body body) {
    ImGui::Spacing();
    ImGui::PushID(id);
    ImGui::PushFont(font(Font::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
    const bool open = ImGui::TreeNodeEx("MORE INPUTS", ImGuiTreeNodeFlags_SpanAvailWidth | ImGuiTreeNodeFlags_NoTreePushOnOpen);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    reg(a, std::string("more/") + id);
    tooltip("Every other input the engine takes for this task: rarer settings and the runtime's constants.");
    bool changed = false;
    if (open) {
        Form f{a};
        if (begin_form(id)) {
            changed = body(f);
            end_form(f);
        }
    }
    ImGui::PopID();
    return changed;
}

// [SECTION] model ---------------------------------------------------------------------------------
// Every word of the filter appears in the preset's name, id or family.
bool preset_matches(const ModelSpec& m, const std::string& filter) {
    const std::string hay = ascii_lower(m.name + " " + m.id + " " + m.family);
    size_t start = 0;
    const std::string f = ascii_lower(filter);
    while (start < f.size()) {
        size_t end = f.find(' ', start);
        if (end == std::string::npos) end = f.size();
        if (end > start && hay.find(f.substr(start, end - start)) == std::string::npos) return false;
        start = end + 1;
    }
    return true;
}

std::string params_text(double params) {
    char buf[32];
    const double b = params / 1e9;
    std::snprintf(buf, sizeof buf, b >= 100 ? "%.0fB" : b >= 10 ? "%.1fB" : b >= 1 ? "%.2fB" : "%.0fM", b >= 1 ? b : params / 1e6);
    return buf;
}

// The searchable, grouped preset list in a combo's popup.
constexpr float kPresetListEm = 22;  // the preset list's width in font heights

bool preset_combo(App& a, Form& f) {
    Config& c = a.inputs;
    const Field field{"model.preset", "Preset", "Published configs: the parameter count is derived from the dimensions."};
    row_begin(f, field);
    if (model_mode(c) != ModelMode::Preset) form_option(a, "", "Choose a preset");
    for (const auto& m : model_presets()) form_option(a, m.id, m.name);
    bool changed = false;
    const std::string current = model_mode(c) == ModelMode::Preset ? c.model.name : "Choose a preset";
    ImGui::PushID("preset");
    // The list is wider than its field (a name and its count, for MoE total and active), within
    // the screen, and as tall as 20 rows (ImGuiComboFlags_HeightLargest).
    const ImGuiStyle& st = ImGui::GetStyle();
    const float list_w = std::min(ImGui::GetFontSize() * kPresetListEm, ImGui::GetIO().DisplaySize.x - 2 * st.WindowPadding.x);
    const float list_h = (ImGui::GetFontSize() + list_spacing_y()) * 20 - list_spacing_y() + 2 * st.WindowPadding.y;
    ImGui::SetNextWindowSizeConstraints(ImVec2(std::max(list_w, ImGui::CalcItemWidth()), 0), ImVec2(FLT_MAX, list_h));
    const bool open = ImGui::BeginCombo("##v", combo_preview(a, field.id, current.c_str()).c_str(), ImGuiComboFlags_HeightLargest);
    reg(a, field.id);
    field_tooltip(field);
    if (open) {
        const ListEntries entries;
        static char filter[64] = "";
        if (ImGui::IsWindowAppearing()) {
            ImGui::SetKeyboardFocusHere();
            filter[0] = '\0';
        }
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::InputTextWithHint("##search", "Search (e.g. llama 8b, moe, gemma)", filter, sizeof filter);
        reg(a, "model.preset/search");
        const char* family = nullptr;
        int shown = 0;
        for (const auto& m : model_presets()) {
            if (!preset_matches(m, filter)) continue;
            if (!family || m.family != family) {
                family = m.family.c_str();
                ImGui::PushFont(font(Font::Small));
                ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
                ImGui::TextUnformatted(family);
                ImGui::PopStyleColor();
                ImGui::PopFont();
            }
            const auto r = resolve_model(m);
            const std::string label = "  " + m.name;
            const bool selected = c.model.id == m.id;
            if (ImGui::Selectable(label.c_str(), selected)) {
                use_preset(c, m);
                changed = true;
            }
            reg(a, "model.preset/" + m.id);
            if (r.ok) {
                const ParamBreakdown p = model_params(r.value);
                const std::string count = params_text(p.total) + (p.active < p.total * 0.999 ? " (" + params_text(p.active) + " active)" : "");
                ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(count.c_str()).x + ImGui::GetCursorPosX() -
                                ImGui::GetStyle().ItemSpacing.x);
                ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
                ImGui::TextUnformatted(count.c_str());
                ImGui::PopStyleColor();
            }
            ++shown;
        }
        if (shown == 0) dim_text("No preset matches \"%s\".", filter);
        ImGui::EndCombo();
    }
    ImGui::PopID();
    row_end(f, field);
    return changed;
}

const Choice<MlpKind> kMlpKinds[] = {
    {MlpKind::SwiGlu, "SwiGLU (3 matrices)", "Gated MLP: gate, up and down projections."},
    {MlpKind::GeGlu, "GeGLU (3 matrices)", "Gated MLP with GELU."},
    {MlpKind::Gelu, "GELU (2 matrices)", "Plain MLP: up and down projections."},
};
const Choice<NormKind> kNormKinds[] = {
    {NormKind::RmsNorm, "RMSNorm", "A weight per channel."},
    {NormKind::LayerNorm, "LayerNorm", "A weight and a bias per channel."},
};

bool architecture_fields(App& a, Form& f) {
    // Tooltips: the field table's meaning and accepted range (core/fields.cpp).
    ModelSpec& m = a.inputs.model;
    bool changed = false;
    const NumberSpec dim = shown(Step::Add, "%.0f");      // hidden, ffn, expert_ffn: steps of 64 (the table's)
    const NumberSpec relative{0, 1024, 1, Step::Add, "%.0f"};  // top_k, dense_layers: [0, another field]
    changed |= integer(f, {"model.layers", "Layers", nullptr}, m.layers,
                       shown(Step::Add, "%.0f"));
    changed |= integer(f, {"model.hidden", "Hidden size", nullptr}, m.hidden, dim);
    changed |= integer(f, {"model.heads", "Attention heads", nullptr}, m.heads,
                       shown(Step::Add, "%.0f"));
    changed |= integer(f, {"model.kv_heads", "KV heads", nullptr}, m.kv_heads,
                       NumberSpec{1, 1024, 1, Step::Add, "%.0f"});
    changed |= integer(f, {"model.head_dim", "Head dim (0: h/heads)", nullptr}, m.head_dim,
                       shown(Step::Add, "%.0f"));
    changed |= integer(f, {"model.ffn", "FFN size", nullptr}, m.ffn, dim);
    changed |= choice(f, {"model.mlp", "MLP", "Gated MLPs have three matrices and keep more activations."}, kMlpKinds, m.mlp);
    changed |= choice(f, {"model.norm", "Norm", "LayerNorm adds a bias per channel."}, kNormKinds, m.norm, true);
    changed |= integer(f, {"model.vocab", "Vocabulary", nullptr}, m.vocab,
                       shown(Step::Add, "%.0f"));
    changed |= check(f, {"model.tied_embeddings", "Tied embeddings", nullptr},
                     m.tied_embeddings, "shared with the LM head");
    changed |= integer(f, {"model.experts", "Experts (MoE)", nullptr}, m.experts,
                       shown(Step::Add, "%.0f"));
    if (m.experts > 0) {
        changed |= integer(f, {"model.top_k", "Experts per token", nullptr}, m.top_k, relative);
        changed |= integer(f, {"model.shared_experts", "Shared experts", nullptr}, m.shared_experts, shown(Step::Add, "%.0f"));
        changed |= integer(f, {"model.expert_ffn", "Expert FFN size", nullptr}, m.expert_ffn, dim);
        changed |= integer(f, {"model.dense_layers", "Dense layers", nullptr}, m.dense_layers, relative);
    }
    changed |= integer(f, {"model.kv_lora_rank", "MLA KV rank", nullptr},
                       m.kv_lora_rank, shown(Step::Add, "%.0f"));
    changed |= integer(f, {"model.sliding_window", "Sliding window", nullptr}, m.sliding_window,
                       shown(Step::Double, "%.0f"));
    changed |= integer(f, {"model.context_limit", "Context window", nullptr},
                       m.context_limit, shown(Step::Double, "%.0f", {2048, 4096, 8192, 32768, 131072}, "tokens"));
    return changed;
}

// The model: preset / custom / parameters only, and the derived parameter count.
bool model_section(App& a) {
    Config& c = a.inputs;
    bool changed = false;
    panel_begin("model", "MODEL");
    static const char* const kIds[] = {"preset", "custom", "params"};
    static const char* const kLabels[] = {"Preset", "Custom", "Params only"};
    static const char* const kTips[] = {"A published model: the architecture as its config states it.",
                                        "Edit the architecture: every dimension the engine reads.",
                                        "Only a parameter count: the architecture is filled from typical ratios (approximate)."};
    int mode = static_cast<int>(model_mode(c));
    ImGui::BeginDisabled(is_locked(a, "model"));
    const bool mode_changed = segmented(a, "model_mode", 3, mode, kIds, kLabels, kTips, -1);
    ImGui::EndDisabled();
    // Local import (web/import.js): a file picker, a file dropped on the page, or config.json text
    // pasted; only the file's header is read, in the browser.
    if (!a.embed.compact && !is_locked(a, "model")) {
        if (button(a, "import", "Import model file\u2026",
                   "Read a config.json, .gguf or .safetensors (or model.safetensors.index.json) from this machine: only its header, in "
                   "this page. Nothing is uploaded.") &&
            !platform::pick_model_file()) {
            a.import_message = "This build has no file picker: give the file to the command line's --model-file";
            a.import_problem = true;
        }
        ImGui::SameLine();
        dim_text("or drop a file on the page, or paste config.json text");
        reg(a, "import/hint");
    }
    if (!a.import_message.empty()) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (a.import_problem) error_text(a.import_message);
        else dim_text("%s", a.import_message.c_str());
        reg_rect(a, "import/message", at, ImGui::GetItemRectMax());
    }
    if (mode_changed) {
        a.import_message.clear();
        switch (static_cast<ModelMode>(mode)) {
            case ModelMode::Preset: use_preset(c, *find_preset("llama-3.1-8b")); break;
            case ModelMode::Custom: use_custom(c); break;
            case ModelMode::ParamsOnly: use_params_only(c, model_params_b(c) > 0 ? model_params_b(c) : 7); break;
        }
        changed = true;
    }
    Form f{a};
    const bool guide = c.method == Method::Guide;  // the guide's own P, L, h and heads are in its panel
    if (begin_form("model_form")) {
        switch (model_mode(c)) {
            case ModelMode::Preset:
                if (preset_combo(a, f)) {
                    a.import_message.clear();
                    changed = true;
                }
                break;
            case ModelMode::Custom:
                if (guide) break;
                if (architecture_fields(a, f)) {
                    model_edited(c);
                    // An import's missing keys are named until the architecture they leave is whole.
                    if (a.import_problem && resolve_model(c.model).ok) a.import_message.clear();
                    changed = true;
                }
                break;
            case ModelMode::ParamsOnly: {
                if (guide) break;
                double p = c.model.params_override_b;
                if (number(f, {"params_b", "Parameters (billions)", "Weights, gradients and optimizer state are proportional to this.",
                               {"model.params_b", "params"}},
                           p, shown(Step::Double, "%.6g", {0.5, 1, 3, 7, 8, 13, 34, 70, 405}))) {
                    use_params_only(c, p);
                    changed = true;
                }
                break;
            }
        }
        end_form(f);
    }
    // The derived count, with its components on hover.
    const auto r = resolve_model(c.model);
    if (r.ok) {
        const ParamBreakdown p = model_params(r.value);
        ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
        if (p.active < p.total * 0.999)
            text_wrapped("%s parameters, %s active per token%s", format_count(p.total).c_str(), format_count(p.active).c_str(),
                               c.model.approximate ? " (approximate architecture)" : "");
        else
            text_wrapped("%s parameters%s", format_count(p.total).c_str(), c.model.approximate ? " (approximate architecture)" : "");
        ImGui::PopStyleColor();
        reg(a, "model/params");
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            struct Part {
                const char* label;
                double v;
            };
            const Part parts[] = {{"Embedding", p.embedding},      {"LM head", p.output},          {"Attention", p.attention},
                                  {"Recurrent mixers", p.recurrent}, {"MLP (dense)", p.mlp_dense},    {"Experts (routed)", p.experts_routed},
                                  {"Experts (shared)", p.experts_shared}, {"Router", p.router}, {"Norms", p.norms}};
            for (const auto& part : parts)
                if (part.v > 0) ImGui::Text("%-18s %16s", part.label, format_count(part.v).c_str());
            if (c.model.published_params_b > 0) ImGui::Text("Published: %.4gB", c.model.published_params_b);
            ImGui::EndTooltip();
        }
        // The context window, when the model states one: the what-fits answers stop there.
        if (r.value.context_limit > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            ImGui::Text("context window %s tokens", format_count(r.value.context_limit).c_str());
            ImGui::PopStyleColor();
            reg(a, "model/context_limit");
            tooltip("max_position_embeddings in the model's config.json: the longest context and sequence answers stop there.");
        }
        // A hybrid's layer mix: only its attention layers cache keys and values.
        const std::string mix = layer_mix_text(r.value);
        if (!mix.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette().dim);
            text_wrapped("%s", mix.c_str());
            ImGui::PopStyleColor();
            reg(a, "model/layer_mix");
            tooltip("Only the attention layers cache keys and values; each recurrent layer keeps a fixed state per sequence "
                    "(the KV cache row's formula, docs/inference.md).");
        }
    }
    panel_end();
    return changed;
}

// [SECTION] quick ---------------------------------------------------------------------------------
bool quick_inputs(App& a, Form& f) {
    QuickInputs& q = a.inputs.quick;
    const bool serving = a.inputs.task == Task::Inference;
    bool changed = false;
    changed |= choice(f, {"precision", "Weight precision", "Bytes per weight (and per gradient when training)."}, kQuickPrecisions, q.precision);
    if (!serving)
        changed |= choice(f, {"optimizer", "Optimizer", "Optimizer state per parameter, as the rule of thumb counts it."}, kQuickOptimizers, q.optimizer);
    changed |= number(f, {"batch", serving ? "Batch (sequences)" : "Batch size", "Activations grow linearly with the batch."}, a.inputs.run.batch, kBatchSpec);
    changed |= number(f, {"seq", "Sequence length", "Activations grow linearly with the sequence length (in this rule)."}, a.inputs.run.seq, kSeqSpec);
    if (!serving) {
        char text[48];
        std::snprintf(text, sizeof text, "activations x %g", q.constants.checkpoint_factor);
        changed |= check(f, {"checkpointing", "Checkpointing", "Activation checkpointing: the rule multiplies activations by a factor (0.25)."},
                         q.checkpointing, text);
    }
    return changed;
}

// [SECTION] guide ---------------------------------------------------------------------------------
bool guide_inputs(App& a, Form& f) {
    Config& c = a.inputs;
    bool changed = false;
    // The guide's own inputs: P, L, h and heads, always here (the model panel keeps to the model's
    // choice), so no field moves while it is edited. Edits make a custom model: a typed P stays
    // (the guide reads the count and the dimensions apart).
    ModelSpec& m = c.model;
    double p = model_params_b(c);
    if (number(f, {"params_b", "Parameters (billions)", "P: weights, gradients and optimizer state are proportional to it.", {"model.params_b", "params"}},
               p, shown(Step::Double, "%.6g"))) {
        m.params_override_b = p;
        model_edited(c);
        changed = true;
    }
    bool dims = false;
    dims |= integer(f, {"model.layers", "Layers (L)", "The guide's activations and KV term grow with L."}, m.layers, shown(Step::Add, "%.0f"));
    dims |= integer(f, {"model.hidden", "Hidden size (h)", "The guide's activations grow with h."}, m.hidden, shown(Step::Add, "%.0f"));
    dims |= integer(f, {"model.heads", "Attention heads", "The guide's KV term uses h / heads per head."}, m.heads, shown(Step::Add, "%.0f"));
    if (dims) {
        model_edited(c);
        changed = true;
    }
    if (c.task == Task::Inference)
        changed |= number(f, {"guide.weight_bytes", "Bytes per weight", "The guide multiplies the parameter count by this.", {"bytes"}},
                          c.guide_weight_bytes, shown(Step::Add, "%.4g", {0.5, 1, 2, 4}));
    else
        changed |= number(f, {"guide.bytes", "Bytes per value (p)", "Weights and gradients at p bytes, plus 12 bytes of optimizer state per parameter.", {"bytes"}},
                          c.guide_bytes, shown(Step::Add, "%.4g", {1, 2, 4}));
    changed |= number(f, {"batch", "Batch size (b)", "Activations (training) or the KV term (inference) grow with b."}, c.run.batch, kBatchSpec);
    changed |= number(f, {"seq", "Sequence length (s)", "Activations or the KV term grow with s."}, c.run.seq, kSeqSpec);
    if (c.task != Task::Inference)
        changed |= number(f, {"gpus", "GPUs", "The guide divides the whole job evenly over the GPUs."}, c.gpus, kGpusSpec);
    return changed;
}

// [SECTION] training ------------------------------------------------------------------------------
// LoRA target modules as toggles.
bool lora_targets(App& a, Form& f) {
    unsigned& t = a.inputs.training.lora.targets;
    const Field field{"training.lora.targets", "LoRA targets", "Adapted projections: each adds rank x (in + out) parameters and keeps its input for backward."};
    row_begin(f, field);
    struct Target {
        unsigned bit;
        const char* id;
        const char* label;
    };
    static const Target kTargets[] = {{kLoraQ, "q", "q"},       {kLoraK, "k", "k"},     {kLoraV, "v", "v"},       {kLoraO, "o", "o"},
                                      {kLoraGate, "gate", "gate"}, {kLoraUp, "up", "up"}, {kLoraDown, "down", "down"}, {kLoraHead, "head", "head"}};
    bool changed = false;
    ImGui::PushID("lora_targets");
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const float gap = 3;
    for (size_t i = 0; i < sizeof kTargets / sizeof kTargets[0]; ++i) {
        const Target& tg = kTargets[i];
        const bool on = (t & tg.bit) != 0;
        ImGui::PushStyleColor(ImGuiCol_Button, on ? palette().accent : ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
        ImGui::PushStyleColor(ImGuiCol_Text, on ? palette().on_accent : palette().dim);
        if (ImGui::Button(tg.label)) {
            t ^= tg.bit;
            changed = true;
        }
        ImGui::PopStyleColor(2);
        reg(a, std::string(field.id) + "/" + tg.id);
        // Flow: the next toggle on this line when it fits, else on the next.
        if (i + 1 < sizeof kTargets / sizeof kTargets[0]) {
            const float next_w = ImGui::CalcTextSize(kTargets[i + 1].label).x + ImGui::GetStyle().FramePadding.x * 2;
            if (ImGui::GetItemRectMax().x + gap + next_w <= right) ImGui::SameLine(0, gap);
        }
    }
    ImGui::PopID();
    row_end(f, field);
    return changed;
}

bool training_inputs(App& a) {
    Config& c = a.inputs;
    TrainingInputs& t = c.training;
    ParallelInputs& par = c.parallel;
    bool changed = false;
    const bool adapters = c.task == Task::FineTune && t.finetune != FinetuneMethod::Full;

    changed |= form_panel(a, "precision", adapters ? "PRECISION, OPTIMIZER AND ADAPTERS" : "PRECISION AND OPTIMIZER", [&](Form& f) {
    bool changed = false;

    changed |= choice(f, {"training.precision", "Precision", "Bytes of weights, gradients, master copy and activations."}, kTrainPrecisions, t.precision);
    changed |= choice(f, {"training.optimizer", "Optimizer", "State kept per trainable parameter."}, kOptimizers, t.optimizer);
    if (t.optimizer == OptimizerKind::Custom)
        changed |= number(f, {"training.optimizer_bytes_per_param", "State bytes/param", "Optimizer state bytes per trainable parameter."},
                          t.optimizer_bytes_per_param, shown(Step::Add, "%.4g"));
    if (adapters) {
        changed |= integer(f, {"training.lora.rank", "LoRA rank", "Adapter parameters grow linearly with the rank."}, t.lora.rank,
                           shown(Step::Double, "%.0f", {4, 8, 16, 32, 64, 128, 256}));
        changed |= lora_targets(a, f);
        changed |= number(f, {"training.lora.dropout", "LoRA dropout", "> 0 keeps a mask and a dropped copy of each adapted input."}, t.lora.dropout,
                          shown(Step::Add, "%.2f"));
        if (t.finetune == FinetuneMethod::Lora)
            changed |= choice(f, {"training.lora.quant", "Base weights", "Storage of the frozen base weights."}, kBaseQuant, t.lora.quant);
        if (t.finetune == FinetuneMethod::Qlora || t.lora.quant == BaseQuant::Nf4 || t.lora.quant == BaseQuant::Fp4)
            changed |= check(f, {"training.lora.double_quant", "Double quant", "Quantize the absmax scales too: about 0.37 fewer bits per weight."},
                             t.lora.double_quant, "8-bit scales");
    }

    return changed;
    });

    changed |= form_panel(a, "shape", "BATCH AND SEQUENCE", [&](Form& g) {
        bool changed = false;
        changed |= number(g, {"batch", "Micro-batch", "Sequences per GPU per step: activations and logits grow linearly."}, c.run.batch, kBatchSpec);
        changed |= number(g, {"seq", "Sequence length", "Tokens per sequence: activations grow linearly (s^2 with eager attention)."}, c.run.seq, kSeqSpec);
        changed |= number(g, {"training.grad_accum", "Grad accum (0: auto)", "Micro-batches per optimizer step: no activation memory, gradients are kept.", {"training.global_batch"}},
                          t.grad_accum, shown(Step::Double, "%.0f", {1, 2, 4, 8, 16, 32, 64}));
        changed |= choice(g, {"training.recompute", "Recomputation", "Activation checkpointing: trades compute for activation memory."}, kRecompute, t.recompute, true);
        // (tips: the field table's meanings, core/fields.cpp)
        changed |= check(g, {"training.liger", "Liger Kernel", nullptr}, t.liger, "use_liger_kernel");
        changed |= choice(g, {"training.attention", "Attention kernel", "Eager attention keeps the s x s scores."}, kAttention, t.attention);
        changed |= choice(g, {"training.head", "Output head", "What the logits are over."}, kHeads, t.head, true);
        changed |= number(g, {"training.dropout", "Dropout", "> 0 keeps 1-byte masks for every dropout."}, t.dropout, shown(Step::Add, "%.2f"));
        return changed;
    });

    changed |= form_panel(a, "parallel", "GPUS, SHARDING AND PARALLELISM", [&](Form& p) {
        bool changed = false;
        changed |= number(p, {"gpus", "GPUs", "GPUs in the job = TP x PP x DP x CP."}, c.gpus, kGpusSpec);
        changed |= choice(p, {"training.sharding", "Sharding", "ZeRO / FSDP: split states over the data-parallel GPUs."}, kSharding, t.sharding);
        changed |= check(p, {"training.offload_optimizer", "Offload optimizer", "Optimizer state and FP32 master in host RAM (ZeRO-Offload)."},
                         t.offload_optimizer, "to host RAM");
        if (t.sharding == Sharding::Zero3)
            changed |= check(p, {"training.offload_params", "Offload weights", "Weights in host RAM, gathered a layer at a time."}, t.offload_params, "to host RAM");
        changed |= integer(p, {"parallel.tp", "Tensor parallel", "Splits every matrix and most activations over TP GPUs."}, par.tp, kDegreeSpec);
        if (par.tp > 1)
            changed |= choice(p, {"parallel.sp", "Sequence parallel", "With TP: norm and dropout activations split too (Profile: torchtitan and Megatron do)."},
                              kToggles, par.sp, true);
        changed |= integer(p, {"parallel.pp", "Pipeline stages", "Layers split over PP GPUs; the first stage holds up to PP micro-batches."}, par.pp, kDegreeSpec);
        if (par.pp > 1) {
            changed |= choice(p, {"parallel.schedule", "Schedule", "How many micro-batches are in flight."}, kSchedules, par.schedule, true);
            if (par.schedule == PipelineSchedule::Interleaved)
                changed |= integer(p, {"parallel.virtual_stages", "Chunks per GPU (v)", "Interleaved: model chunks per GPU."}, par.virtual_stages,
                                   shown(Step::Add, "%.0f"));
        }
        changed |= integer(p, {"parallel.cp", "Context parallel", "Splits the sequence over CP GPUs: activations / CP."}, par.cp, kDegreeSpec);
        if (c.model.experts > 0)
            changed |= integer(p, {"parallel.ep", "Expert parallel", "Splits the experts over EP GPUs: expert weights / EP."}, par.ep, kDegreeSpec);
        changed |= integer(p, {"parallel.dp", "Data parallel (0: auto)", "0 derives DP from GPUs / (TP x PP x CP)."}, par.dp,
                           shown(Step::Double, "%.0f"));
        return changed;
    });

    changed |= form_panel(a, "framework", "FRAMEWORK", [&](Form& k) {
        bool changed = false;
        const auto& profiles = training_profiles();
        std::vector<const char*> ids, labels, tips;
        int index = 0;
        for (size_t i = 0; i < profiles.size(); ++i) {
            ids.push_back(profiles[i].id);
            labels.push_back(profiles[i].label);
            tips.push_back(profiles[i].description);
            if (t.profile == profiles[i].id) index = static_cast<int>(i);
        }
        if (combo_row(k, {"training.profile", "Profile", "What the stack does that changes memory (logits upcast, fused kernels, buffers)."},
                      static_cast<int>(ids.size()), index, ids.data(), labels.data(), tips.data())) {
            t.profile = profiles[index].id;
            changed = true;
        }
        changed |= choice(k, {"training.compile", "torch.compile", "Fused norms and pointwise ops keep fewer activations."}, kToggles, t.compile, true);
        changed |= choice(k, {"training.logits_fp32", "FP32 logits", "The loss upcasts batch x seq x vocab logits to FP32."}, kToggles, t.logits_fp32, true);
        changed |= choice(k, {"training.compile_loss", "Compiled loss", "The loss under torch.compile (torchtitan since April 2025, torchtune compile=True): 16-bit logits and gradient, no FP32 copies."},
                          kToggles, t.compile_loss, true);
        changed |= choice(k, {"training.grad_fp32", "FP32 grad buffers", "FP32 gradient accumulation buffers (Megatron main_grad)."}, kToggles, t.grad_fp32, true);
        changed |= choice(k, {"runtime.lazy_loading", "CUDA lazy loading", "Kernels load on first use (PyTorch >= 1.13): 0.5 GiB instead of 1343 MiB on an A100."},
                          kToggles, c.runtime.lazy_loading, true);
        double mib = c.runtime.cuda_context_bytes < 0 ? -1 : c.runtime.cuda_context_bytes / (1024.0 * 1024.0);
        if (number(k, {"runtime.cuda_context_bytes", "CUDA context (MiB, -1: model)", "Outside the allocator; -1: the model, by lazy loading and the GPU's SMs."}, mib,
                   shown(Step::Add, "%.0f", {-1, 300, 512, 800, 1343}, "MiB", 1.0 / (1024 * 1024)))) {
            c.runtime.cuda_context_bytes = mib < 0 ? -1 : mib * 1024 * 1024;
            changed = true;
        }
        return changed;
    });

    changed |= advanced_panel(a, "training_more", [&](Form& m) {
        bool changed = false;
        changed |= number(m, {"training.global_batch", "Global batch (0: derived)", "Sequences per optimizer step over all data-parallel GPUs; sets the accumulation."},
                          t.global_batch, shown(Step::Double, "%.0f", {64, 128, 256, 512, 1024}));
        changed |= number(m, {"training.attention_dropout", "Attention dropout", "> 0 keeps the dropped attention probabilities (eager attention)."},
                          t.attention_dropout, shown(Step::Add, "%.2f"));
        if (t.head == OutputHead::Classifier)
            changed |= integer(m, {"training.classifier_labels", "Classifier labels", "Logits per sequence: tiny next to a vocabulary."}, t.classifier_labels,
                               shown(Step::Add, "%.0f"));
        if (t.sharding != Sharding::None)
            changed |= integer(m, {"training.shard_group", "Shard group (0: all)", "Hybrid sharding: states split within groups of this many GPUs, replicated across."},
                               t.shard_group, shown(Step::Double, "%.0f", {8, 16, 32, 64}));
        changed |= number(m, {"training.loss_chunk_tokens", "Loss chunk (-1: profile, 0: off)", "Chunked cross-entropy: logits for this many tokens at a time."},
                          t.loss_chunk_tokens, shown(Step::Double, "%.0f", {1024, 2048, 4096, 8192}));
        if (t.liger)
            changed |= number(m, {"training.liger_chunk_tokens", "Liger loss chunk (0: Liger's)", nullptr}, t.liger_chunk_tokens,
                              shown(Step::Double, "%.0f", {0, 256, 1024, 4096}));
        // The logits matter beside the last layer's recompute only (core/train/training.cpp, rank_memory).
        if (resolved_recompute(c) != Recompute::None)
            changed |= choice(m, {"training.keeps_logits", "Loop keeps the logits", nullptr}, kToggles, t.keeps_logits, true);
        if (c.model.experts > 0)
            changed |= integer(m, {"parallel.etp", "Expert tensor parallel (0: = TP)", "Each expert's matrices split over this many GPUs."}, par.etp,
                               shown(Step::Double, "%.0f"));
        if (adapters) {
            changed |= integer(m, {"training.lora.quant_block", "Quant block", "Values per absmax scale of the 4-bit base (NF4: 64)."}, t.lora.quant_block,
                               shown(Step::Double, "%.0f", {32, 64, 128, 256}));
            changed |= choice(m, {"training.lora.quantize_head", "Quantize the LM head", "bitsandbytes leaves the head in 16-bit by default."},
                              kToggles, t.lora.quantize_head, true);
            changed |= choice(m, {"training.lora.saves_inputs", "4-bit layers keep inputs", "bitsandbytes before 0.43.2 kept each 4-bit layer's input for backward."},
                              kToggles, t.lora.saves_inputs, true);
            // The quantized base's framework versions (tips: the field table's meanings, core/fields.cpp).
            if (t.finetune == FinetuneMethod::Lora && t.lora.quant == BaseQuant::None)
                changed |= choice(m, {"training.lora.base_fp32", "FP32 base under mixed precision", nullptr}, kToggles, t.lora.base_fp32, true);
            if (t.finetune == FinetuneMethod::Qlora || t.lora.quant != BaseQuant::None) {
                changed |= choice(m, {"training.lora.previous_graph", "Previous step's graph kept", nullptr}, kToggles, t.lora.previous_graph, true);
                changed |= choice(m, {"training.lora.dequant_fp16", "4-bit base from FP16", nullptr}, kToggles, t.lora.dequant_fp16, true);
                changed |= choice(m, {"training.lora.unchunked_quantize", "Unchunked NF4 init", nullptr}, kToggles, t.lora.unchunked_quantize, true);
                changed |= choice(m, {"training.lora.upcast_frozen", "FP32 embedding, head, norms", nullptr}, kToggles, t.lora.upcast_frozen, true);
                changed |= choice(m, {"training.lora.adapters_bf16", "BF16 adapters", nullptr}, kToggles, t.lora.adapters_bf16, true);
                if (c.model.experts > 0)
                    changed |= choice(m, {"training.lora.experts_unquantized", "MoE experts unquantized", nullptr}, kToggles,
                                      t.lora.experts_unquantized, true);
            }
            if (c.model.experts > 0)
                changed |= choice(m, {"training.lora.expert_adapters", "MoE expert adapters", nullptr}, kExpertAdapters, t.lora.expert_adapters);
        }
        double nccl = c.runtime.nccl_bytes / (1024.0 * 1024.0);
        if (number(m, {"runtime.nccl_bytes", "NCCL buffers (MiB)", "Per GPU when the job has more than one, outside the allocator."}, nccl,
                   shown(Step::Add, "%.0f", {}, "MiB", 1.0 / (1024 * 1024)))) {
            c.runtime.nccl_bytes = nccl * 1024 * 1024;
            changed = true;
        }
        changed |= number(m, {"runtime.allocator_fragmentation", "Allocator slack (-1: profile)", "Reserved minus allocated, as a share of what churns in a step."},
                          c.runtime.allocator_fragmentation, shown(Step::Add, "%.2f"));
        return changed;
    });
    return changed;
}

// [SECTION] serving -------------------------------------------------------------------------------
// The weight format list, best quality first, grouped as the engine names the families.
bool weight_format_combo(App& a, Form& f, const char* id, const char* label, const char* tip, std::string& value, bool allow_same) {
    const Field field{id, label, tip};
    row_begin(f, field);
    const WeightFormat* cur = find_weight_format(value);
    const std::string shown = value.empty() && allow_same ? "Same as the weights" : cur ? cur->label : value;
    bool changed = false;
    ImGui::PushID(id);
    const bool open = ImGui::BeginCombo("##v", combo_preview(a, id, shown.c_str()).c_str(), ImGuiComboFlags_HeightLargest);
    reg(a, id);
    tooltip(tip);
    if (open) {
        const ListEntries entries;
        if (allow_same && ImGui::Selectable("Same as the weights", value.empty())) {
            value.clear();
            changed = true;
        }
        const unsigned engine = engine_mask(a.inputs.inference.engine);
        for (const auto& w : weight_formats()) {
            const bool usable = (w.engines & engine) != 0;
            char line[96];
            // The format the model's published checkpoint stores (model.checkpoint_format) says so.
            const bool stored = a.inputs.model.checkpoint_format == w.id;
            std::snprintf(line, sizeof line, "%s%s%s", w.label, stored ? "  (as published)" : "", usable ? "" : "  (other engines)");
            if (!usable) ImGui::PushStyleColor(ImGuiCol_Text, palette().faint);
            if (ImGui::Selectable(line, value == w.id)) {
                value = w.id;
                changed = true;
            }
            if (!usable) ImGui::PopStyleColor();
            reg(a, std::string(id) + "/" + w.id);
            tooltip(w.source);
        }
        ImGui::EndCombo();
    }
    ImGui::PopID();
    row_end(f, field);
    return changed;
}

bool kv_dtype_combo(App& a, Form& f) {
    std::string& v = a.inputs.inference.kv_dtype;
    std::vector<const char*> ids{"auto"}, labels{"Auto (model dtype)"}, tips{"The model's 16-bit dtype (f16 in llama.cpp)."};
    int index = 0;
    for (const auto& d : kv_dtypes()) {
        ids.push_back(d.id);
        labels.push_back(d.id);
        tips.push_back(d.source);
        if (v == d.id) index = static_cast<int>(ids.size()) - 1;
    }
    if (!combo_row(f, {"inference.kv_dtype", "KV cache dtype", "Bytes per cached value: the KV cache scales with it."}, static_cast<int>(ids.size()),
                   index, ids.data(), labels.data(), tips.data()))
        return false;
    v = ids[index];
    return true;
}

bool serving_inputs(App& a) {
    Config& c = a.inputs;
    InferenceInputs& in = c.inference;
    bool changed = false;
    changed |= form_panel(a, "weights", "WEIGHTS AND KV CACHE", [&](Form& f) {
    bool changed = false;
    if (choice(f, {"inference.engine", "Engine", "How the serving engine takes GPU memory."}, kEngines, in.engine, true)) {
        changed = true;
        // 16-bit weights of a quantized checkpoint: the format it is stored in, where this engine loads it.
        if (in.weights.format == "bf16" || in.weights.format == "fp16") follow_checkpoint_format(c);
    }
    changed |= weight_format_combo(a, f, "inference.weights", "Weight format", "Bits per weight of the stored model (scales included).", in.weights.format, false);
    const WeightFormat* wf = find_weight_format(in.weights.format);
    if (wf && wf->family == FormatFamily::GroupInt)
        changed |= integer(f, {"inference.group_size", "Group size (-1: row)", "One 16-bit scale (and zero point) per group of inputs."}, in.weights.group_size,
                           NumberSpec{-1, 4096, 32, Step::Double, "%.0f", {32, 64, 128}});
    if (c.model.experts > 0)
        changed |= weight_format_combo(a, f, "inference.experts_weights", "Experts format", "MoE experts quantized apart from attention.",
                                       in.weights.experts_format, true);
    changed |= kv_dtype_combo(a, f);
    return changed;
    });

    changed |= form_panel(a, "load", "CONTEXT AND LOAD", [&](Form& g) {
        bool changed = false;
        // Ollama's default num_ctx that ran out of memory: the label says the context it retried at.
        char ctx_label[48] = "Context length";
        if (a.results.estimate.metric("ollama_oom_num_ctx"))
            std::snprintf(ctx_label, sizeof ctx_label, "Context length (Ollama retries %.0f)", ollama_retry_context(in.constants, in.context));
        changed |= integer(g, {"inference.context", ctx_label, "Tokens per sequence (prompt + output): the KV cache grows linearly.", {"seq"}},
                           in.context, kSeqSpec);
        changed |= integer(g, {"inference.concurrency", "Concurrent sequences", "Sequences in flight: each keeps its own KV cache.", {"batch"}},
                           in.concurrency, kBatchSpec);
        changed |= integer(g, {"inference.prompt_tokens", "Prompt (0: the context)", "Prefill length: activations and time to first token."},
                           in.prompt_tokens, shown(Step::Double, "%.0f", kSeqPresets));
        // inference.tp 0 follows the job's GPU count (shared with training); a link may set it apart.
        // vLLM splits every matrix (tensor parallel); llama.cpp and HF give each GPU whole layers.
        const bool tensor = tensor_parallel_engine(in.engine);
        const char* gpus_label = tensor ? "GPUs (tensor parallel)" : "GPUs (layers split)";
        const char* gpus_tip = tensor ? "Weights and KV heads split over the GPUs: each reads its share at once."
                                      : "Whole layers (weights and their KV) on each GPU: a token passes through them in turn.";
        if (in.tp == 0)
            changed |= number(g, {"gpus", gpus_label, gpus_tip, {"inference.tp"}}, c.gpus, kGpusSpec);
        else
            changed |= integer(g, {"inference.tp", gpus_label, gpus_tip}, in.tp, kDegreeSpec);
        return changed;
    });

    changed |= form_panel(a, "engine", "ENGINE SETTINGS", [&](Form& k) {
        bool changed = false;
        switch (in.engine) {
            case Engine::Vllm:
                changed |= number(k, {"inference.vllm.gpu_memory_utilization", "GPU memory utilization", "vLLM reserves this share of the card; the rest of it after weights becomes KV blocks."},
                                  in.vllm.gpu_memory_utilization, shown(Step::Add, "%.2f", {0.8, 0.85, 0.9, 0.95}));
                changed |= integer(k, {"inference.vllm.max_num_batched_tokens", "Max batched tokens", "Tokens in the profiling forward: sets the activation peak."},
                                   in.vllm.max_num_batched_tokens, shown(Step::Double, "%.0f", {2048, 4096, 8192, 16384}));
                changed |= integer(k, {"inference.vllm.max_num_seqs", "Max sequences", "Sampler buffers are profiled for this many sequences."},
                                   in.vllm.max_num_seqs, shown(Step::Double, "%.0f", {64, 128, 256, 512}));
                changed |= integer(k, {"inference.block_size", "KV block size", "Tokens per paged block: a sequence rounds up to whole blocks."},
                                   in.block_size, shown(Step::Double, "%.0f", {8, 16, 32}));
                changed |= check(k, {"inference.vllm.enforce_eager", "Enforce eager", "No CUDA graphs: saves their memory."}, in.vllm.enforce_eager, "no CUDA graphs");
                changed |= check(k, {"inference.vllm.allow_long_max_model_len", "Allow long max_model_len",
                                     "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a context above the model's window runs instead of being refused."},
                                 in.vllm.allow_long_max_model_len, "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1");
                break;
            case Engine::Sglang:
                changed |= number(k, {"inference.sglang.mem_fraction_static", "Mem fraction static (-1: SGLang's)",
                                       "Share of the free memory for weights + KV pool; -1: SGLang's rule by the GPU's memory, TP and graphs."},
                                  in.sglang.mem_fraction_static, NumberSpec{-1, 1, 0.01, Step::Add, "%.3f", {-1, 0.8, 0.85, 0.88, 0.9}});
                changed |= integer(k, {"inference.sglang.chunked_prefill_size", "Chunked prefill (0: auto, -1: off)",
                                       "Tokens of a prefill chunk: its activations and SGLang's reserve outside the static part."},
                                   in.sglang.chunked_prefill_size, NumberSpec{-1, 1 << 24, 1, Step::Double, "%.0f", {0, 2048, 4096, 8192, 16384}});
                changed |= integer(k, {"inference.sglang.cuda_graph_max_bs", "CUDA graph max bs (0: auto)", "Largest decode batch captured in a CUDA graph."},
                                   in.sglang.cuda_graph_max_bs, NumberSpec{0, 65536, 1, Step::Double, "%.0f", {0, 32, 160, 256, 512}});
                changed |= integer(k, {"inference.sglang.max_running_requests", "Max running requests (0: auto)",
                                       "Requests at once and the req_to_token pool's rows."},
                                   in.sglang.max_running_requests, NumberSpec{0, 1 << 20, 1, Step::Double, "%.0f", {0, 64, 256, 1024}});
                changed |= integer(k, {"inference.sglang.page_size", "Page size", "Tokens per KV page: the pool and each sequence round to pages."},
                                   in.sglang.page_size, NumberSpec{1, 4096, 1, Step::Double, "%.0f", {1, 16, 64}});
                changed |= check(k, {"inference.sglang.disable_cuda_graph", "Disable CUDA graph", "No decode or prefill graphs."},
                                 in.sglang.disable_cuda_graph, "no CUDA graphs");
                changed |= check(k, {"inference.sglang.prefill_cuda_graph", "Prefill CUDA graphs", "The prefill phase's piecewise graphs (SGLang's default)."},
                                 in.sglang.prefill_cuda_graph, "piecewise");
                break;
            case Engine::LlamaCpp:
                changed |= llamacpp_rows(a, k);  // ui_local.cpp
                break;
            case Engine::Hf:
                changed |= choice(k, {"inference.hf.attention", "Attention", "Eager keeps the prefill's s x s scores."}, kHfAttention, in.hf.attention, true);
                if (in.hf.attention == HfAttention::Sdpa)
                    changed |= check(k, {"inference.hf.sdpa_enable_gqa", "SDPA enable_gqa",
                                         "transformers >= 4.54, PyTorch >= 2.5, no padding mask: K and V are not copied to every query head (repeat_kv)."},
                                     in.hf.sdpa_enable_gqa, "no repeat_kv");
                changed |= check(k, {"inference.hf.full_logits", "Full-prompt logits", "Logits for every prompt token (older transformers): prompt x vocab."},
                                 in.hf.full_logits, "prompt x vocab");
                changed |= check(k, {"inference.hf.legacy_cache", "transformers < 4.42", "generate held two copies of the KV cache while decoding, and the prompt's FP32 logits."},
                                 in.hf.legacy_cache, "two cache copies");
                break;
        }
        if (c.model.sliding_window > 0)
            changed |= check(k, {"inference.swa_full", "Full KV in window layers", "Store the whole context in sliding-window layers too."}, in.swa_full,
                             "no window cap");
        return changed;
    });

    if (in.engine == Engine::LlamaCpp) changed |= host_panel(a);  // ui_local.cpp

    changed |= advanced_panel(a, "serving_more", [&](Form& m) {
        bool changed = false;
        const WeightFormat* wf = find_weight_format(in.weights.format);
        if (wf && wf->family == FormatFamily::GroupInt) {
            changed |= check(m, {"inference.zero_point", "Zero points", "Asymmetric groups store a b-bit zero point per group."}, in.weights.zero_point, "per group");
            changed |= check(m, {"inference.act_order", "Act order (g_idx)", "GPTQ desc_act stores an int32 per input column."}, in.weights.act_order, "g_idx");
        }
        if (wf && wf->family == FormatFamily::Gguf)
            changed |= check(m, {"inference.gguf_imatrix", "Importance matrix", "llama.cpp's quantizer picks some tensor types differently with one."},
                             in.weights.gguf_imatrix, "imatrix");
        changed |= check(m, {"inference.keep_embeddings", "16-bit embeddings", "The embedding and LM head stay in 16-bit, as most formats keep them."},
                         in.weights.keep_embeddings, "keep");
        if (in.engine == Engine::Vllm)
            changed |= check(m, {"inference.vllm.profile_logits", "Profile all tokens' logits", "vLLM V1 <= 0.7 computed logits for every batched token: GiBs more."},
                             in.vllm.profile_all_tokens, "older vLLM");
        if (in.engine == Engine::Vllm && !in.vllm.profile_all_tokens)
            changed |= choice(m, {"inference.vllm.sampler", "Sampler", "The top-k/top-p sampler vLLM profiles over max_num_seqs x vocab logits."},
                              kVllmSamplers, in.vllm.sampler);
        if (in.engine == Engine::Vllm && in.tp != 1)
            changed |= choice(m, {"inference.vllm.custom_all_reduce", "Custom all-reduce", "vLLM's all-reduce kernel for tensor parallelism and its IPC buffers."},
                              kVllmCustomAllReduce, in.vllm.custom_all_reduce);
        if (in.engine == Engine::Vllm && in.tp != 1)
            changed |= choice(m, {"inference.vllm.p2p", "GPU P2P", "Peer-to-peer access between the GPUs: where NCCL keeps its buffers."},
                              kGpuP2p, in.vllm.p2p);
        if (in.engine == Engine::Hf && wf && std::string(wf->id).rfind("gptq", 0) == 0) {
            changed |= choice(m, {"inference.hf.gptq_kernel", "GPTQ kernel", "The kernel's persistent buffers (AutoGPTQ / optimum / transformers)."},
                              kGptqKernels, in.hf.gptq_kernel);
            if (in.hf.gptq_kernel == GptqKernel::Exllama)
                changed |= check(m, {"inference.hf.gptq_act_order", "Act-order checkpoint", "desc_act: ExLlama keeps a temp_state of 2048 rows x the largest dimension in FP16."},
                                 in.hf.gptq_act_order, "desc_act");
        }
        if (in.engine == Engine::Hf) {
            changed |= check(m, {"inference.hf.lazy_loading", "CUDA lazy loading",
                                 "Kernels load on first use (CUDA >= 11.7, driver >= 515): a 0.5 GiB context. Off: every kernel at start-up, 1343 MiB."},
                             in.hf.lazy_loading, "lazy");
            bool fp32 = in.hf.bnb_compute_bytes == 4;
            if (check(m, {"inference.hf.bnb_compute_dtype", "bitsandbytes FP32 compute", "BitsAndBytesConfig's default float32 compute dtype keeps an FP32 copy of a dequantized matrix."},
                      fp32, "fp32")) {
                in.hf.bnb_compute_bytes = fp32 ? 4 : 2;
                changed = true;
            }
            if (wf && std::string(wf->id).rfind("bnb-", 0) == 0)
                changed |= check(m, {"inference.hf.litgpt_quantize", "LitGPT --quantize",
                                     "Lightning's BitsandbytesPrecision: the LM head quantized too, FP16 dequantization, LLM.int8 re-quantized on load."},
                                 in.hf.litgpt_quantize, "LitGPT");
            if (c.model.experts > 0 && wf && std::string(wf->id).rfind("bnb-", 0) == 0)
                changed |= check(m, {"inference.hf.experts_unquantized", "MoE experts 16-bit",
                                     "transformers 5 keeps an MoE's fused experts in 16-bit under bitsandbytes. Off: transformers 4 or Unsloth."},
                                 in.hf.experts_unquantized, "16-bit");
        }
        changed |= number(m, {"inference.constants.bandwidth_efficiency", "Bandwidth efficiency", "Share of peak HBM bandwidth decode reaches (roofline speed only)."},
                          in.constants.bandwidth_efficiency, shown(Step::Add, "%.2f"));
        changed |= number(m, {"inference.constants.compute_efficiency", "Compute efficiency", "Share of dense tensor peak prefill reaches (roofline speed only)."},
                          in.constants.compute_efficiency, shown(Step::Add, "%.2f"));
        double gib = in.constants.cuda_context_bytes < 0 ? -1 : in.constants.cuda_context_bytes / 1073741824.0;
        if (number(m, {"inference.constants.cuda_context_gib", "CUDA context (GiB, -1: model)",
                       "Outside the allocator; -1: the model, by the GPU's SMs."},
                   gib, shown(Step::Add, "%.2f", {-1, 0.25, 0.5, 0.75, 1}))) {
            in.constants.cuda_context_bytes = gib < 0 ? -1073741824.0 : gib * 1073741824.0;
            changed = true;
        }
        return changed;
    });
    return changed;
}

// [SECTION] gpu -----------------------------------------------------------------------------------
bool gpu_section(App& a) {
    Config& c = a.inputs;
    return form_panel(a, "gpu", "GPU", [&](Form& f) {
        bool changed = false;
        const auto& catalog = gpu_catalog();
        GpuSpec& custom = c.inference.custom_gpu;
        std::vector<std::string> labels_s{"None"};
        std::vector<const char*> ids{"none"}, labels, tips{"Size without a particular GPU."};
        int index = 0;
        // Your own GPU (second, in reach at the top): its memory, bandwidth and TFLOP/s replace the
        // catalog's for every answer.
        constexpr int custom_index = 1;
        ids.push_back(kCustomGpuId);
        labels_s.push_back(c.inference.has_custom_gpu ? custom.name + "  " + format_size(custom.memory_bytes, a.ui.show_gib) + " (custom)"
                                                      : std::string("Custom GPU\u2026"));
        tips.push_back("Your own GPU: its memory, bandwidth and TFLOP/s (a speed figure left at 0 is unknown).");
        for (const auto& g : catalog) {
            ids.push_back(g.id.c_str());
            labels_s.push_back(g.name + "  " + format_size(g.memory_bytes, a.ui.show_gib));
            tips.push_back(g.source.c_str());
            if (g.id == c.gpu_id) index = static_cast<int>(ids.size()) - 1;
        }
        if (c.inference.has_custom_gpu) index = custom_index;
        for (const auto& s : labels_s) labels.push_back(s.c_str());
        if (combo_row(f, {"gpu", "GPU", "The card you size for: fit verdicts, solvers, speed and the chart's capacity line."}, static_cast<int>(ids.size()),
                      index, ids.data(), labels.data(), tips.data())) {
            if (index == custom_index) {
                // Starts from the card chosen before (its figures), renamed, for the user to edit.
                if (!c.inference.has_custom_gpu) {
                    const GpuSpec* from = find_gpu(c.gpu_id);
                    custom = from ? *from : GpuSpec{};
                    if (!from) custom.memory_bytes = 24 * kBytesPerGiB;
                    custom.id = kCustomGpuId;
                    custom.name = "My GPU";
                    custom.price_per_hour_usd = 0;
                    custom.vendor.clear();  // as a document gives it: a Mac by the unified flag alone
                    custom.source = "your figures (custom GPU)";
                }
                c.inference.has_custom_gpu = true;
            } else {
                c.inference.has_custom_gpu = false;
                c.gpu_id = index == 0 ? std::string() : catalog[static_cast<size_t>(index - 2)].id;
            }
            changed = true;
        }
        if (c.inference.has_custom_gpu) {
            const Field name{"inference.gpu_custom.name", "GPU name", "Shown in the headline, the verdict and the GPU table."};
            row_begin(f, name);
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s", custom.name.c_str());
            ImGui::SetNextItemWidth(-FLT_MIN);
            if (ImGui::InputText("##gpu_name", buf, sizeof buf)) {
                custom.name = buf;
                changed = true;
            }
            reg(a, name.id);
            row_end(f, name);
            double mem = bytes_to_gib(custom.memory_bytes);
            if (number(f, {"inference.gpu_custom.memory_gib", "Memory (GiB)", "The card's memory as the driver reports it, in GiB (2^30 bytes)."}, mem,
                       shown(Step::Add, "%.4g", {8, 12, 16, 24, 32, 48, 80, 96, 141, 192}, "GiB"))) {
                custom.memory_bytes = mem * kBytesPerGiB;
                custom.nominal_gb = custom.memory_bytes / 1e9;
                changed = true;
            }
            // A Mac (unified memory): the GPU wires macOS's working-set share of this RAM, one machine.
            changed |= check(f, {"inference.gpu_custom.unified", "Unified memory", nullptr}, custom.unified, "a Mac");
            changed |= number(f, {"inference.gpu_custom.bandwidth_gbps", "Bandwidth (GB/s, 0: unknown)", "Peak memory bandwidth: decode speed reads the weights and KV at this rate."},
                              custom.bandwidth_gbps, shown(Step::Add, "%.0f", {0, 288, 448, 936, 1008, 2039, 3350, 4800}, "GB/s"));
            changed |= number(f, {"inference.gpu_custom.bf16_tflops", "BF16 TFLOP/s (0: unknown)", "Dense BF16/FP16 tensor throughput: prefill speed and compute-bound steps."},
                              custom.bf16_tflops, shown(Step::Add, "%.4g", {0, 82.6, 165, 312, 989}, "TFLOP/s"));
            changed |= number(f, {"inference.gpu_custom.fp8_tflops", "FP8 TFLOP/s (0: none)", "Dense FP8 tensor throughput; 0 when the card has no FP8 tensor cores."},
                              custom.fp8_tflops, shown(Step::Add, "%.4g", {0, 330, 660, 1979}, "TFLOP/s"));
            changed |= integer(f, {"inference.gpu_custom.sms", "SMs (0: unknown)", "The CUDA context reserves local memory for each SM's threads."},
                               custom.sms, shown(Step::Add, "%.0f", {0, 34, 82, 108, 128, 132, 170}, "SMs"));
            changed |= integer(f, {"inference.gpu_custom.threads_per_sm", "Threads per SM (0: unknown)", "2048 (V100, A100, H100, B200), 1536 (RTX 30-50, L4, L40S), 1024 (T4)."},
                               custom.threads_per_sm, shown(Step::Add, "%.0f", {0, 1024, 1536, 2048}, "threads"));
        }
        double pct = c.target_utilization * 100;
        if (number(f, {"target_utilization", "Headroom target (%)", "Plan to use at most this share of the GPU (fragmentation, spikes, versions)."},
                   pct, shown(Step::Add, "%.0f", {70, 75, 80, 90, 95}, "%", 100))) {
            c.target_utilization = pct / 100;
            changed = true;
        }
        return changed;
    });
}

}  // namespace

// [SECTION] panel ---------------------------------------------------------------------------------
bool inputs_panel(App& a, bool narrow) {
    (void)narrow;
    Config& c = a.inputs;
    bool changed = model_section(a);
    switch (c.method) {
        case Method::Quick:
            changed |= form_panel(a, "quick", "QUICK METHOD INPUTS", [&](Form& f) { return quick_inputs(a, f); });
            break;
        case Method::Guide:
            changed |= form_panel(a, "guide", "GUIDE FORMULA INPUTS", [&](Form& f) { return guide_inputs(a, f); });
            break;
        case Method::Detailed:
            changed |= c.task == Task::Inference ? serving_inputs(a) : training_inputs(a);
            break;
    }
    changed |= gpu_section(a);

    // An error about a field without a row here (e.g. a constant set by a link) is shown under the
    // inputs; a row that showed it registered "<field>/error".
    if (!a.error.field.empty()) {
        bool row_error = false;
        for (const auto& w : a.widgets) row_error |= w.id.size() > 6 && w.id.compare(w.id.size() - 6, 6, "/error") == 0;
        if (!row_error) {
            const ImVec2 at = ImGui::GetCursorScreenPos();
            error_text(a.error.field + ": " + a.error.message);
            reg_rect(a, "error", at, ImGui::GetItemRectMax());
        }
    }
    if (changed) mark_changed(a);
    return changed;
}

}  // namespace vc::shell::ui
