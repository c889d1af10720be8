// Problems a newcomer found in the playground, each checked in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, shot } from './harness.mjs';

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
