import { gridCellOf, type AggregatedRow, type GridCell, type GridCellNotes, type GridPage } from '@ps/domain';
import type { Ok } from './api-shapes';
import type { RequestOptions, TestServer } from './test-server';

const GRID = '/api/demand-planning/grid';

/** The notes of roll-up cells of the view `query` names (the grid's query string). */
export async function gridNotes(
  server: TestServer,
  query: string,
  cells: GridCell[],
  options?: RequestOptions,
): Promise<GridCellNotes[]> {
  const { status, body } = await server.request<Ok<GridCellNotes[]>>(
    'POST',
    `${GRID}/notes?${query}`,
    { cells },
    options,
  );
  if (status !== 200) throw new Error(`notes of ${query}: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * A grid page as the grid shows it: the page (whose roll-up rows come without notes), then the
 * notes of its roll-up cells read as the grid reads them, each put into its row.
 */
export async function gridPageWithNotes(
  server: TestServer,
  query: string,
  options?: RequestOptions,
): Promise<GridPage> {
  const page = (await server.request<Ok<GridPage>>('GET', `${GRID}?${query}`, undefined, options)).body.data;
  const groups = page.rows.filter((row): row is AggregatedRow => 'recordCount' in row);
  if (groups.length === 0) return page;
  for (const row of groups) if (row.commentCount !== null) throw new Error(`${row.id} came with its notes`);
  const notes = new Map(
    (await gridNotes(server, query, groups.map(gridCellOf), options)).map((n) => [n.id, n]),
  );
  return {
    ...page,
    rows: page.rows.map((row) => ('recordCount' in row ? { ...row, ...notes.get(row.id) } : row)),
  };
}
