// Contract tests of the JS library (build/wasm/lib, web/api.js) under Node's test runner:
// the same numbers as the native CLI for every case in cases.jsonl (one line per config; a new
// config is one more line), field names and defaults, and every error path returned as a value.
//   VRAMCALC_LIB   the packed library folder (default build/wasm/lib)
//   VRAMCALC_BIN   the native CLI (default build/native/vramcalc)
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const libDir = process.env.VRAMCALC_LIB || join(root, 'build/wasm/lib');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const cases = readFileSync(join(here, 'cases.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const GB = 1e9;

let vc;         // the ES module build
let classic;    // the classic-script build, run as a browser would (a global, no module)

before(async () => {
    assert.ok(existsSync(join(libDir, 'vramcalc.mjs')), `no library in ${libDir}: run scripts/build.sh`);
    const { createVramCalc } = await import(pathToFileURL(join(libDir, 'vramcalc.mjs')).href);
    vc = await createVramCalc();
    const context = vm.createContext({ console, atob, WebAssembly, setTimeout, clearTimeout });
    vm.runInContext(readFileSync(join(libDir, 'vramcalc.js'), 'utf8'), context, { filename: 'vramcalc.js' });
    classic = await context.createVramCalc();
});

// The CLI's JSON for a config (or its text) and an optional question; null when it prints none.
function cli(config, question, extra = []) {
    const args = [...(question === undefined ? [] : ['solve', question]), '--config', '-', '--format', 'json', ...extra];
    const r = spawnSync(cliBin, args, { input: typeof config === 'string' ? config : JSON.stringify(config), encoding: 'utf8' });
    let json = null;
    try {
        json = JSON.parse(r.stdout);
    } catch { /* the CLI printed an error line only */ }
    return { status: r.status, json, stderr: r.stderr };
}

const run = (lib, c) => (c.question === undefined ? lib.estimate(c.config) : lib.solve(c.config, c.question));

// [SECTION] the same numbers as the CLI --------------------------------------------------------
test('cases.jsonl: the library returns exactly what the native CLI prints', () => {
    assert.ok(cases.length >= 30);
    for (const c of cases) {
        const fromLib = run(vc, c);
        const fromCli = cli(c.config, c.question);
        if (c.error === undefined) {
            assert.equal(fromLib.ok, true, `${c.name}: ${JSON.stringify(fromLib.error)}`);
            assert.equal(fromCli.status, 0, `${c.name}: ${fromCli.stderr}`);
        } else {
            assert.equal(fromLib.ok, false, c.name);
            assert.equal(fromLib.error.field, c.error, `${c.name}: ${fromLib.error.message}`);
            assert.equal(fromCli.status, 1, c.name);
        }
        // The CLI prints JSON for every document, text that is not JSON and an array included.
        assert.notEqual(fromCli.json, null, `${c.name}: the CLI printed no JSON`);
        assert.deepEqual(fromLib, fromCli.json, c.name);
        // (Through JSON: the classic build's objects come from the vm context's realm.)
        assert.deepEqual(JSON.parse(JSON.stringify(run(classic, c))), fromLib, `${c.name}: the classic build agrees`);
    }
});

test('the golden corpus: estimate() is the CLI\'s document member for member, in its order (the GPU table travels as columns)', () => {
    // web/engine_bindings.cpp estimateBytes writes the GPU table as columns and web/lib/entry.js
    // makes the rows again (issue 15): every one of the 2,238 configs of tests/golden/configs.jsonl
    // (each engine, method, task; Macs with mac_needed_bytes, vLLM's Mac rows with no_backend,
    // llama.cpp's needs_ram_bytes rows) must give what `vramcalc batch` prints, members in its order.
    const path = join(root, 'tests/golden/configs.jsonl');
    const configs = readFileSync(path, 'utf8').trim().split('\n');
    const r = spawnSync(cliBin, ['batch', path], { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, configs.length);
    const seen = { mac_needed_bytes: 0, no_backend: 0, needs_ram_bytes: 0, gpu_within_target: 0, rows: 0 };
    for (let i = 0; i < configs.length; i++) {
        const fromLib = vc.estimate(configs[i]);
        // JSON.stringify writes members in insertion order: equal texts are equal orders and values.
        assert.equal(JSON.stringify(fromLib), JSON.stringify(JSON.parse(lines[i])), `config ${i + 1}: ${configs[i]}`);
        for (const f of fromLib.fits || []) {
            seen.rows++;
            for (const k of Object.keys(seen)) if (k in f) seen[k]++;
        }
    }
    // Every optional member of a row occurs in the corpus, so each column's way back is exercised.
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 0, `no row with ${k} in the corpus`);
});

test('every question the engine knows, on every case of its task, matches `vramcalc solve`', () => {
    const questions = vc.questions();
    assert.ok(Array.isArray(questions));
    let compared = 0;
    for (const q of questions) {
        for (const c of cases) {
            if (c.error !== undefined || typeof c.config !== 'object' || !q.tasks.split(',').includes(c.config.task || 'training')) continue;
            const fromLib = vc.solve(c.config, q.id);
            assert.deepEqual(fromLib, cli(c.config, q.id).json, `${q.id} on ${c.name}`);
            if (fromLib.ok) {
                assert.equal(fromLib.question, q.id);
                assert.ok(Number.isFinite(fromLib.value));
            }
            compared++;
        }
    }
    assert.ok(compared >= questions.length, 'each question was asked at least once');
});

test('resolveConfig() is what `vramcalc --print-config` prints, defaults filled in', () => {
    for (const c of cases.filter((x) => x.error === undefined)) {
        const r = spawnSync(cliBin, ['--config', '-', '--print-config'], { input: JSON.stringify(c.config), encoding: 'utf8' });
        assert.deepEqual(vc.resolveConfig(c.config), JSON.parse(r.stdout), c.name);
    }
    // A config the estimate refuses is refused with its error, as --print-config refuses it (both
    // wrote the config of `batch: 0` as if it were fine).
    // (A bad question is solve's; a document that is not a JSON object the CLI refuses before reading it.)
    const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
    for (const c of cases.filter((x) => x.error !== undefined && x.question === undefined && isObject(x.config))) {
        const r = spawnSync(cliBin, ['--config', '-', '--print-config', '--format', 'json'], { input: JSON.stringify(c.config), encoding: 'utf8' });
        assert.equal(r.status, 1, c.name);
        const refused = vc.resolveConfig(c.config);
        assert.deepEqual(refused, JSON.parse(r.stdout), c.name);
        assert.deepEqual(refused, vc.estimate(c.config), c.name);
        assert.equal(refused.error.field, c.error, c.name);
    }
});

// [SECTION] field names and defaults -----------------------------------------------------------
test('an estimate has the documented fields (docs/config.md, "Result")', () => {
    const r = vc.estimate({ params_b: 7, batch: 4 });
    assert.deepEqual(Object.keys(r).sort(),
        ['breakdown', 'buffered_bytes', 'components', 'fits', 'method', 'metrics', 'notes', 'ok', 'schema_version', 'task', 'total_bytes']);
    assert.deepEqual(Object.keys(r.components[0]).sort(), ['bytes', 'formula', 'key', 'label']);
    assert.deepEqual(Object.keys(r.fits[0]).sort(), ['fits', 'gpu', 'gpus_needed', 'utilization', 'within_target']);
    assert.equal(r.schema_version, vc.schemaVersion);
    // The quick method's worked example, by hand: 14 + 14 + 84 + 143.36 = 255.36 GB, +20% = 306.432 GB.
    assert.deepEqual(r.breakdown, { weights: 14 * GB, gradients: 14 * GB, optimizer: 84 * GB, activations: 143.36 * GB });
    assert.equal(r.total_bytes, 255.36 * GB);
    assert.equal(r.buffered_bytes, 306.432 * GB);
    assert.deepEqual(r.fits.map((f) => [f.gpu, f.gpus_needed]), [['a100-80gb', 4], ['rtx-4090-24gb', 13]]);

    const e = vc.estimate({ batch: 0 });
    assert.deepEqual(Object.keys(e).sort(), ['error', 'ok']);
    assert.deepEqual(Object.keys(e.error).sort(), ['field', 'message']);
    assert.match(e.error.message, /batch must be a whole number in \[1, 1048576\] sequences, got 0/);
});

test('a quantized checkpoint with no weights named is served as stored (model.checkpoint_format)', () => {
    const r = vc.estimate({ task: 'inference', method: 'detailed', model: { preset: 'gpt-oss-120b' }, gpu: 'h100-80gb',
        inference: { engine: 'vllm', context: 8192 } });
    assert.equal(r.ok, true);
    // MXFP4 experts + BF16 rest + the FP32 YaRN table: 65,282,758,528 B (tests/unit/test_checkpoint_dtype.cpp by hand).
    assert.equal(r.breakdown.weights, 65282758528);
    assert.match(r.components[0].label, /MXFP4/);
    assert.equal(vc.resolveConfig({ model: { preset: 'deepseek-v3' }, gpu: 'h200-141gb', inference: { engine: 'vllm' } }).inference.weights, 'fp8-block');
    assert.equal(vc.resolveConfig({ model: { preset: 'deepseek-v3' }, gpu: 'h200-141gb', inference: { engine: 'vllm', weights: 'bf16' } }).inference.weights, 'bf16');
});

test('the engine the CLI shares: gpus 0 or 1.5 refused by the quick method, virtual stages with 1f1b named', () => {
    // The field table's gpus: a whole number in [1, 1048576] GPUs, as the guide method already said.
    for (const gpus of [0, 1.5])
        assert.deepEqual(vc.estimate({ method: 'quick', params_b: 70, gpus }),
            { ok: false, error: { field: 'gpus', message: `gpus must be a whole number in [1, 1048576] GPUs, got ${gpus}` } });
    const base = { method: 'detailed', task: 'training', model: { preset: 'llama-3.1-8b' }, gpus: 2 };
    const chunks = vc.estimate({ ...base, parallel: { pp: 2, virtual_stages: 4, schedule: '1f1b' } });
    const plain = vc.estimate({ ...base, parallel: { pp: 2 } });
    assert.ok(chunks.notes.includes("parallel.virtual_stages is the interleaved schedule's; parallel.schedule is 1f1b: ignored"));
    assert.equal(chunks.total_bytes, plain.total_bytes);
});

test('defaults: no config, undefined, {} and "{}" are the same documented defaults', () => {
    const d = vc.resolveConfig({});
    assert.equal(d.schema_version, 1);
    assert.equal(d.method, 'quick');
    assert.equal(d.task, 'training');
    assert.equal(d.params_b, 7);
    assert.equal(d.precision, 'fp16');
    assert.equal(d.optimizer, 'adamw-mixed');
    assert.equal(d.batch, 1);
    assert.equal(d.seq, 2048);
    assert.equal(d.checkpointing, false);
    assert.equal(d.gpus, 1);
    assert.equal(d.target_utilization, 0.75);
    assert.deepEqual(d.guide, { bytes: 2, weight_bytes: 2 });
    assert.deepEqual(d.constants, { activation_bytes_per_token_param: 0.0025, checkpoint_factor: 0.25, buffer_fraction: 0.2, a100_gb: 80, rtx4090_gb: 24 });
    const byDefault = vc.estimate({});
    assert.deepEqual(vc.estimate(), byDefault);
    assert.deepEqual(vc.estimate(undefined), byDefault);
    assert.deepEqual(vc.estimate('{}'), byDefault);
    assert.deepEqual(vc.estimate({ batch: undefined }), byDefault, 'an undefined member is left out, as JSON.stringify does');
    assert.equal(byDefault.breakdown.activations, 2.5e-3 * 1 * 2048 * 7e9);
});

test('presets(), gpus(), questions() and version match the CLI listings', () => {
    const presets = vc.presets();
    const listed = spawnSync(cliBin, ['--list-presets'], { encoding: 'utf8' }).stdout.trim().split('\n').slice(1);
    assert.equal(presets.length, listed.length);
    for (let i = 0; i < presets.length; i++) {
        const p = presets[i];
        const words = listed[i].trim().split(/\s+/);  // id, name..., family, derived, published
        const [id, derived, published] = [words[0], words[words.length - 2], words[words.length - 1]];
        assert.equal(p.id, id);
        assert.deepEqual(Object.keys(p).sort(), ['active_params_b', 'approximate', 'architecture', 'family', 'id', 'name', 'params_b', 'published_params_b']);
        assert.ok(Math.abs(p.params_b - parseFloat(derived)) < 0.0006, `${p.id}: ${p.params_b} vs ${derived}`);
        assert.ok(Math.abs(p.published_params_b - parseFloat(published)) < 0.0006, p.id);
        assert.ok(p.active_params_b > 0 && p.active_params_b <= p.params_b, p.id);
        // The architecture given instead of the id counts the same parameters.
        const byId = vc.estimate({ method: 'guide', model: { preset: p.id } });
        const byFields = vc.estimate({ method: 'guide', model: p.architecture });
        assert.equal(byFields.total_bytes, byId.total_bytes, p.id);
    }

    const gpus = vc.gpus();
    const gpuLines = spawnSync(cliBin, ['--list-gpus'], { encoding: 'utf8' }).stdout.trim().split('\n');
    assert.deepEqual(gpus.map((g) => g.id), gpuLines.map((l) => l.split(/\s+/)[0]));
    const a100 = gpus.find((g) => g.id === 'a100-80gb');
    assert.equal(a100.memory_bytes, 81920 * 2 ** 20);  // nvidia-smi's 81920 MiB
    assert.equal(a100.nominal_gb, 80);
    // The CUDA context's local memory: 108 SMs x 2048 threads (A100 whitepaper, compute capability 8.0); AMD not modelled.
    assert.deepEqual([a100.sms, a100.threads_per_sm, a100.compute_capability], [108, 2048, 80]);
    assert.deepEqual([gpus.find((g) => g.id === 'mi300x-192gb').sms, gpus.find((g) => g.id === 'rtx-4090-24gb').threads_per_sm], [0, 1536]);
    for (const g of gpus) {
        assert.deepEqual(Object.keys(g).sort(), ['bandwidth_gbps', 'bf16_tflops', 'compute_capability', 'fp8_tflops', 'id', 'memory_bytes', 'name', 'nominal_gb', 'price_per_hour_usd', 'sms', 'source', 'threads_per_sm']);
        assert.ok(g.memory_bytes > 0 && g.source.length > 0, g.id);
    }

    const questionLines = spawnSync(cliBin, ['solve', '--list-questions'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    assert.deepEqual(vc.questions().map((q) => [q.id, q.tasks]),
        questionLines.map((l) => { const w = l.trim().split(/\s+/); return [w[0], w[w.length - 1]]; }));

    const version = spawnSync(cliBin, ['--version'], { encoding: 'utf8' }).stdout;
    assert.match(version, new RegExp(`^vramcalc ${vc.version.replace(/\./g, '\\.')} \\(config schema ${vc.schemaVersion}\\)`));
});

// [SECTION] errors are values, never exceptions ------------------------------------------------
test('values JSON cannot carry are errors naming their field', () => {
    const field = (config) => {
        let r;
        assert.doesNotThrow(() => { r = vc.estimate(config); });
        assert.equal(r.ok, false, JSON.stringify(r));
        return r.error;
    };
    assert.deepEqual(field({ batch: NaN }), { field: 'batch', message: 'batch must be a finite number, got NaN' });
    assert.equal(field({ params_b: Infinity }).field, 'params_b');
    assert.equal(field({ seq: -Infinity }).field, 'seq');
    assert.equal(field({ model: { layers: NaN } }).field, 'model.layers');
    assert.match(field({ batch: 4n }).message, /batch must be a number, got a BigInt/);
    assert.match(field({ batch: () => 4 }).message, /batch must be a JSON value, got a function/);
    assert.equal(field({ batch: Symbol('b') }).field, 'batch');
    assert.equal(field({ guide: { bytes: [1, NaN] } }).field, 'guide.bytes[1]');
    const cycle = { model: {} };
    cycle.model.self = cycle;
    assert.match(field(cycle).message, /model.self contains itself/);
    assert.match(field({ model: new Map() }).message, /model must be a plain object, array or JSON value, got a Map/);
    assert.equal(field({ batch: new Date(0) }).field, 'batch', 'a Date becomes its JSON string, which is no number');
    assert.equal(field({ toJSON() { throw new Error('no'); } }).field, 'config');
    assert.equal(field(null).field, 'config');
    assert.equal(field([1, 2]).field, 'config');
    assert.equal(field(42).field, 'config');
    assert.equal(field(true).field, 'config');
    assert.equal(field(() => ({})).field, 'config');
    assert.equal(field('not json').field, 'config');
});

test('solve(): the question must be a known string', () => {
    for (const q of [undefined, null, 3, {}, ['max_context']]) {
        const r = vc.solve({}, q);
        assert.equal(r.ok, false);
        assert.equal(r.error.field, 'question');
        assert.match(r.error.message, /question must be a string/);
    }
    const unknown = vc.solve({}, 'max_\ud800happiness');  // a lone surrogate survives as a replacement
    assert.equal(unknown.error.field, 'question');
    assert.equal(vc.solve({ batch: NaN }, 'max_context').error.field, 'batch', 'the config is checked first');
});

test('hostile documents come back as values and the engine keeps working', () => {
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    assert.equal(vc.estimate(`{"model": ${deep}}`).error.field, 'model');
    assert.equal(vc.estimate(`{"batch": ${'1'.repeat(400)}}`).ok, false);
    const big = { notes: 'x'.repeat(5e6) };
    assert.equal(vc.estimate(big).error.field, 'notes');
    assert.equal(vc.estimate('{"precision": "\\ud800"}').error.field, 'config', 'an unpaired surrogate escape is not valid JSON');
    // Text that is not JSON names where it stopped (the '}' after the comma: line 2, column 1).
    assert.equal(vc.estimate('{"batch": 4,\n}').error.message,
      "the config is not valid JSON: line 2, column 1: syntax error while parsing object key - unexpected '}'; expected string literal");
    assert.equal(vc.estimate({ method: 'quick', params_b: 7, batch: 4 }).total_bytes, 255.36 * GB);
});

test('the results are fresh objects: a caller may change them', () => {
    const a = vc.presets();
    a[0].id = 'changed';
    assert.notEqual(vc.presets()[0].id, 'changed');
    assert.ok(Object.isFrozen(vc));
});

// [SECTION] packaging --------------------------------------------------------------------------
test('CommonJS require() and the package.json exports', async () => {
    const require = createRequire(import.meta.url);
    const createVramCalc = require(join(libDir, 'vramcalc.js'));
    assert.equal(typeof createVramCalc, 'function');
    assert.equal(createVramCalc.createVramCalc, createVramCalc);
    const fromRequire = await createVramCalc();
    assert.deepEqual(fromRequire.estimate({ params_b: 13 }), vc.estimate({ params_b: 13 }));
    const pkg = JSON.parse(readFileSync(join(libDir, 'package.json'), 'utf8'));
    assert.equal(pkg.version, vc.version);
    for (const f of [pkg.main, pkg.module, pkg.types]) assert.ok(existsSync(join(libDir, f)), f);
});

test('loading makes no request: the wasm is inside the file', async () => {
    // The classic build ran in a context with no fetch at all (before()); here fetch is watched.
    const { createVramCalc } = await import(pathToFileURL(join(libDir, 'vramcalc.mjs')).href);
    const realFetch = globalThis.fetch;
    const fetched = [];
    globalThis.fetch = (url) => { fetched.push(String(url)); return Promise.reject(new Error('no network in this test')); };
    try {
        const again = await createVramCalc();
        assert.equal(again.estimate({}).ok, true);
    } finally {
        globalThis.fetch = realFetch;
    }
    assert.deepEqual(fetched, []);
});

test('suggest(): the changes that make QLoRA of an 8B model fit a 24 GB card, as `vramcalc suggest` prints them', () => {
    // Checkpointing off as stated (auto would be peft's full recomputation, which fits as it is).
    const config = { method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
        batch: 1, seq: 2048, training: { finetune: 'qlora', recompute: 'none' } };
    const r = vc.suggest(config);
    assert.equal(r.ok, true);
    assert.ok(r.suggestions.length >= 1);
    assert.equal(r.suggestions[0].id, 'recompute_full');
    assert.equal(r.suggestions[0].config.training.recompute, 'full');
    assert.ok(r.suggestions[0].utilization <= 0.75);
    // Applying it: the estimate of the suggested config is the total the suggestion names (which core/advice.cpp
    // fit_of rebuilds as utilization x the card's memory: equal up to the last bits, 14,669,925,580.8 B here).
    const e = vc.estimate(r.suggestions[0].config);
    assert.equal(e.ok, true);
    assert.ok(Math.abs(e.total_bytes - r.suggestions[0].total_bytes) <= 1e-12 * e.total_bytes, `${e.total_bytes} vs ${r.suggestions[0].total_bytes}`);
    assert.equal((e.total_bytes / 1e9).toFixed(2), '14.67');
    const fromCli = spawnSync(cliBin, ['suggest', '--config', '-', '--format', 'json'], { input: JSON.stringify(config), encoding: 'utf8' });
    assert.deepEqual(r, JSON.parse(fromCli.stdout));
    assert.equal(vc.suggest('{').ok, false);
});

test('fitModels(): which presets and formats fit a 24 GB card, as `vramcalc fit-models` prints them', () => {
    const config = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 4096 } };
    const r = vc.fitModels(config);
    assert.equal(r.ok, true);
    assert.equal(r.gpu, 'rtx-4090-24gb');
    assert.equal(r.budget_bytes, 0.75 * 24564 * 1048576);  // 75% of 24,564 MiB
    // BF16 and six GGUF types per preset; gpt-oss-20b and -120b their one published file, MXFP4_MOE
    assert.equal(r.models.length, (vc.presets().length - 2) * 7 + 2);
    assert.deepEqual(r.models.filter((m) => m.model === 'gpt-oss-20b').map((m) => m.format_label), ['GGUF MXFP4_MOE']);
    assert.equal(r.fitting, r.models.filter((m) => m.fits).length);
    // Best first: parameters descending.
    for (let i = 1; i < r.models.length; i++) assert.ok(r.models[i - 1].params >= r.models[i].params);
    // Loading a row: its estimate is the row's total, and the verdict is the headline's.
    const row = r.models.find((m) => m.model === 'llama-3.1-8b' && m.format === 'q8_0');
    const e = vc.estimate({ ...config, inference: { ...config.inference, weights: 'q8_0' } });
    assert.equal(e.total_bytes, row.total_bytes);
    assert.equal(row.fits, e.fits.find((f) => f.gpu === 'rtx-4090-24gb').within_target);
    assert.equal(row.fits, true);
    assert.equal(r.models.find((m) => m.model === 'llama-3.1-70b' && m.format === 'q4_k_m').fits, false);
    // llama-server's --fit keeps DeepSeek-V3 Q6_K's experts of 58 layers in system RAM, whose size the
    // config does not give: not counted as fitting, with the RAM it needs (token_embd 760,166,400 B + 58 x
    // 9,248,440,320 B of Q6_K experts + 23,068,672 B CPU compute + 517,120 B logits = 537.19 GB).
    const ds = r.models.find((m) => m.model === 'deepseek-v3' && m.format === 'q6_k');
    assert.equal(ds.needs_ram, true);
    assert.equal(ds.fits, false);
    assert.equal(Math.round(ds.ram_bytes), 760166400 + 58 * 9248440320 + 23068672 + 517120);
    assert.equal(r.needing_ram, r.models.filter((m) => m.needs_ram).length);
    const withRam = vc.fitModels({ ...config, inference: { ...config.inference, host: { ram_gib: 1024 } } });
    assert.equal(withRam.models.find((m) => m.model === 'deepseek-v3' && m.format === 'q6_k').fits, true);
    const fromCli = spawnSync(cliBin, ['fit-models', '--config', '-', '--format', 'json'], { input: JSON.stringify(config), encoding: 'utf8' });
    assert.deepEqual(r, JSON.parse(fromCli.stdout));
    assert.equal(vc.fitModels({ ...config, gpu: '' }).error.field, 'gpu');
});

test('plan() is what `vramcalc plan --format json` prints; fabrics() lists the catalogs', () => {
    const request = { model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb', seq: 4096,
        plan: { gpus: 16, fabric: 'ib-ndr400', top: 3, train_tokens: 1e11 } };
    const fromLib = vc.plan(request);
    assert.equal(fromLib.ok, true);
    assert.equal(fromLib.plan.ranked.length, 3);
    const fromCli = spawnSync(cliBin, ['plan', '--config', '-', '--format', 'json'], { input: JSON.stringify(request), encoding: 'utf8' });
    assert.deepEqual(fromLib, JSON.parse(fromCli.stdout));
    // the classic build runs in another realm (vm context): compare its JSON
    assert.deepEqual(JSON.parse(JSON.stringify(classic.plan(JSON.stringify(request)))), fromLib);
    // The guide's checklist comes with it: the best layout's nine steps, numbers a user checks by hand.
    const ck = fromLib.checklist, l = fromLib.plan.ranked[0].layout;
    assert.equal(ck.goal, 'train');
    assert.equal(ck.answer.layout.label, l.label);
    const step = Object.fromEntries(ck.steps.map((x) => [x.key, x]));
    assert.equal(step.parallelism.value, 16);
    assert.equal(step.batch.value, l.dp * l.micro_batch * l.grad_accum);
    assert.equal(step.batch.value, Math.round(4194304 / 4096));  // the default global batch: 4M tokens of 4096
    assert.equal(step.sequence.value, 4096);
    assert.ok(Math.abs(step.states.value + step.activations.value + step.overhead.value - fromLib.plan.ranked[0].memory_bytes) <= 1);
    assert.equal(step.target.value, 0.75 * 81559 * 1048576);
    // Serving 64 sequences of 8192 tokens on the 16 GPUs: step 7 is the KV cache, 128 KiB a token over TP.
    const served = vc.plan({ ...request, plan: { ...request.plan, serve: { concurrency: 64, context: 8192 } } });
    assert.equal(served.checklist.goal, 'serve');
    const kv = served.checklist.steps[6], a = served.checklist.answer;
    assert.equal(kv.key, 'kv');
    assert.equal(kv.value, Math.ceil(64 / a.replicas) * 8192 * 131072 / a.tp);
    const bad = vc.plan({ ...request, plan: { gpus: 100 } });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'plan.gpus');
    const f = vc.fabrics();
    assert.ok(f.fabrics.some((x) => x.id === 'ib-hdr200' && x.line_gbps === 25));
    assert.ok(f.nodes.some((n) => n.gpu === 'b200-180gb' && n.purchase_usd === 45000));
});

test('training.attention fa2 / sdpa-gqa: K and V at their own heads, by hand; refused where the stack has its own attention', () => {
    const config = (attention, profile = 'hf-trainer') => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 4096,
        training: { finetune: 'lora', lora: { rank: 8, targets: 'q,v' }, attention, profile },
    });
    const acts = (attention) => vc.estimate(config(attention)).components.find((c) => c.key === 'activations').bytes;
    // Llama-3.1-8B, 32 layers x 4,096 tokens: K and V at 8 heads instead of 32 (repeat_kv) save
    // 2 x 24 x 128 x 2 B = 12,288 B a token and layer: 1,610,612,736 B.
    assert.equal(acts('sdpa') - acts('fa2'), 32 * 4096 * 12288);
    assert.equal(acts('sdpa') - acts('sdpa-gqa'), 32 * 4096 * 12288);
    assert.equal(acts('flash_attention_2'), acts('fa2'));
    assert.equal(vc.resolveConfig(config('flash_attention_2')).training.attention, 'fa2');
    const e = vc.estimate(config('fa2', 'litgpt'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.attention');
    assert.match(e.error.message, /profile litgpt accepts auto, flash, sdpa or eager/);
});

test('training.compile_loss: the compiled loss keeps 4 B a logit, by hand; a wrong value names the field', () => {
    const config = (compile_loss) => ({
        method: 'detailed', task: 'training', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 8192, gpus: 8,
        training: { sharding: 'fsdp', profile: 'torchtitan', compile: true, compile_loss },
    });
    const loss = (v) => vc.estimate(config(v)).components.find((c) => c.key === 'logits_loss').bytes;
    // Llama-3.1-8B, 8,192 tokens x 128,256 logits: eager FP32 buffers 3 x 4 B, compiled the saved
    // BF16 logits and the BF16 gradient, 2 + 2 B: 12,608,077,824 B and 4,202,692,608 B.
    assert.equal(loss(null), 8192 * 128256 * 12);
    assert.equal(loss(false), 8192 * 128256 * 12);
    assert.equal(loss(true), 8192 * 128256 * 4);
    assert.ok(vc.estimate(config(null)).notes.some((n) => n.includes('training.compile_loss true')));
    assert.deepEqual(vc.estimate(config(true)), cli(config(true)).json);
    const e = vc.estimate(config('yes'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.compile_loss');
});

test('a field the engine ignores is named in the notes, as the CLI does (never dropped without a word)', () => {
    const config = (llamacpp) => ({ model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb', inference: { engine: 'vllm', llamacpp } });
    const e = vc.estimate(config({ n_gpu_layers: 30 }));
    assert.ok(e.notes.includes("inference.llamacpp.n_gpu_layers is llama.cpp's; inference.engine is vllm: ignored"));
    // llama.cpp's defaults given (what a written config carries) are no note; the bytes are the same.
    const plain = vc.estimate(config({ n_gpu_layers: -1 }));
    assert.ok(!plain.notes.some((n) => n.endsWith(': ignored')));
    assert.equal(e.total_bytes, plain.total_bytes);
    assert.deepEqual(e, cli(config({ n_gpu_layers: 30 })).json);
});

test('GPU counts mean one thing in the library: training rows are solve min_gpus\'s; a Mac is one machine and names the Mac that would hold it', () => {
    const train = { method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb', gpus: 1, batch: 1, seq: 2048,
        training: { sharding: 'zero3' } };
    const e = vc.estimate(train);
    assert.equal(e.ok, true);
    const fewest = vc.solve(train, 'min_gpus');
    assert.ok(fewest.value > 1);
    assert.equal(e.fits.find((f) => f.gpu === 'h100-80gb').gpus_needed, fewest.value);
    const mac = vc.estimate({ method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'apple-m2-max-96gb',
        inference: { engine: 'llama.cpp', weights: 'q8_0' } });
    assert.equal(mac.ok, true);
    for (const f of mac.fits.filter((x) => x.gpu.startsWith('apple-'))) assert.ok(f.gpus_needed <= 1, `${f.gpu}: ${f.gpus_needed}`);
    const m2 = mac.fits.find((f) => f.gpu === 'apple-m2-max-96gb');
    assert.deepEqual(Object.keys(m2).sort(), ['fits', 'gpu', 'gpus_needed', 'mac_needed_bytes', 'utilization', 'within_target']);
    assert.equal(m2.gpus_needed, 0);
    const smallest = Math.min(...mac.fits.filter((f) => f.gpu.startsWith('apple-') && f.gpus_needed === 1)
        .map((f) => vc.gpus().find((g) => g.id === f.gpu).memory_bytes));
    assert.equal(m2.mac_needed_bytes, smallest);
});

test('estimate(): llama.cpp with system RAM of no stated size is not "fits": needs_ram_bytes and gpu_within_target, as the CLI gives them', () => {
    // DeepSeek-V3 Q6_K on an RTX 4090, -c 4096, --fit: the GPU part 68.9% of the card (within 75%), the
    // routed experts of 58 layers in RAM: 760,166,400 + 58 x 9,248,440,320 + 23,068,672 + 517,120 B.
    const config = { method: 'detailed', task: 'inference', model: { preset: 'deepseek-v3' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q6_k', context: 4096 } };
    const e = vc.estimate(config);
    assert.equal(e.ok, true);
    const f = e.fits.find((x) => x.gpu === 'rtx-4090-24gb');
    assert.deepEqual(Object.keys(f).sort(), ['fits', 'gpu', 'gpu_within_target', 'gpus_needed', 'needs_ram_bytes', 'utilization', 'within_target']);
    assert.deepEqual([f.fits, f.gpu_within_target, f.within_target, f.gpus_needed], [true, true, false, 0]);
    assert.equal(Math.round(f.needs_ram_bytes), 760166400 + 58 * 9248440320 + 23068672 + 517120);
    assert.equal(f.needs_ram_bytes, e.metrics.host_total_bytes.value);
    assert.deepEqual(e, cli(config).json);
    assert.deepEqual(JSON.parse(JSON.stringify(classic.estimate(config))), e);  // the classic build, another realm
    // The RAM given: the field is gone, and 1,024 GiB holds the 500.30 GiB within the target.
    const ram = vc.estimate({ ...config, inference: { ...config.inference, host: { ram_gib: 1024 } } }).fits.find((x) => x.gpu === 'rtx-4090-24gb');
    assert.deepEqual(Object.keys(ram).sort(), ['fits', 'gpu', 'gpus_needed', 'utilization', 'within_target']);
    assert.equal(ram.within_target, true);
});

test('solve(): llama.cpp\'s answers with system RAM of no stated size are the GPU part\'s, with needs_ram_bytes, as the CLI gives them', () => {
    // The same DeepSeek-V3 config with the split --fit makes at 4,096 tokens stated (-ngl 62 --cpu-moe, held at every
    // context): the longest context on the GPU part is 25,600 tokens (gguf's attn_k_b fallback: 27,136 before); the RAM there
    // token_embd 760,166,400 B + the experts 536,409,538,560 B + (25,600 + 7,168) x 512 x 4 B + 129,280 x 4 B.
    const config = { method: 'detailed', task: 'inference', model: { preset: 'deepseek-v3' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q6_k', context: 4096 } };
    const pinned = { ...config, inference: { ...config.inference, llamacpp: { n_gpu_layers: 62, n_cpu_moe: 61 } } };
    const a = vc.solve(pinned, 'max_context');
    assert.equal(a.ok, true);
    assert.equal(a.value, 25600);
    assert.equal(Math.round(a.needs_ram_bytes), 760166400 + 536409538560 + (25600 + 7168) * 512 * 4 + 129280 * 4);
    assert.match(a.explanation, /bounded by the GPU part alone: needs 537\.24 GB \(500\.34 GiB\) of system RAM at that context, not checked/);
    assert.deepEqual(a, cli(pinned, 'max_context').json);
    // -ngl unset: --fit placed again at each context, up to the model's 163,840-token window, as the CLI says.
    const fit = vc.solve(config, 'max_context');
    assert.equal(fit.value, 163840);
    assert.deepEqual(fit, cli(config, 'max_context').json);
    // The fewest GPUs, counted as the GPU table counts them: no field, 61 cards.
    const g = vc.solve(config, 'min_gpus');
    assert.deepEqual([g.value, g.needs_ram_bytes], [61, undefined]);
    // The RAM given: checked, the field gone.
    const checked = vc.solve({ ...config, inference: { ...config.inference, host: { ram_gib: 1024 } } }, 'max_context');
    assert.deepEqual(Object.keys(checked).sort(), ['explanation', 'items', 'label', 'ok', 'question', 'unit', 'value']);
});

test('solve(): under Ollama\'s automatic num_gpu each context and count is placed again, as the CLI does (Llama-3.1-70B Q4_K_M, RTX 4090)', () => {
    // The model's 131,072-token window without a RAM size (22 of 81 layers on the card there, 62.80 GB
    // of RAM nobody checked); 96,000 tokens within 64 GiB (48 GiB at the target: 51,530,378,649.6 B of
    // host buffers there, 51,589,885,337.6 at one more token); 11 sequences of 8,192 tokens within it.
    for (const context of [8192, 32768]) {
        const config = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'rtx-4090-24gb',
            inference: { engine: 'llama.cpp', weights: 'q4_k_m', context, llamacpp: { profile: 'ollama' } } };
        const ram = { ...config, inference: { ...config.inference, host: { ram_gib: 64 } } };
        const a = vc.solve(config, 'max_context');
        assert.deepEqual([a.value, (a.needs_ram_bytes / 1e9).toFixed(2)], [131072, '62.80']);
        assert.deepEqual(a, cli(config, 'max_context').json);
        const r = vc.solve(ram, 'max_context');
        assert.deepEqual([r.value, r.needs_ram_bytes], [96000, undefined]);
        assert.deepEqual(r, cli(ram, 'max_context').json);
        assert.deepEqual(vc.solve(ram, 'max_concurrency'), cli(ram, 'max_concurrency').json);
    }
    const eight = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'rtx-4090-24gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 8192, llamacpp: { profile: 'ollama' }, host: { ram_gib: 64 } } };
    assert.equal(vc.solve(eight, 'max_concurrency').value, 11);
    // Without the RAM: llama.cpp's most sequences, 256 (LLAMA_MAX_SEQ), with the 726.35 GB of RAM they need.
    const bare = { ...eight, inference: { ...eight.inference, host: {} } };
    const most = vc.solve(bare, 'max_concurrency');
    assert.deepEqual([most.value, (most.needs_ram_bytes / 1e9).toFixed(2)], [256, '726.35']);
    assert.deepEqual(most, cli(bare, 'max_concurrency').json);
    // A 64 GB Mac: the unified memory binds, named as such (26,112 tokens: 51,496,195,072 B of the 48 GiB at 75%).
    const mac = { ...bare, gpu: 'apple-m4-max-64gb' };
    const m = vc.solve(mac, 'max_context');
    assert.equal(m.value, 26112);
    assert.match(m.explanation, /; the unified memory binds: 64\.00 GiB at 75% holds every buffer \(the GPU's, within its 48\.00 GiB working-set limit, and the host's: the layers left on the CPU and their KV\)$/);
    assert.deepEqual(m, cli(mac, 'max_context').json);
});

test('profile trl: TRL\'s SFTTrainer by hand (Llama-3.1-8B QLoRA, 1 x 2048), as the CLI gives it; lora.adapters_bf16 overrides, a wrong value names the field', () => {
    const config = (profile, lora = {}) => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 2048, gpu: 'rtx-4090-24gb',
        training: { finetune: 'qlora', profile, lora },
    });
    const trl = vc.estimate(config('trl'));
    const part = (e, key) => e.components.find((c) => c.key === key).bytes;
    // 3,600,416,768 NF4 + 1,050,939,392 x 2 (no peft cast) + 6,815,744 x 2 (BF16 adapters) = 5,715,927,040 B.
    assert.equal(part(trl, 'weights'), 5715927040);
    // The chunked loss: 128,256 x 4,096 x (4 + 2) B at a chunk's cast + 2 x 2,048 x 4,096 x 2 B of hidden states.
    assert.equal(part(trl, 'logits_loss'), 128256 * 4096 * 6 + 2 * 2048 * 4096 * 2);
    // FP32 adapters (TRL 0.25 and earlier): 6,815,744 x 2 B more weights.
    assert.equal(part(vc.estimate(config('trl', { adapters_bf16: false })), 'weights') - part(trl, 'weights'), 6815744 * 2);
    assert.equal(vc.resolveConfig(config('trl')).training.lora.adapters_bf16, null);
    assert.deepEqual(trl, cli(config('trl')).json);
    const e = vc.estimate(config('trl', { adapters_bf16: 'maybe' }));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.lora.adapters_bf16');
});

test('litgpt: training.lora.base_fp32 (a bf16-mixed LoRA base in FP32) and recompute auto on 4 GPUs, as the CLI gives them; a wrong value names the field', () => {
    const config = (base_fp32, extra = {}) => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3-8b' }, batch: 1, seq: 2048,
        training: { finetune: 'lora', precision: 'bf16-mixed', profile: 'litgpt', lora: { rank: 16, base_fp32 } }, ...extra,
    });
    const weights = (c) => vc.estimate(c).components.find((x) => x.key === 'weights').bytes;
    // Lightning builds the model in FP32: 8,030,261,248 frozen x 4 B + 6,815,744 FP32 adapters x 4 B; false: x 2 B.
    assert.equal(weights(config(null)), 8030261248 * 4 + 6815744 * 4);
    assert.equal(weights(config(false)), 8030261248 * 2 + 6815744 * 4);
    assert.equal(vc.resolveConfig(config(null)).training.lora.base_fp32, null);
    assert.deepEqual(vc.estimate(config(null)), cli(config(null)).json);
    // 4 GPUs: lora.py checkpoints every block, so auto is full (noted).
    const four = config(null, { gpus: 4, training: { ...config(null).training, sharding: 'fsdp' } });
    assert.ok(vc.estimate(four).notes.some((n) => n.includes("LitGPT's fine-tuning scripts checkpoint every transformer block")));
    assert.deepEqual(vc.estimate(four), cli(four).json);
    const e = vc.estimate(config('yes'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.lora.base_fp32');
});

test('training.lora.upcast_frozen: peft\'s FP32 embedding, head and norms by hand, as the CLI gives them; a wrong value names the field', () => {
    const config = (upcast_frozen, profile = 'hf-trainer') => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 2048,
        training: { finetune: 'qlora', profile, lora: { upcast_frozen } },
    });
    const weights = (v, p) => vc.estimate(config(v, p)).components.find((c) => c.key === 'weights').bytes;
    // Llama-3.1-8B: 1,050,939,392 parameters outside the NF4 linears (embedding, head, norms) at 4 B instead of 2.
    assert.equal(weights(null) - weights(false), 1050939392 * 2);
    assert.equal(weights(true), weights(null));
    assert.equal(weights(null), 7831437312);
    // DeepSpeed casts them back to BF16: auto is off there, true forces it.
    assert.equal(weights(null, 'deepspeed'), weights(false, 'deepspeed'));
    assert.equal(weights(true, 'deepspeed') - weights(false, 'deepspeed'), 1050939392 * 2);
    assert.ok(vc.estimate(config(null)).notes.some((n) => n.includes('training.lora.upcast_frozen false')));
    assert.equal(vc.resolveConfig(config(null)).training.lora.upcast_frozen, null);
    assert.equal(vc.resolveConfig(config(false)).training.lora.upcast_frozen, false);
    assert.deepEqual(vc.estimate(config(null)), cli(config(null)).json);
    const e = vc.estimate(config('yes'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.lora.upcast_frozen');
});

test('training.lora.experts_unquantized: Mixtral-8x7B\'s routed experts left in BF16 by hand, as the CLI gives them; a wrong value names the field', () => {
    const config = (experts_unquantized, profile = 'hf-trainer') => ({
        method: 'detailed', task: 'finetune', gpu: 'h100-80gb', model: { preset: 'mixtral-8x7b' }, batch: 1, seq: 2048,
        // LitGPT's QLoRA runs bf16-true (bf16-mixed with --quantize is refused).
        training: { finetune: 'qlora', profile, ...(profile === 'litgpt' ? { precision: 'bf16-true' } : {}), lora: { rank: 16, upcast_frozen: false, experts_unquantized } },
    });
    const weights = (v, p) => vc.estimate(config(v, p)).components.find((c) => c.key === 'weights').bytes;
    // 32 x 8 x 3 x 4,096 x 14,336 = 45,097,156,608 expert weights at 2 B instead of NF4's 0.515869140625 B.
    assert.equal(weights(null) - weights(false), 45097156608 * (2 - 0.515869140625));
    assert.equal(weights(true), weights(null));
    // LitGPT's experts are nn.Linear modules: quantized unless forced.
    assert.equal(weights(null, 'litgpt'), weights(false, 'litgpt'));
    assert.ok(vc.estimate(config(null)).notes.some((n) => n.includes('training.lora.experts_unquantized auto')));
    assert.equal(vc.resolveConfig(config(null)).training.lora.experts_unquantized, null);
    assert.deepEqual(vc.estimate(config(null)), cli(config(null)).json);
    const e = vc.estimate(config('bf16'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.lora.experts_unquantized');
});

test('training.lora.expert_adapters: Qwen3-30B-A3B r16 on the MLP, the routed experts\' adapters per setting by hand, as the CLI gives them', () => {
    const config = (expert_adapters, profile = 'hf-trainer') => ({
        method: 'detailed', task: 'finetune', gpu: 'h100-80gb', model: { preset: 'qwen3-30b-a3b' }, batch: 1, seq: 2048,
        training: { finetune: 'lora', profile, lora: { rank: 16, dropout: 0, targets: 'q,v,gate,up,down', expert_adapters } },
    });
    const part = (v, key, p) => vc.estimate(config(v, p)).components.find((c) => c.key === key).bytes;
    // Per expert: 48 x 128 x 3 x 16 x (2,048 + 768) = 830,472,192 FP32 adapters (4 B) and AdamW moments (8 B).
    assert.equal(part('per-expert', 'weights') - part('auto', 'weights'), 830472192 * 4);
    assert.equal(part('per-expert', 'optimizer') - part('auto', 'optimizer'), 830472192 * 8);
    // transformers 4 (hf-legacy) builds them per expert: auto counts them there.
    assert.equal(part('auto', 'weights', 'hf-legacy'), part('per-expert', 'weights', 'hf-legacy'));
    // peft's target_parameters: 48 x 128 x 16 x (2,048 + 1,536 + 768 + 2,048) = 629,145,600 adapters; each layer's
    // merged experts, 128 x (1,536 x 2,048 + 2,048 x 768) x 2 B = 1,207,959,552 B, kept for backward on 48 layers.
    assert.equal(part('target-parameters', 'weights') - part('auto', 'weights'), 629145600 * 4);
    assert.equal(part('target-parameters', 'activations') - part('target-parameters-unmerged', 'activations'), 48 * 1207959552);
    assert.ok(vc.estimate(config('auto')).notes.some((n) => n.includes('training.lora.expert_adapters none, auto, profile hf-trainer')));
    assert.equal(vc.resolveConfig(config('auto')).training.lora.expert_adapters, 'auto');
    assert.deepEqual(vc.estimate(config('target-parameters')), cli(config('target-parameters')).json);
    const e = vc.estimate(config('per-parameter'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.lora.expert_adapters');
    const d = vc.estimate({ ...config('target-parameters'), training: { ...config('target-parameters').training, lora: { rank: 16, dropout: 0.05, targets: 'mlp', expert_adapters: 'target-parameters' } } });
    assert.equal(d.ok, false);
    assert.equal(d.error.field, 'training.lora.dropout');
});

test('a custom GPU marked unified is a Mac: the catalog Mac\'s answer with the same figures; an unknown preset names the nearest', () => {
    // Llama-3.1-8B Q8_0 under llama.cpp: the M4 Max 64GB (546 GB/s, 18.4 TF) and a custom 64 GiB unified machine alike.
    const base = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' } };
    const mac = vc.estimate({ ...base, gpu: 'apple-m4-max-64gb', inference: { engine: 'llama.cpp', weights: 'q8_0' } });
    const custom = vc.estimate({ ...base, inference: { engine: 'llama.cpp', weights: 'q8_0',
        gpu_custom: { name: 'My Mac', memory_gib: 64, unified: true, bandwidth_gbps: 546, bf16_tflops: 18.4 } } });
    assert.equal(mac.ok, true);
    assert.equal(custom.ok, true);
    assert.equal(custom.total_bytes, mac.total_bytes);
    assert.deepEqual(custom.metrics, mac.metrics);
    assert.equal(custom.metrics.gpu_working_set_bytes.value, 48 * 2 ** 30);  // 64 GiB x 3/4
    assert.equal(custom.components.find((c) => c.key === 'runtime').label, 'Metal context');
    const own = custom.fits.find((f) => f.gpu === 'custom');
    assert.deepEqual({ ...own, gpu: 'apple-m4-max-64gb' }, custom.fits.find((f) => f.gpu === 'apple-m4-max-64gb'));
    // The resolved config carries the flag, as the CLI's --print-config does (under llama.cpp: vLLM,
    // the default engine, has no Metal backend and refuses a Mac).
    assert.equal(vc.resolveConfig({ ...base, inference: { engine: 'llama.cpp', gpu_custom: { memory_gib: 64, unified: true } } }).inference.gpu_custom.unified, true);
    assert.equal(vc.resolveConfig({ ...base, inference: { gpu_custom: { memory_gib: 64, unified: true } } }).error.field, 'inference.engine');
    const bad = vc.estimate({ ...base, model: { preset: 'llama-3.1-8bb' } });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'model.preset');
    assert.match(bad.error.message, /; did you mean llama-3\.1-8b\?$/);
});

test('QLoRA under hf-trainer: recompute auto is full, as peft prepare_model_for_kbit_training does; stated values win', () => {
    const config = (recompute, profile = 'hf-trainer') => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 4096, gpu: 'rtx-4090-24gb',
        // LitGPT's QLoRA runs bf16-true (bf16-mixed with --quantize is refused).
        training: { finetune: 'qlora', profile, ...(profile === 'litgpt' ? { precision: 'bf16-true' } : {}), ...(recompute === undefined ? {} : { recompute }) },
    });
    const est = (r, p) => vc.estimate(config(r, p));
    const acts = (r, p) => est(r, p).components.find((c) => c.key === 'activations').bytes;
    assert.equal(vc.resolveConfig(config()).training.recompute, 'auto');
    // Said nothing: full recomputation, each layer keeping its checkpointed input, 4,096 tokens x 4,096 x 4 B
    // (FP32: the same peft call casts the embedding and the norms, training.lora.upcast_frozen).
    assert.equal(acts(), acts('full'));
    assert.equal(est().metrics.activation_bytes_per_layer.value, 4096 * 4096 * 4);
    assert.ok(est().notes.some((n) => n.includes('turns gradient checkpointing on')));
    assert.ok(!est('full').notes.some((n) => n.includes('turns gradient checkpointing on')));
    assert.ok(acts('none') > acts() + 10 * GB);
    // LitGPT's loop never calls peft: auto is none there.
    assert.equal(acts(undefined, 'litgpt'), acts('none', 'litgpt'));
    assert.deepEqual(est(), cli(config()).json);
    const bad = est('always');
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'training.recompute');
    assert.match(bad.error.message, /auto/);
});

test('training.liger: Liger Kernel\'s fused loss and kernels by hand (Llama-3.1-8B LoRA, 1 x 4096), as the CLI gives them; a wrong value names the field', () => {
    const config = (liger, extra = {}) => ({
        method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, batch: 1, seq: 4096,
        training: { finetune: 'lora', recompute: 'none', liger, ...extra },
    });
    const part = (e, key) => e.components.find((c) => c.key === key).bytes;
    const on = vc.estimate(config(true));
    const off = vc.estimate(config(false));
    // Without: 4,096 x 128,256 x 12 B of FP32 loss buffers. With: a 128-row chunk of BF16 logits, its 128 x 4,096
    // temporary, the hidden states' BF16 gradient and the FP32 per-token loss.
    assert.equal(part(off, 'logits_loss'), 4096 * 128256 * 12);
    assert.equal(part(on, 'logits_loss'), 128 * 128256 * 2 + 128 * 4096 * 2 + 4096 * 4096 * 2 + 4096 * 4);
    // A layer keeps 45,048 B a token less (LigerRMSNorm's BF16 input and FP32 rstd, SwiGLU's two inputs).
    assert.equal(off.metrics.activation_bytes_per_layer.value - on.metrics.activation_bytes_per_layer.value, 4096 * 45048);
    assert.ok(on.notes.some((n) => n.includes('12.17 GB saved')), on.notes.join('\n'));
    assert.equal(vc.resolveConfig(config(true)).training.liger, true);
    assert.deepEqual(on, cli(config(true)).json);
    const e = vc.estimate(config('yes'));
    assert.equal(e.ok, false);
    assert.equal(e.error.field, 'training.liger');
});

test('a configuration the framework refuses is an error naming the field, and vLLM\'s GPU table holds its refusal on the cards below the format\'s compute capability', () => {
    // gpt-oss-20b's MXFP4 under vLLM on a T4: Mxfp4Config.get_min_capability 80 > 75.
    const oss = { method: 'detailed', task: 'inference', model: { preset: 'gpt-oss-20b' }, inference: { engine: 'vllm', weights: 'mxfp4', context: 8192 } };
    const t4 = vc.estimate({ ...oss, gpu: 't4-16gb' });
    assert.equal(t4.ok, false);
    assert.equal(t4.error.field, 'inference.weights');
    assert.match(t4.error.message, /needs compute capability 8\.0 under vLLM \(mxfp4\), and the NVIDIA T4 16GB has 7\.5/);
    // On an H100 the V100 and T4 rows say so (no_backend) and hold no share; the A100 row is sized.
    const h100 = vc.estimate({ ...oss, gpu: 'h100-80gb' });
    assert.equal(h100.ok, true);
    const row = (id) => h100.fits.find((f) => f.gpu === id);
    for (const id of ['v100-16gb', 't4-16gb']) assert.deepEqual(row(id), { fits: false, gpu: id, gpus_needed: 0, no_backend: true, utilization: 0, within_target: false });
    assert.equal('no_backend' in row('a100-80gb'), false);
    // inference.constants.vllm_min_capability 0 checks nothing: the T4 gets a figure again.
    assert.equal(vc.estimate({ ...oss, gpu: 't4-16gb', inference: { ...oss.inference, constants: { vllm_min_capability: 0 } } }).ok, true);
    // LitGPT's QLoRA under bf16-mixed: training.precision.
    const lit = vc.estimate({ method: 'detailed', task: 'finetune', model: { preset: 'llama-2-7b' }, gpu: 'a100-40gb', training: { finetune: 'qlora', profile: 'litgpt' } });
    assert.equal(lit.ok, false);
    assert.equal(lit.error.field, 'training.precision');
    assert.match(lit.error.message, /Quantization and mixed precision is not supported\./);
});

test('vLLM refuses a max_model_len above the model\'s window unless allow_long_max_model_len (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1), as the CLI does', () => {
    const config = { method: 'detailed', task: 'inference', model: { preset: 'qwen3-8b' }, gpu: 'h100-80gb',
        inference: { engine: 'vllm', weights: 'bf16', context: 65536 } };
    const refused = vc.estimate(config);
    assert.equal(refused.ok, false);
    assert.equal(refused.error.field, 'inference.context');
    assert.match(refused.error.message, /65,536 is above the model's window of 40,960 tokens/);
    assert.deepEqual(refused, cli(config).json);
    // Allowed: 65,536 x 147,456 B of KV per sequence (36 layers x 8 KV heads x 128 x 2 x 2 B a token).
    const allowed = { ...config, inference: { ...config.inference, vllm: { allow_long_max_model_len: true } } };
    const a = vc.estimate(allowed);
    assert.equal(a.metrics.kv_bytes_per_sequence.value, 65536 * 147456);
    assert.match(a.launch_command, /^VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve /);
    assert.deepEqual(a, cli(allowed).json);
});

test('Ollama\'s retry after a load out of memory, llama.cpp\'s 256 sequences and a YaRN window: the library as the CLI', () => {
    // Llama-3.1-70B Q4_K_M on a 64 GB Mac at Ollama's default 131,072: 40 GiB of F16 KV beside 39.59 GiB of
    // weights is past the 64 GiB, so Ollama retries once at 32,768 (server/sched.go reduceAutoNumCtxForLoadOOM);
    // 75 layers' KV on Metal, 75 x 32,768 x 4,096 B.
    const mac = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-70b' }, gpu: 'apple-m4-max-64gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', llamacpp: { profile: 'ollama' } } };
    const m = vc.estimate(mac);
    assert.equal(m.ok, true);
    assert.equal(m.metrics.ollama_oom_num_ctx.value, 131072);
    assert.equal(m.devices[0].kv_bytes, 75 * 32768 * 4096);
    assert.ok(m.notes.some((n) => n.startsWith('Ollama\'s load at its default num_ctx 131,072 runs out of memory, so it retries once at 32,768 tokens')));
    assert.deepEqual(m, cli(mac).json);
    // -np 300 under llama.cpp: refused, naming the field and the range (LLAMA_MAX_SEQ 256).
    const np = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb',
        inference: { engine: 'llama.cpp', weights: 'q4_k_m', context: 4096, concurrency: 300 } };
    const refused = vc.estimate(np);
    assert.equal(refused.ok, false);
    assert.equal(refused.error.field, 'inference.concurrency');
    assert.match(refused.error.message, /300 is above llama\.cpp's most sequences: accepted 1 to 256 \(inference\.constants\.llamacpp_max_seq/);
    assert.deepEqual(refused, cli(np).json);
    // Qwen2.5-7B-Instruct's config.json with its model card's YaRN block: 32,768 x 4 = 131,072 positions.
    const qwen = JSON.stringify({ architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584, intermediate_size: 18944,
        max_position_embeddings: 32768, num_attention_heads: 28, num_hidden_layers: 28, num_key_value_heads: 4, vocab_size: 152064,
        tie_word_embeddings: false, torch_dtype: 'bfloat16', rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } });
    const imported = vc.importModel(qwen, 'config.json');
    assert.equal(imported.model.context_limit, 131072);
    assert.ok(imported.notes.some((n) => n.startsWith('rope_scaling yarn: model.context_limit 131,072 = original_max_position_embeddings 32,768 x factor 4')));
});
