// vramcalc benchmark: the app's first drawn frame against a bare Dear ImGui page built the same way
// (bench/bare: same ImGui, font, WebGL2 flags, link and packing; its context keeps GLFW's default
// depth and stencil buffers, which the app's does not ask for), in headless Chromium with software
// WebGL2. Runs alternate between the two pages, each in a fresh context (empty cache), and the
// medians are compared. Target (issue 5): app <= 1.5x bare. The app's first frame shows the
// estimate; the comparison of methods, the answers and the charts follow on the next frame, whose
// time is printed too ("complete").
//   node bench/first_frame_vs_bare.mjs [SITE_DIR] [BARE_DIR] [RUNS]
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = process.argv[2] || join(root, 'build/wasm/site');
const bare = process.argv[3] || join(root, 'build/wasm/bare');
const runs = Number(process.argv[4] || 7);

const servers = [await serveSite(site, { port: 0 }), await serveSite(bare, { port: 0 })];
const browser = await launchChromium();
const times = { app: [], bare: [], complete: [] };
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

async function firstFrame(url, complete) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url);
    const ms = await page.waitForFunction(() => window.vramcalcTest?.firstFrameMs(), null, { timeout: 30000, polling: 5 });
    const t = await ms.jsonValue();
    if (complete) {
        const c = await page.waitForFunction(() => window.vramcalcTest.completeFrameMs(), null, { timeout: 30000, polling: 5 });
        complete.push(await c.jsonValue());
    }
    await context.close();
    return t;
}

try {
    await firstFrame(servers[0].url);  // warm the browser (not counted)
    for (let i = 0; i < runs; i++) {
        times.app.push(await firstFrame(servers[0].url, times.complete));
        times.bare.push(await firstFrame(servers[1].url));
    }
} finally {
    await browser.close();
    for (const s of servers) s.server.close();
}
const app = median(times.app), base = median(times.bare);
const list = (v) => v.map((t) => t.toFixed(0)).join(', ');
console.log(`first frame  app ${app.toFixed(0)} ms, bare ImGui page ${base.toFixed(0)} ms (medians of ${runs}): ` +
    `${(app / base).toFixed(2)}x (target <= 1.5x)`);
console.log(`  the app's first frame with every result (comparison, answers, charts): ${median(times.complete).toFixed(0)} ms ` +
    `(${(median(times.complete) / base).toFixed(2)}x the bare page)`);
console.log(`  runs: app ${list(times.app)} ms; bare ${list(times.bare)} ms (headless Chromium, software WebGL2, 1280x800 at DPR 1)`);
