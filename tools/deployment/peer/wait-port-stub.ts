/** Stands in for `wait-port`: the suite waits on it only when it spawns its own server (CI). */
export default async function waitPort(): Promise<boolean> {
  return true;
}
