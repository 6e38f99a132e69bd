// Golden outputs: every config of configs.jsonl (tests/golden/generate.mjs: 2,200 configs across
// every method, task, engine, format and parallel layout, then 16 lines added by hand for the trl
// profile: 14 of the generated hf-trainer configs under trl and two TRL fine-tunes, then 17 for the
// presets added in 2026-12: one or two for each, the worked examples of docs/models.md among them, then 5 for Llama-4 Scout and
// Maverick: llama.cpp, HF and vLLM, the last with swa_full, then 8 for SGLang: Llama-3.1-8B on an H100, DeepSeek-V3 on
// 8 x H200, Llama-3.1-70B refused on one H100, Qwen3-235B-A22B FP8 at 0.93 as the public log, FP8 weights and KV with
// pages of 16 on an L40S, gpt-oss-120b MXFP4, chunked prefill and graphs off on an A100 40GB, bnb-nf4 refused) through `vramcalc batch --solve`; each
// output line's sha256 must equal the one recorded in expected.jsonl. A refactor that changes any
// byte of any estimate, breakdown, message or what-fits answer fails here. A change of behaviour
// that is meant re-records the file (and says so in its commit):
//   VRAMCALC_GOLDEN_UPDATE=1 node --test tests/golden/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.VRAMCALC_BIN || join(resolve(here, '../..'), 'build/native/vramcalc');
const configsPath = join(here, 'configs.jsonl');
const expectedPath = join(here, 'expected.jsonl');

const sha = (s) => createHash('sha256').update(s).digest('hex');

test('golden corpus: vramcalc batch --solve prints the recorded output for every config', () => {
    const configs = readFileSync(configsPath, 'utf8').trim().split('\n');
    assert.ok(configs.length >= 2000, `the corpus has ${configs.length} configs, expected at least 2,000`);
    const r = spawnSync(bin, ['batch', configsPath, '--solve'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(r.status, 0, r.stderr);
    const outputs = r.stdout.trim().split('\n');
    assert.equal(outputs.length, configs.length, 'one output line per config');
    const records = outputs.map((line) => {
        const o = JSON.parse(line);
        return JSON.stringify({ ok: o.ok, total_bytes: o.total_bytes ?? null, error: o.ok ? null : o.error.field, sha256: sha(line) });
    });
    if (process.env.VRAMCALC_GOLDEN_UPDATE) {
        writeFileSync(expectedPath, records.join('\n') + '\n');
        return;
    }
    const expected = readFileSync(expectedPath, 'utf8').trim().split('\n');
    assert.equal(expected.length, configs.length, 'expected.jsonl has one record per config');
    const diffs = [];
    for (let i = 0; i < configs.length; ++i)
        if (records[i] !== expected[i]) diffs.push(`line ${i + 1}: ${configs[i]}\n  expected ${expected[i]}\n  got      ${records[i]}`);
    assert.equal(diffs.length, 0, `${diffs.length} of ${configs.length} outputs changed; first ones:\n${diffs.slice(0, 5).join('\n')}`);
});
