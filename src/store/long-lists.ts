/**
 * A client may send lists of tens of thousands of ids, names or emails, and a lookup turns each
 * into `x IN (?, ?, …)`: SQLite refuses a statement with more than 32 766 bound parameters and
 * PostgreSQL's protocol carries at most 65 535 (a 500, found by fuzzing, issue 9). This plugin
 * binds a long list as ONE parameter instead: SQLite reads it back with json_each, PostgreSQL as
 * an array (`x = ANY(?)`). Short lists, the usual case, are left as they are.
 */
import {
  BinaryOperationNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  sql,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import type { Dialect } from "./db.js";

/** Longer lists than this are bound as one parameter. */
const LONG_LIST = 1000;

function asOneParameter(dialect: Dialect, values: readonly unknown[], negated: boolean): { operator: string; list: OperationNode } {
  if (dialect === "sqlite") {
    return { operator: negated ? "not in" : "in", list: sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`.toOperationNode() };
  }
  // Integers compare as BIGINT, so an id past the INTEGER range matches nothing (pg-wide-integers.ts).
  const array = values.every((v) => Number.isInteger(v)) ? sql`CAST(${values} AS bigint[])` : sql`${values}`;
  return { operator: negated ? "<>" : "=", list: (negated ? sql`ALL(${array})` : sql`ANY(${array})`).toOperationNode() };
}

class LongListTransformer extends OperationNodeTransformer {
  constructor(private readonly dialect: Dialect) {
    super();
  }

  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const op = OperatorNode.is(node.operator) ? node.operator.operator : undefined;
    const right = node.rightOperand;
    if ((op !== "in" && op !== "not in") || !PrimitiveValueListNode.is(right) || right.values.length <= LONG_LIST) {
      return super.transformBinaryOperation(node);
    }
    const { operator, list } = asOneParameter(this.dialect, right.values, op === "not in");
    return BinaryOperationNode.create(this.transformNode(node.leftOperand), OperatorNode.create(operator as "in"), list);
  }
}

export class LongListPlugin implements KyselyPlugin {
  readonly #transformer: LongListTransformer;

  constructor(dialect: Dialect) {
    this.#transformer = new LongListTransformer(dialect);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
