// The Cluster planner view (issue 11, item 8): a link opens the planner on 32 H100s over RoCE
// 200 GbE; its first ranked layouts are those `vramcalc plan --format json` prints for the same
// request; "Use" loads a layout into the detailed training inputs; the link round-trips; bad input
// names its field and keeps the last plan; the "Prices and nodes" rows set the price, purchase
// price and node size.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveSite } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { Visitor } from './visitor.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const cliBin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
const kPlan = { gpus: 32, fabric: 'roce-200', global_batch: 512, train_tokens: 1e11 };
const kFragment = '#v=1&method=detailed&model.preset=llama-3.1-8b&seq=4096&gpu=h100-80gb' +
    '&view=planner&plan.gpus=32&plan.fabric=roce-200&plan.global_batch=512&plan.train_tokens=100000000000';

let server, browser, context, url, page, v;
const errors = [];

async function open(fragment) {
    const p = await context.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(url + fragment);
    await p.waitForFunction(() => window.vramcalcTest && window.vramcalcTest.frameCount() > 2, null, { timeout: 30000 });
    // The plan and its extras run over frames (docs/planner.md): up to a minute on a loaded 2-core machine.
    const visitor = new Visitor(p, { settleMs: 60000 });
    await visitor.settled();
    return [p, visitor];
}

before(async () => {
    assert.ok(existsSync(join(site, 'index.html')), `no built site in ${site}: run scripts/build.sh`);
    ({ server, url } = await serveSite(site, { port: 0 }));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    [page, v] = await open(kFragment);
});

after(async () => {
    await browser?.close();
    server?.close();
});

test('the planner ranks the layouts vramcalc plan ranks, for the same request', async () => {
    const s = await v.state();
    assert.equal(s.planner.open, true);
    assert.equal(s.planner.error, null);
    const ranked = s.planner.plan.ranked;
    assert.equal(ranked.length, 10, 'the top 10 layouts');
    // The same request on the command line: the page's inputs (a config document) and the planner's fields.
    const request = { ...s.inputs, plan: { ...kPlan, top: 10 } };
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'], { input: JSON.stringify(request) }));
    assert.equal(cli.ok, true);
    assert.equal(cli.plan.gpus, 32);
    assert.equal(cli.plan.fabric, 'roce-200');
    assert.equal(cli.plan.global_batch, 512);
    assert.equal(s.planner.plan.evaluated, cli.plan.evaluated);
    assert.equal(s.planner.plan.fitting, cli.plan.fitting);
    for (let i = 0; i < 3; ++i) {
        assert.equal(ranked[i].layout.label, cli.plan.ranked[i].layout.label, `layout #${i + 1}`);
        const step = cli.plan.ranked[i].step_s;
        assert.ok(Math.abs(ranked[i].step_s - step) <= 1e-9 * step, `step #${i + 1}: ${ranked[i].step_s} vs ${step}`);
        assert.ok(Math.abs(ranked[i].memory_bytes - cli.plan.ranked[i].memory_bytes) <= 1, `memory #${i + 1}`);
    }
    // Days for the budget follow from tokens/s: 1e11 / (tokens/s/GPU x 32 GPUs) / 86400.
    const days = 1e11 / (ranked[0].tokens_per_s_per_gpu * 32) / 86400;
    assert.ok(Math.abs(ranked[0].train_days - days) < 1e-9 * days);
    assert.ok(ranked[0].memory_bytes <= s.planner.plan.target_bytes, 'a ranked layout fits under the target');
    assert.equal(s.planner.plan.target_bytes, cli.plan.target_bytes, 'the 75% target');
    // Every row is drawn with its button, and the rejections are explained.
    for (let i = 0; i < 10; ++i) assert.ok(await v.hook('widget', `plan/use/${i}`), `row ${i + 1} has its Use button`);
    if (cli.plan.rejected.length > 0) assert.ok(await v.hook('widget', 'plan/rejected/0'), 'the first rejected class is explained');
});

test('the guide\'s checklist: nine steps in order, each with the number a user checks, ending in the planner\'s answer', async () => {
    const s = await v.state();
    const c = s.planner.checklist;
    assert.ok(c, 'a checklist for the best layout');
    assert.deepEqual(c.steps.map((x) => x.key),
        ['model', 'precision', 'parallelism', 'batch', 'sequence', 'states', 'activations', 'overhead', 'target']);
    const step = Object.fromEntries(c.steps.map((x) => [x.key, x]));
    const best = s.planner.plan.ranked[0];
    const l = best.layout;
    assert.equal(c.answer.layout.label, l.label, 'the answer is the planner\'s best layout');
    // 1. Model: Llama-3.1-8B's parameters, the count the calculator shows under the model.
    assert.ok(Math.abs(step.model.value / 1e9 - s.model_params_b) < 0.01, `${step.model.value} vs ${s.model_params_b}B`);
    // 2. Precision: model-state bytes per parameter before sharding: the calculator's own for this
    // layout's split unsharded (DDP), weights + gradients + optimizer over the parameters on a GPU.
    // (The layout as the calculator's detailed training inputs, as "Use" loads it.)
    const estimate = (sharding) => JSON.parse(execFileSync(cliBin, ['--config', '-', '--format', 'json'], { input: JSON.stringify({
        ...s.inputs, gpus: 32, batch: l.micro_batch,
        training: { ...s.inputs.training, sharding, shard_group: 0, grad_accum: l.grad_accum, global_batch: 0, recompute: l.recompute },
        parallel: { ...s.inputs.parallel, tp: l.tp, sp: l.sp, pp: l.pp, dp: l.dp, cp: l.cp, ep: l.ep,
                    schedule: l.virtual_stages > 1 ? 'interleaved' : '1f1b', virtual_stages: l.virtual_stages } }) }));
    const est = estimate('ddp');
    assert.equal(est.ok, true, JSON.stringify(est.error));
    const perParam = (est.breakdown.weights + est.breakdown.gradients + est.breakdown.optimizer) / est.metrics.params_per_gpu.value;
    assert.ok(Math.abs(step.precision.value - perParam) <= 1e-9 * perParam, `${step.precision.value} vs ${perParam} bytes/parameter`);
    // 3. Parallelism: TP x PP x DP x CP = the 32 GPUs.
    assert.equal(step.parallelism.value, 32);
    assert.equal(l.tp * l.pp * l.dp * l.cp, 32);
    // 4. Batch: global = DP x micro-batch x accumulation = 512; per GPU micro-batch x accumulation.
    assert.equal(step.batch.value, 512);
    assert.equal(l.dp * l.micro_batch * l.grad_accum, 512);
    assert.equal(step.batch.second, l.micro_batch * l.grad_accum);
    // 5. Sequence: 4096 tokens; a micro-batch holds micro-batch x 4096 / CP tokens on a GPU.
    assert.equal(step.sequence.value, 4096);
    assert.equal(step.sequence.second, l.micro_batch * 4096 / l.cp);
    // 6-7. Model states and activations: the calculator's components for this layout.
    const mine = estimate(l.sharding);
    assert.equal(mine.ok, true, JSON.stringify(mine.error));
    const states = mine.breakdown.weights + mine.breakdown.gradients + mine.breakdown.optimizer;
    assert.ok(Math.abs(step.states.value - states) <= 1, `${step.states.value} vs ${states}`);
    const acts = mine.breakdown.activations + mine.breakdown.logits_loss;
    assert.ok(Math.abs(step.activations.value - acts) <= 1, `${step.activations.value} vs ${acts}`);
    // 6-8. States + activations + overhead = the layout's memory per GPU (the CLI's figure for it).
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'],
        { input: JSON.stringify({ ...s.inputs, plan: { ...kPlan, top: 1 } }) }));
    const total = step.states.value + step.activations.value + step.overhead.value;
    assert.ok(Math.abs(total - cli.plan.ranked[0].memory_bytes) <= 1, `${total} vs ${cli.plan.ranked[0].memory_bytes}`);
    assert.equal(step.overhead.second, best.memory_bytes);
    for (const k of ['states', 'activations', 'overhead']) assert.ok(step[k].value > 0, k);
    // 9. The 75% target of the H100's 81,559 MiB: 64.1 GB, and the share of it this layout uses.
    assert.equal(step.target.value, 0.75 * 81559 * 1048576);
    assert.equal(step.target.value, cli.plan.target_bytes);
    assert.ok(Math.abs(step.target.second - best.memory_bytes / step.target.value) < 1e-12);
    assert.ok(step.target.second <= 1, 'the answer fits');
    // Drawn in order, each row with its number, and the answer under them.
    let y = -1;
    for (const k of [...c.steps.map((x) => x.key), 'answer']) {
        const w = await v.hook('widget', `plan/checklist/${k}`);
        assert.ok(w, `plan/checklist/${k} is drawn`);
        assert.ok(w.y > y, `${k} below the step before it`);
        y = w.y;
    }
});

test('batch sizing, the fabric chart and the Pareto chart are the CLI\'s figures, computed a search at a time', async () => {
    const s = await v.state();
    const x = s.planner.extras;
    assert.equal(x.complete, true, 'the extras finish while the page settles');
    const request = { ...s.inputs, plan: { ...kPlan, top: 10, fabric_comparison: true, pareto: { per_count: 3 } } };
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'], { input: JSON.stringify(request) }));
    assert.equal(cli.ok, true);
    // Same hardware, different network: every fabric's best layout and the sized batch of the best split.
    assert.deepEqual(x.fabrics.map((f) => f.fabric), cli.fabric_comparison.map((f) => f.fabric));
    for (let i = 0; i < x.fabrics.length; ++i) {
        const a = x.fabrics[i], b = cli.fabric_comparison[i];
        assert.equal(a.ok, b.ok, a.fabric);
        if (a.ok) assert.equal(a.best.layout.label, b.best.layout.label, a.fabric);
        assert.equal(a.sizing.per_gpu_batch, b.sizing.per_gpu_batch, a.fabric);
        assert.ok(Math.abs(a.sizing.memory_bytes - b.sizing.memory_bytes) <= 1, a.fabric);
        assert.equal(a.sizing.verdict, b.sizing.verdict);
    }
    // Pareto: 8, 16, 32, 64, 128 GPUs, three layouts each, the same front.
    assert.deepEqual(x.counts, [8, 16, 32, 64, 128]);
    assert.equal(x.pareto.length, cli.pareto.length);
    for (let i = 0; i < x.pareto.length; ++i) {
        assert.equal(x.pareto[i].gpus, cli.pareto[i].gpus);
        assert.equal(x.pareto[i].front, cli.pareto[i].front);
        assert.ok(Math.abs(x.pareto[i].train_days - cli.pareto[i].train_days) <= 1e-9 * cli.pareto[i].train_days);
    }
    for (const id of ['plan/sizing', 'plan/pareto', 'plan/fabric/eth-100-tcp', 'plan/compare/0'])
        assert.ok(await v.hook('widget', id), `${id} is drawn`);
    // No frame held a search much longer than the plan itself: the units are single searches.
    assert.ok(x.longest_unit_ms < 2000, `longest unit ${x.longest_unit_ms} ms`);
});

test('cluster comparison: train by a deadline, serve N sequences, a bad candidate named', async () => {
    let s = await v.state();
    const clusters = s.planner.extras.clusters;
    assert.equal(clusters.length, 4, 'the four default candidates');
    const request = { ...s.inputs, plan: { ...kPlan, top: 1, clusters: 'h100-80gb:32:roce-200,a100-80gb:32:ib-hdr200,b200-180gb:32:ib-ndr400,a100-80gb:64:ib-hdr200' } };
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'], { input: JSON.stringify(request) }));
    assert.deepEqual(clusters.map((c) => `${c.gpus}x${c.gpu}`), cli.clusters.map((c) => `${c.gpus}x${c.gpu}`), 'ranked alike');
    for (let i = 0; i < clusters.length; ++i) assert.ok(Math.abs(clusters[i].train_days - cli.clusters[i].train_days) <= 1e-9 * cli.clusters[i].train_days);
    await v.inView('plan.goal/serve');
    await v.click('plan.goal/serve');
    s = await v.state();
    assert.ok(s.fragment.includes('plan.goal=serve'));
    const serve = s.planner.extras.clusters;
    assert.equal(serve.length, 4);
    for (const c of serve) if (c.ok) assert.equal(c.replicas * c.tp, c.gpus);
    const cliServe = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'],
        { input: JSON.stringify({ ...request, plan: { ...request.plan, serve: { concurrency: 256, context: 8192 } } }) }));
    assert.deepEqual(serve.map((c) => [c.gpu, c.tp, c.usd_per_mtok]), cliServe.serve_clusters.map((c) => [c.gpu, c.tp, c.usd_per_mtok]));
    await v.inView('plan.clusters');
    await v.typeInto('plan.clusters', 'h100-80gb:lots:ib-ndr400');
    s = await v.state();
    assert.equal(s.planner.error.field, 'plan.clusters');
    assert.ok(s.planner.plan.ranked.length > 0, 'the last valid plan stays');
    // Two valid candidates typed in; the link carries them.
    await v.inView('plan.clusters');
    await v.typeInto('plan.clusters', 'h100-80gb:32:roce-200,b200-180gb:16:ib-ndr400');
    s = await v.state();
    assert.equal(s.planner.error, null);
    assert.ok(s.fragment.includes('plan.clusters=h100-80gb%3A32%3Aroce-200%2Cb200-180gb%3A16%3Aib-ndr400') ||
        s.fragment.includes('plan.clusters=h100-80gb:32:roce-200,b200-180gb:16:ib-ndr400'), s.fragment);
    assert.deepEqual(s.planner.extras.clusters.map((c) => c.gpu).sort(), ['b200-180gb', 'h100-80gb']);
    await v.inView('plan.goal/train');
    await v.click('plan.goal/train');
    s = await v.state();
    assert.equal(s.planner.error, null);
    assert.equal(s.planner.extras.clusters.length, 2);
});

test('the planner exports its ranked layouts as CSV and Markdown', async () => {
    const s = await v.state();
    const download = async (item) => {
        await v.click('export');
        const [d] = await Promise.all([page.waitForEvent('download'), v.click(item)]);
        return [d.suggestedFilename(), readFileSync(await d.path(), 'utf8')];
    };
    const [name, csv] = await download('export/csv');
    assert.equal(name, 'vramcalc-llama-3.1-8b-training-detailed.plan.csv');
    const lines = csv.trim().split('\n');
    assert.equal(lines.length, 11, 'a header and the 10 ranked layouts');
    assert.ok(lines[1].startsWith(`1,${s.planner.plan.ranked[0].layout.label},`));
    assert.equal(Number(lines[1].split(',')[13]), Math.round(s.planner.plan.ranked[0].memory_bytes));
    const [, md] = await download('export/md');
    assert.match(md, /^# vramcalc cluster plan: /);
    assert.match(md, /\| # \| Layout \| GB\/GPU \| Step \(s\) \|/);
    assert.ok(md.includes('[Open this plan](') && md.includes('view=planner'));
});

test('the link round-trips the planner state', async () => {
    const s = await v.state();
    for (const part of ['view=planner', 'plan.gpus=32', 'plan.fabric=roce-200', 'plan.global_batch=512', 'plan.train_tokens=100000000000'])
        assert.ok(s.fragment.includes(part), `${part} in ${s.fragment}`);
    const [p2, v2] = await open('#' + s.fragment);
    const s2 = await v2.state();
    assert.equal(s2.fragment, s.fragment);
    assert.deepEqual(s2.planner.request, s.planner.request);
    assert.equal(s2.planner.plan.ranked[0].layout.label, s.planner.plan.ranked[0].layout.label);
    await p2.close();
});

test('bad input names its field and the last valid plan stays', async () => {
    const before = (await v.state()).planner.plan.ranked[0].layout.label;
    await v.inView('plan.gpus');
    await v.typeInto('plan.gpus', '12');
    let s = await v.state();
    assert.equal(s.planner.gpus, 12);
    assert.equal(s.planner.error.field, 'plan.gpus', JSON.stringify(s.planner.error));
    assert.equal(s.planner.plan.ranked[0].layout.label, before, 'the last valid plan stays');
    assert.ok(await v.hook('widget', 'plan/error'));
    // One GPU holds no layout of Llama-3.1-8B with AdamW (~144 GB of states): said, naming what would help; the plan stays.
    await v.typeInto('plan.gpus', '1');
    s = await v.state();
    assert.equal(s.planner.error.field, 'plan.gpus', JSON.stringify(s.planner.error));
    assert.match(s.planner.error.message, /no layout of 1 x h100-80gb fits under 75% of memory; closest: /);
    // ... and what would: 8.03e9 x 18 bytes of states = 144.5 GB; two H100 hold 72 GB each (over the 61.2 GB
    // target), three as a 3-stage pipeline (48 GB each); and one GPU of 193 GB or more (MI325X, 256 GB).
    assert.match(s.planner.error.message, /\. 3 x h100-80gb would fit it \(plan\.gpus: 3, the fewest found\): TP1 PP3 .*; 1 x mi325x-256gb would \(gpu: mi325x-256gb/);
    assert.equal(s.planner.plan.ranked[0].layout.label, before, 'the last valid plan stays');
    await v.typeInto('plan.gpus', '32');
    s = await v.state();
    assert.equal(s.planner.error, null);
});

test('when nothing fits, one click applies what would: the fewest GPUs, or a larger GPU', async () => {
    await v.inView('plan.gpus');
    await v.typeInto('plan.gpus', '1');
    let s = await v.state();
    // The error's buttons apply the search's own answers (the message above: 3 x H100, or 1 x MI325X).
    assert.deepEqual(s.planner.suggestion, { gpus: 3, gpu: 'mi325x-256gb' });
    assert.ok(await v.hook('widget', 'plan/suggest/gpus') && await v.hook('widget', 'plan/suggest/gpu'));
    await v.click('plan/suggest/gpus');
    s = await v.state();
    assert.equal(s.planner.gpus, 3);
    assert.equal(s.planner.error, null, JSON.stringify(s.planner.error));
    assert.equal(s.planner.suggestion, null);
    assert.equal(s.planner.plan.gpus, 3);
    assert.equal(s.planner.plan.ranked[0].layout.pp, 3, 'a 3-stage pipeline: 48 GB a GPU');
    assert.ok(s.planner.plan.ranked[0].memory_bytes <= s.planner.plan.target_bytes);
    // The other answer: one GPU of the larger type, the cluster's count kept.
    await v.typeInto('plan.gpus', '1');
    await v.click('plan/suggest/gpu');
    s = await v.state();
    assert.equal(s.inputs.gpu, 'mi325x-256gb');
    assert.equal(s.planner.gpus, 1);
    assert.equal(s.planner.error, null, JSON.stringify(s.planner.error));
    assert.equal(s.planner.plan.gpu, 'mi325x-256gb');
    assert.deepEqual(errors, []);
    // Back to the request the other tests use.
    await page.close();
    [page, v] = await open(kFragment);
    assert.equal((await v.state()).planner.gpus, 32);
});

test('Prices and nodes: a typed price is the plan\'s cost, the link carries it, a bad value is named', async () => {
    let s = await v.state();
    for (const k of ['price_per_hour_usd', 'purchase_usd', 'gpus_per_node']) assert.equal(s.planner[k], null, `${k}: the catalog's`);
    const catalog = JSON.parse(execFileSync(cliBin, ['--list-gpus', '--format', 'json'])).find((g) => g.id === 'h100-80gb').price_per_hour_usd;
    const best = s.planner.plan.ranked[0];
    // Cost = GPU-hours x price: days x 24 x 32 GPUs x the catalog's $3.00.
    const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
    assert.ok(close(best.rent_usd, best.train_days * 24 * 32 * catalog), `${best.rent_usd} vs ${best.train_days} days at $${catalog}`);
    await v.inView('plan/prices');
    if (!(await v.hook('widget', 'plan.price_per_hour_usd'))) await v.click('plan/prices');  // the collapsed section opens
    await v.inView('plan.price_per_hour_usd');
    await v.typeInto('plan.price_per_hour_usd', '1.5');
    s = await v.state();
    assert.equal(s.planner.error, null, JSON.stringify(s.planner.error));
    assert.equal(s.planner.price_per_hour_usd, 1.5);
    assert.equal(s.planner.request.plan.price_per_hour_usd, 1.5);
    const mine = s.planner.plan.ranked[0];
    assert.equal(mine.layout.label, best.layout.label, 'the price changes the cost, not the fastest layout');
    assert.ok(close(mine.rent_usd, mine.train_days * 24 * 32 * 1.5), `${mine.rent_usd} vs ${mine.train_days} days x 24 x 32 x $1.50`);
    assert.ok(close(mine.rent_usd, best.rent_usd * 1.5 / catalog), 'half the catalog\'s cost');
    // The comparison prices this GPU type at $1.50, the others at their catalog's.
    const h100 = s.planner.extras.clusters.find((c) => c.gpu === 'h100-80gb');
    assert.ok(close(h100.rent_usd, h100.train_days * 24 * 32 * 1.5), `${h100.rent_usd}`);
    const a100Price = JSON.parse(execFileSync(cliBin, ['--list-gpus', '--format', 'json'])).find((g) => g.id === 'a100-80gb').price_per_hour_usd;
    const a100 = s.planner.extras.clusters.find((c) => c.gpu === 'a100-80gb' && c.gpus === 32);
    assert.ok(close(a100.rent_usd, a100.train_days * 24 * 32 * a100Price), `${a100.rent_usd} at $${a100Price}`);
    // Purchase: GPUs x price x 1.15 (networking's share).
    await v.inView('plan.purchase_usd');
    await v.typeInto('plan.purchase_usd', '20000');
    s = await v.state();
    assert.equal(s.planner.error, null, JSON.stringify(s.planner.error));
    assert.ok(close(s.planner.extras.clusters.find((c) => c.gpu === 'h100-80gb').purchase_usd, 32 * 20000 * 1.15));
    assert.ok(s.fragment.includes('plan.price_per_hour_usd=1.5') && s.fragment.includes('plan.purchase_usd=20000'), s.fragment);
    // The link round-trips them (the section opens by itself); a link without them took the catalog's (above).
    const [p2, v2] = await open('#' + s.fragment);
    const s2 = await v2.state();
    assert.equal(s2.fragment, s.fragment);
    assert.equal(s2.planner.price_per_hour_usd, 1.5);
    assert.equal(s2.planner.purchase_usd, 20000);
    assert.ok(close(s2.planner.plan.ranked[0].rent_usd, mine.rent_usd));
    assert.ok(await v2.hook('widget', 'plan.price_per_hour_usd'), 'the section is open');
    await p2.close();
    // A negative price: the table's range in USD, naming the field; the last valid plan stays, no NaN.
    await v.inView('plan.price_per_hour_usd');
    await v.typeInto('plan.price_per_hour_usd', '-2');
    s = await v.state();
    assert.deepEqual(s.planner.error, { field: 'plan.price_per_hour_usd', message: 'plan.price_per_hour_usd must be a number in [0, 10000] USD, got -2' });
    assert.ok(await v.hook('widget', 'plan/error'));
    assert.ok(close(s.planner.plan.ranked[0].rent_usd, mine.rent_usd), 'the last valid plan stays');
    // "Catalog" resets it: the catalog's cost again.
    await v.click('plan.price_per_hour_usd/reset');
    s = await v.state();
    assert.equal(s.planner.error, null);
    assert.equal(s.planner.price_per_hour_usd, null);
    assert.ok(close(s.planner.plan.ranked[0].rent_usd, best.rent_usd));
    assert.ok(!s.fragment.includes('plan.price_per_hour_usd'), s.fragment);
    // 4-GPU nodes: the plan the CLI makes for the same request; 0 GPUs per node is refused by name.
    await v.inView('plan.gpus_per_node');
    await v.typeInto('plan.gpus_per_node', '4');
    s = await v.state();
    assert.equal(s.planner.error, null, JSON.stringify(s.planner.error));
    assert.equal(s.planner.plan.gpus_per_node, 4);
    const cli = JSON.parse(execFileSync(cliBin, ['plan', '--config', '-', '--format', 'json'],
        { input: JSON.stringify({ ...s.inputs, plan: { ...kPlan, top: 10, purchase_usd: 20000, gpus_per_node: 4 } }) }));
    assert.equal(cli.plan.gpus_per_node, 4);
    assert.equal(s.planner.plan.ranked[0].layout.label, cli.plan.ranked[0].layout.label);
    assert.ok(close(s.planner.plan.ranked[0].step_s, cli.plan.ranked[0].step_s));
    await v.typeInto('plan.gpus_per_node', '0');
    s = await v.state();
    assert.equal(s.planner.error.field, 'plan.gpus_per_node');
    assert.match(s.planner.error.message, /^plan\.gpus_per_node must be .*\[1, 1024\] GPUs, got 0$/);
    assert.equal(s.planner.plan.gpus_per_node, 4, 'the last valid plan stays');
    for (const id of ['plan.gpus_per_node/reset', 'plan.purchase_usd/reset']) {
        await v.inView(id);
        await v.click(id);
    }
    s = await v.state();
    assert.equal(s.planner.error, null);
    assert.equal(s.planner.plan.gpus_per_node, 8);
    assert.ok(!JSON.stringify(s.planner).includes('NaN'));
    assert.deepEqual(errors, []);
});

test('Use this layout loads it into the detailed training inputs', async () => {
    const s = await v.state();
    const pick = s.planner.plan.ranked[1].layout;  // the second: not what the defaults happen to be
    await v.inView('plan/use/1');
    await v.click('plan/use/1');
    const t = await v.state();
    assert.equal(t.planner.open, false, 'back to the calculator');
    assert.equal(t.inputs.method, 'detailed');
    assert.equal(t.inputs.gpus, 32);
    assert.equal(t.inputs.parallel.tp, pick.tp);
    assert.equal(t.inputs.parallel.pp, pick.pp);
    assert.equal(t.inputs.parallel.dp, pick.dp);
    assert.equal(t.inputs.parallel.cp, pick.cp);
    assert.equal(t.inputs.batch, pick.micro_batch);
    assert.equal(t.inputs.training.grad_accum, pick.grad_accum);
    assert.equal(t.inputs.training.recompute, pick.recompute);
    assert.equal(t.inputs.training.sharding, pick.sharding === 'ddp' ? 'none' : pick.sharding);
    // The detailed calculator now shows that layout's memory: the planner's figure for it.
    const planned = s.planner.plan.ranked[1].memory_bytes;
    assert.ok(Math.abs(t.result.total_bytes - planned) / planned < 0.02, `${t.result.total_bytes} vs ${planned}`);
    // The tab goes back to the planner.
    await v.click('view/planner');
    assert.equal((await v.state()).planner.open, true);
    assert.deepEqual(errors, []);
});
