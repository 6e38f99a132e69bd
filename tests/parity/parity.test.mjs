// Native vs WebAssembly: the same CLI built with g++ and with emcc (run under Node) must print the
// same bytes and exit with the same code for every input, valid or not, so the page computes
// exactly what the native tool does.
//   VRAMCALC_BIN        the native CLI (build/native/vramcalc)
//   VRAMCALC_WASM_CLI   the WebAssembly CLI (build/wasm/tests/vramcalc_wasm.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const nativeBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const wasmCli = process.env.VRAMCALC_WASM_CLI || join(root, 'build/wasm/tests/vramcalc_wasm.js');

function run(cmd, args, input) {
    const r = spawnSync(cmd, args, { input, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const native = (args, input) => run(nativeBin, args, input);
const wasm = (args, input) => run('node', ['--no-experimental-fetch', wasmCli, ...args], input);

function same(args, input) {
    const n = native(args, input), w = wasm(args, input);
    assert.deepEqual(w, n, `vramcalc ${args.join(' ')}`);
    return n;
}

const quick = (p, prec, opt, b, s, ckpt) =>
    ['--method', 'quick', '--params', String(p), '--precision', prec, '--optimizer', opt, '--batch', String(b), '--seq', String(s),
        ...(ckpt ? ['--checkpointing'] : [])];

test('both builds exist', () => {
    assert.ok(existsSync(nativeBin), `no native CLI at ${nativeBin}`);
    assert.ok(existsSync(wasmCli), `no wasm CLI at ${wasmCli}`);
});

test('the quick worked example: identical table and JSON', () => {
    const args = quick(7, 'fp16', 'adamw-mixed', 4, 2048, false);
    assert.match(same(args).stdout, /255\.36/);
    const json = JSON.parse(same([...args, '--format', 'json']).stdout);
    assert.equal(json.buffered_bytes, 306432000000);
    same([...quick(7, 'fp16', 'adamw-mixed', 4, 2048, true), '--format', 'json']);
});

test('every precision and optimizer, odd sizes', () => {
    const precisions = ['fp32', 'fp16', 'bf16', 'int8', 'int4'];
    const optimizers = ['adamw-mixed', 'adamw', 'adamw-8bit', 'sgd', 'inference'];
    const sizes = [0.125, 1.1, 3, 13, 70.6, 405, 1234.5];
    for (let i = 0; i < precisions.length; i++)
        for (let j = 0; j < optimizers.length; j++) {
            if ((i + j) % 2) continue;  // a checkerboard keeps the suite fast
            const p = sizes[(i * 5 + j) % sizes.length];
            same([...quick(p, precisions[i], optimizers[j], 1 + ((i + 3 * j) % 7), 128 * (1 + i + j), j % 2 === 0), '--format', 'json']);
        }
});

test('the guide method, training and inference', () => {
    same(['--method', 'guide', '--params', '70', '--layers', '80', '--hidden', '8192', '--heads', '64', '--batch', '1', '--seq', '4096',
        '--gpus', '8', '--format', 'json']);
    same(['--method', 'guide', '--task', 'inference', '--params', '70', '--layers', '80', '--hidden', '8192', '--heads', '32',
        '--batch', '4', '--seq', '8192', '--set', 'guide.weight_bytes=1', '--format', 'json']);
});

test('the detailed methods and a what-fits solve on presets', () => {
    for (const args of [
        ['--method', 'detailed', '--preset', 'llama-3.1-8b', '--batch', '4', '--seq', '4096', '--format', 'json'],
        ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--gpus', '8'],
        ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--seq', '8192', '--batch', '8', '--gpu', 'h100-80gb',
            '--format', 'json'],
        ['solve', 'max_context', '--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb',
            '--batch', '16'],
    ])
        assert.equal(same(args).status, 0, args.join(' '));
});

test('bad input: the same error, exit code and message', () => {
    for (const args of [['--params', '0'], ['--params', '1e30'], ['--batch', '-3'], ['--seq', '2.5'], ['--precision', 'fp7'],
        ['--params', '"NaN"'], ['--format', 'json', '--params', '1e30']]) {
        const r = same(args);
        assert.notEqual(r.status, 0, args.join(' '));
    }
    same(['--config', '-', '--format', 'json'], '{"params_b": 7, "batch": 1e400}');
    same(['--config', '-'], '{"params_b": ');
});
