// The release build loads in headless Chromium and renders without errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, openPage, shot, permalink, waitForRun } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the playground loads with no console errors', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { name: 'Kafka Quota Playground' }).waitFor({ timeout: 15000 });
  await shot(page, 'smoke');
  assert.deepEqual(errors, []);
});

test('the build works from a sub-path (a docs site or GitHub Pages), both workers included', async () => {
  const sub = await serve(undefined, '/docs/tools/quota-playground/');
  try {
    const { page, errors, context } = await openPage(browser, sub.url);
    await page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
    await page.getByLabel('Quotas to import (any format)').fill(
      'kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name a\n');
    await page.getByTestId('import-ready').filter({ hasText: '1 quota value for 1 entity' }).waitFor();
    const link = await page.getByTestId('share-link').inputValue();
    assert.ok(link.startsWith(`${sub.url}#v1.`), link);
    assert.deepEqual(errors, []);
    await context.close();
    // The simulation worker finds its module from the sub-path too: 100
    // producers are simulated there (no main-thread note) once the
    // Simulation panel comes near.
    const fixture = JSON.parse(await readFile(new URL('../fixtures/bench/100-clients-3-brokers.json', import.meta.url), 'utf8'));
    const big = await openPage(browser, `${sub.url}#${await permalink(fixture.scenario)}`);
    await big.page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
    await waitForRun(big.page);
    assert.match(await big.page.locator('#focus-sensor option', { hasText: 'user=tenant-0 on broker 0' }).textContent(), /\(5 kB\/s\)/);
    assert.equal(await big.page.getByTestId('sim-note').count(), 0, 'the worker was used');
    assert.deepEqual(big.errors, []);
    await big.context.close();
  } finally {
    await sub.close();
  }
});
