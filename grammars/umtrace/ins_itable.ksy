meta:
  id: ins_itable
  title: UMTracer instruction table (ins.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file ins.itable (rule catalog: specs/umtrace.md):
  a table header, then RowCount rows of RowSize bytes at TableFP, inside the
  file. Little-endian. The extra area (disassembly strings, decoded instructions) is reached through offsets and is not described here.
  Cross-table rules are outside the grammar (see grammars/README.md).
seq:
  - id: header
    type: table_header
    doc: The table header.
  - id: gap
    size: header.table_fp - 48
    doc: Bytes between the header and the rows (the extra area may lie here).
  - id: rows
    type: ins_rec(_index)
    size: header.len_row
    repeat: expr
    repeat-expr: header.num_rows
    doc: The insRec rows, inside the file (UMT-TABLE-ROWS-IN-FILE).
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
          max: 1
        doc: RecordVer, 0..1 (UMT-TABLE-RECORD-VERSION).
      - id: num_rows
        type: s8
        valid:
          min: 0
        doc: RowCount, not negative (UMT-TABLE-ROW-COUNT).
      - id: len_row
        type: s8
        valid: 64
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
  ins_rec:
    params:
      - id: index
        type: s8
        doc: The row's index.
    seq:
      - id: id
        type: s8
        valid:
          expr: _ == index
        doc: ID, its own row index (UMT-INS-ID).
      - id: type
        type: u1
        valid:
          any-of: [0, 1, 2, 3, 4, 5, 6, 8, 9]
        doc: Instruction type, 0..6, 8 or 9 (UMT-INS-TYPE).
      - id: cs_is_64_bits
        type: u1
        valid:
          any-of: [0, 1]
        doc: 1 for 64-bit code, 0 for 32-bit (UMT-INS-MODE, UMT-INS-ADDR32).
      - id: code_size
        type: u1
        valid:
          min: 1
          max: 15
        doc: Number of code bytes, 1..15 (UMT-INS-CODE-SIZE).
      - id: reserved1
        size: 1
        doc: Unused.
      - id: module_id
        type: s4
        doc: A row of module.itable or -1 (UMT-INS-MODULE).
      - id: address
        type: u8
        valid:
          expr: cs_is_64_bits == 1 or _ < 0x100000000
        doc: Code address, below 2^32 for 32-bit code (UMT-INS-IN-MODULE, UMT-INS-ADDR32).
      - id: code_bytes
        size: 15
        doc: The instruction's bytes, CodeSize of them used.
      - id: reserved2
        size: 1
        doc: Unused.
      - id: disasm_fp
        type: s8
        doc: Offset in the extra area of the disassembly, a length-prefixed string.
      - id: decoded_fp
        type: s8
        doc: Offset in the extra area of the decoded instruction.
      - id: reserved3
        size: 8
        doc: Unused.
