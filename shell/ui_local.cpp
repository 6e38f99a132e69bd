// vramcalc shell: local inference with llama.cpp (docs/local.md). The engine's flags as llama-server
// names them (-ngl, --n-cpu-moe, -ctk/-ctv, -sm/-ts, --mmproj, -md, --lora, the Ollama profile), the
// machine around the GPU (system RAM and its bandwidth), and what the engine adds to the results:
// each device's buffers as llama.cpp logs them and the command that runs the plan, copyable.
//
// [SECTIONS]
//   engine     llama.cpp rows of the engine settings
//   machine    system RAM, its bandwidth, Apple's wired limit
//   devices    per-device buffers and the launch command
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/model/presets.hpp"
#include "core/serve/kv_cache.hpp"
#include "core/serve/llamacpp.hpp"
#include "platform.hpp"
#include "state/format.hpp"
#include "ui_internal.hpp"

namespace vc::shell::ui {
namespace {

constexpr double kBytesPerGiB = 1073741824.0;
constexpr double kBytesPerMiB = 1048576.0;

const Choice<SplitMode> kSplitModes[] = {
    {SplitMode::Layer, "Layer", "Whole layers per GPU (-sm layer): each GPU holds its layers' weights, KV and compute buffer."},
    {SplitMode::Row, "Row", "Every matrix split over the GPUs (-sm row): KV and compute stay on the main GPU."},
    {SplitMode::None, "None", "One GPU only (-sm none)."},
};

// GPUs llama.cpp spreads the model over (inference.tp, or the job's GPU count when it is 0).
int llamacpp_gpus(const Config& c) { return c.inference.tp > 0 ? c.inference.tp : static_cast<int>(c.gpus); }

std::string join_numbers(const std::vector<double>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v[i]);
        s += (i ? "," : "") + std::string(buf);
    }
    return s;
}

// "3,1" -> {3, 1}; empty text -> {} (split by memory). False when a part is not a plain number.
bool parse_numbers(const std::string& s, std::vector<double>& out) {
    out.clear();
    if (s.find_first_not_of(" ") == std::string::npos) return true;
    size_t start = 0;
    while (true) {
        const size_t comma = s.find(',', start);
        const std::string part = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char* end = nullptr;
        const double v = std::strtod(part.c_str(), &end);
        if (part.empty() || end == part.c_str() || *end != 0) return false;
        out.push_back(v);
        if (comma == std::string::npos) return true;
        start = comma + 1;
    }
}

// --tensor-split as typed text: applies on Enter or when the field is left; text that is not a
// list of numbers is named under the field and the last valid split stays.
bool tensor_split_row(App& a, Form& f) {
    static char buf[128];
    static bool editing = false;
    static std::string bad;  // the text that did not read, shown until the next valid one
    std::vector<double>& ts = a.inputs.inference.llamacpp.tensor_split;
    const Field field{"inference.llamacpp.tensor_split", "Tensor split (-ts)", "Each GPU's share of the layers, e.g. 3,1; empty: by each GPU's memory."};
    row_begin(f, field);
    if (!editing) std::snprintf(buf, sizeof buf, "%s", join_numbers(ts).c_str());
    ImGui::PushID(field.id);
    ImGui::InputTextWithHint("##v", "by memory (e.g. 3,1)", buf, sizeof buf, ImGuiInputTextFlags_CharsDecimal);
    editing = ImGui::IsItemActive();
    const bool done = ImGui::IsItemDeactivatedAfterEdit();
    reg(a, field.id);
    field_tooltip(field);
    ImGui::PopID();
    bool changed = false;
    if (done) {
        std::vector<double> parsed;
        if (parse_numbers(buf, parsed)) {
            bad.clear();
            changed = parsed != ts;
            ts = parsed;
        } else {
            bad = buf;
        }
    }
    row_end(f, field);
    if (!bad.empty()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(1);
        error_text("\"" + bad + "\" is not a list of shares: numbers separated by commas, one per GPU (e.g. 3,1)");
        reg(a, std::string(field.id) + "/error");
    }
    return changed;
}

// -ot as llama-server takes it. The engine reads it: a bad pattern or buffer type is its Error on
// inference.llamacpp.override_tensor, drawn under this row by row_end while the last valid result stays.
bool override_tensor_row(App& a, Form& f) {
    static char buf[4097];  // the field's 4096 bytes (core/fields.cpp text_max) and the NUL
    static bool editing = false;
    std::string& value = a.inputs.inference.llamacpp.override_tensor;
    const Field field{"inference.llamacpp.override_tensor", "Tensor overrides (-ot)",
                      "pattern=buffer_type pairs, comma-separated: tensors whose GGUF name a pattern matches go to that buffer (CPU: system RAM; "
                      "CUDA0, CUDA1 ...: that GPU), first match wins. E.g. blk\\.(1[6-9]|2[0-9])\\.ffn_.*_exps\\.=CPU"};
    row_begin(f, field);
    if (!editing) std::snprintf(buf, sizeof buf, "%s", value.c_str());
    ImGui::PushID(field.id);
    ImGui::InputTextWithHint("##v", "none (e.g. exps=CPU)", buf, sizeof buf);
    editing = ImGui::IsItemActive();
    const bool done = ImGui::IsItemDeactivatedAfterEdit();
    reg(a, field.id);
    field_tooltip(field);
    ImGui::PopID();
    const bool changed = done && value != buf;
    if (changed) value = buf;
    row_end(f, field);
    return changed;
}

// A combo of "None" and ids (a projector or a draft model); `value` empty is None.
bool optional_combo(Form& f, const Field& field, const char* none_tip, const std::vector<std::pair<std::string, std::string>>& items,
                    std::string& value) {
    std::vector<const char*> ids{"none"}, labels{"None"}, tips{none_tip};
    int index = 0;
    for (const auto& [id, tip] : items) {
        ids.push_back(id.c_str());
        labels.push_back(id.c_str());
        tips.push_back(tip.c_str());
        if (id == value) index = static_cast<int>(ids.size()) - 1;
    }
    if (!combo_row(f, field, static_cast<int>(ids.size()), index, ids.data(), labels.data(), tips.data())) return false;
    value = index == 0 ? std::string() : items[index - 1].first;
    return true;
}

}  // namespace

// [SECTION] engine --------------------------------------------------------------------------------
bool llamacpp_rows(App& a, Form& k) {
    Config& c = a.inputs;
    InferenceInputs& in = c.inference;
    LlamaCppOptions& o = in.llamacpp;
    bool changed = false;
    // -1 is -ngl (Ollama: num_gpu) unset: with --fit the label shows the count llama-server's --fit
    // chose (the estimate's auto_gpu_layers), else "all".
    const char* ngl_name = o.ollama ? "num_gpu" : "-ngl";
    char ngl_label[48];
    if (const Metric* mt = o.fit ? a.results.estimate.metric("auto_gpu_layers") : nullptr)
        std::snprintf(ngl_label, sizeof ngl_label, "GPU layers (%s, -1: auto = %.0f)", ngl_name, mt->value);
    else std::snprintf(ngl_label, sizeof ngl_label, "GPU layers (%s, -1: %s)", ngl_name, o.fit ? "auto" : "all");
    changed |= integer(k, {"inference.llamacpp.n_gpu_layers", ngl_label, "The output layer and the last N - 1 layers on the GPU (older llama.cpp: the last N); the rest in system RAM."},
                       o.n_gpu_layers, shown(Step::Add, "%.0f"));
    if (!o.ollama)  // Ollama runs llama-server with its default --fit
        changed |= check(k, {"inference.llamacpp.fit", "Fit to GPU memory (--fit)", "-ngl unset: llama-server moves layers (MoE experts first) to system RAM until --fit-target (1 GiB by default) stays free per GPU. Off: --fit off or llama.cpp before 2025-12."},
                         o.fit, "--fit on");
    changed |= check(k, {"inference.llamacpp.output_first", "Output layer first (-ngl)", "-ngl N: the output layer and the last N - 1 layers (llama.cpp since PR #18148, 2025-12). Off: an older build, the last N layers."},
                     o.output_first, "output first");
    if (c.model.experts > 0)
        changed |= integer(k, {"inference.llamacpp.n_cpu_moe", "CPU MoE layers (--n-cpu-moe)", "Routed experts of the first N layers stay in system RAM; attention stays on the GPU."},
                           o.n_cpu_moe, shown(Step::Add, "%.0f"));
    if (!o.ollama)  // Ollama's parameters have no -ot
        changed |= override_tensor_row(a, k);
    // 0 is -ub unset: llama.cpp's 512, or Ollama's automatic num_batch (the estimate's auto_num_batch).
    char ub_label[56];
    if (const Metric* mt = o.ollama ? a.results.estimate.metric("auto_num_batch") : nullptr)
        std::snprintf(ub_label, sizeof ub_label, "Physical batch (num_batch, 0: auto = %.0f)", mt->value);
    else std::snprintf(ub_label, sizeof ub_label, o.ollama ? "Physical batch (num_batch, 0: auto)" : "Physical batch (-ub, 0: %d)", kLlamaCppUbatch);
    changed |= integer(k, {"inference.llamacpp.n_ubatch", ub_label, "n_ubatch: the compute buffer grows with it. Ollama's num_batch sets -b and -ub."}, o.n_ubatch,
                       shown(Step::Double, "%.0f", {0, 128, 256, 512, 1024, 2048}));
    changed |= integer(k, {"inference.llamacpp.n_batch", "Logical batch (-b)", "n_batch: caps the physical batch (-ub) the compute buffer is sized for."},
                       o.n_batch, shown(Step::Double, "%.0f", {256, 512, 1024, 2048, 4096}));
    changed |= check(k, {"inference.llamacpp.flash_attn", "Flash attention", "-fa: no attention score buffer; a quantized V cache needs it."}, o.flash_attn, "-fa on");
    if (!o.ollama)  // Ollama's parameters have no -nkvo
        changed |= check(k, {"inference.llamacpp.no_kv_offload", "KV cache in system RAM", "-nkvo: every layer's KV cache in system RAM, attention on the CPU."},
                         o.no_kv_offload, "-nkvo");

    // -ctv: "same as K" or a type of its own (K is the KV cache dtype above).
    {
        std::vector<const char*> ids{"same"}, labels{"Same as K (-ctk)"}, tips{"The V cache takes the K cache's type."};
        int index = 0;
        for (const auto& d : kv_dtypes()) {
            ids.push_back(d.id);
            labels.push_back(d.id);
            tips.push_back(d.source);
            if (o.kv_dtype_v == d.id) index = static_cast<int>(ids.size()) - 1;
        }
        if (combo_row(k, {"inference.llamacpp.kv_dtype_v", "V cache type (-ctv)", "Bytes per cached V value; a quantized V cache needs flash attention."},
                      static_cast<int>(ids.size()), index, ids.data(), labels.data(), tips.data())) {
            o.kv_dtype_v = index == 0 ? std::string() : std::string(ids[index]);
            changed = true;
        }
    }

    if (llamacpp_gpus(c) > 1) {
        changed |= choice(k, {"inference.llamacpp.split_mode", "Split mode (-sm)", "How the model spreads over the GPUs."}, kSplitModes, o.split_mode, true);
        changed |= tensor_split_row(a, k);
    }

    std::vector<std::pair<std::string, std::string>> projectors;
    for (const auto& p : projector_presets()) projectors.emplace_back(p.id, p.source);
    changed |= optional_combo(k, {"inference.llamacpp.mmproj.preset", "Vision projector (--mmproj)", "A vision encoder's weights and its image graph on the GPU."},
                              "No images.", projectors, o.mmproj.preset);
    std::vector<std::pair<std::string, std::string>> drafts;
    for (const auto& m : model_presets()) drafts.emplace_back(m.id, m.name);
    if (!o.ollama)  // Ollama runs no draft model
        changed |= optional_combo(k, {"inference.llamacpp.draft.preset", "Draft model (-md)", "Speculative decoding: the draft's weights, KV and compute on the main GPU."},
                                  "No speculative decoding.", drafts, o.draft.preset);
    if (!o.draft.preset.empty() && !o.ollama) {  // the draft's speed inputs (SPEED shows the speed-up)
        changed |= integer(k, {"inference.llamacpp.draft.max_tokens", "Draft tokens (--draft-max)", "Most tokens drafted per cycle."},
                           o.draft.max_tokens, shown(Step::Add, "%.0f", {4, 8, 16, 32}));
        changed |= number(k, {"inference.llamacpp.draft.acceptance", "Draft acceptance",
                              "Chance each drafted token is accepted; it depends on the text."},
                          o.draft.acceptance, shown(Step::Add, "%.2f", {0.5, 0.6, 0.72, 0.8, 0.9}));
    }
    double lora_mib = o.lora_bytes / kBytesPerMiB;
    if (number(k, {"inference.llamacpp.lora_mib", "LoRA adapters (MiB)", "--lora: adapter tensors on their layers' devices."}, lora_mib,
               shown(Step::Add, "%.0f", {}, "MiB"))) {
        o.lora_bytes = lora_mib * kBytesPerMiB;
        changed = true;
    }
    bool ollama = o.ollama;
    if (check(k, {"inference.llamacpp.profile", "Ollama profile", "Ollama's defaults (num_ctx by the GPU's VRAM, one request) and its parameters in the launch command."},
              ollama, "Ollama")) {
        o.ollama = ollama;
        if (ollama) {
            // What the config reader does for a profile without its own context and parallel.
            in.context = ollama_default_context(c);
            in.concurrency = static_cast<int>(in.constants.ollama_num_parallel);
            o.no_kv_offload = false;  // Ollama has no -nkvo (the engine refuses the pair)
            o.override_tensor.clear();  // nor -ot
            o.draft.preset.clear();     // nor a draft model
        }
        changed = true;
    }
    return changed;
}

// [SECTION] machine -------------------------------------------------------------------------------
bool host_panel(App& a) {
    InferenceInputs& in = a.inputs.inference;
    HostInputs& h = in.host;
    panel_begin("host", "SYSTEM RAM");
    Form f{a};
    bool changed = false;
    if (begin_form("host")) {
        double ram_gib = h.ram_bytes / kBytesPerGiB;
        if (number(f, {"inference.host.ram_gib", "System RAM (GiB, 0: unchecked)", "The host's buffers (layers and experts off the GPU) are checked against it."},
                   ram_gib, shown(Step::Double, "%.0f", {16, 32, 64, 128, 256}, "GiB"))) {
            h.ram_bytes = ram_gib * kBytesPerGiB;
            changed = true;
        }
        changed |= number(f, {"inference.host.bandwidth_gbps", "RAM bandwidth (GB/s, 0: from DDR)", "Measured read bandwidth: decode reads the host's layers at this rate."},
                          h.bandwidth_gbps, shown(Step::Add, "%.0f", {50, 60, 90, 200, 400}, "GB/s"));
        if (h.bandwidth_gbps <= 0) {
            changed |= integer(f, {"inference.host.channels", "Memory channels (0: default)", "64-bit DDR channels: desktop 2, workstation 4-8."},
                               h.channels, shown(Step::Add, "%.0f", {2, 4, 8, 12}));
            changed |= number(f, {"inference.host.mts", "DDR speed (MT/s)", "Transfers per second: bandwidth = channels x 8 B x MT/s x 0.7."},
                              h.mts, shown(Step::Add, "%.0f", {3200, 4800, 5600, 6400}, "MT/s"));
        }
        const GpuSpec* g = config_gpu(a.inputs);
        if (g && g->unified)
            changed |= number(f, {"inference.host.wired_limit_mb", "GPU wired limit (MB, 0: macOS)", "sysctl iogpu.wired_limit_mb: the share of RAM the GPU may wire."},
                              h.wired_limit_mb, shown(Step::Add, "%.0f", {}, "MB"));
        end_form(f);
    }
    panel_end();
    return changed;
}

// [SECTION] devices -------------------------------------------------------------------------------
void devices_panel(App& a) {
    const Estimate& e = a.results.estimate;
    if (e.devices.empty() && e.launch_command.empty()) return;
    const bool gib = a.ui.show_gib;
    if (!e.devices.empty()) {
        panel_begin("devices", "DEVICES (AS LLAMA.CPP LOGS THEM)");
        const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_RowBg;
        if (ImGui::BeginTable("devices", 6, flags)) {
            static const char* const kHeads[] = {"Device", "Model", "KV", "Compute", "Other", "Total"};
            static const char* const kTips[] = {"The buffer's device as llama.cpp names it (CUDA_Host / CPU: system RAM).",
                                                "Weights of the layers it holds.", "KV cells of those layers.",
                                                "Graph peak for one ubatch.",
                                                "Output buffer, projector, draft model, LoRA; the CUDA context on a GPU.",
                                                "What the device needs."};
            for (const char* h : kHeads) ImGui::TableSetupColumn(h);
            ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
            for (int i = 0; i < 6; ++i) {
                ImGui::TableSetColumnIndex(i);
                ImGui::TableHeader(kHeads[i]);
                tooltip(kTips[i]);
            }
            for (const auto& d : e.devices) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                const ImVec2 row_min = ImGui::GetCursorScreenPos();
                ImGui::TextUnformatted(d.device.c_str());
                if (d.host) {
                    ImGui::SameLine();
                    dim_text("RAM");
                }
                const double v[] = {d.model, d.kv, d.compute, d.other, d.total()};
                for (int i = 0; i < 5; ++i) {
                    ImGui::TableSetColumnIndex(i + 1);
                    if (i == 4) ImGui::PushFont(font(Font::Bold));
                    ImGui::TextUnformatted(format_size(v[i], gib).c_str());
                    if (i == 4) ImGui::PopFont();
                    if (ImGui::IsItemHovered()) {
                        ImGui::BeginTooltip();
                        bytes_tooltip(v[i]);
                        ImGui::EndTooltip();
                    }
                }
                // The row's rectangle: the device's id, for tests and the accessible order.
                reg_rect(a, "device/" + d.device, row_min, ImGui::GetItemRectMax());
            }
            ImGui::EndTable();
        }
        dim_text("Per device: the buffers llama.cpp logs at start-up; RAM rows are in system memory.");
        panel_end();
    }
    if (!e.launch_command.empty()) {
        panel_begin("launch", "LAUNCH COMMAND");
        ImGui::PushTextWrapPos(0.0f);
        text_unformatted(e.launch_command.c_str());
        ImGui::PopTextWrapPos();
        reg(a, "launch_command");
        tooltip("The command that runs this plan with these settings.");
        if (button(a, "copy_launch", "Copy command", "Copy the launch command to the clipboard.")) {
            platform::copy_text(e.launch_command);
            a.notice = "Command copied";
        }
        panel_end();
    }
}

}  // namespace vc::shell::ui
