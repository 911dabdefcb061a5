import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '../../components/errors/error-screen';
import { isApiError } from '../../api/api-error';

/** Shown when a screen fails to load or render (a lost connection while fetching a chunk, a bug). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  console.error(error);
  let status = 500;
  if (isRouteErrorResponse(error)) status = error.status;
  else if (isApiError(error)) status = error.status;
  else if (typeof navigator !== 'undefined' && !navigator.onLine) status = 0;
  else if (error instanceof TypeError && /fetch|import/i.test(error.message)) status = 0;
  return (
    <div className="page page--centered">
      <ErrorScreen status={status} />
    </div>
  );
}
