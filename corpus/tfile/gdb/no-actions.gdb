# A tracepoint without actions: frames of size 0.
trace work
tstart
continue
tstop
