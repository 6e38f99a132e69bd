// `vramcalc plan`: the ranked table, its JSON, the hand-checkable small search, and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';
const run = (args) => {
  const r = spawnSync(BIN, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const TINY = ['plan', '--set', 'model={"layers":4,"hidden":512,"heads":4,"kv_heads":4,"ffn":2048,"vocab":1000}',
  '--seq', '512', '--gpu', 'h100-80gb', '--gpus', '4', '--global-batch', '4',
  '--set', 'plan.max_micro_batch=1', '--set', 'plan.max_cp=1',
  '--set', 'plan.search={"recompute":false,"sharding":false,"interleave":false}'];

test('plan: six layouts of 4 GPUs for a 4-layer, 4-head model, ranked by step time', () => {
  const r = run([...TINY, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.ok, true);
  assert.equal(j.plan.evaluated, 6);
  assert.equal(j.plan.ranked.length, 6);
  const steps = j.plan.ranked.map((x) => x.step_s);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
  for (const x of j.plan.ranked) assert.equal(x.layout.dp * x.layout.micro_batch * x.layout.grad_accum, 4);
});

test('plan: the table lists layouts, rejections and the clusters', () => {
  const r = run(['plan', '--preset', 'llama-3.1-70b', '--gpu', 'h100-80gb', '--gpus', '64', '--seq', '8192', '--top', '3',
    '--tokens', '1e12', '--clusters', 'h100-80gb:64:ib-ndr400,a100-80gb:128:ib-hdr200']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /64 x h100-80gb \(8 per node on nvlink4\), ib-ndr400 between nodes/);
  assert.match(r.out, /^\s+1\s+TP\d/m);
  assert.match(r.out, /out of memory; e\.g\./);
  assert.match(r.out, /clusters:\n\s+\d+ x /);
});

test('plan: bad input names the field and exits 1', () => {
  let r = run(['plan', '--gpu', 'h100-80gb', '--gpus', '100', '--preset', 'llama-3.1-8b']);
  assert.equal(r.code, 1);
  assert.match(r.err, /plan\.gpus: .*96 or 104/);
  r = run(['plan', '--gpu', 'h100-80gb', '--gpus', '16', '--preset', 'llama-3.1-8b', '--fabric', 'carrier-pigeon', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'plan.fabric');
  r = run(['plan', '--clusters', 'h100:x']);
  assert.equal(r.code, 2);
});

test('plan --list-fabrics: the catalog with sources', () => {
  const r = run(['plan', '--list-fabrics', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  const ndr = j.fabrics.find((f) => f.id === 'ib-ndr400');
  assert.equal(ndr.line_gbps, 50);
  assert.ok(Math.abs(ndr.achieved_gbps - 45) < 1e-9);
  assert.ok(j.nodes.find((n) => n.gpu === 'h100-80gb').purchase_usd === 25000);
});
