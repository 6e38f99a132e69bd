// The calibration set: every row of tests/calibration/measured.csv through the engine, with
// the accuracy targets (median |error| <= 7%, none worse than 20%, every fits/OOM verdict right),
// plus the CSV reader and the row -> config mapping on hand-made rows.
#include <catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/train/training.hpp"
#include "core/units.hpp"
#include "io/calibration.hpp"
#include "io/calibration_cv.hpp"

using namespace vc;

#ifndef VRAMCALC_CALIBRATION_CSV
#define VRAMCALC_CALIBRATION_CSV ""
#endif

namespace {

bool read_file(const char* path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

const char* const kHeader =
    "id,source,task,model,L,h,a,kv,hd,V,ffn,mlp,tied,params_b,weights,method,optimizer,batch,seq,ckpt,gpus,sharding,what,"
    "value,unit,note\n";

// The config `validate` builds from one CSV row (kHeader's columns).
Config row_config(const std::string& row) {
    auto t = io::parse_csv(std::string(kHeader) + row + "\n");
    REQUIRE(t.ok);
    auto cfg = io::training_row_config(io::CalibrationRow{&t.value, 0});
    REQUIRE(cfg.ok);
    return cfg.value;
}

// Every row of `rows` (kHeader's columns) checked as `validate` checks it; each must be compared.
std::vector<io::RowCheck> compared_rows(const std::string& rows) {
    auto t = io::parse_csv(std::string(kHeader) + rows);
    REQUIRE(t.ok);
    auto c = io::check_rows(t.value);
    for (const auto& x : c) REQUIRE(x.compared);
    return c;
}

}  // namespace

TEST_CASE("CSV reader: quotes, embedded commas, CRLF, blank lines", "[calibration]") {
    auto t = io::parse_csv("a,b,c\r\n1,\"x, y\",\"say \"\"hi\"\"\"\r\n\r\n2,,3\n");
    REQUIRE(t.ok);
    REQUIRE(t.value.header.size() == 3);
    REQUIRE(t.value.rows.size() == 2);
    CHECK(t.value.rows[0][1] == "x, y");
    CHECK(t.value.rows[0][2] == "say \"hi\"");
    CHECK(t.value.rows[1][1].empty());
    CHECK_FALSE(io::parse_csv("a\n\"open").ok);
    CHECK_FALSE(io::parse_csv("").ok);
}

TEST_CASE("row -> config: LoRA words, sharding words, units", "[calibration]") {
    const std::string text = std::string(kHeader) +
                             "X1,somewhere,qlora,Llama-3-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,nf4-bnb,qlora r16 "
                             "all linear+output,adamw,2,1024,full,8,fsdp dp2 x cp4,reserved,12.5,GiB,\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const io::CalibrationRow row{&t.value, 0};
    auto cfg = io::training_row_config(row);
    REQUIRE(cfg.ok);
    const Config& c = cfg.value;
    CHECK(c.model.id == "llama-3-8b");  // the preset of that name, its dimensions agreeing
    CHECK(c.training.finetune == FinetuneMethod::Qlora);
    CHECK(c.training.lora.rank == 16);
    CHECK(c.training.lora.targets == (kLoraAllLinear | kLoraHead));
    CHECK(c.training.lora.quant == BaseQuant::Nf4);
    CHECK(c.training.recompute == Recompute::Full);
    CHECK(c.training.sharding == Sharding::Zero3);
    CHECK(c.parallel.dp == 2);
    CHECK(c.parallel.cp == 4);
    CHECK(c.gpus == 8);
    double bytes = 0;
    bool oom = true;
    REQUIRE(io::measured_bytes(row, bytes, oom));
    CHECK_FALSE(oom);
    CHECK(bytes == 12.5 * kBytesPerGiB);
}

TEST_CASE("row -> config: the sharding column in the spellings people write", "[calibration]") {
    // torchtitan's 2-D table as a reader would copy it: FSDP 32 x TP 8 on 256 GPUs.
    struct Case {
        const char* column;
        Sharding sharding;
        int dp, tp, pp;
    };
    const Case cases[] = {
        {"FSDP 32 x TP 8", Sharding::Zero3, 32, 8, 1},  {"fsdp=32, tp=8", Sharding::Zero3, 32, 8, 1},
        {"fsdp32 tp8", Sharding::Zero3, 32, 8, 1},      {"fsdp-full-shard dp32 tp8", Sharding::Zero3, 32, 8, 1},
        {"FSDP 8, TP 8, PP 4", Sharding::Zero3, 8, 8, 4}, {"ddp; tp 2", Sharding::None, 0, 2, 1},
    };
    for (const auto& k : cases) {
        INFO(k.column);
        const std::string text = std::string(kHeader) + "X1,somewhere,pretrain,Llama-3.1-70B,80,8192,64,8,128,128256,28672,swiglu,no,70.6,bf16-mixed,full,adamw,16,8192,full," +
                                 std::to_string(k.dp > 0 ? k.dp * k.tp * k.pp : 2) + ",\"" + k.column + "\",reserved,71.9,GiB,\n";
        auto t = io::parse_csv(text);
        REQUIRE(t.ok);
        auto cfg = io::training_row_config(io::CalibrationRow{&t.value, 0});
        REQUIRE(cfg.ok);
        CHECK(cfg.value.training.sharding == k.sharding);
        CHECK(cfg.value.parallel.dp == k.dp);
        CHECK(cfg.value.parallel.tp == k.tp);
        CHECK(cfg.value.parallel.pp == k.pp);
    }
    // torchtitan splits a PP rank's local batch into as many micro-batches as pipeline stages
    // (pipeline_parallel_microbatches' default): local batch 32 under PP 8 is 8 micro-batches of 4.
    auto titan = [](const char* note) {
        return row_config(std::string("X1,torchtitan benchmarks,pretrain,Llama-3.1-405B,126,16384,128,8,128,128256,53248,swiglu,no,405,bf16-mixed,full,adamw,32,8192,full,"
                                      "512,fsdp-full-shard dp8 tp8 pp8,reserved,82.5,GiB,") +
                          note);
    };
    CHECK(titan("1f1b").run.batch == 4);
    CHECK(titan("1f1b").training.grad_accum == 8);
    CHECK(titan("interleaved 1f1b").run.batch == 32);  // more stages a rank, split unevenly: as given
    CHECK(titan("grad accum 4").training.grad_accum == 4);
}

TEST_CASE("QLoRA rows: bitsandbytes' version and lit-gpt's longest-first step pick the saved 4-bit inputs", "[calibration]") {
    // Llama-2-7B QLoRA r8 q+v, one 512-token sample, LitGPT profile (from the source).
    auto row = [](const char* id, const char* source, const char* note) {
        return std::string(id) + "," + source + ",qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,nf4-bnb,qlora r8 q+v,adamw,1,512,no,1,none,alloc,14,GB," +
               note + "\n";
    };
    const std::string text = std::string(kHeader) + row("A", "LitGPT blog", "bitsandbytes 0.44.1") + row("B", "LitGPT resource-tables", "") +
                             row("C", "LitGPT blog", "bitsandbytes 0.42.0") + row("D", "lit-gpt blog (2023)", "");
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 4);
    for (const auto& x : c) REQUIRE(x.compared);
    // One copy of the inputs bitsandbytes < 0.43.2 keeps: LitGPT's LoRA dropout (0.05) gives the
    // adapters their own copy, so the fused qkv's input (the norm's output, 4096) is kept beside
    // those of gate/up (4096) and down (11008); o's input is SDPA's own saved output (a view after
    // the fused kernel's transpose), kept already: 32 layers x 512 tokens x 2 B x 19,200 =
    // 629,145,600 B.
    const double copy = 32 * 512.0 * 2 * (4096 + 4096 + 11008);
    CHECK(c[1].estimated_bytes - c[0].estimated_bytes == Catch::Detail::Approx(copy).epsilon(0.01));  // 0.41.1 (the tables' header), once
    CHECK(c[2].estimated_bytes - c[1].estimated_bytes == Catch::Detail::Approx(copy).epsilon(0.01));  // 0.42: LitGPT's loop keeps them twice
    CHECK(c[3].estimated_bytes == c[1].estimated_bytes);                                // lit-gpt in 2023: longest sample first
}

TEST_CASE("validate reads a compiled loss and torchtune's chunked cross-entropy from a row's note", "[calibration]") {
    // torchtitan Llama-3.1-8B, FSDP over 8 GPUs, one 8,192-token sequence, op-level SAC, compiled.
    auto titan = [](const char* id, const char* note) {
        return std::string(id) + ",torchtitan run,pretrain,Llama-3.1-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,bf16-mixed,full,adamw,1,"
                                 "8192,selective,8,fsdp-full-shard dp8,reserved,40,GiB," +
               note + "\n";
    };
    CHECK(row_config(titan("A", "compile")).training.compile_loss == Toggle::Auto);
    CHECK(row_config(titan("B", "torch.compile with compiled loss")).training.compile_loss == Toggle::On);
    CHECK(row_config(titan("B", "torch.compile with compiled loss")).training.logits_fp32 == Toggle::Auto);
    CHECK(row_config(titan("C", "torch.compile with compiled loss")).training.compile == Toggle::On);
    // The loss's three FP32 vocab-sized buffers (torchtitan: no 16-bit logits held) become the saved
    // BF16 logits and their BF16 gradient: 8,192 tokens x 128,256 x (12 - 4) B = 8,405,385,216 B less.
    const auto c = compared_rows(titan("A", "compile") + titan("B", "compiled loss"));
    REQUIRE(c.size() == 2);
    const double saved = 8192 * 128256.0 * 8;
    CHECK(c[0].breakdown.find("logits_loss 12.608") != std::string::npos);  // 8,192 x 128,256 x 12 B
    CHECK(c[1].breakdown.find("logits_loss 4.2026") != std::string::npos);  // 8,192 x 128,256 x 4 B
    // Reserved falls by more: the torchtitan churn share (0.13 x 0.5 compiled) of the saving too.
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes >= saved);
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes <= saved * 1.07);
    // torchtune's CEWithChunkedOutputLoss: 8 chunks on the sequence, 2 x 2,048 / 8 = 512 tokens each.
    const Config tt = row_config("T,torchtune README,qlora,Llama-3.1-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,nf4-torchao,"
                                 "qlora r8 q+k+v+o+mlp,adamw,2,2048,full,1,none,reserved,7.4,GiB,compiled loss (CEWithChunkedOutputLoss)");
    CHECK(tt.training.loss_chunk_tokens == 512);
    CHECK(row_config(titan("D", "compile")).training.loss_chunk_tokens == -1);  // the profile's
}

TEST_CASE("validate reads transformers' attention implementation from a row's note", "[calibration][attention]") {
    // Llama-3.1-8B LoRA r8 q+v, one 4,096-token sequence, BF16.
    auto row = [](const char* id, const char* source, const char* note) {
        return std::string(id) + "," + source + ",lora,Llama-3.1-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,bf16,lora r8 q+v,adamw,1,4096,no,1,none,alloc,20,GB," +
               note + "\n";
    };
    CHECK(row_config(row("A", "TRL blog", "")).training.attention == AttentionKernel::Auto);
    CHECK(row_config(row("B", "TRL blog", "attn_implementation=\"\"flash_attention_2\"\"")).training.attention == AttentionKernel::Fa2);
    CHECK(row_config(row("C", "Axolotl run", "\"sdpa with enable_gqa, packed\"")).training.attention == AttentionKernel::SdpaGqa);
    CHECK(row_config(row("D", "LitGPT blog", "flash_attention_2")).training.attention == AttentionKernel::Auto);  // LitGPT's own attention
    const auto c = compared_rows(row("A", "TRL blog", "") + row("B", "TRL blog", "flash_attention_2"));
    REQUIRE(c.size() == 2);
    // FA2 keeps K and V at 8 heads, not 32 (2 x 24 x 128 x 2 B a token; the frozen o_proj keeps no
    // input either way): 32 layers x 4,096 tokens x 12,288 B = 1,610,612,736 B of activations, plus
    // at most the allocator's 6% churn share on top.
    const double saved = 32 * 4096.0 * 12288;
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes >= saved);
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes <= saved * 1.07);
}

TEST_CASE("QLoRA rows: bitsandbytes before 0.43.0 dequantizes to FP16 (Params4bit.cuda quantized a .half() copy)", "[calibration]") {
    auto dequant_fp16 = [](const char* source, const char* note) {
        return row_config(std::string("A,") + source +
                          ",qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,nf4-bnb,qlora r8 q+v,adamw,1,512,no,1,none,alloc,14,GB," + note)
            .training.lora.dequant_fp16;
    };
    CHECK(dequant_fp16("HF blog", "bitsandbytes 0.42.0") == Toggle::On);
    CHECK(dequant_fp16("HF blog", "bitsandbytes 0.43.0") == Toggle::Auto);  // keeps the weight's dtype
    CHECK(dequant_fp16("HF blog (2023)", "") == Toggle::On);
    CHECK(dequant_fp16("HF blog", "") == Toggle::Auto);
}

TEST_CASE("torchtune rows: torchao 0.1's init residue and the kept logits from the tutorials of April 2024 or the note", "[calibration]") {
    // Llama-2-7B QLoRA r8 (torchao NF4), 2 x 1024 tokens, full recomputation, reserved.
    auto cfg = [](const char* source, const char* note) {
        return row_config(std::string("A,") + source +
                          ",qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,nf4-torchao,qlora r8,adamw,2,1024,full,1,none,reserved,9,GB," + note)
            .training;
    };
    // torchtune's docs tutorials (15 April 2024) ran torchao 0.1 and a recipe that kept `logits`.
    CHECK(cfg("torchtune docs qlora_finetune", "").lora.unchunked_quantize == Toggle::On);
    CHECK(cfg("torchtune docs qlora_finetune", "").keeps_logits == Toggle::On);
    // Elsewhere only as the note says; a README of September 2024 leaves both to the profile (off).
    CHECK(cfg("torchtune README (RTX-4090)", "torchao 0.1; logits kept").lora.unchunked_quantize == Toggle::On);
    CHECK(cfg("torchtune README (RTX-4090)", "torchao 0.1; logits kept").keeps_logits == Toggle::On);
    CHECK(cfg("torchtune README Llama-3.1 table (RTX-4090)", "").lora.unchunked_quantize == Toggle::Auto);
    CHECK(cfg("torchtune README Llama-3.1 table (RTX-4090)", "").keeps_logits == Toggle::Auto);
    // The tutorials ran the configs' gradient_accumulation_steps (16 QLoRA, 64 LoRA: recipes/configs/
    // llama2 at 0914d5cfb); a README row and a note's own "grad accum" keep theirs.
    CHECK(cfg("torchtune docs qlora_finetune", "").grad_accum == 16);
    CHECK(row_config("A,torchtune docs lora_finetune,lora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,bf16,lora r8 q+v,"
                     "adamw,2,1024,full,1,none,reserved,15,GB,").training.grad_accum == 64);
    CHECK(cfg("torchtune docs qlora_finetune", "grad accum 2").grad_accum == 2);
    CHECK(cfg("torchtune README (RTX-4090)", "").grad_accum == 0);  // 0: from global_batch, else 1
    // The residue's floor over the step's own peak (about 5.5 GB), with torchao 0.1 only: the weights,
    // 6,476,005,376 NF4 weights x 0.515869 B + the BF16 embedding and head 2 x 32,000 x 4096 x 2 B +
    // 4,194,304 adapters x 2 B = 3,873,447,936 B, plus 0.40 x those linears in BF16 (5,180,804,300.8 B).
    const auto c = compared_rows(std::string("A,torchtune docs qlora_finetune,qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,"
                                             "nf4-torchao,qlora r8,adamw,2,1024,full,1,none,reserved,9,GB,\n") +
                                 "B,torchtune README Llama-3.1 table,qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,"
                                 "nf4-torchao,qlora r8,adamw,2,1024,full,1,none,reserved,9,GB,\n");
    REQUIRE(c.size() == 2);
    CHECK(c[0].estimated_bytes == Approx(3873447936.0 + 0.40 * 2 * 6476005376.0).epsilon(0.001));
    CHECK(c[1].estimated_bytes < 6.0e9);
}

TEST_CASE("every task has a handler; unknown tasks are named; the context row is not scored", "[calibration]") {
    const std::string text = std::string(kHeader) + "S1,x,serve,m,,,,,,,,,,,,,,,,,,,vllm,1,GiB,\n" +
                             "U1,x,painting,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,\n" + "K1,x,context,none,,,,,,,,,,,,,,,,,1,none,smi,1343,MiB,\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    auto checks = io::check_rows(t.value);
    REQUIRE(checks.size() == 3);
    CHECK(io::row_estimator("serve") != nullptr);
    CHECK(checks[1].skipped == "unknown task \"painting\"");
    // The CUDA context constant is this row's reading: reported, never scored against itself.
    CHECK_FALSE(checks[2].compared);
    CHECK(checks[2].skipped.find("the source of the eager CUDA context (1408237568 bytes") != std::string::npos);  // 1343 MiB
}

TEST_CASE("every calibration row: accuracy targets and verdicts", "[calibration]") {
    std::string text;
    if (!read_file(VRAMCALC_CALIBRATION_CSV, text)) {
        FAIL("calibration CSV not found at " << VRAMCALC_CALIBRATION_CSV << " (tests/calibration/measured.csv)");
    }
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto checks = io::check_rows(t.value);
    int training_rows = 0;
    for (const auto& c : checks) {
        INFO(c.id << " " << c.model << ": measured " << c.measured_bytes << ", estimate " << c.estimated_bytes << " " << c.skipped);
        if (c.task == "context") {
            CHECK_FALSE(c.compared);  // the CUDA context constant's own reading
            continue;
        }
        REQUIRE(c.compared);  // every other row of every task is estimated and scored
        const bool training = c.task == "pretrain" || c.task == "full_ft" || c.task == "lora" || c.task == "qlora";
        training_rows += training;
        if (!c.measured_oom) CHECK(std::fabs(c.error) <= 0.15);
        if (c.verdict_known) CHECK(c.verdict_right);
    }
    CHECK(training_rows >= 25);
    // Issue 12's targets for the calibration set: median <= 3%, p90 <= 8%, worst <= 15%, every
    // fits/OOM verdict right (each row whose source or note names a catalog GPU has one).
    const io::CalibrationSummary s = io::summarize(checks);
    INFO(io::format_checks(checks));
    CHECK(s.scored >= 30);
    CHECK(s.median_abs_error <= 0.03);
    CHECK(s.p90_abs_error <= 0.08);
    CHECK(s.worst_abs_error <= 0.15);
    CHECK(s.verdicts >= 18);
    CHECK(s.verdicts_right == s.verdicts);
}

TEST_CASE("summary: p90 by nearest rank, within 10%, OOM rows only in verdicts", "[calibration]") {
    std::vector<io::RowCheck> checks(10);
    for (int i = 0; i < 10; ++i) {
        checks[i].compared = true;
        checks[i].error = (i + 1) * 0.01 * (i % 2 ? -1 : 1);  // |error| 1%..10%
    }
    checks[9].error = 0.30;                                   // one row 30% off
    io::RowCheck oom;
    oom.compared = true;
    oom.measured_oom = true;
    oom.verdict_known = true;
    oom.verdict_right = true;
    checks.push_back(oom);
    const io::CalibrationSummary s = io::summarize(checks);
    CHECK(s.compared == 11);
    CHECK(s.scored == 10);
    CHECK(s.median_abs_error == Catch::Detail::Approx(0.055));  // (5% + 6%) / 2
    CHECK(s.p90_abs_error == Catch::Detail::Approx(0.09));      // the 9th of 10 sorted
    CHECK(s.worst_abs_error == Catch::Detail::Approx(0.30));
    CHECK(s.within_10_percent == 9);
    CHECK(s.verdicts == 1);
}

TEST_CASE("validate finds the GPU of a row in any catalog GPU named in its source or note", "[calibration]") {
    const std::string text = std::string(kHeader) +
                             "G1,someone's blog (MI300X-192GB),full_ft,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,\n"
                             "G2,a forum post,full_ft,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,ran on an RTX 5090-32GB\n"
                             "G3,a paper,full_ft,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,H100 NVL-94GB\n"
                             "G4,a README (RTX-4090),full_ft,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,\n"
                             "G5,torchtitan llama3_h100_202412,full_ft,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    CHECK(io::calibration_row_gpu({&t.value, 0}) == "mi300x-192gb");
    CHECK(io::calibration_row_gpu({&t.value, 1}) == "rtx-5090-32gb");
    CHECK(io::calibration_row_gpu({&t.value, 2}) == "h100-nvl-94gb");
    CHECK(io::calibration_row_gpu({&t.value, 3}) == "rtx-4090-24gb");  // the catalog's one RTX 4090
    CHECK(io::calibration_row_gpu({&t.value, 4}).empty());            // "_h100_2024..." names no GPU
}

TEST_CASE("validate reads the weight spellings people write", "[calibration]") {
    struct Case {
        const char* column;
        const char* format;
        int group;
    };
    const Case cases[] = {
        {"gptq-int4-g128", "gptq-int4", 128}, {"awq-int4-g128", "awq-int4", 128}, {"4bit-128g", "gptq-int4", 128},
        {"8bit-32g", "gptq-int8", 32},        {"GPTQ", "gptq-int4", 0},           {"int8-bnb", "bnb-int8", 0},
        {"nf4", "bnb-nf4", 0},                {"gguf Q4_K_M", "q4_k_m", 0},       {"Q4_K_M", "q4_k_m", 0},
        {"gguf-q8_0", "q8_0", 0},             {"bf16", "bf16", 0},
    };
    for (const auto& c : cases) {
        INFO(c.column);
        const io::RowFormat f = io::row_format(c.column);
        CHECK(f.format == c.format);
        CHECK(f.group_size == c.group);
    }
}

TEST_CASE("validate --cv: each fitted constant scored on rows of other sources only", "[calibration]") {
    // The two files as `vramcalc validate measured.csv extra.csv --cv` reads them: one table, in
    // which every constant's fitted rows are found (X12, the bare CUDA context's, is in extra.csv).
    std::string text, extra_text;
    if (!read_file(VRAMCALC_CALIBRATION_CSV, text)) FAIL("calibration CSV not found at " << VRAMCALC_CALIBRATION_CSV);
    if (!read_file(VRAMCALC_EXTRA_CSV, extra_text)) FAIL("extra CSV not found at " << VRAMCALC_EXTRA_CSV);
    auto measured = io::parse_csv(text);
    auto extra = io::parse_csv(extra_text);
    REQUIRE(measured.ok);
    REQUIRE(extra.ok);
    REQUIRE(extra.value.header == measured.value.header);
    io::CsvTable both = measured.value;
    for (const auto& r : extra.value.rows) both.rows.push_back(r);
    // Held-out rows of `t` (every constant's), checked never to share a source with a fitted row.
    auto held_out_rows = [](const io::CsvTable& t, bool all_fitted_here) {
        const auto checks = io::check_rows(t);
        const auto lines = io::cross_validate(t, checks);
        REQUIRE(lines.size() == io::fitted_constants().size());
        std::vector<io::RowCheck> held_out;
        for (const auto& l : lines) {
            INFO(l.constant->name);
            if (all_fitted_here) CHECK(!l.fitted_sources.empty());  // every constant's fitted rows are in the table
            for (const auto& id : l.held_out_ids) {
                // A held-out row never shares a source with a row the constant was fitted on.
                for (size_t i = 0; i < t.rows.size(); ++i) {
                    const io::CalibrationRow row{&t, i};
                    if (row.get("id") != id) continue;
                    const std::string src = io::row_source(row);
                    CHECK(std::find(l.fitted_sources.begin(), l.fitted_sources.end(), src) == l.fitted_sources.end());
                    held_out.push_back(checks[i]);
                }
            }
        }
        // The CUDA context (read on C07, perf_train_gpu_one) is tested by C01 (model_memory_anatomy)
        // and, with extra.csv, by the 2021 performance page's DDP rows (X53-X56).
        REQUIRE(!lines[0].held_out_ids.empty());
        CHECK(lines[0].held_out_ids[0] == "C01");
        CHECK(std::fabs(checks[0].error) <= 0.03);
        return held_out;
    };
    // The ids a constant is judged on away from its own source, found by name.
    auto held_ids = [](const io::CsvTable& t, const char* constant) {
        const auto checks = io::check_rows(t);
        for (const auto& l : io::cross_validate(t, checks))
            if (std::string(l.constant->name) == constant) return l.held_out_ids;
        FAIL("no fitted constant named " << constant);
        return std::vector<std::string>{};
    };
    // The bare context's per-thread constant, fitted on X12 (RTX 4060 Ti), judged on X13 (RTX 3090,
    // 246.64 vs 256 MiB) and X14 (B200, 582.17 vs 612 MiB): both within 5%.
    const auto all_held = held_out_rows(both, true);
    int bare = 0;
    for (const auto& c : all_held)
        if (c.id == "X13" || c.id == "X14") {
            ++bare;
            CHECK(std::fabs(c.error) <= 0.05);
        }
    CHECK(bare == 2);
    // Issue 12's held-out rows for the training constants (extra.csv X40-X57, each from a source the
    // constant was not fitted on), scored as `validate --cv` scores them (docs/accuracy.md):
    auto error_of = [&](const std::string& id) {
        for (const auto& c : all_held)
            if (c.id == id) return c;
        FAIL("held-out row " << id << " missing");
        return io::RowCheck{};
    };
    const std::vector<std::string> bert = {"X53", "X54", "X55", "X56"};
    CHECK(held_ids(both, "hf-legacy allocator fragmentation 0.03") == bert);
    const std::vector<std::string> litgpt = {"X40", "X41", "X42", "X43", "X44", "X45", "X46"};
    // The same file's QLoRA rows not used before (issue 12's tenth pass): nf4-dq, phi-1.5, StableLM.
    const std::vector<std::string> litgpt_qlora = {"X88", "X89", "X90", "X91", "X92", "X93"};
    std::vector<std::string> litgpt_all = litgpt;
    litgpt_all.insert(litgpt_all.end(), litgpt_qlora.begin(), litgpt_qlora.end());
    CHECK(held_ids(both, "LitGPT loss 14 B per logit") == litgpt_all);
    // The residue is torchao 0.1's (whole-matrix quantization at init): X01 (May 2024) ran it, X52
    // (September 2024) chunked torchao, so the constant is not applied to, nor judged by, X52.
    const std::vector<std::string> qlora = {"X01"};
    CHECK(held_ids(both, "torchtune QLoRA init residue 0.40") == qlora);
    // X52 (torchtune README, September 2024, Peak Memory per GPU 7.4 GiB) with no residue floor and
    // the logits freed before the last layer's recompute: 7.74 GiB reserved, +4.7% (it was +42.6%).
    for (const auto& c : io::check_rows(both)) {
        if (c.id != "X52") continue;
        CHECK(c.error > 0);
        CHECK(c.error < 0.06);
    }
    const std::vector<std::string> titan = {"X47", "X48", "X49", "X50", "X51"};
    std::vector<std::string> titan_all = titan;
    titan_all.push_back("X57");  // eager: not the compile share's
    CHECK(held_ids(both, "torchtitan allocator fragmentation 0.13") == titan_all);
    CHECK(held_ids(both, "torch.compile fragmentation share 0.5") == titan);
    // bert-base DDP on 2 GPUs (nvidia-smi): 5.4-8.3% over, the fixed part (context, NCCL, DDP
    // buckets) of a card the page does not name; every row within 10%.
    for (const auto& id : bert) {
        INFO(id);
        CHECK(error_of(id).error > 0);
        CHECK(error_of(id).error <= 0.10);
    }
    // LitGPT's resource tables (A100 40 GB): the LoRA and QLoRA rows 2-6% under, and both OOMs
    // (micro-batch 4 on 7B, 2 on 13B) called as OOMs on the 40 GB card.
    for (const auto& id : litgpt) {
        INFO(id);
        const io::RowCheck c = error_of(id);
        CHECK(c.verdict_known);
        CHECK(c.verdict_right);
        if (!c.measured_oom) CHECK(std::fabs(c.error) <= 0.06);
    }
    // Their QLoRA rows of the tenth pass (bitsandbytes 0.41.1, micro-batch 1, the longest Alpaca sample):
    // within 10%, over on the two small GELU models (phi-1.5 +9.7% / +9.8%, StableLM +3.7% / +3.8%),
    // under on Llama-2 with double quantization (-5.1%, -5.7%): docs/accuracy.md, tenth pass.
    for (const auto& id : litgpt_qlora) {
        INFO(id);
        const io::RowCheck c = error_of(id);
        CHECK(c.verdict_right);
        CHECK(std::fabs(c.error) <= 0.10);
    }
    CHECK(error_of("X88").error > 0.09);
    CHECK(error_of("X93").error < -0.05);
    CHECK(error_of("X42").measured_oom);
    CHECK(error_of("X44").measured_oom);
    // torchtitan before its loss was compiled (torchao's float8 README, March 2025: its BF16 baseline,
    // whose note names the float8 README but no float8 run) and eager (PR #1884, October 2025): within 5%.
    for (size_t i = 0; i < extra.value.rows.size(); ++i)
        if (extra.value.rows[i][0] == "X51") {
            auto x51 = io::training_row_config(io::CalibrationRow{&extra.value, i});
            REQUIRE(x51.ok);
            CHECK(x51.value.training.precision == TrainPrecision::Bf16Mixed);
        }
    CHECK(std::fabs(error_of("X51").error) <= 0.05);
    CHECK(std::fabs(error_of("X57").error) <= 0.05);
    // After it (June 2025), with the compiled loss at 4 B a logit and the partitioner's unsaved down
    // projection: the batch-2 H200 runs within 5% under, the batch-1 runs the open miss
    // docs/accuracy.md names (about 24% over).
    for (const char* id : {"X49", "X50"}) {
        INFO(id);
        CHECK(std::fabs(error_of(id).error) < 0.05);
    }
    for (const char* id : {"X47", "X48"}) {
        INFO(id);
        CHECK(error_of(id).error > 0.20);
        CHECK(error_of(id).error < 0.27);
    }
    // The vLLM constants (fitted on C30, vLLM issue 12330) judged on the seven other vLLM logs, X15-X29
    // (docs/validation.md): median 3.1% over their pools, activation peaks, non-torch and weights.
    for (const auto& l : io::cross_validate(both, io::check_rows(both))) {
        if (std::string(l.constant->fitted_on) != "C30") continue;
        CHECK(l.held_out_ids == std::vector<std::string>{"X15", "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25",
                                                         "X26", "X27", "X28", "X29"});
        CHECK(l.held_out.scored == 15);
        CHECK(l.held_out.median_abs_error == Catch::Detail::Approx(0.0313).margin(0.0005));  // X21's -3.13%
    }
    // Issue 12: on the calibration file, the cross-validated column no worse than p90 <= 12% (C01,
    // 0.5%). With extra.csv it also holds X01, X47-X50 and the vLLM row X19, the open
    // misses above and in docs/accuracy.md.
    const io::CalibrationSummary s = io::summarize(held_out_rows(measured.value, false));
    CHECK(s.scored >= 1);
    CHECK(s.p90_abs_error <= 0.12);
}
