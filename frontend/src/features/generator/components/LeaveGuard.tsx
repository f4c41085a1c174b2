import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

/**
 * Asks before the browser's Back (or Forward) button leaves the wizard while photos are uploaded: leaving discards
 * them and the choices (`onDiscard`), staying keeps everything. Links inside the app (Buy More, the credits badge)
 * are not asked about: the wizard's draft brings everything back when the person returns.
 */
export function LeaveGuard({ photoCount, onDiscard }: { photoCount: number; onDiscard: () => void }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation, historyAction }) =>
      photoCount > 0 && historyAction === 'POP' && nextLocation.pathname !== currentLocation.pathname,
  );
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title="Leave the generator?"
      confirmLabel="Discard and leave"
      onCancel={() => blocker.reset()}
      onConfirm={() => {
        onDiscard();
        blocker.proceed();
      }}
    >
      Your {photoCount} uploaded {photoCount === 1 ? 'photo' : 'photos'} and your style and background choices
      will be discarded.
    </ConfirmDialog>
  );
}
