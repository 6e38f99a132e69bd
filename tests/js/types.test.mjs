// The TypeScript declarations (web/lib/vramcalc.d.ts, shipped as build/wasm/lib/vramcalc.d.ts):
// tests/js/usage.ts, written as docs/embed.md shows, compiles under `tsc --strict`, and its
// @ts-expect-error lines prove that an unchecked result and a misspelt enum do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const libDir = process.env.VRAMCALC_LIB || join(root, 'build/wasm/lib');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

test('usage.ts type-checks against the declarations', { skip: !existsSync(tsc) && 'typescript is not installed (npm ci)' }, () => {
    const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('the library ships the same declarations', { skip: !existsSync(join(libDir, 'vramcalc.d.ts')) && 'no library build' }, () => {
    assert.equal(readFileSync(join(libDir, 'vramcalc.d.ts'), 'utf8'), readFileSync(join(root, 'web/lib/vramcalc.d.ts'), 'utf8'));
});
