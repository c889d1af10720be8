// Issue 11's answer first: the one-sentence answer at the top of the page
// follows the listener, and a very long identity does not widen the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const firstAnswer = (page) => page.locator('#answer li.answer').first().innerText();

test('the one-sentence answer changes when the listener changes', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  // The default scenario: tenant-a over SASL, 2 MB/s produce from users/tenant-a (rung 3).
  const sasl = await firstAnswer(page);
  assert.match(sasl, /User:tenant-a/);
  assert.match(sasl, /users\/tenant-a \(rung 3\)/);
  // The answer is above the fold: its top is inside the first screen.
  const top = await page.locator('#answer').evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top < 700, `the answer starts at ${top} px`);
  await page.getByLabel('Listener (security.protocol)').selectOption('PLAINTEXT');
  await page.waitForFunction(() => /User:ANONYMOUS/.test(document.querySelector('#answer li.answer')?.innerText ?? ''));
  const plaintext = await firstAnswer(page);
  assert.notEqual(plaintext, sasl);
  assert.doesNotMatch(plaintext, /users\/tenant-a/, 'the user quota no longer applies on PLAINTEXT');
  // The answer says why, under the sentence: users/tenant-a cannot apply to User:ANONYMOUS.
  assert.match(await page.locator('#answer li.answer').first().getByTestId('answer-warning').innerText(),
    /User:ANONYMOUS, so a quota on a named user \(users\/<name>\) cannot apply to it/);
  // Each quota type starts its own line on a wide screen too.
  const lefts = await page.locator('#answer li.answer').first().locator('.answer-clause').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  assert.equal(new Set(lefts).size, 1, `clauses start at ${lefts}`);
  // Back to SASL: the same sentence as before.
  await page.getByLabel('Listener (security.protocol)').selectOption('SASL_PLAINTEXT');
  await page.waitForFunction(() => /users\/tenant-a \(rung 3\)/.test(document.querySelector('#answer li.answer')?.innerText ?? ''));
  assert.equal(await page.getByTestId('answer-warning').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('360 px: a 280-character DN and a 150-character client.id fit the viewport', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 360, height: 800 } });
  // On a phone each quota type of the answer starts its own line.
  const clauses = await page.locator('#answer li.answer').first().locator('.answer-clause').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  assert.equal(clauses.length, 4);
  assert.equal(new Set(clauses).size, 1, `clauses start at ${clauses}`);
  await page.getByLabel('Listener (security.protocol)').selectOption('SSL');
  const dn = 'CN=' + 'a'.repeat(120) + ',OU=' + 'platform-engineering-'.repeat(6) + ',O=Example Corporation Limited,L=Somewhere,C=GB';
  assert.ok(dn.length >= 280, `${dn.length}`);
  await page.getByLabel(/Client certificate subject DN/).fill(dn);
  await page.getByLabel('client.id', { exact: true }).fill('reporting-'.repeat(15));
  await page.waitForFunction(() => /CN=aaaa/.test(document.querySelector('#answer li.answer')?.innerText ?? ''));
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view && widths.body <= widths.view, JSON.stringify(widths));
  await page.locator('#answer').scrollIntoViewIfNeeded();
  await shot(page, 'answer-long-dn-360', false);
  assert.deepEqual(errors, []);
  await context.close();
});
