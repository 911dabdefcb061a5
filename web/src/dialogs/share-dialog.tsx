import type { Share } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../lib/query';
import { Plus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createShare, deleteShare, fetchLinks, shareLinkUrl } from '../api/shares';
import { isApiError } from '../api/api-error';
import { copyLink } from '../components/share/copy-link';
import { ShareFormFields, type ShareFormValues } from '../components/share/share-form-fields';
import { FileRequestFields } from '../components/share/file-request-fields';
import { emptyFileRequestForm, readFileRequestForm, type FileRequestFormValues } from '../components/share/file-request-limits';
import { useSession } from '../stores/session-store';
import { ShareLinkList } from '../components/share/share-link-list';
import { DefaultShareUnit, MaxDuration, parseDuration, sortLinks } from '../components/share/share-links';
import { currentLocaleTag } from '../i18n/i18n';
import { showError } from '../lib/notify';
import { useAppSettings } from '../stores/app-settings-store';
import { openDialog } from '../stores/dialog-store';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, ShareDialogProps } from './dialog-types';
import './share-dialog.css';

const emptyForm: ShareFormValues = { duration: '0', unit: DefaultShareUnit, password: '' };

function shareLinksQueryKey(path: string) {
  return ['share-links', path] as const;
}

/**
 * The share dialog: the item's links (permanent first, then by expiry) with copy and delete,
 * and a form for a new link. With no links the form shows at once; deleting the last link
 * returns to it; creating a link shows the list with the new link and resets the form.
 */
export default function ShareDialog({ item, onClose }: ShareDialogProps & DialogControls) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const baseURL = useAppSettings((state) => state.settings.BaseURL);
  const idPrefix = useId();
  const newButtonId = `${idPrefix}-new`;
  const durationId = `${idPrefix}-duration`;
  const links = useQuery({
    queryKey: shareLinksQueryKey(item.path),
    queryFn: ({ signal }) => fetchLinks(item.path, signal),
    staleTime: 0,
  });
  // Undefined until the user picks a view: then the list shows when there are links.
  const [chosenView, setChosenView] = useState<'list' | 'form'>();
  const [form, setForm] = useState<ShareFormValues>(emptyForm);
  const [durationError, setDurationError] = useState('');
  const [requestForm, setRequestForm] = useState<FileRequestFormValues>(emptyFileRequestForm);
  const [requestInvalid, setRequestInvalid] = useState<keyof FileRequestFormValues>();
  // Upload-only links are for folders the user may add files to.
  const canCreate = useSession((state) => state.user?.perm.create ?? false);
  const canRequestUploads = item.isDir && canCreate;
  const [isBusy, setBusy] = useState(false);
  // The element to focus once the next view is on screen (the one holding focus may be gone).
  const [focusId, setFocusId] = useState<string>();

  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(undefined);
  }, [focusId]);

  const sorted = sortLinks(links.data ?? []);
  const view = chosenView === 'form' || (links.isSuccess && sorted.length === 0) ? 'form' : 'list';

  // The frame focused its only button while loading: once loaded, focus the view's first control.
  const isLoaded = links.isSuccess;
  useEffect(() => {
    if (isLoaded) setFocusId(view === 'form' ? durationId : newButtonId);
    // Only when loading ends: later view changes pick their own focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [isLoaded]);
  const locale = currentLocaleTag();
  const urlOf = (hash: string) => shareLinkUrl(hash, baseURL);

  const storeLinks = (update: (current: Share[]) => Share[]) => {
    queryClient.setQueryData<Share[]>(shareLinksQueryKey(item.path), (current) => update(current ?? []));
    // The share management screen lists every link: it must not show a stale list.
    void queryClient.invalidateQueries({ queryKey: ['shares'] });
  };

  const handleCreate = async () => {
    if (isBusy) return;
    const duration = parseDuration(form.duration);
    if (duration === undefined) {
      setDurationError(t('shareDialog.durationInvalid', { max: MaxDuration }));
      return;
    }
    setDurationError('');
    let request: ReturnType<typeof readFileRequestForm> | undefined;
    if (canRequestUploads && requestForm.uploadOnly) {
      request = readFileRequestForm(requestForm);
      if ('invalid' in request) {
        setRequestInvalid(request.invalid);
        return;
      }
    }
    setRequestInvalid(undefined);
    setBusy(true);
    try {
      const created = await createShare(item.path, {
        expires: duration,
        unit: form.unit,
        password: form.password.trim(),
        request: request && 'limits' in request ? request.limits : undefined,
      });
      storeLinks((current) => [...current.filter((link) => link.hash !== created.hash), created]);
      setForm(emptyForm);
      setRequestForm(emptyFileRequestForm);
      setChosenView('list');
      setFocusId(`${idPrefix}-${created.hash}-copy`);
    } catch (error) {
      void showError(error);
    } finally {
      setBusy(false);
    }
  };

  const handleDelete = (link: Share) => {
    openDialog('share-delete', {
      onConfirm: async () => {
        await deleteShare(link.hash);
        const remaining = sorted.filter((other) => other.hash !== link.hash);
        storeLinks((current) => current.filter((other) => other.hash !== link.hash));
        if (remaining.length === 0) {
          setChosenView('form');
          setFocusId(durationId);
        } else {
          setFocusId(newButtonId);
        }
      },
    });
  };

  const title = t('shareDialog.title', { name: item.name || '/' });

  if (links.isPending || links.isError) {
    const message = isApiError(links.error) ? links.error.message : String(links.error ?? '');
    return (
      <DialogFrame
        title={title}
        actions={
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('shareDialog.close')}
          </button>
        }
      >
        {links.isPending ? (
          <div className="share-dialog__loading" role="status">
            <div className="spinner" aria-hidden="true" />
            <span className="visually-hidden">{t('common.loading')}</span>
          </div>
        ) : (
          <p role="alert">{message}</p>
        )}
      </DialogFrame>
    );
  }

  if (view === 'list') {
    return (
      <DialogFrame
        title={title}
        actions={
          <>
            <button type="button" className="button button--ghost" onClick={onClose}>
              {t('shareDialog.close')}
            </button>
            <button
              type="button"
              id={newButtonId}
              className="button button--primary"
              onClick={() => {
                setChosenView('form');
                setFocusId(durationId);
              }}
            >
              <Plus aria-hidden="true" size={18} />
              {t('shareDialog.new')}
            </button>
          </>
        }
      >
        <ShareLinkList
          links={sorted}
          urlOf={urlOf}
          locale={locale}
          idPrefix={idPrefix}
          onCopy={(link) => void copyLink(urlOf(link.hash), t('share.linkCopied'))}
          onDelete={handleDelete}
        />
      </DialogFrame>
    );
  }

  return (
    <DialogFrame
      title={title}
      onSubmit={() => void handleCreate()}
      actions={
        <>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              if (sorted.length === 0) {
                onClose();
                return;
              }
              setChosenView('list');
              setDurationError('');
              setFocusId(newButtonId);
            }}
          >
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {t('shareDialog.create')}
          </button>
        </>
      }
    >
      <ShareFormFields durationId={durationId} values={form} onChange={setForm} durationError={durationError} />
      {canRequestUploads && <FileRequestFields values={requestForm} onChange={setRequestForm} invalid={requestInvalid} />}
    </DialogFrame>
  );
}
