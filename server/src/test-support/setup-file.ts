import { afterAll } from 'vitest';
import { releaseTestDatabases } from './postgres.js';

// Runs once per test file: on a PostgreSQL run, what the file's tests left on the cluster goes.
afterAll(releaseTestDatabases);
