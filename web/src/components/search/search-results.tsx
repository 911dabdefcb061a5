import type { SearchResult } from '@burrow/protocol';
import { File as FileIcon, Folder } from 'lucide-react';
import { useEffect, useState, type KeyboardEvent, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { filesRoute, joinPath } from '../../lib/paths';

/** Results shown at first, and added each time the list is scrolled near its end. */
const ResultWindow = 50;
/** How close to the bottom (in pixels) the list has to be scrolled to show more. */
const LoadMoreDistance = 100;

type SearchResultsProps = {
  /** The searched folder, with a trailing slash; result paths are relative to it. */
  folder: string;
  results: readonly SearchResult[];
  label: string;
  /** Arrow up from the first result goes back to the search box. */
  onLeaveTop: () => void;
};

/** The route a result opens: `/files{folder}{path}`, with a trailing slash for folders. */
function resultRoute(folder: string, result: SearchResult): string {
  const route = filesRoute(joinPath(folder, result.path));
  return result.dir ? route + '/' : route;
}

/** Moves the focus between the result links with the arrow keys, Home and End. */
function handleArrowKeys(event: KeyboardEvent<HTMLUListElement>, onLeaveTop: () => void) {
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a'));
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return;
  let next: number | undefined;
  if (event.key === 'ArrowDown') next = Math.min(index + 1, links.length - 1);
  else if (event.key === 'ArrowUp') next = index - 1;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = links.length - 1;
  if (next === undefined) return;
  event.preventDefault();
  if (next < 0) onLeaveTop();
  else links[next]?.focus();
}

/**
 * The result list: a folder or file icon and `./<path>` linking to the item. It shows 50 results
 * and 50 more whenever it is scrolled within 100 px of its end. Opening a result replaces the
 * history entry the overlay pushed, so back then returns to where the search started.
 */
export function SearchResults({ folder, results, label, onLeaveTop }: SearchResultsProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(ResultWindow);

  // A new search starts again with the first window.
  useEffect(() => {
    if (results.length === 0) setShown(ResultWindow);
  }, [results.length]);

  const handleScroll = (event: UIEvent<HTMLUListElement>) => {
    const list = event.currentTarget;
    if (shown < results.length && list.scrollTop + list.clientHeight >= list.scrollHeight - LoadMoreDistance) {
      setShown((count) => count + ResultWindow);
    }
  };

  if (results.length === 0) return null;
  return (
    <ul className="search__results" aria-label={label} onScroll={handleScroll} onKeyDown={(event) => handleArrowKeys(event, onLeaveTop)}>
      {results.slice(0, shown).map((result) => (
        <li key={result.path} className="search__result">
          <Link to={resultRoute(folder, result)} replace className="search__link">
            {result.dir ? (
              <Folder aria-hidden="true" size={18} className="search__icon search__icon--folder" />
            ) : (
              <FileIcon aria-hidden="true" size={18} className="search__icon" />
            )}
            <span className="visually-hidden">{result.dir ? t('search.folder') : t('search.file')}</span>
            <span className="search__path">./{result.path}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
