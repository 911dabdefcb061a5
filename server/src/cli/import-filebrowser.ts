import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase } from '../storage/db.js';
import { isBoltFile } from '../modules/import/bolt-reader.js';
import { readFilebrowserSource } from '../modules/import/filebrowser-source.js';
import { describeServer, planImport } from '../modules/import/filebrowser-mapping.js';
import { applyImport } from '../modules/import/filebrowser-import.js';

/** The message `burrow serve` and the other commands give when pointed at a filebrowser database. */
function boltDatabaseMessage(database: string): string {
  return [
    `burrow: ${database} is a filebrowser (BoltDB) database, not a Burrow one.`,
    'Import it into a new Burrow database, then serve that one:',
    `  burrow import filebrowser ${shellQuote(database)} --database ${shellQuote(path.join(path.dirname(database), 'burrow.db'))}`,
    '',
  ].join('\n');
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@,+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Stops with exit code 2 when the configured database is a filebrowser BoltDB file. */
export function refuseBoltDatabase(config: Config): void {
  if (isBoltFile(config.database)) {
    process.stderr.write(boltDatabaseMessage(config.database));
    process.exit(2);
  }
}

function expiry(expire: number): string {
  return expire === 0 ? 'permanent' : `expires ${new Date(expire * 1000).toISOString()}`;
}

/** `burrow import filebrowser FILE`: prints what is (or would be) imported and every value that changes. */
export async function importFilebrowser(file: string, config: Config, options: { dryRun: boolean; merge: boolean }): Promise<void> {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const source = path.resolve(file);
  if (path.resolve(config.database) === source) throw new Error('the Burrow database (--database) must be another file than the one imported');
  if (isBoltFile(config.database)) throw new Error(`${config.database} is a filebrowser database; give a new file with --database for Burrow's own`);
  const data = readFilebrowserSource(source);
  const plan = planImport(data);
  if (plan.problems.length) throw new Error(`cannot import ${file}:\n  - ${plan.problems.join('\n  - ')}`);

  // A dry run never creates the target: when it does not exist yet, an empty one stands in.
  const exists = fs.existsSync(config.database);
  const db = await openDatabase(options.dryRun && !exists ? ':memory:' : config.database);
  let report;
  try {
    report = await applyImport(db, plan, { merge: options.merge, dryRun: options.dryRun, root: fs.existsSync(config.root) ? config.root : undefined });
  } finally {
    await db.destroy();
  }

  const verb = (action: 'create' | 'update') => (options.dryRun ? (action === 'create' ? 'would create' : 'would update') : action === 'create' ? 'created' : 'updated');
  out(`${options.dryRun ? 'Dry run, nothing is written: importing' : 'Imported'} from the filebrowser ${data.kind} ${source} into ${config.database}`);
  out();
  out(`Users (${report.users.length}):`);
  for (const user of report.users) {
    const renumbered = user.previousId !== undefined ? `, was id ${user.previousId}` : '';
    out(`  ${verb(user.action)} ${user.username} (id ${user.id}${renumbered}${user.admin ? ', admin' : ''}); the filebrowser password keeps working`);
  }
  out(`Share links (${report.shares.length}):`);
  for (const share of report.shares) {
    out(`  ${verb(share.action)} ${share.hash} → ${share.path} of ${share.owner} (${share.protected ? 'password' : 'open'}, ${expiry(share.expire)})`);
  }
  if (report.settings && plan.settings) {
    const settings = plan.settings;
    out(`Settings: ${options.dryRun ? 'would be replaced' : 'replaced'} (sign-up ${settings.signup ? 'on' : 'off'}, authentication ${settings.authMethod}, branding name ${JSON.stringify(settings.branding.name)}, ${settings.rules.length} global rules)`);
  } else {
    out('Settings: not in this file; left as they are');
  }
  if (plan.server.length) {
    const server = describeServer(plan);
    out();
    out("Server configuration: filebrowser kept this in its database; Burrow reads it from its environment or flags:");
    for (const line of server.env) out(`  ${line}`);
    if (server.flags.length) out(`  or: burrow serve ${server.flags.join(' ')} --database ${shellQuote(config.database)}`);
  }
  const notes = [...plan.notes, ...report.notes];
  out();
  if (notes.length) {
    out('Not carried over as they were:');
    for (const note of notes) out(`  - ${note}`);
  } else {
    out('Every value was carried over as it was.');
  }
  out('Not imported: the signing key (everyone logs in again), and filebrowser-only server settings listed above.');
}
