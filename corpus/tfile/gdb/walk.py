# gdb's reading of a trace file, for the conformance report and the benchmark:
#   gdb -batch -nx [-ex 'set endian big'] -ex 'python path = "F"' -x walk.py
# Opens the file with `target tfile`, then selects every frame in turn
# (`tfind start`, then `tfind` until no frame is left) and, in each, fetches
# $pc (reads the frame's R block) and probes memory at address 0 (walks all
# of the frame's blocks looking for an M block). Prints one marker line per
# event on stdout for the caller to classify:
#   WALK-OPEN-ERROR <message>    target tfile failed (the file may stay open)
#   WALK-ERROR <frame> <message> an error while finding or reading a frame
#   WALK-END <frames>            the walk ended normally after <frames> frames
import gdb


def first_line(err):
    text = str(err).strip()
    return text.splitlines()[0] if text else "(empty error message)"


def probe_frame():
    gdb.parse_and_eval("$pc").format_string()
    try:
        gdb.selected_inferior().read_memory(0, 1)
    except gdb.error as err:
        # Address 0 is in no M block: "unavailable" is the expected answer.
        if "address 0x0" not in str(err):
            raise


def walk(path):
    try:
        gdb.execute("target tfile " + path)
    except gdb.error as err:
        print("WALK-OPEN-ERROR " + first_line(err))
    frames = 0
    command = "tfind start"
    while True:
        try:
            gdb.execute(command)
            selected = gdb.parse_and_eval("$trace_frame")
            # void when no frame was ever selected, -1 after the last one
            if selected.type.code == gdb.TYPE_CODE_VOID or int(selected) < 0:
                break
            probe_frame()
        except gdb.error as err:
            print("WALK-ERROR %d %s" % (frames, first_line(err)))
            return
        frames += 1
        command = "tfind"
    print("WALK-END %d" % frames)


walk(path)  # noqa: F821 (set by the caller with -ex 'python path = ...')
