/**
 * The team generation this browser started for each team (issue 37), kept in `localStorage` per account so the
 * member's team page can list its headshots for sharing: the API's gallery says which headshots are shared, not
 * which were made for the team. Never throws (storage blocked: nothing remembered).
 */

const KEY = 'hs.team-generations';

type Store = Pick<Storage, 'getItem' | 'setItem'>;
const storage = (): Store | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

function read(store: Store | undefined): Record<string, string> {
  try {
    const parsed = JSON.parse(store?.getItem(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Remembers that `sub` started `generationId` for `teamId`. */
export function rememberTeamGeneration(
  sub: string | null,
  teamId: string,
  generationId: string,
  store: Store | undefined = storage(),
): void {
  if (!sub) return;
  try {
    store?.setItem(KEY, JSON.stringify({ ...read(store), [`${sub}/${teamId}`]: generationId }));
  } catch {
    // Not remembered: see above.
  }
}

/** The generation `sub` started for `teamId` in this browser, if any. */
export function teamGenerationOf(
  sub: string | null,
  teamId: string,
  store: Store | undefined = storage(),
): string | null {
  if (!sub) return null;
  const id = read(store)[`${sub}/${teamId}`];
  return typeof id === 'string' && id ? id : null;
}
