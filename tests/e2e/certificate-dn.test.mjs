// Issue 27: the certificate DN as Java reads it. The principal panel shows
// the engine's derivation: how Java reads the typed subject
// (X500Principal.getName()) and the rule that maps it; openssl's
// `subject=` line comes out in Java's (reversed) order; a DN Java refuses
// gives no principal, with Java's messages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

for (const colorScheme of ['light', 'dark']) {
  test(`an openssl subject line is mapped as Java reads the certificate (${colorScheme})`, async () => {
    const { page, errors, context } = await openApp(browser, server.url, { colorScheme, viewport: { width: 1280, height: 900 } });
    await page.getByLabel('Listener (security.protocol)').selectOption('SSL');
    await page.getByLabel(/Client certificate subject DN/).fill('subject=CN = app, OU = eng');
    await page.getByTestId('principal-name').filter({ hasText: 'User:OU=eng,CN=app' }).waitFor();
    const steps = page.getByTestId('principal-how').locator('li');
    assert.equal(await steps.count(), 2);
    assert.equal(
      await steps.nth(0).innerText(),
      "Java reads the certificate subject 'subject=CN = app, OU = eng' (openssl's print: 'subject=' left out, the RDNs reversed from the certificate's order to Java's) as 'OU=eng,CN=app' (X500Principal.getName(), RFC 2253)",
    );
    assert.equal(await steps.nth(1).innerText(), "ssl.principal.mapping.rules entry #0 DEFAULT maps 'OU=eng,CN=app'");
    await page.getByTestId('principal').scrollIntoViewIfNeeded();
    await shot(page, `certificate-dn-openssl-${colorScheme}`, false);

    // A DN Java refuses: no principal, Java's messages, no "Kafka closes".
    await page.getByLabel(/Client certificate subject DN/).fill('CN=app,FOO=bar');
    const refused = page.getByTestId('principal').filter({ hasText: 'No principal' });
    await refused.waitFor();
    const text = await refused.innerText();
    assert.match(text, /The certificate DN 'CN=app,FOO=bar' is not a DN Java can read/);
    assert.match(text, /Java: improperly specified input name: CN=app,FOO=bar \(Invalid keyword "FOO"\)/);
    assert.doesNotMatch(text, /Kafka closes/);
    // The Resolution panel's heading for the connection says the same.
    const who = await page.locator('#resolution .who p').first().innerText();
    assert.equal(who, "no principal: The certificate DN 'CN=app,FOO=bar' is not a DN Java can read, so no client certificate has it");
    await shot(page, `certificate-dn-refused-${colorScheme}`, false);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
