import { Suspense, lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from '../../lib/router';
import { TopBar } from '../../components/layout/top-bar';
import { SearchButton } from '../../components/search/search-button';
// Eager: it listens for the open-search event from the first paint on.
import { SearchHost } from '../../features/search/search-host';
import { useShellPanel } from '../../components/shell/shell-store';
import { ShellToggle } from '../../components/shell/shell-toggle';
import { TopBarSlotProvider, useSlotElement } from '../../components/layout/top-bar-slot';
import { displayName } from '../../lib/startup';
import { useAppSettings } from '../../stores/app-settings-store';
import { useLayout } from '../../stores/layout-store';
import { useUploadLauncher } from '../../stores/upload-launcher';
import { Sidebar } from './sidebar';
import './app-layout.css';

// The shell panel is fetched when it is first opened, the upload panel with the first upload:
// neither weighs on start-up.
const ShellHost = lazy(async () => ({ default: (await import('../../features/shell/shell-host')).ShellHost }));
const UploadHost = lazy(async () => ({ default: (await import('../../components/upload/upload-host')).UploadHost }));

/** Top bar, sidebar (a drawer on narrow screens) and the screen. */
export function AppLayout() {
  const { t } = useTranslation();
  const settings = useAppSettings((state) => state.settings);
  const isSidebarOpen = useLayout((state) => state.isSidebarOpen);
  const setSidebarOpen = useLayout((state) => state.setSidebarOpen);
  const toggleSidebar = useLayout((state) => state.toggleSidebar);
  const [slot, setSlot] = useSlotElement();
  const location = useLocation();
  const isShellOpen = useShellPanel((state) => state.isOpen);
  const hasUploads = useUploadLauncher((state) => state.isLoaded);

  // A navigation from the drawer closes it.
  useEffect(() => {
    setSidebarOpen(false);
  }, [location.pathname, setSidebarOpen]);

  useEffect(() => {
    if (!isSidebarOpen) return;
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setSidebarOpen(false);
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [isSidebarOpen, setSidebarOpen]);

  return (
    <TopBarSlotProvider element={slot}>
      <div className="app-layout" data-sidebar-open={isSidebarOpen}>
        <a className="skip-link" href="#main-content">
          {t('layout.skipToContent')}
        </a>
        <TopBar
          logoUrl={`${settings.StaticURL}/img/logo.svg`}
          title={displayName(settings)}
          menuLabel={t('layout.toggleMenu')}
          isMenuOpen={isSidebarOpen}
          onToggleMenu={toggleSidebar}
          actionsRef={setSlot}
          tools={
            <>
              <ShellToggle />
              <SearchButton />
            </>
          }
        />
        <div className="app-layout__body">
          <aside id="sidebar" className="sidebar">
            <Sidebar />
          </aside>
          {isSidebarOpen && <div className="app-layout__scrim" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
          <main id="main-content" className="app-layout__main" tabIndex={-1}>
            <Outlet />
          </main>
        </div>
        <Suspense fallback={null}>
          {isShellOpen && <ShellHost />}
          <SearchHost />
          {hasUploads && <UploadHost />}
        </Suspense>
      </div>
    </TopBarSlotProvider>
  );
}
