// vramcalc core: which models and formats fit (fit_models.hpp). Every figure is estimate()'s: this
// file only varies the model and the format and ranks.
#include "core/fit_models.hpp"

#include <algorithm>
#include <vector>
#include <cstdio>

#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "core/model/presets.hpp"
#include "core/quant/quant.hpp"
#include "core/serve/inference_solve.hpp"

namespace vc {

namespace {

// Inference formats by engine, best first: the checkpoint's 16-bit type, then the 8-bit and 4-bit
// formats each engine commonly serves (vLLM: FP8, INT8 W8A16, AWQ; llama.cpp: the GGUF types
// llama.cpp's README recommends down to Q2_K; transformers: bitsandbytes).
constexpr const char* kVllmFormats[] = {"bf16", "fp8", "int8", "awq-int4"};
constexpr const char* kLlamaCppFormats[] = {"gguf-bf16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k"};
constexpr const char* kHfFormats[] = {"bf16", "bnb-int8", "bnb-nf4"};

// Presets whose published files are not an engine's ladder: the formats they come in, best first.
// gpt-oss: OpenAI ships the routed experts in MXFP4, and llama.cpp's own GGUFs are one
// MXFP4_MOE file each (https://huggingface.co/ggml-org/gpt-oss-20b-GGUF: gpt-oss-20b-mxfp4.gguf;
// https://huggingface.co/ggml-org/gpt-oss-120b-GGUF: gpt-oss-120b-mxfp4-0000{1,2,3}-of-00003.gguf).
// The K-quant files others publish keep the experts in MXFP4 too ("All quants keep the feed forward
// networks at mxfp4", https://huggingface.co/bartowski/openai_gpt-oss-20b-GGUF: Q2_K to Q8_0 within
// 12.1 GB of each other), so a Q4_K_M priced here with Q4_K experts is no file anyone can download.
// vLLM serves OpenAI's own checkpoints (https://huggingface.co/openai/gpt-oss-20b, config.json
// "quantization_config": {"quant_method": "mxfp4"}): experts MXFP4, the rest BF16, the `mxfp4` format
// under vLLM (docs/inference.md), on the GPUs whose compute capability its Mxfp4Config accepts
// (vllm_format_loads; elsewhere the preset keeps the vLLM ladder, whose rows below a format's minimum
// carry vLLM's refusal, the estimate's error, instead of a figure).
struct PublishedFormats {
    Engine engine;
    const char* preset;
    const char* formats[2];  // nullptr-terminated
};
constexpr PublishedFormats kPublished[] = {
    {Engine::LlamaCpp, "gpt-oss-20b", {"mxfp4", nullptr}},
    {Engine::LlamaCpp, "gpt-oss-120b", {"mxfp4", nullptr}},
    {Engine::Vllm, "gpt-oss-20b", {"mxfp4", nullptr}},
    {Engine::Vllm, "gpt-oss-120b", {"mxfp4", nullptr}},
    {Engine::Sglang, "gpt-oss-20b", {"mxfp4", nullptr}},
    {Engine::Sglang, "gpt-oss-120b", {"mxfp4", nullptr}},
};

bool vllm_detailed(const Config& c) { return c.task == Task::Inference && c.inference.engine == Engine::Vllm; }
// vLLM or SGLang: a KV pool sized at start-up, whose verdict is the pool's (budget_share 1).
bool pooled_detailed(const Config& c) { return c.task == Task::Inference && tensor_parallel_engine(c.inference.engine); }

}  // namespace

std::vector<FitFormat> fit_formats(const Config& cfg, const std::string& model_id) {
    std::vector<FitFormat> out;
    if (cfg.task == Task::Training) {
        out.push_back({"bf16-mixed", "BF16 mixed precision", 0});
        out.push_back({"bf16-true", "BF16 (no FP32 master)", 1});
    } else if (cfg.task == Task::FineTune) {
        out.push_back({"full", "Full fine-tuning", 0});
        out.push_back({"lora", "LoRA (16-bit base)", 1});
        out.push_back({"qlora", "QLoRA (NF4 base)", 2});
    } else {
        const bool gguf = cfg.inference.engine == Engine::LlamaCpp;
        auto add = [&out, gguf](const char* id) {
            const WeightFormat* f = find_weight_format(id);
            if (!f) return;
            // A base format llama.cpp loads as a GGUF file type (mxfp4: MXFP4_MOE) by the file's name.
            const bool file = gguf && f->family != FormatFamily::Gguf && f->gguf_ftype >= 0;
            out.push_back({f->id, file ? gguf_ftypes()[static_cast<size_t>(f->gguf_ftype)].label : f->label, f->quality});
        };
        const Engine engine = cfg.inference.engine;
        const PublishedFormats* own = nullptr;
        for (const auto& p : kPublished) own = p.engine == engine && model_id == p.preset ? &p : own;
        // vLLM refuses an MXFP4 checkpoint below its minimum compute capability (V100, T4).
        const GpuSpec* gpu = config_gpu(cfg);
        InferenceInputs mxfp4 = cfg.inference;
        mxfp4.weights.format = "mxfp4";
        mxfp4.weights.experts_format.clear();
        if (own && engine == Engine::Vllm && gpu && !vllm_format_loads(mxfp4, *gpu)) own = nullptr;
        if (own) {
            for (const char* const* id = own->formats; *id; ++id) add(*id);
        } else if (tensor_parallel_engine(engine)) {
            // SGLang: vLLM's list, less the formats it has no --quantization method for (core/quant's engine mask).
            for (const char* id : kVllmFormats)
                if (const WeightFormat* f = find_weight_format(id); f && (f->engines & engine_mask(engine))) add(id);
        } else if (gguf) {
            for (const char* id : kLlamaCppFormats) add(id);
        } else {
            for (const char* id : kHfFormats) add(id);
        }
    }
    return out;
}

bool apply_model_format(Config& cfg, const std::string& model_id, const std::string& format, Error& err) {
    const ModelSpec* preset = find_preset(model_id);
    if (!preset) {
        err = Error{"model", "model \"" + model_id + "\" is not a preset (vramcalc --list-models)" + preset_suggestion(model_id)};
        return false;
    }
    bool known = false;
    const std::vector<FitFormat> formats = fit_formats(cfg, model_id);
    for (const auto& f : formats) known = known || f.id == format;
    if (!known) {
        std::string list;
        for (const auto& f : formats) list += (list.empty() ? "" : ", ") + f.id;
        err = Error{"format", "format \"" + format + "\" is not one the " + task_name(cfg.task) + " list tries for " + model_id + " (" + list + ")"};
        return false;
    }
    cfg.model = *preset;
    const auto m = resolve_model(cfg.model);
    if (m.ok) cfg.quick.params_b = model_params(m.value).total / 1e9;
    if (cfg.task == Task::Training) {
        cfg.training.precision = format == "bf16-true" ? TrainPrecision::Bf16True : TrainPrecision::Bf16Mixed;
    } else if (cfg.task == Task::FineTune) {
        cfg.training.finetune = format == "qlora" ? FinetuneMethod::Qlora : format == "lora" ? FinetuneMethod::Lora : FinetuneMethod::Full;
        if (format != "qlora") cfg.training.lora.quant = BaseQuant::None;
    } else {
        cfg.inference.weights.format = format;
        cfg.inference.weights.experts_format.clear();  // the experts in the same format as the rest
        cfg.inference.weights_file = WeightsFile{};    // a file's bytes belong to the file's model
    }
    return true;
}

bool apply_model_fit(Config& cfg, const ModelFit& row, Error& err) {
    if (!apply_model_format(cfg, row.model, row.format, err)) return false;
    if (row.partial) cfg.inference.llamacpp.n_gpu_layers = row.gpu_layers;
    return true;
}

Outcome<ModelFits> fit_models(const Config& in) {
    Error err;
    if (!check_target_utilization(in, err)) return Outcome<ModelFits>::failure(err);
    const GpuSpec* gpu = config_gpu(in);
    if (!gpu) return Outcome<ModelFits>::failure("gpu", "the models-that-fit list needs a GPU: set gpu (vramcalc --list-gpus) or inference.gpu_custom");
    Config base = in;
    base.method = Method::Detailed;
    ModelFits out;
    out.gpu_id = config_gpu_id(base);
    // The budget the headline's verdict uses (core/serve/inference.hpp budget_share): vLLM's own
    // reservation, SGLang's whole card (its mem_fraction_static of the free memory, sized at start-up), else the
    // target share of the card.
    const bool sglang = base.task == Task::Inference && base.inference.engine == Engine::Sglang;
    const double share = vllm_detailed(base) ? base.inference.vllm.gpu_memory_utilization : sglang ? 1.0 : base.target_utilization;
    out.budget_bytes = gpu->memory_bytes * share;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.2f GB: %.0f%% of %s's %.2f GB (%s)", out.budget_bytes / 1e9, share * 100, gpu->name.c_str(),
                  gpu->memory_bytes / 1e9, vllm_detailed(base) ? "vLLM's gpu_memory_utilization, reserved whole: a share is what the load takes of it"
                                           : sglang ? "SGLang's own mem_fraction_static and the headroom it leaves: a share is what the load takes of it"
                                                    : "the headroom target");
    out.budget = buf;

    Error first_error;
    // estimate() of `c` into `row`: its total, load, share and the headline's verdict. False when
    // the estimate failed (the row keeps the message).
    auto measure = [&](const Config& c, ModelFit& row) {
        auto e = estimate(c);
        if (!e.ok) {
            // The field, unless the message already starts with it ("inference.weights \"fp8\" needs ...").
            const bool named = e.error.message.compare(0, e.error.field.size(), e.error.field) == 0;
            row.error = named ? e.error.message : e.error.field + ": " + e.error.message;
            if (first_error.field.empty()) first_error = e.error;
            return false;
        }
        for (const auto& g : e.value.fits) {
            if (g.gpu_id != out.gpu_id) continue;
            row.ok = true;
            row.total_bytes = std::max(e.value.total_bytes, e.value.buffered_bytes);
            row.load_bytes = row.total_bytes;
            row.share = g.utilization / share;
            const Component* pool = e.value.component("kv_cache");
            const Metric* needed = e.value.metric("kv_needed_bytes");
            if (pooled_detailed(c) && pool && needed) {
                row.load_bytes = row.total_bytes - pool->bytes + needed->value;
                row.share = row.load_bytes / out.budget_bytes;
            }
            row.fits = g.within_target;
            // llama.cpp: a split that keeps layers, experts or KV in system RAM of no stated size is
            // not within the target (the estimate's verdict, GpuFit::needs_ram_bytes); the row
            // says so when its GPU part is.
            row.needs_ram = g.needs_ram_bytes > 0 && g.gpu_within_target;
        }
        // The RAM the row's buffers take (llama.cpp; a Mac: the unified memory in use).
        if (const Metric* ram = e.value.metric("host_total_bytes")) row.ram_bytes = ram->value;
        return true;
    };
    // Larger models first (an insertion sort of the preset indices, stable: equal counts keep the
    // presets' order); within a preset the formats come best first already (fit_formats).
    const auto& presets = model_presets();
    std::vector<double> params;
    std::vector<size_t> order;
    for (const auto& p : presets) {
        const auto m = resolve_model(p);
        params.push_back(m.ok ? model_params(m.value).total : 0);
        size_t at = order.size();
        order.push_back(0);
        for (; at > 0 && params[order[at - 1]] < params.back(); --at) order[at] = order[at - 1];
        order[at] = params.size() - 1;
    }
    for (size_t i : order) {
        const ModelSpec& preset = presets[i];
        for (const auto& f : fit_formats(base, preset.id)) {
            ModelFit row;
            row.model = preset.id;
            row.model_name = preset.name;
            row.format = f.id;
            row.format_label = f.label;
            row.quality = f.quality;
            Config c = base;
            if (!apply_model_format(c, preset.id, f.id, err)) continue;
            row.params = c.quick.params_b * 1e9;
            if (!measure(c, row)) {
                out.rows.push_back(row);
                continue;
            }
            if (c.task == Task::Inference && c.inference.engine == Engine::LlamaCpp && c.inference.host.ram_bytes > 0 && row.ok && !row.fits) {
                const int ngl = max_gpu_layers(c, "", c.inference.context, c.inference.concurrency);
                if (ngl >= 0) {
                    c.inference.llamacpp.n_gpu_layers = ngl;
                    ModelFit offload = row;
                    if (measure(c, offload) && offload.fits) row = offload, row.partial = true, row.gpu_layers = ngl;
                }
            }
            out.fitting += row.fits ? 1 : 0;
            out.needing_ram += row.needs_ram ? 1 : 0;
            out.rows.push_back(row);
        }
    }
    bool any = false;
    for (const auto& r : out.rows) any = any || r.ok;
    if (!any && !first_error.field.empty()) return Outcome<ModelFits>::failure(first_error);
    return Outcome<ModelFits>::success(out);
}

}  // namespace vc
