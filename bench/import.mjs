// vramcalc benchmark: importing a big GGUF, the CLI, the JS library and the page side by side
// (printed, not a timed test; docs/import.md "Reading a prefix").
//   node bench/import.mjs [SITE] [LIB] [BIN]   (defaults build/wasm/site, build/wasm/lib, build/native/vramcalc)
// The file: tests/import_files.mjs's Llama-3-70B-shaped GGUF (80 layers, 723 tensors, a 128,256-token
// vocabulary and 280,147 merges: an 8.3 MB header) before 45.5 GB of tensor data, written as a sparse
// file (the data takes no disk). Each reader is measured the way a user meets it, in a fresh process
// or page: the first import (cold: JavaScript and wasm not yet optimised), then the median of
// kWarmRuns more in the same process or page.
//   time          the import call: reads (File.slice / fread) + the reader + its JSON
//   read          bytes read from the file, in how many reads (File.slice calls / read(2) calls)
//   wasm memory   the WebAssembly memory before the first import and after the last (it never shrinks)
//   peak RSS      (CLI, library) the process's peak resident memory over its baseline before the import
// The page's full path (its Import button's file input, the import, the engine applying it, the next
// frame, every result) is timed too, in 3 fresh pages (first, and the median of the 3).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openAsBlob, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kWarmRuns = 5;
const MB = (n) => `${(n / 1e6).toFixed(1)} MB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Child mode: one fresh Node process importing through the JS library.
if (process.argv[2] === '--lib-child') {
    const [, , , lib, path] = process.argv;
    let memory = null;
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = async function (...args) {
        const r = await instantiate.apply(this, args);
        const inst = r instanceof WebAssembly.Instance ? r : r.instance;
        memory = Object.values(inst.exports).find((x) => x instanceof WebAssembly.Memory) || memory;
        return r;
    };
    const { createVramCalc } = await import(pathToFileURL(join(lib, 'vramcalc.mjs')).href);
    const vc = await createVramCalc();
    const blob = await openAsBlob(path);
    // A File: the name words the messages; slices counted.
    let read = 0, reads = 0;
    const file = { name: 'llama70b.gguf', size: blob.size, slice(a, b) { const s = blob.slice(a, b); read += s.size; reads++; return s; } };
    const memBefore = memory.buffer.byteLength;
    const rssBefore = process.resourceUsage().maxRSS * 1024;
    const times = [];
    let first = null;
    for (let i = 0; i <= kWarmRuns; i++) {
        read = 0, reads = 0;
        const t0 = performance.now();
        const r = await vc.importFile(file);
        times.push(performance.now() - t0);
        if (!r.ok || r.model.layers !== 80) throw new Error(JSON.stringify(r.error || r.model));
        if (i === 0) first = { read, reads, rss: process.resourceUsage().maxRSS * 1024 - rssBefore };
    }
    console.log(JSON.stringify({ cold: times[0], warm: median(times.slice(1)), ...first, memBefore, memAfter: memory.buffer.byteLength }));
    process.exit(0);
}

const site = resolve(process.argv[2] || join(root, 'build/wasm/site'));
const lib = resolve(process.argv[3] || join(root, 'build/wasm/lib'));
const bin = resolve(process.argv[4] || join(root, 'build/native/vramcalc'));
const { llama70bGguf } = await import('../tests/import_files.mjs');

const dir = mkdtempSync(join(tmpdir(), 'vramcalc-bench-import-'));
const path = join(dir, 'llama70b.gguf');
const { bytes, weightBytes } = llama70bGguf();
const fd = openSync(path, 'w');
writeSync(fd, bytes);
ftruncateSync(fd, bytes.length + weightBytes + 4096);  // sparse: the tensor data takes no disk
closeSync(fd);
const size = bytes.length + weightBytes + 4096;
console.log(`== importing a ${(size / 1e9).toFixed(1)} GB GGUF (Llama-3-70B shaped, a ${MB(bytes.length)} header, sparse file)`);
const rows = [];

try {
    // CLI: time and peak memory from /usr/bin/time, the bytes read from strace (when installed).
    if (existsSync(bin)) {
        const runs = [];
        for (let i = 0; i <= kWarmRuns; i++) {
            const r = spawnSync('/usr/bin/time', ['-f', '%e %M', bin, '--model-file', path, '--print-import'], { encoding: 'utf8', maxBuffer: 1 << 26 });
            if (r.status !== 0) throw new Error(`CLI: ${r.stderr}`);
            const [s, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
            runs.push({ ms: s * 1000, rss: kb * 1024 });
        }
        const base = spawnSync('/usr/bin/time', ['-f', '%M', bin, '--version'], { encoding: 'utf8' });
        const baseRss = Number(base.stderr.trim().split('\n').pop()) * 1024;
        let read = null, reads = null;
        const trace = join(dir, 'strace.txt');
        const s = spawnSync('strace', ['-e', 'trace=read', '-o', trace, bin, '--model-file', path, '--print-import'], { encoding: 'utf8', maxBuffer: 1 << 26 });
        if (s.status === 0) {
            // Only the reads of the model file's descriptor (the one openat returned for it).
            const lines = readFileSync(trace, 'utf8').split('\n');
            const opened = spawnSync('strace', ['-e', 'trace=openat', bin, '--model-file', path, '--print-import'], { encoding: 'utf8', maxBuffer: 1 << 26 });
            const m = opened.stderr.match(new RegExp(`openat\\(.*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*= (\\d+)`));
            const mfd = m ? m[1] : null;
            read = 0, reads = 0;
            for (const l of lines) {
                const r = l.match(/^read\((\d+),.*= (\d+)$/);
                if (r && r[1] === mfd) read += Number(r[2]), reads++;
            }
        }
        rows.push({ who: 'CLI (native, process start to exit)', cold: runs[0].ms, warm: median(runs.slice(1).map((r) => r.ms)), read, reads,
            mem: `peak RSS +${MB(median(runs.map((r) => r.rss)) - baseRss)} over --version`, });
    }

    // The JS library under Node, a fresh process.
    {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--lib-child', lib, path], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`library: ${r.stderr}`);
        const j = JSON.parse(r.stdout.trim().split('\n').pop());
        rows.push({ who: 'JS library, importFile (Node, openAsBlob)', cold: j.cold, warm: j.warm, read: j.read, reads: j.reads,
            mem: `wasm ${MB(j.memBefore)} -> ${MB(j.memAfter)}, peak RSS +${MB(j.rss)}` });
    }

    // The page in headless Chromium: the file given to its file input, as a user picks it.
    const { serveSite } = await import('../scripts/serve.mjs');
    const { launchChromium } = await import('../tests/browser/chromium.mjs');
    const { server, url } = await serveSite(site, { port: 0 });
    const browser = await launchChromium();
    try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(() => {
            // The wasm memory, whichever way the page instantiates it; File.slice counted.
            window.benchMemory = null;
            const keep = (r) => {
                const inst = r instanceof WebAssembly.Instance ? r : r.instance;
                window.benchMemory = Object.values(inst.exports).find((x) => x instanceof WebAssembly.Memory) || window.benchMemory;
                return r;
            };
            for (const name of ['instantiate', 'instantiateStreaming']) {
                const f = WebAssembly[name];
                WebAssembly[name] = function (...args) { return f.apply(this, args).then(keep); };
            }
            window.benchRead = 0, window.benchReads = 0;
            const slice = Blob.prototype.slice;
            Blob.prototype.slice = function (start, end) {
                const s = slice.apply(this, arguments);
                window.benchRead += s.size, window.benchReads++;
                return s;
            };
        });
        await page.goto(url);
        await page.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 60000 });
        await page.evaluate(() => {
            const input = document.createElement('input');
            input.type = 'file';
            input.id = 'bench-file';
            document.body.appendChild(input);
        });
        await page.setInputFiles('#bench-file', path);
        const memBefore = await page.evaluate(() => window.benchMemory.buffer.byteLength);
        const times = [];
        let first = null;
        for (let i = 0; i <= kWarmRuns; i++) {
            const j = await page.evaluate(async () => {
                window.benchRead = 0, window.benchReads = 0;
                const t0 = performance.now();
                const r = await window.vramcalc.importFile(document.getElementById('bench-file').files[0]);
                return { ms: performance.now() - t0, ok: r.ok && r.model.layers === 80, read: window.benchRead, reads: window.benchReads };
            });
            if (!j.ok) throw new Error('the page did not import the file');
            times.push(j.ms);
            if (i === 0) first = j;
        }
        const memAfter = await page.evaluate(() => window.benchMemory.buffer.byteLength);
        rows.push({ who: 'page, window.vramcalc.importFile (Chromium)', cold: times[0], warm: median(times.slice(1)), read: first.read, reads: first.reads,
            mem: `wasm ${MB(memBefore)} -> ${MB(memAfter)}` });

        // The page's whole path: its own file input (the Import button's), the import applied by the
        // engine, then the next frame drawn (the model panel's line, the new estimate) and the page
        // idle (every result, the what-fits answers included, computed over the next frames). In fresh
        // pages, as a user meets it.
        const full = [];
        for (let i = 0; i < 3; i++) {
            const p = await context.newPage();
            await p.goto(url);
            await p.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.idle(), null, { timeout: 60000 });
            await p.evaluate(() => {
                const b = window.bench = { start: 0, applied: 0, frame: 0, idle: 0 };
                document.getElementById('import-file').addEventListener('change', () => { b.start = performance.now(); }, { capture: true });
                const apply = Module.applyImport;
                Module.applyImport = (text) => { const r = apply(text); b.applied = performance.now(); return r; };
                const post = Module.postMainLoop;
                Module.postMainLoop = () => {
                    post();
                    if (!b.applied) return;
                    const now = performance.now();
                    if (!b.frame) b.frame = now;
                    if (!b.idle && Module.isIdle()) b.idle = now;
                };
            });
            await p.setInputFiles('#import-file', path);
            await p.waitForFunction(() => window.bench.idle > 0, null, { timeout: 60000 });
            const b = await p.evaluate(() => window.bench);
            if (!/^Imported llama70b\.gguf/.test((await p.evaluate(() => window.vramcalcImport.message())).message)) throw new Error('the page did not import');
            full.push({ applied: b.applied - b.start, frame: b.frame - b.start, idle: b.idle - b.start });
            await p.close();
        }
        for (const [key, what] of [['applied', 'file picked to import applied'], ['frame', 'to the next frame drawn'], ['idle', 'to every result (page idle)']])
            rows.push({ who: `page, Import button: ${what}`, cold: full[0][key], warm: median(full.map((f) => f[key])), read: null, reads: null, mem: '' });
        await context.close();
    } finally {
        await browser.close();
        server.close();
    }
} finally {
    rmSync(dir, { recursive: true, force: true });
}

console.log(`  ${'reader'.padEnd(56)} ${'first'.padStart(9)} ${'median'.padStart(9)} ${'read'.padStart(16)}  memory`);
for (const r of rows) {
    const read = r.read === null ? '' : `${MB(r.read)} in ${r.reads}`;
    console.log(`  ${r.who.padEnd(56)} ${(r.cold.toFixed(0) + ' ms').padStart(9)} ${(r.warm.toFixed(0) + ' ms').padStart(9)} ${read.padStart(16)}  ${r.mem}`);
}
console.log(`  (first: the first import in a fresh process or page; median of the next ${kWarmRuns}; issue 13: under 1 s and under 50 MB)`);
