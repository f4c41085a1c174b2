import { TriangleAlert } from 'lucide-react';
import { useRouteError } from 'react-router-dom';
import { Button, ButtonLink } from '../components/ui/Button';
import { PageFrame } from './PageFrame';
import { StatusPanel } from './StatusPanel';
import { paths } from '../config/paths';

/** Shown instead of a screen that threw while rendering, so one broken screen never blanks the whole app. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <PageFrame title="Something went wrong">
      <StatusPanel
        icon={TriangleAlert}
        title="Something went wrong"
        actions={
          <>
            <Button onClick={() => window.location.reload()}>Reload the page</Button>
            <ButtonLink to={paths.home.href} variant="secondary">
              Back to home
            </ButtonLink>
          </>
        }
      >
        This page hit an unexpected problem. Reloading usually fixes it.
      </StatusPanel>
    </PageFrame>
  );
}
