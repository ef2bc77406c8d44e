// Module hooks for Node 20: @flue/runtime/node imports node:sqlite (Node
// 22.5 and later) at load time, though its local() sandbox never uses it.
// This stand-in lets the tests load local() and fails loudly if anything
// does try to open a database.
export async function resolve(specifier, context, next) {
  if (specifier === 'node:sqlite')
    return { url: 'vsh-test:sqlite', shortCircuit: true };
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url === 'vsh-test:sqlite')
    return {
      format: 'module',
      shortCircuit: true,
      source:
        'export class DatabaseSync { constructor() { ' +
        "throw new Error('node:sqlite needs Node 22.5 or later'); } }",
    };
  return next(url, context);
}
