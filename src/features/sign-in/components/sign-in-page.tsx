import { useId, type FormEvent } from 'react';
import { useSearchParams } from 'wouter';
import { Callout } from '@/components/ui/callout';
import { Field } from '@/components/ui/field';
import { useSignIn } from '../api/sign-in';
import './sign-in.css';

/** The console's front door: a key field (apikey) or the identity provider's button (oidc). */
export function SignInPage({ mode }: { mode: 'apikey' | 'oidc' }) {
  const id = useId();
  const [params] = useSearchParams();
  // Where the identity provider's round trip ended, in one word (never a detail in the address).
  const outcome = params.get('sign-in');
  if (mode === 'oidc' && outcome === 'no-access') return <NoAccessPage titleId={`${id}-title`} />;
  return (
    <div className="sign-in">
      <div className="sign-in-card">
        <h1 id={`${id}-title`}>Sign in to the Usage Console</h1>
        {mode === 'apikey' ? (
          <ApiKeyForm titleId={`${id}-title`} />
        ) : (
          <>
            {outcome === 'failed' ? (
              <Callout title="The sign-in did not complete.">
                <p>The identity provider's answer could not be checked. Try again.</p>
              </Callout>
            ) : null}
            <p className="muted">Use your organization's account.</p>
            <a className="button" href="/_console/auth/login">
              Sign in with your organization
            </a>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * One key field. The key goes to the server once, in the body of a same-origin POST; the page
 * keeps no copy (no storage, and the field clears on submit).
 */
function ApiKeyForm({ titleId }: { titleId: string }) {
  const keyId = `${titleId}-key`;
  const signIn = useSignIn();
  const error = signIn.isError ? signIn.error.message : undefined;
  const hintId = `${keyId}-hint`;
  const errorId = `${keyId}-error`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const apiKey = String(new FormData(form).get('apiKey') ?? '').trim();
    form.reset();
    signIn.mutate({ apiKey });
  };

  return (
    <form className="sign-in-form" aria-labelledby={titleId} onSubmit={submit}>
      <p className="muted">
        Use your LangSmith API key. It stays on the server; this page keeps no copy.
      </p>
      <Field
        id={keyId}
        label="API key"
        hint="Keys start with lsv2_. Your role comes from the key's permissions."
      >
        <input
          id={keyId}
          name="apiKey"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        />
      </Field>
      {/* Announced as it appears: the field cleared, the reason is all there is to read. */}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** What someone the identity provider knows, but the console does not admit, sees. */
function NoAccessPage({ titleId }: { titleId: string }) {
  return (
    <div className="sign-in">
      <div className="sign-in-card">
        <h1 id={titleId}>No access to the Usage Console</h1>
        <p>
          You signed in, but your account is not one this console admits. Ask the person who runs it
          to admit your e-mail address or its domain.
        </p>
        <p className="muted">
          For them: the console&rsquo;s CONSOLE_ADMIN_EMAILS and CONSOLE_VIEWER_DOMAINS settings.
        </p>
        <a className="button button-secondary" href="/_console/auth/login">
          Sign in with another account
        </a>
      </div>
    </div>
  );
}
