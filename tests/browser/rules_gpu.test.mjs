// Browser test of issue 14 items 2 and 5: the page opens on the detailed model, a rule of thumb is
// shown as a comparison (the detailed answer above it, a button back) and names each input the user
// set that it ignores (QLoRA, a quantized format, the KV cache type); a custom GPU chosen on the page
// (memory, bandwidth, TFLOP/s) is the GPU of the headline, the verdict, the GPU table and the link,
// and a speed figure it leaves out reads "unknown". At a desktop size and on a phone (390x844, DPR 3).
//   VRAMCALC_SITE   the built site folder (default build/wasm/site)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const GiB = 2 ** 30;

let server, url, browser;
const consoleErrors = [];

async function open(options, fragment = '') {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(url + (fragment ? '#' + fragment : ''));
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    const v = new Visitor(page);
    await v.settled();
    return { page, v };
}

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

for (const [name, options] of [
    ['desktop 1440x900', { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' }],
    ['phone 390x844 DPR 3', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true }],
]) {
    test(`${name}: the detailed model is the answer, a rule of thumb a comparison that names what it ignores`, async () => {
        const { page, v } = await open(options);
        let s = await v.state();
        assert.equal(s.inputs.method, 'detailed', 'the page opens on the detailed model');
        assert.equal(s.result.method, 'detailed');
        assert.equal(await v.hook('widget', 'rule/answer'), null, 'no rule banner on the detailed model');

        // QLoRA of Llama-3.1 8B on an RTX 4090, under the quick rule.
        const { page: p2, v: v2 } = await open(options,
            'v=2&method=quick&task=finetune&training.finetune=qlora&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb');
        await page.context().close();
        s = await v2.state();
        assert.equal(s.link_error, '');
        assert.equal(s.inputs.method, 'quick');
        const detailed = s.comparison.detailed;
        assert.ok(detailed > 0 && s.comparison.quick > 2 * detailed, `quick ${s.comparison.quick} vs detailed ${detailed}`);
        await v2.widget('rule/answer');
        await v2.widget('rule/ignores/0');
        let text = await v2.hook('a11yText');
        assert.match(text, /Rule of thumb \(Quick method\)\s*a comparison, not the answer; the detailed model gives [\d.,]+ GB per GPU/);
        assert.match(text, /Ignored by this rule\s*Fine-tuning QLoRA: The quick rule sizes a full fine-tune/);
        // One click back to the answer.
        await v2.inView('rule/use_detailed', options.viewport.height);
        if (options.hasTouch) await v2.tap('rule/use_detailed');
        else await v2.click('rule/use_detailed');
        s = await v2.state();
        assert.equal(s.inputs.method, 'detailed');
        assert.equal(s.result.total_bytes, s.comparison.detailed);
        text = await v2.hook('a11yText');
        assert.doesNotMatch(text, /Ignored by this rule/);

        // Serving a Q4_K_M model with an FP8 KV cache under the guide's formula: both named.
        await p2.evaluate(() => { location.hash = 'v=2&method=guide&task=inference&model.preset=llama-3.1-8b&inference.weights=q4_k_m&inference.kv_dtype=fp8'; });
        await v2.settled();
        s = await v2.state();
        assert.equal(s.link_error, '');
        text = await v2.hook('a11yText');
        assert.match(text, /Ignored by this rule\s*Weight format [^:]*Q4_K_M[^:]*: The guide's formula counts/);
        assert.match(text, /Ignored by this rule\s*KV cache type fp8: the guide's KV term counts 2-byte values\./);
        await v2.widget('rule/ignores/1');
        await p2.context().close();
    });
}

test('desktop: a custom GPU is the GPU everywhere; missing speed figures are unknown', async () => {
    const options = { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' };
    const { page, v } = await open(options, 'v=2&task=inference&model.preset=llama-3.1-8b&gpu=h100-80gb');
    await v.inView('gpu', options.viewport.height);
    await v.pick('gpu', 'gpu/custom');
    let s = await v.state();
    assert.equal(s.inputs.inference.gpu_custom.name, 'My GPU');
    assert.equal(s.inputs.inference.gpu_custom.memory_gib, 79.6474609375, 'starts from the H100 it replaces');
    await v.inView('inference.gpu_custom.memory_gib', options.viewport.height);
    await v.typeInto('inference.gpu_custom.memory_gib', '32');
    await v.inView('inference.gpu_custom.bandwidth_gbps', options.viewport.height);
    await v.typeInto('inference.gpu_custom.bandwidth_gbps', '1000');
    await v.inView('inference.gpu_custom.bf16_tflops', options.viewport.height);
    await v.typeInto('inference.gpu_custom.bf16_tflops', '0');
    s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.inference.gpu_custom.memory_gib, 32);
    assert.equal(s.inputs.inference.gpu_custom.bandwidth_gbps, 1000);
    assert.equal(s.inputs.inference.gpu_custom.bf16_tflops, 0);
    let text = await v.hook('a11yText');
    assert.match(text, /GPU\s*My GPU/);
    assert.match(text, /On My GPU\s*(fits within the budget|over the budget|does not fit) \([\d.]+% of its memory\)/);
    assert.match(text, /Budget\s*vLLM reserves 90\.0% of 34\.36 GB/);
    assert.doesNotMatch(text, /On NVIDIA H100/);
    // Decode from the bandwidth; the prefill needs the TFLOP/s left at 0: unknown, not a bound.
    assert.ok(s.result.metrics.decode_tokens_per_s.value > 0);
    assert.equal(s.result.metrics.prefill_tokens_per_s.value, 0);
    assert.match(text, /Prefill speed\s*unknown/);
    assert.match(text, /Time to first token \(prefill\)\s*unknown/);
    await v.widget('fit/custom');  // its row in the GPU table
    // With its TFLOP/s the prefill is back; the link carries the custom GPU and reads back to it.
    await v.inView('inference.gpu_custom.bf16_tflops', options.viewport.height);
    await v.typeInto('inference.gpu_custom.bf16_tflops', '165');
    s = await v.state();
    assert.ok(s.result.metrics.prefill_tokens_per_s.value > 0);
    assert.match(s.fragment, /inference\.gpu_custom\.memory_gib=32/);
    const { v: v2, page: p2 } = await open(options, s.fragment);
    const back = await v2.state();
    assert.deepEqual(back.inputs.inference.gpu_custom, s.inputs.inference.gpu_custom);
    assert.equal(back.result.total_bytes, s.result.total_bytes);
    assert.match(await v2.hook('a11yText'), /On My GPU/);
    // A catalog GPU chosen again (its row in the GPU table) replaces the custom one.
    await v2.inView('fit/h100-80gb', options.viewport.height);
    await v2.click('fit/h100-80gb');
    const after = await v2.state();
    assert.equal(after.inputs.inference.gpu_custom, undefined);
    assert.equal(after.inputs.gpu, 'h100-80gb');
    assert.match(await v2.hook('a11yText'), /On NVIDIA H100/);
    await p2.context().close();
    await page.context().close();
    void GiB;
});

test('desktop: Custom GPU from a Mac keeps "Unified memory" ticked and the Mac\'s answer; unticked it is a card; the link keeps it', async () => {
    const options = { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' };
    // Llama-3.1-8B Q8_0 under llama.cpp on the M4 Max 64GB; Custom GPU starts from its figures.
    const { page, v } = await open(options, 'v=2&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=apple-m4-max-64gb'
        + '&inference.engine=llama.cpp&inference.weights=q8_0');
    const mac = await v.state();
    await v.inView('gpu', options.viewport.height);
    await v.pick('gpu', 'gpu/custom');
    let s = await v.state();
    assert.equal(s.inputs.inference.gpu_custom.unified, true);
    assert.equal(s.inputs.inference.gpu_custom.memory_gib, 64);
    assert.equal(s.result.total_bytes, mac.result.total_bytes);
    assert.deepEqual(s.result.metrics, mac.result.metrics);
    assert.equal(s.result.metrics.gpu_working_set_bytes.value, 48 * GiB);  // 64 GiB x 3/4
    assert.match(s.fragment, /inference\.gpu_custom\.unified=true/);
    // Unticked: a 64 GiB card, no working-set limit, a CUDA context.
    await v.inView('inference.gpu_custom.unified', options.viewport.height);
    await v.click('inference.gpu_custom.unified');
    s = await v.state();
    assert.equal(s.inputs.inference.gpu_custom.unified, undefined);
    assert.equal(s.result.metrics.gpu_working_set_bytes, undefined);
    assert.equal(s.result.components.find((c) => c.key === 'runtime').label, 'CUDA context');
    // Ticked again, and the link reads back to the same Mac.
    await v.click('inference.gpu_custom.unified');
    s = await v.state();
    assert.equal(s.inputs.inference.gpu_custom.unified, true);
    assert.equal(s.result.components.find((c) => c.key === 'runtime').label, 'Metal context');
    const { v: v2, page: p2 } = await open(options, s.fragment);
    const back = await v2.state();
    assert.deepEqual(back.inputs.inference.gpu_custom, s.inputs.inference.gpu_custom);
    assert.equal(back.result.total_bytes, mac.result.total_bytes);
    await p2.context().close();
    await page.context().close();
});

test('no errors in the console', () => {
    assert.deepEqual(consoleErrors, []);
});
