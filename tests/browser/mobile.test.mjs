// Browser test of the page on a phone and on high-DPI screens (node --test): a 360 px wide touch
// screen at devicePixelRatio 2, and a desktop at devicePixelRatio 2. Taps and swipes are real
// touch events; widgets are found through the page's item registry. Saves DPR 1 and 2 screenshots
// to artifacts/ (the desktop DPR 1 one comes from page.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const artifacts = process.env.VRAMCALC_ARTIFACTS || join(root, 'artifacts');
const kPhone = { width: 360, height: 740 };

let server, url, browser, phone, v;
const consoleErrors = [];

async function open(context, fragment = '') {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(url + (fragment ? `#${fragment}` : ''));
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 0, null, { timeout: 30000 });
    const visitor = new Visitor(page);
    await visitor.settled();
    return [page, visitor];
}

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    mkdirSync(artifacts, { recursive: true });
    ({ server, url } = await serveSite(site, { port: 0 }));
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: kPhone, deviceScaleFactor: 2, hasTouch: true, isMobile: true, colorScheme: 'light' });
    [phone, v] = await open(context);
});

after(async () => {
    await browser?.close();
    server?.close();
});

test('a 360 px phone at DPR 2: the backing store is CSS size x 2 and every widget fits the width', async () => {
    const size = await phone.evaluate(() => {
        const c = document.getElementById('canvas');
        return [c.width, c.height, c.clientWidth, c.clientHeight, window.devicePixelRatio];
    });
    assert.deepEqual(size, [720, 1480, 360, 740, 2]);
    const widgets = await v.hook('widgets');
    for (const [id, r] of Object.entries(widgets)) {
        if (r.y > kPhone.height || r.y + r.h < 0) continue;  // scrolled out of view
        assert.ok(r.x >= 0 && r.x + r.w <= kPhone.width + 1, `${id} (${r.x}..${r.x + r.w}) fits 360 px`);
    }
    const s = await v.state();
    assert.equal(s.dark, false, 'Auto follows prefers-color-scheme: light');
    await phone.screenshot({ path: join(artifacts, 'phone-dpr2.png') });
});

test('a tap is a click: units, the + button, a task', async () => {
    await v.tap('units/gib');
    assert.equal((await v.state()).units, 'GiB');
    // 44 px controls (issue 14) put the batch row at the fold: scrolled into view first.
    await v.inView('batch/inc');
    await v.tap('batch/inc');
    assert.equal((await v.state()).inputs.batch, 8);
    await v.tap('batch/dec');
    await v.inView('task/inference');
    await v.tap('task/inference');
    const s = await v.state();
    assert.equal(s.inputs.task, 'inference');
    assert.equal(s.inputs.batch, 4);
    await v.tap('task/training');
    for (let i = 0; i < 20 && (await v.widget('units/gb')).y < 0; ++i) {  // back to the top
        await phone.mouse.move(kPhone.width / 2, kPhone.height / 2);
        await phone.mouse.wheel(0, -400);
        await v.settled();
    }
    await v.tap('units/gb');
    assert.equal((await v.state()).units, 'GB');
});

test('the preset list opens within the phone\'s width, names and counts side by side', async () => {
    await v.tap('model_mode/preset');
    await v.tap('model.preset');
    const widgets = await v.hook('widgets');
    const items = Object.entries(widgets).filter(([id, r]) => id.startsWith('model.preset/') && r.y >= 0 && r.y + r.h <= kPhone.height);
    assert.ok(items.length >= 10, `${items.length} presets in view`);
    for (const [id, r] of items) {
        assert.ok(r.x >= 0 && r.x + r.w <= kPhone.width + 1, `${id} (${r.x}..${r.x + r.w}) fits 360 px`);
        assert.ok(r.w >= 300, `${id} is ${r.w} px wide: room for "Mixtral-8x22B  141B (39.2B active)"`);
    }
    // TinyLlama, a few rows below the chosen Llama-3.1 8B (Llama 4's two rows pushed Mistral-7B out of view).
    assert.ok(items.some(([id]) => id === 'model.preset/tinyllama-1.1b'), 'TinyLlama 1.1B in view');
    await v.tap('model.preset/tinyllama-1.1b');
    const s = await v.state();
    assert.equal(s.inputs.model.preset, 'tinyllama-1.1b');
    await v.tap('model_mode/params');
    assert.equal(Math.round((await v.state()).model_params_b * 100) / 100, 1.1);
});

test('a swipe on the page background scrolls the column', async () => {
    const before = await v.widget('gpu');
    const cdp = await phone.context().newCDPSession(phone);
    // Start on a label (not a widget): the "GPU" panel title area, left margin.
    const x = 6, y0 = 600, y1 = 300;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
    for (let y = y0; y >= y1; y -= 30) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
        await phone.waitForTimeout(20);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await v.settled();
    const after = await v.widget('gpu');
    assert.ok(after.y < before.y - 100, `the column scrolled (GPU field ${before.y} -> ${after.y})`);
    const s = await v.state();
    assert.equal(s.inputs.batch, 4, 'the swipe changed no input');
});

test('a bar at the bottom keeps the total in view; a tap on it scrolls to the results', async () => {
    // The detailed method's many inputs put the results well below the first screen.
    const [page, w] = await open(phone.context(), 'v=1&method=detailed&task=finetune&model.preset=llama-3.1-8b&training.finetune=qlora');
    let widgets = await w.hook('widgets');
    const bar = widgets.total_bar;
    assert.ok(bar, 'the results are below the inputs: the total bar shows');
    assert.ok(Math.abs(bar.y + bar.h - kPhone.height) < 16, `the bar sits at the bottom (${bar.y}..${bar.y + bar.h})`);
    assert.ok(!widgets.headline || widgets.headline.y > kPhone.height - bar.h, 'the headline is out of view');
    const before = await w.state();
    await w.tap('total_bar');
    widgets = await w.hook('widgets');
    assert.ok(widgets.headline && widgets.headline.y >= 0 && widgets.headline.y < kPhone.height / 2, 'the headline scrolled into view');
    assert.equal(widgets.total_bar, undefined, 'with the results in view the bar hides');
    assert.deepEqual((await w.state()).inputs, before.inputs, 'the tap changed no input');
    await page.close();
});

test('a shared link opens the same state on the phone', async () => {
    const fragment = 'v=1&method=detailed&task=inference&model.preset=qwen2.5-7b&inference.context=32768&units=gib';
    const [page, w] = await open(phone.context(), fragment);
    const s = await w.state();
    assert.equal(s.link_error, '');
    assert.equal(s.inputs.model.preset, 'qwen2.5-7b');
    assert.equal(s.inputs.inference.context, 32768);
    assert.equal(s.units, 'GiB');
    assert.equal(s.result.method, 'detailed');
    await page.screenshot({ path: join(artifacts, 'phone-serving-dpr2.png') });
    await page.close();

    const [bad, b] = await open(phone.context(), 'v=1&batch=oops');
    const t = await b.state();
    assert.match(t.link_error, /batch/);
    assert.equal(t.inputs.method, 'quick', 'a bad link shows the defaults');
    await bad.close();
});

test('a phone at DPR 3: the backing store follows the ratio', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const [page, w] = await open(context);
    const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    assert.deepEqual(size, [1170, 2532]);
    await w.tap('units/gib');
    assert.equal((await w.state()).units, 'GiB');
    await context.close();
});

test('a desktop at DPR 2: crisp backing store and screenshot', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, colorScheme: 'dark' });
    const [page, w] = await open(context, 'v=1&method=detailed&task=finetune&model.preset=llama-3.1-8b&training.finetune=lora&gpu=a100-80gb');
    const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    assert.deepEqual(size, [2560, 1600]);
    const s = await w.state();
    assert.equal(s.result.task, 'finetune');
    // Widgets are in CSS pixels whatever the ratio: a click at the registry's rectangle works.
    await w.click('batch/inc');
    assert.equal((await w.state()).inputs.batch, 8);
    await page.screenshot({ path: join(artifacts, 'desktop-dpr2.png') });
    await context.close();
    assert.deepEqual(consoleErrors, []);
});
