import type { SearchResult } from '@burrow/protocol';
import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusTrap } from '../../dialogs/use-focus-trap';
import { OpenSearchEvent } from '../../stores/app-events';
import { activeTypeFilter, withTypeFilter, type SearchKind } from './search-filters';
import { SearchResults } from './search-results';
import './search.css';

export type SearchStatus = 'idle' | 'searching' | 'done' | 'failed';

/** One search at a time: its streamed results and what runs or clears it. */
export type SearchControls = {
  results: SearchResult[];
  status: SearchStatus;
  /** The message of a failed search. */
  error: string | null;
  /** Runs a search for the text (the previous one stops). */
  run: (query: string) => void;
  /** Stops a running search and empties the results. */
  reset: () => void;
};

type SearchOverlayProps = {
  /** The folder searched, with a trailing slash. */
  folder: string;
  search: SearchControls;
  onClose: () => void;
};

/**
 * The search overlay (spec section 2): a labelled search box where Enter runs the search, quick
 * filters that put a `type:` word in front, and the streamed results. Changing the text clears
 * the results (and stops a running search); Escape closes.
 */
export function SearchOverlay({ folder, search, onClose }: SearchOverlayProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const inputId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  useFocusTrap(dialogRef, true);

  const filters: Array<{ kind: SearchKind; label: string }> = [
    { kind: 'image', label: t('search.image') },
    { kind: 'audio', label: t('search.audio') },
    { kind: 'video', label: t('search.video') },
    { kind: 'pdf', label: t('search.pdf') },
  ];
  const activeFilter = activeTypeFilter(text);

  // Asking for the search again while it is open brings the focus back to the box.
  useEffect(() => {
    const focusInput = () => inputRef.current?.focus();
    window.addEventListener(OpenSearchEvent, focusInput);
    return () => window.removeEventListener(OpenSearchEvent, focusInput);
  }, []);

  const changeText = (next: string) => {
    setText(next);
    search.reset();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    search.run(text);
  };

  const handleFilter = (kind: SearchKind) => {
    changeText(withTypeFilter(text, kind));
    inputRef.current?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'ArrowDown' && event.target === inputRef.current) {
      const first = dialogRef.current?.querySelector<HTMLAnchorElement>('.search__results a');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
    // The screen behind keeps its shortcuts to itself while the overlay is open; Tab stays for
    // the focus trap.
    if (event.key !== 'Tab') event.stopPropagation();
  };

  let status: string;
  if (search.status === 'searching') status = t('search.searching');
  else if (search.status === 'failed') status = search.error ?? '';
  else if (search.status === 'done') status = search.results.length === 0 ? t('search.noResults') : t('search.resultCount', { count: search.results.length });
  else status = t('search.hint');

  return (
    <div className="search-layer" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialogRef} className="search" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={handleKeyDown}>
        <h2 id={titleId} className="visually-hidden">
          {t('search.title')}
        </h2>
        <form className="search__bar" role="search" onSubmit={handleSubmit}>
          <Search aria-hidden="true" size={20} className="search__bar-icon" />
          <label htmlFor={inputId} className="visually-hidden">
            {t('search.inputLabel')}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            className="search__input"
            type="search"
            enterKeyHint="search"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('search.placeholder')}
            value={text}
            onChange={(event) => changeText(event.target.value)}
            data-autofocus
          />
          <button type="button" className="icon-button" aria-label={t('search.close')} title={t('search.close')} onClick={onClose}>
            <X aria-hidden="true" size={20} />
          </button>
        </form>
        <div className="search__filters" role="group" aria-label={t('search.filters')}>
          {filters.map((filter) => (
            <button
              key={filter.kind}
              type="button"
              className="search__filter"
              aria-pressed={activeFilter === filter.kind}
              onClick={() => handleFilter(filter.kind)}
            >
              {filter.label}
            </button>
          ))}
        </div>
        <p className={`search__status${search.status === 'failed' ? ' search__status--error' : ''}`} role="status">
          {status}
        </p>
        <SearchResults folder={folder} results={search.results} label={t('search.results')} onLeaveTop={() => inputRef.current?.focus()} />
      </div>
    </div>
  );
}
