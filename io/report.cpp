// vramcalc io: plain-text report of an Estimate.
#include "report.hpp"

#include <cstdio>

#include "../core/gpus.hpp"
#include "../core/units.hpp"

namespace vc::io {

std::string format_bytes(double bytes, bool gib) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f %s", gib ? bytes_to_gib(bytes) : bytes_to_gb(bytes), gib ? "GiB" : "GB");
    return buf;
}

static void line(std::string& out, const char* label, double bytes, const std::string& formula) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %-32s %12.2f %12.2f   ", label, bytes_to_gb(bytes), bytes_to_gib(bytes));
    out += buf;
    out += formula;
    out += '\n';
}

std::string format_table(const Estimate& e) {
    std::string out;
    out += "vramcalc: " + e.method + " method, " + e.task + " (per GPU)\n";
    char head[160];
    std::snprintf(head, sizeof head, "  %-32s %12s %12s   %s\n", "Component", "GB (1e9)", "GiB (2^30)", "Formula");
    out += head;
    for (const auto& c : e.components) line(out, c.label.c_str(), c.bytes, c.formula);
    line(out, "Total", e.total_bytes, "");
    if (e.buffered_bytes != e.total_bytes) line(out, "Total with safety margin", e.buffered_bytes, "");
    for (const auto& m : e.metrics) {
        char buf[200];
        if (m.unit == "bytes")
            std::snprintf(buf, sizeof buf, "  %-32s %12.2f %12.2f\n", m.label.c_str(), bytes_to_gb(m.value), bytes_to_gib(m.value));
        else
            std::snprintf(buf, sizeof buf, "  %-32s %12.6g %s\n", m.label.c_str(), m.value, m.unit.c_str());
        out += buf;
    }
    if (!e.fits.empty()) {
        out += "GPUs:\n";
        for (const auto& f : e.fits) {
            const GpuSpec* g = find_gpu(f.gpu_id);
            char buf[200];
            if (f.gpus_needed > 0)
                std::snprintf(buf, sizeof buf, "  %-32s %4d needed   %6.1f%% of one   %s\n", g ? g->name.c_str() : f.gpu_id.c_str(),
                              f.gpus_needed, f.utilization * 100, f.fits ? "fits" : "does not fit");
            else
                std::snprintf(buf, sizeof buf, "  %-32s    -          %6.1f%% of one   does not fit\n",
                              g ? g->name.c_str() : f.gpu_id.c_str(), f.utilization * 100);
            out += buf;
        }
    }
    for (const auto& n : e.notes) out += "Note: " + n + "\n";
    return out;
}

}  // namespace vc::io
