import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/api-error';
import { deleteUser } from '../api/users';
import { navigateTo } from '../lib/navigation';
import { showError, showSuccess } from '../lib/notify';
import { queryClient } from '../lib/query-client';
import { useAppSettings } from '../stores/app-settings-store';
import { logout, useSession } from '../stores/session-store';
import '../components/forms/forms.css';
import { DialogFrame } from './dialog-frame';
import type { DeleteUserDialogProps, DialogControls } from './dialog-types';

/** Confirms deleting a user account, with the admin's own password where the server wants it. */
export default function DeleteUserDialog({ userId, username, onClose }: DeleteUserDialogProps & DialogControls) {
  const { t } = useTranslation();
  const needsCurrentPassword = useAppSettings((state) => state.settings.AuthMethod === 'json');
  const [currentPassword, setCurrentPassword] = useState('');
  const [isBusy, setBusy] = useState(false);

  const handleDelete = async () => {
    if (isBusy || (needsCurrentPassword && !currentPassword)) return;
    setBusy(true);
    try {
      await deleteUser(userId, needsCurrentPassword ? currentPassword : undefined);
      onClose();
      void showSuccess(t('settings.toasts.userDeleted'));
      // An admin who deletes their own account has no session left.
      if (useSession.getState().user?.id === userId) {
        await logout();
        return;
      }
      queryClient.removeQueries({ queryKey: ['users', userId] });
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      navigateTo('/settings/users');
    } catch (error) {
      void showError(isApiError(error) && error.code === 'forbidden' ? new Error(t('errors.forbidden')) : error);
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title={t('settings.deleteUser.title')}
      isAlert
      onSubmit={() => void handleDelete()}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('settings.actions.cancel')}
          </button>
          <button type="submit" className="button button--danger danger-action" disabled={isBusy || (needsCurrentPassword && !currentPassword)}>
            {t('settings.actions.delete')}
          </button>
        </>
      }
    >
      <p>{t('settings.deleteUser.message', { username })}</p>
      {needsCurrentPassword && (
        <label className="field">
          <span className="field__label">{t('settings.userForm.currentPassword')}</span>
          <input
            className="input"
            type="password"
            data-autofocus
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
        </label>
      )}
    </DialogFrame>
  );
}
