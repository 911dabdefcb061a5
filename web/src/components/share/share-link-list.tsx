import type { Share } from '@burrow/protocol';
import { Copy, KeyRound, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatAbsolute, formatRelative } from '../../lib/format-date';
import { FileRequestMark } from './file-request-mark';
import './share-link-list.css';

type ShareLinkListProps = {
  /** Already sorted. */
  links: Share[];
  /** The public address of a link. */
  urlOf: (hash: string) => string;
  locale: string;
  onCopy: (link: Share) => void;
  onDelete: (link: Share) => void;
  /** Id prefix for the rows' buttons, so the dialog can move focus to them. */
  idPrefix: string;
};

/** Existing links of an item: the hash (opening the link), its expiry, copy and delete buttons. */
export function ShareLinkList({ links, urlOf, locale, onCopy, onDelete, idPrefix }: ShareLinkListProps) {
  const { t } = useTranslation();
  return (
    <ul className="share-links" aria-label={t('shareDialog.links')}>
      {links.map((link) => {
        const describedBy = `${idPrefix}-${link.hash}-text`;
        const expiry = link.expire === 0 ? undefined : new Date(link.expire * 1000);
        return (
          <li key={link.hash} className="share-links__row">
            <div className="share-links__text" id={describedBy}>
              <a className="share-links__hash" href={urlOf(link.hash)} target="_blank" rel="noopener noreferrer">
                {link.hash}
              </a>
              <span className="share-links__expiry">
                {link.hasPassword && (
                  <>
                    <KeyRound aria-hidden="true" size={14} />
                    <span className="visually-hidden">{t('shareDialog.protected')}</span>
                  </>
                )}
                {expiry ? (
                  <time dateTime={expiry.toISOString()} title={formatAbsolute(expiry, locale)}>
                    {t('shareDialog.expires', { when: formatRelative(expiry, locale) })}
                  </time>
                ) : (
                  t('shareDialog.permanent')
                )}
              </span>
              <FileRequestMark link={link} locale={locale} />
            </div>
            <button
              type="button"
              id={`${idPrefix}-${link.hash}-copy`}
              className="icon-button"
              aria-label={t('shareDialog.copyLink')}
              aria-describedby={describedBy}
              title={t('shareDialog.copyLink')}
              onClick={() => onCopy(link)}
            >
              <Copy aria-hidden="true" size={18} />
            </button>
            <button
              type="button"
              className="icon-button share-links__delete"
              aria-label={t('shareDialog.deleteLink')}
              aria-describedby={describedBy}
              title={t('shareDialog.deleteLink')}
              onClick={() => onDelete(link)}
            >
              <Trash2 aria-hidden="true" size={18} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
