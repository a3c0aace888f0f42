# Several tracepoints with different actions, frames interleaved.
trace work
actions
collect counter
end
trace idle
trace done
actions
collect $regs, small_buf
end
trace main
actions
collect $regs
end
tstart
continue
tstop
