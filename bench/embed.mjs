// vramcalc benchmark: embedding, offline and the JS library (printed, not a timed test).
//   node bench/embed.mjs [SITE] [LIB]    (defaults build/wasm/site, build/wasm/lib)
//  1. sizes: the single vramcalc.html, the hosted page's files, the JS library; raw and gzip -9
//  2. time from opening vramcalc.html from file:// (network blocked) to its first drawn frame
//  3. postMessage round trip between the embed demo and a sandboxed widget (get, and set + recompute)
// (the JS library's time per call: bench/js_library.mjs)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { serveSite } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = resolve(process.argv[2] || join(root, 'build/wasm/site'));
const lib = resolve(process.argv[3] || join(root, 'build/wasm/lib'));
const kRuns = 5, kRoundTrips = 50;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

function sizes(label, dir, files) {
    let raw = 0, gz = 0;
    for (const f of files) {
        const bytes = readFileSync(join(dir, f));
        raw += bytes.length;
        gz += gzipSync(bytes, { level: 9 }).length;
    }
    console.log(`  ${label.padEnd(44)} ${kb(raw).padStart(10)} raw ${kb(gz).padStart(10)} gzip`);
}

console.log('== sizes');
sizes('single file vramcalc.html', site, ['vramcalc.html']);
sizes('hosted page (index.html, its scripts, app.wasm)', site, ['index.html', 'vramcalc.js', 'embed.js', 'import.js', 'app-stream.js', 'app.wasm']);
sizes('widget (widget.html vramcalc.js embed.js app.js)', site, ['widget.html', 'vramcalc.js', 'embed.js', 'app.js']);
sizes('JS library vramcalc.mjs', lib, ['vramcalc.mjs']);

const browser = await launchChromium();
try {
    console.log(`== file:// open to first frame, network blocked (median of ${kRuns})`);
    const fileUrl = pathToFileURL(join(site, 'vramcalc.html')).href;
    const inPage = [], wall = [];
    for (let i = 0; i < kRuns; i++) {
        const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 800 } });
        await context.route(/^(?!file:)/, (route) => route.abort());
        const page = await context.newPage();
        const start = performance.now();
        await page.goto(fileUrl, { waitUntil: 'commit' });
        await page.waitForFunction(() => window.vramcalcTest?.firstFrameMs() !== null, null, { timeout: 30000, polling: 5 });
        wall.push(performance.now() - start);
        inPage.push(await page.evaluate(() => window.vramcalcTest.firstFrameMs()));
        await context.close();
    }
    console.log(`  navigation start to first frame (page clock)  ${median(inPage).toFixed(0)} ms`);
    console.log(`  goto() to first frame seen by the driver       ${median(wall).toFixed(0)} ms`);

    console.log(`== postMessage round trip, embed demo <-> sandboxed widget (${kRoundTrips} each)`);
    const { server, url } = await serveSite(site, { port: 0 });
    const context = await browser.newContext({ viewport: { width: 1100, height: 1900 } });
    const page = await context.newPage();
    await page.goto(`${url}embed-demo.html`);
    await page.waitForFunction(() => window.demo.last('quick-7b', 'height') !== null, null, { timeout: 30000 });
    const roundTrips = () => page.evaluate(async (n) => {
        const get = [], set = [];
        for (let i = 0; i < n; i++) get.push((await window.demo.get('quick-7b')).roundTripMs);
        for (let i = 0; i < n; i++) set.push((await window.demo.set('quick-7b', { batch: 1 + (i % 16) })).roundTripMs);
        return { get, set };
    }, kRoundTrips);
    const report = (label, times) => {
        console.log(`  ${label}: get (result back)        median ${median(times.get).toFixed(2)} ms   p95 ${p95(times.get).toFixed(2)} ms` +
            '   (target p95 <= 30 ms, issue 15)');
        console.log(`  ${label}: set input -> new result  median ${median(times.set).toFixed(2)} ms   p95 ${p95(times.set).toFixed(2)} ms`);
    };
    // First as soon as the first widget has drawn (both widgets are still drawing their first
    // frames: a message waits for the frame in progress), then with both widgets idle.
    report('from first frame', await roundTrips());
    const widgets = await Promise.all(['quick-7b', 'guide-70b'].map(async (id) => (await page.$(`[data-example="${id}"] iframe`)).contentFrame()));
    for (const frame of widgets) await frame.waitForFunction(() => window.vramcalcTest.idle(), null, { timeout: 30000, polling: 50 });
    report('widgets idle    ', await roundTrips());
    await context.close();
    server.close();
} finally {
    await browser.close();
}
