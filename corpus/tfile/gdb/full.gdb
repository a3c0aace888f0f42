# args: 40
# A small linear buffer: the run stops with tfull.
set circular-trace-buffer off
set trace-buffer-size 200
trace work
actions
collect counter, local
end
tstart
continue
tstop
