/**
 * Timezones the date tests run over: without daylight saving time and with it, in both
 * hemispheres, with half- and quarter-hour offsets and Lord Howe's half-hour clock change, from
 * UTC-10 to UTC+14 (dialer and workflow up to 24 hours apart).
 */
export const TEST_ZONES = [
	'UTC',
	'America/Sao_Paulo',
	'America/New_York',
	'America/Santiago',
	'Europe/Berlin',
	'Asia/Kolkata',
	'Asia/Kathmandu',
	'Asia/Tokyo',
	'Australia/Sydney',
	'Australia/Lord_Howe',
	'Pacific/Auckland',
	'Pacific/Honolulu',
	'Pacific/Kiritimati',
];
