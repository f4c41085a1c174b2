import { RefreshCw, TriangleAlert } from 'lucide-react';
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

/**
 * Shown when `/config.json` could not be loaded or is invalid. Rendered outside the router and providers, so it
 * depends on nothing that configuration would have set up.
 */
export function ConfigErrorScreen() {
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
          We couldn&apos;t load the app&apos;s settings. Please refresh the page.
        </p>
        <Button className="mt-8" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Refresh the page
        </Button>
      </div>
    </main>
  );
}
