import { AllCommunityModule, ModuleRegistry, provideGlobalGridOptions } from 'ag-grid-community';
import { cspStyleNonce } from '@/lib/content-security';

/** AG Grid v33+ loads nothing by default; the planning grid uses the community feature set. */
ModuleRegistry.registerModules([AllCommunityModule]);
// Its theme arrives as <style> elements, which the CSP allows only with the page's nonce.
provideGlobalGridOptions({ styleNonce: cspStyleNonce() });
