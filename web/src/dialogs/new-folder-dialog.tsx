import { useTranslation } from 'react-i18next';
import { showError } from '../lib/notify';
import type { DialogControls, NewResourceDialogProps } from './dialog-types';
import { createInFolder } from './create-resource';
import { NamePrompt } from './name-prompt';

export default function NewFolderDialog({ folder, onCreated, onClose }: NewResourceDialogProps & DialogControls) {
  const { t } = useTranslation();
  return (
    <NamePrompt
      title={t('dialogs.newFolder.title')}
      description={t('dialogs.newFolder.description')}
      label={t('dialogs.newFolder.label')}
      submitLabel={t('buttons.create')}
      onClose={onClose}
      onSubmit={async (name) => {
        try {
          await createInFolder(folder, name, 'folder', onCreated);
          onClose();
        } catch (error) {
          void showError(error);
        }
      }}
    />
  );
}
