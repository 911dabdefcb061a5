import { Outlet } from '../../lib/router';
import { SettingsMenu } from './settings-menu';
import './settings.css';

/** The settings screens share the menu above their content. */
export function SettingsLayout() {
  return (
    <div className="page settings">
      <SettingsMenu />
      <Outlet />
    </div>
  );
}
