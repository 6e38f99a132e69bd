// CLI tests: the native `vramcalc` binary's table and JSON output and its exit codes.
// Run by ctest (`cli`) with VRAMCALC_BIN set to the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';
const WORKED = ['--method', 'quick', '--params', '7', '--precision', 'fp16', '--optimizer', 'adamw-mixed', '--batch', '4', '--seq', '2048'];

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('worked example prints the table with GB and GiB', () => {
  const r = run(WORKED);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /GB \(1e9\)/);
  assert.match(r.out, /GiB \(2\^30\)/);
  assert.match(r.out, /Weights\s+14\.00\s+13\.04/);
  assert.match(r.out, /Gradients\s+14\.00/);
  assert.match(r.out, /Optimizer state\s+84\.00/);
  assert.match(r.out, /Activations\s+143\.36/);
  assert.match(r.out, /Total\s+255\.36/);
  assert.match(r.out, /safety margin\s+306\.43/);
  assert.match(r.out, /A100 80GB.*\s4 needed/);
  assert.match(r.out, /RTX 4090.*\s13 needed/);
});

test('checkpointing: 177.41 GB buffered, 3 A100, 8 RTX 4090', () => {
  const r = run([...WORKED, '--checkpointing', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.ok, true);
  assert.ok(Math.abs(j.breakdown.activations - 35.84e9) < 1);
  assert.ok(Math.abs(j.buffered_bytes - 177.408e9) < 1e3);
  const need = Object.fromEntries(j.fits.map((f) => [f.gpu, f.gpus_needed]));
  assert.equal(need['a100-80gb'], 3);
  assert.equal(need['rtx-4090-24gb'], 8);
});

test('JSON output carries the breakdown in bytes and the formulas', () => {
  const r = run([...WORKED, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.method, 'quick');
  assert.equal(j.breakdown.weights, 14e9);
  assert.equal(j.breakdown.gradients, 14e9);
  assert.equal(j.breakdown.optimizer, 84e9);
  assert.ok(Math.abs(j.total_bytes - 255.36e9) < 1);
  assert.deepEqual(j.components.map((c) => c.key), ['weights', 'gradients', 'optimizer', 'activations']);
  assert.match(j.components[0].formula, /7e9 params x 2 B/);
});

test('--config FILE and --config - give the same result as flags; flags override the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vramcalc-'));
  const file = join(dir, 'run.json');
  const cfg = { schema_version: 1, method: 'quick', params_b: 7, precision: 'fp16', optimizer: 'adamw-mixed', batch: 4, seq: 2048 };
  writeFileSync(file, JSON.stringify(cfg));
  const flags = JSON.parse(run([...WORKED, '--format', 'json']).out);
  const fromFile = JSON.parse(run(['--config', file, '--format', 'json']).out);
  const fromStdin = JSON.parse(run(['--config', '-', '--format', 'json'], JSON.stringify(cfg)).out);
  assert.deepEqual(fromFile, flags);
  assert.deepEqual(fromStdin, flags);
  const overridden = JSON.parse(run(['--config', file, '--batch', '1', '--format', 'json']).out);
  assert.ok(Math.abs(overridden.breakdown.activations - 35.84e9) < 1);
});

test('guide method: 70B training on 8 GPUs is 162.54 GB per GPU', () => {
  const r = run(['--method', 'guide', '--params', '70', '--layers', '80', '--hidden', '8192', '--heads', '64',
    '--batch', '1', '--seq', '4096', '--gpus', '8', '--set', 'guide.bytes=2', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.ok(Math.abs(j.buffered_bytes / 1e9 - 162.54) < 0.01, String(j.buffered_bytes));
});

test('guide method with --params alone reads the architecture a count fills in, as its --print-config does', () => {
  // It said "model.layers must be a whole number in [1, 1024], got 0", while the config --print-config wrote
  // for the same flags ({"model": {"params_b": 70}}) was estimated. A 70B count fills L 72, h 9216:
  // states 7e10 x (2 x 2 + 12) / 8 GPUs = 140.00 GB; activations 2 x b 1 x s 2048 x h 9216 x L 72 x 2 B / 8 = 0.68 GB.
  const args = ['--method', 'guide', '--params', '70', '--gpus', '8'];
  const r = run([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.breakdown.model_states, 140e9);
  assert.equal(j.breakdown.activations, 2 * 1 * 2048 * 9216 * 72 * 2 / 8);
  const printed = run([...args, '--print-config']);
  assert.deepEqual(JSON.parse(run(['--config', '-', '--format', 'json'], printed.out).out), j);
});

test('guide method: 70B INT8 inference, b4 s8192 is 83.59 GB', () => {
  const r = run(['--method', 'guide', '--task', 'inference', '--params', '70', '--layers', '80', '--hidden', '8192',
    '--heads', '32', '--batch', '4', '--seq', '8192', '--set', 'guide.weight_bytes=1', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.ok(Math.abs(j.buffered_bytes / 1e9 - 83.59) < 0.01, String(j.buffered_bytes));
});

test('bad values exit 1 with a message naming the field and the range', () => {
  const cases = [
    [['--params', '-7'], /params_b/],
    [['--params', '0'], /params_b/],
    [['--params', '1e30'], /params_b.*100000/],
    [['--params', 'NaN'], /params_b/],
    [['--batch', '0'], /batch.*\[1, /],
    [['--batch', '2.5'], /batch.*whole number/],
    [['--seq', '-1'], /seq/],
    [['--precision', 'fp12'], /precision must be one of fp32, fp16, bf16, int8, int4/],
    [['--method', 'magic'], /method must be one of/],
    [['--set', 'nonsense=1'], /unknown field nonsense/],
  ];
  for (const [args, re] of cases) {
    const r = run(args);
    assert.equal(r.code, 1, `${args.join(' ')}: exit ${r.code}`);
    assert.match(r.err, re, args.join(' '));
    assert.doesNotMatch(r.out + r.err, /nan\b|NaN GB|inf GB/i);
  }
});

test('bad values with --format json print an error object', () => {
  const r = run(['--params', '-1', '--format', 'json']);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.out);
  assert.equal(j.ok, false);
  assert.equal(j.error.field, 'params_b');
  assert.match(j.error.message, /greater than 0/);
});

test('usage errors exit 2; a config that is not JSON exits 1', () => {
  assert.equal(run(['--no-such-flag']).code, 2);
  assert.equal(run(['--batch']).code, 2);
  assert.equal(run(['--format', 'xml']).code, 2);
  // A bad value is one line naming the flag (not the 140 lines of usage after it); a weight format
  // typed after --format is pointed at --weights.
  assert.equal(run(['--format', 'xml']).err, 'vramcalc: --format must be table or json (the output\'s format) (vramcalc --help lists every option)\n');
  assert.equal(run(['--format', 'Q4_K_M']).err,
    'vramcalc: --format must be table or json (the output\'s format; the weights\' format "Q4_K_M" is --weights) (vramcalc --help lists every option)\n');
  // A flag at the end without its value names its field and the field's range.
  assert.equal(run(['--batch']).err, 'vramcalc: --batch needs a value (batch: [1, 1048576] sequences) (vramcalc --help lists every option)\n');
  assert.equal(run(['--task']).err, 'vramcalc: --task needs a value (task: training, finetune, inference) (vramcalc --help lists every option)\n');
  assert.equal(run(['--config', '/nonexistent/file.json']).code, 2);
  const r = run(['--config', '-'], '{not json');
  assert.equal(r.code, 1);
  // Where it stopped (nlohmann counts the characters read): the lexer read 'n' and 'o' hoping for
  // `null` where a member's quoted name should start, so column 3, the 'o'.
  assert.equal(r.err, "vramcalc: config: the config is not valid JSON: line 1, column 3: syntax error while parsing object key - " +
    "invalid literal; last read: '{no'; expected string literal\n");
  // With --format json (before or after --config) the error is the JSON error object on stdout.
  for (const args of [['--format', 'json', '--config', '-'], ['--config', '-', '--format', 'json']]) {
    const j = run(args, '{\n  "task": "inference",\n}');
    assert.equal(j.code, 1);
    const doc = JSON.parse(j.out);
    assert.equal(doc.ok, false);
    assert.equal(doc.error.field, 'config');
    // The '}' after the trailing comma: line 3, column 1.
    assert.equal(doc.error.message, "the config is not valid JSON: line 3, column 1: syntax error while parsing object key - unexpected '}'; expected string literal");
  }
  const arr = run(['--config', '-', '--format', 'json'], '[1, 2]');
  assert.equal(arr.code, 1);
  assert.equal(JSON.parse(arr.out).error.message, 'the config must be a JSON object, got a JSON array');
});

test('--print-config round-trips through --config', () => {
  const printed = run([...WORKED, '--print-config']);
  assert.equal(printed.code, 0);
  const again = JSON.parse(run(['--config', '-', '--format', 'json'], printed.out).out);
  const direct = JSON.parse(run([...WORKED, '--format', 'json']).out);
  assert.deepEqual(again, direct);
});

test('--print-config writes whole numbers as integers ("batch": 4, not 4.0) and reads back to the same text', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
    '--engine', 'llama.cpp', '-c', '8192', '--ram-gib', '32', '--batch', '4', '--print-config'];
  const printed = run(args);
  assert.equal(printed.code, 0, printed.err);
  assert.match(printed.out, /\n {2}"batch": 4,\n/);
  assert.match(printed.out, /\n {2}"seq": 2048,\n/);
  assert.match(printed.out, /\n {2}"gpus": 1,\n/);
  assert.match(printed.out, /"ram_gib": 32,?\n/);        // a GiB field: 32, as typed
  assert.match(printed.out, /"nccl_bytes": 314572800,?\n/);  // runtime.nccl_bytes' default, 300 MiB
  assert.match(printed.out, /"target_utilization": 0\.75,\n/);  // fractions stay as they are
  assert.doesNotMatch(printed.out, /[0-9]\.0[,\n]/);  // no whole number written as N.0
  const again = run(['--config', '-', '--print-config'], printed.out);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out, printed.out);
});

test('--print-config runs the estimate\'s checks: an out-of-range value gets the estimate\'s message, exit 1, no config', () => {
  // Each printed a config as if it were fine (exit 0) while the estimate of the same flags refused it.
  const cases = [
    [['--batch', '0'], 'batch must be a whole number in [1, 1048576] sequences, got 0'],
    [['--seq', '-1'], 'seq must be a whole number in [1, 16777216] tokens, got -1'],
    [['--params', '-7'], 'params_b must be a number greater than 0 and at most 100000 billion, got -7'],
    [['--set', 'target_utilization=2'], 'target_utilization must be a number in [0.05, 1], got 2 (a share of the GPU\'s memory: 0.75 = 75%)'],
    [['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--set', 'inference.context=0'],
      'inference.context must be a whole number in [1, 16777216] tokens, got 0'],
  ];
  for (const [args, message] of cases) {
    const printed = run([...args, '--print-config']);
    const estimated = run(args);
    assert.equal(printed.code, 1, `${args.join(' ')} --print-config: exit ${printed.code}`);
    assert.equal(printed.out, '', 'no config written');
    assert.equal(printed.err, `vramcalc: ${message}\n`);
    assert.equal(printed.err, estimated.err, 'the estimate\'s own message');
    assert.equal(estimated.code, 1);
  }
  // With --format json the error object, as the estimate prints it.
  const j = run(['--batch', '0', '--print-config', '--format', 'json']);
  assert.equal(j.code, 1);
  assert.deepEqual(JSON.parse(j.out), { ok: false, error: { field: 'batch', message: 'batch must be a whole number in [1, 1048576] sequences, got 0' } });
  // A config that does not fit the GPU is no error: it is printed.
  const big = run(['--method', 'detailed', '--task', 'training', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb', '--print-config']);
  assert.equal(big.code, 0, big.err);
  assert.equal(JSON.parse(big.out).model.preset, 'llama-3.1-70b');
});

test('--print-config keeps a model given as a count with a context window (issue 16: it was dropped)', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--gpu', 'h100-80gb', '--set', 'model.params_b=7',
    '--set', 'model.context_limit=8192', '--set', 'inference.context=131072',
    // vLLM refuses 131,072 above the 8,192-token window unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
    '--set', 'inference.vllm.allow_long_max_model_len=true'];
  const printed = run([...args, '--print-config']);
  assert.equal(printed.code, 0, printed.err);
  const cfg = JSON.parse(printed.out);
  assert.equal(cfg.model.context_limit, 8192);
  assert.equal(cfg.model.params_b, 7);
  assert.equal(cfg.inference.vllm.allow_long_max_model_len, true);
  const again = JSON.parse(run(['--config', '-', '--format', 'json'], printed.out).out);
  const direct = JSON.parse(run([...args, '--format', 'json']).out);
  assert.equal(again.total_bytes, direct.total_bytes);
  assert.deepEqual(again.notes, direct.notes);  // the context-window note included
});

test('text input: a name over 256 bytes or with a line break is refused, naming the field', () => {
  const long = run(['--preset', 'llama-3.1-8b', '--set', `model.name=${'x'.repeat(300)}`]);
  assert.equal(long.code, 1);
  // The message begins with the field's name: it is not said twice.
  assert.match(long.err, /^vramcalc: model\.name must be at most 256 bytes of text, got 300\n$/);
  const ok = run(['--preset', 'llama-3.1-8b', '--set', `model.name=${'x'.repeat(256)}`]);
  assert.equal(ok.code, 0, ok.err);
  const line = run(['--preset', 'llama-3.1-8b', '--set', 'model.name=x\n# Injected heading']);
  assert.equal(line.code, 2);
  assert.match(line.err, /model\.name must be one line of text/);
  // Invalid UTF-8 in a config file: not JSON (nlohmann-json's reader refuses it), no crash.
  const bytes = run(['--config', '-'], Buffer.from([0x7b, 0x22, 0x67, 0x70, 0x75, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
  assert.equal(bytes.code, 1);
  // The 9th byte, 0xff, stops it (column 9); it is quoted as U+FFFD, so the message is valid UTF-8.
  assert.equal(bytes.err, "vramcalc: config: the config is not valid JSON: line 1, column 9: syntax error while parsing value - " +
    "invalid string: ill-formed UTF-8 byte; last read: '\"\ufffd'\n");
});

test('an unknown --gpu is refused for training as for serving, naming the nearest ids', () => {
  // The quick method (the default) printed its table with no row for "h100", as if the id were fine.
  const r = run(['--preset', 'llama-3.1-8b', '--gpu', 'h100']);
  assert.equal(r.code, 1);
  assert.equal(r.err, 'vramcalc: gpu "h100" is not in the catalog (vramcalc --list-gpus), or give inference.gpu_custom; ' +
    'did you mean h100-80gb or h100-nvl-94gb?\n');
  assert.equal(run(['--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb']).code, 0);
});

test('--list-gpus and --version', () => {
  const g = run(['--list-gpus']);
  assert.equal(g.code, 0);
  assert.match(g.out, /a100-80gb/);
  assert.match(g.out, /GiB/);
  assert.match(run(['--version']).out, /vramcalc \d+\.\d+\.\d+ \(config schema 1\)/);
});

test('listings as JSON: GPUs with their figures and sources, presets, questions (in any flag order)', () => {
  const gpus = JSON.parse(run(['--list-gpus', '--format', 'json']).out);
  const h100 = gpus.find((g) => g.id === 'h100-80gb');
  assert.equal(h100.memory_bytes, 81559 * 2 ** 20);  // nvidia-smi total 81559 MiB
  assert.equal(h100.bandwidth_gbps, 3350);
  assert.match(h100.source, /datasheet/);
  const presets = JSON.parse(run(['--format', 'json', '--list-presets']).out);
  const llama = presets.find((p) => p.id === 'llama-3.1-8b');
  assert.equal(llama.params_b, 8.030261248);
  assert.equal(llama.published_params_b, 8.03);
  assert.equal(llama.architecture.context_limit, 131072);
  assert.equal(llama.architecture.checkpoint_dtype, 'bf16', 'config.json torch_dtype bfloat16');
  assert.equal(llama.architecture.kv_heads, 8);
  const questions = JSON.parse(run(['--list-questions', '--format', 'json']).out);
  assert.equal(questions.find((q) => q.id === 'max_context').tasks, 'inference');
  assert.equal(questions.find((q) => q.id === 'max_batch').tasks, 'training,finetune');
  const solveList = run(['solve', '--list-questions']);
  assert.equal(solveList.code, 0);
  assert.match(solveList.out, /^max_batch\s+Largest micro-batch that fits\s+training,finetune$/m);
  assert.equal(run(['solve']).code, 2);
});

test('--list-presets shows context windows, checkpoint dtypes and formats, derived and published totals, and docs/models.md lists every preset', () => {
  const r = run(['--list-presets']);
  assert.equal(r.code, 0);
  assert.match(r.out, /llama-3\.1-8b\s.*\s131072\s+bf16\s+-\s+8\.030B\s+8\.030B/);
  assert.match(r.out, /deepseek-v3\s.*\s163840\s+bf16\s+fp8-block\s+671\.026B\s+671\.000B/);
  assert.match(r.out, /gpt-oss-120b\s.*\s131072\s+-\s+mxfp4\s+116\.829B/);
  assert.match(r.out, /gpt2-xl\s.*\s1024\s+-\s+-\s+1\.558B/, 'no torch_dtype in its config.json');
  assert.match(r.out, /llama-2-7b\s.*\s4096\s+fp16\s+-\s+6\.738B/);
  const docs = readFileSync(new URL('../../docs/models.md', import.meta.url), 'utf8');
  const ids = r.out.trim().split('\n').slice(1).map((line) => line.split(/\s+/)[0]);
  assert.ok(ids.length >= 25);
  for (const line of r.out.trim().split('\n').slice(1)) {
    const id = line.split(/\s+/)[0];
    const [, context, dtype, stored, derived] = line.match(/\s(\d+|-)\s+(bf16|fp16|fp32|-)\s+([\w-]+)\s+([\d.]+)B\s+[\d.]+B$/);
    const row = docs.split('\n').find((l) => l.startsWith('| `' + id + '` |'));
    assert.ok(row, `docs/models.md lacks ${id}`);
    assert.equal(row.split('|')[4].trim(), derived, `docs/models.md derived total of ${id}`);
    assert.equal(row.split('|')[8].trim().replace(/,/g, ''), context, `docs/models.md context window of ${id}`);
    assert.equal(row.split('|')[9].trim(), dtype, `docs/models.md checkpoint dtype of ${id}`);
    assert.equal(row.split('|')[10].trim(), stored, `docs/models.md checkpoint format of ${id}`);
  }
});

test('batch: one JSON result per config line, errors in place, answers with --solve', () => {
  const lines = [
    '{"method":"quick","params_b":7,"precision":"fp16","optimizer":"adamw-mixed","batch":4,"seq":2048}',
    '{"method":"quick","params_b":-1}',
    '{"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"h100-80gb"}',
  ];
  const r = run(['batch', '-', '--solve'], lines.join('\n') + '\n');
  assert.equal(r.code, 0, r.err);
  const out = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(out.length, 3);
  assert.equal(out[0].total_bytes, 255.36e9);  // the quick worked example: 14 + 14 + 84 + 143.36 GB
  assert.ok(out[0].solve.max_batch, 'training questions are answered');
  assert.equal(out[0].solve.max_context, undefined, 'inference questions are not');
  assert.equal(out[1].ok, false);
  assert.equal(out[1].error.field, 'params_b');
  assert.ok(out[2].solve.max_context.ok);
  assert.equal(run(['batch']).code, 2);
});

test("no --task with only inference flags: the inference task, and an engine's own flag names the engine (not an estimate that drops them)", () => {
  const r = run(['--preset', 'llama-3.1-8b', '--engine', 'llama.cpp', '-c', '8192', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.method, 'detailed');
  assert.equal(j.task, 'inference');
  // 8,192 cells x 32 layers x 2 (K, V) x 8 KV heads x 128 x 2 B = 1 GiB
  assert.equal(j.breakdown.kv_cache, 8192 * 32 * 2 * 8 * 128 * 2);
  // llama-server's -ngl alone names the llama.cpp engine: -ngl 16 is the output layer and 15 of 32
  // layers (llama.cpp PR #18148), their KV 4,096 cells x 15 layers x 2 x 8 KV heads x 128 x 2 B = 240 MiB
  const local = JSON.parse(run(['--preset', 'llama-3.1-8b', '-ngl', '16', '--weights', 'q4_k_m', '--gpu', 'rtx-4090-24gb', '--format', 'json']).out);
  assert.equal(local.task, 'inference');
  assert.equal(local.breakdown.kv_cache, 4096 * 15 * 2 * 8 * 128 * 2);
  assert.match(local.launch_command, /^llama-server .*-ngl 16/);
  // a training flag beside them keeps the default task
  const t = JSON.parse(run(['--preset', 'llama-3.1-8b', '-c', '8192', '--set', 'training.recompute="full"', '--format', 'json']).out);
  assert.equal(t.task, 'training');
});

test('batch and validate: --help prints the usage (exit 0), an unknown option is named (exit 2)', () => {
  for (const cmd of ['batch', 'validate']) {
    const help = run([cmd, '--help']);
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, new RegExp(`^usage: vramcalc ${cmd} FILE`));
    const bad = run([cmd, '--bogus', 'x']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, new RegExp(`vramcalc: ${cmd}: unknown option --bogus`));
  }
});

test('the quick rule by default: with a model architecture, a note gives the detailed model total', () => {
  const quick = JSON.parse(run(['--preset', 'llama-3.1-8b', '--format', 'json']).out);
  const detailed = JSON.parse(run(['--preset', 'llama-3.1-8b', '--method', 'detailed', '--format', 'json']).out);
  assert.equal(quick.method, 'quick');
  const gb = (detailed.total_bytes / 1e9).toFixed(2);
  assert.ok(quick.notes.includes(`No method named, so this is the quick rule of thumb (docs/methods.md); the detailed model (--method detailed), from this model's architecture, gives ${gb} GB per GPU.`), quick.notes.join('\n'));
  // Named quick, or a parameter count alone (no architecture to size from): no such note.
  for (const args of [['--preset', 'llama-3.1-8b', '--method', 'quick'], ['--params', '7']])
    assert.ok(!JSON.parse(run([...args, '--format', 'json']).out).notes.some((n) => n.startsWith('No method named')), args.join(' '));
});

test('an unknown option: exit 2, one line naming it and the nearest options --help lists', () => {
  const typo = run(['--presets', 'llama-3.1-8b']);
  assert.equal(typo.code, 2);
  assert.equal(typo.err, 'vramcalc: unknown option --presets; did you mean --preset? (vramcalc --help lists every option)\n');
  // A field's flag (the table's) and a hand-written one (-ngl) are both candidates; nothing near: no guess.
  assert.match(run(['--lora-rnk', '4']).err, /did you mean --lora-rank\?/);
  assert.match(run(['plan', '--fit-targt', '3']).err, /did you mean --fit-target\?/);
  assert.equal(run(['--quantisation', 'q4']).err, 'vramcalc: unknown option --quantisation (vramcalc --help lists every option)\n');
  // A text field's value stays the word typed: --gpu 4090 is the id "4090" (not the number), named nearest.
  const gpu = run(['--preset', 'llama-3.1-8b', '--gpu', '4090']);
  assert.equal(gpu.code, 1);
  assert.match(gpu.err, /gpu "4090" is not in the catalog .*; did you mean rtx-4090-24gb or rtx-4090-laptop-16gb\?/);
  assert.match(run(['--preset', 'llama-3.1-8b', '--gpu', 'm2-max-64gb']).err, /did you mean apple-m2-max-64gb\?/);
});

test('validate: p90, within 10%, verdicts; several files as one; --cv table', () => {
  const dir = new URL('../calibration/', import.meta.url).pathname;
  const files = [join(dir, 'measured.csv'), join(dir, 'extra.csv')];
  const one = run(['validate', files[0]]);
  assert.equal(one.code, 0, one.err);
  assert.match(one.out, /compared 30 rows \(1 skipped\): median \|error\| \d\.\d%, p90 \d\.\d%, worst \d+\.\d% \(C\d+\); within 10%: \d+ of 30; fits\/OOM verdicts right 18 of 18/);
  assert.match(one.out, /C07 .*not scored against itself/);
  const both = run(['validate', ...files, '--cv']);
  assert.equal(both.code, 0, both.err);
  assert.match(both.out, /compared 114 rows/);
  // X72, Liger's Hugging Face example with --use_liger True (training.liger from the note): Llama-3-8B, FSDP on 4 A100s,
  // 32 x 512 tokens, Peak Allocated 37,925 MiB read off its chart. Under accelerate's FSDP MixedPrecision the stream is
  // BF16 (+4.6% with autocast's FP32 stream); the peak is now the optimizer step: FP32 params, AdamW moments and
  // gradients, 8.03e9 x (4 + 8 + 4) / 4 GPUs, and foreach AdamW's 4 B a local parameter.
  assert.match(both.out, /X72\s+full_ft\s+Llama-3-8B\s+alloc\s+37925\.00 MiB 38299\.39 MiB\s+\+1\.0%/);
  // X71, the same run without Liger: +17.5% with the FP32 stream.
  assert.match(both.out, /X71\s+full_ft\s+Llama-3-8B\s+alloc\s+53962\.00 MiB 58678\.92 MiB\s+\+8\.7%/);
  // X62, optimum's GPTQ --prefill row at batch 16 (512 + 1 tokens): generate runs the prefill alone,
  // no decode step (+28.7% when the legacy cache's second copy was counted).
  assert.match(both.out, /X62\s+inference\s+Llama-2-13B\s+smi\s+18\.10 GB\s+17\.38 GB\s+-4\.0%/);
  // X20, a vLLM V1 log's "GPU KV cache size: 1,215,552 tokens", compared in tokens.
  // Its note names the FlashInfer sampler (14 B per logit in the profile, inference.vllm.sampler).
  assert.match(both.out, /X20\s+serve\s+Llama-3.2-1B\s+vllm\s+1215552 tokens 1212256 tokens\s+-0\.3%/);
  assert.match(both.out, /vLLM non-torch 0\.13 GiB, 10 B per token logit\s+C30\s+16: .*15: median 3\.1%, p90 24\.8% \(X15,.*,X29\)/);
  // X13, a bare context on an RTX 3090 (82 SMs x 1536 threads): 8,480,768 + 1986 x 82 x 1536 B =
  // 258,621,440 B = 246.64 MiB against 256 MiB measured.
  assert.match(both.out, /X13\s+context\s+none\s+smi\s+256\.00 MiB\s+246\.64 MiB\s+-3\.7%/);
  assert.match(both.out, /CUDA driver 962 B per thread, bare context 8\.1 MiB\s+X12\s+3: median 3\.7%.*2: median 4\.3%, p90 4\.9% \(X13,X14\)/);
  assert.match(both.out, /CUDA context, eager loading 1343 MiB\s+C07\s+.*\(C01,X53,X54,X55,X56\)/);
  // LitGPT's resource tables judge its loss constant: |errors| 2.3, 3.3, 2.5, 4.9, 5.5% (X42 and
  // X44 are OOMs, verdicts only): median 3.3%, p90 (nearest rank, the 5th of 5) 5.5%.
  assert.match(both.out, /X42\s+lora\s+Llama-2-7B\s+alloc\s+OOM\s+42\.71 GB\s+\+0\.0%\s+OOM right a100-40gb/);
  // Since the tenth pass also on the resource tables' six QLoRA rows X88-X93 (11 scored, 2 OOM verdicts).
  assert.match(both.out, /LitGPT loss 14 B per logit .*11: median 4\.9%, p90 9\.7% \(X40,X41,X42,X43,X44,X45,X46,X88,X89,X90,X91,X92,X93\)/);
  // Every fitted constant is judged on rows of a source it was not fitted on (issue 12).
  assert.doesNotMatch(both.out, /not evidence/);
  assert.equal(run(['validate', files[0], new URL(import.meta.url).pathname]).code, 2);
});

test('quick method past 1,048,576 GPUs: none fits (the count no longer overflows into "fits on one", issue 16)', () => {
  const r = run(['--method', 'quick', '--params', '100000', '--batch', '1048576', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  for (const f of j.fits) {
    assert.equal(f.gpus_needed, 0, f.gpu);
    assert.equal(f.fits, false, f.gpu);
  }
  const t = run(['--method', 'quick', '--params', '100000', '--batch', '1048576']);
  assert.match(t.out, /A100 80GB.*- needed.*does not fit/);
});

test('--gpus 0 or 1.5: every method refuses it with gpus\'s range (the quick method took it silently)', () => {
  // The field table's gpus: a whole number in [1, 1048576] GPUs, the range --help prints.
  const msg = (got) => `vramcalc: gpus must be a whole number in [1, 1048576] GPUs, got ${got}\n`;
  for (const method of [['--method', 'quick', '--params', '70'], ['--method', 'guide', '--params', '70'],
    ['--method', 'detailed', '--preset', 'llama-2-7b'], ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-2-7b']]) {
    for (const got of ['0', '1.5']) {
      const r = run([...method, '--gpus', got]);
      assert.equal(r.code, 1, `${method.join(' ')} --gpus ${got}: ${r.out}`);
      assert.equal(r.err, msg(got));
    }
  }
  // --print-config refuses it as the estimate does (it wrote a config that was refused when read back).
  const cfg = run(['--method', 'quick', '--params', '70', '--gpus', '1.5', '--print-config']);
  assert.equal(cfg.code, 1);
  assert.equal(cfg.out, '');
  assert.equal(cfg.err, msg('1.5'));
  const back = run(['--config', '-', '--format', 'json'], JSON.stringify({ method: 'quick', params_b: 70, gpus: 1.5 }));
  assert.equal(back.code, 1);
  assert.deepEqual(JSON.parse(back.out).error, { field: 'gpus', message: 'gpus must be a whole number in [1, 1048576] GPUs, got 1.5' });
  // A whole count in range still runs: 70e9 x (2 + 2 + 12) B = 1120 GB states (the count only sizes the guide's share).
  const ok = run(['--method', 'quick', '--params', '70', '--gpus', '8', '--format', 'json']);
  assert.equal(ok.code, 0, ok.err);
  assert.equal(JSON.parse(ok.out).breakdown.weights + JSON.parse(ok.out).breakdown.gradients + JSON.parse(ok.out).breakdown.optimizer, 1120e9);
});

test('a typed flag the method or task never reads is named in a note, not dropped without a word', () => {
  const notes = (args) => {
    const r = run([...args, '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out).notes.filter((n) => n.endsWith(': ignored')).sort();  // by path
  };
  const serve = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp'];
  // Detailed serving reads -np and -c (inference.concurrency, inference.context), not the training run's batch and seq:
  // the bytes are those of 1 x 4096 tokens either way (KV 4096 x 131072 B = 0.50 GiB).
  assert.deepEqual(notes([...serve, '--batch', '4', '--seq', '8192']), [
    'batch is the training run\'s; detailed inference reads inference.concurrency: ignored',
    'seq is the training run\'s; detailed inference reads inference.context: ignored']);
  const plain = JSON.parse(run([...serve, '--format', 'json']).out);
  assert.equal(JSON.parse(run([...serve, '--batch', '4', '--format', 'json']).out).total_bytes, plain.total_bytes);
  // The quick method's precision and optimizer, and a typed count beside a preset, with the detailed method.
  const train = ['--method', 'detailed', '--task', 'training', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb'];
  assert.deepEqual(notes([...train, '--precision', 'fp32', '--optimizer', 'sgd', '--params', '70']), [
    'optimizer is the quick method\'s; method is detailed (training.optimizer): ignored',
    'params_b is a typed count for the rules of thumb; method is detailed (the architecture of llama-3.1-8b): ignored',
    'precision is the quick method\'s; method is detailed (training.precision): ignored']);
  // The bytes are the architecture's: 8.03e9 parameters either way.
  const counted = JSON.parse(run([...train, '--params', '70', '--format', 'json']).out);
  assert.equal(counted.metrics.params.value, 8030261248);
  // The detailed method's sections with a rule of thumb.
  assert.deepEqual(notes(['--method', 'quick', '--params', '7', '--set', 'training.recompute="full"', '-ngl', '3']), [
    'inference.llamacpp.n_gpu_layers is the detailed method\'s; method is quick: ignored',
    'training.recompute is the detailed method\'s; method is quick: ignored']);
  // Serving's fields with detailed training (-c, -np, --weights); an engine's own section is the document's note.
  assert.deepEqual(notes([...train, '-c', '8192', '-np', '4', '--weights', 'q4_k_m', '-ngl', '3']), [
    'inference.concurrency is serving\'s; task is training: ignored',
    'inference.context is serving\'s; task is training: ignored',
    'inference.llamacpp.n_gpu_layers is llama.cpp\'s; task is training: ignored',
    'inference.weights is serving\'s; task is training: ignored']);
  // A custom GPU is every method's.
  assert.deepEqual(notes(['--method', 'quick', '--params', '7', '--set', 'inference.gpu_custom={"memory_gib": 40}']), []);
  // What each method reads: no note.
  assert.deepEqual(notes([...serve, '-np', '4', '-c', '8192']), []);
  assert.deepEqual(notes([...train, '--batch', '4', '--seq', '8192', '--set', 'training.precision="fp32"']), []);
  assert.deepEqual(notes(['--method', 'quick', '--params', '7', '--precision', 'fp32', '--batch', '4']), []);
});

test('GPUs needed means one thing: training counts the fewest within the target (the solver\'s), the text states the rule', () => {
  // Llama-3.1-8B full fine-tuning, ZeRO-3, on 1 H100: one card does not hold it; the row used to read
  // "- needed" while `solve min_gpus` said how many; now both say the same count.
  const base = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--gpus', '1',
                '--batch', '1', '--seq', '2048', '--set', 'training.sharding="zero3"'];
  const j = JSON.parse(run([...base, '--format', 'json']).out);
  const h100 = j.fits.find((f) => f.gpu === 'h100-80gb');
  const s = JSON.parse(run(['solve', 'min_gpus', ...base, '--format', 'json']).out);
  assert.ok(s.value > 1, JSON.stringify(s));
  assert.equal(h100.gpus_needed, s.value);
  assert.equal(h100.fits, false);
  const t = run(base);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /GPUs \(needed: the fewest of each type at which each GPU is within the 75% target/);
  assert.match(t.out, new RegExp(`H100 80GB.*\\s${s.value} needed.*does not fit`));
  // The quick rule keeps its published whole-card count, and says so.
  assert.match(run(WORKED).out, /GPUs \(needed: the quick rule's own count.*the whole card, no headroom target/);
});

test('a Mac is one machine: no count of Macs, the row names the Mac that would hold it (text and JSON)', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--engine', 'llama.cpp', '--weights', 'q8_0',
                '--gpu', 'apple-m2-max-96gb'];
  const j = JSON.parse(run([...args, '--format', 'json']).out);
  for (const f of j.fits.filter((x) => x.gpu.startsWith('apple-'))) assert.ok(f.gpus_needed <= 1, `${f.gpu}: ${f.gpus_needed}`);
  const m2 = j.fits.find((f) => f.gpu === 'apple-m2-max-96gb');
  assert.equal(m2.gpus_needed, 0);
  assert.ok(m2.mac_needed_bytes > 96 * 2 ** 30, JSON.stringify(m2));
  const gib = Math.round(m2.mac_needed_bytes / 2 ** 30);
  assert.match(run(args).out, new RegExp(`Apple M2 Max 96GB\\s+- needed.*one Mac: needs a Mac with >= ${gib} GiB`));
});

test('--list-presets has Llama-4 Scout and Maverick: their derived totals, llama.cpp\'s counts, context windows, BF16', () => {
  const r = run(['--list-presets']);
  assert.equal(r.code, 0);
  assert.match(r.out, /llama-4-scout\s.*\s10485760\s+bf16\s+-\s+107\.770B\s+107\.770B/);
  assert.match(r.out, /llama-4-maverick\s.*\s1048576\s+bf16\s+-\s+400\.712B\s+400\.710B/);
  const j = JSON.parse(run(['--list-presets', '--format', 'json']).out);
  const scout = j.find((p) => p.id === 'llama-4-scout');
  assert.ok(scout, 'llama-4-scout listed');
  assert.equal(scout.family, 'Llama');
});
