import type { Share } from '@burrow/protocol';
import { Inbox } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatAbsolute, formatRelative } from '../../lib/format-date';
import './file-request-mark.css';

/**
 * Marks an upload-only link in a list of links: what it is, how many files arrived through it
 * and when the last one came. Nothing for an ordinary link.
 */
export function FileRequestMark({ link, locale }: { link: Share; locale: string }) {
  const { t } = useTranslation();
  if (!link.uploadOnly) return null;
  const count = link.receivedFiles ?? 0;
  const last = link.lastReceivedAt ? new Date(link.lastReceivedAt) : undefined;
  return (
    <span className="file-request-mark">
      <Inbox aria-hidden="true" size={14} />
      <span className="file-request-mark__kind">{t('share.request.mark')}</span>
      <span className="file-request-mark__received">
        {count === 0 || !last ? (
          t('share.request.receivedNone')
        ) : (
          <>
            {t('share.request.received', { count })}
            <span aria-hidden="true"> · </span>
            <time dateTime={last.toISOString()} title={formatAbsolute(last, locale)}>
              {t('share.request.lastReceived', { when: formatRelative(last, locale) })}
            </time>
          </>
        )}
      </span>
    </span>
  );
}
