// CLI tests for local inference with llama.cpp: llama-server's flags (-ngl, -c, -np, -ctk/-ctv,
// -fa, --n-cpu-moe, --cpu-moe, -ot / --override-tensor, -ts, --mmproj, --draft, --draft-max / --draft-min / --draft-acceptance, --ram-gib, --profile) set
// the same config fields a JSON config does, the launch command reads back through them, and the
// per-device buffers are the ones a user checks against llama.cpp's start-up log. Run by ctest (`cli`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';
const MiB = 2 ** 20;
const GiB = 2 ** 30;

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function json(args, input) {
  const r = run([...args, '--format', 'json'], input);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

// Qwen3-30B-A3B Q4_K_M on one RTX 4090 (the example), as flags and as a config.
// Its q/k norms (48 layers x 2 x 128 F32 values, 1 KiB a layer) are in the model buffers since the
// presets count them (+0.03 MiB on CUDA0 at -ngl 30; the draft Qwen3-8B's 36 KiB in "other").
const BASE = ['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-30b-a3b', '--gpu', 'rtx-4090-24gb',
  '--engine', 'llama.cpp', '--weights', 'q4_k_m'];
const CONFIG = {
  method: 'detailed', task: 'inference', model: { preset: 'qwen3-30b-a3b' }, gpu: 'rtx-4090-24gb',
  inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192, llamacpp: { n_gpu_layers: 30 } },
};
const mib = (d, k) => d[`${k}_bytes`] / MiB;

// -ngl 30 takes the output layer first (llama.cpp PR #18148): output.weight Q6_K 151,936 x 2,048 x
// 210 / 256 B (243.43 MiB) and layers 19-47 on the GPU, layers 0-18 in system RAM.
test('-ngl 30 -c 8192: CUDA0 11,889 MiB and CUDA_Host 7,385 MiB, the same as the JSON config; the launch command', () => {
  const flags = json([...BASE, '-ngl', '30', '-c', '8192']);
  const config = json(['--config', '-'], JSON.stringify(CONFIG));
  assert.deepEqual(flags.devices, config.devices);
  assert.equal(flags.launch_command, config.launch_command);
  assert.equal(flags.launch_command, 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 8192 -ngl 30 -fa on');
  const [gpu, host] = flags.devices;
  assert.equal(gpu.device, 'CUDA0');
  assert.equal(gpu.host, false);
  assert.ok(Math.abs(mib(gpu, 'model') - 10659.15) < 0.01, `CUDA0 model ${mib(gpu, 'model')}`);
  assert.equal(mib(gpu, 'kv'), 464);   // 29 of 48 layers x 8192 cells x 2 x 4 heads x 128 x 2 B
  // The CUDA context on the RTX 4090 (core/catalog/cuda_context.hpp): 97,599,488 B of framework +
  // (1024 + 962) B x 128 SMs x 1536 threads = 488,062,976 B, 465.45 MiB.
  assert.ok(Math.abs(mib(gpu, 'total') - 11889.35) < 0.01);
  assert.equal(host.device, 'CUDA_Host');
  assert.equal(host.host, true);
  assert.equal(mib(host, 'kv'), 304);  // the other 19 layers
  assert.ok(Math.abs(mib(host, 'total') - 7384.77) < 0.01);
  // Table output: the same figures as llama.cpp logs them, and the command.
  const t = run([...BASE, '--ngl', '30', '--ctx', '8192']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /CUDA0\s+10659\.15\s+464\.00\s+300\.75\s+465\.45\s+11889\.35/);
  assert.match(t.out, /Launch: llama-server -m qwen3-30b-a3b-Q4_K_M\.gguf -c 8192 -ngl 30 -fa on\n/);
});

test('without --method, llama-server\'s flags run the detailed model, not the rule of thumb that would drop them', () => {
  // The same run as above with --method left out: -ngl and -c set inference fields, which only the
  // detailed model reads, so the buffers are the same; --method quick still gives the rule of thumb.
  const args = BASE.filter((a, i) => a !== '--method' && BASE[i - 1] !== '--method');
  const implicit = json([...args, '-ngl', '30', '-c', '8192']);
  const explicit = json([...BASE, '-ngl', '30', '-c', '8192']);
  assert.equal(implicit.method, 'detailed');
  assert.deepEqual(implicit.devices, explicit.devices);
  assert.equal(implicit.total_bytes, explicit.total_bytes);
  const quick = json([...args, '-ngl', '30', '-c', '8192', '--method', 'quick']);
  assert.equal(quick.method, 'quick');
  // Only the shared fields: the quick rule stays the default (7B FP16 AdamW mixed, batch 1, seq 2048:
  // 14 + 14 + 84 + 0.0025 x 2048 x 7e9 = 35.84 GB of activations, 147.84 GB).
  const bare = json(['--params', '7']);
  assert.equal(bare.method, 'quick');
  assert.equal(bare.total_bytes, 147.84e9);
});

test('-c is the context of all slots: -c 32768 -np 4 gives 8,192 tokens each, as llama-server does', () => {
  const r = run([...BASE, '-c', '32768', '-np', '4', '--print-config']);
  assert.equal(r.code, 0, r.err);
  const cfg = JSON.parse(r.out);
  assert.equal(cfg.inference.context, 8192);
  assert.equal(cfg.inference.concurrency, 4);
  assert.match(json([...BASE, '-c', '32768', '-np', '4']).launch_command, / -c 32768 -np 4 /);
  const bad = run([...BASE, '-c', '3', '-np', '4']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /-c 3 gives each of the 4 slots/);
});

test('the launch command\'s flags read back: the same command and the same buffers', () => {
  const first = json([...BASE, '-c', '32768', '-np', '4', '-ctk', 'q8_0', '-ctv', 'q8_0', '--n-cpu-moe', '20', '--mmproj', 'clip-vit-l-14-336',
    '--draft', 'qwen3-8b']);
  assert.equal(first.launch_command, 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 32768 -np 4 -ngl 49 -fa on -ctk q8_0 -ctv q8_0 --n-cpu-moe 20 '
    + '--mmproj mmproj-clip-vit-l-14-336.gguf -md qwen3-8b-Q8_0.gguf -ngld 99');
  // Everything after "-m FILE" up to the projector's and draft's files is vramcalc's own flags.
  const words = first.launch_command.split(' ');
  const own = words.slice(3, words.indexOf('--mmproj'));
  const again = json([...BASE, ...own, '--mmproj', 'clip-vit-l-14-336', '--draft', 'qwen3-8b']);
  assert.equal(again.launch_command, first.launch_command);
  assert.deepEqual(again.devices, first.devices);
  // q8_0 KV: 34 bytes per 32 values; 4 slots x 8192 cells over the 48 layers, all on the GPU.
  const [gpu, host] = first.devices;
  assert.equal(mib(gpu, 'kv'), 1632);  // 32768 x 48 x 2 x 512 values x 34/32 B = 1632 MiB
  assert.equal(host.kv_bytes, 0);
  // The projector and the draft model are the GPU's "other" (13,677 MiB with the 465 MiB CUDA context). The
  // draft's KV is F16 whatever -ctk says (llama-server's -ctkd default): Qwen3-8B's 36 layers x 8 heads
  // x 128 x 2 x 2 B x 32768 cells = 4608 MiB (it was 2448 MiB in q8_0 before: +2160 MiB).
  assert.ok(Math.abs(mib(gpu, 'other') - 13676.72) < 0.01, `other ${mib(gpu, 'other')}`);
});

test('-ts 3,1 over two RTX 4090s: layers split 3:1, the three model buffers add up to the file', () => {
  const j = json([...BASE, '--gpus', '2', '-ts', '3,1', '-c', '8192']);
  assert.deepEqual(j.devices.map((d) => d.device), ['CUDA0', 'CUDA1', 'CUDA_Host']);
  const [a, b, host] = j.devices;
  assert.ok(Math.abs(mib(a, 'model') - 13196.37) < 0.01);
  assert.ok(Math.abs(mib(b, 'model') - 4328.05) < 0.01);
  assert.ok(Math.abs((a.model_bytes + b.model_bytes + host.model_bytes) / j.metrics.weights_total_bytes.value - 1) < 1e-9);
  assert.equal(mib(a, 'kv') + mib(b, 'kv'), 768);  // 48 layers x 16 KiB per token... x 8192 cells
  assert.match(j.launch_command, / -ngl 49 -fa on -ts 3,1$/);
  const cfg = JSON.parse(run([...BASE, '--gpus', '2', '--tensor-split', '3,1', '--print-config']).out);
  assert.deepEqual(cfg.inference.llamacpp.tensor_split, [3, 1]);
  // On one GPU the split is refused, by --print-config too (it printed the config as if it were fine).
  const one = run([...BASE, '--tensor-split', '3,1', '--print-config']);
  assert.equal(one.code, 1);
  assert.equal(one.out, '');
  assert.equal(one.err, 'vramcalc: inference.llamacpp.tensor_split has 2 entries; it needs one per GPU (1)\n');
});

test('--profile ollama: Ollama\'s num_ctx by the VRAM (32,768 on a 24 GB card), one request, flash attention as llama.cpp\'s auto', () => {
  const j = json([...BASE, '-ngl', '30', '--profile', 'ollama']);
  assert.equal(j.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 32768; PARAMETER num_gpu 30' +
    '  # automatic num_batch 512: llama-server -b 512 -ub 512');
  assert.equal(mib(j.devices[0], 'kv'), 1856);  // the output and 29 layers: 29 x 32768 cells x 4 KV heads x 128 x 2 x 2 B
  // Below 23 GiB of VRAM: 4,096 tokens (an 8 GB card); 48 GB: 262,144, capped at Qwen3-30B-A3B's 40,960.
  const small = json([...BASE, '--gpu', 'rtx-4060-8gb', '-ngl', '30', '--profile', 'ollama']);
  assert.match(small.launch_command, /PARAMETER num_ctx 4096;/);
  const large = json([...BASE, '--gpu', 'rtx-a6000-48gb', '--profile', 'ollama']);
  assert.match(large.launch_command, /PARAMETER num_ctx 40960  # automatic num_batch 2048: llama-server -b 2048 -ub 2048$/);  // num_gpu left to Ollama
  // A context given (-c) is kept; OLLAMA_FLASH_ATTENTION=0 is -fa off.
  const given = json([...BASE, '-c', '8192', '-fa', 'off', '--profile', 'ollama']);
  assert.match(given.launch_command, /^OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=0 .*PARAMETER num_ctx 8192  # automatic num_batch 512: /);
});

test('--profile ollama without -ngl: Ollama\'s automatic num_gpu (llama-server --fit) puts the output layer and 35 of Llama-3.1-70B\'s 80 layers on an RTX 4090', () => {
  // 24,564 MiB - 465.45 MiB CUDA context - 1,024 MiB --fit-target = 23,074.55 MiB; num_gpu 36: the output
  // layer (821.98 MiB) and 35 layers x (491.99 MiB Q4_K_M + 128 MiB KV at 32,768 tokens) + 428.96 MiB
  // compute = 22,950.55 MiB; 37 adds layer 44 (460.06 MiB) and its KV: 23,538.6 MiB.
  const A = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '--profile', 'ollama'];
  const j = json(A);
  assert.equal(j.metrics.auto_gpu_layers.value, 36);
  // The repeating layers on the GPU, labelled with the -ngl (num_gpu) that places them with the output layer.
  assert.deepEqual(j.metrics.gpu_layers, { label: 'Repeating layers on the GPU (-ngl 36)', unit: 'layers', value: 35 });
  assert.match(run(A).out, /\n {2}Repeating layers on the GPU \(-ngl 36\) +35 layers\n/);
  assert.equal(j.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 32768' +
    '  # automatic num_batch 512: llama-server -b 512 -ub 512');
  assert.equal(mib(j.devices[0], 'kv'), 35 * 128);
  assert.equal(mib(j.devices[1], 'kv'), 45 * 128);
  assert.ok(j.notes.includes('Ollama puts 36 of 81 layers (the output layer and 35 repeating layers) on the GPU (its automatic num_gpu: ' +
    '--fit leaves 1.00 GiB free per GPU); the rest run on the CPU from system RAM: 22.87 GiB on the GPU, 27.76 GiB in system RAM.'), j.notes.join('\n'));
  const own = j.fits.find((f) => f.gpu === 'rtx-4090-24gb');
  assert.equal(own.fits, true);
  // The table says it too; a stated -ngl (num_gpu) wins and is printed; the margin is a constant.
  assert.match(run(A).out, /Note: Ollama puts 36 of 81 layers \(the output layer and 35 repeating layers\) on the GPU/);
  assert.match(json([...A, '-ngl', '30']).launch_command, /; PARAMETER num_gpu 30  # automatic num_batch 512: /);
  assert.equal(json([...A, '--set', 'inference.constants.ollama_fit_target_mib=2048']).metrics.auto_gpu_layers.value, 34);
  const bad = run([...A, '--set', 'inference.constants.ollama_fit_target_mib=-1']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.constants\.ollama_fit_target_mib/);
});

test('--profile ollama without -ub: Ollama\'s automatic num_batch for Llama-3.1-8B, 1,024 at -c 8192 and 2,048 at 65,536 on an RTX 4090, 512 on 8 GB', () => {
  // Ollama's prediction: the GGUF file (4,912,898,048 B) + 131,072 B of F16 KV per token; the RTX 4090
  // has 24,564 - 465.45 = 24,098.55 MiB free. 8,192 tokens: 5,709.34 MiB, within 75% with 768 MiB more
  // within 80%: 1,024. 65,536 tokens: 12,877.34 MiB, within 60% with 2 GiB more within 80%: 2,048.
  const A = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--engine', 'llama.cpp', '--weights', 'q4_k_m', '--profile', 'ollama'];
  const j = json([...A, '--gpu', 'rtx-4090-24gb', '-c', '8192']);
  assert.equal(j.metrics.auto_num_batch.value, 1024);
  assert.equal(j.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 8192' +
    '  # automatic num_batch 1024: llama-server -b 1024 -ub 1024');
  assert.equal(mib(j.devices[0], 'compute'), 517);  // (128,256 + 4,096) x 1,024 x 4 B of F32 logits
  assert.ok(j.notes.some((n) => n.startsWith('Ollama\'s automatic num_batch is 1024, passed to llama-server as -b and -ub')), j.notes.join('\n'));
  const long = json([...A, '--gpu', 'rtx-4090-24gb', '-c', '65536']);
  assert.equal(long.metrics.auto_num_batch.value, 2048);
  assert.equal(mib(long.devices[0], 'compute'), 1088);  // masks 512 + 256, hidden 32, FFN 288 MiB at 2,048 tokens
  // 8 GB: 7.84 GiB free; 5,709.34 MiB + 768 MiB is over 80% (6,423.28 MiB): 512; flash attention off: 256.
  assert.equal(json([...A, '--gpu', 'rtx-4060-8gb', '-c', '8192']).metrics.auto_num_batch.value, 512);
  assert.equal(json([...A, '--gpu', 'rtx-4060-8gb', '-c', '8192', '-fa', 'off']).metrics.auto_num_batch.value, 256);
  // -ub given is num_batch: kept, printed, no automatic metric; a constant changes the rule.
  const pinned = json([...A, '--gpu', 'rtx-4090-24gb', '-c', '65536', '-ub', '512']);
  assert.equal(pinned.metrics.auto_num_batch, undefined);
  assert.match(pinned.launch_command, /; PARAMETER num_batch 512$/);
  assert.equal(json([...A, '--gpu', 'rtx-4090-24gb', '-c', '65536', '--set', 'inference.constants.ollama_batch_large_headroom=0.5'])
    .metrics.auto_num_batch.value, 1024);
  const bad = run([...A, '--gpu', 'rtx-4090-24gb', '--set', 'inference.constants.ollama_batch_fit_share=2']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.constants\.ollama_batch_fit_share/);
});

test('vLLM on a Mac is refused naming the engine and the machine; llama.cpp runs there', () => {
  const r = run(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--engine', 'vllm', '--gpu', 'apple-m4-max-128gb']);
  assert.equal(r.code, 1);
  assert.match(r.err, /^vramcalc: inference\.engine "vllm" has no Metal backend for the Apple M4 Max 128GB: vLLM on macOS runs on the CPU/);
  assert.equal(run(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--engine', 'llama.cpp', '--gpu', 'apple-m4-max-128gb']).code, 0);
  // On an H100 the table's Mac rows hold nothing, and each row and the rule say why: the engine, not
  // a size (no "no Mac in the catalog holds it", no mac_needed_bytes), and no note in every result.
  const h = json(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--engine', 'vllm', '--gpu', 'h100-80gb']);
  const macs = h.fits.filter((f) => f.gpu.startsWith('apple-'));
  assert.ok(macs.length > 10);
  for (const f of macs)
    assert.deepEqual(f, { fits: false, gpu: f.gpu, gpus_needed: 0, no_backend: true, utilization: 0, within_target: false });
  assert.ok(h.fits.filter((f) => !f.gpu.startsWith('apple-')).every((f) => !('no_backend' in f)));
  assert.ok(h.notes.every((n) => !/Mac/.test(n)), JSON.stringify(h.notes));
  const text = run(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--engine', 'vllm', '--gpu', 'h100-80gb']).out;
  assert.match(text, /a Mac holds none: vLLM has no Metal backend/);
  assert.match(text, /\n  Apple M1 16GB +- needed +0\.0% of one +does not fit; vLLM has no Metal backend\n/);
  assert.doesNotMatch(text, /no Mac in the catalog holds it|Note: Macs/);
});

test('llama-server without -ngl: its default --fit puts 42 of Llama-3.1-70B\'s 81 layers on an RTX 4090 at -c 8192; --fit off, --fit-target', () => {
  // 24,564 MiB - 465.45 MiB CUDA context - 1,024 MiB --fit-target = 23,074.55 MiB; -ngl 42: the output
  // layer and layers 39-79, 20,919.59 MiB + 41 x 32 MiB KV + 356.96 MiB compute = 22,588.55 MiB; -ngl 43
  // adds layer 38 and its KV, 492.06 MiB.
  const A = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '-c', '8192'];
  const j = json(A);
  assert.equal(j.metrics.auto_gpu_layers.value, 42);
  assert.equal(j.metrics.auto_gpu_layers.label, "llama-server's --fit (-ngl)");
  assert.equal(mib(j.devices[0], 'kv'), 41 * 32);
  assert.equal(mib(j.devices[1], 'kv'), 39 * 32);
  assert.equal(j.launch_command, 'llama-server -m llama-3.1-70b-Q4_K_M.gguf -c 8192 -fa on');  // -ngl left to --fit
  assert.ok(j.notes.includes("llama-server's --fit puts 42 of 81 layers (the output layer and 41 repeating layers) on the GPU (-ngl unset: " +
    '--fit leaves 1.00 GiB free per GPU); the rest run on the CPU from system RAM: 22.51 GiB on the GPU, 20.47 GiB in system RAM.'), j.notes.join('\n'));
  // An older build (--set inference.llamacpp.output_first=false): the last 42 layers, the old note.
  const old = json([...A, '--set', 'inference.llamacpp.output_first=false']);
  assert.equal(old.metrics.auto_gpu_layers.value, 42);
  assert.equal(mib(old.devices[0], 'kv'), 42 * 32);
  assert.ok(old.notes.includes("llama-server's --fit puts 42 of 80 layers on the GPU (-ngl unset: --fit leaves 1.00 GiB free per GPU); " +
    'the rest run on the CPU from system RAM: 22.91 GiB on the GPU, 20.79 GiB in system RAM.'), old.notes.join('\n'));
  assert.equal(j.fits.find((f) => f.gpu === 'rtx-4090-24gb').fits, true);
  // The command reads back to the same split.
  const back = json([...A.slice(0, 12), ...j.launch_command.split(' ').slice(3)]);
  assert.equal(back.metrics.auto_gpu_layers.value, 42);
  // --fit-target (MiB, llama-server's -fitt) is the constant Ollama's fit uses: 2,048 MiB leaves -ngl 41.
  assert.equal(json([...A, '-fitt', '2048']).metrics.auto_gpu_layers.value, 41);
  assert.equal(json([...A, '--set', 'inference.constants.ollama_fit_target_mib=2048']).metrics.auto_gpu_layers.value, 41);
  // --fit off (or a release before it): every layer and the output layer, printed as -ngl 81; it does not fit.
  const off = json([...A, '--fit', 'off']);
  assert.equal(off.metrics.auto_gpu_layers, undefined);
  assert.equal(off.metrics.gpu_layers.value, 80);
  assert.equal(off.launch_command, 'llama-server -m llama-3.1-70b-Q4_K_M.gguf -c 8192 -ngl 81 -fa on');
  assert.equal(off.fits.find((f) => f.gpu === 'rtx-4090-24gb').fits, false);
  const bad = run([...A, '--fit', 'maybe']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--fit needs on or off/);
});

test('host flags: --ram-gib, --ddr and --channels, --host-bandwidth-gbps set inference.host', () => {
  const cfg = JSON.parse(run([...BASE, '--ram-gib', '32', '--ddr', 'ddr5-5600', '--channels', '2', '--print-config']).out);
  assert.equal(cfg.inference.host.ram_gib, 32);
  assert.equal(cfg.inference.host.mts, 5600);
  assert.equal(cfg.inference.host.channels, 2);
  // Decode with 18 layers in RAM: measured 40 GB/s is slower than 2 x 8 B x 5600 MT/s x 0.7 = 62.7 GB/s.
  const slow = json([...BASE, '-ngl', '30', '--host-bandwidth-gbps', '40']).metrics.decode_tokens_per_s.value;
  const ddr = json([...BASE, '-ngl', '30', '--ddr', 'ddr5-5600', '--channels', '2']).metrics.decode_tokens_per_s.value;
  assert.ok(slow < ddr, `${slow} < ${ddr}`);
});

test('bad flag values: a usage error or the field named', () => {
  let r = run([...BASE, '-ts', '3,x']);
  assert.equal(r.code, 2);
  assert.match(r.err, /-ts needs numbers separated by commas/);
  r = run([...BASE, '-fa', 'maybe']);
  assert.equal(r.code, 2);
  assert.match(r.err, /-fa needs on, off or auto/);
  r = run([...BASE, '-ngl']);
  assert.equal(r.code, 2);
  r = run([...BASE, '-ctv', 'q4_0', '-fa', 'off']);
  assert.equal(r.code, 1);
  assert.match(r.err, /inference\.llamacpp\.kv_dtype_v/);
  // -ctk alone quantizes K only (V stays f16), which llama.cpp runs without flash attention.
  const k8 = json([...BASE, '-ctk', 'q8_0', '-fa', 'off']);
  assert.match(k8.launch_command, / -fa off -ctk q8_0( |$)/);
  assert.doesNotMatch(k8.launch_command, /-ctv/);
  r = run([...BASE, '--mmproj', 'no-such-projector']);
  assert.equal(r.code, 1);
  assert.match(r.err, /inference\.llamacpp\.mmproj\.preset/);
});

test('--cpu-moe, -cmoe and -ot ".ffn_.*_exps.=CPU": every layer\'s experts in system RAM, as --n-cpu-moe 48', () => {
  const all = json([...BASE, '--n-cpu-moe', '48']);  // Qwen3-30B-A3B has 48 layers, every one MoE
  const cmd = 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 4096 -ngl 49 -fa on --cpu-moe';
  assert.equal(all.launch_command, cmd);  // (--n-cpu-moe N adds one tensor override per layer up to N)
  for (const flags of [['--cpu-moe'], ['-cmoe'], ['-ot', '.ffn_.*_exps.=CPU'], ['--override-tensor', 'exps=CPU']]) {
    const j = json([...BASE, ...flags]);
    assert.deepEqual(j.devices, all.devices, flags.join(' '));
    assert.deepEqual(j.metrics, all.metrics, flags.join(' '));
  }
  // -ot prints itself back, single-quoted for the shell.
  assert.equal(json([...BASE, '-ot', '.ffn_.*_exps.=CPU']).launch_command,
    "llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 4096 -ngl 49 -fa on -ot '.ffn_.*_exps.=CPU'");
  // The experts (128 x 3 matrices of 768 x 2048 per layer: most of the 17.3 GiB) leave the GPU:
  // under 2.5 GiB stays on it (attention, norms, the output layer, KV and compute).
  const [gpu, host] = all.devices;
  assert.ok(gpu.total_bytes < 2.5 * GiB && host.total_bytes > 15 * GiB, JSON.stringify(all.devices.map((d) => d.total_bytes)));
});

test('-ot with layer patterns: the experts of layers 16-47 in RAM (11,650,203,648 B, each layer its own); several -ot add up; errors name the field', () => {
  const base = json(BASE);
  const ot = 'blk\\.(1[6-9]|[23][0-9]|4[0-7])\\.ffn_.*_exps\\.=CPU';
  const j = json([...BASE, '-ot', ot]);
  // Per layer: gate and up 128 x 768 x 2048 x 144/256 B (Q4_K) = 113,246,208 each, down Q6_K
  // 165,150,720 B in the use_more_bits layers (17, 20, ..., 41 and 42-47: 15 of these 32), else Q4_K:
  // 32 x 2 x 113,246,208 + 15 x 165,150,720 + 17 x 113,246,208 = 11,650,203,648 B.
  const near = (a, b) => assert.ok(Math.abs(a - b) < 1, `${a} vs ${b}`);
  near(j.devices[1].model_bytes - base.devices[1].model_bytes, 11650203648);
  near(base.devices[0].model_bytes - j.devices[0].model_bytes, 11650203648);
  assert.equal(j.launch_command, `llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 4096 -ngl 49 -fa on -ot '${ot}'`);
  // One pair per layer, as users often write it (32 pairs, 863 bytes: up to 4096 are read), is the same.
  const perLayer = Array.from({ length: 32 }, (_, i) => `blk\\.${16 + i}\\.ffn_.*_exps\\.=CPU`).join(',');
  assert.equal(perLayer.length, 863);
  assert.deepEqual(json([...BASE, '-ot', perLayer]).devices, j.devices);
  const tooLong = run([...BASE, '-ot', `${perLayer},${perLayer},${perLayer},${perLayer},${perLayer}`]);
  assert.equal(tooLong.code, 1);
  assert.match(tooLong.err, /inference\.llamacpp\.override_tensor must be at most 4096 bytes of text, got 4319/);
  // The printed command reads back (the shell removes the quotes).
  const back = json([...BASE, '-ngl', '49', '-ot', ot]);
  assert.deepEqual(back.devices, j.devices);
  // Two -ot flags join with a comma, as llama.cpp appends each flag's pairs in order.
  const two = run([...BASE, '-ot', 'blk\\.5\\.=CUDA0', '--override-tensor', 'exps=CPU', '--print-config']);
  assert.equal(two.code, 0, two.err);
  assert.equal(JSON.parse(two.out).inference.llamacpp.override_tensor, 'blk\\.5\\.=CUDA0,exps=CPU');
  // Bad input: exit 1 and a message naming the field and what it accepts.
  for (const [value, why] of [['blk\\.(1[6-9]=CPU', /unbalanced parenthesis/], ['exps=CUDA7', /"CUDA7", which this machine does not have .*one of CPU, CUDA0/],
    ['=CPU', /empty pattern/]]) {
    const r = run([...BASE, '-ot', value]);
    assert.equal(r.code, 1, value);
    assert.match(r.err, /inference\.llamacpp\.override_tensor/);
    assert.match(r.err, why);
  }
  assert.equal(run([...BASE, '-ot']).code, 2);  // no value
});

test('-nkvo / --no-kv-offload: every layer\'s KV in system RAM (768 MiB), printed back as -nkvo; -kvo clears it', () => {
  const cmd = 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 8192 -ngl 30 -fa on -nkvo';
  const base = json([...BASE, '-ngl', '30', '-c', '8192']);
  const nkvo = json([...BASE, '-ngl', '30', '-c', '8192', '-nkvo']);
  assert.equal(nkvo.launch_command, cmd);
  const [gpu, host] = nkvo.devices;
  assert.equal(mib(gpu, 'kv'), 0);
  assert.equal(mib(host, 'kv'), 768);  // 48 layers x 8192 cells x 2 x 4 heads x 128 x 2 B (was 480 on CUDA0 + 288 here)
  assert.equal(mib(gpu, 'model'), mib(base.devices[0], 'model'));
  assert.equal(mib(gpu, 'compute'), mib(base.devices[0], 'compute'));  // llama.cpp issue #9302: the GPU's compute buffer is not affected
  // The long spelling, a JSON config and the printed command read back alike.
  const long = json([...BASE, '-ngl', '30', '-c', '8192', '--no-kv-offload']);
  assert.deepEqual(long.devices, nkvo.devices);
  const config = json(['--config', '-'], JSON.stringify({ ...CONFIG, inference: { ...CONFIG.inference, llamacpp: { n_gpu_layers: 30, no_kv_offload: true } } }));
  assert.deepEqual(config.devices, nkvo.devices);
  const back = json([...BASE, ...cmd.split(' ').slice(3)]);
  assert.equal(back.launch_command, cmd);
  assert.deepEqual(back.devices, nkvo.devices);
  // -fa auto with -nkvo: llama.cpp's auto check turns flash attention off (the FA op is on the CPU).
  assert.match(json([...BASE, '-fa', 'auto', '-nkvo']).launch_command, / -fa off -nkvo$/);
  assert.match(json([...BASE, '-fa', 'auto']).launch_command, / -fa on$/);
  // -kvo (llama-server's positive spelling) after -nkvo turns it back off.
  assert.deepEqual(json([...BASE, '-ngl', '30', '-c', '8192', '-nkvo', '-kvo']).devices, base.devices);
  // Ollama's parameters have no such switch.
  const r = run([...BASE, '-nkvo', '--profile', 'ollama']);
  assert.equal(r.code, 1);
  assert.match(r.err, /inference\.llamacpp\.no_kv_offload/);
});

test('--draft-max / --draft-n, --draft-min, --draft-acceptance: the speed with the draft and without, the speed-up, --draft-max in the command', () => {
  // Llama-3.1-8B Q4_K_M drafted by Llama-3.2-1B Q8_0 on an RTX 4090 at -c 8192 (tests/unit/test_llamacpp.cpp
  // has the arithmetic): target step 7.0575 ms (141.69 tokens/s), draft step 1.9614 ms; a = 0.8, g = 16:
  // (1 - 0.8^17) / 0.2 = 4.8874 tokens per 4.8593 x 1.9614 + 7.0575 = 16.5885 ms: 294.63 tokens/s, 2.079x.
  const L8 = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
    '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '8192', '--draft', 'llama-3.2-1b'];
  const j = json([...L8, '--draft-acceptance', '0.8']);
  const near = (v, want) => assert.ok(Math.abs(v / want - 1) < 1e-4, `${v} vs ${want}`);
  near(j.metrics.decode_tokens_per_s.value, 141.69);
  near(j.metrics.decode_tokens_per_s_draft.value, 294.63);
  near(j.metrics.speculative_speedup.value, 2.0793);
  near(j.metrics.speculative_tokens_per_cycle.value, 4.8874);
  assert.match(j.launch_command, / -md llama-3\.2-1b-Q8_0\.gguf -ngld 99$/);  // --draft-max 16 is llama.cpp's default
  assert.ok(j.notes.some((n) => /acceptance 0\.8 assumed/.test(n) && /294\.6 tokens\/s against 141\.7 without the draft \(2\.08x\)/.test(n)));
  // llama-server's spellings set the fields; not the default: printed back.
  const cfg = JSON.parse(run([...L8, '--draft-n', '8', '--draft-min', '2', '--print-config']).out);
  assert.equal(cfg.inference.llamacpp.draft.max_tokens, 8);
  assert.equal(cfg.inference.llamacpp.draft.min_tokens, 2);
  assert.equal(cfg.inference.llamacpp.draft.acceptance, 0.72);
  assert.match(json([...L8, '--draft-max', '8', '--draft-min', '2']).launch_command, / -ngld 99 --draft-max 8 --draft-min 2$/);
  // The table says both speeds; a = 0 gains nothing and says so (110.9 tokens/s: one 1.96 ms draft step per token).
  const table = run([...L8, '--draft-acceptance', '0']);
  assert.equal(table.code, 0, table.err);
  assert.match(table.out, /Decode speed per sequence with the draft +110\.9 tokens\/s/);
  assert.match(table.out, /the draft gives no gain here/);
  // Out of range: the field and its range.
  const bad = run([...L8, '--draft-acceptance', '1.5']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.llamacpp\.draft\.acceptance must be a number in \[0, 1\], got 1\.5/);
  assert.match(run([...L8, '--draft-max', '0']).err, /inference\.llamacpp\.draft\.max_tokens must be a whole number in \[1, 1024\]/);
});

test('the decode note splits the bytes a step reads between the GPU and system RAM (it said "per GPU" for both)', () => {
  // --cpu-moe: every layer's routed experts in RAM. The note's bytes are the step's whole read (GPU + host); the
  // host part is the "Read from system RAM per decode step" metric, the rest the GPU's.
  const d = json([...BASE, '-c', '8192', '--cpu-moe']);
  const note = d.notes.find((n) => n.startsWith('Decode is'));
  const host = d.metrics.host_bytes_per_token.value;
  assert.ok(host > 1e9 && host < 1.2e9, String(host));  // 1.10 GB of experts touched a step
  const m = /^Decode is memory-bandwidth bound on NVIDIA GeForce RTX 4090 24GB and system RAM: ([0-9.e]+) B per step, ([0-9.e]+) B of them from system RAM, and ([0-9.e]+) FLOP \(roofline at 80% bandwidth, 60% compute\)\.$/.exec(note);
  assert.ok(m, note);
  assert.ok(Math.abs(Number(m[2]) - host) / host < 1e-3, `${m[2]} vs ${host}`);
  assert.ok(Number(m[1]) > Number(m[2]));
  // Everything on the GPU (Llama-3.1-8B Q4_K_M, -c 8192): the GPU's bytes alone, as before.
  const g = json(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
    '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '8192']);
  assert.ok(g.notes.includes('Decode is memory-bandwidth bound on NVIDIA GeForce RTX 4090 24GB: 5.691e9 B and 2.036e10 FLOP per step per GPU (roofline at 80% bandwidth, 60% compute).'), g.notes.join('\n'));
});

test('a Mac\'s Metal context: 512 MiB, and its formula says the figure is the flat budget standing in, not an A100 reading', () => {
  const j = json(['--task', 'inference', '--engine', 'llama.cpp', '--preset', 'llama-3.1-8b', '--gpu', 'apple-m1-16gb']);
  const ctx = j.components.find((c) => c.key === 'runtime');
  assert.equal(ctx.label, 'Metal context');
  assert.equal(ctx.bytes, 512 * MiB);  // 0.5 GiB, the flat lazy-loading budget (core/catalog/cuda_context.hpp)
  assert.doesNotMatch(ctx.formula, /A100|SM figures/);
  assert.match(ctx.formula, /512 MiB flat.*Metal.*not measured/);
  // An NVIDIA card keeps its SM-based formula.
  const h = json(['--task', 'inference', '--engine', 'llama.cpp', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb']);
  assert.match(h.components.find((c) => c.key === 'runtime').formula, /SMs x 1536 threads/);
});

test('a Mac the catalog lacks: --set inference.gpu_custom.unified=true gives the catalog Mac\'s answer; the 64 GB Macs are named', () => {
  // Llama-3.1-8B Q8_0 under llama.cpp on the M4 Max 64GB (546 GB/s, 18.4 TF), and on a custom 64 GiB
  // unified machine with the same figures: the same components, metrics and fit.
  const base = ['--method', 'detailed', '--task', 'inference', '--engine', 'llama.cpp', '--preset', 'llama-3.1-8b', '--weights', 'q8_0'];
  const mac = json([...base, '--gpu', 'apple-m4-max-64gb']);
  const custom = json([...base, '--set', 'inference.gpu_custom={"name":"My Mac","memory_gib":64,"bandwidth_gbps":546,"bf16_tflops":18.4}',
    '--set', 'inference.gpu_custom.unified=true']);
  const parts = (j) => j.components.map(({ key, label, bytes }) => ({ key, label, bytes }));  // (formulas name the machine)
  assert.deepEqual(parts(custom), parts(mac));
  assert.deepEqual(custom.metrics, mac.metrics);
  assert.equal(custom.metrics.gpu_working_set_bytes.value, 48 * GiB);  // 64 GiB x 3/4
  const own = custom.fits.find((f) => f.gpu === 'custom');
  const m4 = custom.fits.find((f) => f.gpu === 'apple-m4-max-64gb');
  assert.deepEqual({ ...own, gpu: m4.gpu }, m4);
  // --print-config writes the flag back, and reads it again.
  const printed = run([...base, '--set', 'inference.gpu_custom={"memory_gib":64}', '--set', 'inference.gpu_custom.unified=true', '--print-config']);
  assert.equal(printed.code, 0, printed.err);
  assert.equal(JSON.parse(printed.out).inference.gpu_custom.unified, true);
  // A load the 48 GB Mac does not hold (the guide: 20e9 x 2 B + 50,331,648 B of KV, x 1.15 = 42.89 GiB,
  // over 48 GiB x 75% = 36 GiB) names the 64 GB Macs (64 x 75% = 48 GiB), not the 96 GB M2 Max.
  const guide = ['--method', 'guide', '--task', 'inference', '--params', '20', '--gpu', 'apple-m4-pro-48gb'];
  const g = json(guide);
  assert.equal(g.fits.find((f) => f.gpu === 'apple-m4-pro-48gb').mac_needed_bytes, 64 * GiB);
  assert.match(run(guide).out, /Apple M4 Pro 48GB\s+- needed.*one Mac: needs a Mac with >= 64 GiB \(69 GB\)/);
  // A value that is no boolean is refused, naming the field.
  const bad = run([...base, '--set', 'inference.gpu_custom={"memory_gib":64,"unified":"yes"}']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.err, /inference\.gpu_custom\.unified/);
});

test('an unknown preset or GPU names the nearest ids', () => {
  const p = run(['--preset', 'llama-3.1-8bb']);
  assert.notEqual(p.code, 0);
  assert.match(p.err, /model\.preset "llama-3\.1-8bb" is not a known preset \(see vramcalc --list-presets\); did you mean llama-3\.1-8b\?/);
  const g = run(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090']);
  assert.notEqual(g.code, 0);
  assert.match(g.err, /gpu "rtx-4090" is not in the catalog.*; did you mean rtx-4090-24gb or rtx-4090-laptop-16gb\?/);
});

test('-c out of range: each message names inference.context and its range in tokens', () => {
  for (const c of ['0', '-5', '1e12', '1.5']) {
    const r = run([...BASE, '-c', c]);
    assert.equal(r.code, 2, c);
    assert.match(r.err, /-c needs a whole number of tokens, at least 1 .*inference\.context = -c \/ -np, in \[1, 16777216\] tokens\), got "/, c);
  }
  // A whole number past the field's range (and int's): the field's own range, not [-2147483647, 2147483647].
  const r = run([...BASE, '-c', '1000000000000']);
  assert.equal(r.code, 1);
  assert.match(r.err, /inference\.context must be a whole number in \[1, 16777216\] tokens, got 1e\+?12/);
  const s = run([...BASE, '--set', 'inference.concurrency=1e10']);
  assert.equal(s.code, 1);
  assert.match(s.err, /inference\.concurrency must be a whole number in \[1, 1048576\] sequences/);
});

test('-np above llama.cpp\'s 256 sequences (LLAMA_MAX_SEQ) is refused, naming the field and the range', () => {
  // llama-server -np 300 throws "n_seq_max must be <= 256" (src/llama-cparams.h:8): 300 x 4,096 = 1,228,800 cells over all slots.
  const r = run([...BASE, '-np', '300', '-c', '1228800']);
  assert.equal(r.code, 1);
  assert.match(r.err, /inference\.concurrency \(-np\) 300 is above llama\.cpp's most sequences: accepted 1 to 256 \(inference\.constants\.llamacpp_max_seq; LLAMA_MAX_SEQ/);
  assert.equal(run([...BASE, '-np', '256', '-c', '1048576']).code, 0);
  assert.equal(run([...BASE, '-np', '300', '-c', '1228800', '--set', 'inference.constants.llamacpp_max_seq=512']).code, 0);
});

test('no --ram-gib: DeepSeek-V3 Q6_K on an RTX 4090 is the GPU part within target and 537.19 GB of system RAM not checked, not "fits"', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'deepseek-v3', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q6_k', '-c', '4096'];
  // --fit keeps the 61 layers on the GPU and the experts of the 58 MoE layers in RAM: token_embd
  // 129,280 x 7,168 x 210/256 B + 58 x 256 x 3 x 2,048 x 7,168 x 210/256 B + the CPU compute buffer
  // (4,096 + 7,168) x 512 x 4 B + the logits 129,280 x 4 B = 537,193,290,752 B
  const ram = 129280 * 7168 * 210 / 256 + 58 * 256 * 3 * 2048 * 7168 * 210 / 256 + (4096 + 7168) * 512 * 4 + 129280 * 4;
  const j = json(args);
  const f = j.fits.find((g) => g.gpu === 'rtx-4090-24gb');
  assert.equal(f.fits, true);
  assert.equal(f.within_target, false);
  assert.equal(f.gpu_within_target, true);
  assert.equal(Math.round(f.needs_ram_bytes), ram);
  assert.equal(f.needs_ram_bytes, j.metrics.host_total_bytes.value);
  assert.equal(f.gpus_needed, 0);
  assert.ok(j.notes.some((n) => n.startsWith('Needs 537.19 GB (500.30 GiB) of system RAM, not checked')), j.notes.join('\n'));
  // The text's GPU table says so.
  const t = run(args);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /NVIDIA GeForce RTX 4090 24GB\s+- needed\s+68\.9% of one\s+GPU part within target; needs 537\.19 GB \(500\.30 GiB\) of system RAM, not checked \(--ram-gib\)\n/);
  // suggest names the missing input, after the one change that fits without it (61 cards, one layer
  // each: the fewest GPUs counted as the table counts them).
  const sug = run(['suggest', ...args]).out;
  assert.match(sug, /^61 GPUs .* inference\.tp -> 61\n/);
  assert.match(sug, /\nor, as it is: its GPU part fits NVIDIA GeForce RTX 4090 24GB within the target .* needs 537\.19 GB of system RAM, not checked: give --ram-gib\n$/);
  // With the RAM the existing check: 1,024 GiB holds the 500.30 GiB within 75%, 512 GiB does not.
  const big = json([...args, '--ram-gib', '1024']).fits.find((g) => g.gpu === 'rtx-4090-24gb');
  assert.deepEqual([big.within_target, big.gpus_needed, big.needs_ram_bytes, big.gpu_within_target], [true, 1, undefined, undefined]);
  assert.match(run([...args, '--ram-gib', '1024']).out, /NVIDIA GeForce RTX 4090 24GB\s+1 needed\s+68\.9% of one\s+fits within target\n/);
  assert.equal(json([...args, '--ram-gib', '512']).fits.find((g) => g.gpu === 'rtx-4090-24gb').within_target, false);
});

test('no --ram-gib under the Ollama profile: Llama-3.1-70B Q4_K_M at 32,768 tokens, the output layer and 35 of 80 layers on the GPU, above the target and 29.80 GB of RAM not checked', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '--profile', 'ollama'];
  const j = json(args);
  assert.equal(j.metrics.auto_gpu_layers.value, 36);
  const f = j.fits.find((g) => g.gpu === 'rtx-4090-24gb');
  assert.deepEqual([f.fits, f.within_target, f.gpu_within_target], [true, false, false]);
  assert.equal((f.needs_ram_bytes / 1e9).toFixed(2), '29.80');
  assert.equal(f.needs_ram_bytes, j.metrics.host_total_bytes.value);
  assert.match(run(args).out, /NVIDIA GeForce RTX 4090 24GB\s+\d+ needed\s+95\.3% of one\s+GPU part above target; needs 29\.80 GB \(27\.76 GiB\) of system RAM, not checked \(--ram-gib\)\n/);
});

test('solve without --ram-gib: each answer is the GPU part\'s and says so, with the RAM its layout needs (DeepSeek-V3 Q6_K on an RTX 4090)', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'deepseek-v3', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q6_k', '-c', '4096'];
  // max_context with the split --fit makes at 4,096 tokens stated (-ngl 62 --cpu-moe, held at every
  // context): 25,600 tokens on the GPU part; the RAM there token_embd 760,166,400 B + the experts
  // 536,409,538,560 B + the CPU compute buffer (25,600 + 7,168) x 512 x 4 B + the logits 129,280 x 4 B.
  const pinned = [...args, '-ngl', '62', '--cpu-moe'];
  const ram = 760166400 + 536409538560 + (25600 + 7168) * 512 * 4 + 129280 * 4;
  const ctx = json(['solve', 'max_context', ...pinned]);
  assert.equal(ctx.value, 25600);
  assert.equal(Math.round(ctx.needs_ram_bytes), ram);
  assert.match(ctx.explanation, /; bounded by the GPU part alone: needs 537\.24 GB \(500\.34 GiB\) of system RAM at that context, not checked \(give inference\.host\.ram_gib, --ram-gib\)$/);
  const t = run(['solve', 'max_context', ...pinned]);
  assert.equal(t.code, 0, t.err);
  // The answer's line says the RAM it needs (537.24 GB), not only the explanation.
  assert.match(t.out, /^Longest context at the concurrency: 25600 tokens \(the GPU part alone; needs 537\.24 GB of system RAM\)\n/);
  // -ngl unset: --fit places the model again at each context, up to the window (163,840 tokens), with the
  // RAM its split there needs (the estimate's host_total_bytes at -c 163840).
  const fit = json(['solve', 'max_context', ...args]);
  assert.equal(fit.value, 163840);
  assert.equal(fit.needs_ram_bytes, json([...args, '-c', '163840']).metrics.host_total_bytes.value);
  // min_gpus counts as the GPU table does: 61 cards hold it without RAM nobody checked.
  const gpus = json(['solve', 'min_gpus', ...args]);
  assert.equal(gpus.value, 61);
  assert.equal(gpus.needs_ram_bytes, undefined);
  assert.match(gpus.explanation, /the GPU part alone fits on 1 with system RAM nobody checked/);
  // best_format: nothing fits without the RAM; Q6_K's GPU part (and 4 more) with it.
  const fmt = json(['solve', 'best_format', ...args]);
  assert.deepEqual([fmt.value, fmt.items], [0, []]);
  assert.match(fmt.explanation, /the GPU part of 5 formats fits with system RAM nobody checked \(the best, GGUF Q6_K, needs 537\.19 GB/);
  // With --ram-gib 1024 the RAM is checked: the same context, no field, the 5 formats.
  const checked = json(['solve', 'max_context', ...pinned, '--ram-gib', '1024']);
  assert.deepEqual([checked.value, checked.needs_ram_bytes], [25600, undefined]);
  assert.equal(json(['solve', 'best_format', ...args, '--ram-gib', '1024']).items.length, 5);
});

test('solve under Ollama\'s automatic num_gpu places the layers again at each context and count (Llama-3.1-70B Q4_K_M on an RTX 4090, 8,192 and 32,768 tokens, --ram-gib 64)', () => {
  const A = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '--profile', 'ollama'];
  const ram48 = 0.75 * 64 * GiB;  // 51,539,607,552 B
  for (const c of ['8192', '32768']) {
    // No RAM size: the model's window, where Ollama keeps the output layer and 21 layers on the card
    // (23,241.06 MiB with the CUDA context: 94.6%) and 62.80 GB in RAM nobody checked.
    const ctx = json(['solve', 'max_context', ...A, '-c', c]);
    assert.equal(ctx.value, 131072);
    const there = json([...A, '-c', '131072']);
    assert.equal(there.metrics.auto_gpu_layers.value, 22);
    assert.equal(ctx.needs_ram_bytes, there.metrics.host_total_bytes.value);
    assert.equal((ctx.needs_ram_bytes / 1e9).toFixed(2), '62.80');
    const t = run(['solve', 'max_context', ...A, '-c', c]);
    assert.match(t.out, /^Longest context at the concurrency: 131072 tokens \(the GPU part alone; needs 62\.80 GB of system RAM\)\n131,072 tokens: the model's context window; 1 sequence on NVIDIA GeForce RTX 4090 24GB: Ollama's automatic num_gpu, placed again at each context, puts 22 of 81 layers \(the output layer and 21 repeating layers\) on the GPU there, 94\.6% of its memory/);
    // 64 GiB (48 GiB within the target): 96,000 tokens. RAM there: token_embd and layers 0-55
    // 29,147,748,761.6 B + their KV 56 x 96,000 x 4,096 B + compute 362,020,864 B + logits 513,024 B
    // = 51,530,378,649.6 B; one more token pads to 96,256 cells, 51,589,885,337.6 B: past 48 GiB.
    const ram = json(['solve', 'max_context', ...A, '-c', c, '--ram-gib', '64']);
    assert.deepEqual([ram.value, ram.needs_ram_bytes], [96000, undefined]);
    assert.match(ram.explanation, /puts 25 of 81 layers \(the output layer and 24 repeating layers\) on the GPU there, 92\.9% of its memory \(--fit leaves 1\.00 GiB free per GPU, past the 75% target\); system RAM binds: 64\.00 GiB at 75% holds the host buffers/);
    const last = json([...A, '-c', '96000', '--ram-gib', '64']);
    const over = json([...A, '-c', '96001', '--ram-gib', '64']);
    assert.equal(last.metrics.auto_gpu_layers.value, 25);
    assert.equal(last.devices[1].kv_bytes, 56 * 96000 * 4096);
    assert.equal(Math.round(last.metrics.host_total_bytes.value * 10), 515303786496);
    assert.ok(last.metrics.host_total_bytes.value <= ram48 && over.metrics.host_total_bytes.value > ram48);
  }
  // The most sequences, placed again at each count: 11 of 8,192 tokens and 2 of 32,768 within 64 GiB.
  // Without it the engine's own limits: llama.cpp's 256 sequences (LLAMA_MAX_SEQ) of 8,192 tokens, the
  // output layer and 1 layer on the GPU, 79 layers' KV in RAM (79 x 256 x 8,192 x 4,096 B of the
  // 726.35 GB it needs, on the answer's line); 228 of 32,768, where the GPU keeps only the output layer.
  const seqs = (c, ...x) => json(['solve', 'max_concurrency', ...A, '-c', c, ...x]);
  assert.deepEqual([seqs('8192', '--ram-gib', '64').value, seqs('32768', '--ram-gib', '64').value], [11, 2]);
  const many = seqs('8192');
  assert.equal(many.value, 256);
  assert.equal(json([...A, '--set', 'inference.context=8192', '--set', 'inference.concurrency=256']).devices[1].kv_bytes, 79 * 256 * 8192 * 4096);
  assert.match(many.explanation, /puts 2 of 81 layers \(the output layer and 1 repeating layer\) on the GPU there, .*; llama\.cpp runs at most 256 sequences \(LLAMA_MAX_SEQ: inference\.constants\.llamacpp_max_seq\); bounded by the GPU part alone/);
  assert.match(run(['solve', 'max_concurrency', ...A, '-c', '8192']).out, /^Most sequences at the context: 256 sequences \(the GPU part alone; needs 726\.35 GB of system RAM\)\n/);
  assert.equal(seqs('8192', '--set', 'inference.constants.llamacpp_max_seq=4096').value, 913);
  assert.equal(seqs('32768').value, 228);
});

test('--profile ollama on two RTX 4090s: Llama-3.1-8B at num_ctx 32,768 loads on one of them (bestSingleGPUFit), as on one card', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '--profile', 'ollama', '-c', '32768'];
  // Ollama's prediction 4,912,898,048 + 2 x 32 x 8 x 128 x 32,768 x 2 B = 9,207,865,344 B (8,781.30 MiB),
  // within 80% of one card's 24,098.55 MiB free (19,278.84 MiB).
  const one = json(args), two = json([...args, '--set', 'inference.tp=2']);
  assert.equal(two.total_bytes, one.total_bytes);
  assert.ok(two.notes.some((n) => n.startsWith('Ollama loads the model on one of the 2 GPUs: its prediction, the GGUF file 4.58 GiB + an F16 KV cache 4.00 GiB, is within 80% of one GPU\'s 23.53 GiB free')), two.notes.join('\n'));
  // OLLAMA_SCHED_SPREAD=1: the share 0 splits the layers over both, as before.
  const spread = json([...args, '--set', 'inference.tp=2', '--set', 'inference.constants.ollama_single_gpu_share=0']);
  assert.equal(spread.total_bytes, 5807792640);
  assert.ok(!spread.notes.some((n) => n.startsWith('Ollama loads the model on one')));
});

// A hybrid (docs/inference.md "Recurrent state"): Qwen3-Next-80B-A3B Q4_K_M, -c 32768 on an H100. KV for
// its 12 attention layers (32,768 cells x 2 x 2 KV heads x 256 x 2 B) and one F32 state a sequence for the
// 36 gated DeltaNet layers ((3 x 8,192 + 128 x 4,096) x 4 B = 2,195,456 B each): 805,306,368 + 79,036,416 B.
test('hybrid: Qwen3-Next keeps KV in 12 of 48 layers and a recurrent state in the others; --state-dtype sets its element', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-next-80b-a3b', '--gpu', 'h100-80gb',
    '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '32768'];
  const d = json(args);
  assert.equal(d.breakdown.kv_cache, 884342784);
  assert.match(d.components.find((c) => c.key === 'kv_cache').formula, /2 x 12 attention layers .*recurrent state per sequence in 36 layers/);
  // -np 4: the same 32,768 cells, four states.
  assert.equal(json([...args, '-np', '4']).breakdown.kv_cache, 805306368 + 4 * 79036416);
  // A BF16 state: 36 x 548,864 x 2 B = 39,518,208 B.
  assert.equal(json([...args, '--state-dtype', 'bf16']).breakdown.kv_cache, 805306368 + 39518208);
  const bad = run([...args, '--state-dtype', 'int8']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.state_dtype "int8" is not one of auto, fp32, bf16, fp16/);
});

// The KV capacity is token room only (docs/inference.md "Recurrent state"): Qwen3-Next Q4_K_M on an H100 at
// -c 32768 keeps a 79,036,416 B F32 state for its one slot, 79,036,416 / 24,576 B a token = 3,216 tokens that
// the room left after weights and activations does not hold. vLLM (FP8 on an H200): 544-token pages, a block
// of 12 layers' pages 13,369,344 B, a 32,768-token sequence 61 attention blocks + 3 state blocks.
test('hybrid: the KV capacity leaves the recurrent states out (llama.cpp) and counts vLLM\'s state blocks', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-next-80b-a3b', '--gpu', 'h100-80gb',
    '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '32768'];
  const d = json(args);
  const a = json(['solve', 'kv_capacity', ...args]);
  assert.equal(a.value, d.metrics.kv_capacity_tokens.value);
  const card = 81559 * MiB;  // the H100 80GB as nvidia-smi reports it
  const rest = d.total_bytes - d.breakdown.kv_cache;
  assert.equal(a.value, Math.floor((card * 0.75 - rest - 79036416) / 24576));
  assert.match(a.explanation, /and 0\.07 GiB of recurrent state \/ 24576 B per token/);
  const v = json(['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-next-80b-a3b', '--gpu', 'h200-141gb',
    '--engine', 'vllm', '--weights', 'fp8', '--max-model-len', '32768']);
  assert.equal(v.metrics.kv_bytes_per_sequence.value, 64 * 13369344);
  assert.equal(v.metrics.kv_capacity_tokens.value, Math.floor(v.metrics.kv_blocks.value / 64 * 32768));
  assert.equal(v.metrics.kv_blocks.value, Math.floor(v.breakdown.kv_cache / 13369344));
  assert.match(v.components.find((c) => c.key === 'kv_cache').formula,
    /vLLM pages: block 544 tokens \(a 1097728 B state .*groups of 12 layers \(1 attention, 3 state x 1 blocks of 1\.337e7 B\) = 4\.011e7 B of state/);
  const vs = json(['solve', 'kv_capacity', '--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-next-80b-a3b',
    '--gpu', 'h200-141gb', '--engine', 'vllm', '--weights', 'fp8', '--max-model-len', '32768']);
  assert.equal(vs.value, v.metrics.kv_capacity_tokens.value);
  assert.match(vs.explanation, /blocks of 12\.75 MiB \(544-token pages\)/);
});

// best_local_format's "no GGUF type runs" names the quantized KV cache that makes one run, by the same
// rule as best_format (quantized_kv_choice). Llama-3.1-8B at 131,072 tokens on an RTX 4060 8GB with 16 GiB
// of RAM: F16 KV 32 layers x 8 heads x 128 x 2 (K, V) x 2 B = 131,072 B a token, 16 GiB in all, past 75% of
// the GPU and the RAM together; in q8_0 (34 B per 32 values) 8.5 GiB, and Q6_K runs at -ngl 12.
test('best_local_format: no GGUF type runs, but one does with the KV cache in q8_0', () => {
  const base = ['solve', 'best_local_format', '--preset', 'llama-3.1-8b', '--engine', 'llama.cpp', '--gpu', 'rtx-4060-8gb',
    '--max-model-len', '131072'];
  const a = json([...base, '--ram-gib', '16']);
  assert.equal(a.value, 0);
  assert.match(a.explanation, /^no GGUF type runs 1 sequence of 131072 tokens .*; with the KV cache in q8_0 \(inference\.kv_dtype, as suggest offers\) q6_k runs at -ngl 12$/);
  // With the KV cache already quantized there is no further clause.
  const q = json([...base, '--ram-gib', '16', '--set', 'inference.kv_dtype=q8_0']);
  assert.doesNotMatch(q.explanation, /with the KV cache in/);
});

