// vramcalc build tool: subsets a TrueType font to the characters the UI draws and writes it as a C++
// source file (byte array + the ImGui glyph ranges), so the page carries a real font in a few KB.
//   node scripts/embed_font.mjs IN.ttf OUT.cpp RANGES [NAME]   RANGES: hex pairs, e.g. 20-7E,A0-FF,2264
//   NAME names the symbols (default Font: kFontTtf, kFontTtfSize, kFontRanges; FontBold: kFontBoldTtf...)
// The subset keeps the tables stb_truetype (ImGui's rasterizer) reads: cmap (rebuilt, format 4),
// glyf/loca/hmtx (only the kept glyphs and their components, renumbered), head, hhea, maxp.
// NOTE: hinting, kerning, names and layout tables are dropped; ImGui uses none of them.
import { readFileSync, writeFileSync } from 'node:fs';

const [inPath, outPath, rangesArg, symbol = 'Font'] = process.argv.slice(2);
if (!inPath || !outPath || !rangesArg) {
    console.error('usage: node embed_font.mjs IN.ttf OUT.cpp RANGES');
    process.exit(2);
}

const ranges = rangesArg.split(',').map((r) => {
    const [a, b] = r.split('-').map((h) => parseInt(h, 16));
    return [a, b ?? a];
});

const font = readFileSync(inPath);
const tables = {};
for (let i = 0, n = font.readUInt16BE(4); i < n; i++) {
    const rec = 12 + 16 * i;
    const tag = font.toString('latin1', rec, rec + 4);
    tables[tag] = font.subarray(font.readUInt32BE(rec + 8), font.readUInt32BE(rec + 8) + font.readUInt32BE(rec + 12));
}
for (const t of ['cmap', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp'])
    if (!tables[t]) throw new Error(`${inPath}: no ${t} table`);

const numGlyphs = tables.maxp.readUInt16BE(4);
const longLoca = tables.head.readInt16BE(50) === 1;
const glyphOffset = (g) => (longLoca ? tables.loca.readUInt32BE(4 * g) : 2 * tables.loca.readUInt16BE(2 * g));

// Character -> glyph through the Unicode BMP subtable (platform 3 encoding 1, format 4).
function cmapFormat4() {
    const c = tables.cmap;
    for (let i = 0, n = c.readUInt16BE(2); i < n; i++) {
        const platform = c.readUInt16BE(4 + 8 * i), encoding = c.readUInt16BE(6 + 8 * i);
        const sub = c.subarray(c.readUInt32BE(8 + 8 * i));
        if (platform === 3 && encoding === 1 && sub.readUInt16BE(0) === 4) return sub;
    }
    throw new Error(`${inPath}: no Unicode BMP (format 4) cmap`);
}
const sub = cmapFormat4();
const segCount = sub.readUInt16BE(6) / 2;
function glyphOf(code) {
    for (let s = 0; s < segCount; s++) {
        const end = sub.readUInt16BE(14 + 2 * s);
        if (code > end) continue;
        const start = sub.readUInt16BE(16 + 2 * segCount + 2 * s);
        if (code < start) return 0;
        const delta = sub.readInt16BE(16 + 4 * segCount + 2 * s);
        const roAt = 16 + 6 * segCount + 2 * s;
        const ro = sub.readUInt16BE(roAt);
        if (ro === 0) return (code + delta) & 0xffff;
        const g = sub.readUInt16BE(roAt + ro + 2 * (code - start));
        return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
}

// Kept characters and glyphs (composite glyphs pull in their components).
const map = [];
for (const [a, b] of ranges)
    for (let code = a; code <= b; code++) {
        const g = glyphOf(code);
        if (g) map.push([code, g]);
    }
const keep = new Set([0]);
const visit = (g) => {
    if (keep.has(g) && g !== 0) return;
    keep.add(g);
    const off = glyphOffset(g), len = glyphOffset(g + 1) - off;
    if (len === 0 || tables.glyf.readInt16BE(off) >= 0) return;
    let p = off + 10, flags;
    do {
        flags = tables.glyf.readUInt16BE(p);
        visit(tables.glyf.readUInt16BE(p + 2));
        p += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
    } while (flags & 0x0020);
};
for (const [, g] of map) visit(g);

// The kept glyphs renumbered 0..n-1 (glyph 0, .notdef, first): glyf, a long loca, and hmtx with a
// full metric per glyph, so the file holds nothing for the thousands of dropped glyphs.
const order = [...keep].sort((x, y) => x - y);
const newId = new Map(order.map((g, i) => [g, i]));
const glyfParts = [];
const loca = Buffer.alloc(4 * (order.length + 1));
let at = 0;
order.forEach((g, i) => {
    loca.writeUInt32BE(at, 4 * i);
    let part = Buffer.from(tables.glyf.subarray(glyphOffset(g), glyphOffset(g + 1)));
    if (part.length > 0 && part.readInt16BE(0) < 0) {
        // A composite glyph names its components by glyph id: rewrite them to the new ids.
        let p = 10, flags;
        do {
            flags = part.readUInt16BE(p);
            part.writeUInt16BE(newId.get(part.readUInt16BE(p + 2)), p + 2);
            p += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
        } while (flags & 0x0020);
    }
    if (part.length % 4) part = Buffer.concat([part, Buffer.alloc(4 - (part.length % 4))]);
    glyfParts.push(part);
    at += part.length;
});
loca.writeUInt32BE(at, 4 * order.length);
const glyf = Buffer.concat(glyfParts);

const numHMetrics = tables.hhea.readUInt16BE(34);
const hmtx = Buffer.alloc(4 * order.length);
order.forEach((g, i) => {
    const long = Math.min(g, numHMetrics - 1);
    hmtx.writeUInt16BE(tables.hmtx.readUInt16BE(4 * long), 4 * i);  // advance (glyphs past the long metrics repeat the last)
    hmtx.writeInt16BE(g < numHMetrics ? tables.hmtx.readInt16BE(4 * g + 2) : tables.hmtx.readInt16BE(4 * numHMetrics + 2 * (g - numHMetrics)), 4 * i + 2);
});
const hhea = Buffer.from(tables.hhea);
hhea.writeUInt16BE(order.length, 34);   // numberOfHMetrics
const maxp = Buffer.from(tables.maxp);
maxp.writeUInt16BE(order.length, 4);    // numGlyphs

const head = Buffer.from(tables.head);
head.writeInt16BE(1, 50);       // long loca
head.writeUInt32BE(0, 8);       // checkSumAdjustment (not verified by stb_truetype)

// cmap: one format 4 subtable, a segment per run of consecutive codes mapping to consecutive glyphs.
const segs = [];
for (const [code, oldGlyph] of map) {
    const g = newId.get(oldGlyph);
    const last = segs[segs.length - 1];
    if (last && code === last.end + 1 && g - code === last.gid - last.start) last.end = code;
    else segs.push({ start: code, end: code, gid: g });
}
segs.push({ start: 0xffff, end: 0xffff, gid: 1 });  // required final segment (maps to glyph 0)
const n = segs.length;
const log2 = Math.floor(Math.log2(n));
const f4 = Buffer.alloc(16 + 8 * n);
f4.writeUInt16BE(4, 0);
f4.writeUInt16BE(f4.length, 2);
f4.writeUInt16BE(2 * n, 6);
f4.writeUInt16BE(2 * 2 ** log2, 8);
f4.writeUInt16BE(log2, 10);
f4.writeUInt16BE(2 * n - 2 * 2 ** log2, 12);
segs.forEach((s, i) => {
    f4.writeUInt16BE(s.end, 14 + 2 * i);
    f4.writeUInt16BE(s.start, 16 + 2 * n + 2 * i);
    f4.writeUInt16BE((s.gid - s.start) & 0xffff, 16 + 4 * n + 2 * i);
    f4.writeUInt16BE(0, 16 + 6 * n + 2 * i);
});
const cmapHeader = Buffer.alloc(12);
cmapHeader.writeUInt16BE(1, 2);
cmapHeader.writeUInt16BE(3, 4);
cmapHeader.writeUInt16BE(1, 6);
cmapHeader.writeUInt32BE(12, 8);
const cmap = Buffer.concat([cmapHeader, f4]);

// Assemble the sfnt (tables sorted by tag, 4-byte aligned).
const out = { cmap, glyf, head, hhea, hmtx, loca, maxp };
const tags = Object.keys(out).sort();
const dir = Buffer.alloc(12 + 16 * tags.length);
dir.writeUInt32BE(0x00010000, 0);
dir.writeUInt16BE(tags.length, 4);
const tlog = Math.floor(Math.log2(tags.length));
dir.writeUInt16BE(16 * 2 ** tlog, 6);
dir.writeUInt16BE(tlog, 8);
dir.writeUInt16BE(16 * tags.length - 16 * 2 ** tlog, 10);
const body = [];
let offset = dir.length;
tags.forEach((tag, i) => {
    const data = out[tag];
    const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
    let sum = 0;
    for (let k = 0; k < padded.length; k += 4) sum = (sum + padded.readUInt32BE(k)) >>> 0;
    dir.write(tag, 12 + 16 * i, 'latin1');
    dir.writeUInt32BE(sum, 16 + 16 * i);
    dir.writeUInt32BE(offset, 20 + 16 * i);
    dir.writeUInt32BE(data.length, 24 + 16 * i);
    body.push(padded);
    offset += padded.length;
});
const ttf = Buffer.concat([dir, ...body]);

const bytes = [];
for (let i = 0; i < ttf.length; i += 24) bytes.push(Array.from(ttf.subarray(i, i + 24)).join(','));
const rangeList = ranges.flat().map((v) => '0x' + v.toString(16)).join(', ');
writeFileSync(outPath, `// Generated by scripts/embed_font.mjs from ${inPath.split('/').pop()} (${map.length} characters, ${keep.size} glyphs). Do not edit.
#include "shell/font.hpp"

namespace vc::shell {
const unsigned char k${symbol}Ttf[] = {
${bytes.join(',\n')}
};
const unsigned k${symbol}TtfSize = ${ttf.length};
const unsigned short k${symbol}Ranges[] = {${rangeList}, 0};
}  // namespace vc::shell
`);
console.log(`embed_font: ${inPath.split('/').pop()} -> ${ttf.length} bytes (${map.length} characters, ${keep.size} glyphs)`);
