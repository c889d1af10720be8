// Issue 29, the cluster editor and the cluster and simulation views: a
// leadership move's fields are checked together as typed (partition 0 →
// broker 1 becomes partition 1 → broker 0 in either order, and a refused
// pair is shown as not applied); a quota change may target an entity that
// has no quota, typed by the user; the budget meter has a scale (0, the
// quota at a mark, the full bar); at 390 px the last perf-test line and the
// throttle formula are not cut off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { serve, launch, openApp, permalink, shot, shownText } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const connection = { name: 'app', listener: 'SASL_PLAINTEXT', mechanism: 'PLAIN', identity: 'tenant-a', 'client.id': 'app-1' };

/** Two brokers, topic lab with 2 partitions (0 on broker 0, 1 on broker 1),
 * partition 0 moving to broker 1 at 5 s; the producer sends 2 MB/s for 15 s
 * (unthrottled, it would be done within the quota windows' burst at once). */
const moving = {
  brokers: { count: 2 },
  topics: [{ name: 'lab', partitions: 2 }],
  quotas: [{ entity: { user: 'tenant-a' }, key: 'producer_byte_rate', value: 2000000 }],
  connections: [connection],
  workloads: [{ producer: { connection: 'app', topic: 'lab', records: 30000, 'record.size': 1000, throughput: 2000 } }],
  events: [{ kind: 'move_leader', at_ms: 5000, topic: 'lab', partition: 0, to_broker: 1 }],
};

/** The scenario the page holds, read from its share link. */
async function linked(page) {
  const hash = new URL(await page.getByTestId('share-link').inputValue()).hash.slice(1);
  return JSON.parse(inflateRawSync(Buffer.from(hash.slice(3), 'base64url')).toString('utf8'));
}

/** Waits until the share link's scenario satisfies `ok`; returns it. */
async function linkedWhen(page, ok) {
  const until = Date.now() + 10000;
  let s;
  while (Date.now() < until) {
    s = await linked(page);
    if (ok(s)) return s;
    await page.waitForTimeout(100);
  }
  assert.fail(`the share link never held the expected scenario: ${JSON.stringify(s?.events)}`);
}

/** Waits for the run of the page's current revision. */
const runDone = (page) => page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });

const wanted = { kind: 'move_leader', at_ms: 5000, topic: 'lab', partition: 1, to_broker: 0 };

for (const order of ['partition first', 'broker first']) {
  test(`a leadership move becomes partition 1 → broker 0, ${order}; a refused pair is held and said not applied`, async () => {
    const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(moving)}`, { viewport: { width: 1280, height: 900 } });
    const ev = page.getByTestId('event-0');
    await ev.scrollIntoViewIfNeeded();
    assert.equal(await ev.getAttribute('data-applied'), 'true');
    if (order === 'partition first') {
      await page.locator('#ev0-partition').fill('1');
      // Partition 1 → broker 1: broker 1 already leads it. Said beside the
      // broker, with the typed pair kept and marked not applied.
      await page.locator('#ev0-to-problem').filter({ hasText: "events[0].to_broker: The move_leader event moves partition 1 of topic 'lab' to broker 1, but" }).waitFor();
      assert.equal(await page.locator('#ev0-to').inputValue(), '1');
    } else {
      await page.locator('#ev0-to').selectOption('0');
      await page.locator('#ev0-to-problem').filter({ hasText: "events[0].to_broker: The move_leader event moves partition 0 of topic 'lab' to broker 0, but" }).waitFor();
      assert.equal(await page.locator('#ev0-partition').inputValue(), '0');
      assert.equal(await page.locator('#ev0-to').inputValue(), '0', 'the select shows the broker as picked, marked not applied');
    }
    assert.equal(await ev.getAttribute('data-applied'), 'false');
    assert.match(await page.getByTestId('ev0-draft').innerText(),
      /Not applied: the form shows what you typed, which the engine refuses \(above\); the run keeps the move of partition 0 of topic 'lab' to broker 1 at 5\.00 s\./);
    // Meanwhile the scenario (and so the run) keeps the stored move.
    assert.deepEqual((await linked(page)).events, moving.events);
    if (order === 'partition first') {
      await shot(page, 'issue29-move-held-1280', false);
      await page.locator('#ev0-to').selectOption('0');
    } else {
      await page.locator('#ev0-partition').fill('1');
    }
    // The pair as typed is valid: applied, the note gone, the fields as typed.
    await page.waitForFunction(() => document.querySelector('[data-testid="event-0"]').dataset.applied === 'true');
    assert.equal(await page.getByTestId('ev0-draft').count(), 0);
    assert.equal(await page.locator('#ev0-partition').inputValue(), '1');
    assert.equal(await page.locator('#ev0-to').inputValue(), '0');
    const s = await linkedWhen(page, (s) => s.events?.[0]?.partition === 1);
    assert.deepEqual(s.events, [wanted]);
    // The run moves partition 1 to broker 0 at 5 s.
    await runDone(page);
    await page.locator('#simulation ul.events').filter({ hasText: '5.00 s: Partition lab-1 moves from broker 1 to broker 0' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a held draft goes back to the applied move on request', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(moving)}`, { viewport: { width: 390, height: 844 } });
  await page.locator('#ev0-to').selectOption('0');
  await page.getByTestId('ev0-draft').waitFor();
  await page.getByTestId('ev0-draft').scrollIntoViewIfNeeded();
  await shot(page, 'issue29-move-held-390', false);
  await page.getByTestId('ev0-draft-back').click();
  assert.equal(await page.getByTestId('ev0-draft').count(), 0);
  assert.equal(await page.locator('#ev0-to').inputValue(), '1');
  assert.equal(await page.getByTestId('event-0').getAttribute('data-applied'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a quota change may target an entity without a quota, typed by the user, and throttles from its time', async () => {
  // No quota at all: a 3 MB/s producer for 10 s.
  const free = {
    topics: [{ name: 'lab', partitions: 1 }],
    connections: [connection],
    workloads: [{ producer: { connection: 'app', topic: 'lab', records: 30000, 'record.size': 1000, throughput: 3000 } }],
  };
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(free)}`, { viewport: { width: 1280, height: 900 } });
  const add = page.getByTestId('add-set-quota');
  assert.ok(await add.isEnabled(), 'a quota change needs no quota to exist');
  await add.click();
  await page.getByTestId('event-0').waitFor();
  // The default: the first client's client-id, its producer_byte_rate, 1 MB/s.
  assert.equal(await page.locator('#ev0-kind').inputValue(), 'client');
  assert.equal(await page.locator('#ev0-client').inputValue(), 'app-1');
  assert.equal(await page.locator('#ev0-key').inputValue(), 'producer_byte_rate');
  assert.equal(await page.locator('#ev0-value').inputValue(), '1000000');
  // Another entity, typed: (user, client-id); the user's name is empty
  // until typed, which Kafka refuses: held, with Kafka's reason.
  await page.locator('#ev0-kind').selectOption('user-client');
  await page.getByTestId('ev0-quota-problem').waitFor();
  assert.match(await page.getByTestId('ev0-quota-problem').innerText(), /^events\[0\]: .*empty/i);
  assert.equal(await page.getByTestId('event-0').getAttribute('data-applied'), 'false');
  assert.equal((await linked(page)).events[0].entity['client-id'], 'app-1');
  assert.equal((await linked(page)).events[0].entity.user, undefined);
  // The default user: users/<default>/clients/app-1, applied.
  await page.locator('#ev0-user-default').check();
  await page.waitForFunction(() => document.querySelector('[data-testid="event-0"]').dataset.applied === 'true');
  const s = await linkedWhen(page, (s) => 'user' in (s.events?.[0]?.entity ?? {}));
  assert.deepEqual(s.events, [{ kind: 'set_quota', at_ms: 5000, entity: { user: null, 'client-id': 'app-1' }, key: 'producer_byte_rate', value: 1000000 }]);
  assert.deepEqual(s.quotas ?? [], []);
  // The run: nothing throttled before 5 s; the change set at 5 s, the first throttle at or after it.
  await runDone(page);
  await page.locator('#simulation ul.events').filter({ hasText: '5.00 s: users/<default>/clients/app-1 producer_byte_rate=1000000.0 is set on every broker.' }).waitFor();
  const end = await page.getByTestId('scrubber').getAttribute('max');
  await page.getByTestId('scrubber').fill(end);
  const firstAt = await shownText(page.getByTestId('throttles').locator('tbody tr').first().locator('td').first());
  const m = firstAt.match(/^([\d.]+) (ms|s)$/);
  assert.ok(m, firstAt);
  const firstMs = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  // The budget is new at 5 s: its samples start then, so the first
  // throttle comes once its windowed rate is over 1 MB/s, never before 5 s.
  assert.ok(firstMs >= 5000 && firstMs <= Number(end), `the first throttle at ${firstAt}, after the change at 5 s`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the budget meter has a scale: 0, the quota at its mark, the full bar at 1.5 × the quota', async () => {
  for (const width of [390, 1280]) {
    const { page, errors, context } = await openApp(browser, server.url, { viewport: { width, height: 900 } });
    const meter = page.getByTestId('cluster-budgets').getByTestId('budget-meter').first();
    await meter.scrollIntoViewIfNeeded();
    assert.equal(await shownText(meter.getByTestId('meter-zero')), '0');
    assert.equal(await shownText(meter.getByTestId('meter-quota')), '2 MB/s');
    assert.equal(await shownText(meter.getByTestId('meter-max')), '3 MB/s');
    assert.match(await meter.locator('meter').getAttribute('aria-label'), /^Broker 0: measured .* of quota 2 MB\/s; the full bar is 3 MB\/s$/);
    // The mark is at 2/3 of the bar, under the quota's label; the labels
    // do not overlap and stay in the cell.
    const box = async (l) => l.boundingBox();
    const bar = await box(meter.locator('meter'));
    const mark = await box(meter.locator('.meter-mark'));
    const [zero, quota, max] = await Promise.all(['meter-zero', 'meter-quota', 'meter-max'].map((t) => box(meter.getByTestId(t))));
    const cell = await box(page.getByTestId('cluster-budgets').locator('td[data-broker="0"]').first());
    assert.ok(Math.abs(mark.x - (bar.x + bar.width * 2 / 3)) <= 2, `mark at ${mark.x}, bar ${bar.x}+${bar.width}`);
    assert.ok(Math.abs(quota.x + quota.width / 2 - mark.x) <= 2, 'the quota label is centred on the mark');
    assert.ok(quota.y + quota.height <= bar.y + 1, 'the quota label is above the bar');
    assert.ok(zero.y >= bar.y + bar.height - 1 && max.y >= bar.y + bar.height - 1, '0 and the max are under the bar');
    assert.ok(zero.x + zero.width < max.x, '0 and the max do not overlap');
    for (const b of [zero, quota, max]) assert.ok(b.x >= cell.x && b.x + b.width <= cell.x + cell.width + 0.5, `a label inside its cell at ${width} px`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('at 390 px the last perf-test line and the throttle formula are fully visible', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 390, height: 844 } });
  await page.getByTestId('scrubber').fill(await page.getByTestId('scrubber').getAttribute('max'));
  const pre = page.getByTestId('perf-lines');
  const lines = pre.locator('.line');
  await shownText(pre);
  const last = await lines.last().innerText();
  assert.match(last, /^30000 records sent, .* 99\.9th\.$/, 'the totals line, to its last word');
  const fit = await pre.evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
  assert.ok(fit.sw <= fit.cw, `the perf-test box does not scroll sideways (${fit.sw} > ${fit.cw})`);
  const [preBox, lastBox] = [await pre.boundingBox(), await lines.last().boundingBox()];
  assert.ok(lastBox.x + lastBox.width <= preBox.x + preBox.width && lastBox.y + lastBox.height <= preBox.y + preBox.height, 'the last line inside its box');
  // The throttle table: every formula inside the table's box, nothing to scroll to.
  const wrap = page.getByTestId('throttles').locator('xpath=..');
  await shownText(page.getByTestId('throttles'));
  const wfit = await wrap.evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
  assert.ok(wfit.sw <= wfit.cw, `the throttle table fits its box (${wfit.sw} > ${wfit.cw})`);
  const wrapBox = await wrap.boundingBox();
  const formulas = page.getByTestId('throttles').locator('td.formula');
  assert.ok(await formulas.count() > 0);
  for (const f of await formulas.all()) {
    const b = await f.boundingBox();
    assert.ok(b.x >= wrapBox.x - 0.5 && b.x + b.width <= wrapBox.x + wrapBox.width + 0.5, `a formula cell inside the box: ${JSON.stringify(b)}`);
    assert.match(await f.innerText(), /^round\(\(\d+ - \d+\) \/ \d+ x \d+ ms\) = \d+ ms/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('screenshots: the cluster editor with events, the budget meter, the perf-test view and the throttles, light and dark, 390 and 1280 px', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [390, 1280]) {
      const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(moving)}`, { viewport: { width, height: 900 }, colorScheme });
      const tag = `${width}-${colorScheme}`;
      await page.getByTestId('add-set-quota').click();
      await page.getByTestId('event-1').waitFor();
      await page.locator('#ev0-partition').fill('1');
      await page.getByTestId('ev0-draft').waitFor();
      await page.getByTestId('event-0').scrollIntoViewIfNeeded();
      await shot(page, `issue29-editor-events-${tag}`, false);
      await page.getByTestId('event-1').scrollIntoViewIfNeeded();
      await shot(page, `issue29-editor-quota-event-${tag}`, false);
      await runDone(page);
      await page.getByTestId('scrubber').fill(await page.getByTestId('scrubber').getAttribute('max'));
      await shownText(page.getByTestId('cluster-budgets'));
      await shot(page, `issue29-budget-meter-${tag}`, false);
      await shownText(page.getByTestId('throttles'));
      await shot(page, `issue29-throttles-${tag}`, false);
      await shownText(page.getByTestId('perf-lines'));
      await shot(page, `issue29-perf-${tag}`, false);
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});
