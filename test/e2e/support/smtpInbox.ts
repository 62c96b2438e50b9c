/**
 * A local SMTP server for e2e tests: accepts any message on 127.0.0.1 (no TLS, no login) and keeps
 * each one parsed, so a test can read what n8n's Send Email node sent.
 */
import type { AddressInfo } from 'node:net';

import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export class SmtpInbox {
	private constructor(
		private readonly server: SMTPServer,
		readonly port: number,
		/** Every message received, parsed, in order of arrival. */
		readonly messages: ParsedMail[],
	) {}

	static async start(): Promise<SmtpInbox> {
		const messages: ParsedMail[] = [];
		const server = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS', 'AUTH'],
			logger: false,
			onData(stream, _session, callback) {
				simpleParser(stream).then(
					(mail) => {
						messages.push(mail);
						callback();
					},
					(error: Error) => callback(error),
				);
			},
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => resolve());
		});
		return new SmtpInbox(server, (server.server.address() as AddressInfo).port, messages);
	}

	/** The SMTP credential of n8n's Send Email node for this server. */
	get credentialData(): Record<string, unknown> {
		return {
			host: '127.0.0.1',
			port: this.port,
			secure: false,
			disableStartTls: true,
			user: '',
			password: '',
		};
	}

	/** The next message after the first `seen`, once it has arrived. */
	async message(seen: number, timeoutMs = 10_000): Promise<ParsedMail> {
		const deadline = Date.now() + timeoutMs;
		while (this.messages.length <= seen) {
			if (Date.now() > deadline) throw new Error(`no e-mail within ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		return this.messages[seen];
	}

	close(): Promise<void> {
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}
