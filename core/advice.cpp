// vramcalc core: what to change when a config does not fit (advice.hpp).
#include "core/advice.hpp"

#include <functional>

#include "core/catalog/gpus.hpp"
#include "core/estimate.hpp"
#include "core/gpu_choice.hpp"
#include "core/quant/quant.hpp"
#include "core/serve/inference.hpp"
#include "core/solve.hpp"
#include "core/text.hpp"
#include "core/train/training.hpp"

namespace vc {

namespace {

// The shortest training sequence a suggestion halves down to (tokens): below it a sample holds
// little context; a product choice, not a measured constant.
constexpr double kShortestSuggestedSeq = 256;

// The chosen GPU's fit of a detailed estimate: the device total and whether it is within target.
struct Fit {
    bool ok = false, within = false;
    double total = 0, utilization = 0;
};

Fit fit_of(const Config& c) {
    Fit f;
    auto e = estimate(c);
    if (!e.ok) return f;
    for (const auto& g : e.value.fits)
        if (g.gpu_id == config_gpu_id(c)) {
            f.ok = true;
            // vLLM reserves its share of the GPU whatever the load: it fits when the KV pool holds the
            // sequences (the estimate's fit), the other engines when the total is within the target.
            f.within = c.task == Task::Inference && c.method == Method::Detailed && tensor_parallel_engine(c.inference.engine) ? g.fits : g.within_target;
            f.utilization = g.utilization;
            const GpuSpec* spec = config_gpu(c);
            f.total = spec ? g.utilization * spec->memory_bytes : e.value.total_bytes;
        }
    return f;
}


struct Candidate {
    const char* id;
    std::string label, detail;
    std::function<bool(Config&)> change;  // false: does not apply to this config
};

std::vector<Candidate> training_candidates(const Config& cfg) {
    std::vector<Candidate> out;
    const TrainingInputs& t = cfg.training;
    // What the run uses (auto resolved by the profile: full for a quantized base under peft).
    const std::string rc = recompute_name(resolved_recompute(cfg));
    out.push_back({"recompute_selective", "Selective activation recomputation", "training.recompute: " + rc + " -> selective",
                   [](Config& c) { return resolved_recompute(c) == Recompute::None ? (c.training.recompute = Recompute::Selective, true) : false; }});
    out.push_back({"recompute_full", "Full activation recomputation", "training.recompute: " + rc + " -> full",
                   [](Config& c) { return resolved_recompute(c) != Recompute::Full ? (c.training.recompute = Recompute::Full, true) : false; }});
    // Liger Kernel, where the logits and loss outweigh the activations and the stack and the model family take its
    // patches: its fused linear cross-entropy never holds the full logits (core/train/training.cpp).
    if (!t.liger && t.head == OutputHead::LanguageModel) {
        const ProfileBehaviour* profile = find_training_profile(t.profile);
        auto model = resolve_model(cfg.model);
        auto now = training_result(cfg);
        if (profile && profile->liger_patches && model.ok && liger_patch(model.value).flce && now.ok &&
            now.value.logits_loss > now.value.activations)
            out.push_back({"liger", "Liger Kernel (use_liger_kernel=True): the LM head and loss fused in chunks", "training.liger: false -> true",
                           [](Config& c) { c.training.liger = true; return true; }});
    }
    // Halve the micro-batch (down to 1) and double the accumulation steps: the global batch stays.
    for (double b = cfg.run.batch / 2; b >= 1; b /= 2) {
        const double steps = (t.grad_accum > 0 ? t.grad_accum : 1) * cfg.run.batch / b;
        out.push_back({"batch_accumulate", "Micro-batch " + num(b) + " with " + num(steps) + " accumulation steps",
                       "batch: " + num(cfg.run.batch) + " -> " + num(b) + ", training.grad_accum -> " + num(steps) + " (same global batch)",
                       [b, steps](Config& c) {
                           if (c.training.global_batch > 0) return false;  // the global batch sets the accumulation already
                           c.run.batch = b;
                           c.training.grad_accum = steps;
                           return true;
                       }});
    }
    if (cfg.task == Task::FineTune && t.finetune == FinetuneMethod::Full)
        out.push_back({"lora", "LoRA instead of full fine-tuning", "training.finetune: full -> lora",
                       [](Config& c) { c.training.finetune = FinetuneMethod::Lora; return true; }});
    if (cfg.task == Task::FineTune && t.finetune != FinetuneMethod::Qlora) {
        // Under a transformers 5 profile an MoE's routed experts, most of its weights, stay 16-bit.
        TrainingInputs qlora = t;
        qlora.finetune = FinetuneMethod::Qlora;
        const bool experts_left = experts_left_unquantized(qlora, cfg.model);
        out.push_back({"qlora", experts_left ? "QLoRA (4-bit NF4 base weights; the MoE's routed experts stay 16-bit)" : "QLoRA (4-bit NF4 base weights)",
                       "training.finetune -> qlora", [](Config& c) { c.training.finetune = FinetuneMethod::Qlora; return true; }});
    }
    // The routed experts a transformers 5 bitsandbytes base leaves unquantized, quantized at load
    // (Unsloth; Axolotl's quantize_moe_experts: true).
    if (experts_left_unquantized(t, cfg.model))
        out.push_back({"experts_quantized", "Quantize the MoE's routed experts too (Unsloth, or Axolotl with quantize_moe_experts: true)",
                       std::string("training.lora.experts_unquantized: ") + (t.lora.experts_unquantized == Toggle::Auto ? "auto (true)" : "true") +
                           " -> false",
                       [](Config& c) { c.training.lora.experts_unquantized = Toggle::Off; return true; }});
    // peft's FP32 cast of a quantized base's embedding, head and norms: TRL 0.26+ does not make it,
    // and a script may cast them back after prepare_model_for_kbit_training (docs/training.md).
    if (frozen_base_upcast(t))
        out.push_back({"frozen_16bit", "Keep the frozen embedding, LM head and norms in 16 bits (no FP32 cast, as TRL 0.26+)",
                       std::string("training.lora.upcast_frozen: ") + (t.lora.upcast_frozen == Toggle::Auto ? "auto (true)" : "true") + " -> false",
                       [](Config& c) { c.training.lora.upcast_frozen = Toggle::Off; return true; }});
    // peft's target_parameters merges each MoE layer's experts per forward and keeps them for backward;
    // Unsloth and Axolotl's MoE kernels apply the same adapters without that copy.
    if (t.finetune != FinetuneMethod::Full && resolved_expert_adapters(t, cfg.model) == ExpertAdapters::TargetParameters)
        out.push_back({"expert_adapters_unmerged", "MoE expert adapters without peft's merged weights (Unsloth, Axolotl's ScatterMoE/SonicMoE kernels)",
                       "training.lora.expert_adapters: target-parameters -> target-parameters-unmerged",
                       [](Config& c) { c.training.lora.expert_adapters = ExpertAdapters::TargetParametersUnmerged; return true; }});
    if (cfg.gpus > 1) {
        out.push_back({"zero2", "ZeRO-2: shard optimizer state and gradients", "training.sharding -> zero2",
                       [](Config& c) {
                           if (c.training.sharding == Sharding::Zero2 || c.training.sharding == Sharding::Zero3) return false;
                           c.training.sharding = Sharding::Zero2;
                           return true;
                       }});
        out.push_back({"zero3", "ZeRO-3 / FSDP: shard the weights too", "training.sharding -> zero3",
                       [](Config& c) { return c.training.sharding != Sharding::Zero3 ? (c.training.sharding = Sharding::Zero3, true) : false; }});
    }
    out.push_back({"offload_optimizer", "Optimizer state in host RAM (ZeRO-Offload)", "training.offload_optimizer: false -> true",
                   [](Config& c) { return !c.training.offload_optimizer ? (c.training.offload_optimizer = true, true) : false; }});
    // Shorter training sequences (truncation, or packing to a shorter length): halved down to 256
    // tokens; the longest that fits is offered, as for the micro-batch. It changes the data, so it
    // comes after every change that keeps it.
    for (double s = cfg.run.seq / 2; s >= kShortestSuggestedSeq && s == static_cast<long long>(s); s /= 2)
        out.push_back({"seq_shorter", "Sequences of " + num(s) + " tokens (truncated, or packed to that length)",
                       "seq: " + num(cfg.run.seq) + " -> " + num(s), [s](Config& c) { c.run.seq = s; return true; }});
    // More GPUs of the same type: the Fewest GPUs answer (data parallelism grown).
    auto more = solve(cfg, "min_gpus");
    if (more.ok && more.value.value > cfg.gpus) {
        const double n = more.value.value;
        out.push_back({"more_gpus", num(n) + " GPUs (" + more.value.explanation + ")", "gpus: " + num(cfg.gpus) + " -> " + num(n),
                       [n](Config& c) { c.gpus = n; c.parallel.dp = 0; c.training.global_batch = 0; return true; }});
    }
    return out;
}

std::vector<Candidate> inference_candidates(const Config& cfg) {
    std::vector<Candidate> out;
    const InferenceInputs& in = cfg.inference;
    if (const char* kv = quantized_kv_choice(in)) {
        out.push_back({"kv_dtype", std::string("KV cache in ") + kv, "inference.kv_dtype: " + in.kv_dtype + " -> " + kv,
                       [kv](Config& c) { c.inference.kv_dtype = kv; return true; }});
    }
    for (const char* q : {"max_context", "max_concurrency"}) {
        auto a = solve(cfg, q);
        if (!a.ok || a.value.value < 1) continue;
        const double v = a.value.value;
        if (std::string(q) == "max_context" && v < in.context)
            out.push_back({"context", "Context " + count_text(v) + " tokens", "inference.context: " + count_text(in.context) + " -> " + count_text(v),
                           [v](Config& c) { c.inference.context = static_cast<int>(v); return true; }});
        if (std::string(q) == "max_concurrency" && v < in.concurrency)
            out.push_back({"concurrency", num(v) + (v == 1 ? " sequence" : " sequences") + " at once", "inference.concurrency: " + num(in.concurrency) + " -> " + num(v),
                           [v](Config& c) { c.inference.concurrency = static_cast<int>(v); return true; }});
    }
    auto best = solve(cfg, "best_format");
    if (best.ok && !best.value.items.empty()) {
        // "q4_k_m: 4.89 bits ..." -> the id before the colon.
        const std::string first = best.value.items.front();
        const std::string id = first.substr(0, first.find(':'));
        if (find_weight_format(id) && id != in.weights.format)
            out.push_back({"format", "Weights in " + id, "inference.weights: " + in.weights.format + " -> " + id,
                           [id](Config& c) { c.inference.weights.format = id; return true; }});
    }
    auto more = solve(cfg, "min_gpus");
    if (more.ok && more.value.value > 1) {
        const double n = more.value.value;
        out.push_back({"more_gpus", num(n) + " GPUs", "inference.tp -> " + num(n), [n](Config& c) {
                           c.inference.tp = static_cast<int>(n);
                           c.gpus = n;
                           return true;
                       }});
    }
    return out;
}

// The changes among `candidates` that make `cfg` fit: single changes (the largest micro-batch or
// sequence that fits only), else pairs, the least disruptive first. `longer_pairs`: after a shorter
// sequence that fits alone, the pairs that keep a longer one too (a change that keeps the data with
// the longest sequence that then fits: full recomputation and 4,096 tokens beside 1,024 alone).
void suggest_from(const Config& cfg, const std::vector<const Candidate*>& candidates, size_t limit, std::vector<Suggestion>& out,
                  bool longer_pairs = false) {
    bool batch_found = false, seq_found = false;
    double seq_alone = 0;  // the longest sequence a single change fits
    for (const Candidate* cand : candidates) {
        if (out.size() >= limit) break;
        const bool is_batch = std::string(cand->id) == "batch_accumulate", is_seq = std::string(cand->id) == "seq_shorter";
        if ((is_batch && batch_found) || (is_seq && seq_found)) continue;
        Config c = cfg;
        if (!cand->change(c)) continue;
        const Fit f = fit_of(c);
        if (!f.ok || !f.within) continue;
        batch_found = batch_found || is_batch;
        seq_found = seq_found || is_seq;
        if (is_seq) seq_alone = c.run.seq;
        out.push_back({cand->id, cand->label, cand->detail, c, f.total, f.utilization});
    }
    if (!out.empty() && !(longer_pairs && seq_found)) return;
    // No single change is enough: two together, the least disruptive pairs first.
    for (size_t i = 0; i < candidates.size() && out.size() < limit; ++i)
        for (size_t j = i + 1; j < candidates.size() && out.size() < limit; ++j) {
            const std::string a = candidates[i]->id, b = candidates[j]->id;
            if (a == b || (a.rfind("recompute", 0) == 0 && b.rfind("recompute", 0) == 0)) continue;
            bool taken = false;  // one pair per first change: its least disruptive partner
            for (const auto& s : out) taken = taken || s.id.rfind(a + "+", 0) == 0;
            if (taken) continue;
            Config c = cfg;
            if (!candidates[i]->change(c) || !candidates[j]->change(c)) continue;
            if (seq_alone > 0 && c.run.seq <= seq_alone) continue;  // no longer than the single change's
            const Fit f = fit_of(c);
            if (!f.ok || !f.within) continue;
            std::string second = candidates[j]->label;
            if (!second.empty() && second[0] >= 'A' && second[0] <= 'Z' && !(second.size() > 1 && second[1] >= 'A' && second[1] <= 'Z'))
                second[0] = static_cast<char>(second[0] - 'A' + 'a');  // "Micro-batch" -> "micro-batch", "ZeRO-3" stays
            out.push_back({a + "+" + b, candidates[i]->label + ", and " + second, candidates[i]->detail + "; " + candidates[j]->detail,
                           c, f.total, f.utilization});
        }
}

}  // namespace

std::vector<Suggestion> fit_suggestions(const Config& in, size_t limit) {
    std::vector<Suggestion> out;
    if (!config_gpu(in)) return out;
    Config cfg = in;
    cfg.method = Method::Detailed;
    const Fit now = fit_of(cfg);
    if (!now.ok || now.within) return out;
    const auto all = cfg.task == Task::Inference ? inference_candidates(cfg) : training_candidates(cfg);
    // Changes that keep the training data first (singles, then pairs); shorter sequences only when
    // none of those makes it fit.
    std::vector<const Candidate*> keeping, every;
    for (const auto& cand : all) {
        every.push_back(&cand);
        if (std::string(cand.id) != "seq_shorter") keeping.push_back(&cand);
    }
    suggest_from(cfg, keeping, limit, out);
    if (out.empty() && keeping.size() < every.size()) suggest_from(cfg, every, limit, out, true);
    return out;
}

}  // namespace vc
