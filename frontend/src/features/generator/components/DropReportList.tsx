import { AlertTriangle, X } from 'lucide-react';
import { DROP_REPORT_TEXT, type DropReport } from '../utils/drop-report';

/** Props of {@link DropReportList}. */
export interface DropReportListProps {
  /** What the picks since the last dismissal added and left out; nothing is shown for null. */
  report: DropReport | null;
  onDismiss: () => void;
}

/**
 * Under step 1's dropzone (docs/product-spec.md §5 "Refused files, listed"; issue 35 item 4): '1 photo added, 3 not
 * added', the rule's sentence when one applies, and each file left out with its reason, until the customer taps
 * Dismiss. The live region is always there, so a screen reader hears the list when a pick fills it.
 */
export function DropReportList({ report, onDismiss }: DropReportListProps) {
  return (
    <div aria-live="polite">
      {report && (
        <section
          aria-labelledby="drop-report-title"
          className="mt-4 rounded-2xl bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200"
          data-testid="drop-report"
        >
          <div className="flex items-start gap-3">
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
            <div className="min-w-0 flex-1">
              <h2 id="drop-report-title" className="font-semibold">
                {DROP_REPORT_TEXT.title(report.added, report.refused.length)}
              </h2>
              {report.note && <p className="mt-1">{report.note}</p>}
              <ul className="mt-2 list-disc space-y-1 pl-5 break-words" aria-label="Files not added">
                {report.refused.map((file, i) => (
                  <li key={`${i}-${file.name}`}>{file.reason}</li>
                ))}
              </ul>
            </div>
            <button
              type="button"
              onClick={onDismiss}
              aria-label={DROP_REPORT_TEXT.dismissLabel}
              className="-m-1 flex min-h-9 shrink-0 items-center gap-1 rounded-full px-2.5 py-1.5 text-xs font-semibold text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-amber-700"
            >
              <X aria-hidden="true" className="size-4" />
              {DROP_REPORT_TEXT.dismiss}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
