/**
 * Which module each screen comes from, read from the one route table (src/app/routes.tsx's
 * screenLoaders, `login: () => import('../features/auth/LoginPage').then(...)`) as the bundler
 * reads it: the import() of each loader. A prerendered page preloads the chunks of its screens'
 * modules (prerenderPages.ts); nothing else names them.
 */

/** The route table: its file, from the app's root, and the object of loaders in it. */
export const ROUTE_TABLE = { file: 'src/app/routes.tsx', name: 'screenLoaders' } as const;

type Node = { type: string } & Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** The specifier of the first import() inside a node: a screen's loader. */
function importedSpecifier(node: unknown): string | undefined {
  const children = Array.isArray(node) ? node : isNode(node) ? Object.values(node) : [];
  if (isNode(node) && node.type === 'ImportExpression' && isNode(node.source) && typeof node.source.value === 'string') {
    return node.source.value;
  }
  for (const child of children) {
    const found = typeof child === 'object' ? importedSpecifier(child) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The object the route table's loaders are declared in (through a `satisfies` or `as`, if still there). */
function loadersObject(program: Node): Node {
  const statements = Array.isArray(program.body) ? program.body : [];
  for (const statement of statements) {
    const declaration = isNode(statement) && statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (!isNode(declaration) || declaration.type !== 'VariableDeclaration' || !Array.isArray(declaration.declarations)) continue;
    for (const declarator of declaration.declarations) {
      if (!isNode(declarator) || !isNode(declarator.id) || declarator.id.name !== ROUTE_TABLE.name) continue;
      let init = declarator.init;
      while (isNode(init) && (init.type === 'TSSatisfiesExpression' || init.type === 'TSAsExpression')) init = init.expression;
      if (isNode(init) && init.type === 'ObjectExpression') return init;
    }
  }
  throw new Error(`prerender: no object ${ROUTE_TABLE.name} in ${ROUTE_TABLE.file}`);
}

/** Each screen's key and the specifier its loader imports, in the route table's order. */
export function screenSpecifiers(program: unknown): Map<string, string> {
  if (!isNode(program)) throw new Error(`prerender: ${ROUTE_TABLE.file} did not parse`);
  const specifiers = new Map<string, string>();
  const properties = loadersObject(program).properties;
  for (const property of Array.isArray(properties) ? properties : []) {
    if (!isNode(property) || property.type !== 'Property' || !isNode(property.key)) {
      throw new Error(`prerender: ${ROUTE_TABLE.name} holds something other than key: loader`);
    }
    const { key } = property;
    const name = key.type === 'Identifier' ? key.name : key.value;
    const specifier = importedSpecifier(property.value);
    if (typeof name !== 'string' || specifier === undefined) {
      throw new Error(`prerender: the screen ${String(name)} of ${ROUTE_TABLE.name} imports no module by name`);
    }
    specifiers.set(name, specifier);
  }
  return specifiers;
}
