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
    doc: The threadRec rows, inside the file (UMT-U108).
  - id: rest
    size-eos: true
    doc: The extra area or trailing bytes (UMT-U110, UMT-U111).
types:
  table_header:
    doc: The 32-byte table header (UMT-U101).
    seq:
      - id: header_ver
        type: u4
        valid: 0
        doc: HeaderVer, 0 (UMT-U102).
      - id: record_ver
        type: u4
        valid:
          max: 0
        doc: RecordVer, 0 (UMT-U103).
      - id: num_rows
        type: s8
        valid:
          min: 0
        doc: RowCount, not negative (UMT-U104).
      - id: len_row
        type: s8
        valid: 48
        doc: RowSize, the size of one row (UMT-U105).
      - id: table_fp
        type: s8
        valid:
          min: 32
        doc: TableFP, at or after the header (UMT-U107).
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
        doc: ID, its own row index (UMT-U270).
      - id: win_tid
        type: s4
        doc: The Windows thread id.
      - id: tib_addr
        type: u8
        doc: The thread information block's address (UMT-U244).
      - id: first_eid
        type: s8
        doc: The thread's first execution record (UMT-U271).
      - id: last_eid
        type: s8
        doc: The thread's last execution record or -1 (UMT-U272).
      - id: rec_count
        type: s8
        doc: The number of the thread's execution records (UMT-U273).
      - id: reserved
        size: 8
        doc: Unused.
