import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community';

/** AG Grid v33+ loads nothing by default; the planning grid uses the community feature set. */
ModuleRegistry.registerModules([AllCommunityModule]);
