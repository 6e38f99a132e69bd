// Browser test of the page's local-inference view (shell/ui_local.cpp, docs/local.md): opened with
// a llama.cpp link (Qwen3-30B-A3B Q4_K_M on an RTX 4090 at -ngl 30), the per-device buffers and the
// launch command are the CLI's for the same flags; Copy puts the command on the clipboard; -ngl
// changed on the page changes the buffers as the CLI does; the llama.cpp fields are on the page and
// in the link, which reads back to the same state; "KV cache in system RAM" (-nkvo) moves the KV; a
// draft model's --draft-max and acceptance inputs appear with it and SPEED shows the speed-up;
// a typed -ot moves the experts of some layers, and a bad pattern is refused under its row.
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
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const MiB = 2 ** 20;
const kViewport = { width: 1280, height: 1800 };

const kFragment = 'v=1&method=detailed&task=inference&model.preset=qwen3-30b-a3b&gpu=rtx-4090-24gb&inference.engine=llama.cpp'
    + '&inference.weights=q4_k_m&inference.context=8192&inference.concurrency=1&inference.llamacpp.n_gpu_layers=30';
const kFlags = ['--method', 'detailed', '--task', 'inference', '--preset', 'qwen3-30b-a3b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
    '--weights', 'q4_k_m', '-c', '8192', '-np', '1'];
const cli = (args) => JSON.parse(execFileSync(cliBin, [...kFlags, ...args, '--format', 'json'], { encoding: 'utf8' }));

let server, url, browser, context, page, v;
const consoleErrors = [];

async function open(fragment) {
    const p = await context.newPage();
    p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await p.goto(`${url}#${fragment}`);
    await p.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    const w = new Visitor(p);
    await w.settled();
    return [p, w];
}

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    ({ server, url } = await serveSite(site, { port: 0 }));
    url = url.replace(/\/$/, '') + '/';
    browser = await launchChromium();
    context = await browser.newContext({ viewport: kViewport, colorScheme: 'dark' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
    [page, v] = await open(kFragment);
});

after(async () => {
    await browser?.close();
    server?.close();
});

test('a llama.cpp link: the devices and the launch command are the CLI\'s for -ngl 30, the local answers shown', async () => {
    const s = await v.state();
    assert.equal(s.link_error, '');
    assert.equal(s.error, null);
    assert.equal(s.inputs.inference.llamacpp.n_gpu_layers, 30);
    const fromCli = cli(['-ngl', '30']);
    assert.deepEqual(s.result.devices, fromCli.devices);
    assert.equal(s.result.launch_command, 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 8192 -ngl 30 -fa on');
    assert.equal(s.result.launch_command, fromCli.launch_command);
    const [gpu, host] = s.result.devices;
    // -ngl 30: the output layer and layers 19-47 (llama.cpp PR #18148; tests/cli/local.test.mjs)
    assert.ok(Math.abs(gpu.total_bytes / MiB - 11889.35) < 0.01, `CUDA0 ${gpu.total_bytes / MiB} MiB`);  // the RTX 4090's 465 MiB CUDA context
    assert.ok(Math.abs(host.total_bytes / MiB - 7384.77) < 0.01, `CUDA_Host ${host.total_bytes / MiB} MiB`);
    // The repeating layers on the GPU beside the -ngl that places them with the output layer, in the summary too.
    assert.deepEqual(s.result.metrics.gpu_layers, { label: 'Repeating layers on the GPU (-ngl 30)', unit: 'layers', value: 29 });
    assert.match(await v.hook('a11yText'), /Repeating layers on the GPU \(-ngl 30\)\s*29 layers/);
    // Drawn: a row per device, the command, its Copy button, the local answers.
    const w = await v.hook('widgets');
    for (const id of ['device/CUDA0', 'device/CUDA_Host', 'launch_command', 'copy_launch', 'answer/max_gpu_layers', 'answer/max_gpu_experts',
        'answer/best_local_format']) assert.ok(w[id], `no widget ${id}`);
    // The answers are `vramcalc solve`'s.
    for (const q of ['max_gpu_layers', 'max_gpu_experts']) {
        const a = JSON.parse(execFileSync(cliBin, ['solve', q, ...kFlags, '-ngl', '30', '--format', 'json'], { encoding: 'utf8' }));
        assert.equal(s.answers[q].value, a.value, q);
    }
    assert.ok(s.answers.max_gpu_layers.value > 30, 'a 24 GB card holds more than 30 layers at 8K');
    // Every llama.cpp input has its widget.
    for (const id of ['inference.llamacpp.n_gpu_layers', 'inference.llamacpp.n_cpu_moe', 'inference.llamacpp.n_ubatch', 'inference.llamacpp.flash_attn',
        'inference.llamacpp.kv_dtype_v', 'inference.llamacpp.mmproj.preset', 'inference.llamacpp.draft.preset', 'inference.llamacpp.lora_mib',
        'inference.llamacpp.profile', 'inference.llamacpp.no_kv_offload', 'inference.host.ram_gib', 'inference.host.bandwidth_gbps', 'inference.host.channels', 'inference.host.mts'])
        assert.ok(w[id], `no widget ${id}`);
    assert.deepEqual(consoleErrors, []);
});

test('Copy command puts the launch command on the clipboard', async () => {
    await v.inView('copy_launch');
    await v.click('copy_launch');
    assert.equal(await v.hook('lastCopied'), 'llama-server -m qwen3-30b-a3b-Q4_K_M.gguf -c 8192 -ngl 30 -fa on');
    assert.equal((await v.state()).notice, 'Command copied');
});

test('-ngl changed on the page: one more layer on the GPU, the CLI\'s buffers for -ngl 31, the link carries it', async () => {
    const before = (await v.state()).result.devices;
    await v.inView('inference.llamacpp.n_gpu_layers/inc');
    await v.click('inference.llamacpp.n_gpu_layers/inc');
    const s = await v.state();
    assert.equal(s.inputs.inference.llamacpp.n_gpu_layers, 31);
    assert.deepEqual(s.result.devices, cli(['-ngl', '31']).devices);
    assert.match(s.result.launch_command, / -ngl 31 /);
    // One Qwen3 layer's KV at 8,192 cells: 8192 x 2 x 4 heads x 128 x 2 B = 16 MiB moves to the GPU.
    assert.equal((s.result.devices[0].kv_bytes - before[0].kv_bytes) / MiB, 16);
    assert.equal((before[1].kv_bytes - s.result.devices[1].kv_bytes) / MiB, 16);
    assert.match(s.fragment, /inference\.llamacpp\.n_gpu_layers=31/);
});

test('"KV cache in system RAM" ticked: -nkvo, the whole 768 MiB KV in system RAM, the CLI\'s buffers; the link carries it; cleared again', async () => {
    const before = (await v.state()).result.devices;
    await v.inView('inference.llamacpp.no_kv_offload');
    await v.click('inference.llamacpp.no_kv_offload');
    let s = await v.state();
    assert.equal(s.inputs.inference.llamacpp.no_kv_offload, true);
    assert.deepEqual(s.result.devices, cli(['-ngl', '31', '-nkvo']).devices);
    assert.match(s.result.launch_command, / -ngl 31 -fa on -nkvo$/);
    // 48 layers x 8192 cells x 2 x 4 heads x 128 x 2 B = 768 MiB, all in system RAM; the GPU's 480 MiB
    // (-ngl 31: the output layer and 30 layers) leave it.
    assert.equal(s.result.devices[0].kv_bytes, 0);
    assert.equal(s.result.devices[1].kv_bytes / MiB, 768);
    assert.equal((before[0].total_bytes - s.result.devices[0].total_bytes) / MiB, 480);
    assert.match(s.fragment, /inference\.llamacpp\.no_kv_offload=true/);
    await v.click('inference.llamacpp.no_kv_offload');
    s = await v.state();
    assert.equal(s.inputs.inference.llamacpp.no_kv_offload, undefined);  // the default is left out of the config
    assert.doesNotMatch(s.fragment, /no_kv_offload/);
    assert.deepEqual(s.result.devices, before);
});

test('-ot typed on the page: the experts of layers 18-29 in system RAM, the CLI\'s buffers; a bad pattern shows the field\'s message and keeps the result', async () => {
    const before = await v.state();
    const ot = 'blk\\.(1[6-9]|2[0-9])\\.ffn_.*_exps\\.=CPU';
    await v.inView('inference.llamacpp.override_tensor');
    await v.typeInto('inference.llamacpp.override_tensor', ot);
    let s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.inference.llamacpp.override_tensor, ot);
    assert.deepEqual(s.result.devices, cli(['-ngl', '31', '-ot', ot]).devices);
    assert.ok(s.result.launch_command.endsWith(` -ngl 31 -fa on -ot '${ot}'`), s.result.launch_command);
    // -ngl 31 keeps the output layer and layers 18-47 on the GPU (llama.cpp PR #18148: output first;
    // 16 and 17 are CPU layers already): 12 layers' experts move, each layer's own: gate and up Q4_K
    // (113,246,208 B each), down Q6_K (165,150,720 B) in the use_more_bits layers 20, 23, 26, 29, else
    // Q4_K: 12 x 2 x 113,246,208 + 4 x 165,150,720 + 8 x 113,246,208 = 4,284,481,536 B.
    assert.ok(Math.abs(before.result.devices[0].model_bytes - s.result.devices[0].model_bytes - 4284481536) < 1);
    assert.match(s.fragment, /inference\.llamacpp\.override_tensor=/);
    // A bad pattern: the engine's message under the row, the last valid result kept.
    await v.typeInto('inference.llamacpp.override_tensor', 'blk\\.(1[6-9]=CPU');
    const bad = await v.state();
    assert.equal(bad.error?.field, 'inference.llamacpp.override_tensor');
    assert.match(bad.error.message, /unbalanced parenthesis/);
    assert.deepEqual(bad.result, s.result);
    assert.ok((await v.widget('inference.llamacpp.override_tensor/error')).h > 0, 'the message is drawn under the row');
    // Cleared: no overrides, the buffers of before.
    await v.click('inference.llamacpp.override_tensor');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await v.settled();
    s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.inference.llamacpp.override_tensor, undefined);  // the default is left out of the config
    assert.deepEqual(s.result.devices, before.result.devices);
});

test('projector and Ollama profile picked on the page; the link reads back to the same state and buffers', async () => {
    await v.inView('inference.llamacpp.mmproj.preset');
    await v.pick('inference.llamacpp.mmproj.preset', 'inference.llamacpp.mmproj.preset/clip-vit-l-14-336');
    let s = await v.state();
    assert.equal(s.inputs.inference.llamacpp.mmproj.preset, 'clip-vit-l-14-336');
    assert.match(s.result.launch_command, / --mmproj mmproj-clip-vit-l-14-336\.gguf$/);
    assert.deepEqual(s.result.devices, cli(['-ngl', '31', '--mmproj', 'clip-vit-l-14-336']).devices);
    assert.ok((await v.hook('widgets'))['inference.llamacpp.draft.preset'], 'the draft combo before the profile');
    await v.inView('inference.llamacpp.profile');
    await v.click('inference.llamacpp.profile');
    s = await v.state();
    assert.equal(s.inputs.inference.llamacpp.profile, 'ollama');
    // Ollama runs no draft model: the combo goes (as -nkvo's and -ot's rows do).
    assert.equal((await v.hook('widgets'))['inference.llamacpp.draft.preset'], undefined, 'no draft combo under Ollama');
    assert.equal(s.inputs.inference.context, 32768, 'Ollama\'s num_ctx on a 24 GB card');
    assert.equal(s.result.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 32768; PARAMETER num_gpu 31' +
        '  # automatic num_batch 512: llama-server -b 512 -ub 512');
    await v.inView('inference.host.ram_gib/inc');
    await v.click('inference.host.ram_gib/inc');
    s = await v.state();
    assert.ok(s.inputs.inference.host.ram_gib > 0);

    const [other, w] = await open(s.fragment);
    const back = await w.state();
    assert.equal(back.link_error, '');
    assert.deepEqual(back.inputs, s.inputs);
    assert.deepEqual(back.result.devices, s.result.devices);
    assert.equal(back.result.launch_command, s.result.launch_command);
    assert.equal(back.fragment, s.fragment);
    await other.close();
    assert.deepEqual(consoleErrors, []);
});

test('a draft model chosen: --draft-max and acceptance inputs beside it, the speed with the draft and the speed-up the CLI gives; no gain said', async () => {
    // Llama-3.1-8B Q4_K_M + Llama-3.2-1B Q8_0 on an RTX 4090 at 8192 tokens (tests/unit/test_llamacpp.cpp has the
    // arithmetic): a = 0.8, --draft-max 8: 284.44 tokens/s against 141.69, 2.007x.
    const fragment = 'v=1&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=rtx-4090-24gb&inference.engine=llama.cpp'
        + '&inference.weights=q4_k_m&inference.context=8192&inference.concurrency=1&inference.llamacpp.draft.preset=llama-3.2-1b';
    const [p, w] = await open(fragment);
    let widgets = await w.hook('widgets');
    for (const id of ['inference.llamacpp.draft.max_tokens', 'inference.llamacpp.draft.acceptance', 'metric/decode_tokens_per_s_draft', 'metric/speculative_speedup'])
        assert.ok(widgets[id], `no widget ${id}`);
    await w.inView('inference.llamacpp.draft.acceptance');
    await w.typeInto('inference.llamacpp.draft.acceptance', '0.8');
    await w.inView('inference.llamacpp.draft.max_tokens');
    await w.typeInto('inference.llamacpp.draft.max_tokens', '8');
    let s = await w.state();
    assert.equal(s.inputs.inference.llamacpp.draft.acceptance, 0.8);
    assert.equal(s.inputs.inference.llamacpp.draft.max_tokens, 8);
    const l8 = ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
        '--weights', 'q4_k_m', '-c', '8192', '--draft', 'llama-3.2-1b', '--draft-max', '8', '--format', 'json'];
    const fromCli = JSON.parse(execFileSync(cliBin, [...l8, '--draft-acceptance', '0.8'], { encoding: 'utf8' }));
    assert.deepEqual(s.result.metrics, fromCli.metrics);
    assert.ok(Math.abs(s.result.metrics.decode_tokens_per_s_draft.value / 284.44 - 1) < 1e-4);
    assert.match(s.result.launch_command, / -md llama-3\.2-1b-Q8_0\.gguf -ngld 99 --draft-max 8$/);
    assert.match(s.fragment, /inference\.llamacpp\.draft\.acceptance=0\.8/);
    assert.match(s.fragment, /inference\.llamacpp\.draft\.max_tokens=8/);
    // Acceptance 0: slower with the draft, and the notes say so.
    await w.typeInto('inference.llamacpp.draft.acceptance', '0');
    s = await w.state();
    assert.ok(s.result.metrics.speculative_speedup.value < 1);
    assert.ok(s.result.notes.some((n) => /the draft gives no gain here/.test(n)));
    // Out of range: refused with the field's range, nothing crashes.
    const last = s.result;
    await w.typeInto('inference.llamacpp.draft.acceptance', '1.5');
    s = await w.state();
    assert.equal(s.error?.field, 'inference.llamacpp.draft.acceptance');
    assert.equal(s.error.message, 'inference.llamacpp.draft.acceptance must be a number in [0, 1], got 1.5');
    assert.deepEqual(s.result, last, 'the last valid result stays');
    await w.typeInto('inference.llamacpp.draft.acceptance', '0.8');
    assert.equal((await w.state()).error, null);
    await p.close();
    assert.deepEqual(consoleErrors, []);
});

test('a Mac is one machine on the page: its GPU table row says which Mac would hold it, never a count of Macs; the result is the CLI\'s', async () => {
    // Llama-3.1-70B Q8_0 under llama.cpp on an M2 Max 96GB: its 72 GiB working set x 75% is too little.
    const [p, w] = await open('v=2&method=detailed&task=inference&model.preset=llama-3.1-70b&gpu=apple-m2-max-96gb'
        + '&inference.engine=llama.cpp&inference.weights=q8_0');
    const s = await w.state();
    const fromCli = JSON.parse(execFileSync(cliBin, ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b',
        '--gpu', 'apple-m2-max-96gb', '--engine', 'llama.cpp', '--weights', 'q8_0', '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(s.result.fits, fromCli.fits);
    for (const f of s.result.fits.filter((x) => x.gpu.startsWith('apple-'))) assert.ok(f.gpus_needed <= 1, `${f.gpu}: ${f.gpus_needed}`);
    const m2 = s.result.fits.find((f) => f.gpu === 'apple-m2-max-96gb');
    assert.equal(m2.gpus_needed, 0);
    assert.ok(m2.mac_needed_bytes > 96 * 2 ** 30);
    // The row's GPUs cell names the Mac (its widget), and the column header carries the rule.
    await w.inView('fit/apple-m2-max-96gb');
    await w.widget('fit/apple-m2-max-96gb/mac');
    await w.inView('fits/gpus_header');
    await w.widget('fits/gpus_header');
    await p.close();
    assert.deepEqual(consoleErrors, []);
});

test('vLLM on a Mac on the page: the engine row shows why (no Metal backend); llama.cpp on the same Mac gives a result', async () => {
    const [p, w] = await open('v=2&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=apple-m4-max-128gb&inference.engine=vllm');
    const s = await w.state();
    assert.equal(s.error.field, 'inference.engine');
    assert.match(s.error.message, /^inference\.engine "vllm" has no Metal backend for the Apple M4 Max 128GB/);
    await p.close();
    const [q, x] = await open('v=2&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=apple-m4-max-128gb&inference.engine=llama.cpp');
    assert.equal((await x.state()).error, null);
    await q.close();
    // vLLM on an H100: the GPU table's Mac rows say why they hold nothing (no_backend, the CLI's
    // rows), and their GPUs cell ("no Metal", the reason in its tooltip) is the Mac cell's widget.
    const [r, y] = await open('v=2&method=detailed&task=inference&model.preset=llama-3.1-8b&gpu=h100-80gb&inference.engine=vllm');
    const h = await y.state();
    const fromCli = JSON.parse(execFileSync(cliBin, ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-8b',
        '--gpu', 'h100-80gb', '--engine', 'vllm', '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(h.result.fits, fromCli.fits);
    assert.equal(h.result.fits.find((f) => f.gpu === 'apple-m4-max-128gb').no_backend, true);
    assert.ok(h.result.notes.every((n) => !/Mac/.test(n)));
    await y.inView('fit/apple-m4-max-128gb');
    await y.widget('fit/apple-m4-max-128gb/mac');
    await r.close();
    assert.deepEqual(consoleErrors, []);
});

test('vLLM below a format\'s compute capability on the page: gpt-oss\'s MXFP4 on a T4 is an error naming inference.weights; on an H100 the T4 row says "refused"', async () => {
    const [p, w] = await open('v=2&method=detailed&task=inference&model.preset=gpt-oss-20b&gpu=t4-16gb&inference.engine=vllm&inference.weights=mxfp4');
    const s = await w.state();
    assert.equal(s.error.field, 'inference.weights');
    assert.match(s.error.message, /needs compute capability 8\.0 under vLLM \(mxfp4\), and the NVIDIA T4 16GB has 7\.5/);
    await p.close();
    // On an H100: the V100 and T4 rows hold vLLM's refusal (no_backend, as the CLI's), their GPUs cell a "refused" widget.
    const [r, y] = await open('v=2&method=detailed&task=inference&model.preset=gpt-oss-20b&gpu=h100-80gb&inference.engine=vllm&inference.weights=mxfp4');
    const h = await y.state();
    const fromCli = JSON.parse(execFileSync(cliBin, ['--method', 'detailed', '--task', 'inference', '--preset', 'gpt-oss-20b',
        '--gpu', 'h100-80gb', '--engine', 'vllm', '--weights', 'mxfp4', '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(h.result.fits, fromCli.fits);
    assert.equal(h.result.fits.find((f) => f.gpu === 't4-16gb').no_backend, true);
    await y.inView('fit/t4-16gb');
    await y.widget('fit/t4-16gb/refused');
    await r.close();
    assert.deepEqual(consoleErrors, []);
});

// Llama-3.1-70B Q4_K_M on one RTX 4090 under llama.cpp: the CLI's JSON for `flags`, and the page
// opened on the link with `query` added, its state checked against the CLI's devices.
const cli70b = (flags) => JSON.parse(execFileSync(cliBin, ['--method', 'detailed', '--task', 'inference', '--preset', 'llama-3.1-70b',
    '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp', '--weights', 'q4_k_m', ...flags, '--format', 'json'], { encoding: 'utf8' }));
async function open70b(query, flags) {
    const [p, w] = await open('v=2&method=detailed&task=inference&model.preset=llama-3.1-70b&gpu=rtx-4090-24gb'
        + '&inference.engine=llama.cpp&inference.weights=q4_k_m' + query);
    const s = await w.state();
    assert.equal(s.error, null);
    assert.deepEqual(s.result.devices, cli70b(flags).devices);
    return [p, w, s];
}

test('Ollama without num_gpu on the page: the layers its --fit puts on the GPU, in the -ngl row\'s label, the CLI\'s buffers', async () => {
    // Llama-3.1-70B Q4_K_M on one RTX 4090 at Ollama's 32,768 tokens: num_gpu 36, the output layer and 35 of 80 layers
    // (llama.cpp PR #18148: output first; tests/unit/test_llamacpp.cpp).
    const [p, w, s] = await open70b('&inference.context=32768&inference.llamacpp.profile=ollama', ['--profile', 'ollama']);
    assert.equal(s.result.launch_command, 'OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1 ollama serve; PARAMETER num_ctx 32768' +
        '  # automatic num_batch 512: llama-server -b 512 -ub 512');
    assert.equal(s.result.devices[0].kv_bytes / MiB, 35 * 128);
    await w.inView('inference.llamacpp.n_gpu_layers');
    const labels = await p.evaluate(() => Array.from(document.querySelectorAll('#a11y-fields label'), (l) => l.textContent));
    assert.ok(labels.includes('GPU layers (num_gpu, -1: auto = 36)'), labels.join(' | '));
    // -ub unset: Ollama's automatic num_batch in the row's label (512: the 70B's file is over 75% of the card).
    assert.ok(labels.includes('Physical batch (num_batch, 0: auto = 512)'), labels.join(' | '));
    await p.close();
    assert.deepEqual(consoleErrors, []);
});

test('plain llama-server without -ngl on the page: its default --fit in the -ngl row\'s label, the CLI\'s buffers; "Fit to GPU memory" cleared: every layer', async () => {
    // Llama-3.1-70B Q4_K_M on one RTX 4090 at 8,192 tokens: -ngl 42, the output layer and 41 of 80 layers (tests/unit/test_llamacpp.cpp).
    let [p, w, s] = await open70b('&inference.context=8192', ['-c', '8192']);
    assert.equal(s.result.launch_command, 'llama-server -m llama-3.1-70b-Q4_K_M.gguf -c 8192 -fa on');
    assert.equal(s.result.devices[0].kv_bytes / MiB, 41 * 32);
    await w.inView('inference.llamacpp.n_gpu_layers');
    const labels = () => p.evaluate(() => Array.from(document.querySelectorAll('#a11y-fields label'), (l) => l.textContent));
    assert.ok((await labels()).includes('GPU layers (-ngl, -1: auto = 42)'), (await labels()).join(' | '));
    // "Output layer first (-ngl)" cleared: an older llama.cpp, the last 42 layers, the CLI's buffers.
    await w.inView('inference.llamacpp.output_first');
    await w.click('inference.llamacpp.output_first');
    s = await w.state();
    assert.equal(s.inputs.inference.llamacpp.output_first, false);
    assert.match(s.fragment, /inference\.llamacpp\.output_first=false/);
    assert.equal(s.result.devices[0].kv_bytes / MiB, 42 * 32);
    assert.deepEqual(s.result.devices, cli70b(['-c', '8192', '--set', 'inference.llamacpp.output_first=false']).devices);
    await w.click('inference.llamacpp.output_first');
    s = await w.state();
    assert.equal(s.result.devices[0].kv_bytes / MiB, 41 * 32);
    await w.inView('inference.llamacpp.fit');
    await w.click('inference.llamacpp.fit');
    s = await w.state();
    assert.equal(s.inputs.inference.llamacpp.fit, false);
    assert.match(s.fragment, /inference\.llamacpp\.fit=false/);
    assert.match(s.result.launch_command, / -ngl 81 -fa on$/);
    assert.deepEqual(s.result.devices, cli70b(['-c', '8192', '--fit', 'off']).devices);
    await p.close();
    // The link reads back to every layer on the GPU, and the -ngl row says -1 is all.
    const [p2, w2] = await open(s.fragment);
    assert.match((await w2.state()).result.launch_command, / -ngl 81 -fa on$/);
    await w2.inView('inference.llamacpp.n_gpu_layers');
    const labels2 = await p2.evaluate(() => Array.from(document.querySelectorAll('#a11y-fields label'), (l) => l.textContent));
    assert.ok(labels2.includes('GPU layers (-ngl, -1: all)'), labels2.join(' | '));
    await p2.close();
    assert.deepEqual(consoleErrors, []);
});

test('system RAM of no stated size: the verdict line says the GPU part fits and 537.19 GB of RAM is not checked; with SYSTEM RAM it fits', async () => {
    // DeepSeek-V3 Q6_K on one RTX 4090 at 4,096 tokens: --fit keeps the routed experts of its 58 MoE
    // layers in RAM (760,166,400 + 58 x 9,248,440,320 + 23,068,672 + 517,120 B; tests/unit/test_llamacpp.cpp).
    const base = 'v=2&method=detailed&task=inference&model.preset=deepseek-v3&gpu=rtx-4090-24gb&inference.engine=llama.cpp'
        + '&inference.weights=q6_k&inference.context=4096';
    const flags = ['--method', 'detailed', '--task', 'inference', '--preset', 'deepseek-v3', '--gpu', 'rtx-4090-24gb', '--engine', 'llama.cpp',
        '--weights', 'q6_k', '-c', '4096'];
    let [p, w] = await open(base);
    let s = await w.state();
    assert.equal(s.error, null);
    const fromCli = JSON.parse(execFileSync(cliBin, [...flags, '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual(s.result.fits, fromCli.fits);
    const f = s.result.fits.find((x) => x.gpu === 'rtx-4090-24gb');
    assert.deepEqual([f.within_target, f.gpu_within_target], [false, true]);
    assert.equal(Math.round(f.needs_ram_bytes), 760166400 + 58 * 9248440320 + 23068672 + 517120);
    await w.widget('headline');
    assert.match(await w.hook('a11yText'),
        /On NVIDIA GeForce RTX 4090 24GB\s*GPU part fits within the budget; needs 537\.19 GB of system RAM, not checked \(SYSTEM RAM\) \(68\.9% of its memory\)/);
    // The WHAT FITS answers follow the same rule: the longest context, the model's 163,840-token window
    // (--fit placed again there: the output layer and 50 layers on the card, every routed expert in
    // RAM), is the GPU part's, and its layout needs the RAM the estimate at -c 163840 gives, said under
    // the value (drawn) and in the summary; `vramcalc solve`'s figure.
    const ctx = JSON.parse(execFileSync(cliBin, ['solve', 'max_context', ...flags, '--format', 'json'], { encoding: 'utf8' }));
    assert.deepEqual([s.answers.max_context.value, s.answers.max_context.needs_ram_bytes], [163840, ctx.needs_ram_bytes]);
    const window = JSON.parse(execFileSync(cliBin, [...flags, '-c', '163840', '--format', 'json'], { encoding: 'utf8' }));
    assert.equal(ctx.needs_ram_bytes, window.metrics.host_total_bytes.value);
    assert.ok((await w.hook('widgets'))['answer/max_context'], 'no widget answer/max_context');
    assert.match(await w.hook('a11yText'),
        /Longest context at the concurrency\s*[^\n]*\(the GPU part alone; needs 542\.91 GB of system RAM, not checked \(SYSTEM RAM\)\)/);
    await p.close();
    // 1,024 GiB of system RAM given: checked, and within the target.
    [p, w] = await open(base + '&inference.host.ram_gib=1024');
    s = await w.state();
    assert.equal(s.result.fits.find((x) => x.gpu === 'rtx-4090-24gb').within_target, true);
    assert.match(await w.hook('a11yText'), /On NVIDIA GeForce RTX 4090 24GB\s*fits within the budget \(68\.9% of its memory\)/);
    assert.equal(s.answers.max_context.needs_ram_bytes, 0);
    assert.doesNotMatch(await w.hook('a11yText'), /the GPU part alone/);
    await p.close();
    assert.deepEqual(consoleErrors, []);
});
