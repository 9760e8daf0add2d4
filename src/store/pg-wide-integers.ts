/**
 * PostgreSQL types a bound parameter from its context, so `users.id = $1` binds an INTEGER and a
 * client's id of 2^31 or more fails the whole query ("value out of range for type integer", a 500;
 * found by fuzzing, issue 9). SQLite, and Zulip (whose driver inlines literals), simply find no
 * such row. This plugin casts integer parameters outside the INTEGER range to BIGINT, so a lookup
 * compares as a wider integer and matches nothing, while a write of such a value into an INTEGER
 * column still fails as before (callers validate values they store).
 */
import {
  CastNode,
  DataTypeNode,
  OperationNodeTransformer,
  ValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

const isWide = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && (value < INT4_MIN || value > INT4_MAX);

/** The value as a BIGINT expression; the compiler accepts any node where a value goes. */
const asBigint = (node: ValueNode): ValueNode => CastNode.create(node, DataTypeNode.create("bigint")) as unknown as ValueNode;

class WideIntegerTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return !node.immediate && isWide(node.value) ? asBigint(node) : node;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    if (!node.values.some(isWide)) return node;
    const values = node.values.map((v) => (isWide(v) ? asBigint(ValueNode.create(v)) : ValueNode.create(v)));
    return ValueListNode.create(values) as unknown as PrimitiveValueListNode;
  }
}

export class WideIntegerPlugin implements KyselyPlugin {
  readonly #transformer = new WideIntegerTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
