import { Value } from '@sinclair/typebox/value';
import { User, ViewModes } from '@burrow/protocol';
import { badRequest } from '../../errors.js';
import { sanitiseRules, validateRules } from '../../storage/rules.js';
import type { NewUserRecord } from './users.model.js';

/** JSON field name → how it is validated and stored on the record. */
const writableFields = [
  'username',
  'password',
  'scope',
  'locale',
  'lockPassword',
  'viewMode',
  'singleClick',
  'redirectAfterCopyMove',
  'perm',
  'commands',
  'sorting',
  'rules',
  'hideDotfiles',
  'dateFormat',
  'aceEditorTheme',
] as const;
export type WritableField = (typeof writableFields)[number];

export function isWritableField(name: string): name is WritableField {
  return (writableFields as readonly string[]).includes(name);
}

/** The writable field a client spelled in any case (`Password`, `LOCALE`), if there is one. */
export function canonicalField(name: string): WritableField | undefined {
  const lower = name.toLowerCase();
  return writableFields.find((field) => field.toLowerCase() === lower);
}

const SORT_FIELDS = ['', 'name', 'size', 'modified'];

/** Validates one field of a user payload; throws 400 with a clear message. */
export function checkField(name: WritableField, value: unknown): void {
  const schema = User.properties[name];
  if (!Value.Check(schema, value)) throw badRequest(`invalid ${name}`);
  switch (name) {
    case 'username': {
      const username = value as string;
      if (!username.trim()) throw badRequest('username is empty');
      if (username.length > 255 || /[\u0000-\u001f\u007f/\\]/.test(username)) throw badRequest('invalid username');
      break;
    }
    case 'viewMode':
      if (value !== '' && !(ViewModes as readonly string[]).includes(value as string)) throw badRequest('invalid viewMode');
      break;
    case 'sorting':
      if (!SORT_FIELDS.includes((value as { by: string }).by)) throw badRequest('invalid sorting');
      break;
    case 'rules':
      validateRules(value as NewUserRecord['rules']);
      break;
    case 'commands':
      if ((value as string[]).some((command) => /\s/.test(command.trim()) || command.length > 255)) throw badRequest('invalid command name');
      break;
    case 'locale':
      if ((value as string).length > 16) throw badRequest('invalid locale');
      break;
    case 'aceEditorTheme':
      // It travels inside every token; keep it a name, not a payload.
      if ((value as string).length > 64) throw badRequest('invalid aceEditorTheme');
      break;
    default:
      break;
  }
}

/** Copies one validated JSON field onto a record (password is handled by the caller). */
export function applyField(record: NewUserRecord, name: Exclude<WritableField, 'password'>, value: unknown): void {
  switch (name) {
    case 'username':
      record.username = (value as string).trim();
      break;
    case 'scope':
      record.scope = (value as string).trim();
      break;
    case 'viewMode':
      record.viewMode = (value as string) || 'list';
      break;
    case 'sorting': {
      const sorting = value as NewUserRecord['sorting'];
      record.sorting = { by: sorting.by || 'name', asc: sorting.asc };
      break;
    }
    case 'commands':
      record.commands = (value as string[]).map((command) => command.trim()).filter(Boolean);
      break;
    case 'rules':
      record.rules = sanitiseRules(value as NewUserRecord['rules']);
      break;
    default:
      (record as Record<string, unknown>)[name] = value;
  }
}
