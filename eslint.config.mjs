import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;
const nodeCode = ['nodes/**/*.ts', 'credentials/**/*.ts'];

/** Everything written in TypeScript: the usual correctness rules (harness/ lints with them too). */
export const typescript = tseslint.config({
	files: ['**/*.ts'],
	extends: [js.configs.recommended, tseslint.configs.recommended],
	languageOptions: { globals: globals.node },
	rules: {
		'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
	},
});

export default tseslint.config(
	// harness/ lints itself, with its own eslint.config.mjs (`npm run --workspace harness lint`).
	{ ignores: ['node_modules/**', 'coverage/**', 'dist/**/*.d.ts', 'dist/**/*.map', 'harness/**'] },

	...typescript,

	// What ships: n8n's community rules, its base node and credential rules, and no console.
	{
		files: nodeCode,
		extends: [communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { 'no-console': 'error' },
	},
	// Prettier's width, tabs counted as 2, for what we ship: prettier leaves long strings and
	// comments alone, so this catches them.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		// An import cannot be wrapped: a long relative path is the only thing allowed past the width.
		rules: {
			'max-len': ['error', { code: 100, tabWidth: 2, ignorePattern: "^import .* from '[^']+';$" }],
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The documentation link is a full URL, which this older rule mistakes for a slug.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Our nodes are programmatic with typed options; the base plugin's regular-node checks predate NodeConnectionTypes.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		files: ['package.json'],
		extends: [communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		rules: n8nNodesBase.configs.community.rules,
	},

	// The built package as n8n's scanner sees it.
	{
		files: ['dist/**/*.js'],
		extends: [communityRecommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: { 'no-console': 'error' },
	},

	// Tests and scripts run on Node, never inside n8n.
	{
		files: ['test/**/*.ts', 'scripts/**/*.ts'],
		rules: { 'no-console': 'off' },
	},
	{
		files: ['*.js', 'test/**/*.js'],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
	},
);
