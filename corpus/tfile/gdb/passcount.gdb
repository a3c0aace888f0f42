# args: 6
# A pass count: the run stops itself after 2 hits (status tpasscount).
trace work
passcount 2
actions
collect counter
end
tstart
continue
tstop
