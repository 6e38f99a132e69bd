// vramcalc: the strings in a WebAssembly module's data segments, by the source file that holds them
// (issue 15: which texts the page ships; docs/performance.md "The page's strings"). Run through
//   node scripts/wasm_profile.mjs APP.wasm --strings [MIN_LEN] [--list ORIGIN]
// (any app.wasm: the data segments need no function names). A string is a run of at least MIN_LEN
// (default 8) printable bytes (ASCII, tab, newline, UTF-8) ending in a NUL. Each is attributed to the
// first source file (our sources, third_party/, nlohmann-json) whose string literals, adjacent ones
// joined, hold it; bytes counted with their NUL. Prints the bytes per origin (raw, and gzip -9 of that
// origin's strings together) and, with --list, that origin's strings.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');

// segs: the data segments' bytes; label: what they were read from.
export function printStrings(segs, label, minLen = 8, listOrigin = null) {
    // NUL-terminated printable runs.
    const printable = (c) => c === 9 || c === 10 || (c >= 32 && c < 127) || c >= 0x80;
    const strings = [];
    for (const seg of segs) {
        let start = 0;
        for (let i = 0; i < seg.length; i++) {
            if (seg[i] === 0) {
                if (i - start >= minLen) strings.push(seg.toString('utf8', start, i));
                start = i + 1;
            } else if (!printable(seg[i])) {
                start = i + 1;
            }
        }
    }

    // Every source file's string literals, adjacent literals joined (C escapes decoded), one corpus.
    const kDirs = ['core', 'io', 'shell', 'web', 'cli', 'third_party'];
    const sources = [];
    const walk = (d) => {
        for (const n of readdirSync(d)) {
            const f = join(d, n);
            if (statSync(f).isDirectory()) walk(f);
            else if (/\.(c|cc|cpp|h|hpp|inc)$/.test(n)) sources.push(f);
        }
    };
    for (const d of kDirs) { try { walk(join(root, d)); } catch { /* absent */ } }
    try { walk('/usr/include/nlohmann'); } catch { /* nlohmann-json elsewhere */ }  // Debian's nlohmann-json3-dev
    const unescape = (s) => s.replace(/\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)/g, (_, e) => {
        if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
        if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
        return { n: '\n', t: '\t', r: '\r', '0': '\0' }[e] ?? e;
    });
    let corpus = '';
    const starts = [];  // [offset, file]
    for (const f of sources) {
        const text = readFileSync(f, 'latin1').replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.includes('"') ? ' ' : m));
        const lits = [];
        let joined = null;
        // A string literal, a character literal ('"' is no string), or any other token.
        const re = /"((?:[^"\\\n]|\\.)*)"|'(?:[^'\\\n]|\\.)+'|[^"'\s]/g;
        for (let m; (m = re.exec(text));) {
            if (m[1] !== undefined) joined = (joined ?? '') + unescape(m[1]);
            else if (joined !== null) { lits.push(joined); joined = null; }
        }
        if (joined !== null) lits.push(joined);
        starts.push([corpus.length, relative(root, f)]);
        corpus += '\u0001' + Buffer.from(lits.join('\u0001'), 'latin1').toString('utf8') + '\u0001';
    }
    const fileAt = (off) => {
        let lo = 0, hi = starts.length - 1;
        while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid][0] <= off) lo = mid; else hi = mid - 1; }
        return starts[lo][1];
    };

    // Origin: a file of ours, or third_party's library (its first folder under third_party).
    const origin = (s) => {
        const at = corpus.indexOf(s);
        if (at < 0) return '(none of our sources: libc, Emscripten, generated)';
        const f = fileAt(at);
        if (f.includes('nlohmann')) return 'nlohmann-json';
        return f.startsWith('third_party/') ? f.split('/').slice(0, 2).join('/') : f;
    };
    const by = new Map();
    for (const s of strings) {
        const o = origin(s);
        const e = by.get(o) || { n: 0, raw: 0, list: [] };
        e.n++; e.raw += Buffer.byteLength(s) + 1; e.list.push(s);
        by.set(o, e);
    }
    const gz = (t) => gzipSync(Buffer.from(t), { level: 9 }).length;
    const all = strings.reduce((a, s) => a + Buffer.byteLength(s) + 1, 0);
    console.log(`${label}: data ${segs.reduce((a, g) => a + g.length, 0)} B, ${strings.length} strings of ${minLen}+ bytes: ${all} B (gzip -9 alone ${gz(strings.join('\0'))} B)`);
    console.log('origin'.padEnd(52) + 'strings'.padStart(8) + 'bytes'.padStart(9) + 'gzip'.padStart(8));
    for (const [o, e] of [...by].sort((x, y) => y[1].raw - x[1].raw)) {
        console.log(o.padEnd(52) + String(e.n).padStart(8) + String(e.raw).padStart(9) + String(gz(e.list.join('\0'))).padStart(8));
    }
    if (listOrigin) {
        const e = by.get(listOrigin);
        for (const s of e ? e.list : []) console.log(JSON.stringify(s));
    }
}
