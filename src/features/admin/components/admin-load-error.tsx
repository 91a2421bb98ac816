import { HttpError } from '@/lib/http-error';

/** Why an admin page could not load: a key without the admin permission says so plainly. */
export function AdminLoadError({ error, what }: { error: Error; what: string }) {
  const forbidden = error instanceof HttpError && (error.status === 401 || error.status === 403);
  return (
    <p className="field-error" role="alert">
      {forbidden
        ? `Only an admin can see ${what}. Sign in with an admin account or key.`
        : `Could not load ${what}: ${error.message}`}
    </p>
  );
}
