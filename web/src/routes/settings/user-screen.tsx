import type { User, UserDefaults } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../lib/query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from '../../lib/router';
import { getSettings } from '../../api/settings';
import { createUser, getUser, updateUser } from '../../api/users';
import { ErrorScreen } from '../../components/errors/error-screen';
import { draftFromDefaults, draftFromUser, meaningfulRules, splitWords, type UserDraft } from '../../components/forms/user-draft';
import { UserForm } from '../../components/forms/user-form';
import { showSuccess } from '../../lib/notify';
import { useAppSettings } from '../../stores/app-settings-store';
import { openDialog } from '../../stores/dialog-store';
import { renewSession, useSession } from '../../stores/session-store';
import { settingsQueryKey, userQueryKey, usersQueryKey } from './query-keys';
import { SettingsCard } from './settings-card';
import { SettingsLoadError, SettingsLoading } from './settings-states';
import { SettingsPage } from './settings-page';
import { useSaveAction } from './use-save-action';
import { UserTwoFactorCard } from './security/two-factor-admin';

type EditorProps =
  | { mode: 'new'; defaults: UserDefaults; canCreateHome: boolean }
  | { mode: 'edit'; user: User };

/** The record fields the form edits, on top of what the record (or the defaults) already hold. */
function recordFromDraft(draft: UserDraft, scope: string): Partial<User> {
  return {
    username: draft.username.trim(),
    password: draft.password,
    scope,
    locale: draft.locale,
    lockPassword: draft.perm.admin ? false : draft.lockPassword,
    perm: { ...draft.perm },
    commands: splitWords(draft.commandsText),
    rules: meaningfulRules(draft.rules),
  };
}

function UserEditor(props: EditorProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const enableExec = useAppSettings((state) => state.settings.EnableExec);
  const needsCurrentPassword = useAppSettings((state) => state.settings.AuthMethod === 'json');
  const [draft, setDraft] = useState<UserDraft>(() => {
    if (props.mode === 'edit') return draftFromUser(props.user);
    const fromDefaults = draftFromDefaults(props.defaults);
    // With home folders on, the scope starts empty: the server derives it from the username.
    return props.canCreateHome ? { ...fromDefaults, scope: '' } : fromDefaults;
  });
  const [createHome, setCreateHome] = useState(props.mode === 'new' && props.canCreateHome);
  const [scopeBeforeHome, setScopeBeforeHome] = useState(props.mode === 'new' ? props.defaults.scope : '');
  const [currentPassword, setCurrentPassword] = useState('');
  const { isSaving, save: runSave } = useSaveAction();

  // A generated home replaces whatever scope was typed; unticking brings the typed one back.
  const handleCreateHome = (checked: boolean) => {
    setCreateHome(checked);
    if (checked) {
      setScopeBeforeHome(draft.scope);
      setDraft({ ...draft, scope: '' });
    } else {
      setDraft({ ...draft, scope: scopeBeforeHome });
    }
  };

  const handleSave = async () => {
    const password = needsCurrentPassword ? currentPassword : undefined;
    await runSave(async () => {
      if (props.mode === 'new') {
        const data = { ...props.defaults, ...recordFromDraft(draft, createHome ? '' : draft.scope.trim()) };
        const id = await createUser(data, password);
        await queryClient.invalidateQueries({ queryKey: usersQueryKey });
        void showSuccess(t('settings.toasts.userCreated'));
        navigate(id ? `/settings/users/${id}` : '/settings/users');
      } else {
        const { user } = props;
        const data = { ...user, ...recordFromDraft(draft, draft.scope.trim()) };
        await updateUser(user.id, data, ['all'], password);
        setDraft((current) => ({ ...current, password: '' }));
        setCurrentPassword('');
        await queryClient.invalidateQueries({ queryKey: usersQueryKey });
        // Only the own record changes what this session carries (language, permissions).
        if (useSession.getState().user?.id === user.id) await renewSession();
        void showSuccess(t('settings.toasts.userUpdated'));
      }
    });
  };

  const idPrefix = props.mode === 'new' ? 'new-user' : `user-${props.user.id}`;
  return (
    <SettingsCard
      title={props.mode === 'new' ? t('settings.userForm.account') : props.user.username}
      onSubmit={() => void handleSave()}
      className="settings-card--form"
      actions={
        <>
          {props.mode === 'edit' && (
            <button
              type="button"
              className="button button--danger danger-action settings-card__leading-action"
              onClick={() => openDialog('delete-user', { userId: props.user.id, username: props.user.username })}
            >
              <Trash2 aria-hidden="true" size={18} />
              {t('settings.actions.delete')}
            </button>
          )}
          <Link className="button button--ghost" to="/settings/users">
            {t('settings.actions.cancel')}
          </Link>
          <button type="submit" className="button button--primary" disabled={isSaving}>
            {t('settings.actions.save')}
          </button>
        </>
      }
    >
      <UserForm
        idPrefix={idPrefix}
        variant={props.mode}
        draft={draft}
        onChange={setDraft}
        enableExec={enableExec}
        createHome={props.mode === 'new' ? { checked: createHome, isAvailable: props.canCreateHome, onChange: handleCreateHome } : undefined}
      />
      {needsCurrentPassword && (
        <div className="field settings-card__confirm">
          <label className="field__label" htmlFor={`${idPrefix}-current-password`}>
            {t('settings.userForm.currentPassword')}
          </label>
          <input
            id={`${idPrefix}-current-password`}
            className="input"
            type="password"
            autoComplete="current-password"
            required
            aria-describedby={`${idPrefix}-current-password-hint`}
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
          <p id={`${idPrefix}-current-password-hint`} className="form-hint">
            {t('settings.userForm.currentPasswordHelp')}
          </p>
        </div>
      )}
    </SettingsCard>
  );
}

function NewUser() {
  const query = useQuery({ queryKey: settingsQueryKey, queryFn: ({ signal }) => getSettings(signal), staleTime: 0 });
  if (query.isPending) return <SettingsLoading />;
  if (query.isError) return <SettingsLoadError error={query.error} />;
  return <UserEditor mode="new" defaults={query.data.defaults} canCreateHome={query.data.createUserDir} />;
}

function EditUser({ id }: { id: number }) {
  const query = useQuery({ queryKey: userQueryKey(id), queryFn: ({ signal }) => getUser(id, signal), staleTime: 0 });
  if (query.isPending) return <SettingsLoading />;
  if (query.isError) return <SettingsLoadError error={query.error} />;
  return (
    <div className="settings__cards">
      <UserEditor key={id} mode="edit" user={query.data} />
      <UserTwoFactorCard userId={id} username={query.data.username} />
    </div>
  );
}

/** /settings/users/new and /settings/users/{id}. */
export function UserScreen() {
  const { t } = useTranslation();
  const { id } = useParams();
  const isNew = id === undefined;
  return (
    <SettingsPage title={isNew ? t('settings.newUser') : t('settings.editUser')}>
      {isNew ? <NewUser /> : /^\d{1,10}$/.test(id) ? <EditUser id={Number(id)} /> : <ErrorScreen code="not_found" />}
    </SettingsPage>
  );
}
