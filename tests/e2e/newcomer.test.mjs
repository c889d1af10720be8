// Problems a newcomer found in the playground, each checked in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, shot, shownText } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('Kerberos: DEFAULT maps alice@EXAMPLE.COM to alice once the default realm is set', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByLabel('Listener (security.protocol)').selectOption('SASL_SSL');
  await page.getByLabel('SASL mechanism').selectOption('GSSAPI');
  await page.getByLabel('Kerberos principal (name[/host]@REALM)').fill('alice@EXAMPLE.COM');
  await page.getByText('Broker principal mapping rules').click();
  await page.getByLabel('sasl.kerberos.principal.to.local.rules').fill('DEFAULT');
  // Without a default realm DEFAULT matches nothing, and the page says what to set.
  await page.getByTestId('principal').filter({ hasText: 'No principal' }).waitFor();
  await page.getByTestId('realm-hint').waitFor();
  await page.getByLabel('Kerberos default realm (krb5.conf default_realm)').fill('EXAMPLE.COM');
  await page.getByTestId('principal-name').filter({ hasText: 'User:alice' }).waitFor();
  assert.equal(await page.getByTestId('realm-hint').count(), 0);
  await shot(page, 'kerberos-realm', false);
  // Another realm is not shortened.
  await page.getByLabel('Kerberos default realm (krb5.conf default_realm)').fill('OTHER.ORG');
  await page.getByTestId('principal').filter({ hasText: 'No principal' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a value kafka-configs.sh cannot parse gets the tool's message", async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByLabel('Entity type').selectOption('user');
  await page.getByLabel('User principal').fill('tenant-b');
  await page.getByLabel('Key', { exact: true }).selectOption('producer_byte_rate');
  await page.getByLabel(/^Value \(/).fill('abc');
  await page.getByTestId('add-verdict')
    .filter({ hasText: 'Cannot parse quota configuration value for producer_byte_rate: abc' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Set quota' }).isDisabled(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('SASL to SSL: the user name is not kept as a DN; a non-DN is flagged; ssl.client.auth is shown', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  assert.equal(await page.getByTestId('principal-name').innerText(), 'User:tenant-a');
  await page.getByLabel('Listener (security.protocol)').selectOption('SSL');
  const dn = page.getByLabel(/Client certificate subject DN/);
  assert.equal(await dn.inputValue(), '');
  const auth = page.getByLabel('Broker ssl.client.auth');
  assert.equal(await auth.inputValue(), 'none');
  await page.getByTestId('principal-name').filter({ hasText: 'User:ANONYMOUS' }).waitFor();
  assert.match(await page.locator('#conn-auth-hint').innerText(), /default, none/);
  await dn.fill('tenant-a');
  await page.getByTestId('conn-identity-warning')
    .filter({ hasText: "'tenant-a' is not a distinguished name; a certificate subject looks like CN=app,OU=eng." }).waitFor();
  // A DN with no ssl.client.auth set means required, and the page says so.
  assert.equal(await auth.inputValue(), 'required');
  assert.match(await page.locator('#conn-auth-hint').innerText(), /implies required/);
  await dn.fill('CN=app,OU=eng');
  await page.getByTestId('conn-identity-warning').waitFor({ state: 'detached' });
  await shot(page, 'ssl-dn', false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('?embed=bogus names the valid panels, then shows the simulation', async () => {
  const { page, errors, context } = await openApp(browser, `${server.url}?embed=bogus`);
  await page.getByTestId('embed').waitFor();
  assert.equal(await page.getByTestId('embed').getAttribute('data-panel'), 'simulation');
  assert.equal(await page.getByTestId('embed-warning').innerText(),
    "⚠ 'bogus' is not a panel name; ?embed= takes one of answer, lessons, quotas, import, connection, resolution, simulation, cluster. Showing the simulation panel.");
  await context.close();
  // A known name shows no warning.
  const ok = await openApp(browser, `${server.url}?embed=quotas`);
  await ok.page.getByTestId('embed').waitFor();
  assert.equal(await ok.page.getByTestId('embed-warning').count(), 0);
  assert.deepEqual([...errors, ...ok.errors], []);
  await ok.context.close();
});

test('counts are pluralised; an empty client-id shows as clients/""; no Fetch MBeans without a consumer', async () => {
  const { page, errors, context } = await openApp(browser, server.url);
  await page.getByText(/^Clients and broker settings \(1 client, 1 broker\)$/).waitFor();
  const metrics = await shownText(page.getByTestId('broker-metrics'));
  assert.match(metrics, /type=Produce,user=tenant-a:byte-rate/);
  assert.doesNotMatch(metrics, /type=Fetch/);
  await page.getByLabel('client.id').fill('');
  await page.getByTestId('ladder-0-Produce').locator('li[data-rung="1"] code').filter({ hasText: /^users\/tenant-a\/clients\/""$/ }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('360 px: metric and MBean names wrap at : , = boundaries, not per character', async () => {
  const { page, errors, context } = await openApp(browser, server.url, { viewport: { width: 360, height: 800 } });
  await page.getByTestId('lesson-1').click();
  await page.getByTestId('lesson-text').waitFor();
  await page.locator('#simulation').focus();
  await page.keyboard.press('End');
  for (const id of ['client-metrics', 'broker-metrics']) {
    const lines = await page.getByTestId(id).locator('tbody td code').evaluateAll((codes) => codes.map((c) => {
      const lh = parseFloat(getComputedStyle(c).lineHeight) || 16;
      return Math.round(c.getBoundingClientRect().height / lh);
    }));
    assert.ok(lines.length > 0, id);
    assert.ok(lines.every((n) => n >= 1 && n <= 3), `${id}: lines per name ${lines}`);
  }
  await page.getByTestId('broker-metrics').scrollIntoViewIfNeeded();
  await shot(page, 'metrics-360', false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the embed example without a hash shows the lab's 2 MB/s producer", async () => {
  const host = await browser.newContext();
  const parent = await host.newPage();
  await parent.goto(`${server.url}embed-example.html`);
  const src = await parent.locator('#sim iframe').getAttribute('src');
  assert.match(src, /\?embed=simulation&readonly(&theme=(light|dark))?#v1\.[A-Za-z0-9_-]+$/);
  const frame = parent.frameLocator('#sim iframe');
  await frame.getByTestId('embed').waitFor({ timeout: 20000 });
  await frame.getByText('producer_byte_rate=2000000').first().waitFor({ timeout: 20000 }).catch(() => {});
  const text = await frame.locator('body').innerText();
  assert.match(text, /throttled-producer/);
  await host.close();
});
