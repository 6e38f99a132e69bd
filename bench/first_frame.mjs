// vramcalc benchmark: time from navigation to the first frame the ImGui shell draws, in headless
// Chromium (software WebGL2 through SwiftShader, so a real GPU is faster). Each run is a fresh
// browser context (empty cache). Prints every run and the median.
//   node bench/first_frame.mjs [SITE_DIR] [RUNS]
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = process.argv[2] || join(root, 'build/wasm/site');
const runs = Number(process.argv[3] || 5);

const { server, url } = await serveSite(site, { port: 0 });
const browser = await launchChromium();
const times = [];
try {
    for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(url);
        // firstFrameMs is performance.now() at the end of the first drawn frame: ms since navigation start.
        const ms = await page.waitForFunction(() => window.vramcalcTest?.firstFrameMs(), null, { timeout: 30000, polling: 10 });
        times.push(await ms.jsonValue());
        await context.close();
    }
} finally {
    await browser.close();
    server.close();
}
times.sort((a, b) => a - b);
console.log(`first frame  ${times[Math.floor(times.length / 2)].toFixed(0)} ms median from navigation ` +
    `(runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms; headless Chromium, software WebGL2)`);
