import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const checkRuleMessages = defineMessages({
  checkRulePassed: { 'zh-CN': '校验通过', 'en-US': 'Valid' },
  checkRuleMismatch: { 'zh-CN': (p) => String(p.text), 'en-US': (p) => String(p.text) },
  checkRuleNotFound: { 'zh-CN': '校验规则不存在', 'en-US': 'Check rule not found' },
  checkRuleCodeExists: { 'zh-CN': '规则编码已存在', 'en-US': 'Rule code already exists' },
  checkRulePatternUnsafe: {
    'zh-CN': (p) => `rules.${p.index}.pattern: 不是有效的 RE2 正则表达式（${p.detail}）`,
    'en-US': (p) => `rules.${p.index}.pattern: not a valid RE2 regular expression (${p.detail})`,
  },
  checkRuleSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  checkRuleDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
});

type CheckRuleMessages = typeof checkRuleMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends CheckRuleMessages {}
}
