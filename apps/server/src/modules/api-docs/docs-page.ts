import { apiDocsEndpoints } from '@ps/domain';
import { escapeHtml } from '../../lib/escape-html';
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from './openapi-document';

const ACCESS_LABELS: Record<OpenApiOperation['x-access'], string> = {
  public: 'public: no sign-in',
  account: 'any signed-in user, even in no group (their own account)',
  'signed-in': 'any signed-in user of a known group',
  write: 'users who may change records',
  admin: 'admins only',
};

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

/** A one-line reading of a parameter's schema: its type, and its choices when it has a few. */
function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(' | ');
  if (typeof schema.type === 'string') return schema.type;
  return Array.isArray(schema.anyOf) ? 'one of several forms' : 'any';
}

function parameterTable(parameters: OpenApiParameter[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'required' : 'optional'}</td><td>${escapeHtml(typeOf(p.schema))}</td><td><details><summary>schema</summary>${json(p.schema)}</details></td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Parameter</th><th>In</th><th></th><th>Type</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationSection(path: string, method: string, operation: OpenApiOperation): string {
  const body = operation.requestBody
    ? `<details><summary>Request body</summary>${json(operation.requestBody.content['application/json']?.schema)}</details>`
    : '';
  const responses = Object.entries(operation.responses)
    .map(([status, response]) => {
      const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
      const schema = content?.schema ? json(content.schema) : '';
      const label = `<span class="status">${status}</span> ${escapeHtml(response.description)}${mediaType ? ` <code>${escapeHtml(mediaType)}</code>` : ''}`;
      return schema ? `<details><summary>${label}</summary>${schema}</details>` : `<p>${label}</p>`;
    })
    .join('');
  return `<section class="operation"><h2><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p>${escapeHtml(operation.summary)}</p><p class="access">Who may call it: ${escapeHtml(ACCESS_LABELS[operation['x-access']])}</p>
${parameterTable(operation.parameters)}${body}<h3>Responses</h3>${responses}</section>`;
}

/**
 * The OpenAPI document as a page: no script and no inline style, so it renders under the app's
 * strict Content-Security-Policy (default-src 'self'); its look comes from the served stylesheet.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => operationSection(path, method, operation)),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(document.info.title)}</title><link rel="stylesheet" href="${apiDocsEndpoints.stylesheet.path}"></head><body><main>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description)} Calls other than public ones send <code>Authorization: Bearer &lt;ID token&gt;</code>. Machine-readable: <a href="${apiDocsEndpoints.openApi.path}">${apiDocsEndpoints.openApi.path}</a>.</p>
${operations.join('\n')}</main></body></html>`;
}
