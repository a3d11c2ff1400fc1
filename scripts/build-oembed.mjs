// oEmbed (https://oembed.com) for the site: one JSON file per chapter,
// dist/site/oembed/<id>.json, of type "rich" whose html is the chapter's iframe
// embed, and the discovery <link> in index.html's head (the first chapter's;
// app.js points it at the open chapter). oEmbed needs absolute URLs, and only
// the publisher knows where the site will live: the public address comes from
// --public-url=… or ATTENTION_LAB_PUBLIC_URL; without one the build writes no
// oEmbed files and no link, so no build-machine address ships (the npm package's
// site, a local build). Called by scripts/build-web.mjs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chapterMetas } from './chapters.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

/** The iframe's size in the oEmbed answer (it then follows its content: see README, "Embed in an iframe"). */
export const EMBED_WIDTH = 800;
export const EMBED_HEIGHT = 900;
const MARKER = '<!-- oembed discovery: scripts/build-oembed.mjs -->';

/**
 * The site's public address (ending in '/'): `--public-url=` in `argv`, else
 * ATTENTION_LAB_PUBLIC_URL in `env`, else null (none given). Throws a TypeError
 * for anything but an absolute http(s) URL.
 */
export function publicUrl(argv = process.argv, env = process.env) {
  const option = argv.find((a) => a.startsWith('--public-url='))?.slice('--public-url='.length);
  const text = option ?? env.ATTENTION_LAB_PUBLIC_URL;
  if (text === undefined || text === '') return null;
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(
      `build-oembed: public URL "${text}" is not an absolute URL (--public-url / ATTENTION_LAB_PUBLIC_URL)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`build-oembed: public URL "${text}" must be http: or https:`);
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.replace(/\/index\.html$/, '/').replace(/\/?$/, '/');
  return url.href;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** The address of a chapter's embed page. */
export const embedUrl = (base, id) => `${base}index.html#chapter=${id}&embed=1`;

/** The oEmbed answer for one chapter entry ({ id, title }) of a site at `base`. */
export function oembedFor(entry, base) {
  const title = `${entry.title} · attention-lab`;
  return {
    version: '1.0',
    type: 'rich',
    title,
    provider_name: 'attention-lab',
    provider_url: base,
    width: EMBED_WIDTH,
    height: EMBED_HEIGHT,
    html:
      `<iframe src="${escapeHtml(embedUrl(base, entry.id))}" width="${EMBED_WIDTH}" height="${EMBED_HEIGHT}"` +
      ` title="${escapeHtml(title)}" style="width:100%;max-width:${EMBED_WIDTH}px;border:0" loading="lazy"></iframe>`,
  };
}

/** The discovery link for a chapter's oEmbed file. */
export const discoveryLink = (entry, base) =>
  `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(`${base}oembed/${entry.id}.json`)}"` +
  ` title="${escapeHtml(`${entry.title} · attention-lab`)}" />`;

/**
 * Writes dist/site/oembed/<id>.json for every chapter and the discovery link
 * into dist/site/index.html for a site at `base`; with no base, neither (the
 * marker comment goes). Returns `base`.
 */
export function writeOembed(siteDir, base = publicUrl()) {
  const page = join(siteDir, 'index.html');
  const html = readFileSync(page, 'utf8');
  if (!html.includes(MARKER)) throw new Error(`build-oembed: ${page} lacks the marker ${MARKER}`);
  writeFileSync(page, html.replace(`${MARKER}\n`, base ? `${discoveryLink(CHAPTERS[0], base)}\n` : ''));
  if (!base) return null;
  mkdirSync(join(siteDir, 'oembed'), { recursive: true });
  for (const entry of CHAPTERS)
    writeFileSync(join(siteDir, 'oembed', `${entry.id}.json`), `${JSON.stringify(oembedFor(entry, base), null, 2)}\n`);
  return base;
}
