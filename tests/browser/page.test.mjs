// Browser test of the calculator page on a desktop (node --test; ctest runs it from the native
// build). Serves the built site on a free localhost port, opens it in headless Chromium and acts
// as a visitor: picks a preset, changes inputs, switches task and method, toggles units and theme,
// shares a link, copies and exports, types bad input. Widgets are found through the page's item
// registry and results read through its test hook and the accessible summary (never OCR).
// Saves screenshots to artifacts/.
//   VRAMCALC_SITE       the built site folder (default build/wasm/site)
//   VRAMCALC_BIN        the native CLI, to compare the page's estimate() with `--format json`
//   VRAMCALC_ARTIFACTS  where screenshots go (default artifacts/)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { decodePng, pixelStats } from './png.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const artifacts = process.env.VRAMCALC_ARTIFACTS || join(root, 'artifacts');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const GB = 1e9;

// The quick method's worked example, as flags and as a config document.
const kExampleFlags = ['--method', 'quick', '--params', '7', '--precision', 'fp16', '--optimizer', 'adamw-mixed', '--batch', '4', '--seq', '2048'];
const kExampleConfig = { method: 'quick', params_b: 7, precision: 'fp16', optimizer: 'adamw-mixed', batch: 4, seq: 2048 };

let server, url, browser, context, page, v;
const consoleErrors = [];
const foreignRequests = [];

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    mkdirSync(artifacts, { recursive: true });
    ({ server, url } = await serveSite(site, { port: 0 }));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, colorScheme: 'dark' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
    page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => { if (!r.url().startsWith(url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreignRequests.push(r.url()); });
    await page.goto(url);
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 0, null, { timeout: 30000 });
    v = new Visitor(page);
});

after(async () => {
    await browser?.close();
    server?.close();
});

// Scroll the widget `id` into view and click it.
async function press(w, id) {
    await w.inView(id);
    await w.click(id);
}

// A second page opened at `link`, its first frames drawn and its results settled.
async function openSettled(link) {
    const other = await context.newPage();
    await other.goto(link);
    await other.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2);
    const w = new Visitor(other);
    await w.settled();
    return { other, w };
}

test('the page loads the worked example with no console errors and no request leaving localhost', async () => {
    await v.settled();
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(foreignRequests, []);
    const s0 = await v.state();
    assert.equal(s0.inputs.method, 'detailed', 'the page opens on the detailed model');
    assert.equal(s0.result.method, 'detailed');
    assert.equal(s0.error, null);
    assert.equal(s0.fragment, '', 'the default state needs no fragment');
    // The worked example under the quick rule of thumb (a comparison with the detailed model).
    await v.click('method/quick');
    const s = await v.state();
    assert.equal(s.inputs.method, 'quick');
    assert.equal(s.error, null);
    assert.equal(s.fragment, 'v=2&method=quick');
    assert.equal(s.dark, true, 'Auto follows prefers-color-scheme: dark');
    const r = s.result;
    assert.equal(r.breakdown.weights, 14 * GB);
    assert.equal(r.breakdown.activations, 143.36 * GB);
    assert.equal(r.buffered_bytes, 306.432 * GB);
    assert.deepEqual(r.fits.map((f) => [f.gpu, f.gpus_needed]), [['a100-80gb', 4], ['rtx-4090-24gb', 13]]);
    // The comparison strip: the same scenario under every method.
    assert.equal(s.comparison.quick, 306.432 * GB);
    assert.ok(s.comparison.guide > 0 && s.comparison.detailed > 0);
    // The accessible summary mirrors the canvas.
    const a11y = await v.hook('a11yText');
    assert.match(a11y, /Per-GPU total\s*255\.36 GB/);
    assert.match(a11y, /Activations\s*143\.36 GB \(56\.1%\)/);
    const live = await page.getAttribute('#a11y-results', 'aria-live');
    assert.equal(live, 'polite');
});

test('the canvas shows a drawn frame', async () => {
    const png = decodePng(await page.locator('#canvas').screenshot());
    const stats = pixelStats(png);
    assert.ok(stats.colors > 100, `only ${stats.colors} colours on the canvas`);
    assert.ok(stats.nonBackgroundShare > 0.05, `only ${(stats.nonBackgroundShare * 100).toFixed(1)}% of the canvas is drawn`);
});

test('the + and - buttons double and halve the batch; a preset picks a power of two', async () => {
    const before = await v.hook('frameCount');
    await v.click('batch/inc');
    let s = await v.state();
    assert.ok(s.frames_drawn > before, 'a click redraws');
    assert.equal(s.inputs.batch, 8);
    assert.equal(s.result.breakdown.activations, 2.5e-3 * 8 * 2048 * 7e9);
    await v.click('batch/dec');
    await v.click('batch/dec');
    assert.equal((await v.state()).inputs.batch, 2);
    await v.pick('seq/presets', 'seq/preset/8,192');
    s = await v.state();
    assert.equal(s.inputs.seq, 8192);
    await v.pick('seq/presets', 'seq/preset/2,048');
    await v.click('batch/inc');
    await v.click('batch/inc');
    assert.equal((await v.state()).inputs.batch, 8);
    await v.typeInto('batch', '4');
    assert.equal((await v.state()).inputs.batch, 4);
});

test('dragging a number sideways changes it without a keyboard (60 px doubles it)', async () => {
    const [x, y] = await v.center('seq');
    await page.mouse.move(x, y);
    await page.mouse.down();
    // A held button keeps the page drawing (no idle until release): wait for frames instead.
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    for (let dx = 10; dx <= 60; dx += 10) {
        await page.mouse.move(x + dx, y);
        await frames();
    }
    await page.mouse.up();
    await v.settled();
    let s = await v.state();
    assert.ok(s.inputs.seq > 3000 && s.inputs.seq < 5500, `seq ${s.inputs.seq} after a 60 px drag from 2048`);
    assert.equal(s.result.breakdown.activations, 2.5e-3 * 4 * s.inputs.seq * 7e9);
    await v.pick('seq/presets', 'seq/preset/2,048');
    s = await v.state();
    assert.equal(s.inputs.seq, 2048);
});

test('a change redraws within one frame', async () => {
    const [x, y] = await v.center('batch/inc');
    const before = await v.hook('frameCount');
    await page.mouse.click(x, y);
    // The next animation frame has drawn the new result.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const s = await v.state();
    assert.ok(s.frames_drawn > before);
    assert.equal(s.inputs.batch, 8);
    await v.settled();
    await v.click('batch/dec');
});

test('checkpointing quarters the quick method\'s activations', async () => {
    await v.click('checkpointing');
    let s = await v.state();
    assert.equal(s.inputs.checkpointing, true);
    assert.equal(s.result.breakdown.activations, 35.84 * GB);
    assert.ok(Math.abs(s.result.buffered_bytes - 177.408 * GB) < 1);
    assert.deepEqual(s.result.fits.map((f) => f.gpus_needed), [3, 8]);
    await v.click('checkpointing');
    s = await v.state();
    assert.equal(s.inputs.checkpointing, false);
});

test('bad input shows the error beside the field and keeps the last valid result', async () => {
    const before = await v.hook('result');
    await v.typeInto('batch', '0');
    let s = await v.state();
    assert.equal(s.error?.field, 'batch');
    assert.match(s.error.message, /batch must be a whole number in \[1, 1048576\] sequences, got 0/);
    assert.deepEqual(s.result, before, 'the last valid result stays');
    // The message is drawn right under the field.
    const field = await v.widget('batch');
    const msg = await v.widget('batch/error');
    assert.ok(msg.y >= field.y + field.h - 1 && msg.y - (field.y + field.h) < 12, 'the error is beside the field');
    assert.ok(Math.abs(msg.x - field.x) < 4);
    assert.match(await v.hook('a11yText'), /Invalid input: batch/);
    await page.screenshot({ path: join(artifacts, 'bad-input.png') });
    await v.typeInto('batch', '4');
    s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.batch, 4);
    assert.deepEqual(consoleErrors, []);
});

test('typed text applies as a whole: "1e30" never applies its prefix "1e3"; Escape drops the edit', async () => {
    await v.typeInto('batch', '4');
    const before = await v.hook('result');
    const batchBefore = (await v.state()).inputs.batch;
    // While typing, nothing applies: after "1e3" the inputs and the result are the ones before.
    await v.typeInto('batch', '1e3', { enter: false });
    let s = await v.state();
    assert.equal(s.inputs.batch, batchBefore);
    assert.deepEqual(s.result, before);
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await v.settled();
    s = await v.state();
    assert.equal(s.error?.field, 'batch');
    assert.match(s.error.message, /^batch must be .*, got 1e\+30$/);
    assert.deepEqual(s.result, before, 'the last valid result is the one before the edit, not batch 1000');
    // Escape leaves the field with its value.
    await v.typeInto('batch', '2');
    const two = await v.hook('result');
    await v.typeInto('batch', '64', { enter: false });
    await page.keyboard.press('Escape');
    await v.settled();
    s = await v.state();
    assert.equal(s.inputs.batch, 2);
    assert.deepEqual(s.result, two);
});

test('the guide method reproduces the guide\'s 70B training example', async () => {
    await v.click('method/guide');
    await v.typeInto('params_b', '70');
    // A whole-number field given what no int holds: the message says what was typed.
    await v.typeInto('model.layers', '1e30');
    const bad = await v.state();
    assert.equal(bad.error?.field, 'model.layers');
    assert.match(bad.error.message, /^model\.layers must be .*, got 1e\+30$/);
    await v.typeInto('model.layers', '80');
    await v.typeInto('model.hidden', '8192');
    await v.typeInto('model.heads', '64');
    await v.typeInto('batch', '1');
    await v.typeInto('seq', '4096');
    await v.typeInto('gpus', '8');
    const s = await v.state();
    assert.equal(s.inputs.method, 'guide');
    assert.equal(s.error, null);
    // (70e9 x (2x2 + 12) + 2 x 1 x 4096 x 8192 x 80 x 2) / 8 GPUs x 1.15 = 162.54 GB per GPU
    assert.equal(s.result.method, 'guide');
    assert.equal(Math.round(s.result.buffered_bytes / 1e7) / 100, 162.54);
    // Hovering the bar draws its tooltip (bytes, share and formula of the segment).
    const bar = await v.widget('breakdown_bar');
    const before = await v.hook('frameCount');
    await page.mouse.move(bar.x + bar.w * 0.3, bar.y + bar.h / 2);
    await v.settled();
    assert.ok((await v.hook('frameCount')) > before, 'hovering draws the tooltip');
    await page.screenshot({ path: join(artifacts, 'guide-70b.png') });
    await v.typeInto('gpus', '1');
    await v.typeInto('batch', '4');
    await v.typeInto('seq', '2048');
    await v.click('method/quick');
});

test('a preset from the searchable list: the model and its derived count carry to every method', async () => {
    await v.click('model_mode/preset');
    await v.click('model.preset');
    await page.keyboard.type('llama 3.1 70');
    await v.settled();
    const widgets = await v.hook('widgets');
    assert.ok(widgets['model.preset/llama-3.1-70b'], 'the search shows Llama-3.1 70B');
    assert.ok(!widgets['model.preset/mistral-7b-v0.1'], 'and hides what does not match');
    await v.click('model.preset/llama-3.1-70b');
    const s = await v.state();
    assert.equal(s.inputs.model.preset, 'llama-3.1-70b');
    assert.equal(s.inputs.model.context_limit, 131072, 'its config.json max_position_embeddings');
    assert.ok((await v.hook('widgets'))['model/context_limit'], 'the model section shows the context window');
    assert.ok(Math.abs(s.model_params_b - 70.554) < 0.01, `params_b ${s.model_params_b}`);
    assert.equal(s.result.breakdown.weights, s.model_params_b * 1e9 * 2);
    assert.match(s.fragment, /model\.preset=llama-3\.1-70b/);
});

test('switching task and method keeps the shared inputs; the page computes what the JS API does', async () => {
    await v.click('task/inference');
    await v.click('method/detailed');
    let s = await v.state();
    assert.equal(s.inputs.task, 'inference');
    assert.equal(s.inputs.method, 'detailed');
    assert.equal(s.result.method, 'detailed');
    assert.equal(s.inputs.model.preset, 'llama-3.1-70b', 'the model stays');
    assert.equal(s.inputs.inference.context, 2048, 'the sequence length became the context');
    assert.equal(s.inputs.inference.concurrency, 4, 'the batch became the concurrency');
    const api = await page.evaluate((c) => window.vramcalc.estimate(c), s.inputs);
    assert.deepEqual(api, s.result);
    // What fits on one H100 80GB: 141 GB of BF16 weights do not, so no context does; it takes 2+ GPUs.
    assert.equal(s.answers.max_context.value, 0);
    assert.ok(s.answers.min_gpus.value >= 2, `fewest GPUs ${s.answers.min_gpus.value}`);
    assert.ok(Array.isArray(s.answers.best_format.items));

    // Serving inputs: double the context with the keyboard-free + button.
    await v.click('inference.context/inc');
    s = await v.state();
    assert.equal(s.inputs.inference.context, 4096);
    assert.ok(s.result.metrics.decode_tokens_per_s.value > 0, 'roofline speed');

    await v.click('method/quick');
    s = await v.state();
    assert.equal(s.inputs.seq, 4096, 'the context became the sequence length');
    assert.equal(s.inputs.optimizer, 'inference');
    await v.click('task/finetune');
    await v.click('method/detailed');
    await v.click('finetune/qlora');
    s = await v.state();
    assert.equal(s.inputs.task, 'finetune');
    assert.equal(s.inputs.training.finetune, 'qlora');
    assert.equal(s.result.task, 'finetune');
    assert.ok(s.result.breakdown.weights < 70.6e9, 'a 4-bit base: under one byte per weight');
    await page.screenshot({ path: join(artifacts, 'desktop-dpr1.png') });
});

test('the length chart marks the model\'s context window; the longest context stops there', async () => {
    const { other, w } = await openSettled(`${url}#v=1&method=detailed&task=inference&model.preset=llama-3-8b&gpu=h200-141gb`);
    const s = await w.state();
    // Llama-3 8B: 8,192 tokens (config.json max_position_embeddings); an H200 holds far more KV.
    assert.equal(s.answers.max_context.value, 8192);
    assert.ok(s.answers.kv_capacity.value > 100000, 'the pool itself holds more');
    // The charts draw only in view: scroll the results there (one notch is 75 px).
    const start = await w.widget('chart/seq');
    await other.mouse.move(start.x + start.w / 2, 400);
    for (let moved = 0; moved < start.y - 200; moved += 75) await other.mouse.wheel(0, 100);
    await w.settled();
    const chart = await w.widget('chart/seq');
    const line = await w.widget('chart/seq/window');
    assert.ok(line.x > chart.x && line.x < chart.x + chart.w, 'the window line is inside the length chart');
    const x = s.charts['inference.context'].x;
    assert.ok(x[0] < 8192 && x[x.length - 1] > 8192, 'the chart spans the window');
    await other.close();
});

test('a hybrid preset shows its layer mix, and its KV row carries the recurrent state', async () => {
    const { other, w } = await openSettled(`${url}#v=2&method=detailed&task=inference&model.preset=qwen3-next-80b-a3b&gpu=h200-141gb` +
                                           '&inference.engine=llama.cpp&inference.weights=q4_k_m&inference.context=32768');
    const s = await w.state();
    assert.ok((await w.hook('widgets'))['model/layer_mix'], 'the model section shows "12 attention + 36 gated DeltaNet layers"');
    // 12 attention layers x 32,768 cells x 2,048 B + 36 gated DeltaNet layers x 2,195,456 B of F32 state.
    assert.equal(s.result.breakdown.kv_cache, 12 * 32768 * 2048 + 36 * 2195456);
    const kv = s.result.components.find((c) => c.key === 'kv_cache').formula;
    assert.match(kv, /2 x 12 attention layers/);
    assert.match(kv, /recurrent state per sequence in 36 layers/);
    await other.close();
});

test('Nemotron-3 Nano\'s MoE blocks, LFM2\'s short convolutions and Jamba\'s Mamba1, Falcon-H1\'s parallel layers: the layer mix, the state in the KV row', async () => {
    let { other, w } = await openSettled(`${url}#v=2&method=detailed&task=inference&model.preset=nemotron-3-nano-30b-a3b&gpu=rtx-4090-24gb` +
                                         '&inference.engine=llama.cpp&inference.weights=q4_k_m&inference.context=32768');
    let s = await w.state();
    assert.ok((await w.hook('widgets'))['model/layer_mix'], 'the model section shows "6 attention + 23 Mamba2 layers + 23 MoE layers"');
    // 6 attention layers x 32,768 cells x 2 x 2 KV heads x 128 x 2 B + 23 Mamba2 layers x (3 x 6,144 + 128 x 4,096) x 4 B.
    assert.equal(s.result.breakdown.kv_cache, 6 * 32768 * 1024 + 23 * 2170880);
    assert.match(s.result.components.find((c) => c.key === 'kv_cache').formula, /recurrent state per sequence in 23 layers/);
    assert.equal(s.result.metrics.params.value, 31577937344);
    await other.close();
    // LFM2 1.2B under vLLM: its 8,192 B BF16 conv state padded to a 16-token page of 32,768 B, 12 pages a sequence.
    ({ other, w } = await openSettled(`${url}#v=2&method=detailed&task=inference&model.preset=lfm2-1.2b&gpu=l4-24gb` +
                                      '&inference.engine=vllm&inference.weights=bf16&inference.context=8192'));
    s = await w.state();
    assert.ok((await w.hook('widgets'))['model/layer_mix'], 'the model section shows "6 attention + 10 short-conv layers"');
    assert.equal(s.result.metrics.kv_bytes_per_sequence.value, 8192 * 12288 + 12 * 32768);
    await other.close();
    // Jamba v0.1 in llama.cpp: "4 attention + 28 Mamba1 layers"; 4 x 8,192 cells x 4,096 B of F16 KV + 28 Mamba1 states of
    // (3 + 16) x 8,192 x 4 B.
    ({ other, w } = await openSettled(`${url}#v=2&method=detailed&task=inference&model.preset=jamba-v0.1&gpu=h100-80gb` +
                                      '&inference.engine=llama.cpp&inference.weights=q4_k_m&inference.context=8192'));
    s = await w.state();
    assert.ok((await w.hook('widgets'))['model/layer_mix'], 'the model section shows "4 attention + 28 Mamba1 layers"');
    assert.equal(s.result.breakdown.kv_cache, 4 * 8192 * 4096 + 28 * 622592);
    assert.equal(s.result.metrics.params.value, 51570323328);
    await other.close();
    // Falcon-H1 7B: every layer attends and keeps a Mamba2 state, "44 parallel attention + Mamba2 layers"; at -c 8,192
    // 44 x 8,192 x 1,024 B of KV + 44 x (10,752 + 786,432) x 4 B of state.
    ({ other, w } = await openSettled(`${url}#v=2&method=detailed&task=inference&model.preset=falcon-h1-7b&gpu=rtx-4090-24gb` +
                                      '&inference.engine=llama.cpp&inference.weights=q4_k_m&inference.context=8192'));
    s = await w.state();
    assert.ok((await w.hook('widgets'))['model/layer_mix'], 'the model section shows "44 parallel attention + Mamba2 layers"');
    assert.equal(s.result.breakdown.kv_cache, 44 * 8192 * 1024 + 44 * 3188736);
    await other.close();
});

test('choosing Llama-3.1 8B shows BF16, its checkpoint\'s dtype, where the worked example showed FP16; INT8 stays', async () => {
    const { other, w } = await openSettled(url);
    await w.click('method/quick');
    let s = await w.state();
    assert.equal(s.inputs.precision, 'fp16', 'the worked example: a 7B model in FP16');
    // The preset mode opens on Llama-3.1 8B: config.json torch_dtype "bfloat16".
    await w.click('model_mode/preset');
    s = await w.state();
    assert.equal(s.inputs.model.preset, 'llama-3.1-8b');
    assert.equal(s.inputs.precision, 'bf16', 'FP16 became BF16');
    assert.equal(s.inputs.model.checkpoint_dtype, 'bf16');
    assert.equal(s.result.breakdown.weights, s.model_params_b * 1e9 * 2, 'still 2 bytes a weight');
    assert.match(s.fragment, /precision=bf16/);
    // From the searchable list: the preset, and the precision it leaves.
    const choose = async (search, id) => {
        await w.click('model.preset');
        await other.keyboard.type(search);
        await w.settled();
        await w.click(`model.preset/${id}`);
        const after = await w.state();
        assert.equal(after.inputs.model.preset, id);
        return after.inputs.precision;
    };
    assert.equal(await choose('llama 2 7', 'llama-2-7b'), 'fp16', 'Llama-2 7B\'s checkpoint is "float16"');
    // A user's 1-byte choice stays when the model changes.
    await w.pick('precision', 'precision/int8');
    assert.equal((await w.state()).inputs.precision, 'int8');
    assert.equal(await choose('llama 3.1 8', 'llama-3.1-8b'), 'int8');
    await other.close();
});

test('choosing gpt-oss-120b for vLLM serves its MXFP4 checkpoint as stored: 65.28 GB, one H100', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=inference&method=detailed&inference.engine=vllm&model.preset=llama-3.1-8b&gpu=h100-80gb');
    assert.equal((await w.state()).inputs.inference.weights, 'bf16');
    await w.click('model.preset');
    await other.keyboard.type('gpt oss 120');
    await w.settled();
    await w.click('model.preset/gpt-oss-120b');
    const s = await w.state();
    assert.equal(s.inputs.inference.weights, 'mxfp4', 'model.checkpoint_format: the experts in MXFP4, the rest BF16');
    // tests/unit/test_checkpoint_dtype.cpp has the sum by hand.
    assert.equal(s.result.breakdown.weights, 65282758528);
    assert.match(s.fragment, /inference\.weights=mxfp4/);
    await other.close();
});

test('transformers serving: the CUDA lazy-loading checkbox (issue 12) switches the context between the lazy and the eager model', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=inference&method=detailed&inference.engine=hf&model.preset=llama-3.1-8b&gpu=h100-80gb');
    let s = await w.state();
    assert.equal(s.inputs.inference.engine, 'hf');
    // On the H100 (core/catalog/cuda_context.hpp): the framework part, 0.5 GiB less the A100's local
    // memory (1986 B x 108 x 2048) = 97,599,488 B, plus the H100's 1986 B x 132 SMs x 2048 threads.
    assert.equal(s.result.breakdown.runtime, 97599488 + 1986 * 132 * 2048, 'lazy loading: a 605 MiB context');
    await w.inView('more/serving_more');
    await w.click('more/serving_more');
    await w.inView('inference.hf.lazy_loading');
    await w.click('inference.hf.lazy_loading');
    s = await w.state();
    assert.equal(s.inputs.inference.hf.lazy_loading, false);
    // 1343 MiB on a V100 (calibration C07) less its 1986 B x 80 x 2048, plus the H100's local memory.
    assert.equal(s.result.breakdown.runtime, 1343 * 2 ** 20 - 1986 * 80 * 2048 + 1986 * 132 * 2048, 'eager loading: a 1545 MiB context');
    assert.match(s.fragment, /inference\.hf\.lazy_loading=false/);
    await other.close();
});

test('transformers serving: SDPA enable_gqa (issue 12) drops GQA models\' repeat_kv copies from the last decode step', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=inference&method=detailed&inference.engine=hf&model.preset=llama-3.1-8b&gpu=a100-80gb' +
        '&inference.context=4096&inference.prompt_tokens=64&inference.concurrency=8&inference.weights=bf16');
    let s = await w.state();
    assert.equal(s.inputs.inference.hf.attention, 'sdpa');
    // K and V expanded to 32 heads for 8 sequences at 4,096 tokens: 2 x 8 x 32 x 4,096 x 128 x 2 B.
    assert.equal(s.result.breakdown.activations, 536870912);
    await w.inView('inference.hf.sdpa_enable_gqa');
    await w.click('inference.hf.sdpa_enable_gqa');
    s = await w.state();
    assert.equal(s.inputs.inference.hf.sdpa_enable_gqa, true);
    // The 64-token prefill: hidden states, the gated MLP and one layer's keys at 4,096 tokens.
    assert.equal(s.result.breakdown.activations, 119537664);
    assert.match(s.fragment, /inference\.hf\.sdpa_enable_gqa=true/);
    await other.close();
});

test('vLLM serving: the sampler, custom all-reduce and GPU P2P choices (issue 12) under MORE INPUTS change the profile and non-torch memory', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=inference&method=detailed&inference.engine=vllm&model.preset=llama-3.1-8b&gpu=l40s-48gb&inference.tp=4');
    let s = await w.state();
    assert.equal(s.inputs.inference.vllm.sampler, 'auto');
    // The sampler's logits peak over 8,192 batched tokens at TP 4: 8192 x 4096 x 2 B + 256 x 128,256 x 40 B.
    assert.equal(s.result.breakdown.activations, 67108864 + 1313341440);
    const offRuntime = s.result.breakdown.runtime;
    await w.inView('more/serving_more');
    await w.click('more/serving_more');
    await w.inView('inference.vllm.sampler');
    await w.pick('inference.vllm.sampler', 'inference.vllm.sampler/flashinfer');
    s = await w.state();
    assert.equal(s.inputs.inference.vllm.sampler, 'flashinfer');
    // FlashInfer: 14 B per logit, 8192 x 4096 x 2 B + 256 x 128,256 x 14 B.
    assert.equal(s.result.breakdown.activations, 67108864 + 459669504);
    assert.match(s.fragment, /inference\.vllm\.sampler=flashinfer/);
    // TP 4 on L40S cards (PCIe): vLLM leaves custom all-reduce off; on adds its two 8 MiB IPC buffers.
    await w.inView('inference.vllm.custom_all_reduce');
    await w.pick('inference.vllm.custom_all_reduce', 'inference.vllm.custom_all_reduce/on');
    s = await w.state();
    assert.equal(s.inputs.inference.vllm.custom_all_reduce, 'on');
    assert.ok(Math.abs(s.result.breakdown.runtime - offRuntime - 16 * 2 ** 20) < 1, 'custom all-reduce: 16 MiB more');
    assert.match(s.fragment, /inference\.vllm\.custom_all_reduce=on/);
    // GPU P2P off: NCCL's buffers go to host memory (the SHM transport), so non-torch memory is the
    // 0.13 GiB without TP plus the forced custom all-reduce's 16 MiB: 139,586,437 + 16,777,216 B.
    await w.inView('inference.vllm.p2p');
    await w.pick('inference.vllm.p2p', 'inference.vllm.p2p/off');
    s = await w.state();
    assert.equal(s.inputs.inference.vllm.p2p, 'off');
    assert.ok(Math.abs(s.result.breakdown.runtime - (0.13 * 2 ** 30 + 16 * 2 ** 20)) < 1, 'no P2P: NCCL off the card');
    assert.match(s.fragment, /inference\.vllm\.p2p=off/);
    await other.close();
});

test('QLoRA: the framework-version toggles under MORE INPUTS; the previous step\'s graph off frees the second copy of the 4-bit layers\' inputs', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=llama-3.1-8b&training.finetune=qlora' +
        '&training.profile=litgpt&training.precision=bf16-true&training.lora.saves_inputs=true&training.lora.dropout=0&batch=1&seq=512');
    let s = await w.state();
    assert.equal(s.inputs.training.lora.previous_graph, null);  // the profile's: LitGPT keeps it
    const kept = s.result.breakdown.activations;
    await w.inView('more/training_more');
    await w.click('more/training_more');
    for (const id of ['training.lora.previous_graph', 'training.lora.dequant_fp16', 'training.lora.unchunked_quantize', 'training.lora.upcast_frozen',
        'training.lora.adapters_bf16'])
        assert.ok(await w.hook('widget', `${id}/off`), `${id} has a row`);
    assert.equal(await w.hook('widget', 'training.keeps_logits/off'), null, 'no recomputation: the logits toggle is hidden');
    await w.inView('training.lora.previous_graph/off');
    await w.click('training.lora.previous_graph/off');
    s = await w.state();
    assert.equal(s.inputs.training.lora.previous_graph, false);
    // The second copy: 32 layers x 512 tokens x 2 B x (gate/up's input 4,096 + down's 14,336) = 603,979,776 B.
    assert.equal(kept - s.result.breakdown.activations, 32 * 512 * 2 * (4096 + 14336));
    assert.match(s.fragment, /training\.lora\.previous_graph=false/);
    await other.close();
});

test('the Liger Kernel checkbox: Llama-3.1-8B LoRA 1 x 4096, the fused loss by hand; its chunk row appears with it', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=llama-3.1-8b&training.finetune=lora' +
        '&training.recompute=none&batch=1&seq=4096&gpu=h100-80gb');
    let s = await w.state();
    // HF's FP32 loss: 4,096 x 128,256 x 12 B.
    assert.equal(s.result.breakdown.logits_loss, 4096 * 128256 * 12);
    await w.inView('training.liger');
    await w.click('training.liger');
    s = await w.state();
    assert.equal(s.inputs.training.liger, true);
    assert.match(s.fragment, /training\.liger=true/);
    // A 128-row chunk of BF16 logits, its 128 x 4,096 temporary, the BF16 hidden states' gradient, the FP32 loss.
    assert.equal(s.result.breakdown.logits_loss, 128 * 128256 * 2 + 128 * 4096 * 2 + 4096 * 4096 * 2 + 4096 * 4);
    await w.inView('more/training_more');
    await w.click('more/training_more');
    assert.ok(await w.hook('widget', 'training.liger_chunk_tokens'), 'the chunk row shows with Liger on');
    await other.close();
});

test('the profile combo lists the engine\'s profiles: picking TRL SFTTrainer gives its QLoRA figures by hand', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=llama-3.1-8b&training.finetune=qlora' +
        '&batch=1&seq=2048&gpu=rtx-4090-24gb');
    assert.equal((await w.state()).inputs.training.profile, 'hf-trainer');
    await w.inView('training.profile');
    await w.pick('training.profile', 'training.profile/trl');
    const s = await w.state();
    assert.equal(s.inputs.training.profile, 'trl');
    assert.match(s.fragment, /training\.profile=trl/);
    // No peft cast, BF16 adapters: 3,600,416,768 + 1,050,939,392 x 2 + 6,815,744 x 2 B; the chunked loss:
    // 128,256 x 4,096 x 6 B at a chunk's cast + 2 x 2,048 x 4,096 x 2 B of sorted hidden states.
    assert.equal(s.result.breakdown.weights, 5715927040);
    assert.equal(s.result.breakdown.logits_loss, 128256 * 4096 * 6 + 2 * 2048 * 4096 * 2);
    await other.close();
});

test('QLoRA of an MoE: the "MoE experts unquantized" row (transformers 5 leaves the fused experts in 16-bit); Off quantizes them', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=mixtral-8x7b&training.finetune=qlora' +
        '&training.lora.rank=16&training.lora.upcast_frozen=false&batch=1&seq=2048&gpu=h100-80gb');
    let s = await w.state();
    assert.equal(s.inputs.training.lora.experts_unquantized, null);  // the profile's: hf-trainer leaves them
    const left = s.result.breakdown.weights;
    await press(w, 'more/training_more');
    await press(w, 'training.lora.experts_unquantized/off');
    s = await w.state();
    assert.equal(s.inputs.training.lora.experts_unquantized, false);
    // 32 x 8 x 3 x 4,096 x 14,336 = 45,097,156,608 expert weights at NF4's 0.515869140625 B instead of 2 B.
    assert.equal(left - s.result.breakdown.weights, 45097156608 * (2 - 0.515869140625));
    assert.match(s.fragment, /training\.lora\.experts_unquantized=false/);
    // A dense model has no such row.
    const dense = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=llama-3.1-8b&training.finetune=qlora');
    await press(dense.w, 'more/training_more');
    assert.equal(await dense.w.hook('widget', 'training.lora.experts_unquantized/off'), null);
    assert.ok(await dense.w.hook('widget', 'training.lora.upcast_frozen/off'));
    await dense.other.close();
    await other.close();
});

test('LoRA of an MoE: the "MoE expert adapters" row (transformers 5: none by the profile); peft target_parameters adapters by hand', async () => {
    const { other, w } = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=mixtral-8x7b&training.finetune=lora' +
        '&training.lora.rank=16&training.lora.dropout=0&training.lora.targets=q,v,gate,up,down&batch=1&seq=2048&gpu=h200-141gb');
    let s = await w.state();
    assert.equal(s.inputs.training.lora.expert_adapters, 'auto');  // the profile's: hf-trainer adapts no routed expert
    const none = s.result.breakdown.weights;
    await press(w, 'more/training_more');
    await w.inView('training.lora.expert_adapters');
    await w.pick('training.lora.expert_adapters', 'training.lora.expert_adapters/target-parameters-unmerged');
    s = await w.state();
    assert.equal(s.inputs.training.lora.expert_adapters, 'target-parameters-unmerged');
    // 32 layers x 8 experts x 16 x ((4,096 + 28,672) + (14,336 + 4,096)) = 209,715,200 adapter params in FP32.
    assert.equal(s.result.breakdown.weights - none, 209715200 * 4);
    assert.match(s.fragment, /training\.lora\.expert_adapters=target-parameters-unmerged/);
    // A dense model has no such row.
    const dense = await openSettled(url + '#v=2&task=finetune&method=detailed&model.preset=llama-3.1-8b&training.finetune=lora');
    await press(dense.w, 'more/training_more');
    assert.equal(await dense.w.hook('widget', 'training.lora.expert_adapters'), null);
    await dense.other.close();
    await other.close();
});

test('GB/GiB and the theme toggle; the summary follows the unit', async () => {
    await v.click('units/gib');
    let s = await v.state();
    assert.equal(s.units, 'GiB');
    assert.match(await v.hook('a11yText'), /GiB/);
    assert.match(s.fragment, /units=gib/);
    await v.click('theme/light');
    s = await v.state();
    assert.equal(s.theme, 'light');
    assert.equal(s.dark, false);
    // (10 px in: the canvas's keyboard-focus outline runs along its edge; a locator's screenshot
    // ignores `clip` and starts at that edge, the page's takes it)
    const png = decodePng(await page.screenshot({ clip: { x: 10, y: 780, width: 4, height: 4 } }));
    assert.ok(png.pixels[0] > 200, 'a light background');
    await page.screenshot({ path: join(artifacts, 'desktop-light.png') });
    await v.click('theme/auto');
    await v.click('units/gb');
    assert.equal((await v.state()).dark, true);
});

test('a shared link restores the same state in a fresh page, and back/forward walk the history', async () => {
    const s = await v.state();
    const link = `${url}#${s.fragment}`;
    const { other, w } = await openSettled(link);
    const t = await w.state();
    assert.deepEqual(t.inputs, s.inputs);
    assert.deepEqual(t.result, s.result);
    assert.equal(t.link_error, '');
    await other.close();

    // History: each settled change is an entry; back restores the previous one.
    await page.waitForTimeout(1100);
    await v.click('method/guide');
    assert.equal((await v.state()).inputs.method, 'guide');
    await page.goBack();
    await v.settled();
    assert.equal((await v.state()).inputs.method, 'detailed');
    await page.goForward();
    await v.settled();
    assert.equal((await v.state()).inputs.method, 'guide');
    await v.click('method/detailed');
});

test('a hostile link (issue 16): invalid UTF-8, a bad key and an oversized link never break the page', async () => {
    const errors = [];
    const other = await context.newPage();
    other.on('pageerror', (e) => errors.push(e.message));
    other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    // #gpu=%22%FF used to abort the module: the field is named, the rest of the link applies.
    await other.goto(`${url}#v=1&gpu=%22%FF&batch=8&seq=oops&units=gib`);
    await other.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2);
    const w = new Visitor(other);
    await w.settled();
    let t = await w.state();
    assert.match(t.link_error, /^gpu: gpu must be valid UTF-8.*; also not applied: seq$/);
    assert.deepEqual(t.link_left_out.map((e) => e.field), ['gpu', 'seq']);
    assert.equal(t.inputs.batch, 8, 'the keys that read are applied');
    assert.equal(t.inputs.seq, 2048, 'the bad one keeps its starting value');
    // Each bad key is marked beside its own field, with its own reason.
    for (const id of ['gpu', 'seq']) {
        const field = await w.widget(id);
        const msg = await w.widget(`${id}/error`);
        assert.ok(msg.y >= field.y + field.h - 1 && msg.y - (field.y + field.h) < 12, `${id}: the reason is under the field`);
    }
    assert.equal(t.units, 'GiB');
    assert.ok(t.result, 'a result is shown');
    // A 1 MB link: refused whole (cut to the limit before the engine copies it), the page keeps working.
    await other.evaluate(() => { location.hash = `v=1&model.name=${'x'.repeat(1e6)}`; });
    await other.waitForFunction(() => window.vramcalcTest.state().link_error !== '', null, { timeout: 30000 });
    t = await w.state();
    assert.match(t.link_error, /^link: the link's state is longer than 16384 characters/);
    assert.equal(t.inputs.batch, 8, 'the state stays');
    assert.deepEqual(errors, []);
    await other.close();
});

test('Reset returns to the starting example; Back undoes it', async () => {
    const before = await v.state();
    assert.notEqual(before.fragment, '');
    await page.waitForTimeout(1100);  // a separate history entry
    await v.click('reset');
    let s = await v.state();
    assert.equal(s.fragment, '', 'the defaults need no fragment');
    assert.equal(s.inputs.method, 'detailed');
    assert.equal(s.comparison.quick, 306.432 * GB);
    assert.equal(s.notice, 'Reset to the starting example');
    await page.goBack();
    await v.settled();
    s = await v.state();
    assert.deepEqual(s.inputs, before.inputs);
});

test('Copy link and Copy summary use the clipboard; exports download JSON, CSV and Markdown', async () => {
    // The state the earlier tests leave, set here too so that the test also runs alone.
    const applied = await page.evaluate(() => window.vramcalcApplyInputs({ task: 'finetune', method: 'detailed', model: { preset: 'llama-3.1-70b' } }, 'the test'));
    assert.equal(applied.ok, true, JSON.stringify(applied));
    await v.settled();
    await v.click('copy_link');
    const s = await v.state();
    const copied = await v.hook('lastCopied');
    assert.equal(copied, `${url}#${s.fragment}`);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), copied);
    assert.equal(s.notice, 'Link copied');
    await v.click('copy_summary');
    assert.match(await v.hook('lastCopied'), /^vramcalc: Llama-3\.1 70B .*\nMemory per GPU: /s);

    const download = async (item) => {
        await v.click('export');
        const [d] = await Promise.all([page.waitForEvent('download'), v.click(item)]);
        return [d.suggestedFilename(), readFileSync(await d.path(), 'utf8')];
    };
    const [jsonName, json] = await download('export/json');
    assert.equal(jsonName, 'vramcalc-llama-3.1-70b-finetune-detailed.json');
    assert.deepEqual(JSON.parse(json).result, s.result);
    const [, csv] = await download('export/csv');
    assert.match(csv, /^section,key,label,bytes,GB,GiB,share,formula\n/);
    // The bytes column has every digit: it reads back to the exact total (issue 16).
    const total = csv.split('\n').find((l) => l.startsWith('total,total_bytes,Per-GPU total,'));
    assert.equal(Number(total.split(',')[3]), s.result.total_bytes);
    const [, md] = await download('export/md');
    assert.match(md, /^# vramcalc: Llama-3\.1 70B/);
    assert.match(md, /\| Component \| GB \| Share \| Formula \|/);
});

test('the page is idle: no frames are drawn without input', async () => {
    const start = await v.settled();
    await page.waitForTimeout(1500);
    assert.equal(await v.hook('frameCount'), start);
    await page.mouse.move(700, 500);
    await v.settled();
    assert.ok((await v.hook('frameCount')) > start, 'a mouse move draws frames');
});

// The context main() creates (web/platform_web.cpp context_hints; web/web.cmake): no depth or stencil
// buffer, no multisampling, an alpha channel, and no WebGL extension asked for. Emscripten used to
// enable every extension Chromium offers (31 getExtension calls here, each a synchronous round trip to
// the GPU process: 22-30 ms of main(); docs/performance.md, "The first frame"); ImGui's renderer uses none.
test('the WebGL2 context: no depth, stencil or multisampling, and no extension enabled by the first frames', async () => {
    const fresh = await context.newPage();
    await fresh.addInitScript(() => {
        window.glExtensionsAsked = [];
        const getExtension = WebGL2RenderingContext.prototype.getExtension;
        WebGL2RenderingContext.prototype.getExtension = function (name) {
            window.glExtensionsAsked.push(name);
            return getExtension.call(this, name);
        };
    });
    await fresh.goto(url);
    await fresh.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.completeFrameMs() !== null, null, { timeout: 30000 });
    await new Visitor(fresh).settled();
    const { asked, attributes, image } = await fresh.evaluate(() => {
        const gl = document.getElementById('canvas').getContext('webgl2');  // the page's own context, as created
        return { asked: window.glExtensionsAsked, attributes: gl.getContextAttributes(), image: [gl.drawingBufferWidth, gl.drawingBufferHeight] };
    });
    await fresh.close();
    assert.deepEqual(asked, [], 'no getExtension call');
    assert.equal(attributes.depth, false);
    assert.equal(attributes.stencil, false);
    assert.equal(attributes.antialias, false);
    assert.equal(attributes.alpha, true);
    assert.deepEqual(image, [1280, 800], 'the drawing buffer is the 1280x800 viewport at device pixel ratio 1');
});

test('the mouse wheel scrolls the results, once per event and with no console error', async () => {
    const before = await v.widget('breakdown_bar');
    await page.mouse.move(before.x + before.w / 2, before.y + before.h / 2);
    await page.mouse.wheel(0, 100);  // one notch: ImGui scrolls 5 x the font size (75 px), not twice that
    await v.settled();
    const after = await v.widget('breakdown_bar');
    const moved = before.y - after.y;
    assert.ok(moved > 50 && moved < 110, `one wheel notch scrolled ${moved} px`);
    await page.mouse.wheel(0, -100);
    await v.settled();
    assert.equal((await v.widget('breakdown_bar')).y, before.y);
    assert.deepEqual(consoleErrors, []);
});

test('Embind estimate() returns what the CLI prints with --format json', async () => {
    const fromPage = await page.evaluate((c) => window.vramcalc.estimate(c), kExampleConfig);
    const fromCli = JSON.parse(execFileSync(cliBin, [...kExampleFlags, '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(fromPage, fromCli);
    assert.equal(fromPage.total_bytes, 255.36 * GB);

    const bad = await page.evaluate(() => window.vramcalc.estimate({ params_b: 1e30 }));
    assert.equal(bad.ok, false);
    assert.equal(bad.error.field, 'params_b');
    let cliBad;
    try {
        execFileSync(cliBin, ['--params', '1e30', '--format', 'json'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
        cliBad = e;
    }
    assert.equal(cliBad?.status, 1);
    assert.deepEqual(bad, JSON.parse(cliBad.stdout));
    assert.deepEqual(consoleErrors, []);
});

test('the page\'s vramcalc is the JS library\'s API (web/api.js): the same members, the same answers', async () => {
    const members = await page.evaluate(() => Object.keys(window.vramcalc).sort());
    assert.deepEqual(members, ['estimate', 'fabrics', 'fitModels', 'gpus', 'importFile', 'importFiles', 'importModel', 'plan', 'presets', 'questions', 'ready',
        'resolveConfig', 'schemaVersion', 'solve', 'suggest', 'version']);
    const r = await page.evaluate(async () => ({
        solve: window.vramcalc.solve({ method: 'detailed', model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb' }, 'max_batch'),
        questions: window.vramcalc.questions().length,
        version: window.vramcalc.version,
        nan: window.vramcalc.estimate({ batch: NaN }),
        absent: [window.vramcalc.suggest({}), window.vramcalc.fitModels({}), window.vramcalc.resolveConfig({}), window.vramcalc.presets(), window.vramcalc.gpus(),
            window.vramcalc.plan({ plan: { gpus: 8 } }), window.vramcalc.fabrics()],
        imported: [window.vramcalc.importModel('{"model_type": "llama"}', 'config.json'),
            await window.vramcalc.importFile(new File(['{"model_type": "llama"}'], 'config.json'))],
    }));
    const cliSolve = JSON.parse(execFileSync(cliBin, ['solve', 'max_batch', '--method', 'detailed', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb',
        '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(r.solve, cliSolve);
    assert.ok(r.questions >= 5);
    assert.match(r.version, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(r.nan, { ok: false, error: { field: 'batch', message: 'batch must be a finite number, got NaN' } });
    // Left out of the page's download (web/engine_bindings.cpp): a failure naming the library, not a throw.
    const names = ['suggest', 'fitModels', 'resolveConfig', 'presets', 'gpus', 'plan', 'fabrics'];
    r.absent.forEach((a, i) => assert.deepEqual(a, { ok: false, error: { field: '',
        message: `${names[i]}() is not in this build of vramcalc (the page); the JS library has it (docs/embed.md)` } }));
    // The model-file readers are in the page (its own import, web/import.js): a config.json without
    // its sizes reads to the same document through importModel and importFile, naming what is missing.
    assert.deepEqual(r.imported[0], r.imported[1]);
    assert.equal(r.imported[0].complete, false);
    assert.match(r.imported[0].message, /num_hidden_layers/);
    assert.deepEqual(consoleErrors, []);
});
