// oEmbed files of the built site (scripts/build-oembed.mjs, run by the build):
// dist/site/oembed/<id>.json for every chapter of chapters/index.js, each a
// valid oEmbed 1.0 "rich" answer whose iframe embeds that chapter, and the
// discovery link in dist/site/index.html. Needs `npm run build`.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SITE_URL, oembedFor, siteUrl } from '../../scripts/build-oembed.mjs';
import { CHAPTERS } from '../../web/src/site/chapters/index.js';

const SITE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'site');
const built = existsSync(join(SITE, 'oembed'));

/** The attributes of the one <iframe> in an oEmbed html string (double-quoted, HTML-escaped values). */
function iframeAttributes(html) {
  const match = /^<iframe ([^>]*)><\/iframe>$/.exec(html);
  assert.ok(match, `not one iframe: ${html}`);
  const unescape = (s) =>
    s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
  return Object.fromEntries([...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], unescape(m[2])]));
}

test('siteUrl: --site-url, then ATTENTION_LAB_SITE_URL, then the default; normalised to a folder; bad values refused', () => {
  assert.equal(siteUrl([], {}), DEFAULT_SITE_URL);
  assert.equal(siteUrl([], { ATTENTION_LAB_SITE_URL: 'https://a.example/course' }), 'https://a.example/course/');
  assert.equal(
    siteUrl(['--site-url=https://b.example/x/index.html#chapter=qkv'], {
      ATTENTION_LAB_SITE_URL: 'https://a.example/',
    }),
    'https://b.example/x/',
  );
  assert.throws(() => siteUrl(['--site-url=course/'], {}), { name: 'TypeError', message: /not an absolute URL/ });
  assert.throws(() => siteUrl([], { ATTENTION_LAB_SITE_URL: 'file:///tmp/site/' }), {
    name: 'TypeError',
    message: /must be http: or https:/,
  });
});

test('oembedFor escapes the title and the address inside the html', () => {
  const answer = oembedFor({ id: 'x', title: 'A "quoted" <title> & more' }, 'https://h.example/?a=1&b=2/');
  const attrs = iframeAttributes(answer.html);
  assert.equal(attrs.title, 'A "quoted" <title> & more · attention-lab');
  assert.equal(attrs.src, 'https://h.example/?a=1&b=2/index.html#chapter=x&embed=1');
});

test(
  'dist/site/oembed/<id>.json: one valid oEmbed "rich" answer per chapter, embedding that chapter',
  { skip: !built && 'run npm run build' },
  () => {
    const page = readFileSync(join(SITE, 'index.html'), 'utf8');
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]+)" \/>/.exec(page);
    assert.ok(link, 'index.html has the oEmbed discovery link');
    const base = link[1].replace(/oembed\/[\w-]+\.json$/, '');
    assert.equal(link[1], `${base}oembed/${CHAPTERS[0].id}.json`, 'the default link names the first chapter');
    assert.match(base, /^https?:\/\/.+\/$/, 'absolute site address');
    for (const entry of CHAPTERS) {
      const answer = JSON.parse(readFileSync(join(SITE, 'oembed', `${entry.id}.json`), 'utf8'));
      assert.equal(answer.version, '1.0');
      assert.equal(answer.type, 'rich');
      assert.equal(answer.title, `${entry.title} · attention-lab`);
      assert.equal(answer.provider_name, 'attention-lab');
      assert.equal(answer.provider_url, base);
      assert.ok(Number.isInteger(answer.width) && answer.width > 0, 'width');
      assert.ok(Number.isInteger(answer.height) && answer.height > 0, 'height');
      const attrs = iframeAttributes(answer.html);
      assert.equal(attrs.src, `${base}index.html#chapter=${entry.id}&embed=1`);
      assert.equal(Number(attrs.width), answer.width);
      assert.equal(Number(attrs.height), answer.height);
      assert.equal(attrs.title, answer.title);
    }
  },
);
