// vramcalc io: plain-text report of an Estimate.
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/catalog/gpus.hpp"
#include "core/gpu_choice.hpp"
#include "core/units.hpp"

namespace vc::io {

std::string format_bytes(double bytes, bool gib) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f %s", gib ? bytes_to_gib(bytes) : bytes_to_gb(bytes), gib ? "GiB" : "GB");
    return buf;
}

namespace {

// The label column fits the longest label (within reason), so long labels keep numbers aligned.
int label_width(const Estimate& e) {
    size_t w = 24;
    for (const auto& c : e.components) w = std::max(w, c.label.size());
    for (const auto& m : e.metrics) w = std::max(w, m.label.size());
    return static_cast<int>(std::min<size_t>(w, 48));
}

void line(std::string& out, int w, const std::string& label, double bytes, const std::string& formula) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-*s %12.2f %12.2f   ", w, label.c_str(), bytes_to_gb(bytes), bytes_to_gib(bytes));
    out += buf;
    out += formula;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
}

std::string fmt_value(double v) {
    char buf[64];
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

std::string format_table(const Estimate& e, const std::string& count_rule, const GpuSpec* custom) {
    const int w = label_width(e);
    std::string out;
    out += "vramcalc: " + e.method + " method, " + e.task + " (per GPU)\n";
    char head[256];
    std::snprintf(head, sizeof head, "  %-*s %12s %12s   %s\n", w, "Component", "GB (1e9)", "GiB (2^30)", "Formula");
    out += head;
    for (const auto& c : e.components) line(out, w, c.label, c.bytes, c.formula);
    line(out, w, "Total", e.total_bytes, "");
    if (e.buffered_bytes != e.total_bytes) line(out, w, "Total with safety margin", e.buffered_bytes, "");
    for (const auto& m : e.metrics) {
        char buf[256];
        if (m.unit == "bytes")
            std::snprintf(buf, sizeof buf, "  %-*s %12.2f %12.2f\n", w, m.label.c_str(), bytes_to_gb(m.value), bytes_to_gib(m.value));
        else
            std::snprintf(buf, sizeof buf, "  %-*s %12s %s\n", w, m.label.c_str(), m.unknown() ? "unknown" : fmt_value(m.value).c_str(),
                          m.unknown() ? "" : m.unit.c_str());
        out += buf;
    }
    if (!e.devices.empty()) {
        out += "Devices (MiB, as llama.cpp logs them):\n";
        char buf[256];
        std::snprintf(buf, sizeof buf, "  %-12s %10s %10s %10s %10s %10s\n", "device", "model", "KV", "compute", "other", "total");
        out += buf;
        for (const auto& d : e.devices) {
            std::snprintf(buf, sizeof buf, "  %-12s %10.2f %10.2f %10.2f %10.2f %10.2f\n", d.device.c_str(), d.model / kBytesPerMiB,
                          d.kv / kBytesPerMiB, d.compute / kBytesPerMiB, d.other / kBytesPerMiB, d.total() / kBytesPerMiB);
            out += buf;
        }
    }
    if (!e.launch_command.empty()) out += "Launch: " + e.launch_command + "\n";
    if (!e.fits.empty()) {
        out += count_rule.empty() ? "GPUs:\n" : "GPUs (" + count_rule + "):\n";
        for (const auto& f : e.fits) {
            // The custom GPU's row is listed under id "custom" (core/gpu_choice.hpp): its own name.
            const GpuSpec* g = f.gpu_id == kCustomGpuId ? custom : find_gpu(f.gpu_id);
            std::string verdict = !f.fits ? "does not fit" : f.within_target ? "fits within target" : "fits, above target";
            // llama.cpp with layers, experts or KV in system RAM of no stated size: the GPU part's
            // verdict and the RAM nothing checked (core/result.hpp).
            if (f.needs_ram_bytes > 0) {
                char ram[160];
                std::snprintf(ram, sizeof ram, "GPU part %s; needs %.2f GB (%.2f GiB) of system RAM, not checked (--ram-gib)",
                              f.gpu_within_target ? "within target" : "above target", bytes_to_gb(f.needs_ram_bytes), bytes_to_gib(f.needs_ram_bytes));
                verdict = ram;
            }
            // A Mac is one machine (core/estimate.hpp apply_one_machine_rule): the Mac that would hold it.
            if (f.no_backend) {
                verdict += std::string("; ") + f.no_backend;  // vLLM on a Mac: not a matter of size
            } else if (f.mac && f.gpus_needed == 0) {
                char mac[96];
                if (f.mac_needed_bytes > 0) std::snprintf(mac, sizeof mac, "; one Mac: needs a Mac with >= %.0f GiB (%.0f GB)", bytes_to_gib(f.mac_needed_bytes),
                                  bytes_to_gb(f.mac_needed_bytes));
                else std::snprintf(mac, sizeof mac, "; one Mac: no Mac in the catalog holds it");
                verdict += mac;
            }
            char need[32];
            if (f.gpus_needed > 0)
                std::snprintf(need, sizeof need, "%4d needed", f.gpus_needed);
            else
                std::snprintf(need, sizeof need, "%4s needed", "-");
            char buf[256];
            std::snprintf(buf, sizeof buf, "  %-*s %s   %7.1f%% of one   %s\n", w, g ? g->name.c_str() : f.gpu_id.c_str(), need,
                          f.utilization * 100, verdict.c_str());
            out += buf;
        }
    }
    for (const auto& n : e.notes) out += "Note: " + n + "\n";
    return out;
}

}  // namespace vc::io
