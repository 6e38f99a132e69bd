// Headless Debian Chromium for the browser test and the benchmark, driven by playwright-core.
// Flags from the team's toolchain notes: run as root without a sandbox, render WebGL2 in software
// (SwiftShader), and never reach for the network. Playwright makes its own temporary profile.
import { chromium } from 'playwright-core';

export const kChromiumPath = process.env.VRAMCALC_CHROMIUM || '/usr/bin/chromium';

export function launchChromium() {
    return chromium.launch({
        executablePath: kChromiumPath,
        headless: true,
        args: [
            '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader',
        ],
    });
}
