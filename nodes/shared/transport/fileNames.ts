import type { IBinaryData, IDataObject } from 'n8n-workflow';

/** The name and type of a downloaded file, from the answer first and the link after. */

const TYPES_BY_EXTENSION: Record<string, string> = {
	wav: 'audio/wav',
	mp3: 'audio/mpeg',
	ogg: 'audio/ogg',
	oga: 'audio/ogg',
	opus: 'audio/opus',
	gsm: 'audio/gsm',
	m4a: 'audio/mp4',
	aac: 'audio/aac',
	flac: 'audio/flac',
	webm: 'audio/webm',
};
const EXTENSIONS_BY_TYPE: Record<string, string> = {
	...Object.fromEntries(Object.entries(TYPES_BY_EXTENSION).map(([ext, type]) => [type, ext])),
	'audio/x-wav': 'wav',
	'audio/wave': 'wav',
	'audio/vnd.wave': 'wav',
	// Older names scripts and web servers still send for MP3 and GSM (Asterisk's own format).
	'audio/mp3': 'mp3',
	'audio/x-mp3': 'mp3',
	'audio/mpeg3': 'mp3',
	'audio/x-mpeg': 'mp3',
	'audio/x-mpeg-3': 'mp3',
	'audio/x-gsm': 'gsm',
	'audio/ogg': 'ogg',
};
// Links to a script or page that hands the file out (download.php?id=…) name the script, not it.
const SCRIPT_EXTENSIONS = new Set([
	'php',
	'asp',
	'aspx',
	'jsp',
	'cgi',
	'pl',
	'py',
	'do',
	'htm',
	'html',
]);
// Types that say nothing about the content: the link's extension says more.
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const FALLBACK_TYPE = 'application/octet-stream';

const mediaType = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();

/** Pages and messages, where a file was expected: HTML, JSON, XML, plain text. */
export function isPageType(contentType: string): boolean {
	const type = mediaType(contentType);
	return type.startsWith('text/') || /^application\/(.+\+)?(json|xml|xhtml\+xml)$/.test(type);
}

// The first bytes of the audio formats recordings come in.
const AUDIO_SIGNATURES: Array<[RegExp, string]> = [
	[/^RIFF/, 'audio/wav'],
	[/^(ID3|\u00FF[\u00E0-\u00FF])/, 'audio/mpeg'],
	[/^OggS/, 'audio/ogg'],
	[/^fLaC/, 'audio/flac'],
];

/** The audio type a body's first bytes show, if any. */
export function audioTypeOf(start: Buffer): string | undefined {
	const text = start.subarray(0, 4).toString('latin1');
	return AUDIO_SIGNATURES.find(([signature]) => signature.test(text))?.[1];
}

/** A stored file named and typed anew, by its bytes, when the answer's type was a page's. */
export function relabel(binary: IBinaryData, fileName: string, type: string): void {
	Object.assign(binary, {
		fileName,
		mimeType: type,
		fileExtension: EXTENSIONS_BY_TYPE[type],
		fileType: 'audio',
	});
}

/** A body that starts like a web page or a JSON message, whatever its Content-Type said. */
export function looksLikePage(start: Buffer): boolean {
	// Read as Latin-1, a UTF-8 byte order mark (common before PHP pages) is "\u00EF\u00BB\u00BF".
	return /^(\u00EF\u00BB\u00BF)?\s*(<(!doctype|html|head|body|\?xml)|\{\s*")/i.test(
		start.subarray(0, 64).toString('latin1'),
	);
}

function extensionOf(name: string): string | undefined {
	const match = /\.([a-z0-9]{2,5})$/i.exec(name);
	return match ? match[1].toLowerCase() : undefined;
}

function lastSegment(url: URL): string {
	const segment = url.pathname.split('/').pop() ?? '';
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** Content-Type when it names a type; otherwise from the link's extension. */
export function fileTypeOf(contentType: string, url: URL): string {
	const type = mediaType(contentType);
	if (!GENERIC_TYPES.has(type)) return type;
	return TYPES_BY_EXTENSION[extensionOf(lastSegment(url)) ?? ''] ?? FALLBACK_TYPE;
}

/** RFC 5987's percent-encoded value in its charset: ISO-8859-1 byte by byte, else UTF-8. */
function percentDecoded(value: string, charset: string): string {
	if (charset.toLowerCase() !== 'iso-8859-1') return decodeURIComponent(value);
	return value.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) =>
		String.fromCharCode(parseInt(hex, 16)),
	);
}

/** The file name in a Content-Disposition header (RFC 6266: filename* first), if any. */
export function dispositionName(disposition: string): string | undefined {
	const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(disposition);
	if (extended) {
		try {
			return percentDecoded(extended[2].trim(), extended[1]);
		} catch {
			// Badly encoded: the plain filename below, if any.
		}
	}
	const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(disposition);
	if (!plain) return undefined;
	return fromRawUtf8((plain[2] ?? plain[1]).replace(/\\(.)/g, '$1').trim());
}

/**
 * Node reads header bytes as Latin-1, so a name a server sent as raw UTF-8 ("gravação") arrives as
 * "gravaÃ§Ã£o": read it as UTF-8 again when its bytes are valid UTF-8, else keep it as it came.
 */
export function fromRawUtf8(name: string): string {
	const bytes = Buffer.from(name, 'latin1');
	if (bytes.toString('latin1') !== name || bytes.every((byte) => byte < 0x80)) return name;
	const decoded = bytes.toString('utf8');
	return Buffer.from(decoded, 'utf8').equals(bytes) ? decoded : name;
}

/** No folders, no control characters: a name, never a path. */
function safeName(name: string | undefined): string | undefined {
	const base = (name ?? '')
		.split(/[\\/]/)
		.pop()!
		// eslint-disable-next-line no-control-regex
		.replace(/[\u0000-\u001f\u007f"]/g, '')
		.trim();
	return base === '' || base === '.' || base === '..' ? undefined : base;
}

/**
 * Content-Disposition's name (with the type's extension when it has none), else the link's last
 * segment when it has an extension (not a script's), else `fallback` with the type's extension.
 */
export function fileNameOf(
	headers: IDataObject,
	url: URL,
	fallback: string,
	contentType: string,
): string {
	const typeExtension = EXTENSIONS_BY_TYPE[fileTypeOf(contentType, url)];
	const fromAnswer = safeName(dispositionName(String(headers['content-disposition'] ?? '')));
	if (fromAnswer) {
		// Players and disks go by the extension: "20261124000042" alone opens nowhere.
		return extensionOf(fromAnswer) || !typeExtension
			? fromAnswer
			: `${fromAnswer}.${typeExtension}`;
	}
	const fromLink = safeName(lastSegment(url));
	const linkExtension = fromLink && extensionOf(fromLink);
	if (linkExtension && !SCRIPT_EXTENSIONS.has(linkExtension)) return fromLink;
	return `${safeName(fallback) ?? 'file'}.${typeExtension ?? 'bin'}`;
}
