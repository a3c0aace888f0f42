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
# The 32-bit trace with its syscall blocks out of offset order (U404's sorting path).
"$GEN" gen "$V/trace32-scrambled" -b 32 -v 0 -a -s 7 -t 4 -n 60 -o
# The two more instruction shapes of -x: AGEN through base + index x 4, and MEM0 with
# MEM1 (U346 of AGEN and MEM1 slots, scale 4, flag 0x08 in 64-bit code).
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
new valid string-inner-nul;      poke ins.itable 243 1 0                 # U123
new valid exec-trailing-bytes;   printf 'xx' >> "$case_dir/exec.vtable"   # U210
new valid flags-on-thread-end;   poke exec.vtable 2073 1 0x41            # U227
new valid syscall-ids-version;   poke syscall.vtable 4 4 2               # U401
new valid module-unload-late;    poke module.itable 56 8 1000            # U502
new valid ranges-unsorted;       poke address_space.itable 32 8 0x80000000; poke address_space.itable 40 8 0x80000fff # U703
new valid ranges-adjacent;       poke address_space.itable 48 8 0x11000; poke address_space.itable 56 8 0x11fff # U705
new valid xml-no-xed;            xml '/<Xed>/,/<\/Xed>/d'                 # U801
new valid xml-xed-future;        xml 's/20150121/20160101/'              # U803
new valid xml-no-pid;            xml '/ProcessID/d'                      # U804
new valid xml-bitness;           xml 's/<Bitness>64/<Bitness>48/'        # U806
new valid xml-bitness-text;      xml 's/<Bitness>64/<Bitness>x64/'       # U806 (not a number)
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
new valid decoded-32bit-size8 trace32-abrupt; poke ins.itable 306 1 8    # U312
new valid decoded-rep-repne;     poke ins.itable 256 1 3                 # U314
new valid phrase-const-slot;     poke ins.itable 452 1 0xfd              # U318 (seg = ConstSlot[0] = 0)
new valid phrase-without-mem;    poke ins.itable 314 1 0                 # U320
new valid read-operand-late;     poke ins.itable 310 1 0                 # U334
new valid register-offset trace32-abrupt; poke ins.itable 265 1 2        # U337
new valid const-slot-register;   poke ins.itable 263 1 0xfd              # U339
new valid slot-addr-width-3;     poke ins.itable 497 1 3                 # U342
new valid slot-common-name;      poke ins.itable 340 2 2                 # U344
new valid slot-reg-name;         poke ins.itable 338 2 100               # U345
new valid decoded-addr-size-32bit trace32-abrupt; poke ins.itable 307 1 8 # U312 (EffAddrSize)
new valid decoded-flags-32bit trace32-abrupt; poke ins.itable 256 1 0x08 # U314 (0x08 in 32-bit code)
# exec records (umtgen -m): record 0 Thread begin at 16 (flags 21, C 22, contextMem 38),
# record 1 "inc rax" at 142 (flags 147); trace32-abrupt: syscall 0 block at 416
new valid rep-flag-no-prefix;    poke exec.vtable 147 1 0x09             # U228
new valid record-32bit-in-64;    poke exec.vtable 21 1 0                 # U229
new valid aborted-not-last;      poke exec.vtable 147 1 0x81             # U230
new valid thread-begin-no-tib;   poke exec.vtable 38 8 0x10000           # U244 (a listed page, not the TIB)
new valid syscall-32bit-sp trace32-abrupt; poke syscall.vtable 440 8 0x1000000000 # U412
# record 4 "mov rax, [rbx]" at 328: rbx (slot 0) at 342, MEM0 address (slot 1) at 350
new valid mem0-address;          poke exec.vtable 342 8 0x10000; poke exec.vtable 350 8 0x10010 # U346
new valid mem0-page-unlisted;    poke exec.vtable 342 8 0x20000; poke exec.vtable 350 8 0x20000 # U706
# the blocks out of order and the sort cap lowered to 32 bytes by syscall-sort-cap.env
new valid syscall-sort-cap trace32-scrambled                             # U404-SKIPPED
new valid ins-outside-module;    poke ins.itable 64 8 0x40fffe           # U305
new valid ins-below-module;      poke ins.itable 64 8 0x3ff000           # U305 (below StartAddr)
new valid ins-above-module;      poke ins.itable 64 8 0x500000           # U305 (past EndAddr)
new valid ins-type-8;            poke ins.itable 56 1 8                  # no finding: Type 8 is listed
new valid modules-overlap;       poke module.itable 112 8 0x408000; poke module.itable 120 8 0x40ffff # U504
# the same addresses, one module after the other: no finding
new valid module-reloaded;       poke module.itable 56 8 10; poke module.itable 96 8 10; poke module.itable 112 8 0x400000; poke module.itable 120 8 0x40ffff
new valid module-high-32bit trace32-abrupt; poke module.itable 112 8 0x177000000; poke module.itable 120 8 0x1770fffff # U505
new valid cmap-common-chain;     poke context_map.itable 26 2 6; poke context_map.itable 28 2 4 # U605
new valid cmap-eff-largest;      poke context_map.itable 13372 2 6       # U606
new valid cmap-unused-entry;     poke context_map.itable 10032 2 0       # U607
# decodedIns values the base traces lack, each accepted: AddrWidth 4, Flags 0x08 in
# 64-bit code, EffOperSize 2, Mem0Scale 8 with an index slot (its records then
# disagree with the address: U346)
new valid slot-addr-width-4;     poke ins.itable 497 1 4
new valid decoded-flags-08;      poke ins.itable 256 1 8
new valid decoded-oper-size-2;   poke ins.itable 306 1 2
new valid decoded-scale-8;       poke ins.itable 454 1 8; poke ins.itable 455 1 0 # U346
new valid operand-after-const;   poke ins.itable 264 1 0xfd              # U339 (AfterSlot)
new valid phrase-imm1;           poke ins.itable 452 1 0xfe              # U318 (SLOT_IMM1)
new valid phrase-after-slot;     poke ins.itable 453 1 3                 # U318 (an after slot; +U346)
new valid phrase-mem1-unused;    poke ins.itable 317 1 0                 # U320 (Mem1BaseSlot)
new valid cmap-largest-not-reg;  poke context_map.itable 13372 2 600     # U606 (not a register)
new valid cmap-largest-absent;   poke context_map.itable 13372 2 0       # U606 (an absent register)
new valid cmap-unused-size;      poke context_map.itable 10034 1 4       # U607 (Size)
new valid module-load-past-end;  poke module.itable 48 8 1000            # U502 (LoadEID)
# trace32-abrupt's syscall 0 (block at 416, completed): Result, then Args[1] past 2^32
new valid syscall-32bit-result trace32-abrupt; poke syscall.vtable 448 8 0x100000000 # U412 (Result)
new valid syscall-32bit-arg trace32-abrupt; poke syscall.vtable 488 8 0x100000000 # U412 (argument)

# trace.xml shapes the others lack: no Bitness, a short Xed version, blanks given as
# character references (expat turns a literal CR into LF), a Bitness text longer than
# the 64 bytes kept
new valid xml-no-bitness;        xml '/Bitness/d'
new valid xml-xed-short;         xml 's/20150121/2015/'                  # not a date: no U803
new valid xml-cr-blanks;         xml 's/4242/\&#13;4242\&#13;/'
new valid xml-bitness-long;      xml "s/<Bitness>64/<Bitness>$(printf '%070d' 64)/" # U806 (text cut at 64 bytes)
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
# slot of no known kind, whose pages are still looked up (U706)
new valid slot-agen-with-address; poke ins.itable 489 2 0xfffd

# values the base traces lack, each accepted: Mem1BaseSlot SLOT_NA on rep movsb (its
# MEM1 slot then has no register to agree with), Mem0Scale 1, AddrWidth 2, insRec Type
# 9, ModuleID -1, a syscall without arguments, one with an extra inside its block, an
# operand on a constant slot with RegName INVALID
new valid mem1-base-na trace64-x; poke ins.itable 1006 1 0xff           # decodedIns 4 at 939
new valid decoded-scale-1;       poke ins.itable 454 1 1; poke ins.itable 455 1 0 # U346 (index rbx x 1)
new valid slot-addr-width-2;     poke ins.itable 497 1 2                 # U346 (low 2 bytes compared)
new valid ins-type-9;            poke ins.itable 56 1 9
new valid ins-no-module;         poke ins.itable 60 4 -1
new valid syscall-no-args;       poke syscall.vtable 182 1 0
new valid syscall-extras-inside; poke syscall.vtable 183 1 1; poke syscall.vtable 224 8 64
new valid operand-const-invalid-reg; poke ins.itable 263 1 0xfd; poke ins.itable 258 2 0
# a MEM0 address below every listed range (the range search's lower end)
new valid mem0-below-ranges;     poke exec.vtable 342 8 0x100; poke exec.vtable 350 8 0x100 # U706
# a MEM0 value whose last byte lies past 2^64: its pages run to the top of the space
new valid mem0-wraps;            poke exec.vtable 342 8 0xfffffffffffffffc; poke exec.vtable 350 8 0xfffffffffffffffc # U706
# modules-overlap with the other module unloaded at record 40 (a finite load interval)
new valid modules-overlap-unloaded; poke module.itable 112 8 0x408000; poke module.itable 120 8 0x40ffff; poke module.itable 56 8 40 # U504
# tables recognised by their content alone, under a name that is not a member's
cp "$V/trace64/ins.itable" "$V/single-ins.bin"
cp "$V/trace64/module.itable" "$V/single-module.bin"
cp "$V/trace64/context_map.itable" "$V/single-cmap.bin"

# the 0x01 flag of one record against App/Bitness 32, and against record 0 when
# trace.xml has no Bitness
new valid record-64bit-in-32 trace32-abrupt; poke exec.vtable 21 1 1   # U229 (record 0, a Thread begin)
new valid record-bit-unknown;    xml '/Bitness/d'; poke exec.vtable 21 1 0 # U229 (as in record 0)
# the last record of thread 2 (its Thread end) flagged aborted in a trace that ends
# with an Application end
new valid aborted-with-app-end;  poke exec.vtable 2073 1 0x81            # U230 (+U227)
# a module table of no rows, alone
cp "$V/trace64/module.itable" "$V/single-module-empty.bin"
"$GEN" poke "$V/single-module-empty.bin" 8 8 0

# ---- errors ------------------------------------------------------------------------
new invalid missing-trace-xml;   rm "$case_dir/trace.xml"                # U001
cp "$V/trace64/exec.offsets" "$I/single-offsets.bin"                     # UMT-NOT-A-TABLE
printf -- '--format=umtrace\n' > "$I/single-offsets.bin.args"
# a table header of 64-byte rows at TableFP 32: neither a thread, address, ins nor
# module table
cp "$V/trace64/thread.itable" "$I/single-unknown.bin"; "$GEN" poke "$I/single-unknown.bin" 8 8 2; "$GEN" poke "$I/single-unknown.bin" 16 8 64 # UMT-NOT-A-TABLE
printf -- '--format=umtrace\n' > "$I/single-unknown.bin.args"
new invalid thread-short-header; cut thread.itable 20                   # U101
new invalid thread-header-ver;   poke thread.itable 0 4 1                # U102
new invalid module-record-ver;   poke module.itable 4 4 1                # U103
new invalid ranges-row-count;    poke address_space.itable 8 8 -1        # U104
new invalid thread-row-size;     poke thread.itable 16 8 40              # U105
new invalid module-rows-64;      poke module.itable 16 8 64              # U106 (+U110)
new invalid ranges-table-fp;     poke address_space.itable 24 8 8        # U107
new invalid ranges-past-end;     poke address_space.itable 8 8 1000      # U108
new invalid ins-extra-size;      poke ins.itable 40 8 100000             # U109
new invalid ins-extra-overlap;   poke ins.itable 32 8 200                # U110
new valid ranges-trailing;       printf "xx" >> "$case_dir/address_space.itable" # U111
new invalid ustr-negative;       poke module.itable 144 2 -5             # U120
new invalid ustr-too-long;       poke module.itable 144 2 5000           # U121
new invalid ustr-last-byte;      poke module.itable 80 8 353             # U121 (no room for the length)
new invalid cstr-no-nul;         poke ins.itable 240 2 6                 # U122
new invalid exec-short;          cut exec.vtable 10                      # U201
new invalid exec-version;        poke exec.vtable 0 4 2                  # U202
new invalid exec-count-negative; poke exec.vtable 8 8 -2                 # U203
new invalid offsets-size;        cut exec.offsets 392                    # U204
new invalid prevnext-size;       cut exec.prev_next.column 770           # U205
new invalid offset0-in-header;   poke exec.offsets 0 8 8                 # U206
new invalid offset0-gap;         poke exec.offsets 0 8 17                # U207 (+follow-ons)
new invalid offsets-decrease;    poke exec.offsets 16 8 100              # U208
new invalid offset-beyond-last;  poke exec.offsets 80 8 0x7fffffff       # U208 (entry 10 above Offset[RecordCount])
new invalid offsets-last-first;  poke exec.offsets 392 8 16              # U208 (Offset[RecordCount] not above Offset[0])
new invalid offsets-past-end;    poke exec.offsets 392 8 5000            # U209
new invalid record-too-short;    poke exec.offsets 384 8 2722            # U220
new invalid record-type-7;       poke exec.vtable 146 1 7                # U221
new invalid record-type-12;      poke exec.vtable 146 1 12               # U221 (past 11; +chain findings)
new invalid record-thread-id;    poke exec.vtable 142 4 9                # U222
new invalid record-size-type;    poke exec.vtable 2072 1 6               # U223
new invalid record-lc-size;      poke exec.vtable 148 8 1                # U224
new invalid record-ins-id;       poke exec.vtable 148 8 99               # U225
new invalid record-ins-id-negative; poke exec.vtable 148 8 -2          # U225 (negative)
new invalid record-cs64;         poke exec.vtable 147 1 0                # U226
new invalid context-mem-count;   poke exec.vtable 22 4 100               # U240
new invalid context-mem-count-negative; poke exec.vtable 22 4 -1        # U240 (negative)
new invalid context-regs-fp;     poke exec.vtable 30 8 8                 # U241
new invalid context-mem-size;    poke exec.vtable 46 8 1000              # U242
new invalid context-mem-32bit;   poke exec.vtable 21 1 0; poke exec.vtable 38 8 0x1234000000 # U243
new invalid syscall-id-range;    poke exec.vtable 976 8 9                # U250
new invalid syscall-id-negative; poke exec.vtable 976 8 -5              # U250 (negative; +U408)
new invalid syscall-id-range-exit; poke exec.vtable 1646 8 9             # U250 (an exit record; +U409)
new invalid syscall-two-entries; poke exec.vtable 1522 8 0               # U251 (+U408)
new invalid syscall-two-exits;   poke exec.vtable 1646 8 2               # U252 (+U409)
new invalid syscall-completed;   poke syscall.vtable 181 1 1             # U253
new invalid prev-out-of-range;   poke exec.prev_next.column 80 8 500     # U260
new invalid prev-negative;       poke exec.prev_next.column 80 8 -5      # U260 (below -1)
new invalid next-out-of-range;   poke exec.prev_next.column 72 8 500     # U260 (Next)
new invalid next-negative;       poke exec.prev_next.column 72 8 -5      # U260 (Next below -1)
new invalid prev-wrong;          poke exec.prev_next.column 80 8 3       # U261
new invalid next-wrong;          poke exec.prev_next.column 72 8 7       # U262
new invalid thread-no-begin;     poke exec.vtable 206 1 8                # U263
new invalid after-thread-end;    poke exec.vtable 2068 4 0               # U264 (+chain findings)
new invalid app-end-early;       poke exec.vtable 2072 1 3               # U265
new invalid thread-without-records; head -c 48 /dev/zero >> "$case_dir/thread.itable"; poke thread.itable 8 8 4; poke thread.itable 176 4 3 # U266
new invalid thread-id;           poke thread.itable 80 4 5               # U270
new invalid thread-id-negative;  poke thread.itable 80 4 -1              # U270 (negative)
new invalid thread-first-eid;    poke thread.itable 48 8 1               # U271
new invalid thread-last-eid;     poke thread.itable 56 8 10              # U272
new invalid thread-rec-count;    poke thread.itable 64 8 99              # U273
new invalid thread-rec-count-negative; poke thread.itable 64 8 -1       # U273 (negative)
new invalid ins-id;              poke ins.itable 112 8 5                 # U300
new invalid ins-id-negative;     poke ins.itable 112 8 -1                # U300 (negative)
new invalid ins-type;            poke ins.itable 56 1 7                  # U301
new invalid ins-cs64;            poke ins.itable 57 1 2                  # U302
new invalid ins-code-size;       poke ins.itable 58 1 16                 # U303
new invalid ins-code-size-zero;  poke ins.itable 58 1 0                  # U303 (0)
new invalid ins-module-id;       poke ins.itable 60 4 7                  # U304
new invalid ins-module-negative; poke ins.itable 60 4 -5                 # U304 (negative, not -1)
new invalid ins-address-32bit trace32-abrupt; poke ins.itable 64 8 0x100401000 # U306
new invalid ins-disasm-fp;       poke ins.itable 88 8 -1                 # U307
new invalid ins-decoded-fp;      poke ins.itable 224 8 380               # U308
new invalid decoded-exp-count;   poke ins.itable 257 1 5                 # U310
new invalid decoded-eff-size;    poke ins.itable 306 1 3                 # U311
new invalid decoded-flags;       poke ins.itable 256 1 0x40              # U313
new invalid decoded-lc-size;     poke ins.itable 308 2 -1                # U315
new invalid decoded-slot-groups; poke ins.itable 310 1 2                 # U316
new invalid decoded-mem1-base;   poke ins.itable 317 1 5                 # U317
new invalid decoded-scale;       poke ins.itable 315 1 3                 # U319
new invalid decoded-scale-no-index; poke ins.itable 315 1 2             # U319 (a scale without an index slot)
new invalid decoded-addr-size;   poke ins.itable 307 1 3                 # U311 (EffAddrSize)
new invalid decoded-first-after; poke ins.itable 311 1 254               # U316 (FirstAfterSlot past LCCount)
new invalid slot-offset-negative; poke ins.itable 344 2 -1               # U340 (Offset)
new invalid operand-flags-zero;  poke ins.itable 262 1 0                 # U330 (no read, no write)
new invalid operand-flags;       poke ins.itable 262 1 4                 # U330
new invalid operand-before-na;   poke ins.itable 263 1 0xff              # U331
new invalid operand-after-na;    poke ins.itable 264 1 0xff              # U332
new invalid operand-before-late; poke ins.itable 263 1 1                 # U333
new invalid operand-size;        poke ins.itable 260 2 9                 # U335
new invalid operand-mem-offset;  poke ins.itable 416 1 0                 # U336
new invalid operand-agen-on-memory; poke ins.itable 409 2 0xfffd         # U338
new invalid slot-negative;       poke ins.itable 342 2 -1                # U340
new invalid slot-addr-width;     poke ins.itable 346 1 9                 # U341
new invalid slot-past-lc;        poke ins.itable 354 2 9                 # U343
new invalid operand-const-span;   poke ins.itable 263 1 0xfd; poke ins.itable 265 1 4 # U335 (past the constant slot; +U339)
new invalid operand-mem0-on-register; poke ins.itable 414 1 0            # U338 (MEM0)
new invalid operand-mem1-on-register; poke ins.itable 409 2 0xfffe; poke ins.itable 414 1 0 # U338 (MEM1)
new invalid operand-before-slot; poke ins.itable 263 1 10                # U331 (past LCCount)
new invalid operand-after-slot;  poke ins.itable 264 1 10                # U332 (past LCCount)
new invalid operand-after-early; poke ins.itable 264 1 0                 # U333 (AfterSlot before FirstAfterSlot)
new invalid operand-size-negative; poke ins.itable 260 2 -1              # U335 (Size < 0)
new invalid syscall-version;     poke syscall.vtable 0 4 1               # U400
new invalid syscall-offsets-size; cut syscall.offsets 40                 # U402
new invalid syscall-block-size;  poke syscall.offsets 8 8 20             # U403
new invalid syscall-block-offset; poke syscall.offsets 0 8 8             # U403 (in the header)
# trace64's blocks run down (syscall 0 at 176, 1 at 96, 2 at 16, 80 bytes each):
# syscall 1 grown to 100 bytes reaches into syscall 0, found by the in-order sweep
new invalid syscall-overlap;     poke syscall.offsets 24 8 100           # U404
# trace32-scrambled (syscall 0 at 16, 2 at 96, 1 at 256): syscall 0 grown to 100 bytes
# reaches into syscall 2, found after sorting
new invalid syscall-overlap-unordered trace32-scrambled; poke syscall.offsets 8 8 100 # U404
# the same two overlaps with --max-errors=1: the sweeps stop at the first finding, and
# the syscall links' check after them does not start
new invalid syscall-overlap-stop; poke syscall.offsets 24 8 100; printf -- '--max-errors=1\n' > "$case_dir.args" # U404
new invalid syscall-overlap-unordered-stop trace32-scrambled; poke syscall.offsets 8 8 100; printf -- '--max-errors=1\n' > "$case_dir.args" # U404
new invalid syscall-convention;  poke syscall.vtable 180 1 9             # U405
new invalid syscall-convention-negative; poke syscall.vtable 180 1 0xff  # U405 (Convention < 0)
new invalid syscall-completed-2; poke syscall.vtable 181 1 2             # U405 (Completed)
new invalid syscall-args-negative; poke syscall.vtable 182 1 0xff        # U405 (ArgCount < 0)
new invalid syscall-extras-negative; poke syscall.vtable 183 1 0xff      # U405 (ExtraCount < 0)
new invalid syscall-args-fp;     poke syscall.vtable 216 8 70            # U406
new invalid syscall-extras-fp;   poke syscall.vtable 183 1 1; poke syscall.vtable 224 8 0 # U407
new invalid syscall-begin-eid;   poke syscall.vtable 104 8 3             # U408
new invalid syscall-end-eid;     poke syscall.vtable 112 8 29            # U409
new invalid syscall-end-thread;  poke exec.vtable 1640 4 0               # U410 (+chain findings)
# syscall 2 (entry 36) given the skipped exit 19 of syscall 0: its exit comes first
new invalid syscall-exit-first;  poke exec.vtable 1184 8 2; poke syscall.vtable 32 8 19; poke syscall.vtable 21 1 0 # U410 (+U409 on syscall 0)
new invalid syscall-open-completed; poke syscall.vtable 112 8 -1         # U411
new invalid module-range;        poke module.itable 64 8 0x500000        # U500
new invalid module-load-eid;     poke module.itable 48 8 -3              # U501
new invalid module-unload-before-load; poke module.itable 48 8 5; poke module.itable 56 8 2 # U501 (UnloadEID)
new invalid module-name-fp;      poke module.itable 80 8 10              # U503
new invalid cmap-size;           cut context_map.itable 17000            # U600
new invalid cmap-count;          poke context_map.itable 2 2 600         # U601
new invalid cmap-reg-size;       poke context_map.itable 13338 1 100     # U602
new invalid cmap-name;           poke context_map.itable 1056 8 0x4141414141414141; poke context_map.itable 1064 8 0x4141414141414141 # U603
new invalid cmap-reg-absent-size; poke context_map.itable 9242 1 0       # U602 (Size 0 at an offset)
new invalid cmap-reg-ffff-size;  poke context_map.itable 9240 2 0xffff   # U602 (Offset 0xffff with a size)
new invalid cmap-common-negative; poke context_map.itable 18 2 -1        # U604 (negative)
new invalid cmap-common-name;    poke context_map.itable 18 2 50         # U604
new invalid range-first;         poke address_space.itable 32 8 0x10001  # U700
new invalid range-last;          poke address_space.itable 40 8 0x10ffe  # U701
new invalid range-empty;         poke address_space.itable 40 8 0xfff    # U702
new invalid ranges-overlap;      poke address_space.itable 48 8 0x10000  # U704
new invalid xml-malformed;       xml 's|</Data>|</Dat>|'                 # U800
new invalid xml-xed-text;        xml 's/20150121/v1/'                    # U802
new invalid xml-pid-text;        xml 's/4242/-5/'                        # U805
new invalid xml-pid-overflow;    xml 's/4242/99999999999999999999999/'   # U805 (past 2^64)
new invalid xml-empty;           : > "$case_dir/trace.xml"               # U800
new invalid xml-pid-trailing;    xml 's/4242/4242x/'                     # U805
new invalid xml-pid-2-64;        xml 's/4242/18446744073709551616/'      # U805 (2^64: the last digit overflows)
# the syscall decodedIns (at 535, the last in the extra area) given 254 slots, the
# extra area grown to hold them
new invalid decoded-lc-count-254; truncate -s $((623 + 254 * 12)) "$case_dir/ins.itable"; poke ins.itable 40 8 $((383 + 254 * 12)); poke ins.itable 597 1 254 # U316
# an exec trace of no records: Offset[0] alone, no links; the tables naming records
# are left as they are (their EIDs are then out of range)
new invalid exec-no-records;     cut exec.vtable 16; poke exec.vtable 8 8 0; cut exec.offsets 8; cut exec.prev_next.column 0
new invalid module-name-negative; poke module.itable 80 8 -1              # U503 (negative)
new invalid operand-after-not-written; poke ins.itable 415 1 3          # U332 (a read-only operand with an AfterSlot)
new invalid ins-extra-in-header; poke ins.itable 32 8 8                 # U110 (ExtraFP inside the header)
new invalid module-range-32bit trace32-abrupt; poke module.itable 64 8 0x500000 # U500 (in a 32-bit trace)
# trace32-scrambled's syscall 1 moved onto syscall 0's block: equal offsets, sorted by ID
new invalid syscall-same-offset trace32-scrambled; poke syscall.offsets 16 8 16 # U404
new invalid syscall-header-short; cut syscall.vtable 10                  # U400 (HeaderVer alone readable)
new invalid syscall-header-cut;  cut syscall.vtable 2                   # U400 (not even HeaderVer)
new invalid ins-extra-empty;     poke ins.itable 40 8 0                 # U307, U308 (no extra area for the strings)
new invalid ins-extra-negative;  poke ins.itable 40 8 -1                # U109 (ExtraSize < 0)

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
			" " + .severity + " " + .rule + " " + .message' > "$path.expected.new"
		if [ -s "$path.expected.new" ]; then
			mv "$path.expected.new" "$path.expected"
		else
			rm -f "$path.expected.new" "$path.expected"
		fi
	done
fi
