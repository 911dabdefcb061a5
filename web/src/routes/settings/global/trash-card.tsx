import type { TrashSettings } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../components/forms/checkbox-field';
import { SettingsCard } from '../settings-card';

const Megabyte = 1024 * 1024;

type TrashCardProps = {
  trash: TrashSettings;
  onChange: (trash: TrashSettings) => void;
  onSave: () => void;
  isSaving: boolean;
};

/** Whole numbers typed into a number field; an empty or partial entry is NaN and fails validation. */
function wholeNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** Trash on or off, how long deleted items are kept and how much each user's trash may hold. */
export function TrashCard({ trash, onChange, onSave, isSaving }: TrashCardProps) {
  const { t } = useTranslation();
  const set = (change: Partial<TrashSettings>) => onChange({ ...trash, ...change });
  const megabytes = Number.isNaN(trash.maxSize) ? Number.NaN : Math.round(trash.maxSize / Megabyte);
  return (
    <SettingsCard
      title={t('settings.trashForm.title')}
      description={t('settings.trashForm.description')}
      onSubmit={onSave}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <CheckboxField id="trash-enabled" label={t('settings.trashForm.enabled')} hint={t('settings.trashForm.enabledHelp')} checked={trash.enabled} onChange={(enabled) => set({ enabled })} />
      <div className="settings-grid">
        <div className="field">
          <label className="field__label" htmlFor="trash-retention">
            {t('settings.trashForm.retentionDays')}
          </label>
          <input
            id="trash-retention"
            className="input"
            type="number"
            min={0}
            step={1}
            required
            aria-describedby="trash-retention-hint"
            value={Number.isNaN(trash.retentionDays) ? '' : trash.retentionDays}
            onChange={(event) => set({ retentionDays: wholeNumber(event.target.value) })}
          />
          <p id="trash-retention-hint" className="form-hint">
            {t('settings.trashForm.retentionHelp')}
          </p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="trash-max-size">
            {t('settings.trashForm.maxSize')}
          </label>
          <input
            id="trash-max-size"
            className="input"
            type="number"
            min={0}
            step={1}
            required
            aria-describedby="trash-max-size-hint"
            value={Number.isNaN(megabytes) ? '' : megabytes}
            onChange={(event) => set({ maxSize: wholeNumber(event.target.value) * Megabyte })}
          />
          <p id="trash-max-size-hint" className="form-hint">
            {t('settings.trashForm.maxSizeHelp')}
          </p>
        </div>
      </div>
    </SettingsCard>
  );
}
