// CLI tests for detailed inference: the "inference" config section through `vramcalc` and
// `vramcalc solve`, JSON results in bytes, errors naming the field. Run by ctest (`cli`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';
const GiB = 2 ** 30;

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const VLLM = {
  method: 'detailed', task: 'inference', model: { preset: 'llama-3-8b' }, gpu: 'a100-40gb',
  inference: { engine: 'vllm', weights: 'bf16', context: 8192, concurrency: 1 },
};

test('vLLM on an A100-40GB: 14.96 GiB of weights, 128 KiB of KV per token, blocks of 2 MiB', () => {
  const r = run(['--config', '-', '--format', 'json'], JSON.stringify(VLLM));
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.task, 'inference');
  assert.ok(Math.abs(j.breakdown.weights / GiB - 14.96) < 0.005);
  assert.equal(j.metrics.kv_bytes_per_token.value, 131072);
  assert.equal(j.metrics.kv_capacity_tokens.value, 16 * j.metrics.kv_blocks.value);
  assert.ok(j.metrics.kv_blocks.value * 2 * 2 ** 20 <= j.breakdown.kv_cache);
  assert.deepEqual(j.components.map((c) => c.key), ['weights', 'kv_cache', 'activations', 'runtime', 'cuda_graphs']);
  assert.ok(j.metrics.decode_tokens_per_s.value > 0);
});

test('the measured C30 activation peak and non-torch memory give its 5,691 blocks', () => {
  const r = run(['--config', '-', '--set', 'inference.vllm.activation_peak_gib=9.37', '--set', 'inference.vllm.non_torch_gib=0.10',
    '--format', 'json'], JSON.stringify(VLLM));
  assert.equal(r.code, 0, r.err);
  const blocks = JSON.parse(r.out).metrics.kv_blocks.value;
  assert.ok(Math.abs(blocks - 5691) / 5691 < 0.005, `blocks ${blocks}`);
});

test('llama.cpp GGUF Q4_K_M: 4.58 GiB file, table output names the format', () => {
  const cfg = { ...VLLM, model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
    inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192 } };
  const r = run(['--config', '-', '--format', 'json'], JSON.stringify(cfg));
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.ok(Math.abs(j.metrics.weights_total_bytes.value / GiB - 4.58) < 0.005);
  assert.ok(Math.abs(j.metrics.weight_bits_per_weight.value - 4.8944) < 1e-3);
  const t = run(['--config', '-'], JSON.stringify(cfg));
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /Weights \(GGUF Q4_K_M\)/);
  assert.match(t.out, /KV cache/);
});

test('vramcalc solve: longest context, best format (JSON list), questions listed', () => {
  const r = run(['solve', 'max_context', '--config', '-', '--format', 'json'], JSON.stringify(VLLM));
  assert.equal(r.code, 0, r.err);
  const a = JSON.parse(r.out);
  assert.equal(a.question, 'max_context');
  assert.equal(a.unit, 'tokens');
  // The pool holds about 157k tokens; Llama-3-8B's config.json says 8,192, which bounds the answer.
  assert.equal(a.value, 8192);
  assert.match(a.explanation, /^8,192 tokens: the model's context window \(memory would allow [\d,]+ /);
  const m = run(['solve', 'max_context', '--config', '-', '--set', 'model.context_limit=0', '--format', 'json'], JSON.stringify(VLLM));
  assert.equal(m.code, 0, m.err);
  const mem = JSON.parse(m.out).value;
  assert.ok(mem > 8192 && mem % 16 === 0, `memory alone ${mem}`);
  // Without a window vLLM keeps no 8,192-row RoPE table (2 MiB): one 16-token block more at most.
  const allowed = Number(a.explanation.match(/memory would allow ([\d,]+)/)[1].replace(/,/g, ''));
  assert.ok(mem - allowed === 0 || mem - allowed === 16, `${a.explanation} vs ${mem}`);
  const b = run(['solve', 'best_format', '--config', '-', '--format', 'json'], JSON.stringify(VLLM));
  assert.equal(b.code, 0, b.err);
  const f = JSON.parse(b.out);
  assert.equal(f.items[0], 'bf16');
  assert.equal(f.value, f.items.length);
  const l = run(['solve', '--list-questions']);
  assert.equal(l.code, 0, l.err);
  for (const q of ['max_context', 'max_concurrency', 'kv_capacity', 'min_gpus', 'best_format']) assert.match(l.out, new RegExp(q));
});

test('inference errors exit 1 and name the field', () => {
  const cases = [
    [{ inference: { ...VLLM.inference, context: 0 } }, 'inference.context'],
    [{ inference: { ...VLLM.inference, weights: 'int5' } }, 'inference.weights'],
    [{ inference: { ...VLLM.inference, tp: 3 } }, 'inference.tp'],
    [{ inference: { ...VLLM.inference, contxt: 5 } }, 'inference.contxt'],
    [{ model: { preset: 'llama-3-8b', kv_heads: 5 } }, 'model.kv_heads'],
  ];
  for (const [patch, field] of cases) {
    const r = run(['--config', '-', '--format', 'json'], JSON.stringify({ ...VLLM, ...patch }));
    assert.equal(r.code, 1, `${field}: ${r.out}`);
    assert.equal(JSON.parse(r.out).error.field, field);
    assert.match(r.err, new RegExp(field.replace('.', '\\.')));
  }
});

test('vLLM refuses a max_model_len above the model\'s window (vllm/config/model.py _get_and_verify_max_len) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1', () => {
  // Llama-3-8B's window is 8,192 tokens (max_position_embeddings): 16,384 is refused, naming the field,
  // the window and the variable; 8,192 runs.
  const over = run(['--config', '-', '--format', 'json'], JSON.stringify({ ...VLLM, inference: { ...VLLM.inference, context: 16384 } }));
  assert.equal(over.code, 1, over.out);
  const e = JSON.parse(over.out).error;
  assert.equal(e.field, 'inference.context');
  assert.match(e.message, /^inference\.context \(vLLM's max_model_len\) 16,384 is above the model's window of 8,192 tokens .*inference\.vllm\.allow_long_max_model_len \(VLLM_ALLOW_LONG_MAX_MODEL_LEN=1/);
  // Allowed: computed, 16,384 x 128 KiB of KV per sequence (32 layers x 8 KV heads x 128 x 2 x 2 B =
  // 131,072 B a token), and the command carries the variable.
  const allowed = JSON.parse(run(['--config', '-', '--format', 'json', '--set', 'inference.vllm.allow_long_max_model_len=true'],
    JSON.stringify({ ...VLLM, inference: { ...VLLM.inference, context: 16384 } })).out);
  assert.equal(allowed.metrics.kv_bytes_per_sequence.value, 16384 * 131072);
  assert.match(allowed.launch_command, /^VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve llama-3-8b --max-model-len 16384 /);
  // The checkpoint's own window (model.context_limit) is what vLLM derives: 32,768 there runs as is.
  const own = JSON.parse(run(['--config', '-', '--format', 'json', '--set', 'model.context_limit=32768'],
    JSON.stringify({ ...VLLM, inference: { ...VLLM.inference, context: 16384 } })).out);
  assert.match(own.launch_command, /^vllm serve llama-3-8b --max-model-len 16384 /);
});

test('HF generate, GQA: --set inference.hf.sdpa_enable_gqa=true drops the last step\'s repeat_kv copies', () => {
  const cfg = {
    method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'a100-80gb',
    inference: { engine: 'hf', weights: 'bf16', context: 4096, prompt_tokens: 64, concurrency: 8 },
  };
  const copies = run(['--config', '-', '--format', 'json'], JSON.stringify(cfg));
  const none = run(['--config', '-', '--set', 'inference.hf.sdpa_enable_gqa=true', '--format', 'json'], JSON.stringify(cfg));
  assert.equal(copies.code, 0, copies.err);
  assert.equal(none.code, 0, none.err);
  // 2 x 8 sequences x 32 heads x 4,096 tokens x 128 x 2 B against the 64-token prefill's 119,537,664 B.
  assert.equal(JSON.parse(copies.out).breakdown.activations, 536870912);
  assert.equal(JSON.parse(none.out).breakdown.activations, 119537664);
  const bad = run(['--config', '-', '--set', 'inference.hf.sdpa_enable_gqa=2'], JSON.stringify(cfg));
  assert.notEqual(bad.code, 0);
  assert.match(bad.err, /inference\.hf\.sdpa_enable_gqa/);
});

test('HF generate, LLM.int8 under LitGPT: --set inference.hf.litgpt_quantize=true quantizes the head and holds its re-quantization', () => {
  const cfg = {
    method: 'detailed', task: 'inference', model: { preset: 'llama-2-7b' }, gpu: 'a100-40gb',
    inference: { engine: 'hf', weights: 'bnb-int8', context: 56, prompt_tokens: 6 },
  };
  const hf = run(['--config', '-', '--format', 'json'], JSON.stringify(cfg));
  const lit = run(['--config', '-', '--set', 'inference.hf.litgpt_quantize=true', '--format', 'json'], JSON.stringify(cfg));
  assert.equal(hf.code, 0, hf.err);
  assert.equal(lit.code, 0, lit.err);
  // The head (32,000 x 4,096) in int8 instead of 2 B a weight: 131,072,000 B fewer (less its row scales);
  // while loading, its FP16 copy and double_quant's two int8 layouts: 131,072,000 x 4 B.
  const a = JSON.parse(hf.out), b = JSON.parse(lit.out);
  assert.ok(a.breakdown.weights - b.breakdown.weights > 130e6 && a.breakdown.weights - b.breakdown.weights < 131072000);
  assert.equal(b.breakdown.activations, 524288000);
  const bad = run(['--config', '-', '--set', 'inference.hf.litgpt_quantize=2'], JSON.stringify(cfg));
  assert.notEqual(bad.code, 0);
  assert.match(bad.err, /inference\.hf\.litgpt_quantize/);
});

test('vLLM\'s own flags set the fields that hold them: --max-model-len, -tp / --tensor-parallel-size, --gpu-memory-utilization, --max-num-seqs', () => {
  const base = ['--task', 'inference', '--method', 'detailed', '--engine', 'vllm', '--preset', 'llama-3-8b', '--gpu', 'a100-80gb'];
  const printed = (args) => {
    const r = run([...base, ...args, '--print-config']);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out).inference;
  };
  const a = printed(['--max-model-len', '8192', '--tensor-parallel-size', '2', '--gpu-memory-utilization', '0.85', '--max-num-seqs', '64']);
  assert.equal(a.context, 8192);
  assert.equal(a.tp, 2);
  assert.equal(a.vllm.gpu_memory_utilization, 0.85);
  assert.equal(a.vllm.max_num_seqs, 64);
  assert.equal(printed(['-tp', '4']).tp, 4);
  // Llama-3-8B's KV per sequence at --max-model-len 8192: 2 (K, V) x 32 layers x 8 KV heads x 128 x 2 B
  // = 131,072 B a token x 8,192 tokens = 1 GiB, and at -tp 2 half the KV heads on each GPU: 512 MiB.
  const j = JSON.parse(run([...base, '--max-model-len', '8192', '-tp', '2', '--format', 'json']).out);
  assert.equal(j.metrics.kv_bytes_per_sequence.value, 2 ** 29);
  // Out of range through an alias: the message names the field and its range, as --set would.
  const bad = run([...base, '--gpu-memory-utilization', '1.5']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.vllm\.gpu_memory_utilization must be a number greater than 0 and at most 1, got 1\.5/);
  // The help lists each spelling beside its field.
  const help = run(['--help']).out;
  assert.match(help, /--max-model-len, --context-length N[\s\S]*?\(inference\.context:/);
  assert.match(help, /-tp, --tensor-parallel-size N[\s\S]*?\(inference\.tp:/);
  assert.match(help, /--gpu-memory-utilization N[\s\S]*?\(inference\.vllm\.gpu_memory_utilization:/);
  assert.match(help, /--max-num-seqs N[\s\S]*?\(inference\.vllm\.max_num_seqs:/);
});

test('--set with a vLLM argument\'s name where the config keeps it elsewhere: the message names the field that holds it', () => {
  const r = run(['--task', 'inference', '--preset', 'llama-3-8b', '--set', 'inference.vllm.max_model_len=8192']);
  assert.equal(r.code, 1);
  assert.match(r.err, /unknown field inference\.vllm\.max_model_len.*--max-model-len.*inference\.context/);
  const tp = run(['--task', 'inference', '--preset', 'llama-3-8b', '--set', 'inference.vllm.tensor_parallel_size=2']);
  assert.equal(tp.code, 1);
  assert.match(tp.err, /--tensor-parallel-size.*inference\.tp/);
});

test('--gpus out of range with an inference task: the range --help gives, or inference.tp\'s when gpus stands in for it', () => {
  const help = run(['--help']).out.replace(/\s+/g, ' ');
  const range = help.match(/\(gpus: (\[1, \d+\]) GPUs/)[1];
  assert.equal(range, '[1, 1048576]');  // 2^20
  const base = ['--task', 'inference', '--method', 'detailed', '--preset', 'llama-3.1-8b'];
  const half = run([...base, '--gpus', '1.5']);
  assert.equal(half.code, 1);
  assert.match(half.err, /gpus must be a whole number in \[1, 1048576\] GPUs, got 1\.5/);
  // 5,000 GPUs is a valid job size, but more than inference.tp's [0, 4096]: the message says that limit is tp's.
  const many = run([...base, '--gpus', '5000']);
  assert.equal(many.code, 1);
  assert.match(many.err, /gpus \(5000\).*inference\.tp.*\[0, 4096\]/);
});

test('HF + bitsandbytes on an MoE: the routed experts stay BF16 (transformers 5), noted; inference.hf.experts_unquantized=false quantizes them', () => {
  const args = ['--method', 'detailed', '--task', 'inference', '--engine', 'hf', '--preset', 'mixtral-8x7b', '--weights', 'bnb-nf4-dq',
    '--gpu', 'h100-80gb', '--format', 'json'];
  const left = JSON.parse(run(args).out);
  const quantized = JSON.parse(run([...args, '--set', 'inference.hf.experts_unquantized=false']).out);
  // 32 x 8 x 3 x 4,096 x 14,336 = 45,097,156,608 expert weights at 2 B instead of 0.515869140625 B.
  assert.equal(left.breakdown.weights - quantized.breakdown.weights, 66930081792);
  assert.ok(left.notes.some((n) => n.includes('inference.hf.experts_unquantized')), left.notes.join('\n'));
  assert.ok(!quantized.notes.some((n) => n.includes('experts_unquantized')));
  // Not written back unless it differs from the default.
  assert.equal(JSON.parse(run([...args, '--print-config']).out).inference.hf?.experts_unquantized, undefined);
  const bad = run([...args, '--set', 'inference.hf.experts_unquantized="no"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /inference\.hf\.experts_unquantized/);
});

test('Llama 4: the chunked layers keep one 8,192-token chunk in llama.cpp and vLLM; --swa-full keeps the context', () => {
  // Scout Q4_K_M on one H100 at -c 131072: 12 global layers x 131,072 cells + 36 chunked x (8,192 + 512)
  // cells, 4,096 B a cell (2 x 8 KV heads x 128 x 2 B) = 7,725,907,968 B; --swa-full: 48 x 131,072 x 4,096.
  const scout = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-4-scout', '--gpu', 'h100-80gb', '--engine', 'llama.cpp',
    '--set', 'inference.weights="q4_k_m"', '-c', '131072', '--format', 'json'];
  let r = run(scout);
  assert.equal(r.code, 0, r.err);
  let j = JSON.parse(r.out);
  assert.equal(j.breakdown.kv_cache, 12 * 131072 * 4096 + 36 * 8704 * 4096);
  assert.ok(j.notes.some((n) => n.startsWith('Chunked-attention layers keep at most one 8192-token chunk each')));
  r = run([...scout, '--set', 'inference.swa_full=true']);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).breakdown.kv_cache, 48 * 131072 * 4096);
  // Maverick FP8 on 8 H100 (TP 8, one KV head a GPU: 512 B a layer a token) at 131,072 tokens under vLLM:
  // 12 x 131,072 + 36 x 8,192 tokens a sequence = 956,301,312 B a GPU.
  r = run(['--method', 'detailed', '--task', 'inference', '--preset', 'llama-4-maverick', '--gpu', 'h100-80gb', '--gpus', '8',
    '--engine', 'vllm', '--set', 'inference.weights="fp8"', '--set', 'inference.tp=8', '-c', '131072', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  j = JSON.parse(r.out);
  assert.equal(j.metrics.kv_bytes_per_token.value, 48 * 512);
  assert.equal(j.metrics.kv_bytes_per_sequence.value, 12 * 131072 * 512 + 36 * 8192 * 512);
  assert.equal(j.metrics.params.value, 400711848960);
});

test('vLLM refuses a quantization method below its minimum compute capability: an error with the GPU and both capabilities, the GPU table\'s rows say why', () => {
  const base = ['--method', 'detailed', '--task', 'inference', '--engine', 'vllm', '--ctx', '8192'];
  // gpt-oss-20b's MXFP4 checkpoint on a T4 (7.5): Mxfp4Config.get_min_capability 80 (vllm@007d500 mxfp4.py:186).
  const t4 = run([...base, '--preset', 'gpt-oss-20b', '--weights', 'mxfp4', '--gpu', 't4-16gb']);
  assert.equal(t4.code, 1);
  assert.equal(t4.out, '');
  assert.match(t4.err, /^vramcalc: inference\.weights "mxfp4" needs compute capability 8\.0 under vLLM \(mxfp4\), and the NVIDIA T4 16GB has 7\.5: vLLM refuses the checkpoint at start-up \("not supported for the current GPU", minimum 80, current 75\)/);
  // AWQ on a V100 (7.0 < 7.5).
  assert.match(run([...base, '--preset', 'llama-3.1-8b', '--weights', 'awq-int4', '--gpu', 'v100-16gb']).err, /"awq-int4" needs compute capability 7\.5 under vLLM \(awq\)/);
  // On an H100 the table's V100 and T4 rows hold vLLM's refusal, in the text and in the JSON.
  const text = run([...base, '--preset', 'gpt-oss-20b', '--weights', 'mxfp4', '--gpu', 'h100-80gb']).out;
  assert.match(text, /NVIDIA T4 16GB .*does not fit; vLLM refuses the format below its compute capability/);
  const json = JSON.parse(run([...base, '--preset', 'gpt-oss-20b', '--weights', 'mxfp4', '--gpu', 'h100-80gb', '--format', 'json']).out);
  assert.deepEqual(json.fits.find((f) => f.gpu === 'v100-16gb'), { fits: false, gpu: 'v100-16gb', gpus_needed: 0, no_backend: true, utilization: 0, within_target: false });
  // FP8 on an A100 (8.0 < 8.9): weight-only through Marlin, a note.
  const a100 = JSON.parse(run([...base, '--preset', 'llama-3.1-8b', '--weights', 'fp8', '--gpu', 'a100-80gb', '--format', 'json']).out);
  assert.ok(a100.notes.some((n) => n.includes('weight-only FP8 through the Marlin kernel') && n.includes('compute capability 8.0 is below 8.9')), a100.notes.join('\n'));
  // Another vLLM release's minimum: --set inference.constants.vllm_min_capability=75 lets the T4 load FP8.
  assert.equal(run([...base, '--preset', 'llama-3.1-8b', '--weights', 'fp8', '--gpu', 't4-16gb']).code, 1);
  assert.equal(run([...base, '--preset', 'llama-3.1-8b', '--weights', 'fp8', '--gpu', 't4-16gb', '--set', 'inference.constants.vllm_min_capability=75']).code, 0);
  // The best-format answer on a V100 skips what vLLM refuses there: INT8 W8A16, not FP8.
  const best = run(['solve', 'best_format', ...base, '--preset', 'llama-3.1-8b', '--weights', 'bf16', '--gpu', 'v100-16gb', '--format', 'json']);
  assert.equal(best.code, 0, best.err);
  const items = JSON.parse(best.out).items.map((x) => x.format ?? x);
  assert.ok(!items.some((f) => String(f).startsWith('fp8') || f === 'awq-int4' || f === 'w8a8'), items.join(', '));
});

test('llama-server flags llama.cpp refuses: -fa off with a quantized V cache is an error naming the field; -ctk q8_0 alone runs', () => {
  const base = ['--method', 'detailed', '--task', 'inference', '--engine', 'llama.cpp', '--preset', 'llama-3.1-8b', '--weights', 'q4_k_m',
    '--gpu', 'rtx-4090-24gb', '-c', '8192', '-fa', 'off'];
  // llama_init_from_model: "quantized V cache requires flash_attn to be enabled".
  const v = run([...base, '-ctk', 'q8_0', '-ctv', 'q8_0']);
  assert.equal(v.code, 1);
  assert.match(v.err, /^vramcalc: inference\.(kv_dtype|llamacpp\.kv_dtype_v) "q8_0" quantizes the V cache, which llama\.cpp allows only with flash attention \(-fa\)/);
  assert.equal(run([...base, '-ctk', 'q8_0']).code, 0);
  assert.equal(run([...base.slice(0, -1), 'on', '-ctk', 'q8_0', '-ctv', 'q8_0']).code, 0);
});

test('a quantized checkpoint with no --weights is served as stored: gpt-oss-120b MXFP4 fits one H100; --weights bf16 does not', () => {
  const args = ['--preset', 'gpt-oss-120b', '--engine', 'vllm', '--gpu', 'h100-80gb', '--method', 'detailed', '--task', 'inference'];
  const r = run([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  // 114,661,785,600 expert weights x 4.25 bits + 2,167,565,248 other weights x 2 B + the FP32 YaRN table 33,554,432 B
  // (tests/unit/test_checkpoint_dtype.cpp has the sum): 65.28 GB.
  assert.ok(Math.abs(j.breakdown.weights / 1e9 - 65.28) < 0.005, `weights ${j.breakdown.weights}`);
  assert.equal(j.fits.find((f) => f.gpu === 'h100-80gb').fits, true);
  const t = run(args);
  assert.match(t.out, /Weights \(MXFP4/);
  const b = run([...args, '--weights', 'bf16']);
  assert.match(b.out, /Weights \(BF16\)/);
  assert.match(b.out, /published checkpoint is quantized: MXFP4/);
});

test('DeepSeek-V3.2: the lightning indexer key beside the MLA latent, per engine, and the field that sets it', () => {
  // 61 layers: vLLM keeps the key FP8 + an FP32 scale per 128 (132 B) beside the BF16 latent (576 x 2): 61 x 1,284 =
  // 78,324 B a token; llama.cpp at the K type, q8_0's 34 B per 32: 61 x (576 + 128) x 34 / 32 = 45,628 B.
  const base = { method: 'detailed', task: 'inference', model: { preset: 'deepseek-v3.2' }, gpu: 'h200-141gb' };
  const vllm = run(['--config', '-', '--format', 'json'],
    JSON.stringify({ ...base, inference: { engine: 'vllm', weights: 'fp8-block', context: 8192, concurrency: 1, tp: 8 } }));
  assert.equal(vllm.code, 0, vllm.err);
  assert.equal(JSON.parse(vllm.out).metrics.kv_bytes_per_token.value, 78324);
  const cpp = run(['--config', '-', '--format', 'json'],
    JSON.stringify({ ...base, inference: { engine: 'llama.cpp', weights: 'q4_k_m', kv_dtype: 'q8_0', context: 8192, concurrency: 1 } }));
  assert.equal(cpp.code, 0, cpp.err);
  const j = JSON.parse(cpp.out);
  assert.equal(j.metrics.kv_bytes_per_token.value, 45628);
  assert.match(j.components.find((c) => c.key === 'kv_cache').formula, /the lightning indexer's keys, 61 layers x index_head_dim 128 x 1\.0625 B/);
  // DeepSeek-V3 with the two fields set is V3.2; an indexer without heads is refused, naming the field.
  const v3 = run(['--config', '-', '--format', 'json'], JSON.stringify({ ...base, model: { preset: 'deepseek-v3', index_heads: 64, index_head_dim: 128 },
    inference: { engine: 'llama.cpp', weights: 'q4_k_m', kv_dtype: 'q8_0', context: 8192, concurrency: 1 } }));
  assert.equal(JSON.parse(v3.out).metrics.kv_bytes_per_token.value, 45628);
  const bad = run(['--config', '-', '--format', 'json'], JSON.stringify({ ...base, model: { preset: 'deepseek-v3', index_head_dim: 128 } }));
  assert.notEqual(bad.code, 0);
  assert.match(bad.out + bad.err, /model\.index_heads must be at least 1 with a lightning indexer/);
});

test('SGLang: --engine sglang, its own flags, the pool in text and JSON, the refusal and the launch command', () => {
  // Llama-3.1-8B BF16 on one H100 with the CUDA context at 0.5 GiB: mem_fraction_static round((81,559 - 13,904) /
  // 81,559, 3) = 0.83; (0.83 x 84,479,280,824.32 - 16,094,076,928) / 131,072 = 412,168 tokens (docs/inference.md "SGLang").
  const base = ['--method', 'detailed', '--task', 'inference', '--engine', 'sglang', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb',
    '--context-length', '8192', '--set', 'inference.constants.cuda_context_gib=0.5'];
  const j = run([...base, '--format', 'json']);
  assert.equal(j.code, 0, j.err);
  const r = JSON.parse(j.out);
  assert.equal(r.metrics.kv_capacity_tokens.value, 412168);
  assert.equal(r.metrics.sglang_mem_fraction_static.value, 0.83);
  assert.equal(r.metrics.max_concurrency.value, 50);
  assert.deepEqual(r.components.map((c) => c.key), ['weights', 'kv_cache', 'activations', 'runtime', 'cuda_graphs']);
  assert.equal(r.launch_command, 'python -m sglang.launch_server --model-path llama-3.1-8b --tp 1 --context-length 8192 --mem-fraction-static 0.83');
  const t = run(base);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /KV cache pool .*= 412168 tokens/);
  // SGLang's own flag spellings: --mem-fraction-static 0.9 gives floor((0.9 x 84,479,280,824.32 - 16,094,076,928) / 131,072) = 457,285.
  const f = run([...base, '--mem-fraction-static', '0.9', '--page-size', '1', '--format', 'json']);
  assert.equal(f.code, 0, f.err);
  assert.equal(JSON.parse(f.out).metrics.kv_capacity_tokens.value, 457285);
  // The launch command reads back.
  const echo = run([...base, '--mem-fraction-static', '0.9', '--print-config']);
  assert.equal(JSON.parse(echo.out).inference.sglang.mem_fraction_static, 0.9);
  // Llama-3.1-70B BF16 on one H100: the weights take the static fraction; SGLang's RuntimeError in the notes.
  const big = run(['--method', 'detailed', '--task', 'inference', '--engine', 'sglang', '--preset', 'llama-3.1-70b', '--gpu', 'h100-80gb',
    '--context-length', '8192', '--format', 'json']);
  assert.equal(big.code, 0, big.err);
  const b = JSON.parse(big.out);
  assert.equal(b.metrics.kv_capacity_tokens.value, 0);
  assert.ok(b.notes.some((n) => n.includes('Not enough memory. Please try to increase --mem-fraction-static.')));
  assert.equal(b.fits.find((g) => g.gpu === 'h100-80gb').fits, false);
  const min = run(['solve', 'min_gpus', '--method', 'detailed', '--task', 'inference', '--engine', 'sglang', '--preset', 'llama-3.1-70b',
    '--gpu', 'h100-80gb', '--context-length', '8192', '--format', 'json']);
  assert.equal(min.code, 0, min.err);
  assert.equal(JSON.parse(min.out).value, 4);
  // fit-models under SGLang: the whole card is the budget (its own fraction and headroom), SGLang's formats only
  // (vLLM's list less int8), a row's load the total less the pool plus the KV it holds.
  const fit = run(['fit-models', '--method', 'detailed', '--task', 'inference', '--engine', 'sglang', '--gpu', 'h100-80gb',
    '--context-length', '8192', '--format', 'json']);
  assert.equal(fit.code, 0, fit.err);
  const fm = JSON.parse(fit.out);
  assert.equal(fm.budget_bytes, 85520809984);
  assert.match(fm.budget, /SGLang's own mem_fraction_static/);
  assert.ok(!fm.models.some((r) => r.format === 'int8'));
  const l8 = fm.models.find((r) => r.model === 'llama-3.1-8b' && r.format === 'bf16');
  assert.equal(l8.fits, true);
  assert.ok(l8.load_bytes < l8.total_bytes);
  // A field out of range is named.
  const bad = run([...base, '--mem-fraction-static', '1.5']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.out + bad.err, /inference\.sglang\.mem_fraction_static/);
});
