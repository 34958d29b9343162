import { dirname, relative, resolve, sep } from 'node:path';

/**
 * A web feature reaches another only through its index. The import patterns of eslint.config.js
 * see `@/features/x/file` but not relative paths (`../../x/file`): this rule resolves each relative
 * import against the importing file and refuses a path into another feature's folder other than
 * its index. `featuresDir` is the absolute path of apps/web/src/features.
 */
export function featureBoundariesPlugin(featuresDir) {
  const featureOf = (path) => {
    const inside = relative(featuresDir, path);
    if (inside === '' || inside.startsWith('..')) return null;
    const [feature, ...rest] = inside.split(sep);
    const isIndex = rest.length === 0 || (rest.length === 1 && /^index(\.tsx?)?$/.test(rest[0]));
    return { feature, isIndex };
  };
  return {
    rules: {
      'no-relative-feature-internals': {
        meta: {
          type: 'problem',
          messages: {
            internals:
              "Import another feature through its index ('@/features/{{feature}}'), never its files.",
          },
        },
        create(context) {
          const own = featureOf(context.filename)?.feature ?? null;
          const check = (source) => {
            if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
            const target = featureOf(resolve(dirname(context.filename), source.value));
            if (target && target.feature !== own && !target.isIndex)
              context.report({ node: source, messageId: 'internals', data: { feature: target.feature } });
          };
          return {
            ImportDeclaration: (node) => check(node.source),
            ImportExpression: (node) => check(node.source),
            ExportNamedDeclaration: (node) => check(node.source),
            ExportAllDeclaration: (node) => check(node.source),
          };
        },
      },
    },
  };
}
