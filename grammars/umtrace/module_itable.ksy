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
  The extra area holds the names, which each row's instances win_name and
  device_name read through its file offsets.
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
        valid:
          min: 0
        doc: File offset of the extra area (the module names), not negative (UMT-TABLE-EXTRA-IN-FILE).
      - id: extra_size
        type: s8
        valid:
          expr: |
            _ >= 0 and _ <= _io.size - extra_fp and
              (_ == 0 or (extra_fp >= 48 and
                (extra_fp >= table_fp + num_rows * len_row or extra_fp + _ <= table_fp)))
        doc: |
          Byte count of the extra area, not negative and inside the file
          (UMT-TABLE-EXTRA-IN-FILE), overlapping neither the header nor the rows
          (UMT-TABLE-EXTRA-OVERLAP).
  module_rec:
    seq:
      - id: load_eid
        type: s8
        valid:
          min: 0
        doc: |
          The execution record that loaded the module, not negative
          (UMT-MODULE-LOAD-EIDS; UMT-MODULE-EIDS-IN-TRACE and UMT-MODULE-OVERLAP,
          warnings, outside the grammar).
      - id: unload_eid
        type: s8
        valid:
          expr: _ == -1 or _ >= load_eid
        doc: The one that unloaded it, -1 or not below LoadEID (UMT-MODULE-LOAD-EIDS, UMT-MODULE-OVERLAP).
      - id: start_addr
        type: u8
        doc: First address, not above EndAddr (UMT-MODULE-RANGE, UMT-MODULE-ADDR32).
      - id: end_addr
        type: u8
        valid:
          expr: _ >= start_addr
        doc: Last address, not below StartAddr (UMT-MODULE-RANGE; UMT-MODULE-ADDR32 needs trace.xml).
      - id: win_name_fp
        type: s8
        valid:
          expr: _ >= _root.header.extra_fp and _ < _root.header.extra_fp + _root.header.extra_size
        doc: File offset of the module's name, a length-prefixed UTF-16 string in the extra area (UMT-MODULE-NAME-POINTER).
      - id: device_name_fp
        type: s8
        valid:
          expr: _ >= _root.header.extra_fp and _ < _root.header.extra_fp + _root.header.extra_size
        doc: File offset of its device path, a length-prefixed UTF-16 string in the extra area (UMT-MODULE-NAME-POINTER).
      - id: last_file_write_time
        type: s8
        if: _io.size == 64
        doc: The 2015 64-byte moduleRec only (UMT-MODULE-ROW-2015).
      - id: version_info
        type: u8
        if: _io.size == 64
        doc: The 2015 64-byte moduleRec only (UMT-MODULE-ROW-2015).
    instances:
      win_name:
        io: _root._io
        pos: win_name_fp
        type: ustr(_root.header.extra_fp + _root.header.extra_size)
        doc: The module's name (UMT-STRING-IN-AREA, UMT-STRING-LENGTH, UMT-STRING-TERMINATOR).
      device_name:
        io: _root._io
        pos: device_name_fp
        type: ustr(_root.header.extra_fp + _root.header.extra_size)
        doc: Its device path (UMT-STRING-IN-AREA, UMT-STRING-LENGTH, UMT-STRING-TERMINATOR).
  ustr:
    doc: A string of UTF-16 units, its length (in units) first and a NUL unit after it.
    params:
      - id: area_end
        type: s8
        doc: The file offset where the extra area ends (UMT-STRING-IN-AREA).
    seq:
      - id: len_text
        type: s2
        valid:
          expr: _io.pos <= area_end and _ >= 0 and _io.pos + 2 * _ + 2 <= area_end
        doc: |
          Length in units, in the area (UMT-STRING-IN-AREA), not negative
          (UMT-STRING-LENGTH), the text and its NUL in the area too (UMT-STRING-IN-AREA).
      - id: text
        size: 2 * len_text
        doc: The text; a NUL unit inside it is the warning UMT-STRING-EARLY-NUL.
      - id: nul
        type: u2
        valid: 0
        doc: The NUL unit after the text (UMT-STRING-TERMINATOR).
