import { RollbackPlayground } from '@/features/playground/components/rollback-playground';

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
      <RollbackPlayground />
    </div>
  );
}
