import type {
  TDeviceGroup,
  TDeviceGroupCreate,
  TDeviceGroupEdit,
  TDeviceGroupOption,
  TDeviceGroupQuery,
} from '@blrms/contracts';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import type { DeviceGroupTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { DeviceRepository } from './device.repository.js';
import type { GroupRepository } from './group.repository.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';
import { DEVICE_RULES } from './stats-columns.rules.js';

/** Two requests raced for one name: the unique index decided. */
function nameConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('deviceGroupNameExists', 409);
  throw error;
}

export class GroupService {
  constructor(
    private readonly repository: GroupRepository,
    /** Devices are written by their repository: deleting a group takes its devices out of it. */
    private readonly devices: DeviceRepository,
    private readonly dataRules: DataRuleService,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
  ) {}

  /** Groups with their devices by status, counting only the devices the caller may see. */
  async list(scope: Scope, query: TDeviceGroupQuery): Promise<Page<TDeviceGroup>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(await this.withCounts(scope, records), total, query);
  }

  /** For the selects of the group and device pages: group:list or device:list is enough. */
  async options(scope: Scope): Promise<TDeviceGroupOption[]> {
    const allowed =
      (await this.permissions.hasIn(scope, 'group:list')) ||
      (await this.permissions.hasIn(scope, 'device:list'));
    if (!allowed) throw forbidden();
    return this.repository.options(scope.companyId);
  }

  async get(scope: Scope, id: string): Promise<TDeviceGroup> {
    const group = await requireAccess(this.repository.findById(scope.companyId, id));
    const [withCounts] = await this.withCounts(scope, [group]);
    return requireAccess(withCounts);
  }

  private async withCounts(scope: Scope, groups: DeviceGroupTable[]): Promise<TDeviceGroup[]> {
    const rules = await this.dataRules.filterFor(scope, DEVICE_RULES);
    const counts = await this.repository.counts(
      scope.companyId,
      groups.map((g) => g.id),
      rules,
    );
    const count = (groupId: string, status?: string) =>
      counts
        .filter((c) => c.groupId === groupId && (!status || c.status === status))
        .reduce((sum, c) => sum + c.count, 0);
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      remark: g.remark,
      deviceCount: count(g.id),
      onlineCount: count(g.id, 'online'),
      offlineCount: count(g.id, 'offline'),
      createTime: iso(g.create_time),
    }));
  }

  /** Throws 404 unless the group is the company's. */
  async requireInCompany(scope: Scope, id: string): Promise<void> {
    await requireAccess(this.repository.findById(scope.companyId, id), 'deviceGroupNotFound');
  }

  /** Group ids of the company by name, for imports that name groups. */
  idsByName(scope: Scope): Promise<Map<string, string>> {
    return this.repository.idsByName(scope.companyId);
  }

  async add(scope: Scope, input: TDeviceGroupCreate): Promise<TDeviceGroup> {
    if (await this.repository.nameTaken(scope.companyId, input.name, null)) {
      throw new AppError('deviceGroupNameExists', 409);
    }
    const id = newId();
    await this.repository
      .insert({
        id,
        company_id: scope.companyId,
        name: input.name,
        remark: input.remark ?? null,
        create_time: this.clock(),
        update_time: null,
      })
      .catch(nameConflict);
    return this.get(scope, id);
  }

  async edit(scope: Scope, input: TDeviceGroupEdit): Promise<TDeviceGroup> {
    if (await this.repository.nameTaken(scope.companyId, input.name, input.id)) {
      throw new AppError('deviceGroupNameExists', 409);
    }
    const updated = await this.repository
      .update(scope.companyId, input.id, {
        name: input.name,
        ...(input.remark !== undefined ? { remark: input.remark } : {}),
        update_time: this.clock(),
      })
      .catch(nameConflict);
    if (!updated) throw notFound();
    return this.get(scope, input.id);
  }

  /** All or nothing; the devices of deleted groups stay, in no group. */
  async delete(scope: Scope, ids: string[]): Promise<number> {
    await requireAccessToAll(ids, (unique) => this.repository.existingIds(scope.companyId, unique));
    return this.repository.delete(scope.companyId, ids, (trx) =>
      this.devices.ungroup(scope.companyId, ids, trx),
    );
  }
}
