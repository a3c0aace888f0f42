# Trace notes, user name and a stop note (status notes/username/tstop text).
set trace-notes tracelint corpus run
set trace-user alice
trace work
actions
collect counter
end
tstart
continue
tstop "collected enough"
