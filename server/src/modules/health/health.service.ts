import { pingDatabase, type Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/http/app-error.js';

export class HealthService {
  constructor(private readonly db: Db) {}

  async check(): Promise<{ status: 'ok'; db: 'ok' }> {
    try {
      await pingDatabase(this.db);
    } catch {
      throw new AppError('databaseUnavailable', 503);
    }
    return { status: 'ok', db: 'ok' };
  }
}
