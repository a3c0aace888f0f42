meta:
  id: module_itable
  title: UMTracer module table (module.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file module.itable (rule catalog: specs/umtrace.md):
  a table header, then RowCount rows of RowSize bytes at TableFP, inside the
  file. Little-endian. RowSize 48, or 64 in 2015 traces (UMT-MODULE-ROW-2015).
  Cross-table rules are outside the grammar (see grammars/README.md).
seq:
  - id: header
    type: table_header
    doc: The table header.
  - id: gap
    size: header.table_fp - 48
    doc: Bytes between the header and the rows (the extra area may lie here).
  - id: rows
    type: module_rec
    size: header.len_row
    repeat: expr
    repeat-expr: header.num_rows
    doc: The moduleRec rows, inside the file (UMT-TABLE-ROWS-IN-FILE).
  - id: rest
    size-eos: true
    doc: The extra area or trailing bytes (UMT-TABLE-EXTRA-OVERLAP, UMT-TABLE-TRAILING-BYTES).
types:
  table_header:
    doc: The 48-byte table header (UMT-TABLE-HEADER-SIZE).
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
        valid:
          any-of: [48, 64]
        doc: RowSize, the size of one row (UMT-TABLE-ROW-SIZE).
      - id: table_fp
        type: s8
        valid:
          min: 48
        doc: TableFP, at or after the header (UMT-TABLE-ROWS-OFFSET).
      - id: extra_fp
        type: s8
        doc: File offset of the extra area (strings, decoded instructions).
      - id: extra_size
        type: s8
        valid:
          expr: |
            _ == 0 or (extra_fp >= 48 and _ >= 0 and
              (extra_fp >= table_fp + num_rows * len_row or extra_fp + _ <= table_fp))
        doc: |
          Byte count of the extra area, which overlaps neither the header nor
          the rows (UMT-TABLE-EXTRA-OVERLAP).
  module_rec:
    seq:
      - id: load_eid
        type: s8
        doc: The execution record that loaded the module (UMT-MODULE-OVERLAP).
      - id: unload_eid
        type: s8
        doc: The one that unloaded it, or -1 (UMT-MODULE-OVERLAP).
      - id: start_addr
        type: u8
        doc: First address, not above EndAddr (UMT-MODULE-RANGE, UMT-MODULE-ADDR32).
      - id: end_addr
        type: u8
        doc: Last address (UMT-MODULE-RANGE, UMT-MODULE-ADDR32).
      - id: win_name_fp
        type: s8
        doc: File offset of the module's name, a length-prefixed UTF-16 string.
      - id: device_name_fp
        type: s8
        doc: File offset of its device path, a length-prefixed UTF-16 string.
      - id: last_file_write_time
        type: s8
        if: _io.size == 64
        doc: The 2015 64-byte moduleRec only (UMT-MODULE-ROW-2015).
      - id: version_info
        type: u8
        if: _io.size == 64
        doc: The 2015 64-byte moduleRec only (UMT-MODULE-ROW-2015).
