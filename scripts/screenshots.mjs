// Remakes the README's screenshots from the built page (headless Chromium, as the browser tests
// drive it; widgets found through the page's item registry):
//   docs/screenshot.png           1440 x 900: QLoRA of Llama-3.1 8B on an RTX 4090, detailed method,
//                                 the pointer on the breakdown bar's weights segment (its tooltip)
//   docs/screenshot-phone.png     390 x 844 at DPR 2: the same inputs on a phone
//   docs/screenshot-keyboard.png  1440 x 900: keyboard operation, the focus outline on the batch field
// Usage: node scripts/screenshots.mjs [SITE]   (default build/wasm/site; build it with scripts/build.sh web)
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../tests/browser/chromium.mjs';
import { Visitor } from '../tests/browser/visitor.mjs';
import { serveSite } from './serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = process.argv[2] || join(root, 'build/wasm/site');
const kFragment = 'v=2&task=finetune&training.finetune=qlora&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb';

const { server, url } = await serveSite(site, { port: 0 });
const browser = await launchChromium();
try {
    const open = async (options) => {
        const page = await browser.newPage(options);
        await page.goto(`${url}#${kFragment}`);
        await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.completeFrameMs() !== null, null, { timeout: 60000 });
        const v = new Visitor(page, { settleMs: 30000 });
        await v.settled();
        return [page, v];
    };

    let [page, v] = await open({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    const bar = await v.widget('breakdown_bar');
    await page.mouse.move(bar.x + 6, bar.y + bar.h / 2);
    await v.settled();
    await page.screenshot({ path: join(root, 'docs/screenshot.png') });
    await page.mouse.move(0, 0);
    await page.keyboard.press('Tab');  // the canvas
    for (let i = 0; i < 80 && (await v.state()).focus.id !== 'batch'; ++i) {
        await page.keyboard.press('Tab');
        await v.settled();
    }
    await page.keyboard.press('Escape');  // the focus stays on the field, outlined, without the text cursor
    await v.settled();
    await page.screenshot({ path: join(root, 'docs/screenshot-keyboard.png') });
    await page.close();

    [page, v] = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true, colorScheme: 'light' });
    await page.screenshot({ path: join(root, 'docs/screenshot-phone.png') });
    await page.close();
} finally {
    await browser.close();
    server.close();
}
