/**
 * Sends this tab to another site (the hosted checkout page). A separate module so tests can replace it: jsdom's
 * `window.location` cannot be spied on.
 */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
