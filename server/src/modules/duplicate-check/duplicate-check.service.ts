import { DUPLICATE_CHECK_FIELDS, type TDuplicateCheckQuery } from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/app-error.js';
import type { DuplicateCheckRepository } from './duplicate-check.repository.js';

type CheckTable = keyof typeof DUPLICATE_CHECK_FIELDS;

/**
 * Where each checked value must be unique, matching the database constraints: role and position
 * codes within a company, everything else (org codes included, which users reference) globally.
 */
const PER_COMPANY: ReadonlySet<CheckTable> = new Set(['sys_role', 'sys_position']);

function isCheckTable(name: string): name is CheckTable {
  return Object.hasOwn(DUPLICATE_CHECK_FIELDS, name);
}

export class DuplicateCheckService {
  constructor(private readonly repository: DuplicateCheckRepository) {}

  /** Resolves when the value is free; throws 409 when it is taken. */
  async check(scope: Scope, query: TDuplicateCheckQuery): Promise<void> {
    const { tableName, fieldName, fieldVal, dataId } = query;
    const fields: readonly string[] | undefined = isCheckTable(tableName)
      ? DUPLICATE_CHECK_FIELDS[tableName]
      : undefined;
    if (!isCheckTable(tableName) || !fields?.includes(fieldName)) {
      throw new AppError('duplicateNotAllowed', 400);
    }
    if (!fieldVal) return;
    const taken = await this.repository.exists({
      table: tableName,
      column: fieldName,
      value: fieldVal,
      excludeId: dataId || undefined,
      companyId: PER_COMPANY.has(tableName) ? scope.companyId : undefined,
    });
    if (taken) throw new AppError('duplicateTaken', 409);
  }
}
