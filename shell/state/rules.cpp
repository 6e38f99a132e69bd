// vramcalc shell state: what a rule of thumb ignores (see rules.hpp).
#include "rules.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/quant/quant.hpp"
#include "core/rules/quick.hpp"
#include "core/text.hpp"

namespace vc::shell {

std::vector<std::string> rule_ignores(const Config& cfg, Method rule) {
    std::vector<std::string> out;
    if (rule == Method::Detailed) return out;
    const char* name = rule == Method::Quick ? "The quick rule" : "The guide's formula";
    if (cfg.task == Task::FineTune && cfg.training.finetune != FinetuneMethod::Full) {
        const char* ft = cfg.training.finetune == FinetuneMethod::Qlora ? "QLoRA" : "LoRA";
        out.push_back(std::string("Fine-tuning ") + ft + ": " + name + " sizes a full fine-tune (gradients and optimizer state for every "
                      "parameter" + (cfg.training.finetune == FinetuneMethod::Qlora ? ", 16-bit base weights" : "") +
                      "), not the adapters.");
    }
    if (cfg.task == Task::Inference) {
        const std::string& id = cfg.inference.weights.format;
        const WeightFormat* f = find_weight_format(id);
        const std::string lower = ascii_lower(id);
        const bool plain = lower == "fp32" || lower == "fp16" || lower == "bf16";
        if (f && !plain) {
            // The rule's bytes per weight: the quick precision (the guide reads the same width).
            const double rule_bytes = quick_precision_bytes(cfg.quick.precision);
            char text[256];
            std::snprintf(text, sizeof text,
                          "Weight format %s: %s counts %.3g bytes per weight, without the format's scales and the layers it keeps at "
                          "higher precision.",
                          f->label, name, rule_bytes);
            out.push_back(text);
        }
        const std::string kv = ascii_lower(cfg.inference.kv_dtype);
        if (kv != "auto" && kv != "fp16" && kv != "bf16" && kv != "f16") {
            out.push_back("KV cache type " + cfg.inference.kv_dtype + ": " +
                          (rule == Method::Quick ? std::string("the quick rule has no KV cache at all (it scales activations with the "
                                                               "parameter count).")
                                                 : std::string("the guide's KV term counts 2-byte values.")));
        }
    }
    return out;
}

}  // namespace vc::shell

namespace vc::shell {

std::string page_words(std::string message) {
    // Longest first: each CLI phrase and the page control that does the same.
    static const char* const kPhrases[][2] = {
        {"set gpu (vramcalc --list-gpus) or inference.gpu_custom", "choose a GPU (the GPU list, or Custom GPU)"},
        {"(vramcalc --list-gpus), or give inference.gpu_custom", "(the GPU list), or choose Custom GPU"},
        {"(vramcalc --list-gpus) or inference.gpu_custom", "(the GPU list) or Custom GPU"},
        {"(vramcalc --list-gpus)", "(the GPU list)"},
        {"(see vramcalc --list-presets)", "(the Preset list)"},
        {"(vramcalc --list-presets)", "(the Preset list)"},
    };
    for (const auto& p : kPhrases)
        for (size_t at; (at = message.find(p[0])) != std::string::npos;) message.replace(at, std::strlen(p[0]), p[1]);
    return message;
}

}  // namespace vc::shell
