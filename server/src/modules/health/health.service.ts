import { readFileSync } from 'node:fs';
import { pingDatabase, type Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/http/app-error.js';

/** The server package's version (src/ and dist/ sit at the same depth below it). */
export const SERVER_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export class HealthService {
  constructor(private readonly db: Db) {}

  async check(): Promise<{ status: 'ok'; db: 'ok'; version: string }> {
    try {
      await pingDatabase(this.db);
    } catch {
      throw new AppError('databaseUnavailable', 503);
    }
    return { status: 'ok', db: 'ok', version: SERVER_VERSION };
  }
}
