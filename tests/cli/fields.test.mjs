// The config field table (core/fields.cpp) through the CLI: `vramcalc fields`, the flags it
// declares, and --set paths checked against it. Run by ctest (`cli`) with VRAMCALC_BIN set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const fields = JSON.parse(run(['fields', '--format', 'json']).out);

test('the table lists every field once, with its range in its unit', () => {
  const paths = fields.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length);
  const ctx = fields.find((f) => f.path === 'inference.context');
  assert.deepEqual(ctx.range, [1, 16777216]);
  assert.equal(ctx.unit, 'tokens');
  assert.equal(ctx.accepted, '[1, 16777216] tokens');
  assert.equal(ctx.default, '4096');
  const engine = fields.find((f) => f.path === 'inference.engine');
  assert.deepEqual(engine.values, ['vllm', 'llama.cpp', 'llamacpp', 'hf', 'transformers', 'sglang']);
});

test('every flag the table declares is in --help and sets its field', () => {
  const help = run(['--help']).out;
  const flagged = fields.filter((f) => f.flags && !f.request);
  assert.ok(flagged.length >= 30, `${flagged.length} fields with flags`);
  for (const f of flagged)
    for (const flag of f.flags.split(' ')) assert.match(help, new RegExp(`(^|[\\s,;(])${flag.replace(/[-]/g, '\\-')}([\\s,;)]|$)`, 'm'), `${flag} (${f.path})`);
  // -ngl 12 is inference.llamacpp.n_gpu_layers = 12.
  const r = run(['--task', 'inference', '--engine', 'llama.cpp', '-ngl', '12', '--print-config']);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).inference.llamacpp.n_gpu_layers, 12);
});

test('the planner\'s request fields (plan.*) are listed apart; their flags are in `vramcalc plan --help`', () => {
  const plan = fields.filter((f) => f.request);
  assert.ok(plan.length >= 50, `${plan.length} request fields`);
  assert.ok(plan.every((f) => f.path === 'plan' || f.path.startsWith('plan.')));
  assert.deepEqual(fields.find((f) => f.path === 'plan.gpus').range, [1, 1000000]);
  const help = run(['plan', '--help']).out;
  for (const f of plan.filter((x) => x.flags))
    for (const flag of f.flags.split(' ')) assert.ok(help.includes(`  ${flag}`), `${flag} (${f.path})`);
  assert.ok(help.replace(/\s+/g, ' ').includes('--top N layouts listed (plan.top: [1, 10000] layouts; default 20)'), help);
});

test('--help lists each field flag with its path, accepted values and default, from the table', () => {
  const help = run(['--help']).out;
  assert.match(help, /^usage: vramcalc \[options\]/);  // the hand-written intro stays
  const flat = help.replace(/\s+/g, ' ');
  assert.match(flat, / -ngl, --ngl, --n-gpu-layers N -ngl: -1 unset \(with fit: --fit places the layers; else all /);
  assert.ok(flat.includes('(inference.llamacpp.n_gpu_layers: [-1, 1048576] layers; default -1)'), flat);
  assert.ok(flat.includes('--method NAME which estimator runs (docs/methods.md) (method: quick, guide, detailed; default quick; detailed when the document sets an inference, training, parallel, runtime or plan field)'), flat);
  assert.ok(flat.includes('--batch N micro-batch size (sequences per step per GPU) (batch: [1, 1048576] sequences; default 1)'), flat);
  // One entry per field: -ngl is listed once.
  assert.equal(help.match(/-ngl, --ngl/g).length, 1);
});

test('--set checks its path against the table and names the nearest field', () => {
  let r = run(['--set', 'training.sharding_group=8']);
  assert.equal(r.code, 1);
  assert.match(r.err, /unknown field training\.sharding_group \(did you mean training\.shard_group\?\)/);
  r = run(['--set', 'inference.vllm.gpu_mem=0.9', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'inference.vllm.gpu_mem');
  assert.match(JSON.parse(r.out).error.message, /did you mean inference\.vllm\.gpu_memory_utilization/);
  // Inside an object the table leaves to its reader, and other requests' sections, pass through.
  r = run(['--set', 'inference.weights_file={"total_bytes":1e9}', '--set', 'inference.weights_file.parts.embedding=1', '--task', 'inference', '--print-config']);
  assert.doesNotMatch(r.err, /unknown field/);
});

test('fields --format md prints a section as docs/config.md has it', () => {
  const r = run(['fields', '--format', 'md', '--section', 'inference.vllm']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^\| field \| type \| default \| accepted \| meaning \|$/m);
  assert.match(r.out, /^\| `max_num_seqs` \| int \| 256 \| \[1, 1048576\] sequences \| /m);
  assert.equal(run(['fields', '--format', 'md', '--section', 'nope']).code, 2);
});
