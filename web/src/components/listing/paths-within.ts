/** True when `path` is `ancestor` itself or lies below it (`/a/b` is within `/a`, `/ab` is not). */
export function isWithinPath(path: string, ancestor: string): boolean {
  const child = path.replace(/\/+$/, '') || '/';
  const parent = ancestor.replace(/\/+$/, '') || '/';
  if (parent === '/') return true;
  return child === parent || child.startsWith(parent + '/');
}
