// Browser test of SGLang on the page (shell/ui_inputs.cpp, docs/inference.md "SGLang"): the engine's
// "SGLang" entry switches a vLLM link to SGLang, its rows (and not vLLM's) are shown, the result is the
// CLI's for the same flags, a typed mem_fraction_static goes into the link, which reads back to the same
// state in a fresh page, and a bad value is refused under its row.
//   VRAMCALC_SITE   the built site folder (default build/wasm/site)
//   VRAMCALC_BIN    the native CLI (default build/native/vramcalc)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { openPage } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');

const kFragment = 'v=2&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=h100-80gb&inference.engine=vllm'
    + '&inference.weights=bf16&inference.context=8192&inference.concurrency=16';
const kFlags = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'h100-80gb', '--engine', 'sglang',
    '--weights', 'bf16', '--context-length', '8192', '-np', '16'];
const cli = (args) => JSON.parse(execFileSync(cliBin, [...kFlags, ...args, '--format', 'json'], { encoding: 'utf8' }));

let server, url, browser;
const consoleErrors = [];
const open = (fragment) => openPage(browser, url, 'desktop', fragment, consoleErrors);

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    ({ server, url } = await serveSite(site, { port: 0 }));
    url = url.replace(/\/$/, '') + '/';
    browser = await launchChromium();
});

after(async () => {
    await browser?.close();
    server?.close();
});

test('SGLang picked on the page: its rows alone, the CLI\'s result, mem_fraction_static in the link and back, a bad value refused', async () => {
    const [p, w] = await open(kFragment);
    let widgets = await w.hook('widgets');
    assert.ok(widgets['inference.vllm.gpu_memory_utilization'], 'vLLM\'s row under vLLM');
    assert.ok(!widgets['inference.sglang.mem_fraction_static'], 'no SGLang row under vLLM');
    await w.inView('inference.engine');
    await w.pick('inference.engine', 'inference.engine/sglang');
    let s = await w.state();
    assert.equal(s.inputs.inference.engine, 'sglang');
    widgets = await w.hook('widgets');
    for (const id of ['inference.sglang.mem_fraction_static', 'inference.sglang.chunked_prefill_size', 'inference.sglang.page_size'])
        assert.ok(widgets[id], `no widget ${id}`);
    assert.ok(!widgets['inference.vllm.gpu_memory_utilization'], 'no vLLM row under SGLang');
    // The page's result is the CLI's: SGLang's own fraction on the H100 (0.83) and its pool.
    let fromCli = cli([]);
    assert.deepEqual(s.result.metrics, fromCli.metrics);
    assert.equal(s.result.launch_command, fromCli.launch_command);
    assert.equal(s.result.metrics.sglang_mem_fraction_static.value, 0.83);
    // A typed fraction: the link carries it and the figures follow the CLI's --mem-fraction-static.
    await w.inView('inference.sglang.mem_fraction_static');
    await w.typeInto('inference.sglang.mem_fraction_static', '0.9');
    s = await w.state();
    assert.equal(s.inputs.inference.sglang.mem_fraction_static, 0.9);
    assert.match(s.fragment, /inference\.engine=sglang/);
    assert.match(s.fragment, /inference\.sglang\.mem_fraction_static=0\.9/);
    fromCli = cli(['--mem-fraction-static', '0.9']);
    assert.deepEqual(s.result.metrics, fromCli.metrics);
    // The link reads back to the same state and result in a fresh page.
    const [q, x] = await open(s.fragment);
    const back = await x.state();
    assert.equal(back.inputs.inference.engine, 'sglang');
    assert.equal(back.inputs.inference.sglang.mem_fraction_static, 0.9);
    assert.deepEqual(back.result.metrics, s.result.metrics);
    assert.equal(back.fragment, s.fragment);
    await q.close();
    // Out of range: refused with the field's range, the last valid result kept.
    const last = s.result;
    await w.typeInto('inference.sglang.mem_fraction_static', '1.5');
    s = await w.state();
    assert.equal(s.error?.field, 'inference.sglang.mem_fraction_static');
    assert.deepEqual(s.result, last, 'the last valid result stays');
    await p.close();
    assert.deepEqual(consoleErrors, []);
});
