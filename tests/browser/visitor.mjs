// Helpers for browser tests that act as a visitor would: real mouse, touch and keyboard events on
// the ImGui canvas, at widgets found through the page's item registry (vramcalcTest.widget(id):
// each widget's rectangle in CSS pixels, recorded by the shell every frame), never at hard-coded
// pixels; results are read back through the page's test hook, never by OCR.
import assert from 'node:assert/strict';

// The sizes the page is tried at: a desktop, and a 390 x 844 phone at DPR 3 with touch.
export const kSizes = {
    desktop: { viewport: { width: 1440, height: 900 } },
    phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true },
};

// Opens `url` (+ `#fragment`) in a fresh context of `size` (a kSizes key), collects console errors
// into `consoleErrors`, waits for the first frame and a settled page; returns [page, visitor].
export async function openPage(browser, url, size, fragment, consoleErrors, visitorOptions = {}) {
    const context = await browser.newContext(kSizes[size]);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(url + (fragment ? `#${fragment}` : ''));
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 0, null, { timeout: 30000 });
    const v = new Visitor(page, visitorOptions);
    await v.settled();
    return [page, v];
}

export class Visitor {
    // `settleMs`: how long settled() waits for the page to go idle (a page that keeps computing over
    // frames, as the planner does, needs longer on a loaded machine drawing in software).
    constructor(page, { settleMs = 10000 } = {}) {
        this.page = page;
        this.settleMs = settleMs;
    }

    hook(name, ...args) {
        return this.page.evaluate(([n, a]) => window.vramcalcTest[n](...a), [name, args]);
    }

    state() {
        return this.hook('state');
    }

    // Waits until the page has drawn every frame the last input asked for and paused its main
    // loop (the shell's own idle flag: a frame count that stops changing for a while can also be
    // a slow software-rendered frame still in flight).
    async settled() {
        await this.page.waitForFunction(() => window.vramcalcTest.idle(), null, { timeout: this.settleMs, polling: 16 });
        return this.hook('frameCount');
    }

    async widget(id) {
        const r = await this.hook('widget', id);
        assert.ok(r, `no widget "${id}" on the page`);
        return r;
    }

    async center(id) {
        const r = await this.widget(id);
        return [r.x + r.w / 2, r.y + r.h / 2];
    }

    // Wheels the column under the widget until it is in a `height`-pixel viewport (default: the
    // page's), below the top 15% (the header and tabs cover a column's top) and clear of the column's
    // clipped bottom edge, or as far as the column scrolls.
    async inView(id, height) {
        height = height || this.page.viewportSize().height;
        let last = null;
        for (let i = 0; i < 60; ++i) {
            const r = await this.widget(id);
            const top = height * 0.15;
            if (r.y >= top && (r.y + r.h <= height - 60 || (last !== null && r.y === last && r.y + r.h <= height))) return;
            last = r.y;
            await this.page.mouse.move(r.x + r.w / 2, height / 2);
            await this.page.mouse.wheel(0, r.y < top ? -120 : 120);
            await this.settled();
        }
        assert.fail(`widget ${id} never scrolled into view`);
    }

    // A mouse click at the widget's centre; waits for the page to settle.
    async click(id) {
        const [x, y] = await this.center(id);
        await this.page.mouse.click(x, y);
        await this.settled();
    }

    // A tap on a touch screen at the widget's centre.
    async tap(id) {
        const [x, y] = await this.center(id);
        await this.page.touchscreen.tap(x, y);
        await this.settled();
    }

    // Opens a combo or popup (`id`) and picks its entry `item` (an id in the registry).
    async pick(id, item) {
        await this.click(id);
        await this.click(item);
    }

    // Clicks into a number field (a click without dragging types into it), replaces its text and
    // presses Enter.
    async typeInto(id, text, { enter = true } = {}) {
        await this.click(id);
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.type(text);
        if (enter) await this.page.keyboard.press('Enter');
        await this.settled();
    }
}
