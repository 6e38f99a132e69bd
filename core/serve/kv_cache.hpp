// vramcalc core: the KV cache, exactly. Bytes per token from the attention layout (MHA/GQA/MQA:
// 2 x layers x KV heads x head_dim x bytes; MLA: layers x (kv_lora_rank + qk_rope_head_dim) x
// bytes; DeepSeek-V3.2 adds its indexer's key), sliding-window layers capped at their window, KV heads sharded by tensor parallelism,
// and paged blocks rounding a sequence up. docs/inference.md derives each term.
#pragma once

#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/status.hpp"

namespace vc {

// A KV cache element type. Integer types carry a scale and zero point per (token, head) vector;
// llama.cpp's block types carry theirs inside the block.
struct KvDtype {
    const char* id;               // config name: "bf16", "fp8", "q8_0", ...
    double bytes_per_element;     // stored bytes per cached value
    double bytes_per_vector;      // extra bytes per (token, KV head) vector (scales, zero points)
    const char* source;
};
const std::vector<KvDtype>& kv_dtypes();
const KvDtype* find_kv_dtype(const std::string& id);  // "auto" is resolved by the caller

// Layers that cache the same number of tokens: full-attention layers (cap 0) and sliding-window
// layers (cap = the window).
struct KvGroup {
    int layers = 0;
    double bytes_per_token = 0;   // per GPU, all layers of the group
    double cap_tokens = 0;        // 0: no cap (full context)
    bool local = false;           // the sliding-window layers' group
};

struct KvLayout {
    KvGroup groups[2];
    int group_count = 0;
    double bytes_per_token = 0;   // per GPU, every layer, uncapped (what one token of full context costs)
    double kv_heads_per_gpu = 0;  // KV heads one GPU holds (MLA: 1 latent vector, replicated)
    bool replicated = false;      // KV heads repeat across GPUs (kv_heads < tp, or MLA with tp > 1)
    bool mla = false;
    double indexer_bytes_per_layer = 0;  // DeepSeek-V3.2's lightning-indexer key, one token, one layer (in the figures above)
    // A hybrid's recurrent layers keep a fixed state per sequence instead of KV (ModelSpec::layer_pattern).
    int state_layers = 0;
    double state_bytes_per_layer = 0;  // one sequence, one layer, on one GPU (conv + SSM state)
    double state_bytes = 0;       // one sequence, every recurrent layer, on one GPU
    // vLLM's hybrid pool (vllm_hybrid_pages): one page size for both layer kinds.
    int page_block = 0;           // attention block size the pages need (0: no hybrid paging)
    double block_bytes = 0;       // one block of the pool: group_size layers' pages
    std::string formula;          // the per-token formula with the numbers put in
};

// The cache layout of `m` (resolved) with element type `dtype` on `tp` tensor-parallel GPUs.
// `cap_windows` false stores the full context in sliding-window layers too (engines without a
// sliding-window cache). Errors name "inference.tp" (must divide the heads; KV heads must divide
// tp or tp the KV heads). Only attention layers cache keys and values; a hybrid's recurrent layers
// keep `state_bytes_per_element`-byte conv and SSM states (recurrent_conv_elements, ..._ssm_elements),
// split by tensor parallelism as vLLM shards the mixer's heads; `ssm_bytes_per_element` > 0 gives the SSM state its own element
// (vLLM's mamba_ssm_cache_dtype), 0 the conv state's.
// DeepSeek-V3.2's lightning indexer (model.index_head_dim > 0) adds its key of index_head_dim values a token and
// layer, at `indexer_value_bytes` a value (vLLM's FP8 + scale layout), or when negative at the cache type's
// (llama.cpp keeps it at the K type: ggml-org/llama.cpp@035aa95:src/llama-kv-cache-dsa.cpp builds a second
// llama_kv_cache of one KV head of indexer_head_size with type_k; transformers at the model dtype).
Outcome<KvLayout> kv_layout(const ModelSpec& m, const KvDtype& dtype, int tp, bool cap_windows, double state_bytes_per_element = 4,
                            double ssm_bytes_per_element = 0, double indexer_value_bytes = -1);

// vLLM's pool for a hybrid (layout `kv` from kv_layout, `attention_layers` of its layers attend): one
// page size for attention and state layers, vllm-project/vllm@1936cf3:vllm/model_executor/models/
// config.py HybridAttentionMambaModelConfig.verify_and_update_config: the attention block is raised to
// the smallest multiple of `alignment` tokens whose page (block x one token's K and V of one layer)
// holds a layer's state (:424-426; `block_size` when that is larger, :431-432) and the state page is
// padded to the attention page (:449-453). Layers are grouped `group_size` to a KV cache group, the
// fewest layers of a kind unless the most are under `group_ratio` x that (vllm@001cabc:vllm/v1/core/
// kv_cache_utils.py _get_kv_cache_groups_uniform_page_size); a block holds one page of each layer of
// a group, a sequence takes `state_blocks` blocks in each state group (MambaSpec.max_memory_usage_bytes,
// vllm@001cabc:vllm/v1/kv_cache_interface.py: 1 + speculative blocks, 2 in mamba_cache_mode "align")
// and one per block of tokens in each attention group. Sets page_block, block_bytes, state_bytes
// (the padded pages) and bytes_per_token (padded groups); a layout without state layers is unchanged.
void vllm_hybrid_pages(KvLayout& kv, int attention_layers, int block_size, int alignment, double group_ratio, int state_blocks);

// Bytes one sequence of `tokens` keeps, each group rounded up to whole blocks of `block` tokens
// (0: no paging), plus its recurrent state (a hybrid's; the same at any length).
double kv_sequence_bytes(const KvLayout& kv, double tokens, int block);

}  // namespace vc
