import { useId, type FormEvent } from 'react';
import { fieldDescribedBy, Field } from '@/components/ui/field';
import { useSignIn } from '../api/sign-in';
import './sign-in.css';

/**
 * The console's front door in apikey mode: one key field. The key goes to the server once, in
 * the body of a same-origin POST; the page keeps no copy (no storage, the field clears on error).
 */
export function SignInPage() {
  const id = useId();
  const keyId = `${id}-key`;
  const signIn = useSignIn();
  const error = signIn.isError ? signIn.error.message : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const apiKey = String(new FormData(form).get('apiKey') ?? '').trim();
    form.reset();
    signIn.mutate({ apiKey });
  };

  return (
    <div className="sign-in">
      <form className="sign-in-card" aria-labelledby={`${id}-title`} onSubmit={submit}>
        <h1 id={`${id}-title`}>Sign in to the Usage Console</h1>
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
            aria-describedby={fieldDescribedBy(keyId, { hint: true, error })}
          />
        </Field>
        {/* Announced as it appears: the field cleared, the reason is all there is to read. */}
        {error ? (
          <p id={`${keyId}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
