meta:
  id: address_space_itable
  title: UMTracer address space table (address_space.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file address_space.itable (rule catalog: specs/umtrace.md):
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
    type: 'address_range(_index > 0, _index > 0 ? rows[_index - 1].first : 0, _index > 0 ? rows[_index - 1].last : 0)'
    size: header.len_row
    repeat: expr
    repeat-expr: header.num_rows
    doc: The addressRange rows, inside the file (UMT-TABLE-ROWS-IN-FILE).
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
        valid: 16
        doc: RowSize, the size of one row (UMT-TABLE-ROW-SIZE).
      - id: table_fp
        type: s8
        valid:
          min: 32
        doc: TableFP, at or after the header (UMT-TABLE-ROWS-OFFSET).
  address_range:
    params:
      - id: has_prev
        type: bool
        doc: Whether a range comes before this one (UMT-RANGES-OVERLAP).
      - id: prev_first
        type: u8
        doc: The previous range's First (UMT-RANGES-OVERLAP).
      - id: prev_last
        type: u8
        doc: The previous range's Last (UMT-RANGES-OVERLAP).
    seq:
      - id: first
        type: u8
        valid:
          expr: _ % 4096 == 0
        doc: First byte, page-aligned and below Last (UMT-RANGE-FIRST-ALIGNED, UMT-RANGE-ORDER, UMT-RANGES-SORTED, UMT-RANGES-OVERLAP, UMT-RANGES-ADJACENT).
      - id: last
        type: u8
        valid:
          expr: |
            (_ + 1) % 4096 == 0 and first < _ and
              not (has_prev and first <= prev_last and _ >= prev_first)
        doc: |
          Last byte; Last + 1 is page-aligned (UMT-RANGE-END-ALIGNED), above First
          (UMT-RANGE-ORDER); the range shares no byte with the previous one
          (UMT-RANGES-OVERLAP; unsorted or adjacent ranges are the warnings
          UMT-RANGES-SORTED and UMT-RANGES-ADJACENT).
