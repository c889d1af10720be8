// Links never break (issue 12): every link of tests/fixtures/links/<commit>.tsv
// was made by an earlier release's own encoder (scripts/link-corpus.sh); each
// must open its scenario in today's release build: no error notice, and the
// Answer panel names the link's connections, in its order. (The Rust test
// link_corpus checks every value the link carried.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { serve, launch, openApp } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const dir = join(import.meta.dirname, '..', 'fixtures', 'links');

async function corpus() {
  const out = [];
  for (const f of (await readdir(dir)).filter((f) => f.endsWith('.tsv')).sort()) {
    for (const line of (await readFile(join(dir, f), 'utf8')).split('\n').filter(Boolean)) {
      const [name, link] = line.split('\t');
      out.push({ release: f.replace('.tsv', ''), name, link });
    }
  }
  return out;
}

// The scenario inside a v1. link, read here independently of the page.
const scenarioOf = (link) => JSON.parse(inflateRawSync(Buffer.from(link.slice(3), 'base64url')).toString('utf8'));

test('every link of every earlier release opens its scenario in the page', async () => {
  const links = await corpus();
  assert.ok(links.length >= 40, `${links.length} links`);
  const context = await browser.newContext();
  const errors = [];
  for (const { release, name, link } of links) {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${release} ${name}: ${e}`));
    await page.goto(`${server.url}#${link}`);
    await page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
    const notices = await page.getByTestId('notice').allInnerTexts();
    assert.ok(!notices.some((n) => /damaged|cannot|not a valid|refused/i.test(n)), `${release} ${name}: ${notices}`);
    const expected = scenarioOf(link).connections.map((c) => c.name).slice(0, 12);
    const shown = await page.locator('#answer li.answer strong.answer-who').allInnerTexts();
    assert.deepEqual(shown, expected, `${release} ${name}`);
    await page.close();
  }
  assert.deepEqual(errors, []);
  await context.close();
});
