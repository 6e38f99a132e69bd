// vramcalc: a tiny static file server for the built site, with no dependencies.
//   node scripts/serve.mjs [DIR] [--port N] [--host H]     (defaults: build/wasm/site, 8080, 127.0.0.1)
// Serves only regular files inside DIR (GET and HEAD), `.wasm` as application/wasm. Port 0 picks a
// free port. Tests and the benchmark import serveSite() instead of starting a process.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const kTypes = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.mjs': 'text/javascript; charset=utf-8',
    '.wasm': 'application/wasm',
    '.css': 'text/css; charset=utf-8',
    '.json': 'application/json',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
    '.ico': 'image/x-icon',
    '.txt': 'text/plain; charset=utf-8',
};

// The file a request path names inside `root`, or null (outside root, not a file).
function fileFor(root, urlPath) {
    let path;
    try {
        path = decodeURIComponent(new URL(urlPath, 'http://x').pathname);
    } catch {
        return null;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return null;
    try {
        const st = statSync(file);
        return st.isFile() ? { file, size: st.size } : null;
    } catch {
        return null;
    }
}

export function serveSite(dir, { port = 8080, host = '127.0.0.1', log = false } = {}) {
    const root = resolve(dir);
    const server = createServer((req, res) => {
        const found = req.method === 'GET' || req.method === 'HEAD' ? fileFor(root, req.url) : null;
        if (log) console.log(`${req.method} ${req.url} ${found ? 200 : 404}`);
        if (!found) {
            res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405, { 'Content-Type': 'text/plain' });
            res.end('not found\n');
            return;
        }
        res.writeHead(200, {
            'Content-Type': kTypes[extname(found.file)] || 'application/octet-stream',
            'Content-Length': found.size,
            'Cache-Control': 'no-cache',
            'X-Content-Type-Options': 'nosniff',
        });
        if (req.method === 'HEAD') res.end();
        else createReadStream(found.file).pipe(res);
    });
    return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            const { port: actual } = server.address();
            resolveListen({ server, url: `http://${host}:${actual}/` });
        });
    });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const args = process.argv.slice(2);
    const opt = (name, fallback) => {
        const i = args.indexOf(name);
        return i >= 0 ? args.splice(i, 2)[1] : fallback;
    };
    const port = Number(opt('--port', 8080));
    const host = opt('--host', '127.0.0.1');
    const dir = args[0] || join(fileURLToPath(new URL('..', import.meta.url)), 'build/wasm/site');
    if (!fileFor(resolve(dir), '/index.html')) {
        console.error(`serve: no index.html in ${dir}: build the site first (scripts/build.sh web)`);
        process.exit(1);
    }
    serveSite(dir, { port, host }).then(
        ({ url }) => console.log(`vramcalc is served at ${url} (Ctrl+C stops)`),
        (err) => {
            console.error(`serve: cannot listen on ${host}:${port}: ${err.message}`);
            process.exit(1);
        },
    );
}
