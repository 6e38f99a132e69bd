// vramcalc core: collective costs (formulas in collectives.hpp and docs/planner.md).
#include "core/plan/collectives.hpp"

#include <algorithm>
#include <cmath>

namespace vc {

namespace {
double bw_term(double bytes, const Link& l) { return l.bw > 0 ? bytes / l.bw : 0; }
}  // namespace

double ring_all_reduce_s(double bytes, int n, const Link& l) {
    if (n <= 1 || bytes <= 0) return 0;
    return 2.0 * (n - 1) / n * bw_term(bytes, l) + 2.0 * (n - 1) * l.alpha;
}

double tree_all_reduce_s(double bytes, int n, const Link& l) {
    if (n <= 1 || bytes <= 0) return 0;
    return 2.0 * (n - 1) / n * bw_term(bytes, l) + 2.0 * std::ceil(std::log2(static_cast<double>(n))) * l.alpha;
}

double all_reduce_s(double bytes, int n, const Link& l) {
    return std::min(ring_all_reduce_s(bytes, n, l), tree_all_reduce_s(bytes, n, l));
}

double reduce_scatter_s(double bytes, int n, const Link& l) {
    if (n <= 1 || bytes <= 0) return 0;
    return static_cast<double>(n - 1) / n * bw_term(bytes, l) + (n - 1) * l.alpha;
}

double all_gather_s(double bytes, int n, const Link& l) { return reduce_scatter_s(bytes, n, l); }

double all_to_all_s(double bytes, int n, const Link& l) { return reduce_scatter_s(bytes, n, l); }

double p2p_s(double bytes, const Link& l) { return bytes > 0 ? bw_term(bytes, l) + l.alpha : 0; }

Link group_link(int n, int stride, int gpus_per_node, const FabricSpec& intra, const FabricSpec& inter) {
    const double intra_bw = intra.achieved_gbps() * 1e9;
    if (n <= 1) return {intra_bw, intra.latency_us * 1e-6, false};
    const long long span = static_cast<long long>(n - 1) * std::max(1, stride) + 1;  // ranks from first to last member
    const int g = std::max(1, gpus_per_node);
    if (span <= g) return {intra_bw, intra.latency_us * 1e-6, false};
    // Members on one node: all of them when they are consecutive within it, one when the stride is a node or more.
    const long long per_node = stride >= g ? 1 : std::max<long long>(1, std::min<long long>(n, g / std::max(1, stride)));
    const double inter_bw = static_cast<double>(per_node) * inter.achieved_gbps() * 1e9;
    return {std::min(intra_bw, inter_bw), inter.latency_us * 1e-6, true};
}

}  // namespace vc
