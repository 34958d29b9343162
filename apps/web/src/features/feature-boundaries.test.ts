import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { featureBoundariesPlugin } from '../../../../scripts/eslint-feature-boundaries.mjs';

const features = fileURLToPath(new URL('.', import.meta.url));
const config = [
  {
    files: ['**/*.ts'],
    plugins: { local: featureBoundariesPlugin(features) },
    rules: { 'local/no-relative-feature-internals': 'error' },
  },
] as Linter.Config[];

/** The rule's findings for `code` linted as the file at `path` under apps/web/src. */
const findings = (path: string, code: string) =>
  new Linter({ configType: 'flat' })
    .verify(code, config, { filename: fileURLToPath(new URL(`../${path}`, import.meta.url)) })
    .map((m) => `${m.line}: ${m.message}`);

describe('relative imports across web features', () => {
  it("refuses another feature's files, from a feature and from outside the features", () => {
    const code =
      "import { a } from '../../demand-planning/utils/edit-values';\nexport const b = () => import('../../settings/hooks/x');\n";
    expect(findings('features/auth/utils/sign-in.ts', code)).toEqual([
      "1: Import another feature through its index ('@/features/demand-planning'), never its files.",
      "2: Import another feature through its index ('@/features/settings'), never its files.",
    ]);
    expect(findings('i18n/x.test.ts', "import { a } from '../features/auth/utils/sign-in-error';\n")).toEqual(
      ["1: Import another feature through its index ('@/features/auth'), never its files."],
    );
  });

  it("lets a feature use its own files and another feature's index", () => {
    const code = [
      "import { a } from '../hooks/useAuth';",
      "import { b } from '../../demand-planning';",
      "import { c } from '../../demand-planning/index';",
      "export { d } from './sign-in-error';",
      "import { e } from '../../../lib/format';",
    ].join('\n');
    expect(findings('features/auth/utils/sign-in.ts', code)).toEqual([]);
  });
});
