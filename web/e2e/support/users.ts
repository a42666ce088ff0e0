import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { argon2id, hash } from 'argon2';
import Database from 'better-sqlite3';
import type { RunningServer } from './server.js';

/**
 * Adds a user to the test server's database (the console has no user screens yet): a member of
 * the platform company with the given role and departments. The server reads users on each login,
 * so no restart is needed.
 */
export async function addUser(
  server: RunningServer,
  input: { username: string; password: string; role: string; orgCodes: string[] },
): Promise<string> {
  const db = new Database(join(server.dataDir, 'blrms.db'));
  try {
    const id = randomBytes(16).toString('hex');
    const company = db.prepare("select id from sys_company where code = 'platform'").get() as {
      id: string;
    };
    const role = db
      .prepare('select id from sys_role where role_code = ? and company_id = ?')
      .get(input.role, company.id) as { id: string };
    const now = Date.now();
    db.prepare(
      `insert into sys_user (id, company_id, username, realname, password_hash, status, org_code,
         del_flag, create_time) values (?, ?, ?, ?, ?, 1, ?, 0, ?)`,
    ).run(
      id,
      company.id,
      input.username,
      input.username,
      await hash(input.password, { type: argon2id }),
      input.orgCodes[0] ?? null,
      now,
    );
    db.prepare('insert into sys_user_company (user_id, company_id) values (?, ?)').run(
      id,
      company.id,
    );
    db.prepare('insert into sys_user_role (user_id, role_id) values (?, ?)').run(id, role.id);
    for (const orgCode of input.orgCodes) {
      const depart = db.prepare('select id from sys_depart where org_code = ?').get(orgCode) as {
        id: string;
      };
      db.prepare('insert into sys_user_depart (user_id, depart_id) values (?, ?)').run(
        id,
        depart.id,
      );
    }
    return id;
  } finally {
    db.close();
  }
}
