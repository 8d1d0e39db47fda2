/**
 * The document's request and response schemas are zod's JSON Schema, inline: a recursive one (a
 * stack's layers hold layers) carries its own `$defs` and refers to them as `#/$defs/__schema0`,
 * which JSON Schema resolves against that schema but OpenAPI tools resolve against the document
 * (and then fail). Each such `$defs` is moved to `components.schemas` under a name of its own and
 * its references rewritten, so generators and validators can follow them.
 */
export function hoistLocalDefs(document: Record<string, unknown>): Record<string, unknown> {
  const hoisted: Record<string, unknown> = {};
  let counter = 0;
  const visit = (node: unknown, scope: ReadonlyMap<string, string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, scope));
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Record<string, unknown>;
    let inner = scope;
    const defs = object.$defs as Record<string, unknown> | undefined;
    if (defs && typeof defs === 'object') {
      const names = new Map(scope);
      counter += 1;
      for (const name of Object.keys(defs))
        names.set(name, `Inline${counter}_${name.replace(/\W/g, '')}`);
      inner = names;
      for (const [name, def] of Object.entries(defs)) hoisted[names.get(name)!] = visit(def, inner);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === '$defs') continue;
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        const target = inner.get(value.slice('#/$defs/'.length));
        out[key] = target ? `#/components/schemas/${target}` : value;
      } else out[key] = visit(value, inner);
    }
    return out;
  };
  const result = visit(document, new Map()) as Record<string, unknown>;
  const components = (result.components ?? {}) as Record<string, unknown>;
  result.components = {
    ...components,
    schemas: { ...((components.schemas as Record<string, unknown>) ?? {}), ...hoisted },
  };
  return result;
}
