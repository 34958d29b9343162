import { z } from 'zod';
import { ZGridExportQuerySchema, ZGridQuerySchema } from '../planning-grid';
import { XLSX_MEDIA_TYPE, defineEndpoint } from './endpoint';

/** Template Download: the view level and drill-down only name the file (spec §9). */
export const ZTemplateQuerySchema = z.object({
  viewLevel: ZGridQuerySchema.shape.viewLevel,
  drillDown: ZGridQuerySchema.shape.drillDown,
});
export type TemplateQuery = z.infer<typeof ZTemplateQuerySchema>;

export const exportEndpoints = {
  gridCsv: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/export.csv',
    access: 'signed-in',
    summary: 'The grid at a view level and drill-down, filtered, every page, as a CSV file',
    query: ZGridExportQuerySchema,
    response: { mediaType: 'text/csv' },
  }),
  gridXlsx: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/export.xlsx',
    access: 'signed-in',
    summary:
      'Quick Export: the grid at a view level and drill-down, filtered, every page, as an Excel workbook (streamed)',
    query: ZGridExportQuerySchema,
    response: { mediaType: XLSX_MEDIA_TYPE },
  }),
  detailedXlsx: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/export-detailed.xlsx',
    access: 'signed-in',
    summary:
      'Detailed Export: one row per SKU with quarterly, monthly and weekly forecast and override columns, a summary and an import template',
    query: ZGridExportQuerySchema,
    response: { mediaType: XLSX_MEDIA_TYPE },
  }),
  templateXlsx: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/import-template.xlsx',
    access: 'signed-in',
    summary: 'Template Download: the import template with its instructions',
    query: ZTemplateQuerySchema,
    response: { mediaType: XLSX_MEDIA_TYPE },
  }),
};
