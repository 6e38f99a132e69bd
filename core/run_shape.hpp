// vramcalc core: the run's shape, one name per idea for every method.
//   batch  sequences processed together: training's micro-batch per GPU (the quick and guide rules:
//          per job), serving's sequences in flight
//   seq    tokens per sequence (serving: prompt + output)
// Config::run holds the shape the quick and guide methods, detailed training and the planner read
// (the config document's "batch" and "seq"). Detailed serving sizes an engine's own settings,
// inference.concurrency and inference.context (vLLM max_num_seqs / max_model_len, llama.cpp -np /
// -c), which are the same two ideas with their own defaults: run_shape(cfg) is the shape the active
// method reads, set_run_shape writes it, run_shape_paths names the document fields that set it
// (core/config.hpp). Nothing else maps one spelling onto the other.
#pragma once

namespace vc {

struct RunShape {
    double batch = 1;    // sequences
    double seq = 2048;   // tokens per sequence
};

// The document paths of a shape's two numbers ("batch" / "seq", or the serving engine's).
struct RunShapePaths {
    const char* batch;
    const char* seq;
};

}  // namespace vc
