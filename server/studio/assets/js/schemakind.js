// What a JSON Schema is to the generated form: which control a field
// gets, and the one-line summary of its constraints.

// describeSchema classifies a schema for the form: {kind, schema,
// nullable} where kind is one of string, number, integer, boolean, enum,
// const, object, raw.
export function describeSchema(input) {
  let s = input;
  let nullable = false;
  if (s === true || s === undefined || s === null) return {kind: 'raw', schema: {}, nullable};
  if (typeof s !== 'object' || Array.isArray(s)) return {kind: 'raw', schema: {}, nullable};
  // A union with null: the other branch, nullable.
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(s[key])) {
      const others = s[key].filter((b) => !(b && b.type === 'null'));
      if (others.length === 1 && others.length < s[key].length) {
        const rest = {...s};
        delete rest[key];
        s = {...rest, ...others[0]};
        nullable = true;
      }
    }
  }
  let type = s.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    nullable = nullable || nonNull.length < type.length;
    type = nonNull.length === 1 ? nonNull[0] : undefined;
    if (type === undefined) return {kind: 'raw', schema: s, nullable};
  }
  if (s.$ref || s.allOf || s.anyOf || s.oneOf || s.not || s.if) return {kind: 'raw', schema: s, nullable};
  if ('const' in s) return {kind: 'const', schema: s, nullable};
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
    return {kind: 'enum', schema: s, nullable};
  }
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return {kind: type, schema: s, nullable};
    case 'object':
      if (s.properties && typeof s.properties === 'object' && Object.keys(s.properties).length > 0 && !s.patternProperties) {
        return {kind: 'object', schema: s, nullable};
      }
      return {kind: 'raw', schema: s, nullable};
    default:
      return {kind: 'raw', schema: s, nullable};
  }
}

// constraintText summarises a field's type and bounds for its help line.
export function constraintText(kind, s) {
  const parts = [];
  if (kind === 'integer' || kind === 'number') {
    parts.push(kind);
    const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? `>${s.exclusiveMinimum}` : undefined);
    const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? `<${s.exclusiveMaximum}` : undefined);
    const ok = (v) => v !== undefined && (typeof v === 'string' || isBound(v));
    if (ok(lo) && ok(hi)) parts.push(`${lo} to ${hi}`);
    else if (ok(lo)) parts.push(`min ${lo}`);
    else if (ok(hi)) parts.push(`max ${hi}`);
  } else if (kind === 'string') {
    if (s.format) parts.push(s.format);
    if (s.minLength === 1) parts.push('not empty');
    else if (s.minLength > 1) parts.push(`at least ${s.minLength} characters`);
    if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} character${s.maxLength === 1 ? '' : 's'}`);
    if (s.pattern) parts.push(`pattern ${s.pattern}`);
  } else if (kind === 'raw') {
    parts.push('JSON' + (s.type ? ` (${[].concat(s.type).join(' | ')})` : ''));
  }
  return parts.join(', ');
}

// isBound tells a useful numeric bound from none (or Zod's safe-integer
// bounds, which say nothing to a person).
export function isBound(v) {
  return typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER;
}

