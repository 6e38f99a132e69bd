// vramcalc core: the one std::stable_sort behind stable_sort_by (core/stable_sort.hpp).
#include "core/stable_sort.hpp"

#include <algorithm>

namespace vc {

std::vector<std::pair<std::size_t, std::size_t>> stable_sort_swaps(std::size_t n, bool (*before)(const void* ctx, std::size_t i, std::size_t j),
                                                                   const void* ctx) {
    // The indices sorted, the comparator asked about the items as they were (none moves yet).
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return before(ctx, i, j); });
    // Position k receives item order[k]: where[i] is where item i is now, at[p] which item is at p.
    std::vector<std::size_t> where(n), at(n);
    for (std::size_t i = 0; i < n; ++i) where[i] = at[i] = i;
    std::vector<std::pair<std::size_t, std::size_t>> swaps;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t item = order[k], p = where[item];
        if (p == k) continue;
        swaps.emplace_back(k, p);
        const std::size_t displaced = at[k];  // goes to p, where `item` was
        at[p] = displaced;
        where[displaced] = p;
        at[k] = item;
        where[item] = k;
    }
    return swaps;
}

}  // namespace vc
