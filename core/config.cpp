// vramcalc core: the run shape of a Config (config.hpp, core/run_shape.hpp).
#include "core/config.hpp"

#include <cmath>

#include "core/status.hpp"

namespace vc {

namespace {
int whole(double v) { return std::isnan(v) ? 0 : to_int_saturated<int>(v); }
}  // namespace

bool serves_engine(const Config& c) { return c.task == Task::Inference && c.method == Method::Detailed; }

RunShape run_shape(const Config& c) {
    if (serves_engine(c)) return RunShape{static_cast<double>(c.inference.concurrency), static_cast<double>(c.inference.context)};
    return c.run;
}

void set_run_shape(Config& c, const RunShape& shape) {
    if (serves_engine(c)) {
        c.inference.concurrency = whole(shape.batch);
        c.inference.context = whole(shape.seq);
    } else {
        c.run = shape;
    }
}

void align_run_shapes(Config& c) {
    if (serves_engine(c)) {
        c.run = run_shape(c);
    } else {
        c.inference.concurrency = whole(c.run.batch);
        c.inference.context = whole(c.run.seq);
    }
}

bool follow_checkpoint_format(Config& c) {
    const WeightFormat* f = c.model.checkpoint_format.empty() ? nullptr : find_weight_format(c.model.checkpoint_format);
    if (!f || (f->engines & engine_mask(c.inference.engine)) == 0) return false;
    c.inference.weights.format = f->id;
    return true;
}

void follow_checkpoint_dtype(Config& c) {
    {
        const std::string& w = c.inference.weights.format;
        if (w == "fp16" || w == "bf16") follow_checkpoint_format(c);
    }
    const std::string& dtype = c.model.checkpoint_dtype;
    const bool fp16 = dtype == "fp16", bf16 = dtype == "bf16" || dtype == "fp32";
    if (!fp16 && !bf16) return;
    if (c.quick.precision == QuickPrecision::Fp16 || c.quick.precision == QuickPrecision::Bf16)
        c.quick.precision = fp16 ? QuickPrecision::Fp16 : QuickPrecision::Bf16;
    std::string& w = c.inference.weights.format;
    if (w == "fp16" || w == "bf16") w = fp16 ? "fp16" : "bf16";
}

RunShapePaths run_shape_paths(const Config& c) {
    return serves_engine(c) ? RunShapePaths{"inference.concurrency", "inference.context"} : RunShapePaths{"batch", "seq"};
}

}  // namespace vc
