// Issue 27, Admin clients under controller_mutation_rate in the simulation
// panel: lesson 8 (40 topics x 10 partitions, quota 20 on client-id
// admin-burst) shows the engine's summary, the budget, the controller's
// token bucket with the cursor, the requests (the first: 23 accepted, 17
// refused) and the futures' outcome; a scenario whose only workload is an
// Admin client with default.api.timeout.ms=5000 shows the topics failing
// with ThrottlingQuotaExceededException, and nothing that assumes a
// producer or consumer breaks. Light and dark, 390 and 1280 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, openSetup, permalink, shot, shownText } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Waits for the run of the page's current revision. */
const runDone = (page) => page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });

/** Lesson 8's scenario with `topics` topics and Admin `config`. */
const adminOnly = (topics, config) => ({
  name: 'Admin only',
  topics: [],
  quotas: [{ entity: { 'client-id': 'admin-burst' }, key: 'controller_mutation_rate', value: 20 }],
  connections: [{ name: 'admin', listener: 'PLAINTEXT', 'client.id': 'admin-burst' }],
  workloads: [{ admin: { connection: 'admin', topics, partitions: 10, ...(config ? { config } : {}) } }],
});

/** Horizontal overflow of the page (px; 0 or less is none). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Elements of the admin section wider than their box or past the screen's right edge (a scroll box excepted). */
const cutOff = (page) => page.locator('[data-testid=admin-clients]').evaluate((root) => {
  const out = [];
  for (const e of root.querySelectorAll('*')) {
    const s = getComputedStyle(e);
    if (s.overflowX === 'auto' || s.overflowX === 'scroll' || e.closest('svg')) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > window.innerWidth + 1) out.push(`${e.tagName.toLowerCase()}.${e.className}: right ${Math.round(r.right)}`);
  }
  return out;
});

/** Opens lesson 8 and waits for its run. */
async function lesson8(page) {
  await page.getByTestId('lesson-8').click();
  await page.getByTestId('lesson-text').waitFor();
  await runDone(page);
  await page.getByTestId('admin-clients').waitFor();
}

for (const [width, height] of [[1280, 900], [390, 844]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`lesson 8 at ${width} px, ${colorScheme}: summary, budget, token chart with the cursor, requests and outcome`, async () => {
      const { page, errors, context } = await openApp(browser, server.url, { viewport: { width, height }, colorScheme });
      await lesson8(page);
      const lesson = await page.getByTestId('lesson-text').innerText();
      assert.match(lesson, /8\. Topic creation under controller_mutation_rate/);
      assert.match(lesson, /23 topics pass/);
      const section = page.getByTestId('admin-clients');
      // The engine's summary, verbatim, and the budget line.
      assert.equal(await shownText(section.getByTestId('admin-summary')),
        'All 40 topics created in 8,526 ms after 17 retries on THROTTLING_QUOTA_EXCEEDED.');
      const budget = await shownText(section.getByTestId('admin-budget'));
      assert.match(budget, /^CreateTopics v7 \(strict: .*\) · budget user="", client-id=admin-burst · quota 20 mutations\/s · burst 220 tokens · 10 partitions per topic/);
      // The run's outcome line says it too, and nothing assumes a producer.
      assert.match(await page.getByTestId('run-outcome').innerText(), /Admin client admin: All 40 topics created in 8,526 ms/);
      assert.equal(await page.getByTestId('clients').count(), 0, 'no clients table without a producer or consumer');
      assert.equal(await page.getByTestId('chart-progress').count(), 0);
      assert.match(await shownText(page.getByTestId('no-budget')), /Admin clients only/);
      // The token chart: the burst, 0, a mark per request (all 18: 17 with topics refused).
      const chart = section.getByTestId('chart-admin-tokens');
      await chart.scrollIntoViewIfNeeded();
      assert.equal(await chart.locator('line.quota').count(), 1);
      assert.equal(await chart.locator('line.floor').count(), 1);
      assert.equal(await chart.locator('circle.req').count(), 18);
      assert.equal(await chart.locator('circle.req.refused').count(), 17);
      assert.match(await chart.getAttribute('aria-label'), /a burst of 220 tokens refilled at 20 per second; 18 requests, 17 with topics refused; the lowest -10/);
      // The requests: the first 23 accepted, 17 refused, 220 → -10, 475 ms.
      const first = section.getByTestId('admin-request-0');
      assert.equal(await first.getByTestId('accepted').innerText(), '23');
      assert.equal(await first.getByTestId('refused').innerText(), '17');
      assert.match(await shownText(first), /220 → -10/);
      assert.match(await first.innerText(), /475 ms/);
      assert.equal(await section.getByTestId('admin-requests').locator('tbody tr').count(), 18);
      // The futures: 40 created, 23 at once; no exception.
      assert.equal(await section.getByTestId('admin-done').getAttribute('data-count'), '40');
      assert.match(await shownText(section.getByTestId('admin-done')), /^40 topics created, 23 at 26\sms, the last at 8\.53\ss$/);
      assert.equal(await section.getByTestId('admin-quota-exceeded').getAttribute('data-count'), '0');
      assert.equal(await section.getByTestId('admin-timed-out').getAttribute('data-count'), '0');
      // The cursor: at 0 nothing is created yet; scrubbed to 1.2 s, 23 + 2
      // created, the chart's cursor and the bucket follow.
      const scrub = page.getByTestId('scrubber');
      await scrub.fill('0');
      await page.waitForFunction(() => document.querySelector('[data-testid=admin-at-cursor]').dataset.done === '0');
      await scrub.fill('1200');
      await page.waitForFunction(() => document.querySelector('[data-testid=admin-at-cursor]').dataset.done === '25');
      const fig = section.getByTestId('admin-tokens-figure');
      assert.equal(await fig.getAttribute('data-cursor-ms'), '1200');
      // 1,001 ms: -9.98 tokens, then 199 ms of refill at 20/s: -6.
      assert.equal(await fig.getAttribute('data-tokens-now'), '-6.00');
      const x = await chart.locator('line.cursor').getAttribute('x1');
      assert.ok(Number(x) > 0, x);
      // The request sent last by the cursor is marked, the later ones dimmed.
      assert.match(await section.getByTestId('admin-request-2').getAttribute('class'), /focus/);
      assert.match(await section.getByTestId('admin-request-3').getAttribute('class'), /dim/);
      await section.scrollIntoViewIfNeeded();
      await shot(page, `admin-lesson8-${width}-${colorScheme}`, false);
      await chart.scrollIntoViewIfNeeded();
      await shot(page, `admin-lesson8-chart-${width}-${colorScheme}`, false);
      await section.getByTestId('admin-requests').scrollIntoViewIfNeeded();
      await shot(page, `admin-lesson8-requests-${width}-${colorScheme}`, false);
      assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
      assert.deepEqual(await cutOff(page), []);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('an Admin-only scenario with default.api.timeout.ms=5000 shows the topics failing with ThrottlingQuotaExceededException', async () => {
  const url = `${server.url}#${await permalink(adminOnly(60, { 'default.api.timeout.ms': 5000, 'request.timeout.ms': 5000 }))}`;
  const { page, errors, context } = await openApp(browser, url, { viewport: { width: 390, height: 844 } });
  const section = page.getByTestId('admin-clients');
  await section.waitFor();
  assert.equal(await shownText(section.getByTestId('admin-summary')),
    '32 of 60 topics created; 28 failed with ThrottlingQuotaExceededException after 10 retries on THROTTLING_QUOTA_EXCEEDED.');
  assert.match(await section.getByTestId('admin-summary').getAttribute('class'), /failed/);
  const q = section.getByTestId('admin-quota-exceeded');
  assert.equal(await q.getAttribute('data-count'), '28');
  assert.match(await shownText(q), /^28 topics failed with ThrottlingQuotaExceededException, all at 5\.00\ss \(throttleTimeMs\(\) (up to )?\d+ ms\)$/);
  assert.equal(await q.locator('code').getAttribute('title'), 'org.apache.kafka.common.errors.ThrottlingQuotaExceededException');
  assert.equal(await section.getByTestId('admin-done').getAttribute('data-count'), '32');
  assert.match(await page.getByTestId('run-outcome').getAttribute('class'), /failed/);
  // The Answer says topics failed, not records lost (no producer or consumer).
  const top = page.getByTestId('answer-run-outcome');
  assert.match(await shownText(top), /^⚠ In the simulated run, Admin calls' topics fail\. How the run ends/);
  // The other panels of the run: no budget picker, no blank or broken chart.
  assert.equal(await page.locator('#focus-sensor').count(), 0);
  // No Produce, Fetch or Request sensor, so no MBean: no empty table (the
  // panel's sentence says no budget was metered, and where to look).
  assert.equal(await page.getByTestId('broker-metrics').count(), 0);
  assert.match(await shownText(page.getByTestId('no-budget')), /no produce, fetch or request budget was metered/);
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'admin-timeout-390', false);
  await q.scrollIntoViewIfNeeded();
  await shot(page, 'admin-timeout-outcome-390', false);
  // The cluster panel lays out without a producer or consumer; the Admin
  // client on the time line has no stop.
  const row = page.getByTestId('client-time-0');
  await row.scrollIntoViewIfNeeded();
  assert.equal(await row.locator('#tl0-stop').count(), 0);
  assert.match(await shownText(page.getByTestId('tl0-no-stop')), /^No stop: each Admin call runs until/);
  await shot(page, 'admin-timeout-cluster-390', false);
  assert.match(await shownText(page.getByTestId('cluster-no-clients')), /^This run has no producer or consumer.* Its 1 Admin client under controller_mutation_rate is shown in the Simulation panel, under Admin clients\.$/);
  await shot(page, 'admin-timeout-cluster-view-390', false);
  assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
  assert.deepEqual(await cutOff(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("lesson 8's suggestion, typed in the Admin client's settings: default.api.timeout.ms and request.timeout.ms at 5000", async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  await lesson8(page);
  await openSetup(page);
  // default.api.timeout.ms below request.timeout.ms (30000): Kafka's refusal at the field.
  await page.locator('#w0-timeout').fill('5000');
  await page.locator('#simulation').getByText('must be no smaller than the value of request.timeout.ms').first().waitFor();
  await page.locator('#w0-reqtimeout').fill('5000');
  await runDone(page);
  const section = page.getByTestId('admin-clients');
  await page.waitForFunction(() => document.querySelector('[data-testid=admin-quota-exceeded]')?.dataset.count === '8');
  assert.equal(await shownText(section.getByTestId('admin-summary')),
    '32 of 40 topics created; 8 failed with ThrottlingQuotaExceededException after 10 retries on THROTTLING_QUOTA_EXCEEDED.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 10,000-topic Admin run lists a few requests, not thousands of rows', async () => {
  // One topic per call: 10,000 calls, each its own request.
  const s = adminOnly(10000, { 'default.api.timeout.ms': 60000 });
  s.workloads[0].admin.partitions = 1;
  s.workloads[0].admin.topics_per_call = 1;
  s.quotas[0].value = 1000;
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(s)}`, { viewport: { width: 1280, height: 900 } });
  const section = page.getByTestId('admin-clients');
  await section.waitFor();
  const rows = await section.getByTestId('admin-requests').locator('tbody tr').count();
  assert.ok(rows <= 20, `${rows} rows`);
  assert.match(await shownText(section.getByTestId('admin-requests-gap').last()), /^… and [\d,]+ more requests$/);
  assert.ok(await section.locator('circle.req').count() <= 600);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed trimmed to controller_mutation_rate keeps the Admin clients without the unmetered note; another quota type hides them', async () => {
  const link = await permalink(adminOnly(40));
  const open = (quota) => openApp(browser, `${server.url}?embed=simulation&quota=${quota}#${link}`, { viewport: { width: 720, height: 900 } });
  let { page, errors, context } = await open('controller_mutation_rate');
  await page.getByTestId('admin-clients').waitFor();
  assert.ok(await page.getByTestId('admin-clients').isVisible());
  assert.equal(await page.getByTestId('embed-trim-note').count(), 0);
  assert.equal(await shownText(page.getByTestId('admin-summary')), 'All 40 topics created in 8,526 ms after 17 retries on THROTTLING_QUOTA_EXCEEDED.');
  assert.deepEqual(errors, []);
  await context.close();
  ({ page, errors, context } = await open('producer_byte_rate'));
  await page.getByTestId('embed-trim-note').waitFor();
  assert.equal(await page.getByTestId('admin-clients').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a producer beside an Admin client without a quota: both shown, the Admin section without a bucket', async () => {
  const s = {
    topics: [{ name: 'lab', partitions: 1 }],
    quotas: [{ entity: { 'client-id': 'app-1' }, key: 'producer_byte_rate', value: 2000000 }],
    connections: [
      { name: 'app', listener: 'PLAINTEXT', 'client.id': 'app-1' },
      { name: 'admin', listener: 'PLAINTEXT', 'client.id': 'ops' },
    ],
    workloads: [
      { producer: { connection: 'app', topic: 'lab', records: 6000, 'record.size': 1000 } },
      { admin: { connection: 'admin', topics: 5, partitions: 3, start_ms: 100 } },
    ],
  };
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(s)}`, { viewport: { width: 390, height: 844 } });
  const section = page.getByTestId('admin-clients');
  await section.waitFor();
  assert.equal(await page.getByTestId('clients').locator('tbody tr').count(), 1);
  assert.ok(await page.getByTestId('chart-progress').count() === 1);
  assert.ok(await page.getByTestId('chart-rate').count() === 1);
  assert.match(await shownText(section.getByTestId('admin-summary')), /^All 5 topics created in \d+ ms\.$/);
  assert.match(await shownText(section.getByTestId('admin-budget')), /no controller_mutation_rate applies: unlimited/);
  assert.equal(await section.getByTestId('chart-admin-tokens').count(), 0);
  assert.match(await shownText(section.getByTestId('admin-request-0')), /unlimited/);
  assert.match(await page.getByTestId('run-outcome').innerText(), /1 client done; Admin client admin: All 5 topics created/);
  assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
  assert.deepEqual(await cutOff(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
