import { useEffect, useState } from 'react';
import { LogoGlyph } from '../../../components/ui/BrandMark';
import { Spinner } from '../../../components/ui/Spinner';
import { ACCOUNT_DRAFT_TEXT, accountDraft } from '../utils/account-draft';
import { GeneratorPage } from './GeneratorPage';

/**
 * `/generator` as the router opens it: a tab without a draft of its own (a reopened browser, another device) first
 * fetches the draft kept with the account (utils/account-draft.ts), so the wizard opens on the photos, choices and
 * step left there (docs/product-spec.md §2 "Generator wizard", issue 35 item 4); a tab with its own draft opens at
 * once. Render it inside `RequireAuth`.
 */
export function GeneratorRoute() {
  const [ready, setReady] = useState(() => accountDraft.openTabDraft());
  useEffect(() => {
    if (ready) return;
    const controller = new AbortController();
    void accountDraft.resume(controller.signal).then(() => {
      if (!controller.signal.aborted) setReady(true);
    });
    return () => controller.abort();
  }, [ready]);

  if (ready) return <GeneratorPage />;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-5 bg-slate-50 px-4 text-center">
      <LogoGlyph className="size-12" />
      <Spinner className="text-brand-600" label={ACCOUNT_DRAFT_TEXT.resuming} />
    </div>
  );
}
