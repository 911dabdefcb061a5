import type { Permissions } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from './checkbox-field';
import { PermissionFields } from './user-draft';

type PermissionsFieldsetProps = {
  idPrefix: string;
  perm: Permissions;
  /** Shell execution is a deployment feature; without it the execute box is not offered. */
  enableExec: boolean;
  onAdminChange: (isAdmin: boolean) => void;
  onChange: (perm: Permissions) => void;
};

/** The admin box, then the other permissions, all checked and locked while admin is on. */
export function PermissionsFieldset({ idPrefix, perm, enableExec, onAdminChange, onChange }: PermissionsFieldsetProps) {
  const { t } = useTranslation();
  const labels: Record<(typeof PermissionFields)[number], string> = {
    create: t('settings.permissions.create'),
    delete: t('settings.permissions.delete'),
    download: t('settings.permissions.download'),
    modify: t('settings.permissions.modify'),
    execute: t('settings.permissions.execute'),
    rename: t('settings.permissions.rename'),
    share: t('settings.permissions.share'),
  };
  return (
    <fieldset className="form-fieldset">
      <legend className="form-fieldset__legend">{t('settings.permissions.title')}</legend>
      <p className="form-hint">{t('settings.permissions.help')}</p>
      <CheckboxField id={`${idPrefix}-perm-admin`} label={t('settings.permissions.admin')} checked={perm.admin} onChange={onAdminChange} />
      <div className="form-fieldset__grid">
        {PermissionFields.filter((name) => name !== 'execute' || enableExec).map((name) => (
          <CheckboxField
            key={name}
            id={`${idPrefix}-perm-${name}`}
            label={labels[name]}
            checked={perm[name]}
            disabled={perm.admin}
            onChange={(checked) => onChange({ ...perm, [name]: checked })}
          />
        ))}
      </div>
    </fieldset>
  );
}
