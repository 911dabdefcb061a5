import { useTranslation } from 'react-i18next';
import { showError } from '../lib/notify';
import type { DialogControls, NewResourceDialogProps } from './dialog-types';
import { createInFolder } from './create-resource';
import { NamePrompt } from './name-prompt';

export default function NewFileDialog({ folder, onClose }: NewResourceDialogProps & DialogControls) {
  const { t } = useTranslation();
  return (
    <NamePrompt
      title={t('dialogs.newFile.title')}
      description={t('dialogs.newFile.description')}
      label={t('dialogs.newFile.label')}
      submitLabel={t('buttons.create')}
      onClose={onClose}
      onSubmit={async (name) => {
        try {
          await createInFolder(folder, name, 'file');
          onClose();
        } catch (error) {
          void showError(error);
        }
      }}
    />
  );
}
