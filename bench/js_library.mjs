// vramcalc benchmark: the JS library's time per call under Node (printed, not a timed test).
//   node bench/js_library.mjs [LIB] [LIB_B ...]     (default build/wasm/lib)
// One library: import + createVramCalc(), then estimate() per call for a quick config and a detailed
// one (bench/bench_solve.cpp's "vllm bf16"; VRAMCALC_ENGINE_US, which scripts/bench.sh passes, is the
// engine's own time for it, printed beside). Two or more libraries (A/B, e.g. main's build and a
// branch's): all in one process, their rounds alternated (the order reversed every other round), so
// a busy machine slows each alike; each ratio to A is per round.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const libs = process.argv.slice(2).map((d) => resolve(d));
if (libs.length === 0) libs.push(resolve('build/wasm/lib'));
const kRounds = Number(process.env.VRAMCALC_ROUNDS || 15);
const tag = (i) => (libs.length > 1 ? `${String.fromCharCode(65 + i)} ` : '');

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p10 = (xs) => sorted(xs)[Math.floor(xs.length * 0.1)];

const quick = { method: 'quick', params_b: 7, batch: 4, seq: 2048 };
const detailed = { method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb',
    inference: { engine: 'vllm', weights: 'bf16', context: 8192 } };

const engines = [];
for (const dir of libs) {
    const t0 = performance.now();
    // A query string makes two copies of the same file two modules.
    const { createVramCalc } = await import(`${pathToFileURL(join(dir, 'vramcalc.mjs')).href}?${engines.length}`);
    const vc = await createVramCalc();
    engines.push({ dir, vc, loadMs: performance.now() - t0 });
}
for (const [i, e] of engines.entries()) {
    console.log(`  ${tag(i)}import + createVramCalc()  ${e.loadMs.toFixed(1)} ms  (${e.dir})`);
    for (const config of [quick, detailed]) {
        const r = e.vc.estimate(config);
        if (!r.ok) throw new Error(`${e.dir}: estimate(${JSON.stringify(config)}) failed: ${JSON.stringify(r.error)}`);
    }
}
if (engines.length > 1) {
    const texts = engines.map((e) => JSON.stringify(e.vc.estimate(detailed)));
    const same = texts.every((t) => t === texts[0]);
    console.log(`  the detailed result's JSON text: ${texts.map((t, i) => `${tag(i)}${t.length} B`).join(', ')}, ${same ? 'identical' : 'DIFFERENT'}`);
}

// One round: `n` calls; its wall-clock time and the process's CPU time per call in us (on a busy
// machine the CPU time leaves out the time the process waited for a core).
function round(vc, config, n) {
    const c = process.cpuUsage(), t = performance.now();
    for (let i = 0; i < n; i++) vc.estimate(config);
    const wall = (performance.now() - t) * 1000 / n, cpu = process.cpuUsage(c);
    return { wall, cpu: (cpu.user + cpu.system) / n };
}
// Per call: the median (and p10) of the rounds, after a warm-up round; with several libraries each
// round runs each once, in turn.
function perCall(label, config, n, note) {
    for (const e of engines) round(e.vc, config, n);
    const times = engines.map(() => []), cpus = engines.map(() => []);
    for (let r = 0; r < kRounds; r++) {
        const order = r % 2 === 0 ? engines.keys() : [...engines.keys()].reverse();
        for (const i of order) {
            const { wall, cpu } = round(engines[i].vc, config, n);
            times[i].push(wall);
            cpus[i].push(cpu);
        }
    }
    for (const [i, t] of times.entries())
        console.log(`  ${tag(i)}estimate(config), ${label.padEnd(9)} ${median(t).toFixed(1).padStart(7)} us per call (p10 ${p10(t).toFixed(1)} us;` +
            ` CPU time ${median(cpus[i]).toFixed(1)} us, p10 ${p10(cpus[i]).toFixed(1)} us)${note(median(t))}`);
    for (let i = 1; i < engines.length; i++) {
        const ratios = times[0].map((x, r) => x / times[i][r]);
        console.log(`  A/${tag(i).trim()} per round, ${label}: median ${median(ratios).toFixed(2)}x (range ${sorted(ratios)[0].toFixed(2)}-${sorted(ratios).at(-1).toFixed(2)}x)`);
    }
}
const load = (await import('node:os')).loadavg()[0].toFixed(1);
console.log(`== JS library under Node, ${kRounds} rounds${engines.length > 1 ? ' per library, alternated' : ''} (JSON both ways included; load ${load})`);
perCall('quick', quick, 2000, () => '');
const engineUs = Number(process.env.VRAMCALC_ENGINE_US);
perCall('detailed', detailed, 300, (us) =>
    (engineUs > 0 ? ` = ${(us / engineUs).toFixed(2)}x the engine's own ${engineUs.toFixed(1)} us (wasm -O2)` : '') + ' (target <= 100 us, issue 15)');
