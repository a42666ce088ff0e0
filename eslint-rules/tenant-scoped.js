// A lint rule that keeps tenant isolation of docs/architecture.md: queries on company-owned tables
// start from the company-scoped handle, outside the named cross-company repositories and methods.
import fs from 'node:fs';
import path from 'node:path';

/** Entry points of a Kysely query that name a table as their first argument. */
const ENTRY_POINTS = new Set([
  'selectFrom',
  'updateTable',
  'deleteFrom',
  'insertInto',
  'mergeInto',
]);

/**
 * The company-owned tables: those whose row type in the schema has a `company_id` column, the same
 * rule as the `TenantTable` type, so that a new tenant table is checked without a second list.
 */
function tenantTables(schemaFile) {
  const text = fs.readFileSync(schemaFile, 'utf8');
  const withCompany = new Set();
  for (const match of text.matchAll(/export interface (\w+) \{([^}]*)\}/g)) {
    if (/^\s*company_id\??:/m.test(match[2])) withCompany.add(match[1]);
  }
  const database = /export interface Database \{([^}]*)\}/.exec(text);
  if (!database) throw new Error(`tenant-scoped: no Database interface in ${schemaFile}`);
  const tables = new Set();
  for (const [, table, rowType] of database[1].matchAll(/^\s*(\w+): (\w+);/gm)) {
    if (withCompany.has(rowType)) tables.add(table);
  }
  return tables;
}

const cache = new Map();
function tablesOf(schemaFile) {
  if (!cache.has(schemaFile)) cache.set(schemaFile, tenantTables(schemaFile));
  return cache.get(schemaFile);
}

/** The table a string argument names: `'device as d'` names `device`. */
function tableOf(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') {
    return node.value.trim().split(/\s+/)[0];
  }
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) {
    return node.quasis[0].value.cooked.trim().split(/\s+/)[0];
  }
  return undefined;
}

function isScopedCall(node, factories) {
  return (
    node?.type === 'CallExpression' &&
    ((node.callee.type === 'Identifier' && factories.has(node.callee.name)) ||
      (node.callee.type === 'MemberExpression' &&
        !node.callee.computed &&
        factories.has(node.callee.property.name)))
  );
}

/** Whether an identifier is bound to the handle: `const q = scoped(...)`, or `db: CompanyDb`. */
function isHandleVariable(scope, identifier, factories, handleType) {
  for (let s = scope; s; s = s.upper) {
    const variable = s.set.get(identifier.name);
    if (!variable) continue;
    return variable.defs.some((def) => {
      if (def.type === 'Variable') return isScopedCall(def.node.init, factories);
      if (def.type === 'Parameter') {
        const annotation = def.name.typeAnnotation?.typeAnnotation;
        return (
          annotation?.type === 'TSTypeReference' &&
          annotation.typeName.type === 'Identifier' &&
          annotation.typeName.name === handleType
        );
      }
      return false;
    });
  }
  return false;
}

function enclosingClassAndMethod(node) {
  let method;
  for (let n = node.parent; n; n = n.parent) {
    if (!method && (n.type === 'MethodDefinition' || n.type === 'PropertyDefinition')) {
      method = n.key.type === 'Identifier' ? n.key.name : undefined;
    }
    if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') {
      return { className: n.id?.name, method };
    }
  }
  return { className: undefined, method };
}

/** @type {import('eslint').Rule.RuleModule} */
const scopedQueries = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Queries on company-owned tables start from the company-scoped handle (`scoped(db, companyId)`), except in the repositories and methods allowed to cross companies',
    },
    schema: [
      {
        type: 'object',
        properties: {
          schema: { type: 'string' },
          factories: { type: 'array', items: { type: 'string' } },
          handleType: { type: 'string' },
          ignoreReceivers: { type: 'array', items: { type: 'string' } },
          allow: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                file: { type: 'string' },
                class: { type: 'string' },
                methods: { type: 'array', items: { type: 'string' } },
                reason: { type: 'string' },
              },
              required: ['reason'],
              additionalProperties: false,
            },
          },
        },
        required: ['schema'],
        additionalProperties: false,
      },
    ],
    messages: {
      raw: "Query on the company-owned table '{{table}}' outside the company-scoped handle: start from scoped(db, companyId), or allow this cross-company {{where}} in the rule's options with a reason.",
    },
  },
  create(context) {
    const options = context.options[0];
    const tables = tablesOf(path.resolve(context.cwd, options.schema));
    const factories = new Set(options.factories ?? ['scoped']);
    const handleType = options.handleType ?? 'CompanyDb';
    const ignored = new Set(options.ignoreReceivers ?? []);
    const allowed = options.allow ?? [];
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed) return;
        if (!ENTRY_POINTS.has(callee.property.name)) return;
        const table = tableOf(node.arguments[0]);
        if (!table || !tables.has(table)) return;
        const receiver = callee.object;
        if (isScopedCall(receiver, factories)) return;
        if (receiver.type === 'Identifier') {
          if (ignored.has(receiver.name)) return;
          if (
            isHandleVariable(context.sourceCode.getScope(node), receiver, factories, handleType)
          ) {
            return;
          }
        }
        const { className, method } = enclosingClassAndMethod(node);
        const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
        const allowedHere = allowed.some(
          (a) =>
            (a.file === undefined || a.file === file) &&
            (a.class === undefined || a.class === className) &&
            (a.methods === undefined || a.methods.includes(method)),
        );
        if (allowedHere) return;
        context.report({
          node,
          messageId: 'raw',
          data: { table, where: className ? `method ${className}.${method}` : 'function' },
        });
      },
    };
  },
};

/** Flat-config plugin: `plugins: { tenancy }`, rule `tenancy/scoped-queries`. */
export const tenancy = {
  meta: { name: 'eslint-plugin-blrms-tenancy' },
  rules: { 'scoped-queries': scopedQueries },
};
