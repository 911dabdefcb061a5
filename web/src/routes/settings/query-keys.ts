/** Cache keys of the settings screens' server data. */
export const settingsQueryKey = ['settings'] as const;
export const usersQueryKey = ['users'] as const;
export const userQueryKey = (id: number) => ['users', id] as const;
export const sharesQueryKey = ['shares'] as const;
