/**
 * Starts a download without leaving the page: the server answers downloads as attachments, so
 * following a temporary link saves the file and keeps this page where it is.
 */
export function triggerDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
