// Every field of the field tables (core/fields.cpp: the config's and the planner request's) that the
// page should edit has a control on it: a row in shell/ui_*.cpp whose id is the field's path. The
// others are listed below, each with why the page leaves it out, so a new field (or a control taken
// away) fails here until someone decides. Run by ctest (`cli`) with VRAMCALC_BIN set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');

// Fields the page does not edit, and why. A path ending in `.*` covers the fields under it that have
// no control (inference.constants.cuda_context_gib has one; its siblings do not).
const kNotOnPage = [
  ['the document\'s layout version, not an input', ['schema_version']],
  ['the same count as the top-level params_b, which the page\'s "Parameters (billions)" row edits', ['model.params_b']],
  ['the quick rule\'s constants: the page shows the rule as published (docs/methods.md); a what-if sets them in JSON or on the CLI',
    ['constants.*']],
  ['a display name: the preset\'s or the imported file\'s; it changes no figure', ['model.name']],
  ['architecture details of particular families (biases: hidden-sized vectors, under 0.01% of the weights; BERT\'s token types; ' +
    'DeepSeek\'s MLA dimensions; Gemma\'s global-layer period, norms and softcaps; the context window, which the charts mark; the ' +
    'checkpoint\'s dtype, which only picks the default precision): a preset or an imported config.json sets them, and the custom ' +
    'architecture panel edits the dimensions every family has',
    ['model.attn_bias', 'model.mlp_bias', 'model.max_position', 'model.checkpoint_dtype', 'model.type_vocab', 'model.q_lora_rank',
      'model.qk_rope_head_dim', 'model.qk_nope_head_dim', 'model.v_head_dim', 'model.global_every', 'model.norms_per_layer',
      'model.attn_softcap', 'model.final_softcap']],
  ['the frameworks\' own defaults (the CUDA stack limit, cuBLAS workspaces, DeepSpeed and DDP buckets), each sourced where declared; ' +
    'the page\'s runtime rows are the CUDA context, NCCL and the allocator slack',
    ['runtime.cuda_stack_limit_bytes', 'runtime.library_workspace_bytes', 'runtime.deepspeed_bucket_elements',
      'runtime.deepspeed_prefetch_elements', 'runtime.ddp_bucket_bytes']],
  ['figures measured in a vLLM log, replacing the model (the calibration rows, `validate`)',
    ['inference.vllm.activation_peak_gib', 'inference.vllm.non_torch_gib', 'inference.vllm.cuda_graph_gib']],
  ['the projector\'s details: the page picks a projector preset (or imports an mmproj file), which fills them',
    ['inference.llamacpp.mmproj.params_m', 'inference.llamacpp.mmproj.type', 'inference.llamacpp.mmproj.image_tokens',
      'inference.llamacpp.mmproj.hidden', 'inference.llamacpp.mmproj.heads', 'inference.llamacpp.mmproj.ffn']],
  ['the draft model\'s launch details: on the page the draft takes the main model\'s format, offloads every layer and shares the ' +
    'main context (the fields\' defaults); the page edits its preset, draft tokens and acceptance',
    ['inference.llamacpp.draft.weights', 'inference.llamacpp.draft.n_gpu_layers', 'inference.llamacpp.draft.context',
      'inference.llamacpp.draft.min_tokens']],
  ['sourced or fitted constants of the serving model (docs/inference.md); a what-if sets them in JSON or on the CLI',
    ['inference.constants.*']],
  ['the host shorthands: `ddr` only sets the MT/s row\'s value; `cpu_tflops` replaces a constant', ['inference.host.ddr', 'inference.host.cpu_tflops']],
  ['read from a model file the page imports, never typed', ['inference.weights_file.*']],
  ['the planner request\'s search knobs and extras: the page searches with the request\'s defaults and the fabric catalog\'s links ' +
    '(its "Prices and nodes" rows edit the price, purchase price and node size), and runs the fabric, batch-sizing and Pareto extras ' +
    'itself (docs/planner.md)',
    ['plan.top', 'plan.tp_across_nodes', 'plan.uneven_pp', 'plan.max_micro_batch', 'plan.max_cp', 'plan.search.*', 'plan.network_share', 'plan.fabric_spec.*', 'plan.constants.*', 'plan.max_gpus',
      'plan.batch_sizing', 'plan.batch_sizing.*', 'plan.pareto', 'plan.pareto.*', 'plan.fabric_comparison', 'plan.fabric_comparison.*']],
];
const allowed = kNotOnPage.flatMap(([, paths]) => paths);
const isAllowed = (path) => allowed.some((a) => (a.endsWith('.*') ? path.startsWith(a.slice(0, -1)) : path === a));

// The ids of the page's controls: a row's Field {"path", label, tip} (ui_internal.hpp), or the id
// argument of the widgets that take it alone (segmented, form_row, weight_format_combo).
function controlIds() {
  const dir = join(root, 'shell');
  const ids = new Set();
  for (const name of readdirSync(dir).filter((n) => /^ui.*\.cpp$/.test(n))) {
    const src = readFileSync(join(dir, name), 'utf8');
    for (const m of src.matchAll(/\{"([a-z][a-z0-9_.]*)",\s*[^,{}]+,/g)) ids.add(m[1]);
    for (const m of src.matchAll(/\b(?:segmented|form_row|weight_format_combo)\(a,\s*(?:[a-z]+,\s*)?"([a-z][a-z0-9_.]*)"/g)) ids.add(m[1]);
  }
  return ids;
}

const r = spawnSync(BIN, ['fields', '--format', 'json'], { encoding: 'utf8' });
const fields = JSON.parse(r.stdout).filter((f) => f.type !== 'object');  // a section is no value
const ids = controlIds();

test('every field of the tables has a page control or a reason in kNotOnPage', () => {
  assert.ok(fields.length >= 250, `${fields.length} fields`);
  assert.ok(ids.size >= 100, `${ids.size} control ids found in shell/ui_*.cpp`);
  const missing = fields.map((f) => f.path).filter((p) => !ids.has(p) && !isAllowed(p));
  assert.deepEqual(missing, [], 'fields with neither a page control nor a reason in kNotOnPage');
});

test('kNotOnPage stays true: each entry names table fields, none of which has a control', () => {
  for (const a of allowed) {
    const under = fields.filter((f) => (a.endsWith('.*') ? f.path.startsWith(a.slice(0, -1)) : f.path === a));
    assert.ok(under.length > 0, `${a} names no field of the table`);
    assert.ok(under.some((f) => !ids.has(f.path)), `${a} has a page control now: take it out of kNotOnPage`);
  }
});

test('the framework-version toggles of training and QLoRA have their rows', () => {
  for (const p of ['training.keeps_logits', 'training.lora.saves_inputs', 'training.lora.previous_graph', 'training.lora.dequant_fp16',
    'training.lora.unchunked_quantize'])
    assert.ok(ids.has(p), p);
});
