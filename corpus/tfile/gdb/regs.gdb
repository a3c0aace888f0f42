# Registers only: every hit of work() collects the whole register set.
trace work
actions
collect $regs
end
tstart
continue
tstop
