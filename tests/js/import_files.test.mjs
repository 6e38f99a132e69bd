// The JS library's importFiles (web/api.js, docs/import.md): several files of one model, each read
// as importFile reads it (File.slice, the header only), merged by the engine's io/ merge_imports:
// the same document as `vramcalc --model-file A --model-file B ... --print-import` for the same files.
//   VRAMCALC_LIB   the packed library folder (default build/wasm/lib)
//   VRAMCALC_BIN   the native CLI (default build/native/vramcalc)
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { llamaGguf, mmprojGguf, safetensors } from '../import_files.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const libDir = process.env.VRAMCALC_LIB || join(root, 'build/wasm/lib');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const dir = mkdtempSync(join(tmpdir(), 'vramcalc-js-files-'));
let vc;

before(async () => {
  assert.ok(existsSync(join(libDir, 'vramcalc.mjs')), `no library in ${libDir}: run scripts/build.sh`);
  const { createVramCalc } = await import(pathToFileURL(join(libDir, 'vramcalc.mjs')).href);
  vc = await createVramCalc();
});

// A Blob-like file that counts the bytes sliced out of it.
class CountingFile {
  constructor(bytes, name) { this.bytes = bytes; this.size = bytes.length; this.name = name; this.read = 0; }
  slice(start, end) {
    const part = this.bytes.subarray(start, Math.min(end, this.size));
    this.read += part.length;
    return { arrayBuffer: () => Promise.resolve(part.buffer.slice(part.byteOffset, part.byteOffset + part.length)) };
  }
}

// The files written to disk for the CLI, and as files for importFiles; both answers.
async function both(files) {
  const args = [];
  for (const [name, bytes] of files) {
    writeFileSync(join(dir, name), bytes);
    args.push('--model-file', join(dir, name));
  }
  const r = spawnSync(cliBin, [...args, '--print-import'], { encoding: 'utf8' });
  const cli = JSON.parse(r.stdout);
  const list = files.map(([name, bytes]) => new CountingFile(new Uint8Array(bytes), name));
  const js = await vc.importFiles(list);
  return { cli, js, list };
}

// A tiny Llama (hidden 16, one layer, 2 heads, FFN 32, vocabulary 100) as config.json and two BF16 shards.
const config = JSON.stringify({ model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 16, num_hidden_layers: 1,
  num_attention_heads: 2, num_key_value_heads: 2, intermediate_size: 32, vocab_size: 100, torch_dtype: 'bfloat16' });
const shard1 = safetensors([
  ['model.embed_tokens.weight', 'BF16', [100, 16]],                   // 1,600 parameters
  ['model.layers.0.self_attn.q_proj.weight', 'BF16', [16, 16]],       // 256 each: 1,024 for q, k, v, o
  ['model.layers.0.self_attn.k_proj.weight', 'BF16', [16, 16]],
  ['model.layers.0.self_attn.v_proj.weight', 'BF16', [16, 16]],
  ['model.layers.0.self_attn.o_proj.weight', 'BF16', [16, 16]],
], true).bytes;
const shard2 = safetensors([
  ['model.layers.0.mlp.gate_proj.weight', 'BF16', [32, 16]],          // 512 each: 1,536
  ['model.layers.0.mlp.up_proj.weight', 'BF16', [32, 16]],
  ['model.layers.0.mlp.down_proj.weight', 'BF16', [16, 32]],
  ['model.layers.0.input_layernorm.weight', 'BF16', [16]],            // 16 + 16 + 16
  ['model.layers.0.post_attention_layernorm.weight', 'BF16', [16]],
  ['model.norm.weight', 'BF16', [16]],
  ['lm_head.weight', 'BF16', [100, 16]],                              // 1,600
], true).bytes;

test('importFiles: config.json + two safetensors shards, the same document as the CLI', async () => {
  const { cli, js, list } = await both([['config.json', Buffer.from(config)], ['model-00001-of-00002.safetensors', shard1],
    ['model-00002-of-00002.safetensors', shard2]]);
  assert.deepEqual(js, cli);
  assert.equal(js.ok, true);
  assert.equal(js.complete, true);
  assert.equal(js.architecture, 'LlamaForCausalLM');
  // 1,600 + 1,024 (shard 1) + 1,536 + 48 + 1,600 (shard 2) = 5,808 parameters, 2 bytes each in BF16.
  assert.equal(js.params, 5808);
  assert.equal(js.weights_bytes, 11616);
  assert.deepEqual(js.files.map((f) => f.name), ['config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
  assert.equal(js.files[1].gave, '2,624 parameters, 5,248 bytes of weights, format bf16');
  // Each file read once, header only (the shards' data is 5,248 and 6,368 bytes; nothing read twice).
  for (const f of list) assert.ok(f.read <= f.size, `${f.name}: ${f.read} of ${f.size}`);
  // importFile still reads one file alone.
  const one = await vc.importFile(new CountingFile(new Uint8Array(shard1), 'model-00001-of-00002.safetensors'));
  assert.equal(one.params, 2624);
  assert.equal(one.files, undefined);
});

test('importFiles: the three parts of a split GGUF and an mmproj, as the CLI merges them', async () => {
  const parts = [0, 1, 2].map((no) => [`tiny-0000${no + 1}-of-00003.gguf`, llamaGguf({ split: { no, count: 3, total: 21 } }).bytes]);
  const { cli, js } = await both([parts[1], parts[0], parts[2], ['mmproj-tiny.gguf', mmprojGguf().bytes]]);
  assert.deepEqual(js, cli);
  // 483,024 B (part 1: Q8_0 embedding, F32 norm, Q6_K output) + 2 x 376,064 B (one layer per part) = the whole file's 1,235,152.
  assert.equal(js.weights_bytes, 1235152);
  assert.equal(js.weights_bytes, llamaGguf().weightBytes);
  assert.equal(js.tensor_count, 21);
  // 104,640 parameters in the projector's tensors; (56 / 14)^2 + 1 class token = 17 positions.
  assert.deepEqual(js.config.inference.llamacpp.mmproj, { params_m: 0.10464, type: 'f16', image_tokens: 17, hidden: 64, heads: 4, ffn: 256 });
  const est = vc.estimate({ ...js.config, method: 'detailed', task: 'inference', gpu: 'rtx-4090-24gb' });
  // clip's graph 17 x 17 x 4 x 4 + 17 x 256 x 4 + 2 x 17 x 64 x 4 = 30,736 B, weights 104,640 x 2 = 209,280 B.
  assert.equal(est.breakdown.extras, 240016);
});

test('importFiles: files that are not one model\'s get the CLI\'s message naming the file, nothing else', async () => {
  let { cli, js } = await both([['config.json', Buffer.from(config)], ['config-2.json', Buffer.from(config)]]);
  assert.deepEqual(js, cli);
  assert.equal(js.ok, false);
  assert.equal(js.error.message, 'config-2.json: a second config.json (config.json is one already): give the files of one model');
  ({ cli, js } = await both([['tiny-00001-of-00003.gguf', llamaGguf({ split: { no: 0, count: 3, total: 21 } }).bytes],
    ['tiny-00003-of-00003.gguf', llamaGguf({ split: { no: 2, count: 3, total: 21 } }).bytes]]));
  assert.deepEqual(js, cli);
  assert.match(js.error.message, /^tiny-00001-of-00003\.gguf: is part of a 3-part split GGUF and tiny-00002-of-00003\.gguf is missing/);
  // A picture among model files: named, and only its first bytes are read.
  const png = new Uint8Array(1 << 20);
  png.set([0x89, 0x50, 0x4e, 0x47]);
  ({ cli, js } = await both([['config.json', Buffer.from(config)], ['photo.safetensors', Buffer.from(png)]]));
  assert.deepEqual(js, cli);
  assert.match(js.error.message, /^photo\.safetensors: this is not a safetensors file/);
  // Not files at all.
  assert.match((await vc.importFiles([])).error.message, /^importFiles takes a FileList or an array of 1 to 256 Files/);
  assert.equal((await vc.importFiles([new CountingFile(new Uint8Array(4), 'a'), 42])).error.message, 'importFiles: entry 1 is not a File or Blob');
});
