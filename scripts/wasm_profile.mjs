// vramcalc: size profile of a WebAssembly module (issue 15: what the page's download is made of).
//   node scripts/wasm_profile.mjs APP.wasm [TOP]
// APP.wasm must carry function names: link with --profiling-funcs (scripts/size_profile.sh does).
// Prints the sections, the code by group (nlohmann-json, libc++, ImGui, Embind, printf, the engine,
// io, the shell) and the TOP largest functions, each raw and as the gzip -9 of its bytes on their own
// (a function's share of the whole module's gzip is smaller: the stream shares matches across it).
//   node scripts/wasm_profile.mjs APP.wasm --strings [MIN_LEN] [--list ORIGIN]
// prints the data segments' strings by the source file that holds them instead (scripts/wasm_strings.mjs;
// any app.wasm, no names needed).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { printStrings } from './wasm_strings.mjs';

const args = process.argv.slice(2);
const listAt = args.indexOf('--list');
const listOrigin = listAt >= 0 ? args.splice(listAt, 2)[1] : null;
const strings = args.includes('--strings');
if (strings) args.splice(args.indexOf('--strings'), 1);
const [file, topArg] = args;
if (!file) {
    console.error('usage: node scripts/wasm_profile.mjs APP.wasm [TOP] | APP.wasm --strings [MIN_LEN] [--list ORIGIN]');
    process.exit(2);
}
const top = Number(topArg || 40);
const b = readFileSync(file);
let p = 8;
const leb = () => {
    let r = 0, s = 0, x;
    do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return r;
};
const str = () => { const n = leb(); const t = b.toString('utf8', p, p + n); p += n; return t; };

const sections = [];
let importedFuncs = 0;
const bodies = [];   // [start, end) of each defined function's body
const names = new Map();
const dataSegs = [];
const kNames = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'];
while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const start = p, end = p + size;
    let label = kNames[id] || `id ${id}`;
    if (id === 0) {
        const name = str();
        label = `custom "${name}"`;
        if (name === 'name') {
            while (p < end) {
                const sub = b[p++];
                const subSize = leb();
                const subEnd = p + subSize;
                if (sub === 1) {
                    for (let n = leb(); n > 0; n--) { const idx = leb(); names.set(idx, str()); }
                }
                p = subEnd;
            }
        }
    } else if (id === 2) {
        for (let n = leb(); n > 0; n--) {
            str(); str();
            const kind = b[p++];
            if (kind === 0) { leb(); importedFuncs++; }
            else if (kind === 1) { p++; const f = leb(); leb(); if (f & 1) leb(); }
            else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
            else if (kind === 3) { p += 2; }
        }
    } else if (id === 10) {
        for (let n = leb(); n > 0; n--) { const s = leb(); bodies.push([p, p + s]); p += s; }
    } else if (id === 11) {
        for (let n = leb(); n > 0; n--) {
            const flags = leb();
            if (flags === 2) leb();
            if (flags !== 1) { p++; leb(); p++; }  // the offset: i32.const or global.get, its LEB, end
            const s = leb();
            dataSegs.push([p, p + s]);
            p += s;
        }
    }
    sections.push({ label, size });
    p = end;
}

if (strings) {
    printStrings(dataSegs.map(([s, e]) => b.subarray(s, e)), file, Number(topArg || 8), listOrigin);
    process.exit(0);
}

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => (n / 1000).toFixed(1).padStart(7);
console.log(`${file}: ${kb(b.length)} KB raw, ${kb(gz(b))} KB gzip -9`);
console.log('sections (raw KB):');
for (const s of sections) console.log(`  ${s.label.padEnd(28)} ${kb(s.size)}`);

// Demangle every name in one call to llvm-cxxfilt (c++filt as a fallback).
const raw = bodies.map((_, i) => names.get(importedFuncs + i) || `func${importedFuncs + i}`);
let demangled = raw;
for (const tool of ['llvm-cxxfilt-14', 'llvm-cxxfilt', 'c++filt']) {
    try {
        demangled = execFileSync(tool, [], { input: raw.join('\n'), maxBuffer: 1 << 28 }).toString().split('\n').slice(0, raw.length);
        break;
    } catch { /* next tool */ }
}

// Groups, first match wins: the order puts the specific before the general.
const kGroups = [
    ['nlohmann-json', /nlohmann::/],
    ['Embind', /emscripten::|embind|_embind_/],
    ['ImGui', /^(ImGui|Im[A-Z]|ImGui_|stbtt|stb_|ImStb|igl_|ImFont|ImDraw)|ImGui::|Im[A-Z][A-Za-z]+::|stbrp|stbtt/],
    ['printf/strtod (libc)', /^(printf_core|fmt_fp|fmt_|pop_arg|vfprintf|vsnprintf|snprintf|sn_write|out|pad|getint|frexp|strtod|strtof|__floatscan|decfloat|scanexp|__shgetc|__shlim|__intscan|hexfloat|wcrtomb|wctomb|vsscanf|sscanf|__isxdigit)/],
    // libc++ by the function's own name (a template function's demangled name starts with its return
    // type), not by a std:: type among its parameters: vc::io::import_model(..., std::string) is io.
    ['libc++', /^(?:(?:void|bool|int|unsigned \w+|long|char|double|float) )?std::/],
    ['engine (core)', /vc::core::|^(?:\w+ )?vc::(?!io::|shell::)/],
    ['io', /vc::io::/],
    ['shell', /vc::shell::|vc::ui::|shell::/],
];
const groups = new Map();
const funcs = demangled.map((name, i) => {
    const [s, e] = bodies[i];
    const group = (kGroups.find(([, re]) => re.test(name)) || ['other (libc, malloc, GLFW glue, main)'])[0];
    const g = groups.get(group) || { raw: 0, n: 0, bufs: [] };
    g.raw += e - s; g.n++; g.bufs.push(b.subarray(s, e));
    groups.set(group, g);
    return { name, raw: e - s, i };
});
const dataRaw = dataSegs.reduce((a, [s, e]) => a + e - s, 0);
console.log(`code by group (raw KB, gzip -9 KB of the group's bodies together; ${bodies.length} functions):`);
for (const [name, g] of [...groups].sort((x, y) => y[1].raw - x[1].raw)) {
    console.log(`  ${name.padEnd(40)} ${kb(g.raw)} ${kb(gz(Buffer.concat(g.bufs)))}   ${g.n} functions`);
}
console.log(`  ${'data segments (strings, tables, fonts)'.padEnd(40)} ${kb(dataRaw)} ${kb(gz(Buffer.concat(dataSegs.map(([s, e]) => b.subarray(s, e)))))}`);
console.log(`largest ${top} functions (raw KB):`);
for (const f of funcs.sort((x, y) => y.raw - x.raw).slice(0, top)) {
    console.log(`  ${kb(f.raw)}  ${f.name.length > 150 ? f.name.slice(0, 147) + '...' : f.name}`);
}
