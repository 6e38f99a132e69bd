// vramcalc fuzz harness "config": a config JSON document through the reader, the estimate and every
// "what fits" question (docs/fuzzing.md). The estimate is a document's (estimate_document: the CLI,
// `batch` and the JS API), so the notes naming fields the engine or task ignores run too. Properties,
// on every input:
//   - nothing crashes or trips a sanitizer; a rejected config names its field and says why
//   - every figure of an estimate (components, totals, GPU fits, metrics) and of an answer is
//     finite and not negative, and no text carries NaN, Inf or a wrapped integer
//   - a document's notes change no figure: estimate_document and estimate (the page's) agree on
//     the outcome and the total
//   - config -> JSON -> config estimates to byte-identical JSON (links, exports and the JS API
//     rely on a config surviving its own JSON)
#include <cstdint>
#include <string>

#include "core/estimate.hpp"
#include "core/solve.hpp"
#include "fuzz_check.hpp"
#include "io/config_json.hpp"
#include "io/report.hpp"
#include "io/solve_json.hpp"

namespace {

// Inputs past this many bytes add nothing a shorter one cannot reach (a config is a few hundred).
constexpr size_t kMaxInputBytes = 16384;

void check_error(const vc::Error& e, const char* stage) {
    FUZZ_CHECK(!e.field.empty() && !e.message.empty(), std::string(stage) + ": an error without field or message");
    // (Messages quote the user's text, which may say "inf"; the reader rejects non-finite numbers.)
}

// The user's own text (a model's name, a custom GPU's name, llama.cpp's -ot patterns) comes back
// verbatim (the title, the launch command) and may itself say "nan" or "-9223372036854775808":
// taken out before the number check, which is about the figures the engine writes.
std::string without_user_text(std::string s, const vc::Config& c) {
    for (const std::string* t : {&c.model.name, &c.inference.custom_gpu.name, &c.inference.llamacpp.override_tensor})
        for (size_t at; !t->empty() && (at = s.find(*t)) != std::string::npos;) s.erase(at, t->size());
    return s;
}

void check_estimate(const vc::Estimate& e, const vc::Config& c) {
    using vc::fuzz::is_size;
    for (const auto& c : e.components)
        FUZZ_CHECK(is_size(c.bytes), "component " + c.key + " is " + std::to_string(c.bytes) + " bytes");
    FUZZ_CHECK(is_size(e.total_bytes), "total_bytes is " + std::to_string(e.total_bytes));
    FUZZ_CHECK(is_size(e.buffered_bytes), "buffered_bytes is " + std::to_string(e.buffered_bytes));
    for (const auto& f : e.fits) {
        FUZZ_CHECK(is_size(f.utilization), "fits[" + f.gpu_id + "].utilization is " + std::to_string(f.utilization));
        FUZZ_CHECK(f.gpus_needed >= 0, "fits[" + f.gpu_id + "].gpus_needed is " + std::to_string(f.gpus_needed));
        // Within the target means some count of this GPU is (gpus_needed); fitting only above the
        // target (a Mac whose RAM cannot keep 25% free at any count) may need "-".
        FUZZ_CHECK(!f.within_target || f.gpus_needed >= 1, "fits[" + f.gpu_id + "] within target with gpus_needed 0");
        FUZZ_CHECK(f.fits || !f.within_target, "fits[" + f.gpu_id + "] within target but does not fit");
        // System RAM nothing checked is never "fits" (llama.cpp without inference.host.ram_gib).
        FUZZ_CHECK(is_size(f.needs_ram_bytes) && !(f.needs_ram_bytes > 0 && f.within_target), "fits[" + f.gpu_id + "] within target with unchecked RAM");
    }
    for (const auto& m : e.metrics)
        FUZZ_CHECK(is_size(m.value), "metric " + m.key + " is " + std::to_string(m.value));
    const std::string table = vc::io::format_table(e);
    FUZZ_CHECK(vc::fuzz::clean_numbers(without_user_text(table, c)), "the table shows NaN/Inf:\n" + table);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto cfg = vc::io::parse_config(text);
    if (!cfg.ok) {
        check_error(cfg.error, "parse_config");
        return 0;
    }

    auto est = vc::estimate_document(cfg.value);
    {
        const auto plain = vc::estimate(cfg.value);
        FUZZ_CHECK(plain.ok == est.ok && (!plain.ok || plain.value.total_bytes == est.value.total_bytes),
                   "estimate_document and estimate disagree");
    }
    if (!est.ok) {
        check_error(est.error, "estimate");
    } else {
        check_estimate(est.value, cfg.value);
        const std::string once = vc::io::dump(vc::io::estimate_to_json(est.value));
        const std::string written = vc::io::dump(vc::io::config_to_json(cfg.value));
        auto again = vc::io::parse_config(written);
        FUZZ_CHECK(again.ok, "config_to_json wrote a config its reader rejects: " + again.error.message + "\n" + written);
        auto est2 = vc::estimate_document(again.value);
        FUZZ_CHECK(est2.ok, "the config's own JSON does not estimate: " + est2.error.message + "\n" + written);
        const std::string twice = vc::io::dump(vc::io::estimate_to_json(est2.value));
        FUZZ_CHECK(once == twice, "config -> JSON -> config changes the estimate:\n" + once + "\n" + twice + "\nconfig " + written);
    }

    for (const auto& q : vc::solve_questions()) {
        auto a = vc::solve(cfg.value, q.id);
        if (!a.ok) {
            check_error(a.error, q.id);
            continue;
        }
        FUZZ_CHECK(vc::fuzz::is_size(a.value.value), std::string(q.id) + " answered " + std::to_string(a.value.value));
        FUZZ_CHECK(vc::fuzz::clean_numbers(without_user_text(a.value.explanation, cfg.value)), std::string(q.id) + ": " + a.value.explanation);
        for (const auto& item : a.value.items)
            FUZZ_CHECK(vc::fuzz::clean_numbers(without_user_text(item, cfg.value)), std::string(q.id) + ": " + item);
        vc::io::dump(vc::io::answer_to_json(a.value));
    }
    return 0;
}
