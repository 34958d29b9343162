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
  /**
   * The page says itself when its first content is on screen (lib/first-screen.ts), e.g. the
   * planning page once its grid's first rows are drawn; otherwise the layout says it once the
   * page has rendered and the browser is idle.
   */
  marksFirstScreen?: boolean;
};

export function hasOwnHeader(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && (handle as AppRouteHandle).hasOwnHeader === true;
}

export function marksFirstScreen(handle: unknown): boolean {
  return (
    typeof handle === 'object' && handle !== null && (handle as AppRouteHandle).marksFirstScreen === true
  );
}
