import { ArchiveFormats, type ArchiveFormat } from '@burrow/protocol';
import { badRequest } from '../../errors.js';

/**
 * Parses `files=`: a comma-separated list whose elements were percent-encoded once more by the
 * front end. The query parser already undid the outer layer; each element is decoded a second
 * time here, where a literal `+` stays a plus. Empty elements are ignored.
 */
export function parseFilesParam(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .filter((element) => element !== '')
    .map((element) => {
      try {
        return decodeURIComponent(element);
      } catch {
        throw badRequest('malformed files parameter');
      }
    });
}

/**
 * `algo=` to an archive format: `zip`, `true` or nothing mean zip. Upstream answers an unknown
 * value with 500; it is the client's mistake, so Burrow answers 400 and names the problem.
 */
export function parseArchiveFormat(algo: string | undefined): ArchiveFormat {
  if (algo === undefined || algo === '' || algo === 'true' || algo === 'zip') return 'zip';
  if (Object.hasOwn(ArchiveFormats, algo)) return algo as ArchiveFormat;
  throw badRequest(`unsupported archive format: ${algo.slice(0, 32)}`);
}
