import type { TDictItem } from '@blrms/contracts';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { DictRepository } from './dict.repository.js';

export class DictService {
  constructor(private readonly repository: DictRepository) {}

  /** Items of a stored dictionary only: a code never names a table or a filter. */
  async items(dictCode: string, lang: Lang): Promise<TDictItem[]> {
    const dict = await this.repository.findByCode(dictCode);
    if (!dict) throw new AppError('dictNotFound', 404);
    const rows = await this.repository.enabledItems(dict.id);
    return rows.map((r) => {
      const text = lang === 'en-US' ? (r.item_text_en ?? r.item_text) : r.item_text;
      return { value: r.item_value, text, label: text, color: r.item_color };
    });
  }
}
