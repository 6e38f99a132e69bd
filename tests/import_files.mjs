// Model files written byte by byte for the import tests (CLI, JS API, page): GGUF v3 headers with
// their tensor tables, and safetensors headers. No download: every byte comes from here. The same
// layouts as tests/unit/import_builders.hpp.

const GGUF_U16 = 2, GGUF_U32 = 4, GGUF_I32 = 5, GGUF_F32 = 6, GGUF_STRING = 8, GGUF_ARRAY = 9;
// ggml type ids as GGUF stores them, and their blocks (ggml-common.h).
export const GGML = { F32: [0, 1, 4], F16: [1, 1, 2], Q8_0: [8, 32, 34], Q4_K: [12, 256, 144], Q6_K: [14, 256, 210] };

export class GgufWriter {
  constructor() { this.kv = []; this.tensors = []; this.kvCount = 0; this.tensorCount = 0; this.offset = 0n; this.dataBytes = 0; }
  #str(out, s) { const b = Buffer.from(s, 'utf8'); out.push(u64(b.length), b); }
  #key(k, type) { this.#str(this.kv, k); this.kv.push(u32(type)); this.kvCount++; }
  u32(k, v) { this.#key(k, GGUF_U32); this.kv.push(u32(v)); }
  u16(k, v) { this.#key(k, GGUF_U16); const b = Buffer.alloc(2); b.writeUInt16LE(v); this.kv.push(b); }
  i32(k, v) { this.#key(k, GGUF_I32); const b = Buffer.alloc(4); b.writeInt32LE(v); this.kv.push(b); }
  f32(k, v) { this.#key(k, GGUF_F32); const b = Buffer.alloc(4); b.writeFloatLE(v); this.kv.push(b); }
  str(k, v) { this.#key(k, GGUF_STRING); this.#str(this.kv, v); }
  strArray(k, list) {
    this.#key(k, GGUF_ARRAY);
    this.kv.push(u32(GGUF_STRING), u64(list.length));
    for (const s of list) this.#str(this.kv, s);
  }
  // dims in ggml order (row length first); type one of GGML.
  tensor(name, dims, [id, block, blockBytes]) {
    this.#str(this.tensors, name);
    this.tensors.push(u32(dims.length), ...dims.map((d) => u64(d)), u32(id), u64(this.offset));
    const bytes = (dims.reduce((a, b) => a * b, 1) / block) * blockBytes;
    this.offset += BigInt(Math.ceil(bytes / 32) * 32);
    this.dataBytes += bytes;
    this.tensorCount++;
    return bytes;
  }
  bytes() {
    return Buffer.concat([Buffer.from('GGUF'), u32(3), u64(this.tensorCount), u64(this.kvCount), ...this.kv, ...this.tensors]);
  }
}

function u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; }
function u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; }

// A Llama-style GGUF (Q4_K_M-like: Q4_K matrices, Q6_K attn_v/ffn_down/output, Q8_0 embedding,
// F32 norms). Returns {bytes, weightBytes}. `vocab` tokens are written to tokenizer.ggml.tokens
// (and `merges` merge strings) so the header has a real tokenizer's size.
// With `split: {no, count, total}` it is part `no` (0-based) of llama.cpp's gguf-split output: the
// metadata in part 1 only, split.no / split.count (u16) and split.tensors.count (i32) in every part;
// part 1 holds the three tensors outside the layers, part k + 1 layer k (tiny-00001-of-00003.gguf ...).
export function llamaGguf({ layers = 2, hidden = 256, heads = 4, kvHeads = 2, ffn = 512, vocab = 1000, merges = 0, name = 'Tiny Llama', split = null } = {}) {
  const w = new GgufWriter();
  if (split) {
    w.u16('split.no', split.no);
    w.u16('split.count', split.count);
    w.i32('split.tensors.count', split.total);
    if (split.no > 0) return splitTensors(w, { layers, hidden, heads, kvHeads, ffn, vocab }, split);
  }
  w.str('general.architecture', 'llama');
  w.str('general.name', name);
  w.u32('general.file_type', 15);
  w.u32('llama.block_count', layers);
  w.u32('llama.context_length', 4096);
  w.u32('llama.embedding_length', hidden);
  w.u32('llama.feed_forward_length', ffn);
  w.u32('llama.attention.head_count', heads);
  w.u32('llama.attention.head_count_kv', kvHeads);
  w.f32('llama.attention.layer_norm_rms_epsilon', 1e-5);
  w.strArray('tokenizer.ggml.tokens', Array.from({ length: vocab }, (_, i) => 'tok' + i));
  if (merges > 0) w.strArray('tokenizer.ggml.merges', Array.from({ length: merges }, (_, i) => 'a' + i + ' b' + i));
  return splitTensors(w, { layers, hidden, heads, kvHeads, ffn, vocab }, split);
}

// The tiny Llama's tensors (all, or those of a split part: part 1 the three outside the layers, part
// k + 1 layer k) into `w`; returns {bytes, weightBytes} of the part.
function splitTensors(w, { layers, hidden, heads, kvHeads, ffn, vocab }, split) {
  const kv = (hidden / heads) * kvHeads;
  let total = 0;
  if (!split || split.no === 0) {
    total += w.tensor('token_embd.weight', [hidden, vocab], GGML.Q8_0);
    total += w.tensor('output_norm.weight', [hidden], GGML.F32);
    total += w.tensor('output.weight', [hidden, vocab], GGML.Q6_K);
  }
  for (let i = 0; i < layers; i++) {
    if (split && split.no !== i + 1) continue;
    const b = `blk.${i}.`;
    total += w.tensor(b + 'attn_norm.weight', [hidden], GGML.F32);
    total += w.tensor(b + 'attn_q.weight', [hidden, hidden], GGML.Q4_K);
    total += w.tensor(b + 'attn_k.weight', [hidden, kv], GGML.Q4_K);
    total += w.tensor(b + 'attn_v.weight', [hidden, kv], GGML.Q6_K);
    total += w.tensor(b + 'attn_output.weight', [hidden, hidden], GGML.Q4_K);
    total += w.tensor(b + 'ffn_norm.weight', [hidden], GGML.F32);
    total += w.tensor(b + 'ffn_gate.weight', [hidden, ffn], GGML.Q4_K);
    total += w.tensor(b + 'ffn_up.weight', [hidden, ffn], GGML.Q4_K);
    total += w.tensor(b + 'ffn_down.weight', [ffn, hidden], GGML.Q6_K);
  }
  return { bytes: w.bytes(), weightBytes: total };
}

// A small CLIP vision projector as llama.cpp's mmproj files hold it: width 64, 4 heads, MLP 256,
// 56 px images in 14 px patches plus a class token (17 positions), one block, a projector to 256.
// The same tensors as tests/unit/import_builders.hpp tiny_mmproj_gguf: 104,640 parameters, 210,048 bytes.
export function mmprojGguf() {
  const w = new GgufWriter();
  w.str('general.architecture', 'clip');
  w.str('general.name', 'Tiny CLIP');
  w.u32('general.file_type', 1);
  w.u32('clip.vision.embedding_length', 64);
  w.u32('clip.vision.attention.head_count', 4);
  w.u32('clip.vision.feed_forward_length', 256);
  w.u32('clip.vision.image_size', 56);
  w.u32('clip.vision.patch_size', 14);
  w.u32('clip.vision.block_count', 1);
  w.str('clip.projector_type', 'mlp');
  let total = 0;
  total += w.tensor('v.class_embd', [64], GGML.F32);
  total += w.tensor('v.patch_embd.weight', [14, 14, 3, 64], GGML.F16);
  total += w.tensor('v.position_embd.weight', [64, 17], GGML.F16);
  for (const n of ['attn_q', 'attn_k', 'attn_v', 'attn_out']) total += w.tensor(`v.blk.0.${n}.weight`, [64, 64], GGML.F16);
  total += w.tensor('v.blk.0.ffn_up.weight', [64, 256], GGML.F16);
  total += w.tensor('v.blk.0.ffn_down.weight', [256, 64], GGML.F16);
  total += w.tensor('v.blk.0.ln1.weight', [64], GGML.F32);
  total += w.tensor('mm.0.weight', [64, 256], GGML.F16);
  total += w.tensor('mm.0.bias', [256], GGML.F32);
  return { bytes: w.bytes(), weightBytes: total };
}

// A Llama-3-70B-sized GGUF header: 80 layers, a 128,256-token vocabulary and 280,147 merges
// (Meta-Llama-3's tokenizer sizes), about 8 MB of header for a 40+ GB file.
export function llama70bGguf() {
  return llamaGguf({ layers: 80, hidden: 8192, heads: 64, kvHeads: 8, ffn: 28672, vocab: 128256, merges: 280147, name: 'Llama-3 70B shaped' });
}

// safetensors: 8-byte header length + JSON; data left out unless `withData`.
export function safetensors(entries, withData = false) {
  const size = { F32: 4, I32: 4, F16: 2, BF16: 2, U8: 1, I8: 1, F8_E4M3: 1 };
  const header = { __metadata__: { format: 'pt' } };
  let off = 0;
  for (const [name, dtype, shape] of entries) {
    const n = shape.reduce((a, b) => a * b, 1) * size[dtype];
    header[name] = { dtype, shape, data_offsets: [off, off + n] };
    off += n;
  }
  const json = Buffer.from(JSON.stringify(header));
  return { bytes: Buffer.concat([u64(json.length), json, withData ? Buffer.alloc(off) : Buffer.alloc(0)]), dataBytes: off, headerBytes: 8 + json.length };
}
