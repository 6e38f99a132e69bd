// Every field of the field tables (core/fields.cpp: the config's and the planner request's) that the
// page should edit has a control on it: a row in shell/ui_*.cpp whose id is the field's path. The
// others say in the table why the page leaves them out (`.off_page(...)`, a section's covering its
// fields; `vramcalc fields --format json` writes it as "off_page"), so a new field (or a control taken
// away) fails here until someone decides. The page's build keeps no meaning for those fields (nor for
// a section), its only use being a row's tooltip: a control for one would show none, which fails here
// too. Run by ctest (`cli`) with VRAMCALC_BIN set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');

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

const offPage = fields.filter((f) => f.off_page);

test('every field of the tables has a page control or a reason it has none (off_page)', () => {
  assert.ok(fields.length >= 250, `${fields.length} fields`);
  assert.ok(ids.size >= 100, `${ids.size} control ids found in shell/ui_*.cpp`);
  const missing = fields.filter((f) => !ids.has(f.path) && !f.off_page).map((f) => f.path);
  assert.deepEqual(missing, [], 'fields with neither a page control nor an off_page reason in core/fields.cpp');
});

test('off_page stays true: no field off the page, nor a section, has a control (the page keeps no meaning for them)', () => {
  assert.ok(offPage.length >= 100, `${offPage.length} fields off the page`);
  for (const f of offPage) assert.ok(f.off_page.length >= 20, `${f.path}: a reason in words`);
  // A section's reason covers its fields: plan.batch_sizing's covers plan.batch_sizing.fabrics.
  assert.equal(fields.find((f) => f.path === 'plan.batch_sizing.fabrics').off_page, fields.find((f) => f.path === 'plan.batch_sizing').off_page);
  // inference.constants.cuda_context_gib has a row; its siblings without one say why.
  assert.equal(fields.find((f) => f.path === 'inference.constants.cuda_context_gib').off_page, undefined);
  assert.ok(fields.find((f) => f.path === 'inference.constants.pcie_gbps').off_page);
  const shown = offPage.filter((f) => ids.has(f.path)).map((f) => f.path);
  assert.deepEqual(shown, [], 'fields marked off_page in core/fields.cpp that have a page control');
  // (The task's option list {"training", "finetune", "inference"} reads as ids here: an enum's spellings are no row.)
  const spellings = new Set(fields.flatMap((f) => f.values || []));
  const sections = JSON.parse(r.stdout).filter((f) => /object$/.test(f.type) && ids.has(f.path) && !spellings.has(f.path)).map((f) => f.path);
  assert.deepEqual(sections, [], 'sections ("object", "bool or object") used as a row\'s id');
});

test('the framework-version toggles of training and QLoRA have their rows', () => {
  for (const p of ['training.keeps_logits', 'training.lora.saves_inputs', 'training.lora.previous_graph', 'training.lora.dequant_fp16',
    'training.lora.unchunked_quantize', 'training.lora.upcast_frozen', 'training.lora.adapters_bf16', 'training.lora.experts_unquantized',
    'training.lora.expert_adapters', 'inference.hf.experts_unquantized'])
    assert.ok(ids.has(p), p);
});
