import { SquareTerminal } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../../lib/router';
import { filesPathOf } from '../../routes/files/files-path';
import { useAppSettings } from '../../stores/app-settings-store';
import { useSession } from '../../stores/session-store';
import { canUseShell, useShellPanel } from './shell-store';
import '../header/header.css';

/** The top bar's shell toggle, on the files screen, for users who may run commands. */
export function ShellToggle() {
  const { t } = useTranslation();
  const location = useLocation();
  const isOpen = useShellPanel((state) => state.isOpen);
  const toggle = useShellPanel((state) => state.toggle);
  const user = useSession((state) => state.user);
  const settings = useAppSettings((state) => state.settings);
  if (!canUseShell(user, settings) || filesPathOf(location.pathname) === undefined) return null;
  return (
    <button
      type="button"
      className={`icon-button header-action${isOpen ? ' is-pressed' : ''}`}
      aria-label={t('shell.toggle')}
      title={t('shell.toggle')}
      aria-pressed={isOpen}
      data-action="shell"
      onClick={toggle}
    >
      <SquareTerminal aria-hidden="true" size={20} />
    </button>
  );
}
