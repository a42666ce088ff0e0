import { COMPANY_STATUS } from '@blrms/contracts';
import type { Db } from '../../platform/db/database.js';

export class UserRepository {
  constructor(private readonly db: Db) {}

  findByUsername(username: string) {
    return this.db
      .selectFrom('sys_user')
      .selectAll()
      .where('username', '=', username)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  findById(id: string) {
    return this.db
      .selectFrom('sys_user')
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  /** The user's departments inside one company, in tree order. */
  departsOf(userId: string, companyId: string) {
    return this.db
      .selectFrom('sys_user_depart as ud')
      .innerJoin('sys_depart as d', 'd.id', 'ud.depart_id')
      .select(['d.id', 'd.org_code', 'd.depart_name', 'd.depart_name_en', 'd.parent_id'])
      .where('ud.user_id', '=', userId)
      .where('d.company_id', '=', companyId)
      .orderBy('d.org_code')
      .execute();
  }

  /** Companies the user may act in: the default one and any extra memberships. */
  companiesOf(userId: string, defaultCompanyId: string) {
    return (
      this.db
        .selectFrom('sys_company as c')
        .select(['c.id', 'c.name'])
        // A frozen company cannot be acted in, so it is not offered.
        .where('c.status', '=', COMPANY_STATUS.active)
        .where((eb) =>
          eb.or([
            eb('c.id', '=', defaultCompanyId),
            eb(
              'c.id',
              'in',
              eb.selectFrom('sys_user_company').select('company_id').where('user_id', '=', userId),
            ),
          ]),
        )
        .orderBy('c.create_time')
        .execute()
    );
  }

  async setOrgCode(userId: string, orgCode: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ org_code: orgCode, update_time: now })
      .where('id', '=', userId)
      .execute();
  }

  async setPasswordHash(userId: string, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ password_hash: passwordHash, update_time: now })
      .where('id', '=', userId)
      .execute();
  }
}
