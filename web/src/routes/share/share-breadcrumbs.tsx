import { ChevronRight, House } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { shareRoute } from './share-location';
import './share-breadcrumbs.css';

/** More than this many folders deep, only the last ones show, after an ellipsis. */
const VisibleSegments = 3;

type ShareBreadcrumbsProps = {
  hash: string;
  /** Decoded path inside the share. */
  path: string;
  /** Name of the shared folder, when known. */
  rootName?: string;
};

/** Where the visitor is inside a shared folder, each step a link back up. */
export function ShareBreadcrumbs({ hash, path, rootName }: ShareBreadcrumbsProps) {
  const { t } = useTranslation();
  const segments = path.split('/').filter(Boolean);
  const crumbs = segments.map((name, index) => ({
    name,
    path: `/${segments.slice(0, index + 1).join('/')}/`,
    isCurrent: index === segments.length - 1,
  }));
  const hidden = crumbs.length > VisibleSegments;
  const shown = hidden ? crumbs.slice(-VisibleSegments) : crumbs;
  return (
    <nav className="share-crumbs" aria-label={t('share.breadcrumbs')}>
      <ol>
        <li>
          <Link to={shareRoute(hash, '/')} className="share-crumbs__root">
            <House aria-hidden="true" size={16} />
            <span>{rootName || t('share.root')}</span>
          </Link>
        </li>
        {hidden && (
          <li aria-hidden="true" className="share-crumbs__gap">
            <ChevronRight size={14} />…
          </li>
        )}
        {shown.map((crumb) => (
          <li key={crumb.path}>
            <ChevronRight aria-hidden="true" size={14} />
            {crumb.isCurrent ? (
              <span aria-current="page">{crumb.name}</span>
            ) : (
              <Link to={shareRoute(hash, crumb.path)}>{crumb.name}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
