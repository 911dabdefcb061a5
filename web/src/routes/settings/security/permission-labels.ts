import type { Permissions } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';

/** The permission names as the user form words them, in the order it shows them. */
export function usePermissionLabels(): Record<keyof Permissions, string> {
  const { t } = useTranslation();
  return {
    admin: t('settings.permissions.admin'),
    create: t('settings.permissions.create'),
    rename: t('settings.permissions.rename'),
    modify: t('settings.permissions.modify'),
    delete: t('settings.permissions.delete'),
    share: t('settings.permissions.share'),
    download: t('settings.permissions.download'),
    execute: t('settings.permissions.execute'),
  };
}
