// The reverse question (issue 14, item 10): "Which models and formats fit my GPU?". On a 24 GB card
// (RTX 4090) with llama.cpp and one 4,096-token sequence, the page's "Models that fit" panel lists
// the presets x GGUF types that `vramcalc fit-models` lists for the same inputs, best first, under the
// headline's budget (a row whose weights sit in system RAM of no stated size is not among them); one
// click (desktop) or tap (phone) loads a row into the calculator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { useSite } from './site.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const kFragment = '#v=2&task=inference&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb&inference.engine=llama.cpp&inference.weights=q4_k_m&inference.context=4096';

const live = useSite(site);  // live.url, live.browser
const errors = [];

async function open(options) {
    const context = await live.browser.newContext(options);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(live.url + kFragment);
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    const v = new Visitor(page);
    await v.settled();
    return v;
}

// Scrolls the column under `id` near it in one wheel event (the visitor's inView then steps the rest).
async function reach(v, id) {
    const height = v.page.viewportSize().height;
    const r = await v.widget(id);
    if (r.y < height * 0.2 || r.y > height * 0.8) {
        await v.page.mouse.move(r.x + r.w / 2, height / 2);
        await v.page.mouse.wheel(0, r.y - height / 2);
        await v.settled();
        await reach(v, id);
    }
}

for (const [name, options, touch] of [
    ['desktop', { viewport: { width: 1440, height: 900 } }, false],
    ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true }, true],
]) {
    test(`${name}: the models that fit a 24 GB card are the CLI's list, and a click loads one`, async () => {
        const v = await open(options);
        let s = await v.state();
        assert.equal(s.model_fits, undefined, 'not computed until the panel opens');
        await reach(v, 'fit_models');
        await (touch ? v.tap('fit_models') : v.click('fit_models'));
        s = await v.state();
        const cli = JSON.parse(execFileSync(cliBin, ['fit-models', '--config', '-', '--format', 'json'], { input: JSON.stringify(s.inputs) }));
        const fitting = cli.models.filter((m) => m.fits);
        assert.deepEqual(s.model_fits.fitting, fitting.map((m) => `${m.model}/${m.format}`), 'the page lists what `vramcalc fit-models` prints');
        // A 24 GB card: 75% of 24,564 MiB = 19.32 GB, the headline's budget.
        assert.equal(s.model_fits.budget_bytes, 0.75 * 24564 * 2 ** 20);
        assert.equal(cli.budget_bytes, s.model_fits.budget_bytes);
        const row = (m, f) => cli.models.find((r) => r.model === m && r.format === f);
        assert.equal(row('llama-3.1-8b', 'gguf-bf16').fits, true, '8B at BF16: 16.36 GB');
        assert.equal(row('llama-3.1-8b', 'q8_0').fits, true);
        assert.equal(row('llama-3.1-70b', 'q4_k_m').fits, false, '70B at Q4_K_M: 44 GB');
        assert.equal(row('llama-3.1-70b', 'q2_k').fits, false, '70B at Q2_K: 28 GB');
        // The present config's own row is the headline: the same total, the same verdict.
        const own = row('llama-3.1-8b', s.inputs.inference.weights);
        assert.equal(own.total_bytes, s.result.total_bytes);
        assert.equal(own.fits, s.result.fits.find((f) => f.gpu === 'rtx-4090-24gb').within_target);

        // Rows whose --fit split keeps weights in system RAM of no stated size (Kimi-K2 in four types,
        // DeepSeek-V3.2, -V3 and -R1 Q6_K, Llama-3.1-405B BF16, Llama-4 Maverick in three, MiniMax-M2 BF16) are not counted as fitting; one line names
        // the best with its RAM. 405B BF16: --fit's -ngl 3 is the output layer and 2 layers since llama.cpp PR #18148
        // (inference.llamacpp.output_first), 18.68 GB on the card and the rest in RAM.
        // gpt-oss comes in its published MXFP4_MOE file alone: the 20b fits (12.51 GB).
        const needing = cli.models.filter((m) => m.needs_ram);
        assert.deepEqual(s.model_fits.needs_ram, needing.map((m) => `${m.model}/${m.format}`));
        assert.deepEqual(s.model_fits.needs_ram, ['kimi-k2/q8_0', 'kimi-k2/q6_k', 'kimi-k2/q5_k_m', 'kimi-k2/q3_k_m',
            'deepseek-v3.2/q6_k', 'deepseek-v3/q6_k', 'deepseek-r1/q6_k', 'llama-3.1-405b/gguf-bf16',
            'llama-4-maverick/q6_k', 'llama-4-maverick/q5_k_m', 'llama-4-maverick/q3_k_m', 'minimax-m2/gguf-bf16']);
        assert.equal(row('gpt-oss-20b', 'mxfp4').fits, true);
        assert.equal(row('gpt-oss-20b', 'q4_k_m'), undefined);
        assert.ok(await v.hook('widget', 'fit_models/needs_ram'), 'the needs-RAM line is drawn');
        // The best 12 that fit are on the page, best first; the first one loads with a click.
        for (const m of fitting.slice(0, 12)) assert.ok(await v.hook('widget', `fit_model/${m.model}/${m.format}`), `${m.model} ${m.format} listed`);
        assert.equal(await v.hook('widget', `fit_model/${fitting[12].model}/${fitting[12].format}`), null, 'the 13th is not');
        const best = fitting[0];
        const id = `fit_model/${best.model}/${best.format}`;
        await reach(v, id);
        await (touch ? v.tap(id) : v.click(id));
        s = await v.state();
        assert.equal(s.inputs.model.preset, best.model);
        assert.equal(s.inputs.inference.weights, best.format);
        assert.equal(s.inputs.inference.context, 4096, 'the rest of the inputs stay');
        assert.equal(s.result.total_bytes, best.total_bytes, 'the total the list named');
        assert.equal(s.result.fits.find((f) => f.gpu === 'rtx-4090-24gb').within_target, true, 'and the headline says it fits');
        assert.deepEqual(errors, []);
        await v.page.context().close();
    });
}
