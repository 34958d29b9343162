/**
 * What a route under the AppLayout can ask of it, through react-router's `handle`:
 * `{ path: '/demand-planning', handle: { hasOwnHeader: true } satisfies AppRouteHandle, … }`.
 */
export type AppRouteHandle = {
  /**
   * The page draws its own header (e.g. demand planning: logo, title, help, Focus View,
   * import/export, <UserMenu/>), so the layout leaves its header out and keeps only the sidebar.
   */
  hasOwnHeader?: boolean;
};

export function hasOwnHeader(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && (handle as AppRouteHandle).hasOwnHeader === true;
}
