// CLI tests: a field the config sets that its task or engine never reads is not dropped without a
// word (core/estimate.cpp note_ignored_fields): the result carries a note naming it, the estimate
// is the one without it, and a config --print-config writes (every section, at its defaults where
// unset) reads back with no such note. Run by ctest (`cli`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
const json = (args, input) => JSON.parse(run([...args, '--format', 'json'], input));
const ignored = (e) => e.notes.filter((n) => n.endsWith(': ignored'));

const VLLM = ['--preset', 'llama-3.1-8b', '--engine', 'vllm', '--gpu', 'rtx-4090-24gb'];

test('-ngl 30 with --engine vllm: a note names inference.llamacpp.n_gpu_layers, the estimate is vLLM\'s without it', () => {
  const with_ngl = json([...VLLM, '-ngl', '30']);
  const without = json(VLLM);
  assert.deepEqual(ignored(with_ngl), ["inference.llamacpp.n_gpu_layers is llama.cpp's; inference.engine is vllm: ignored"]);
  assert.deepEqual(ignored(without), []);
  // Ignored means ignored: the same bytes to the byte (vLLM takes gpu_memory_utilization x 24 GiB either way).
  assert.equal(with_ngl.total_bytes, without.total_bytes);
  assert.equal(with_ngl.notes.length, without.notes.length + 1);
  // The table says it too.
  assert.match(run([...VLLM, '-ngl', '30']), /Note: inference\.llamacpp\.n_gpu_layers is llama\.cpp's; inference\.engine is vllm: ignored/);
});

test('training fields with task inference, and llama.cpp fields with task training, are named', () => {
  const inf = json([...VLLM, '--task', 'inference', '--set', 'parallel.tp=2', '--set', 'training.precision="fp32"']);
  assert.deepEqual(ignored(inf), ["training.precision, parallel.tp are training's; task is inference: ignored"]);
  const train = json(['--preset', 'llama-3.1-8b', '--method', 'detailed', '--task', 'training', '-ngl', '30', '-ub', '256']);
  assert.deepEqual(ignored(train), ["inference.llamacpp.n_gpu_layers, inference.llamacpp.n_ubatch are llama.cpp's; task is training: ignored"]);
});

test('--print-config of llama.cpp, vLLM, HF, training and fine-tuning configs reads back with no ignored-field note', () => {
  for (const args of [
    ['--preset', 'llama-3.1-8b', '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-ngl', '20', '-c', '8192', '--gpu', 'rtx-4090-24gb'],
    [...VLLM, '--set', 'inference.vllm.max_num_seqs=64'],
    ['--preset', 'llama-3.1-8b', '--engine', 'hf', '--set', 'inference.hf.full_logits=true', '--gpu', 'rtx-4090-24gb'],
    ['--preset', 'llama-3.1-8b', '--method', 'detailed', '--task', 'training', '--gpus', '2', '--set', 'parallel.tp=2'],
    ['--preset', 'llama-3.1-8b', '--method', 'detailed', '--task', 'finetune', '--set', 'training.finetune="qlora"'],
  ]) {
    const printed = run([...args, '--print-config']);
    const direct = json(args), read_back = json(['--config', '-'], printed);
    assert.deepEqual(ignored(read_back), [], args.join(' '));
    assert.deepEqual(ignored(direct), [], args.join(' '));
    assert.equal(read_back.total_bytes, direct.total_bytes, args.join(' '));
  }
});

test('--set parallel.virtual_stages=4 with the 1f1b schedule: a note, the bytes of the run without it', () => {
  const base = ['--method', 'detailed', '--preset', 'llama-3.1-8b', '--gpus', '2', '--set', 'parallel.pp=2'];
  const chunks = json([...base, '--set', 'parallel.virtual_stages=4']);
  const plain = json(base);
  assert.deepEqual(ignored(chunks), ["parallel.virtual_stages is the interleaved schedule's; parallel.schedule is 1f1b: ignored"]);
  assert.deepEqual(ignored(plain), []);
  assert.equal(chunks.total_bytes, plain.total_bytes);
  // Read with the interleaved schedule (32 layers = 2 stages x 4 chunks of 4): no note.
  assert.deepEqual(ignored(json([...base, '--set', 'parallel.virtual_stages=4', '--set', 'parallel.schedule="interleaved"'])), []);
});
