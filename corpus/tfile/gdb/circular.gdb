# args: 40
# A small circular buffer: the oldest frames are discarded (tcreated > tframes).
set circular-trace-buffer on
set trace-buffer-size 400
trace work
actions
collect counter
end
tstart
continue
tstop
