// oEmbed files (scripts/build-oembed.mjs, run by the build) for a site given a
// public URL: oembed/<id>.json for every chapter (chapters/*/meta.js), each a
// valid oEmbed 1.0 "rich" answer whose iframe embeds that chapter, and the
// discovery link in index.html; without a public URL, neither (no build-machine
// address ships). Written into a copy of web/index.html; the built dist/site is
// checked to be one or the other.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { oembedFor, publicUrl, writeOembed } from '../../scripts/build-oembed.mjs';
import { chapterMetas } from '../../scripts/chapters.mjs';

const CHAPTERS = await chapterMetas(); // chapters/*/meta.js, in order

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE = join(ROOT, 'dist', 'site');
const DISCOVERY = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]+)" \/>/;

/** A site folder holding only web/index.html, with writeOembed(…, base) run on it. */
function writtenFor(base) {
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-oembed-'));
  cpSync(join(ROOT, 'web', 'index.html'), join(dir, 'index.html'));
  assert.equal(writeOembed(dir, base), base);
  return dir;
}

/** The attributes of the one <iframe> in an oEmbed html string (double-quoted, HTML-escaped values). */
function iframeAttributes(html) {
  const match = /^<iframe ([^>]*)><\/iframe>$/.exec(html);
  assert.ok(match, `not one iframe: ${html}`);
  const unescape = (s) =>
    s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
  return Object.fromEntries([...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], unescape(m[2])]));
}

test('publicUrl: --public-url, then ATTENTION_LAB_PUBLIC_URL, else none; normalised to a folder; bad values refused', () => {
  assert.equal(publicUrl([], {}), null);
  assert.equal(publicUrl([], { ATTENTION_LAB_PUBLIC_URL: '' }), null);
  assert.equal(publicUrl([], { ATTENTION_LAB_PUBLIC_URL: 'https://a.example/course' }), 'https://a.example/course/');
  assert.equal(
    publicUrl(['--public-url=https://b.example/x/index.html#chapter=qkv'], {
      ATTENTION_LAB_PUBLIC_URL: 'https://a.example/',
    }),
    'https://b.example/x/',
  );
  assert.throws(() => publicUrl(['--public-url=course/'], {}), { name: 'TypeError', message: /not an absolute URL/ });
  assert.throws(() => publicUrl([], { ATTENTION_LAB_PUBLIC_URL: 'file:///tmp/site/' }), {
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

test('with a public URL: one valid oEmbed "rich" answer per chapter, embedding that chapter, and the discovery link', () => {
  const base = 'https://course.example/attention-lab/site/';
  const dir = writtenFor(base);
  try {
    const link = DISCOVERY.exec(readFileSync(join(dir, 'index.html'), 'utf8'));
    assert.ok(link, 'index.html has the oEmbed discovery link');
    assert.equal(link[1], `${base}oembed/${CHAPTERS[0].id}.json`, 'the default link names the first chapter');
    for (const entry of CHAPTERS) {
      const answer = JSON.parse(readFileSync(join(dir, 'oembed', `${entry.id}.json`), 'utf8'));
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a public URL: no oEmbed files, no discovery link, no marker left', () => {
  const dir = writtenFor(null);
  try {
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    assert.doesNotMatch(page, /oembed/i);
    assert.ok(!existsSync(join(dir, 'oembed')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'dist/site: oEmbed files exactly when index.html has the discovery link, at its address',
  { skip: !existsSync(join(SITE, 'index.html')) && 'run npm run build' },
  () => {
    const link = DISCOVERY.exec(readFileSync(join(SITE, 'index.html'), 'utf8'));
    assert.equal(existsSync(join(SITE, 'oembed')), Boolean(link));
    if (link) {
      const base = link[1].replace(/oembed\/[\w-]+\.json$/, '');
      for (const entry of CHAPTERS)
        assert.equal(JSON.parse(readFileSync(join(SITE, 'oembed', `${entry.id}.json`), 'utf8')).provider_url, base);
    }
  },
);
