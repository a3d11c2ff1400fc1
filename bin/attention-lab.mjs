#!/usr/bin/env node
// `npx attention-lab`: serves the tutorial this package ships (dist/site) and prints
// its URL; `npx attention-lab export <dir>` writes it as a static site. Node only.
//
// The tarball holds each large file once (package.json "files"): the site's copies of
// the classic scripts, checkpoints, demo model, vectors and KaTeX fonts are left out,
// and the site finds the package's (dist/classic, dist/elements, dist/lib) instead.
// SITE_ALIASES names them, so the server answers those paths with no 404 and the
// export writes them in place. Served and exported alike: dist/ with the site at
// site/, so the site's relative paths (../lib/, ../classic/) resolve on any host.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const DEFAULT_PORT = 8080;

/** A path of the site the tarball leaves out → the package's copy (a folder when it ends in /). */
const SITE_ALIASES = Object.freeze({
  'attention-lab.js': 'classic/attention-lab.js',
  'attention-lab-model.js': 'classic/attention-lab-model.js',
  'attention-lab-trainers.js': 'classic/attention-lab-trainers.js',
  'katex.js': 'classic/katex.js',
  'nmt-checkpoint.js': 'elements/nmt-checkpoint.js',
  'transformer-checkpoint.js': 'elements/transformer-checkpoint.js',
  'gpt2-demo.js': 'elements/gpt2-demo.js',
  'wasm/model/model_core.wasm.js': 'lib/model/model_core.wasm.js',
  'embeddings/glove.6B.100d.14k.bin': 'lib/embeddings/glove.6B.100d.14k.bin',
  'vendor/katex/fonts/': 'elements/fonts/',
});

// Cross-origin isolation: SharedArrayBuffer (wasm threads) needs both.
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The package file for URL path `path` (/site/…) that dist/ lacks, or undefined. */
function packageCopy(path) {
  if (!path.startsWith('/site/')) return undefined;
  const inSite = path.slice('/site/'.length);
  for (const [from, to] of Object.entries(SITE_ALIASES)) {
    if (from === inSite) return join(DIST, to);
    const rest = inSite.slice(from.length);
    if (from.endsWith('/') && inSite.startsWith(from) && rest !== '' && !rest.includes('/') && !rest.includes('..'))
      return join(DIST, to, rest);
  }
  return undefined;
}

const USAGE = `attention-lab: the attention tutorial, served from this package (needs only Node).

Usage:
  npx attention-lab [--port N] [--host H]   serve it and print its URL (port ${DEFAULT_PORT}, or a free
                                            one if that is taken; host 127.0.0.1; PORT works too)
  npx attention-lab export <dir> [--force]  write it as a static site into <dir> (an empty or
                                            new folder; --force writes into a non-empty one)
  npx attention-lab --help                  this text
`;

class UsageError extends Error {}

/** The command line's words as { command, dir, port, host, force, help }; throws UsageError. */
function parse(args) {
  const options = { command: 'serve', dir: undefined, port: undefined, host: '127.0.0.1', force: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const value = () => {
      if (i + 1 >= args.length) throw new UsageError(`${word} needs a value`);
      return args[++i];
    };
    if (word === '--help' || word === '-h') options.help = true;
    else if (word === '--port') options.port = value();
    else if (word === '--host') options.host = value();
    else if (word === '--force') options.force = true;
    else if (word === 'export' && options.command === 'serve' && i === 0) options.command = 'export';
    else if (options.command === 'export' && options.dir === undefined && !word.startsWith('-')) options.dir = word;
    else throw new UsageError(`unknown argument ${JSON.stringify(word)}`);
  }
  if (options.command === 'export' && options.dir === undefined) throw new UsageError('export needs a folder');
  if (options.port !== undefined || process.env.PORT) {
    const text = options.port ?? process.env.PORT;
    const port = Number(text);
    if (!/^\d+$/.test(String(text)) || port > 65535) throw new UsageError(`port must be 0 to 65535, not ${text}`);
    options.port = port;
  }
  return options;
}

async function runServer({ port, host }) {
  // `/` is the site's folder, so that its relative paths see lib/, classic/ and elements/ beside it.
  const handle = (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/') return false;
    res.writeHead(302, { location: '/site/', ...ISOLATION }).end();
    return true;
  };
  const options = { root: DIST, host, headers: ISOLATION, handle, alias: packageCopy };
  let started;
  try {
    started = await serve({ ...options, port: port ?? DEFAULT_PORT });
  } catch (error) {
    if (error.code !== 'EADDRINUSE' || port !== undefined) throw error;
    started = await serve({ ...options, port: 0 });
    console.log(`port ${DEFAULT_PORT} is busy; using another`);
  }
  console.log(`attention-lab tutorial: ${started.url}`);
  console.log('(Ctrl+C stops the server)');
}

/** Writes the site with everything it loads into `dir`; returns the number of files written. */
function exportSite(dir, force) {
  const target = resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new UsageError(`${dir} is not a folder`);
    if (readdirSync(target).length > 0 && !force)
      throw new UsageError(`${dir} is not empty (add --force to write into it anyway)`);
  }
  mkdirSync(target, { recursive: true });
  const types = (file) => !/\.d\.c?ts$|\.map$/.test(file); // a host serves pages, not type declarations
  for (const folder of ['site', 'lib', 'classic', 'elements'])
    cpSync(join(DIST, folder), join(target, folder), { recursive: true, filter: types });
  for (const [from, to] of Object.entries(SITE_ALIASES))
    if (!existsSync(join(target, 'site', from)))
      cpSync(join(DIST, to), join(target, 'site', from), { recursive: true });
  // The one-file lessons, where they were built (npm run build:lessons in a checkout; not in the tarball).
  if (existsSync(join(DIST, 'lessons'))) cpSync(join(DIST, 'lessons'), join(target, 'lessons'), { recursive: true });
  writeFileSync(
    join(target, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>attention-lab</title>' +
      '<meta http-equiv="refresh" content="0; url=site/"><a href="site/">The attention-lab tutorial</a>' +
      // keeps a chapter link (#chapter=…) that the refresh would drop
      '<script>location.replace("site/" + location.hash)</script>\n',
  );
  return readdirSync(target, { recursive: true }).filter((f) => statSync(join(target, f)).isFile()).length;
}

// A command line only (npm links it as node_modules/.bin/attention-lab): it runs when loaded.
try {
  const options = parse(process.argv.slice(2));
  if (options.help) process.stdout.write(USAGE);
  else if (options.command === 'export') {
    const count = exportSite(options.dir, options.force);
    console.log(
      `attention-lab: wrote the tutorial to ${resolve(options.dir)} (${count} files; open site/ on any static host)`,
    );
  } else await runServer(options);
} catch (error) {
  if (!(error instanceof UsageError) && error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
  process.stderr.write(`attention-lab: ${error.message}\n\n${error instanceof UsageError ? USAGE : ''}`);
  process.exitCode = 2;
}
