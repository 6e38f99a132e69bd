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
  // every GPU linked to every other: NVSwitch yes; PCIe and DGX-1's hybrid cube mesh (NVLink 2) no
  const a2a = (id) => j.fabrics.find((f) => f.id === id).all_to_all;
  assert.deepEqual(['nvlink4', 'infinity-fabric', 'pcie4', 'nvlink2'].map(a2a), [true, true, false, false]);
});

test('plan --pareto --fabric-chart: time against cost over cluster sizes, the same job on each fabric', () => {
  const r = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--seq', '4096', '--top', '1',
    '--tokens', '1e11', '--pareto', '--fabric-chart', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  // 4, 8, 16, 32, 64 GPUs (a quarter to four times), 5 layouts each at most.
  assert.deepEqual([...new Set(j.pareto.map((p) => p.gpus))].sort((a, b) => a - b), [4, 8, 16, 32, 64]);
  assert.equal(j.pareto_tokens, 1e11);
  for (const p of j.pareto) {
    // rent = days x 24 h x GPUs x $3.00 per H100-hour
    assert.ok(Math.abs(p.rent_usd - p.train_days * 24 * p.gpus * 3) < 1e-6 * p.rent_usd);
  }
  // The front: sorted by days, each front point cheaper than every faster point.
  let cheapest = Infinity;
  for (const p of j.pareto) {
    assert.equal(p.front, p.rent_usd < cheapest);
    cheapest = Math.min(cheapest, p.rent_usd);
  }
  const ids = j.fabric_comparison.map((f) => f.fabric);
  assert.deepEqual(ids, ['ib-ndr400', 'ib-hdr200', 'roce-400', 'roce-200', 'roce-100', 'eth-100-tcp']);
  const ndr = j.fabric_comparison[0], roce100 = j.fabric_comparison[4], tcp = j.fabric_comparison[5];
  assert.ok(tcp.best.step_s >= ndr.best.step_s);
  // A slower fabric needs a bigger batch per GPU to hide the same traffic, or none does.
  assert.ok(roce100.sizing.per_gpu_batch > ndr.sizing.per_gpu_batch);
  assert.ok(tcp.sizing.per_gpu_batch === 0 ? /^no per-GPU batch/.test(tcp.sizing.verdict) : tcp.sizing.per_gpu_batch >= roce100.sizing.per_gpu_batch);
  const t = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--seq', '4096', '--top', '1', '--pareto', '--fabric-chart']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /time against cost for 1e\+12 tokens \(\* on the Pareto front\):\n\s+\*/);
  assert.match(t.out, /the same job on each fabric/);
  assert.match(t.out, /eth-100-tcp\s+step/);
});

test('plan --clusters --serve: replicas x TP, throughput and cost per million tokens', () => {
  const r = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--seq', '4096',
    '--clusters', 'h100-80gb:8:ib-ndr400,a100-80gb:8:ib-hdr200,l4-24gb:8:roce-100', '--serve', '64x8192', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.serve_clusters.length, 3);
  for (const c of j.serve_clusters) {
    if (!c.ok) continue;
    assert.equal(c.replicas * c.tp, c.gpus);
    assert.ok(Math.abs(c.tokens_per_s - c.tokens_per_s_replica * c.replicas) < 1e-6 * c.tokens_per_s);
    // $/Mtok = rent per hour / (tokens/s x 3600) x 1e6
    assert.ok(Math.abs(c.usd_per_mtok - c.rent_usd_per_hour / (c.tokens_per_s * 3600) * 1e6) < 1e-9 * c.usd_per_mtok);
  }
  // Ranked: those that serve 64 sequences first, cheapest per token first among them.
  const meets = j.serve_clusters.filter((c) => c.meets);
  assert.ok(meets.length >= 2);
  for (let i = 1; i < meets.length; ++i) assert.ok(meets[i - 1].usd_per_mtok <= meets[i].usd_per_mtok);
  const t = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--clusters', 'h100-80gb:8:ib-ndr400', '--serve', '64x8192']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /clusters for serving/);
  assert.match(t.out, /8 x h100-80gb\s+\d+ x TP\d/);
  // The text answers the serving goal: the same cluster's training search (its global batch, layouts
  // and out-of-memory rejections) stays in --format json only.
  assert.match(t.out, /^8 x h100-80gb \(8 per node on nvlink4\): serving; the training layouts/);
  assert.doesNotMatch(t.out, /global batch|layouts evaluated|rejected:/);
  assert.ok(j.plan.evaluated > 0);
  const bad = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--serve', 'lots']);
  assert.equal(bad.code, 2);
  const zero = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--serve', '0', '--format', 'json']);
  assert.equal(zero.code, 1);
  assert.equal(JSON.parse(zero.out).error.field, 'plan.serve.concurrency');
});

test('plan: the guide\'s checklist for the best layout, in the JSON and the table', () => {
  const args = ['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--seq', '4096', '--global-batch', '256',
    '--set', 'training.profile=megatron', '--top', '1'];
  const r = run([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  const c = j.checklist;
  assert.equal(c.goal, 'train');
  assert.deepEqual(c.steps.map((s) => s.key), ['model', 'precision', 'parallelism', 'batch', 'sequence', 'states', 'activations', 'overhead', 'target']);
  const s = Object.fromEntries(c.steps.map((x) => [x.key, x]));
  const best = j.plan.ranked[0], l = best.layout;
  assert.equal(c.answer.layout.label, l.label, 'the answer is the best layout');
  assert.ok(Math.abs(s.model.value - 8.03e9) < 0.01e9, `${s.model.value} parameters`);  // Llama-3.1-8B
  assert.equal(s.precision.value, 18);  // BF16 weights 2 + FP32 main_grad 4 + FP32 master, m, v 12 bytes per parameter
  assert.equal(s.parallelism.value, 16);
  assert.equal(l.tp * l.pp * l.dp * l.cp, 16);
  assert.equal(s.batch.value, 256);
  assert.equal(l.dp * l.micro_batch * l.grad_accum, 256);  // global = DP x micro-batch x accumulation
  assert.equal(s.batch.second, l.micro_batch * l.grad_accum);
  assert.equal(s.sequence.value, 4096);
  assert.equal(s.sequence.second, 4096 * l.micro_batch / l.cp);
  // States + activations + overhead = the layout's memory per GPU.
  assert.ok(Math.abs(s.states.value + s.activations.value + s.overhead.value - best.memory_bytes) <= 1);
  assert.equal(s.overhead.second, best.memory_bytes);
  // The 75% target of the H100's 81,559 MiB, and the share of it the answer uses.
  assert.equal(s.target.value, 0.75 * 81559 * 1048576);
  assert.equal(s.target.value, j.plan.target_bytes);
  assert.ok(Math.abs(s.target.second - best.memory_bytes / s.target.value) < 1e-12);
  const t = run(args);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /the guide's checklist \(the best layout\):\n\s+1\. Model\s+\d{10} parameters/);
  assert.match(t.out, /^\s+7\. Activations\s+[\d.]+ GB/m);
  assert.match(t.out, /^\s+9\. Target\s+64\.1 GB \([\d.]+% of the target\)\s+fits/m);
  assert.ok(t.out.includes(`  answer: ${l.label}, `), t.out);
});

test('plan --serve: the checklist\'s step 7 is the KV cache of the planned cluster serving the goal', () => {
  const args = ['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--serve', '64x8192'];
  const r = run([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  const c = j.checklist;
  assert.equal(c.goal, 'serve');
  assert.deepEqual(c.steps.map((s) => s.key), ['model', 'precision', 'parallelism', 'batch', 'sequence', 'states', 'kv', 'overhead', 'target']);
  const s = Object.fromEntries(c.steps.map((x) => [x.key, x]));
  const a = c.answer;
  // The planned cluster is the comparison's only candidate here: the same replicas x TP.
  assert.deepEqual([a.gpus, a.tp, a.replicas, a.kv_bytes], [j.serve_clusters[0].gpus, j.serve_clusters[0].tp, j.serve_clusters[0].replicas, j.serve_clusters[0].kv_bytes]);
  assert.equal(s.precision.value, 2);  // BF16 weights
  assert.equal(s.parallelism.value, 8);
  assert.equal(a.replicas * a.tp, 8);
  assert.equal(s.batch.value, 64);
  assert.equal(s.batch.second, Math.ceil(64 / a.replicas));
  assert.equal(s.sequence.value, 8192);
  // KV: sequences x 8192 tokens x 128 KiB a token (32 layers x 8 KV heads x 128 x K,V x 2 bytes), KV heads over TP.
  assert.equal(s.kv.value, s.batch.second * 8192 * 131072 / a.tp);
  assert.equal(s.kv.value, a.kv_bytes);
  assert.ok(Math.abs(s.states.value + s.kv.value + s.overhead.value - s.overhead.second) <= 1);
  assert.ok(s.target.second <= 1 && a.meets);
  const t = run(args);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /the guide's checklist \(the planned cluster serving the goal\):/);
  assert.match(t.out, /^\s+7\. KV cache\s+[\d.]+ GB/m);
  assert.match(t.out, /answer: 8 x h100-80gb as (1 replica|\d+ replicas) x TP\d, \d+ sequences each/);
  // One replica reads singular, in the answer and the checklist (noun_for: one helper for every surface).
  assert.doesNotMatch(t.out, /\b1 replicas\b|\b1 sequences\b|\b1 micro-batches\b|\b1 GPUs\b/);
});

test('plan: bad input of the issue, each named with what would work, none hangs', () => {
  // A global batch no layout can make: 64 GPUs of a 4-layer, 4-head model have DP 4 or more.
  const tiny = ['plan', '--set', 'model={"layers":4,"hidden":512,"heads":4,"kv_heads":4,"ffn":2048,"vocab":1000}',
    '--seq', '512', '--gpu', 'h100-80gb', '--gpus', '64', '--set', 'plan.max_cp=1'];
  let r = run([...tiny, '--global-batch', '6', '--format', 'json']);
  assert.equal(r.code, 1);
  let e = JSON.parse(r.out).error;
  assert.equal(e.field, 'plan.global_batch');
  assert.match(e.message, /4 or 8 \(multiples of 4\) would work/);
  assert.equal(run([...tiny, '--global-batch', '8', '--format', 'json']).code, 0);
  // A model no layout fits: the plan says so, naming the fields that would help, with the closest miss.
  r = run(['plan', '--preset', 'llama-3.1-405b', '--gpu', 'h100-80gb', '--gpus', '8', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.plan.ranked.length, 0);
  assert.equal(j.checklist, null);
  assert.match(j.plan.notes.at(-1), /no layout of 8 x h100-80gb fits under 75% of memory; closest: .*\(\+[\d.]+ GB\).*plan\.gpus.*gpu.*plan\.global_batch/);
  // ... and what would fit: 405B x 18 bytes of states (BF16 mixed, AdamW) = 7.3 TB over 64.1 GB targets is
  // 114 GPUs or more (whole nodes: 120 or more); that count fits, one node fewer does not.
  const sg = j.plan.suggestion;
  assert.ok(sg.gpus >= 120 && sg.gpus % 8 === 0, JSON.stringify(sg));
  assert.match(j.plan.notes.at(-1), new RegExp(`${sg.gpus} x h100-80gb would fit it \\(plan\\.gpus: ${sg.gpus}, the fewest found\\): ${sg.gpus_best.layout.label}`));
  assert.equal(sg.gpu, null, 'no catalog GPU holds 405B on 8');
  const at = (n) => JSON.parse(run(['plan', '--preset', 'llama-3.1-405b', '--gpu', 'h100-80gb', '--gpus', String(n), '--format', 'json']).out).plan;
  const there = at(sg.gpus);
  assert.equal(there.ranked[0].layout.label, sg.gpus_best.layout.label);
  assert.equal(there.ranked[0].memory_bytes, sg.gpus_best.memory_bytes);
  assert.equal(at(sg.gpus - 8).ranked.length, 0);
  // An unknown fabric names plan.fabric and the fabrics that exist.
  e = JSON.parse(run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--fabric', 'carrier-pigeon', '--format', 'json']).out).error;
  assert.equal(e.field, 'plan.fabric');
  assert.match(e.message, /ib-ndr400.*eth-100-tcp/);
  // 100,000 GPUs: every layout searched, finite figures, within the test's time (a hang would time out).
  // (100,000 = 2^5 x 5^5 GPUs: DP is 25 or more, so the global batch is a multiple of 25.)
  const big = spawnSync(BIN, ['plan', '--preset', 'llama-3.1-405b', '--gpu', 'h100-80gb', '--gpus', '100000', '--seq', '8192',
    '--global-batch', '1000', '--top', '3', '--format', 'json'], { encoding: 'utf8', timeout: 120000 });
  assert.equal(big.status, 0, big.stderr);
  const b = JSON.parse(big.stdout);
  assert.ok(b.plan.evaluated > 0 && b.plan.ranked.length === 3);
  for (const x of b.plan.ranked) assert.ok(Number.isFinite(x.step_s) && x.step_s > 0 && Number.isFinite(x.memory_bytes));
  // More than a million GPUs: named with its range.
  e = JSON.parse(run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '2000000', '--format', 'json']).out).error;
  assert.equal(e.field, 'plan.gpus');
});

test('plan: no flag or field is dropped silently (deadline, --serve context, --batch-sizing with its object, sizing fabrics)', () => {
  const base = ['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--seq', '4096', '--top', '1', '--format', 'json'];
  // A negative deadline is out of plan.deadline_days's range (0, 36500] days, not "not asked".
  let r = run([...base, '--tokens', '1e9', '--deadline-days', '-3']);
  assert.equal(r.code, 1, r.out);
  let e = JSON.parse(r.out).error;
  assert.equal(e.field, 'plan.deadline_days');
  assert.match(e.message, /plan\.deadline_days must be a number greater than 0 and at most 36500 days, got -3/);
  // --serve CONCURRENCYxCONTEXT: a negative context is plan.serve.context's error, not the config's context.
  r = run([...base, '--serve', '10x-5']);
  assert.equal(r.code, 1, r.out);
  e = JSON.parse(r.out).error;
  assert.equal(e.field, 'plan.serve.context');
  assert.match(e.message, /\[0, 100000000\] tokens, got -5/);
  // --batch-sizing switches batch sizing on; it keeps the object --set gave it (its range is checked).
  r = run([...base, '--batch-sizing', '--set', 'plan.batch_sizing={"fabrics":["roce-100"],"target_efficiency":2}']);
  assert.equal(r.code, 1, r.out);
  assert.equal(JSON.parse(r.out).error.field, 'plan.batch_sizing.target_efficiency');
  r = run([...base, '--set', 'plan.batch_sizing={"fabrics":["roce-100"]}', '--batch-sizing']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out).batch_sizing.map((b) => b.fabric), ['roce-100']);
  // An unknown fabric in a list is named by the list's path, with the fabrics that exist.
  for (const key of ['batch_sizing', 'fabric_comparison']) {
    r = run([...base, '--set', `plan.${key}={"fabrics":["carrier-pigeon"]}`]);
    assert.equal(r.code, 1, r.out);
    e = JSON.parse(r.out).error;
    assert.equal(e.field, `plan.${key}.fabrics`);
    assert.match(e.message, /must be one of ib-ndr400, .*eth-100-tcp, got "carrier-pigeon"/);
  }
});

test('plan: without a token budget the table prints no days or cost (not 0.0 days and $0)', () => {
  const args = ['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--seq', '4096', '--top', '2'];
  let r = run(args);
  assert.equal(r.code, 0, r.err);
  const rows = r.out.split('\n').filter((l) => /^\s+[12]\s+TP/.test(l));
  assert.equal(rows.length, 2);
  for (const l of rows) assert.match(l, /\s+-\s+-$/, l);
  assert.match(r.out, /days and cost: --tokens N/);
  // With one: days = 1e9 tokens / (1024 x 4096 tokens a step) x step s / 86400; rent = 8 GPUs x hours x $3.00.
  r = run([...args, '--tokens', '1e9']);
  const row = r.out.split('\n').find((l) => /^\s+1\s+TP/.test(l)).trim().split(/\s+/);
  const step = Number(row[row.length - 7]), days = Number(row.at(-2)), rent = Number(row.at(-1));
  const hand = 1e9 / (1024 * 4096) * step / 86400;
  assert.ok(Math.abs(days - hand) <= 0.05, `${days} vs ${hand}`);
  assert.ok(Math.abs(rent - 8 * hand * 24 * 3.0) <= 0.01 * rent + 1, `${rent}`);
});

test('plan --batch-sizing --fabric-chart with plan.fabric_spec: the request\'s own fabric comes first', () => {
  // A fabric so slow that no batch hides its traffic: 0.1 GB/s x 0.5 per GPU, 100 us.
  const r = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--seq', '4096', '--top', '1',
    '--set', 'plan.fabric_spec={"id":"slow","line_gbps":0.1,"efficiency":0.5,"latency_us":100}',
    '--batch-sizing', '--fabric-chart', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.plan.fabric, 'slow');
  assert.equal(j.batch_sizing[0].fabric, 'slow');
  assert.equal(j.batch_sizing[0].per_gpu_batch, 0);
  assert.match(j.batch_sizing[0].verdict, /no per-GPU batch up to 8192 sequences reaches 90% compute on slow/);
  assert.equal(j.batch_sizing.length, 7);  // slow + the six inter-node fabrics of the catalog
  assert.equal(j.fabric_comparison[0].fabric, 'slow');
  // Its best layout is the plan's own (same request, same fabric).
  assert.equal(j.fabric_comparison[0].best.layout.label, j.plan.ranked[0].layout.label);
  assert.equal(j.fabric_comparison[0].best.step_s, j.plan.ranked[0].step_s);
});

test('plan --gpus: a count that is not a whole number of GPUs is named, not replaced by 8', () => {
  for (const n of ['0', '2.5']) {
    const r = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', n, '--top', '1', '--format', 'json']);
    assert.equal(r.code, 1, r.out);
    const e = JSON.parse(r.out).error;
    assert.equal(e.field, 'plan.gpus');  // the plan's count, which --gpus gives
    assert.match(e.message, new RegExp(`^plan\\.gpus must be a whole number in \\[1, 1000000\\] GPUs, got ${n.replace('.', '\\.')}`));
  }
  // 16 is taken as it is (two nodes of 8).
  const r = run(['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '16', '--top', '1', '--format', 'json']);
  assert.equal(JSON.parse(r.out).plan.gpus, 16);
});

test('plan: layout flags given (--tp, --sharding) are not constraints, and a note says so', () => {
  const args = ['plan', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '8', '--top', '2'];
  const plain = run(args);
  assert.equal(plain.code, 0, plain.err);
  assert.doesNotMatch(plain.out, /not constraints/);
  const given = run([...args, '--tp', '2', '--sharding', 'zero1']);
  assert.equal(given.code, 0, given.err);
  assert.match(given.out, /note: the plan searches the parallel layout, .*; parallel\.tp 2, training\.sharding zero1 given are not constraints/);
  // The same ranking: the search ignores them (only the note line differs).
  const table = (t) => t.split('\n').filter((l) => !l.includes('not constraints')).join('\n');
  assert.equal(table(given.out), table(plain.out));
});
