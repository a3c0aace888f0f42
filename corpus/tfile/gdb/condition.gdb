# A condition compiled to agent bytecode (tp T ...:X) with its source (tp Z cond).
trace work if i % 3 == 0
actions
collect i, counter
end
tstart
continue
tstop
