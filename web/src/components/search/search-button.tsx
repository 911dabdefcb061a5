import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../../lib/router';
import { filesPathOf } from '../../routes/files/files-path';
import { requestSearch } from '../../stores/app-events';
import '../header/header.css';

/** The top bar's search button, on the files screen. */
export function SearchButton() {
  const { t } = useTranslation();
  const location = useLocation();
  if (filesPathOf(location.pathname) === undefined) return null;
  return (
    <button type="button" className="icon-button header-action" aria-label={t('search.title')} title={t('search.title')} data-action="search" onClick={requestSearch}>
      <Search aria-hidden="true" size={20} />
    </button>
  );
}
