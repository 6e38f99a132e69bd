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
  // gpt-oss-120b BF16, DeepSeek-V3 and -R1 Q6_K, Kimi-K2 in four types, Llama-4 Maverick in three
  assert.match(t.out, /\n10 more keep layers or experts in system RAM, which is not checked without its size: give --ram-gib\n/);
  // gpt-oss-120b BF16: 18.89 GB on the GPU (97.8% of 19.32 GB), the experts of 34 of 36 layers in RAM:
  // 1,158,266,880 + 34 x 6,370,099,200 + 14,286,848 + 804,352 B = 217.76 GB
  assert.match(t.out, /gpt-oss-120b\s+gguf-bf16\s+18\.89 GB\s+97\.8%\s+no: needs 217\.76 GB of system RAM\n/);
  assert.match(t.out, /deepseek-v3\s+q6_k\s+17\.61 GB\s+91\.2%\s+no: needs 537\.19 GB of system RAM\n/);
  assert.doesNotMatch(run(['fit-models', ...CPP_4090, '--fitting']).out, /gpt-oss-120b\s+gguf-bf16/);
  // --ram-gib 512: 202.80 GiB within 384 GiB (75%) fits; --ram-gib 256 (192 GiB) does not.
  const row = (extra) => JSON.parse(run(['fit-models', ...CPP_4090, ...extra, '--format', 'json']).out).models
    .find((m) => m.model === 'gpt-oss-120b' && m.format === 'gguf-bf16');
  const none = row([]);
  assert.equal(none.needs_ram, true);
  assert.equal(none.fits, false);
  assert.equal(Math.round(none.ram_bytes), 201088 * 2880 * 2 + 34 * 128 * 3 * 2880 * 2880 * 2 + 14286848 + 201088 * 4);
  const big = row(['--ram-gib', '512']);
  assert.equal(big.fits, true);
  assert.equal(big.needs_ram, undefined);
  assert.equal(big.ram_bytes, none.ram_bytes);
  assert.equal(row(['--ram-gib', '256']).fits, false);
});

test('fit-models without a GPU names the field; a bad flag is refused', () => {
  const r = run(['fit-models', '--method', 'detailed', '--task', 'inference', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'gpu');
  assert.notEqual(run(['fit-models', '--no-such-flag']).code, 0);
});
