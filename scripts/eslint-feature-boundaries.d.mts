import type { ESLint } from 'eslint';

export function featureBoundariesPlugin(featuresDir: string): ESLint.Plugin;
