// vramcalc io: calibration rows -> configs -> estimates vs measurements (docs/accuracy.md).
//
// [SECTIONS]
//   csv        a small RFC 4180 reader (quotes, CRLF); no dependency for one simple format
//   mapping    a training row's columns -> Config
//   handlers   estimators by task; the inference entries are the inference model's hook
//   scoring    errors, verdicts, summary and the printed report
#include "calibration.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/stable_sort.hpp"
#include "core/text.hpp"
#include "core/estimate.hpp"
#include "core/catalog/cuda_context.hpp"
#include "core/catalog/gpus.hpp"
#include "core/model/presets.hpp"
#include "core/units.hpp"
#include "training_json.hpp"

namespace vc::io {

// [SECTION] csv -----------------------------------------------------------------------------------
Outcome<CsvTable> parse_csv(const std::string& text) {
    CsvTable t;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false, any = false;
    size_t line = 1;
    std::string extra_cells;  // the first row with more cells than the header: a comma in an unquoted note
    auto end_row = [&]() {
        row.push_back(cell);
        cell.clear();
        const bool blank = row.size() == 1 && row[0].empty();
        if (!blank) {
            if (t.header.empty()) t.header = row;
            else t.rows.push_back(row);
            if (row.size() > t.header.size() && extra_cells.empty())
                extra_cells = "line " + std::to_string(line) + " has " + std::to_string(row.size()) + " cells, the header " +
                              std::to_string(t.header.size()) + ": quote a cell that holds a comma (\"a, b\")";
        }
        row.clear();
        any = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                if (c == '\n') ++line;
                cell += c;
            }
        } else if (c == '"' && cell.empty()) {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(cell);
            cell.clear();
            any = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            end_row();
            ++line;
        } else {
            cell += c;
            any = true;
        }
    }
    if (quoted) return Outcome<CsvTable>::failure("csv", "unterminated quoted cell at line " + std::to_string(line));
    if (any || !cell.empty()) end_row();
    if (t.header.empty()) return Outcome<CsvTable>::failure("csv", "the file has no header row");
    if (!extra_cells.empty()) return Outcome<CsvTable>::failure("csv", extra_cells);
    return Outcome<CsvTable>::success(std::move(t));
}

std::string CalibrationRow::get(const char* column) const {
    for (size_t c = 0; c < table->header.size(); ++c)
        if (table->header[c] == column) return c < table->rows[index].size() ? table->rows[index][c] : std::string();
    return std::string();
}

// [SECTION] mapping -------------------------------------------------------------------------------
namespace {

bool contains(const std::string& haystack, const char* needle) { return ascii_lower(haystack).find(needle) != std::string::npos; }

// The bitsandbytes release a row names ("bitsandbytes 0.41.1", "bitsandbytes==0.42", "bnb 0.43.2")
// as minor + patch / 100 (41.01, 42, 43.02); 0 when it names none.
double bitsandbytes_version(const std::string& text) {
    const std::string t = ascii_lower(text);
    for (const char* key : {"bitsandbytes 0.", "bitsandbytes==0.", "bitsandbytes v0.", "bnb 0."}) {
        const size_t at = t.find(key);
        if (at == std::string::npos) continue;
        const char* p = t.c_str() + at + std::string(key).size();
        char* end = nullptr;
        const long minor = std::strtol(p, &end, 10);
        if (end == p) return 0;
        if (*end != '.') return static_cast<double>(minor);
        return static_cast<double>(minor) + std::atof(end + 1) / 100;
    }
    return 0;
}

bool to_number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

// A column as an int: empty or not a number gives `fallback`, a number out of an int's range an
// error naming the column.
int int_or(const CalibrationRow& row, const char* column, int fallback, Error& err) {
    double v;
    int out = fallback;
    if (to_number(row.get(column), v)) row_int(v, std::string("column ") + column, out, err);
    return out;
}

// The digits at the start of `text` ("8" of "8 x cp4") as an int, as atoi reads them but checked.
int leading_int(const char* text, const std::string& field, Error& err) {
    size_t n = 0;
    while (std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
    int out = 0;
    if (n > 0) row_int(std::strtod(std::string(text, n).c_str(), nullptr), field, out, err);
    return out;
}

// Sequence length of a dataset named instead of a number: the longest Alpaca sample under the
// Llama-2 tokenizer (batches pad to their longest sample, so the peak comes from it).
// Source: alpaca-cleaned tokenized with the Llama-2 tokenizer and the Alpaca prompt template.
constexpr double kAlpacaLongestTokens = 1024;

// CEWithChunkedOutputLoss's default num_output_chunks. Source: torchtune/modules/loss/ce_chunked_output_loss.py.
constexpr double kTorchtuneOutputChunks = 8;

// The row's model: the preset of the same name when its dimensions agree with the row's columns,
// else an architecture from the columns (GELU rows get LayerNorm and biases, as BERT/GPT/phi).
ModelSpec row_model(const CalibrationRow& row, Error& err) {
    ModelSpec m;
    m.name = row.get("model");
    m.layers = int_or(row, "L", 0, err);
    m.hidden = int_or(row, "h", 0, err);
    m.heads = int_or(row, "a", 0, err);
    m.kv_heads = int_or(row, "kv", 0, err);
    m.head_dim = int_or(row, "hd", 0, err);
    m.vocab = int_or(row, "V", 0, err);
    m.ffn = int_or(row, "ffn", 0, err);
    const std::string mlp = ascii_lower(row.get("mlp"));
    m.mlp = mlp == "gelu" ? MlpKind::Gelu : (mlp == "geglu" ? MlpKind::GeGlu : MlpKind::SwiGlu);
    m.tied_embeddings = ascii_lower(row.get("tied")) == "yes";
    if (m.mlp == MlpKind::Gelu) {
        m.norm = NormKind::LayerNorm;
        m.attn_bias = m.mlp_bias = true;
    }
    std::string key = ascii_lower(m.name);
    for (char& c : key)
        if (c == ' ') c = '-';
    if (const ModelSpec* p = find_preset(key)) {
        if (p->layers == m.layers && p->hidden == m.hidden && p->heads == m.heads && p->vocab == m.vocab && p->ffn == m.ffn) {
            // The row's `tied` column says how the run held the head: LitGPT's GPT keeps lm_head and
            // transformer.wte as two modules (lit_gpt/model.py at 982abcbc), so Falcon-7B, tied in
            // its checkpoint, holds its head twice there.
            ModelSpec preset = *p;
            if (!row.get("tied").empty()) preset.tied_embeddings = m.tied_embeddings;
            return preset;
        }
    }
    return m;
}

// "fsdp-full-shard dp8", "fsdp dp2 x cp4", "zero2 dp4", "none".
void apply_sharding(const std::string& text, Config& cfg, Error& err) {
    // Words split on spaces, commas, semicolons and '='; a degree follows its key ("tp8", "tp 8",
    // "TP=8") and a bare number after a sharding word is its data-parallel degree ("FSDP 32 x TP 8").
    std::vector<std::string> words(1);
    for (char c : ascii_lower(text)) {
        if (c == ' ' || c == ',' || c == ';' || c == '=') {
            if (!words.back().empty()) words.emplace_back();
        } else {
            words.back() += c;
        }
    }
    auto degree = [&](const std::string& key, const char* digits, const std::string& word) {
        const int n = leading_int(digits, "column sharding (" + word + ")", err);
        if (key == "dp") cfg.parallel.dp = n;
        else if (key == "cp") cfg.parallel.cp = n;
        else if (key == "tp") cfg.parallel.tp = n;
        else if (key == "pp") cfg.parallel.pp = n;
        else if (key == "ep") cfg.parallel.ep = n;
    };
    auto is_key = [](const std::string& k) { return k == "dp" || k == "cp" || k == "tp" || k == "pp" || k == "ep"; };
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    std::string pending;  // a key whose degree is the next word
    for (const std::string& word : words) {
        if (word.empty()) continue;
        if (!pending.empty() && digit(word[0])) {
            degree(pending, word.c_str(), word);
            pending.clear();
            continue;
        }
        pending.clear();
        int group = 0;
        Sharding s;
        size_t tail = word.size();
        while (tail > 0 && digit(word[tail - 1])) --tail;
        if (parse_sharding(word, s, group) || (tail < word.size() && parse_sharding(word.substr(0, tail), s, group))) {
            cfg.training.sharding = s;
            if (group) cfg.training.shard_group = group;
            if (tail < word.size()) degree("dp", word.c_str() + tail, word);  // "fsdp32"
            else pending = "dp";                                              // "fsdp 32"
        } else if (word.size() > 2 && is_key(word.substr(0, 2)) && digit(word[2])) {
            degree(word.substr(0, 2), word.c_str() + 2, word);
        } else if (is_key(word)) {
            pending = word;
        }
    }
}

// "lora r32 q+v", "qlora r8", "lora r64 all linear+output", "full".
void apply_method(const std::string& text, Config& cfg, Error& err) {
    const std::string t = ascii_lower(text);
    if (t.rfind("qlora", 0) == 0) cfg.training.finetune = FinetuneMethod::Qlora;
    else if (t.rfind("lora", 0) == 0) cfg.training.finetune = FinetuneMethod::Lora;
    else return;
    std::string rest;
    size_t pos = t.find(' ');
    while (pos != std::string::npos) {
        const size_t next = t.find(' ', pos + 1);
        const std::string word = t.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        if (word.size() > 1 && word[0] == 'r' && std::isdigit(static_cast<unsigned char>(word[1])))
            cfg.training.lora.rank = leading_int(word.c_str() + 1, "column method (" + word + ")", err);
        else if (!word.empty())
            rest += (rest.empty() ? "" : " ") + word;
        pos = next;
    }
    unsigned targets = 0;
    if (!rest.empty() && parse_lora_targets(rest, targets)) cfg.training.lora.targets = targets;
}

// Fine-tuning recipes the CSV's `method` column abbreviates: LitGPT's config_hub/finetune/*.yaml
// (lora_r, the lora_* target switches, lora_dropout, global_batch_size / micro_batch_size). A row
// from that source takes the recipe of its model and method; `vramcalc validate --as-labelled`
// keeps the CSV's own words instead (docs/accuracy.md lists both).
struct Recipe {
    const char* model;    // preset id
    const char* method;   // "full", "lora", "qlora"
    int rank;
    const char* targets;
    double dropout;
    int accum;            // global_batch_size / micro_batch_size
};
const Recipe kLitgptRecipes[] = {
    {"tinyllama-1.1b", "full", 0, "", 0, 8},                  // tiny-llama/full.yaml: 32 / 4
    {"tinyllama-1.1b", "lora", 32, "all-linear+head", 0.05, 1},  // tiny-llama/lora.yaml: 8 / 8
    {"tinyllama-1.1b", "qlora", 32, "all-linear+head", 0.05, 1}, // tiny-llama/qlora.yaml: 8 / 8
    {"llama-3-8b", "lora", 32, "q,v", 0.05, 8},               // llama-3-8b/lora.yaml: 8 / 1
    {"llama-3-8b", "qlora", 32, "q,v", 0.05, 4},              // llama-3-8b/qlora.yaml: 8 / 2
    {"llama-2-7b", "lora", 32, "q,v", 0.05, 4},               // llama-2-7b/lora.yaml: 8 / 2
    {"mistral-7b-v0.1", "lora", 32, "q,v", 0.05, 4},          // mistral-7b/lora.yaml: 8 / 2
    {"mistral-7b-v0.1", "qlora", 32, "q,v", 0.05, 4},         // mistral-7b/qlora.yaml: 8 / 2
    {"gemma-2b", "lora", 8, "all-linear+head", 0.1, 3},       // gemma-2b/lora.yaml: 6 / 2
    {"phi-2", "lora", 8, "all-linear+head", 0.05, 2},         // phi-2/lora.yaml: 8 / 4
    {"gemma-2-9b", "qlora", 16, "all-linear+head", 0.1, 6},   // gemma2-9b/qlora.yaml: 6 / 1
};

// The framework from the source column (docs/accuracy.md): the 2022 HF docs ran PyTorch <= 1.10.
const char* row_profile(const CalibrationRow& row) {
    const std::string src = row.get("source");
    if (contains(src, "litgpt") || contains(src, "lit-gpt")) return "litgpt";  // lit-gpt: its name before 2024
    if (contains(src, "torchtune")) return "torchtune";
    if (contains(src, "torchtitan")) return "torchtitan";
    if (contains(src, "megatron")) return "megatron";
    if (contains(src, "deepspeed")) return "deepspeed";
    if (contains(src, "hf transformers docs")) return "hf-legacy";
    return "hf-trainer";
}

}  // namespace

Outcome<Config> training_row_config(const CalibrationRow& row, bool as_labelled) {
    Config cfg;
    cfg.method = Method::Detailed;
    const std::string task = ascii_lower(row.get("task"));
    cfg.task = task == "pretrain" ? Task::Training : Task::FineTune;
    Error err;
    cfg.model = row_model(row, err);
    cfg.training.profile = row_profile(row);

    const std::string weights = ascii_lower(row.get("weights"));
    const std::string note = ascii_lower(row.get("note"));
    TrainPrecision prec = TrainPrecision::Bf16Mixed;
    if (weights == "fp32") prec = TrainPrecision::Fp32;
    else if (weights == "fp16-amp" || weights == "fp16-mixed") prec = TrainPrecision::Fp16Mixed;
    else if (weights == "bf16-mixed" || weights == "bf16-amp") prec = TrainPrecision::Bf16Mixed;
    else if (weights.rfind("nf4", 0) == 0 || weights == "bf16-true" || weights == "bf16") prec = TrainPrecision::Bf16True;
    else parse_train_precision(weights, prec);
    if (note.find("float8") != std::string::npos || note.find("fp8") != std::string::npos) prec = TrainPrecision::Fp8Mixed;
    cfg.training.precision = prec;
    if (note.find("compile") != std::string::npos) cfg.training.compile = Toggle::On;
    // "compiled loss": the loss function itself under torch.compile, as torchtitan runs it with
    // training.compile since April 2025 (components/loss.py build_cross_entropy_loss, PR #1033) and
    // torchtune's recipes with compile=True (training.compile_loss): inductor fuses the `.float()`
    // upcast into the cross-entropy kernels, so the loss keeps its 16-bit input and writes a 16-bit
    // gradient (training.compile_loss; its auto is off, which the other rows' dates need).
    if (note.find("compiled loss") != std::string::npos) cfg.training.compile_loss = Toggle::On;
    // transformers' attention implementation where the note names it (attn_implementation=
    // "flash_attention_2", or SDPA's enable_gqa); the stacks with their own attention keep theirs.
    const ProfileBehaviour* row_stack = find_training_profile(cfg.training.profile);
    if (row_stack && row_stack->hf_attention) {
        if (contains(note, "flash_attention_2") || contains(note, "flash-attention-2") || contains(note, "flash attention 2"))
            cfg.training.attention = AttentionKernel::Fa2;
        else if (contains(note, "enable_gqa")) cfg.training.attention = AttentionKernel::SdpaGqa;
    }
    // CUDA module loading when the row names what decides it (else the profile's: eager for hf-legacy).
    ModuleLoading loading;
    if (row_module_loading(row.get("source") + " " + row.get("note") + " " + row.get("method"), loading))
        cfg.runtime.lazy_loading = lazy_loading_in_effect(loading) ? Toggle::On : Toggle::Off;

    apply_method(row.get("method"), cfg, err);
    if (weights.rfind("nf4", 0) == 0) {
        cfg.training.finetune = FinetuneMethod::Qlora;
        cfg.training.lora.quant = BaseQuant::Nf4;
        // LitGPT's "bnb.nf4" keeps FP32 absmax; torchao's NF4 quantizes its scalers (block 256).
        // "-dq" (LitGPT's bnb.nf4-dq) double-quantizes bitsandbytes' absmax the same way.
        cfg.training.lora.double_quant = weights.find("torchao") != std::string::npos || weights.find("-dq") != std::string::npos;
    }
    const std::string opt = ascii_lower(row.get("optimizer"));
    if (!opt.empty() && !parse_train_optimizer(opt, cfg.training.optimizer))
        return Outcome<Config>::failure("optimizer", "unknown optimizer \"" + opt + "\"");

    double v;
    if (to_number(row.get("batch"), v)) cfg.run.batch = v;
    const std::string seq = row.get("seq");
    if (to_number(seq, v)) cfg.run.seq = v;
    else if (contains(seq, "alpaca")) cfg.run.seq = kAlpacaLongestTokens;
    else return Outcome<Config>::failure("seq", "no sequence length in \"" + seq + "\"");
    const std::string ckpt = ascii_lower(row.get("ckpt"));
    // The row's checkpointing wins over the profile's auto (peft's kbit default): "no" is none.
    if (ckpt == "no") cfg.training.recompute = Recompute::None;
    else if (!ckpt.empty() && !parse_recompute(ckpt, cfg.training.recompute))
        return Outcome<Config>::failure("ckpt", "unknown checkpointing \"" + ckpt + "\"");
    // torchtune's CEWithChunkedOutputLoss splits the logits into num_output_chunks (default 8) on the
    // sequence and upcasts one chunk at a time (torchtune/modules/loss/ce_chunked_output_loss.py).
    if (contains(note, "cewithchunkedoutputloss")) cfg.training.loss_chunk_tokens = cfg.run.batch * cfg.run.seq / kTorchtuneOutputChunks;
    // torchtune's recipes before PR #1235 (July 2024) kept `logits` referenced through backward, and
    // torchao 0.1 (torchtune's pin until May 2024) quantized whole matrices at init: as the note says,
    // or for torchtune's docs tutorials (lora_finetune, qlora_finetune: PRs #693 and #702, 15 April
    // 2024, figures not remeasured since), which ran torchtune 0.1 with both.
    const bool torchtune_tutorial = contains(row.get("source"), "torchtune docs");
    if (contains(note, "logits kept") || torchtune_tutorial) cfg.training.keeps_logits = Toggle::On;
    if (contains(note, "torchao 0.1") || torchtune_tutorial) cfg.training.lora.unchunked_quantize = Toggle::On;
    // A run with Liger Kernel: the note names HF's use_liger_kernel=True or the Liger example's --use_liger True.
    if (contains(note, "use_liger")) cfg.training.liger = true;
    if (to_number(row.get("gpus"), v)) cfg.gpus = v;
    cfg.gpu_id = calibration_row_gpu(row);  // the CUDA context's local memory is the GPU's (cuda_context.hpp)
    apply_sharding(row.get("sharding"), cfg, err);
    // "grad accum 4" in the note.
    const size_t ga = note.find("grad accum");
    if (ga != std::string::npos) cfg.training.grad_accum = std::atof(note.c_str() + ga + 10);
    // The tutorials ran the configs' defaults: gradient_accumulation_steps 64 in 7B_lora_single_device.yaml,
    // 16 in 7B_qlora_single_device.yaml (recipes/configs/llama2 at 0914d5cfb and ff594c231), so the
    // adapters' gradients stay allocated between micro-batches.
    else if (torchtune_tutorial) cfg.training.grad_accum = cfg.training.finetune == FinetuneMethod::Qlora ? 16 : 64;
    // torchtitan with PP: the batch column is the local batch, which the schedule splits into
    // pipeline_parallel_microbatches, by default the number of pipeline stages (config_manager.py at
    // the December 2024 benchmarks' commit 9dec370): pp micro-batches under 1F1B, one stage a rank.
    // An interleaved schedule (more stages a rank, split unevenly) is left as the row gives it.
    if (std::string(cfg.training.profile) == "torchtitan" && cfg.parallel.pp > 1 && ga == std::string::npos &&
        note.find("interleaved") == std::string::npos) {
        const double local = cfg.run.batch;
        if (local >= cfg.parallel.pp && std::fmod(local, cfg.parallel.pp) == 0) {
            cfg.run.batch = local / cfg.parallel.pp;
            cfg.training.grad_accum = cfg.parallel.pp;
        }
    }

    // The bitsandbytes of the source's time: before 0.43.2 (PR #1270, July 2024) the 4-bit matmul
    // kept its input (ctx.tensors = (A, B)). LitGPT's config_hub table was measured with the
    // bitsandbytes LitGPT pinned then (>=0.42,<0.43, still its macOS pin in pyproject.toml), its
    // resource tables (tutorials/resource-tables.md) name 0.41.1; otherwise the version a row
    // names ("bitsandbytes 0.41.1"), or a year before 2024.
    if (cfg.training.finetune == FinetuneMethod::Qlora && contains(row.get("weights"), "bnb")) {
        const std::string where = row.get("source") + " " + note;
        const double v = bitsandbytes_version(where);
        if (contains(row.get("source"), "litgpt config_hub") || contains(row.get("source"), "resource-tables") ||
            contains(row.get("source"), "resource tables") || (v > 0 && v < 43.02) || (v == 0 && year_before(where, 2024)))
            cfg.training.lora.saves_inputs = Toggle::On;
        // Before 0.43.0 Params4bit.cuda quantized an FP16 copy (`.half()`), so every dequantized
        // matrix is FP16 and the 4-bit matmul casts it to the compute dtype (LitGPT always: its
        // Lightning plugin quantizes from torch.half, the profile's default).
        if ((v > 0 && v < 43.0) || (v == 0 && year_before(where, 2024))) cfg.training.lora.dequant_fp16 = Toggle::On;
        // lit-gpt before 2024 (the resource tables: October 2023) ran the longest sample alone in
        // step one and random, mostly short, ones after: the step that keeps the longest sample's
        // inputs twice is not the peak, so one copy (training.lora.previous_graph off).
        if (contains(row.get("source"), "resource-tables") || contains(row.get("source"), "resource tables") ||
            (contains(row.get("source"), "lit-gpt") && year_before(where, 2024)))
            cfg.training.lora.previous_graph = Toggle::Off;
    }

    // The source's recipe, where the CSV abbreviates it.
    if (!as_labelled && contains(row.get("source"), "litgpt config_hub")) {
        const char* method = cfg.training.finetune == FinetuneMethod::Full    ? "full"
                             : cfg.training.finetune == FinetuneMethod::Lora ? "lora"
                                                                             : "qlora";
        for (const auto& r : kLitgptRecipes) {
            if (cfg.model.id != r.model || std::string(method) != r.method) continue;
            if (r.rank > 0) {
                cfg.training.lora.rank = r.rank;
                parse_lora_targets(r.targets, cfg.training.lora.targets);
                cfg.training.lora.dropout = r.dropout;
            }
            if (cfg.training.grad_accum == 0) cfg.training.grad_accum = r.accum;
        }
    }

    if (!err.field.empty()) return Outcome<Config>::failure(err);

    // Encoder models (BERT) are fine-tuned as sequence classifiers in these sources, with dropout 0.1.
    if (contains(cfg.model.name, "bert")) {
        cfg.training.head = OutputHead::Classifier;
        cfg.training.dropout = 0.1;
        cfg.training.attention_dropout = 0.1;
    }
    return Outcome<Config>::success(cfg);
}

void row_int(double v, const std::string& field, int& out, Error& err) {
    int n = 0;
    if (std::floor(v) == v && v >= 0 && to_int_checked(v, n)) {
        out = n;
        return;
    }
    char got[32];
    std::snprintf(got, sizeof got, "%.10g", v);
    if (err.field.empty()) err = Error{field, field + " must be a whole number in [0, 2147483647], got " + got};
}

bool measured_bytes(const CalibrationRow& row, double& bytes, bool& oom, std::string* why) {
    const std::string value = row.get("value");
    oom = ascii_lower(value) == "oom";
    if (oom) {
        bytes = 0;
        return true;
    }
    auto fail = [&](const std::string& reason) {
        if (why) *why = reason;
        return false;
    };
    const std::string unit = row.get("unit");
    double v;
    if (!to_number(value, v)) return fail("unreadable value \"" + value + "\" (a number or OOM)");
    double per_unit = 0;
    if (unit == "GB") per_unit = gb_to_bytes(1);
    else if (unit == "GiB") per_unit = gib_to_bytes(1);
    else if (unit == "MiB") per_unit = mib_to_bytes(1);
    else if (unit == "tokens" && row.get("task") == "serve") per_unit = 1;  // a count: vLLM's "GPU KV cache size: N tokens"
    else return fail("unreadable unit \"" + unit + "\" (GB, GiB or MiB; tokens for a serve row)");
    bytes = v * per_unit;
    // The range in GB, whatever the row's unit: (0, kMaxMeasuredGB].
    if (!(bytes > 0 && bytes <= gb_to_bytes(kMaxMeasuredGB))) {
        char buf[200], in_unit[64] = "";
        if (unit != "GB") std::snprintf(in_unit, sizeof in_unit, " (%.10g %s)", gb_to_bytes(kMaxMeasuredGB) / per_unit, unit.c_str());
        std::snprintf(buf, sizeof buf, "value must be greater than 0 and at most %.10g GB%s, got %.10g %s", kMaxMeasuredGB, in_unit, v,
                      unit.c_str());
        bytes = 0;
        return fail(buf);
    }
    return true;
}

// [SECTION] handlers ------------------------------------------------------------------------------
namespace {

// The GPU a row ran on: "(V100-16GB)" in the source or "H100-96GB" in the note, or the GPU of the
// row before from the same source (the CSV names it on the first row of a group).
std::string row_gpu(const CalibrationRow& row) {
    // Families are the catalog's ids without their "-<GB>gb" tail ("h100-nvl", "rtx-4090",
    // "mi300x"), longest first so "h100-nvl-94" is not read as an "h100". A text names a GPU as
    // "<family>-<GB>" (spaces read as dashes: "RTX 4090-24GB"; the nearest size among the ids
    // that start with the family: "H100-96GB" is the H100 NVL's 94 GB), or as the bare family when the catalog has one size of it ("(RTX-4090)").
    // "llama3_h100_202412" names none: the family must stand apart and a size is under 1000 GB.
    // Each family with its catalog sizes (every id that starts with "<family>-") and its own sizes
    // (those followed by a size: "rtx-4090-24gb", not "rtx-4090-laptop-16gb"), built once.
    struct Family {
        std::string name;
        std::vector<const GpuSpec*> sizes, own;
    };
    static const std::vector<Family> families = [] {
        std::vector<Family> f;
        for (const auto& g : gpu_catalog()) {
            const size_t dash = g.id.rfind('-');
            const std::string family = dash == std::string::npos ? g.id : g.id.substr(0, dash);
            if (std::none_of(f.begin(), f.end(), [&](const Family& x) { return x.name == family; })) f.push_back(Family{family, {}, {}});
        }
        stable_sort_by(f, [](const Family& a, const Family& b) { return a.name.size() > b.name.size(); });
        for (Family& x : f) {
            for (const auto& g : gpu_catalog())
                if (g.id.rfind(x.name + "-", 0) == 0) x.sizes.push_back(&g);  // "h100": also "h100-nvl-94gb"
            for (const GpuSpec* g : x.sizes)
                if (std::isdigit(static_cast<unsigned char>(g->id[x.name.size() + 1]))) x.own.push_back(g);
        }
        return f;
    }();
    auto find_in = [](const std::string& text) -> std::string {
        std::string t = ascii_lower(text);
        for (char& ch : t)
            if (ch == ' ') ch = '-';
        auto apart = [&](size_t i) { return i >= t.size() || !(std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_'); };
        for (const Family& fam : families) {
            const std::string& family = fam.name;
            const std::vector<const GpuSpec*>& sizes = fam.sizes;
            for (size_t at = t.find(family); at != std::string::npos; at = t.find(family, at + 1)) {
                const size_t end = at + family.size();
                if ((at > 0 && !apart(at - 1)) || sizes.empty()) continue;
                if (end + 1 < t.size() && t[end] == '-' && std::isdigit(static_cast<unsigned char>(t[end + 1]))) {
                    char* after = nullptr;
                    const double gb = std::strtod(t.c_str() + end + 1, &after);
                    if (gb >= 1000) continue;
                    const GpuSpec* best = sizes.front();
                    for (const GpuSpec* g : sizes)
                        if (std::fabs(g->nominal_gb - gb) < std::fabs(best->nominal_gb - gb)) best = g;
                    return best->id;
                }
                // The bare family: its one size ("rtx-4090-24gb"; "rtx-4090-laptop-16gb" is another family).
                if (apart(end) && fam.own.size() == 1) return fam.own.front()->id;
            }
        }
        return std::string();
    };
    std::string id = find_in(row.get("source"));
    if (id.empty()) id = find_in(row.get("note"));
    if (!id.empty()) return id;
    const std::string src = row.get("source");
    for (size_t i = row.index; i-- > 0;) {
        const CalibrationRow prev{row.table, i};
        const std::string ps = prev.get("source");
        const std::string base = ps.substr(0, ps.find(" ("));
        if (!base.empty() && src.rfind(base, 0) == 0) {
            id = find_in(ps);
            if (id.empty()) id = find_in(prev.get("note"));
            if (!id.empty()) return id;
        }
    }
    return std::string();
}

bool g_as_labelled = false;  // set by check_rows for the duration of one pass

void training_row(const CalibrationRow& row, RowCheck& out) {
    auto cfg = training_row_config(row, g_as_labelled);
    if (!cfg.ok) {
        out.skipped = "config: " + cfg.error.message;
        return;
    }
    auto e = estimate(cfg.value);
    if (!e.ok) {
        out.skipped = "estimate: " + e.error.field + ": " + e.error.message;
        return;
    }
    const std::string what = ascii_lower(row.get("what"));
    const char* key = what == "alloc" ? "peak_allocated_bytes" : what == "reserved" ? "peak_reserved_bytes" : "device_total_bytes";
    out.estimated_bytes = e.value.metric(key)->value;
    out.compared = true;
    for (const auto& c : e.value.components) out.breakdown += c.key + " " + std::to_string(c.bytes / 1e9).substr(0, 6) + "  ";
    out.breakdown += "| alloc " + std::to_string(e.value.metric("peak_allocated_bytes")->value / 1e9).substr(0, 6);
    out.gpu_id = row_gpu(row);
    if (const GpuSpec* g = find_gpu(out.gpu_id)) {
        out.verdict_known = true;
        const bool fits = e.value.metric("device_total_bytes")->value <= g->memory_bytes;
        out.verdict_right = fits != out.measured_oom;
    }
}

// The CUDA context alone (a process that touched the GPU). The eager context
// (kCudaContextEagerBytes, core/catalog/cuda_context.hpp) is this row's reading, so scoring it
// would compare the reading with itself: the row is reported, not scored (`validate --cv` scores
// the constant on the rows of other sources that include it).
// A "context" row: a note starting "bare context" is a context with no framework kernels loaded
// (cudaMemGetInfo's or PyTorch's first call, nothing run), set against cuda_bare_context_bytes on
// the row's GPU; any other is the eager context's own source (C07).
void context_row(const CalibrationRow& row, RowCheck& out) {
    if (ascii_lower(row.get("note")).rfind("bare context", 0) != 0) {
        out.skipped = "the source of the eager CUDA context (" + std::to_string(static_cast<long long>(kCudaContextEagerBytes)) +
                      " bytes, core/catalog/cuda_context.hpp): not scored against itself";
        return;
    }
    out.gpu_id = row_gpu(row);
    const GpuSpec* gpu = find_gpu(out.gpu_id);
    if (!gpu || resident_threads(*gpu) <= 0) {
        out.skipped = "a bare CUDA context needs a catalog GPU with SM figures named in the source or note";
        return;
    }
    out.estimated_bytes = cuda_bare_context_bytes(*gpu);
    out.compared = true;
}

struct TaskHandler {
    const char* task;
    RowEstimator run;
};

// Row handlers by task. The inference model's are in io/calibration_inference.cpp; nullptr
// reports the row as skipped.
const TaskHandler kTaskHandlers[] = {
    {"pretrain", training_row}, {"full_ft", training_row}, {"lora", training_row}, {"qlora", training_row},
    {"context", context_row},   {"inference", inference_row}, {"serve", serve_row},   {"file", file_row},
};

}  // namespace

ModelSpec calibration_row_model(const CalibrationRow& row, Error& err) { return row_model(row, err); }
std::string calibration_row_gpu(const CalibrationRow& row) { return row_gpu(row); }

RowEstimator row_estimator(const std::string& task) {
    for (const auto& h : kTaskHandlers)
        if (task == h.task) return h.run;
    return nullptr;
}

// [SECTION] scoring -------------------------------------------------------------------------------
std::vector<RowCheck> check_rows(const CsvTable& table, bool as_labelled) {
    g_as_labelled = as_labelled;
    std::vector<RowCheck> out;
    for (size_t i = 0; i < table.rows.size(); ++i) {
        const CalibrationRow row{&table, i};
        RowCheck c;
        c.id = row.get("id");
        c.task = row.get("task");
        c.model = row.get("model");
        c.what = row.get("what");
        c.unit = row.get("unit");
        bool known_task = false;
        for (const auto& h : kTaskHandlers) known_task = known_task || c.task == h.task;
        const RowEstimator run = row_estimator(c.task);
        std::string why;
        if (!measured_bytes(row, c.measured_bytes, c.measured_oom, &why)) c.skipped = why;
        else if (!known_task) c.skipped = "unknown task \"" + c.task + "\"";
        else if (!run) c.skipped = "skipped (inference model pending)";
        else run(row, c);
        if (c.compared && !c.measured_oom && c.measured_bytes > 0) c.error = (c.estimated_bytes - c.measured_bytes) / c.measured_bytes;
        out.push_back(c);
    }
    return out;
}

CalibrationSummary summarize(const std::vector<RowCheck>& checks) {
    CalibrationSummary s;
    std::vector<double> errors;
    for (const auto& c : checks) {
        if (!c.compared) {
            ++s.skipped;
            continue;
        }
        ++s.compared;
        if (c.verdict_known) {
            ++s.verdicts;
            if (c.verdict_right) ++s.verdicts_right;
        }
        if (c.measured_oom) continue;
        const double a = std::fabs(c.error);
        errors.push_back(a);
        if (a >= s.worst_abs_error) {
            s.worst_abs_error = a;
            s.worst_id = c.id;
        }
    }
    if (!errors.empty()) {
        std::sort(errors.begin(), errors.end());
        const size_t n = errors.size();
        s.median_abs_error = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
        // p90 by nearest rank: the smallest error that 90% of the rows do not exceed.
        s.p90_abs_error = errors[static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1];
        s.scored = static_cast<int>(n);
        s.within_10_percent = static_cast<int>(std::count_if(errors.begin(), errors.end(), [](double a) { return a <= 0.10; }));
    }
    return s;
}

std::string format_checks(const std::vector<RowCheck>& checks, bool verbose) {
    std::string out;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-5s %-10s %-28s %-9s %12s %12s %8s  %s\n", "id", "task", "model", "what", "measured",
                  "estimate", "error", "verdict");
    out += buf;
    auto unit_value = [](double bytes, const std::string& unit) {
        return unit == "GiB" ? bytes_to_gib(bytes) : unit == "MiB" ? bytes / kBytesPerMiB : unit == "tokens" ? bytes : bytes_to_gb(bytes);
    };
    for (const auto& c : checks) {
        const std::string model = c.model.size() > 28 ? c.model.substr(0, 27) + "~" : c.model;
        if (!c.compared) {
            std::snprintf(buf, sizeof buf, "%-5s %-10s %-28s %-9s %s\n", c.id.c_str(), c.task.c_str(), model.c_str(), c.what.c_str(),
                          c.skipped.c_str());
        } else {
            char measured[32], estimate[32];
            const char* value_format = c.unit == "tokens" ? "%.0f %s" : "%.2f %s";
            if (c.measured_oom) std::snprintf(measured, sizeof measured, "OOM");
            else std::snprintf(measured, sizeof measured, value_format, unit_value(c.measured_bytes, c.unit), c.unit.c_str());
            std::snprintf(estimate, sizeof estimate, value_format, unit_value(c.estimated_bytes, c.unit), c.unit.c_str());
            const bool failed = c.measured_oom || c.start_failed;
            const char* verdict = !c.verdict_known ? "-" : c.verdict_right ? (failed ? "OOM right" : "fits right")
                                                                           : (failed ? "OOM WRONG" : "fits WRONG");
            std::snprintf(buf, sizeof buf, "%-5s %-10s %-28s %-9s %12s %12s %+7.1f%%  %s %s\n", c.id.c_str(), c.task.c_str(),
                          model.c_str(), c.what.c_str(), measured, estimate, c.error * 100, verdict, c.gpu_id.c_str());
        }
        out += buf;
        if (verbose && !c.breakdown.empty()) out += "      GB: " + c.breakdown + "\n";
    }
    const CalibrationSummary s = summarize(checks);
    std::snprintf(buf, sizeof buf,
                  "compared %d rows (%d skipped): median |error| %.1f%%, p90 %.1f%%, worst %.1f%% (%s); within 10%%: %d of %d; "
                  "fits/OOM verdicts right %d of %d\n",
                  s.compared, s.skipped, s.median_abs_error * 100, s.p90_abs_error * 100, s.worst_abs_error * 100, s.worst_id.c_str(),
                  s.within_10_percent, s.scored, s.verdicts_right, s.verdicts);
    out += buf;
    return out;
}

}  // namespace vc::io
