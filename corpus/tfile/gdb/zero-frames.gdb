# A run with no hit at all: tstart, then tstop (tframes 0).
trace idle
actions
collect counter
end
tstart
tstop
