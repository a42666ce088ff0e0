import {
  ZCheckRuleItem,
  type TCheckByCodeQuery,
  type TCheckRule,
  type TCheckRuleEdit,
  type TCheckRuleInput,
  type TCheckRuleItem,
  type TCheckRuleListQuery,
  type TCheckRulePage,
} from '@blrms/contracts';
import { RE2JS } from 're2js';
import { z } from 'zod';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysCheckRuleTable } from '../../platform/db/schema.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { CheckRuleRepository } from './check-rule.repository.js';
import { pageResult } from '../../platform/http/paging.js';

const ZStoredItems = z.array(ZCheckRuleItem);

/**
 * Patterns are compiled by RE2JS, which matches in linear time and has no backreferences or
 * lookaround: no pattern an administrator saves can hang the server (no ReDoS), whatever the value.
 */
function compile(pattern: string, index: number): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    const detail =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : '';
    throw new AppError('checkRulePatternUnsafe', 400, { index, detail: detail.slice(0, 120) });
  }
}

function toCheckRule(row: SysCheckRuleTable): TCheckRule {
  return {
    id: row.id,
    ruleCode: row.rule_code,
    ruleName: row.rule_name,
    ruleDescription: row.rule_description,
    rules: ZStoredItems.parse(JSON.parse(row.rule_json)),
    createTime: new Date(row.create_time).toISOString(),
    updateTime: row.update_time === null ? null : new Date(row.update_time).toISOString(),
  };
}

export class CheckRuleService {
  /** Compiled patterns by rule code and update time: compiling on every keystroke check is waste. */
  private readonly compiled = new Map<string, { version: number; patterns: RE2JS[] }>();

  constructor(
    private readonly repository: CheckRuleRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Resolves when the value passes every rule of the code (an empty value always passes); throws
   * the failing rule's own message otherwise.
   */
  async check(query: TCheckByCodeQuery, lang: Lang): Promise<void> {
    const row = await this.repository.findByCode(query.ruleCode);
    if (!row) throw new AppError('checkRuleNotFound', 404);
    if (!query.value) return;
    const items = ZStoredItems.parse(JSON.parse(row.rule_json));
    const version = row.update_time ?? row.create_time;
    let cached = this.compiled.get(row.rule_code);
    if (!cached || cached.version !== version) {
      cached = { version, patterns: items.map((item, i) => compile(item.pattern, i)) };
      this.compiled.set(row.rule_code, cached);
    }
    for (const [i, item] of items.entries()) {
      if (!cached.patterns[i]?.test(query.value)) {
        throw new AppError('checkRuleMismatch', 400, {
          text: lang === 'en-US' ? item.messageEn : item.message,
        });
      }
    }
  }

  async list(query: TCheckRuleListQuery): Promise<TCheckRulePage> {
    const { records, total } = await this.repository.page(query);
    return pageResult(records.map(toCheckRule), total, query);
  }

  async get(id: string): Promise<TCheckRule> {
    const row = await this.repository.findById(id);
    if (!row) throw notFound('checkRuleNotFound');
    return toCheckRule(row);
  }

  async add(input: TCheckRuleInput): Promise<TCheckRule> {
    validatePatterns(input.rules);
    if (await this.repository.codeTaken(input.ruleCode)) {
      throw new AppError('checkRuleCodeExists', 409);
    }
    const row: SysCheckRuleTable = {
      id: newId(),
      rule_code: input.ruleCode,
      rule_name: input.ruleName,
      rule_description: input.ruleDescription ?? null,
      rule_json: JSON.stringify(input.rules),
      create_time: this.clock(),
      update_time: null,
    };
    await this.repository.insert(row);
    return toCheckRule(row);
  }

  async edit(input: TCheckRuleEdit): Promise<TCheckRule> {
    validatePatterns(input.rules);
    if (await this.repository.codeTaken(input.ruleCode, input.id)) {
      throw new AppError('checkRuleCodeExists', 409);
    }
    const updated = await this.repository.update(input.id, {
      rule_code: input.ruleCode,
      rule_name: input.ruleName,
      rule_description: input.ruleDescription ?? null,
      rule_json: JSON.stringify(input.rules),
      update_time: this.clock(),
    });
    if (!updated) throw notFound('checkRuleNotFound');
    return this.get(input.id);
  }

  async delete(ids: string[]): Promise<void> {
    if ((await this.repository.delete(ids)) === 0) throw notFound('checkRuleNotFound');
  }
}

function validatePatterns(items: TCheckRuleItem[]): void {
  items.forEach((item, i) => compile(item.pattern, i));
}
