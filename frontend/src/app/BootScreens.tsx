import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { LogoGlyph } from '../components/ui/BrandMark';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';

/** Shown while `/config.json` loads: the brand and a spinner instead of a blank page. */
export function BootScreen() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-white">
      <LogoGlyph className="size-12" />
      <Spinner className="text-brand-600" label="Loading Headshot Studio…" />
    </div>
  );
}

/** Props of the start-failure screens: `onRetry` asks for the settings again and settles when that has ended. */
export interface StartFailureProps {
  onRetry: () => Promise<unknown>;
}

/** The retry button of both start-failure screens: it spins while the settings are asked for again. */
function RetryButton({ onRetry, className }: StartFailureProps & { className?: string }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <Button
      className={className}
      loading={retrying}
      onClick={() => {
        setRetrying(true);
        void onRetry().finally(() => setRetrying(false));
      }}
    >
      {!retrying && <RefreshCw aria-hidden="true" className="size-4" />}
      Try again
    </Button>
  );
}

/**
 * Shown on an empty page (every path but the prerendered ones) when `/config.json` could not be loaded, even after
 * the retries (lib/runtime-config.ts), or is invalid. Rendered outside the router and providers, so it depends on
 * nothing that configuration would have set up. 'Try again' asks again without reloading the page.
 */
export function ConfigErrorScreen({ onRetry }: StartFailureProps) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <title>Headshot Studio</title>
      <div
        role="alert"
        className="w-full max-w-md rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200 sm:p-10"
      >
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-amber-50 text-amber-700">
          <TriangleAlert aria-hidden="true" className="size-7" />
        </span>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">Something went wrong</h1>
        <p className="mt-3 text-pretty text-slate-600">
          We couldn&apos;t load the app&apos;s settings. Check your connection and try again.
        </p>
        <RetryButton className="mt-8" onRetry={onRetry} />
      </div>
    </main>
  );
}

/**
 * Shown over a page rendered at build time (the landing and pricing pages) when the app could not start there: the
 * page stays as it is, with its links and buttons working without the app (issue 27), and this note at the bottom
 * offers to try again.
 */
export function StartFailureBanner({ onRetry }: StartFailureProps) {
  return (
    <div
      role="alert"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-lg flex-col gap-4 rounded-2xl bg-white p-4 shadow-xl ring-1 ring-slate-200 sm:flex-row sm:items-center sm:p-5"
    >
      <div className="flex flex-1 items-start gap-3">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
        <p className="text-sm text-slate-700">
          <span className="font-semibold text-slate-900">We couldn&apos;t finish loading the page.</span>{' '}
          Check your connection and try again; its links still work.
        </p>
      </div>
      <RetryButton className="shrink-0" onRetry={onRetry} />
    </div>
  );
}
