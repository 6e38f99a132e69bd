// Browser test of keyboard and screen-reader operation (issue 14, item 4), at a desktop size and on
// a phone (390 x 844 at DPR 3, touch): Tab reaches the canvas, moves through the calculator's
// controls with a visible focus (the shell's registry says which widget has it), Space presses and
// Enter types; Escape then Tab leaves the canvas for the text form, whose fields edit the same
// inputs through the widget's `set` path with the engine's messages; the phone's main controls
// are at least 44 x 44 CSS px. Keys are real key presses; widgets are found through the registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { useSite } from './site.mjs';
import { openPage } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');

const kStart = 'model.preset=llama-3.1-8b&batch=4';

const live = useSite(site);  // live.url, live.browser
const consoleErrors = [];

const open = (size, fragment = '') => openPage(live.browser, live.url, size, fragment, consoleErrors);

const active = (page) => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));

// Presses `key` and returns the widget keyboard navigation is on, once the page has settled.
async function press(page, v, key) {
    await page.keyboard.press(key);
    await v.settled();
    return (await v.state()).focus;
}

// Tabs (or Shift+Tabs) until the focus is on `id` (at most `limit` presses); returns the ids passed.
async function tabTo(page, v, id, { limit = 60, key = 'Tab' } = {}) {
    const seen = [];
    for (let i = 0; i < limit; ++i) {
        const f = await press(page, v, key);
        seen.push(f.id);
        if (f.id === id) return seen;
    }
    assert.fail(`Tab never reached ${id}: ${seen.join(', ')}`);
}

for (const size of ['desktop', 'phone']) {
    test(`${size}: Tab reaches the canvas, then every control in reading order with a visible focus; Space presses, Enter types`, async () => {
        const [page, v] = await open(size, kStart);
        await page.keyboard.press('Tab');
        assert.equal(await active(page), 'canvas', 'the first Tab focuses the calculator');
        const outline = await page.evaluate(() => getComputedStyle(document.getElementById('canvas')).outlineStyle);
        assert.equal(outline, 'solid', 'the focused canvas shows an outline');

        // The first Tab inside lands on the header's first control, with the focus drawn.
        let f = await press(page, v, 'Tab');
        assert.equal(f.id, 'units/gb');
        assert.equal(f.visible, true, 'the focused control is outlined');
        // Order: the header, then the task and method bar, then the inputs (top to bottom).
        const passed = await tabTo(page, v, 'batch');
        const at = (id) => passed.indexOf(id);
        for (const [a, b] of [['units/gib', 'theme/auto'], ['theme/auto', 'task/training'], ['task/training', 'method/quick'], ['method/detailed', 'batch']])
            assert.ok(at(a) >= 0 && at(a) < at(b), `${a} before ${b} (${passed.join(', ')})`);
        // Tab into a number field types into it: Enter applies the whole text.
        await page.keyboard.press('Control+A');
        await page.keyboard.type('16');
        await press(page, v, 'Enter');
        assert.equal((await v.state()).inputs.batch, 16, 'typed 16 and Enter');

        // Shift+Tab goes back; Space presses the focused button.
        await tabTo(page, v, 'units/gb', { key: 'Shift+Tab' });
        f = await press(page, v, 'Tab');
        assert.equal(f.id, 'units/gib');
        assert.equal((await v.state()).units, 'GB');
        await press(page, v, 'Space');
        assert.equal((await v.state()).units, 'GiB', 'Space pressed GiB');
        f = await press(page, v, 'Shift+Tab');
        assert.equal(f.id, 'units/gb', 'Shift+Tab goes back one');
        // Arrows move by position: Down leaves the header's row.
        const before = await v.widget('units/gb');
        f = await press(page, v, 'ArrowDown');
        assert.notEqual(f.id, 'units/gb');
        assert.ok((await v.widget(f.id)).y > before.y, `Down moves down (to ${f.id})`);
        assert.equal(await active(page), 'canvas', 'Tab and the arrows stay in the calculator');

        // No trap: Escape, then Tab, leaves the canvas for the text form; Shift+Tab comes back.
        await press(page, v, 'Escape');
        await page.keyboard.press('Tab');
        assert.match(await active(page), /^form-/, 'Escape then Tab reaches the text form');
        assert.equal(await page.evaluate(() => document.getElementById('a11y-form').getBoundingClientRect().width > 100), true,
            'the form shows itself while it has the focus');
        await page.keyboard.press('Shift+Tab');
        assert.equal(await active(page), 'canvas');
        assert.deepEqual(consoleErrors, []);
        await page.context().close();
    });

    test(`${size}: the text form edits the main inputs with the engine's labels, ranges and messages`, async () => {
        const [page, v] = await open(size, kStart);
        const rows = await page.evaluate(() => Array.from(document.querySelectorAll('#a11y-fields div'), (d) => ({
            label: d.querySelector('label').textContent, id: d.querySelector('input,select').id, note: d.querySelector('small').textContent,
        })));
        const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
        for (const id of ['form-task', 'form-method', 'form-model-preset', 'form-gpu', 'form-batch', 'form-seq', 'form-training-precision'])
            assert.ok(byId[id], `the form has ${id} (${rows.map((r) => r.id).join(', ')})`);
        assert.equal(byId['form-batch'].note, 'Accepted: [1, 1048576] sequences', 'the range is the field table\'s');
        assert.equal(await page.evaluate(() => document.querySelector('label[for="form-gpu"]').textContent), 'GPU');

        // A value typed and Enter applies it, as the canvas would.
        await page.focus('#form-batch');
        await page.keyboard.press('Control+A');
        await page.keyboard.type('16');
        await page.keyboard.press('Enter');
        await v.settled();
        assert.equal((await v.state()).inputs.batch, 16);
        assert.equal(await active(page), 'form-batch', 'keys in the form stay in the form');
        // A choice applies on change.
        await page.selectOption('#form-gpu', 'a100-40gb');
        await v.settled();
        assert.equal((await v.state()).inputs.gpu, 'a100-40gb');
        await page.selectOption('#form-task', 'inference');
        await v.settled();
        assert.equal((await v.state()).inputs.task, 'inference');
        assert.ok(await page.$('#form-inference-context'), 'the form follows the task\'s rows');

        // Bad input: the engine's message, in the field's unit, beside the field; nothing else moves.
        await page.selectOption('#form-task', 'training');
        await v.settled();
        const total = (await v.state()).result.total_bytes;
        await page.fill('#form-seq', '1e30');
        await page.keyboard.press('Enter');
        await v.settled();
        const s = await v.state();
        assert.equal(s.inputs.seq, 2048, 'the refused value is not applied');
        assert.equal(s.result.total_bytes, total, 'the last valid result stays');
        const seq = await page.evaluate(() => {
            const c = document.getElementById('form-seq');
            return { invalid: c.getAttribute('aria-invalid'), note: document.getElementById(c.getAttribute('aria-describedby')).textContent,
                     status: document.getElementById('a11y-form-status').textContent };
        });
        assert.equal(seq.invalid, 'true');
        assert.match(seq.note, /\[1, 16777216\] tokens/, seq.note);
        assert.match(seq.status, /Sequence length/, 'the status line reads the error out');
        assert.deepEqual(consoleErrors, []);
        await page.context().close();
    });
}

test('phone (390 x 844, DPR 3): the main controls are at least 44 x 44 CSS px', async () => {
    const [page, v] = await open('phone', kStart);
    const widgets = await v.hook('widgets');
    const main = ['units/gb', 'units/gib', 'theme/auto', 'copy_link', 'reset', 'task/training', 'task/inference', 'method/detailed',
                  'model.preset', 'gpu', 'batch', 'batch/dec', 'batch/inc', 'batch/presets', 'seq', 'seq/dec', 'seq/inc'];
    for (const id of main) {
        const r = widgets[id];
        assert.ok(r, `no widget ${id}`);
        assert.ok(r.w >= 44 - 0.01 && r.h >= 44 - 0.01, `${id} is ${r.w.toFixed(1)} x ${r.h.toFixed(1)}`);
    }
    assert.deepEqual(consoleErrors, []);
    await page.context().close();
});
