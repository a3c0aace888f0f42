# One collection larger than 65535 bytes: gdbserver splits it into M blocks.
trace done
actions
collect big_buf
end
tstart
continue
tstop
