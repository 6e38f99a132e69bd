// "Does not fit" has a way out (issue 14, item 3): QLoRA of Llama-3.1-8B on a 24 GB card at
// micro-batch 1 does not fit with the default recomputation; the page lists the smallest changes
// that do (each checked by the detailed model, the same list as `vramcalc suggest`), and one click
// applies one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const kConfig = { method: 'detailed', task: 'finetune', model: { preset: 'llama-3.1-8b' }, gpu: 'rtx-4090-24gb', batch: 1, seq: 2048,
    training: { finetune: 'qlora', recompute: 'none' } };  // checkpointing off as stated (auto: peft's full, which fits)
const kFragment = '#v=1&method=detailed&task=finetune&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb&batch=1&seq=2048&training.finetune=qlora' +
    '&training.recompute=none';

let server, browser, page, v;
const errors = [];

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    let url;
    ({ server, url } = await serveSite(site, { port: 0 }));
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + kFragment);
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    v = new Visitor(page);
    await v.settled();
});

after(async () => {
    await browser?.close();
    server?.close();
});

test('the page offers the changes that make it fit, and Apply applies one', async () => {
    const cli = JSON.parse(execFileSync(cliBin, ['suggest', '--config', '-', '--format', 'json'], { input: JSON.stringify(kConfig) }));
    assert.equal(cli.suggestions[0].id, 'recompute_full');
    let s = await v.state();
    assert.equal(s.inputs.training.recompute, 'none');
    assert.ok(s.result.total_bytes > 0.75 * 24e9, 'it does not fit within the target as given');
    for (const sug of cli.suggestions) assert.ok(await v.hook('widget', 'suggestion/' + sug.id), `the page lists ${sug.id}`);
    // Scroll the results until the button is in view (one wheel notch is 75 px), then click it.
    let button = await v.widget('suggestion/recompute_full');
    if (button.y > 900) {
        await page.mouse.move(button.x + 200, 500);
        for (let moved = 0; moved < button.y - 500; moved += 75) await page.mouse.wheel(0, 100);
        await v.settled();
        button = await v.widget('suggestion/recompute_full');
    }
    await v.click('suggestion/recompute_full');
    s = await v.state();
    assert.equal(s.inputs.training.recompute, 'full');
    assert.equal(s.inputs.method, 'detailed');
    // The total the suggestion named: utilization x the card's memory (core/advice.cpp fit_of), the estimate's up to the last bits.
    assert.ok(Math.abs(s.result.total_bytes - cli.suggestions[0].total_bytes) <= 1e-12 * s.result.total_bytes,
              `the total the suggestion named: ${s.result.total_bytes} vs ${cli.suggestions[0].total_bytes}`);
    assert.equal(await v.hook('widget', 'suggestion/recompute_full'), null, 'it fits now: no suggestions');
    assert.deepEqual(errors, []);
});
