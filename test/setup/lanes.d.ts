/** Types of lanes.js, which jest.config.js requires as plain JavaScript. */
export const ALL: boolean;
export const lanes: Record<string, Array<[project: string, files: string[], atOnce: number]>>;
export const suites: { e2e: string[]; n8n1: string[]; queueMode: string[] };
