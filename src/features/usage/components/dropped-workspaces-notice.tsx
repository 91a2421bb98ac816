/**
 * A shared link may name workspaces the current API key cannot read. They are left out of the
 * query; this says which ones and why, instead of quietly showing fewer workspaces.
 */
export function DroppedWorkspacesNotice({
  dropped,
  remaining,
}: {
  dropped: readonly string[];
  remaining: number;
}) {
  if (dropped.length === 0) return null;
  const one = dropped.length === 1;
  return (
    <p className="notice" role="status">
      The link names {one ? 'a workspace' : `${dropped.length} workspaces`} that this API key cannot
      read, so {one ? 'it is' : 'they are'} left out: <code>{dropped.join(', ')}</code>.{' '}
      {remaining === 0
        ? 'No selected workspace is readable: choose one in the Workspaces filter, or change the key under Connection.'
        : `Showing the ${remaining === 1 ? 'other selected workspace' : `other ${remaining} selected workspaces`}.`}
    </p>
  );
}
