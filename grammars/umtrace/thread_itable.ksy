meta:
  id: thread_itable
  title: UMTracer thread table (thread.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file thread.itable (rule catalog: specs/umtrace.md):
  a table header, then RowCount rows of RowSize bytes at TableFP, inside the
  file. Little-endian. 
  Cross-table rules are outside the grammar (see grammars/README.md).
seq:
  - id: header
    type: table_header
    doc: The table header.
  - id: gap
    size: header.table_fp - 32
    doc: Bytes between the header and the rows (the extra area may lie here).
  - id: rows
    type: thread_rec(_index)
    size: header.len_row
    repeat: expr
    repeat-expr: header.num_rows
    doc: The threadRec rows, inside the file (UMT-TABLE-ROWS-IN-FILE).
  - id: rest
    size-eos: true
    doc: The extra area or trailing bytes (UMT-TABLE-EXTRA-OVERLAP, UMT-TABLE-TRAILING-BYTES).
types:
  table_header:
    doc: The 32-byte table header (UMT-TABLE-HEADER-SIZE).
    seq:
      - id: header_ver
        type: u4
        valid: 0
        doc: HeaderVer, 0 (UMT-TABLE-HEADER-VERSION).
      - id: record_ver
        type: u4
        valid:
          max: 0
        doc: RecordVer, 0 (UMT-TABLE-RECORD-VERSION).
      - id: num_rows
        type: s8
        valid:
          min: 0
        doc: RowCount, not negative (UMT-TABLE-ROW-COUNT).
      - id: len_row
        type: s8
        valid: 48
        doc: RowSize, the size of one row (UMT-TABLE-ROW-SIZE).
      - id: table_fp
        type: s8
        valid:
          min: 32
        doc: TableFP, at or after the header (UMT-TABLE-ROWS-OFFSET).
  thread_rec:
    params:
      - id: index
        type: s4
        doc: The row's index.
    seq:
      - id: id
        type: s4
        valid:
          expr: _ == index
        doc: ID, its own row index (UMT-THREAD-ID).
      - id: win_tid
        type: s4
        doc: The Windows thread id.
      - id: tib_addr
        type: u8
        doc: The thread information block's address (UMT-CONTEXT-TIB).
      - id: first_eid
        type: s8
        doc: The thread's first execution record (UMT-THREAD-FIRST-EID).
      - id: last_eid
        type: s8
        doc: The thread's last execution record or -1 (UMT-THREAD-LAST-EID).
      - id: rec_count
        type: s8
        doc: The number of the thread's execution records (UMT-THREAD-RECORD-COUNT).
      - id: reserved
        size: 8
        doc: Unused.
