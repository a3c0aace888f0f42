# Trace state variables: a counter, a negative and a 64-bit wide value,
# plus gdbserver's built-in $trace_timestamp.
tvariable $hits = 0
tvariable $neg = -5
tvariable $wide = 0x123456789abcdef0
trace work
actions
teval $hits = $hits + 1
collect $hits, $neg, $wide, $trace_timestamp
collect counter
end
tstart
continue
tstop
