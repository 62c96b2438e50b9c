/** A throwaway self-signed certificate for 127.0.0.1 and localhost, as on-premise dialers often have. */
import { generate } from 'selfsigned';

export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
	const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
		keyType: 'ec',
		algorithm: 'sha256',
		notAfterDate: new Date(Date.now() + 7 * 86_400_000),
		extensions: [
			{ name: 'basicConstraints', cA: false },
			{ name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
			{ name: 'extKeyUsage', serverAuth: true },
			{
				name: 'subjectAltName',
				altNames: [
					{ type: 2, value: 'localhost' },
					{ type: 7, ip: '127.0.0.1' },
					{ type: 7, ip: '::1' },
				],
			},
		],
	});
	return { key: pems.private, cert: pems.cert };
}
