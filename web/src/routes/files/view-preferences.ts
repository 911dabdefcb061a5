import type { Sorting } from '@burrow/protocol';
import { updateUser } from '../../api/users';
import { nextViewMode, normaliseViewMode, type ViewMode } from '../../components/listing/listing-model';
import { showError } from '../../lib/notify';
import { useSession } from '../../stores/session-store';
import { reloadListings } from './file-operations';

/**
 * Switches to the next view at once, saves it to the profile (`which: ["viewMode"]`) and
 * refreshes the listing. The server then asks for a token renewal, which carries the new view
 * into later page loads. A failed save puts the previous view back.
 */
export async function cycleViewMode(): Promise<void> {
  const user = useSession.getState().user;
  if (!user) return;
  const previous = normaliseViewMode(user.viewMode);
  const next: ViewMode = nextViewMode(previous);
  const setViewMode = (viewMode: string) => useSession.setState((state) => (state.user ? { user: { ...state.user, viewMode } } : state));
  setViewMode(next);
  try {
    await updateUser(user.id, { viewMode: next }, ['viewMode']);
    await reloadListings();
  } catch (error) {
    setViewMode(previous);
    void showError(error);
  }
}

/** Saves the sorting to the profile (`which: ["sorting"]`); the server sorts the refreshed listing. */
export async function saveSorting(sorting: Sorting): Promise<void> {
  const user = useSession.getState().user;
  if (!user) return;
  await updateUser(user.id, { sorting }, ['sorting']);
  await reloadListings();
}
