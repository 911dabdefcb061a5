import { useEffect } from 'react';
import { Outlet } from '../lib/router';
import { DialogHost } from '../dialogs/dialog-host';
import { ToasterHost } from '../components/feedback/toaster-host';
import { setLanguage } from '../i18n/i18n';
import { hideLoadingOverlay } from '../lib/loading-overlay';
import { applyTheme } from '../lib/theme';
import { useAppSettings } from '../stores/app-settings-store';
import { useSession } from '../stores/session-store';

/** Wraps every screen: keeps theme and language current and hosts dialogs and toasts. */
export function RootRoute() {
  const theme = useAppSettings((state) => state.settings.Theme);
  const locale = useSession((state) => state.user?.locale);

  useEffect(() => {
    hideLoadingOverlay();
  }, []);

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    void setLanguage(locale);
  }, [locale]);

  return (
    <>
      <div id="app-shell">
        <Outlet />
      </div>
      <DialogHost />
      <ToasterHost />
    </>
  );
}
