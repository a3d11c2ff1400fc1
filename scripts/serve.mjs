// A tiny static file server (no dependencies): the package's command line
// (bin/attention-lab.mjs, which `npm start` runs too) and the tests serve with it.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.bin': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `root` on `host` (127.0.0.1). Resolves to { server, url }.
 * `handle(req, res)` may answer a request itself (a test's redirect): it returns true then.
 * `alias(path)` names the file to send for a path that `root` lacks (the package's
 * site reads files the tarball holds once, elsewhere; bin/attention-lab.mjs).
 * @param {{root?: string, port?: number, host?: string, headers?: Record<string, string>,
 *          handle?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean,
 *          alias?: (path: string) => string | undefined}} options
 */
export function serve({ root, port = 0, host = '127.0.0.1', headers = {}, handle, alias } = {}) {
  const base = resolve(root ?? join(dirname(fileURLToPath(import.meta.url)), '../dist/site'));
  const server = createServer((req, res) => {
    if (handle?.(req, res)) return;
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path'); // %zz would throw and stop the server
      return;
    }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let size;
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      size = statSync(file).size;
    } catch {
      const other = alias?.(path);
      size = other === undefined ? undefined : statSync(other, { throwIfNoEntry: false })?.size;
      if (size === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      file = other;
    }
    const type = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'accept-ranges': 'bytes' };
    // One byte range, as static hosts answer it (explainHead re-reads a layer's weights so);
    // anything else gets the whole file.
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] !== '' || range[2] !== '')) {
      const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (start > end || start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}`, ...headers }).end();
        return;
      }
      res.writeHead(206, {
        ...type,
        'content-range': `bytes ${start}-${end}/${size}`,
        'content-length': String(end - start + 1),
        ...headers,
      });
      createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { ...type, 'content-length': String(size), ...headers });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const address = server.address();
      const name = host.includes(':') ? `[${host}]` : host;
      ok({ server, url: `http://${name}:${typeof address === 'object' && address ? address.port : port}/` });
    });
  });
}
