import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Components render no literal text; every word comes from the catalogues. Looks at JSX
 * text, string literals in JSX expressions, and the props a person reads or hears.
 */
const SOURCE = join(import.meta.dirname, '..');
const READ_PROPS = new Set([
  'title',
  'aria-label',
  'placeholder',
  'alt',
  'label',
  'description',
  'aria-valuetext',
  'message',
]);
/** Text that is no language: brand names, symbols. */
const NOT_LANGUAGE = new Set(['Planning Suite', 'CIRCOR', 'OptiChain']);
const hasWords = (text: string) => /\p{L}{2,}/u.test(text) && !NOT_LANGUAGE.has(text.trim());

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceDir(entry.name) ? tsxFiles(path) : [];
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });
}
const sourceDir = (name: string) => name !== 'locales' && name !== '__tests__';

function literalTextIn(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: string[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push(
      `${relative(SOURCE, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} "${text.trim()}"`,
    );
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_PROPS.has(node.name.getText())) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value) && hasWords(value.text)) report(node, value.text);
    }
    if (ts.isJsxExpression(node) && node.expression && isTextLiteral(node.expression) && isRead(node))
      report(node, node.expression.getText());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Children are read; of the props, only those named above (not ids, test ids or class names). */
function isRead(node: ts.JsxExpression): boolean {
  return !ts.isJsxAttribute(node.parent) || READ_PROPS.has(node.parent.name.getText());
}

const FALLBACK_OPERATORS = new Set([
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
]);

function isTextLiteral(node: ts.Expression): boolean {
  // `{busy ? 'Saving...' : label}` and `{name ?? 'None'}` render their literal branch too.
  if (ts.isConditionalExpression(node)) return isTextLiteral(node.whenTrue) || isTextLiteral(node.whenFalse);
  if (ts.isBinaryExpression(node) && FALLBACK_OPERATORS.has(node.operatorToken.kind))
    return isTextLiteral(node.left) || isTextLiteral(node.right);
  if (ts.isParenthesizedExpression(node)) return isTextLiteral(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text);
  if (ts.isTemplateExpression(node))
    return hasWords(node.head.text) || node.templateSpans.some((span) => hasWords(span.literal.text));
  return false;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceDir(entry.name) ? tsFiles(path) : [];
    return /(?<!\.test|\.d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Sentences in plain .ts files that never reach the screen, each with why. Everything else with
 * two words or more (and any wording handed to toast(), alert() or an Error) must come from the
 * catalogues.
 */
const NOT_SHOWN: Record<string, string[]> = {
  // Programming errors: a hook used outside its provider.
  'features/auth/hooks/useAuth.ts': ['useAuth must be used within an AuthProvider'],
  'lib/settings/useUserSettings.ts': ['useUserSettings must be used inside <UserSettingsProvider>'],
  // Spec §8's error_description in the /?error= address; signInErrorMessage shows it translated.
  'features/auth/utils/callback-flow.ts': ['Please sign in again', 'Token exchange failed: '],
  'features/auth/utils/sign-in-error.ts': ['/^Token exchange failed: /'],
  // The cell's state, looked up in DATE_MARKER_KEYS for its catalogue text.
  'features/demand-planning/utils/date-markers.ts': ['Parse Error', 'Corrupted Date', 'Invalid Date'],
  // Matched against a browser's TypeError message, not shown.
  'features/errors/retry-policy.ts': ['map is not a function'],
  // The domain schemas' rule wording, matched to a catalogue sentence by ruleMessage.
  'features/demand-planning/utils/edit-values.ts': ['${column} ', 'must be a number', 'must be text'],
  // Logged by the callback, which then carries on without groups (spec §4).
  'lib/auth/groups.ts': [' claim is not a list'],
  // Spec §6's stored default role; roleText shows it in the interface language.
  'features/auth/utils/auth-user.ts': ['Demand Planner'],
};

const SENTENCE = /\p{L}{2,}\s+\p{L}{2,}/u;
/** Calls whose text argument a user reads. */
const SHOWN_CALLS = /^(toast|window\.alert|alert|window\.confirm|confirm)$|Error$/;

function literalSentencesIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const allowed = NOT_SHOWN[relative(SOURCE, file)] ?? [];
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
    if (ts.isCallExpression(node) && node.expression.getText().startsWith('console.')) return;
    const text =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)
        ? node.text
        : undefined;
    if (text !== undefined && !allowed.includes(text) && (SENTENCE.test(text) || isShownArgument(node)))
      found.push(
        `${relative(SOURCE, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} "${text}"`,
      );
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** One word handed straight to alert() or new Error(), or as toast({ title, description }), is read too. */
function isShownArgument(node: ts.Node): boolean {
  if (!/\p{L}{2,}/u.test(node.getText())) return false;
  let parent = node.parent;
  if (ts.isPropertyAssignment(parent)) {
    if (!['title', 'description'].includes(parent.name.getText())) return false;
    parent = parent.parent.parent;
  }
  if (!ts.isCallExpression(parent) && !ts.isNewExpression(parent)) return false;
  return parent.arguments?.[0] !== undefined && SHOWN_CALLS.test(parent.expression.getText());
}

describe('no literal text in components', () => {
  it('every .tsx file takes its words from the catalogues', () => {
    expect(tsxFiles(SOURCE).flatMap(literalTextIn)).toEqual([]);
  });

  it('every .ts file takes the sentences it shows from the catalogues', () => {
    expect(tsFiles(SOURCE).flatMap(literalSentencesIn)).toEqual([]);
  });

  it('allows only sentences that are still there', () => {
    const stale = Object.entries(NOT_SHOWN).flatMap(([file, texts]) => {
      const content = readFileSync(join(SOURCE, file), 'utf8');
      return texts.filter((text) => !content.includes(text)).map((text) => `${file} "${text}"`);
    });
    expect(stale).toEqual([]);
  });
});
