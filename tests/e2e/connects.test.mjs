// Issue 27, connections under connection_creation_rate and
// max.connection.creation.rate in the simulation panel: lesson 9 (30
// connections at once from 10.0.0.9 under connection_creation_rate=2)
// shows the engine's summary, the limits, the connections ready with the
// refused attempts and their held sockets, the attempts (the first refused:
// taken at 20 ms, throttle 480 ms, closed at about 530 ms) and, at the
// cursor, the connections ready and the sockets held; a run of connections
// only has no empty client table or chart; and the spread over seeds of a
// request quota near what its producer uses shows the engine's sentence.
// Light and dark, 390 and 1280 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, openSetup, permalink, shot, shownText } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Waits for the run of the page's current revision. */
const runDone = (page) => page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });

/** Horizontal overflow of the page (px; 0 or less is none). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Elements of `testid`'s section past the screen's right edge (a scroll box excepted). */
const cutOff = (page, testid) => page.getByTestId(testid).evaluate((root) => {
  const out = [];
  for (const e of root.querySelectorAll('*')) {
    const s = getComputedStyle(e);
    if (s.overflowX === 'auto' || s.overflowX === 'scroll' || e.closest('svg')) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > window.innerWidth + 1) out.push(`${e.tagName.toLowerCase()}.${e.className}: right ${Math.round(r.right)}`);
  }
  return out;
});

const SUMMARY = 'All 30 connections were ready by 12,859 ms; 10 were refused by connection_creation_rate=2 on ips/10.0.0.9 (held for the throttle time, then closed, and reconnected after reconnect.backoff.ms), 81 refusals in all, up to 10 attempts for one.';

/** The lesson's scenario, bare. */
const pool = () => ({
  name: 'Connections only',
  seed: 1,
  topics: [],
  quotas: [{ entity: { ip: '10.0.0.9' }, key: 'connection_creation_rate', value: 2 }],
  connections: [{ name: 'apps', listener: 'PLAINTEXT', 'client.id': 'app', ip: '10.0.0.9' }],
  workloads: [{ connects: { connection: 'apps', pattern: 'pool', count: 30 } }],
});

for (const [width, height] of [[1280, 900], [390, 844]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`lesson 9 at ${width} px, ${colorScheme}: summary, limits, chart with the cursor, attempts, and what the cursor shows`, async () => {
      const { page, errors, context } = await openApp(browser, server.url, { viewport: { width, height }, colorScheme });
      await page.getByTestId('lesson-9').click();
      await page.getByTestId('lesson-text').waitFor();
      await runDone(page);
      const lesson = await page.getByTestId('lesson-text').innerText();
      assert.match(lesson, /9\. A reconnect storm under connection_creation_rate/);
      assert.match(lesson, /taken at 20 ms, measures 21 \/ 10\.02 s/);
      const section = page.getByTestId('connects');
      await section.waitFor();
      // The engine's summary, verbatim, and the limits.
      assert.equal(await shownText(section.getByTestId('connects-summary')), SUMMARY);
      assert.equal(await shownText(section.getByTestId('connects-limits')),
        'connection_creation_rate 2/s on ips/10.0.0.9 · max.connection.creation.rate unlimited on broker 0 · pool: 30 connections opened · from 10.0.0.9 to broker 0');
      assert.match(await page.getByTestId('run-outcome').innerText(), /connections from apps: All 30 connections were ready by 12,859 ms/);
      // Nothing that assumes a producer or consumer.
      assert.equal(await page.getByTestId('clients').count(), 0);
      assert.equal(await page.getByTestId('chart-progress').count(), 0);
      // The spread over seeds comes after the connections.
      assert.equal(await page.getByTestId('seeds').count(), 1);
      assert.ok(await page.evaluate(() => document.querySelector('[data-testid=connects]').compareDocumentPosition(document.querySelector('[data-testid=seeds]')) & Node.DOCUMENT_POSITION_FOLLOWING));
      assert.match(await shownText(page.getByTestId('no-budget')), /^This run opens connections only: .* shown under Connections above\.$/);
      // The chart: the ready line, the line at 30, a mark and a held bar per refusal (81).
      const chart = section.getByTestId('chart-connects');
      await chart.scrollIntoViewIfNeeded();
      assert.equal(await chart.locator('path.line').count(), 2);
      assert.equal(await chart.locator('line.quota').count(), 1);
      assert.equal(await chart.locator('circle.req.refused').count(), 81);
      assert.equal(await chart.locator('rect.held').count(), 81);
      assert.match(await chart.getAttribute('aria-label'), /^Connections of apps from 10\.0\.0\.9 over 12\.86 s: 30 of 30 ready by the end, 81 refused attempts;/);
      // The attempts: 111 in all, the first 8 then around the cursor; the 21st is the first refused.
      const table = section.getByTestId('connects-attempts');
      assert.match(await shownText(table.locator('caption')), /^111 connection attempts from apps, in the order the acceptor took them; the first, then those around the cursor$/);
      assert.match(await shownText(section.getByTestId('connects-attempts-gap').last()), /^… and [\d,]+ more attempts$/);
      const scrub = page.getByTestId('scrubber');
      // At 20 ms the acceptor has just taken the 21st attempt, the first refused: its row is the cursor's.
      await scrub.fill('20');
      await page.waitForFunction(() => document.querySelector('[data-testid=connects-at-cursor]')?.dataset.held === '1');
      const now = section.getByTestId('connects-at-cursor');
      assert.equal(await now.getAttribute('data-ready'), '19');
      const first = section.getByTestId('connects-attempt-20');
      assert.match(await first.getAttribute('class'), /refused/);
      assert.match(await first.getAttribute('class'), /focus/);
      assert.equal(await shownText(first.getByTestId('taken')), '20\u00a0ms');
      assert.equal(await first.getByTestId('throttle').innerText(), '480 ms');
      assert.equal(await first.getByTestId('end').innerText(), 'closed at 530\u00a0ms');
      // At 100 ms: 20 ready, the 10 refused held.
      await scrub.fill('100');
      await page.waitForFunction(() => document.querySelector('[data-testid=connects-at-cursor]')?.dataset.held === '10');
      assert.equal(await now.getAttribute('data-ready'), '20');
      assert.match(await shownText(section.getByTestId('connects-held')), /^10 refused sockets held by the acceptor/);
      assert.equal(await section.getByTestId('connects-figure').getAttribute('data-cursor-ms'), '100');
      const x = await chart.locator('line.cursor').getAttribute('x1');
      assert.ok(Number(x) > 0, x);
      // At 600 ms: closed, one more ready (573 ms), the next round held again.
      await scrub.fill('600');
      await page.waitForFunction(() => document.querySelector('[data-testid=connects-at-cursor]')?.dataset.ready === '21');
      assert.equal(await now.getAttribute('data-held'), '9');
      await section.scrollIntoViewIfNeeded();
      await shot(page, `connects-lesson9-${width}-${colorScheme}`, false);
      await chart.scrollIntoViewIfNeeded();
      await shot(page, `connects-lesson9-chart-${width}-${colorScheme}`, false);
      await table.scrollIntoViewIfNeeded();
      await shot(page, `connects-lesson9-attempts-${width}-${colorScheme}`, false);
      assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
      assert.deepEqual(await cutOff(page, 'connects'), []);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('a connections-only permalink: the section, the cluster view and the time line without a producer or consumer', async () => {
  const url = `${server.url}#${await permalink(pool())}`;
  const { page, errors, context } = await openApp(browser, url, { viewport: { width: 390, height: 844 } });
  const section = page.getByTestId('connects');
  await section.waitFor();
  assert.equal(await shownText(section.getByTestId('connects-summary')), SUMMARY);
  assert.equal(await page.getByTestId('clients').count(), 0);
  assert.equal(await page.getByTestId('client-metrics').count(), 0);
  assert.equal(await page.locator('#focus-sensor').count(), 0);
  // No Produce, Fetch or Request sensor, so no MBean: no empty table (the
  // panel's sentence says no budget was metered, and where to look).
  assert.equal(await page.getByTestId('broker-metrics').count(), 0);
  assert.match(await shownText(page.getByTestId('no-budget')), /no produce, fetch or request budget was metered/);
  await page.getByTestId('no-budget').scrollIntoViewIfNeeded();
  await shot(page, 'connects-no-mbeans-390', false);
  assert.match(await shownText(page.getByTestId('cluster-no-clients')), /^This run has no producer or consumer.* Its 1 connects workload under connection_creation_rate and max\.connection\.creation\.rate is shown in the Simulation panel, under Connections\.$/);
  const row = page.getByTestId('client-time-0');
  await row.scrollIntoViewIfNeeded();
  assert.equal(await row.locator('#tl0-stop').count(), 0);
  assert.match(await shownText(page.getByTestId('tl0-no-stop')), /^No stop: each client reconnects/);
  // The spread over 20 seeds: the backoff's jitter moves the end a little (kafka-quota simulate --seeds 20).
  await page.getByTestId('seeds').scrollIntoViewIfNeeded();
  await page.getByTestId('seeds-run').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=seeds-status]')?.dataset.done === '20', undefined, { timeout: 60000 });
  assert.equal(await shownText(page.getByTestId('seeds-client-0').getByTestId('seeds-summary')),
    'apps: throttled in every one of 20 runs (seeds 1-20); duration 12,805 to 12,900 ms, median 12,875 ms.');
  await shot(page, 'seeds-connects-390', false);
  // The broker-wide rate instead (the lesson's suggestion): nothing refused.
  await openSetup(page);
  await page.locator('#max-connection-creation-rate').fill('2');
  await page.locator('#max-connection-creation-rate').press('Enter');
  await page.waitForFunction(() => /max\.connection\.creation\.rate 2\/s/.test(document.querySelector('[data-testid=connects-limits]')?.textContent ?? ''));
  await runDone(page);
  assert.match(await shownText(section.getByTestId('connects-summary')), /the acceptor waited [\d,]+ ms in all before \d+ of them for max\.connection\.creation\.rate\.$/);
  assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
  assert.deepEqual(await cutOff(page, 'connects'), []);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The lab's request-percentage-0.3 run with request_percentage=0.5 and
 * lab/environment.json's costs: near what the producer uses. */
const nearQuota = () => ({
  name: 'request_percentage=0.5 on the client-id, 10 MB',
  seed: 1,
  topics: [{ name: 'lab', partitions: 1 }],
  quotas: [{ entity: { 'client-id': 'cpu-bound-small' }, key: 'request_percentage', value: 0.5 }],
  connections: [{ name: 'producer', listener: 'PLAINTEXT', 'client.id': 'cpu-bound-small' }],
  workloads: [{ producer: { connection: 'producer', topic: 'lab', records: 10000, 'record.size': 1000, config: { acks: '1', 'linger.ms': 5, 'batch.size': 65536 } } }],
  environment: {
    link: { bandwidth_bytes_per_s: 155000000.0, latency_us: 100 },
    broker: {
      produce: { io_us: 150.0, io_us_per_kib: 1.9, network_us: 20.0, network_us_per_kib: 0.5 },
      fetch: { io_us: 100.0, io_us_per_kib: 0.25, network_us: 20.0, network_us_per_kib: 0.5 },
      jitter: 0.1,
    },
    client: { producer_send_us_per_record: 11.5, consumer_us_per_record: 1.0 },
  },
});

for (const [width, colorScheme] of [[1280, 'light'], [390, 'dark'], [1280, 'dark'], [390, 'light']]) {
  test(`the spread over 20 seeds of a request quota near the producer's use, ${width} px ${colorScheme}: the engine's sentence and a bar per seed`, async () => {
    const url = `${server.url}#${await permalink(nearQuota())}`;
    const { page, errors, context } = await openApp(browser, url, { viewport: { width, height: 900 }, colorScheme });
    const seeds = page.getByTestId('seeds');
    await seeds.scrollIntoViewIfNeeded();
    assert.equal(await page.getByTestId('seeds-count').inputValue(), '20');
    await page.getByTestId('seeds-run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=seeds-status]')?.dataset.running === 'false'
      && document.querySelector('[data-testid=seeds-status]')?.dataset.done === '20', undefined, { timeout: 60000 });
    // What `kafka-quota simulate --seeds 20` prints for this scenario: throttled in 2 of 20.
    const client = page.getByTestId('seeds-client-0');
    assert.equal(await shownText(client.getByTestId('seeds-summary')),
      'producer: throttled in 2 of 20 runs (seeds 1-20); duration 116 to 116 ms, median 116 ms.');
    assert.equal(await client.getAttribute('data-throttled'), '2');
    const strip = page.getByTestId('seeds-strip-0');
    assert.equal(await strip.locator('rect.seed').count(), 20);
    assert.equal(await strip.locator('rect.seed.throttled').count(), 2);
    assert.match(await shownText(page.getByTestId('seeds-status')), /^20 runs in /);
    await seeds.scrollIntoViewIfNeeded();
    await shot(page, `seeds-spread-${width}-${colorScheme}`, false);
    assert.ok(await overflow(page) <= 0, `${await overflow(page)}px of horizontal overflow`);
    assert.deepEqual(await cutOff(page, 'seeds'), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the spread shows its progress, the page stays responsive, and a change of the scenario drops it', async () => {
  // Lesson 1's two 30 MB producers: each seed's run takes a while.
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  await page.getByTestId('lesson-1').click();
  await runDone(page);
  await page.getByTestId('seeds-count').fill('100');
  assert.equal(await page.getByTestId('seeds-run').innerText(), 'Run 100 seeds');
  await page.getByTestId('seeds-run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=seeds-status]')?.dataset.done) >= 2, undefined, { timeout: 60000 });
  assert.match(await page.getByTestId('seeds-status').innerText(), /^Running seed \d+ of 100 in the simulation worker…$/);
  assert.equal(await page.getByTestId('seeds-status').getAttribute('data-running'), 'true');
  assert.equal(await page.locator('.seeds progress').count(), 1);
  // The page answers while the seeds run: the cursor moves.
  const t0 = Date.now();
  await page.getByTestId('scrubber').fill('5000');
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]')?.dataset.ms === '5000');
  assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms to move the cursor`);
  // An edit: the spread of the old scenario goes, and the edit's run comes.
  await openSetup(page);
  await page.locator('#w0-records').fill('20000');
  await page.locator('#w0-records').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=seeds-status]')?.textContent === '');
  await runDone(page);
  assert.equal(await page.getByTestId('seeds-clients').count(), 0);
  assert.equal(await page.getByTestId('seeds-run').isDisabled(), false);
  assert.deepEqual(errors, []);
  await context.close();
});
