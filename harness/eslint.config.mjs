// The harness runs on Node, never inside n8n: the package's TypeScript rules, no n8n rules.
import tseslint from 'typescript-eslint';

import { typescript } from '../eslint.config.mjs';

export default tseslint.config({ ignores: ['node_modules/**'] }, ...typescript);
