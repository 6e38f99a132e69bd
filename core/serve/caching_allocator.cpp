// vramcalc core: the caching allocator replay (caching_allocator.hpp).
#include "core/serve/caching_allocator.hpp"

#include <algorithm>
#include <iterator>

namespace vc {

std::int64_t CachingAllocatorSim::malloc(std::uint64_t bytes) {
    const std::uint64_t size = std::max(r_.min_block, (bytes + r_.min_block - 1) / r_.min_block * r_.min_block);
    if (size <= r_.small_size) return -1;
    auto it = free_.lower_bound({size, 0});
    std::uint64_t address, block_size;
    if (it != free_.end()) {
        block_size = it->first;
        address = it->second;
        free_.erase(it);
    } else {
        const std::uint64_t segment = size < r_.min_large_alloc ? r_.large_buffer : (size + r_.round_large - 1) / r_.round_large * r_.round_large;
        if (reserved + segment > r_.limit) {
            release_cached();
            ++releases;
            if (reserved + segment > r_.limit) oom = true;  // PyTorch raises; the replay carries on
        }
        address = next_address_;
        next_address_ += segment;
        blocks_[address] = Block{segment, static_cast<std::uint32_t>(segment_size_.size()), false};
        segment_size_.push_back(segment);
        block_size = segment;
        reserved += segment;
        peak_reserved = std::max(peak_reserved, reserved);
    }
    Block& b = blocks_[address];
    if (block_size - size > r_.small_size) {
        blocks_[address + size] = Block{block_size - size, b.segment, false};
        free_.insert({block_size - size, address + size});
        b.size = size;
    }
    b.allocated = true;
    allocated += b.size;
    peak_allocated = std::max(peak_allocated, allocated);
    return static_cast<std::int64_t>(address);
}

void CachingAllocatorSim::free(std::int64_t handle) {
    if (handle < 0) return;
    auto it = blocks_.find(static_cast<std::uint64_t>(handle));
    if (it == blocks_.end() || !it->second.allocated) return;
    it->second.allocated = false;
    allocated -= it->second.size;
    // Merge with the free neighbours in the same segment (try_merge_blocks).
    auto next = std::next(it);
    if (next != blocks_.end() && !next->second.allocated && next->second.segment == it->second.segment) {
        free_.erase({next->second.size, next->first});
        it->second.size += next->second.size;
        blocks_.erase(next);
    }
    if (it != blocks_.begin()) {
        auto prev = std::prev(it);
        if (!prev->second.allocated && prev->second.segment == it->second.segment) {
            free_.erase({prev->second.size, prev->first});
            prev->second.size += it->second.size;
            blocks_.erase(it);
            it = prev;
        }
    }
    free_.insert({it->second.size, it->first});
}

void CachingAllocatorSim::release_cached() {
    for (auto it = free_.begin(); it != free_.end();) {
        const Block& b = blocks_[it->second];
        if (b.size == segment_size_[b.segment]) {
            reserved -= b.size;
            blocks_.erase(it->second);
            it = free_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace vc
