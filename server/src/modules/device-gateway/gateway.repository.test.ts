import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db/database.js';
import { questionMark } from '../../platform/db/rows-statement.js';
import { freshDatabase } from '../../test/database.js';
import { presenceStatements, type PresenceChange } from './gateway.repository.js';

describe.skipIf(process.env.DATABASE_URL)('presence batches on SQLite', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, drop } = await freshDatabase({ migrated: true }));
  });
  afterAll(async () => {
    await handle.db.destroy();
    await drop();
  });

  it('finds every device and session of a batch by its key, scanning no table', async () => {
    const online: PresenceChange = {
      deviceId: 'd1',
      companyId: 'c1',
      values: { status: 'online', ip: '10.0.0.1', last_connect_at: 2, node_id: 'n1' },
    };
    const offline: PresenceChange = {
      deviceId: 'd2',
      companyId: 'c1',
      values: { status: 'offline', last_disconnect_at: 3, disconnect_reason: 'keepalive' },
      guard: { nodeId: 'n1', connectedAt: 1 },
    };
    const session = {
      id: 's1',
      company_id: 'c1',
      device_id: 'd1',
      connected_at: 2,
      disconnected_at: null,
      reason: null,
      ip: '10.0.0.1',
      node_id: 'n1',
    };
    const { updates, sessions } = presenceStatements(
      [online, offline],
      { opened: [session], closed: [{ id: 's0', disconnectedAt: 3, reason: 'keepalive' }] },
      questionMark,
    );
    expect(updates).toHaveLength(2);
    expect(sessions).toHaveLength(2);
    for (const statement of [...updates, ...sessions]) {
      const { rows } = await handle.db.executeQuery<{ detail: string }>({
        ...statement,
        sql: `explain query plan ${statement.sql}`,
      });
      const tableSteps = rows
        .map((row) => row.detail)
        .filter((step) => /^(SCAN|SEARCH) device/.test(step));
      expect(tableSteps.length).toBeGreaterThan(0);
      // Closing sessions through `disconnected_at`'s index went through every open session.
      for (const step of tableSteps) {
        expect(step).toMatch(
          /^SEARCH device.* USING (COVERING )?INDEX sqlite_autoindex_\w+_1 \(id=\?\)/,
        );
      }
    }
    // The statements run: nothing matches here, and nothing fails.
    for (const statement of [...updates, ...sessions]) await handle.db.executeQuery(statement);
    const { rows } = await sql<{ n: number }>`select count(*) as n from device_session`.execute(
      handle.db,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
