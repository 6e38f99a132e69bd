// Browser test of local model import on the page (issue 13 item 5, docs/import.md): a GGUF picked
// with the model panel's "Import model file..." button, a GGUF dropped on the page, config.json text
// pasted, a config.json that lacks keys and a file that is not what its name says. The files are
// written here byte by byte (tests/import_files.mjs); the page's own wasm reads only the files'
// headers with File.slice, requests nothing and sends nothing, fills the model inputs (a custom
// architecture, the GGUF's per-tensor bytes) and the headline follows; a failure names what is wrong
// or missing and keeps the form. At a desktop size, on a phone (390x844 at DPR 3, touch), and in the
// single offline file (vramcalc.html alone in a folder, from file://, the network blocked).
//   VRAMCALC_SITE   the built site folder (default build/wasm/site)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { llamaGguf, llama70bGguf, mmprojGguf } from '../import_files.mjs';
import { launchChromium } from './chromium.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');

// Qwen2.5-7B's config.json keys (tests/fixtures/hf holds the published file).
const kQwenConfig = {
    architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584, intermediate_size: 18944, num_hidden_layers: 28,
    num_attention_heads: 28, num_key_value_heads: 4, vocab_size: 152064, max_position_embeddings: 32768, tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
};

let server, url, browser;
const consoleErrors = [];

async function open(options, address = url) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    if (options.offline) await context.route(/^(?!file:)/, (route) => route.abort());
    // The page's WebAssembly memory, caught at instantiation (streamed or from bytes): what an import costs it.
    await page.addInitScript(() => {
        for (const name of ['instantiate', 'instantiateStreaming']) {
            const f = WebAssembly[name];
            WebAssembly[name] = function () {
                return f.apply(this, arguments).then((r) => {
                    const exports = (r instanceof WebAssembly.Instance ? r : r.instance).exports;
                    window.wasmMemory = Object.values(exports).find((x) => x instanceof WebAssembly.Memory) || window.wasmMemory;
                    return r;
                });
            };
        }
    });
    await page.goto(address);
    await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    const v = new Visitor(page);
    await v.settled();
    // Every request the page makes from here on (there must be none: nothing is uploaded).
    const requests = [];
    page.on('request', (r) => requests.push(r.method() === 'GET' && !r.postData() ? r.url() : `${r.method()} ${r.url()} with data`));
    // What the page reads of each file: File.slice's ranges.
    await page.evaluate(() => {
        window.sliced = [];
        const slice = Blob.prototype.slice;
        Blob.prototype.slice = function (start, end) {
            window.sliced.push([start ?? 0, end ?? this.size, this.size]);
            return slice.apply(this, arguments);
        };
    });
    return { page, v, requests };
}

// The model panel's import line, once it says something new.
async function importMessage(page, previous = '') {
    await page.waitForFunction((p) => {
        const m = window.vramcalcImport.message();
        return m && m.message && m.message !== p;
    }, previous, { timeout: 30000 });
    return page.evaluate(() => window.vramcalcImport.message());
}

// Drops a file made of `base64` bytes (and `padding` zero bytes after them) on the canvas.
async function drop(page, name, base64, padding = 0) {
    await page.evaluate(([n, b, pad]) => {
        const bytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File(pad > 0 ? [bytes, new Uint8Array(pad)] : [bytes], n));
        const canvas = document.getElementById('canvas');
        canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [name, base64, padding]);
}

// Drops several files ([name, base64] pairs) on the canvas at once.
async function dropMany(page, files) {
    await page.evaluate((list) => {
        const dt = new DataTransfer();
        for (const [n, b] of list) dt.items.add(new File([Uint8Array.from(atob(b), (c) => c.charCodeAt(0))], n));
        const canvas = document.getElementById('canvas');
        canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
}

async function paste(page, text) {
    await page.evaluate((t) => {
        const dt = new DataTransfer();
        dt.setData('text/plain', t);
        document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, text);
}

// The whole model's weights (llama.cpp keeps the token embedding table in system RAM, off the GPU's weights).
const weights = (s) => s.result.metrics.weights_total_bytes.value;

// After tests/import_files.mjs's tiny GGUF was imported: the model panel's line and the inputs it filled.
async function importedTiny(page, v, tiny) {
    const m = await importMessage(page);
    await v.settled();
    assert.equal(m.problem, false, m.message);
    assert.match(m.message, /^Imported tiny\.gguf \(GGUF, llama\): .* parameters, weights [\d,]+ bytes from the file's 21 tensors/);
    const s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.task, 'inference');
    assert.equal(s.inputs.method, 'detailed');
    assert.equal(s.inputs.inference.engine, 'llama.cpp');
    assert.equal(s.inputs.inference.weights, 'q4_k_m');
    assert.equal(s.inputs.model.preset, undefined, 'a custom architecture, not a preset');
    assert.equal(s.inputs.model.name, 'Tiny Llama');
    assert.deepEqual([s.inputs.model.layers, s.inputs.model.hidden, s.inputs.model.heads, s.inputs.model.kv_heads, s.inputs.model.ffn, s.inputs.model.vocab],
        [2, 256, 4, 2, 512, 1000]);
    assert.equal(s.inputs.inference.weights_file.total_bytes, tiny.weightBytes);
    assert.equal(weights(s), tiny.weightBytes, 'the weights are the file\'s per-tensor bytes');
    return { m, s };
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

test('desktop: a GGUF picked with Import, dropped, config.json pasted, missing keys and a bad file', async () => {
    const { page, v, requests } = await open({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    const start = await v.state();
    assert.equal(start.error, null);

    // 1. The Import button opens the file picker; a GGUF picked fills the model and the headline follows.
    const tiny = llamaGguf({ name: 'Tiny Llama' });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10000 }), v.click('import')]);
    await chooser.setFiles({ name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: tiny.bytes });
    let { m, s } = await importedTiny(page, v, tiny);
    assert.notEqual(s.result.total_bytes, start.result.total_bytes, 'the headline follows');
    await v.widget('model.layers');  // the custom architecture editor shows what was read
    await v.widget('import/message');

    // 2. A 70B-shaped GGUF (an 8.3 MB header) before 64 MiB of tensor data, dropped on the page:
    // only the header is read, each byte once: 4 MiB, then the rest of the header as the reader
    // estimated it (it was 4 MiB and then 16 MiB from the start again: 21 MB).
    const big = llama70bGguf();
    const pad = 64 << 20;
    await page.evaluate(() => { window.sliced = []; });
    await drop(page, 'llama70b.gguf', big.bytes.toString('base64'), pad);
    m = await importMessage(page, m.message);
    await v.settled();
    assert.match(m.message, /^Imported llama70b\.gguf \(GGUF, llama\)/);
    s = await v.state();
    assert.equal(s.inputs.model.layers, 80);
    assert.equal(s.inputs.model.name, 'Llama-3 70B shaped');
    assert.equal(weights(s), big.weightBytes);
    const sliced = await page.evaluate(() => window.sliced);
    const size = big.bytes.length + pad;
    const read = sliced.reduce((a, [b, e]) => a + (e - b), 0);
    assert.deepEqual(sliced.map(([b, e, n]) => [b, n]), [[0, size], [4 << 20, size]], JSON.stringify(sliced));
    assert.equal(sliced[1][0], sliced[0][1], 'the second slice starts where the first ended');
    assert.ok(read >= big.bytes.length && read < 1.2 * big.bytes.length, `read ${read} bytes for an ${big.bytes.length}-byte header`);
    // The page's wasm heap holds the header once (16 MiB at start; it grew to 48.8 MB with the 21 MB read).
    const memory = await page.evaluate(() => window.wasmMemory.buffer.byteLength);
    assert.ok(memory <= 32 << 20, `wasm memory ${memory} bytes after the import`);

    // 3. config.json text pasted: the model becomes Qwen2.5-7B's architecture; the GGUF's bytes go.
    await paste(page, JSON.stringify(kQwenConfig, null, 2));
    m = await importMessage(page, m.message);
    await v.settled();
    assert.match(m.message, /^Imported pasted config\.json \(config\.json, Qwen2ForCausalLM\): 7,615,616,512 parameters/);
    s = await v.state();
    assert.equal(s.error, null);
    assert.deepEqual([s.inputs.model.layers, s.inputs.model.hidden, s.inputs.model.kv_heads, s.inputs.model.vocab], [28, 3584, 4, 152064]);
    assert.equal(s.inputs.inference.weights_file, undefined, 'the previous file\'s bytes are dropped with its model');
    assert.equal(s.model_params_b, 7.615616512);
    const valid = s.result.total_bytes;

    // 4. A config.json without its head count: the message names the keys, the form keeps what was
    // read (the heads field marked), and the last valid result stays.
    const partial = { ...kQwenConfig, num_hidden_layers: 40 };
    delete partial.num_attention_heads;
    await paste(page, JSON.stringify(partial));
    m = await importMessage(page, m.message);
    await v.settled();
    assert.equal(m.problem, true);
    assert.match(m.message, /^pasted config\.json lacks num_attention_heads, n_head: .*custom architecture/);
    s = await v.state();
    assert.equal(s.inputs.model.layers, 40, 'what was read is in the form');
    assert.equal(s.inputs.model.heads, 0);
    assert.equal(s.error.field, 'model.heads');
    assert.equal(s.result.total_bytes, valid, 'the last valid result stays');
    await v.widget('model.heads/error');
    // Typing the missing count completes the architecture: the message goes, the headline follows.
    await v.typeInto('model.heads', '28');
    s = await v.state();
    assert.equal(s.error, null);
    assert.equal(s.inputs.model.heads, 28);
    assert.notEqual(s.result.total_bytes, valid);
    assert.equal((await page.evaluate(() => window.vramcalcImport.message())).message, '');

    // 5. A PNG named model.gguf: a message saying what it is, nothing in the form changes.
    const before = JSON.stringify((await v.state()).inputs);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    await drop(page, 'model.gguf', png.toString('base64'));
    m = await importMessage(page, '');
    await v.settled();
    assert.equal(m.problem, true);
    assert.match(m.message, /^Import failed, nothing changed: .*not a GGUF file .*89 50 4e 47/);
    assert.equal(JSON.stringify((await v.state()).inputs), before);

    // No request at all: the readers are in the page's wasm, nothing is fetched or sent.
    assert.deepEqual(requests, [], 'the page requested and sent nothing while importing');
    await page.context().close();
});

test('desktop: several files dropped together merge (a split GGUF\'s parts and its mmproj); a bad one among them is named', async () => {
    const { page, v, requests } = await open({ viewport: { width: 1280, height: 900 } });
    assert.equal(await page.evaluate(() => document.getElementById('import-file').multiple), true, 'the picker takes several files');
    const part = (no) => [`tiny-0000${no + 1}-of-00003.gguf`, llamaGguf({ split: { no, count: 3, total: 21 } }).bytes.toString('base64')];
    // What the page hands its engine: the bytes given to each of the engine's import functions
    // (Module.importModel, importPart, ...; a list of {bytes} counted too). Each file's header is
    // parsed once, so each byte read goes in once (the merge used to parse every header again).
    await page.evaluate(() => {
        window.engineBytes = [];
        const count = (x) => (x instanceof Uint8Array ? x.length : Array.isArray(x) ? x.reduce((n, y) => n + count(y && y.bytes ? y.bytes : y), 0) : 0);
        for (const name of Object.keys(Module).filter((k) => /^import/.test(k) && typeof Module[k] === 'function')) {
            const f = Module[name];
            Module[name] = function () {
                const n = Array.from(arguments).reduce((sum, a) => sum + count(a), 0);
                if (n > 0) window.engineBytes.push([name, n]);
                return f.apply(this, arguments);
            };
        }
    });
    const dropped = [part(1), part(0), part(2), ['mmproj-tiny.gguf', mmprojGguf().bytes.toString('base64')]];
    await dropMany(page, dropped);
    let m = await importMessage(page);
    await v.settled();
    assert.equal(m.problem, false, m.message);
    // Which files were read and what each gave, then the model.
    assert.match(m.message, /^Read tiny-00002-of-00003\.gguf: part 2 of 3, 9 tensors of 376,064 bytes; tiny-00001-of-00003\.gguf: the architecture \(llama\), part 1 of 3, 3 tensors of 483,024 bytes, format q4_k_m; tiny-00003-of-00003\.gguf: part 3 of 3, 9 tensors of 376,064 bytes; mmproj-tiny\.gguf: a vision projector of 104,640 parameters \(f16\)\. Imported tiny-00001-of-00003\.gguf \(GGUF, llama\)/);
    let s = await v.state();
    assert.equal(s.error, null);
    // 483,024 + 2 x 376,064: the three parts' tensors, the whole file's bytes.
    assert.equal(s.inputs.inference.weights_file.total_bytes, 1235152);
    assert.equal(weights(s), 1235152);
    assert.equal(s.inputs.inference.llamacpp.mmproj.params_m, 0.10464);
    assert.equal(s.inputs.inference.llamacpp.mmproj.image_tokens, 17);
    // The projector on the GPU: 104,640 x 2 B + clip's graph for 17 positions (30,736 B).
    assert.equal(s.result.breakdown.extras, 240016);
    // The four files (under 4 MiB: each read whole in one slice) went into the engine once each:
    // four calls, their sizes summed, not twice that.
    const sizes = dropped.map(([, b]) => Buffer.from(b, 'base64').length);
    const given = await page.evaluate(() => window.engineBytes);
    assert.deepEqual(given.map(([, n]) => n), sizes, JSON.stringify(given));
    assert.equal(given.reduce((sum, [, n]) => sum + n, 0), sizes.reduce((a, b) => a + b, 0));

    // config.json with a picture named model.safetensors: the picture is named, the form stays.
    const before = JSON.stringify(s.inputs);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    await dropMany(page, [['config.json', Buffer.from(JSON.stringify(kQwenConfig)).toString('base64')], ['model.safetensors', png.toString('base64')]]);
    m = await importMessage(page, m.message);
    await v.settled();
    assert.equal(m.problem, true);
    assert.match(m.message, /^Import failed, nothing changed: model\.safetensors: this is not a safetensors file/);
    assert.equal(JSON.stringify((await v.state()).inputs), before);
    // Two parts of three through the picker: the missing one is named, the form stays.
    await page.setInputFiles('#import-file', [part(0), part(2)].map(([name, b]) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(b, 'base64') })));
    m = await importMessage(page, m.message);
    assert.equal(m.problem, true);
    assert.match(m.message, /^Import failed, nothing changed: tiny-00001-of-00003\.gguf: is part of a 3-part split GGUF and tiny-00002-of-00003\.gguf is missing/);
    assert.equal(JSON.stringify((await v.state()).inputs), before);
    assert.deepEqual(requests, [], 'the page requested and sent nothing while importing');
    await page.context().close();
});

test('phone (390x844, DPR 3, touch): Import is a tap away and fills the model', async () => {
    const { page, v, requests } = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const button = await v.widget('import');
    assert.ok(button.x >= 0 && button.x + button.w <= 390, `the Import button (${button.x}..${button.x + button.w}) fits the phone's width`);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10000 }), v.tap('import')]);
    await chooser.setFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(kQwenConfig)) });
    const m = await importMessage(page);
    await v.settled();
    assert.match(m.message, /^Imported config\.json/);
    const s = await v.state();
    assert.equal(s.inputs.model.layers, 28);
    assert.equal(s.model_params_b, 7.615616512);
    assert.deepEqual(requests, []);
    await page.context().close();
});

test('single offline file: vramcalc.html alone, from file:// with the network blocked, imports a GGUF and config.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vramcalc-import-offline-'));
    copyFileSync(join(site, 'vramcalc.html'), join(dir, 'vramcalc.html'));  // alone: no sibling script to load
    const { page, v, requests } = await open({ viewport: { width: 1280, height: 900 }, offline: true }, pathToFileURL(join(dir, 'vramcalc.html')).href);

    const tiny = llamaGguf({ name: 'Tiny Llama' });
    await page.evaluate(() => { window.sliced = []; });
    await drop(page, 'tiny.gguf', tiny.bytes.toString('base64'), 1 << 20);
    let { m, s } = await importedTiny(page, v, tiny);
    const sliced = await page.evaluate(() => window.sliced);
    assert.ok(sliced.length >= 1 && sliced.every(([b, e, n]) => b === 0 && e <= n), JSON.stringify(sliced));

    await paste(page, JSON.stringify(kQwenConfig));
    m = await importMessage(page, m.message);
    await v.settled();
    assert.match(m.message, /^Imported pasted config\.json \(config\.json, Qwen2ForCausalLM\): 7,615,616,512 parameters/);
    s = await v.state();
    assert.equal(s.model_params_b, 7.615616512);

    assert.deepEqual(requests, [], 'the single file requested and sent nothing while importing');
    await page.context().close();
});

test('no errors in the console', () => {
    assert.deepEqual(consoleErrors, []);
});
