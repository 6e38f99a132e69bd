// CLI tests of --model-file / --print-import (docs/import.md): files written by tests/import_files.mjs
// and the published config.json fixtures; a 45 GB GGUF (a sparse file: only its header is written)
// imports in under a second with under 50 MB of memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llama70bGguf, llamaGguf, mmprojGguf, safetensors } from '../import_files.mjs';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'vramcalc-import-'));

function run(args) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('a GGUF file: architecture, Q4_K_M, exact bytes (Q8_0 embedding, Q6_K output) into the llama.cpp estimate', () => {
  const { bytes, weightBytes } = llamaGguf();
  const path = join(dir, 'tiny.gguf');
  writeFileSync(path, bytes);
  const r = run(['--model-file', path, '--print-import']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.kind, 'gguf');
  assert.equal(j.complete, true);
  assert.equal(j.weights_bytes, 1235152);
  assert.equal(j.weights_bytes, weightBytes);
  assert.equal(j.weights_format, 'q4_k_m');
  assert.deepEqual([j.model.layers, j.model.hidden, j.model.heads, j.model.kv_heads, j.model.ffn, j.model.vocab], [2, 256, 4, 2, 512, 1000]);
  assert.equal(j.config.inference.engine, 'llama.cpp');

  const est = run(['--model-file', path, '--method', 'detailed', '--task', 'inference', '--gpu', 'rtx-4090-24gb', '--format', 'json']);
  assert.equal(est.code, 0, est.err);
  const e = JSON.parse(est.out);
  assert.equal(e.metrics.weights_total_bytes.value, 1235152);
  // On the GPU: both layers (376,064 B each) and the Q6_K output (210,000 B); token_embd stays in RAM.
  assert.equal(e.breakdown.weights, 2 * 376064 + 210000);
});

test('a 45 GB GGUF imports from its 8 MB header in under a second and 50 MB of memory', () => {
  const { bytes, weightBytes } = llama70bGguf();
  const path = join(dir, 'big.gguf');
  writeFileSync(path, bytes);
  truncateSync(path, bytes.length + weightBytes + 4096);  // sparse: the tensor data takes no disk
  assert.ok(existsSync('/usr/bin/time'), 'GNU time is needed to measure memory (apt-get install time)');
  // CPU seconds (user + system), not wall time: a shared machine's load must not fail the test.
  const t = spawnSync('/usr/bin/time', ['-f', '%U %S %e %M', BIN, '--model-file', path, '--print-import'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(t.status, 0, t.stderr);
  const j = JSON.parse(t.stdout);
  assert.equal(j.weights_bytes, weightBytes);
  assert.equal(j.model.layers, 80);
  assert.equal(j.model.vocab, 128256);
  assert.equal(j.tensor_count, 3 + 80 * 9);
  const [user, sys, wall, kib] = t.stderr.trim().split('\n').pop().split(' ').map(Number);
  const seconds = user + sys;
  console.log(`big.gguf (${(bytes.length / 1e6).toFixed(1)} MB header, ${(weightBytes / 1e9).toFixed(1)} GB of tensors): ${seconds.toFixed(2)} s of CPU (${wall} s wall), ${(kib / 1024).toFixed(1)} MiB max RSS`);
  assert.ok(seconds < 1, `${seconds} s of CPU`);
  assert.ok(kib < 50 * 1024, `${kib} KiB`);
});

test('config.json + model.safetensors.index.json: the architecture of one, the exact bytes of the other', () => {
  const config = join(dir, 'config.json');
  writeFileSync(config, readFileSync(join(root, 'tests/fixtures/hf/llama-3.1-8b.json')));
  const index = join(dir, 'model.safetensors.index.json');
  writeFileSync(index, JSON.stringify({ metadata: { total_size: 16060522496 }, weight_map: { 'model.layers.31.mlp.up_proj.weight': 'a.safetensors' } }));
  const r = run(['--model-file', config, '--model-file', index, '--print-import']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.complete, true);
  assert.equal(j.weights_bytes, 16060522496);
  assert.equal(j.params, 8030261248);  // Llama-3.1-8B from its config
  const est = run(['--model-file', config, '--model-file', index, '--method', 'detailed', '--task', 'inference', '--gpu', 'h100-80gb', '--format', 'json']);
  assert.equal(est.code, 0, est.err);
  assert.equal(JSON.parse(est.out).metrics.weights_total_bytes.value, 16060522496);
});

test('a safetensors file: parameters and GPTQ from the header alone', () => {
  const { bytes } = safetensors([
    ['model.layers.0.mlp.down_proj.qweight', 'I32', [128, 512]],
    ['model.layers.0.mlp.down_proj.qzeros', 'I32', [8, 64]],
    ['model.layers.0.mlp.down_proj.scales', 'F16', [8, 512]],
  ], true);
  const path = join(dir, 'model.safetensors');
  writeFileSync(path, bytes);
  const r = run(['--model-file', path, '--print-import']);
  assert.equal(r.code, 1);  // incomplete: a header has no head counts
  const j = JSON.parse(r.out);
  assert.equal(j.weights_format, 'gptq-int4');
  assert.equal(j.config.inference.group_size, 128);
  assert.equal(j.weights_bytes, 128 * 512 * 4 + 8 * 64 * 4 + 8 * 512 * 2);
  assert.match(j.message, /num_attention_heads/);
});

test('missing keys, a mislabelled file and a missing file: exit 1 with the message', () => {
  const partial = join(dir, 'partial.json');
  writeFileSync(partial, JSON.stringify({ model_type: 'llama', num_hidden_layers: 32, hidden_size: 4096, vocab_size: 32000 }));
  let r = run(['--model-file', partial, '--task', 'inference']);
  assert.equal(r.code, 1);
  assert.match(r.err, /partial\.json lacks num_attention_heads, n_head, intermediate_size/);
  const fake = join(dir, 'fake.gguf');
  writeFileSync(fake, 'PK\x03\x04 a zip file');
  r = run(['--model-file', fake, '--print-import']);
  assert.equal(r.code, 1);
  assert.match(r.out, /fake\.gguf: this is not a GGUF file \(it would start with the magic \\"GGUF\\"\); it starts with 50 4b 03 04/);
  r = run(['--model-file', join(dir, 'nope.gguf')]);
  assert.equal(r.code, 1);
  assert.match(r.err, /nope\.gguf: cannot open the file/);
  r = run(['--print-import']);
  assert.equal(r.code, 2);
});

test('flags override what the file sets', () => {
  const { bytes } = llamaGguf();
  const path = join(dir, 'tiny2.gguf');
  writeFileSync(path, bytes);
  const r = run(['--model-file', path, '--task', 'inference', '--set', 'inference.llamacpp.n_gpu_layers=1', '--set', 'model.name="renamed"', '--print-config']);
  assert.equal(r.code, 0, r.err);
  const c = JSON.parse(r.out);
  assert.equal(c.model.name, 'renamed');
  assert.equal(c.inference.llamacpp.n_gpu_layers, 1);
  assert.equal(c.inference.weights, 'q4_k_m');
  assert.equal(c.inference.weights_file.total_bytes, 1235152);
});

test('a split GGUF: every part gives the whole file\'s exact bytes; one part alone says they are inferred', () => {
  const parts = [0, 1, 2].map((no) => {
    const path = join(dir, `tiny-0000${no + 1}-of-00003.gguf`);
    writeFileSync(path, llamaGguf({ split: { no, count: 3, total: 21 } }).bytes);
    return path;
  });
  const all = run([...parts.flatMap((p) => ['--model-file', p]), '--print-import']);
  assert.equal(all.code, 0, all.err);
  const j = JSON.parse(all.out);
  // Part 1: 272,000 (Q8_0 embedding) + 1,024 + 210,000 (Q6_K output); parts 2 and 3: 376,064 each (one layer).
  assert.equal(j.weights_bytes, 483024 + 2 * 376064);
  assert.equal(j.weights_bytes, llamaGguf().weightBytes);
  assert.equal(j.tensor_count, 21);
  assert.deepEqual(j.config.inference.weights_file.layer_bytes, [376064, 376064]);
  assert.equal(j.model.mlp, 'swiglu');  // the gate matrices are in parts 2 and 3
  const est = run([...parts.flatMap((p) => ['--model-file', p]), '--method', 'detailed', '--task', 'inference', '--gpu', 'rtx-4090-24gb', '--format', 'json']);
  assert.equal(est.code, 0, est.err);
  assert.equal(JSON.parse(est.out).metrics.weights_total_bytes.value, 1235152);

  const one = JSON.parse(run(['--model-file', parts[0], '--print-import']).out);
  assert.equal(one.complete, true);
  assert.equal(one.weights_bytes, 0);  // not one part's 483,024 B as the model
  assert.match(one.notes.at(-1), /^part 1 of a 3-part split GGUF: it holds 3 of the model's 21 tensors, so the exact bytes are unknown/);
  const gap = run(['--model-file', parts[0], '--model-file', parts[2], '--print-import']);
  assert.equal(gap.code, 1);
  assert.match(JSON.parse(gap.out).error.message, /tiny-00002-of-00003\.gguf is missing/);
});

test('an mmproj GGUF: inference.llamacpp.mmproj from its tensors, alone or with the model', () => {
  const model = join(dir, 'tiny.gguf');
  writeFileSync(model, llamaGguf().bytes);
  const mmproj = join(dir, 'mmproj-tiny.gguf');
  writeFileSync(mmproj, mmprojGguf().bytes);
  const alone = run(['--model-file', mmproj, '--print-import']);
  assert.equal(alone.code, 0, alone.err);
  const a = JSON.parse(alone.out);
  assert.equal(a.kind, 'gguf-mmproj');
  assert.equal(a.model, null);
  assert.equal(a.params, 104640);  // 64 + 37,632 + 1,088 + 4 x 4,096 + 2 x 16,384 + 64 + 16,384 + 256
  assert.deepEqual(a.config.inference.llamacpp.mmproj, { params_m: 0.10464, type: 'f16', image_tokens: 17, hidden: 64, heads: 4, ffn: 256 });
  const args = ['--method', 'detailed', '--task', 'inference', '--gpu', 'rtx-4090-24gb', '--format', 'json'];
  const without = JSON.parse(run(['--model-file', model, ...args]).out);
  const withProj = JSON.parse(run(['--model-file', model, '--model-file', mmproj, ...args]).out);
  // Weights 104,640 x 2 B (f16) = 209,280; clip's graph for 17 positions 30,736 B.
  assert.equal(withProj.breakdown.extras, 209280 + 30736);
  assert.equal(withProj.total_bytes - without.total_bytes, 240016);
  assert.match(withProj.launch_command, /--mmproj /);
  // The projector alone leaves the config's model as it is.
  const onPreset = JSON.parse(run(['--preset', 'llama-3.1-8b', '--model-file', mmproj, '--engine', 'llama.cpp', ...args]).out);
  assert.equal(onPreset.ok, true);
  assert.equal(onPreset.breakdown.extras >= 240016, true);
});

// NVIDIA-Nemotron-Nano-9B-v2's config.json (the keys that size it): 27 Mamba2, 4 attention and 25 MLP
// blocks by hybrid_override_pattern; 8,888,227,328 parameters as the preset (docs/models.md).
test('a hybrid config.json (nemotron_h): its layer mix, the preset\'s count, and KV for 4 of 56 layers', () => {
  const path = join(dir, 'nemotron.json');
  writeFileSync(path, JSON.stringify({
    architectures: ['NemotronHForCausalLM'], model_type: 'nemotron_h', vocab_size: 131072, hidden_size: 4480,
    intermediate_size: 15680, num_hidden_layers: 56, num_attention_heads: 40, num_key_value_heads: 8, head_dim: 128,
    mamba_num_heads: 128, mamba_head_dim: 80, n_groups: 8, ssm_state_size: 128, conv_kernel: 4,
    max_position_embeddings: 131072, torch_dtype: 'bfloat16',
    hybrid_override_pattern: 'M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-',
  }));
  const imp = JSON.parse(run(['--model-file', path, '--print-import']).out);
  assert.equal(imp.complete, true);
  assert.equal(imp.model.recurrent, 'mamba2');
  assert.equal(imp.model.layer_pattern, 'M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-');
  const r = run(['--model-file', path, '--method', 'detailed', '--task', 'inference', '--engine', 'vllm', '--gpu', 'a10g-24gb',
    '--set', 'inference.context=8192', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.metrics.params.value, 8888227328);
  // 2 x 4 layers x 8 KV heads x 128 x 2 B = 16,384 B a token (BF16) + the state, 27 layers x
  // ((3 x (10,240 + 2 x 8 x 128)) + 128 x 10,240) x 2 B = 2,695,168 B a layer. vLLM's pages: the attention block
  // 16 x ceil(2,695,168 / (16 x 4,096)) = 672 tokens, each state padded to 672 x 4,096 = 2,752,512 B in 7 groups of
  // 4 (27 layers and a padding slot): 8,192 tokens take 13 blocks of 672 = 8,736 tokens x 16,384 B + 28 x 2,752,512 B.
  assert.equal(j.metrics.kv_bytes_per_sequence.value, 8736 * 16384 + 28 * 2752512);
  assert.equal(j.metrics.kv_bytes_per_token.value, 16384);
});

// ai21labs/Jamba-v0.1's config.json (the keys that size it): attention at i % 8 == 4, Mamba1 elsewhere, 16 experts on
// the odd layers; 51,570,323,328 parameters as the preset (docs/models.md).
test('Jamba\'s config.json (jamba): Mamba1 layers of d_inner channels, experts every other layer, KV for 4 of 32 layers', () => {
  const path = join(dir, 'jamba.json');
  writeFileSync(path, JSON.stringify({
    architectures: ['JambaForCausalLM'], model_type: 'jamba', vocab_size: 65536, hidden_size: 4096, intermediate_size: 14336,
    num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, num_experts: 16, num_experts_per_tok: 2,
    expert_layer_period: 2, expert_layer_offset: 1, attn_layer_period: 8, attn_layer_offset: 4, mamba_d_state: 16,
    mamba_d_conv: 4, mamba_expand: 2, mamba_dt_rank: 256, max_position_embeddings: 262144, tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
  }));
  const imp = JSON.parse(run(['--model-file', path, '--print-import']).out);
  assert.equal(imp.complete, true);
  assert.equal(imp.model.recurrent, 'mamba1');
  assert.deepEqual([imp.model.ssm_heads, imp.model.ssm_head_dim, imp.model.ssm_dt_rank, imp.model.moe_every], [8192, 1, 256, 2]);
  assert.equal(imp.model.layer_pattern, 'RRRRARRR'.repeat(4));
  const r = run(['--model-file', path, '--method', 'detailed', '--task', 'inference', '--engine', 'vllm', '--gpu', 'h200-141gb',
    '--set', 'inference.context=32768', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.metrics.params.value, 51570323328);
  // 2 x 4 layers x 8 KV heads x 128 x 2 B = 16,384 B a token (BF16); a Mamba1 state (3 x 8,192 + 16 x 8,192) x 2 B =
  // 311,296 B a layer. vLLM's pages: the attention block 16 x ceil(311,296 / (16 x 4,096)) = 80 tokens, each state padded
  // to 80 x 4,096 = 327,680 B in 7 groups of 4: 32,768 tokens take 410 blocks of 80 = 32,800 tokens x 16,384 B + 28 pages.
  assert.equal(j.metrics.kv_bytes_per_sequence.value, 32800 * 16384 + 28 * 327680);
  assert.equal(j.metrics.kv_bytes_per_token.value, 16384);
});

// tiiuae/Falcon-H1-7B's config.json (the keys that size it): attention and Mamba2 side by side in all 44 layers.
test('Falcon-H1\'s config.json (falcon_h1): every layer P, KV and a Mamba2 state in each under llama.cpp', () => {
  const path = join(dir, 'falcon-h1.json');
  writeFileSync(path, JSON.stringify({
    architectures: ['FalconH1ForCausalLM'], model_type: 'falcon_h1', vocab_size: 130048, hidden_size: 3072, intermediate_size: 12288,
    num_hidden_layers: 44, num_attention_heads: 12, num_key_value_heads: 2, head_dim: 128, mamba_d_ssm: 3072, mamba_n_heads: 24,
    mamba_d_head: 128, mamba_n_groups: 1, mamba_d_state: 256, mamba_d_conv: 4, mamba_rms_norm: true, tie_word_embeddings: false,
    max_position_embeddings: 262144,
  }));
  const imp = JSON.parse(run(['--model-file', path, '--print-import']).out);
  assert.equal(imp.complete, true);
  assert.equal(imp.model.layer_pattern, 'P'.repeat(44));
  const r = run(['--model-file', path, '--method', 'detailed', '--task', 'inference', '--engine', 'llama.cpp', '--gpu', 'rtx-4090-24gb',
    '--weights', 'q4_k_m', '--set', 'inference.context=8192', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.metrics.params.value, 7585648736);
  // 44 layers x 8,192 cells x (2 x 2 x 128 x 2 B) of F16 KV + 44 F32 states of (3 x 3,584 + 256 x 3,072) x 4 B.
  assert.equal(j.breakdown.kv_cache, 44 * 8192 * 1024 + 44 * 3188736);
});

test('--mamba-ssm-cache-dtype float32: vLLM keeps the SSM state in FP32 beside a BF16 conv state; a name vLLM lacks is refused', () => {
  const args = ['--preset', 'nemotron-nano-9b-v2', '--method', 'detailed', '--task', 'inference', '--engine', 'vllm', '--gpu', 'h100-80gb',
    '--weights', 'bf16', '--set', 'inference.context=8192', '--format', 'json'];
  const j = JSON.parse(run([...args, '--mamba-ssm-cache-dtype', 'float32']).out);
  // A layer's state 36,864 x 2 B + 1,310,720 x 4 B = 5,316,608 B: 1,312-token blocks (16 x ceil(5,316,608 / 65,536)), 8,192
  // tokens in 7 of them (9,184 x 16,384 B) + 28 state pages of 1,312 x 4,096 = 5,373,952 B.
  assert.equal(j.metrics.kv_bytes_per_sequence.value, 9184 * 16384 + 28 * 5373952);
  const bad = run([...args, '--mamba-ssm-cache-dtype', 'fp8']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.out + bad.err, /inference\.vllm\.mamba_ssm_cache_dtype "fp8" is not one of auto, float32, bfloat16, float16/);
});

test('GLM-4.5-Air\'s config.json (glm4_moe): its MoE layout, the MTP layer noted and not counted, KV for 46 layers', () => {
  const path = join(root, 'tests/fixtures/hf/glm-4.5-air.json');
  const imp = JSON.parse(run(['--model-file', path, '--print-import']).out);
  assert.equal(imp.complete, true);
  assert.deepEqual([imp.model.layers, imp.model.experts, imp.model.shared_experts, imp.model.dense_layers, imp.model.expert_ffn],
    [46, 128, 1, 1, 1408]);
  assert.ok(imp.notes.some((n) => n.includes('num_nextn_predict_layers 1')), imp.notes.join('\n'));
  assert.ok(!imp.notes.some((n) => n.includes('not one this tool knows')));
  const r = run(['--model-file', path, '--method', 'detailed', '--task', 'inference', '--engine', 'vllm', '--gpu', 'h100-80gb',
    '--gpus', '4', '--set', 'inference.context=8192', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  // 106,852,245,504 parameters (test_families.cpp works it out); KV 2 x 46 x 8 x 128 x 2 B = 188,416 B a token (BF16).
  assert.equal(j.metrics.params.value, 106852245504);
  assert.equal(j.metrics.kv_bytes_per_token.value * 4, 188416);  // per GPU: the 8 KV heads over TP 4
});
