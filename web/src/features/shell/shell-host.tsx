import { useQueryClient } from '../../lib/query';
import { useLocation } from '../../lib/router';
import { currentFolder, filesPathOf } from '../../routes/files/files-path';
import { useAppSettings } from '../../stores/app-settings-store';
import { useSession } from '../../stores/session-store';
import { runCommand } from '../../api/commands';
import { ShellPanel } from '../../components/shell/shell-panel';
import { canUseShell, useShellPanel } from '../../components/shell/shell-store';

/** Shows the shell panel on the files screen while it is toggled on and the user may run commands. */
export function ShellHost() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const isOpen = useShellPanel((state) => state.isOpen);
  const setOpen = useShellPanel((state) => state.setOpen);
  const user = useSession((state) => state.user);
  const settings = useAppSettings((state) => state.settings);
  if (!isOpen || !canUseShell(user, settings) || filesPathOf(location.pathname) === undefined) return null;
  return <ShellPanel runCommand={runCommand} folderOf={() => currentFolder(location.pathname, queryClient)} onClose={() => setOpen(false)} />;
}
