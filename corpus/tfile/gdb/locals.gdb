# Locals and arguments (frame-relative M blocks plus the registers they need).
trace work
actions
collect $locals, $args
end
tstart
continue
tstop
