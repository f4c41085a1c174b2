import { useSyncExternalStore } from 'react';

/*
 * Whether the browser is online, as the app's recovery reads it. The recovery itself is react-query's: its
 * onlineManager listens to the window's `online` and `offline` events, pauses queries and mutations while offline
 * and refetches on reconnect (refetchOnReconnect), and the wizard's progress poll comes back within its 1.5 s
 * interval (hooks/use-generation.ts). The uploads resume on the same `online` event
 * (features/generator/hooks/use-photo-uploads.ts). Reading the same events here keeps what the banner says in step
 * with what the app does. https://tanstack.com/query/v5/docs/reference/onlineManager
 */

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

// navigator.onLine is false only when the browser knows it has no network; true may still mean a dead Wi-Fi, which
// the requests then find out (and retry).
const snapshot = () => navigator.onLine;
// A page rendered at build time is online by definition: nothing offline is rendered into its HTML.
const serverSnapshot = () => true;

/** True while the browser is online; false from its `offline` event until its `online` event. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
