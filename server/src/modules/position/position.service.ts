import type {
  TPosition,
  TPositionAdd,
  TPositionEdit,
  TPositionOption,
  TPositionQuery,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysPositionTable } from '../../platform/db/schema.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { DictService } from '../dict/dict.service.js';
import type { PositionRepository } from './position.repository.js';
import { pageResult } from '../../platform/http/paging.js';

export const POSITION_RANK_DICT = 'position_rank';

function toPosition(row: SysPositionTable): TPosition {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    postRank: row.post_rank,
    createTime: new Date(row.create_time).toISOString(),
  };
}

export class PositionService {
  constructor(
    private readonly repository: PositionRepository,
    private readonly dicts: DictService,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TPositionQuery) {
    const { records, total } = await this.repository.page(scope.companyId, query, query);
    return pageResult(records.map(toPosition), total, query);
  }

  queryAll(scope: Scope): Promise<TPositionOption[]> {
    return this.repository.all(scope.companyId);
  }

  async byId(scope: Scope, id: string): Promise<TPosition> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound();
    return toPosition(row);
  }

  async add(scope: Scope, input: TPositionAdd): Promise<TPosition> {
    await this.checkRank(scope.companyId, input.postRank);
    if (await this.repository.codeTaken(scope.companyId, input.code, null)) {
      throw new AppError('orgPositionCodeTaken', 409);
    }
    const row: SysPositionTable = {
      id: newId(),
      company_id: scope.companyId,
      code: input.code,
      name: input.name,
      post_rank: input.postRank,
      create_time: this.clock(),
    };
    await this.repository.insert(row);
    return toPosition(row);
  }

  async edit(scope: Scope, input: TPositionEdit): Promise<TPosition> {
    const existing = await this.repository.find(scope.companyId, input.id);
    if (!existing) throw notFound();
    await this.checkRank(scope.companyId, input.postRank);
    if (await this.repository.codeTaken(scope.companyId, input.code, input.id)) {
      throw new AppError('orgPositionCodeTaken', 409);
    }
    const values = { code: input.code, name: input.name, post_rank: input.postRank };
    await this.repository.update(scope.companyId, input.id, values);
    return toPosition({ ...existing, ...values });
  }

  /** Only the caller's company's rows are deleted; naming another company's id deletes nothing. */
  async delete(scope: Scope, ids: string[]): Promise<void> {
    const deleted = await this.repository.delete(scope.companyId, [...new Set(ids)]);
    if (deleted === 0) throw notFound();
  }

  /**
   * Ranks come from the editable `position_rank` dictionary, the company's own when it replaced
   * the platform's, so they are checked against the one its console offers.
   */
  private async checkRank(companyId: string, postRank: string): Promise<void> {
    const ranks = await this.dicts.items(POSITION_RANK_DICT, 'en-US', companyId);
    if (!ranks.some((r) => r.value === postRank)) throw new AppError('orgPostRankInvalid', 400);
  }
}
