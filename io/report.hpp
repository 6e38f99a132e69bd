// vramcalc io: the human-readable report of an Estimate (the CLI's default output and the text the
// web page copies as a summary). Shows GB (1e9 bytes) and GiB (2^30 bytes) side by side.
#pragma once

#include <string>

#include "core/catalog/gpus.hpp"
#include "core/result.hpp"

namespace vc::io {

// `count_rule`: what the GPU counts mean (core gpu_count_rule), on the "GPUs" line; empty: none.
// `custom`: the config's custom GPU (inference.gpu_custom), whose row is named by its own name.
std::string format_table(const Estimate& e, const std::string& count_rule = "", const GpuSpec* custom = nullptr);

// "14.00 GB" or "13.04 GiB": two decimals and the unit label.
std::string format_bytes(double bytes, bool gib);

}  // namespace vc::io
