#!/bin/sh
# Regenerates the UMTracer corpus: valid traces written by umtgen, and one mutated copy
# per rule (a few bytes poked, a file cut or removed). Run from the repository root:
#   make umtrace-corpus            (or: sh corpus/umtrace/make-corpus.sh build/umtgen)
# The .expected sidecars are kept as committed (reviewed by hand); BLESS=1 rewrites them
# from build/tracelint's output for review. Offsets below come from umtgen's layout map
# of the base traces (umtgen gen DIR -m MAP); umtgen is deterministic.
set -eu
GEN=${1:-build/umtgen}
TL=${TRACELINT:-build/tracelint}
C=corpus/umtrace
V=$C/valid
I=$C/invalid
find "$V" "$I" -mindepth 1 -maxdepth 1 ! -name "*.expected" ! -name "*.args" ! -name "*.env" -exec rm -rf {} + 2>/dev/null || :
mkdir -p "$V" "$I"

# Base traces: 64-bit, exec v1, graceful exit (seed 6: every record type but 7);
# 32-bit, exec v0, ended abruptly.
"$GEN" gen "$V/trace64" -s 6 -n 50
"$GEN" gen "$V/trace32-abrupt" -b 32 -v 0 -a -s 7 -t 4 -n 60
cp "$V/trace64/thread.itable" "$V/single-thread.itable"
# The 32-bit trace with its syscall blocks out of offset order (UMT-SYSCALL-BLOCK-OVERLAP's sorting path).
"$GEN" gen "$V/trace32-scrambled" -b 32 -v 0 -a -s 7 -t 4 -n 60 -o
# The two more instruction shapes of -x: AGEN through base + index x 4, and MEM0 with
# MEM1 (UMT-SLOT-ADDRESS-VALUE of AGEN and MEM1 slots, scale 4, flag 0x08 in 64-bit code).
"$GEN" gen "$V/trace64-x" -x -s 6 -n 80
"$GEN" gen "$V/trace32-x" -x -b 32 -v 0 -a -s 7 -t 4 -n 80

case_dir= # the case being built
new() { # new KIND NAME [BASE]: copy a base trace into a new case
	case_dir=$C/$1/$2
	cp -R "$V/${3:-trace64}" "$case_dir"
}
poke() { "$GEN" poke "$case_dir/$1" "$2" "$3" "$4"; }
cut() { truncate -s "$2" "$case_dir/$1"; }
xml() { sed -i "$1" "$case_dir/trace.xml"; }

# ---- warnings only: valid cases -------------------------------------------------
new valid string-inner-nul;      poke ins.itable 243 1 0                 # UMT-STRING-EARLY-NUL
new valid exec-trailing-bytes;   printf 'xx' >> "$case_dir/exec.vtable"   # UMT-EXEC-TRAILING-BYTES
new valid flags-on-thread-end;   poke exec.vtable 2073 1 0x41            # UMT-RECORD-FLAGS
new valid syscall-ids-version;   poke syscall.vtable 4 4 2               # UMT-SYSCALL-IDS-VERSION
new valid module-unload-late;    poke module.itable 56 8 1000            # UMT-MODULE-EIDS-IN-TRACE
new valid ranges-unsorted;       poke address_space.itable 32 8 0x80000000; poke address_space.itable 40 8 0x80000fff # UMT-RANGES-SORTED
new valid ranges-adjacent;       poke address_space.itable 48 8 0x11000; poke address_space.itable 56 8 0x11fff # UMT-RANGES-ADJACENT
new valid xml-no-xed;            xml '/<Xed>/,/<\/Xed>/d'                 # UMT-XML-XED-VERSION
new valid xml-xed-future;        xml 's/20150121/20160101/'              # UMT-XML-XED-VERSION-DATE
new valid xml-no-pid;            xml '/ProcessID/d'                      # UMT-XML-PROCESS-ID
new valid xml-bitness;           xml 's/<Bitness>64/<Bitness>48/'        # UMT-XML-BITNESS
new valid xml-bitness-text;      xml 's/<Bitness>64/<Bitness>x64/'       # UMT-XML-BITNESS (not a number)
# whitespace around numbers, elements deeper than the reader keeps and names longer
# than it keeps
new valid xml-shapes
cat > "$case_dir/trace.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<Data>
  <TraceMetaData>
    <Xed>
      <Version> 20150121 </Version>
    </Xed>
    <App>
      <ProcessID>	4242
</ProcessID>
      <Bitness>
64	</Bitness>
    </App>
    <Notes><a><b><c><d><e><f><g><h>deep</h></g></f></e></d></c></b></a></Notes>
    <AnElementNameLongerThanTheThirtyTwoBytesKeptPerLevel>x</AnElementNameLongerThanTheThirtyTwoBytesKeptPerLevel>
  </TraceMetaData>
</Data>
XML
# decodedIns of "inc rax" at ins.itable 250, of "mov rax, [rbx]" at 389 (umtgen -m)
new valid decoded-32bit-size8 trace32-abrupt; poke ins.itable 306 1 8    # UMT-DECODED-SIZES-32BIT
new valid decoded-rep-repne;     poke ins.itable 256 1 3                 # UMT-DECODED-FLAGS-MODE
new valid phrase-const-slot;     poke ins.itable 452 1 0xfd              # UMT-DECODED-PHRASE-BEFORE (seg = ConstSlot[0] = 0)
new valid phrase-without-mem;    poke ins.itable 314 1 0                 # UMT-DECODED-PHRASE-UNUSED
new valid read-operand-late;     poke ins.itable 310 1 0                 # UMT-OPERAND-READ-GROUP
new valid register-offset trace32-abrupt; poke ins.itable 265 1 2        # UMT-OPERAND-REGISTER-OFFSET
new valid const-slot-register;   poke ins.itable 263 1 0xfd              # UMT-OPERAND-CONSTANT-REGISTER
new valid slot-addr-width-3;     poke ins.itable 497 1 3                 # UMT-SLOT-ADDR-WIDTH-VALUE
new valid slot-common-name;      poke ins.itable 340 2 2                 # UMT-SLOT-COMMON-REGISTER
new valid slot-reg-name;         poke ins.itable 338 2 100               # UMT-SLOT-REGISTER
new valid decoded-addr-size-32bit trace32-abrupt; poke ins.itable 307 1 8 # UMT-DECODED-SIZES-32BIT (EffAddrSize)
new valid decoded-flags-32bit trace32-abrupt; poke ins.itable 256 1 0x08 # UMT-DECODED-FLAGS-MODE (0x08 in 32-bit code)
# exec records (umtgen -m): record 0 Thread begin at 16 (flags 21, C 22, contextMem 38),
# record 1 "inc rax" at 142 (flags 147); trace32-abrupt: syscall 0 block at 416
new valid rep-flag-no-prefix;    poke exec.vtable 147 1 0x09             # UMT-RECORD-REP-FLAG
new valid record-32bit-in-64;    poke exec.vtable 21 1 0                 # UMT-RECORD-BITNESS
new valid aborted-not-last;      poke exec.vtable 147 1 0x81             # UMT-RECORD-ABORT-FLAG
new valid thread-begin-no-tib;   poke exec.vtable 38 8 0x10000           # UMT-CONTEXT-TIB (a listed page, not the TIB)
new valid syscall-32bit-sp trace32-abrupt; poke syscall.vtable 440 8 0x1000000000 # UMT-SYSCALL-VALUES-32BIT
# record 4 "mov rax, [rbx]" at 328: rbx (slot 0) at 342, MEM0 address (slot 1) at 350
new valid mem0-address;          poke exec.vtable 342 8 0x10000; poke exec.vtable 350 8 0x10010 # UMT-SLOT-ADDRESS-VALUE
new valid mem0-page-unlisted;    poke exec.vtable 342 8 0x20000; poke exec.vtable 350 8 0x20000 # UMT-RANGES-COVER-MEMORY
# the blocks out of order and the sort cap lowered to 32 bytes by syscall-sort-cap.env
new valid syscall-sort-cap trace32-scrambled                             # UMT-SYSCALL-BLOCK-OVERLAP-SKIPPED
new valid ins-outside-module;    poke ins.itable 64 8 0x40fffe           # UMT-INS-IN-MODULE
new valid ins-below-module;      poke ins.itable 64 8 0x3ff000           # UMT-INS-IN-MODULE (below StartAddr)
new valid ins-above-module;      poke ins.itable 64 8 0x500000           # UMT-INS-IN-MODULE (past EndAddr)
new valid ins-type-8;            poke ins.itable 56 1 8                  # no finding: Type 8 is listed
new valid modules-overlap;       poke module.itable 112 8 0x408000; poke module.itable 120 8 0x40ffff # UMT-MODULE-OVERLAP
# the same addresses, one module after the other: no finding
new valid module-reloaded;       poke module.itable 56 8 10; poke module.itable 96 8 10; poke module.itable 112 8 0x400000; poke module.itable 120 8 0x40ffff
new valid module-high-32bit trace32-abrupt; poke module.itable 112 8 0x177000000; poke module.itable 120 8 0x1770fffff # UMT-MODULE-ADDR32
new valid cmap-common-chain;     poke context_map.itable 26 2 6; poke context_map.itable 28 2 4 # UMT-CMAP-COMMON-SELF
new valid cmap-eff-largest;      poke context_map.itable 13372 2 6       # UMT-CMAP-LARGEST
new valid cmap-unused-entry;     poke context_map.itable 10032 2 0       # UMT-CMAP-UNUSED
# decodedIns values the base traces lack, each accepted: AddrWidth 4, Flags 0x08 in
# 64-bit code, EffOperSize 2, Mem0Scale 8 with an index slot (its records then
# disagree with the address: UMT-SLOT-ADDRESS-VALUE)
new valid slot-addr-width-4;     poke ins.itable 497 1 4
new valid decoded-flags-08;      poke ins.itable 256 1 8
new valid decoded-oper-size-2;   poke ins.itable 306 1 2
new valid decoded-scale-8;       poke ins.itable 454 1 8; poke ins.itable 455 1 0 # UMT-SLOT-ADDRESS-VALUE
new valid operand-after-const;   poke ins.itable 264 1 0xfd              # UMT-OPERAND-CONSTANT-REGISTER (AfterSlot)
new valid phrase-imm1;           poke ins.itable 452 1 0xfe              # UMT-DECODED-PHRASE-BEFORE (SLOT_IMM1)
new valid phrase-after-slot;     poke ins.itable 453 1 3                 # UMT-DECODED-PHRASE-BEFORE (an after slot; +UMT-SLOT-ADDRESS-VALUE)
new valid phrase-mem1-unused;    poke ins.itable 317 1 0                 # UMT-DECODED-PHRASE-UNUSED (Mem1BaseSlot)
new valid cmap-largest-not-reg;  poke context_map.itable 13372 2 600     # UMT-CMAP-LARGEST (not a register)
new valid cmap-largest-absent;   poke context_map.itable 13372 2 0       # UMT-CMAP-LARGEST (an absent register)
new valid cmap-unused-size;      poke context_map.itable 10034 1 4       # UMT-CMAP-UNUSED (Size)
new valid module-load-past-end;  poke module.itable 48 8 1000            # UMT-MODULE-EIDS-IN-TRACE (LoadEID)
# trace32-abrupt's syscall 0 (block at 416, completed): Result, then Args[1] past 2^32
new valid syscall-32bit-result trace32-abrupt; poke syscall.vtable 448 8 0x100000000 # UMT-SYSCALL-VALUES-32BIT (Result)
new valid syscall-32bit-arg trace32-abrupt; poke syscall.vtable 488 8 0x100000000 # UMT-SYSCALL-VALUES-32BIT (argument)

# trace.xml shapes the others lack: no Bitness, a short Xed version, blanks given as
# character references (expat turns a literal CR into LF), a Bitness text longer than
# the 64 bytes kept
new valid xml-no-bitness;        xml '/Bitness/d'
new valid xml-xed-short;         xml 's/20150121/2015/'                  # not a date: no UMT-XML-XED-VERSION-DATE
new valid xml-cr-blanks;         xml 's/4242/\&#13;4242\&#13;/'
new valid xml-bitness-long;      xml "s/<Bitness>64/<Bitness>$(printf '%070d' 64)/" # UMT-XML-BITNESS (text cut at 64 bytes)
# module rows 2..6 over and inside app.exe's range but loaded one after another (and
# one loaded and unloaded around record 20): the sweep keeps up to five open, none
# overlapping in time; a last one past them all closes them
new valid modules-nested
m=$case_dir/module.itable
tail -c 210 "$m" > "$case_dir/names"
truncate -s 144 "$m"; truncate -s 432 "$m"; cat "$case_dir/names" >> "$m"; rm "$case_dir/names"
# RowCount 8, ExtraFP 432; the name pointers (file offsets) moved with the names
poke module.itable 8 8 8; poke module.itable 32 8 432
poke module.itable 80 8 432; poke module.itable 88 8 450; poke module.itable 128 8 516; poke module.itable 136 8 538
row=2
for r in "10 15 0x1000000 0x1ffffff" "1 5 0x1100000 0x1efffff" "15 20 0x1200000 0x1afffff" \
	"5 10 0x1300000 0x1cfffff" "20 20 0x1400000 0x14fffff" "25 -1 0x30000000 0x3000ffff"; do
	set -- $r
	at=$((48 + 48 * row))
	poke module.itable $at 8 $1; poke module.itable $((at + 8)) 8 $2
	poke module.itable $((at + 16)) 8 $3; poke module.itable $((at + 24)) 8 $4
	poke module.itable $((at + 32)) 8 432; poke module.itable $((at + 40)) 8 450
	row=$((row + 1))
done
# lcSlot 1 of "mov rax, [rbx]" (a memory slot, AddrWidth 8) named AGEN: an address
# slot of no known kind, whose pages are still looked up (UMT-RANGES-COVER-MEMORY)
new valid slot-agen-with-address; poke ins.itable 489 2 0xfffd

# values the base traces lack, each accepted: Mem1BaseSlot SLOT_NA on rep movsb (its
# MEM1 slot then has no register to agree with), Mem0Scale 1, AddrWidth 2, insRec Type
# 9, ModuleID -1, a syscall without arguments, one with an extra inside its block, an
# operand on a constant slot with RegName INVALID
new valid mem1-base-na trace64-x; poke ins.itable 1006 1 0xff           # decodedIns 4 at 939
new valid decoded-scale-1;       poke ins.itable 454 1 1; poke ins.itable 455 1 0 # UMT-SLOT-ADDRESS-VALUE (index rbx x 1)
new valid slot-addr-width-2;     poke ins.itable 497 1 2                 # UMT-SLOT-ADDRESS-VALUE (low 2 bytes compared)
new valid ins-type-9;            poke ins.itable 56 1 9
new valid ins-no-module;         poke ins.itable 60 4 -1
new valid syscall-no-args;       poke syscall.vtable 182 1 0
new valid syscall-extras-inside; poke syscall.vtable 183 1 1; poke syscall.vtable 224 8 64
new valid operand-const-invalid-reg; poke ins.itable 263 1 0xfd; poke ins.itable 258 2 0
# a MEM0 address below every listed range (the range search's lower end)
new valid mem0-below-ranges;     poke exec.vtable 342 8 0x100; poke exec.vtable 350 8 0x100 # UMT-RANGES-COVER-MEMORY
# a MEM0 value whose last byte lies past 2^64: its pages run to the top of the space
new valid mem0-wraps;            poke exec.vtable 342 8 0xfffffffffffffffc; poke exec.vtable 350 8 0xfffffffffffffffc # UMT-RANGES-COVER-MEMORY
# modules-overlap with the other module unloaded at record 40 (a finite load interval)
new valid modules-overlap-unloaded; poke module.itable 112 8 0x408000; poke module.itable 120 8 0x40ffff; poke module.itable 56 8 40 # UMT-MODULE-OVERLAP
# tables recognised by their content alone, under a name that is not a member's
cp "$V/trace64/ins.itable" "$V/single-ins.bin"
cp "$V/trace64/module.itable" "$V/single-module.bin"
cp "$V/trace64/context_map.itable" "$V/single-cmap.bin"

# the 0x01 flag of one record against App/Bitness 32, and against record 0 when
# trace.xml has no Bitness
new valid record-64bit-in-32 trace32-abrupt; poke exec.vtable 21 1 1   # UMT-RECORD-BITNESS (record 0, a Thread begin)
new valid record-bit-unknown;    xml '/Bitness/d'; poke exec.vtable 21 1 0 # UMT-RECORD-BITNESS (as in record 0)
# the last record of thread 2 (its Thread end) flagged aborted in a trace that ends
# with an Application end
new valid aborted-with-app-end;  poke exec.vtable 2073 1 0x81            # UMT-RECORD-ABORT-FLAG (+UMT-RECORD-FLAGS)
# a module table of no rows, alone
cp "$V/trace64/module.itable" "$V/single-module-empty.bin"
"$GEN" poke "$V/single-module-empty.bin" 8 8 0

# ---- errors ------------------------------------------------------------------------
new invalid missing-trace-xml;   rm "$case_dir/trace.xml"                # UMT-FILE-MISSING
cp "$V/trace64/exec.offsets" "$I/single-offsets.bin"                     # UMT-NOT-A-TABLE
printf -- '--format=umtrace\n' > "$I/single-offsets.bin.args"
# a table header of 64-byte rows at TableFP 32: neither a thread, address, ins nor
# module table
cp "$V/trace64/thread.itable" "$I/single-unknown.bin"; "$GEN" poke "$I/single-unknown.bin" 8 8 2; "$GEN" poke "$I/single-unknown.bin" 16 8 64 # UMT-NOT-A-TABLE
printf -- '--format=umtrace\n' > "$I/single-unknown.bin.args"
new invalid thread-short-header; cut thread.itable 20                   # UMT-TABLE-HEADER-SIZE
new invalid thread-header-ver;   poke thread.itable 0 4 1                # UMT-TABLE-HEADER-VERSION
new invalid module-record-ver;   poke module.itable 4 4 1                # UMT-TABLE-RECORD-VERSION
new invalid ranges-row-count;    poke address_space.itable 8 8 -1        # UMT-TABLE-ROW-COUNT
new invalid thread-row-size;     poke thread.itable 16 8 40              # UMT-TABLE-ROW-SIZE
new invalid module-rows-64;      poke module.itable 16 8 64              # UMT-MODULE-ROW-2015 (+UMT-TABLE-EXTRA-OVERLAP)
new invalid ranges-table-fp;     poke address_space.itable 24 8 8        # UMT-TABLE-ROWS-OFFSET
new invalid ranges-past-end;     poke address_space.itable 8 8 1000      # UMT-TABLE-ROWS-IN-FILE
new invalid ins-extra-size;      poke ins.itable 40 8 100000             # UMT-TABLE-EXTRA-IN-FILE
new invalid ins-extra-overlap;   poke ins.itable 32 8 200                # UMT-TABLE-EXTRA-OVERLAP
new valid ranges-trailing;       printf "xx" >> "$case_dir/address_space.itable" # UMT-TABLE-TRAILING-BYTES
new invalid ustr-negative;       poke module.itable 144 2 -5             # UMT-STRING-LENGTH
new invalid ustr-too-long;       poke module.itable 144 2 5000           # UMT-STRING-IN-AREA
new invalid ustr-last-byte;      poke module.itable 80 8 353             # UMT-STRING-IN-AREA (no room for the length)
new invalid cstr-no-nul;         poke ins.itable 240 2 6                 # UMT-STRING-TERMINATOR
new invalid exec-short;          cut exec.vtable 10                      # UMT-EXEC-HEADER-SIZE
new invalid exec-version;        poke exec.vtable 0 4 2                  # UMT-EXEC-VERSION
new invalid exec-count-negative; poke exec.vtable 8 8 -2                 # UMT-EXEC-RECORD-COUNT
new invalid offsets-size;        cut exec.offsets 392                    # UMT-EXEC-OFFSETS-SIZE
new invalid prevnext-size;       cut exec.prev_next.column 770           # UMT-EXEC-LINKS-SIZE
new invalid offset0-in-header;   poke exec.offsets 0 8 8                 # UMT-EXEC-FIRST-OFFSET
new invalid offset0-gap;         poke exec.offsets 0 8 17                # UMT-EXEC-GAP-AFTER-HEADER (+follow-ons)
new invalid offsets-decrease;    poke exec.offsets 16 8 100              # UMT-EXEC-OFFSETS-ORDER
new invalid offset-beyond-last;  poke exec.offsets 80 8 0x7fffffff       # UMT-EXEC-OFFSETS-ORDER (entry 10 above Offset[RecordCount])
new invalid offsets-last-first;  poke exec.offsets 392 8 16              # UMT-EXEC-OFFSETS-ORDER (Offset[RecordCount] not above Offset[0])
new invalid offsets-past-end;    poke exec.offsets 392 8 5000            # UMT-EXEC-END-OFFSET
new invalid record-too-short;    poke exec.offsets 384 8 2722            # UMT-RECORD-SIZE-MIN
new invalid record-type-7;       poke exec.vtable 146 1 7                # UMT-RECORD-TYPE
new invalid record-type-12;      poke exec.vtable 146 1 12               # UMT-RECORD-TYPE (past 11; +chain findings)
new invalid record-thread-id;    poke exec.vtable 142 4 9                # UMT-RECORD-THREAD
new invalid record-size-type;    poke exec.vtable 2072 1 6               # UMT-RECORD-SIZE
new invalid record-lc-size;      poke exec.vtable 148 8 1                # UMT-INS-RECORD-SIZE
new invalid record-ins-id;       poke exec.vtable 148 8 99               # UMT-INS-RECORD-ID
new invalid record-ins-id-negative; poke exec.vtable 148 8 -2          # UMT-INS-RECORD-ID (negative)
new invalid record-cs64;         poke exec.vtable 147 1 0                # UMT-INS-RECORD-MODE
new invalid context-mem-count;   poke exec.vtable 22 4 100               # UMT-CONTEXT-MEM-COUNT
new invalid context-mem-count-negative; poke exec.vtable 22 4 -1        # UMT-CONTEXT-MEM-COUNT (negative)
new invalid context-regs-fp;     poke exec.vtable 30 8 8                 # UMT-CONTEXT-REGS-IN-RECORD
new invalid context-mem-size;    poke exec.vtable 46 8 1000              # UMT-CONTEXT-MEM-IN-RECORD
new invalid context-mem-32bit;   poke exec.vtable 21 1 0; poke exec.vtable 38 8 0x1234000000 # UMT-CONTEXT-MEM-ADDR32
new invalid syscall-id-range;    poke exec.vtable 976 8 9                # UMT-RECORD-SYSCALL-ID
new invalid syscall-id-negative; poke exec.vtable 976 8 -5              # UMT-RECORD-SYSCALL-ID (negative; +UMT-SYSCALL-BEGIN-EID)
new invalid syscall-id-range-exit; poke exec.vtable 1646 8 9             # UMT-RECORD-SYSCALL-ID (an exit record; +UMT-SYSCALL-END-EID)
new invalid syscall-two-entries; poke exec.vtable 1522 8 0               # UMT-RECORD-SYSCALL-ENTRY (+UMT-SYSCALL-BEGIN-EID)
new invalid syscall-two-exits;   poke exec.vtable 1646 8 2               # UMT-RECORD-SYSCALL-EXIT (+UMT-SYSCALL-END-EID)
new invalid syscall-completed;   poke syscall.vtable 181 1 1             # UMT-RECORD-SYSCALL-COMPLETED
new invalid prev-out-of-range;   poke exec.prev_next.column 80 8 500     # UMT-LINK-RANGE
new invalid prev-negative;       poke exec.prev_next.column 80 8 -5      # UMT-LINK-RANGE (below -1)
new invalid next-out-of-range;   poke exec.prev_next.column 72 8 500     # UMT-LINK-RANGE (Next)
new invalid next-negative;       poke exec.prev_next.column 72 8 -5      # UMT-LINK-RANGE (Next below -1)
new invalid prev-wrong;          poke exec.prev_next.column 80 8 3       # UMT-LINK-PREV
new invalid next-wrong;          poke exec.prev_next.column 72 8 7       # UMT-LINK-NEXT
new invalid thread-no-begin;     poke exec.vtable 206 1 8                # UMT-THREAD-BEGIN-FIRST
new invalid after-thread-end;    poke exec.vtable 2068 4 0               # UMT-THREAD-END-LAST (+chain findings)
new invalid app-end-early;       poke exec.vtable 2072 1 3               # UMT-APP-END-LAST
new invalid thread-without-records; head -c 48 /dev/zero >> "$case_dir/thread.itable"; poke thread.itable 8 8 4; poke thread.itable 176 4 3 # UMT-THREAD-EMPTY
new invalid thread-id;           poke thread.itable 80 4 5               # UMT-THREAD-ID
new invalid thread-id-negative;  poke thread.itable 80 4 -1              # UMT-THREAD-ID (negative)
new invalid thread-first-eid;    poke thread.itable 48 8 1               # UMT-THREAD-FIRST-EID
new invalid thread-last-eid;     poke thread.itable 56 8 10              # UMT-THREAD-LAST-EID
new invalid thread-rec-count;    poke thread.itable 64 8 99              # UMT-THREAD-RECORD-COUNT
new invalid thread-rec-count-negative; poke thread.itable 64 8 -1       # UMT-THREAD-RECORD-COUNT (negative)
new invalid ins-id;              poke ins.itable 112 8 5                 # UMT-INS-ID
new invalid ins-id-negative;     poke ins.itable 112 8 -1                # UMT-INS-ID (negative)
new invalid ins-type;            poke ins.itable 56 1 7                  # UMT-INS-TYPE
new invalid ins-cs64;            poke ins.itable 57 1 2                  # UMT-INS-MODE
new invalid ins-code-size;       poke ins.itable 58 1 16                 # UMT-INS-CODE-SIZE
new invalid ins-code-size-zero;  poke ins.itable 58 1 0                  # UMT-INS-CODE-SIZE (0)
new invalid ins-module-id;       poke ins.itable 60 4 7                  # UMT-INS-MODULE
new invalid ins-module-negative; poke ins.itable 60 4 -5                 # UMT-INS-MODULE (negative, not -1)
new invalid ins-address-32bit trace32-abrupt; poke ins.itable 64 8 0x100401000 # UMT-INS-ADDR32
new invalid ins-disasm-fp;       poke ins.itable 88 8 -1                 # UMT-INS-DISASM-POINTER
new invalid ins-decoded-fp;      poke ins.itable 224 8 380               # UMT-INS-DECODED-POINTER
new invalid decoded-exp-count;   poke ins.itable 257 1 5                 # UMT-DECODED-OPERAND-COUNT
new invalid decoded-eff-size;    poke ins.itable 306 1 3                 # UMT-DECODED-SIZES
new invalid decoded-flags;       poke ins.itable 256 1 0x40              # UMT-DECODED-FLAGS
new invalid decoded-lc-size;     poke ins.itable 308 2 -1                # UMT-DECODED-SLOTS-SIZE
new invalid decoded-slot-groups; poke ins.itable 310 1 2                 # UMT-DECODED-SLOT-GROUPS
new invalid decoded-mem1-base;   poke ins.itable 317 1 5                 # UMT-DECODED-PHRASE-SLOT
new invalid decoded-scale;       poke ins.itable 315 1 3                 # UMT-DECODED-SCALE
new invalid decoded-scale-no-index; poke ins.itable 315 1 2             # UMT-DECODED-SCALE (a scale without an index slot)
new invalid decoded-addr-size;   poke ins.itable 307 1 3                 # UMT-DECODED-SIZES (EffAddrSize)
new invalid decoded-first-after; poke ins.itable 311 1 254               # UMT-DECODED-SLOT-GROUPS (FirstAfterSlot past LCCount)
new invalid slot-offset-negative; poke ins.itable 344 2 -1               # UMT-SLOT-SIZE (Offset)
new invalid operand-flags-zero;  poke ins.itable 262 1 0                 # UMT-OPERAND-FLAGS (no read, no write)
new invalid operand-flags;       poke ins.itable 262 1 4                 # UMT-OPERAND-FLAGS
new invalid operand-before-na;   poke ins.itable 263 1 0xff              # UMT-OPERAND-BEFORE-SLOT
new invalid operand-after-na;    poke ins.itable 264 1 0xff              # UMT-OPERAND-AFTER-SLOT
new invalid operand-before-late; poke ins.itable 263 1 1                 # UMT-OPERAND-SLOT-GROUP
new invalid operand-size;        poke ins.itable 260 2 9                 # UMT-OPERAND-IN-SLOT
new invalid operand-mem-offset;  poke ins.itable 416 1 0                 # UMT-OPERAND-MEMORY-OFFSET
new invalid operand-agen-on-memory; poke ins.itable 409 2 0xfffd         # UMT-OPERAND-SLOT-KIND
new invalid slot-negative;       poke ins.itable 342 2 -1                # UMT-SLOT-SIZE
new invalid slot-addr-width;     poke ins.itable 346 1 9                 # UMT-SLOT-ADDR-WIDTH
new invalid slot-past-lc;        poke ins.itable 354 2 9                 # UMT-SLOT-IN-RECORD
new invalid operand-const-span;   poke ins.itable 263 1 0xfd; poke ins.itable 265 1 4 # UMT-OPERAND-IN-SLOT (past the constant slot; +UMT-OPERAND-CONSTANT-REGISTER)
new invalid operand-mem0-on-register; poke ins.itable 414 1 0            # UMT-OPERAND-SLOT-KIND (MEM0)
new invalid operand-mem1-on-register; poke ins.itable 409 2 0xfffe; poke ins.itable 414 1 0 # UMT-OPERAND-SLOT-KIND (MEM1)
new invalid operand-before-slot; poke ins.itable 263 1 10                # UMT-OPERAND-BEFORE-SLOT (past LCCount)
new invalid operand-after-slot;  poke ins.itable 264 1 10                # UMT-OPERAND-AFTER-SLOT (past LCCount)
new invalid operand-after-early; poke ins.itable 264 1 0                 # UMT-OPERAND-SLOT-GROUP (AfterSlot before FirstAfterSlot)
new invalid operand-size-negative; poke ins.itable 260 2 -1              # UMT-OPERAND-IN-SLOT (Size < 0)
new invalid syscall-version;     poke syscall.vtable 0 4 1               # UMT-SYSCALL-HEADER
new invalid syscall-offsets-size; cut syscall.offsets 40                 # UMT-SYSCALL-OFFSETS-SIZE
new invalid syscall-block-size;  poke syscall.offsets 8 8 20             # UMT-SYSCALL-BLOCK-IN-FILE
new invalid syscall-block-offset; poke syscall.offsets 0 8 8             # UMT-SYSCALL-BLOCK-IN-FILE (in the header)
# trace64's blocks run down (syscall 0 at 176, 1 at 96, 2 at 16, 80 bytes each):
# syscall 1 grown to 100 bytes reaches into syscall 0, found by the in-order sweep
new invalid syscall-overlap;     poke syscall.offsets 24 8 100           # UMT-SYSCALL-BLOCK-OVERLAP
# trace32-scrambled (syscall 0 at 16, 2 at 96, 1 at 256): syscall 0 grown to 100 bytes
# reaches into syscall 2, found after sorting
new invalid syscall-overlap-unordered trace32-scrambled; poke syscall.offsets 8 8 100 # UMT-SYSCALL-BLOCK-OVERLAP
# the same two overlaps with --max-errors=1: the sweeps stop at the first finding, and
# the syscall links' check after them does not start
new invalid syscall-overlap-stop; poke syscall.offsets 24 8 100; printf -- '--max-errors=1\n' > "$case_dir.args" # UMT-SYSCALL-BLOCK-OVERLAP
new invalid syscall-overlap-unordered-stop trace32-scrambled; poke syscall.offsets 8 8 100; printf -- '--max-errors=1\n' > "$case_dir.args" # UMT-SYSCALL-BLOCK-OVERLAP
new invalid syscall-convention;  poke syscall.vtable 180 1 9             # UMT-SYSCALL-FIELDS
new invalid syscall-convention-negative; poke syscall.vtable 180 1 0xff  # UMT-SYSCALL-FIELDS (Convention < 0)
new invalid syscall-completed-2; poke syscall.vtable 181 1 2             # UMT-SYSCALL-FIELDS (Completed)
new invalid syscall-args-negative; poke syscall.vtable 182 1 0xff        # UMT-SYSCALL-FIELDS (ArgCount < 0)
new invalid syscall-extras-negative; poke syscall.vtable 183 1 0xff      # UMT-SYSCALL-FIELDS (ExtraCount < 0)
new invalid syscall-args-fp;     poke syscall.vtable 216 8 70            # UMT-SYSCALL-ARGS-IN-BLOCK
new invalid syscall-extras-fp;   poke syscall.vtable 183 1 1; poke syscall.vtable 224 8 0 # UMT-SYSCALL-EXTRAS-IN-BLOCK
new invalid syscall-begin-eid;   poke syscall.vtable 104 8 3             # UMT-SYSCALL-BEGIN-EID
new invalid syscall-end-eid;     poke syscall.vtable 112 8 29            # UMT-SYSCALL-END-EID
new invalid syscall-end-thread;  poke exec.vtable 1640 4 0               # UMT-SYSCALL-END-ORDER (+chain findings)
# syscall 2 (entry 36) given the skipped exit 19 of syscall 0: its exit comes first
new invalid syscall-exit-first;  poke exec.vtable 1184 8 2; poke syscall.vtable 32 8 19; poke syscall.vtable 21 1 0 # UMT-SYSCALL-END-ORDER (+UMT-SYSCALL-END-EID on syscall 0)
new invalid syscall-open-completed; poke syscall.vtable 112 8 -1         # UMT-SYSCALL-COMPLETED
new invalid module-range;        poke module.itable 64 8 0x500000        # UMT-MODULE-RANGE
new invalid module-load-eid;     poke module.itable 48 8 -3              # UMT-MODULE-LOAD-EIDS
new invalid module-unload-before-load; poke module.itable 48 8 5; poke module.itable 56 8 2 # UMT-MODULE-LOAD-EIDS (UnloadEID)
new invalid module-name-fp;      poke module.itable 80 8 10              # UMT-MODULE-NAME-POINTER
new invalid cmap-size;           cut context_map.itable 17000            # UMT-CMAP-SIZE
new invalid cmap-count;          poke context_map.itable 2 2 600         # UMT-CMAP-COUNT
new invalid cmap-reg-size;       poke context_map.itable 13338 1 100     # UMT-CMAP-REGISTER-IN-DUMP
new invalid cmap-name;           poke context_map.itable 1056 8 0x4141414141414141; poke context_map.itable 1064 8 0x4141414141414141 # UMT-CMAP-REGISTER-NAME
new invalid cmap-reg-absent-size; poke context_map.itable 9242 1 0       # UMT-CMAP-REGISTER-IN-DUMP (Size 0 at an offset)
new invalid cmap-reg-ffff-size;  poke context_map.itable 9240 2 0xffff   # UMT-CMAP-REGISTER-IN-DUMP (Offset 0xffff with a size)
new invalid cmap-common-negative; poke context_map.itable 18 2 -1        # UMT-CMAP-COMMON-NAME (negative)
new invalid cmap-common-name;    poke context_map.itable 18 2 50         # UMT-CMAP-COMMON-NAME
new invalid range-first;         poke address_space.itable 32 8 0x10001  # UMT-RANGE-FIRST-ALIGNED
new invalid range-last;          poke address_space.itable 40 8 0x10ffe  # UMT-RANGE-END-ALIGNED
new invalid range-empty;         poke address_space.itable 40 8 0xfff    # UMT-RANGE-ORDER
new invalid ranges-overlap;      poke address_space.itable 48 8 0x10000  # UMT-RANGES-OVERLAP
new invalid xml-malformed;       xml 's|</Data>|</Dat>|'                 # UMT-XML-SYNTAX
new invalid xml-xed-text;        xml 's/20150121/v1/'                    # UMT-XML-XED-VERSION-SYNTAX
new invalid xml-pid-text;        xml 's/4242/-5/'                        # UMT-XML-PROCESS-ID-SYNTAX
new invalid xml-pid-overflow;    xml 's/4242/99999999999999999999999/'   # UMT-XML-PROCESS-ID-SYNTAX (past 2^64)
new invalid xml-empty;           : > "$case_dir/trace.xml"               # UMT-XML-SYNTAX
new invalid xml-pid-trailing;    xml 's/4242/4242x/'                     # UMT-XML-PROCESS-ID-SYNTAX
new invalid xml-pid-2-64;        xml 's/4242/18446744073709551616/'      # UMT-XML-PROCESS-ID-SYNTAX (2^64: the last digit overflows)
# the syscall decodedIns (at 535, the last in the extra area) given 254 slots, the
# extra area grown to hold them
new invalid decoded-lc-count-254; truncate -s $((623 + 254 * 12)) "$case_dir/ins.itable"; poke ins.itable 40 8 $((383 + 254 * 12)); poke ins.itable 597 1 254 # UMT-DECODED-SLOT-GROUPS
# an exec trace of no records: Offset[0] alone, no links; the tables naming records
# are left as they are (their EIDs are then out of range)
new invalid exec-no-records;     cut exec.vtable 16; poke exec.vtable 8 8 0; cut exec.offsets 8; cut exec.prev_next.column 0
new invalid module-name-negative; poke module.itable 80 8 -1              # UMT-MODULE-NAME-POINTER (negative)
new invalid operand-after-not-written; poke ins.itable 415 1 3          # UMT-OPERAND-AFTER-SLOT (a read-only operand with an AfterSlot)
new invalid ins-extra-in-header; poke ins.itable 32 8 8                 # UMT-TABLE-EXTRA-OVERLAP (ExtraFP inside the header)
new invalid module-range-32bit trace32-abrupt; poke module.itable 64 8 0x500000 # UMT-MODULE-RANGE (in a 32-bit trace)
# trace32-scrambled's syscall 1 moved onto syscall 0's block: equal offsets, sorted by ID
new invalid syscall-same-offset trace32-scrambled; poke syscall.offsets 16 8 16 # UMT-SYSCALL-BLOCK-OVERLAP
new invalid syscall-header-short; cut syscall.vtable 10                  # UMT-SYSCALL-HEADER (HeaderVer alone readable)
new invalid syscall-header-cut;  cut syscall.vtable 2                   # UMT-SYSCALL-HEADER (not even HeaderVer)
new invalid ins-extra-empty;     poke ins.itable 40 8 0                 # UMT-INS-DISASM-POINTER, UMT-INS-DECODED-POINTER (no extra area for the strings)
new invalid ins-extra-negative;  poke ins.itable 40 8 -1                # UMT-TABLE-EXTRA-IN-FILE (ExtraSize < 0)

if [ "${BLESS:-0}" = 1 ]; then
	for path in "$V"/* "$I"/*; do
		case "$path" in *.expected | *.args | *.env) continue ;; esac
		set --
		[ -f "$path.args" ] && set -- $(cat "$path.args")
		vars=
		[ -f "$path.env" ] && vars=$(grep -v '^#' "$path.env")
		env $vars "$TL" --output=json "$@" "$path" | jq -r '.files[0].diagnostics[] |
			(if .member then .member + ":" else "" end) +
			(if .line then "\(.line):\(.column)" else "\(.offset)" end) +
			" " + .severity + " " + .rule + " " + .message' > "$path.expected.diags"
		# the intent line is reviewed by hand (corpus/README.md): kept, or derived for a new case
		intent=$(grep -m1 '^# intent: ' "$path.expected" 2>/dev/null) || intent=
		if [ -z "$intent" ]; then
			case $path in "$I"/*) intent='# intent: must-reject' ;; *) intent='# intent: must-accept' ;; esac
			grep -q ' warning ' "$path.expected.diags" &&
				intent='# intent: either tracelint only warns: a stricter reader may refuse it'
		fi
		{ echo "$intent"; cat "$path.expected.diags"; } > "$path.expected"
		rm -f "$path.expected.diags"
	done
fi
