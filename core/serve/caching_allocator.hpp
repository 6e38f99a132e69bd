// vramcalc core: a replay of PyTorch's CUDA caching allocator, large pool only
// (c10/cuda/CUDACachingAllocator.cpp, native backend, default settings: no max_split_size, no
// expandable segments). It answers what nvidia-smi reads (the reserved segments) when a sequence
// of tensor allocations and frees runs, e.g. Hugging Face generate's KV cache growing by torch.cat.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace vc {

// The allocator's size rules (CUDACachingAllocator.cpp and CachingAllocator.h).
struct CachingAllocatorRules {
    std::uint64_t min_block = 512;                // kMinBlockSize: every request is rounded up to it (round_size)
    std::uint64_t small_size = 1u << 20;          // kSmallSize: up to it the small pool (not replayed); a split must leave more
    std::uint64_t large_buffer = 20u << 20;       // kLargeBuffer: the segment for a request under min_large_alloc
    std::uint64_t min_large_alloc = 10u << 20;    // kMinLargeAlloc: from it a segment of the request's own size
    std::uint64_t round_large = 2u << 20;         // kRoundLarge: such segments are rounded up to it (get_allocation_size)
    std::uint64_t limit = UINT64_MAX;             // what cudaMalloc can still get (the card less what is outside)
};

// Large-pool replay: best fit (the smallest free block that is large enough, the lowest address
// among equals), a block split when more than small_size would remain, a freed block merged with
// free neighbours of its own segment, and, when a new segment would pass `limit`, every free
// unsplit segment released before the retry (release_cached_blocks; with no max_split_size set,
// release_available_cached_blocks does nothing).
class CachingAllocatorSim {
public:
    explicit CachingAllocatorSim(const CachingAllocatorRules& rules) : r_(rules) {}
    // A block handle, or -1 for a request the small pool serves.
    std::int64_t malloc(std::uint64_t bytes);
    void free(std::int64_t handle);

    std::uint64_t reserved = 0, allocated = 0;
    std::uint64_t peak_reserved = 0, peak_allocated = 0;
    int releases = 0;     // failed cudaMalloc calls answered by releasing the cache
    bool oom = false;     // a segment did not fit even after the release

private:
    struct Block {
        std::uint64_t size;
        std::uint32_t segment;
        bool allocated;
    };
    void release_cached();
    CachingAllocatorRules r_;
    std::map<std::uint64_t, Block> blocks_;                        // by address
    std::set<std::pair<std::uint64_t, std::uint64_t>> free_;       // (size, address)
    std::vector<std::uint64_t> segment_size_;
    std::uint64_t next_address_ = 0;
};

}  // namespace vc
