# gdb's reading of a trace file's frames, in the schema of `tracelint dump`:
#   WALK_PATH=F gdb -batch -nx -x gdb-frames.py
# Opens F with `target tfile` and selects every frame in turn (`tfind start`,
# then `tfind`), printing a header line and one "frame" line per frame (its
# index and tracepoint number, as gdb's $trace_frame and $tracepoint give
# them). Marker lines for the caller: FRAMES-ERROR <message> when gdb
# fails, FRAMES-END <frames> when the walk ends normally.
import json
import os

import gdb


def emit(obj):
    print(json.dumps(obj, separators=(",", ":")))


def first_line(err):
    text = str(err).strip()
    return text.splitlines()[0] if text else "(empty error message)"


def frames(path):
    try:
        gdb.execute("target tfile " + path, to_string=True)
    except gdb.error as err:
        print("FRAMES-ERROR " + first_line(err))
        return
    emit({"kind": "header", "kinds": ["frame"], "format": "tfile"})
    count = 0
    command = "tfind start"
    while True:
        try:
            gdb.execute(command, to_string=True)
            selected = gdb.parse_and_eval("$trace_frame")
            if selected.type.code == gdb.TYPE_CODE_VOID or int(selected) < 0:
                break
            emit({"kind": "frame", "index": int(selected),
                  "tracepoint": int(gdb.parse_and_eval("$tracepoint"))})
        except gdb.error as err:
            print("FRAMES-ERROR " + first_line(err))
            return
        count += 1
        command = "tfind"
    print("FRAMES-END %d" % count)


frames(os.environ["WALK_PATH"])
