// The JS library on a llama.cpp config (local inference, docs/local.md): the same per-device
// buffers, launch command and local answers as the native CLI given llama-server's flags.
//   VRAMCALC_LIB   the packed library folder (default build/wasm/lib)
//   VRAMCALC_BIN   the native CLI (default build/native/vramcalc)
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const libDir = process.env.VRAMCALC_LIB || join(root, 'build/wasm/lib');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const MiB = 2 ** 20;

let vc;
before(async () => {
    assert.ok(existsSync(join(libDir, 'vramcalc.mjs')), `no library in ${libDir}: run scripts/build.sh`);
    const { createVramCalc } = await import(pathToFileURL(join(libDir, 'vramcalc.mjs')).href);
    vc = await createVramCalc();
});

function cli(args) {
    const r = spawnSync(cliBin, [...args, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
}

// Qwen3-30B-A3B Q4_K_M at -ngl 30 on an RTX 4090, 4 slots of 4096 tokens, q8_0 K cache (-ctk alone
// leaves V in f16, as in llama-server).
const CONFIG = {
    method: 'detailed', task: 'inference', model: { preset: 'qwen3-30b-a3b' }, gpu: 'rtx-4090-24gb',
    inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 4096, concurrency: 4, kv_dtype: 'q8_0', llamacpp: { n_gpu_layers: 30, kv_dtype_v: 'f16' } },
};
const FLAGS = ['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-30b-a3b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '-c', '16384', '-np', '4', '-ctk', 'q8_0', '-ngl', '30'];

test('estimate(): the CLI\'s flags and the library give the same devices and launch command', () => {
    const lib = vc.estimate(CONFIG);
    assert.equal(lib.ok, true, JSON.stringify(lib.error));
    const fromCli = cli(FLAGS);
    assert.deepEqual(lib, fromCli);
    assert.equal(lib.launch_command, 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 16384 -np 4 -ngl 30 -fa on -ctk q8_0');
    assert.deepEqual(lib.devices.map((d) => d.device), ['CUDA0', 'CUDA_Host']);
    // K in q8_0 (34 B per 32 values), V in f16: 16,384 cells x 512 values x (1.0625 + 2) B per layer;
    // -ngl 30 is the output layer and layers 19-47 (llama.cpp PR #18148), 29 layers' KV on the GPU.
    const perLayer = 16384 * 512 * (34 / 32 + 2);
    assert.equal(lib.devices[0].kv_bytes, 29 * perLayer);
    assert.equal(lib.devices[1].kv_bytes, 19 * perLayer);
    assert.ok(lib.devices.every((d) => d.total_bytes > 0 && d.total_bytes === d.model_bytes + d.kv_bytes + d.compute_bytes + d.other_bytes));
    assert.equal(lib.devices[1].kv_bytes / MiB, 19 * 24.5);  // 24.5 MiB per layer
});

test('solve(): the local questions answer as `vramcalc solve` does', () => {
    for (const q of ['max_gpu_layers', 'max_gpu_experts', 'best_local_format']) {
        const lib = vc.solve(CONFIG, q);
        assert.equal(lib.ok, true, `${q}: ${JSON.stringify(lib.error)}`);
        assert.deepEqual(lib, cli(['solve', q, ...FLAGS]), q);
    }
    assert.ok(vc.questions().some((q) => q.id === 'max_gpu_layers' && q.tasks === 'llamacpp'));
});

test('estimate(): a draft model\'s speed fields come through the config (acceptance, max_tokens) as the CLI\'s flags give them', () => {
    // Llama-3.1-8B Q4_K_M + Llama-3.2-1B Q8_0 on an RTX 4090, -c 8192, a = 0.8, --draft-max 8:
    // (1 - 0.8^9) / 0.2 = 4.3289 tokens per 4.1611 x 1.9614 + 7.0575 = 15.2191 ms, 284.44 tokens/s
    // against 141.69 (tests/unit/test_llamacpp.cpp has the arithmetic).
    const config = {
        method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192, llamacpp: { draft: { preset: 'llama-3.2-1b', acceptance: 0.8, max_tokens: 8 } } },
    };
    const lib = vc.estimate(config);
    assert.equal(lib.ok, true, JSON.stringify(lib.error));
    assert.deepEqual(lib, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
        '--weights', 'q4_k_m', '-c', '8192', '--draft', 'llama-3.2-1b', '--draft-acceptance', '0.8', '--draft-max', '8']));
    assert.ok(Math.abs(lib.metrics.decode_tokens_per_s_draft.value / 284.44 - 1) < 1e-4);
    assert.ok(Math.abs(lib.metrics.speculative_tokens_per_cycle.value / 4.3289 - 1) < 1e-4);
    assert.match(lib.launch_command, / --draft-max 8$/);
    const bad = vc.estimate({ ...config, inference: { ...config.inference, llamacpp: { draft: { preset: 'llama-3.2-1b', acceptance: -1 } } } });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'inference.llamacpp.draft.acceptance');
});

test('estimate(): the Ollama profile takes Ollama\'s num_ctx by the VRAM (4,096 / 32,768 / 262,144 at most the window), flash attention on', () => {
    const ollama = (gpu) => vc.estimate({ ...CONFIG, gpu, inference: { engine: 'llama.cpp', weights: 'q4_k_m', llamacpp: { profile: 'ollama' } } });
    const r24 = ollama('rtx-4090-24gb');
    assert.equal(r24.ok, true, JSON.stringify(r24.error));
    // 20.86 GiB with every layer on the GPU leaves --fit's 1 GiB: num_gpu is Ollama's, not printed.
    assert.equal(r24.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 32768' +
        '  # automatic num_batch 512: llama-server -b 512 -ub 512');
    assert.equal(r24.metrics.auto_gpu_layers.value, 49);
    assert.equal(r24.devices[0].kv_bytes / MiB, 3072);  // 48 layers x 32768 cells x 4 KV heads x 128 x 2 x 2 B
    assert.match(ollama('rtx-4060-8gb').launch_command, /PARAMETER num_ctx 4096  # automatic num_batch 512: /);
    assert.match(ollama('rtx-a6000-48gb').launch_command, /PARAMETER num_ctx 40960  # automatic num_batch 2048: /);  // Qwen3-30B-A3B's window
    assert.deepEqual(r24.devices, cli([...FLAGS.slice(0, 12), '--profile', 'ollama']).devices);
    // The estimate says which default it took: the RTX 4090's 24,564 MiB = 23.99 GiB is at least 23 GiB.
    assert.ok(r24.notes.includes('Ollama\'s default context for 23.99 GiB of VRAM: 32,768 tokens (OLLAMA_CONTEXT_LENGTH unset: 4,096 below 23 GiB, ' +
        '32,768 from it, 262,144 from 47 GiB; inference.constants.ollama_num_ctx*).'), r24.notes.join('\n'));
    assert.ok(ollama('rtx-a6000-48gb').notes.some((n) => n.startsWith('Ollama\'s default context for 48 GiB of VRAM: 262,144 tokens, lowered to the model\'s window of 40,960 (')));
});

test('estimate(): under the Ollama profile a num_ctx above the model\'s window is lowered to it, as Ollama does (llm/server.go), figures and launch command alike', () => {
    const config = (context, profile = 'ollama') => ({ method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context, llamacpp: { profile } } });
    const asked = vc.estimate(config(200000)), window = vc.estimate(config(131072));
    assert.equal(asked.total_bytes, window.total_bytes);
    // 80 layers x 131,072 cells x 4,096 B of F16 KV, wherever the layers are.
    assert.equal(asked.devices.reduce((s, d) => s + d.kv_bytes, 0), 80 * 131072 * 4096);
    assert.match(asked.launch_command, /PARAMETER num_ctx 131072 /);
    assert.ok(asked.notes.includes('Ollama lowers num_ctx 200,000 to the model\'s context window of 131,072 tokens (llm/server.go: "requested context size ' +
        'too large for model"): the figures are at 131,072 tokens.'), asked.notes.join('\n'));
    assert.deepEqual(asked, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb',
        '--engine', 'llama.cpp', '--weights', 'q4_k_m', '--profile', 'ollama', '-c', '200000']));
    // llama-server keeps the context asked for (200,000 padded to 200,192 cells).
    assert.equal(vc.estimate(config(200000, 'llama-server')).devices.reduce((s, d) => s + d.kv_bytes, 0), 80 * 200192 * 4096);
});

test('estimate(): the Ollama profile without n_gpu_layers puts as many layers on the GPU as llama-server\'s --fit leaves 1 GiB for', () => {
    // Llama-3.1-70B Q4_K_M on one RTX 4090 at 32,768 tokens: 23,074.55 MiB for the buffers (24,564 less
    // the 465.45 MiB CUDA context and 1,024 MiB); num_gpu 36, the output layer first (llama.cpp PR #18148):
    // 821.98 + 35 x (491.99 + 128) + 428.96 = 22,950.55 MiB fits, 37 does not.
    const config = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', llamacpp: { profile: 'ollama' } } };
    const r = vc.estimate(config);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.metrics.auto_gpu_layers.value, 36);
    assert.equal(r.devices[0].kv_bytes / MiB, 35 * 128);
    assert.ok(r.notes.some((n) => n.startsWith('Ollama puts 36 of 81 layers (the output layer and 35 repeating layers) on the GPU')));
    assert.deepEqual(r.devices, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb',
        '--engine', 'llama.cpp', '--weights', 'q4_k_m', '--profile', 'ollama']).devices);
    const stated = vc.estimate({ ...config, inference: { ...config.inference, llamacpp: { profile: 'ollama', n_gpu_layers: 30 } } });
    assert.equal(stated.metrics.gpu_layers.value, 29);  // the output layer and 29 layers
    assert.equal(stated.metrics.gpu_layers.label, 'Repeating layers on the GPU (-ngl 30)');
    assert.equal(stated.metrics.auto_gpu_layers, undefined);
});

test('estimate(): the Ollama profile without n_ubatch takes Ollama\'s automatic num_batch (Llama-3.1-8B: 1,024 at 8,192 tokens on an RTX 4090)', () => {
    // Ollama's prediction, the GGUF file 4,912,898,048 B + 1 GiB of F16 KV = 5,709.34 MiB, is within 75% of
    // the card's 24,098.55 MiB free with 768 MiB more within 80%: 1,024 tokens, and the compute buffer's
    // F32 logits are (128,256 + 4,096) x 1,024 x 4 B = 517 MiB.
    const config = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192, llamacpp: { profile: 'ollama' } } };
    const r = vc.estimate(config);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.metrics.auto_num_batch.value, 1024);
    assert.equal(r.devices[0].compute_bytes / MiB, 517);
    assert.match(r.launch_command, /  # automatic num_batch 1024: llama-server -b 1024 -ub 1024$/);
    assert.deepEqual(r.devices, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb',
        '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '8192', '--profile', 'ollama']).devices);
    // n_ubatch given is num_batch; a constant out of range names its field.
    const pinned = vc.estimate({ ...config, inference: { ...config.inference, llamacpp: { profile: 'ollama', n_ubatch: 512 } } });
    assert.equal(pinned.metrics.auto_num_batch, undefined);
    assert.equal(pinned.devices[0].compute_bytes / MiB, 258.5);
    const bad = vc.estimate({ ...config, inference: { ...config.inference, constants: { ollama_batch_large_headroom: 1.5 } } });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'inference.constants.ollama_batch_large_headroom');
});

test('estimate(): vLLM on a Mac is an error naming inference.engine (vLLM has no Metal backend)', () => {
    const r = vc.estimate({ method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'apple-m4-max-128gb', inference: { engine: 'vllm' } });
    assert.equal(r.ok, false);
    assert.equal(r.error.field, 'inference.engine');
    assert.match(r.error.message, /no Metal backend for the Apple M4 Max 128GB/);
    // On an H100 each Mac row of the GPU table says why it holds nothing (no_backend), as the CLI's
    // JSON does; no mac_needed_bytes (no Mac of any size runs vLLM) and no note about Macs.
    const h = vc.estimate({ method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb', inference: { engine: 'vllm' } });
    assert.equal(h.ok, true, JSON.stringify(h.error));
    const m4 = h.fits.find((f) => f.gpu === 'apple-m4-max-128gb');
    assert.deepEqual(m4, { fits: false, gpu: 'apple-m4-max-128gb', gpus_needed: 0, no_backend: true, utilization: 0, within_target: false });
    assert.deepEqual(Object.keys(m4), ['fits', 'gpu', 'gpus_needed', 'no_backend', 'utilization', 'within_target']);
    assert.equal(h.fits.find((f) => f.gpu === 'h100-80gb').no_backend, undefined);
    assert.ok(h.notes.every((n) => !/Mac/.test(n)), JSON.stringify(h.notes));
});

test('estimate(): plain llama-server without n_gpu_layers runs its default --fit (42 of Llama-3.1-70B\'s 81 layers on an RTX 4090 at 8,192 tokens); fit: false is every layer', () => {
    // 23,074.55 MiB for the buffers (24,564 less the 465.45 MiB CUDA context and 1,024 MiB); -ngl 42,
    // the output layer and layers 39-79: 20,919.59 MiB of weights + 41 x 32 MiB KV + 356.96 MiB compute = 22,588.55 MiB.
    const config = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192 } };
    const r = vc.estimate(config);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.metrics.auto_gpu_layers.value, 42);
    assert.equal(r.devices[0].kv_bytes / MiB, 41 * 32);
    assert.equal(r.launch_command, 'llama-server -m llama-3.1-70b-Q4_K_M.gguf -c 8192 -fa on');
    assert.ok(r.notes.some((n) => n.startsWith("llama-server's --fit puts 42 of 81 layers (the output layer and 41 repeating layers) on the GPU")));
    assert.deepEqual(r.devices, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b', '--gpu', 'rtx-4090-24gb',
        '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '8192']).devices);
    const off = vc.estimate({ ...config, inference: { ...config.inference, llamacpp: { fit: false } } });
    assert.equal(off.metrics.auto_gpu_layers, undefined);
    assert.equal(off.metrics.gpu_layers.value, 80);
    assert.match(off.launch_command, / -ngl 81 /);
    const bad = vc.estimate({ ...config, inference: { ...config.inference, llamacpp: { fit: 'yes' } } });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'inference.llamacpp.fit');
});

test('estimate(): a q8_0 K cache with an f16 V cache (llama.cpp\'s spelling) runs without flash attention', () => {
    const r = vc.estimate({ ...CONFIG, inference: { ...CONFIG.inference, llamacpp: { n_gpu_layers: 30, kv_dtype_v: 'f16', flash_attn: false } } });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.match(r.launch_command, / -fa off -ctk q8_0( |$)/);
});

test('a hybrid through the library: Qwen3-Next\'s attention-layer KV and recurrent state, as the CLI prints them', () => {
    const config = {
        method: 'detailed', task: 'inference', model: { preset: 'qwen3-next-80b-a3b' }, gpu: 'h100-80gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 262144 },
    };
    const lib = vc.estimate(config);
    assert.equal(lib.ok, true, JSON.stringify(lib.error));
    // 12 layers x 262,144 cells x 2,048 B + 36 layers x 2,195,456 B (F32 conv + delta state, one sequence).
    assert.equal(lib.breakdown.kv_cache, 12 * 262144 * 2048 + 36 * 2195456);
    assert.deepEqual(lib, cli(['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-next-80b-a3b', '--gpu', 'h100-80gb',
        '--engine', 'llama.cpp', '--weights', 'q4_k_m', '-c', '262144']));
});
