import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 18: components render no literal text; every word comes from the catalogues. Looks at JSX
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

describe('no literal text in components', () => {
  it('every .tsx file takes its words from the catalogues', () => {
    expect(tsxFiles(SOURCE).flatMap(literalTextIn)).toEqual([]);
  });
});
