// CLI tests for `vramcalc fit-models`: every preset x format of the task on the config's GPU, best
// quality first, each row the estimate of that model and format. Run by ctest (`cli`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const HF_8B = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
  '--set', 'inference.engine="hf"', '--set', 'inference.context=4096'];

test('fit-models on a 24 GB card (transformers): the 8B at BF16 is its estimate, within the 19.32 GB budget', () => {
  const r = run(['fit-models', ...HF_8B, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.budget_bytes, 0.75 * 24564 * 2 ** 20);  // 75% of the RTX 4090's 24,564 MiB = 19.32 GB
  const row = j.models.find((m) => m.model === 'llama-3.1-8b' && m.format === 'bf16');
  const e = JSON.parse(run([...HF_8B, '--format', 'json']).out);
  assert.ok(Math.abs(e.breakdown.weights / 1e9 - 16.06) < 0.01, 'weights 8.03e9 x 2 B');
  assert.equal(row.total_bytes, e.total_bytes);
  assert.equal(row.fits, e.total_bytes <= j.budget_bytes);
  assert.equal(row.share, row.total_bytes / j.budget_bytes);
  // Ranks 1..n, larger models first.
  j.models.forEach((m, i) => assert.equal(m.rank, i + 1));
  assert.equal(j.models[0].model, 'kimi-k2');  // 1,026B, the largest preset
  assert.deepEqual(j.models.slice(0, 3).map((m) => m.format), ['bf16', 'bnb-int8', 'bnb-nf4']);

  // --fitting keeps the rows that fit, in the same order.
  const only = JSON.parse(run(['fit-models', ...HF_8B, '--fitting', '--format', 'json']).out);
  assert.deepEqual(only.models.map((m) => m.model + '/' + m.format), j.models.filter((m) => m.fits).map((m) => m.model + '/' + m.format));
  assert.equal(only.models.length, j.fitting);

  // The table: a budget line, then one row per preset x format.
  const t = run(['fit-models', ...HF_8B, '--fitting']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /^Budget 19\.32 GB: 75% of NVIDIA GeForce RTX 4090 24GB's 25\.76 GB/);
  assert.match(t.out, /llama-3\.1-8b\s+bf16\s+\d+\.\d\d GB\s+\d+\.\d%\s+yes/);
});

const CPP_4090 = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
  '--engine', 'llama.cpp', '-c', '4096'];

test('fit-models with llama.cpp (--fit) and no --ram-gib: a row with weights in system RAM needs RAM, it does not fit', () => {
  const t = run(['fit-models', ...CPP_4090]);
  assert.equal(t.code, 0, t.err);
  // DeepSeek-V3, -R1 and -V3.2 Q6_K, Kimi-K2 in four types, Llama-3.1-405B BF16, Llama-4 Maverick in three, MiniMax-M2 BF16
  assert.match(t.out, /\n12 more keep layers or experts in system RAM, which is not checked without its size: give --ram-gib\n/);
  // DeepSeek-V3 Q6_K: 17.74 GB on the GPU (91.8% of 19.32 GB: attn_k_b's 128-wide rows in Q8_0, the
  // Q6_K fallback, +123.9 MB), the experts of its 58 MoE layers in RAM:
  // 760,166,400 + 58 x 9,248,440,320 + 23,068,672 + 517,120 B = 537.19 GB
  assert.match(t.out, /deepseek-v3\s+q6_k\s+17\.74 GB\s+91\.8%\s+no: needs 537\.19 GB of system RAM\n/);
  assert.doesNotMatch(run(['fit-models', ...CPP_4090, '--fitting']).out, /deepseek-v3\s+q6_k/);
  // --ram-gib 1024: 500.30 GiB within 768 GiB (75%) fits; --ram-gib 512 (384 GiB) does not.
  const row = (extra) => JSON.parse(run(['fit-models', ...CPP_4090, ...extra, '--format', 'json']).out).models
    .find((m) => m.model === 'deepseek-v3' && m.format === 'q6_k');
  const none = row([]);
  assert.equal(none.needs_ram, true);
  assert.equal(none.fits, false);
  assert.equal(Math.round(none.ram_bytes), 129280 * 7168 * 210 / 256 + 58 * 256 * 3 * 2048 * 7168 * 210 / 256 + (4096 + 7168) * 512 * 4 + 129280 * 4);
  const big = row(['--ram-gib', '1024']);
  assert.equal(big.fits, true);
  assert.equal(big.needs_ram, undefined);
  assert.equal(big.ram_bytes, none.ram_bytes);
  assert.equal(row(['--ram-gib', '512']).fits, false);
});

test('fit-models with llama.cpp offers gpt-oss in its published MXFP4_MOE file: 12.51 GB for the 20b on an RTX 4090', () => {
  const j = JSON.parse(run(['fit-models', ...CPP_4090, '--format', 'json']).out);
  const oss = j.models.filter((m) => m.model === 'gpt-oss-20b');
  assert.deepEqual(oss.map((m) => [m.format, m.format_label]), [['mxfp4', 'GGUF MXFP4_MOE']]);
  // ggml-org's gpt-oss-20b-mxfp4.gguf (12,097,353,472 B: MXFP4 experts, Q8_0 elsewhere) less token_embd
  // (201,088 x 2,880 x 34/32 B), the F16 KV of 12 full layers x 4,096 cells and 12 window layers x 768,
  // the compute buffer's logits phase (201,088 + 2,880) x 512 x 4 B, the RTX 4090's CUDA context
  // 488,062,976 B
  const total = 12097353472 - 201088 * 2880 * 34 / 32 + (12 * 4096 + 12 * 768) * 2 * 8 * 64 * 2 + (201088 + 2880) * 512 * 4 + 488062976;
  assert.equal(Math.round(oss[0].total_bytes), total);
  assert.equal(oss[0].fits, true);
  // The row loads: the estimate of that preset and format gives the same total, the whole file 12.10 GB.
  const e = JSON.parse(run(['--method', 'detailed', '--task', 'inference', '--preset', 'gpt-oss-20b', '--gpu', 'rtx-4090-24gb',
    '--engine', 'llama.cpp', '-c', '4096', '--weights', 'mxfp4', '--format', 'json']).out);
  assert.equal(e.total_bytes, oss[0].total_bytes);
  assert.equal(e.metrics.weights_total_bytes.value, 12097353472);
});

test('fit-models without a GPU names the field; a bad flag is refused', () => {
  const r = run(['fit-models', '--method', 'detailed', '--task', 'inference', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'gpu');
  assert.notEqual(run(['fit-models', '--no-such-flag']).code, 0);
});

test('fit-models with vLLM offers gpt-oss in OpenAI\'s MXFP4 checkpoint where vLLM loads it: the 20b fits an RTX 4090, not a T4\'s list', () => {
  const vllm = (gpu) => ['fit-models', '--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', gpu,
    '--engine', 'vllm', '-c', '4096', '--format', 'json'];
  const j = JSON.parse(run(vllm('rtx-4090-24gb')).out);
  const oss = j.models.filter((m) => m.model === 'gpt-oss-20b');
  assert.deepEqual(oss.map((m) => m.format), ['mxfp4']);
  assert.equal(oss[0].fits, true);
  assert.equal(oss[0].share.toFixed(3), '0.759');
  // The row is the estimate of that preset in mxfp4: (1,795,276,800 + 9,381,568) x 2 B + 19,110,297,600
  // x 4.25 / 8 B + Marlin's padding 917,471,232 B + the FP32 RoPE table 131,072 x 64 x 4 B of weights.
  const e = JSON.parse(run(['--method', 'detailed', '--task', 'inference', '--preset', 'gpt-oss-20b', '--gpu', 'rtx-4090-24gb',
    '--engine', 'vllm', '-c', '4096', '--weights', 'mxfp4', '--format', 'json']).out);
  assert.equal(e.total_bytes, oss[0].total_bytes);
  assert.equal(e.breakdown.weights, (1795276800 + 9381568) * 2 + 19110297600 * 4.25 / 8 + 917471232 + 131072 * 64 * 4);
  // A T4 (compute capability 7.5) is below vLLM's MXFP4 minimum (8.0): gpt-oss keeps the vLLM ladder.
  const t4 = JSON.parse(run(vllm('t4-16gb')).out);
  assert.deepEqual(t4.models.filter((m) => m.model === 'gpt-oss-20b').map((m) => m.format), ['bf16', 'fp8', 'int8', 'awq-int4']);
});
