import type { Resource, ResourceItem } from '@burrow/protocol';
import { useQueryClient } from '../../../lib/query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../../lib/router';
import { fetchResource } from '../../../api/resources';
import { findLanguage } from '../../../i18n/languages';
import { filesRoute, parentPath } from '../../../lib/paths';
import { useAppSettings } from '../../../stores/app-settings-store';
import { preselect } from '../../../stores/selection-store';
import { resourceQueryKey } from '../files-path';
import { PreviewBar } from './preview-bar';
import { imageSources, PreviewContent } from './preview-content';
import { usePreviewActions } from './use-preview-actions';
import { useNeighbours } from './use-neighbours';
import { useSwipe } from './use-swipe';
import './preview-view.css';

/** Keys meant for the focused control rather than for paging through files. */
function isOwnedByControl(target: EventTarget | null): boolean {
  return target instanceof Element && Boolean(target.closest('input, textarea, select, video, audio, [contenteditable="true"]'));
}

/**
 * Shows a file that is not edited as text: image, video, audio, PDF or a card. Arrow keys, the
 * side buttons and touch swipes page through the folder's files (neighbours are fetched ahead);
 * Escape or close goes back to the folder with this file selected. The bar offers info, rename,
 * delete, download and share.
 */
export default function PreviewView({ file }: { file: Resource }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useAppSettings((state) => state.settings);
  const { previous, next, position, count, names } = useNeighbours(file);
  const sectionRef = useRef<HTMLElement>(null);
  const isRtl = findLanguage(i18n.language).rtl;

  const folder = parentPath(file.path);
  const goTo = useCallback((item: ResourceItem | undefined) => item && navigate(filesRoute(item.path), { replace: true }), [navigate]);
  const close = useCallback(
    (selected?: string) => {
      // The listing keeps a selection inside the folder it shows, and scrolls to it.
      if (selected) preselect(selected);
      navigate(filesRoute(folder));
    },
    [navigate, folder],
  );
  const closeHere = useCallback(() => close(file.path), [close, file.path]);
  const actions = usePreviewActions(file, { previous, next, close, goTo, siblings: names });

  // Reading order decides which arrow and swipe means "next".
  const step = useCallback(
    (direction: 'left' | 'right') => goTo((direction === 'right') !== isRtl ? next : previous),
    [goTo, isRtl, next, previous],
  );
  const swipe = useCallback((direction: 'left' | 'right') => step(direction === 'left' ? 'right' : 'left'), [step]);
  const stageSwipe = useSwipe(swipe);

  useEffect(() => {
    sectionRef.current?.focus({ preventScroll: true });
  }, []);

  // Registered during the commit (a layout effect), so a key pressed the moment a step shows the
  // next file already acts on that file, not on the one before.
  useLayoutEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isOwnedByControl(event.target)) return;
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        step(event.key === 'ArrowRight' ? 'right' : 'left');
      } else if (event.key === 'Escape') {
        event.preventDefault();
        closeHere();
      } else if (event.key === 'Delete') {
        const remove = actions.find((action) => action.id === 'delete');
        if (remove?.onClick) {
          event.preventDefault();
          remove.onClick();
        }
      }
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [step, closeHere, actions]);

  // Fetch the neighbours ahead, so stepping shows them at once.
  useEffect(() => {
    for (const item of [next, previous]) {
      if (!item) continue;
      void queryClient.prefetchQuery({ queryKey: resourceQueryKey(item.path), queryFn: ({ signal }) => fetchResource(item.path, signal) });
      if (item.type === 'image') {
        new Image().src = imageSources(item, settings).displayUrl;
      }
    }
  }, [next, previous, queryClient, settings]);

  const PreviousIcon = isRtl ? ChevronRight : ChevronLeft;
  const NextIcon = isRtl ? ChevronLeft : ChevronRight;

  return (
    <section ref={sectionRef} className="preview" aria-label={file.name} tabIndex={-1} data-type={file.type}>
      <PreviewBar name={file.name} position={position} count={count} actions={actions} onClose={closeHere} />
      <div className="preview__stage" {...(file.type === 'image' ? {} : stageSwipe)}>
        <PreviewContent key={file.path} file={file} onSwipe={swipe} />
        {previous && (
          <button type="button" className="preview__nav preview__nav--previous" onClick={() => goTo(previous)} aria-label={t('preview.previous')} title={t('preview.previous')}>
            <PreviousIcon aria-hidden="true" size={28} />
          </button>
        )}
        {next && (
          <button type="button" className="preview__nav preview__nav--next" onClick={() => goTo(next)} aria-label={t('preview.next')} title={t('preview.next')}>
            <NextIcon aria-hidden="true" size={28} />
          </button>
        )}
      </div>
    </section>
  );
}
