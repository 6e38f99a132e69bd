// vramcalc io: calibration rows of the inference model (docs/accuracy.md, "Inference rows"):
//   inference  Hugging Face generate, torch.cuda.max_memory_allocated ("alloc") and the like
//   serve      a vLLM memory-profile line: the quantity the note names first ("weights; ...")
//   file       a GGUF file's size
// Each row becomes a detailed-inference Config from its columns; nothing is taken from the
// measured figures in the note.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/text.hpp"
#include "core/estimate.hpp"
#include "core/catalog/gpus.hpp"
#include "core/quant/quant.hpp"
#include "core/serve/inference.hpp"
#include "core/units.hpp"
#include "calibration.hpp"

namespace vc::io {
namespace {

bool has(const std::string& text, const char* word) { return ascii_lower(text).find(word) != std::string::npos; }

// The number before `suffix` in `text` ("~20-token prompt" -> 20 for "-token prompt"); 0 if none.
double number_before(const std::string& text, const char* suffix) {
    const std::string t = ascii_lower(text);
    const size_t at = t.find(suffix);
    if (at == std::string::npos) return 0;
    size_t start = at;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(t[start - 1])) || t[start - 1] == '.')) --start;
    return start < at ? std::atof(t.c_str() + start) : 0;
}

// The number after `key` where the key starts a word ("max_model_len 8192", "util 0.90", "tp 4" but
// not "output 4"); `fallback` if no occurrence is followed by a number.
double number_after(const std::string& text, const char* key, double fallback) {
    const std::string t = ascii_lower(text), k = key;
    for (size_t at = t.find(k); at != std::string::npos; at = t.find(k, at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(t[at - 1])) || t[at - 1] == '_')) continue;
        size_t i = at + k.size();
        while (i < t.size() && (t[i] == ' ' || t[i] == '=' || t[i] == ':')) ++i;
        if (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) return std::atof(t.c_str() + i);
    }
    return fallback;
}

// The minor version after "transformers 4." / "transformers==4." / "transformers v4." (0: none).
double transformers_minor(const std::string& text) {
    const std::string t = ascii_lower(text);
    for (const char* key : {"transformers 4.", "transformers==4.", "transformers v4.", "transformers-4."}) {
        const size_t at = t.find(key);
        if (at != std::string::npos) return std::atof(t.c_str() + at + std::string(key).size());
    }
    return 0;
}


// The row's config; a number that does not fit its field's int sets `err` (the row is skipped).
Config row_config(const CalibrationRow& row, Engine engine, Error& err) {
    Config cfg;
    cfg.method = Method::Detailed;
    cfg.task = Task::Inference;
    cfg.model = calibration_row_model(row, err);
    cfg.gpu_id = calibration_row_gpu(row);
    cfg.inference.engine = engine;
    const RowFormat format = row_format(row.get("weights"));
    cfg.inference.weights.format = format.format;
    if (format.group_size > 0) cfg.inference.weights.group_size = format.group_size;
    const double batch = std::atof(row.get("batch").c_str());
    if (batch >= 1) row_int(std::floor(batch), "column batch", cfg.inference.concurrency, err);
    const double seq = std::atof(row.get("seq").c_str());
    if (seq >= 1) row_int(std::floor(seq), "column seq", cfg.inference.context, err);
    return cfg;
}

// Runs the config and hands the estimate to `pick`, which returns the bytes to compare.
template <typename Pick>
void compare(const Config& cfg, const Error& read, RowCheck& out, Pick pick) {
    if (!read.field.empty()) {
        out.skipped = "config: " + read.message;
        return;
    }
    auto e = estimate(cfg);
    if (!e.ok) {
        out.skipped = "estimate: " + e.error.field + ": " + e.error.message;
        return;
    }
    out.estimated_bytes = pick(e.value);
    out.compared = true;
    for (const auto& c : e.value.components) out.breakdown += c.key + " " + std::to_string(c.bytes / 1e9).substr(0, 6) + "  ";
    out.gpu_id = cfg.gpu_id;
    if (const GpuSpec* g = find_gpu(out.gpu_id)) {
        out.verdict_known = true;
        bool fits = e.value.total_bytes <= g->memory_bytes;
        for (const auto& f : e.value.fits)
            if (f.gpu_id == g->id) fits = f.fits;
        out.verdict_right = fits != (out.measured_oom || out.start_failed);
    }
}

double component(const Estimate& e, const char* key) {
    const Component* c = e.component(key);
    return c ? c->bytes : 0;
}

}  // namespace

// Whether `text` names a year (a 4-digit number from 2015 on, not part of a longer number) before `year`.
bool year_before(const std::string& text, int year) {
    auto digit = [&](size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
    for (size_t i = 0; i + 4 <= text.size(); ++i) {
        if ((i > 0 && digit(i - 1)) || digit(i + 4) || !(digit(i) && digit(i + 1) && digit(i + 2) && digit(i + 3))) continue;
        const int y = std::atoi(text.substr(i, 4).c_str());
        if (y >= 2015 && y < year) return true;
    }
    return false;
}

bool row_module_loading(const std::string& text, ModuleLoading& out) {
    const std::string t = ascii_lower(text);
    bool named = false;
    auto digits_at = [&](size_t at) { return at < t.size() && std::isdigit(static_cast<unsigned char>(t[at])); };
    if (has(t, "cuda_module_loading=eager") || has(t, "eager loading") || has(t, "eager module loading")) out.env = -1, named = true;
    else if (has(t, "cuda_module_loading=lazy") || has(t, "lazy loading") || has(t, "lazy module loading")) out.env = 1, named = true;
    // "driver 470", "driver r535", "driver: 525.85"
    for (size_t at = t.find("driver"); at != std::string::npos; at = t.find("driver", at + 1)) {
        size_t i = at + 6;
        while (i < t.size() && (t[i] == ' ' || t[i] == ':' || t[i] == 'r')) ++i;
        if (digits_at(i) && digits_at(i + 1) && digits_at(i + 2)) {
            out.driver = std::atoi(t.c_str() + i);
            named = true;
            break;
        }
    }
    // "cu116" (a PyTorch wheel), "cuda 11.6" / "cuda 12.1"
    for (size_t at = t.find("cu1"); at != std::string::npos; at = t.find("cu1", at + 1)) {
        if ((at == 0 || !std::isalpha(static_cast<unsigned char>(t[at - 1]))) && digits_at(at + 3) && digits_at(at + 4) && !digits_at(at + 5)) {
            out.cuda_runtime = 100 * std::atoi(t.substr(at + 2, 2).c_str()) + (t[at + 4] - '0');
            named = true;
            break;
        }
    }
    for (size_t at = t.find("cuda "); at != std::string::npos; at = t.find("cuda ", at + 1)) {
        const int major = digits_at(at + 5) ? std::atoi(t.c_str() + at + 5) : 0;
        const size_t dot = t.find('.', at + 5);
        if (major >= 9 && major < 20 && dot != std::string::npos && dot <= at + 7 && digits_at(dot + 1)) {
            out.cuda_runtime = major * 100 + std::atoi(t.c_str() + dot + 1);
            named = true;
            break;
        }
    }
    // PyTorch 1.x: "pytorch 1.12", "torch 1.12", "torch==1.12"
    for (const char* key : {"pytorch 1.", "torch 1.", "torch==1."}) {
        const size_t at = t.find(key);
        if (at != std::string::npos && digits_at(at + std::string(key).size())) {
            out.framework_sets_lazy = std::atoi(t.c_str() + at + std::string(key).size()) >= 13;
            named = true;
            break;
        }
    }
    return named;
}

// The weights column as a format name and group size, in the spellings people write: "bf16",
// "int8-bnb", "nf4-bnb", "awq", "gptq-int4-g128", "awq-int4-g128", "4bit-128g" / "8bit-32g"
// (TheBloke's GPTQ branch names), "gguf Q4_K_M", "Q4_K_M", "gguf-q4_k_m". `group_size` is set only
// when the spelling names one.
RowFormat row_format(const std::string& column) {
    std::string w = ascii_lower(column);
    for (char& c : w)
        if (c == ' ') c = '-';
    RowFormat out;
    // A group-size tail: "-g128" or "-128g".
    const size_t dash = w.rfind('-');
    if (dash != std::string::npos && dash + 2 < w.size()) {
        const std::string tail = w.substr(dash + 1);
        const bool g_first = tail[0] == 'g' && std::isdigit(static_cast<unsigned char>(tail[1]));
        const bool g_last = tail.back() == 'g' && std::isdigit(static_cast<unsigned char>(tail[0]));
        if (g_first || g_last) {
            out.group_size = std::atoi(tail.c_str() + (g_first ? 1 : 0));
            w = w.substr(0, dash);
        }
    }
    if (w.rfind("gguf-", 0) == 0 && !find_weight_format(w)) w = w.substr(5);
    // The rows' own shorthands: "int8" is bitsandbytes' LLM.int8 in these sources, "4bit-128g" a
    // GPTQ branch; the general spellings are weight_format_aliases'.
    if (w == "int8") w = "bnb-int8";
    else if (w == "4bit") w = "gptq-int4";
    else if (w == "8bit") w = "gptq-int8";
    else if (w == "3bit") w = "gptq-int3";
    w = canonical_weight_format(w);
    out.format = w;
    return out;
}


// Hugging Face generate: `seq` tokens in all (the note's "N-token prompt" is the prefill), eager
// attention when the note says so. alloc / reserved: what PyTorch's allocator holds (weights, KV,
// activations); smi adds the CUDA context.
void inference_row(const CalibrationRow& row, RowCheck& out) {
    Error err;
    Config cfg = row_config(row, Engine::Hf, err);
    const std::string note = row.get("note");
    row_int(std::floor(number_before(note, "-token prompt")), "column note (N-token prompt)", cfg.inference.prompt_tokens, err);
    // (CUDA_MODULE_LOADING=EAGER names the kernels' loading, not the attention.)
    if (has(note, "eager") && !has(note, "loading=eager")) cfg.inference.hf.attention = HfAttention::Eager;
    // The transformers version when the row names one ("transformers 4.36"), else the year it was
    // measured in, else the HF docs' own 2023 measurements: before 4.42 generate held two copies of
    // the cache (PR #30536), before 4.45 it computed the prompt's logits in full (PR #31292).
    // A row that names no version but a year before 2024 was measured before 4.42 existed (June 2024).
    const std::string where = row.get("source") + " " + note + " " + row.get("method");
    const double minor = transformers_minor(where);
    const bool dated_before_2024 = year_before(where, 2024);
    if ((minor > 0 && minor < 42) || (minor == 0 && (dated_before_2024 || has(row.get("source"), "hf transformers docs"))))
        cfg.inference.hf.legacy_cache = true;
    if (minor > 0 && minor < 45) cfg.inference.hf.full_logits = true;
    // The GPTQ kernel when the row names one; else AutoGPTQ's from_quantized default (ExLlamaV2)
    // for a row that loads through AutoGPTQ, and transformers' GPTQConfig default (ExLlama v1).
    // AutoGPTQ's "cuda-old" / "triton" kernels (optimum's --disable-exllama) dequantize the weight.
    if (has(where, "exllamav2") || has(where, "exllama v2")) cfg.inference.hf.gptq_kernel = GptqKernel::Exllamav2;
    else if (has(where, "cuda-old") || has(where, "cuda_old") || has(where, "triton") || has(where, "disable-exllama"))
        cfg.inference.hf.gptq_kernel = GptqKernel::Torch;
    else if (has(where, "exllama")) cfg.inference.hf.gptq_kernel = GptqKernel::Exllama;
    else if (has(where, "marlin")) cfg.inference.hf.gptq_kernel = GptqKernel::Marlin;
    else if (has(where, "autogptq") || has(where, "auto-gptq") || has(where, "auto_gptq")) cfg.inference.hf.gptq_kernel = GptqKernel::Exllamav2;
    // A checkpoint quantized with act-order (desc_act) unless the row says it was not.
    if ((has(where, "act-order") || has(where, "act order") || has(where, "desc_act")) && !has(where, "no act-order") &&
        !has(where, "without act-order") && !has(where, "act-order false") && !has(where, "act order: no"))
        cfg.inference.hf.gptq_act_order = true;
    // bitsandbytes before 0.45 (December 2024): LLM.int8's double_quant keeps CA, CAt and a col32
    // copy of the input, and the forward clones its 3-D output beside igemmlt's int32 result.
    // A row names the transformers release of its time (4.47, December 2024) or a year; the HF docs'
    // rows are 2023's.
    if ((minor > 0 && minor < 47) || (minor == 0 && (year_before(where, 2025) || has(row.get("source"), "hf transformers docs")))) {
        cfg.inference.constants.bnb_int8_input_copies = 3;
        cfg.inference.constants.bnb_int8_output_bytes = 6;
    }
    // Linear4bit computes in BitsAndBytesConfig's bnb_4bit_compute_dtype (FP32 unless the row names one).
    if (has(where, "compute_dtype=torch.float16") || has(where, "compute_dtype=torch.bfloat16")) cfg.inference.hf.bnb_compute_bytes = 2;
    // LitGPT's --quantize bnb.* (Lightning's BitsandbytesPrecision): the head quantized too, FP16
    // dequantization, LLM.int8 re-quantized on load (HfOptions::litgpt_quantize).
    if (has(row.get("source"), "litgpt") || has(row.get("source"), "lit-gpt")) cfg.inference.hf.litgpt_quantize = true;
    // CUDA lazy module loading unless the row names what rules it out (core/catalog/cuda_context.hpp).
    ModuleLoading loading;
    if (row_module_loading(where, loading)) cfg.inference.hf.lazy_loading = lazy_loading_in_effect(loading);
    const std::string what = ascii_lower(row.get("what"));
    const bool smi = what == "smi";
    // optimum's GPTQ benchmark (tests/benchmark/benchmark_gptq.py benchmark_memory) reports
    // "peak_memory_mb = peak_allocated_torch_mb + peak_external_mb", the external part being the
    // nvidia-smi peak less PyTorch's peak reserved: the allocator's cached segments cancel out.
    // The HF blog gptq-integration (August 2023) quotes that benchmark. The separate
    // optimum-benchmark project reports NVML's per-process memory (max_process_vram): an nvidia-smi
    // reading.
    const bool allocated_plus_external =
        smi && ((has(where, "optimum") && has(where, "benchmark") && !has(where, "optimum-benchmark")) || has(where, "gptq-integration") ||
                has(where, "making llms lighter"));
    compare(cfg, err, out, [&](const Estimate& e) {
        const double allocated = component(e, "weights") + component(e, "kv_cache") + component(e, "activations");
        if (allocated_plus_external) return allocated + component(e, "runtime");
        // nvidia-smi and peak reserved include the cache segments the allocator keeps while the KV
        // cache grows (core's replay of its rules): the highest reading, which any reading after
        // the growth sees while nothing is released. Once the card fills, nvidia-smi saws between
        // what a release leaves and the card, and one reading's expectation is the mean over the
        // steps; a `reserved` row (max_memory_reserved) is the peak either way.
        const Metric* reserved = e.metric("reserved_decoding_bytes");
        const Metric* mean = e.metric("reserved_decoding_mean_bytes");
        const Metric* releases = e.metric("allocator_releases");
        const double without = smi ? allocated + component(e, "runtime") : allocated;
        if (reserved && mean && releases && (smi || what == "reserved")) {
            // --verbose shows the figure without the cached segments too.
            out.breakdown += "without stranded cache segments " + std::to_string(without / 1e9).substr(0, 6) + " | ";
            const double reading = smi && releases->value > 0 ? mean->value : reserved->value;
            return smi ? reading : reading - component(e, "runtime");
        }
        return without;
    });
}

// vLLM: the method column carries the log's settings, "vllm util 0.90 max_model_len 8192", and where
// stated "max_position_embeddings 131072" (the checkpoint's own window where it is not its preset's:
// model.context_limit, which vLLM's max_model_len check and RoPE table read), "max_num_seqs 256",
// "max_num_batched_tokens 2048", "tp 4", "enforce-eager", "chunked
// prefill off", and for a card outside the catalog "total_gpu_memory 21.48 GiB" (a custom GPU: PCIe,
// so no custom all-reduce beyond TP 2). The method or note naming "FlashInfer sampler" / "FlashInfer
// top-p" sets inference.vllm.sampler flashinfer, "disable-custom-all-reduce" custom_all_reduce off,
// "no P2P" inference.vllm.p2p off.
// The value is the quantity the note names first: weights, KV cache (the pool; in unit "tokens"
// vLLM's "GPU KV cache size: N tokens"), activation peak or non-torch memory.
void serve_row(const CalibrationRow& row, RowCheck& out) {
    Error err;
    Config cfg = row_config(row, Engine::Vllm, err);
    const std::string method = row.get("method");
    // vLLM's total_gpu_memory is cudaMemGetInfo's total: what the driver reserves is already out of it.
    const double total_gib = number_after(method, "total_gpu_memory", -1);
    if (total_gib >= 0) {
        if (!(total_gib > 0 && total_gib <= kMaxMeasuredGB) && err.field.empty()) {
            char got[32];
            std::snprintf(got, sizeof got, "%.10g", total_gib);
            err = Error{"column method (total_gpu_memory)", std::string("column method (total_gpu_memory) must be greater than 0 and at most ") +
                                                                std::to_string(static_cast<long long>(kMaxMeasuredGB)) + " GiB, got " + got};
        }
        cfg.gpu_id.clear();
        cfg.inference.has_custom_gpu = true;
        cfg.inference.custom_gpu.name = "total_gpu_memory " + std::to_string(total_gib) + " GiB";
        cfg.inference.custom_gpu.memory_bytes = gib_to_bytes(total_gib);
        cfg.inference.constants.driver_reserved_bytes = 0;
    } else if (cfg.gpu_id.empty()) {
        out.skipped = "no GPU named in the row (vLLM sizes its pool from the card): name one, or total_gpu_memory in the method";
        return;
    }
    auto& v = cfg.inference.vllm;
    v.gpu_memory_utilization = number_after(method, "util", 0.9);
    row_int(std::floor(number_after(method, "max_model_len", cfg.inference.context)), "column method (max_model_len)",
            cfg.inference.context, err);
    row_int(number_after(method, "max_position_embeddings", cfg.model.context_limit), "column method (max_position_embeddings)",
            cfg.model.context_limit, err);
    row_int(number_after(method, "max_num_seqs", v.max_num_seqs), "column method (max_num_seqs)", v.max_num_seqs, err);
    // Without chunked prefill vLLM V0 profiles one prompt of the whole length: max_num_batched_tokens
    // defaults to max(max_model_len, 2048) (vllm/config.py SchedulerConfig, v0.7).
    const bool whole_prompts = has(method, "chunked prefill off") || has(method, "chunked_prefill off");
    const double batched = whole_prompts ? std::max(cfg.inference.context, 2048) : v.max_num_batched_tokens;
    row_int(number_after(method, "max_num_batched_tokens", batched), "column method (max_num_batched_tokens)", v.max_num_batched_tokens, err);
    row_int(number_after(method, "tp", cfg.inference.tp), "column method (tp)", cfg.inference.tp, err);
    v.enforce_eager = has(method, "enforce-eager") || has(method, "enforce_eager");
    const std::string note = ascii_lower(row.get("note"));
    const std::string said = ascii_lower(method) + " " + note;
    if (has(said, "flashinfer sampler") || has(said, "flashinfer top-p")) v.sampler = VllmSampler::Flashinfer;
    if (has(said, "disable-custom-all-reduce") || has(said, "disable_custom_all_reduce")) v.custom_all_reduce = VllmCustomAllReduce::Off;
    if (has(said, "no p2p")) v.p2p = GpuP2p::Off;
    const char* key = "weights";
    if (note.rfind("kv", 0) == 0) key = "kv_cache";
    else if (note.rfind("activation", 0) == 0) key = "activations";
    else if (note.rfind("non-torch", 0) == 0 || note.rfind("non_torch", 0) == 0) key = "runtime";
    // vLLM refuses to start when one max_model_len sequence does not fit the pool (V0 worker.py
    // raise_if_cache_size_invalid; V1 kv_cache_utils.py check_enough_kv_cache_memory): the right
    // verdict for such a log is "does not fit", its pool still scored.
    out.start_failed = has(note, "start failed");
    const bool tokens = row.get("unit") == "tokens";
    compare(cfg, err, out, [&](const Estimate& e) { return tokens ? e.metric("kv_capacity_tokens")->value : component(e, key); });
}

// A GGUF file: the tensor data llama.cpp's quantizer writes for the file type.
void file_row(const CalibrationRow& row, RowCheck& out) {
    Error err;
    Config cfg = row_config(row, Engine::LlamaCpp, err);
    cfg.gpu_id.clear();
    compare(cfg, err, out, [](const Estimate& e) { return e.metric("weights_total_bytes")->value; });
}

}  // namespace vc::io
