// Writes the seed corpus of tests/fuzz/import_fuzz.cpp into tests/fuzz/corpus/import/: small
// generated GGUF and safetensors files, an index and config.json fixtures, each with a trailing
// mode byte (0: the bytes are the whole file). Run: node tests/fuzz/make_import_corpus.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GGML, GgufWriter, llamaGguf, mmprojGguf, safetensors } from '../import_files.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'corpus/import');
const seed = (name, bytes, mode = 0) => writeFileSync(join(out, name), Buffer.concat([Buffer.from(bytes), Buffer.from([mode])]));

seed('llama.gguf', llamaGguf({ layers: 1, hidden: 256, heads: 2, kvHeads: 1, ffn: 256, vocab: 8 }).bytes);
seed('llama-prefix.gguf', llamaGguf({ layers: 1, hidden: 256, heads: 2, kvHeads: 1, ffn: 256, vocab: 8 }).bytes.subarray(0, 200), 0x11);
const moe = new GgufWriter();
moe.str('general.architecture', 'deepseek2');
for (const [k, v] of [['block_count', 1], ['embedding_length', 64], ['attention.head_count', 2], ['expert_count', 4], ['expert_used_count', 2],
  ['expert_feed_forward_length', 32], ['attention.kv_lora_rank', 16], ['rope.dimension_count', 8], ['attention.key_length', 24], ['attention.value_length', 16]])
  moe.u32('deepseek2.' + k, v);
moe.tensor('token_embd.weight', [64, 10], GGML.F16);
moe.tensor('blk.0.ffn_gate_exps.weight', [64, 32, 4], GGML.Q8_0);
moe.tensor('blk.0.ffn_gate_inp.weight', [64, 4], GGML.F32);
seed('deepseek2.gguf', moe.bytes());
// A split GGUF's parts (split.* keys) and a vision projector (clip.vision.*); mode 0x80 cuts in the middle for the merge.
seed('split-1.gguf', llamaGguf({ layers: 1, hidden: 256, heads: 2, kvHeads: 1, ffn: 256, vocab: 8, split: { no: 0, count: 2, total: 12 } }).bytes, 0x80);
seed('split-2.gguf', llamaGguf({ layers: 1, hidden: 256, heads: 2, kvHeads: 1, ffn: 256, vocab: 8, split: { no: 1, count: 2, total: 12 } }).bytes);
seed('mmproj.gguf', mmprojGguf().bytes);
seed('bf16.safetensors', safetensors([['model.embed_tokens.weight', 'BF16', [10, 8]], ['model.layers.0.mlp.up_proj.weight', 'BF16', [16, 8]],
  ['model.norm.weight', 'F32', [8]]], true).bytes);
seed('gptq.safetensors', safetensors([['model.layers.0.mlp.down_proj.qweight', 'I32', [2, 16]], ['model.layers.0.mlp.down_proj.qzeros', 'I32', [1, 2]],
  ['model.layers.0.mlp.down_proj.scales', 'F16', [1, 16]]], true).bytes);
seed('header-only.safetensors', safetensors([['lm_head.weight', 'F8_E4M3', [4, 4]], ['lm_head.weight_scale_inv', 'F32', [1, 1]]]).bytes, 0x21);
seed('index.json', JSON.stringify({ metadata: { total_size: 1234 }, weight_map: { 'model.layers.3.mlp.experts.0.gate_proj.qweight': 'a', 'x_blocks': 'b' } }));
// Hybrid models (session 21): a qwen3next GGUF (gated DeltaNet, full_attention_interval) and a nemotron_h
// config.json (hybrid_override_pattern), small dimensions; the readers' recurrent keys.
const hyb = new GgufWriter();
hyb.str('general.architecture', 'qwen3next');
for (const [k, v] of [['block_count', 4], ['embedding_length', 64], ['feed_forward_length', 32], ['attention.head_count', 2],
  ['attention.head_count_kv', 1], ['attention.key_length', 32], ['full_attention_interval', 4], ['expert_count', 4], ['expert_used_count', 2],
  ['expert_feed_forward_length', 16], ['expert_shared_feed_forward_length', 16], ['ssm.conv_kernel', 4], ['ssm.state_size', 16],
  ['ssm.group_count', 2], ['ssm.inner_size', 64], ['ssm.time_step_rank', 4]])
  hyb.u32('qwen3next.' + k, v);
hyb.tensor('token_embd.weight', [64, 10], GGML.F16);
seed('qwen3next.gguf', hyb.bytes());
seed('nemotron-h.json', JSON.stringify({ architectures: ['NemotronHForCausalLM'], model_type: 'nemotron_h', vocab_size: 1024, hidden_size: 64,
  intermediate_size: 128, num_hidden_layers: 6, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 16, mamba_num_heads: 8,
  mamba_head_dim: 16, n_groups: 2, ssm_state_size: 16, conv_kernel: 4, max_position_embeddings: 4096, torch_dtype: 'bfloat16',
  hybrid_override_pattern: 'M-M*-M' }));
for (const f of ['llama-3.1-8b', 'deepseek-v3', 'gpt-oss-20b', 'gemma-2-9b', 'falcon-7b', 'bert-large-uncased'])
  seed(f + '.json', readFileSync(resolve(here, '../fixtures/hf', f + '.json')));
