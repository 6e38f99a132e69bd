// The docs' CLI examples run as written: every indented `build/native/vramcalc ...` line of README.md
// and docs/*.md (with its `\` continuation lines, less its `# comment`) is run from the repository
// root and must exit 0 (a renamed flag, preset or a file not in the repository fails it), and the
// figures the docs quote beside an example are today's output.
// Run by ctest (`cli`) with VRAMCALC_BIN set to the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = resolve(root, process.env.VRAMCALC_BIN || 'build/native/vramcalc');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// [{where, args}] of every example: an indented code line that starts with build/native/vramcalc.
function examples() {
  const out = [];
  for (const doc of docs) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; ++i) {
      const m = /^ {4,}build\/native\/vramcalc\b(.*)$/.exec(lines[i]);
      if (!m) continue;
      const where = `${doc}:${i + 1}`;
      let cmd = m[1];
      while (/\\\s*$/.test(cmd) && i + 1 < lines.length) cmd = cmd.replace(/\\\s*$/, ' ') + lines[++i].trim();
      out.push({ where, args: cmd.replace(/\s+#\s.*$/, '') });
    }
  }
  return out;
}

function run(args) {
  // The docs write the arguments for a POSIX shell (--set x='"qlora"'), so a shell reads them.
  const r = spawnSync('/bin/sh', ['-c', `"$0" ${args}`, BIN], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('every CLI example in README.md and docs/ runs as written', () => {
  const all = examples();
  assert.ok(all.length >= 19, `found only ${all.length} examples`);
  for (const { where, args } of all) {
    const r = run(args);
    assert.equal(r.code, 0, `${where}: vramcalc${args}\n${r.err}${r.out.slice(0, 400)}`);
  }
});

test("README: the LoRA fine-tune's largest micro-batch on an H100 is 3", () => {
  // 3 x 2048 tokens fit 75% of 81,559 MiB = 64.14 GB; the README's comment says "3 sequences".
  const r = run(`solve max_batch --method detailed --task finetune --preset llama-3.1-8b --set training.finetune='"lora"' --gpu h100-80gb`);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Largest micro-batch that fits: 3 sequences/);
  assert.match(r.out, /within 64\.14 GB \(75% of NVIDIA H100 80GB/);
});

test("docs/fit-models.md's example: the figures its prose quotes", () => {
  const r = run(`fit-models --method detailed --task inference --preset llama-3.1-8b --gpu rtx-4090-24gb --set inference.engine='"llama.cpp"' --set inference.context=4096 --format json`);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  // budget: 0.75 x 24,564 MiB x 1,048,576 B = 19,318,964,224 B = 19.32 GB
  assert.equal(j.budget_bytes, 0.75 * 24564 * 1048576);
  const row = (model, format) => j.models.find((m) => m.model === model && m.format === format);
  const gb = (b) => (b / 1e9).toFixed(2);
  const pct = (m) => (100 * m.share).toFixed(1);
  // share = total / budget: 16.31 / 19.32 = 84.4%; 24.49 / 19.32 = 126.8% (llama-server's --fit
  // split: the card less 1 GiB, above the 75% budget)
  assert.equal(gb(row('llama-3.1-8b', 'gguf-bf16').total_bytes), '16.31');
  assert.equal(pct(row('llama-3.1-8b', 'gguf-bf16')), '84.4');
  assert.equal(gb(row('llama-3.1-8b', 'q4_k_m').total_bytes), '5.91');
  assert.equal(gb(row('llama-3.1-70b', 'q2_k').total_bytes), '24.49');
  assert.equal(pct(row('llama-3.1-70b', 'q2_k')), '126.8');
  assert.ok(j.models.filter((m) => m.model === 'llama-3.1-70b').every((m) => !m.fits), 'the 70B fits in no GGUF type');
  // Kimi-K2 (four types), DeepSeek-V3.2, -V3 and -R1 Q6_K, Llama-4 Maverick (three types), MiniMax-M2 BF16: --fit's GPU part within the budget, most weights
  // in system RAM of no stated size: not counted, "needs ... GB"
  const ram = j.models.filter((m) => m.needs_ram);
  assert.deepEqual(ram.map((m) => `${m.model}/${m.format}`),
    ['kimi-k2/q8_0', 'kimi-k2/q6_k', 'kimi-k2/q5_k_m', 'kimi-k2/q3_k_m', 'deepseek-v3.2/q6_k', 'deepseek-v3/q6_k', 'deepseek-r1/q6_k',
      'llama-3.1-405b/gguf-bf16', 'llama-4-maverick/q6_k', 'llama-4-maverick/q5_k_m', 'llama-4-maverick/q3_k_m',
      'minimax-m2/gguf-bf16']);
  // Llama-3.1-405B BF16: --fit's -ngl 3 is the output layer (16,384 x 128,256 x 2 B = 4,202,692,608 B)
  // and 2 layers, 18.68 GB (96.7%) with no CPU output weight to stage: within the budget since the
  // output layer goes first (llama.cpp PR #18148; before, 3 layers filled the card to 24.16 GB).
  assert.equal(gb(ram[7].total_bytes), '18.68');
  assert.equal(gb(ram[7].ram_bytes), '796.99');
  // 17.74 GB: attn_k_b's 128-wide rows in Q8_0 (Q6_K's fallback) on the GPU, 123,928,576 B more than 17.61; V3.2
  // 18.50 GB with its lightning indexer (851,524,864 weights, Q6_K and Q8_0 where the rows fall back) and its keys
  assert.deepEqual(ram.slice(4, 7).map((m) => gb(m.total_bytes)), ['18.50', '17.74', '17.74']);
  assert.deepEqual(ram.slice(4, 7).map((m) => gb(m.ram_bytes)), ['537.19', '537.19', '537.19']);
  // Maverick Q3_K_M 176.71 GB: --fit's experts per layer (Q3_K_M's ffn_down_exps is Q5_K in
  // layer 1, i < 48/16, Q4_K after: 671 MB more than the others, no longer spread over the layers)
  assert.deepEqual(ram.slice(8, 11).map((m) => gb(m.ram_bytes)), ['317.96', '275.04', '176.71']);
  assert.equal(gb(ram[0].ram_bytes), '1079.38');
  assert.ok(ram.every((m) => !m.fits));
  assert.equal(j.needing_ram, 12);
  // DeepSeek-V3's RAM by hand: token_embd (Q6_K) + 58 layers of Q6_K experts + CPU compute + logits
  assert.equal(Math.round(row('deepseek-v3', 'q6_k').ram_bytes), 129280 * 7168 * 210 / 256 + 58 * 256 * 3 * 2048 * 7168 * 210 / 256 + (4096 + 7168) * 512 * 4 + 129280 * 4);
  // gpt-oss in its one published GGUF, MXFP4_MOE: the 20b 12.51 GB (64.7%), the 120b's --fit split
  // 23.46 GB (121.4%, the card less 1 GiB) and 41.24 GB of RAM
  assert.deepEqual(j.models.filter((m) => m.model.startsWith('gpt-oss')).map((m) => `${m.model}/${m.format}`), ['gpt-oss-120b/mxfp4', 'gpt-oss-20b/mxfp4']);
  assert.equal(gb(row('gpt-oss-20b', 'mxfp4').total_bytes), '12.51');
  assert.equal(pct(row('gpt-oss-20b', 'mxfp4')), '64.7');
  assert.equal(gb(row('gpt-oss-120b', 'mxfp4').total_bytes), '23.46');
  assert.equal(pct(row('gpt-oss-120b', 'mxfp4')), '121.4');
  assert.equal(gb(row('gpt-oss-120b', 'mxfp4').ram_bytes), '41.24');
  // the best-ranked rows that fit: 24-47B models (Mixtral 8x7B 46.7B Q2_K 18.45 GB, Qwen2.5 and Qwen3 32B, the hybrid
  // Granite-4.0-H Small 32.2B Q3_K_M 16.28 GB with 4 of its 40 layers caching KV, Nemotron-3 Nano 31.6B Q2_K 18.54 GB
  // with 6 of 52, ...) at 2-5 bits
  const best = j.models.filter((m) => m.fits).slice(0, 12);
  assert.deepEqual([...new Set(best.map((m) => m.model))], ['mixtral-8x7b', 'qwen2.5-32b', 'qwen3-32b', 'granite-4.0-h-small',
    'nemotron-3-nano-30b-a3b', 'qwen3-30b-a3b', 'gemma-2-27b']);
  assert.equal(gb(row('nemotron-3-nano-30b-a3b', 'q2_k').total_bytes), '18.54');
  assert.equal(gb(best[0].total_bytes), '18.45');
  assert.equal(gb(row('granite-4.0-h-small', 'q3_k_m').total_bytes), '16.28');
  assert.equal(gb(row('gemma-3-27b', 'q4_k_m').total_bytes), '18.57');
  assert.equal(gb(row('mistral-small-24b', 'q5_k_m').total_bytes), '17.73');
});

test("README's counts: 70 presets, 84 rows of extra.csv, 2,238 golden configs", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const presets = JSON.parse(run('--list-presets --format json').out);
  assert.match(readme, new RegExp(`from ${presets.length} presets`));
  assert.equal(presets.length, 70);
  // validate's summary counts every row it compared
  const extra = run('validate tests/calibration/extra.csv');
  assert.equal(extra.code, 0, extra.err);
  const rows = Number(/compared (\d+) rows/.exec(extra.out)[1]);
  assert.equal(rows, 84);
  assert.match(readme, new RegExp(`against ${rows} further public measurements`));
  assert.match(readFileSync(join(root, 'docs/validation.md'), 'utf8'), new RegExp(`on ${rows} further public measurements`));
  const golden = readFileSync(join(root, 'tests/golden/configs.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).length;
  assert.match(readme, new RegExp(`${golden.toLocaleString('en-US')} configs`));
});
