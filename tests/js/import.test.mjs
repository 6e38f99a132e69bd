// The JS library's importModel / importFile (web/api.js, docs/import.md) against the native
// CLI's --print-import: the same document for the same bytes; importFile reads only a File's
// header through File.slice, growing the slice when the header is longer than the first one.
//   VRAMCALC_LIB   the packed library folder (default build/wasm/lib)
//   VRAMCALC_BIN   the native CLI (default build/native/vramcalc)
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { llama70bGguf, llamaGguf, safetensors } from '../import_files.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const libDir = process.env.VRAMCALC_LIB || join(root, 'build/wasm/lib');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const dir = mkdtempSync(join(tmpdir(), 'vramcalc-js-import-'));
let vc;
let wasmMemory;  // the library's WebAssembly memory (caught at instantiation): what importing costs it

before(async () => {
  assert.ok(existsSync(join(libDir, 'vramcalc.mjs')), `no library in ${libDir}: run scripts/build.sh`);
  const { createVramCalc } = await import(pathToFileURL(join(libDir, 'vramcalc.mjs')).href);
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (...args) {
    const r = await instantiate.apply(this, args);
    wasmMemory = Object.values((r instanceof WebAssembly.Instance ? r : r.instance).exports).find((x) => x instanceof WebAssembly.Memory);
    return r;
  };
  vc = await createVramCalc();
  WebAssembly.instantiate = instantiate;
});

function cliImport(path) {
  const r = spawnSync(cliBin, ['--model-file', path, '--print-import'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(r.stdout);
}

// A Blob that records the ranges sliced out of it (a 45 GB "file" whose tensor data is never read).
class SparseFile {
  constructor(header, size, name) { this.header = header; this.size = size; this.name = name; this.read = 0; this.slices = []; }
  slice(start, end) {
    const self = this;
    const len = Math.min(end, this.size) - start;
    return { arrayBuffer() {
      self.read += len;
      self.slices.push([start, start + len]);
      const out = new Uint8Array(len);
      out.set(self.header.subarray(start, Math.min(start + len, self.header.length)));
      return Promise.resolve(out.buffer);
    } };
  }
}

test('importModel: the same document as the CLI for a GGUF, a safetensors file and a config.json', () => {
  const files = {
    'tiny.gguf': llamaGguf().bytes,
    'model.safetensors': safetensors([['model.embed_tokens.weight', 'BF16', [100, 16]], ['model.layers.0.mlp.up_proj.weight', 'BF16', [32, 16]]], true).bytes,
    'config.json': readFileSync(join(root, 'tests/fixtures/hf/gpt-oss-20b.json')),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    assert.deepEqual(vc.importModel(new Uint8Array(bytes), name, bytes.length), cliImport(path), name);
  }
  // JSON text (pasted) reads as its bytes do.
  const text = readFileSync(join(root, 'tests/fixtures/hf/qwen3-30b-a3b.json'), 'utf8');
  const r = vc.importModel(text, 'pasted');
  assert.equal(r.ok, true);
  assert.equal(r.complete, true);
  assert.equal(r.model.experts, 128);
  assert.equal(r.params, 30532122624);  // as the qwen3-30b-a3b preset derives it, q/k norms (48 x 256) included
  // The fragment goes straight into estimate().
  const est = vc.estimate({ ...r.config, method: 'detailed', task: 'inference', gpu: 'h100-80gb' });
  assert.equal(est.ok, true, JSON.stringify(est.error));
});

test('importFile reads a 45 GB GGUF through File.slice: its 8.3 MB header only', async () => {
  const { bytes, weightBytes } = llama70bGguf();
  const file = new SparseFile(new Uint8Array(bytes), bytes.length + weightBytes + 4096, 'big.gguf');
  const t0 = performance.now();
  const r = await vc.importFile(file);
  const ms = performance.now() - t0;
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.weights_bytes, weightBytes);
  assert.equal(r.model.layers, 80);
  console.log(`importFile big.gguf: ${ms.toFixed(0)} ms, ${file.slices.length} slices, ${(file.read / 1e6).toFixed(1)} MB read of ` +
    `${(file.size / 1e9).toFixed(1)} GB, wasm memory ${(wasmMemory.buffer.byteLength / 1e6).toFixed(1)} MB`);
  // 4 MiB first, then the rest of the header as the reader estimated it from the first: each byte
  // read once, the 8.3 MB header and under a fifth more (it was 21 MB in a 4 MiB and a 16 MiB slice).
  assert.deepEqual(file.slices, [[0, 4 << 20], [4 << 20, file.read]]);
  assert.ok(file.read >= bytes.length && file.read < 1.2 * bytes.length, `${file.read} bytes read of an ${bytes.length}-byte header`);
  // The wasm heap holds the header once (the library starts with 16 MiB; it was 46.8 MB after this).
  assert.ok(wasmMemory.buffer.byteLength <= 32 << 20, `wasm memory ${wasmMemory.buffer.byteLength} bytes`);
  // (the time is printed above, not asserted: bench/import.mjs measures it, docs/import.md)
});

test('importModel given a whole 120 MB file copies only a header\'s worth into the wasm heap (100 MiB at most)', () => {
  const big = new Uint8Array(120e6).fill(0x20);
  big[0] = 0x7b;  // '{' then spaces: a "JSON document" larger than any config
  const r = vc.importModel(big, 'huge.json');
  assert.equal(r.ok, false);
  assert.match(r.error.message, /^huge\.json: a JSON document of 120,000,000 bytes is larger than any model config \(67,108,864 bytes at most\)/);
  // The heap took at most the 100 MiB cap once (it took the 120 MB twice, 240 MB and more, before).
  assert.ok(wasmMemory.buffer.byteLength < 160e6, `wasm memory ${wasmMemory.buffer.byteLength} bytes`);
});

test('errors are values: a wrong argument, a mislabelled file, a truncated header', async () => {
  assert.equal(vc.importModel(42).error.field, 'import');
  const png = vc.importModel(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'model.gguf');
  assert.equal(png.ok, false);
  assert.match(png.error.message, /model\.gguf: this is not a GGUF file/);
  const { bytes } = llamaGguf();
  const cut = vc.importModel(new Uint8Array(bytes.subarray(0, 100)), 'cut.gguf');
  assert.equal(cut.ok, false);
  assert.match(cut.error.message, /cut\.gguf: the tensor count 21 cannot fit in a file of 100 bytes/);
  const prefix = vc.importModel(new Uint8Array(bytes.subarray(0, 100)), 'long.gguf', bytes.length);
  assert.equal(prefix.ok, false);
  assert.ok(prefix.need_bytes > 100);
  assert.equal((await vc.importFile({})).error.field, 'import');
});
