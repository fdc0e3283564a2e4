/**
 * A minimal SQLite 3 database writer: one table of INTEGER/REAL columns, rows only appended,
 * the whole database produced as one file image. Facts from SQLite's "Database File Format"
 * document; the code is tsklee's own.
 *
 * The image: page 1 holds the 100-byte database header and the schema table (one row, the
 * table's CREATE statement) as a table B-tree leaf; page 2 is the root of the table's B-tree;
 * the leaves follow from page 3 when the table needs more than one, then the other interior
 * pages. Page size 4096, no reserved bytes, legacy (rollback-journal) file format, schema
 * format 4, UTF-8, no free pages, no overflow pages (a row too large for one page is refused).
 *
 * Rows only grow at the end, so a filled leaf never changes again: it is kept as a finished
 * page image, and each image() re-does only the last leaf and the interior pages.
 */
import { encodeRecord, varintLength, writeVarint, type SqliteAffinity, type SqliteValue } from './sqlite-record.js';

export const SQLITE_PAGE_SIZE = 4096;
/** Largest payload a table leaf cell may keep on its page (U - 35); more would need overflow pages. */
const MAX_LOCAL_PAYLOAD = SQLITE_PAGE_SIZE - 35;
const DB_HEADER_SIZE = 100;
const LEAF_HEADER_SIZE = 8;
const INTERIOR_HEADER_SIZE = 12;
const PAGE_LEAF_TABLE = 0x0d;
const PAGE_INTERIOR_TABLE = 0x05;
const ROOT_PAGE = 2;
/** The page holding file offset 2^30, which SQLite never uses (page 262145 with 4096-byte pages). */
const LOCK_BYTE_PAGE = 2 ** 30 / SQLITE_PAGE_SIZE + 1;
/** Names are written into the CREATE statement as they are, so only plain identifiers are taken. */
const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * SQLITE_VERSION_NUMBER recorded as the file's last writer: SQLite 3.54.1, the one in sql.js,
 * with which tsklee reads these files back.
 */
const WRITER_VERSION_NUMBER = 3_054_001;

/** One column of the table. */
export interface SqliteColumn {
  name: string;
  affinity: SqliteAffinity;
}

/** A finished page image and the largest rowid under it (the key its parent records). */
interface TreeNode {
  page: Uint8Array;
  maxRowid: number;
}

export class SqliteTableFile {
  /** The CREATE TABLE statement as stored in the schema table. */
  readonly createSql: string;
  private readonly affinities: SqliteAffinity[];
  private readonly schemaCell: Uint8Array;
  private readonly fullLeaves: TreeNode[] = [];
  /** Cells of the last, still growing leaf. */
  private openCells: Uint8Array[] = [];
  private openBytes = 0;
  private rows = 0;
  private changeCounter = 0;

  constructor(
    readonly table: string,
    readonly columns: readonly SqliteColumn[],
  ) {
    for (const name of [table, ...columns.map((c) => c.name)]) {
      if (!IDENTIFIER_RE.test(name)) throw new Error(`sqlite: '${name}' is not a plain identifier`);
    }
    this.createSql = `CREATE TABLE ${table} (${columns.map((c) => `${c.name} ${c.affinity}`).join(',')})`;
    this.affinities = columns.map((c) => c.affinity);
    const schemaRow: SqliteValue[] = ['table', table, table, ROOT_PAGE, this.createSql];
    // The schema table's columns are TEXT, TEXT, TEXT, INTEGER, TEXT; strings are stored as TEXT under any affinity.
    const schemaRecord = encodeRecord(schemaRow, ['INTEGER', 'INTEGER', 'INTEGER', 'INTEGER', 'INTEGER']);
    this.schemaCell = leafCell(1, schemaRecord);
    if (schemaRecord.length > MAX_LOCAL_PAYLOAD || !fitsLeaf(1, this.schemaCell.length, DB_HEADER_SIZE)) {
      throw new Error(`sqlite: the schema of table '${table}' (${columns.length} columns) does not fit on page 1`);
    }
  }

  /** Number of rows appended. */
  get rowCount(): number {
    return this.rows;
  }

  /** Appends a row (values in column order); its rowid is the row count after it. */
  append(values: readonly SqliteValue[]): void {
    if (values.length !== this.columns.length) throw new Error(`sqlite: row of ${values.length} values for ${this.columns.length} columns`);
    const record = encodeRecord(values, this.affinities);
    if (record.length > MAX_LOCAL_PAYLOAD) throw new Error(`sqlite: row of ${record.length} bytes needs overflow pages (at most ${MAX_LOCAL_PAYLOAD})`);
    const cell = leafCell(this.rows + 1, record);
    if (this.openCells.length > 0 && !fitsLeaf(this.openCells.length + 1, this.openBytes + cell.length, 0)) {
      this.fullLeaves.push({ page: leafPage(this.openCells, 0), maxRowid: this.rows });
      this.openCells = [];
      this.openBytes = 0;
    }
    this.openCells.push(cell);
    this.openBytes += cell.length;
    this.rows++;
  }

  /** The complete database file as it stands; each call counts as one change of the file. */
  image(): Uint8Array {
    const leaves = [...this.fullLeaves];
    if (this.openCells.length > 0 || leaves.length === 0) leaves.push({ page: leafPage(this.openCells, 0), maxRowid: this.rows });
    const pages = treePages(leaves);
    const pageCount = 1 + pages.length;
    if (pageCount >= LOCK_BYTE_PAGE) throw new Error(`sqlite: a database of ${pageCount} pages would reach the lock-byte page at 1 GiB, which this writer does not skip`);
    const out = new Uint8Array(pageCount * SQLITE_PAGE_SIZE);
    this.changeCounter = (this.changeCounter + 1) >>> 0;
    writeDatabaseHeader(out, pageCount, this.changeCounter);
    out.set(leafPage([this.schemaCell], DB_HEADER_SIZE).subarray(DB_HEADER_SIZE), DB_HEADER_SIZE);
    pages.forEach((p, i) => out.set(p, (i + 1) * SQLITE_PAGE_SIZE));
    return out;
  }
}

/** A table leaf cell: payload length, rowid, payload (all of it local). */
function leafCell(rowid: number, record: Uint8Array): Uint8Array {
  const cell = new Uint8Array(varintLength(record.length) + varintLength(rowid) + record.length);
  let off = writeVarint(cell, 0, record.length);
  off = writeVarint(cell, off, rowid);
  cell.set(record, off);
  return cell;
}

/** Whether `cells` cells of `bytes` bytes in all fit a leaf page whose B-tree header starts at `headerAt`. */
function fitsLeaf(cells: number, bytes: number, headerAt: number): boolean {
  return headerAt + LEAF_HEADER_SIZE + 2 * cells + bytes <= SQLITE_PAGE_SIZE;
}

/**
 * A table leaf page holding `cells` in rowid order: the B-tree header at `headerAt` (100 on
 * page 1), the cell pointer array after it, the cells packed at the end of the page.
 */
function leafPage(cells: readonly Uint8Array[], headerAt: number): Uint8Array {
  const page = new Uint8Array(SQLITE_PAGE_SIZE);
  const view = new DataView(page.buffer);
  let content = SQLITE_PAGE_SIZE;
  cells.forEach((cell, i) => {
    content -= cell.length;
    page.set(cell, content);
    view.setUint16(headerAt + LEAF_HEADER_SIZE + 2 * i, content);
  });
  if (content < headerAt + LEAF_HEADER_SIZE + 2 * cells.length) throw new Error('sqlite: leaf page overfilled');
  writeBtreeHeader(view, headerAt, PAGE_LEAF_TABLE, cells.length, content);
  return page;
}

/** The B-tree page header: type, first freeblock (none), cell count, cell content start, fragmented bytes (none). */
function writeBtreeHeader(view: DataView, at: number, type: number, cells: number, content: number): void {
  view.setUint8(at, type);
  view.setUint16(at + 1, 0);
  view.setUint16(at + 3, cells);
  view.setUint16(at + 5, content); // ≤ 4096, so never the "0 means 65536" case
  view.setUint8(at + 7, 0);
}

/** Bytes a child costs in an interior page when it is not the right-most: 4-byte page number, key varint, cell pointer. */
function interiorCellCost(child: TreeNode): number {
  return 4 + varintLength(child.maxRowid) + 2;
}

/**
 * Pages 2, 3, … of the table's B-tree given its leaves in rowid order: the root on page 2 (the
 * only leaf, or an interior page), then the other leaves, then the other interior pages level
 * by level. All leaves are at the same depth, as SQLite requires.
 */
function treePages(leaves: TreeNode[]): Uint8Array[] {
  if (leaves.length === 1) return [leaves[0]!.page];
  // Leaves on pages 3…; each interior level follows the one below it; the root goes to page 2.
  const pages: Uint8Array[] = [new Uint8Array(0)];
  let level: { node: TreeNode; pgno: number }[] = leaves.map((node, i) => ({ node, pgno: ROOT_PAGE + 1 + i }));
  for (const l of leaves) pages.push(l.page);
  for (;;) {
    const groups = groupChildren(level.map((l) => l.node));
    const parents: { node: TreeNode; pgno: number }[] = [];
    let at = 0;
    for (const size of groups) {
      const children = level.slice(at, at + size);
      at += size;
      const node: TreeNode = { page: interiorPage(children), maxRowid: children[children.length - 1]!.node.maxRowid };
      const isRoot = groups.length === 1;
      parents.push({ node, pgno: isRoot ? ROOT_PAGE : ROOT_PAGE + pages.length });
      if (isRoot) pages[0] = node.page;
      else pages.push(node.page);
    }
    if (parents.length === 1) return pages;
    level = parents;
  }
}

/**
 * Splits children into interior pages: as many per page as fit, and at least two per page
 * (an interior page with no cell, only its right-most pointer, is not a proper B-tree node).
 */
function groupChildren(children: readonly TreeNode[]): number[] {
  const groups: number[] = [];
  let size = 0;
  let used = INTERIOR_HEADER_SIZE;
  for (let i = 0; i < children.length; i++) {
    // Adding a child turns the previous last child into a cell.
    const extra = size === 0 ? 0 : interiorCellCost(children[i - 1]!);
    if (size > 0 && used + extra > SQLITE_PAGE_SIZE) {
      groups.push(size);
      size = 0;
      used = INTERIOR_HEADER_SIZE;
    } else {
      used += extra;
    }
    size++;
  }
  groups.push(size);
  if (groups.length > 1 && groups[groups.length - 1] === 1) {
    groups[groups.length - 2]!--;
    groups[groups.length - 1]!++;
  }
  return groups;
}

/** A table interior page: one cell (left child, largest rowid under it) per child but the last, which is the right-most pointer. */
function interiorPage(children: readonly { node: TreeNode; pgno: number }[]): Uint8Array {
  const page = new Uint8Array(SQLITE_PAGE_SIZE);
  const view = new DataView(page.buffer);
  const cells = children.length - 1;
  let content = SQLITE_PAGE_SIZE;
  for (let i = 0; i < cells; i++) {
    const { node, pgno } = children[i]!;
    content -= 4 + varintLength(node.maxRowid);
    view.setUint32(content, pgno);
    writeVarint(page, content + 4, node.maxRowid);
    view.setUint16(INTERIOR_HEADER_SIZE + 2 * i, content);
  }
  if (content < INTERIOR_HEADER_SIZE + 2 * cells) throw new Error('sqlite: interior page overfilled');
  writeBtreeHeader(view, 0, PAGE_INTERIOR_TABLE, cells, content);
  view.setUint32(8, children[children.length - 1]!.pgno);
  return page;
}

const MAGIC = new TextEncoder().encode('SQLite format 3\0');

/** The 100-byte database header at the start of page 1. */
function writeDatabaseHeader(out: Uint8Array, pageCount: number, changeCounter: number): void {
  const view = new DataView(out.buffer, out.byteOffset, DB_HEADER_SIZE);
  out.set(MAGIC, 0);
  view.setUint16(16, SQLITE_PAGE_SIZE);
  view.setUint8(18, 1); // write version: legacy (rollback journal)
  view.setUint8(19, 1); // read version
  view.setUint8(20, 0); // reserved bytes per page
  view.setUint8(21, 64); // maximum embedded payload fraction (fixed)
  view.setUint8(22, 32); // minimum embedded payload fraction (fixed)
  view.setUint8(23, 32); // leaf payload fraction (fixed)
  view.setUint32(24, changeCounter);
  view.setUint32(28, pageCount); // trusted because the version-valid-for number below matches the change counter
  // 32, 36: no freelist
  view.setUint32(40, 1); // schema cookie: the schema was made once
  view.setUint32(44, 4); // schema format 4 (serial types 8 and 9 may be used)
  // 48: no suggested cache size; 52, 64: no auto-vacuum
  view.setUint32(56, 1); // text encoding UTF-8
  // 60: user version 0; 68: application id 0; 72..91: reserved, zero
  view.setUint32(92, changeCounter); // version-valid-for
  view.setUint32(96, WRITER_VERSION_NUMBER);
}
