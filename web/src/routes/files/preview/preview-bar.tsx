import type { LucideIcon } from 'lucide-react';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export type PreviewAction = {
  id: string;
  label: string;
  icon: LucideIcon;
  /** A link (downloads) rather than a button. */
  href?: string;
  onClick?: () => void;
};

type PreviewBarProps = {
  name: string;
  /** 1-based place among the folder's files, 0 when unknown. */
  position: number;
  count: number;
  actions: PreviewAction[];
  onClose: () => void;
};

/** The bar above a preview: close, the file name with its place in the folder, and the file's actions. */
export function PreviewBar({ name, position, count, actions, onClose }: PreviewBarProps) {
  const { t } = useTranslation();
  return (
    <header className="preview-bar">
      <button type="button" className="icon-button preview-bar__button" onClick={onClose} aria-label={t('preview.close')} title={t('preview.close')}>
        <X aria-hidden="true" size={22} />
      </button>
      <div className="preview-bar__title">
        <h1 className="preview-bar__name" title={name}>
          {name}
        </h1>
        {position > 0 && count > 1 && <span className="preview-bar__counter">{t('preview.position', { position, count })}</span>}
      </div>
      <div className="preview-bar__actions" role="group" aria-label={t('preview.actions')}>
        {actions.map(({ id, label, icon: Icon, href, onClick }) =>
          href ? (
            <a key={id} className="icon-button preview-bar__button" href={href} download aria-label={label} title={label} data-action={id}>
              <Icon aria-hidden="true" size={20} />
            </a>
          ) : (
            <button key={id} type="button" className="icon-button preview-bar__button" onClick={onClick} aria-label={label} title={label} data-action={id}>
              <Icon aria-hidden="true" size={20} />
            </button>
          ),
        )}
      </div>
    </header>
  );
}
