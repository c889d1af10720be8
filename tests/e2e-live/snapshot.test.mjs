// A snapshot of the real test cluster (kafka-quota snapshot, written by
// crates/quota-cli/tests/live against a running Kafka 4.3.1) opened in the
// playground: its quotas answer for its producer, with no error notice, and
// its three brokers are the page's. scripts/lab.sh runs it after the live
// tests with KAFKA_LIVE_SNAPSHOT naming the file; without the file it fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, openApp, permalink, shot } from '../e2e/harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a snapshot of the real cluster opens in the page and answers from its quotas', async () => {
  const file = process.env.KAFKA_LIVE_SNAPSHOT;
  assert.ok(file, 'KAFKA_LIVE_SNAPSHOT names no snapshot file');
  const { scenario } = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(scenario.brokers.count, 3);
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`);
  const notices = await page.getByTestId('notice').allInnerTexts();
  assert.ok(!notices.some((n) => /damaged|cannot|not a valid|refused/i.test(n)), notices.join('\n'));
  // The producer is PLAINTEXT with client.id app-1: users/<default> gives its
  // producer_byte_rate (1 MB/s), clients/<default> its request_percentage.
  await page.waitForFunction(() => /User:ANONYMOUS/.test(document.querySelector('#answer li.answer')?.innerText ?? ''));
  const answer = await page.locator('#answer li.answer').first().innerText();
  assert.match(answer, /users\/<default>/);
  assert.match(answer, /1 MB\/s/);
  await shot(page, 'live-snapshot');
  assert.deepEqual(errors, []);
  await context.close();
});
