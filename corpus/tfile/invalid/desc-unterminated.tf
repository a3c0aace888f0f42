TRACE0
R 10
tdesc 
tdesc <!DOCTYPE target SYSTEM "gdb-target.dtd">
tdesc <target>
tdesc   <architecture>i386:x86-64</architecture>
tdesc </target>
status 0;tstop::0;tframes:2;tcreated:2;tfree:100;tsize:200;starttime:3b276dad;stoptime:3b2783cb;notes:;username:
tsv 1:0:1:74726163655f74696d657374616d70
