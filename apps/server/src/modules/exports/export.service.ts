import type { GridExportQuery } from '@ps/domain';
import type { AccessScope } from '../../lib/access';
import { csvHeader, csvRow, exportColumns } from './export-csv';
import type { PlanningGridService } from '../planning-grid';

/** Rows per database read while exporting: bounded memory, few round trips. */
export const EXPORT_PAGE_SIZE = 2000;

/**
 * The grid's CSV, produced page by page in grid order so that a 3-million-row export never sits in
 * memory (PGlite has no cursors, so pages are read with the grid's own paging).
 */
export class ExportService {
  constructor(
    private readonly grid: PlanningGridService,
    private readonly pageSize = EXPORT_PAGE_SIZE,
  ) {}

  async *csv(scope: AccessScope, query: GridExportQuery): AsyncGenerator<string> {
    const columns = exportColumns(query.viewLevel, query.drillDown);
    const filters = this.grid.filtersOf(scope, query);
    // A byte-order mark lets spreadsheet programs read the UTF-8 (Naïve_…) correctly.
    yield `\uFEFF${csvHeader(columns)}`;
    for (let offset = 0; ; offset += this.pageSize) {
      const { rows, total } = await this.grid.rows({
        viewLevel: query.viewLevel,
        drillDown: query.drillDown,
        filters,
        offset,
        limit: this.pageSize,
      });
      if (rows.length > 0) yield rows.map((row) => csvRow(columns, row)).join('');
      if (rows.length < this.pageSize || offset + rows.length >= total) return;
    }
  }
}
