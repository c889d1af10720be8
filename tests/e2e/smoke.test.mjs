// The release build loads in headless Chromium and renders without errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the playground loads with no console errors', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByRole('heading', { name: 'Kafka Quota Playground' }).waitFor({ timeout: 15000 });
  await shot(page, 'smoke');
  assert.deepEqual(errors, []);
});
