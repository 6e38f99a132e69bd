// Type-checked by tests/js/types.test.mjs (tsc --strict) against web/lib/vramcalc.d.ts: the way
// docs/embed.md tells a TypeScript user to call the library must compile, and misuse must not.
import createVramCalc, { type Config, type Estimate, type Failure, type PlanFabricPoint, type PlanParetoPoint, type VramCalc, type VramCalcPage } from 'vramcalc';

async function main(): Promise<number> {
    const vc: VramCalc = await createVramCalc();
    const config: Config = { method: 'quick', params_b: 7, precision: 'fp16', batch: 4, seq: 2048 };
    const r: Estimate | Failure = vc.estimate(config);
    // @ts-expect-error: a result must be checked before its numbers are read
    const unchecked: number = r.total_bytes;
    if (!r.ok) return r.error.field.length + unchecked;
    const gb = r.total_bytes / 1e9 + r.breakdown['weights'] + r.fits[0].gpus_needed;

    const answer = vc.solve({ method: 'detailed', task: 'inference', model: { preset: 'llama-3.1-8b' }, inference: { engine: 'vllm' } }, 'max_context');
    const presets = vc.presets();
    const gpus = vc.gpus();
    const count = Array.isArray(presets) && Array.isArray(gpus) ? presets.length + gpus[0].memory_bytes : 0;
    // @ts-expect-error: precision names are checked
    vc.estimate({ precision: 'fp7' });
    const full = vc.resolveConfig('{"batch": 2}');
    const plan = vc.plan({ model: { preset: 'llama-3.1-70b' }, gpu: 'h100-80gb', plan: { gpus: 64, fabric: 'ib-ndr400' } });
    const step = plan.ok ? plan.plan.ranked[0].step_s + plan.plan.ranked[0].layout.tp : 0;
    // Which presets x formats fit the GPU, best first: the first that fits, loaded into a config.
    const fits = vc.fitModels({ method: 'detailed', task: 'inference', gpu: 'rtx-4090-24gb', inference: { engine: 'llama.cpp' } });
    const first = fits.ok ? fits.models.find((m) => m.fits) : undefined;
    if (first) vc.estimate({ task: 'inference', model: { preset: first.model }, inference: { weights: first.format } });
    const fitShare = fits.ok ? fits.budget_bytes + fits.models[0].share + fits.models[0].load_bytes : 0;
    const fab = vc.fabrics();
    const links = 'fabrics' in fab ? fab.fabrics.length : 0;
    // @ts-expect-error: the plan's rank names are checked
    vc.plan({ plan: { rank: 'fastest' } });
    // The planner's comparisons, as docs/planner.md names them: Pareto front, fabric chart, clusters, serving.
    const more = vc.plan({ model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb', seq: 4096, plan: { gpus: 32, pareto: { per_count: 3 }, fabric_comparison: true,
                                                                               clusters: 'h100-80gb:32:ib-ndr400,a100-80gb:64:ib-hdr200', deadline_days: 30 } });
    let extras = 0;
    if (more.ok) {
        const front: PlanParetoPoint[] = (more.pareto ?? []).filter((p) => p.front);
        const slowest: PlanFabricPoint | undefined = more.fabric_comparison?.find((f) => !f.sizing.fits);
        extras = front.length + (front[0]?.best.step_s ?? 0) + (more.pareto_tokens ?? 0) + (slowest?.sizing.fix.length ?? 0) +
                 (more.clusters?.[0].meets_deadline ? 1 : 0) + (more.clusters?.[0].best?.mfu ?? 0);
        // @ts-expect-error: a fabric point's best layout may be null (nothing fits on that fabric)
        extras += more.fabric_comparison![0].best.step_s;
    }
    const served = vc.plan({ model: { preset: 'llama-3.1-8b' }, gpu: 'h100-80gb', plan: { gpus: 8, serve: { concurrency: 256, context: 8192 } } });
    const perMtok = served.ok && served.serve_clusters ? served.serve_clusters[0].usd_per_mtok * served.serve_clusters[0].replicas : 0;
    // The guide's checklist: a training answer is a layout, a serving answer replicas x TP.
    let checked = 0;
    if (plan.ok && plan.checklist?.goal === 'train') checked += plan.checklist.answer.layout.tp + plan.checklist.steps[6].value;
    if (served.ok && served.checklist?.goal === 'serve') checked += served.checklist.answer.replicas + served.checklist.answer.kv_bytes;
    // @ts-expect-error: the checklist may be null (nothing fits)
    checked += plan.ok ? plan.checklist.target_bytes : 0;
    // @ts-expect-error: a serving goal needs its concurrency
    vc.plan({ plan: { serve: { context: 8192 } } });
    // A model file's header: the fragment goes into a config; a failure may ask for more bytes.
    const imported = vc.importModel(new Uint8Array([71, 71, 85, 70]), 'model.gguf', 4e10);
    const bytes = new Uint8Array([123, 125]);  // "{}"
    const fromFile = await vc.importFile({ size: bytes.length, name: 'config.json', slice: (a = 0, b = bytes.length) => ({ arrayBuffer: async () => bytes.slice(a, b).buffer }) });
    // A projector (mmproj) alone has no model: model is null.
    const layers = imported.ok ? (imported.model?.layers ?? 0) + imported.weights_bytes : imported.need_bytes ?? 0;
    if (fromFile.ok) vc.estimate({ ...fromFile.config, task: 'inference' });
    // Several files of one model: what each gave, and one config fragment.
    const merged = await vc.importFiles([{ size: bytes.length, name: 'config.json', slice: () => ({ arrayBuffer: async () => bytes.buffer }) }]);
    if (merged.ok) vc.estimate({ ...merged.config, task: 'inference' }), (merged.files ?? []).map((f) => f.name + ': ' + f.gave);
    // @ts-expect-error: importFiles takes a list of files
    vc.importFiles(bytes);
    // @ts-expect-error: importModel takes bytes or text, not a number
    vc.importModel(42);
    return checked + extras + perMtok + fitShare + step + links + layers + gb + count + (answer.ok ? answer.value : 0) + ('error' in full ? 0 : 1) + vc.schemaVersion + vc.version.length;
}

// The page's window.vramcalc: the same API once ready; its members may be absent before.
async function onThePage(page: VramCalcPage): Promise<number> {
    // @ts-expect-error: before `ready` the members may be missing
    page.estimate({ batch: 2 });
    await page.ready;
    const api = page as VramCalc;
    const r = api.estimate({ batch: 2 });
    return r.ok ? r.total_bytes : 0;
}

main();
void onThePage;
