export function RollbackPlaygroundRoute() {
  return (
    <div className="page">
      <header className="page-header">
        <p className="breadcrumb">Developer tools</p>
        <h1>Rollback playground</h1>
        <p className="page-lede">
          Send two messages to one thread in quick succession and see which run survives.
        </p>
      </header>
      <section className="panel" aria-label="Playground">
        <p>The playground is being built (issue 6).</p>
      </section>
    </div>
  );
}
