// Lint rules that keep the layout of docs/architecture.md: what a server module folder may hold,
// and web features that never reach into one another.
import path from 'node:path';

/** The kinds of file a server module holds, by suffix (docs/architecture.md "Adding a module"). */
const MODULE_FILE_KINDS = [
  'module',
  'routes',
  'hook',
  'service',
  'repository',
  'rules',
  'messages',
  'menu',
  'test',
];
const MODULE_FILE = new RegExp(`\\.(${MODULE_FILE_KINDS.join('|')})\\.ts$`);

const moduleFileKinds = {
  meta: {
    type: 'problem',
    docs: { description: 'files in server/src/modules/<module>/ are of a known kind' },
    schema: [],
    messages: {
      kind: 'A module file is named <name>.{{kinds}}.ts; "{{file}}" is none of these.',
    },
  },
  create(context) {
    return {
      Program(node) {
        const file = path.basename(context.filename);
        if (!MODULE_FILE.test(file))
          context.report({
            node,
            messageId: 'kind',
            data: { file, kinds: MODULE_FILE_KINDS.join('|') },
          });
      },
    };
  },
};

/** `web/src/features/<feature>/...` → `<feature>`, else null. */
function featureOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('features');
  return at > 0 && parts[at - 1] === 'src' && parts.length > at + 2 ? parts[at + 1] : null;
}

const featureIsolation = {
  meta: {
    type: 'problem',
    docs: { description: 'a web feature never imports another feature' },
    schema: [
      {
        type: 'object',
        properties: {
          /** `{ from, to, why }`: a composition the layout allows, with its reason. */
          allow: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                from: { type: 'string' },
                to: { type: 'string' },
                why: { type: 'string' },
              },
              required: ['from', 'to', 'why'],
            },
          },
        },
      },
    ],
    messages: {
      sibling:
        'Feature "{{from}}" imports feature "{{to}}": move what both need to web/src/shared/.',
    },
  },
  create(context) {
    const from = featureOf(context.filename);
    const allowed = new Set((context.options[0]?.allow ?? []).map((a) => `${a.from}>${a.to}`));
    const check = (node) => {
      const source = node.source?.value;
      if (!from || typeof source !== 'string' || !source.startsWith('.')) return;
      const to = featureOf(path.resolve(path.dirname(context.filename), source));
      if (to && to !== from && !allowed.has(`${from}>${to}`))
        context.report({ node: node.source, messageId: 'sibling', data: { from, to } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const boundaries = {
  rules: { 'module-file-kinds': moduleFileKinds, 'feature-isolation': featureIsolation },
};
