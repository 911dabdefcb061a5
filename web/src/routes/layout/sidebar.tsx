import { useQueryClient } from '../../lib/query';
import { CircleHelp, FilePlus, FolderOpen, FolderPlus, LogIn, LogOut, Settings, Trash2, Upload, UserPlus, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from '../../lib/router';
import { UsageMeter } from '../../components/layout/usage-meter';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatSize, usagePercent } from '../../lib/format-size';
import { parentPath } from '../../lib/paths';
import { canLogout, useAppSettings } from '../../stores/app-settings-store';
import { openDialog } from '../../stores/dialog-store';
import { useLayout } from '../../stores/layout-store';
import { logout, useSession } from '../../stores/session-store';
import { currentFolder, filesPathOf } from '../files/files-path';
import { useUsage } from './use-usage';
import './sidebar.css';

function SidebarLink({ to, icon, children, end }: { to: string; icon: ReactNode; children: ReactNode; end?: boolean }) {
  return (
    <NavLink to={to} end={end} className={({ isActive }) => (isActive ? 'sidebar__item sidebar__item--active' : 'sidebar__item')}>
      {icon}
      <span>{children}</span>
    </NavLink>
  );
}

function SidebarButton({ icon, children, onClick }: { icon: ReactNode; children: ReactNode; onClick: () => void }) {
  return (
    <button type="button" className="sidebar__item" onClick={onClick}>
      {icon}
      <span>{children}</span>
    </button>
  );
}

function Usage({ folder }: { folder: string }) {
  const { t } = useTranslation();
  const usage = useUsage(folder);
  if (!usage.data || !(usage.data.total > 0)) return null;
  const locale = currentLocaleTag();
  const label = t('sidebar.usage', { used: formatSize(usage.data.used, locale), total: formatSize(usage.data.total, locale) });
  return <UsageMeter label={label} percent={usagePercent(usage.data.used, usage.data.total)} />;
}

/** The sidebar of spec section 2: account, navigation, create actions, usage, help and version. */
export function Sidebar() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  const settings = useAppSettings((state) => state.settings);
  const location = useLocation();
  const queryClient = useQueryClient();
  const filesPath = filesPathOf(location.pathname);
  const iconSize = 20;

  const setSidebarOpen = useLayout((state) => state.setSidebarOpen);

  const handleCreate = (kind: 'new-folder' | 'new-file') => {
    setSidebarOpen(false);
    openDialog(kind, { folder: currentFolder(location.pathname, queryClient) });
  };

  const handleUpload = () => {
    setSidebarOpen(false);
    openDialog('upload', { folder: currentFolder(location.pathname, queryClient) });
  };

  return (
    <nav className="sidebar__content" aria-label={t('sidebar.label')}>
      {user ? (
        <>
          <div className="sidebar__group">
            <SidebarLink to="/settings/profile" icon={<UserRound aria-hidden="true" size={iconSize} />}>
              <span className="sidebar__username">{user.username}</span>
            </SidebarLink>
            <SidebarLink to="/files/" icon={<FolderOpen aria-hidden="true" size={iconSize} />}>
              {t('sidebar.myFiles')}
            </SidebarLink>
            <SidebarLink to="/trash" icon={<Trash2 aria-hidden="true" size={iconSize} />}>
              {t('sidebar.trash')}
            </SidebarLink>
            {user.perm.create && (
              <>
                <SidebarButton icon={<FolderPlus aria-hidden="true" size={iconSize} />} onClick={() => handleCreate('new-folder')}>
                  {t('sidebar.newFolder')}
                </SidebarButton>
                <SidebarButton icon={<FilePlus aria-hidden="true" size={iconSize} />} onClick={() => handleCreate('new-file')}>
                  {t('sidebar.newFile')}
                </SidebarButton>
                <SidebarButton icon={<Upload aria-hidden="true" size={iconSize} />} onClick={handleUpload}>
                  {t('upload.action')}
                </SidebarButton>
              </>
            )}
          </div>
          <div className="sidebar__group">
            {user.perm.admin && (
              <SidebarLink to="/settings" icon={<Settings aria-hidden="true" size={iconSize} />}>
                {t('sidebar.settings')}
              </SidebarLink>
            )}
            {canLogout(settings) && (
              <SidebarButton icon={<LogOut aria-hidden="true" size={iconSize} />} onClick={() => void logout()}>
                {t('sidebar.logout')}
              </SidebarButton>
            )}
          </div>
        </>
      ) : (
        !settings.HideLoginButton && (
          <div className="sidebar__group">
            <SidebarLink to="/login" end icon={<LogIn aria-hidden="true" size={iconSize} />}>
              {t('sidebar.login')}
            </SidebarLink>
            {settings.Signup && (
              <SidebarLink to="/login?mode=signup" icon={<UserPlus aria-hidden="true" size={iconSize} />}>
                {t('sidebar.signup')}
              </SidebarLink>
            )}
          </div>
        )
      )}

      <div className="sidebar__footer">
        {user && filesPath !== undefined && !settings.DisableUsedPercentage && (
          <Usage folder={filesPath.endsWith('/') ? filesPath : parentPath(filesPath)} />
        )}
        {settings.HelpURL && (
          <a className="sidebar__item sidebar__item--small" href={settings.HelpURL} target="_blank" rel="noopener noreferrer">
            <CircleHelp aria-hidden="true" size={18} />
            <span>{t('sidebar.help')}</span>
          </a>
        )}
        <p className="sidebar__version">{t('sidebar.version', { version: settings.Version || '—' })}</p>
      </div>
    </nav>
  );
}
