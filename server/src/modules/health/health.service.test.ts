import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
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

  it('answers with the server version, which the diagnostics page shows', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      const pkg = JSON.parse(
        readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
      ) as { version: string };
      expect(res.json().result).toEqual({ status: 'ok', db: 'ok', version: pkg.version });
    } finally {
      await t.close();
    }
  });
});
