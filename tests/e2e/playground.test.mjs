// The playground's user journeys in headless Chromium against the release build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { serve, launch, openApp, openPage, permalink, shot, waitForRun, shownText, openSetup } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The scenario JSON inside a share link, decoded the way the module docs describe. */
function decodeLink(link) {
  const hash = new URL(link).hash.slice(1);
  assert.match(hash, /^v1\.[A-Za-z0-9_-]+$/);
  return JSON.parse(inflateRawSync(Buffer.from(hash.slice(3), 'base64url')).toString('utf8'));
}

const ladder = (page, conn, type) => page.getByTestId(`ladder-${conn}-${type}`);
const matchedRung = async (page, conn, type) =>
  ladder(page, conn, type).locator('li[aria-current="true"]').getAttribute('data-rung', { timeout: 1000 }).catch(() => null);

test('adding a quota through the form changes the ladder; a refused value stays in the field', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  assert.equal(await matchedRung(page, 0, 'Produce'), '3');
  await page.getByLabel('Entity type').selectOption('user-client');
  await page.getByLabel('User principal').fill('tenant-a');
  await page.getByLabel('Client id', { exact: true }).fill('app-1');
  await page.getByLabel('Key', { exact: true }).selectOption('producer_byte_rate');
  // A fractional LONG: Kafka's message at once, the typed text kept, the button disabled.
  await page.getByLabel(/^Value \(/).fill('1.5');
  await assert.doesNotReject(page.getByTestId('add-verdict').filter({ hasText: 'fractional' }).waitFor());
  assert.equal(await page.getByLabel(/^Value \(/).inputValue(), '1.5');
  assert.equal(await page.getByRole('button', { name: 'Set quota' }).isDisabled(), true);
  await page.getByLabel(/^Value \(/).fill('500000');
  await page.getByTestId('add-verdict').filter({ hasText: 'Kafka accepts' }).waitFor();
  await page.getByRole('button', { name: 'Set quota' }).click();
  await page.getByTestId('quota-list').getByText('users/tenant-a/clients/app-1', { exact: true }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="ladder-0-Produce"] li[aria-current="true"]')?.dataset.rung === '1');
  assert.match(await page.getByTestId('limit-0-Produce').innerText(), /500000\.0.*rung 1/s);
  // The user rung is now shadowed, with the reason.
  assert.match(await ladder(page, 0, 'Produce').locator('li[data-rung="3"]').innerText(), /shadowed by rung 1/);
  // Editing the value in place: a bad value is refused with Kafka's message and kept.
  const value = page.getByLabel('producer_byte_rate of users/tenant-a/clients/app-1', { exact: true });
  await value.fill('-5');
  await page.getByText('must be greater than 0').first().waitFor();
  assert.equal(await value.inputValue(), '-5');
  assert.match(await page.getByTestId('limit-0-Produce').innerText(), /500000\.0/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('switching the listener to PLAINTEXT makes the principal ANONYMOUS and the user quota stop applying', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  assert.equal(await page.getByTestId('principal-name').innerText(), 'User:tenant-a');
  await page.getByLabel('Listener (security.protocol)').selectOption('PLAINTEXT');
  await page.getByTestId('principal-name').filter({ hasText: 'User:ANONYMOUS' }).waitFor();
  assert.match(await page.getByTestId('principal-warning').first().innerText(), /ANONYMOUS/);
  await page.waitForFunction(() => !document.querySelector('[data-testid="ladder-0-Produce"] li[aria-current="true"]'));
  assert.match(await page.getByTestId('limit-0-Produce').innerText(), /Unlimited/);
  // The identity typed earlier is kept: switching back restores the quota.
  await page.getByLabel('Listener (security.protocol)').selectOption('SASL_PLAINTEXT');
  await page.getByTestId('principal-name').filter({ hasText: 'User:tenant-a' }).waitFor();
  assert.equal(await matchedRung(page, 0, 'Produce'), '3');
  // SSL with a client certificate: the DN through ssl.principal.mapping.rules.
  await page.getByLabel('Listener (security.protocol)').selectOption('SSL');
  await page.getByLabel(/Client certificate subject DN/).fill('CN=tenant-a,OU=eng,O=example');
  await page.getByTestId('principal-name').filter({ hasText: 'User:CN=tenant-a,OU=eng,O=example' }).waitFor();
  await page.getByText('Broker principal mapping rules').click();
  await page.getByLabel('ssl.principal.mapping.rules').fill('RULE:^CN=([^,]*),OU=eng.*$/$1/,DEFAULT');
  await page.getByTestId('principal-name').filter({ hasText: 'User:tenant-a' }).waitFor();
  assert.equal(await matchedRung(page, 0, 'Produce'), '3');
  // A rule Kafka cannot parse: the broker would not start, and the page says so.
  await page.getByLabel('ssl.principal.mapping.rules').fill('RULE:^CN=(.*$/$1/');
  await page.getByText('A broker with these rules does not start').waitFor();
  assert.equal(await page.getByLabel('ssl.principal.mapping.rules').inputValue(), 'RULE:^CN=(.*$/$1/');
  assert.deepEqual(errors, []);
  await context.close();
});

test('SASL -> SSL -> SASL gives the user name back; a source IP must be an address', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  const listener = page.getByLabel('Listener (security.protocol)');
  await listener.selectOption('SSL');
  await page.getByTestId('principal-name').filter({ hasText: 'User:ANONYMOUS' }).waitFor();
  await listener.selectOption('SASL_PLAINTEXT');
  await page.getByTestId('principal-name').filter({ hasText: 'User:tenant-a' }).waitFor();
  assert.equal(await page.getByLabel('SASL user name').inputValue(), 'tenant-a');
  // The DN typed on SSL comes back on SSL too.
  await listener.selectOption('SSL');
  await page.getByLabel(/Client certificate subject DN/).fill('CN=app,OU=eng');
  await page.getByTestId('principal-name').filter({ hasText: 'User:CN=app,OU=eng' }).waitFor();
  await listener.selectOption('SASL_SSL');
  await page.getByTestId('principal-name').filter({ hasText: 'User:tenant-a' }).waitFor();
  await listener.selectOption('SSL');
  await page.getByTestId('principal-name').filter({ hasText: 'User:CN=app,OU=eng' }).waitFor();
  // A source IP that is not an address is refused where it is typed and kept there.
  const ip = page.getByLabel('Source IP');
  await ip.fill('999.1.1.1');
  await page.getByText("'999.1.1.1' is not an IP address.").waitFor();
  // It says what the answers use meanwhile, and they do.
  await page.getByText('Until then the answers use 127.0.0.1.').waitFor();
  assert.match(await page.locator('#answer li.answer').first().innerText(), /Connections from 127\.0\.0\.1: /);
  assert.equal(await ip.inputValue(), '999.1.1.1');
  assert.equal(await ip.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the quota list reads a value as the add form does (Kafka parses it, Kafka judges it)', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  await field.fill('abc');
  await page.getByText('Cannot parse quota configuration value for producer_byte_rate: abc').first().waitFor();
  // The list says the quota keeps its value meanwhile.
  await page.getByText('Until then the quota stays 2000000.0.').waitFor();
  // A unit: Kafka's message, then the plain number to type.
  await field.fill('2 MB/s');
  await page.getByText('Cannot parse quota configuration value for producer_byte_rate: 2 MB/s. producer_byte_rate is a plain number of bytes per second (Double.parseDouble refuses units): type 2000000 (2097152 for 2 MiB/s).').first().waitFor();
  await field.fill('abc');
  await page.getByLabel(/^Value \(/).fill('abc');
  assert.equal(await page.getByText('Cannot parse quota configuration value for producer_byte_rate: abc').count(), 2);
  // A user typed with its principal type is probably a mistake: the form says so.
  await page.getByLabel('User principal').fill('User:bob');
  await page.getByTestId('add-user-warning').filter({ hasText: "type 'bob'" }).waitFor();
  // NaN: Kafka accepts it, and the link and the export still hold it.
  await field.fill('NaN');
  await page.waitForFunction(() => /NaN/.test(document.querySelector('[data-testid="limit-0-Produce"]').innerText));
  // Kafka's sensor takes it: the run meters the client and never delays it.
  await page.locator('#answer li.answer').filter({ hasText: 'NaN bytes/s per broker (NaN: metered, never delays: every check fails with a 0 ms throttle)' }).waitFor();
  await page.getByTestId('cluster-budgets').waitFor();
  const max = await page.getByTestId('scrubber').getAttribute('max');
  await page.getByTestId('scrubber').fill(max);
  await page.locator('#simulation').getByText('(a throttle time of 0 ms or less delays nothing)').first().waitFor();
  const link = await page.getByTestId('share-link').inputValue();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await other.waitForSelector('body[data-first-render-ms]');
  assert.equal(await other.getByLabel('producer_byte_rate of users/tenant-a', { exact: true }).inputValue(), 'NaN');
  assert.equal(await other.locator('.notice.error').count(), 0, 'no damaged-link notice');
  await fresh.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test("the lab's 2 MB/s producer runs to the end in about 12 s; scrub and step move the cursor", async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByTestId('lesson-1').click();
  await page.getByTestId('lesson-text').waitFor();
  await page.getByLabel('Playback speed').selectOption({ label: '30×' });
  await page.getByTestId('play').click();
  const duration = page.getByTestId('duration-throttled');
  await page.waitForFunction(() => document.querySelector('[data-testid="duration-throttled"]')?.dataset.ms, null, { timeout: 30000 });
  const ms = Number(await duration.getAttribute('data-ms'));
  assert.ok(ms > 10000 && ms < 14000, `duration ${ms} ms`);
  assert.match(await duration.innerText(), /^1[0-3]\.\d\d s$/);
  await page.waitForFunction(() => document.querySelector('[data-testid="play"]').getAttribute('aria-label') === 'Play');
  const end = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  assert.ok(end >= ms, `cursor ${end} at the end`);
  // Retries and errors stayed at zero: throttling delays, it does not fail.
  const metrics = await page.getByTestId('client-metrics').innerText();
  assert.match(metrics, /record-retry-total:\{client-id=throttled-producer\}\s+0/);
  assert.match(metrics, /record-error-total:\{client-id=throttled-producer\}\s+0/);
  await shot(page, 'lesson-1-end');

  // Scrub back: the throttled producer is not done at 3 s; forward again: done.
  await page.getByTestId('scrubber').fill('3000');
  await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').dataset.ms === '3000');
  assert.equal(await duration.getAttribute('data-ms'), null);
  assert.equal(await duration.innerText(), '…');
  await page.getByTestId('scrubber').fill(String(end + 10)); // clamped to the end
  await page.waitForFunction(() => document.querySelector('[data-testid="duration-throttled"]').dataset.ms);
  // Step back and forth over events.
  await page.getByTestId('scrubber').fill('3000');
  await page.getByTestId('step-forward').click();
  const after = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  assert.ok(after > 3000, `step forward to ${after}`);
  await page.getByTestId('step-back').click();
  const back = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  assert.ok(back < after, `step back to ${back}`);
  // Keyboard: End, Home, with focus in the Simulation panel (elsewhere the
  // keys scroll the page as usual).
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  const before = await page.getByTestId('clock').getAttribute('data-ms');
  await page.keyboard.press('End');
  await page.waitForTimeout(200);
  assert.equal(await page.getByTestId('clock').getAttribute('data-ms'), before, 'End outside the panel does not seek');
  await page.locator('#simulation').focus();
  await page.keyboard.press('End');
  await page.waitForFunction((e) => Number(document.querySelector('[data-testid="clock"]').dataset.ms) >= e - 1, end);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').dataset.ms === '0');
  // From the time slider too: the arrow steps to the next event (not 1 ms),
  // Space plays and pauses, ? opens the help.
  await page.getByTestId('scrubber').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="clock"]').dataset.ms) > 1);
  const stepped = Number(await page.getByTestId('clock').getAttribute('data-ms'));
  await page.getByTestId('step-back').click();
  await page.getByTestId('step-forward').click();
  assert.equal(Number(await page.getByTestId('clock').getAttribute('data-ms')), stepped, 'the arrow and the step button stop at the same event');
  await page.getByTestId('scrubber').focus();
  // Page Up: one second on; Up: the next event, as the right arrow.
  await page.keyboard.press('PageUp');
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid="clock"]').dataset.ms) === s + 1000, stepped);
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid="clock"]').dataset.ms) > s + 1000, stepped);
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Play' }).waitFor();
  await page.keyboard.press('?');
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a permalink restores the scenario in a fresh page; redaction hides names', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByLabel('Entity type').selectOption('client');
  await page.getByLabel('Client id', { exact: true }).fill('reporting-job');
  await page.getByLabel('Key', { exact: true }).selectOption('request_percentage');
  await page.getByLabel(/^Value \(/).fill('50');
  await page.getByRole('button', { name: 'Set quota' }).click();
  await page.getByTestId('quota-list').getByText('clients/reporting-job', { exact: true }).waitFor();
  const link = await page.getByTestId('share-link').inputValue();
  const json = decodeLink(link);
  assert.ok(json.quotas.some((q) => q.entity['client-id'] === 'reporting-job' && q.value === 50), JSON.stringify(json.quotas));
  // The address bar carries the same scenario (written in the task after the edit's).
  await page.waitForFunction((h) => location.hash === h, new URL(link).hash, { timeout: 5000 });

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const otherErrors = [];
  other.on('console', (m) => { if (m.type() === 'error') otherErrors.push(m.text()); });
  await other.goto(link);
  await other.getByTestId('quota-list').getByText('clients/reporting-job', { exact: true }).waitFor();
  assert.equal(await other.getByTestId('principal-name').innerText(), 'User:tenant-a');
  assert.equal(await matchedRung(other, 0, 'Produce'), '3');
  assert.deepEqual(otherErrors, []);
  await fresh.close();

  await page.getByTestId('redact').check();
  await page.waitForFunction((l) => document.querySelector('[data-testid="share-link"]').value !== l, link);
  const redacted = decodeLink(await page.getByTestId('share-link').inputValue());
  const text = JSON.stringify(redacted);
  assert.ok(!text.includes('tenant-a') && !text.includes('reporting-job') && !text.includes('app-1'), text);
  assert.ok(redacted.quotas.some((q) => q.entity.user === 'user-1'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a reload right after typing keeps the last keystroke (the address bar is written 300 ms later; pagehide hands the link over)', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  for (let i = 0; i < 3; i++) {
    const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
    await field.click();
    await field.press('End');
    await page.keyboard.type(String(i + 1));
    await page.reload();
    await page.waitForSelector('body[data-first-render-ms]');
    const want = '2000000' + '123'.slice(0, i + 1);
    assert.equal(await page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true }).inputValue(), want);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('typing a value writes the address bar and the autosave once, after its last keystroke', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.waitForFunction(() => location.hash.startsWith('#v1.'));
  // Count the writes from here on.
  await page.evaluate(() => {
    window.writes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (...a) => { window.writes.push(['hash', performance.now()]); return replace(...a); };
    const set = localStorage.setItem.bind(localStorage);
    localStorage.setItem = (...a) => { window.writes.push(['save', performance.now()]); return set(...a); };
  });
  const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  await field.click();
  await field.press('End');
  await page.keyboard.type('12345', { delay: 60 });
  const last = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => location.hash.length > 10 && localStorage.getItem('kafka-quota-playground.scenario') === location.hash.slice(1));
  await page.waitForTimeout(500);
  const writes = await page.evaluate(() => window.writes);
  // One address-bar write and one autosave, for the value with all five keystrokes.
  assert.deepEqual(writes.map(([k]) => k).sort(), ['hash', 'save'], JSON.stringify(writes));
  assert.ok(writes[0][1] >= last + 200, `written ${Math.round(writes[0][1] - last)} ms after the last keystroke`);
  await page.reload();
  await page.waitForSelector('body[data-first-render-ms]');
  assert.equal(await page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true }).inputValue(), '200000012345');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link pasted into the address bar of the open page opens its scenario; Back goes back; a damaged one leaves the page as it is', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  const field = () => page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  // The field follows the scenario on the page.
  const shows = async (v) => {
    for (let i = 0; i < 100 && (await field().inputValue()) !== v; i++) await page.waitForTimeout(100);
    assert.equal(await field().inputValue(), v);
  };
  const written = () => page.waitForFunction(() => location.hash.length > 10 && (localStorage.getItem('kafka-quota-playground.scenario') || '') === location.hash.slice(1));
  // Opened without a hash: the address bar gets the page's link (not the
  // autosave), so that Back can return to this entry's scenario.
  await page.waitForFunction(() => location.hash.startsWith('#v1.'));
  assert.equal(await page.evaluate(() => localStorage.getItem('kafka-quota-playground.scenario')), null);
  // A link made by this page: the lab with a 3 MB/s user quota.
  await field().fill('3000000');
  await field().press('Enter');
  await written();
  const link = await page.evaluate(() => location.hash);
  // Another scenario on the page.
  await field().fill('5000000');
  await field().press('Enter');
  await page.waitForFunction((l) => location.hash !== l, link);
  await written();
  const five = await page.evaluate(() => location.hash);
  // The same document all along: no reload.
  await page.evaluate(() => { window.sameDocument = true; });
  // Pasted into the address bar: a fragment navigation, one `hashchange`.
  await page.evaluate((l) => { location.hash = l; }, link);
  await shows('3000000');
  assert.match(await page.getByTestId('notice').innerText(), /Opened the link from the address bar\./);
  assert.match(await page.locator('#answer li.answer').first().innerText(), /3 MB\/s/);
  // Back: the scenario the page showed before the paste.
  await page.goBack();
  await shows('5000000');
  // A damaged link, pasted while reading the bottom of the page: the
  // scenario stays, the notice says why (in view), the address bar gets the
  // page's link back.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.evaluate(() => { location.hash = 'v1.garbage!!'; });
  await page.getByTestId('notice').filter({ hasText: 'The link in the address bar was not opened.' }).waitFor();
  const top = await page.getByTestId('notice').evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < (await page.evaluate(() => innerHeight)), `the notice is at ${top} px`);
  assert.match(await page.getByTestId('notice').innerText(), /not valid base64url.*The scenario on the page is unchanged; the address bar shows its link again\./s);
  assert.equal(await field().inputValue(), '5000000');
  assert.equal(await page.evaluate(() => location.hash), five);
  await page.getByRole('button', { name: 'Dismiss message' }).click();
  // In-page navigation is not a scenario: nothing is opened or refused.
  await page.evaluate(() => { location.hash = '/quotas'; });
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('notice').count(), 0);
  assert.equal(await field().inputValue(), '5000000');
  assert.equal(await page.evaluate(() => window.sameDocument), true);
  // A #text= link reloads the page, which reads the text.
  const text = 'text=' + encodeURIComponent('connection: listener=SASL_SSL user=bob client.id=c9');
  await page.evaluate((t) => { location.hash = t; }, text);
  await page.getByTestId('principal-name').filter({ hasText: 'User:bob' }).waitFor({ timeout: 30000 });
  assert.equal(await page.evaluate(() => window.sameDocument), undefined);
  // An edit, then the same #text= link pasted again: read again (no hand-over
  // of the edited link to the reloaded page).
  await page.getByLabel('client.id', { exact: true }).fill('edited');
  await page.getByLabel('client.id', { exact: true }).press('Enter');
  await page.waitForFunction(() => location.hash.startsWith('#v1.') && localStorage.getItem('kafka-quota-playground.scenario') === location.hash.slice(1));
  await page.evaluate(() => { window.sameDocument = true; });
  await page.evaluate((t) => { location.hash = t; }, text);
  await page.waitForFunction(() => window.sameDocument === undefined && document.body.dataset.firstRenderMs);
  await page.waitForFunction(() => document.querySelector('#conn-client-id')?.value === 'c9', undefined, { timeout: 30000 });
  // The text's scenario is autosaved (after the write delay).
  await page.waitForFunction(() => location.hash.startsWith('#v1.') && localStorage.getItem('kafka-quota-playground.scenario') === location.hash.slice(1));
  // A page opened without a hash restores the autosave; a link pasted
  // there, then Back: the autosaved scenario again, in a history entry of
  // its own.
  const again = await context.newPage();
  await again.goto(server.url);
  await again.waitForSelector('body[data-first-render-ms]');
  const saved = await again.evaluate(() => localStorage.getItem('kafka-quota-playground.scenario'));
  await again.waitForFunction((l) => location.hash === '#' + l, saved);
  await again.evaluate((l) => { location.hash = l; }, link);
  await again.getByTestId('notice').filter({ hasText: 'Opened the link from the address bar.' }).waitFor();
  await again.goBack();
  await again.waitForFunction((l) => location.hash === '#' + l, saved);
  await again.waitForFunction(() => document.querySelector('#conn-client-id')?.value === 'c9');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged link pasted within the write delay of an edit puts the edit\'s link in the address bar and the autosave', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.waitForFunction(() => location.hash.startsWith('#v1.'));
  const field = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  // The edit and the paste in one task: the edit's write is still queued.
  await field.evaluate((el) => {
    el.value = '7000000';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
  await page.evaluate(() => { location.hash = 'v1.garbage!!'; });
  await page.getByTestId('notice').filter({ hasText: 'The link in the address bar was not opened.' }).waitFor();
  await page.waitForTimeout(500);
  const hash = await page.evaluate(() => location.hash);
  assert.equal(await page.evaluate(() => localStorage.getItem('kafka-quota-playground.scenario')), hash.slice(1));
  assert.equal(hash, '#' + (await page.getByTestId('share-link').inputValue()).split('#')[1]);
  await page.reload();
  await page.waitForSelector('body[data-first-render-ms]');
  assert.equal(await field.inputValue(), '7000000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an edit whose address-bar write is still queued when Back is pressed does not land on the entry Back went to', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  const field = () => page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
  const set = async (v) => { await field().fill(v); await field().press('Enter'); };
  await set('3000000');
  await page.waitForFunction(() => location.hash.length > 10 && localStorage.getItem('kafka-quota-playground.scenario') === location.hash.slice(1));
  const b = await page.evaluate(() => location.hash);
  await set('4000000');
  await page.waitForFunction((h) => location.hash !== h, b);
  const l = await page.evaluate(() => location.hash);
  // Two entries: B, then L on top.
  await page.evaluate((h) => { location.hash = h; }, b);
  await page.waitForTimeout(300);
  await page.evaluate((h) => { location.hash = h; }, l);
  await page.waitForTimeout(300);
  // An edit (its write queued for the next task) and Back in the same task.
  await field().evaluate((el) => {
    el.value = '6000000';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    history.back();
  });
  await page.waitForTimeout(800);
  // B's entry kept its link, and the page shows it.
  assert.equal(await page.evaluate(() => location.hash), b);
  assert.equal(await field().inputValue(), '3000000');
  await page.goForward();
  await page.waitForFunction((h) => location.hash === h, l);
  for (let i = 0; i < 50 && (await field().inputValue()) !== '4000000'; i++) await page.waitForTimeout(100);
  assert.equal(await field().inputValue(), '4000000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the autosave restores the last scenario in a new page; a damaged one is reported', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByLabel('Entity type').selectOption('client');
  await page.getByLabel('Client id', { exact: true }).fill('autosaved-job');
  await page.getByLabel('Key', { exact: true }).selectOption('request_percentage');
  await page.getByLabel(/^Value \(/).fill('25');
  await page.getByRole('button', { name: 'Set quota' }).click();
  await page.getByTestId('quota-list').getByText('clients/autosaved-job', { exact: true }).waitFor();
  // Written in the task after the edit's render.
  await page.waitForFunction(() => (localStorage.getItem('kafka-quota-playground.scenario') || '') === location.hash.slice(1));
  // Same browser profile, no link: the autosave comes back.
  const again = await context.newPage();
  await again.goto(server.url);
  await again.waitForSelector('body[data-first-render-ms]');
  await again.getByTestId('quota-list').getByText('clients/autosaved-job', { exact: true }).waitFor();
  // A damaged autosave: the default scenario and a message, no blank page.
  await again.evaluate(() => localStorage.setItem('kafka-quota-playground.scenario', 'v1.%%%'));
  const third = await context.newPage();
  await third.goto(server.url);
  await third.waitForSelector('body[data-first-render-ms]');
  await third.getByText(/The scenario saved in this browser could not be restored/).waitFor();
  assert.equal(await third.getByTestId('quota-list').getByText('clients/autosaved-job', { exact: true }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('resizing across 600 px switches the charts between their wide and narrow layouts', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  const box = () => page.locator('svg.chart').first().getAttribute('viewBox');
  await page.waitForFunction(() => document.querySelector('svg.chart').getAttribute('viewBox').startsWith('0 0 640 '));
  await page.setViewportSize({ width: 360, height: 800 });
  await page.waitForFunction(() => document.querySelector('svg.chart').getAttribute('viewBox').startsWith('0 0 400 '));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow}px of horizontal overflow at 360 px after a resize`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('svg.chart').getAttribute('viewBox').startsWith('0 0 640 '));
  assert.match(await box(), /^0 0 640 /);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged or hostile link shows a clear message and the default scenario', async () => {
  for (const [hash, wording] of [
    ['#v1.garbage!!', /damaged/],
    ['#v1.garbage', /^The link's scenario is damaged: its text is not valid base64url \(at character 7 after 'v1\.'\)\. Showing the default scenario\.$/m],
    ['#hello-world', /does not start with a format version/],
    ['#v9.AAAA', /format v9/],
    ['#v1.' + 'A'.repeat(210000), /refused/],
  ]) {
    const { page, errors, context } = await openApp(browser, server.url + hash);
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.innerText(), wording);
    assert.match(await notice.innerText(), /Showing the default scenario\.$/m);
    assert.equal(await page.getByTestId('principal-name').innerText(), 'User:tenant-a');
    assert.equal(await page.getByRole('alert').filter({ hasText: 'internal error' }).count(), 0);
    if (hash === '#v1.garbage!!') await shot(page, 'garbage-hash', false);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('embed mode shows one panel without chrome and reports its height to the parent', async () => {
  const { page: main, context: mc } = await openApp(browser, server.url);
  const link = await main.getByTestId('share-link').inputValue();
  const snippet = await main.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="[^"]+\?embed=simulation#v1\./);
  await mc.close();
  const hash = new URL(link).hash;

  const { page, errors, context } = await openApp(browser, `${server.url}?embed=resolution${hash}`, { viewport: { width: 700, height: 900 } });
  await page.getByTestId('embed').waitFor();
  assert.equal(await page.getByTestId('embed').getAttribute('data-panel'), 'resolution');
  assert.equal(await page.getByRole('heading', { name: 'Kafka Quota Playground' }).count(), 0);
  assert.equal(await page.locator('#quotas').count(), 0);
  assert.equal(await matchedRung(page, 0, 'Produce'), '3');
  await shot(page, 'embed-resolution');
  assert.deepEqual(errors, []);
  await context.close();

  // In an iframe the panel posts its height to the parent page.
  const host = await browser.newContext();
  const parent = await host.newPage();
  await parent.goto(`${server.url}embed-example.html${hash}`);
  // The example page's <kafka-quota-playground> sets its iframe's height from the message.
  await parent.waitForFunction(() => parseInt(document.getElementById('ladder').shadowRoot.querySelector('iframe').style.height, 10) > 200, null, { timeout: 20000 });
  await shot(parent, 'embed-example', false);
  // The height follows the content both ways, also without a re-render of
  // the app (a <details> opening), and the content fits: no inner scrolling.
  const ladder = () => parent.evaluate(() => parseInt(document.getElementById('ladder').shadowRoot.querySelector('iframe').style.height, 10));
  const frame = parent.frames().find((f) => f.url().includes('embed=resolution'));
  const fits = () => frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1);
  await parent.waitForFunction(() => true);
  const h0 = await ladder();
  assert.equal(await fits(), true, `the resolution embed scrolls inside ${h0} px`);
  await frame.locator('#resolution details > summary').first().click();
  await parent.waitForFunction((h) => parseInt(document.getElementById('ladder').shadowRoot.querySelector('iframe').style.height, 10) > h, h0);
  assert.equal(await fits(), true, 'the content fits after a <details> opens');
  await frame.locator('#resolution details > summary').first().click();
  await parent.waitForFunction((h) => parseInt(document.getElementById('ladder').shadowRoot.querySelector('iframe').style.height, 10) <= h + 1, h0);
  await host.close();

  // An embed shows every reader the same scenario: never the reader's autosave.
  const reader = await browser.newContext();
  const own = await reader.newPage();
  await own.goto(server.url);
  await own.waitForSelector('body[data-first-render-ms]');
  await own.getByLabel('SASL user name').fill('alice-private');
  await own.getByTestId('principal-name').filter({ hasText: 'User:alice-private' }).waitFor();
  await own.waitForFunction(() => (localStorage.getItem('kafka-quota-playground.scenario') || '').length > 10);
  const embedded = await reader.newPage();
  await embedded.goto(`${server.url}?embed=connection`);
  await embedded.waitForSelector('body[data-first-render-ms]');
  assert.equal(await embedded.getByTestId('principal-name').innerText(), 'User:tenant-a');
  // A damaged link says so inside the embed too.
  await embedded.goto(`${server.url}?embed=resolution#v1.garbage!!`);
  await embedded.waitForSelector('body[data-first-render-ms]');
  await embedded.getByTestId('notice').filter({ hasText: 'not valid base64url' }).waitFor();
  // In an embed, ? (with focus in the simulation) shows the help, and Esc closes it.
  await embedded.goto(`${server.url}?embed=Simulation`);
  await embedded.waitForSelector('body[data-first-render-ms]');
  assert.equal(await embedded.getByTestId('embed-warning').count(), 0, 'panel names are case-insensitive');
  await embedded.locator('#simulation').focus();
  await embedded.keyboard.press('?');
  await embedded.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await embedded.keyboard.press('Escape');
  await embedded.getByRole('dialog').waitFor({ state: 'detached' });
  await reader.close();
});

test('on a phone the help sheet opens at its title, not scrolled to its Close button', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 360, height: 560 } });
  // Its button starts its own line at the header's left edge, not one gap in.
  const [button, nav] = [await page.getByRole('button', { name: 'Keyboard shortcuts' }).boundingBox(), await page.locator('nav.toc').boundingBox()];
  assert.equal(Math.round(button.x), Math.round(nav.x));
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  const [scrollTop, overflow] = await sheet.evaluate((el) => [el.scrollTop, el.scrollHeight - el.clientHeight]);
  assert.ok(overflow > 0, 'the sheet is taller than its box here (else this test proves nothing)');
  assert.equal(scrollTop, 0);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Close');
  assert.deepEqual(errors, []);
  await context.close();
});

test('keyboard: ? opens the help sheet and Escape closes it; every control has a name', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  // Outside the Simulation panel, ? is just a character.
  await page.keyboard.press('?');
  assert.equal(await page.getByRole('dialog').count(), 0);
  await page.locator('#simulation').focus();
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  // Opened from its button: focus goes in, stays in on Tab / Shift+Tab, and
  // comes back to the button on close; Space does not play behind the sheet.
  const opener = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await opener.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
  assert.equal(await inDialog(), true, 'focus moves into the sheet');
  for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Tab']) {
    await page.keyboard.press(key);
    assert.equal(await inDialog(), true, `focus stays in the sheet after ${key}`);
  }
  await page.keyboard.press('k');
  assert.equal(await page.getByRole('button', { name: 'Play' }).count(), 1, 'k does not play behind the sheet');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Keyboard shortcuts', 'focus returns to the ? button');
  await page.locator('#simulation').focus();
  // Space plays and pauses.
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Play' }).waitFor();
  // + and - step the speed, and the menu shows it, also after options were
  // picked from the menu (the browser then stops following those options'
  // selected attribute: 10× used to show as 0.25×).
  const speed = page.getByLabel('Playback speed');
  await speed.selectOption({ label: '10×' });
  await speed.selectOption({ label: '0.25×' });
  await page.locator('#simulation').focus();
  for (const want of ['0.5×', '1×', '2×', '5×', '10×', '30×', '30×']) {
    await page.keyboard.press('+');
    assert.equal(await speed.evaluate((s) => s.options[s.selectedIndex].text), want);
  }
  for (const want of ['10×', '5×']) {
    await page.keyboard.press('-');
    assert.equal(await speed.evaluate((s) => s.options[s.selectedIndex].text), want);
  }
  // Every input, select, textarea and button has an accessible name: a
  // non-empty aria-label, a <label> with text, or (buttons) words; a button
  // showing only a symbol (×, ?, ▶) needs an aria-label. The simulation
  // settings (workloads, brokers, quota window) are opened and checked too.
  await page.locator('details.setup > summary').click();
  // The client editors are drawn when the section opens (after its toggle event).
  await page.locator('#w0-records').waitFor();
  for (const id of ['w0-records', 'w0-size', 'w0-acks', 'w0-conn', 'brokers-count', 'quota-window-num', 'quota-window-size', 'num-io-threads']) {
    assert.equal(await page.locator(`#${id}`).count(), 1, `#${id} is on the page`);
  }
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')].filter((el) => {
    const aria = (el.getAttribute('aria-label') || '').trim();
    const labelled = [...(el.labels || [])].some((l) => l.textContent.trim());
    const by = (el.getAttribute('aria-labelledby') || '').split(/\s+/).some((i) => i && document.getElementById(i)?.textContent.trim());
    const words = el.tagName === 'BUTTON' && /\p{L}/u.test(el.textContent);
    return !(aria || labelled || by || words);
  }).map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  // Every chart has a text equivalent.
  const charts = await page.locator('svg.chart').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('role') === 'img' && (s.getAttribute('aria-label') || '').length > 20));
  assert.ok(charts.length >= 3 && charts.every(Boolean), JSON.stringify(charts));
  assert.deepEqual(errors, []);
  await context.close();
});

test('screenshots: light and dark, 360 px and wide', async () => {
  for (const [name, options] of [
    ['wide-light', { viewport: { width: 1440, height: 1000 }, colorScheme: 'light' }],
    ['wide-dark', { viewport: { width: 1440, height: 1000 }, colorScheme: 'dark' }],
    ['narrow-light', { viewport: { width: 360, height: 800 }, colorScheme: 'light' }],
    ['narrow-dark', { viewport: { width: 360, height: 800 }, colorScheme: 'dark', reducedMotion: 'reduce' }],
  ]) {
    const { page, errors, context } = await openApp(browser, server.url, options);
    await page.getByTestId('lesson-4').click();
    await page.getByTestId('lesson-text').waitFor();
    await page.locator('#simulation').focus();
    await page.keyboard.press('End');
    // Nothing is wider than the viewport.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: ${overflow}px of horizontal overflow`);
    await shot(page, name);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a panic is reported in the page, not a blank screen', async () => {
  const { page, context } = await openPage(browser, `${server.url}?kqp-test-panic`);
  const panic = page.locator('#panic');
  await panic.waitFor({ state: 'visible', timeout: 20000 });
  assert.match(await panic.innerText(), /internal error: .*test panic requested/s);
  await context.close();
});

test('at 1280 px the quota list keeps entity names and keys on one line (the panel is a column)', async () => {
  const scenario = {
    quotas: [
      { entity: { user: null, 'client-id': null }, key: 'consumer_byte_rate', value: 100000 },
      { entity: { ip: '0:0:0:0:0:0:0:1' }, key: 'connection_creation_rate', value: 7 },
      { entity: { 'client-id': null }, key: 'request_percentage', value: 50 },
    ],
    connections: [{ name: 'c', listener: 'SASL_PLAINTEXT', identity: 'a', 'client.id': 'x' }],
  };
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(scenario)}`, { viewport: { width: 1280, height: 900 } });
  const rows = await page.locator('.qrow .qwho code').evaluateAll((els) => els.map((e) => ({
    text: e.textContent, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
  })));
  assert.equal(rows.length, 6, JSON.stringify(rows));
  for (const r of rows) assert.equal(r.lines, 1, `${r.text} takes ${r.lines} lines`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a budget's throttle list that reached the run's record limit says so, with the limit and the last throttle kept", async () => {
  const { readFile } = await import('node:fs/promises');
  const lab = JSON.parse(await readFile(new URL('../../examples/producer-2mb-quota.json', import.meta.url), 'utf8')).scenario;
  // 3 GB at 2 MB/s: about 2,900 throttles over the 600 s horizon, more than
  // the Timeline keeps per budget (SERIES_CAP, 2048).
  lab.workloads[0].producer.records = 3_000_000;
  const { page, errors, context } = await openApp(browser, `${server.url}#${await permalink(lab)}`);
  const caption = page.getByTestId('throttles').locator('caption');
  // At the start nothing is capped yet.
  assert.equal(await page.getByTestId('throttles-capped').count(), 0);
  const end = await page.getByTestId('scrubber').getAttribute('max');
  await page.getByTestId('scrubber').fill(end);
  await page.getByTestId('throttles-capped').waitFor();
  assert.match(await caption.innerText(), /: 2048 \(the first, then the latest\) The run records a budget's first 2048 throttles, up to [\d.]+ s here: later ones are not listed\./);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link to a panel (#/cluster, as the header links read) opens the page at that panel', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}#/cluster`, { run: false });
  await page.waitForFunction(() => Math.abs(document.getElementById('cluster').getBoundingClientRect().top) < 2);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'cluster');
  // Its run arrives (the panel is in view) and the page stays there.
  await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
  assert.ok(Math.abs(await page.evaluate(() => document.getElementById('cluster').getBoundingClientRect().top)) < 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an emptied client setting goes back to its default, as a property not set', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await openSetup(page);
  const field = page.locator('#w0-maxblock');
  // The scenario's value, as its link carries it.
  const maxBlock = async () => JSON.stringify(decodeLink(await page.locator('#share-link').inputValue())).match(/"max\.block\.ms":(\d+)/)?.[1] ?? 'unset';
  await field.fill('10');
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  assert.equal(await maxBlock(), '10');
  await field.fill('');
  // No error: empty means the Java client's default, shown as the
  // placeholder; the field stays empty for the next value typed.
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  assert.equal(await field.getAttribute('placeholder'), '60000');
  assert.equal(await shownText(page.locator('#w0-maxblock-hint')), 'default 60000; empty = the default');
  await field.pressSequentially('20');
  assert.equal(await field.inputValue(), '20');
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  // The scenario follows each value: 20, then the default.
  assert.equal(await maxBlock(), '20');
  await field.fill('');
  assert.ok(['unset', '60000'].includes(await maxBlock()));
  assert.equal(await field.inputValue(), '');
  // A setting without a default (the record count) still refuses empty.
  await page.locator('#w0-records').fill('');
  assert.equal(await page.locator('#w0-records').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Add producer on the default scenario gives the new producer a copy of the connection, and the run goes on', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await openSetup(page);
  await page.getByRole('button', { name: 'Add producer' }).click();
  await waitForRun(page);
  // Two connections with the same principal and client.id, one client each:
  // no "used by two workloads" refusal, and both answered and simulated.
  assert.equal(await page.getByTestId('sim-error').count(), 0);
  const answers = await page.locator('#answer li.answer').allInnerTexts();
  assert.equal(answers.length, 2, answers.join('\n'));
  assert.match(answers[1], /\(User:tenant-a, client\.id app-1\)/);
  // They share one budget: users/tenant-a's produce quota.
  assert.match(answers[1], /^Produce: 2 MB\/s .* from users\/tenant-a \(rung 3\); shared by all connections of user tenant-a, whatever their client-id\. Here: connection app\.$/m);
  await page.getByTestId('cluster-state-app').waitFor();
  assert.equal(await page.locator('[data-testid^="cluster-state-"]').count(), 2);
  // Each client's Connection select offers its own connection and the free
  // ones only: a connection carries one client.
  const own = await page.locator('#w1-conn').inputValue();
  assert.notEqual(own, 'app');
  // The copy is the connection edited now (as after "Add connection"): the
  // Connection panel shows the client just added.
  assert.equal(await page.locator('#conn-name').inputValue(), own);
  assert.deepEqual(await page.locator('#w1-conn option').allInnerTexts(), [own]);
  assert.deepEqual(await page.locator('#w0-conn option').allInnerTexts(), ['app']);
  assert.deepEqual(errors, []);
  await context.close();
});
