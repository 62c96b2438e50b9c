/** A small dependency-free SVG line chart: panels of series over a shared style. */

export interface Series {
	name: string;
	color: string;
	points: Array<[number, number]>;
}

export interface Panel {
	title: string;
	xLabel: string;
	yLabel: string;
	logX?: boolean;
	series: Series[];
	/** A horizontal reference line, e.g. a goal. */
	goal?: { y: number; label: string };
}

const WIDTH = 460;
const HEIGHT = 300;
const MARGIN = { left: 60, right: 16, top: 34, bottom: 46 };

const escape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceMax(value: number): number {
	if (!(value > 0)) return 1;
	const magnitude = 10 ** Math.floor(Math.log10(value));
	return (
		[1, 2, 2.5, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= value) ??
		value
	);
}

const formatTick = (value: number) =>
	value >= 1000 ? `${value / 1000}k` : String(Math.round(value * 100) / 100);

function panelSvg(panel: Panel, offsetX: number, offsetY: number): string {
	const xs = panel.series.flatMap((s) => s.points.map(([x]) => x));
	const ys = panel.series
		.flatMap((s) => s.points.map(([, y]) => y))
		.concat(panel.goal ? [panel.goal.y] : []);
	const plotW = WIDTH - MARGIN.left - MARGIN.right;
	const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
	const xMin = panel.logX ? Math.min(...xs) : 0;
	const xMax = Math.max(...xs);
	const yMax = niceMax(Math.max(...ys) * 1.05);
	const x = (value: number) =>
		MARGIN.left +
		(panel.logX
			? (Math.log10(value) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin) || 1)
			: value / (xMax || 1)) *
			plotW;
	const y = (value: number) => MARGIN.top + plotH - (value / yMax) * plotH;
	const xTicks = panel.logX
		? [...new Set(xs)].sort((a, b) => a - b)
		: [0, 0.25, 0.5, 0.75, 1].map((f) => f * xMax);
	const parts: string[] = [
		`<g transform="translate(${offsetX},${offsetY})">`,
		`<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-weight="bold">${escape(panel.title)}</text>`,
		`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
	];
	for (let i = 0; i <= 4; i++) {
		const value = (yMax * i) / 4;
		parts.push(
			`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(value)}" y2="${y(value)}" stroke="#eee"/>`,
			`<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end" font-size="11">${formatTick(value)}</text>`,
		);
	}
	for (const value of xTicks) {
		parts.push(
			`<text x="${x(value)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle" font-size="11">${formatTick(value)}</text>`,
		);
	}
	parts.push(
		`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle" font-size="12">${escape(panel.xLabel)}</text>`,
		`<text transform="translate(14,${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escape(panel.yLabel)}</text>`,
	);
	if (panel.goal) {
		parts.push(
			`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(panel.goal.y)}" y2="${y(panel.goal.y)}" stroke="#c00" stroke-dasharray="4 3"/>`,
			`<text x="${MARGIN.left + plotW - 4}" y="${y(panel.goal.y) - 4}" text-anchor="end" font-size="10" fill="#c00">${escape(panel.goal.label)}</text>`,
		);
	}
	panel.series.forEach((series, index) => {
		const points = [...series.points].sort((a, b) => a[0] - b[0]);
		parts.push(
			`<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ')}"/>`,
			...points.map(
				([px, py]) =>
					`<circle cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="3" fill="${series.color}"/>`,
			),
			`<rect x="${MARGIN.left + 8}" y="${MARGIN.top + 8 + index * 15}" width="10" height="3" fill="${series.color}"/>`,
			`<text x="${MARGIN.left + 22}" y="${MARGIN.top + 13 + index * 15}" font-size="11">${escape(series.name)}</text>`,
		);
	});
	parts.push('</g>');
	return parts.join('\n');
}

/** Panels two per row. */
export function chartSvg(title: string, panels: Panel[]): string {
	const rows = Math.ceil(panels.length / 2);
	const width = WIDTH * 2;
	const height = HEIGHT * rows + 30;
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
		`<rect width="${width}" height="${height}" fill="#fff"/>`,
		`<text x="${width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escape(title)}</text>`,
		...panels.map((panel, index) =>
			panelSvg(panel, (index % 2) * WIDTH, 30 + Math.floor(index / 2) * HEIGHT),
		),
		'</svg>',
		'',
	].join('\n');
}
