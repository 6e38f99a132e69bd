// vramcalc benchmark: how long the Cluster planner holds a frame in the page (issue 11: the page
// never freezes). Opens the planner for Llama-3.1-405B on 512 H100 (seq 8192) in headless Chromium,
// times every frame (requestAnimationFrame to requestAnimationFrame, drawing included) from the
// first drawn frame until the plan and its extras (every fabric, the Pareto sizes, the cluster
// comparison) are complete, and prints the longest frame beside what one frame held before the
// search was sliced: the longest single search (longest_unit_ms; the old page ran a unit per frame)
// and the plan's whole search (the old page ran it in one frame).
//   node bench/planner_frames.mjs [SITE_DIR] [RUNS]
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = process.argv[2] || join(root, 'build/wasm/site');
const runs = Number(process.argv[3] || 3);
const fragment = '#v=1&method=detailed&model.preset=llama-3.1-405b&seq=8192&gpu=h100-80gb&view=planner&plan.gpus=512';

const { server, url } = await serveSite(site, { port: 0 });
const browser = await launchChromium();
try {
    for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
        await context.addInitScript(() => {
            window.frameGaps = [];
            let last = null;
            const tick = (t) => {
                if (last !== null) window.frameGaps.push(t - last);
                last = t;
                requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
        });
        const page = await context.newPage();
        const t0 = Date.now();
        await page.goto(url + fragment);
        await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 0, null, { timeout: 60000, polling: 50 });
        await page.evaluate(() => { window.frameGaps = []; });  // from the first drawn frame
        // The page goes idle once the planner asks for no more frames; the state is read only then (reading
        // it while a search runs would finish that search at once, in one long frame).
        await page.waitForFunction(() => window.vramcalcTest.idle(), null, { timeout: 120000, polling: 100 });
        const s = JSON.parse(await page.evaluate(() => JSON.stringify(window.vramcalcTest.state().planner)));
        if (!s.extras || !s.extras.complete) throw new Error('idle before the planner finished');
        const gaps = await page.evaluate(() => window.frameGaps.slice());
        gaps.sort((a, b) => b - a);
        const p = (q) => gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * q))];
        console.log(`planner 405B on 512 H100 (${s.plan.evaluated} layouts): plan search ${s.compute_ms.toFixed(0)} ms of work, ` +
            `extras ${s.extras.compute_ms.toFixed(0)} ms of work; longest single search ${s.extras.longest_unit_ms.toFixed(0)} ms ` +
            `(a frame held that long before slicing); now the longest frame ${gaps[0].toFixed(0)} ms (p99 ${p(0.01).toFixed(0)}, ` +
            `median ${p(0.5).toFixed(0)} ms, ${gaps.length} frames, drawing included), planner work in one frame at most ` +
            `${s.longest_step_ms.toFixed(0)} ms; complete ${((Date.now() - t0) / 1000).toFixed(1)} s after navigation`);
        await context.close();
    }
} finally {
    await browser.close();
    server.close();
}
