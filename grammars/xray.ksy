meta:
  id: xray
  title: LLVM XRay trace (flight data recorder versions 1-5, basic mode versions 1-3)
  file-extension: xray
  license: CC0-1.0
  ks-version: '0.11'
doc: |
  An XRay trace as compiler-rt writes it and tracelint validates it
  (rule catalog: specs/xray.md). The byte order is the writer's: it is
  detected from the header's version field, whose high byte is zero in the
  file's own order. A `valid:` constraint fails the parse exactly where the
  rule it names fails; cross-record rules (call stack, argument order, time)
  are outside the grammar, see grammars/README.md.
seq:
  - id: trace
    type: trace
    doc: The whole file, in the byte order detected from its first byte.
instances:
  order_byte:
    pos: 0
    type: u1
    doc: |
      The low byte of the version (1..5) when the file is little-endian,
      zero when it is big-endian.
  is_be:
    value: order_byte == 0
    doc: True for a big-endian trace.
types:
  trace:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: header
        type: header
        doc: The 32-byte file header (XRAY-HEADER-SIZE).
      - id: fdr_v1
        type: v1_buffer
        size: header.len_buffer
        repeat: eos
        if: header.type == 1 and header.version == 1
        doc: |
          Version-1 buffers, each exactly the header's buffer_size
          (len_buffer) bytes (XRAY-FDR-V1-STRIDE).
      - id: fdr_extents
        type: extents_buffer
        repeat: eos
        if: header.type == 1 and header.version >= 2
        doc: Version 2..5 buffers, each led by a BufferExtents record.
      - id: basic
        type: basic_record
        size: 32
        repeat: eos
        if: header.type == 0
        doc: Basic-mode records of 32 bytes (XRAY-BASIC-SIZE).
  header:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: version
        type: u2
        valid:
          min: 1
          max: 5
        doc: Format version, 1..5 for FDR, 1..3 for basic mode (XRAY-HEADER-VERSION).
      - id: type
        type: u2
        valid:
          expr: '_ == 1 or (_ == 0 and version <= 3)'
        doc: |
          0 basic mode, 1 flight data recorder (XRAY-HEADER-TYPE); basic mode
          only up to version 3 (XRAY-HEADER-VERSION).
      - id: flags
        type: u4
        doc: |
          Bit 0 constant TSC, bit 1 non-stop TSC; reserved bits 2..31 are
          zero in FDR traces (XRAY-HEADER-FLAGS, a warning, so not a `valid:`).
      - id: cycle_frequency
        type: u8
        valid:
          min: 1
        doc: |
          TSC ticks per second, not zero (XRAY-HEADER-CYCLE-FREQUENCY);
          1 kHz..100 GHz is plausible (XRAY-HEADER-CYCLE-RANGE, a warning).
      - id: len_buffer
        type: u8
        valid:
          expr: 'type == 0 or _ >= 64'
        doc: |
          FDR: buffer_size, the per-thread buffer capacity in bytes, at
          least 64 (XRAY-HEADER-BUFFER-SIZE). Basic mode leaves it uninitialised.
      - id: reserved
        size: 8
        doc: Unused (uninitialised in basic mode).
  v1_buffer:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    doc: |
      One version-1 buffer: the preamble, records up to an EndOfBuffer
      (XRAY-FDR-V1-END-OF-BUFFER), then bytes never read.
    seq:
      - id: preamble
        type: preamble(1)
        doc: NewBuffer, WallClockTime, NewCPUId (XRAY-FDR-PREAMBLE).
      - id: records
        type: record
        repeat: until
        repeat-until: _.is_end_of_buffer
        valid:
          expr: 'not _.is_metadata or _.kind == 1 or _.kind == 2 or _.kind == 3 or _.kind == 5 or _.kind == 6'
        doc: |
          Body records; the last is EndOfBuffer. No preamble record
          (XRAY-FDR-PREAMBLE-IN-BODY) and no kind of a later version
          (XRAY-FDR-KIND-VERSION).
      - id: leftover
        size-eos: true
        doc: The rest of the buffer, skipped.
  extents_buffer:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: extents
        type: metadata_of_kind(metadata_kind::buffer_extents.to_i)
        valid:
          expr: _.record.body.as<metadata>.len_extents <= _parent.header.len_buffer
        doc: |
          A BufferExtents record (XRAY-FDR-EXTENTS-MISSING); its value is the
          byte count of the records that follow, at most the header's
          len_buffer (XRAY-FDR-EXTENTS-CAPACITY).
      - id: body
        type: extents_body
        size: extents.record.body.as<metadata>.len_extents
        doc: |
          The buffer's records; they end within the file
          (XRAY-FDR-EXTENTS-EOF) and every record ends within them
          (XRAY-FDR-RECORD-CROSSES-BUFFER).
  extents_body:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: preamble
        type: preamble(_parent._parent.header.version)
        if: not _io.eof
        doc: |
          NewBuffer, WallClockTime, Pid (from version 3), NewCPUId
          (XRAY-FDR-PREAMBLE). Empty extents hold no preamble
          (XRAY-FDR-EXTENTS-EMPTY, a warning).
      - id: records
        type: record
        repeat: eos
        valid:
          expr: 'not _.is_metadata or _.kind == 2 or _.kind == 3 or _.kind == 5 or _.kind == 6 or _.kind == 8'
        doc: |
          Body records: no preamble record (XRAY-FDR-PREAMBLE-IN-BODY) and no
          EndOfBuffer (XRAY-FDR-KIND-VERSION).
  preamble:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    params:
      - id: version
        type: u2
        doc: The header's version.
    seq:
      - id: new_buffer
        type: metadata_of_kind(metadata_kind::new_buffer.to_i)
        doc: NewBuffer with the thread id (XRAY-FDR-PREAMBLE, XRAY-FDR-THREAD-ID).
      - id: wallclock
        type: metadata_of_kind(metadata_kind::wall_clock_time.to_i)
        doc: WallClockTime (XRAY-FDR-PREAMBLE, XRAY-FDR-WALLCLOCK-MICROS).
      - id: pid
        type: metadata_of_kind(metadata_kind::pid.to_i)
        if: version >= 3
        doc: Pid, from version 3 (XRAY-FDR-PREAMBLE).
      - id: new_cpu
        type: metadata_of_kind(metadata_kind::new_cpu_id.to_i)
        doc: NewCPUId with the base TSC (XRAY-FDR-PREAMBLE).
  metadata_of_kind:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    params:
      - id: expected
        type: u1
        doc: The metadata kind this position requires.
    seq:
      - id: record
        type: record
        valid:
          expr: _.is_metadata and _.kind == expected
        doc: A metadata record of the expected kind (XRAY-FDR-PREAMBLE).
  record:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    doc: |
      A function record (8 bytes) or a metadata record (16 bytes, then the
      payload of an event). Bit 0 of the first byte (little-endian) or bit 7
      (big-endian) tells them apart.
    seq:
      - id: first
        type: u1
        valid:
          expr: |
            ((_root.is_be ? (_ & 0x80) : (_ & 1)) == 0)
              ? ((_root.is_be ? ((_ >> 4) & 7) : ((_ >> 1) & 7)) <= 3)
              : ((_root.is_be ? (_ & 0x7f) : (_ >> 1)) <= 9)
        doc: |
          Type bit, then the function action 0..3 (XRAY-FDR-FUNCTION-ACTION)
          or the metadata kind 0..9 (XRAY-FDR-METADATA-KIND).
      - id: body
        type:
          switch-on: is_metadata
          cases:
            true: metadata
            false: function
        doc: The rest of the record.
    instances:
      is_metadata:
        value: '(_root.is_be ? (first & 0x80) : (first & 1)) != 0'
        doc: True for a metadata record.
      kind:
        value: '_root.is_be ? (first & 0x7f) : (first >> 1)'
        doc: The metadata kind (metadata records only).
      is_end_of_buffer:
        value: is_metadata and kind == 1
        doc: True for EndOfBuffer (version 1 only, XRAY-FDR-KIND-VERSION).
  function:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    doc: The last 7 bytes of a function record.
    seq:
      - id: id_bytes
        size: 3
        doc: The three remaining bytes of the 28-bit function id (XRAY-FUNCTION-ID-ZERO).
      - id: tsc_delta
        type: u4
        doc: TSC delta from the previous record (XRAY-FDR-TSC-DELTA-RANGE).
    instances:
      action:
        value: '_root.is_be ? ((_parent.first >> 4) & 7) : ((_parent.first >> 1) & 7)'
        doc: 0 Entry, 1 Exit, 2 Tail_Exit, 3 Entry_Args (XRAY-FDR-FUNCTION-ACTION).
      function_id:
        value: |
          _root.is_be
            ? (((_parent.first & 0xf) << 24) | (id_bytes[0] << 16) | (id_bytes[1] << 8) | id_bytes[2])
            : ((_parent.first >> 4) | (id_bytes[0] << 4) | (id_bytes[1] << 12) | (id_bytes[2] << 20))
        doc: The function id, from 1 (XRAY-FUNCTION-ID-ZERO, XRAY-FUNCTION-ID-UNDEFINED).
  metadata:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    doc: The last 15 bytes of a metadata record and an event's payload.
    seq:
      - id: data
        size: 15
        type:
          switch-on: _parent.kind
          cases:
            0: md_thread
            2: md_new_cpu
            3: md_tsc
            4: md_wallclock
            5: md_event
            6: md_word
            7: md_word
            8: md_event
            9: md_thread
        doc: The record's fields, by kind.
      - id: payload
        size: 'data.as<md_event>.len_payload'
        if: _parent.kind == 5 or _parent.kind == 8
        doc: |
          The event's payload, inside the buffer
          (XRAY-FDR-RECORD-CROSSES-BUFFER, XRAY-FDR-EVENT-EMPTY).
    instances:
      len_extents:
        value: 'data.as<md_word>.value'
        if: _parent.kind == 7
        doc: The BufferExtents byte count.
  md_thread:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: id
        type: s4
        doc: NewBuffer thread id or Pid process id, positive (XRAY-FDR-THREAD-ID).
  md_new_cpu:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: cpu
        type: u2
        doc: CPU number.
      - id: tsc
        type: u8
        doc: Absolute TSC (XRAY-FDR-TSC-BACKWARDS).
  md_tsc:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: tsc
        type: u8
        doc: TSCWrap's absolute TSC (XRAY-FDR-TSC-BACKWARDS).
  md_wallclock:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: seconds
        type: s8
        doc: Seconds since the epoch.
      - id: micros
        type: s4
        valid:
          min: 0
          max: 999999
        doc: Microseconds, below 1000000 (XRAY-FDR-WALLCLOCK-MICROS).
  md_word:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: value
        type: u8
        doc: CallArgument's argument or BufferExtents' byte count (XRAY-FDR-EXTENTS-CAPACITY).
  md_event:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: len_payload
        type: s4
        valid:
          min: 0
        doc: Payload size, not negative (XRAY-FDR-EVENT-SIZE, XRAY-FDR-EVENT-EMPTY).
      - id: tsc_or_delta
        size: 4
        doc: |
          Versions 1..4 an absolute 64-bit TSC starting here; version 5 a
          32-bit TSC delta.
      - id: rest
        size-eos: true
        doc: Rest of the TSC, the CPU (custom, version 4) or the event type (typed).
  basic_record:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: record_type
        type: u2
        valid:
          expr: '_ == 0 or (_ == 1 and _parent.header.version >= 2)'
        doc: |
          0 function record, 1 argument payload (XRAY-BASIC-RECORD-TYPE);
          argument payloads from version 2 (XRAY-BASIC-ARGUMENT-VERSION).
      - id: body
        type:
          switch-on: record_type
          cases:
            0: basic_function
            1: basic_argument
        doc: The rest of the 32 bytes.
  basic_function:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: cpu
        type: u1
        doc: CPU number.
      - id: entry_type
        type: u1
        valid:
          max: 3
        doc: 0 enter, 1 exit, 2 tail exit, 3 enter with argument (XRAY-BASIC-ENTRY-TYPE).
      - id: function_id
        type: s4
        doc: Function id (XRAY-FUNCTION-ID-ZERO, XRAY-FUNCTION-ID-UNDEFINED).
      - id: tsc
        type: u8
        doc: Absolute TSC.
      - id: tid
        type: u4
        doc: Thread id (XRAY-BASIC-ARGUMENT-ORPHAN).
      - id: pid
        type: u4
        doc: Process id, from version 3 (XRAY-BASIC-ARGUMENT-ORPHAN).
      - id: padding
        size: 8
        doc: Unused.
  basic_argument:
    meta:
      endian:
        switch-on: _root.order_byte
        cases:
          0: be
          _: le
    seq:
      - id: padding1
        size: 2
        doc: Alignment.
      - id: function_id
        type: s4
        doc: The function of the record before (XRAY-BASIC-ARGUMENT-ORPHAN).
      - id: tid
        type: u4
        doc: Thread id (XRAY-BASIC-ARGUMENT-ORPHAN).
      - id: pid
        type: u4
        doc: Process id (XRAY-BASIC-ARGUMENT-ORPHAN).
      - id: arg
        type: u8
        doc: The argument (none in version 1, XRAY-BASIC-ARGUMENT-VERSION).
      - id: padding2
        size: 8
        doc: Unused.
enums:
  metadata_kind:
    0:
      id: new_buffer
      doc: NewBuffer, the thread id.
    1:
      id: end_of_buffer
      doc: EndOfBuffer (version 1 only).
    2:
      id: new_cpu_id
      doc: NewCPUId, the CPU and a base TSC.
    3:
      id: tsc_wrap
      doc: TSCWrap, a new base TSC.
    4:
      id: wall_clock_time
      doc: WallClockTime, seconds and microseconds.
    5:
      id: custom_event_marker
      doc: CustomEventMarker, then its payload.
    6:
      id: call_argument
      doc: CallArgument, one argument of the function entered last.
    7:
      id: buffer_extents
      doc: BufferExtents, the byte count of the buffer's records (version 2 on).
    8:
      id: typed_event_marker
      doc: TypedEventMarker, then its payload (version 2 on).
    9:
      id: pid
      doc: Pid, the process id (version 3 on).
  function_action:
    0:
      id: entry
      doc: Entry.
    1:
      id: exit
      doc: Exit.
    2:
      id: tail_exit
      doc: Tail_Exit, an exit by a tail call.
    3:
      id: entry_args
      doc: Entry_Args, an entry followed by CallArgument records.
