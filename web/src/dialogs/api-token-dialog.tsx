import type { ApiTokenCreated, ApiTokenPreset, Permissions } from '@burrow/protocol';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createApiToken } from '../api/api-tokens';
import { CheckboxField } from '../components/forms/checkbox-field';
import { copyToClipboard } from '../lib/clipboard';
import { showError, showSuccess } from '../lib/notify';
import { usePermissionLabels } from '../routes/settings/security/permission-labels';
import { useSession } from '../stores/session-store';
import { DialogFrame } from './dialog-frame';
import type { ApiTokenDialogProps, DialogControls } from './dialog-types';
import '../routes/settings/security/security.css';

const ExpiryDays = [7, 30, 90, 365] as const;

/**
 * A new API token: its name, what it may do (read only, upload only, or a choice among the
 * user's own permissions) and when it expires; then the token itself, shown this once.
 */
export default function ApiTokenDialog({ onCreated, onClose }: ApiTokenDialogProps & DialogControls) {
  const { t } = useTranslation();
  const own = useSession((state) => state.user?.perm);
  const labels = usePermissionLabels();
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<ApiTokenPreset>('readOnly');
  const [perm, setPerm] = useState<Partial<Permissions>>({ download: true });
  const [expiry, setExpiry] = useState('30');
  const [created, setCreated] = useState<ApiTokenCreated>();
  const [isBusy, setBusy] = useState(false);

  const submit = async () => {
    if (isBusy || !name.trim()) return;
    setBusy(true);
    try {
      const token = await createApiToken({
        name: name.trim(),
        preset,
        ...(preset === 'custom' ? { perm } : {}),
        expiresInDays: expiry === 'never' ? null : Number(expiry),
      });
      setCreated(token);
      onCreated();
    } catch (error) {
      void showError(error);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!created) return;
    try {
      await copyToClipboard(created.token);
      void showSuccess(t('settings.tokens.copied'));
    } catch (error) {
      void showError(error);
    }
  };

  if (created) {
    return (
      <DialogFrame
        title={t('settings.tokens.createdTitle')}
        actions={
          <button type="button" className="button button--primary" onClick={onClose}>
            {t('settings.tokens.close')}
          </button>
        }
      >
        <p>{t('settings.tokens.createdHelp')}</p>
        <div className="field">
          <label className="field__label" htmlFor="api-token-value">
            {created.name}
          </label>
          <div className="api-token__created">
            <input id="api-token-value" className="input api-token__value" readOnly value={created.token} onFocus={(event) => event.target.select()} data-autofocus />
            <button type="button" className="button button--ghost" onClick={() => void copy()}>
              <Copy aria-hidden="true" size={18} />
              {t('settings.tokens.copy')}
            </button>
          </div>
        </div>
      </DialogFrame>
    );
  }

  const presets: [ApiTokenPreset, string][] = [
    ['readOnly', t('settings.tokens.readOnly')],
    ['uploadOnly', t('settings.tokens.uploadOnly')],
    ['custom', t('settings.tokens.custom')],
  ];
  const offered = (Object.keys(labels) as (keyof Permissions)[]).filter((key) => own?.[key]);
  return (
    <DialogFrame
      title={t('settings.tokens.create')}
      onSubmit={() => void submit()}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isBusy || !name.trim()}>
            {t('buttons.create')}
          </button>
        </>
      }
    >
      <div className="field">
        <label className="field__label" htmlFor="api-token-name">
          {t('settings.tokens.name')}
        </label>
        <input id="api-token-name" className="input" required maxLength={100} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} data-autofocus />
      </div>
      <fieldset className="form-fieldset">
        <legend className="form-fieldset__legend">{t('settings.tokens.permissions')}</legend>
        <div className="api-token__presets">
          {presets.map(([value, label]) => (
            <label key={value} className="check-field__row">
              <input type="radio" className="check-field__box" name="api-token-preset" value={value} checked={preset === value} onChange={() => setPreset(value)} />
              <span className="check-field__label">{label}</span>
            </label>
          ))}
        </div>
        {preset === 'custom' && (
          <div className="form-fieldset__grid">
            {offered.map((key) => (
              <CheckboxField key={key} id={`api-token-perm-${key}`} label={labels[key]} checked={perm[key] === true} onChange={(checked) => setPerm({ ...perm, [key]: checked })} />
            ))}
          </div>
        )}
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor="api-token-expiry">
          {t('settings.tokens.expires')}
        </label>
        <select id="api-token-expiry" className="input select" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
          {ExpiryDays.map((days) => (
            <option key={days} value={String(days)}>
              {t('settings.tokens.inDays', { days })}
            </option>
          ))}
          <option value="never">{t('settings.tokens.never')}</option>
        </select>
      </div>
    </DialogFrame>
  );
}
