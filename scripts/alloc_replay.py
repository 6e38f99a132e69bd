#!/usr/bin/env python3
"""Replays PyTorch's CUDA caching allocator (large pool) on Hugging Face generate's KV cache growth.

The reference for core's replay (core/serve/caching_allocator and hf_allocator_replay in
core/serve/inference.cpp; docs/inference.md, "What nvidia-smi reads while the cache grows"), which
follows the same rules and tensors and reads the same figures (tests/unit/test_inference.cpp). The rules, from c10/cuda/CUDACachingAllocator.cpp:
requests are rounded to 512 B; requests up to 1 MiB go to the small pool (not replayed here);
a request below kMinLargeAlloc (10 MiB) gets a 20 MiB segment (kLargeBuffer), a larger one a
segment of its own rounded up to kRoundLarge (2 MiB); a free block is found by best fit (the
smallest cached block that is large enough) and split when more than 1 MiB remains; a freed block
merges with free neighbours in its own segment only. Nothing is released (no failed cudaMalloc).

    python3 scripts/alloc_replay.py            # the cases quoted in docs/inference.md
"""
import bisect

MIB = 1 << 20


class Allocator:
    def __init__(self):
        self.free = []      # sorted (size, address)
        self.blocks = {}    # address -> [size, allocated, segment start, segment end]
        self.reserved = self.allocated = self.peak_allocated = 0
        self.next_address = 0

    def malloc(self, size):
        size = (size + 511) // 512 * 512
        if size <= MIB:
            return None
        i = bisect.bisect_left(self.free, (size, -1))
        if i < len(self.free):
            block_size, address = self.free.pop(i)
        else:
            segment = 20 * MIB if size < 10 * MIB else (size + 2 * MIB - 1) // (2 * MIB) * (2 * MIB)
            address = self.next_address
            self.next_address += segment + (1 << 40)
            self.blocks[address] = [segment, False, address, address + segment]
            block_size = segment
            self.reserved += segment
        block = self.blocks[address]
        if block_size - size > MIB:
            self.blocks[address + size] = [block_size - size, False, block[2], block[3]]
            bisect.insort(self.free, (block_size - size, address + size))
            block[0] = size
        block[1] = True
        self.allocated += block[0]
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return address

    def release(self, address):
        if address is None:
            return
        block = self.blocks[address]
        block[1] = False
        self.allocated -= block[0]
        following = address + block[0]
        if following < block[3] and following in self.blocks and not self.blocks[following][1]:
            size = self.blocks.pop(following)[0]
            self.free.remove((size, following))
            block[0] += size
        for other in [a for a in self.blocks if block[2] <= a < address]:
            if other + self.blocks[other][0] == address and not self.blocks[other][1]:
                previous = self.blocks[other]
                self.free.remove((previous[0], other))
                previous[0] += block[0]
                del self.blocks[address]
                address, block = other, previous
                break
        bisect.insort(self.free, (block[0], address))


def cache_only(tensors, start, step, steps):
    """`tensors` cache tensors growing from `start` bytes by `step` bytes per token."""
    a = Allocator()
    live = [a.malloc(start) for _ in range(tensors)]
    for t in range(1, steps + 1):
        for j in range(tensors):
            grown = a.malloc(start + t * step)
            a.release(live[j])
            live[j] = grown
    return (a.reserved - a.peak_allocated) / tensors


def generate(n, prompt, context, layers=40, hidden=5120, kv_heads=40, head_dim=128, ffn=13824, vocab=32000, dtype=2,
             heads=None, step=1):
    """A Llama-2-13B-shaped generate: the prefill's tensors in order, then the decode's cache growth.

    With fewer K/V heads than query heads (GQA), each layer's attention also holds repeat_kv's copies
    of K and V expanded to every query head (transformers' eager attention, and SDPA without
    enable_gqa), freed when the attention returns. `step` tokens per replayed decode step."""
    a = Allocator()
    heads = heads or kv_heads
    kv = lambda t: n * kv_heads * t * head_dim * dtype
    rep = lambda t: n * heads * t * head_dim * dtype if heads > kv_heads else 0
    act = lambda width: n * prompt * width * dtype
    cache = []
    x = a.malloc(act(hidden))
    for _ in range(layers):
        normed = a.malloc(act(hidden))
        q, k, v = a.malloc(act(hidden)), a.malloc(kv(prompt)), a.malloc(kv(prompt))
        q_rot, k_rot = a.malloc(act(hidden)), a.malloc(kv(prompt))
        a.release(q), a.release(k)
        cache.append([k_rot, v])
        k_rep, v_rep = a.malloc(rep(prompt)), a.malloc(rep(prompt))
        attn = a.malloc(act(hidden))
        a.release(k_rep), a.release(v_rep), a.release(q_rot), a.release(normed)
        out = a.malloc(act(hidden))
        a.release(attn)
        x2 = a.malloc(act(hidden))
        a.release(out), a.release(x)
        x = x2
        normed = a.malloc(act(hidden))
        gate, up = a.malloc(act(ffn)), a.malloc(act(ffn))
        act_gate = a.malloc(act(ffn))
        a.release(gate)
        product = a.malloc(act(ffn))
        a.release(act_gate), a.release(up)
        down = a.malloc(act(hidden))
        a.release(product), a.release(normed)
        x2 = a.malloc(act(hidden))
        a.release(down), a.release(x)
        x = x2
    logits, logits32 = a.malloc(n * vocab * dtype), a.malloc(n * vocab * 4)
    a.release(logits), a.release(x), a.release(logits32)
    t = prompt
    while t < context:
        t = min(context, t + step)
        for layer in cache:
            for j in range(2):
                grown = a.malloc(kv(t))
                a.release(layer[j])
                layer[j] = grown
            k_rep, v_rep = a.malloc(rep(t)), a.malloc(rep(t))
            a.release(k_rep), a.release(v_rep)
        logits, logits32 = a.malloc(n * vocab * dtype), a.malloc(n * vocab * 4)
        a.release(logits), a.release(logits32)
    return a.reserved - a.peak_allocated


if __name__ == "__main__":
    per_tensor = cache_only(80, 80 * MIB, 160 * 1024, 512)
    print(f"80 tensors, 80 -> 160 MiB in 160 KiB steps: {per_tensor / MIB:,.0f} MiB stranded per tensor "
          f"(formula (160^2 - 80^2) / 4 = 4,800)")
    for n in (1, 2, 4):
        print(f"Llama-2-13B generate, 512 + 512 tokens, batch {n}: {generate(n, 512, 1024) / 2**30:.2f} GiB stranded")
    llama31 = dict(layers=32, hidden=4096, kv_heads=8, head_dim=128, ffn=14336, vocab=128256)
    for context, step in ((1024, 8), (4096, 32)):  # the core replay's steps: at most 128 of them
        for heads, what in ((32, "repeat_kv's copies (eager, SDPA without enable_gqa)"), (None, "no copies (enable_gqa, flash)")):
            print(f"Llama-3.1-8B generate, 64 + {context - 64} tokens in steps of {step}, batch 8, {what}: "
                  f"{generate(8, 64, context, heads=heads, step=step, **llama31) / 2**30:.2f} GiB stranded")
