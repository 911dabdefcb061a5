import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, HelpDialogProps } from './dialog-types';
import './files-dialogs.css';

/** The keyboard and mouse shortcuts of the files screen. */
export default function HelpDialog({ onClose }: HelpDialogProps & DialogControls) {
  const { t } = useTranslation();
  // Key names stay as printed on keyboards; the gestures and descriptions are translated.
  const entries: Array<[string, string]> = [
    ['F1', t('fileDialogs.help.f1')],
    ['F2', t('fileDialogs.help.f2')],
    ['DEL', t('fileDialogs.help.del')],
    ['ESC', t('fileDialogs.help.esc')],
    ['CTRL + S', t('fileDialogs.help.ctrlS')],
    ['CTRL + SHIFT + F', t('fileDialogs.help.ctrlShiftF')],
    [`CTRL + ${t('fileDialogs.help.click')}`, t('fileDialogs.help.ctrlClick')],
    [t('fileDialogs.help.click'), t('fileDialogs.help.clickAction')],
    [t('fileDialogs.help.doubleClick'), t('fileDialogs.help.doubleClickAction')],
  ];
  return (
    <DialogFrame
      title={t('fileDialogs.help.title')}
      onSubmit={onClose}
      actions={
        <button type="submit" className="button button--primary" data-autofocus>
          {t('fileDialogs.buttons.close')}
        </button>
      }
    >
      <dl className="help-list">
        {entries.map(([keys, description]) => (
          <div key={keys} className="help-list__entry">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{description}</dd>
          </div>
        ))}
      </dl>
    </DialogFrame>
  );
}
