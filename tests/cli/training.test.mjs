// CLI tests for detailed training: the "training"/"parallel"/"runtime" sections through `vramcalc`,
// `vramcalc solve` for training questions, and `vramcalc validate` on a calibration CSV.
// Run by ctest (`cli`) with VRAMCALC_BIN set to the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.VRAMCALC_BIN || 'build/native/vramcalc';

function run(args, input) {
  const r = spawnSync(BIN, args, { input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const LORA = {
  method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 2, seq: 2048, gpu: 'a100-80gb',
  training: { finetune: 'lora', lora: { rank: 16, targets: 'q,k,v,o' }, recompute: 'full' },
};

test('detailed LoRA: components sum to the device total, metrics in bytes', () => {
  const r = run(['--config', '-', '--format', 'json'], JSON.stringify(LORA));
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.method, 'detailed');
  const sum = j.components.reduce((s, c) => s + c.bytes, 0);
  assert.ok(Math.abs(sum - j.total_bytes) < 1);
  assert.ok(Math.abs(j.metrics.device_total_bytes.value - j.total_bytes) < 1);
  // Frozen BF16 base: 8.03e9 x 2 B; adapters: 32 layers x 16 x (2 x (4096 + 4096) + 2 x (4096 + 1024)).
  assert.equal(j.metrics.trainable_params.value, 32 * 16 * (2 * 8192 + 2 * 5120));
  assert.ok(j.breakdown.weights > 16.06e9 && j.breakdown.weights < 16.2e9);
  assert.ok(j.fits.find((f) => f.gpu === 'a100-80gb').fits);
});

test('inconsistent layout: exit 1, the error names parallel.tp', () => {
  const cfg = { ...LORA, gpus: 3, parallel: { tp: 3 } };
  const r = run(['--config', '-', '--format', 'json'], JSON.stringify(cfg));
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.field, 'parallel.tp');
});

test('solve max_batch answers for a training config', () => {
  const r = run(['solve', 'max_batch', '--config', '-', '--format', 'json'], JSON.stringify(LORA));
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.question, 'max_batch');
  assert.ok(j.value >= 1);
});

test('validate prints estimate vs measured and the summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-'));
  const csv = join(dir, 'rows.csv');
  writeFileSync(csv, 'id,source,task,model,L,h,a,kv,hd,V,ffn,mlp,tied,params_b,weights,method,optimizer,batch,seq,ckpt,gpus,' +
    'sharding,what,value,unit,note\n' +
    'K1,x,context,none,,,,,,,,,,,,,,,,,1,none,smi,1343,MiB,\n' +
    'T1,x (A100-80GB),lora,Llama-3-8B,32,4096,32,8,128,128256,14336,swiglu,no,8.03,bf16-true,lora r32 q+v,adamw,1,512,no,1,' +
    'none,alloc,19.73,GB,\n');
  const r = run(['validate', csv]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^K1\s+context/m);
  assert.match(r.out, /^T1\s+lora\s+Llama-3-8B/m);
  assert.match(r.out, /^K1 .*not scored against itself/m);
  assert.match(r.out, /compared 1 rows \(1 skipped\): median \|error\| 0\.5%, p90 0\.5%, worst 0\.5% \(T1\); within 10%: 1 of 1/);
  assert.match(r.out, /fits right a100-80gb/);
  assert.equal(run(['validate', join(dir, 'missing.csv')]).code, 2);
});

test('suggest lists the smallest changes that make it fit, each with its total', () => {
  const cfg = { method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
    batch: 4, seq: 2048, training: { finetune: 'qlora', recompute: 'none' } };  // checkpointing off as stated (auto: peft's full)
  const r = run(['suggest', '--config', '-'], JSON.stringify(cfg));
  assert.equal(r.code, 0, r.err);
  // Micro-batch 4 needs two changes: full recomputation and micro-batch 1 with 4 accumulation steps (micro-batch 2
  // with recomputation is 19.72 GB, above the 19.32 GB target, with peft's FP32 embedding, head and norms).
  assert.match(r.out, /^Full activation recomputation, and micro-batch 1 with 4 accumulation steps\s+14\.\d\d GB \(\s*5\d\.\d%\)/m);
  const fits = run(['suggest', '--config', '-'], JSON.stringify({ ...cfg, batch: 1, gpu: 'h100-80gb' }));
  assert.match(fits.out, /nothing to suggest/);
});

test('suggest with nothing to suggest says which reason holds, with the total and the target', () => {
  const cfg = { method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 2048,
    training: { finetune: 'qlora', recompute: 'none' } };
  // No GPU chosen.
  let r = run(['suggest', '--config', '-'], JSON.stringify(cfg));
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'nothing to suggest: no GPU is chosen (--gpu)\n');
  // It fits: the same total as the estimate, and its share of the 75% target.
  r = run(['suggest', '--config', '-'], JSON.stringify({ ...cfg, gpu: 'h100-80gb' }));
  const e = JSON.parse(run(['--config', '-', '--format', 'json'], JSON.stringify({ ...cfg, gpu: 'h100-80gb' })).out);
  const gb = (e.total_bytes / 1e9).toFixed(2);
  assert.match(r.out, new RegExp(`^nothing to suggest: it fits NVIDIA H100 80GB \\(SXM\\) within the target \\(${gb.replace('.', '\\.')} GB, \\d+\\.\\d% of its memory; target 75%\\)\n$`));
  // QLoRA of Llama-3.1-70B on one 48 GB L40S at 2048 tokens: 132 GiB without recomputation, 53.6 GiB with it (above
  // the 75% target; both with peft's FP32 embedding, head and norms): no single change or pair the engine tries reaches the target.
  r = run(['suggest', '--config', '-'], JSON.stringify({ ...cfg, model: { preset: 'llama-3.1-70b' }, gpu: 'l40s-48gb' }));
  assert.match(r.out, /^nothing to suggest: no change or pair of changes tried makes it fit NVIDIA L40S 48GB within the target \(141\.\d\d GB now, 2\d\d\.\d% of its memory; target 75%\)\n$/);
});

test('validate skips a measured value of 0 or 1e308 with its range, never NaN, Inf or "+0.0%" (issue 16)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-'));
  const csv = join(dir, 'rows.csv');
  const bert = 'HF transformers docs (V100-16GB),full_ft,bert-large-uncased,24,1024,16,16,64,30522,4096,gelu,yes,0.335,fp32,full,adamw,';
  writeFileSync(csv, 'id,source,task,model,L,h,a,kv,hd,V,ffn,mlp,tied,params_b,weights,method,optimizer,batch,seq,ckpt,gpus,' +
    'sharding,what,value,unit,note\n' +
    `Z1,${bert}4,512,no,1,none,smi,0,MiB,\n` +
    `Z2,${bert}4,512,no,1,none,smi,1e308,GB,\n` +
    `Z3,${bert}1e10,512,no,1,none,smi,14949,MiB,\n`);
  const r = run(['validate', csv]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Z1 .*value must be greater than 0 and at most 1000000 GB \(953674316\.4 MiB\), got 0 MiB$/m);
  assert.match(r.out, /^Z2 .*value must be greater than 0 and at most 1000000 GB, got 1e\+308 GB$/m);
  assert.match(r.out, /^Z3 .*batch: batch must be a whole number in \[1, 1048576\] sequences, got 1e\+10$/m);
  assert.match(r.out, /compared 0 rows \(3 skipped\)/);
  assert.doesNotMatch(r.out, /nan|inf |\+0\.0%/i);
});

test('solve with target_utilization 1e16: an error with the range, not "-2147483648%" (issue 16)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-'));
  const cfg = join(dir, 'c.json');
  writeFileSync(cfg, JSON.stringify({ ...LORA, target_utilization: 1e16 }));
  const r = run(['solve', 'max_batch', '--config', cfg]);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /target_utilization must be a number in \[0\.05, 1\], got 1e\+16/);
});

test('--set training.compile_loss=true: the compiled loss at 4 B a logit, the note gone; a bad value names the field', () => {
  const titan = JSON.stringify({
    method: 'detailed', task: 'training', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 8192, gpus: 8,
    training: { sharding: 'fsdp', profile: 'torchtitan', compile: true },
  });
  const logits = (j) => j.components.find((c) => c.key === 'logits_loss');
  const auto = run(['--config', '-', '--format', 'json'], titan);
  assert.equal(auto.code, 0, auto.err);
  const a = JSON.parse(auto.out);
  // 8,192 tokens x 128,256 logits x 12 B (FP32) eager; 4 B (BF16 saved + BF16 gradient) compiled.
  assert.equal(logits(a).bytes, 8192 * 128256 * 12);
  assert.ok(a.notes.some((n) => n.includes('--set training.compile_loss=true')));
  const on = run(['--config', '-', '--format', 'json', '--set', 'training.compile_loss=true'], titan);
  assert.equal(on.code, 0, on.err);
  const o = JSON.parse(on.out);
  assert.equal(logits(o).bytes, 8192 * 128256 * 4);
  assert.match(logits(o).formula, /x 4 B \(compiled loss\)/);
  assert.ok(!o.notes.some((n) => n.includes('compile_loss')));
  const bad = run(['--config', '-', '--set', 'training.compile_loss="maybe"'], titan);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.compile_loss/);
});

test('ZeRO-3 over 8 GPUs: the parameter count per GPU is labelled as the count before sharding, the weights divide it by 8', () => {
  const args = ['--preset', 'llama-3.1-8b', '--method', 'detailed', '--task', 'training', '--gpus', '8', '--gpu', 'h100-80gb',
    '--set', 'training.sharding="zero3"'];
  const j = JSON.parse(run([...args, '--format', 'json']).out);
  // Llama-3.1-8B: 8,030,261,248 parameters, all on each GPU before ZeRO-3 shards them (no TP, no PP).
  assert.equal(j.metrics.params_per_gpu.value, 8030261248);
  assert.match(j.metrics.params_per_gpu.label, /before ZeRO-3\/FSDP sharding/);
  // Weights at rest: 8,030,261,248 x 4 B (FP32 master params) / 8 = 4,015,130,624 B.
  assert.ok(Math.abs(j.breakdown.weights - 4015130624) < 1, `${j.breakdown.weights}`);
  const text = run(args).out;
  assert.match(text, /Parameters on this GPU before ZeRO-3\/FSDP sharding\s+8030261248/);
  assert.match(text, /8\.03e9 params before sharding x 4 B .*\/ 8 \(ZeRO-3 shards\)/);
});

test('QLoRA under hf-trainer: recompute auto is full as peft does (70B fits one H100), the note says so; none as stated', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-70b', '--gpu', 'h100-80gb', '--batch', '1',
    '--seq', '2048', '--set', 'training.finetune="qlora"', '--format', 'json'];
  const auto = JSON.parse(run(args).out);
  const none = JSON.parse(run([...args, '--set', 'training.recompute="none"']).out);
  const full = JSON.parse(run([...args, '--set', 'training.recompute="full"']).out);
  assert.equal(auto.total_bytes, full.total_bytes);
  // 80 layers x 2,048 tokens x 8,192 x 4 B checkpointed inputs (FP32: peft's cast, training.lora.upcast_frozen),
  // instead of every layer's activations.
  assert.equal(auto.metrics.activation_bytes_per_layer.value, 2048 * 8192 * 4);
  assert.ok(auto.fits.find((f) => f.gpu === 'h100-80gb').within_target, `${auto.total_bytes / 1e9} GB`);
  assert.ok(!none.fits.find((f) => f.gpu === 'h100-80gb').fits, `${none.total_bytes / 1e9} GB`);
  assert.ok(auto.notes.some((n) => /prepare_model_for_kbit_training, .* turns gradient checkpointing on/.test(n)));
  assert.ok(!full.notes.some((n) => /turns gradient checkpointing on/.test(n)));
  assert.equal(JSON.parse(run([...args, '--print-config']).out).training.recompute, 'auto');
});

test('QLoRA under hf-trainer: peft\'s FP32 cast of the embedding, head and norms, noted; training.lora.upcast_frozen=false takes it back', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--batch', '1', '--seq', '2048',
    '--set', 'training.finetune="qlora"', '--format', 'json'];
  const cast = JSON.parse(run(args).out);
  const off = JSON.parse(run([...args, '--set', 'training.lora.upcast_frozen=false']).out);
  // Outside the NF4 linears: embedding + head 2 x 128,256 x 4,096 and the norms 2 x 4,096 x 32 + 4,096 = 1,050,939,392
  // parameters, 4 B instead of 2: +2,101,878,784 B (weights 7,831,437,312 B against 5,729,558,528 B).
  assert.equal(cast.breakdown.weights, 7831437312);
  assert.equal(off.breakdown.weights, 5729558528);
  // FP32 hidden states: each checkpointed layer input 2,048 x 4,096 x 4 B.
  assert.equal(cast.metrics.activation_bytes_per_layer.value, 2048 * 4096 * 4);
  assert.equal(off.metrics.activation_bytes_per_layer.value, 2048 * 4096 * 2);
  // The FP32 head's BF16 autocast copy, 128,256 x 4,096 x 2 B, held through the loss.
  assert.equal(cast.breakdown.temporary - off.breakdown.temporary, 128256 * 4096 * 2);
  const note = cast.notes.find((n) => n.includes('training.lora.upcast_frozen auto'));
  assert.ok(note, cast.notes.join('\n'));
  assert.match(note, /1\.051e9 params, \+2\.10 GB of weights/);
  assert.match(note, /--set training\.lora\.upcast_frozen=false/);
  assert.ok(!off.notes.some((n) => n.includes('upcast_frozen')));
  assert.equal(JSON.parse(run([...args, '--set', 'training.lora.upcast_frozen=false', '--print-config']).out).training.lora.upcast_frozen, false);
  assert.equal(JSON.parse(run([...args, '--print-config']).out).training.lora.upcast_frozen, null);
  // LitGPT never calls peft: the same as off unless the config says true (its QLoRA runs bf16-true:
  // bf16-mixed with --quantize is refused, below).
  const litgpt = JSON.parse(run([...args, '--set', 'training.profile="litgpt"', '--training-precision', 'bf16-true']).out);
  assert.ok(!litgpt.notes.some((n) => n.includes('upcast_frozen')));
  // A wrong value names the field.
  const bad = run([...args, '--set', 'training.lora.upcast_frozen="sometimes"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.lora\.upcast_frozen/);
});

test('profile trl (TRL SFTTrainer): Llama-3.1-8B QLoRA r16, 1 x 2048 on an RTX 4090, by hand against hf-trainer; listed where a wrong profile is refused', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--batch', '1', '--seq', '2048',
    '--set', 'training.finetune="qlora"', '--gpu', 'rtx-4090-24gb', '--format', 'json'];
  const hf = JSON.parse(run(args).out);
  const trl = JSON.parse(run([...args, '--set', 'training.profile="trl"']).out);
  // No peft cast and BF16 adapters: 3,600,416,768 + 1,050,939,392 x 2 + 6,815,744 x 2 = 5,715,927,040 B; AdamW 6,815,744 x 4 B.
  assert.equal(trl.breakdown.weights, 5715927040);
  assert.equal(trl.breakdown.optimizer, 6815744 * 4);
  // The chunked loss: the head's FP32 copy and its BF16 cast, 128,256 x 4,096 x 6 B, + the sorted hidden states and
  // their gradient 2 x 2,048 x 4,096 x 2 B, against hf-trainer's 2,048 x 128,256 x 12 B.
  assert.equal(trl.breakdown.logits_loss, 128256 * 4096 * 6 + 2 * 2048 * 4096 * 2);
  assert.equal(hf.breakdown.logits_loss, 2048 * 128256 * 12);
  // Checkpointing on (SFTConfig): 32 BF16 layer inputs + the final norm's FP32 copy.
  assert.equal(trl.breakdown.activations, 32 * 2048 * 4096 * 2 + 2048 * 4096 * 4);
  assert.ok(trl.notes.some((n) => n.includes('SFTConfig defaults gradient_checkpointing to True')), trl.notes.join('\n'));
  assert.ok(trl.notes.some((n) => n.includes("TRL's chunked_nll")));
  // 10.35 GB against 14.67 GB on nvidia-smi.
  assert.equal((trl.total_bytes / 1e9).toFixed(2), '10.35');
  assert.equal((hf.total_bytes / 1e9).toFixed(2), '14.67');
  // loss_type "nll" (training.loss_chunk_tokens 0): hf-trainer's loss bytes.
  const nll = JSON.parse(run([...args, '--set', 'training.profile="trl"', '--set', 'training.loss_chunk_tokens=0']).out);
  assert.equal(nll.breakdown.logits_loss, hf.breakdown.logits_loss);
  // A wrong profile lists trl among the accepted ones.
  const bad = run([...args, '--set', 'training.profile="sft"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.profile.*torchtune, trl/);
});

test('Qwen3-30B-A3B LoRA r16 on q, v and the MLP: transformers 5 adapts no routed expert (noted); per-expert and target_parameters by hand', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'qwen3-30b-a3b', '--gpu', 'h100-80gb', '--batch', '1',
    '--seq', '2048', '--set', 'training.finetune="lora"', '--set', 'training.lora.rank=16', '--set', 'training.lora.dropout=0',
    '--set', 'training.lora.targets="q,v,gate,up,down"', '--format', 'json'];
  const auto = JSON.parse(run(args).out);
  const per = JSON.parse(run([...args, '--set', 'training.lora.expert_adapters="per-expert"']).out);
  const fused = JSON.parse(run([...args, '--set', 'training.lora.expert_adapters="target-parameters"']).out);
  // Per expert: 48 layers x 128 experts x 3 x 16 x (2,048 + 768) = 830,472,192 adapters, 4 B each in FP32
  // and AdamW's 8 B: 3,321,888,768 B of weights and 6,643,777,536 B of optimizer state that auto does not hold.
  assert.equal(per.breakdown.weights - auto.breakdown.weights, 3321888768);
  assert.equal(per.breakdown.optimizer - auto.breakdown.optimizer, 6643777536);
  // target_parameters: 48 x 128 x 16 x ((2,048 + 1,536) + (768 + 2,048)) = 629,145,600 adapters (x 4 B), and
  // the merged experts of 48 layers, 48 x 128 x (1,536 x 2,048 + 2,048 x 768) x 2 B = 57,982,058,496 B.
  assert.equal(fused.breakdown.weights - auto.breakdown.weights, 2516582400);
  assert.ok(fused.breakdown.activations - auto.breakdown.activations >= 57982058496);
  assert.ok(!fused.fits.find((f) => f.gpu === 'h100-80gb').fits, `${fused.total_bytes / 1e9} GB`);
  const note = auto.notes.find((n) => n.includes('training.lora.expert_adapters none, auto, profile hf-trainer'));
  assert.ok(note, auto.notes.join('\n'));
  assert.match(note, /8\.305e8 params, 13\.29 GB at 16 B each/);
  assert.match(fused.notes.find((n) => n.includes('expert_adapters target-parameters')), /1\.21 GB a layer on this GPU/);
  assert.equal(JSON.parse(run([...args, '--print-config']).out).training.lora.expert_adapters, 'auto');
  // "What to change" offers the unmerged adapters (Unsloth, Axolotl's MoE kernels).
  // On an H200 (75% of 141 GB = 105.75 GB) 155.33 GB does not fit, the unmerged 91.31 GB does.
  const sug = run(['suggest', ...args.filter((a) => a !== '--format' && a !== 'json').map((a) => (a === 'h100-80gb' ? 'h200-141gb' : a)),
    '--set', 'training.lora.expert_adapters="target-parameters"']).out;
  assert.match(sug, /training\.lora\.expert_adapters: target-parameters -> target-parameters-unmerged/);
  // peft refuses LoRA dropout with target_parameters; a wrong value names the field and its values.
  const drop = run([...args, '--set', 'training.lora.expert_adapters="target-parameters"', '--set', 'training.lora.dropout=0.05']);
  assert.equal(drop.code, 1);
  assert.match(drop.err, /training\.lora\.dropout must be 0 with training\.lora\.expert_adapters target-parameters/);
  const bad = run([...args, '--set', 'training.lora.expert_adapters="all"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.lora\.expert_adapters.*per-expert/);
});

test('training.liger: Liger Kernel on the CLI (--set), under trl its loss replaces chunked_nll; suggest offers it when the logits dominate', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--batch', '1', '--seq', '4096',
    '--set', 'training.finetune="lora"', '--set', 'training.recompute="none"', '--format', 'json'];
  const on = JSON.parse(run([...args, '--set', 'training.liger=true']).out);
  const off = JSON.parse(run(args).out);
  // 6,304,038,912 B of HF's FP32 loss buffers against Liger's 67,452,928 B (docs/training.md, "Liger Kernel").
  assert.equal(off.breakdown.logits_loss, 4096 * 128256 * 12);
  assert.equal(on.breakdown.logits_loss, 67452928);
  assert.ok(on.notes.some((n) => n.includes('apply_liger_kernel_to_llama')), on.notes.join('\n'));
  // TRL: the same fused loss (loss_type "nll") plus the FP32 token accuracy it asks Liger for (4,096 x 4 B), and
  // chunked_nll with it refused, naming the field.
  const trl = JSON.parse(run([...args, '--set', 'training.liger=true', '--set', 'training.profile="trl"']).out);
  assert.equal(trl.breakdown.logits_loss, 67452928 + 4096 * 4);
  const bad = run([...args, '--set', 'training.liger=true', '--set', 'training.profile="trl"', '--set', 'training.loss_chunk_tokens=256']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.loss_chunk_tokens must be 0 or -1 with training\.liger/);
  // 32,768 tokens with full recomputation on an H100: the FP32 loss (50.4 GB) does not fit; Liger is offered.
  const sug = run(['suggest', '--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b', '--batch', '1', '--seq', '32768',
    '--gpu', 'h100-80gb', '--set', 'training.finetune="lora"', '--set', 'training.recompute="full"']).out;
  assert.match(sug, /training\.liger: false -> true/);
});

test('Mixtral-8x7B QLoRA r16 on one H100: transformers 5 leaves the routed experts unquantized, noted; experts_unquantized=false quantizes them', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'mixtral-8x7b', '--gpu', 'h100-80gb', '--batch', '1',
    '--seq', '2048', '--set', 'training.finetune="qlora"', '--set', 'training.lora.rank=16', '--set', 'training.lora.upcast_frozen=false',
    '--format', 'json'];
  const left = JSON.parse(run(args).out);
  const quantized = JSON.parse(run([...args, '--set', 'training.lora.experts_unquantized=false']).out);
  // 32 layers x 8 experts x 3 x 4,096 x 14,336 = 45,097,156,608 expert weights: 2 B (90.19 GB) instead of
  // 0.515869140625 B of NF4 (23.26 GB): +66,930,081,792 B.
  assert.equal(left.breakdown.weights - quantized.breakdown.weights, 66930081792);
  assert.equal(quantized.breakdown.weights, 24510799872);
  assert.ok(quantized.fits.find((f) => f.gpu === 'h100-80gb').within_target, `${quantized.total_bytes / 1e9} GB`);
  assert.ok(!left.fits.find((f) => f.gpu === 'h100-80gb').fits, `${left.total_bytes / 1e9} GB`);
  const note = left.notes.find((n) => n.includes('training.lora.experts_unquantized auto'));
  assert.ok(note, left.notes.join('\n'));
  assert.match(note, /90\.19 GB of weights where quantized they would take 23\.26 GB/);
  assert.match(note, /Axolotl \(quantize_moe_experts: true/);
  assert.ok(!quantized.notes.some((n) => n.includes('experts_unquantized')));
  assert.equal(JSON.parse(run([...args, '--print-config']).out).training.lora.experts_unquantized, null);
  // The suggestion says it.
  const sug = run(['suggest', ...args.filter((a) => a !== '--format' && a !== 'json')]).out;
  assert.match(sug, /training\.lora\.experts_unquantized: auto \(true\) -> false/);
  // A wrong value names the field.
  const bad = run([...args, '--set', 'training.lora.experts_unquantized="fp8"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /training\.lora\.experts_unquantized/);
});

test('litgpt: recompute auto checkpoints every block when fine-tuning on 4 GPUs (noted); a bf16-mixed LoRA holds its base in FP32', () => {
  // LitGPT's finetune/full.py builds FSDPStrategy(activation_checkpointing_policy={Block}) on more than one device.
  const ft = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3-8b', '--gpus', '4', '--sharding', 'fsdp',
    '--training-profile', 'litgpt', '--batch', '1', '--seq', '2048', '--gpu', 'h100-80gb', '--format', 'json'];
  const auto = JSON.parse(run(ft).out);
  const full = JSON.parse(run([...ft, '--set', 'training.recompute="full"']).out);
  const none = JSON.parse(run([...ft, '--set', 'training.recompute="none"']).out);
  assert.equal(auto.total_bytes, full.total_bytes);
  assert.ok(none.total_bytes > auto.total_bytes + 10e9);
  assert.ok(auto.notes.some((n) => n.includes("LitGPT's fine-tuning scripts checkpoint every transformer block")));
  assert.ok(!full.notes.some((n) => n.includes("LitGPT's fine-tuning scripts")));
  assert.equal(JSON.parse(run([...ft, '--print-config']).out).training.recompute, 'auto');
  // LoRA r16 on q and v, one GPU, bf16-mixed: Lightning builds the model in FP32, so the frozen base is
  // 8,030,261,248 x 4 B and the 6,815,744 FP32 adapters x 4 B; autocast's BF16 copies of the frozen linear weights,
  // (32 x 218,103,808 + 525,336,576) x 2 = 15,009,316,864 B, in the temporaries.
  const lora = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3-8b', '--finetune', 'lora', '--lora-rank', '16',
    '--batch', '1', '--seq', '2048', '--gpu', 'h100-80gb', '--training-profile', 'litgpt', '--training-precision', 'bf16-mixed',
    '--format', 'json'];
  const fp32 = JSON.parse(run(lora).out);
  const bf16 = JSON.parse(run([...lora, '--set', 'training.lora.base_fp32=false']).out);
  assert.equal(fp32.breakdown.weights, 8030261248 * 4 + 6815744 * 4);
  assert.equal(bf16.breakdown.weights, 8030261248 * 2 + 6815744 * 4);
  assert.equal(fp32.breakdown.temporary - bf16.breakdown.temporary, (32 * 218103808 + 525336576) * 2);
  assert.ok(fp32.notes.some((n) => n.includes('Frozen base in FP32 (training.lora.base_fp32 auto)')));
  const bad = run([...lora, '--set', 'training.lora.base_fp32="yes"']);
  assert.equal(bad.code, 1);
  assert.match(bad.err + bad.out, /training\.lora\.base_fp32/);
});

test('hostile shapes name the field and its range in its unit: seq "nan" (a string), a LoRA rank above the hidden size', () => {
  const base = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-3.1-8b'];
  let r = run([...base, '--seq', 'nan']);
  assert.equal(r.code, 1);
  assert.match(r.err, /seq must be a whole number in \[1, 16777216\] tokens, got a string/);
  r = run([...base, '--batch', 'many']);
  assert.match(r.err, /batch must be a whole number in \[1, 1048576\] sequences, got a string/);
  r = run([...base, '--set', 'training.finetune="lora"', '--set', 'training.lora.rank=8192']);
  assert.equal(r.code, 1);
  assert.match(r.err, /training\.lora\.rank must be a whole number in \[1, 4096\] \(the model's hidden size[^)]*\), got 8192/);
  assert.equal(run([...base, '--set', 'training.finetune="lora"', '--set', 'training.lora.rank=4096']).code, 0);
});

test('training flags (--finetune, --lora-rank, --lora-targets, --sharding, ...) set the same fields as --set', () => {
  // Each flag is its field's (core/fields.cpp .cli): the two spellings give one result, byte for byte.
  const common = ['--task', 'finetune', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb', '--format', 'json'];
  const flags = run([...common, '--finetune', 'qlora', '--lora-rank', '64', '--lora-targets', 'all-linear',
    '--recompute', 'full', '--training-profile', 'trl', '--training-optimizer', 'paged-adamw-8bit']);
  const set = run([...common, '--set', 'training.finetune="qlora"', '--set', 'training.lora.rank=64',
    '--set', 'training.lora.targets="all-linear"', '--set', 'training.recompute="full"',
    '--set', 'training.profile="trl"', '--set', 'training.optimizer="paged-adamw-8bit"']);
  assert.equal(flags.code, 0, flags.err);
  assert.equal(flags.out, set.out);
  const j = JSON.parse(flags.out);
  assert.equal(j.method, 'detailed');
  // all-linear at rank 64 on Llama-3.1-8B: 32 layers x 64 x (q 4096+4096, k 4096+1024, v 4096+1024,
  // o 4096+4096, gate 4096+14336, up 4096+14336, down 14336+4096) = 32 x 64 x 81,920 = 167,772,160.
  assert.equal(j.metrics.trainable_params.value, 32 * 64 * (8192 + 5120 + 5120 + 8192 + 3 * 18432));
  // The parallel flags too: --tp 2 --dp 2 on 4 GPUs is parallel.tp 2, parallel.dp 2.
  const par = ['--method', 'detailed', '--preset', 'llama-3.1-8b', '--gpus', '4', '--format', 'json'];
  const a = run([...par, '--tp', '2', '--dp', '2', '--sharding', 'zero3', '--grad-accum', '4', '--training-precision', 'bf16-true']);
  const b = run([...par, '--set', 'parallel={"tp":2,"dp":2}', '--set', 'training={"sharding":"zero3","grad_accum":4,"precision":"bf16-true"}']);
  assert.equal(a.code, 0, a.err);
  assert.equal(a.out, b.out);
});

test('a training flag with a bad value: exit 1, the message names the field and the accepted values', () => {
  const r = run(['--task', 'finetune', '--preset', 'llama-3.1-8b', '--finetune', 'qlra']);
  assert.equal(r.code, 1);
  assert.match(r.err, /training\.finetune must be one of full, lora, qlora, got "qlra"/);
  const n = run(['--task', 'finetune', '--preset', 'llama-3.1-8b', '--finetune', 'lora', '--lora-rank', '0']);
  assert.equal(n.code, 1);
  assert.match(n.err, /training\.lora\.rank/);
  assert.match(n.err, /\[1, 65536\]/);
});

test('litgpt refuses a quantized base under mixed precision and on more than one GPU, as its finetune scripts do: an error naming the field, no figure', () => {
  const args = ['--method', 'detailed', '--task', 'finetune', '--preset', 'llama-2-7b', '--batch', '1', '--seq', '512',
    '--finetune', 'qlora', '--training-profile', 'litgpt', '--gpu', 'a100-40gb'];
  // bf16-mixed (LitGPT's own default when training): ValueError("Quantization and mixed precision is not supported.")
  // (Lightning-AI/litgpt@2685705 litgpt/finetune/lora.py:141-143).
  const mixed = run(args);
  assert.equal(mixed.code, 1);
  assert.match(mixed.err, /^vramcalc: training\.precision "bf16-mixed" with a quantized base .* is refused by LitGPT \(Lightning Fabric\)/);
  assert.match(mixed.err, /"Quantization and mixed precision is not supported\."/);
  assert.equal(mixed.out, '');
  // fp16-mixed too (LitGPT's "16-mixed" contains "mixed").
  assert.match(run([...args, '--training-precision', 'fp16-mixed']).err, /training\.precision "fp16-mixed"/);
  // bf16-true on 2 GPUs: NotImplementedError("Quantization is currently not supported for multi-GPU training ...") (:152-157).
  const two = run([...args, '--training-precision', 'bf16-true', '--gpus', '2', '--format', 'json']);
  assert.equal(two.code, 1);
  assert.match(two.err, /gpus must be 1 with a quantized base .* under LitGPT \(Lightning Fabric\), got 2: .*"Quantization is currently not supported for multi-GPU training"/);
  // bf16-true on one GPU runs: a figure, the NF4 base's weights among it (X45's configuration at 512 tokens).
  const one = JSON.parse(run([...args, '--training-precision', 'bf16-true', '--format', 'json']).out);
  assert.equal(one.ok, true);
  assert.ok(one.total_bytes > one.breakdown.weights && one.breakdown.weights > 3e9, String(one.total_bytes));
  // Under hf-trainer (peft + bitsandbytes on accelerate) the same bf16-mixed QLoRA is a figure.
  assert.equal(run([...args, '--training-profile', 'hf-trainer']).code, 0);
});
