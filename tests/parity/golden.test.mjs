// Native vs WebAssembly over the golden corpus (tests/golden/configs.jsonl, 2,200 configs): the
// `vramcalc batch --solve` output of both builds must be byte-identical, line by line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const nativeBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const wasmCli = process.env.VRAMCALC_WASM_CLI || join(root, 'build/wasm/tests/vramcalc_wasm.js');
const corpus = join(root, 'tests/golden/configs.jsonl');

test('golden corpus: native and wasm print the same bytes for every config', () => {
    const opts = { encoding: 'utf8', maxBuffer: 1 << 30 };
    const n = spawnSync(nativeBin, ['batch', corpus, '--solve'], opts);
    const w = spawnSync('node', ['--no-experimental-fetch', wasmCli, 'batch', corpus, '--solve'], opts);
    assert.equal(n.status, 0, n.stderr);
    assert.equal(w.status, 0, w.stderr);
    const nl = n.stdout.split('\n'), wl = w.stdout.split('\n');
    assert.ok(nl.length > 2000);
    const diffs = [];
    for (let i = 0; i < Math.max(nl.length, wl.length); ++i) if (nl[i] !== wl[i]) diffs.push(i + 1);
    assert.equal(diffs.length, 0, `lines differ: ${diffs.slice(0, 20).join(', ')}`);
});
