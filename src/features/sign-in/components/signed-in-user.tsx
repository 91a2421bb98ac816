import type { ConsoleSession } from '@contracts/console-session';
import { useSignOut } from '../api/sign-out';
import './sign-in.css';

const ROLE_LABELS = { admin: 'Admin', viewer: 'Viewer' } as const;

/** The signed-in user in the shell: who, which role, and the way out. */
export function SignedInUser({ user }: { user: NonNullable<ConsoleSession['user']> }) {
  const signOut = useSignOut();
  return (
    <section className="signed-in-user" aria-label="Signed in">
      <p className="signed-in-name">{user.name}</p>
      <p className="signed-in-role">Role: {ROLE_LABELS[user.role]}</p>
      <button
        type="button"
        className="button button-secondary"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        Sign out
      </button>
      {signOut.isError ? (
        <p className="field-error" role="alert">
          {signOut.error.message}
        </p>
      ) : null}
    </section>
  );
}
