meta:
  id: context_map_itable
  title: UMTracer context map (context_map.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file context_map.itable (rule catalog:
  specs/umtrace.md): a fixed block of exactly 17424 bytes with no table
  header (UMT-CMAP-SIZE): the register dump size, the register count, then
  512 common names, 512 register names and 512 register entries for each of
  32- and 64-bit code. Little-endian. Entries from ElemCount on are filler
  (the warning UMT-CMAP-UNUSED); the rules that compare one entry with another
  (UMT-CMAP-COMMON-SELF, UMT-CMAP-LARGEST, warnings) are outside the grammar.
seq:
  - id: dump_size
    type: u2
    doc: DumpSize, the size of a record's register buffer (UMT-CMAP-REGISTER-IN-DUMP, UMT-CONTEXT-REGS-IN-RECORD).
  - id: num_elems
    type: u2
    valid:
      max: 512
    doc: ElemCount, the number of registers, at most 512 (UMT-CMAP-COUNT).
  - id: reserved
    size: 12
    doc: Unused.
  - id: common_names
    type: s2
    repeat: expr
    repeat-expr: 512
    valid:
      expr: _index >= num_elems or (_ >= 0 and _ < num_elems)
    doc: CommonName of register i, a register below ElemCount (UMT-CMAP-COMMON-NAME; UMT-CMAP-COMMON-SELF outside the grammar).
  - id: names
    type: reg_name(_index < num_elems)
    size: 16
    repeat: expr
    repeat-expr: 512
    doc: The register names, 16 bytes each (UMT-CMAP-REGISTER-NAME).
  - id: regs_32
    type: reg_info(_index < num_elems)
    repeat: expr
    repeat-expr: 512
    doc: Where each register lies in the dump of 32-bit code (UMT-CMAP-REGISTER-IN-DUMP).
  - id: regs_64
    type: reg_info(_index < num_elems)
    repeat: expr
    repeat-expr: 512
    doc: Where each register lies in the dump of 64-bit code (UMT-CMAP-REGISTER-IN-DUMP).
types:
  reg_name:
    params:
      - id: is_used
        type: bool
        doc: Whether the register is below ElemCount.
    seq:
      - id: name
        terminator: 0
        if: is_used
        doc: The name of a register below ElemCount, NUL-terminated within its 16 bytes (UMT-CMAP-REGISTER-NAME).
      - id: rest
        size-eos: true
        doc: The bytes after the NUL (or the whole field, past ElemCount).
  reg_info:
    params:
      - id: is_used
        type: bool
        doc: Whether the register is below ElemCount (entries past it are UMT-CMAP-UNUSED, a warning).
    seq:
      - id: ofs_dump
        type: u2
        doc: Offset of the register in the dump, 0xffff when absent (UMT-CMAP-REGISTER-IN-DUMP).
      - id: len_dump
        type: u1
        valid:
          expr: |
            not is_used or (ofs_dump == 0xffff and _ == 0) or
              (_ > 0 and ofs_dump + _ <= _root.dump_size)
        doc: |
          Size of the register: absent (offset 0xffff, size 0) or inside the
          dump (UMT-CMAP-REGISTER-IN-DUMP).
      - id: reserved1
        size: 1
        doc: Unused.
      - id: eff_largest
        type: s2
        doc: The largest register holding this one (UMT-CMAP-LARGEST, a warning).
      - id: reserved2
        size: 2
        doc: Unused.
