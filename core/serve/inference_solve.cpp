// vramcalc core: inference "what fits" solvers. Memory grows monotonically with the context and
// with the number of sequences, so each answer is the largest integer whose slack (capacity less
// need) is still >= 0. Slack is piecewise linear (quadratic with eager attention), so a secant
// search (Illinois) needs a handful of evaluations instead of a bisection's two dozen.
#include "core/serve/inference_solve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>

#include "core/config.hpp"
#include "core/serve/llamacpp.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace vc {
namespace {

constexpr double kMaxSolveConcurrency = 1 << 20;

// The most sequences an answer tries: llama.cpp runs at most constants.llamacpp_max_seq
// (LLAMA_MAX_SEQ) whatever memory allows; the other engines queue what their memory does not hold.
double max_sequences(const InferencePlan& p) {
    return p.engine == Engine::LlamaCpp ? std::min(kMaxSolveConcurrency, p.in.constants.llamacpp_max_seq) : kMaxSolveConcurrency;
}

// What stops max_concurrency at llama.cpp's own cap (" (the GPU part alone)" follows where RAM was not checked).
std::string max_seq_text(const InferencePlan& p) {
    return "; llama.cpp runs at most " + num(p.in.constants.llamacpp_max_seq) + " sequences (LLAMA_MAX_SEQ: inference.constants.llamacpp_max_seq)";
}

// Largest integer x in [1, hi] with slack(x) >= 0, for slack decreasing in x; 0 if slack(1) < 0.
template <typename Slack>
double largest_fitting(Slack slack, double hi) {
    double lo = 1;
    double s_lo = slack(lo);
    if (s_lo < 0) return 0;
    double s_hi = slack(hi);
    if (s_hi >= 0) return hi;
    int side = 0;
    for (int iter = 0; hi - lo > 1; ++iter) {
        double x;
        if (iter < 12) {
            x = lo + std::floor((hi - lo) * (s_lo / (s_lo - s_hi)));
            x = std::min(std::max(x, lo + 1), hi - 1);
        } else {
            x = std::floor((lo + hi) / 2);  // rare: fall back to bisection
        }
        const double s = slack(x);
        if (s >= 0) {
            lo = x;
            s_lo = s;
            if (side == 1) s_hi /= 2;  // Illinois: the stale end's weight halves
            side = 1;
        } else {
            hi = x;
            s_hi = s;
            if (side == -1) s_lo /= 2;
            side = -1;
        }
    }
    return lo;
}

// What the answers may fill on one GPU: its share (its memory, a Mac's working-set limit under
// llama.cpp: InferencePlan::gpu_capacity) x `share`, the test fits_at makes.
double capacity(const InferencePlan& p, double share) { return p.has_gpu ? p.gpu_capacity * share : 0; }

// What system RAM has left for llama.cpp's host buffers at this shape (infinity when RAM is not
// checked: no size given, another engine, or no GPU, which the CPU-only answers handle).
double ram_slack(const InferencePlan& p, double context, double n, double share) {
    if (p.engine != Engine::LlamaCpp || !p.has_gpu || p.ram_bytes <= 0) return std::numeric_limits<double>::infinity();
    const LlamaCppBuffers b = llamacpp_buffers(p, context, n);
    double host = b.host.total();
    if (p.gpu->unified) for (const auto& g : b.gpus) host += g.total();
    return p.ram_bytes * share - host;
}

double slack(const InferencePlan& p, double context, double n, double share) {
    if (p.engine == Engine::Vllm) return p.pool - n * kv_sequence_bytes(p.kv, context, p.block);
    // SGLang: the pool's tokens, max_running_requests and the GPU's whole memory (sglang_fits), each decreasing.
    if (p.engine == Engine::Sglang) {
        if (!p.has_gpu || p.sglang.max_total_tokens <= 0) return -1;
        return std::min({p.sglang.max_total_tokens - n * sglang_sequence_tokens(p, context), sglang_max_running(p, context) - n,
                         p.gpu_capacity - sglang_gpu_bytes(p, context)});
    }
    const double gpu = capacity(p, share) - memory_at(p, context, n).total();
    // System RAM (when given) bounds llama.cpp's context as fits_at checks it: the KV of the layers
    // left on the CPU (-ngl below the layer count), every layer's with -nkvo, and the host compute
    // buffer grow with the context in host RAM (on a unified Mac, the GPU's buffers are in it too).
    const double ram = ram_slack(p, context, n, share);
    return std::min(gpu, ram);
}

// [SECTION] automatic placement -------------------------------------------------------------------
// With -ngl unset (placement_follows_shape: llama-server's --fit, Ollama's automatic num_gpu) the
// engine places the layers for the shape it starts with, so each shape an answer tries is placed
// again by the same function the estimate places with (place_at_shape). The engine runs a shape
// when it keeps at least one of its layers (the output layer first) on the GPU: its own test, within
// --fit's margin (constants.fit_target_bytes) by construction, not target_utilization, which the
// engine does not know; with a RAM size, the host buffers must be within it at the target, as
// fits_at holds them. Fewer layers at a longer context or more sequences: monotone in both.
bool engine_runs(const InferencePlan& q, double c, double n, double share) { return q.auto_gpu_layers >= 1 && ram_slack(q, c, n, share) >= 0; }

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes_to_gib(bytes));
    return buf;
}

std::string sequences(double n) { return num(n) + (n == 1 ? " sequence" : " sequences"); }

// What binds when system RAM stops an answer: on a Mac the unified memory, which holds every buffer
// (the GPU's within its working-set limit as well as the layers left on the CPU); elsewhere the
// system RAM that holds the host buffers (`host_what` says which).
std::string ram_binds_text(const InferencePlan& p, double share, const char* host_what) {
    const std::string at = gib(p.ram_bytes) + " at " + num(share * 100) + "% holds ";
    if (p.gpu->unified)
        return "; the unified memory binds: " + at + "every buffer (the GPU's, within its " + gib(p.gpu_capacity) +
               " working-set limit, and the host's: " + host_what + ")";
    return "; system RAM binds: " + at + "the host buffers (" + host_what + ")";
}

std::string where(const InferencePlan& p) {
    std::string s = (p.tp > 1 ? num(p.tp) + " x " : std::string()) + p.gpu->name;
    if (p.engine == Engine::Vllm && p.pool > 0) s += " (vLLM pool " + gib(p.pool) + " per GPU)";
    else if (p.engine == Engine::Sglang) {  // snprintf: the page's size budget
        char buf[160];
        if (p.sglang.max_total_tokens > 0)
            std::snprintf(buf, sizeof buf, " (SGLang pool %s tokens, %.2f GiB per GPU)", count_text(p.sglang.max_total_tokens).c_str(), bytes_to_gib(p.pool));
        else
            std::snprintf(buf, sizeof buf, " (no SGLang pool: weights %.2f GiB per GPU exceed mem_fraction_static %g x %.2f GiB)", bytes_to_gib(p.weights_gpu),
                          p.sglang.mem_fraction_static, bytes_to_gib(p.sglang.total_free));
        s += buf;
    }
    else if (p.engine == Engine::Vllm)
        s += " (no vLLM pool: weights " + gib(p.weights_gpu) + " + activation peak " + gib(p.activation_peak) + " + non-torch " +
             gib(p.runtime_gpu) + " per GPU exceed the budget " + gib(p.budget) + ")";
    else s += " at " + num(p.target_utilization * 100) + "% of " + gib(p.gpu_capacity) +
              (p.gpu_capacity != p.gpu->memory_bytes ? " (its GPU working-set limit)" : "");
    return s;
}

// What the text adds when the answer's layout keeps layers, experts or KV in system RAM of no stated
// size (the verdict's rule, verdict_at: the GPU table's needs_ram_bytes): the value is the GPU part's.
std::string unchecked_ram_text(double needs_ram, const char* at) {
    char buf[224];
    std::snprintf(buf, sizeof buf, "; bounded by the GPU part alone: needs %.2f GB (%.2f GiB) of system RAM%s, not checked (give inference.host.ram_gib, --ram-gib)",
                  bytes_to_gb(needs_ram), bytes_to_gib(needs_ram), at);
    return buf;
}

// `needs_ram` > 0: the answer's layout needs that much system RAM nobody checked (`at` says where
// in the answer: " at that context").
Outcome<Answer> answer(const char* question, const char* label, double value, const char* unit, std::string explanation, double needs_ram = 0,
                       const char* at = "") {
    Answer a;
    a.question = question;
    a.label = label;
    a.value = value;
    a.unit = unit;
    a.explanation = std::move(explanation);
    if (needs_ram > 0) a.needs_ram_bytes = needs_ram, a.explanation += unchecked_ram_text(needs_ram, at);
    return Outcome<Answer>::success(a);
}

// max_context (`context_axis`) or max_concurrency under automatic placement: the longest context or
// the most sequences at which the engine, placing the layers for that shape, still runs
// (engine_runs), at most the model's context window; the text says what it placed there, how full
// that leaves the GPU, and what stops one more; the RAM it needs there by the verdict's rule.
Outcome<Answer> engine_placed_answer(const InferencePlan& base, bool context_axis) {
    const double c0 = base.in.context, n0 = base.in.concurrency, share = budget_share(base), limit = base.model.context_limit;
    InferencePlan q = base;
    auto at = [&](double x) {
        const double c = context_axis ? x : c0, n = context_axis ? n0 : x;
        place_at_shape(q, c, n);
        return engine_runs(q, c, n, share);
    };
    const double hi = !context_axis ? max_sequences(base) : limit > 0 ? std::min<double>(limit, kMaxSolveContext) : kMaxSolveContext;
    const double v = last_fitting(at, hi);  // the placement moves in whole layers, so the slack jumps: a bisection
    const char* engine = base.in.llamacpp.ollama ? "Ollama's automatic num_gpu" : "llama-server's --fit";
    const char* unit = context_axis ? "token" : "sequence";
    const std::string on = " on " + (base.tp > 1 ? num(base.tp) + " x " : std::string()) + base.gpu->name;
    // What stops the next shape (v == 0: the first): no layer left on the GPU, or system RAM.
    std::string stop;
    if (v < hi) {
        at(v + 1);
        stop = q.auto_gpu_layers < 1 ? std::string(v > 0 ? "; one more " : "; even 1 ") + unit + " leaves no layer on the GPU"
                                     : ram_binds_text(q, share, "the layers left on the CPU and their KV");
    } else if (!context_axis) {
        stop = max_seq_text(base);
    }
    std::string why = context_axis ? sequences(n0) + on : num(c0) + "-token sequences" + on;
    if (v > 0) {
        const double c = context_axis ? v : c0, n = context_axis ? n0 : v;
        at(v);
        char buf[200];  // snprintf: the page's size budget
        const double used = memory_at(q, c, n).total() / q.gpu_capacity;
        std::snprintf(buf, sizeof buf, " there, %.1f%% of %s memory (--fit leaves %.2f GiB free per GPU", used * 100, q.n_devices > 1 ? "the fullest GPU's" : "its",
                      bytes_to_gib(q.in.constants.fit_target_bytes));
        why += std::string(": ") + engine + ", placed again at each " + (context_axis ? "context" : "count") + ", puts " + llamacpp_fit_placement(q) + buf +
               (used > share ? ", past the " + num(share * 100) + "% target)" : std::string(")"));
        if (context_axis && v == limit) why = count_text(limit) + " tokens: the model's context window; " + why;
    }
    why += stop;
    return context_axis ? answer("max_context", "Longest context at the concurrency", v, "tokens", why, v > 0 ? verdict_at(q, v, n0, share).needs_ram_bytes : 0, " at that context")
                        : answer("max_concurrency", "Most sequences at the context", v, "sequences", why, v > 0 ? verdict_at(q, c0, v, share).needs_ram_bytes : 0, " at that count");
}

// The first GPU count at which `cfg`'s load is within the target by the GPU table's rule
// (verdict_at, GpuFit::gpus_needed): a count whose llama.cpp split keeps layers, experts or KV in
// system RAM of no stated size is skipped. With none up to 64, the first count whose GPU part fits
// with such RAM (Answer::needs_ram_bytes), else 0.
Outcome<Answer> min_gpus(const Config& cfg, const InferencePlan& base) {
    const double c = cfg.inference.context, n = cfg.inference.concurrency;
    const bool vllm = tensor_parallel_engine(base.engine);  // tensor-parallel degrees 1, 2, 4, ...
    std::string last_error, gpu_part;
    int gpu_part_count = 0;
    double gpu_part_ram = 0;
    // A Mac is one machine (apply_one_machine_rule, core/estimate.hpp): one GPU or none.
    const int most = base.gpu->unified ? 1 : 64;
    for (int count = 1; count <= most; count = vllm ? count * 2 : count + 1) {
        auto r = make_inference_plan(cfg, count);
        if (!r.ok) {
            last_error = r.error.message;
            continue;
        }
        const ShapeVerdict v = verdict_at(r.value, c, n, budget_share(r.value));
        if (!v.gpu_within) continue;
        const std::string on = sequences(n) + " of " + num(c) + " tokens fit on " + where(r.value) +
                               (vllm ? " with tensor parallelism " + num(count) : std::string(", layers split ") + num(count) + " ways");
        if (v.within())
            return answer("min_gpus", "Fewest GPUs", count, "GPUs",
                          on + (gpu_part_count > 0 ? "; the GPU part alone fits on " + num(gpu_part_count) + " with system RAM nobody checked" : std::string()));
        if (gpu_part_count == 0) gpu_part_count = count, gpu_part_ram = v.needs_ram_bytes, gpu_part = on;
    }
    if (gpu_part_count > 0)
        return answer("min_gpus", "Fewest GPUs", gpu_part_count, "GPUs", gpu_part + " (no count up to " + num(most) + " keeps the split off system RAM)",
                      gpu_part_ram, " at that split");
    return answer("min_gpus", "Fewest GPUs", 0, "GPUs",
                  (most == 1 ? "a Mac is one machine: does not fit on one " : "does not fit on up to 64 x ") + base.gpu->name +
                      (last_error.empty() ? std::string() : " (" + last_error + ")"));
}

// No format fits: the quantized KV cache `suggest` offers (quantized_kv_choice, the one rule for
// best_format and best_local_format) may make one fit; the best that then does, in the table's order
// among those `listed`, is named with the field to change. `fits(q, f)` says what format f does
// under q, the config with that cache ("GGUF Q8_0 fits"), "" where it does not; "" when no such cache.
template <typename Listed, typename Fits>
std::string quantized_kv_clause(const Config& cfg, Listed listed, Fits fits) {
    const char* kv = quantized_kv_choice(cfg.inference);
    if (!kv) return std::string();
    Config q = cfg;
    q.inference.kv_dtype = kv;
    for (const auto& f : weight_formats()) {
        if (!listed(f)) continue;
        if (const std::string does = fits(q, f); !does.empty()) return std::string("; with the KV cache in ") + kv + " (inference.kv_dtype, as suggest offers) " + does;
    }
    return std::string();
}

Outcome<Answer> best_format(const Config& cfg, const InferencePlan& base) {
    const double c = cfg.inference.context, n = cfg.inference.concurrency;
    const unsigned mask = engine_mask(base.engine);
    Answer a;
    a.question = "best_format";
    a.label = "Best weight formats that fit";
    a.unit = "formats";
    std::string best, ram_best;
    int ram_formats = 0;  // better formats whose GPU part fits with system RAM nobody checked
    double ram_needs = 0;
    // One 16-bit entry stands for the checkpoint: FP32 adds no quality to a 16-bit model,
    // FP16 equals BF16 in size, and llama.cpp lists GGUF F16/BF16 instead.
    auto listed = [&](const WeightFormat& f) {
        const std::string id = f.id;
        return (f.engines & mask) && id != "fp32" && id != "fp16" && id != "gguf-f32" && !(base.engine == Engine::LlamaCpp && f.family == FormatFamily::Float) &&
               !(ternary_only(f) && !ternary_only(*base.format)) &&
               // transformers' MXFP4 replaces gpt-oss-style MoE experts alone (quantizer_mxfp4.py): no dense model loads it.
               !(base.engine == Engine::Hf && id == "mxfp4" && base.model.experts == 0);
    };
    for (const auto& f : weight_formats()) {
        if (!listed(f)) continue;
        auto r = make_inference_plan(cfg, 0, f.id);
        // A format transformers dequantizes on this GPU (hf_dequantizes) is BF16 there, not that format.
        if (!r.ok || r.value.hf_dequantized) continue;
        // The GPU table's rule (verdict_at): a split that keeps layers, experts or KV in system RAM
        // of no stated size is not a fit; the text names the best such format.
        const ShapeVerdict v = verdict_at(r.value, c, n, budget_share(r.value));
        if (!v.gpu_within) continue;
        if (!v.within()) {
            if (a.items.empty() && ram_formats++ == 0) ram_best = f.label, ram_needs = v.needs_ram_bytes;
            continue;
        }
        a.items.push_back(f.id);
        if (best.empty()) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "%.3g bits/weight", r.value.weights.bits_per_weight);
            best = std::string(f.label) + " (" + buf + ", " + gib(r.value.weights.total) + ")";
        }
    }
    a.value = static_cast<double>(a.items.size());
    a.explanation = a.items.empty() ? "no format fits " + sequences(n) + " of " + num(c) + " tokens on " + where(base)
                                    : "best quality that fits: " + best + "; listed best first, for " + sequences(n) + " of " +
                                          num(c) + " tokens on " + where(base);
    if (a.items.empty())
        a.explanation += quantized_kv_clause(cfg, listed, [&](const Config& q, const WeightFormat& f) {
            auto r = make_inference_plan(q, 0, f.id);
            return r.ok && !r.value.hf_dequantized && verdict_at(r.value, c, n, budget_share(r.value)).within() ? std::string(f.label) + " fits" : std::string();
        });
    if (ram_formats > 0) {  // snprintf: the page's size budget
        char buf[256];
        std::snprintf(buf, sizeof buf, "; the GPU part of %d %sformat%s fits with system RAM nobody checked (the best, %s, needs %.2f GB (%.2f GiB); give inference.host.ram_gib, --ram-gib)",
                      ram_formats, a.items.empty() ? "" : "better ", ram_formats == 1 ? "" : "s", ram_best.c_str(), bytes_to_gb(ram_needs), bytes_to_gib(ram_needs));
        a.explanation += buf;
    }
    return Outcome<Answer>::success(a);
}

}  // namespace

int max_gpu_layers(const Config& cfg, const std::string& format, double c, double n) {
    Config t = cfg;
    int best = -1;
    const int layers = make_inference_plan(cfg, 0, format).ok ? make_inference_plan(cfg, 0, format).value.model.layers : 0;
    for (int ngl = 0; ngl <= layers + 1; ++ngl) {  // memory on the fullest GPU is not monotone under a split: scan
        t.inference.llamacpp.n_gpu_layers = ngl;
        auto r = make_inference_plan(t, 0, format);
        if (r.ok && fits_at(r.value, c, n, budget_share(r.value))) best = ngl;
    }
    return best;
}

namespace {

Outcome<Answer> llamacpp_answers(const Config& cfg, const InferencePlan& base, const std::string& question) {
    if (base.engine != Engine::LlamaCpp)
        return Outcome<Answer>::failure("question", "question \"" + question + "\" is about llama.cpp: set inference.engine to \"llama.cpp\"");
    const double c = cfg.inference.context, n = cfg.inference.concurrency;
    const int layers = base.model.layers;
    // The system RAM a split needs that nothing checked (the GPU table's rule, verdict_at).
    auto needs_ram = [&](const InferencePlan& q) { return verdict_at(q, c, n, budget_share(q)).needs_ram_bytes; };
    if (question == "max_gpu_layers") {
        const int ngl = max_gpu_layers(cfg, "", c, n);
        double ram = 0;
        if (ngl >= 0) {
            Config t = cfg;
            t.inference.llamacpp.n_gpu_layers = ngl;
            if (const auto r = make_inference_plan(t); r.ok) ram = needs_ram(r.value);
        }
        return answer("max_gpu_layers", "Most layers on the GPU", std::max(ngl, 0), "layers",
                      ngl < 0 ? "not even -ngl 0 fits (" + sequences(n) + " of " + num(c) + " tokens) on " + where(base)
                              : "-ngl " + num(ngl) + " of " + num(layers + 1) + (ngl > layers ? " (every layer and the output layer)" : "") +
                                    " for " + sequences(n) + " of " + num(c) + " tokens on " + where(base),
                      ram, " for the rest");
    }
    if (question == "max_gpu_experts") {
        if (base.model.experts == 0) return answer("max_gpu_experts", "MoE layers with experts on the GPU", 0, "layers", "the model has no experts");
        Config t = cfg;
        t.inference.llamacpp.n_gpu_layers = -1;  // the usual pairing: -ngl 99 --n-cpu-moe N
        t.inference.llamacpp.fit = false;         // -ngl given: --fit moves no layer
        for (int k = 0; k <= layers; ++k) {
            t.inference.llamacpp.n_cpu_moe = k;
            auto r = make_inference_plan(t);
            if (r.ok && fits_at(r.value, c, n, budget_share(r.value))) {
                const Speed s = inference_speed(r.value, c, n, c);
                return answer("max_gpu_experts", "MoE layers with experts on the GPU", layers - k, "layers",
                              "-ngl " + num(layers + 1) + " --n-cpu-moe " + num(k) + ": the routed experts of " + num(layers - k) + " of " + num(layers) +
                                  " layers on the GPU, the rest in system RAM; " + num(std::round(s.tokens_per_s * 10) / 10) + " tokens/s on " + where(r.value),
                              needs_ram(r.value), " for the rest");
            }
        }
        return answer("max_gpu_experts", "MoE layers with experts on the GPU", 0, "layers",
                      "even with every expert in system RAM (--n-cpu-moe " + num(layers) + ") the rest does not fit " + where(base));
    }
    // best_local_format: each GGUF type at its largest -ngl; the best quality that runs.
    Answer a;
    a.question = "best_local_format";
    a.label = "Best GGUF type for GPU + system RAM";
    a.unit = "formats";
    std::string best;
    double best_needs = 0;
    auto listed = [&](const WeightFormat& f) { return f.family == FormatFamily::Gguf && std::string(f.id) != "gguf-f32" && !(ternary_only(f) && !ternary_only(*base.format)); };
    for (const auto& f : weight_formats()) {
        if (!listed(f)) continue;
        const int ngl = max_gpu_layers(cfg, f.id, c, n);
        if (ngl < 0) continue;
        Config t = cfg;
        t.inference.llamacpp.n_gpu_layers = ngl;
        auto r = make_inference_plan(t, 0, f.id);
        if (!r.ok) continue;
        const Speed s = inference_speed(r.value, c, n, c);
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s (-ngl %d, %.1f tokens/s)", f.id, ngl, s.tokens_per_s);
        a.items.push_back(buf);
        if (best.empty()) best = buf, best_needs = needs_ram(r.value);
    }
    a.value = static_cast<double>(a.items.size());
    a.explanation = a.items.empty() ? "no GGUF type runs " + sequences(n) + " of " + num(c) + " tokens on " + where(base)
                                    : "best quality that runs: " + best + (base.ram_bytes > 0 ? ", within " + gib(base.ram_bytes) + " of system RAM" : std::string());
    if (a.items.empty())
        a.explanation += quantized_kv_clause(cfg, listed, [&](const Config& q, const WeightFormat& f) {
            const int ngl = max_gpu_layers(q, f.id, c, n);
            return ngl >= 0 ? std::string(f.id) + " runs at -ngl " + num(ngl) : std::string();
        });
    if (best_needs > 0) a.needs_ram_bytes = best_needs, a.explanation += unchecked_ram_text(best_needs, " for the rest");
    return Outcome<Answer>::success(a);
}

}  // namespace

namespace {

// vLLM in closed form. n sequences of k blocks need n x block x (b_full k + b_win min(k, k_win))
// bytes of pool, where b_full / b_win are the per-token bytes of the full-attention and the
// sliding-window layers and k_win the window in blocks: invert the line segment that holds the
// pool, then confirm with the same formula. `ok` is false when the layout is not of that shape.
struct VllmShape {
    bool ok = true;
    double full = 0, win = 0, k_win = 0, block = 16, pool = 0;
};

VllmShape vllm_shape(const InferencePlan& p) {
    VllmShape s;
    s.block = p.block;
    s.pool = p.pool;
    for (int g = 0; g < p.kv.group_count; ++g) {
        const KvGroup& grp = p.kv.groups[g];
        if (grp.cap_tokens > 0) {
            if (s.win > 0) s.ok = false;
            s.win = grp.bytes_per_token;
            s.k_win = std::ceil(grp.cap_tokens / p.block);
        } else {
            s.full += grp.bytes_per_token;
        }
    }
    return s;
}

double vllm_longest_context(const VllmShape& s, double n) {
    if (s.pool <= 0) return 0;
    const double per_block_budget = s.pool / (n * s.block);  // bytes per token-slot available to each block
    double k = std::floor(per_block_budget / (s.full + s.win));
    if (s.win > 0 && k > s.k_win) {
        if (s.full <= 0) return kMaxSolveContext;  // every layer windowed: memory stops growing
        k = std::floor((per_block_budget - s.win * s.k_win) / s.full);
    } else if (s.win > 0 && s.full <= 0 && k >= s.k_win) {
        return kMaxSolveContext;
    }
    k = std::min(k, kMaxSolveContext / s.block);
    // Guard against rounding in the divisions: step back while the pool does not hold n x k blocks.
    while (k > 0 && n * s.block * (s.full * k + s.win * std::min(k, s.k_win)) > s.pool) --k;
    return std::max(k, 0.0) * s.block;
}

}  // namespace

double longest_context(const InferencePlan& p, double n, double share) {
    if (p.engine == Engine::Vllm && p.block > 0) {
        const VllmShape s = vllm_shape(p);
        if (s.ok) return vllm_longest_context(s, n);
    }
    return largest_fitting([&](double c) { return slack(p, c, n, share); }, kMaxSolveContext);
}

std::vector<double> longest_context_curve(const InferencePlan& p, const std::vector<int>& concurrencies, double share) {
    std::vector<double> out;
    out.reserve(concurrencies.size());
    const VllmShape s = p.engine == Engine::Vllm && p.block > 0 ? vllm_shape(p) : VllmShape{false};
    for (int n : concurrencies) out.push_back(s.ok ? vllm_longest_context(s, n) : longest_context(p, n, share));
    return out;
}

double most_sequences(const InferencePlan& p, double context, double share) {
    return largest_fitting([&](double n) { return slack(p, context, n, share); }, max_sequences(p));
}

Outcome<Answer> solve_inference(const Config& asked, const std::string& question) {
    auto rp = make_inference_plan(asked);
    if (!rp.ok) return Outcome<Answer>::failure(rp.error);
    const InferencePlan& p = rp.value;
    // Every answer at the context the engine runs (Ollama lowers a num_ctx above the window: start_plan).
    Config cfg = asked;
    cfg.inference.context = p.in.context;
    if (!p.has_gpu) return Outcome<Answer>::failure("gpu", "the inference questions need a GPU: set gpu (vramcalc --list-gpus) or inference.gpu_custom");
    const double c = cfg.inference.context, n = cfg.inference.concurrency, share = budget_share(p);

    // -ngl unset: the engine places the layers for each shape tried.
    if ((question == "max_context" || question == "max_concurrency") && placement_follows_shape(p)) return engine_placed_answer(p, question == "max_context");
    if (question == "max_context") {
        const double memory = longest_context(p, n, share);
        std::string why = memory >= kMaxSolveContext ? "memory stops growing: every layer keeps at most its window"
                                                     : sequences(n) + " on " + where(p);
        // The model's context window bounds the answer; memory alone may allow more.
        const double limit = p.model.context_limit;
        const double v = limit > 0 && memory > limit ? limit : memory;
        if (v < memory)
            why = count_text(limit) + " tokens: the model's context window (memory would allow " +
                  (memory >= kMaxSolveContext ? std::string("any length: every layer keeps at most its window")
                                              : count_text(memory) + " for " + sequences(n) + " on " + where(p)) +
                  ")";
        if (p.engine == Engine::Vllm && n > p.in.vllm.max_num_seqs) why += "; note vLLM runs at most max_num_seqs " + num(p.in.vllm.max_num_seqs) + " at once";
        // Which memory stops it: system RAM when one more token would not fit there (llama.cpp's
        // host buffers: the CPU layers' KV, every layer's with -nkvo).
        if (memory < kMaxSolveContext && ram_slack(p, memory + 1, n, share) < 0)
            why += ram_binds_text(p, share, p.in.llamacpp.no_kv_offload ? "-nkvo: every layer's KV" : "the KV of the layers left on the CPU");
        // A split that keeps layers, experts or KV (-nkvo) in system RAM of no stated size: the
        // answer is the GPU part's, with the RAM it takes at that context (the verdict's rule).
        return answer("max_context", "Longest context at the concurrency", v, "tokens", why, v > 0 ? verdict_at(p, v, n, share).needs_ram_bytes : 0,
                      " at that context");
    }
    if (question == "max_concurrency") {
        const double v = most_sequences(p, c, share);
        return answer("max_concurrency", "Most sequences at the context", v, "sequences",
                      num(c) + "-token sequences, " + gib(kv_sequence_bytes(p.kv, c, tensor_parallel_engine(p.engine) ? p.block : 0) * p.kv_share) +
                          " of KV each, on " + where(p) + (v > 0 && v >= max_sequences(p) && p.engine == Engine::LlamaCpp ? max_seq_text(p) : std::string()),
                      v > 0 ? verdict_at(p, c, v, share).needs_ram_bytes : 0, " at that count");
    }
    if (question == "kv_capacity") {
        const double per_token = p.kv.bytes_per_token * p.kv_share;
        double free_bytes;
        if (p.engine == Engine::Sglang)
            return answer("kv_capacity", "KV cache capacity", p.sglang.max_total_tokens, "tokens",
                          "max_total_num_tokens: mem_fraction_static of the free memory less the weights, by the bytes of a token, on " + where(p));
        if (p.engine == Engine::Vllm) {
            const VllmCapacity cap = vllm_capacity(p, c);
            if (p.kv.block_bytes > 0)
                return answer("kv_capacity", "KV cache capacity", cap.tokens, "tokens",
                              num(cap.blocks) + " blocks of " + num(p.kv.block_bytes / 1048576.0) + " MiB (" + num(p.block) +
                                  "-token pages) in the pool on " + where(p) + ", " + gib(kv_sequence_bytes(p.kv, c, p.block)) + " a " + num(c) +
                                  "-token sequence with its recurrent state (" + gib(p.kv.state_bytes) + ")");
            return answer("kv_capacity", "KV cache capacity", cap.tokens, "tokens",
                          num(cap.blocks) + " blocks of " + num(p.block) + " tokens x " + num(p.kv.bytes_per_token) + " B per token in the pool on " + where(p));
        }
        const MemoryAt mem = memory_at(p, c, n);
        free_bytes = capacity(p, share) - (mem.total() - mem.kv) - mem.state;  // a hybrid's states hold no token
        const double v = free_bytes > 0 && per_token > 0 ? std::floor(free_bytes / per_token) : 0;
        return answer("kv_capacity", "KV cache capacity", v, "tokens",
                      gib(std::max(0.0, free_bytes)) + " left after weights and activations" +
                          (mem.state > 0 ? " and " + gib(mem.state) + " of recurrent state" : std::string()) + " / " + num(per_token) +
                          " B per token on " + where(p),
                      v > 0 ? verdict_at(p, c, n, share).needs_ram_bytes : 0, " at the config's context");
    }
    if (question == "min_gpus") return min_gpus(cfg, p);
    if (question == "best_format") return best_format(cfg, p);
    if (question == "max_gpu_layers" || question == "max_gpu_experts" || question == "best_local_format") return llamacpp_answers(cfg, p, question);
    return Outcome<Answer>::failure("question", "question \"" + question + "\" is not an inference question");
}

}  // namespace vc
