// The default page's first screen, prerendered into index.html at build
// time (src/bin/prerender.rs): shown while the page's module loads, only
// where the page opens at the default scenario, never usable, and gone at
// the app's first render, which draws the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, permalink } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A page whose wasm requests wait until `release()` is called. */
async function gated(url, { init } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (init) await page.addInitScript(init);
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await gate; await route.continue().catch(() => {}); });
  await page.goto(url);
  return { page, context, errors, release };
}

test('a first visit sees the default first screen before the module runs, the same as the app then draws', async () => {
  const { page, context, errors, release } = await gated(server.url);
  const pre = page.locator('#prerender');
  await pre.waitFor({ state: 'visible', timeout: 10000 });
  assert.equal(await pre.evaluate((p) => p.inert), true, 'not usable before the module runs');
  // No element of the copy has an id: the app's hooks find their elements
  // by id (the Simulation panel's observer) while both are in the page.
  assert.equal(await pre.locator('[id]').count(), 0);
  assert.match(await page.locator('#boot').innerText(), /^Loading the playground\. This is the default scenario; it can be edited once the playground has loaded\./);
  const link = await pre.getAttribute('data-link');
  const answer = await page.locator('#prerender [data-id=answer]').innerText();
  assert.match(answer, /Produce: 2 MB\/s per broker \(2000000\.0 bytes\/s\) from users\/tenant-a \(rung 3\)/);
  const quotas = await page.locator('#prerender [data-id=quotas]').innerText();
  assert.equal(await page.evaluate(() => document.body.dataset.firstRenderMs), undefined, 'the app has not rendered yet');
  release();
  await page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
  assert.equal(await page.locator('#prerender').count(), 0, 'removed at the first render');
  assert.equal(await page.locator('#boot').count(), 0);
  assert.equal(await page.locator('#answer').innerText(), answer, 'the app draws the same Answer');
  assert.equal(await page.locator('#quotas').innerText(), quotas, 'and the same Quotas panel');
  // The copy's link is the one the app gives the default scenario.
  assert.ok((await page.getByTestId('share-link').inputValue()).endsWith(`#${link}`), link);
  // The run starts when the Simulation panel comes near (its observer
  // found the app's panel, not the removed copy's).
  await page.locator('#simulation').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link, an autosave or an embed opens without it; a panel anchor or the default link with it', async () => {
  const other = await permalink({ quotas: [{ entity: { 'client-id': 'x' }, key: 'producer_byte_rate', value: 1000 }] });
  const first = await gated(server.url);
  const link = await first.page.locator('#prerender').getAttribute('data-link');
  first.release();
  await first.context.close();
  const saveOther = `localStorage.setItem('kafka-quota-playground.scenario', ${JSON.stringify(other)})`;
  const cases = [
    [`${server.url}#${other}`, undefined, false],
    [server.url, saveOther, false],
    [`${server.url}#/quotas`, saveOther, false],
    [`${server.url}?embed=answer`, undefined, false],
    [`${server.url}#text=${encodeURIComponent('producer: records=10')}`, undefined, false],
    [`${server.url}#/quotas`, undefined, true],
    // The default scenario's own link wins over another autosave, as in the app.
    [`${server.url}#${link}`, saveOther, true],
  ];
  for (const [url, init, shown] of cases) {
    const { page, context, release } = await gated(url, { init });
    await page.waitForLoadState('domcontentloaded');
    assert.equal(await page.locator('#prerender:not([hidden])').count(), shown ? 1 : 0, `${url} ${init ?? ''}`);
    if (!shown) assert.equal(await page.locator('#boot').innerText(), 'Loading the Kafka Quota Playground…');
    release();
    await context.close();
  }
});

test('a panel anchor lands at its panel, with the copy gone before the scroll', async () => {
  const { page, context, release } = await gated(`${server.url}#/quotas`);
  await page.locator('#prerender').waitFor({ state: 'visible' });
  release();
  await page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
  await page.waitForTimeout(300);
  const top = await page.locator('#quotas').evaluate((e) => e.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 120, `the Quotas panel's top at ${top} px`);
  await context.close();
});

test('a module that does not load takes the first screen away and says so', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(server.url);
  await page.locator('#boot.failed').waitFor({ timeout: 10000 });
  assert.match(await page.locator('#boot').innerText(), /could not start: its WebAssembly module did not load/);
  assert.equal(await page.locator('#prerender').count(), 0);
  await context.close();
});
