// One browser test file's server and browser (node:test hooks): serves the built `site` and starts
// Chromium before the file's tests, closes both after them. Kept apart from visitor.mjs, which
// scripts/screenshots.mjs imports outside node:test.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';

// Returns { url, browser }, filled in once the file's tests start.
export function useSite(site) {
    const live = { url: null, browser: null, server: null };
    before(async () => {
        assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
        ({ server: live.server, url: live.url } = await serveSite(site, { port: 0 }));
        live.browser = await launchChromium();
    });
    after(async () => {
        await live.browser?.close();
        live.server?.close();
    });
    return live;
}
