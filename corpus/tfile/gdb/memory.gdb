# Memory only: a global array and a global int, no registers.
trace work
actions
collect small_buf
collect counter
end
tstart
continue
tstop
