import type { ReactNode } from 'react';

/**
 * A form field's label, and its hint under it when there is one: the hint's id is `<htmlFor>-hint`, for the field's
 * `aria-describedby`. The field itself follows, as the caller writes it.
 */
export function FieldLabel({
  htmlFor,
  hint,
  className = '',
  children,
}: {
  htmlFor: string;
  hint?: ReactNode;
  /** Spacing above the label (e.g. `mt-5`). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={htmlFor} className={`${className} block text-sm font-semibold text-slate-900`.trim()}>
        {children}
      </label>
      {hint !== undefined && (
        <p id={`${htmlFor}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
    </>
  );
}
