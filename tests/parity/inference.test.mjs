// Native vs WebAssembly for detailed inference: every engine's estimate and every what-fits answer
// print the same bytes from both builds (run by ctest `parity`, as tests/parity/parity.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const nativeBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const wasmCli = process.env.VRAMCALC_WASM_CLI || join(root, 'build/wasm/tests/vramcalc_wasm.js');

function run(cmd, args, input) {
    const r = spawnSync(cmd, args, { input, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function same(args, config) {
    const input = JSON.stringify(config);
    const n = run(nativeBin, args, input);
    const w = run('node', ['--no-experimental-fetch', wasmCli, ...args], input);
    assert.deepEqual(w, n, `vramcalc ${args.join(' ')} < ${input}`);
    return n;
}

const base = (preset, gpu, inference) => ({ method: 'detailed', task: 'inference', model: { preset }, gpu, inference });
const configs = [
    base('llama-3-8b', 'a100-40gb', { engine: 'vllm', context: 8192 }),
    base('deepseek-v3', 'h200-141gb', { engine: 'vllm', weights: 'fp8-block', tp: 8, kv_dtype: 'fp8', context: 32768, concurrency: 64 }),
    base('gemma-2-9b', 'l40s-48gb', { engine: 'vllm', weights: 'awq-int4', context: 8192, concurrency: 32 }),
    base('llama-3.1-8b', 'rtx-4090-24gb', { engine: 'llama.cpp', weights: 'q4_k_m', context: 32768, llamacpp: { n_gpu_layers: 20 } }),
    base('starcoder', 'a100-80gb', { engine: 'hf', weights: 'bnb-nf4', context: 80, prompt_tokens: 20, hf: { attention: 'eager' } }),
    base('gpt-oss-120b', 'h100-80gb', { engine: 'vllm', weights: 'bf16', experts_weights: 'mxfp4', context: 131072 }),
    // vLLM's MXFP4 on an Ampere card: BF16 linear layers, experts padded for Marlin (X29).
    base('gpt-oss-20b', 'a100-80gb', { engine: 'vllm', weights: 'mxfp4', tp: 2, context: 131072 }),
];

test('estimates: identical table and JSON for every engine', () => {
    for (const c of configs) {
        const r = same(['--config', '-', '--format', 'json'], c);
        assert.equal(r.status, 0, r.stderr);
        same(['--config', '-'], c);
    }
});

test('what-fits answers: identical for every question', () => {
    for (const c of configs)
        for (const q of ['max_context', 'max_concurrency', 'kv_capacity', 'min_gpus', 'best_format'])
            same(['solve', q, '--config', '-', '--format', 'json'], c);
});

test('errors: identical messages and exit codes', () => {
    same(['--config', '-'], base('llama-3-8b', 'a100-40gb', { context: 0 }));
    same(['--config', '-'], base('llama-3-8b', 'a100-40gb', { weights: 'q9_z' }));
    same(['solve', 'max_context', '--config', '-'], base('llama-3-8b', '', { engine: 'hf' }));
});
