// vramcalc web: packs Emscripten's output into what the browser (and Node) loads, with no fetch.
//   node web/pack.mjs app    APP.js APP.wasm OUT.js [API.js]
//       the page's app.js with the wasm inside (Module.wasmBinary): the page's
//       Content-Security-Policy has connect-src 'none', which forbids fetching app.wasm; API.js
//       (web/api.js, the JS API the page shares with the library) goes in before Emscripten's glue
//   node web/pack.mjs stream APP.js APP.wasm OUT.js OUT.wasm [API.js]
//       the hosted page's app-stream.js: the same glue and API.js without the wasm, which Emscripten
//       fetches next to it (OUT.wasm, a copy of APP.wasm) with WebAssembly.instantiateStreaming,
//       compiling while it downloads: index.html's CSP has connect-src 'self' for that one request
//       (issue 15: 19 KB gzip less than the string). The widget (a sandboxed iframe, an opaque origin
//       that may not fetch) and the single file keep app.js
//   node web/pack.mjs lib    LIB.js LIB.wasm API.js ENTRY.js TYPES.d.ts VERSION OUTDIR
//       the JS library: OUTDIR/vramcalc.mjs (ES module), vramcalc.js (classic script / CommonJS),
//       vramcalc.d.ts and package.json; API.js is web/api.js, ENTRY.js web/lib/entry.js
//   node web/pack.mjs glue SRC.js OUT.js
//       the page's own glue script (web/vramcalc.js, embed.js, import.js) without its whole-line
//       comments: they are for readers of the source, and were a quarter of the glue's download
//   node web/pack.mjs single SITEDIR PAGE.html OUT.html
//       one self-contained page for file://: every <script src> of PAGE inlined (app.js, the wasm
//       inside, for app-stream.js), the CSP's script-src and style-src replaced by sha256 hashes of
//       the inline scripts and styles, connect-src 'none'
// NOTE: the wasm rides as a JS string with one character per byte (U+0000..U+00FF). The bytes are
// first renamed by frequency (byteMap): the 122 most frequent bytes become ASCII characters that need
// no escape (one UTF-8 byte each), the rarest become the characters that need one. That gzips to
// about 4% more than the wasm next to the script (the plain byte string: 7%; base64: about 26%).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// A JS string literal holding `bytes`, one character per byte. Safe inside an HTML <script>: no
// '<' (so no "</script" or "<!--"), no NUL and no CR (the HTML parser would rewrite them).
export function byteStringLiteral(bytes) {
    const parts = [];
    for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (b === 0x5c) parts.push('\\\\');
        else if (b === 0x22) parts.push('\\"');
        else if (b === 0x0a) parts.push('\\n');
        else if (b === 0x0d) parts.push('\\r');
        else if (b === 0x3c) parts.push('\\x3c');
        else if (b === 0x00) parts.push(i + 1 < bytes.length && bytes[i + 1] >= 0x30 && bytes[i + 1] <= 0x39 ? '\\x00' : '\\0');
        else parts.push(String.fromCharCode(b));
    }
    return '"' + parts.join('') + '"';
}

// The characters that need an escape in byteStringLiteral (or are two UTF-8 bytes) go last.
const kEscaped = [0x5c, 0x22, 0x0a, 0x0d, 0x3c, 0x00];
const kCharOrder = [...Array(256).keys()].filter((c) => c < 0x80 && !kEscaped.includes(c))
    .concat([...Array(128).keys()].map((c) => c + 0x80), kEscaped);

// byteMap(bytes) -> { encoded, table }: encoded[i] = the character for bytes[i]; table (256 bytes)
// gives the byte back: table[character] = byte. Ties go to the lower byte, so the map is stable.
export function byteMap(bytes) {
    const freq = new Array(256).fill(0);
    for (const b of bytes) freq[b]++;
    const byFreq = [...Array(256).keys()].sort((x, y) => freq[y] - freq[x] || x - y);
    const toChar = new Uint8Array(256), table = new Uint8Array(256);
    byFreq.forEach((b, i) => { toChar[b] = kCharOrder[i]; table[kCharOrder[i]] = b; });
    return { encoded: Uint8Array.from(bytes, (b) => toChar[b]), table };
}

// JS source of an expression that evaluates to the Uint8Array `bytes` (see byteMap).
export function packedBytes(bytes) {
    const { encoded, table } = byteMap(bytes);
    return `(function (s, t) { var b = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) b[i] = t.charCodeAt(s.charCodeAt(i)); return b; })(` +
        `${byteStringLiteral(encoded)}, ${byteStringLiteral(table)})`;
}

function packApp(appJs, appWasm, out, apiJs) {
    const js = readFileSync(appJs, 'utf8');
    const api = apiJs ? readFileSync(apiJs, 'utf8') : '';
    const wasm = readFileSync(appWasm);
    mkdirSync(dirname(out), { recursive: true });  // a fresh build has no site/ yet
    writeFileSync(out, [
        '// vramcalc web app, packed by web/pack.mjs from app.js and app.wasm: the WebAssembly module rides',
        '// inside this script (one byte per character), so the page never fetches it (connect-src \'none\').',
        'var Module = typeof Module != \'undefined\' ? Module : {};',
        `Module.wasmBinary = ${packedBytes(wasm)};`,
        api,
        js,
    ].join('\n'));
}

function packStream(appJs, appWasm, outJs, outWasm, apiJs) {
    const js = readFileSync(appJs, 'utf8');
    const api = apiJs ? readFileSync(apiJs, 'utf8') : '';
    mkdirSync(dirname(outJs), { recursive: true });
    writeFileSync(outJs, [
        '// vramcalc web app, packed by web/pack.mjs from app.js: the WebAssembly module is app.wasm next to',
        '// this script, compiled while it downloads (WebAssembly.instantiateStreaming; connect-src \'self\').',
        'var Module = typeof Module != \'undefined\' ? Module : {};',
        api,
        js,
    ].join('\n'));
    copyFileSync(appWasm, outWasm);
}

function packLib(libJs, libWasm, apiJs, entryJs, types, version, outDir) {
    // Emscripten's CommonJS/AMD export lines go: the footers below export createVramCalc instead.
    const factory = readFileSync(libJs, 'utf8').replace(/\nif \(typeof exports === 'object' && typeof module === 'object'\)[\s\S]*$/, '\n');
    if (/typeof define === 'function'/.test(factory)) throw new Error(`${libJs}: Emscripten's export lines were not found to remove`);
    const wasm = readFileSync(libWasm);
    const api = readFileSync(apiJs, 'utf8') + '\n' + readFileSync(entryJs, 'utf8');
    const banner = '// vramcalc JS library: GPU memory (VRAM) estimates for LLM training and serving, computed locally\n' +
        '// in WebAssembly. Generated by web/pack.mjs from web/api.js, web/lib/entry.js and the vramcalc_lib build; see\n' +
        '// docs/embed.md. The WebAssembly module is inside this file: loading it makes no request.\n';
    const body = [factory, `function vramcalcWasmBytes() { return ${packedBytes(wasm)}; }`, api].join('\n');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'vramcalc.mjs'), `${banner}${body}\nexport { createVramCalc };\nexport default createVramCalc;\n`);
    writeFileSync(join(outDir, 'vramcalc.js'), `${banner}(function (root) {\n'use strict';\n${body}\n` +
        'if (typeof module === \'object\' && module) {\n' +
        '    module.exports = createVramCalc;\n    module.exports.createVramCalc = createVramCalc;\n    module.exports.default = createVramCalc;\n' +
        '} else {\n    root.createVramCalc = createVramCalc;\n}\n' +
        '})(typeof globalThis !== \'undefined\' ? globalThis : this);\n');
    copyFileSync(types, join(outDir, 'vramcalc.d.ts'));
    writeFileSync(join(outDir, 'package.json'), JSON.stringify({
        name: 'vramcalc',
        version,
        description: 'GPU memory (VRAM) calculator for LLM training and serving, in WebAssembly',
        license: 'MIT',
        main: './vramcalc.js',
        module: './vramcalc.mjs',
        types: './vramcalc.d.ts',
        exports: { '.': { types: './vramcalc.d.ts', import: './vramcalc.mjs', require: './vramcalc.js', default: './vramcalc.mjs' } },
        sideEffects: false,
    }, null, 2) + '\n');
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The page with its scripts inlined and its CSP rewritten to hashes.
export function singleFile(siteDir, pageName) {
    let html = readFileSync(join(siteDir, pageName), 'utf8');
    const scriptHashes = [], styleHashes = [];
    html = html.replace(/<script\b([^>]*)\bsrc="([^"]+)"[^>]*><\/script>/g, (whole, attrs, src) => {
        if (/^[a-z]+:|^\/\//i.test(src)) throw new Error(`${pageName}: ${src} is not a file of the site`);
        // The hosted page streams app.wasm (app-stream.js); the single file carries it inside (app.js).
        const text = readFileSync(join(siteDir, src === 'app-stream.js' ? 'app.js' : src), 'utf8');
        if (/<\/script|<!--/i.test(text)) throw new Error(`${src} contains "</script" or "<!--": it cannot be inlined as is`);
        if (text.includes('\r')) throw new Error(`${src} contains a CR, which the HTML parser would rewrite`);
        scriptHashes.push(sha256(text));
        return `<script>${text}</script>`;
    });
    // The hosted page's preloads name files the single file carries inside (and a fetch it may not make).
    html = html.replace(/<!--(?:(?!-->)[\s\S])*?preload(?:(?!-->)[\s\S])*?-->\n|<link rel="preload"[^>]*>\n/g, '');
    for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) if (!scriptHashes.includes(sha256(m[1]))) scriptHashes.push(sha256(m[1]));
    for (const m of html.matchAll(/<style>([\s\S]*?)<\/style>/g)) styleHashes.push(sha256(m[1]));
    let found = false;
    html = html.replace(/(<meta http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/, (whole, a, csp, z) => {
        found = true;
        const directives = csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => d.split(/\s+/));
        const set = (name, values) => {
            const d = directives.find((x) => x[0] === name);
            if (d) d.splice(1, d.length - 1, ...values);
            else directives.push([name, ...values]);
        };
        const script = directives.find((x) => x[0] === 'script-src') || ['script-src'];
        set('script-src', [...scriptHashes, ...script.slice(1).filter((v) => v !== "'self'")]);
        set('style-src', styleHashes.length ? styleHashes : ["'none'"]);
        set('connect-src', ["'none'"]);  // the wasm is inside: nothing to fetch
        // 'self' means nothing on file://; the single file loads nothing but itself.
        for (const d of directives) if (d.length > 2 && d.includes("'self'")) d.splice(d.indexOf("'self'"), 1);
        return a + directives.map((d) => d.join(' ')).join('; ') + z;
    });
    if (!found) throw new Error(`${pageName} has no Content-Security-Policy meta tag`);
    return html;
}

// `text` without the lines that hold only a // comment (the glue has no multi-line strings).
export function stripLineComments(text) {
    return text.split('\n').filter((line) => !/^\s*\/\//.test(line)).join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const [what, ...args] = process.argv.slice(2);
    if (what === 'app' && (args.length === 3 || args.length === 4)) packApp(...args);
    else if (what === 'stream' && (args.length === 4 || args.length === 5)) packStream(...args);
    else if (what === 'lib' && args.length === 7) packLib(...args);
    else if (what === 'glue' && args.length === 2) writeFileSync(args[1], stripLineComments(readFileSync(args[0], 'utf8')));
    else if (what === 'single' && args.length === 3) writeFileSync(args[2], singleFile(args[0], args[1]));
    else {
        console.error('usage: node web/pack.mjs app APP.js APP.wasm OUT.js [API.js] | stream APP.js APP.wasm OUT.js OUT.wasm [API.js] | lib LIB.js LIB.wasm API.js ENTRY.js TYPES.d.ts VERSION OUTDIR |' +
            ' glue SRC.js OUT.js | single SITEDIR PAGE.html OUT.html');
        process.exit(2);
    }
}
