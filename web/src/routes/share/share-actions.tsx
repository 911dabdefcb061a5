import { CircleCheck, Download, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { TopBarActions } from '../../components/layout/top-bar-slot';

type ShareActionsProps = {
  selectedCount: number;
  /** Offer "copy download link" (one file in view or selected). */
  canCopyLink: boolean;
  /** Offer "select multiple" (folders only). */
  canSelect: boolean;
  isMultiple: boolean;
  onDownload: () => void;
  onCopyLink: () => void;
  onToggleMultiple: () => void;
};

/** The share page's header buttons: download the selection (with its count), copy link, select multiple. */
export function ShareActions(props: ShareActionsProps) {
  const { selectedCount, canCopyLink, canSelect, isMultiple, onDownload, onCopyLink, onToggleMultiple } = props;
  const { t } = useTranslation();
  return (
    <TopBarActions>
      {selectedCount > 0 && (
        <button
          type="button"
          className="icon-button share-action"
          aria-label={t('share.downloadSelected', { selected: selectedCount })}
          title={t('share.download')}
          onClick={onDownload}
        >
          <Download aria-hidden="true" size={20} />
          <span className="share-action__counter" aria-hidden="true">
            {selectedCount}
          </span>
        </button>
      )}
      {canCopyLink && (
        <button type="button" className="icon-button" aria-label={t('share.copyDownloadLink')} title={t('share.copyDownloadLink')} onClick={onCopyLink}>
          <Link2 aria-hidden="true" size={20} />
        </button>
      )}
      {canSelect && (
        <button
          type="button"
          className={isMultiple ? 'icon-button share-action share-action--on' : 'icon-button share-action'}
          aria-label={t('share.selectMultiple')}
          aria-pressed={isMultiple}
          title={t('share.selectMultiple')}
          onClick={onToggleMultiple}
        >
          <CircleCheck aria-hidden="true" size={20} />
        </button>
      )}
    </TopBarActions>
  );
}
