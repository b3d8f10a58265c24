// The channel rule language over account metadata: parsing with problems pinned to the bad part of the request
// (body.rule.all[1].any[0].field). Its translation to one parameterised SQL predicate over `accounts a` is
// ruleExpression (sync-queries.ts).
import { chatError } from '../base/errors.js';
import type { ErrorDetail } from '../../platform/http/app-error.js';
import type { Rule, RuleField } from '../base/channel-access.js';

export const RULE_LIMITS = { depth: 8, conditions: 100, items: 50, values: 100, valueLength: 100 } as const;

const FIELDS: readonly RuleField[] = ['team', 'department', 'role', 'tags'];
const OPERATORS = ['equals', 'in', 'contains'] as const;
const SHAPES = 'exactly one of all, any, not or field';

class Parser {
  readonly details: ErrorDetail[] = [];
  private conditions = 0;

  problem(location: string, message: string): undefined {
    this.details.push({ location, message });
    return undefined;
  }

  node(raw: unknown, at: string, depth: number): Rule | undefined {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return this.problem(at, `must be an object with ${SHAPES}`);
    if (depth > RULE_LIMITS.depth) return this.problem(at, `nests deeper than ${RULE_LIMITS.depth} levels`);
    this.conditions += 1;
    if (this.conditions === RULE_LIMITS.conditions + 1) this.problem(at, `makes the rule longer than ${RULE_LIMITS.conditions} conditions`);
    const obj = raw as Record<string, unknown>;
    const kinds = ['all', 'any', 'not', 'field'].filter((k) => k in obj);
    if (kinds.length !== 1) return this.problem(at, `must have ${SHAPES}${kinds.length > 1 ? ` (it has ${kinds.join(', ')})` : ''}`);
    const kind = kinds[0]!;
    if (kind === 'field') return this.condition(obj, at);
    for (const key of Object.keys(obj)) if (key !== kind) this.problem(`${at}.${key}`, `is not allowed beside ${kind}`);
    if (kind === 'not') {
      const inner = this.node(obj.not, `${at}.not`, depth + 1);
      return inner && { not: inner };
    }
    const list = obj[kind];
    if (!Array.isArray(list)) return this.problem(`${at}.${kind}`, 'must be an array of rules');
    if (list.length < 1 || list.length > RULE_LIMITS.items)
      return this.problem(`${at}.${kind}`, `must hold 1 to ${RULE_LIMITS.items} rules`);
    const parts = list.map((item, i) => this.node(item, `${at}.${kind}[${i}]`, depth + 1));
    if (parts.some((p) => p === undefined)) return undefined;
    return kind === 'all' ? { all: parts as Rule[] } : { any: parts as Rule[] };
  }

  private condition(obj: Record<string, unknown>, at: string): Rule | undefined {
    const field = obj.field;
    const ops = OPERATORS.filter((op) => op in obj);
    for (const key of Object.keys(obj)) {
      if (key !== 'field' && !(OPERATORS as readonly string[]).includes(key))
        this.problem(`${at}.${key}`, 'is not a known key (field takes one of equals, in, contains)');
    }
    if (typeof field !== 'string' || !(FIELDS as readonly string[]).includes(field)) {
      return this.problem(`${at}.field`, `must be one of ${FIELDS.join(', ')}`);
    }
    if (ops.length !== 1) return this.problem(at, `a condition on ${field} needs exactly one of equals, in, contains`);
    const op = ops[0]!;
    const f = field as RuleField;
    if (op === 'equals') {
      if (f === 'tags') return this.problem(`${at}.equals`, 'cannot apply to tags, which is a list: use contains or in');
      const value = this.value(obj.equals, `${at}.equals`);
      return value === undefined ? undefined : { field: f, equals: value };
    }
    if (op === 'contains') {
      if (f !== 'tags') return this.problem(`${at}.contains`, `applies to tags only; ${f} holds one value: use equals or in`);
      const value = this.value(obj.contains, `${at}.contains`);
      return value === undefined ? undefined : { field: 'tags', contains: value };
    }
    const list = obj.in;
    if (!Array.isArray(list)) return this.problem(`${at}.in`, 'must be an array of strings');
    if (list.length < 1 || list.length > RULE_LIMITS.values) return this.problem(`${at}.in`, `must hold 1 to ${RULE_LIMITS.values} values`);
    const values = list.map((v, i) => this.value(v, `${at}.in[${i}]`));
    if (values.some((v) => v === undefined)) return undefined;
    return { field: f, in: [...new Set(values as string[])] };
  }

  private value(raw: unknown, at: string): string | undefined {
    if (typeof raw !== 'string') return this.problem(at, 'must be a string');
    if (raw.length < 1 || raw.length > RULE_LIMITS.valueLength)
      return this.problem(at, `must be 1 to ${RULE_LIMITS.valueLength} characters`);
    if (raw.includes('\u0000')) return this.problem(at, 'must not contain U+0000');
    return raw;
  }
}

/** The rule as a typed tree, or a 400 validation_failed naming every bad part under `location`. */
export function parseRule(raw: unknown, location: string): Rule {
  const parser = new Parser();
  const rule = parser.node(raw, location, 1);
  if (parser.details.length > 0 || !rule) {
    const details = parser.details.length > 0 ? parser.details : [{ location, message: 'is not a valid rule' }];
    throw chatError(
      400,
      'validation_failed',
      `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}`,
      details,
    );
  }
  return rule;
}
