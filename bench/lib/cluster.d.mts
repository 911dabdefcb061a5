// Types of cluster.mjs, for the server and browser tests that import it.

export type Postgres = {
  port: number;
  /** A connection URL for `database`. */
  url(database: string): string;
  /** Creates an empty database (a lower-case word) and resolves with its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): void;
};

export function startPostgres(): Promise<Postgres>;

export type Proxy = {
  port: number;
  /** Answers each backend gave, by its index. */
  served: number[];
  /** Points backend `index` at another port (a restarted instance). */
  setBackend(index: number, port: number): void;
  close(): Promise<void>;
};

export function startProxy(backends: number[]): Promise<Proxy>;
