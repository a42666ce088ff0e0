import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../platform/db/database.js';
import { AppError } from '../../platform/http/app-error.js';
import { HealthService } from './health.service.js';

describe('health', () => {
  it('reports an unreachable database as unavailable (503)', async () => {
    // Port 1: nothing listens there, the connection is refused at once.
    const { db } = createDatabase({
      dialect: 'postgres',
      url: 'postgres://postgres@127.0.0.1:1/x',
    });
    try {
      const failed = await new HealthService(db).check().catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(AppError);
      expect(failed).toMatchObject({ code: 'databaseUnavailable', httpStatus: 503 });
    } finally {
      await db.destroy();
    }
  });
});
