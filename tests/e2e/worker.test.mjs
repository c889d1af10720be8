// The simulation runs in a Web Worker (crates/quota-playground/src/sim_worker.rs):
// typing into a quota value with 100 producers over 3 brokers loaded keeps every
// main-thread task under LONG_TASK_MS, the previous run stays on screen marked as
// updating, and the new run arrives; a link past the page's limits is refused
// with the numbers; without a Worker the page simulates on the main thread and
// says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, permalink, shot, waitForRun, shownText } from './harness.mjs';

// The threshold for every long task while typing (ms). The goal is 50 ms,
// which `node tests/e2e/bench-playground.mjs` measures (BENCHMARKS.md: the
// longest task 39.5-45.5 ms median on this 2-core machine, none of 50 ms or
// more in 10 runs, up to 58.6 ms on a busy machine; before the worker each
// keystroke took 172-432 ms). 100 ms keeps the test clear of a loaded CI machine while still
// failing any build that renders or simulates too much per keystroke. A busy
// machine only adds to a task's time, so the test keeps the best of RUNS runs
// (and prints them all).
const LONG_TASK_MS = Number(process.env.KQP_LONG_TASK_MS ?? 100);
const RUNS = 3;

const fixture = JSON.parse(await readFile(new URL('../fixtures/bench/100-clients-3-brokers.json', import.meta.url), 'utf8'));

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Opens `hash` with a long-task recorder installed before the page's scripts
 * (and `init`); then, unless `run` is false, brings the Simulation panel near
 * so that the page starts its simulation, and waits for the first run. */
async function open(hash, init, run = true) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  if (init) await page.addInitScript(init);
  await page.goto(`${server.url}#${hash}`);
  await page.waitForSelector('body[data-first-render-ms]', { timeout: 60000 });
  if (run) await waitForRun(page);
  return { page, errors, context };
}

const caughtUp = (page) => page.waitForFunction(
  () => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });

/** Loads the 100 producers, types 5 characters into tenant-0's quota, checks
 * the run updates; resolves to the long tasks (ms) and the time to the run. */
async function typeFive() {
  const { page, errors, context } = await open(await permalink(fixture.scenario));
  // Let the page settle after its first render (the link's first run is in the worker).
  await page.waitForTimeout(1500);
  const budget = page.locator('#focus-sensor option', { hasText: 'user=tenant-0 on broker 0' });
  assert.match(await budget.textContent(), /\(5 kB\/s\)/);
  const field = page.getByLabel('producer_byte_rate of users/tenant-0', { exact: true });
  await field.click();
  await field.press('End');
  await page.evaluate(() => { window.__longTasks = []; });
  let sawUpdating = false;
  let last = 0;
  for (const ch of '12345') {
    await page.keyboard.type(ch);
    last = Date.now();
    // The previous run stays, marked as updating, while the worker computes
    // (the live region's text and the body's aria-busy read at once: the
    // run may arrive between two reads).
    const [said, busy, header] = await page.evaluate(() => [
      document.querySelector('[data-testid=sim-updating]').textContent,
      document.querySelector('[data-testid=sim-body]').getAttribute('aria-busy'),
      document.querySelector('[data-testid=header-updating]').textContent,
    ]);
    if (said.startsWith('Updating…')) {
      sawUpdating = true;
      assert.equal(busy, 'true');
      // Said in the sticky header too, where the typist looks.
      assert.equal(header, 'Simulating…');
    }
    await page.waitForTimeout(60);
  }
  await caughtUp(page);
  const lastToRun = Date.now() - last;
  const tasks = (await page.evaluate(() => window.__longTasks)).map(Math.round);
  assert.ok(sawUpdating, 'the updating marker was shown while the worker computed');
  // The answer (computed on the page) and the run (from the worker) show 500012345.
  assert.match(await page.locator('#answer').innerText(), /p000 \(User:tenant-0, client\.id app-0\):\s+Produce: 500\.01 MB\/s/);
  assert.match(await budget.textContent(), /\(500\.01 MB\/s\)/);
  assert.equal(await page.getByTestId('sim-updating').isVisible(), false);
  assert.equal((await page.getByTestId('sim-updating').textContent()).trim(), '', 'the live region stays, empty');
  assert.equal(await page.getByTestId('sim-body').getAttribute('aria-busy'), 'false');
  assert.equal(await page.getByTestId('header-updating').textContent(), '');
  assert.equal(await page.getByTestId('sim-note').count(), 0, 'the worker was used');
  await shot(page, 'worker-100-producers');
  // 100 clients: the Cluster and time editor and the cluster view draw 12 and
  // offer the rest (each keystroke re-renders what is drawn).
  assert.equal(await page.locator('input[id$="-start"][id^="tl"]').count(), 12);
  assert.equal(await page.getByTestId('cluster-sentence').count(), 12);
  await page.getByTestId('clients-show-all').click();
  // The sentences and the table below them share one choice, said under each.
  assert.equal(await shownText(page.getByTestId('cluster-sentences-show-all')), 'Show all 100 clients');
  await page.getByTestId('cluster-show-all').click();
  assert.equal(await shownText(page.getByTestId('cluster-sentences-show-all')), 'Show fewer');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="cluster-sentence"]').length === 100);
  assert.equal(await page.locator('input[id$="-start"][id^="tl"]').count(), 100);
  // So do the Simulation panel's clients table and client metrics (and the
  // broker MBeans, 24 per broker), each with its own "Show all".
  const rows = page.getByTestId('clients').locator('tbody tr');
  assert.equal(await rows.count(), 12);
  assert.equal(await shownText(page.getByTestId('clients-table-show-all')), 'Show all 100 clients');
  await page.getByTestId('clients-table-show-all').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="clients"] tbody tr').length === 100);
  const groups = page.getByTestId('client-metrics').locator('tbody');
  assert.equal(await groups.count(), 12);
  // The client in the charts is always listed, in the table and in the metrics.
  await page.getByLabel('Show p040 in the charts').check();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="client-metrics"] tbody').length === 13);
  assert.match(await shownText(groups.last()), /^p040\b/);
  // The cluster view lists it too, after its first 12.
  await page.getByTestId('cluster-show-all').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="cluster-sentence"]').length === 13);
  assert.equal(await page.getByTestId('cluster-sentence').last().getAttribute('data-client'), 'p040');
  assert.match(await shownText(page.getByTestId('cluster-show-all')), /Show all 100 clients/);
  // The broker MBeans: 24 of each type (here only type=Produce) per broker.
  const brokerRows = () => page.getByTestId('broker-metrics').locator('tbody tr:not(.group)').count();
  assert.equal(await brokerRows(), 3 * 24);
  await page.getByTestId('metrics-show-all').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="client-metrics"] tbody').length === 100);
  assert.equal(await brokerRows(), 3 * 24, 'each list has its own Show all');
  // From the keyboard: the button stays where it was, with the focus on it,
  // and turns into "Show fewer".
  const mbeans = page.getByTestId('mbeans-show-all');
  await mbeans.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="broker-metrics"] tbody tr:not(.group)').length > 3 * 24);
  assert.equal(await shownText(mbeans), 'Show fewer');
  assert.equal(await mbeans.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'mbeans-show-all');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="broker-metrics"] tbody tr:not(.group)').length === 3 * 24);
  assert.equal(await shownText(mbeans), 'Show all 150 MBean attributes');
  assert.deepEqual(errors, []);
  await context.close();
  return { tasks, lastToRun };
}

test('typing into a quota with 100 producers keeps every task short; the run updates', async () => {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await typeFive());
    if (runs.at(-1).tasks.every((t) => t < LONG_TASK_MS)) break;
  }
  for (const r of runs) console.log(`long tasks while typing 5 characters: [${r.tasks.join(', ')}] ms (threshold ${LONG_TASK_MS} ms); last keystroke to the updated run: ${r.lastToRun} ms`);
  const best = Math.min(...runs.map((r) => Math.max(0, ...r.tasks)));
  assert.ok(best < LONG_TASK_MS, `in each of ${runs.length} runs a main-thread task took ${LONG_TASK_MS} ms or more (best run's longest: ${best} ms)`);
});

test('a link past the page limits is refused with the numbers and the CLI', async () => {
  const big = structuredClone(fixture.scenario);
  while (big.workloads.length < 1001) big.workloads.push(...fixture.scenario.workloads);
  big.workloads.length = 1001;
  const { page, errors, context } = await open(await permalink(big));
  const notice = await page.getByTestId('notice').innerText();
  assert.match(notice, /This link's scenario has 1,001 producers and consumers; the playground takes at most 1,000/);
  assert.match(notice, /kafka-quota simulate/);
  assert.match(notice, /Showing the default scenario\./);
  assert.deepEqual(errors, []);
  await context.close();
});

test('without a Worker the page simulates on the main thread and says so', async () => {
  const { page, errors, context } = await open(await permalink(fixture.scenario), () => { delete window.Worker; });
  const field = page.getByLabel('producer_byte_rate of users/tenant-0', { exact: true });
  await field.click();
  await field.press('End');
  await page.keyboard.type('9');
  await caughtUp(page);
  assert.match(await shownText(page.getByTestId('sim-note')), /The simulation runs on the page's main thread.*Web Worker is not available/);
  assert.match(await page.locator('#focus-sensor option', { hasText: 'user=tenant-0 on broker 0' }).textContent(), /\(50\.01 kB\/s\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("without a Worker and without the simulator's module the panels say why the run could not be computed", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(() => { delete window.Worker; });
  await page.route(/quota-sim-worker/, (route) => route.abort());
  await page.goto(server.url);
  await page.waitForSelector('body[data-first-render-ms]');
  await waitForRun(page);
  const text = await shownText(page.locator('#simulation'));
  assert.match(text, /The simulation could not run, neither in its Web Worker \(Worker is not defined\) nor on the page's main thread \(its module's script quota-sim-worker\.js did not load\)\. Reload the page to try again; `kafka-quota simulate` runs the same scenario/);
  // One sentence: no note that the run is computed on the main thread.
  assert.equal(await page.getByTestId('sim-note').count(), 0);
  // The rest of the page stands.
  assert.match(await page.locator('#answer').innerText(), /tenant-a/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** An init script counting the simulation workers the page starts. */
const countWorkers = () => {
  window.__simWorkers = 0;
  const Real = window.Worker;
  window.Worker = class extends Real {
    constructor(url, options) {
      super(url, options);
      if (String(url).includes('sim-worker-loader')) window.__simWorkers += 1;
    }
  };
};

/** Every file the page requests, by name. */
const requested = (page) => {
  const names = [];
  page.on('request', (r) => { names.push(new URL(r.url()).pathname.split('/').pop()); names.urls = [...(names.urls ?? []), r.url()]; });
  return names;
};
const simulator = (names) => names.filter((n) => /quota-sim-worker|sim-worker-loader/.test(n));

test('the simulator is not in the first download: the page fetches it when a panel of the run comes near, an Answer embed at once, a Quotas embed never', async () => {
  const { page, errors, context } = await open('', countWorkers, false);
  const names = requested(page);
  await page.waitForTimeout(1000);
  // At the top of the page: no run yet, nothing of the simulator fetched.
  assert.deepEqual(simulator(names), []);
  assert.equal(await page.evaluate(() => window.__simWorkers), 0);
  assert.equal(await page.getAttribute('body', 'data-sim-rev'), '0');
  // Nothing is being computed yet, and nothing says so.
  // (textContent: the panel is off screen, not laid out, and must stay so.)
  assert.equal(await page.getByTestId('sim-updating').textContent(), 'The run is computed when this panel comes into view.');
  assert.equal(await page.getByTestId('header-updating').textContent(), '');
  assert.equal(await page.getByTestId('sim-body').getAttribute('aria-busy'), 'false');
  // The answers do not wait for it, and say that the run is not simulated yet.
  assert.match(await page.locator('#answer').innerText(), /tenant-a/);
  assert.match(await page.getByTestId('answer-run-pending').innerText(), /^Whether the run delivers every record shows here once it is simulated/);
  // Scrolling towards the Simulation panel starts the worker; its run arrives.
  await waitForRun(page);
  // Then the top says how it ended, a clean run as plainly as a loss.
  assert.match(await page.getByTestId('answer-run-ok').innerText(), /^✓ The simulated run loses no records\. How the run ends, at [\d.]+ s: 1 client done\.$/);
  assert.equal(await page.evaluate(() => window.__simWorkers), 1);
  assert.deepEqual(simulator(names).sort(), ['quota-sim-worker.js', 'quota-sim-worker_bg.wasm', 'sim-worker-loader.js']);
  // Each of them asked with this build's hash, so a cached file of another build is never used.
  const hash = (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).join(' '))).match(/quota-playground-([0-9a-f]+)\.js/)[1];
  const urls = names.urls.filter((u) => /quota-sim-worker|sim-worker-loader/.test(u));
  assert.equal(urls.length, 3, urls.join(', '));
  assert.ok(urls.every((u) => u.endsWith(`?v=${hash}`)), urls.join(', '));
  assert.match(await shownText(page.locator('#simulation')), /How the run ends, at 12\.\d\d s: 1 client done\./);
  assert.equal(await page.getByTestId('sim-note').count(), 0, 'the worker was used');
  // The live region stays (empty) once the run is current; the clients'
  // scroll box is reachable by keyboard and named.
  assert.equal(await page.getByTestId('sim-updating').count(), 1);
  assert.equal((await page.getByTestId('sim-updating').textContent()).trim(), '');
  const wrap = page.getByTestId('clients-wrap');
  assert.equal(await wrap.getAttribute('tabindex'), '0');
  assert.equal(await wrap.getAttribute('role'), 'region');
  assert.match(await wrap.getAttribute('aria-label'), /Clients/);
  assert.deepEqual(errors, []);
  await context.close();

  // "Simulate now" under the answers starts it without scrolling; the header
  // keeps its height while the run is computed (its status is out of the flow).
  {
    const { page: p, errors: errs, context: ctx } = await open('', undefined, false);
    const header = async () => (await p.locator('header.top').boundingBox()).height;
    const before = await header();
    await p.getByTestId('simulate-now').click();
    await p.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
    assert.equal(await p.getByTestId('answer-run-pending').count(), 0);
    assert.equal(await p.evaluate(() => window.scrollY), 0, 'no scrolling');
    const field = p.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
    await field.fill('3000000');
    assert.equal(await header(), before);
    await p.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision);
    assert.equal(await header(), before);
    assert.deepEqual(errs, []);
    await ctx.close();
  }

  for (const [panel, fetches] of [['quotas', false], ['answer', true]]) {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    const seen = requested(p);
    await p.goto(`${server.url}?embed=${panel}`);
    await p.waitForSelector('body[data-first-render-ms]');
    if (fetches) await p.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
    else await p.waitForTimeout(1000);
    assert.equal(simulator(seen).length > 0, fetches, `?embed=${panel}: ${seen.join(', ')}`);
    await ctx.close();
  }
});

test('a simulation worker that never says ready is given up after 10 s: the run is computed on the main thread, with the note', async () => {
  const { page, errors, context } = await open(await permalink(fixture.scenario), () => {
    const Real = window.Worker;
    window.Worker = class extends Real {
      constructor(url, options) {
        // The simulation worker gets a loader that never answers.
        super(String(url).includes('sim-worker-loader') ? URL.createObjectURL(new Blob([''], { type: 'text/javascript' })) : url, options);
      }
    };
  });
  await page.getByTestId('sim-note').waitFor({ timeout: 20000 });
  assert.match(await shownText(page.getByTestId('sim-note')), /main thread.*it did not start within 10 seconds/);
  await caughtUp(page);
  assert.match(await page.locator('#focus-sensor option', { hasText: 'user=tenant-0 on broker 0' }).textContent(), /\(5 kB\/s\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a #text= link past the page limits is refused with the link sentence', async () => {
  const text = Array.from({ length: 1001 }, (_, i) => `connection: name=c${i} listener=PLAINTEXT client.id=c${i}`).join('\n');
  const { page, errors, context } = await open(`text=${encodeURIComponent(text)}`);
  await page.getByTestId('text-problems').waitFor({ timeout: 30000 });
  const box = await page.getByTestId('text-problems').innerText();
  assert.match(box, /This link's scenario has 1,001 connections; the playground takes at most 1,000/);
  assert.match(box, /kafka-quota simulate/);
  // The default scenario stays.
  assert.match(await page.locator('#answer').innerText(), /tenant-a/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an edit made while the import worker reads a #text= link is kept; a button loads the link', async () => {
  // The import/export worker's answers arrive 3 s late, so the edit below
  // happens while the text is being read.
  const { page, errors, context } = await open(`text=${encodeURIComponent('connection: listener=SASL_SSL user=bob client.id=c9')}`, () => {
    const Real = window.Worker;
    window.Worker = class extends Real {
      set onmessage(f) {
        const slow = !String(this.__url).includes('sim-worker');
        super.onmessage = f && ((e) => (slow ? setTimeout(() => f(e), 3000) : f(e)));
      }
      get onmessage() { return super.onmessage; }
      constructor(url, options) { super(url, options); this.__url = url; }
    };
  });
  await page.getByTestId('text-pending').waitFor();
  const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  await field.fill('3000000');
  await field.press('Tab');
  await page.getByTestId('text-not-loaded').waitFor({ timeout: 30000 });
  assert.match(await page.getByTestId('text-not-loaded').innerText(), /was not loaded: the page was edited while it was being read/);
  assert.equal(await field.inputValue(), '3000000', 'the edit stays');
  assert.equal(await page.getByTestId('principal-name').innerText(), 'User:tenant-a');
  await shot(page, 'worker-text-not-loaded');
  await page.getByTestId('text-load-anyway').click();
  await page.getByTestId('principal-name').filter({ hasText: 'User:bob' }).waitFor({ timeout: 10000 });
  assert.equal(await page.getByTestId('text-not-loaded').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('100 clients: the client editors come 20 a page, with a search; a client added is shown', async () => {
  const { page, errors, context } = await open(await permalink(fixture.scenario));
  const setup = page.locator('details.setup');
  await setup.locator('summary').click();
  const editors = setup.locator('fieldset.workload');
  const status = page.getByTestId('clients-page');
  assert.equal(await status.innerText(), 'Clients 1–20 of 100');
  assert.equal(await editors.count(), 20);
  assert.equal(await editors.first().locator('legend').innerText(), 'Producer on p000');
  await page.getByTestId('clients-pager').scrollIntoViewIfNeeded();
  await shot(page, 'clients-pager-1280', false);
  // Text typed and not committed stays with its client: the next page's
  // editors are new ones, not page 1's with its text and its message.
  await page.locator('#w0-records').fill('12x');
  await page.locator('#w0-records').press('Tab');
  await setup.locator('.field.invalid').first().waitFor();
  await page.getByRole('button', { name: 'Next ▶' }).click();
  await status.filter({ hasText: 'Clients 21–40 of 100' }).waitFor();
  assert.equal(await setup.locator('.field.invalid').count(), 0);
  assert.equal(await page.locator('#w20-records').inputValue(), String(fixture.scenario.workloads[20].producer.records));
  assert.equal(await editors.first().locator('legend').innerText(), 'Producer on p020');
  // An edit on the second page edits that client (its index in the scenario).
  await page.locator('#w25-records').fill('777');
  await page.locator('#w25-records').press('Enter');
  await page.waitForFunction(() => document.querySelector('#w25-records')?.value === '777');
  // Search by connection name: p05 matches p050 to p059.
  await page.getByLabel('Find a client').fill('p05');
  await status.filter({ hasText: '10 of 100 clients match; 1–10 shown' }).waitFor();
  assert.equal(await editors.count(), 10);
  assert.equal(await page.getByRole('button', { name: '◀ Previous' }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Next ▶' }).isDisabled(), true);
  await page.getByLabel('Find a client').fill('nothing-like-this');
  await status.filter({ hasText: 'No client\'s connection or topic contains "nothing-like-this" (100 clients).' }).waitFor();
  assert.equal(await editors.count(), 0);
  await page.getByLabel('Find a client').fill('');
  // A client added goes to the last page, which is shown.
  await page.getByRole('button', { name: 'Add producer' }).click();
  await status.filter({ hasText: 'Client 101 of 101' }).waitFor();
  assert.equal(await editors.count(), 1);
  assert.match(await editors.first().locator('legend').innerText(), /^Producer on /);
  assert.deepEqual(errors, []);
  await context.close();
});

test('100 connections: choosing connections to compare is a search listing at most 20, not a checkbox each', async () => {
  const { page, errors, context } = await open(await permalink(fixture.scenario), undefined, false);
  const chooser = page.locator('#resolution fieldset.compare');
  const boxes = chooser.locator('input[type="checkbox"]');
  // No checkbox until a search: the connections chosen are listed.
  assert.equal(await boxes.count(), 0);
  const search = chooser.getByLabel('Find among 100 connections (name or client.id)');
  await search.fill('p0');
  await page.waitForFunction(() => document.querySelectorAll('#resolution fieldset.compare input[type="checkbox"]').length === 20);
  await chooser.getByText('80 more match: type more of the name to narrow the list.').waitFor();
  await search.fill('p042');
  await page.waitForFunction(() => document.querySelectorAll('#resolution fieldset.compare input[type="checkbox"]').length === 1);
  assert.equal((await chooser.locator('label.check').innerText()).trim(), 'p042');
  await boxes.first().check();
  await search.fill('p07');
  // p070–p079 match; p042, chosen, stays listed.
  await page.waitForFunction(() => document.querySelectorAll('#resolution fieldset.compare input[type="checkbox"]').length === 11);
  await chooser.locator('label.check', { hasText: 'p075' }).locator('input').check();
  const columns = page.locator('#resolution .who-row .who h3');
  await page.waitForFunction(() => document.querySelectorAll('#resolution .who-row .who').length === 2);
  assert.deepEqual(await columns.allInnerTexts(), ['p042', 'p075']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a day of one fast producer is refused with its estimated work, and the page stays responsive (issue 30)', async () => {
  const day = JSON.parse(await readFile(new URL('../fixtures/big/day-producer.json', import.meta.url), 'utf8'));
  const { page, errors, context } = await open(await permalink(day.scenario));
  const notice = await page.getByTestId('notice').innerText();
  assert.match(notice, /This link's scenario is about 1\d\d,\d{3},\d{3} requests \(1\d\d,\d{3},\d{3} produce, 0 fetch\) over 86,400 simulated seconds: [\d,]+ units of work; the playground runs at most 3,000,000 units of work/);
  assert.match(notice, /kafka-quota simulate/);
  assert.match(notice, /Showing the default scenario\./);
  // The default scenario ran (waitForRun in open) and the page answers an edit.
  const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  await field.click();
  await field.press('End');
  await page.keyboard.type('9');
  await caughtUp(page);
  assert.equal(await page.getByText(/panicked|\/rustc\//).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the other large scenarios of issue 30 open and run in the worker: 100,000 partitions, 1,000 events, a 100 GB read', async () => {
  for (const name of ['partitions-100k', 'events-1000', 'consumer-100gb']) {
    const file = JSON.parse(await readFile(new URL(`../fixtures/big/${name}.json`, import.meta.url), 'utf8'));
    const { page, errors, context } = await open(await permalink(file.scenario));
    // Not refused: the link's scenario is shown, and its run arrived (open waits for it).
    assert.equal(await page.getByTestId('notice').filter({ hasText: 'the playground' }).count(), 0, name);
    const shown = await page.locator('body').innerText();
    assert.ok(!/panicked|\/rustc\/|internal error/.test(shown), `${name}: ${shown.slice(0, 300)}`);
    assert.deepEqual(errors, [], name);
    await context.close();
  }
});
