// vramcalc shell state: chart series. Memory per GPU as one input varies (batch or sequence for
// training; concurrency or context for serving), every other input held, component by component,
// so a chart can stack them. Pure computation over vc::estimate.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"

namespace vc::shell {

enum class SweepAxis { Batch, Seq };  // Batch: micro-batch or concurrent sequences; Seq: sequence or context length

struct SweepSeries {
    std::string key;     // component key ("weights", ...)
    std::string label;
    std::vector<double> bytes;  // per sample; 0 where the component is absent
};

struct Sweep {
    SweepAxis axis = SweepAxis::Batch;
    std::string field;           // the config field that varies ("batch", "seq", "inference.context", ...)
    std::string label;           // axis title ("Micro-batch (sequences per GPU)")
    double current = 0;          // the input's present value
    std::vector<double> x;       // sample values, increasing
    std::vector<bool> ok;        // the engine accepted the inputs at this sample
    std::vector<SweepSeries> series;  // in the order the components first appear
    std::vector<double> total;   // per sample, the method's total (buffered where it adds a margin)
    // vLLM reserves its whole KV pool up front, so its memory is flat: `demand` is what the
    // sequences would need at each sample (the rest + their KV), to compare with the pool.
    std::vector<double> demand;  // empty where the memory already follows the load
};

// The config field the axis varies for `cfg`'s task and method, its display label, and its value.
const char* sweep_field(const Config& cfg, SweepAxis axis);
const char* sweep_label(const Config& cfg, SweepAxis axis);
double sweep_value(const Config& cfg, SweepAxis axis);
// Sets the axis's input of `cfg` to `v`.
void set_sweep_value(Config& cfg, SweepAxis axis, double v);

// Samples the axis on a log2 scale (two points per octave, always including the present value)
// from the axis's low end to well past the present value.
Sweep compute_sweep(const Config& cfg, SweepAxis axis);

}  // namespace vc::shell
