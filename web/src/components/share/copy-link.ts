import { showError, showSuccess } from '../../lib/notify';
import { copyToClipboard } from '../../lib/clipboard';

/** Copies a link and says so in a toast, or shows why it could not be copied. */
export async function copyLink(url: string, copiedMessage: string): Promise<void> {
  try {
    await copyToClipboard(url);
  } catch (error) {
    void showError(error);
    return;
  }
  void showSuccess(copiedMessage);
}
