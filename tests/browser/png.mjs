// A minimal PNG reader for test screenshots (8-bit RGB/RGBA, not interlaced: what Chromium writes),
// so tests can check pixels without an image library.
import { inflateSync } from 'node:zlib';

// Returns {width, height, channels, pixels} with pixels as a Uint8Array of width*height*channels.
export function decodePng(buf) {
    if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
    let pos = 8, width = 0, height = 0, channels = 0;
    const idat = [];
    while (pos < buf.length) {
        const len = buf.readUInt32BE(pos);
        const type = buf.toString('latin1', pos + 4, pos + 8);
        const data = buf.subarray(pos + 8, pos + 8 + len);
        if (type === 'IHDR') {
            width = data.readUInt32BE(0);
            height = data.readUInt32BE(4);
            const depth = data[8], color = data[9], interlace = data[12];
            if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) throw new Error('unsupported PNG format');
            channels = color === 6 ? 4 : 3;
        } else if (type === 'IDAT') idat.push(data);
        else if (type === 'IEND') break;
        pos += 12 + len;
    }
    const raw = inflateSync(Buffer.concat(idat));
    const stride = width * channels;
    const pixels = new Uint8Array(height * stride);
    for (let y = 0; y < height; y++) {
        const filter = raw[y * (stride + 1)];
        const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
        const out = y * stride, prev = out - stride;
        for (let x = 0; x < stride; x++) {
            const a = x >= channels ? pixels[out + x - channels] : 0;
            const b = y > 0 ? pixels[prev + x] : 0;
            const c = x >= channels && y > 0 ? pixels[prev + x - channels] : 0;
            let v = line[x];
            if (filter === 1) v += a;
            else if (filter === 2) v += b;
            else if (filter === 3) v += (a + b) >> 1;
            else if (filter === 4) {
                const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            }
            pixels[out + x] = v & 0xff;
        }
    }
    return { width, height, channels, pixels };
}

// How many distinct colours, and the share of pixels that differ from the most common one.
export function pixelStats({ width, height, channels, pixels }) {
    const counts = new Map();
    for (let i = 0; i < width * height; i++) {
        const k = (pixels[i * channels] << 16) | (pixels[i * channels + 1] << 8) | pixels[i * channels + 2];
        counts.set(k, (counts.get(k) || 0) + 1);
    }
    const top = Math.max(...counts.values());
    return { colors: counts.size, nonBackgroundShare: 1 - top / (width * height) };
}
