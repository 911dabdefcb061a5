import { PermissionNames, type ApiTokenCreateRequest, type Permissions } from '@burrow/protocol';
import { badRequest } from '../../errors.js';

const none = (): Permissions => ({ admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false });

/** A permission is granted only when both sides grant it. */
export function intersect(a: Permissions, b: Permissions): Permissions {
  const result = none();
  for (const name of PermissionNames) result[name] = a[name] === true && b[name] === true;
  return result;
}

/**
 * The permissions a new token asks for, cut down to what its owner holds now: read-only keeps
 * only download, upload-only only create, custom what it names.
 */
export function requestedPermissions(request: ApiTokenCreateRequest, owner: Permissions): Permissions {
  let wanted: Permissions;
  switch (request.preset) {
    case 'readOnly':
      wanted = { ...none(), download: true };
      break;
    case 'uploadOnly':
      wanted = { ...none(), create: true };
      break;
    case 'custom':
      wanted = { ...none(), ...Object.fromEntries(PermissionNames.map((name) => [name, request.perm?.[name] === true])) };
      break;
    default:
      throw badRequest('unknown preset');
  }
  const granted = intersect(wanted, owner);
  // Sharing needs downloading, as for users; a token is never an admin with fewer rights.
  if (granted.share && !granted.download) granted.share = false;
  if (granted.admin && PermissionNames.some((name) => !granted[name])) granted.admin = false;
  if (!PermissionNames.some((name) => granted[name])) throw badRequest('the token would have no permission');
  return granted;
}
