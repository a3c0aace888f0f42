# A disabled tracepoint (tp T ...:D, number 4) next to an enabled one.
trace work
actions
collect counter
end
trace done
actions
collect $regs
end
disable 4
tstart
continue
tstop
