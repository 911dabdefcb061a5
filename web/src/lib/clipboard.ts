/**
 * Copies text to the clipboard. The asynchronous clipboard API is tried first; when the browser
 * refuses (some want the clipboard-write permission asked for explicitly), the permission is
 * requested and the copy tried once more. Pages served over plain HTTP from another host have no
 * clipboard API at all: there a temporary text field and `execCommand('copy')` do the job.
 * Rejects when every way failed, so the caller can show the error.
 */
export async function copyToClipboard(text: string): Promise<void> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  let failure: unknown = new Error('the clipboard is not available');
  if (clipboard?.writeText) {
    try {
      await clipboard.writeText(text);
      return;
    } catch (error) {
      failure = error;
    }
    if (await requestWritePermission()) {
      try {
        await clipboard.writeText(text);
        return;
      } catch (error) {
        failure = error;
      }
    }
  }
  if (copyWithTextField(text)) return;
  throw failure instanceof Error ? failure : new Error(String(failure));
}

/** Asks for the clipboard-write permission; true unless the browser says it is denied. */
async function requestWritePermission(): Promise<boolean> {
  try {
    const status = await navigator.permissions?.query({ name: 'clipboard-write' as PermissionName });
    return status ? status.state !== 'denied' : false;
  } catch {
    // Browsers that do not know this permission name throw; nothing more can be asked.
    return false;
  }
}

function copyWithTextField(text: string): boolean {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.setAttribute('aria-hidden', 'true');
  field.style.position = 'fixed';
  field.style.insetBlockStart = '0';
  field.style.opacity = '0';
  document.body.append(field);
  field.focus();
  field.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  field.remove();
  previous?.focus();
  return copied;
}
