// The calibration set: every row of tests/calibration/measured.csv through the engine, with
// the accuracy targets (median |error| <= 7%, none worse than 20%, every fits/OOM verdict right),
// plus the CSV reader and the row -> config mapping on hand-made rows.
#include <catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/units.hpp"
#include "io/calibration.hpp"

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

TEST_CASE("rows of other tasks wait for their model; unknown tasks are named", "[calibration]") {
    const std::string text = std::string(kHeader) + "S1,x,serve,m,,,,,,,,,,,,,,,,,,,vllm,1,GiB,\n" +
                             "U1,x,painting,m,,,,,,,,,,,,,,,,,,,smi,1,GiB,\n" + "K1,x,context,none,,,,,,,,,,,,,,,,,1,none,smi,1343,MiB,\n";
    auto t = io::parse_csv(text);
    REQUIRE(t.ok);
    auto checks = io::check_rows(t.value);
    REQUIRE(checks.size() == 3);
    if (!io::row_estimator("serve")) CHECK(checks[0].skipped == "skipped (inference model pending)");
    CHECK(checks[1].skipped.find("unknown task") != std::string::npos);
    CHECK(checks[2].compared);
    CHECK(checks[2].error == Catch::Detail::Approx(0));  // the CUDA context constant is C07's reading
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
        const bool training = c.task == "pretrain" || c.task == "full_ft" || c.task == "lora" || c.task == "qlora" || c.task == "context";
        if (!training) continue;
        ++training_rows;
        INFO(c.id << " " << c.model << ": measured " << c.measured_bytes << ", estimate " << c.estimated_bytes << " "
                  << c.skipped);
        REQUIRE(c.compared);
        if (!c.measured_oom) CHECK(std::fabs(c.error) <= 0.20);
        if (c.verdict_known) CHECK(c.verdict_right);
    }
    CHECK(training_rows > 0);
    const io::CalibrationSummary s = io::summarize(checks);
    INFO(io::format_checks(checks));
    CHECK(s.median_abs_error <= 0.07);
    CHECK(s.verdicts_right == s.verdicts);
}
