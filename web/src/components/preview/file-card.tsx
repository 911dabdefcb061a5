import { ArrowUp, Download, File } from 'lucide-react';
import { Link } from '../../lib/router';
import type { ReactNode } from 'react';
import './file-card.css';

type FileCardProps = {
  name: string;
  /** Labelled facts about the file (size, modified, type). */
  details: Array<{ label: string; value: ReactNode }>;
  /** Why the file is not shown (too large, no preview for this type …). */
  message?: string;
  /** Present only when the user may download. */
  download?: { url: string; label: string };
  icon?: ReactNode;
  /** A way back to the folder holding the file. */
  back?: { to: string; label: string; onClick?: () => void };
};

/** A file that is not displayed itself: its name, facts, a note and a download button. */
export function FileCard({ name, details, message, download, icon, back }: FileCardProps) {
  return (
    <div className="file-card">
      <div className="file-card__icon" aria-hidden="true">
        {icon ?? <File size={56} strokeWidth={1.25} />}
      </div>
      <h2 className="file-card__name">{name}</h2>
      {message && <p className="file-card__message">{message}</p>}
      <dl className="file-card__details">
        {details.map((detail) => (
          <div key={detail.label} className="file-card__detail">
            <dt>{detail.label}</dt>
            <dd>{detail.value}</dd>
          </div>
        ))}
      </dl>
      <div className="file-card__actions">
        {download && (
          <a className="button button--primary" href={download.url} download>
            <Download aria-hidden="true" size={18} />
            {download.label}
          </a>
        )}
        {back && (
          <Link className="button" to={back.to} onClick={back.onClick}>
            <ArrowUp aria-hidden="true" size={18} />
            {back.label}
          </Link>
        )}
      </div>
    </div>
  );
}
