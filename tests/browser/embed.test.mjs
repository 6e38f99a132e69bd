// Browser tests of embedding and offline use (node --test; ctest runs them with the page test).
// One headless Chromium for the whole file. Proves, through real pages and real events:
//  - the hosted page: a full session requests only the page's own files and stores nothing;
//  - the single vramcalc.html from file:// draws and computes with the network blocked;
//  - the embed demo: both sandboxed iframes round-trip postMessage (set input -> result), take
//    keyboard input, honour locked fields and themes, and auto-size to the height they post;
//  - a message from an origin not on the widget's allow-list is ignored;
//  - every page carries a Content-Security-Policy with connect-src 'none' (the hosted page 'self', for
//    app.wasm) and none is violated.
//   VRAMCALC_SITE  the built site folder (default build/wasm/site)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { decodePng, pixelStats } from './png.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const GB = 1e9;

let server, url, origin, browser;
// A widget showing the Cluster planner (docs/embed.md): 16 H100 for Llama-3.1-8B, 256 sequences a step,
// in 4-GPU nodes rented at the host's $2.25 per GPU-hour.
const kPlanWidget = '#v=1&method=detailed&model.preset=llama-3.1-8b&seq=4096&gpu=h100-80gb&view=planner&plan.gpus=16&plan.global_batch=256' +
    '&plan.price_per_hour_usd=2.25&plan.gpus_per_node=4';
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
let foreign, foreignUrl;          // a second origin: a page that is not on the widget's allow-list
const problems = [];              // console errors, page errors and CSP violations, from every page and frame

before(async () => {
    assert.ok(existsSync(join(site, 'vramcalc.html')), `no built site in ${site}: run scripts/build.sh`);
    ({ server, url } = await serveSite(site, { port: 0 }));
    origin = new URL(url).origin;
    foreign = createServer((req, res) => {
        let src = `${url}widget.html#v=1&batch=4&origins=${encodeURIComponent(origin)}`;
        let script = '';
        if (req.url === '/plan') {
            // A host of its own origin with a planner widget: it records every message it hears.
            src = `${url}widget.html${kPlanWidget}&id=plan&origins=${encodeURIComponent(`http://127.0.0.1:${foreign.address().port}`)}`;
            script = '<script>window.got = []; window.addEventListener("message", (e) => window.got.push(e.data));</script>';
        }
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><meta charset="utf-8"><title>foreign host</title>${script}<body>` +
            `<iframe id="w" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="360" height="600"></iframe></body>`);
    });
    await new Promise((r) => foreign.listen(0, '127.0.0.1', r));
    foreignUrl = `http://127.0.0.1:${foreign.address().port}/`;
    browser = await launchChromium();
});

after(async () => {
    await browser?.close();
    server?.close();
    foreign?.close();
});

// A fresh context whose pages report CSP violations (securitypolicyviolation, every frame) and errors.
async function newPage(options = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
            console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
    });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`${page.url()}: pageerror: ${e.message}`));
    return { context, page };
}

const hook = (target, name, ...args) => target.evaluate(([n, a]) => window.vramcalcTest[n](...a), [name, args]);

// Waits until a page (or frame) has drawn and gone idle.
async function settled(target) {
    let last = -1;
    for (let i = 0; i < 60; i++) {
        const n = await hook(target, 'frameCount');
        if (n > 0 && n === last) return n;
        last = n;
        await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the page never went idle');
}

// Clicks into a numeric field drawn by ImGui (its rectangle from the test hook, offset by the
// iframe's position when it is in one) and types a new value.
async function typeInto(page, target, offset, id, text) {
    const r = await hook(target, 'widget', id);
    assert.ok(r, `no widget ${id}`);
    offset = await scrollTo(page, target, offset, r);
    await page.mouse.click(offset.x + r.x + 30, offset.y + r.y + r.h / 2);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await settled(target);
}

// Scrolls the host page so the widget's rectangle `r` (inside `target`, an iframe when `target` is
// not the page) is in the viewport; returns the iframe's new offset.
async function scrollTo(page, target, offset, r) {
    if (target === page) return offset;
    const height = page.viewportSize().height;
    if (offset.y + r.y >= 0 && offset.y + r.y + r.h <= height) return offset;
    await page.evaluate((dy) => window.scrollBy(0, dy), offset.y + r.y - height / 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return (await target.frameElement()).boundingBox();
}

async function cspOf(target) {
    return target.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? null);
}

// connect: the hosted page's is 'self' (app-stream.js fetches app.wasm), every other page's 'none'.
function assertStrictCsp(csp, where, connect = "'none'") {
    assert.ok(csp, `${where}: no Content-Security-Policy meta tag`);
    assert.match(csp, /(^|;)\s*default-src 'none'/, where);
    assert.match(csp, new RegExp(`(^|;)\\s*connect-src ${connect}\\s*(;|$)`), where);
    const script = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src')) ?? '';
    assert.doesNotMatch(script, /'unsafe-inline'|'unsafe-eval'|https?:|\*/, `${where}: script-src allows more than the page's own code`);
}

test('hosted page: a full session requests only its own files and stores nothing', async () => {
    const { context, page } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    await page.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    await settled(page);

    // A session: edit inputs, switch units, hover the bar, press Embed.
    await typeInto(page, page, { x: 0, y: 0 }, 'batch', '8');
    await typeInto(page, page, { x: 0, y: 0 }, 'seq', '4096');
    const embed = await hook(page, 'widget', 'embed');
    await page.mouse.move(700, 110);
    await page.mouse.click(embed.x + embed.w / 2, embed.y + embed.h / 2);
    await page.waitForFunction(() => window.vramcalcTest.embedSnippet() !== null);
    await settled(page);

    const paths = [...new Set(requests.map((u) => (u.startsWith(url) ? `/${u.slice(url.length)}` : u)))].sort();
    assert.deepEqual(paths, ['/', '/app-stream.js', '/app.wasm', '/embed.js', '/import.js', '/vramcalc.js']);
    // Each once: index.html preloads the four scripts and app.wasm (docs/performance.md, "The first
    // frame"); a preload the page's own request did not match (app.wasm's fetch is same-origin cors)
    // would download that file a second time: 6 files, 6 requests.
    assert.equal(requests.filter((u) => u.startsWith(url)).length, 6, requests.join('\n'));

    const stored = await page.evaluate(async () => ({
        local: localStorage.length, session: sessionStorage.length, cookie: document.cookie,
        idb: (await indexedDB.databases()).length, caches: (await caches.keys()).length,
    }));
    assert.deepEqual(stored, { local: 0, session: 0, cookie: '', idb: 0, caches: 0 });

    // The Embed button copied a widget snippet holding what differs from the defaults.
    const snippet = await hook(page, 'embedSnippet');
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/widget\.html#[^"]+" [^>]*sandbox="allow-scripts"[^>]*><\/iframe>$/);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
    const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
    assert.equal(new URL(src).hash, '#v=2&batch=8&seq=4096', 'the link holds what differs from the defaults');

    // ... which opens the widget with the same inputs and the same result.
    const state = await hook(page, 'state');
    const widget = await context.newPage();
    await widget.goto(src);
    await widget.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    const w = await hook(widget, 'state');
    assert.deepEqual(w.inputs, state.inputs);
    assert.deepEqual(w.result, state.result);
    assert.equal(w.result.method, 'detailed', 'the page and the widget open on the detailed model');
    assertStrictCsp(await cspOf(page), 'index.html', "'self'");
    assertStrictCsp(await cspOf(widget), 'widget.html');

    // A link this page cannot read is reported and changes nothing.
    await widget.goto('about:blank');  // (a new fragment alone would not reload the page)
    await widget.goto(`${url}widget.html#v=3&batch=3`);
    await widget.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    assert.match(await widget.locator('#status').textContent(), /v=3 is not known/);
    assert.equal((await hook(widget, 'state')).inputs.batch, 4);
    await context.close();
});

test('single file: vramcalc.html from file:// draws and computes with the network blocked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vramcalc-offline-'));
    copyFileSync(join(site, 'vramcalc.html'), join(dir, 'vramcalc.html'));  // alone: no sibling file to lean on
    const { context, page } = await newPage({ offline: true });
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await context.route(/^(?!file:)/, (route) => route.abort());
    const fileUrl = pathToFileURL(join(dir, 'vramcalc.html')).href;
    await page.goto(fileUrl);
    await page.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    await settled(page);
    assert.deepEqual(requests, [fileUrl]);
    assert.equal(await page.evaluate(() => document.characterSet), 'UTF-8');

    const stats = pixelStats(decodePng(await page.locator('#canvas').screenshot()));
    assert.ok(stats.colors > 100 && stats.nonBackgroundShare > 0.05, `a blank canvas (${stats.colors} colours)`);
    let s = await hook(page, 'state');
    assert.equal(s.inputs.method, 'detailed', 'it opens on the detailed model, as the hosted page does');
    assert.equal(s.comparison.quick, 306.432 * GB);
    // The worked example under the quick rule, from a link as the hosted page takes it.
    await page.evaluate(() => { location.hash = 'v=2&method=quick'; });
    await settled(page);
    s = await hook(page, 'state');
    assert.equal(s.result.total_bytes, 255.36 * GB, 'the worked example, as on the hosted page');
    await typeInto(page, page, { x: 0, y: 0 }, 'batch', '2');
    s = await hook(page, 'state');
    assert.equal(s.result.breakdown.activations, 2.5e-3 * 2 * 2048 * 7e9);

    const csp = await cspOf(page);
    assertStrictCsp(csp, 'vramcalc.html');
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*'( 'sha256-[A-Za-z0-9+/]+=*')* 'wasm-unsafe-eval'/);
    assert.doesNotMatch(csp, /'unsafe-inline'/);
    await context.close();
});

test('embed demo: both sandboxed widgets round-trip postMessage, take keys, lock fields and auto-size', async () => {
    const { context, page } = await newPage({ viewport: { width: 1100, height: 1900 } });
    await page.goto(`${url}embed-demo.html`);
    const frames = {};
    for (const id of ['quick-7b', 'guide-70b']) {
        frames[id] = await (await page.$(`[data-example="${id}"] iframe`)).contentFrame();
        await page.waitForFunction((i) => window.demo.last(i, 'height') !== null, id, { timeout: 30000 });
        await settled(frames[id]);
    }
    // The host applied the last height each widget posted.
    for (const id of Object.keys(frames))
        await page.waitForFunction((i) => window.demo.frame(i).clientHeight === window.demo.last(i, 'height').height, id);

    for (const [id, frame] of Object.entries(frames)) {
        // Sandboxed: an opaque origin, where storage throws, and the widget still works.
        assert.equal(await frame.evaluate(() => self.origin), 'null');
        assert.equal(await frame.evaluate(() => { try { return String(localStorage.length); } catch (e) { return e.name; } }), 'SecurityError');
        // Auto-size: the iframe is exactly as tall as the content height the widget posted.
        const posted = (await page.evaluate((i) => window.demo.last(i, 'height'), id)).height;
        const inner = await hook(frame, 'contentHeight');
        const box = await (await frame.frameElement()).evaluate((e) => e.clientHeight);
        assert.equal(posted, Math.ceil(inner), id);
        assert.equal(box, posted, `${id}: the host sized the iframe`);
        assertStrictCsp(await cspOf(frame), `${id} widget`);
    }
    const heights = await page.evaluate(() => ['quick-7b', 'guide-70b'].map((i) => window.demo.last(i, 'height').height));
    assert.notEqual(heights[0], heights[1], 'two states, two heights');

    // Initial state and theme from the URL fragment.
    assert.equal((await hook(frames['quick-7b'], 'state')).inputs.precision, 'bf16');
    assert.equal((await hook(frames['quick-7b'], 'embedState')).light, true);
    assert.equal((await hook(frames['guide-70b'], 'embedState')).light, false);
    const brightness = async (id) => {
        const { pixels } = decodePng(await (await frames[id].frameElement()).screenshot());
        let sum = 0;
        for (let i = 0; i < pixels.length; i += 4) sum += pixels[i];
        return sum / (pixels.length / 4);
    };
    assert.ok(await brightness('quick-7b') > 180 && await brightness('guide-70b') < 80, 'light and dark themes');

    // The host sets an input through its own form: the reply carries the new result.
    await page.locator('[data-example="quick-7b"] input').fill('16');
    await page.locator('[data-example="quick-7b"] [data-action="set"]').click();
    await page.waitForFunction(() => window.demo.last('quick-7b', 'result')?.config.batch === 16);
    let m = await page.evaluate(() => window.demo.last('quick-7b', 'result'));
    assert.equal(m.applied, true);
    assert.ok(m.requestId);
    assert.equal(m.result.breakdown.activations, 2.5e-3 * 16 * 2048 * 7e9);
    assert.equal((await hook(frames['quick-7b'], 'state')).inputs.batch, 16);

    // Set and get through the API the host would script; a bad input is refused and keeps its
    // value, the good ones in the same message apply (issue 16), and the reply lists each refused.
    const reply = await page.evaluate(() => window.demo.set('guide-70b', { seq: 8192 }));
    assert.equal(reply.config.seq, 8192);
    assert.equal(reply.result.method, 'guide');
    const batch = reply.config.batch;
    const rejected = await page.evaluate(() => window.demo.set('guide-70b', { seq: 'long', batch: 2, training: { dropout: 5 } }));
    assert.deepEqual([rejected.applied, rejected.rejected.field], [false, 'seq']);
    assert.deepEqual(rejected.refused.map((e) => e.field), ['seq', 'training.dropout']);
    assert.match(rejected.refused[1].message, /^training\.dropout must be a number in \[0, 0\.99\], got 5/);
    assert.deepEqual([rejected.config.seq, rejected.config.batch], [8192, 2]);
    // Each refused field is marked in the widget, as a link's are.
    const marked = await hook(frames['guide-70b'], 'state');
    assert.deepEqual(marked.link_left_out.map((e) => e.field), ['seq', 'training.dropout']);
    await page.evaluate((b) => window.demo.set('guide-70b', { batch: b }), batch);
    // A 30 MB model name (issue 16): an error reply naming the inputs, nothing copied into the
    // engine, and later messages keep working.
    const huge = await page.evaluate(() => window.demo.set('guide-70b', { model: { preset: 'llama-3.1-8b', name: 'x'.repeat(30e6) } }));
    assert.deepEqual([huge.applied, huge.rejected.field], [false, 'inputs']);
    assert.match(huge.rejected.message, /at most 65536 bytes/);
    // Under the message limit but over the name's: the engine names the field; the rest of the
    // model (the widget's own) applies.
    const long = await page.evaluate((model) => window.demo.set('guide-70b', { model: Object.assign(model, { name: 'x'.repeat(300) }) }), reply.config.model);
    assert.deepEqual([long.applied, long.rejected.field, long.refused.length], [false, 'model.name', 1]);
    assert.deepEqual(long.config.model, reply.config.model);
    const after = await page.evaluate(() => window.demo.set('guide-70b', { seq: 4096 }));
    assert.deepEqual([after.applied, after.config.seq, after.refused], [true, 4096, []]);
    assert.deepEqual((await hook(frames['guide-70b'], 'state')).link_left_out, [], 'a clean set clears the marks');
    await page.evaluate(() => window.demo.set('guide-70b', { seq: 8192 }));
    const got = await page.evaluate(() => window.demo.get('guide-70b'));
    assert.deepEqual(got.result, reply.result);
    const unknown = await page.evaluate(() => window.demo.send('guide-70b', { type: 'reset' }));
    assert.equal(unknown.type, 'error');

    // Keyboard inside the iframe: click a field (the canvas takes focus) and type; the host hears it.
    const guide = frames['guide-70b'];
    const offset = await (await guide.frameElement()).boundingBox();
    await typeInto(page, guide, offset, 'batch', '3');
    await page.waitForFunction(() => window.demo.last('guide-70b', 'result')?.config.batch === 3);
    m = await page.evaluate(() => window.demo.last('guide-70b', 'result'));
    assert.equal(m.requestId, undefined, 'posted on the change, not as a reply');

    // A locked field does not move when its + button is clicked.
    const layers = await hook(guide, 'widget', 'model.layers');
    const at = await scrollTo(page, guide, await (await guide.frameElement()).boundingBox(), layers);
    await page.mouse.click(at.x + layers.x + layers.w - layers.h / 2, at.y + layers.y + layers.h / 2);
    await settled(guide);
    assert.equal((await hook(guide, 'state')).inputs.model.layers, 80);
    assert.deepEqual((await hook(guide, 'embedState')).locked, ['method', 'model.layers', 'model.hidden', 'model.heads']);

    // A model in a patch replaces the model whole (a preset is not mixed with the old architecture).
    // (Last: the first widget grows, which moves the second one down the page.)
    const preset = await page.evaluate(() => window.demo.set('quick-7b', { method: 'guide', model: { preset: 'llama-3.1-8b' }, params_b: 8 }));
    assert.deepEqual([preset.applied, preset.config.model.preset, preset.config.model.layers, preset.config.model.vocab], [true, 'llama-3.1-8b', 32, 128256]);
    assert.equal(preset.result.method, 'guide');
    assertStrictCsp(await cspOf(page), 'embed-demo.html');
    await context.close();
});

test('a message from an origin not on the allow-list is ignored', async () => {
    const { context, page } = await newPage();
    await page.goto(foreignUrl);
    const frame = await (await page.$('#w')).contentFrame();
    await frame.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    await settled(frame);
    const heard = await page.evaluate(async () => {
        const got = [];
        window.addEventListener('message', (e) => got.push(e.data));
        const w = document.getElementById('w').contentWindow;
        w.postMessage({ vramcalc: 1, type: 'set', requestId: 'x', inputs: { batch: 99 } }, '*');
        w.postMessage({ vramcalc: 1, type: 'get', requestId: 'y' }, '*');
        await new Promise((r) => setTimeout(r, 500));
        return got;
    });
    assert.deepEqual(heard, [], 'the widget answers only the origins in its URL');
    assert.equal((await hook(frame, 'state')).inputs.batch, 4, 'and changed nothing');
    assert.deepEqual((await hook(frame, 'embedState')).origins, [origin]);
    await context.close();
});

test('a planner widget (view=planner) shows the plan and sends it: the layouts vramcalc plan ranks', async () => {
    const { context, page } = await newPage();
    await page.goto(`${foreignUrl}plan`);
    const frame = await (await page.$('#w')).contentFrame();
    await frame.waitForFunction(() => window.vramcalcTest?.frameCount() > 0, null, { timeout: 30000 });
    // The search runs over frames; when it finishes a result message carries the plan.
    await page.waitForFunction(() => window.got.some((m) => m.type === 'result' && m.plan), null, { timeout: 60000 });
    // Then its extras, over frames too, until the widget goes idle.
    await frame.waitForFunction(() => window.vramcalcTest.idle(), null, { timeout: 60000, polling: 50 });
    const m = await page.evaluate(() => window.got.filter((x) => x.type === 'result' && x.plan).pop());
    assert.equal(m.widget, 'plan');
    assert.equal(m.view, 'planner');
    assert.equal(m.planError, null);
    assert.equal(m.plan.gpus, 16);
    assert.equal(m.plan.global_batch, 256);
    assert.equal(m.plan.gpus_per_node, 4, 'the link\'s node size');
    const request = { ...m.config, plan: { gpus: 16, fabric: 'ib-ndr400', global_batch: 256, train_tokens: 1e12, top: 10,
        price_per_hour_usd: 2.25, gpus_per_node: 4 } };
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'], { input: JSON.stringify(request) }));
    assert.equal(cli.ok, true);
    assert.equal(m.plan.evaluated, cli.plan.evaluated);
    assert.equal(m.plan.fitting, cli.plan.fitting);
    assert.deepEqual(m.plan.ranked.map((r) => r.layout.label), cli.plan.ranked.map((r) => r.layout.label));
    assert.equal(m.plan.ranked[0].step_s, cli.plan.ranked[0].step_s);
    // The link's price: cost = days x 24 x 16 GPUs x $2.25.
    const best = m.plan.ranked[0];
    assert.ok(Math.abs(best.rent_usd - best.train_days * 24 * 16 * 2.25) <= 1e-9 * best.rent_usd, `${best.rent_usd} at $2.25`);
    // The widget draws the planner in its column: the table's first row and the checklist's answer.
    for (const id of ['plan/use/0', 'plan/checklist/target', 'plan/checklist/answer']) assert.ok(await hook(frame, 'widget', id), `${id} is drawn`);
    const s = await hook(frame, 'state');
    assert.equal(s.planner.open, true);
    assert.equal(s.planner.plan.ranked[0].layout.label, cli.plan.ranked[0].layout.label);
    await context.close();
});

test('no console error, page error or CSP violation on any page or frame', () => {
    assert.deepEqual(problems, []);
});
