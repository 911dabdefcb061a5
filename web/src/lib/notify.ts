import { whenToasterReady } from '../components/feedback/toaster-host';
import { i18next } from '../i18n/i18n';
import { appSettings } from '../stores/app-settings-store';
import { isCancelled } from '../api/api-error';

const SuccessToastDuration = 4000;

async function loadToast() {
  const [{ toast }] = await Promise.all([import('sonner'), whenToasterReady()]);
  return toast;
}

/** A success message that disappears after 4 seconds. */
export async function showSuccess(message: string): Promise<void> {
  const toast = await loadToast();
  toast.success(message, { duration: SuccessToastDuration });
}

/**
 * An error message that stays until dismissed, with a report-issue button unless external
 * links are disabled. Cancelled requests are not errors and show nothing.
 */
export async function showError(error: unknown): Promise<void> {
  if (isCancelled(error)) return;
  const message = error instanceof Error ? error.message : String(error);
  const { DisableExternal, IssuesURL } = appSettings();
  const showReport = !DisableExternal && IssuesURL !== '';
  const toast = await loadToast();
  toast.error(message, {
    duration: Number.POSITIVE_INFINITY,
    action: showReport
      ? { label: i18next.t('toasts.reportIssue'), onClick: () => window.open(IssuesURL, '_blank', 'noopener,noreferrer') }
      : undefined,
  });
}
