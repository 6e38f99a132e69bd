// web/pack.mjs: the bytes a packed script carries come back exactly (the page's and the library's
// wasm ride as a byte-renamed string, see packedBytes), including every byte value and the
// characters that need an escape inside a <script>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byteMap, packedBytes } from '../../web/pack.mjs';

test('packedBytes gives back every byte value, in order', () => {
    const bytes = new Uint8Array(3 * 256 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + (i >> 8)) & 0xff;
    bytes.fill(0, 0, 50);  // the most frequent byte: 0, as in a wasm module
    const source = packedBytes(bytes);
    assert.ok(!/<\/script|<!--|\r|\0/i.test(source), 'no "</script", "<!--", CR or NUL in the script text');
    assert.deepEqual(Array.from(new Function(`return ${source};`)()), Array.from(bytes));
});

test('byteMap gives the most frequent byte a one-byte ASCII character and escapes none of the top 122', () => {
    const bytes = Uint8Array.from([0, 0, 0, 0x5c, 0x5c, 0x22, 0xff]);
    const { encoded, table } = byteMap(bytes);
    assert.ok(encoded[0] < 0x80 && ![0x5c, 0x22, 0x0a, 0x0d, 0x3c, 0].includes(encoded[0]));
    for (let i = 0; i < bytes.length; i++) assert.equal(table[encoded[i]], bytes[i]);
});
