/**
 * The Dialer API credential's form. n8n's Test shows only the network error's code when the
 * dialer cannot be reached (test/e2e/credential-test.test.ts), so the Base URL field says what
 * each code means and what to check.
 */
import { DialerApi } from '../../credentials/DialerApi.credentials';

const baseUrl = new DialerApi().properties.find((property) => property.name === 'baseUrl')!;

it.each([
	['ECONNREFUSED', /port/],
	['ECONNREFUSED', /https:\/\/ or http:\/\//],
	['ENOTFOUND', /does not resolve/],
	['EAI_AGAIN', /does not resolve/],
	['ETIMEDOUT', /cannot reach the host/],
	['EHOSTUNREACH', /cannot reach the host/],
])('the Base URL field says what Test showing %s means', (code, meaning) => {
	expect(baseUrl.hint).toContain(code);
	expect(baseUrl.hint).toMatch(meaning);
});
