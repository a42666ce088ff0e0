import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
import { tenancy } from './tenant-scoped.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const options = [
  {
    schema: 'server/src/platform/db/schema.ts',
    ignoreReceivers: ['eb'],
    allow: [
      { class: 'Everywhere', reason: 'a whole class' },
      { class: 'Sweeps', methods: ['sweep'], reason: 'one method' },
      { file: 'gateway.repository.ts', reason: 'a whole file' },
    ],
  },
];

new RuleTester({ languageOptions: { parser: tseslint.parser } }).run(
  'tenancy/scoped-queries',
  tenancy.rules['scoped-queries'],
  {
    valid: [
      "class R { f(c) { return scoped(this.db, c).selectFrom('device').selectAll(); } }",
      "class R { f(c) { const q = scoped(this.db, c); return q.updateTable('device'); } }",
      "class R { f(db: CompanyDb) { return db.deleteFrom('device'); } }",
      // Tables without company_id are not the rule's.
      "class R { f() { return this.db.selectFrom('sys_company'); } }",
      "class R { f() { return this.db.selectFrom('sys_user_role as r'); } }",
      "class Everywhere { f() { return this.db.selectFrom('device'); } }",
      "class Sweeps { sweep() { return this.db.selectFrom('device_command'); } }",
      {
        code: "function f(db) { return db.selectFrom('device'); }",
        filename: 'gateway.repository.ts',
      },
      "class R { f(c) { return scoped(this.db, c).selectFrom('device').where((eb) => eb.exists(eb.selectFrom('campaign'))); } }",
    ].map((test) => ({ ...(typeof test === 'string' ? { code: test } : test), options })),
    invalid: [
      "class R { f() { return this.db.selectFrom('device'); } }",
      "class R { f(trx) { return trx.insertInto('sys_user').values({}); } }",
      "class R { f() { return this.db.updateTable('device as d'); } }",
      "class Sweeps { other() { return this.db.selectFrom('device_command'); } }",
      "class R { f(db: Db) { return db.deleteFrom('firmware'); } }",
    ].map((code) => ({ code, options, errors: [{ messageId: 'raw' }] })),
  },
);
