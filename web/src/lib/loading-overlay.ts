const LoadingOverlayId = 'loading';
const FadeDuration = 200;

/** Fades the start-up overlay from index.html out and removes it 200 ms later. */
export function hideLoadingOverlay(doc: Document = document): void {
  const overlay = doc.getElementById(LoadingOverlayId);
  if (!overlay || overlay.classList.contains('done')) return;
  overlay.classList.add('done');
  setTimeout(() => overlay.remove(), FadeDuration);
}
