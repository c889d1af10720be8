// The Cluster and time panel: brokers, partitions and leaders, events on
// the time line, client times; the cluster view per broker; named outcomes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch, openApp, shot, artifacts, permalink, shownText, openSetup } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Waits until `sel`'s attribute `attr` satisfies `ok` (a string test), returns it. */
async function attrWhen(page, sel, attr, ok = (v) => v != null, timeout = 30000) {
  const start = Date.now();
  for (;;) {
    const v = await page.locator(sel).first().getAttribute(attr).catch(() => null);
    if (ok(v)) return v;
    if (Date.now() - start > timeout) throw new Error(`${sel} [${attr}] = ${v} after ${timeout} ms`);
    await page.waitForTimeout(50);
  }
}

async function seek(page, ms) {
  await page.getByTestId('scrubber').fill(String(ms));
  await page.waitForFunction((m) => Math.abs(Number(document.querySelector('[data-testid="clock"]').dataset.ms) - m) <= 1
    || Number(document.querySelector('[data-testid="scrubber"]').max) < m, ms);
}

const near = (v, want, tol) => Math.abs(v - want) <= want * tol;

test('3 brokers and 3 partitions: the Answer and the cluster view say about 3 x the per-broker limit', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  // A longer run, so that the brokers throttle for most of it.
  await openSetup(page);
  await page.locator('#w0-records').fill('200000');
  await page.locator('#cluster-brokers').fill('3');
  // One partition has one leader: the page says so and offers the fix.
  const spread = page.getByTestId('topic0-spread');
  await spread.filter({ hasText: "Topic 'lab' has one partition, and one partition has one leader (broker 0)" }).waitFor();
  await page.locator('#answer').filter({ hasText: 'One of the 3 brokers leads its partitions' }).waitFor();
  // The Simulation panel's own Brokers field says it too.
  await page.getByTestId('setup-spread').filter({ hasText: 'one partition has one leader' }).waitFor();
  await attrWhen(page, '[data-testid="cluster-sentence"]', 'data-brokers', (v) => v === '1');
  await page.getByTestId('topic0-spread-fix').click();
  assert.equal(await page.locator('#topic0-partitions').inputValue(), '3');
  assert.equal(await spread.count(), 0);
  assert.equal(await page.getByTestId('setup-spread').count(), 0);
  // Leaders round robin: partitions 0, 1, 2 on brokers 0, 1, 2.
  for (const p of [0, 1, 2]) assert.equal(await page.locator(`#topic0-leader${p}`).inputValue(), String(p));

  // The Answer: per broker x brokers = cluster.
  const answer = await page.locator('#answer').innerText();
  const m = answer.match(/Produce: ([\d.]+) MB\/s per broker \(2000000\.0 bytes\/s\) .*?\. ([\d.]+) MB\/s per broker × (\d+) brokers leading its partitions ≈ at most ([\d.]+) MB\/s sustained for the cluster \(each broker first lets a burst of about 10 s of quota through\)/);
  assert.ok(m, answer);
  assert.deepEqual([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])], [2, 2, 3, 6]);

  // The cluster view: the same figures from the run.
  const sentence = page.getByTestId('cluster-sentence');
  await attrWhen(page, '[data-testid="cluster-sentence"]', 'data-brokers', (v) => v === '3');
  assert.equal(await sentence.getAttribute('data-per-broker'), '2000000');
  assert.equal(await sentence.getAttribute('data-cluster-limit'), '6000000');
  assert.match(await sentence.innerText(), /^app: 2 MB\/s per broker × 3 brokers leading this client's partitions ≈ 6 MB\/s for the cluster\./);
  const avg = Number(await sentence.getAttribute('data-avg-rate'));
  assert.ok(near(avg, 6e6, 0.15), `average over the cluster ${avg} B/s`);
  // Late in the run every broker holds its share to about 2 MB/s: the
  // budget's measured rates sum to about 6 MB/s.
  const end = Number(await page.getByTestId('scrubber').getAttribute('max'));
  assert.ok(end > 25000, `run of ${end} ms`);
  await seek(page, end - 2000);
  const total = page.getByTestId('cluster-budget-total');
  assert.equal(await total.count(), 1);
  assert.equal(await total.getAttribute('data-bound-sum'), '6000000');
  const sum = Number(await total.getAttribute('data-rate-sum'));
  assert.ok(near(sum, 6e6, 0.15), `cluster rate ${sum} B/s`);
  const cells = page.locator('[data-testid="cluster-budgets"] td[data-bound]');
  assert.equal(await cells.count(), 3);
  for (let b = 0; b < 3; b++) {
    const cell = cells.nth(b);
    assert.equal(await cell.getAttribute('data-broker'), String(b));
    assert.equal(await cell.getAttribute('data-bound'), '2000000');
    const rate = Number(await cell.getAttribute('data-rate'));
    assert.ok(near(rate, 2e6, 0.2), `broker ${b} rate ${rate}`);
  }
  // A leader on a broker that does not exist is refused with the engine's path and message.
  await page.locator('#topic0-partitions').fill('0');
  // (The field's range is the engine's, 1 to 100000: one message for 0 and for too many.)
  await page.locator('#topic0-partitions-err').filter({ hasText: "Partitions must be a whole number from 1 to 100000; '0' is not." }).waitFor();
  assert.equal(await page.locator('#topic0-partitions').inputValue(), '0', 'the typed text stays');
  assert.equal(await page.locator('#topic0-leader2').count(), 1, 'the scenario kept 3 partitions');
  await page.locator('#topic0-partitions').fill('3');
  await page.locator('#cluster').scrollIntoViewIfNeeded();
  await shot(page, 'cluster-3x3-1280', false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a quota change at 5 s is a marker on the rate chart and the rate follows the new bound after it', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  await page.getByTestId('add-set-quota').click();
  const ev = page.getByTestId('event-0');
  await ev.waitFor();
  assert.equal(await ev.getAttribute('data-kind'), 'set_quota');
  assert.equal(await page.locator('#ev0-at').inputValue(), '5000');
  assert.equal(await page.locator('#ev0-value').inputValue(), '1000000');
  // The marker, at 5 s, and its sentence.
  const marker = page.locator('[data-testid="chart-rate"] line.marker');
  await marker.first().waitFor({ state: 'attached' });
  assert.equal(await marker.count(), 1);
  assert.equal(await marker.getAttribute('data-at-ms'), '5000');
  assert.equal(await marker.getAttribute('data-kind'), 'SetQuota');
  assert.equal(await page.locator('[data-testid="chart-progress"] line.marker[data-at-ms="5000"]').count(), 1);
  await page.locator('#simulation ul.events').filter({ hasText: '5.00 s: users/tenant-a producer_byte_rate=1000000.0 is set on every broker.' }).waitFor();
  const fig = page.getByTestId('rate-figure');
  // Before 5 s: bound 2 MB/s, rate about 2 MB/s.
  await seek(page, 4000);
  await attrWhen(page, '[data-testid="rate-figure"]', 'data-cursor-ms', (v) => v === '4000');
  assert.equal(await fig.getAttribute('data-bound-now'), '2000000');
  const before = Number(await fig.getAttribute('data-rate-now'));
  assert.ok(before > 1.5e6 && before < 2.5e6, `rate before ${before}`);
  // After: bound 1 MB/s; by the end the measured rate is back under it.
  const end = Number(await page.getByTestId('scrubber').getAttribute('max'));
  await seek(page, end);
  assert.equal(await fig.getAttribute('data-bound-now'), '1000000');
  const after = Number(await fig.getAttribute('data-rate-now'));
  assert.ok(after > 0.5e6 && after <= 1.05e6, `rate after ${after}`);
  // The budget picker names both bounds.
  assert.match(await page.locator('#focus-sensor').innerText(), /2 MB\/s, then 1 MB\/s at 5\.00 s/);

  // An event beyond the horizon is refused, the text stays, the marker stays at 5 s.
  await page.locator('#ev0-at').fill('700000');
  await page.locator('#ev0-at-problem').filter({ hasText: 'events[0].at_ms: The set_quota event at 700000 ms is beyond the horizon of 600000 ms' }).waitFor();
  assert.equal(await page.locator('#ev0-at').inputValue(), '700000');
  assert.equal(await marker.getAttribute('data-at-ms'), '5000');
  // Moving it to 8 s moves the marker.
  await page.locator('#ev0-at').fill('8000');
  await attrWhen(page, '[data-testid="chart-rate"] line.marker', 'data-at-ms', (v) => v === '8000');
  // A stop time not after the start is refused with the engine's path.
  await page.locator('#tl0-start').fill('2000');
  await page.locator('#tl0-stop').fill('1000');
  await page.locator('#tl0-stop-err').filter({ hasText: 'workloads[0].producer.stop_ms: The workload on \'app\' stops at 1000 ms, not after it starts at 2000 ms' }).waitFor();
  assert.equal(await page.locator('#tl0-stop').inputValue(), '1000');
  await page.locator('#ev0-at').scrollIntoViewIfNeeded();
  await shot(page, 'cluster-events-1280', false);
  // Removing the event removes the marker.
  await page.getByRole('button', { name: /Remove the quota change/ }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="chart-rate"] line.marker').length === 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a budget with no record for quota.window.num seconds measures 0 in the rate chart and the cluster view, not its last record\'s rate', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  // The quota falls to 500 kB/s at 5 s: the producer, over it, is muted for
  // half a minute, and tenant-a's budget records nothing meanwhile.
  await page.getByTestId('add-set-quota').click();
  await page.locator('#ev0-value').fill('500000');
  await page.locator('#ev0-value').press('Enter');
  await page.locator('#focus-sensor').filter({ hasText: /then 500 kB\/s at 5\.00 s/ }).waitFor();
  const fig = page.getByTestId('rate-figure');
  const cell = page.getByTestId('cluster-budgets').locator('td[data-broker="0"]').first();
  await seek(page, 4000);
  await attrWhen(page, '[data-testid="rate-figure"]', 'data-cursor-ms', (v) => v === '4000');
  assert.ok(Number(await fig.getAttribute('data-rate-now')) > 1e6);
  assert.ok(Number(await cell.getAttribute('data-rate')) > 1e6);
  // 20 s: more than 11 s after the last record, every sample is purged.
  await seek(page, 20000);
  await attrWhen(page, '[data-testid="rate-figure"]', 'data-cursor-ms', (v) => v === '20000');
  assert.equal(await fig.getAttribute('data-rate-now'), '0');
  assert.equal(await cell.getAttribute('data-rate'), '0');
  assert.match(await cell.innerText(), /measured 0 B\/s/);
  assert.match(await page.getByTestId('chart-rate').getAttribute('aria-label'), /at 20\.00 s the rate is 0 B\/s\.$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a removal is refused only for a problem it adds, and a refused button says why beside it', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  await page.locator('#cluster-brokers').fill('3');
  const addTopic = page.getByRole('button', { name: 'Add topic' });
  await addTopic.click();
  await page.getByTestId('topic-1').waitFor();
  await addTopic.click();
  await page.getByTestId('topic-2').waitFor();
  await page.locator('#topic2-leader0').selectOption('2');
  await page.getByTestId('add-set-quota').click();
  await page.getByTestId('event-0').waitFor();
  await page.getByTestId('add-move-leader').click();
  await page.getByTestId('event-1').waitFor();
  // A second identical move would move the leader to the broker already
  // leading: refused, and said beside the button instead of dropped.
  await page.getByTestId('add-move-leader').click();
  await page.getByTestId('add-event-refused')
    .filter({ hasText: "Not done, as it would add this problem: events[2].to_broker: The move_leader event moves partition 0 of topic 'lab' to broker 1, but" }).waitFor();
  assert.equal(await page.locator('[data-testid^="event-"]').count(), 2);
  await page.locator('#ev1-to').selectOption('2');
  // One broker: topic-3 and the move name a broker that is gone.
  await page.locator('#cluster-brokers').fill('1');
  await page.getByTestId('topic2-problems').filter({ hasText: "Partition 0 of topic 'topic-3' is led by broker 2, which does not exist" }).waitFor();
  await page.getByTestId('ev1-problems').filter({ hasText: 'events[1].to_broker' }).waitFor();
  // The leadership-move hint says what is missing: brokers, not a topic.
  assert.ok(await page.getByTestId('add-move-leader').isDisabled());
  assert.equal(await page.getByTestId('add-move-leader-why').innerText(), 'A leadership move needs at least 2 brokers, and there is 1 broker: raise Brokers above.');
  // The unused topic-2 goes: topic-3's problem is only renumbered.
  await page.getByRole('button', { name: 'Remove topic topic-2' }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="topic-2"]'));
  assert.match(await page.getByTestId('topic-1').locator('legend').innerText(), /topic-3/);
  await page.getByTestId('topic1-problems').filter({ hasText: "topics[1].leaders[0]: Partition 0 of topic 'topic-3'" }).waitFor();
  // The written-to topic stays, and the page says the engine's reason.
  await page.getByRole('button', { name: 'Remove topic lab' }).click();
  await page.getByTestId('topic0-refused')
    .filter({ hasText: "Not done, as it would add this problem: workloads[0].producer.topic: A workload uses the topic 'lab', which is not defined in topics." }).waitFor();
  assert.equal(await page.getByTestId('topic-0').count(), 1);
  await page.getByTestId('topic-0').scrollIntoViewIfNeeded();
  await shot(page, 'cluster-refusals-1280', false);
  // Removing events[0] while events[1] has a problem: done.
  await page.getByRole('button', { name: /Remove the quota change/ }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="event-"]').length === 1);
  assert.equal(await page.getByTestId('event-0').getAttribute('data-kind'), 'move_leader');
  await page.getByTestId('ev0-problems').filter({ hasText: 'events[0].to_broker' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link with a client starting after 1 h and two clients on one connection: the fields say so', async () => {
  const producer = (start_ms, stop_ms) => ({ producer: { connection: 'app', topic: 'lab', records: 1000, 'record.size': 1000, start_ms, stop_ms } });
  const scenario = {
    name: 'late and shared', seed: 1, horizon_ms: 7_300_000,
    topics: [{ name: 'lab', partitions: 1 }],
    quotas: [{ entity: { user: 'tenant-a' }, key: 'producer_byte_rate', value: 2000000 }],
    connections: [{ name: 'app', listener: 'SASL_PLAINTEXT', mechanism: 'PLAIN', identity: 'tenant-a', 'client.id': 'app-1' }],
    workloads: [producer(0), producer(7_200_000, 7_250_000)],
  };
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`, { viewport: { width: 1280, height: 900 } });
  await page.getByTestId('client-time-1').waitFor();
  // 2 h is within the engine's one-day cap: the field shows it without a refusal.
  assert.equal(await page.locator('#tl1-start').inputValue(), '7200000');
  // Past a day the field refuses, naming the engine's cap; 7100000 is taken.
  await page.locator('#tl1-start').fill('90000000');
  await page.locator('#tl1-start-err').filter({ hasText: '86400000' }).waitFor();
  await page.locator('#tl1-start').fill('7100000');
  await page.waitForFunction(() => !document.querySelector('#tl1-start-err'));
  // The Simulation panel's start field is the same edit with the same bound
  // and the same check: it shows the value, refuses a start after the
  // client's stop_ms with the engine's message, takes 7200000 (past the old
  // 1 h cap there), and the cluster view follows.
  await openSetup(page);
  await page.waitForFunction(() => document.querySelector('#w1-start')?.value === '7100000');
  await page.locator('#w1-start').fill('7300000');
  await page.locator('#w1-start-err').filter({ hasText: 'stop_ms must be above start_ms' }).waitFor();
  assert.equal(await page.locator('#tl1-start').inputValue(), '7100000');
  await page.locator('#w1-start').fill('7200000');
  await page.locator('#w1-start').press('Enter');
  await page.waitForFunction(() => document.querySelector('#tl1-start')?.value === '7200000');
  assert.equal(await page.locator('#w1-start-err').count(), 0);
  await page.locator('#w1-start').fill('90000000');
  await page.locator('#w1-start-err').filter({ hasText: '86400000' }).waitFor();
  await page.locator('#w1-start').fill('7100000');
  await page.locator('#w1-start').press('Enter');
  await page.waitForFunction(() => !document.querySelector('#w1-start-err') && document.querySelector('#tl1-start')?.value === '7100000');
  // The kind belongs to the connection both clients use.
  for (const i of [0, 1]) {
    assert.match(await page.locator(`#tl${i}-kind-hint`).innerText(), /^Changes connection 'app', used by 2 clients/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link with 4000000000 partitions is refused at once with the numbers; the editor refuses such a count too', async () => {
  const scenario = {
    name: 'huge topic', seed: 1, brokers: { count: 3 },
    topics: [{ name: 'lab', partitions: 4_000_000_000 }],
    quotas: [{ entity: { user: 'tenant-a' }, key: 'producer_byte_rate', value: 2000000 }],
    connections: [{ name: 'app', listener: 'SASL_PLAINTEXT', mechanism: 'PLAIN', identity: 'tenant-a', 'client.id': 'app-1' }],
    workloads: [{ producer: { connection: 'app', topic: 'lab', records: 1000, 'record.size': 1000 } }],
  };
  const started = Date.now();
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`, { viewport: { width: 1280, height: 900 } });
  // The page limits (model/limits.rs) refuse the link before any loop over its partitions.
  await page.getByTestId('notice').filter({ hasText: 'has 4,000,000,000 partitions over its topics; the playground takes at most 100,000' }).waitFor();
  assert.ok(Date.now() - started < 15000, `opened in ${Date.now() - started} ms`);
  // The editor refuses the same count with the engine's message, and keeps the typed text.
  await page.locator('#topic0-partitions').fill('4000000000');
  await page.locator('#topic0-partitions-err').waitFor();
  assert.match(await page.locator('#topic0-partitions-err').innerText(), /^Partitions must be a whole number from 1 to 100000; '4000000000' is not\.$/);
  assert.equal(await page.locator('#topic0-partitions').inputValue(), '4000000000');
  assert.equal(await page.locator('[id^="topic0-leader"]').count(), 1, 'the refused count draws no leader pickers');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a topic name Kafka refuses is refused with Kafka's message; a renamed connection stays chosen in its client's select", async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  const name = page.locator('#topic0-name');
  await name.fill('my topic!');
  const err = page.locator('#topic0-name-err');
  await err.waitFor();
  assert.equal(await shownText(err), "topics[0].name: Topic name is invalid: 'my topic!' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'");
  assert.equal(await name.inputValue(), 'my topic!', 'the typed text stays');
  await name.fill('orders');
  assert.equal(await err.count(), 0);
  // A select whose chosen option is renamed in the same render keeps it
  // (the client's Connection select, when its connection is renamed).
  await openSetup(page);
  await page.locator('#conn-name').fill('renamed');
  await page.waitForFunction(() => document.querySelector('#w0-conn')?.value === 'renamed');
  assert.equal(await page.locator('#w0-conn').evaluate((s) => s.options[s.selectedIndex]?.text ?? ''), 'renamed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('expired batches name TimeoutException with count, first time and setting, never done', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  // The lab's run loses nothing: no loss line under the answers, a clean one.
  assert.equal(await page.getByTestId('answer-run-outcome').count(), 0);
  await page.getByTestId('answer-run-ok').waitFor();
  await openSetup(page);
  // A producer Kafka would not create (delivery.timeout.ms under
  // linger.ms + request.timeout.ms): no run, and the top says why.
  await page.locator('#w0-delivery').fill('1000');
  const refused = page.getByTestId('answer-run-error');
  await refused.waitFor();
  assert.match(await refused.innerText(), /^⚠ The run cannot be simulated: .*delivery\.timeout\.ms should be equal to or larger than linger\.ms \+ request\.timeout\.ms.*ConfigException/);
  // And at the field itself, which is marked invalid.
  const delivery = page.locator('#w0-delivery');
  assert.equal(await delivery.getAttribute('aria-invalid'), 'true');
  assert.match(await shownText(page.getByTestId('w0-delivery-problem')), /^workloads\[0\]\.producer\.config\.delivery\.timeout\.ms: The producer on 'app' cannot be created: delivery\.timeout\.ms should be equal to or larger than linger\.ms \+ request\.timeout\.ms/);
  await page.locator('#w0-reqtimeout').fill('500');
  assert.equal(await page.getByTestId('w0-delivery-problem').count(), 0);
  assert.equal(await delivery.getAttribute('aria-invalid'), 'false');
  // Said above the transport at once, before the run is played to its end.
  const outcome = page.getByTestId('run-outcome');
  await outcome.filter({ hasText: 'TimeoutException' }).waitFor();
  assert.match(await outcome.innerText(), /^How the run ends, at [\d.]+ m?s: app failed: \d+ of 30000 records lost: TimeoutException/);
  assert.match(await outcome.getAttribute('class'), /\bfailed\b/);
  // And at the top of the page, under the answers.
  const top = page.getByTestId('answer-run-outcome');
  assert.equal(await top.innerText(), `⚠ The simulated run loses records. ${await outcome.innerText()} See the run`);
  // The progress chart reaches up to the 30000 records meant, and says what was lost.
  assert.match(await page.getByTestId('chart-progress').getAttribute('aria-label'), /app lost \d+ of 30000 records \(\d+ done\)/);
  assert.ok(await page.getByTestId('chart-progress').locator('text', { hasText: /^30000$/ }).count() === 1, 'the y axis tops at the 30000 records meant');
  const end = await attrWhen(page, '[data-testid="scrubber"]', 'max', (v) => v != null);
  await seek(page, Number(end));
  const state = page.getByTestId('state-app');
  await state.filter({ hasText: 'TimeoutException' }).waitFor();
  const text = await state.innerText();
  const m = text.match(/^failed: (\d+) of 30000 records lost: TimeoutException on (\d+) records, first at ([\d.]+ m?s) \(delivery\.timeout\.ms=1000\)$/);
  assert.ok(m, text);
  assert.equal(m[1], m[2]);
  assert.ok(Number(m[1]) > 0);
  assert.doesNotMatch(text, /done/);
  assert.match(await state.getAttribute('class'), /\bfailed\b/);
  // The progress chart marks when the first record failed, and says so in its legend.
  const mark = page.getByTestId('chart-progress').locator('line.failure');
  assert.equal(await mark.count(), 1);
  assert.equal(await mark.locator('title').textContent(), `app: TimeoutException on ${m[1]} records, first at ${m[3]} (delivery.timeout.ms=1000)`);
  const first = m[3].endsWith(' ms') ? Number(m[3].slice(0, -3)) : Number(m[3].slice(0, -2)) * 1000;
  assert.ok(Math.abs(Number(await mark.getAttribute('data-at-ms')) - first) <= 10, `${await mark.getAttribute('data-at-ms')} vs ${m[3]}`);
  assert.match(await page.getByTestId('chart-progress').locator('xpath=ancestor::figure').locator('.legend').innerText(), /first failed record/);
  // The perf-test view counts only the records sent without error, as the
  // tool does, and shows what it prints on stderr for the others.
  const count = Number(m[1]).toLocaleString('en-US');
  assert.match(await page.getByTestId('perf-lines').innerText(), new RegExp(`^${30000 - Number(m[1])} records sent, `, 'm'));
  assert.equal(await page.getByTestId('perf-failed').innerText(),
    `These lines count only the records sent without error. For each failed record the tool prints its exception on stderr (below, the first of each): ${count} records over the run failed with TimeoutException, the first at ${m[3]} (delivery.timeout.ms=1000).`);
  assert.match(await page.getByTestId('perf-stderr').innerText(),
    /^org\.apache\.kafka\.common\.errors\.TimeoutException: Expiring \d+ record\(s\) for lab-0:\d+ ms has passed since batch creation$/);
  // The cluster view names it the same way.
  const cs = page.getByTestId('cluster-state-app');
  assert.equal(await shownText(cs), text);
  assert.match(await cs.getAttribute('class'), /\bfailed\b/);
  // The cluster view's table covers the whole run: its outcome is the end's at any cursor.
  await seek(page, 0);
  await state.filter({ hasNotText: 'TimeoutException' }).waitFor();
  assert.equal(await shownText(cs), text);
  // Before the first failure the tool has printed nothing on stderr.
  assert.equal(await page.getByTestId('perf-stderr').count(), 0);
  await seek(page, Number(end));
  await page.getByTestId('perf-stderr').scrollIntoViewIfNeeded();
  await shot(page, 'perf-test-failed-records', false);
  // The client metrics agree: record-error-total is the count.
  assert.match(await page.getByTestId('client-metrics').innerText(), new RegExp(`record-error-total:\\{client-id=app-1\\}\\s+${m[1]}\\b`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a delivery.timeout.ms below linger.ms + request.timeout.ms is refused with Kafka\'s ConfigException, not run', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await openSetup(page);
  await page.locator('#w0-delivery').fill('1000');
  await page.locator('#w0-delivery').press('Enter');
  const err = page.getByTestId('sim-error');
  await err.waitFor();
  assert.match(await err.innerText(), /delivery\.timeout\.ms should be equal to or larger than linger\.ms \+ request\.timeout\.ms \(Kafka's ConfigException when delivery\.timeout\.ms is set\); it is 1000 ms, below 5 \+ 30000 = 30005 ms/);
  // Lowering request.timeout.ms makes it a producer Kafka builds: the run is back.
  await page.locator('#w0-reqtimeout').fill('500');
  await page.locator('#w0-reqtimeout').press('Enter');
  await page.getByTestId('state-app').filter({ hasText: /running|done|failed/ }).waitFor();
  assert.equal(await err.count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the cluster panel fits from 360 px, light and dark', async () => {
  for (const [width, scheme] of [[390, 'light'], [390, 'dark'], [1280, 'dark'], [360, 'light']]) {
    const { page, errors, context } = await openApp(browser, server.url, { viewport: { width, height: 900 }, colorScheme: scheme });
    await page.locator('#cluster-brokers').fill('3');
    await page.getByTestId('topic0-spread-fix').click();
    await page.getByTestId('add-move-leader').click();
    await page.getByTestId('add-set-quota').click();
    await page.getByTestId('event-1').waitFor();
    await attrWhen(page, '[data-testid="cluster-sentence"]', 'data-brokers', (v) => v === '3');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `page ${wide} px wide at ${width} px`);
    await mkdir(artifacts, { recursive: true });
    await page.locator('#cluster').screenshot({ path: join(artifacts, `cluster-${width}-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('?embed=cluster shows the cluster panel alone', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}?embed=cluster`);
  assert.equal(await page.getByTestId('embed').getAttribute('data-panel'), 'cluster');
  await page.getByTestId('cluster-view').waitFor();
  assert.equal(await page.getByTestId('embed-warning').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an event after the end of the run is said not to happen', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  await page.getByTestId('add-set-quota').click();
  await page.getByTestId('event-0').waitFor();
  // The lab's 30 MB run lasts about 12 s: the quota change at 5 s happens.
  assert.equal(await page.getByTestId('ev0-after-end').count(), 0);
  // 1,000 records end the run well before 5 s.
  await openSetup(page);
  await page.locator('#w0-records').fill('1000');
  await page.getByTestId('ev0-after-end').waitFor();
  assert.match(await shownText(page.getByTestId('ev0-after-end')), /^The run ends at .*, before this event at 5\.00 s: it does not happen\./);
  assert.deepEqual(errors, []);
  await context.close();
});
