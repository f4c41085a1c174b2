import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** Props of {@link StatusPanel}. */
export interface StatusPanelProps {
  icon: LucideIcon;
  /** Small label above the title, e.g. "Coming next" or "404". */
  eyebrow?: string;
  title: string;
  children: ReactNode;
  /** Buttons or links under the text. */
  actions?: ReactNode;
}

/** A centred card with an icon, a heading, a sentence and actions: placeholder, not-found and error screens. */
export function StatusPanel({ icon: Icon, eyebrow, title, children, actions }: StatusPanelProps) {
  return (
    <div className="w-full max-w-lg rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200 sm:p-12">
      <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      {eyebrow && (
        <p className="mt-6 text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
      )}
      <h1 className="mt-2 font-display text-2xl font-bold tracking-tight text-balance text-slate-900 sm:text-3xl">
        {title}
      </h1>
      <div className="mt-4 text-pretty text-slate-600">{children}</div>
      {actions && <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{actions}</div>}
    </div>
  );
}
