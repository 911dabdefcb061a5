import { useTranslation } from 'react-i18next';
import { ActionBar, SelectionBar } from '../../components/header/action-bar';
import { TopBarActions } from '../../components/layout/top-bar-slot';
import { groupDigits } from '../../components/listing/group-digits';
import { currentLocaleTag } from '../../i18n/i18n';
import { clearSelection } from '../../stores/selection-store';
import { fileActions, headerActions, type FileActionContext } from './files-actions';
import { useIsNarrow } from './use-is-narrow';

/**
 * The files screen's actions in the top bar. At 736 px or less the selection's actions leave
 * the top bar for a bar at the bottom that shows how many items are selected.
 */
export function FilesToolbar({ context }: { context: FileActionContext }) {
  const { t } = useTranslation();
  const isNarrow = useIsNarrow();
  const moveDown = isNarrow && context.isListing;
  const topActions = fileActions.filter((action) => !moveDown || !action.isSelectionAction);
  const bottomActions = moveDown ? headerActions(fileActions.filter((action) => action.isSelectionAction), context, t) : [];
  return (
    <>
      <TopBarActions>
        <ActionBar actions={headerActions(topActions, context, t)} label={t('fileActions.label')} />
      </TopBarActions>
      {moveDown && context.selection.length > 0 && (
        <SelectionBar
          summary={groupDigits(t('listing.selectedCount', { count: context.selection.length }), context.selection.length, currentLocaleTag())}
          actions={bottomActions}
          clearLabel={t('listing.clearSelection')}
          onClear={clearSelection}
          label={t('listing.selectionActions')}
        />
      )}
    </>
  );
}
