import { randomUUID } from 'crypto';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

// Arrays this shallow are split: a bare list of rows, `data`, `data.chamadas`. Deeper ones
// belong to a row and are parsed with it.
const SPLIT_DEPTH = 3;
// Elements waiting to be parsed, in bytes: about 65 JSON.parse calls for a 100,000-row report
// (64 MB). Inside n8n this measured faster than 64 KB or 256 KB batches, for the same memory.
const DEFAULT_BATCH_BYTES = 1 << 20;
// A batch with no element in it: `[` and `]` around JSON whitespace.
const NO_ELEMENT = /^\[[ \t\n\r]*\]$/;
// Where one object element ends and the next begins, in compact JSON.
const SEAM = Buffer.from('},{');
// Batches skimmed without a seam before the byte scan takes over (rows that are no objects).
const SKIM_LIMIT = 4;
const OPEN_BYTES = Buffer.from('[');

/**
 * JSON.parse for an answer that arrives in chunks, without ever holding its whole text. A
 * 100,000-row report is tens of MB of UTF-8 and twice that as a JavaScript string; here the rows
 * of the arrays near the top are parsed a megabyte at a time while the answer arrives, and
 * the rest of the text (the envelope around them) is parsed at the end with those arrays put back.
 *
 * The result is what JSON.parse gives for the whole text, and invalid text throws a SyntaxError
 * as JSON.parse does (a leading UTF-8 byte order mark is allowed, as servers send one).
 */
export class ChunkedJsonParser {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Depth around the array being split, or -1 while none is. */
	private splitBase = -1;
	/** The text outside split arrays, each of them replaced by a marker string. */
	private readonly outline: Buffer[] = [];
	/** Each split array, as the batches of elements parsed so far. */
	private readonly arrays: unknown[][][] = [];
	/**
	 * Bytes of whole elements of the array being split (plus the one still arriving), after the
	 * `[` they are parsed in.
	 */
	private batch: Buffer[] = [OPEN_BYTES];
	private waitingBytes = 0;
	private flushedElements = false;
	/** The split array's bytes are being cut without the byte scan (see skim). */
	private skimming = false;
	private readonly marker = `\u0000split-array-${randomUUID()}-`;

	/** `batchBytes`: how many bytes of elements to parse at once (tests make it tiny). */
	constructor(private readonly batchBytes = DEFAULT_BATCH_BYTES) {}

	push(chunk: Buffer): void {
		if (this.skimming) this.skim(chunk);
		else this.scan(chunk);
	}

	/** Reads the bytes one by one, keeping track of strings and depth. */
	private scan(chunk: Buffer): void {
		// Locals, not fields, in the per-byte loop: it runs once per byte of the answer.
		let { depth, inString, escaped, splitBase } = this;
		let segmentStart = 0;
		const length = chunk.length;
		for (let index = 0; index < length; index++) {
			let byte = chunk[index];
			if (inString) {
				if (escaped) {
					escaped = false;
					continue;
				}
				// Most of a report's bytes are inside strings: skip to the next quote or backslash.
				while (byte !== QUOTE && byte !== BACKSLASH && ++index < length) byte = chunk[index];
				if (index === length) break;
				if (byte === BACKSLASH) escaped = true;
				else inString = false;
				continue;
			}
			if (byte === QUOTE) {
				inString = true;
			} else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
				if (byte === OPEN_ARRAY && splitBase < 0 && depth < SPLIT_DEPTH) {
					this.outline.push(Buffer.from(chunk.subarray(segmentStart, index)));
					this.outline.push(Buffer.from(JSON.stringify(`${this.marker}${this.arrays.length}`)));
					this.arrays.push([]);
					// Its elements are cut without reading them byte by byte while that works.
					Object.assign(this, { depth: depth + 1, inString, escaped, splitBase: depth });
					this.skimming = true;
					this.skim(chunk.subarray(index + 1));
					return;
				}
				depth++;
			} else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
				depth--;
				if (depth < 0) throw new SyntaxError(`Unexpected "${String.fromCharCode(byte)}" in JSON`);
				if (depth === splitBase) {
					if (byte !== CLOSE_ARRAY) throw new SyntaxError('Unexpected "}" in JSON array');
					this.addToBatch(chunk.subarray(segmentStart, index));
					this.parseBatch(true);
					splitBase = -1;
					segmentStart = index + 1;
				}
			} else if (
				byte === COMMA &&
				splitBase >= 0 &&
				depth === splitBase + 1 &&
				this.waitingBytes + index - segmentStart >= this.batchBytes
			) {
				this.addToBatch(chunk.subarray(segmentStart, index));
				this.parseBatch(false);
				segmentStart = index + 1;
			}
		}
		if (segmentStart < chunk.length) {
			const rest = chunk.subarray(segmentStart);
			if (splitBase >= 0) this.addToBatch(rest);
			else this.outline.push(Buffer.from(rest));
		}
		Object.assign(this, { depth, inString, escaped, splitBase });
	}

	/** The parsed value, once every chunk has been pushed. */
	end(): unknown {
		while (this.skimming) this.rescan(Buffer.alloc(0));
		if (this.inString || this.depth !== 0 || this.splitBase >= 0) {
			// Marked for the error message: an answer cut short, not one that is no JSON.
			throw Object.assign(new SyntaxError('Unexpected end of JSON input'), { unfinished: true });
		}
		const text = Buffer.concat(this.outline)
			.toString('utf8')
			.replace(/^\uFEFF/, '');
		if (this.arrays.length === 0) return JSON.parse(text);
		const { marker } = this;
		// Batches joined by one native copy; pushing 100,000 values one by one costs more.
		const arrays = this.arrays.map((batches) => ([] as unknown[]).concat(...batches));
		return JSON.parse(text, (key, value: unknown) => {
			// An array where a key belongs (`{[1]: 2}`) is not JSON, though its marker is a string.
			if (key.startsWith(marker)) throw new SyntaxError('Unexpected "[" in JSON object key');
			return typeof value === 'string' && value.startsWith(marker)
				? arrays[Number(value.slice(marker.length))]
				: value;
		});
	}

	/**
	 * Bytes of the split array from an element boundary on, not read byte by byte: the batch is
	 * cut at the first `},{` past the batch size, found natively. JSON.parse proves each cut: `[`,
	 * the bytes up to the `}`, `]` parse only if the comma is between elements, outside any string.
	 * When one does not parse (a `},{` inside a string, an invalid answer, the array's end) or no
	 * `},{` comes, the byte scan reads this array's rest from the boundary, as it would have.
	 */
	private skim(chunk: Buffer): void {
		let start = 0;
		for (;;) {
			const from = start + Math.max(0, this.batchBytes - this.waitingBytes);
			const seam = from < chunk.length ? chunk.indexOf(SEAM, from) : -1;
			if (seam < 0) break;
			this.addToBatch(chunk.subarray(start, seam + 1));
			if (!this.parseWhole()) return this.rescan(chunk.subarray(seam + 1));
			start = seam + 2;
		}
		if (start < chunk.length) this.addToBatch(chunk.subarray(start));
		if (this.waitingBytes > SKIM_LIMIT * this.batchBytes) this.rescan(Buffer.alloc(0));
	}

	/** Hands the bytes skimmed since the last cut, then `rest`, to the byte scan. */
	private rescan(rest: Buffer): void {
		const skimmed = this.batch.slice(1);
		this.batch = [OPEN_BYTES];
		this.waitingBytes = 0;
		this.skimming = false;
		for (const bytes of [...skimmed, rest]) this.push(bytes);
	}

	/** Parses the batch into the split array if it is whole elements; false (batch kept) if not. */
	private parseWhole(): boolean {
		let elements: unknown[];
		try {
			elements = JSON.parse(this.batchText()) as unknown[];
		} catch {
			return false;
		}
		this.arrays[this.arrays.length - 1].push(elements);
		this.batch = [OPEN_BYTES];
		this.waitingBytes = 0;
		this.flushedElements = true;
		return true;
	}

	/**
	 * The batch as text, in brackets. Each piece is decoded on its own (a character split between
	 * two network chunks is joined by the streaming decoder) and the strings are joined, not the
	 * bytes: a joined megabyte of bytes, and the megabyte string Node makes of it outside V8's heap,
	 * are memory V8 only frees in a full collection; these pieces go in its young generation.
	 */
	private batchText(): string {
		const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
		let text = '';
		for (const piece of this.batch) text += decoder.decode(piece, { stream: true });
		return `${text}${decoder.decode()}]`;
	}

	private addToBatch(bytes: Buffer): void {
		// A view, not a copy: it keeps its network chunk alive only until the batch is parsed, and
		// the batch holds those bytes anyway.
		this.batch.push(bytes);
		this.waitingBytes += bytes.length;
	}

	/** Parses the whole elements in the batch into the array being split. */
	private parseBatch(arrayEnds: boolean): void {
		const text = this.batchText();
		this.batch = [OPEN_BYTES];
		this.waitingBytes = 0;
		if (NO_ELEMENT.test(text)) {
			// `[]` is an empty array; `[1,]`, `[,` and `[1,,` are not JSON.
			if (arrayEnds && !this.flushedElements) return;
			throw new SyntaxError('Unexpected "," in JSON array');
		}
		this.arrays[this.arrays.length - 1].push(JSON.parse(text) as unknown[]);
		this.flushedElements = !arrayEnds;
	}
}
