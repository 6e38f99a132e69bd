// Browser test of the page's edges (issue 14, items 7 and 8 and the minor list), at a desktop size
// and on a phone (390 x 844 at DPR 3, touch): bad input refused in the field's own unit with the
// last valid result kept; tooltips that keep clear of a field's error; a bad link with no HTML
// line over the header; text that is never cut (the breakdown's formula and share columns, a
// combo's label) nor broken inside a number; list entries as tall as a touch target on the phone;
// the arrow keys in the preset search; text colours at WCAG AA contrast. Widgets are found through
// the page's registry; results are read through its test hook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { useSite } from './site.mjs';
import { kSizes, openPage } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
// The README's screenshot: QLoRA of Llama-3.1 8B on an RTX 4090 (a long GPU name, long formulas).
const kQlora = 'v=2&task=finetune&training.finetune=qlora&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb';

const live = useSite(site);  // live.url, live.browser
const consoleErrors = [];

const open = (size, fragment = '') => openPage(live.browser, live.url, size, fragment, consoleErrors, { settleMs: 20000 });

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const right = (r) => r.x + r.w;

for (const size of ['desktop', 'phone']) {
    test(`${size}: parameters 0 is refused with params_b's range and the last valid result stays (not a 1.17B model that fits)`, async () => {
        const [page, v] = await open(size);
        await v.inView('model_mode/params');
        await v.click('model_mode/params');
        const before = await v.state();
        assert.equal(before.error, null);
        assert.equal(before.model_params_b, 7);
        await v.inView('params_b');
        await v.typeInto('params_b', '0');
        const s = await v.state();
        assert.equal(s.error?.field, 'params_b');
        assert.equal(s.error.message, 'params_b must be a number greater than 0 and at most 100000 billion, got 0');
        assert.deepEqual(s.result, before.result, 'the 7B result stays');
        assert.ok((await v.widget('params_b/error')).h > 0, 'the message is drawn under the field');
        await v.typeInto('params_b', '13');
        const t = await v.state();
        assert.equal(t.error, null);
        assert.equal(t.model_params_b, 13);
        await page.context().close();
    });

    test(`${size}: the headroom target speaks percent: 1e30 and 750 are refused in [5, 100] %, the headline keeps its 75% target`, async () => {
        const [page, v] = await open(size);
        const before = await v.state();
        await v.inView('target_utilization');
        for (const [typed, shown] of [['1e30', '1e\\+30'], ['750', '750']]) {
            await v.typeInto('target_utilization', typed);
            const s = await v.state();
            assert.equal(s.error?.field, 'target_utilization');
            assert.match(s.error.message, new RegExp(`^target_utilization must be a number in \\[5, 100\\] %, got ${shown}$`));
            assert.deepEqual(s.result, before.result, 'the last valid result stays');
            assert.equal(s.inputs.target_utilization, typed === '750' ? 7.5 : 1e28, 'the typed value is what was refused');
            const summary = await v.hook('a11yText');
            assert.match(summary, /Invalid input: target_utilization: target_utilization must be a number in \[5, 100\] %/);
            assert.doesNotMatch(summary, /\d{12}/, 'no 31-digit target anywhere in the summary');
        }
        await v.typeInto('target_utilization', '80');
        const s = await v.state();
        assert.equal(s.error, null);
        assert.equal(s.inputs.target_utilization, 0.8);
        await page.context().close();
    });

    test(`${size}: the text form and a link speak the headroom target in percent, as its row does`, async () => {
        const [page, v] = await open(size);
        const row = () => page.evaluate(() => {
            const c = document.getElementById('form-target_utilization');
            return c && { value: c.value, note: document.getElementById(c.getAttribute('aria-describedby')).textContent };
        });
        const r = await row();
        assert.ok(r, 'the text form has the headroom target');
        assert.equal(r.value, '75', 'the form shows 75 (%), not the share 0.75');
        assert.match(r.note, /^Accepted: \[5, 100\] %$/);
        // 70 typed in the form is 0.7 of the GPU (and reads back as 70, not 70.00000000000001).
        await page.fill('#form-target_utilization', '70');
        await page.keyboard.press('Enter');
        await v.settled();
        assert.equal((await v.state()).inputs.target_utilization, 0.7);
        assert.equal((await row()).value, '70');
        // 300 is refused in percent, beside the field and in the form's note.
        await page.fill('#form-target_utilization', '300');
        await page.keyboard.press('Enter');
        await v.settled();
        assert.match((await row()).note, /target_utilization must be a number in \[5, 100\] %, got 300\b/);
        await page.context().close();

        // A link gives the share (target_utilization=3, i.e. 300%): it is left out, and both the
        // line above the form and the mark beside the % row word it in percent.
        const [page2, v2] = await open(size, 'v=2&target_utilization=3&batch=8');
        await v2.settled();
        const s = await v2.state();
        assert.equal(s.inputs.batch, 8, 'the rest of the link applies');
        assert.equal(s.inputs.target_utilization, 0.75, 'the bad share keeps its starting value');
        assert.match(s.link_error, /^target_utilization: target_utilization must be a number in \[5, 100\] %, got 300$/);
        await v2.inView('target_utilization');
        assert.ok(await v2.widget('target_utilization/error'), 'the row is marked');
        assert.match(await page2.evaluate(() => document.getElementById('form-target_utilization-note').textContent),
                     /^From the link, not applied: target_utilization must be a number in \[5, 100\] %, got 300\./);
        assert.deepEqual(consoleErrors, []);
        await page2.context().close();
    });

    test(`${size}: QLoRA's dequantization temporary is the largest 4-bit matrix (0.12 GB for Llama-3.1 8B), not the 16-bit LM head; LitGPT, which quantizes the head, holds it in FP16 and BF16`, async () => {
        const [page, v] = await open(size, kQlora);
        const dequant = async () => (await v.state()).result.components.find((c) => c.key === 'temporary').formula;
        // HF / PEFT keeps lm_head in 16 bits: the largest NF4 matrix is an MLP one, 14336 x 4096 x 2 B.
        assert.match(await dequant(), /^QLoRA dequantized weight 0\.12 GB \+/, 'HF / PEFT');
        assert.equal((14336 * 4096 * 2 / 1e9).toFixed(2), '0.12');
        await page.context().close();
        // LitGPT quantizes every nn.Linear, the head too: 128256 x 4096 in FP16 and its BF16 cast.
        // LitGPT's QLoRA runs bf16-true (bf16-mixed with --quantize is refused: docs/training.md, section 9).
        const [page2, v2] = await open(size, `${kQlora}&training.profile=litgpt&training.precision=bf16-true`);
        assert.equal((await v2.state()).inputs.training.profile, 'litgpt');
        const formula = (await v2.state()).result.components.find((c) => c.key === 'temporary').formula;
        assert.match(formula, /^QLoRA dequantized weight 2\.10 GB \+/, 'LitGPT');
        assert.equal((128256 * 4096 * 4 / 1e9).toFixed(2), '2.10');
        assert.deepEqual(consoleErrors, []);
        await page2.context().close();
    });

    test(`${size}: a field's tooltip keeps clear of its own error message`, async () => {
        const [page, v] = await open(size);
        await v.inView('batch');
        await v.typeInto('batch', '0');
        assert.equal((await v.state()).error?.field, 'batch');
        const error = await v.widget('batch/error');
        // Hover the field: its tooltip shows and covers neither the field nor the message.
        {
            const [x, y] = await v.center('batch');
            await page.mouse.move(x + 3, y);
            await v.settled();
            await page.mouse.move(x + 4, y);  // the tooltip's size is known from its first frame on
            await v.settled();
            const tip = await v.widget('tooltip');
            assert.ok(tip.w > 0 && tip.h > 0, 'a tooltip shows');
            assert.ok(!overlap(tip, error), `the tooltip (${JSON.stringify(tip)}) covers the error (${JSON.stringify(error)})`);
            assert.ok(!overlap(tip, await v.widget('batch')), 'nor the field');
        }
        await page.context().close();
    });

    test(`${size}: a bad link puts no HTML line over the header; the canvas names it beside the field`, async () => {
        const [page, v] = await open(size, 'v=1&gpu=%22%FF&batch=8&seq=oops');
        const s = await v.state();
        assert.match(s.link_error, /^gpu: /);
        assert.equal(s.inputs.batch, 8);
        assert.ok(await v.widget('seq/error'), 'the bad key is marked beside its field');
        const status = await page.evaluate(() => {
            const e = document.getElementById('status');
            const r = e.getBoundingClientRect();
            return { text: e.textContent, w: r.width, h: r.height };
        });
        assert.equal(status.text, '', `the status line says "${status.text}"`);
        assert.equal(status.w * status.h, 0);
        // The text form's status reads the problem out to a screen reader.
        assert.match(await page.textContent('#a11y-form-status'), /From the link, not applied/);
        await page.context().close();
    });

    test(`${size}: the breakdown's formula and share columns and the GPU list's label are never cut`, async () => {
        const [page, v] = await open(size, kQlora);
        const widgets = await v.hook('widgets');
        const table = widgets.breakdown;
        assert.ok(table, 'the breakdown table is on the page');
        assert.ok(right(table) <= kSizes[size].viewport.width, 'the table is within the screen');
        const cells = Object.entries(widgets).filter(([id]) => /^breakdown\/[^/]+\/(share|formula)$/.test(id));
        assert.ok(cells.length >= (size === 'phone' ? 6 : 12), `${cells.length} share and formula cells`);
        for (const [id, r] of cells) assert.ok(right(r) <= right(table) + 1, `${id} ends at ${right(r)}, past the table's ${right(table)}`);
        // One line per component name on a desktop (the column is as wide as the longest name).
        if (size === 'desktop') assert.ok(widgets['breakdown/weights/share'].h < 20, 'the weights row is one line');
        // The GPU combo's label ("NVIDIA GeForce RTX 4090 24GB  25.76 GB") ends before its arrow.
        const gpu = widgets.gpu, label = widgets['label/gpu'];
        assert.ok(label && label.w > 0, 'the GPU combo shows a label');
        assert.ok(right(label) <= right(gpu) - gpu.h + 1, `the label ends at ${right(label)}, the arrow starts at ${right(gpu) - gpu.h}`);
        await page.context().close();
    });

    test(`${size}: wrapped text never breaks inside a number ("target 75.|0%")`, async () => {
        const [page, v] = await open(size, kQlora);
        await v.inView('budget');
        const s = await v.state();
        assert.ok(s.wrapped.length > 0, 'some text wraps');
        const budget = s.wrapped.find((lines) => lines.join(' ').includes('target of'));
        if (size === 'phone') assert.ok(budget, 'the budget line wraps on a phone');
        for (const lines of s.wrapped)
            for (let i = 1; i < lines.length; ++i)
                assert.ok(!(/\d[.,]$/.test(lines[i - 1]) && /^\d/.test(lines[i])), `"${lines[i - 1]}|${lines[i]}" breaks a number`);
        await page.context().close();
    });
}

test('phone: every list entry is a 44 px touch target (combo, presets, export)', async () => {
    const [page, v] = await open('phone', kQlora);
    const check = async (opener, prefix) => {
        await v.inView(opener);
        await v.tap(opener);
        const widgets = await v.hook('widgets');
        const entries = Object.entries(widgets).filter(([id, r]) => id.startsWith(prefix) && r.y >= 0 && r.y + r.h <= 844);
        assert.ok(entries.length >= 3, `${entries.length} entries of ${opener} in view`);
        for (const [id, r] of entries) assert.ok(r.h >= 44 - 0.5, `${id} is ${r.h} px tall`);
        await page.keyboard.press('Escape');
        await v.settled();
    };
    await v.tap('export');  // in the header, at the top
    const exports = Object.entries(await v.hook('widgets')).filter(([id]) => id.startsWith('export/'));
    assert.equal(exports.length, 3);
    for (const [id, r] of exports) assert.ok(r.h >= 44 - 0.5, `${id} is ${r.h} px tall`);
    await page.keyboard.press('Escape');
    await v.settled();
    await check('batch/presets', 'batch/preset/');
    await check('training.precision', 'training.precision/');
    await page.context().close();
});

// (ImGui's keyboard navigation already did this on main: a check that it keeps working.)
test('desktop: the arrow keys move from the preset search over its matches and Enter takes one', async () => {
    const [page, v] = await open('desktop');
    await v.click('model_mode/preset');
    await v.click('model.preset');
    await page.keyboard.type('llama 3.1');
    await v.settled();
    const matches = Object.entries(await v.hook('widgets'))
        .filter(([id]) => id.startsWith('model.preset/') && id !== 'model.preset/search')
        .sort((a, b) => a[1].y - b[1].y)
        .map(([id]) => id.slice('model.preset/'.length));
    assert.ok(matches.length >= 3, `matches: ${matches}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await v.settled();
    const s = await v.state();
    assert.equal(s.inputs.model.preset, matches[1], 'down, down, down, up: the second match');
    assert.equal((await v.hook('widgets'))['model.preset/search'], undefined, 'the list closed');
    await page.context().close();
});

test('every text colour of both themes (the accent and a chosen segment\'s label too) is at least 4.5:1 on the backgrounds it is drawn on (WCAG AA)', async () => {
    const [page, v] = await open('desktop');
    const themes = (await v.state()).theme_colours;
    const lum = (rgb) => {
        const c = [16, 8, 0].map((s) => ((rgb >> s) & 255) / 255).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    for (const [theme, c] of Object.entries(themes)) {
        for (const text of ['text', 'dim', 'faint', 'error', 'good', 'warn', 'accent'])
            for (const bg of ['bg', 'panel', 'popup']) {
                const r = ratio(c[text], c[bg]);
                assert.ok(r >= 4.5, `${theme} ${text} on ${bg}: ${r.toFixed(2)}:1`);
            }
        // A chosen segment's label on its accent fill (issue 14: white on the dark theme's blue was 3.3:1).
        const r = ratio(c.on_accent, c.accent);
        assert.ok(r >= 4.5, `${theme} on_accent on accent: ${r.toFixed(2)}:1`);
    }
    await page.context().close();
    assert.deepEqual(consoleErrors, []);
});
