# Benchmark definition of the GDB trace file format (sourced by
# validators/core/bench/bench.sh, which exports $top). Inputs come from
# corpus/tfile/gen-large.sh: real x86-64 frame layout, about 160 frames a MB.
#
# The reference reader is gdb itself: `target tfile` and a walk over every
# frame (corpus/tfile/gdb/walk.py: tfind start, tfind until none is left,
# $pc and a memory probe in each frame). gdb rescans the file from frame 0
# for every tfind, so the walk is quadratic in the number of frames: 25 MB
# (about 4,000 frames) took 72 s on the 2-core build machine, 100 MB would
# take about 20 minutes, hence bench_reference_max_mb=25.
bench_sizes="10 25 100 1000"
bench_references="gdb"
bench_reference_max_mb=25
bench_items_name="frames"

bench_generate() {
	sh "$top/corpus/tfile/gen-large.sh" "$1" "$2"
}

bench_reference() {
	case "$1" in
	gdb)
		timeout 600 gdb -batch -nx -ex "python path = '$2'" \
			-x "$top/corpus/tfile/gdb/walk.py" > /dev/null 2>&1
		;;
	*)
		echo "tfile benchmark: unknown reference reader $1" >&2
		return 1
		;;
	esac
}

# Counts the frames by following the little-endian frame headers from the
# end of the description to the zero end marker.
bench_items() {
	python3 - "$1" <<'EOF'
import struct
import sys

with open(sys.argv[1], "rb") as f:
    head = f.read(1 << 20)
    pos = head.index(b"\n\n") + 2
    frames = 0
    while True:
        f.seek(pos)
        header = f.read(6)
        if len(header) < 2 or header[:2] == b"\0\0":
            break
        if len(header) < 6:
            break
        frames += 1
        pos += 6 + struct.unpack("<I", header[2:])[0]
print(frames)
EOF
}
