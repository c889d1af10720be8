// Issue 11's answer first: the one-sentence answer at the top of the page
// follows the listener, and a very long identity does not widen the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, permalink, shot } from './harness.mjs';

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

test('the answer ends with the connection_creation_rate of the connection\'s source address, in the embed too', async () => {
  // The default scenario has no ips/ quota: its connection from 127.0.0.1 is not rate-limited.
  const { page, errors, context } = await openApp(browser, server.url);
  assert.match(await firstAnswer(page), /Connections from 127\.0\.0\.1: unlimited\./);
  // An ips/<default> quota of 5 and a connection from ::1 with a quota on the same address written in full.
  const scenario = {
    quotas: [
      { entity: { ip: null }, key: 'connection_creation_rate', value: 5 },
      { entity: { ip: '0:0:0:0:0:0:0:1' }, key: 'connection_creation_rate', value: 2 },
    ],
    connections: [
      { name: 'far', listener: 'SASL_PLAINTEXT', identity: 'a', 'client.id': 'x', ip: '10.0.0.7' },
      { name: 'local', listener: 'SASL_PLAINTEXT', identity: 'a', 'client.id': 'x', ip: '::1' },
    ],
  };
  await page.goto(`${server.url}?embed=answer&readonly#${await permalink(scenario)}`);
  await page.waitForSelector('body[data-first-render-ms]');
  const answers = await page.locator('#answer li.answer').allInnerTexts();
  assert.match(answers[0], /Connections from 10\.0\.0\.7: 5\.0 new connections\/s per broker from ips\/<default>, the default for every address without an ips\/ quota of its own\./);
  assert.match(answers[1], /Connections from ::1: 2\.0 new connections\/s per broker from ips\/0:0:0:0:0:0:0:1, the same address written another way/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('360 px: a 280-character DN and a 150-character client.id fit the viewport', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 360, height: 800 } });
  // On a phone each quota type of the answer starts its own line.
  const clauses = await page.locator('#answer li.answer').first().locator('.answer-clause').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  assert.equal(clauses.length, 5);
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

test('360 px: a quota on a 280-character DN user: the Resolution panel and the rest of the page fit the viewport', async () => {
  // A DN has no spaces and its commas allow no line break: the limit line
  // ("… from users/CN=…") and each rung's entity must break anywhere.
  const dn = 'CN=service-account-for-the-' + 'payments-platform-service-account-for-the-'.repeat(4) + 'payments-platform,OU=platform-engineering-and-reliability,O=ExampleCorporationInternational,L=SanFrancisco,ST=California,C=US';
  assert.ok(dn.length >= 280, `${dn.length}`);
  const scenario = {
    name: 'long DN', seed: 1,
    topics: [{ name: 'lab', partitions: 1 }],
    quotas: [{ entity: { user: dn }, key: 'producer_byte_rate', value: 2000000 }],
    connections: [{ name: 'app', listener: 'SSL', identity: dn, 'client.id': 'app-1' }],
    workloads: [{ producer: { connection: 'app', topic: 'lab', records: 1000, 'record.size': 1000 } }],
  };
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`, { viewport: { width: 360, height: 800 } });
  const limit = page.locator('#resolution p.limit').first();
  await limit.waitFor();
  assert.match(await limit.innerText(), /from users\/CN=service-account/);
  for (const sel of ['#resolution p.limit', '#resolution li']) {
    const over = await page.locator(sel).evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth).map((e) => e.innerText.slice(0, 60)));
    assert.deepEqual(over, [], `${sel} wider than its box or the viewport`);
  }
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view && widths.body <= widths.view, JSON.stringify(widths));
  await limit.scrollIntoViewIfNeeded();
  await shot(page, 'resolution-long-dn-360', false);
  assert.deepEqual(errors, []);
  await context.close();
});
