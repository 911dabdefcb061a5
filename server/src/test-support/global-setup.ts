import { setupTestCluster } from './postgres.js';

/** Starts the private PostgreSQL cluster when the suite runs against PostgreSQL. */
export default async function setup(): Promise<(() => void) | undefined> {
  return setupTestCluster();
}
