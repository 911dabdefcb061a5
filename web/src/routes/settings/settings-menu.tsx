import { useTranslation } from 'react-i18next';
import { NavLink } from '../../lib/router';
import { useSession } from '../../stores/session-store';

/** Profile always; shares with the share permission; global settings, users and the audit log for admins. */
export function SettingsMenu() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  if (!user) return null;
  const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'settings-menu__link settings-menu__link--active' : 'settings-menu__link');
  return (
    <nav className="settings-menu" aria-label={t('settings.menuLabel')}>
      <NavLink to="/settings/profile" className={linkClass}>
        {t('settings.profile')}
      </NavLink>
      {user.perm.share && (
        <NavLink to="/settings/shares" className={linkClass}>
          {t('settings.shares')}
        </NavLink>
      )}
      {user.perm.admin && (
        <>
          <NavLink to="/settings/global" className={linkClass}>
            {t('settings.global')}
          </NavLink>
          <NavLink to="/settings/users" className={linkClass}>
            {t('settings.users')}
          </NavLink>
          <NavLink to="/settings/audit" className={linkClass}>
            {t('settings.audit.title')}
          </NavLink>
        </>
      )}
    </nav>
  );
}
