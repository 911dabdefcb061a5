import { isRouteErrorResponse, useRouteError } from '../../lib/router';
import { ErrorScreen } from '../../components/errors/error-screen';
import { codeOfStatus, isApiError, type ApiErrorCode } from '../../api/api-error';

/** Shown when a screen fails to load or render (a lost connection while fetching a chunk, a bug). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  console.error(error);
  let code: ApiErrorCode = 'internal';
  if (isRouteErrorResponse(error)) code = codeOfStatus(error.status);
  else if (isApiError(error)) code = error.code;
  else if (typeof navigator !== 'undefined' && !navigator.onLine) code = 'no_connection';
  else if (error instanceof TypeError && /fetch|import/i.test(error.message)) code = 'no_connection';
  return (
    <div className="page page--centered">
      <ErrorScreen code={code} />
    </div>
  );
}
