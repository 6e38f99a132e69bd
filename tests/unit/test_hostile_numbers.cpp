// Issue 16 (hostile input): each input a fuzzer or a careless user found now gets an error that
// names the field and its accepted range, or a result without NaN, Inf, negative sizes or wrapped
// integers. The same inputs are in tests/fuzz/corpus/ (docs/fuzzing.md).
#include <catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/estimate.hpp"
#include "core/solve.hpp"
#include "core/status.hpp"
#include "core/text.hpp"
#include "io/calibration.hpp"
#include "io/config_json.hpp"
#include "config_text.hpp"

using namespace vc;

namespace {

using test::parse;

const char* kHeader =
    "id,source,task,model,L,h,a,kv,hd,V,ffn,mlp,tied,params_b,weights,method,optimizer,batch,seq,ckpt,gpus,sharding,what,value,unit,note\n";
const char* kBertRow = "C01,HF transformers docs model_memory_anatomy (V100-16GB),full_ft,bert-large-uncased,24,1024,16,16,64,30522,4096,"
                       "gelu,yes,0.335,fp32,full,adamw,";

io::RowCheck check_one(const std::string& rows) {
    auto t = io::parse_csv(std::string(kHeader) + rows);
    REQUIRE(t.ok);
    const auto checks = io::check_rows(t.value);
    REQUIRE(checks.size() == 1);
    const std::string report = io::format_checks(checks);
    CHECK(report.find("nan") == std::string::npos);
    CHECK(report.find("inf ") == std::string::npos);  // "inf GB" measured before the fix
    CHECK(report.find("inf%") == std::string::npos);
    return checks[0];
}

}  // namespace

TEST_CASE("to_int_checked converts only what fits; to_int_saturated clamps") {
    int i = 7;
    CHECK(to_int_checked(2147483647.0, i));
    CHECK(i == 2147483647);
    CHECK(to_int_checked(-2147483648.0, i));
    CHECK(i == std::numeric_limits<int>::min());
    i = 7;
    CHECK_FALSE(to_int_checked(2147483648.0, i));
    CHECK_FALSE(to_int_checked(1e10, i));
    CHECK_FALSE(to_int_checked(-1e10, i));
    CHECK_FALSE(to_int_checked(std::nan(""), i));
    CHECK_FALSE(to_int_checked(std::numeric_limits<double>::infinity(), i));
    CHECK(i == 7);  // untouched on failure
    CHECK(to_int_checked(-3.9, i));
    CHECK(i == -3);  // toward zero, as static_cast
    long long ll = 0;
    CHECK(to_int_checked(9.2e18, ll));
    CHECK_FALSE(to_int_checked(9223372036854775808.0, ll));  // 2^63
    std::uint32_t u = 0;
    CHECK(to_int_checked(4294967295.0, u));
    CHECK_FALSE(to_int_checked(4294967296.0, u));
    CHECK_FALSE(to_int_checked(-1.0, u));
    CHECK(to_int_saturated<int>(1e16) == std::numeric_limits<int>::max());
    CHECK(to_int_saturated<int>(-1e16) == std::numeric_limits<int>::min());
    CHECK(to_int_saturated<int>(std::nan(""), 0, 100) == 0);
    CHECK(to_int_saturated<int>(55.7, 0, 100) == 55);
    CHECK(to_int_saturated<int>(1e9, 0, 100) == 100);
}

TEST_CASE("number text never converts out of range") {
    CHECK(int_text(2048) == "2048");
    CHECK(int_text(1e30) == num(1e30));
    CHECK(num(1e300) == "1e300");
    CHECK(num(-9.5e18) == "-9.5e18");
}

TEST_CASE("large numbers in formulas: four significant digits, half to even as printf rounds") {
    // num writes |v| >= 1e7 as printf's "%.4g" without the exponent's "+" and zeros; from 1e7 to
    // 2^63 from the integer part's digits (core/text.cpp), beyond it through printf.
    CHECK(num(8030261248.0) == "8.03e9");        // 8030|261248: down, the last zero dropped
    CHECK(num(-16060522496.0) == "-1.606e10");   // 1606|0522496: down
    CHECK(num(33554432.0) == "3.355e7");         // 3355|4432: down
    CHECK(num(12345000.0) == "1.234e7");         // 1234|5000 exactly half: to the even 4
    CHECK(num(12355000.0) == "1.236e7");         // 1235|5000 exactly half: to the even 6
    CHECK(num(12345000.5) == "1.235e7");         // 1234|5000.5: above half
    CHECK(num(99995000.0) == "1e8");             // 9999|5000: up, carried into a new digit
    CHECK(num(1e7) == "1e7");
    CHECK(num(9999999.0) == "9999999");          // below 1e7: the integer
}

TEST_CASE("QLoRA of a 0.001 B parameters-only model with a quantized head: no negative size") {
    const Config cfg = parse(R"({"method":"detailed","task":"finetune","model":{"params_b":0.001},
                                  "training":{"finetune":"qlora","lora":{"quantize_head":true}}})");
    auto e = estimate(cfg);
    INFO(e.error.field << ": " << e.error.message);
    REQUIRE(e.ok);
    for (const auto& c : e.value.components) {
        INFO(c.key << " " << c.bytes << " " << c.formula);
        CHECK(c.bytes >= 0);
        CHECK(c.formula.find(" -") == std::string::npos);
    }
    // 1,000,000 parameters of which 999,962 quantized (the width-128 fill scaled to the typed
    // count, its tied head included): the base weighs under 1 MB in NF4.
    CHECK(e.value.component("weights")->bytes < 1e6);
    CHECK(e.value.component("weights")->bytes > 0.5e6);
}

TEST_CASE("a figure that is NaN, infinite or negative rejects the config, naming it") {
    Config cfg;
    Estimate e;
    e.components.push_back({"weights", "Weights", -5e6, ""});
    Error err;
    CHECK_FALSE(check_result(e, cfg, err));
    CHECK(err.field == "params_b");
    CHECK(err.message.find("Weights (weights) came out as -5000000 bytes") != std::string::npos);
    CHECK(err.message.find("a size must be a finite number of at least 0") != std::string::npos);

    e.components[0].bytes = 1;
    e.total_bytes = e.buffered_bytes = 1;
    GpuFit f;
    f.gpu_id = "h100-80gb";
    f.utilization = std::nan("");
    e.fits.push_back(f);
    cfg.method = Method::Detailed;
    err = {};
    CHECK_FALSE(check_result(e, cfg, err));
    CHECK(err.field == "model");
    CHECK(err.message.find("GPU utilization on h100-80gb came out as NaN") != std::string::npos);

    e.fits[0].utilization = 0.5;
    CHECK(check_result(e, cfg, err));
}

TEST_CASE("quick method at params_b 100000, batch 1048576: no GPU count overflows into 'fits on one'") {
    const Config cfg = parse(R"({"method":"quick","params_b":100000,"batch":1048576})");
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    CHECK(e.value.buffered_bytes == Approx(644247014400e9));
    REQUIRE(e.value.fits.size() == 2);
    for (const auto& f : e.value.fits) {
        INFO(f.gpu_id);
        CHECK(f.gpus_needed == 0);  // more than the 1,048,576 GPUs a job may have: none fits
        CHECK_FALSE(f.fits);
        CHECK_FALSE(f.within_target);
        CHECK(std::isfinite(f.utilization));
    }
    // A count that is one still prints: the worked example needs 4 A100s (306.43 GB / 80 GB).
    auto w = estimate(parse(R"({"method":"quick","params_b":7,"batch":4})"));
    REQUIRE(w.ok);
    CHECK(w.value.fits[0].gpus_needed == 4);
}

TEST_CASE("solver: target_utilization 1e16 is an error with its range, not '-2147483648%'") {
    for (const char* json : {R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","target_utilization":1e16})",
                             R"({"method":"detailed","task":"inference","model":{"preset":"llama-3-8b"},"gpu":"h100-80gb","target_utilization":1e16})"}) {
        const Config cfg = parse(json);
        for (const auto& q : solve_questions()) {
            auto a = solve(cfg, q.id);
            if (!a.ok && a.error.field == "question") continue;  // a question of the other task
            INFO(json << " " << q.id);
            REQUIRE_FALSE(a.ok);
            CHECK(a.error.field == "target_utilization");
            CHECK(a.error.message == "target_utilization must be a number in [0.05, 1], got 1e+16 (a share of the GPU's memory: 0.75 = 75%)");
        }
    }
}

TEST_CASE("calibration CSV: batch or seq 1e10 is an error naming the column or field and its range") {
    CHECK(check_one(std::string(kBertRow) + "1e10,512,no,1,none,smi,14949,MiB,\n").skipped ==
          "estimate: batch: batch must be a whole number in [1, 1048576] sequences, got 1e+10");
    CHECK(check_one(std::string(kBertRow) + "4,1e10,no,1,none,smi,14949,MiB,\n").skipped ==
          "estimate: seq: seq must be a whole number in [1, 16777216] tokens, got 1e+10");
    CHECK(check_one("I01,x (A100-80GB),inference,Llama-3.2-1B,16,2048,32,8,64,128256,8192,swiglu,yes,1.236,bf16,,,1e10,1e10,,,,alloc,3,GB,\n")
              .skipped == "config: column batch must be a whole number in [0, 2147483647], got 1e+10");
    CHECK(check_one("C01,x,full_ft,m,1e10,1024,16,16,64,30522,4096,gelu,yes,0.3,fp32,full,adamw,4,512,no,1,none,smi,1,GB,\n").skipped ==
          "config: column L must be a whole number in [0, 2147483647], got 1e+10");
    CHECK(check_one("C01,x,full_ft,m,24,1024,16,16,64,30522,4096,gelu,yes,0.3,fp32,full,adamw,4,512,no,1,dp99999999999,smi,1,GB,\n").skipped ==
          "config: column sharding (dp99999999999) must be a whole number in [0, 2147483647], got 1e+11");
    CHECK(check_one("S01,vLLM (H100-80GB),serve,Llama-3.2-1B,16,2048,32,8,64,128256,8192,swiglu,yes,1.236,bf16,"
                    "vllm util 0.90 max_model_len 99999999999,,1,1,,,,kv,3,GB,kv cache\n")
              .skipped == "config: column method (max_model_len) must be a whole number in [0, 2147483647], got 1e+11");
}

TEST_CASE("validate: a measured value of 0, infinity or 1e308 is not scored (no +0.0%, no NaN)") {
    const auto zero = check_one(std::string(kBertRow) + "4,512,no,1,none,smi,0,MiB,\n");
    CHECK_FALSE(zero.compared);
    CHECK(zero.skipped == "value must be greater than 0 and at most 1000000 GB (953674316.4 MiB), got 0 MiB");
    const auto huge = check_one(std::string(kBertRow) + "4,512,no,1,none,smi,1e308,GB,\n");
    CHECK_FALSE(huge.compared);
    CHECK(huge.skipped == "value must be greater than 0 and at most 1000000 GB, got 1e+308 GB");
    CHECK(check_one(std::string(kBertRow) + "4,512,no,1,none,smi,inf,GB,\n").skipped == "unreadable value \"inf\" (a number or OOM)");
    CHECK(check_one(std::string(kBertRow) + "4,512,no,1,none,smi,-3,GB,\n").skipped ==
          "value must be greater than 0 and at most 1000000 GB, got -3 GB");
    // A real measurement is still scored: 14,949 MiB measured (the HF docs' BERT-large row).
    const auto real = check_one(std::string(kBertRow) + "4,512,no,1,none,smi,14949,MiB,\n");
    CHECK(real.compared);
    CHECK(real.measured_bytes == 14949.0 * 1024 * 1024);
    CHECK(std::isfinite(real.error));
}

TEST_CASE("guide method: bytes out of range names guide.bytes or guide.weight_bytes; overhead_factor is not a field") {
    auto training = estimate(parse(R"({"method":"guide","model":{"preset":"llama-3.1-8b"},"guide":{"bytes":9}})"));
    REQUIRE_FALSE(training.ok);
    CHECK(training.error.field == "guide.bytes");
    CHECK(training.error.message == "guide.bytes must be a number greater than 0 and at most 8 bytes, got 9");
    auto serving = estimate(parse(R"({"method":"guide","task":"inference","model":{"preset":"llama-3.1-8b"},"guide":{"weight_bytes":0}})"));
    REQUIRE_FALSE(serving.ok);
    CHECK(serving.error.field == "guide.weight_bytes");
    CHECK(serving.error.message == "guide.weight_bytes must be a number greater than 0 and at most 8 bytes, got 0");
    // It was accepted and then ignored: a value that changes nothing must not read as applied.
    auto ignored = io::parse_config(R"({"method":"guide","guide":{"overhead_factor":2}})");
    REQUIRE_FALSE(ignored.ok);
    CHECK(ignored.error.field == "guide.overhead_factor");
}

TEST_CASE("a calibration CSV row with more cells than the header is refused, naming its line (a comma in an unquoted note)") {
    // 26 columns in the header; the note "start failed, inferred" unquoted makes the row 27 cells.
    const std::string row = std::string(kBertRow) + "8,512,no,1,none,alloc,14.0,GiB,start failed, inferred\n";
    auto t = io::parse_csv(std::string(kHeader) + row);
    REQUIRE_FALSE(t.ok);
    CHECK(t.error.field == "csv");
    CHECK(t.error.message.find("line 2 has 27 cells, the header 26") != std::string::npos);
    // Quoted, the same note is one cell and the row reads.
    auto quoted = io::parse_csv(std::string(kHeader) + kBertRow + "8,512,no,1,none,alloc,14.0,GiB,\"start failed, inferred\"\n");
    REQUIRE(quoted.ok);
    REQUIRE(quoted.value.rows.size() == 1);
    CHECK(quoted.value.rows[0].back() == "start failed, inferred");
}
