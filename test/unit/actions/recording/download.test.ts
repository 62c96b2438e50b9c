import { router } from '../../../../nodes/Dialer/actions/router';
import {
	fakeExecuteFunctions,
	runNode,
	TEST_CREDENTIALS,
	untilRead,
	type FakeContextOptions,
	type FakeResponse,
} from '../../support/executeFunctions';

const DIALER = 'https://acme.dialer.test:8607';
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(3000, 7)]);
const wav = (headers: Record<string, string> = {}): FakeResponse => ({
	body: WAV,
	contentType: 'audio/wav',
	headers: { 'content-length': String(WAV.length), ...headers },
});
const row = { protocolo: '20261124000042', arquivo: `${DIALER}/ipbox/gravacoes/a1.wav` };

const PARAMETERS = {
	resource: 'recording',
	operation: 'download',
	binaryPropertyName: 'recording',
	maxFileSize: 200,
};

function download(
	link: string,
	responses: FakeResponse[],
	more: { parameters?: Record<string, unknown>; credentials?: { ignoreSslIssues: boolean } } = {},
) {
	return runNode({
		parameters: { ...PARAMETERS, link, ...more.parameters },
		items: [{ json: row }],
		credentials: { ...TEST_CREDENTIALS, ...more.credentials },
		responses,
	});
}

describe('Recording → Download', () => {
	it('streams the file on the dialer into the binary field, with the token, keeping the row', async () => {
		const { items, sent } = await download(row.arquivo, [
			wav({ 'content-disposition': 'attachment; filename="gravacao-42.wav"' }),
		]);
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({ url: row.arquivo, method: 'GET', authenticated: true });
		expect(sent[0].options).toMatchObject({ encoding: 'stream', disableFollowRedirect: true });
		expect(items[0].json).toEqual(row);
		expect(items[0].binary?.recording).toMatchObject({
			fileName: 'gravacao-42.wav',
			mimeType: 'audio/wav',
			data: WAV.toString('base64'),
		});
	});

	it('marks a row whose download failed in the report as downloaded now, its error gone', async () => {
		const failed = { ...row, recordingStatus: 'failed', recordingError: 'Could not … (HTTP 503)' };
		const { items } = await runNode({
			parameters: { ...PARAMETERS, link: row.arquivo },
			items: [{ json: failed }],
			responses: [wav()],
		});
		expect(items[0].json).toEqual({ ...row, recordingStatus: 'downloaded' });
		expect(failed.recordingError).toBeDefined();
	});

	it('resolves a relative link against the base URL of the credential', async () => {
		const { sent } = await download('/ipbox/gravacoes/a1.wav', [wav()]);
		expect(sent[0]).toMatchObject({ url: row.arquivo, authenticated: true });
	});

	it.each([
		['another host', 'https://storage.test/gravacoes/a1.wav'],
		['another port', 'https://acme.dialer.test:9000/gravacoes/a1.wav'],
		['another scheme', 'http://acme.dialer.test:8607/ipbox/gravacoes/a1.wav'],
		['a subdomain', 'https://cdn.acme.dialer.test:8607/gravacoes/a1.wav'],
	])('fetches a link to %s without the token and with TLS checked', async (_origin, link) => {
		const { sent } = await download(link, [wav()], { credentials: { ignoreSslIssues: true } });
		expect(sent[0]).toMatchObject({ url: link, authenticated: false });
		expect(sent[0].options.skipSslCertificateValidation).toBe(false);
	});

	it('keeps the TLS switch of the credential for the dialer itself', async () => {
		const { sent } = await download(row.arquivo, [wav()], {
			credentials: { ignoreSslIssues: true },
		});
		expect(sent[0].options.skipSslCertificateValidation).toBe(true);
	});

	it('follows a redirect to another origin without the token', async () => {
		const elsewhere = 'https://storage.test/gravacoes/a1.wav?sig=abc';
		const { sent, items } = await download(row.arquivo, [
			{ status: 302, headers: { location: elsewhere } },
			wav(),
		]);
		expect(sent.map(({ url, authenticated }) => [url, authenticated])).toEqual([
			[row.arquivo, true],
			[elsewhere, false],
		]);
		expect(items[0].binary?.recording.fileName).toBe('a1.wav');
	});

	it('keeps the token on a redirect within the dialer, relative Location included', async () => {
		const { sent } = await download(row.arquivo, [
			{ status: 301, headers: { location: '/ipbox/gravacoes/b2.wav' } },
			wav(),
		]);
		expect(sent[1]).toMatchObject({ url: `${DIALER}/ipbox/gravacoes/b2.wav`, authenticated: true });
	});

	it('resolves a Location without a leading slash against the link it redirects', async () => {
		const { sent } = await download(row.arquivo, [
			{ status: 302, headers: { location: 'b2.wav' } },
			wav(),
		]);
		expect(sent[1]).toMatchObject({ url: `${DIALER}/ipbox/gravacoes/b2.wav`, authenticated: true });
	});

	it('follows a Location sent as raw UTF-8 bytes to the path a browser would', async () => {
		// PHP's header('Location: /ipbox/gravações/…') sends the bytes; Node reads them as Latin-1.
		const location = Buffer.from('/ipbox/gravações/b 2.wav').toString('latin1');
		const { sent } = await download(row.arquivo, [{ status: 302, headers: { location } }, wav()]);
		expect(sent[1].url).toBe(`${DIALER}/ipbox/grava%C3%A7%C3%B5es/b%202.wav`);
	});

	it('stops a redirect loop', async () => {
		await expect(
			download(row.arquivo, [{ status: 302, headers: { location: row.arquivo } }]),
		).rejects.toThrow(/more than 5 redirects/);
	});

	it('names the call and the link without its query string when the file is missing', async () => {
		const error = await download(`${row.arquivo}?token=hidden-value`, [
			{ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' },
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain(
			`Could not download the recording of call 20261124000042 from ${row.arquivo} (HTTP 404): Not Found`,
		);
		expect(JSON.stringify(error)).not.toContain('hidden-value');
	});

	it.each([
		['a 404 page', { status: 404, contentType: 'text/html' }],
		['a login page', { contentType: 'text/html' }],
		['a page sent as audio', { contentType: 'audio/wav' }],
	])('keeps the query string out of the error when %s repeats the link', async (_page, answer) => {
		const signed = `${row.arquivo}?X-Amz-Signature=c2lnbmF0dXJl%2Bx&token=tok-in-query`;
		const error = await download(signed, [
			{
				...answer,
				body: '<html><p>No access to /ipbox/gravacoes/a1.wav?X-Amz-Signature=c2lnbmF0dXJl%2Bx&amp;token=tok-in-query</p><p>Signature c2lnbmF0dXJl+x rejected</p></html>',
			},
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain('No access to /ipbox/gravacoes/a1.wav');
		expect(JSON.stringify(error) + String(error)).not.toMatch(/tok-in-query|c2lnbmF0dXJl/);
	});

	it("keeps the credential's token out of the error when the dialer's page repeats it", async () => {
		const error = await download(row.arquivo, [
			{
				status: 403,
				contentType: 'text/plain',
				body: `Token ${TEST_CREDENTIALS.token} sem acesso`,
			},
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain('(HTTP 403): Token … sem acesso');
		expect(JSON.stringify(error) + String(error)).not.toContain(TEST_CREDENTIALS.token as string);
	});

	it.each([
		['a page that came in pieces', 200, 997 - 7],
		['an error page past what is kept of it', 403, 64 * 1024 - 7],
	])(
		'never shows part of the token %s repeats where the part read of it ends',
		async (_page, status, at) => {
			// The text shown comes from the page's start (its first chunk, or 64 KiB), which ends
			// inside the token: a long style sheet before it is no text.
			const head = `<html><head><style>${'p{margin:0}'.repeat(5000)}</style></head><body>`;
			const page = `${head.slice(0, at - 100)}</style></head><body><p>Token `.padEnd(at, ' ');
			const error = await download(row.arquivo, [
				{ status, contentType: 'text/html', body: `${page}${TEST_CREDENTIALS.token} inválido` },
			]).catch((caught: Error) => caught);
			expect(String(error)).toMatch(/Token/);
			const shown = JSON.stringify(error) + String(error);
			expect(shown).not.toContain(String(TEST_CREDENTIALS.token).slice(0, 4));
		},
	);

	it("keeps the node's own words whole when a query value is a common word", async () => {
		const error = await download(`${row.arquivo}?como=instead&tipo=file`, [
			{ contentType: 'text/html', body: '<p>Login required for this file</p>' },
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain(
			'(HTTP 200): received text/html instead of a file: Login required for this …',
		);
	});

	it('keeps the signature of the link a redirect gave out of the error', async () => {
		const signed = 'https://storage.test/a1.wav?Signature=sig-from-redirect';
		const error = await download(row.arquivo, [
			{ status: 302, headers: { location: signed } },
			{ status: 403, contentType: 'text/plain', body: `Expired: ${signed}` },
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain('(HTTP 403): Expired: https://storage.test/a1.wav?Signature=…');
		expect(JSON.stringify(error) + String(error)).not.toContain('sig-from-redirect');
	});

	it('shows a link without the session it carries in its path (;jsessionid=…)', async () => {
		const error = await download(`${row.arquivo};jsessionid=A1B2C3D4E5`, [
			{ status: 404, contentType: 'text/html', body: 'Not Found' },
		]).catch((caught: Error) => caught);
		expect(String(error)).toContain(`from ${row.arquivo} (HTTP 404)`);
		expect(JSON.stringify(error) + String(error)).not.toContain('A1B2C3D4E5');
	});

	it('refuses a login page answered with 200, saying what came instead', async () => {
		await expect(
			download(row.arquivo, [
				{
					contentType: 'text/html; charset=utf-8',
					body: '<html><body><h1>Acesso</h1><label>Senha</label></body></html>',
				},
			]),
		).rejects.toThrow(/\(HTTP 200\): received text\/html instead of a file: Acesso Senha/);
	});

	it.each([
		[
			"a PHP script's default type",
			'https://s.test/ipbox/download.php?id=9',
			'text/html; charset=UTF-8',
			WAV,
			'20261124000042.wav',
			'audio/wav',
		],
		["an old web server's default type", row.arquivo, 'text/plain', WAV, 'a1.wav', 'audio/wav'],
		[
			"a PHP script's default type",
			'https://s.test/ipbox/ouvir.php?id=9',
			'text/html',
			Buffer.concat([Buffer.from('ID3'), Buffer.alloc(500, 1)]),
			'20261124000042.mp3',
			'audio/mpeg',
		],
	])(
		'stores audio labelled with %s, by its first bytes',
		async (_label, link, contentType, body, fileName, mimeType) => {
			const { items } = await download(link, [{ contentType, body }]);
			expect(items[0].binary?.recording).toMatchObject({ fileName, mimeType });
		},
	);

	it('tells audio from a page by its first bytes when they arrive a byte at a time', async () => {
		const link = 'https://s.test/ipbox/download.php?id=9';
		const { items } = await download(link, [
			{ contentType: 'text/html', body: WAV, chunkBytes: 1 },
		]);
		expect(items[0].binary?.recording).toMatchObject({ mimeType: 'audio/wav' });
		await expect(
			download(row.arquivo, [
				{ contentType: 'application/octet-stream', body: '  <html><p>Entrar</p>', chunkBytes: 1 },
			]),
		).rejects.toThrow(/received a page instead of a file: Entrar/);
	});

	it('refuses a page sent as octet-stream, by its first bytes', async () => {
		await expect(
			download(row.arquivo, [
				{ contentType: 'application/octet-stream', body: '<!DOCTYPE html><p>Entrar</p>' },
			]),
		).rejects.toThrow(/received a page instead of a file: Entrar/);
	});

	it('refuses a page sent as octet-stream behind a UTF-8 byte order mark', async () => {
		const body = Buffer.from('\uFEFF<!DOCTYPE html><p>Entrar</p>', 'utf8');
		await expect(
			download(row.arquivo, [{ contentType: 'application/octet-stream', body }]),
		).rejects.toThrow(/received a page instead of a file: Entrar/);
	});

	it('stops at Max File Size, announced or arriving', async () => {
		const big = Buffer.alloc(2 * 1_048_576 + 1, 1);
		await expect(
			download(row.arquivo, [wav({ 'content-length': String(big.length) })], {
				parameters: { maxFileSize: 2 },
			}),
		).rejects.toThrow(/the file is 2\.0 MB, above the size limit/);
		await expect(
			download(row.arquivo, [{ contentType: 'audio/wav', body: big }], {
				parameters: { maxFileSize: 2 },
			}),
		).rejects.toThrow(/more than 2\.0 MB arrived/);
	});

	it('lets go of a file announced above Max File Size at once, none of it read', async () => {
		const { context, streams } = fakeExecuteFunctions({
			parameters: { ...PARAMETERS, link: row.arquivo },
			items: [{ json: row }],
			responses: [{ ...wav({ 'content-length': String(500 * 1_048_576) }), breaksOff: 'stall' }],
		});
		await expect(router.call(context)).rejects.toThrow(/the file is 500\.0 MB, above the size/);
		expect(streams[0].destroyed).toBe(true);
	});

	it('fails a body that stalls at Options → Timeout', async () => {
		await expect(
			download(row.arquivo, [{ ...wav(), body: Buffer.alloc(5000), breaksOff: 'stall' }], {
				parameters: { options: { timeout: 300 } },
			}),
		).rejects.toThrow(/no answer in time/);
	});

	it.each([
		['larger', Buffer.alloc(50_000, 7), '84'],
		['smaller (an incompressible file)', WAV, String(WAV.length + 20)],
	])(
		'stores a file the server compressed, whose decoded size is %s than its Content-Length',
		async (_size, decoded, compressedLength) => {
			// n8n's client decodes gzip and drops Content-Encoding, but keeps the compressed length.
			const { items } = await download(row.arquivo, [
				{
					body: decoded,
					contentType: 'audio/wav',
					headers: { 'content-length': compressedLength },
				},
			]);
			expect(items[0].binary?.recording).toMatchObject({ bytes: decoded.length });
		},
	);

	const networkError = (code: string) =>
		Object.assign(new Error(`request failed ${code}`), { code });
	const STORAGE = 'https://storage.test/gravacoes/a1.wav';
	it.each([
		['the dialer', 'DEPTH_ZERO_SELF_SIGNED_CERT', row.arquivo, /Ignore SSL Issues/, /Timeout/],
		[
			'another server',
			'DEPTH_ZERO_SELF_SIGNED_CERT',
			STORAGE,
			/storage\.test.*Ignore SSL Issues applies only to the dialer/,
			/Timeout/,
		],
		['the dialer', 'ECONNREFUSED', row.arquivo, /host and the port/, /Timeout/],
		['another server', 'ENOTFOUND', STORAGE, /storage\.test/, /Timeout|credential/],
		['another server', 'ETIMEDOUT', STORAGE, /raise Options → Timeout/, /credential/],
	])(
		'gives a hint that fits a network failure on %s (%s)',
		async (_server, code, link, hint, notHint) => {
			const error = (await download(link, [{ throws: networkError(code) }]).catch(
				(caught: Error) => caught,
			)) as Error & { description?: string };
			expect(error.description).toMatch(hint);
			expect(error.description).not.toMatch(notHint);
		},
	);

	it("fails a body the connection cuts short, as n8n's client reports it", async () => {
		const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
		await expect(download(row.arquivo, [{ ...wav(), breaksOff: aborted }])).rejects.toThrow(
			/\(HTTP 200\): connection closed by the server/,
		);
	});

	it.each([
		[
			'the link',
			'https://s.test/x/chamada.mp3',
			'application/octet-stream',
			'chamada.mp3',
			'audio/mpeg',
		],
		[
			'the type and protocolo',
			'https://s.test/get?id=9',
			'audio/mpeg',
			'20261124000042.mp3',
			'audio/mpeg',
		],
		['neither', 'https://s.test/get', '', '20261124000042.bin', 'application/octet-stream'],
		[
			'the type, not the script a link names',
			'https://s.test/ipbox/download.php?id=9',
			'audio/wav',
			'20261124000042.wav',
			'audio/wav',
		],
		[
			'protocolo, not the page a link names',
			'https://s.test/Gravacao.aspx?id=9',
			'application/octet-stream',
			'20261124000042.bin',
			'application/octet-stream',
		],
		[
			'the link, in a format of telephony servers',
			'https://s.test/rec/2026-11-24/out-42.WAV49',
			'',
			'out-42.WAV49',
			'application/octet-stream',
		],
	])(
		'names the file from %s when the answer has no name',
		async (_from, link, type, name, mime) => {
			const { items } = await download(link, [{ body: WAV, contentType: type }]);
			expect(items[0].binary?.recording).toMatchObject({ fileName: name, mimeType: mime });
		},
	);

	it.each([
		[
			'RFC 5987 (filename*)',
			"attachment; filename*=UTF-8''grava%C3%A7%C3%A3o%20S%C3%A3o%20Jo%C3%A3o.wav",
		],
		// Node reads header bytes as Latin-1: raw UTF-8 in a quoted name arrives as "gravaÃ§Ã£o".
		[
			'raw UTF-8 bytes (as Node hands them over)',
			Buffer.from('attachment; filename="gravação São João.wav"').toString('latin1'),
		],
	])('keeps an accented file name sent as %s', async (_form, disposition) => {
		const { items } = await download(row.arquivo, [wav({ 'content-disposition': disposition })]);
		expect(items[0].binary?.recording.fileName).toBe('gravação São João.wav');
	});

	it("keeps a file name sent as RFC 5987 in ISO-8859-1 (filename*=ISO-8859-1''…)", async () => {
		const { items } = await download(row.arquivo, [
			wav({ 'content-disposition': "attachment; filename*=ISO-8859-1''grava%E7%E3o%2042.wav" }),
		]);
		expect(items[0].binary?.recording.fileName).toBe('gravação 42.wav');
	});

	it('gives a name sent without an extension the extension of its type', async () => {
		const { items } = await download(row.arquivo, [
			wav({ 'content-disposition': 'attachment; filename="20261124000042"' }),
		]);
		expect(items[0].binary?.recording.fileName).toBe('20261124000042.wav');
	});

	it.each([
		['audio/x-gsm', Buffer.alloc(330, 0xd9), '20261124000042.gsm'],
		[
			'audio/x-mpeg',
			Buffer.concat([Buffer.from('ID3'), Buffer.alloc(300, 1)]),
			'20261124000042.mp3',
		],
		[
			'audio/mpeg3',
			Buffer.concat([Buffer.from('ID3'), Buffer.alloc(300, 1)]),
			'20261124000042.mp3',
		],
		[
			'audio/x-mp3',
			Buffer.concat([Buffer.from('ID3'), Buffer.alloc(300, 1)]),
			'20261124000042.mp3',
		],
	])('names a recording a script serves as %s with its extension', async (type, body, name) => {
		const { items } = await download('https://s.test/ipbox/ouvir.php?id=9', [
			{ contentType: type, body },
		]);
		expect(items[0].binary?.recording).toMatchObject({ fileName: name, mimeType: type });
	});

	it('keeps a Latin-1 file name that is not UTF-8 as it came', async () => {
		const disposition = Buffer.from('attachment; filename="gravação.wav"', 'latin1');
		const { items } = await download(row.arquivo, [
			wav({ 'content-disposition': disposition.toString('latin1') }),
		]);
		expect(items[0].binary?.recording.fileName).toBe('gravação.wav');
	});

	it('refuses an empty file answered with 200 (no recording has zero bytes)', async () => {
		await expect(
			download(row.arquivo, [{ contentType: 'audio/wav', body: Buffer.alloc(0) }]),
		).rejects.toThrow(/\(HTTP 200\): received an empty file/);
		await expect(
			download(row.arquivo, [{ ...wav({ 'content-length': '0' }), body: Buffer.alloc(0) }]),
		).rejects.toThrow(/received an empty file/);
	});

	it.each([
		['an ftp link', 'ftp://rec:s3cret@files.test/a1.wav'],
		['a link that is no URL', 'https://rec:s3cret@[bad/a1.wav'],
	])('names %s without the user and password it carries', async (_kind, link) => {
		const error = await download(link, [wav()]).catch((caught: Error) => caught);
		expect(String(error)).toMatch(/not a web link/);
		expect(JSON.stringify(error) + String(error)).not.toContain('s3cret');
	});

	it.each([
		['an object', { url: row.arquivo }],
		['a list', [row.arquivo]],
		['true', true],
	])('refuses %s as the link before any request', async (_kind, link) => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: { ...PARAMETERS, link },
			items: [{ json: row }],
			responses: [wav()],
		});
		await expect(router.call(context)).rejects.toThrow(/Recording Link: is .+, not a link/);
		expect(sent).toEqual([]);
	});

	it.each([
		['text that is no number', '200 MB', '"200 MB"'],
		['true', true, 'true'],
		['an empty expression', null, 'null'],
	])('refuses a Max File Size that is %s, naming what was given', async (_kind, size, shown) => {
		const error = await download(row.arquivo, [wav()], { parameters: { maxFileSize: size } }).catch(
			(caught: Error) => caught,
		);
		expect(String(error)).toContain(`Max File Size (MB): ${shown} is not a positive number`);
	});

	it('takes a Max File Size an expression gives as text', async () => {
		const { items } = await download(row.arquivo, [wav()], { parameters: { maxFileSize: '200' } });
		expect(items[0].binary?.recording).toMatchObject({ mimeType: 'audio/wav' });
	});

	it('refuses an empty link or field name before any request', async () => {
		const empty = await download('  ', [wav()]).catch((caught: Error) => caught);
		expect(String(empty)).toContain('Recording Link: is empty');
		await expect(
			download(row.arquivo, [wav()], { parameters: { binaryPropertyName: ' ' } }),
		).rejects.toThrow(/Put Output File in Field: is empty/);
	});
});

describe.each([
	['filesystem', 'by async iteration, after making its folder'],
	['memory', "by 'data' events alone, as in its default, database and S3 modes"],
] as const)("n8n's %s store, reading %s", (store, _how) => {
	const stop = new AbortController();
	const run = (response: FakeResponse, more: Partial<FakeContextOptions> = {}) => {
		const fake = fakeExecuteFunctions({
			parameters: { ...PARAMETERS, link: row.arquivo },
			items: [{ json: row }],
			responses: [response],
			store,
			...more,
		});
		return { ...fake, result: router.call(fake.context) };
	};
	const LONG = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(200_000, 3)]);

	it("is handed the client's own stream and stores every byte of it", async () => {
		const { result, stored, streams } = run({ body: LONG, contentType: 'audio/wav' });
		const [items] = await result;
		expect(stored[0].body).toBe(streams[0]);
		expect(Buffer.concat(stored[0].taken)).toEqual(LONG);
		expect(items[0].binary?.recording).toMatchObject({ bytes: LONG.length });
	});

	const PAGE = `<html><head><title>Acesso</title></head><body>${'<p>Entrar</p>'.repeat(200)}`;
	it.each([
		['a login page', { contentType: 'text/html', body: PAGE }, /received text\/html/],
		[
			'a page arriving a byte at a time',
			{ contentType: 'application/octet-stream', body: PAGE, chunkBytes: 1 },
			/received a page/,
		],
		['a page shorter than the bytes it is told by', { body: '<p>Entrar</p>' }, /received a/],
		['an empty answer', { contentType: 'audio/wav', body: Buffer.alloc(0) }, /empty file/],
	])('is handed nothing for %s', async (_what, response: FakeResponse, message) => {
		const { result, stored, streams } = run(response);
		await expect(result).rejects.toThrow(message);
		expect(stored).toEqual([]);
		expect(streams[0].destroyed).toBe(true);
	});

	it('stops taking a file that goes past Max File Size, and fails it', async () => {
		const big = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(1_048_576 + 50_000, 1)]);
		const { result, stored, streams } = run(
			{ body: big, contentType: 'audio/wav' },
			{ parameters: { ...PARAMETERS, link: row.arquivo, maxFileSize: 1 } },
		);
		await expect(result).rejects.toThrow(/more than 1\.0 MB arrived/);
		expect(streams[0].destroyed).toBe(true);
		expect(Buffer.concat(stored[0].taken).length).toBeLessThan(big.length);
	});

	it.each([
		['at Options → Timeout', { options: { timeout: 300 } }, undefined, /no answer in time/],
		['when the execution is stopped', {}, stop.signal, /recording of call 20261124000042/],
	])('lets go of a body that stalls midway %s', async (_when, options, cancelSignal, message) => {
		const { result, streams } = run(
			{ ...wav(), body: Buffer.alloc(5000, 7), breaksOff: 'stall' },
			{ parameters: { ...PARAMETERS, link: row.arquivo, ...options }, cancelSignal },
		);
		if (cancelSignal) {
			await untilRead(() => streams[0]);
			stop.abort();
		}
		await expect(result).rejects.toThrow(message);
		expect(streams[0].destroyed).toBe(true);
	});
});
