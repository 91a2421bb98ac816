export function GranularUsageRoute() {
  return (
    <section aria-labelledby="granular-usage-heading" className="panel">
      <h2 id="granular-usage-heading">Granular Usage</h2>
      <p>The usage console is being built (issue 4).</p>
    </section>
  );
}
