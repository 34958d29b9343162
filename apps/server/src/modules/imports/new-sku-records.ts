/**
 * The weekly records an import creates for new SKUs, as the statement that inserts them takes
 * them (insertNewSkuWeeks): the SKUs that get records, the horizon's weeks, a few distinct record
 * values ("shapes") and, per record, three indexes into those. A SKU without a record (a catalogue
 * row) is not listed at all, so it costs the statement nothing.
 */
export class NewSkuRecords<Key, Shape> {
  /** The SKUs with at least one record, in the order they were added. */
  readonly pids: string[] = [];
  /** Distinct record values, each computed once. */
  readonly shapes: Shape[] = [];
  /** One entry per record, in the order added: indexes into `pids`, `weeks` and `shapes`. */
  readonly records: { sku: number[]; week: number[]; shape: number[] } = { sku: [], week: [], shape: [] };
  private readonly shapeIndex = new Map<string, number>();

  constructor(
    readonly weeks: readonly string[],
    /** The record values of a key (computed once per distinct key). */
    private readonly shapeOf: (key: Key) => Shape,
    /** Equal keys give equal strings. */
    private readonly keyText: (key: Key) => string,
  ) {}

  /**
   * SKU `pid`'s record in week `week` (an index into `weeks`) with the values of `key`. A SKU's
   * records are added together, one SKU after the other.
   */
  add(pid: string, week: number, key: Key): void {
    if (this.pids[this.pids.length - 1] !== pid) this.pids.push(pid);
    this.records.sku.push(this.pids.length - 1);
    this.records.week.push(week);
    this.records.shape.push(this.indexOf(key));
  }

  get size(): number {
    return this.records.sku.length;
  }

  private indexOf(key: Key): number {
    const text = this.keyText(key);
    const known = this.shapeIndex.get(text);
    if (known !== undefined) return known;
    const index = this.shapes.push(this.shapeOf(key)) - 1;
    this.shapeIndex.set(text, index);
    return index;
  }
}
