import type {
	ICredentialDataDecryptedObject,
	INodePropertyOptions,
	NodeApiError,
} from 'n8n-workflow';

import { DialerApi } from '../../../credentials/DialerApi.credentials';
import * as batches from '../../../nodes/Dialer/actions/batch/getMany.operation';
import { dialerApiRequest } from '../../../nodes/shared/transport/request';
import { AUTHORIZATION_EXPRESSION, serverOf } from '../../../nodes/shared/transport/server';
import { fakeExecuteFunctions, TEST_CREDENTIALS } from '../support/executeFunctions';

const headerStyles = new DialerApi().properties.find(({ name }) => name === 'authScheme')!
	.options as INodePropertyOptions[];

describe('the Authorization header', () => {
	it.each(headerStyles.map(({ value, description }) => [value, description]))(
		'in style %s is written as the credential says: %s',
		async (authScheme, description) => {
			const { context, sent } = fakeExecuteFunctions({
				parameters: {},
				credentials: { ...TEST_CREDENTIALS, authScheme, token: 'tok-123' },
				responses: [{ body: { data: [] } }],
			});
			await dialerApiRequest.call(context, batches.endpoint, {});
			const written = String(description).match(/^Authorization: (.*<token>)/)![1];
			expect(sent[0].headers.Authorization).toBe(written.replace('<token>', 'tok-123'));
		},
	);

	it("is the credential's own header for n8n's uses of it (its test, HTTP Request)", () => {
		expect(new DialerApi().authenticate.properties.headers?.Authorization).toBe(
			AUTHORIZATION_EXPRESSION,
		);
		// Rendered as n8n renders a template: each {{ }} as JavaScript, undefined and null as ''.
		const rendered = (credentials: ICredentialDataDecryptedObject) =>
			AUTHORIZATION_EXPRESSION.replace(/^=/, '').replace(
				/\{\{([\s\S]*?)\}\}/g,
				(_, code: string) => {
					const value: unknown = new Function('$credentials', `return (${code});`)(credentials);
					return value === undefined || value === null ? '' : String(value);
				},
			);
		const styles = [...headerStyles.map(({ value }) => value), undefined, 'digest'];
		for (const authScheme of styles) {
			for (const token of ['tok-123', '  tok 123\t', undefined]) {
				const credentials = { authScheme, token } as ICredentialDataDecryptedObject;
				expect([authScheme, token, serverOf(credentials).authorization]).toEqual([
					authScheme,
					token,
					rendered(credentials),
				]);
			}
		}
	});

	it('is the token alone for a stored style the credential does not offer, as in its expression', () => {
		expect(serverOf({ authScheme: 'digest', token: 'tok-123' }).authorization).toBe('tok-123');
		expect(serverOf({ token: 'tok-123' }).authorization).toBe('tok-123');
		for (const authScheme of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
			expect([authScheme, serverOf({ authScheme, token: 'tok-123' }).authorization]).toEqual([
				authScheme,
				'tok-123',
			]);
		}
	});
});

describe('a redirected API request', () => {
	// n8n's client follows redirects with the Authorization header to any origin (the fake too).
	it.each([
		['another host', 'https://login.elsewhere.test/ipbox/api/getLotesAtivos'],
		['the same host over http', 'http://acme.dialer.test:8607/ipbox/api/getLotesAtivos'],
		['another port', 'https://acme.dialer.test:8443/ipbox/api/getLotesAtivos'],
		['a subdomain', 'https://files.acme.dialer.test:8607/ipbox/api/getLotesAtivos'],
	])('takes the token to no other origin: %s', async (_, location) => {
		const { context, sent, strays } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ status: 307, headers: { location } }, { body: { data: [] } }],
		});
		const result = dialerApiRequest.call(context, batches.endpoint, {});
		await expect(result).rejects.toThrow('Dialer getLotesAtivos failed (HTTP 307)');
		expect(strays).toEqual([]);
		expect(sent).toHaveLength(1);
		const error = (await result.catch((failure: unknown) => failure)) as NodeApiError;
		expect(error.description).toContain(new URL(location).origin);
		expect(error.description).toContain('Base URL');
	});
});

it('says where to look when the dialer redirects the API within its own origin', async () => {
	const { context, sent } = fakeExecuteFunctions({
		parameters: {},
		responses: [{ status: 301, headers: { location: '/outro/api/getLotesAtivos' } }],
	});
	const error = (await dialerApiRequest
		.call(context, batches.endpoint, {})
		.catch((failure: unknown) => failure)) as NodeApiError;
	expect(error.message).toContain('(HTTP 301)');
	expect(error.description).toContain('path segment');
	expect(sent).toHaveLength(1);
});
