import { Compass } from 'lucide-react';
import { useLocation } from 'react-router-dom';
import { ButtonLink } from '../components/ui/Button';
import { PageFrame } from './PageFrame';
import { StatusPanel } from './StatusPanel';
import { paths } from '../config/paths';

/** Any path no screen claims. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <PageFrame title="Page not found">
      <StatusPanel
        icon={Compass}
        eyebrow="404"
        title="Page not found"
        actions={
          <>
            <ButtonLink to={paths.home.href}>Back to home</ButtonLink>
            <ButtonLink to={paths.pricing.href} variant="secondary">
              See pricing
            </ButtonLink>
          </>
        }
      >
        We couldn&apos;t find{' '}
        <code className="rounded bg-slate-100 px-1.5 py-0.5 text-sm break-all">{pathname}</code>. It may have
        moved, or the link may be mistyped.
      </StatusPanel>
    </PageFrame>
  );
}
