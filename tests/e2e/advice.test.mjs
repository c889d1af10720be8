// Advice beside the ladder (issue 13): "Make this apply" proposals, near
// misses, the request capacity, exact entity names and the scope notes, in
// headless Chromium against the release build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch, openApp, shot, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A share link's hash for `scenario`, as quota_formats::permalink::encode writes it. */
const link = (scenario) => `#v1.${deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url')}`;

// The issue's example: users/<default> = 2 MB/s and clients/reporting = 10 MB/s;
// alice and bob (SASL) both send client.id reporting. Plus a quota one typo
// away (clients/reportng), a request_percentage above an 11-thread broker's
// capacity, and a user literally named <default>.
const issue = {
  topics: [{ name: 't' }],
  quotas: [
    { entity: { user: null }, key: 'producer_byte_rate', value: 2000000 },
    { entity: { 'client-id': 'reporting' }, key: 'producer_byte_rate', value: 10000000 },
    { entity: { 'client-id': 'reportng' }, key: 'producer_byte_rate', value: 10000000 },
    { entity: { user: null }, key: 'request_percentage', value: 1200 },
    { entity: { user: '<default>' }, key: 'consumer_byte_rate', value: 1000000 },
  ],
  connections: [
    { name: 'alice-reporting', listener: 'SASL_PLAINTEXT', identity: 'alice', 'client.id': 'reporting' },
    { name: 'bob-reporting', listener: 'SASL_PLAINTEXT', identity: 'bob', 'client.id': 'reporting' },
  ],
  workloads: [],
};

test('10 MB/s for every user with client.id reporting: users/<default>/clients/reporting (rung 4), near misses named', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}${link(issue)}`, { viewport: { width: 1440, height: 1000 } });
  const ladder = page.getByTestId('ladder-0-Produce');
  await ladder.waitFor();
  // Today users/<default> (rung 6) outranks clients/reporting (rung 7).
  assert.equal(await ladder.locator('li[aria-current="true"]').getAttribute('data-rung'), '6');
  assert.match(await page.getByTestId('limit-0-Produce').innerText(), /2000000\.0.*users\/<default> \(rung 6\)/s);

  // Near miss: clients/reportng is one character away from client.id reporting.
  const near = page.getByTestId('near-misses-0-Produce');
  assert.match(await near.innerText(), /Did you mean/);
  assert.match(await near.innerText(), /clients\/reportng, with producer_byte_rate = 10 MB\/s per broker \(1\.0E7 bytes\/s\), never applies to principal "alice" with client\.id "reporting"/);

  // A bad wanted value is named, and nothing is proposed.
  const want = page.locator('#want-0-Produce');
  await want.fill('10 furlongs');
  await page.getByTestId('advice-0-Produce').getByRole('alert').filter({ hasText: "'furlongs' is not a byte unit" }).waitFor();
  assert.equal(await page.getByTestId('proposal-best-0-Produce').count(), 0);

  // 10 MB/s for this connection alone: the most specific entity, rung 1.
  await want.fill('10MB');
  const best = page.getByTestId('proposal-best-0-Produce');
  await best.waitFor();
  assert.equal(await best.getAttribute('data-rung'), '1');

  // For every user: rung 4, with its command, whom it covers and what it shadows.
  await page.locator('#scope-0-Produce').selectOption('every-user');
  await page.waitForFunction(() => document.querySelector('[data-testid="proposal-best-0-Produce"]')?.dataset.rung === '4');
  const answer = await page.getByTestId('advice-answer-0-Produce').innerText();
  assert.match(answer, /^Set producer_byte_rate = 10 MB\/s per broker \(1\.0E7 bytes\/s\) on /);
  assert.match(answer, /users\/<default>\/clients\/reporting \(rung 4\)/);
  const command = await best.locator('textarea.command').inputValue();
  assert.match(command, /kafka-configs\.sh .*--alter --entity-type users --entity-default --entity-type clients --entity-name reporting --add-config producer_byte_rate=/);
  const facts = await best.innerText();
  assert.match(facts, /Also covers bob-reporting\./);
  assert.match(facts, /Shadows: users\/<default>, with producer_byte_rate = 2 MB\/s per broker \(2000000\.0 bytes\/s\), stops applying/);
  // The other proposals, and the rungs that would not do, behind a details.
  await page.getByTestId('advice-0-Produce').locator('details.all-proposals > summary').click();
  assert.equal(await page.getByTestId('proposal-0-Produce-1').count(), 1);
  assert.match(await page.getByTestId('advice-0-Produce').locator('details.all-proposals').innerText(),
    /Rung 7 \(clients\/reporting\): With producer_byte_rate = 10 MB\/s per broker \(1\.0E7 bytes\/s\) on clients\/reporting, principal "alice" with client\.id "reporting" would still get/);

  // request_percentage=1200 on (8 + 3) threads: a share of the capacity, and a warning.
  assert.match(await page.getByTestId('capacity-0').innerText(), /1100\.0 %/);
  assert.match(await page.getByTestId('capacity-warning-0').innerText(), /exceeds the broker's capacity of 1100\.0 %/);

  // The literal <default> user is shown apart from the default entity.
  const list = page.getByTestId('quota-list');
  await list.getByText('users/"<default>"', { exact: true }).waitFor();
  assert.ok(await list.getByText('users/<default>', { exact: true }).count() >= 1);
  assert.match(await list.innerText(), /literally called "<default>"/);

  // The custom-class scope note, once.
  assert.equal(await page.getByTestId('scope-note').count(), 1);
  assert.match(await page.getByTestId('scope-note').innerText(), /client\.quota\.callback\.class.*principal\.builder\.class/s);

  await page.locator('#resolution').scrollIntoViewIfNeeded();
  await mkdir(artifacts, { recursive: true });
  await page.locator('#resolution').screenshot({ path: join(artifacts, 'advice-resolution.png') });

  // An empty client.id: the Java clients' generated id is explained, spelled "".
  await page.getByLabel('client.id').fill('');
  await page.getByTestId('empty-client-id-note').filter({ hasText: 'producer-N' }).waitFor();
  await ladder.locator('li[data-rung="1"] code').filter({ hasText: /^users\/alice\/clients\/""$/ }).waitFor();
  assert.match(await ladder.locator('li[data-rung="1"]').innerText(), /users\/alice\/clients\/"" cannot apply/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('360 px: the advice form and its command do not widen the page', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}${link(issue)}`, { viewport: { width: 360, height: 800 } });
  await page.locator('#want-0-Produce').fill('10000000');
  await page.locator('#scope-0-Produce').selectOption('every-user');
  await page.waitForFunction(() => document.querySelector('[data-testid="proposal-best-0-Produce"]')?.dataset.rung === '4');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow}px of horizontal overflow`);
  await page.getByTestId('advice-0-Produce').scrollIntoViewIfNeeded();
  await shot(page, 'advice-360', false);
  assert.deepEqual(errors, []);
  await context.close();
});
