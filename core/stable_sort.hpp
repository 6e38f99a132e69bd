// vramcalc core: std::stable_sort's order with its code linked once (issue 15, the page's download:
// each comparator given to std::stable_sort was its own ~3.8 KB raw of merge code in the page's
// wasm, eight of them 30 KB; docs/performance.md).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace vc {

// The swaps that put items 0..n-1 into std::stable_sort's order for `before(ctx, i, j)` (a strict
// weak order on the items' indices as they were): applied in turn, v[a] <-> v[b], they leave item
// order[k] at position k. The only std::stable_sort instantiation behind stable_sort_by.
std::vector<std::pair<std::size_t, std::size_t>> stable_sort_swaps(std::size_t n, bool (*before)(const void* ctx, std::size_t i, std::size_t j),
                                                                   const void* ctx);

// std::stable_sort(v.begin(), v.end(), less): the same order (equal items keep theirs), the merge
// code shared by every caller; what is instantiated per type is a comparator thunk and a swap loop.
template <class T, class Less>
void stable_sort_by(std::vector<T>& v, Less less) {
    struct Ctx {
        const std::vector<T>* v;
        Less* less;
    } ctx{&v, &less};
    const auto swaps = stable_sort_swaps(
        v.size(),
        [](const void* c, std::size_t i, std::size_t j) {
            const Ctx& x = *static_cast<const Ctx*>(c);
            return static_cast<bool>((*x.less)((*x.v)[i], (*x.v)[j]));
        },
        &ctx);
    using std::swap;
    for (const auto& [a, b] : swaps) swap(v[a], v[b]);
}

}  // namespace vc
