import { WifiOff } from 'lucide-react';
import { useOnline } from '../hooks/use-online';

/** The offline banner's texts (docs/product-spec.md §2, "Offline"). */
export const OFFLINE_TEXT = {
  title: "You're offline.",
  body: "We'll carry on where we left off when you're back online.",
} as const;

/**
 * The banner every screen shows while the browser is offline (issue 35 item 4): it says so, and that the work
 * resumes by itself (hooks/use-online.ts says what resumes and how). Gone as soon as the browser is back online.
 * At the bottom, full width on phones, so it covers neither the header nor the wizard's Back; a spacer as tall as
 * it ends the page meanwhile, so the page's last controls (step 1's Continue, step 3's Generate) can still be
 * scrolled above it.
 */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <>
      <div aria-hidden="true" className="h-24 sm:h-20" />
      <div
        role="status"
        data-testid="offline-banner"
        className="fixed inset-x-0 bottom-0 z-50 flex items-start gap-3 bg-slate-900 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] text-sm text-white shadow-lg sm:inset-x-auto sm:bottom-4 sm:left-1/2 sm:max-w-lg sm:-translate-x-1/2 sm:rounded-2xl sm:pb-3"
      >
        <WifiOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
        <p>
          <span className="font-semibold">{OFFLINE_TEXT.title}</span> {OFFLINE_TEXT.body}
        </p>
      </div>
    </>
  );
}
