import { ZGridExportQuerySchema } from '../planning-grid';
import { defineEndpoint } from './endpoint';

export const exportEndpoints = {
  gridCsv: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/export.csv',
    access: 'signed-in',
    summary: 'The grid at a view level and drill-down, filtered, every page, as a CSV file',
    query: ZGridExportQuerySchema,
    response: { mediaType: 'text/csv' },
  }),
};
