import { ChevronRight, House } from 'lucide-react';
import type { DragEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { canDropInto, itemsOfDrag } from './drag-items';

export type Crumb = { name: string; path: string };

/** Folders leading to `path` (`/a/b/c` → /a/, /a/b/, /a/b/c/); a file path ends with the file. */
export function crumbsOf(path: string): Crumb[] {
  const segments = path.split('/').filter(Boolean);
  const isFolder = path.endsWith('/');
  return segments.map((name, index) => ({
    name,
    path: '/' + segments.slice(0, index + 1).join('/') + (index < segments.length - 1 || isFolder ? '/' : ''),
  }));
}

/** More than three segments: only the last three show, led by an ellipsis. */
const VisibleCrumbs = 3;

export function collapseCrumbs(crumbs: Crumb[]): { hidden: Crumb[]; shown: Crumb[] } {
  if (crumbs.length <= VisibleCrumbs) return { hidden: [], shown: crumbs };
  return { hidden: crumbs.slice(0, -VisibleCrumbs), shown: crumbs.slice(-VisibleCrumbs) };
}

type BreadcrumbsProps = {
  path: string;
  hrefOf: (path: string) => string;
  /** Items dragged onto a folder of the trail are moved there; absent without the permission. */
  onDropItems?: (folder: string, paths: string[]) => void;
};

function dropProps(folder: string, onDropItems: BreadcrumbsProps['onDropItems']) {
  if (!onDropItems) return {};
  const accepts = (event: DragEvent) => {
    const paths = itemsOfDrag(event);
    return paths && canDropInto(folder, paths) ? paths : null;
  };
  return {
    onDragOver: (event: DragEvent) => {
      if (!accepts(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      event.currentTarget.classList.add('is-drop-target');
    },
    onDragLeave: (event: DragEvent) => event.currentTarget.classList.remove('is-drop-target'),
    onDrop: (event: DragEvent) => {
      event.currentTarget.classList.remove('is-drop-target');
      const paths = accepts(event);
      if (!paths) return;
      event.preventDefault();
      onDropItems(folder, paths);
    },
  };
}

/** The trail from the home folder to the folder or file on screen. */
export function Breadcrumbs({ path, hrefOf, onDropItems }: BreadcrumbsProps) {
  const { t } = useTranslation();
  const crumbs = crumbsOf(path);
  const { hidden, shown } = collapseCrumbs(crumbs);
  const deepestHidden = hidden[hidden.length - 1];
  const separator: ReactNode = <ChevronRight className="breadcrumbs__separator" aria-hidden="true" size={16} />;
  return (
    <nav className="breadcrumbs" aria-label={t('listing.breadcrumbs')}>
      <ol>
        <li>
          <Link
            to={hrefOf('/')}
            className="breadcrumbs__link breadcrumbs__home"
            aria-label={t('listing.homeCrumb')}
            title={t('listing.homeCrumb')}
            aria-current={crumbs.length === 0 ? 'page' : undefined}
            {...dropProps('/', onDropItems)}
          >
            <House aria-hidden="true" size={18} />
          </Link>
        </li>
        {deepestHidden && (
          <li>
            {separator}
            <Link to={hrefOf(deepestHidden.path)} className="breadcrumbs__link breadcrumbs__ellipsis" aria-label={deepestHidden.name} title={hidden.map((crumb) => crumb.name).join(' / ')}>
              …
            </Link>
          </li>
        )}
        {shown.map((crumb, index) => {
          const isLast = index === shown.length - 1;
          return (
            <li key={crumb.path}>
              {separator}
              <Link
                to={hrefOf(crumb.path)}
                className={`breadcrumbs__link${isLast ? ' is-current' : ''}`}
                aria-current={isLast ? 'page' : undefined}
                title={crumb.name}
                {...(crumb.path.endsWith('/') ? dropProps(crumb.path, onDropItems) : {})}
              >
                <span className="breadcrumbs__name">{crumb.name}</span>
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
