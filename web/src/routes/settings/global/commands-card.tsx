import type { HookEvent } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../settings-card';
import { HookEventNames } from './settings-draft';

type CommandsCardProps = {
  commandsText: Record<HookEvent, string>;
  onChange: (event: HookEvent, text: string) => void;
  onSave: () => void;
  isSaving: boolean;
};

/** Commands the server runs around file operations, one per line for each event. */
export function CommandsCard({ commandsText, onChange, onSave, isSaving }: CommandsCardProps) {
  const { t } = useTranslation();
  return (
    <SettingsCard
      title={t('settings.commandRunner.title')}
      description={t('settings.commandRunner.help')}
      onSubmit={onSave}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <div className="settings-grid settings-grid--wide">
        {HookEventNames.map((event) => (
          <div key={event} className="field">
            <label className="field__label field__label--mono" htmlFor={`command-${event}`}>
              {event}
            </label>
            <textarea
              id={`command-${event}`}
              className="input input--mono settings__textarea"
              rows={2}
              spellCheck={false}
              value={commandsText[event]}
              onChange={(change) => onChange(event, change.target.value)}
            />
          </div>
        ))}
      </div>
    </SettingsCard>
  );
}
