/**
 * Counts what one local HTTP server sees, without touching its code: TCP connections it
 * accepted, requests, and the most connections open at once (the simulator answers each
 * request synchronously, so open connections, not requests in its handler, show how many
 * requests a client had under way). Node publishes accepted sockets and request starts on
 * diagnostics channels, so this works for the in-process simulator as it is.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerTraffic {
	connections: number;
	requests: number;
	maxOpenConnections: number;
}

export class ServerTrafficCounter {
	private traffic: ServerTraffic = { connections: 0, requests: 0, maxOpenConnections: 0 };

	private open = 0;

	private readonly onSocket = (message: unknown) => {
		const { socket } = message as { socket: Socket };
		if (socket.localPort !== this.port) return;
		this.traffic.connections++;
		this.open++;
		this.traffic.maxOpenConnections = Math.max(this.traffic.maxOpenConnections, this.open);
		socket.once('close', () => this.open--);
	};

	private readonly onRequest = (message: unknown) => {
		if ((message as { request: IncomingMessage }).request.socket.localPort === this.port)
			this.traffic.requests++;
	};

	constructor(private readonly port: number) {
		diagnosticsChannel.subscribe('net.server.socket', this.onSocket);
		diagnosticsChannel.subscribe('http.server.request.start', this.onRequest);
	}

	/** What was seen since the last call, and starts counting afresh (open connections stay counted). */
	take(): ServerTraffic {
		const seen = this.traffic;
		this.traffic = { connections: 0, requests: 0, maxOpenConnections: this.open };
		return seen;
	}

	close(): void {
		diagnosticsChannel.unsubscribe('net.server.socket', this.onSocket);
		diagnosticsChannel.unsubscribe('http.server.request.start', this.onRequest);
	}
}
