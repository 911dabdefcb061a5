/**
 * Puts text on the clipboard. The clipboard API comes first; when it refuses, the write
 * permission is requested and the copy retried once. Where the API is missing (plain HTTP on
 * another host) a hidden text field and the copy command do it. Rejects when nothing worked.
 */
export async function copyText(text: string): Promise<void> {
  const clipboard = navigator.clipboard as Clipboard | undefined;
  let failure: unknown = new Error('the clipboard is not available');
  if (clipboard?.writeText) {
    try {
      await clipboard.writeText(text);
      return;
    } catch (error) {
      failure = error;
    }
    if (await askWritePermission()) {
      try {
        await clipboard.writeText(text);
        return;
      } catch (error) {
        failure = error;
      }
    }
  }
  if (copyThroughTextField(text)) return;
  throw failure instanceof Error ? failure : new Error(String(failure));
}

async function askWritePermission(): Promise<boolean> {
  try {
    const status = await navigator.permissions?.query({ name: 'clipboard-write' as PermissionName });
    return status !== undefined && status.state !== 'denied';
  } catch {
    // Browsers that do not know the permission name throw: there is nothing to ask.
    return false;
  }
}

function copyThroughTextField(text: string): boolean {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const field = document.createElement('textarea');
  field.value = text;
  field.readOnly = true;
  field.setAttribute('aria-hidden', 'true');
  Object.assign(field.style, { position: 'fixed', top: '0', opacity: '0' });
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
  focused?.focus();
  return copied;
}
