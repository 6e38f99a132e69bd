// The calibration rows of the inference model (HF generate, vLLM, GGUF files) through the same
// path as `vramcalc validate`, against the targets: median |error| <= 7%, none worse than 20%.
#include <catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/units.hpp"
#include "io/calibration.hpp"

using namespace vc;

namespace {

const char* kHeader =
    "id,source,task,model,L,h,a,kv,hd,V,ffn,mlp,tied,params_b,weights,method,optimizer,batch,seq,ckpt,gpus,sharding,what,value,unit,"
    "note\n";

bool read_csv(std::string& out, const char* path = VRAMCALC_CALIBRATION_CSV) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

bool inference_task(const std::string& task) { return task == "inference" || task == "serve" || task == "file"; }

// tests/calibration/extra.csv, parsed; the test fails (not skips) when it is missing.
io::CsvTable extra_table() {
    std::string text;
    if (!read_csv(text, VRAMCALC_EXTRA_CSV)) FAIL("extra CSV not found at " << VRAMCALC_EXTRA_CSV);
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    return t.value;
}

struct RowError {
    const char* id;
    double error;
};

// Each expected row of `checks` compared, its error within `margin` of the figure and its fits/OOM
// verdict right where the row names a GPU; returns how many of them were found.
int check_row_errors(const std::vector<io::RowCheck>& checks, const std::vector<RowError>& expected, double margin) {
    int found = 0;
    for (const auto& c : checks)
        for (const auto& x : expected) {
            if (c.id != x.id) continue;
            ++found;
            INFO(c.id << ": measured " << c.measured_bytes << ", estimate " << c.estimated_bytes << " " << c.skipped);
            REQUIRE(c.compared);
            CHECK(c.error == Catch::Detail::Approx(x.error).margin(margin));
            if (c.verdict_known) CHECK(c.verdict_right);  // X24's start failed: "does not fit" is right
        }
    return found;
}

}  // namespace

TEST_CASE("inference rows: row -> config, the quantity the row measures", "[calibration]") {
    const std::string text = std::string(kHeader) +
        // A GGUF file of Llama-3.1-8B in Q8_0: 7.95 GiB (llama.cpp's quantize README).
        "F1,x,file,Llama-3.1-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,gguf Q8_0,,,,,,,,file,7.95,GiB,\n"
        // A vLLM line whose note names the KV cache first: the pool is compared.
        "V1,vLLM (A100-40GB),serve,Meta-Llama-3-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,bf16,"
        "vllm util 0.90 max_model_len 8192,,,,no,1,none,vllm,19.2,GiB,KV cache; weights 14.96 GiB\n"
        // A vLLM line without a GPU cannot be sized.
        "V2,a blog,serve,Meta-Llama-3-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,bf16,vllm util 0.90,,,,no,1,none,vllm,15,GiB,weights\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto checks = io::check_rows(t.value);
    REQUIRE(checks.size() == 3);
    REQUIRE(checks[0].compared);
    CHECK(std::fabs(checks[0].error) < 0.002);
    REQUIRE(checks[1].compared);
    CHECK(bytes_to_gib(checks[1].estimated_bytes) == Catch::Detail::Approx(19.2).epsilon(0.01));  // the modelled pool
    CHECK(checks[1].gpu_id == "a100-40gb");
    CHECK_FALSE(checks[2].compared);
    CHECK(checks[2].skipped.find("GPU") != std::string::npos);
}

TEST_CASE("inference rows: the transformers version or the year picks generate's cache behaviour", "[calibration]") {
    // Llama-2-13B FP16, 16 sequences of 1,024 tokens after 1,000-token prompts, allocated memory.
    auto row = [](const char* id, const char* source, const char* note) {
        return std::string(id) + "," + source + ",inference,Llama-2-13B,40,5120,40,40,128,32000,13824,swiglu,no,13.0,fp16,generate,,16,1024,no,1,"
                                                 "none,alloc,40,GB," + note + "\n";
    };
    const std::string text = std::string(kHeader) + row("A", "a blog", "1000-token prompt; transformers 4.36") +
                             row("B", "a blog", "1000-token prompt; transformers 4.50") + row("C", "a blog (2023)", "1000-token prompt") +
                             row("D", "a blog", "1000-token prompt; transformers 4.44") + row("E", "a blog", "1000-token prompt; 2048 tokens");
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 5);
    for (const auto& x : c) REQUIRE(x.compared);
    // Current transformers: the prefill's residual stream (2 x 16 x 1000 x 5120 x 2 B), its MLP
    // (16 x 1000 x 13824 x 2 B x 3) and one layer's cache twice while concatenating (16 x 1024 x
    // 819,200 / 80); KV 16 x 1024 x 819,200 B.
    const double kv = 16.0 * 1024 * 819200;
    const double current = 327680000.0 + 1327104000.0 + kv / 80;
    // Before 4.42: step two holds the prefill's cache twice and the prompt's FP32 logits.
    const double legacy = 2 * 16.0 * 1000 * 819200 + 16.0 * 1000 * 32000 * 4 - kv;
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes == Catch::Detail::Approx(legacy - current));
    CHECK(c[2].estimated_bytes == Catch::Detail::Approx(c[0].estimated_bytes));  // measured in 2023: before 4.42
    // 4.44: the prompt's logits in full (16 x 1000 x 32,000 x (2 + 4) B) replace the MLP as the largest term.
    CHECK(c[3].estimated_bytes - c[1].estimated_bytes == Catch::Detail::Approx(16.0 * 1000 * 32000 * 6 - 1327104000.0));
    CHECK(c[4].estimated_bytes == c[1].estimated_bytes);  // "2048" is a length, not a year
}

TEST_CASE("inference rows: GPTQ kernel and act-order words; optimum's benchmark measures allocated + external", "[calibration]") {
    // Llama-2-13B GPTQ-int4 g128, 4 sequences of 512 + 512 tokens, transformers 4.32.
    auto row = [](const char* id, const char* source, const char* what, const char* note) {
        return std::string(id) + "," + source + ",inference,Llama-2-13B,40,5120,40,40,128,32000,13824,swiglu,no,13.0,gptq-int4-g128,generate,,4,1024,no,1,none," +
               what + ",14000,MiB,512-token prompt; transformers 4.32; " + note + "\n";
    };
    const std::string text = std::string(kHeader) + row("A", "a blog (A100-80GB)", "alloc", "exllama") +
                             row("B", "a blog (A100-80GB)", "alloc", "exllama; act-order") +
                             row("C", "a blog (A100-80GB)", "alloc", "exllama; no act-order") +
                             row("D", "a blog (A100-80GB)", "alloc", "autogptq-cuda-old") +
                             row("E", "optimum tests/benchmark README (A100-80GB)", "smi", "exllama") +
                             row("F", "a blog (A100-80GB)", "smi", "exllama");
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 6);
    for (const auto& x : c) REQUIRE(x.compared);
    // act-order adds ExLlama v1's temp_state: 2048 x 13824 x 2 B.
    CHECK(c[1].estimated_bytes - c[0].estimated_bytes == 56623104.0);
    CHECK(c[2].estimated_bytes == c[0].estimated_bytes);
    // AutoGPTQ's cuda-old kernel dequantizes the largest matrix (5120 x 13824 x 2 B) only while a
    // prefill matmul runs, where ExLlama keeps it (temp_dq) for good; ExLlamaV2 (AutoGPTQ's
    // from_quantized default) would add its 0.7 GB temp_fwd.
    CHECK(c[3].estimated_bytes <= c[0].estimated_bytes);
    CHECK(c[3].estimated_bytes >= c[0].estimated_bytes - 5120.0 * 13824 * 2);
    // optimum's benchmark_gptq.py: peak allocated + (nvidia-smi peak - peak reserved), i.e. the
    // allocated peak plus the CUDA context (0.5 GiB); a plain nvidia-smi row adds the allocator's
    // cached segments on top.
    CHECK(c[4].estimated_bytes - c[0].estimated_bytes == 0.5 * 1073741824.0);
    CHECK(c[5].estimated_bytes > c[4].estimated_bytes);
}

TEST_CASE("inference rows: bitsandbytes' 4-bit compute dtype as the row names it", "[calibration]") {
    // Llama-2-13B FP4 (bitsandbytes), 16 sequences of 512 prompt tokens and one new token (optimum's
    // --prefill benchmark), allocated memory; B names BitsAndBytesConfig's compute dtype as optimum's
    // benchmark_gptq.py sets it.
    auto row = [](const char* id, const char* note) {
        return std::string(id) + ",a blog (A100-80GB),inference,Llama-2-13B,40,5120,40,40,128,32000,13824,swiglu,no,13.0,fp4-bnb,generate,,16,513,no,1,"
                                 "none,alloc,17,GB,512-token prompt + 1 new token; transformers 4.32" + note + "\n";
    };
    const std::string text = std::string(kHeader) + row("A", "") + row("B", "; bnb_4bit_compute_dtype=torch.float16");
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 2);
    REQUIRE(c[0].compared);
    REQUIRE(c[1].compared);
    // Linear4bit's FP32 default: the dequantized largest matrix cast again (5120 x 13824 x 4 B) and,
    // per prefill token, the input and output in FP32 at the widest projection ((5120 + 13824) x 4 B
    // x 16 x 512 tokens); in FP16 (the model's dtype) neither exists.
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes == Catch::Detail::Approx(5120.0 * 13824 * 4 + (5120.0 + 13824) * 4 * 16 * 512));
}

TEST_CASE("inference and training rows: what a row says about CUDA module loading", "[calibration]") {
    // Llama-2-13B FP16 generate, 1 x 512 + 512 tokens, nvidia-smi through optimum's benchmark
    // (allocated + outside PyTorch): the rows differ only in what they say about the CUDA stack.
    auto row = [](const char* id, const char* note) {
        return std::string(id) + ",optimum tests/benchmark README (A100-80GB),inference,Llama-2-13B,40,5120,40,40,128,32000,13824,swiglu,no,13.0,"
                                 "fp16,generate,,1,1024,no,1,none,smi,29.15298,GB,512-token prompt; transformers 4.32; " +
               note + "\n";
    };
    const std::string text = std::string(kHeader) + row("A", "PyTorch 2.0.1") + row("B", "PyTorch 2.0.1; driver 470.57") +
                             row("C", "PyTorch 1.12; driver 525") + row("D", "PyTorch 1.12; driver 535") + row("E", "torch 2.0.1+cu116") +
                             row("F", "CUDA_MODULE_LOADING=EAGER") + row("G", "PyTorch 2.0.1; CUDA 11.8; driver 530");
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 7);
    for (const auto& x : c) REQUIRE(x.compared);
    // Eager loading adds the eager context less the lazy one: on this A100, 1343 MiB (a V100
    // reading) plus the A100's 28 more SMs x 2048 threads x 1986 B of local memory (113,885,184 B,
    // core/catalog/cuda_context.hpp), less 512 MiB (an A100 reading).
    const double eager = (1343.0 - 512.0) * 1048576 + 28.0 * 2048 * 1986;
    CHECK(c[1].estimated_bytes - c[0].estimated_bytes == eager);  // R470: no lazy loading
    CHECK(c[2].estimated_bytes - c[0].estimated_bytes == eager);  // PyTorch 1.12 on R525: the driver's default, eager
    CHECK(c[3].estimated_bytes == c[0].estimated_bytes);          // R535 (CUDA 12.2) loads lazily by default
    CHECK(c[4].estimated_bytes - c[0].estimated_bytes == eager);  // a CUDA 11.6 runtime
    CHECK(c[5].estimated_bytes - c[0].estimated_bytes == eager);
    CHECK(c[6].estimated_bytes == c[0].estimated_bytes);

    // Training rows take the same words (runtime.lazy_loading): the HF docs' BERT row C01 runs the
    // hf-legacy profile (eager); saying "CUDA_MODULE_LOADING=LAZY" swaps in the lazy context. On its
    // V100 the difference is the same: 1343 MiB less (512 MiB less the 28 SMs x 2048 x 1986 B the
    // V100 has fewer than the A100).
    const std::string bert =
        "C01,HF transformers docs model_memory_anatomy (V100-16GB),full_ft,bert-large-uncased,24,1024,16,16,64,30522,4096,gelu,yes,0.335,fp32,"
        "full,adamw,4,512,no,1,none,smi,14949,MiB,";
    auto tt = io::parse_csv(std::string(kHeader) + bert + "\n" + bert + "CUDA_MODULE_LOADING=LAZY\n");
    REQUIRE(tt.ok);
    const auto b = io::check_rows(tt.value);
    REQUIRE(b.size() == 2);
    REQUIRE(b[0].compared);
    REQUIRE(b[1].compared);
    CHECK(b[0].estimated_bytes - b[1].estimated_bytes == eager);
}

TEST_CASE("every inference calibration row: median <= 7%, none worse than 20%", "[calibration]") {
    std::string text;
    if (!read_csv(text)) {
        FAIL("calibration CSV not found at " << VRAMCALC_CALIBRATION_CSV << " (tests/calibration/measured.csv)");
    }
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    std::vector<double> errors;
    for (const auto& c : io::check_rows(t.value)) {
        if (!inference_task(c.task)) continue;
        INFO(c.id << " " << c.model << ": measured " << c.measured_bytes << ", estimate " << c.estimated_bytes << " " << c.skipped);
        REQUIRE(c.compared);
        CHECK(std::fabs(c.error) <= 0.20);
        if (c.verdict_known) CHECK(c.verdict_right);
        errors.push_back(std::fabs(c.error));
    }
    REQUIRE(errors.size() >= 5);
    std::sort(errors.begin(), errors.end());
    const size_t n = errors.size();
    const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    CHECK(median <= 0.07);
}

TEST_CASE("serve rows: the log's settings read from the method column", "[calibration]") {
    // Llama-3.2-1B BF16 (the preset) on a card of total_gpu_memory 20 GiB (cudaMemGetInfo's total:
    // no driver reservation taken off it).
    auto row = [](const char* id, const char* source, const char* method, const char* unit, const char* note) {
        return std::string(id) + "," + source + ",serve,Llama-3.2-1B,16,2048,32,8,64,128256,8192,swiglu,yes,1.236,bf16," + method +
               ",,,,no,1,none,vllm,1," + unit + "," + note + "\n";
    };
    const char* base = "vllm util 0.50 max_model_len 4096 max_num_batched_tokens 2048 max_num_seqs 128 total_gpu_memory 20 GiB";
    const std::string text =
        std::string(kHeader) + row("A", "a log", base, "GiB", "activation peak") +
        row("B", "a log", "vllm util 0.50 max_model_len 32768 max_num_seqs 128 chunked prefill off total_gpu_memory 20 GiB", "GiB",
            "activation peak") +
        row("C", "a log", "vllm util 0.50 max_model_len 4096 tp 2 total_gpu_memory 20 GiB", "GiB", "non-torch memory") +
        row("D", "a log", base, "GiB", "KV cache") +
        row("E", "a log", "vllm util 0.60 max_model_len 4096 max_num_batched_tokens 2048 max_num_seqs 128 total_gpu_memory 20 GiB", "GiB",
            "KV cache") +
        row("F", "a log", base, "tokens", "KV tokens") +
        row("G", "a log", "vllm util 0.50 max_model_len 4096 max_num_batched_tokens 2048 max_num_seqs 128 enforce-eager total_gpu_memory 20 GiB",
            "GiB", "KV cache") +
        row("H", "a log", "vllm util 0.50 total_gpu_memory 0 GiB", "GiB", "KV cache") +
        row("I", "a log", "vllm util 0.50 max_num_seqs 2.5 total_gpu_memory 20 GiB", "GiB", "KV cache") +
        row("J", "a log (A100-40GB)", "vllm util 0.05", "GiB", "KV cache; start failed") + row("K", "a log (A100-40GB)", "vllm util 0.05", "GiB", "KV cache") +
        "L,a blog,inference,Llama-3.2-1B,16,2048,32,8,64,128256,8192,swiglu,yes,1.236,bf16,generate,,1,128,no,1,none,alloc,1000,tokens,\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    const auto c = io::check_rows(t.value);
    REQUIRE(c.size() == 12);
    for (size_t i = 0; i < 7; ++i) {
        INFO(c[i].id << " " << c[i].skipped);
        REQUIRE(c[i].compared);
    }
    // One forward over T tokens keeps T x 2 B x (2 x 2048 + 3 x 8192) (the residual stream and the
    // MLP, wider than the 5,120 of the attention projections); the sampler's 128 x 128,256 logits x
    // 40 B plus T x 2048 x 2 B. T = 2048: forward 117,440,512 B, logits 8,388,608 + 656,670,720 B.
    CHECK(c[0].estimated_bytes == 665059328.0);
    // Chunked prefill off: T = max(max_model_len, 2048) = 32,768; forward 32,768 x 57,344 B =
    // 1,879,048,192 B over the logits' 134,217,728 + 656,670,720 B.
    CHECK(c[1].estimated_bytes == 1879048192.0);
    // TP 2: the single-GPU 0.13 GiB and the 0.6 GiB of all-reduce buffers.
    CHECK(c[2].estimated_bytes == Catch::Detail::Approx(0.73 * 1073741824.0));
    // util 0.60 vs 0.50 of 20 GiB: the pool grows by 2 GiB (no driver reservation off the log's total).
    CHECK(c[4].estimated_bytes - c[3].estimated_bytes == Catch::Detail::Approx(2.0 * 1073741824.0));
    // KV tokens: whole blocks of 16 tokens x 32,768 B (16 layers x K and V x 8 heads x 64 x 2 B).
    CHECK(c[5].estimated_bytes == std::floor(c[3].estimated_bytes / (16 * 32768.0)) * 16);
    // enforce-eager: no CUDA graphs (0.5 GiB = 0.5368 GB otherwise); the pool is the same.
    CHECK(c[6].breakdown.find("cuda_graphs 0.0000 ") != std::string::npos);
    CHECK(c[3].breakdown.find("cuda_graphs 0.5368 ") != std::string::npos);
    CHECK(c[6].estimated_bytes == c[3].estimated_bytes);
    // Bad settings name the column and the accepted form.
    CHECK_FALSE(c[7].compared);
    CHECK(c[7].skipped.find("column method (total_gpu_memory) must be greater than 0") != std::string::npos);
    CHECK_FALSE(c[8].compared);
    CHECK(c[8].skipped.find("column method (max_num_seqs) must be a whole number") != std::string::npos);
    // A start that failed: 0.05 x (40 - 0.47) GiB = 1.98 GiB holds less than the 2.3 GiB of weights, so
    // no pool: "does not fit" is the right verdict for J, and wrong for K, which says it started.
    REQUIRE(c[9].compared);
    REQUIRE(c[10].compared);
    CHECK(c[9].verdict_known);
    CHECK(c[9].verdict_right);
    CHECK_FALSE(c[10].verdict_right);
    // Tokens are a serve row's unit only.
    CHECK_FALSE(c[11].compared);
    CHECK(c[11].skipped.find("unreadable unit \"tokens\"") != std::string::npos);
}

TEST_CASE("extra.csv's vLLM logs (X15-X29): each row's error, fitted on nothing", "[calibration]") {
    const io::CsvTable t = extra_table();
    const auto checks = io::check_rows(t);
    // The errors docs/validation.md lists: a change that moves a row must update them. X19 and X27
    // by hand: non-torch at TP 4 on cards without P2P (modified RTX 2080 Ti: "no P2P" in the row), so
    // NCCL's buffers in host memory and custom all-reduce off: 0.13 GiB vs 0.20 logged is -35.0% (with
    // P2P it was 0.13 + 0.6 GiB - 16 MiB = 0.714375 GiB, +257.2%); 0.13 vs 0.12 +8.3%. X17's pool gains
    // the 0.584375 GiB: 13.93 -> 14.51 GiB against 14.49 logged, +0.14%; with the checkpoint's own
    // 131,072-token window (the row's max_position_embeddings, DeepSeek-R1-0528-Qwen3-8B's config.json;
    // the qwen3-8b preset's 40,960 would have vLLM refuse max_model_len 65536) vLLM's RoPE table has
    // (131,072 - 40,960) x 128 x 2 B = 23,068,672 B more per GPU: 14.49 GiB, -0.006%. X21 by hand (the FlashInfer
    // sampler its note names): 2048 x 2048 x 2 B + 256 x 128,256 x 14 B = 468,058,112 B against
    // 0.45 GiB = 483,183,821 B, -3.13%.
    // X25 by hand: 0.90 x (79.65 - 0.47) GiB = 71.262 GiB, less weights 14.989 GiB (8,030,261,248 x 2 B
    // and the 131,072 x 128 x 2 B RoPE table), the profile 1.2388 GiB (256 x 128,256 logits x 40 B +
    // 2048 x 4096 x 2 B) and non-torch 0.13 GiB: 54.904 GiB against the logged 54.93.
    // X29 by hand (gpt-oss-20b on an A100, vLLM's MXFP4: experts alone, padded for Marlin): experts
    // 24 x 32 x 3 x 2944 x 3072 x 4.25 / 8 B = 11,069,816,832 B; attention 637,009,920 x 2 B, router
    // 2,211,840 x 2 B, embedding and head 2 x 201,088 x 2880 x 2 B, the 1-D rest (norms, biases, sinks)
    // 7,169,728 x 2 B and the FP32 YaRN table 131,072 x 64 x 4 B: 14,712,688,000 B = 13.702 GiB against
    // 13.72 logged, -0.13%.
    const std::vector<RowError> expected = {
        {"X15", 0.0170}, {"X16", -0.0950}, {"X17", -0.0001}, {"X18", 0.0424}, {"X19", -0.3500}, {"X20", -0.0027}, {"X21", -0.0313},
        {"X22", -0.0197}, {"X23", 0.0461},  {"X24", -0.2481}, {"X25", -0.0005}, {"X26", 0.0410}, {"X27", 0.0833}, {"X28", -0.0171},
        {"X29", -0.0013},
    };
    CHECK(check_row_errors(checks, expected, 0.0002) == 15);
    // The KV pool, what the vLLM constants move, within 5% on every log whose configuration is stated.
    for (const auto& c : checks) {
        const io::CalibrationRow row{&t, static_cast<size_t>(&c - checks.data())};
        const std::string note = row.get("note");
        if (c.task != "serve" || note.rfind("KV", 0) != 0 || note.find("note=uncertain") != std::string::npos) continue;
        INFO(c.id);
        CHECK(std::fabs(c.error) <= 0.05);
    }
}

TEST_CASE("extra.csv's LitGPT bitsandbytes generate rows (X77-X87): the head quantized, FP16 dequantization, fitted on nothing", "[calibration]") {
    const io::CsvTable t = extra_table();
    const auto checks = io::check_rows(t);
    // LitGPT's generate/base.py (torch.cuda.max_memory_allocated, A100 40GB, October 2023). X80, the
    // Falcon-7B BF16 baseline, by hand: its head apart from wte (the row's tied column "no" over the
    // preset's tied checkpoint), 7,217,189,760 x 2 B = 14.434 GB + a 261-token cache, against 14.50 GB.
    // X77 (NF4) by hand: every Linear in NF4 at 4.5 bits (6,921,420,800 weights, head included:
    // 3.893 GB), wte in BF16 (0.591 GB), the 1-D rest, and the prefill's FP16 + BF16 copies of the
    // dequantized head, 295,469,056 x 4 B = 1.182 GB: 5.67 GB against 5.72 (-0.9%); 4.49 GB (-21.5%)
    // with the head 16-bit and one BF16 copy of the MLP matrix, as transformers would hold it.
    // X79 (LLM.int8): the weights 7.517 GB and, as the checkpoint loads, the head's FP16 copy and two
    // int8 layouts beside the init's int8 head, 295,469,056 x 4 B: 8.70 GB against 8.70.
    const std::vector<RowError> expected = {
        {"X77", -0.0090}, {"X78", -0.0059}, {"X79", 0.0001}, {"X80", -0.0041}, {"X81", -0.0050}, {"X82", -0.0050},
        {"X83", -0.0038}, {"X84", -0.0044}, {"X85", -0.0046}, {"X86", -0.0080}, {"X87", -0.0070},
    };
    CHECK(check_row_errors(checks, expected, 0.0006) == 11);
    for (const auto& c : checks)
        if (c.task == "inference" && c.gpu_id == "a100-40gb") CHECK(c.verdict_known);  // the A100 40GB the files name
}

TEST_CASE("rows: the tied column over a preset's, and LitGPT's bnb.nf4-dq as double quantization", "[calibration]") {
    // Falcon-7B's checkpoint ties its head (the preset), LitGPT holds lm_head apart from wte: the row
    // says "no", 295,469,056 more weights. A row that leaves the column empty keeps the preset's.
    const std::string text = std::string(kHeader) +
                             "A,LitGPT tutorials/quantize.md (A100-40GB),inference,Falcon-7B,32,4544,71,1,64,65024,18176,gelu,no,7.22,bf16,generate,,1,261,"
                             "no,1,none,alloc,14.5,GB,5-token prompt\n"
                             "B,x (A100-40GB),inference,Falcon-7B,32,4544,71,1,64,65024,18176,gelu,,7.22,bf16,generate,,1,261,no,1,none,alloc,14.5,GB,5-token prompt\n"
                             "C,LitGPT tutorials/resource-tables.md (A100-40GB),qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,nf4-dq-bnb,"
                             "qlora r8 q+v,adamw,1,1304,no,1,none,alloc,13.84,GB,bitsandbytes 0.41.1\n"
                             "D,LitGPT tutorials/resource-tables.md (A100-40GB),qlora,Llama-2-7B,32,4096,32,32,128,32000,11008,swiglu,no,6.74,nf4-bnb,"
                             "qlora r8 q+v,adamw,1,1304,no,1,none,alloc,14.14,GB,bitsandbytes 0.41.1\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    Error err;
    CHECK_FALSE(io::calibration_row_model(io::CalibrationRow{&t.value, 0}, err).tied_embeddings);
    CHECK(io::calibration_row_model(io::CalibrationRow{&t.value, 1}, err).tied_embeddings);
    CHECK(err.field.empty());
    const auto c = io::check_rows(t.value);
    REQUIRE(c[0].compared);
    REQUIRE(c[1].compared);
    CHECK(c[0].estimated_bytes - c[1].estimated_bytes == Catch::Detail::Approx(65024.0 * 4544 * 2));
    auto dq = io::training_row_config(io::CalibrationRow{&t.value, 2});
    auto plain = io::training_row_config(io::CalibrationRow{&t.value, 3});
    REQUIRE(dq.ok);
    REQUIRE(plain.ok);
    CHECK(dq.value.training.lora.double_quant);
    CHECK_FALSE(plain.value.training.lora.double_quant);
}
