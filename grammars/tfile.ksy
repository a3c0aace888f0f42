meta:
  id: tfile
  title: GDB trace file (tfile, "TRACE0")
  file-extension: tf
  license: CC0-1.0
  ks-version: '0.11'
  bit-endian: be
doc: |
  A trace file as GDB's `tsave` writes it and tracelint validates it (rule
  catalog: specs/tfile.md): a header line, description lines up to an empty
  line, binary frames in the target's byte order, and an end marker. The
  file does not say its byte order, and the register block size comes from
  the description's R line, which a grammar cannot look up among the lines:
  both are parameters. Text syntax of the lines is in grammars/tfile.abnf.
params:
  - id: is_be
    type: bool
    doc: The target's byte order (tracelint's --endian); true for big-endian.
  - id: len_registers
    type: u4
    doc: |
      The register block size: the hex number of the description's R line
      (TFILE-R-MISSING, TFILE-R-SYNTAX, TFILE-R-ZERO), or 0 when there is no
      valid R line (TFILE-BLOCK-R-UNKNOWN-SIZE).
seq:
  - id: header
    type: header
    doc: The 8-byte header line.
  - id: description
    type: desc_line
    repeat: until
    repeat-until: _.text.length == 0
    doc: |
      Description lines; an empty line ends them (TFILE-DESC-UNTERMINATED).
      Their contents: TFILE-LINE-*, TFILE-R-*, TFILE-STATUS-*, TFILE-TSV-*,
      TFILE-TP-*, TFILE-TDESC-* (grammars/tfile.abnf).
  - id: frames
    type: frame
    repeat: until
    repeat-until: _.is_end
    doc: Trace frames; the last is the end marker (TFILE-END-MISSING).
  - id: padding
    type: u1
    repeat: eos
    valid: 0
    doc: |
      Zero bytes after the end marker: tsave's padding or a circular
      buffer's unused tail (TFILE-END-TRAILING; none at all: TFILE-END-SHORT).
types:
  header:
    seq:
      - id: magic
        contents: [0x7f, "TRACE"]
        doc: The file's magic (TFILE-HEADER-MAGIC).
      - id: version
        type: u1
        valid: 0x30
        doc: The version digit, "0" (TFILE-HEADER-VERSION).
      - id: newline
        contents: [0x0a]
        doc: The header line's end (TFILE-HEADER-MAGIC).
  desc_line:
    seq:
      - id: text
        terminator: 0x0a
        valid:
          expr: _.length <= 999
        doc: |
          One line without its newline, at most 999 bytes
          (TFILE-LINE-TOO-LONG, TFILE-LINE-NUL, TFILE-LINE-CR, TFILE-LINE-CHARSET,
          TFILE-LINE-PREFIX).
  frame:
    meta:
      endian:
        switch-on: _root.is_be
        cases:
          true: be
          false: le
    seq:
      - id: tpnum
        type: u2
        valid:
          max: 0x7fff
        doc: |
          The tracepoint number, 1..0x7fff (TFILE-FRAME-HEADER,
          TFILE-FRAME-TPNUM, TFILE-FRAME-TPNUM-UNDEFINED); 0 marks the end.
      - id: len_blocks
        type: u4
        if: tpnum != 0
        doc: The byte count of the frame's blocks (TFILE-FRAME-HEADER, TFILE-FRAME-SIZE).
      - id: blocks
        type: blocks
        size: len_blocks
        if: tpnum != 0
        doc: The frame's blocks, tiling it exactly (TFILE-BLOCK-OVERRUN).
    instances:
      is_end:
        value: tpnum == 0
        doc: True for the end marker.
  blocks:
    meta:
      endian:
        switch-on: _root.is_be
        cases:
          true: be
          false: le
    seq:
      - id: blocks
        type: block
        repeat: eos
        doc: Blocks up to the frame's end (TFILE-BLOCK-OVERRUN).
  block:
    meta:
      endian:
        switch-on: _root.is_be
        cases:
          true: be
          false: le
    seq:
      - id: type
        type: u1
        valid:
          expr: '(_ == 0x52 and _root.len_registers > 0) or _ == 0x4d or _ == 0x56'
        doc: |
          'R' registers (TFILE-BLOCK-R-REPEATED, TFILE-BLOCK-R-UNKNOWN-SIZE),
          'M' memory or 'V' a state variable (TFILE-BLOCK-TYPE).
      - id: registers
        size: _root.len_registers
        if: type == 0x52
        doc: The register block, the R line's size (TFILE-BLOCK-R-UNKNOWN-SIZE).
      - id: memory
        type: memory_block
        if: type == 0x4d
        doc: A memory range.
      - id: variable
        type: variable_block
        if: type == 0x56
        doc: A trace state variable's value.
  memory_block:
    meta:
      endian:
        switch-on: _root.is_be
        cases:
          true: be
          false: le
    seq:
      - id: address
        type: u8
        doc: Start address (TFILE-BLOCK-M-WRAP, TFILE-BLOCK-M-ADDR32).
      - id: len_data
        type: u2
        doc: Byte count, at least 1 (TFILE-BLOCK-M-EMPTY).
      - id: data
        size: len_data
        doc: The memory contents (TFILE-BLOCK-OVERRUN).
  variable_block:
    meta:
      endian:
        switch-on: _root.is_be
        cases:
          true: be
          false: le
    seq:
      - id: number
        type: s4
        doc: The variable's number, defined by a tsv line (TFILE-BLOCK-V-UNDEFINED).
      - id: value
        type: s8
        doc: Its value.
