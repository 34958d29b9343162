import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  LargeTextEditorModule,
  ModuleRegistry,
  RenderApiModule,
  RowSelectionModule,
  SelectEditorModule,
  TextEditorModule,
  TooltipModule,
  provideGlobalGridOptions,
} from 'ag-grid-community';
import { cspStyleNonce } from '@/lib/content-security';

/**
 * AG Grid v33+ loads nothing by default. Only the features the planning grid uses are registered
 * (sorting, pinning, resizing and column moves are in its core): the whole community set made the
 * planning page's chunk 1.25 MB, this one about 0.95 MB (the first load). A feature
 * used without its module logs AG Grid error #200 naming the module to add here.
 */
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  TextEditorModule,
  SelectEditorModule,
  LargeTextEditorModule,
  CellStyleModule,
  TooltipModule,
  RowSelectionModule,
  ColumnApiModule,
  // api.getColumnState (sort changes) and api.refreshCells (edit markers).
  RenderApiModule,
]);
// Its theme arrives as <style> elements, which the CSP allows only with the page's nonce.
provideGlobalGridOptions({ styleNonce: cspStyleNonce() });
