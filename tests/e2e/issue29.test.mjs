// Issue 29, what a demanding operator and a newcomer found on the page: who
// shares a budget follows the metric tags; the largest throttle reads the
// throttles the table lists; an acks=0 producer is told why no response
// carries its throttles; an empty client.id and a fetch quota's largest
// response are explained; lesson 1 says a quota delays until
// delivery.timeout.ms; a throttled run says at 0 ms that throttles are ahead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, permalink, shot, shownText } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const scenario = {
  topics: [{ name: 't', partitions: 1 }],
  quotas: [
    { entity: { user: null }, key: 'producer_byte_rate', value: 20000 },
    { entity: { user: null, 'client-id': 'batch' }, key: 'producer_byte_rate', value: 5000000 },
    { entity: { user: null }, key: 'consumer_byte_rate', value: 1000000 },
  ],
  connections: [
    { name: 'alice-app1', listener: 'SASL_PLAINTEXT', identity: 'alice', 'client.id': 'app-1' },
    { name: 'alice-app2', listener: 'SASL_PLAINTEXT', identity: 'alice', 'client.id': 'app-2' },
    { name: 'alice-batch', listener: 'SASL_PLAINTEXT', identity: 'alice', 'client.id': 'batch' },
    { name: 'anon', listener: 'PLAINTEXT', 'client.id': '' },
  ],
  workloads: [
    { producer: { connection: 'alice-app1', topic: 't', records: 2000, 'record.size': 1000, config: { acks: '0' } } },
  ],
};

test('issue 29: sharers, acks=0 throttles, the empty client.id, the fetch cap, throttles ahead at 0 ms', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`, { viewport: { width: 390, height: 844 } });
  const answers = await page.locator('#answer li.answer').allInnerTexts();
  assert.match(answers[0], /shared by all connections of user alice, whatever their client-id, except client-id batch \(a budget of its own\)\. Here: connection alice-app2\./);
  assert.match(answers[2], /\(rung 4\); shared by connections of user alice with client-id batch/);
  assert.match(answers[3], /KafkaProducer sends producer-N and KafkaConsumer consumer-<group\.id>-N/);
  // The fetch cap in the CLI's words (the engine's FetchCap, one sentence for both).
  assert.match(answers[0], /each broker sends it at most 10 MB \(10000000 bytes\) in one fetch response, quota × \(quota\.window\.num − 1\) × quota\.window\.size\.seconds = 1 MB\/s × \(11 − 1\) × 1 s \(KAFKA-9677\), or less when the consumer's fetch\.max\.bytes is lower; a first record batch larger than that is still sent whole \(KIP-74\)/);

  // At 0 ms the run says what is ahead.
  const sim = page.locator('#simulation');
  assert.equal(await sim.getByTestId('clock').getAttribute('data-ms'), '0');
  assert.match(await shownText(sim.getByTestId('largest-throttle-alice-app1')), /^none yet: the first, \d+ ms, comes at /);
  assert.match(await shownText(sim.getByTestId('no-throttle-yet')), /^Ahead in this run: [\d,]+ throttles of this budget, the first at /);
  await shot(page, 'issue29-acks0-at-0ms-390', false);

  // At the end: the acks=0 producer's throttles, and why no response told it.
  await sim.getByTestId('scrubber').fill(await sim.getByTestId('scrubber').getAttribute('max'));
  const cell = await shownText(sim.getByTestId('largest-throttle-alice-app1'));
  assert.match(cell, /^\d+ ms \([\d,]+\+? throttles by the brokers; none in a response: no response carries a throttle time to an acks=0 producer, so the broker throttled it by muting its channel\)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('issue 29: lesson 1 says a quota delays rather than errors, until delivery.timeout.ms', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByTestId('lesson-1').click();
  await page.getByTestId('lesson-text').waitFor();
  assert.match(await page.getByTestId('lesson-text').innerText(), /A quota delays rather than errors, until delivery\.timeout\.ms/);
  assert.match(await page.getByTestId('lesson-text').innerText(), /TimeoutException/);
  assert.deepEqual(errors, []);
  await context.close();
});
