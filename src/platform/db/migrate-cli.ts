/** `npm run db:migrate`: applies pending migrations to DATABASE_URL or the PGlite data dir. */
import { loadConfig } from '../../config.js';
import { openDatabase } from './client.js';
import { migrate } from './migrate.js';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const { applied, distributed } = await migrate(database.db);
console.log(`migrations applied: ${applied} (${database.kind}${distributed ? ', citus: distributed' : ''})`);
await database.close();
