import { useId, useState, type FormEvent } from 'react';
import { API_KEY_ROLES, type ApiKeyInfo, type ApiKeyRole } from '@contracts/usage/admin-schema';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';
import { Field } from '@/components/ui/field';
import { AdminLoadError } from './admin-load-error';
import './admin.css';

/** A role as the console names it (as the signed-in user's role reads), and what it may do. */
const ROLE_LABELS: Record<ApiKeyRole, string> = {
  viewer: 'Viewer',
  writer: 'Writer',
  admin: 'Admin',
};
const ROLE_HELP: Record<ApiKeyRole, string> = {
  viewer: `${ROLE_LABELS.viewer}: reads usage`,
  writer: `${ROLE_LABELS.writer}: reads usage and sends traces`,
  admin: `${ROLE_LABELS.admin}: also sets limits, manages keys and reads the audit log`,
};

/** Organisation admins make keys with a role (shown once), list and revoke them. */
export function ApiKeysPage() {
  const keys = useApiKeys();
  return (
    <div className="admin-page">
      <CreateKeyForm />
      <section className="panel" aria-labelledby="api-keys-heading">
        <div className="panel-heading">
          <h2 id="api-keys-heading">API keys</h2>
        </div>
        {keys.isPending ? (
          <p className="muted" role="status">
            Loading the keys…
          </p>
        ) : keys.isError ? (
          <AdminLoadError error={keys.error} what="the API keys" />
        ) : keys.data.length === 0 ? (
          <p className="empty-state">No keys made yet. Make one above.</p>
        ) : (
          <div className="table-scroll">
            <table className="data-table" aria-labelledby="api-keys-heading">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Role</th>
                  <th scope="col">Created (UTC)</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <KeyRow key={key.id} apiKey={key} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function CreateKeyForm() {
  const nameId = `${useId()}-name`;
  const create = useCreateApiKey();
  const [description, setDescription] = useState('');
  const [role, setRole] = useState<ApiKeyRole>('viewer');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (description.trim() === '') return;
    create.mutate(
      { description: description.trim(), role },
      { onSuccess: () => setDescription('') },
    );
  };
  return (
    <section className="panel" aria-labelledby="create-key-heading">
      <div className="panel-heading">
        <h2 id="create-key-heading">Create an API key</h2>
      </div>
      <form className="admin-form" onSubmit={submit}>
        <Field id={nameId} label="Name" hint="Say who or what uses the key, e.g. “CI exporter”.">
          <input
            id={nameId}
            type="text"
            required
            maxLength={200}
            aria-describedby={`${nameId}-hint`}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <fieldset className="role-choices">
          <legend>Role</legend>
          {API_KEY_ROLES.map((option) => (
            <label key={option} className="radio-label">
              <input
                type="radio"
                name="api-key-role"
                value={option}
                checked={role === option}
                onChange={() => setRole(option)}
              />
              {ROLE_HELP[option]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
        {create.isError ? (
          <p className="field-error" role="alert">
            The key was not created: {create.error.message}
          </p>
        ) : null}
      </form>
      {create.data ? <NewKey apiKey={create.data.key} name={create.data.description} /> : null}
    </section>
  );
}

/** The new key, shown this once: the server keeps only its hash. */
function NewKey({ apiKey, name }: { apiKey: string; name: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'manual'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied('copied');
    } catch {
      setCopied('manual');
    }
  };
  return (
    <div className="notice new-key" role="status">
      <p>
        <strong>Copy the key “{name}” now: it is not shown again.</strong> Anyone holding it can use
        it until it is revoked.
      </p>
      <code className="code-block" aria-label="New API key">
        {apiKey}
      </code>
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        Copy key
      </button>
      <span className="muted small">
        {copied === 'copied' ? 'Copied.' : copied === 'manual' ? 'Select the key to copy it.' : ''}
      </span>
    </div>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKeyInfo }) {
  const revoke = useRevokeApiKey();
  const [asking, setAsking] = useState(false);
  return (
    <tr>
      <th scope="row">{apiKey.description}</th>
      <td>
        <code>{apiKey.short_key}</code>
      </td>
      <td>{ROLE_LABELS[apiKey.role]}</td>
      <td>{formatUtc(apiKey.created_at)}</td>
      <td>{apiKey.revoked_at ? `Revoked ${formatUtc(apiKey.revoked_at)}` : 'Active'}</td>
      <td>
        {apiKey.revoked_at ? null : asking ? (
          <div role="group" aria-label={`Revoke ${apiKey.description}`}>
            <p className="small">
              Revoke “{apiKey.description}”? Requests with it are refused at once.
            </p>
            <button
              type="button"
              className="button"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(apiKey.id, { onSuccess: () => setAsking(false) })}
            >
              {revoke.isPending ? 'Revoking…' : 'Revoke key'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => setAsking(false)}
            >
              Keep it
            </button>
            {revoke.isError ? (
              <p className="field-error" role="alert">
                The key was not revoked: {revoke.error.message}
              </p>
            ) : null}
          </div>
        ) : (
          <button
            type="button"
            className="button button-secondary button-small"
            aria-label={`Revoke ${apiKey.description}`}
            onClick={() => setAsking(true)}
          >
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}

/** `2026-11-28 15:04:05` from an ISO instant: the console shows UTC everywhere. */
export function formatUtc(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}
