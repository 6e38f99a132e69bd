// The streaming JSON writer (io/json_writer.hpp) and the result written with it: the layout of
// nlohmann's dump() of the tree the result used to be built as (the tree below is that former
// builder, kept here as the reference), every number the shortest text that reads back as the same
// double (nlohmann's grisu2 wrote a digit more for about 1 double in 2,000).
#include <catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include "core/estimate.hpp"
#include "io/config_json.hpp"
#include "io/json_read.hpp"
#include "io/json_writer.hpp"

using namespace vc;
using nlohmann::json;

namespace {

json reference_tree(const Estimate& e) {
    json j;
    j["ok"] = true;
    j["schema_version"] = io::kSchemaVersion;
    j["method"] = e.method;
    j["task"] = e.task;
    json comps = json::array();
    json breakdown = json::object();
    for (const auto& c : e.components) {
        comps.push_back({{"key", c.key}, {"label", c.label}, {"bytes", c.bytes}, {"formula", c.formula}});
        breakdown[c.key] = c.bytes;
    }
    j["components"] = comps;
    j["breakdown"] = breakdown;
    j["total_bytes"] = e.total_bytes;
    j["buffered_bytes"] = e.buffered_bytes;
    json fits = json::array();
    for (const auto& f : e.fits) {
        fits.push_back({{"gpu", f.gpu_id}, {"gpus_needed", f.gpus_needed}, {"utilization", f.utilization}, {"fits", f.fits}, {"within_target", f.within_target}});
        // A Mac row that needs none names the Mac that would hold it (core apply_one_machine_rule).
        // Unless the engine has no backend there (vLLM on a Mac), which the row says instead.
        if (const GpuSpec* g = find_gpu(f.gpu_id); g && g->unified && f.gpus_needed == 0 && !f.no_backend) fits.back()["mac_needed_bytes"] = f.mac_needed_bytes;
        if (f.no_backend) fits.back()["no_backend"] = true;
        // llama.cpp with weights in system RAM of no stated size: the RAM and the GPU part's verdict.
        if (f.needs_ram_bytes > 0) fits.back()["needs_ram_bytes"] = f.needs_ram_bytes, fits.back()["gpu_within_target"] = f.gpu_within_target;
    }
    j["fits"] = fits;
    json metrics = json::object();
    for (const auto& m : e.metrics) metrics[m.key] = {{"label", m.label}, {"value", m.value}, {"unit", m.unit}};
    j["metrics"] = metrics;
    j["notes"] = e.notes;
    if (!e.devices.empty()) {
        json devs = json::array();
        for (const auto& d : e.devices)
            devs.push_back({{"device", d.device}, {"host", d.host}, {"model_bytes", d.model}, {"kv_bytes", d.kv},
                            {"compute_bytes", d.compute}, {"other_bytes", d.other}, {"total_bytes", d.total()}});
        j["devices"] = devs;
    }
    if (!e.launch_command.empty()) j["launch_command"] = e.launch_command;
    return j;
}

// The text with every number outside a string replaced by '#': the layout, to hold against
// nlohmann's dump(), whose digits differ where grisu2 writes more than the shortest.
std::string layout(const std::string& text) {
    std::string out;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\') out += text[++i];
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
            out += c;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            while (i + 1 < text.size() && std::strchr("0123456789.eE+-", text[i + 1])) ++i;
            out += '#';
        } else {
            out += c;
        }
    }
    return out;
}

// The fewest significant digits of a decimal that reads back as x, found the slow way: for each
// count from 1, the nearest decimal of that many digits (printf's %.*e, correctly rounded) and its
// neighbours either side (a power of two has a narrower interval below it), each read by strtod.
int fewest_digits(double x) {
    for (int p = 1; p <= 17; ++p) {
        char text[64];
        std::snprintf(text, sizeof text, "%.*e", p - 1, std::fabs(x));
        long long m = 0;
        for (const char* c = text; *c && *c != 'e'; ++c)
            if (*c != '.') m = m * 10 + (*c - '0');
        const int e = std::atoi(std::strchr(text, 'e') + 1) - (p - 1);
        for (long long j = -3; j <= 3; ++j) {
            if (m + j <= 0) continue;
            std::snprintf(text, sizeof text, "%llde%d", m + j, e);
            if (std::strtod(text, nullptr) == std::fabs(x)) return p;
        }
    }
    return 17;
}

// Significant digits of a JSON number ("12.50" -> 3, "0.0012" -> 2, "1e+20" -> 1).
int digits_of(const std::string& number) {
    std::string d;
    for (char c : number.substr(0, number.find_first_of("eE")))
        if (c >= '0' && c <= '9') d += c;
    d.erase(0, std::min(d.find_first_not_of('0'), d.size()));
    while (!d.empty() && d.back() == '0') d.pop_back();
    return static_cast<int>(d.size());
}

// What the writer writes for x: read back, the same bits; as few digits as any decimal that does.
void check_shortest(double x) {
    char buf[64];
    const size_t n = io::shortest_double(buf, x);
    const std::string text(buf, n);
    INFO(text);
    const double back = std::strtod(text.c_str(), nullptr);
    CHECK(std::memcmp(&back, &x, sizeof x) == 0);
    if (x != 0) CHECK(digits_of(text) == fewest_digits(x));
    io::JsonWriter w;
    w.value(x);
    CHECK(w.text() == text);
}

void check_same_bytes(const Estimate& e) {
    const json tree = reference_tree(e);
    CHECK(io::estimate_text(e) == io::dump(tree));
    CHECK(io::estimate_text(e, 2) == io::dump(tree, 2));
    CHECK(io::dump(io::estimate_to_json(e), 2) == io::dump(tree, 2));
    // nlohmann's layout; its numbers read back as the same doubles.
    CHECK(layout(io::estimate_text(e, 2)) == layout(tree.dump(2, ' ', false, json::error_handler_t::replace)));
}

}  // namespace

TEST_CASE("JsonWriter writes what a reader checks by eye, compact and indented") {
    io::JsonWriter w;
    w.begin_object();
    w.key("a");
    w.begin_array();
    w.value(1);
    w.value(2.5);
    w.begin_object();
    w.end_object();
    w.begin_array();
    w.end_array();
    w.end_array();
    w.member("b", "x\"y");
    w.member("c", true);
    w.key("d");
    w.null();
    w.member("e", 14e9);
    w.end_object();
    CHECK(w.text() == R"({"a":[1,2.5,{},[]],"b":"x\"y","c":true,"d":null,"e":14000000000.0})");

    io::JsonWriter p(2);
    p.begin_object();
    p.key("a");
    p.begin_array();
    p.value(1);
    p.begin_object();
    p.member("k", -3);
    p.end_object();
    p.end_array();
    p.key("o");
    p.begin_object();
    p.end_object();
    p.end_object();
    CHECK(p.text() == "{\n  \"a\": [\n    1,\n    {\n      \"k\": -3\n    }\n  ],\n  \"o\": {}\n}");
}

TEST_CASE("JsonWriter's numbers and strings are nlohmann's bytes") {
    const double numbers[] = {0.0, -0.0, 1.0, 0.1, 1.0 / 3, 2.5e-320, 1e300, -7.25e21, 123456789012345678.0, 143.36e9,
                              std::numeric_limits<double>::max(), std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (double x : numbers) {
        io::JsonWriter w;
        w.value(x);
        CHECK(layout(w.text()) == layout(json(x).dump()));
        if (std::isfinite(x)) check_shortest(x);
    }
    {
        io::JsonWriter w;  // grisu2 wrote -7.249999999999999e+21
        w.value(-7.25e21);
        CHECK(w.text() == "-7.25e+21");
    }
    // Whole numbers below 10^15 take the writer's own path (the integer and ".0"); from 10^15
    // nlohmann's exponent form: 1e15 is "1e+15", 999999999999999 is "999999999999999.0" by hand.
    const double whole[] = {1.0, -1.0, 4096.0, 16060522496.0, -8e9, 999999999999999.0, -999999999999999.0, 1e15, 123456789012345.0,
                            4503599627370496.0, 9007199254740993.0};
    for (double x : whole) {
        io::JsonWriter w;
        w.value(x);
        CHECK(w.text() == json(x).dump());
    }
    {
        io::JsonWriter w;
        w.begin_array();
        w.value(999999999999999.0);
        w.value(1e15);
        w.end_array();
        CHECK(w.text() == "[999999999999999.0,1e+15]");
    }
    // Every power of two and its neighbours up to 2^53, and a spread of 15-digit numbers.
    for (double x = 1; x <= 9007199254740992.0; x *= 2)
        for (double y : {x - 1, x, x + 1, -x, x * 1000 + 7}) {
            io::JsonWriter w;
            w.value(y);
            CHECK(layout(w.text()) == layout(json(y).dump()));  // grisu2 wrote 3.5184372088832008e+16 for 2^45 x 1000 + 7
            check_shortest(y);
        }
    for (double x = 1; x < 1e15; x = x * 7 + 3) {
        io::JsonWriter w;
        w.value(x);
        CHECK(w.text() == json(x).dump());
    }
    for (long long x : {0LL, 7LL, -1LL, 1234567890123LL, std::numeric_limits<long long>::max(), std::numeric_limits<long long>::min()}) {
        io::JsonWriter w;
        w.value(x);
        CHECK(w.text() == json(x).dump());
    }
    const std::string strings[] = {"", "plain", "quote \" and \\ backslash", "tab\tnew\nline\r\b\f", std::string("nul\0byte", 8),
                                   "\x01\x1f\x7f", "UTF-8: 32 GiB \xc3\x97 2 \xe2\x80\x94 \xf0\x9f\x98\x80",
                                   "invalid \xff\xfe bytes \xc3", "overlong \xc0\xaf"};
    // The writer tests 8 bytes at a time: a byte to escape (or a UTF-8 one) at every position of
    // strings of 1 to 20 bytes, and the bytes around the tested range ('!' 0x21, '#' 0x23, '[' 0x5b,
    // ']' 0x5d, '~' 0x7e and DEL 0x7f go as they are).
    for (const char bad : {'"', '\\', '\n', '\x1f', '\x80', '\xff', '\0', '!', '#', '[', ']', '~', '\x7f'})
        for (size_t n = 1; n <= 20; ++n)
            for (size_t at = 0; at < n; ++at) {
                std::string s(n, 'a');
                s[at] = bad;
                io::JsonWriter w;
                w.value(s);
                CHECK(w.text() == io::dump(json(s)));
            }
    for (const auto& s : strings) {
        INFO(s);
        io::JsonWriter w;
        w.value(s);
        CHECK(w.text() == io::dump(json(s)));
        io::JsonWriter k;
        k.begin_object();
        k.member(s, 1);
        k.end_object();
        CHECK(k.text() == io::dump(json{{s, 1}}));
    }
}

TEST_CASE("numbers are the shortest text that reads back as the same double") {
    // nlohmann's grisu2 wrote a digit more than needed for about 1 double in 2,000: these read back
    // as the same double with one digit less (the shortest, as JavaScript writes them).
    const std::pair<double, const char*> fixed[] = {{12594211843.88132, "12594211843.88132"},
                                                    {-55184930.43883745, "-55184930.43883745"},
                                                    {7.97105580151532e-07, "7.97105580151532e-07"},
                                                    {-3.223839540649372e-236, "-3.223839540649372e-236"},
                                                    {-1.645837086224035e+283, "-1.645837086224035e+283"}};
    for (const auto& [x, text] : fixed) {
        io::JsonWriter w;
        w.value(x);
        CHECK(w.text() == text);
        CHECK(json(x).dump().size() == std::strlen(text) + 1);  // grisu2's: one digit more
        check_shortest(x);
    }
    // The layout stays nlohmann's: ".0" on a whole number, fixed from 1e-4 to below 1e15.
    for (const auto& [x, text] : std::initializer_list<std::pair<double, const char*>>{
             {3312000.0, "3312000.0"}, {0.1 + 0.2, "0.30000000000000004"}, {1e-4, "0.0001"}, {1e-5, "1e-05"}, {1e15, "1e+15"},
             {2.5e-320, "2.5e-320"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {-0.0, "-0.0"},
             {3311999.9999999995, "3311999.9999999995"}}) {
        io::JsonWriter w;
        w.value(x);
        CHECK(w.text() == text);
    }
    // Powers of two (a narrower interval below them) and their neighbours, over the whole range.
    for (int e = -1074; e <= 1023; ++e) {
        const double x = std::ldexp(1.0, e);
        check_shortest(x);
        check_shortest(std::nextafter(x, 0.0));
        check_shortest(std::nextafter(x, 2 * x));
    }
    // 20,000 doubles of every exponent and mantissa, and byte counts with fractions as the formulas make them.
    std::uint64_t state = 88172645463325252ull;
    for (int i = 0; i < 20000; ++i) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        double x;
        std::memcpy(&x, &state, sizeof x);
        if (!std::isfinite(x)) continue;
        check_shortest(x);
        check_shortest(static_cast<double>(state >> 11) * 1e-4);
    }
}

TEST_CASE("JsonWriter: a number written again, and numbers sharing a remembered slot, are nlohmann's bytes") {
    // 1/3 is "0.3333333333333333" (16 threes: the shortest that reads back), 0.1 is "0.1"; the
    // second 1/3 comes from what the writer remembers of the first.
    io::JsonWriter w;
    w.begin_array();
    for (double x : {1.0 / 3, 0.1, 1.0 / 3}) w.value(x);
    w.end_array();
    CHECK(w.text() == "[0.3333333333333333,0.1,0.3333333333333333]");
    // 2,000 fractional numbers, each written twice, in 16 slots: most share a slot with another.
    io::JsonWriter many;
    json reference = json::array();
    many.begin_array();
    double x = 0.7071;
    for (int i = 0; i < 2000; ++i) {
        x = std::fmod(x * 3.7 + 0.123, 1000.0);
        for (int twice = 0; twice < 2; ++twice) {
            many.value(x);
            reference.push_back(x);
        }
        many.value(x * 1e-300);
        reference.push_back(x * 1e-300);
    }
    many.end_array();
    CHECK(many.text() == io::dump(reference));
    CHECK(layout(many.text()) == layout(reference.dump()));
    CHECK(json::parse(many.text()) == reference);  // every number read back bit-equal
    // Each number as a writer that remembers nothing writes it.
    std::string fresh = "[";
    for (const json& v : reference) {
        char buf[64];
        fresh.append(buf, io::shortest_double(buf, v.get<double>())).append(",");
    }
    fresh.back() = ']';
    CHECK(many.text() == fresh);
}

TEST_CASE("JsonWriter escapes every ASCII byte as nlohmann does") {
    // Bytes 0x00-0x7f in one string: \b \t \n \f \r, \u00xx (lowercase) for the other controls,
    // \" and \\, DEL as it is; and one byte each, e.g. 0x1b is "\u001b" by hand.
    std::string all;
    for (int c = 0; c < 0x80; ++c) all.push_back(static_cast<char>(c));
    for (const std::string& s : {all, std::string("\x1b"), std::string("say \"hi\"")}) {
        io::JsonWriter w;
        w.value(s);
        CHECK(w.text() == io::dump(json(s)));
    }
    io::JsonWriter esc;
    esc.value("\x1b");
    CHECK(esc.text() == "\"\\u001b\"");
}

TEST_CASE("a result written as text is the tree's dump: every method and engine") {
    const char* configs[] = {
        R"({"method":"quick","params_b":7,"precision":"fp16","optimizer":"adamw-mixed","batch":4,"seq":2048})",
        R"({"method":"guide","model":{"preset":"llama-3.1-70b"},"gpu":"a100-80gb"})",
        R"({"method":"detailed","task":"training","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb","batch":2,"seq":4096})",
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb",
            "inference":{"engine":"vllm","weights":"bf16","context":8192}})",
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"rtx-4090-24gb",
            "inference":{"engine":"llama.cpp","weights":"q4_k_m","context":32768,"concurrency":2}})",
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"cpu",
            "inference":{"engine":"llama.cpp","weights":"q4_k_m"}})",
        R"({"method":"detailed","task":"inference","model":{"params_b":3},"gpu":"a10g-24gb",
            "inference":{"engine":"hf","weights":"bnb-nf4","context":4096}})",
    };
    for (const char* text : configs) {
        INFO(text);
        auto cfg = io::parse_config(text);
        REQUIRE(cfg.ok);
        auto est = estimate(cfg.value);
        REQUIRE(est.ok);
        // Every catalog GPU has its fit, but with no GPU at all ("cpu").
        CHECK(est.value.fits.empty() == (std::string(text).find("\"gpu\":\"cpu\"") != std::string::npos));
        check_same_bytes(est.value);
        CHECK(io::estimate_json(text) == io::estimate_text(est.value));
    }
}

TEST_CASE("estimate_json_columns: the GPU table as one array per member, the rest estimate_json's bytes") {
    // The JS library's transport (web/lib/entry.js makes the rows again). Llama-3.1-8B BF16 under
    // vLLM on an H100 (its Mac rows: no_backend, null elsewhere), Llama-3.1-70B Q4_K_M under
    // llama.cpp on an RTX 4090 with no RAM size (needs_ram_bytes and gpu_within_target), a guide
    // estimate (Macs with mac_needed_bytes), and a refused config (the error document as it is).
    const char* configs[] = {
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb",
            "inference":{"engine":"vllm","weights":"bf16","context":8192}})",
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-70b"},"gpu":"rtx-4090-24gb",
            "inference":{"engine":"llama.cpp","weights":"q4_k_m","context":8192}})",
        R"({"method":"guide","model":{"preset":"llama-3.1-70b"},"gpu":"a100-80gb"})",
        R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"apple-m4-max-128gb","inference":{"engine":"vllm"}})",
    };
    std::set<std::string> optional;
    for (const char* text : configs) {
        INFO(text);
        const std::string rows_text = io::estimate_json(text), columns_text = io::estimate_json_columns(text);
        json rows = json::parse(rows_text), columns = json::parse(columns_text);
        if (!rows["ok"].get<bool>()) {
            CHECK(columns_text == rows_text);
            continue;
        }
        const json& c = columns["fits"];
        REQUIRE(c.is_object());
        const size_t n = rows["fits"].size();
        CHECK(n > 60);  // every catalog GPU
        // The rows from the columns: each column's value for the row, a null one left out.
        json back = json::array();
        for (size_t i = 0; i < n; ++i) {
            json row = json::object();
            for (auto it = c.begin(); it != c.end(); ++it) {
                REQUIRE(it.value().size() == n);
                if (!it.value()[i].is_null()) row[it.key()] = it.value()[i];
            }
            back.push_back(row);
        }
        CHECK(back == rows["fits"]);
        CHECK(c["gpu"][0] == rows["fits"][0]["gpu"]);
        // An optional column is there only when a row has the member.
        for (const char* k : {"gpu_within_target", "mac_needed_bytes", "needs_ram_bytes", "no_backend"}) {
            bool any = false;
            for (const json& r : rows["fits"]) any |= r.contains(k);
            CHECK(c.contains(k) == any);
            if (any) optional.insert(k);
        }
        // Everything else byte for byte: the document with the rows' text put back in place.
        columns["fits"] = rows["fits"];
        CHECK(io::dump(columns) == rows_text);
    }
    CHECK(optional.size() == 4);  // each optional column met once at least
}

TEST_CASE("a result with repeated and unsorted keys, odd strings and no finite numbers writes as the tree") {
    Estimate e;
    e.method = "detailed";
    e.task = "inference \"quoted\"";
    e.components = {{"zeta", "Z", 1, "f"}, {"alpha", "A \xff", 2.5, "g\n"}, {"zeta", "Z again", 3, "h"}, {"", "empty key", 0, ""}};
    e.metrics = {{"m2", "two", std::nan(""), "bytes"}, {"m1", "one", 1e-7, "s"}, {"m2", "two again", -0.0, "count"}};
    e.notes = {"a note", "\xe2\x80\x94 and \x01"};
    e.fits = {{"h100-80gb", 2, 0.5, true, false}, {"custom", 0, std::numeric_limits<double>::infinity(), false, false}};
    e.devices = {{"CUDA0", false, 1, 2, 3, 4}, {"CPU", true, 5, 0, 0, 0.25}};
    e.launch_command = "llama-server -m \"model.gguf\"";
    e.total_bytes = 6;
    e.buffered_bytes = 7.2;
    check_same_bytes(e);
    // Nothing in the vectors: empty containers, no "devices" or "launch_command".
    check_same_bytes(Estimate{});
}

TEST_CASE("every result of the golden corpus written as text is the tree's dump") {
    // tests/golden/configs.jsonl: 2,200 configs across every method, task, engine and format.
    std::ifstream f(std::string(VRAMCALC_IMPORT_FIXTURES) + "/../golden/configs.jsonl");
    REQUIRE(f.good());
    std::string line;
    int results = 0, moved = 0;
    std::set<double> numbers;
    while (std::getline(f, line)) {
        auto cfg = io::parse_config(line);
        if (!cfg.ok) continue;
        auto est = estimate(cfg.value);
        if (!est.ok) continue;
        ++results;
        const json tree = reference_tree(est.value);
        const std::string text = io::estimate_text(est.value);
        if (text != io::dump(tree) || io::estimate_text(est.value, 2) != io::dump(tree, 2)) FAIL_CHECK(line);
        // nlohmann's layout, and read back: the same numbers, bit for bit.
        const std::string nlohmann_text = tree.dump(-1, ' ', false, json::error_handler_t::replace);
        if (layout(text) != layout(nlohmann_text) || json::parse(text) != tree) FAIL_CHECK(line);
        if (text != nlohmann_text) ++moved;
        for (const auto& c : est.value.components) numbers.insert(c.bytes);
        for (const auto& m : est.value.metrics) numbers.insert(m.value);
        for (const auto& f : est.value.fits) numbers.insert(f.utilization);
    }
    CHECK(results >= 1500);
    // Results whose text differs from grisu2's (a number a digit shorter): few, and each read back above.
    INFO(moved << " of " << results << " results written shorter than nlohmann's dump()");
    CHECK(moved < results / 10);
    for (double x : numbers)
        if (std::isfinite(x)) check_shortest(x);
}

TEST_CASE("ObjectReader finds a member by its name whatever its first byte: the empty name, UTF-8, null as absent", "[json_read]") {
    // get() rules out a name whose first byte starts no member before searching (issue 15).
    const json j = json::parse(R"({"":1,"batch":2,"\u00e9t\u00e9":3,"b":null})");
    io::ObjectReader r(j, "");
    REQUIRE(r.get(""));
    CHECK(*r.get("") == 1);
    REQUIRE(r.get("batch"));
    CHECK(*r.get("batch") == 2);
    REQUIRE(r.get("\xc3\xa9t\xc3\xa9"));  // "été" in UTF-8: a first byte from 0x80
    CHECK(*r.get("\xc3\xa9t\xc3\xa9") == 3);
    CHECK(r.get("b") == nullptr);      // null reads as absent
    CHECK(r.get("bat") == nullptr);    // a first byte some member has, a name none has
    CHECK(r.get("seq") == nullptr);    // a first byte no member has
    CHECK(r.get("\xc3\xa9") == nullptr);
    const json not_object = json::array({1, 2});
    io::ObjectReader a(not_object, "");
    CHECK(a.get("") == nullptr);
    CHECK(a.get("batch") == nullptr);
}
