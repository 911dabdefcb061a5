import { SearchOverlay } from '../../components/search/search-overlay';
import { useSearch } from './use-search';

/** The search overlay with its data: the results stream in from the server's search. */
export function SearchPanel({ folder, onClose }: { folder: string; onClose: () => void }) {
  const search = useSearch(folder);
  return <SearchOverlay folder={folder} search={search} onClose={onClose} />;
}
