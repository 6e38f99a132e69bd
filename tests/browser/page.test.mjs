// Browser test of the web page (node --test; ctest runs it from the native build).
// Serves the built site on a free localhost port, opens it in headless Chromium and drives the ImGui
// canvas with real mouse and keyboard events; results are read back through the page's test hook
// (window.vramcalcTest), never by OCR. Saves a screenshot to artifacts/.
//   VRAMCALC_SITE       the built site folder (default build/wasm/site)
//   VRAMCALC_BIN        the native CLI, to compare the page's estimate() with `--format json`
//   VRAMCALC_ARTIFACTS  where screenshots go (default artifacts/)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { decodePng, pixelStats } from './png.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const artifacts = process.env.VRAMCALC_ARTIFACTS || join(root, 'artifacts');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const GB = 1e9;

// The quick method's worked example, as flags and as a config document.
const kExampleFlags = ['--method', 'quick', '--params', '7', '--precision', 'fp16', '--optimizer', 'adamw-mixed', '--batch', '4', '--seq', '2048'];
const kExampleConfig = { method: 'quick', params_b: 7, precision: 'fp16', optimizer: 'adamw-mixed', batch: 4, seq: 2048 };

let server, url, browser, page;
const consoleErrors = [];
const foreignRequests = [];

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    ({ server, url } = await serveSite(site, { port: 0 }));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => { if (!r.url().startsWith(url) && !r.url().startsWith('data:')) foreignRequests.push(r.url()); });
    await page.goto(url);
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 0, null, { timeout: 30000 });
});

after(async () => {
    await browser?.close();
    server?.close();
});

const hook = (name, ...args) => page.evaluate(([n, a]) => window.vramcalcTest[n](...a), [name, args]);

// Waits until the page has drawn the frames after an input and gone idle again.
async function settled() {
    let last = -1;
    for (let i = 0; i < 50; i++) {
        const n = await hook('frameCount');
        if (n === last) return n;
        last = n;
        await page.waitForTimeout(100);
    }
    throw new Error('the page never went idle');
}

// Center of an input widget (its rectangle comes from the shell through the hook).
async function widget(id) {
    const r = await hook('widget', id);
    assert.ok(r, `no widget ${id} on the page`);
    return r;
}

// Clicks into a numeric field, replaces its text by typing, and presses Enter.
async function typeInto(id, text) {
    const r = await widget(id);
    await page.mouse.click(r.x + 30, r.y + r.h / 2);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await settled();
}

test('the page loads with no console errors and no request leaves localhost', async () => {
    await settled();
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(foreignRequests, []);
    const s = await hook('state');
    assert.equal(s.inputs.method, 'quick');
    assert.equal(s.error, null);
});

test('the canvas shows a drawn frame with the worked example', async () => {
    const png = decodePng(await page.locator('#canvas').screenshot());
    const stats = pixelStats(png);
    assert.ok(stats.colors > 100, `only ${stats.colors} colours on the canvas`);
    assert.ok(stats.nonBackgroundShare > 0.05, `only ${(stats.nonBackgroundShare * 100).toFixed(1)}% of the canvas is drawn`);
    const r = await hook('result');
    assert.equal(r.breakdown.weights, 14 * GB);
    assert.equal(r.breakdown.activations, 143.36 * GB);
    assert.equal(r.buffered_bytes, 306.432 * GB);
    assert.deepEqual(r.fits.map((f) => [f.gpu, f.gpus_needed]), [['a100-80gb', 4], ['rtx-4090-24gb', 13]]);
});

test('the + button of the batch field, clicked with the mouse, changes the result', async () => {
    const r = await widget('batch');
    // InputInt draws [text][-][+]; the + button is the last square of the row.
    await page.mouse.click(r.x + r.w - r.h / 2, r.y + r.h / 2);
    await settled();
    const s = await hook('state');
    assert.equal(s.inputs.batch, 5);
    assert.equal(s.result.breakdown.activations, 2.5e-3 * 5 * 2048 * 7e9);  // 179.2 GB
});

test('typing into the fields changes the result; checkpointing quarters activations', async () => {
    await typeInto('batch', '8');
    let s = await hook('state');
    assert.equal(s.inputs.batch, 8);
    assert.equal(s.result.breakdown.activations, 2.5e-3 * 8 * 2048 * 7e9);  // 286.72 GB
    await typeInto('batch', '4');
    const box = await widget('checkpointing');
    await page.mouse.click(box.x + box.h / 2, box.y + box.h / 2);
    await settled();
    s = await hook('state');
    assert.equal(s.inputs.checkpointing, true);
    assert.equal(s.result.breakdown.activations, 35.84 * GB);
    assert.ok(Math.abs(s.result.buffered_bytes - 177.408 * GB) < 1);
    assert.deepEqual(s.result.fits.map((f) => f.gpus_needed), [3, 8]);
});

test('bad input shows the engine error and keeps the last valid result', async () => {
    // Fields apply as you type; an invalid text keeps the result of the last valid one.
    const before = await hook('result');
    await typeInto('params_b', '0');
    let s = await hook('state');
    assert.equal(s.error?.field, 'params_b');
    assert.match(s.error.message, /params_b must be a number greater than 0 and at most 100000, got 0/);
    assert.deepEqual(s.result, before, 'the last valid result stays');

    // Typing "1e30" passes through "1e3", a valid 1000B model, whose result then stays.
    const r = await widget('params_b');
    await page.mouse.click(r.x + 30, r.y + r.h / 2);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1e30');
    await settled();
    s = await hook('state');
    assert.equal(s.inputs.params_b, 1e30);
    assert.equal(s.error?.field, 'params_b');
    assert.match(s.error.message, /got 1e\+30/);
    assert.equal(s.result.breakdown.weights, 1e12 * 2, 'the last valid result (1e3 billion) stays');
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'bad-input.png'), await page.screenshot());
    await page.keyboard.press('Enter');

    await typeInto('params_b', '7');
    assert.equal((await hook('state')).error, null);
    assert.deepEqual(consoleErrors, []);
});

test('the guide method, picked from the combo, reproduces the guide\'s 70B training example', async () => {
    const m = await widget('method');
    await page.mouse.click(m.x + 40, m.y + m.h / 2);  // opens the combo
    await settled();
    await page.mouse.click(m.x + 40, m.y + m.h * 2.5);  // its second entry: Guide
    await settled();
    await typeInto('params_b', '70');
    await typeInto('batch', '1');
    await typeInto('seq', '4096');
    const s = await hook('state');
    assert.equal(s.inputs.method, 'guide');
    assert.equal(s.error, null);
    // (70e9 x (2x2 + 12) + 2 x 1 x 4096 x 8192 x 80 x 2) / 8 GPUs x 1.15 = 162.54 GB per GPU
    assert.equal(s.result.method, 'guide');
    assert.equal(Math.round(s.result.buffered_bytes / 1e7) / 100, 162.54);
    await page.mouse.click(m.x + 40, m.y + m.h / 2);
    await settled();
    await page.mouse.click(m.x + 40, m.y + m.h * 1.5);  // back to Quick
    await settled();
    await typeInto('params_b', '7');
    await typeInto('batch', '4');
    await typeInto('seq', '2048');
    assert.equal((await hook('state')).inputs.method, 'quick');
});

test('the page is idle: no frames are drawn without input', async () => {
    const start = await settled();
    await page.waitForTimeout(1500);
    assert.equal(await hook('frameCount'), start);
    await page.mouse.move(700, 500);
    await settled();
    assert.ok((await hook('frameCount')) > start, 'a mouse move draws frames');
});

test('the canvas follows the window size', async () => {
    await page.setViewportSize({ width: 700, height: 900 });
    await settled();
    const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    assert.deepEqual(size, [700, 900]);
    const batch = await widget('batch');
    assert.ok(batch.x + batch.w <= 700, 'the inputs fit the narrow window');
    await page.setViewportSize({ width: 1280, height: 800 });
    await settled();
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
});

test('hovering the bar shows a segment\'s bytes and formula; screenshot of the worked example', async () => {
    const box = await widget('checkpointing');
    await page.mouse.click(box.x + box.h / 2, box.y + box.h / 2);  // checkpointing off again
    await settled();
    assert.equal((await hook('result')).buffered_bytes, 306.432 * GB);
    const bar = await widget('breakdown_bar');
    // Activations are the last component: 143.36 of the 306.43 GB bar, ending at 255.36 GB.
    const before = await hook('frameCount');
    await page.mouse.move(bar.x + bar.w * (200 / 306.432), bar.y + bar.h / 2);
    await settled();
    assert.ok((await hook('frameCount')) > before, 'hovering draws the tooltip');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'screenshot.png') });
    assert.deepEqual(consoleErrors, []);
});
