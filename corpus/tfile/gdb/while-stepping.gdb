# while-stepping: one frame per hit plus one per single step (same tpnum).
trace work
actions
collect counter
while-stepping 3
collect $regs
end
end
tstart
continue
tstop
