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

test('fit-models without a GPU names the field; a bad flag is refused', () => {
  const r = run(['fit-models', '--method', 'detailed', '--task', 'inference', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'gpu');
  assert.notEqual(run(['fit-models', '--no-such-flag']).code, 0);
});
