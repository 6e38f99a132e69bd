// Generates the golden-output corpus: configs.jsonl, one JSON config per line, across every method,
// task, engine, weight format, optimizer, precision, sharding and parallel layout, from a fixed seed
// (the same file every run). Presets and GPUs come from the CLI's own listings: the recorded 2,200
// lines were drawn when the list had its first 40 presets (to llama-3.2-3b ... bert-large-uncased);
// the presets added since have lines of their own, added by hand after them (golden.test.mjs).
//   node tests/golden/generate.mjs BUILD/vramcalc > tests/golden/configs.jsonl
// tests/golden/golden.test.mjs runs `vramcalc batch --solve` over the corpus and compares each output
// line with expected.jsonl (a refactor must not change any byte of any answer).
import { execFileSync } from "node:child_process";

const bin = process.argv[2] ?? process.env.VRAMCALC_BIN;
if (!bin) throw new Error("usage: node generate.mjs PATH/TO/vramcalc");
const list = (flag) => JSON.parse(execFileSync(bin, [flag, "--format", "json"], { encoding: "utf8" })).map((x) => x.id);
const presets = list("--list-presets");
const gpus = list("--list-gpus");

// mulberry32: a small seeded PRNG, so the corpus is reproducible.
let state = 20261202;
function rand() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const chance = (p) => rand() < p;
const pow2 = (lo, hi) => 2 ** (lo + Math.floor(rand() * (hi - lo + 1)));

const formats = ["bf16", "fp16", "fp32", "fp8", "fp8-block", "int8", "w8a8", "bnb-int8", "gptq-int8", "awq-int4",
  "gptq-int4", "bnb-nf4", "bnb-nf4-dq", "mxfp4", "nvfp4", "gptq-int3"];
const ggufFormats = ["q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_k_s", "q4_0", "iq4_xs", "q3_k_m", "q2_k", "gguf-f16", "gguf-bf16"];
// SGLang's lines are added by hand after the corpus (golden.test.mjs): a fourth engine here would move every draw.
const engines = ["vllm", "llama.cpp", "hf"];
const kvDtypes = ["auto", "fp8", "f16", "q8_0", "q4_0"];
const trainPrecisions = ["bf16-mixed", "fp16-mixed", "fp32", "bf16-true", "fp8"];
const trainOptimizers = ["adamw", "adamw-8bit", "paged-adamw-8bit", "adafactor", "sgd", "sgd-momentum", "lion"];
const shardings = ["ddp", "ddp", "zero1", "zero2", "zero3", "fsdp", "hybrid-shard"];
const profiles = ["hf-trainer", "hf-legacy", "torch-compile", "torchtitan", "megatron", "deepspeed", "litgpt", "torchtune"];

function model() {
  if (chance(0.75)) return { preset: pick(presets) };
  if (chance(0.5)) return { params_b: pick([0.125, 0.5, 1, 3, 7, 8, 13, 34, 70, 180, 405]) };
  const heads = pow2(3, 6);
  const headDim = pick([64, 128]);
  return {
    layers: pick([2, 12, 24, 32, 40, 80]), hidden: heads * headDim, heads, kv_heads: pick([1, heads / 4, heads]),
    ffn: heads * headDim * pick([2, 3, 4]), vocab: pick([32000, 50257, 128256]),
  };
}

function quick(task) {
  return {
    method: "quick", task, params_b: pick([0.5, 1, 3, 7, 13, 70, 175]),
    precision: pick(["fp32", "fp16", "bf16", "int8", "int4"]),
    optimizer: task === "inference" ? "inference" : pick(["adamw-mixed", "adamw", "adamw-8bit", "sgd"]),
    batch: pow2(0, 6), seq: pow2(9, 13), checkpointing: chance(0.3), gpus: pick([1, 2, 8]), gpu: pick(gpus),
  };
}

function guide(task) {
  return { method: "guide", task, model: model(), batch: pow2(0, 5), seq: pow2(9, 13), gpus: pick([1, 4, 8, 16]),
    gpu: pick(gpus), guide: { bytes: pick([1, 2, 4]), weight_bytes: pick([0.5, 1, 2]) } };
}

function training(task) {
  const tp = pick([1, 1, 2, 4, 8]);
  const pp = pick([1, 1, 2, 4]);
  const cfg = {
    method: "detailed", task, model: model(), batch: pow2(0, 4), seq: pow2(9, 13), gpu: pick(gpus),
    parallel: { tp, pp, sp: tp > 1 && chance(0.5), cp: pick([1, 1, 2]), schedule: pp > 1 ? pick(["1f1b", "interleaved"]) : "1f1b" },
    training: {
      precision: pick(trainPrecisions), optimizer: pick(trainOptimizers), sharding: pick(shardings),
      recompute: pick(["none", "selective", "full"]), attention: pick(["auto", "flash", "eager"]),
      profile: pick(profiles), offload_optimizer: chance(0.15),
    },
  };
  cfg.gpus = tp * pp * cfg.parallel.cp * pick([1, 2, 8]);
  if (cfg.parallel.schedule === "interleaved") cfg.parallel.virtual_stages = pick([1, 2]);
  if (task === "finetune") {
    cfg.training.finetune = pick(["full", "lora", "qlora"]);
    if (cfg.training.finetune !== "full") cfg.training.lora = { rank: pick([8, 16, 64]), targets: pick(["q,v", "all"]) };
  }
  return cfg;
}

function inference() {
  const engine = pick(engines);
  const cfg = {
    method: "detailed", task: "inference", model: model(), gpu: pick(gpus),
    inference: {
      engine, weights: engine === "llama.cpp" ? pick(ggufFormats.concat(["bf16", "fp16"])) : pick(formats), kv_dtype: pick(kvDtypes), context: pow2(9, 15), concurrency: pow2(0, 6),
    },
  };
  if (engine === "vllm") {
    cfg.inference.tp = pick([1, 2, 4, 8]);
    cfg.inference.vllm = { gpu_memory_utilization: pick([0.8, 0.9, 0.95]), enforce_eager: chance(0.3) };
  }
  if (engine === "llama.cpp") cfg.inference.llamacpp = { flash_attn: chance(0.6), n_ubatch: pick([256, 512]) };
  return cfg;
}

const kinds = [
  () => quick(pick(["training", "finetune", "inference"])),
  () => guide(pick(["training", "finetune", "inference"])),
  () => training("training"),
  () => training("finetune"),
  () => inference(),
  () => inference(),
];
const count = Number(process.env.VRAMCALC_GOLDEN_COUNT ?? 2200);
const lines = [];
for (let i = 0; i < count; ++i) lines.push(JSON.stringify(kinds[i % kinds.length]()));
process.stdout.write(lines.join("\n") + "\n");
