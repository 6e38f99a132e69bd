// Hostile and careless input (issue 16): invalid UTF-8, oversized text, links and configs that must
// survive their own JSON, and exports that must not let a model name inject Markdown, HTML or a
// spreadsheet formula. Each case is a repro from the issue or the fuzzers.
#include <catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "io/config_json.hpp"
#include "io/plan_json.hpp"
#include "io/text_input.hpp"
#include "shell/app.hpp"
#include "shell/state/report.hpp"
#include "shell/state/scenario.hpp"
#include "shell/state/url.hpp"

using namespace vc;
using namespace vc::shell;
using nlohmann::json;

namespace {

std::string doc(const Config& c) { return io::dump(io::config_to_json(c)); }

double total(const Config& c) {
    auto e = estimate(c);
    REQUIRE(e.ok);
    return e.value.total_bytes;
}

// decode -> encode -> decode: the second read is clean and gives the same config.
Config through_link(const std::string& fragment, Error* first_err = nullptr) {
    Config a, b;
    UiState ua, ub;
    Error ea, eb;
    REQUIRE(decode_fragment(fragment, default_inputs(), a, ua, ea));
    if (first_err) *first_err = ea;
    const std::string again = encode_fragment(a, ua, default_inputs());
    INFO("link: " << fragment << "\ncopied: " << again);
    REQUIRE(decode_fragment(again, default_inputs(), b, ub, eb));
    CHECK(eb.field == "");
    CHECK(doc(a) == doc(b));
    CHECK(encode_fragment(b, ub, default_inputs()) == again);
    return b;
}

}  // namespace

TEST_CASE("text input: UTF-8 and limits are checked where text enters") {
    CHECK(io::valid_utf8(std::string("Llama \xE2\x82\xAC \xF0\x9F\x98\x80")));
    CHECK_FALSE(io::valid_utf8(std::string("\"\xFF")));
    CHECK_FALSE(io::valid_utf8(std::string("\xC0\xAF")));          // overlong '/'
    CHECK_FALSE(io::valid_utf8(std::string("\xED\xA0\x80")));      // a surrogate
    CHECK_FALSE(io::valid_utf8(std::string("\xF4\x90\x80\x80")));  // above U+10FFFF
    CHECK_FALSE(io::valid_utf8(std::string("\xE2\x82")));          // cut short

    // The config reader names the field (a JSON document built in memory can hold any bytes).
    auto bad = io::config_from_json(json{{"gpu", "\"\xFF"}});
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.error.field == "gpu");
    CHECK(bad.error.message.find("UTF-8") != std::string::npos);
    auto long_name = io::config_from_json(json{{"model", {{"preset", "llama-3.1-8b"}, {"name", std::string(io::kMaxTextFieldBytes + 1, 'x')}}}});
    REQUIRE_FALSE(long_name.ok);
    CHECK(long_name.error.field == "model.name");
    CHECK(long_name.error.message.find("at most 256 bytes") != std::string::npos);
    CHECK(io::config_from_json(json{{"model", {{"preset", "llama-3.1-8b"}, {"name", std::string(io::kMaxTextFieldBytes, 'x')}}}}).ok);
    auto newline = io::config_from_json(json{{"model", {{"preset", "llama-3.1-8b"}, {"name", "x\n# Injected heading"}}}});
    REQUIRE_FALSE(newline.ok);
    CHECK(newline.error.field == "model.name");

    // Serialising never throws: invalid UTF-8 is replaced by U+FFFD.
    CHECK(io::dump(json("\"\xFF")) == "\"\\\"\xEF\xBF\xBD\"");
    CHECK(io::quoted_excerpt(std::string(200, 'a')).size() == io::kMaxQuotedBytes + 3);
}

TEST_CASE("links: #gpu=%22%FF (invalid UTF-8) is named, the rest applies, and the link re-encodes") {
    Config cfg;
    UiState ui;
    Error err;
    REQUIRE(decode_fragment("gpu=%22%FF&batch=8", default_inputs(), cfg, ui, err));
    CHECK(err.field == "gpu");
    CHECK(cfg.gpu_id == default_inputs().gpu_id);
    CHECK(cfg.run.batch == 8);
    CHECK(encode_fragment(cfg, ui, default_inputs()) == "v=2&batch=8");

    // A key that is not UTF-8 is named by its readable part.
    REQUIRE(decode_fragment("v=1&model%FF=1&seq=1024", default_inputs(), cfg, ui, err));
    CHECK(err.message.find("UTF-8") != std::string::npos);
    CHECK(cfg.run.seq == 1024);

    // Over the length limit: refused before anything is read.
    cfg = default_inputs();
    CHECK_FALSE(decode_fragment("v=1&model.name=" + std::string(io::kMaxLinkChars, 'x'), default_inputs(), cfg, ui, err));
    CHECK(err.field == "link");
    // A 300-character name: the name is refused, the preset applies.
    REQUIRE(decode_fragment("v=1&model.preset=llama-3.1-8b&model.name=" + std::string(300, 'x'), default_inputs(), cfg, ui, err));
    CHECK(err.field == "model.name");
    CHECK(cfg.model.id == "llama-3.1-8b");
    CHECK(cfg.model.name == "Llama-3.1 8B");
}

TEST_CASE("links: every key that cannot be read is kept apart with its reason, and the page marks each") {
    Config cfg;
    UiState ui;
    Error err;
    std::vector<Error> left_out;
    REQUIRE(decode_fragment("v=1&gpu=%22%FF&batch=8&seq=oops&units=kb", default_inputs(), cfg, ui, err, &left_out));
    CHECK(err.field == "gpu");
    REQUIRE(left_out.size() == 3);
    CHECK(left_out[0].field == "gpu");
    CHECK(left_out[0].message.find("valid UTF-8") != std::string::npos);
    CHECK(left_out[1].field == "units");
    CHECK(left_out[1].message == "units must be gb or gib, got \"kb\"");
    CHECK(left_out[2].field == "seq");  // read with the config, after the link's own keys
    CHECK(cfg.run.batch == 8);
    CHECK(cfg.run.seq == default_inputs().run.seq);

    // The page: the line above the form names the first and the others; each is marked by its field.
    App a;
    REQUIRE(apply_fragment(a, "v=1&gpu=%22%FF&batch=8&seq=oops&units=kb"));
    CHECK(a.link_error.rfind("gpu: gpu must be valid UTF-8", 0) == 0);
    CHECK(a.link_error.find("; also not applied: units, seq") != std::string::npos);
    REQUIRE(a.link_left_out.size() == 3);
    CHECK(a.inputs.run.batch == 8);
    // A clean link clears them.
    REQUIRE(apply_fragment(a, "v=1&batch=4"));
    CHECK(a.link_error.empty());
    CHECK(a.link_left_out.empty());
}

TEST_CASE("links: #v=1&task=inference&optimizer=adamw-mixed reopens at the same figure from its copied link") {
    const Config b = through_link("v=1&task=inference&optimizer=adamw-mixed");
    CHECK(b.task == Task::Inference);
    CHECK(b.quick.optimizer == QuickOptimizer::AdamWMixed);
    CHECK(total(b) == Approx(255.36e9));  // 7B, fp16, AdamW mixed, batch 4 x 2048: as typed, not 157.36 GB
    // The serving state the Inference button makes still reads back with its own optimizer.
    Config serving = default_inputs();
    set_task(serving, Task::Inference);
    CHECK(through_link(encode_fragment(serving, UiState{}, default_inputs())).quick.optimizer == QuickOptimizer::Inference);
}

TEST_CASE("links: a preset's edited name and fields survive the copied link") {
    const Config b = through_link("v=1&model.preset=llama-3.1-8b&model.name=My%20Llama&model.context_limit=0");
    CHECK(b.model.id == "llama-3.1-8b");
    CHECK(b.model.name == "My Llama");
    CHECK(b.model.context_limit == 0);
    // Doubles go through the link exactly (shortest form that reads back).
    const Config t = through_link("v=1&target_utilization=0.30000000000000004&batch=3");
    CHECK(t.target_utilization == 0.30000000000000004);
}

TEST_CASE("links: a parameter count with a name keeps the name through its copied link (fragment fuzzer)") {
    // found-params-only-name: the encoder wrote a count-only model as params_b alone, and the
    // decoder rebuilt it without the name; both now keep what the config JSON keeps.
    Error err;
    const Config b = through_link("v=2&model.params_b=63&model.name=My%20model&model.context_limit=32768", &err);
    CHECK(err.field == "");
    CHECK(b.model.name == "My model");
    CHECK(b.model.context_limit == 32768);
    CHECK(b.model.params_override_b == 63);
    CHECK(b.model.approximate);
    CHECK(model_mode(b) == ModelMode::ParamsOnly);
    Config a;
    UiState ui;
    REQUIRE(decode_fragment("v=2&model.params_b=63&model.name=My%20model", default_inputs(), a, ui, err));
    CHECK(encode_fragment(a, ui, default_inputs()) == "v=2&model.name=My%20model&model.params_b=63");
    CHECK(total(b) == total(a));
}

TEST_CASE("links: a number outside its field's range is left out with the range; the rest gives a result") {
    Config cfg;
    UiState ui;
    Error err;
    std::vector<Error> left_out;
    REQUIRE(decode_fragment("v=2&batch=0&seq=1024&training.dropout=5", default_inputs(), cfg, ui, err, &left_out));
    REQUIRE(left_out.size() == 2);
    CHECK(left_out[0].field == "batch");
    CHECK(left_out[0].message.find("must be") != std::string::npos);
    CHECK(left_out[1].field == "training.dropout");
    CHECK(left_out[1].message == "training.dropout must be a number in [0, 0.99], got 5");
    CHECK(cfg.run.seq == 1024);
    CHECK(cfg.run.batch == default_inputs().run.batch);
    CHECK(total(cfg) > 0);
    // A copied link of an incomplete model writes its unset fields (vocab 0): read back as they are.
    Config incomplete;
    REQUIRE(decode_fragment("v=1&model.layers=32&model.hidden=4096&model.heads=32", default_inputs(), incomplete, ui, err));
    Config back;
    REQUIRE(decode_fragment(encode_fragment(incomplete, ui, default_inputs()), default_inputs(), back, ui, err, &left_out));
    CHECK(left_out.empty());
    CHECK(doc(back) == doc(incomplete));
}

TEST_CASE("widget messages: a set applies every value it can read and lists each it refused") {
    const Config base = default_inputs();
    Config out;
    Error err;
    std::vector<Error> refused;
    REQUIRE(patch_config_text(base, R"({"batch": 8, "seq": "long", "training": {"dropout": 5}, "gpu": "a100-80gb"})", out, err, &refused));
    REQUIRE(refused.size() == 2);
    CHECK(refused[0].field == "seq");
    CHECK(refused[1].field == "training.dropout");
    CHECK(refused[1].message.find("[0, 0.99]") != std::string::npos);
    CHECK(err.field == "seq");
    CHECK(out.run.batch == 8);
    CHECK(out.gpu_id == "a100-80gb");
    CHECK(out.run.seq == base.run.seq);
    CHECK(out.training.dropout == base.training.dropout);
    // Without the list: whole or nothing, as before (the page's model import uses it).
    Config whole = base;
    CHECK_FALSE(patch_config_text(base, R"({"batch": 8, "seq": "long"})", whole, err));
    CHECK(err.field == "seq");
    CHECK(whole.run.batch == base.run.batch);
    // A model's bad key is refused alone; the rest of the model applies.
    REQUIRE(patch_config_text(base, R"({"model": {"preset": "llama-3.1-8b", "name": ")" + std::string(300, 'x') + R"("}, "batch": 2})", out, err,
                              &refused));
    REQUIRE(refused.size() == 1);
    CHECK(refused[0].field == "model.name");
    CHECK(out.model.id == "llama-3.1-8b");
    CHECK(out.run.batch == 2);
    // A key that is no field, one set through a number, and a model that is not an object.
    REQUIRE(patch_config_text(base, R"({"nope": {"deep": 1}, "batch": {"x": 1}, "model": 5, "seq": 1024})", out, err, &refused));
    std::vector<std::string> fields;
    for (const Error& e : refused) fields.push_back(e.field);
    std::sort(fields.begin(), fields.end());
    CHECK(fields == std::vector<std::string>{"batch.x", "model", "nope"});
    CHECK(out.run.seq == 1024);
    CHECK(doc(out).find("nope") == std::string::npos);
    // Nothing to apply: not an object.
    CHECK_FALSE(patch_config_text(base, "[1]", out, err, &refused));
    CHECK(err.field == "config");
}

TEST_CASE("config JSON: config -> JSON -> config keeps every field (a model without layers, exact doubles)") {
    // A count alone with a context window: --print-config / resolveConfig used to drop the model.
    for (const char* text : {R"({"method":"detailed","task":"inference","gpu":"h100-80gb","inference":{"context":131072},"model":{"params_b":7,"context_limit":8192,"name":"mine"}})",
                             R"({"method":"quick","model":{"params_b":6.999999999999999},"target_utilization":0.1234567890123456789,"batch":3})",
                             R"({"method":"detailed","task":"finetune","model":{"preset":"llama-3.1-8b"},"training":{"finetune":"lora","lora":{"dropout":0.1}}})"}) {
        INFO(text);
        auto a = io::parse_config(text);
        REQUIRE(a.ok);
        const std::string once = io::dump(io::config_to_json(a.value));
        auto b = io::parse_config(once);
        REQUIRE(b.ok);
        CHECK(io::dump(io::config_to_json(b.value)) == once);
        CHECK(b.value.model.name == a.value.model.name);
        CHECK(b.value.model.id == a.value.model.id);  // a preset stays one
        CHECK(b.value.model.context_limit == a.value.model.context_limit);
        auto ea = estimate(a.value), eb = estimate(b.value);
        REQUIRE(ea.ok == eb.ok);
        if (ea.ok) CHECK(ea.value.total_bytes == eb.value.total_bytes);  // byte for byte
    }
    // A model with nothing the methods can read is refused, not silently dropped.
    auto empty = io::parse_config(R"({"model":{"name":"x"}})");
    REQUIRE_FALSE(empty.ok);
    CHECK(empty.error.field == "model");
}

TEST_CASE("exports: a model name cannot inject Markdown, HTML or a spreadsheet formula") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    for (const char* name : {"<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "a | b", "=HYPERLINK(\"http://x\")"}) {
        INFO(name);
        a.inputs.model.name = name;
        recompute(a);
        REQUIRE(a.results.valid);
        const std::string md = export_markdown(a.inputs, a.results, false, "");
        CHECK(md.find("<img") == std::string::npos);
        CHECK(md.find("](javascript:") == std::string::npos);
        CHECK(md.find("[x]") == std::string::npos);
        CHECK(md.find(" a | b") == std::string::npos);
    }
    a.inputs.model.name = "<img src=x onerror=alert(1)>";
    CHECK(export_markdown(a.inputs, a.results, false, "").find("# vramcalc: &lt;img src=x onerror=alert\\(1\\)&gt; \\(8.03B params\\)") != std::string::npos);
    a.inputs.model.name = "[x](javascript:alert(1))";
    CHECK(export_markdown(a.inputs, a.results, false, "").find("\\[x\\]\\(javascript:alert\\(1\\)\\)") != std::string::npos);
    // A line break (not accepted at entry, but an App can be set directly): one line in every format.
    a.inputs.model.name = "x\n# Injected heading";
    CHECK(export_markdown(a.inputs, a.results, false, "").find("\n# Injected") == std::string::npos);
    CHECK(summary_text(a.inputs, a.results, false, "").find("\n# Injected") == std::string::npos);
}

TEST_CASE("exports: CSV cells are quoted and neutralised") {
    App a;
    a.inputs = default_inputs();
    recompute(a);
    REQUIRE(a.results.valid);
    const std::string csv = export_csv(a.inputs, a.results);
    // No cell starts a formula: every line's cells after the section are plain or quoted text.
    for (size_t at = 0; (at = csv.find(",=", at)) != std::string::npos; ++at) FAIL("a cell starts with '=' at " << at);
    CHECK(csv.find(",+") == std::string::npos);
    CHECK(csv.find(",@") == std::string::npos);
}

TEST_CASE("widget messages: a 30 MB name is refused by size before it is parsed, and the next message applies") {
    const Config base = default_inputs();
    Config out;
    Error err;
    const std::string huge = R"({"model":{"preset":"llama-3.1-8b","name":")" + std::string(30000000, 'x') + R"("}})";
    CHECK_FALSE(patch_config_text(base, huge, out, err));
    CHECK(err.field == "inputs");
    CHECK(err.message.find("at most 65536") != std::string::npos);
    // Under the message limit, over the name's: the field is named.
    CHECK_FALSE(patch_config_text(base, R"({"model":{"preset":"llama-3.1-8b","name":")" + std::string(300, 'x') + R"("}})", out, err));
    CHECK(err.field == "model.name");
    // Invalid UTF-8 in the text: refused before the JSON reader.
    CHECK_FALSE(patch_config_text(base, "{\"gpu\":\"\\\"\xFF\"}", out, err));
    CHECK(err.field == "inputs");
    // An empty key (message fuzzer): the error still names a field (an empty one means "no error").
    CHECK_FALSE(patch_config_text(base, R"({"":1})", out, err));
    CHECK(err.field == "\"\"");
    REQUIRE(patch_config_text(base, R"({"batch":8})", out, err));
    CHECK(out.run.batch == 8);
}

TEST_CASE("exports: the CSV's bytes column reads back to the exact total") {
    App a;
    a.inputs = default_inputs();
    use_preset(a.inputs, *find_preset("llama-3.1-8b"));
    set_task(a.inputs, Task::Inference);
    set_method(a.inputs, Method::Detailed);
    recompute(a);
    REQUIRE(a.results.valid);
    const std::string csv = export_csv(a.inputs, a.results);
    const std::string key = "total,total_bytes,Per-GPU total,";
    const size_t at = csv.find(key);
    REQUIRE(at != std::string::npos);
    CHECK(std::strtod(csv.c_str() + at + key.size(), nullptr) == a.results.estimate.total_bytes);
}

TEST_CASE("config JSON: an empty model name is no name (the preset's stays through a round trip)") {
    // Found by the message harness: {"model":{"preset":"llama-3.1-8b","name":""}} was written without
    // its name and read back with the preset's, a different document.
    auto a = io::parse_config(R"({"model":{"preset":"llama-3.1-8b","name":""}})");
    REQUIRE(a.ok);
    CHECK(a.value.model.name == "Llama-3.1 8B");
    const std::string once = io::dump(io::config_to_json(a.value));
    auto b = io::parse_config(once);
    REQUIRE(b.ok);
    CHECK(io::dump(io::config_to_json(b.value)) == once);
}

TEST_CASE("links: a planner key's bad value is quoted as an excerpt, not echoed whole") {
    Config cfg;
    UiState ui;
    Error err;
    REQUIRE(decode_fragment("v=1&view=" + std::string(5000, 'x') + "&batch=8", default_inputs(), cfg, ui, err));
    CHECK(err.field == "view");
    CHECK(err.message.size() < 200);
    CHECK(cfg.run.batch == 8);
}

TEST_CASE("plan requests: an error inside a fabric of one's own names the inner field's path") {
    auto read = [](const std::string& spec) { return io::parse_plan_request(R"({"plan":{"gpus":16,"fabric_spec":)" + spec + "}}"); };
    REQUIRE(read(R"({"line_gbps":50,"efficiency":0.8,"latency_us":5})").ok);
    const auto text = read(R"({"line_gbps":"fast","efficiency":0.8})");
    REQUIRE_FALSE(text.ok);
    CHECK(text.error.field == "plan.fabric_spec.line_gbps");
    const auto none = read(R"({"efficiency":0.8})");  // no line rate: the spec would be ignored
    REQUIRE_FALSE(none.ok);
    CHECK(none.error.field == "plan.fabric_spec.line_gbps");
    CHECK(none.error.message.find("greater than 0 and at most 1000000") != std::string::npos);
    const auto share = io::parse_plan_request(R"({"plan":{"gpus":16,"intra_spec":{"line_gbps":450,"efficiency":2}}})");
    REQUIRE_FALSE(share.ok);
    CHECK(share.error.field == "plan.intra_spec.efficiency");
    CHECK(share.error.message.find("2") != std::string::npos);
}
