TRACE0
R 970
tdesc 
tdesc <!DOCTYPE target SYSTEM "gdb-target.dtd">
tdesc <target>
tdesc   <architecture>i386:x86-64</architecture>
tdesc   <osabi>GNU/Linux</osabi>
tdesc   <feature name="org.gnu.gdb.i386.core">
tdesc     <flags id="i386_eflags" size="4">
tdesc       <field name="CF" start="0" end="0" type="bool"/>
tdesc       <field name="" start="1" end="1" type="bool"/>
tdesc       <field name="PF" start="2" end="2" type="bool"/>
tdesc       <field name="AF" start="4" end="4" type="bool"/>
tdesc       <field name="ZF" start="6" end="6" type="bool"/>
tdesc       <field name="SF" start="7" end="7" type="bool"/>
tdesc       <field name="TF" start="8" end="8" type="bool"/>
tdesc       <field name="IF" start="9" end="9" type="bool"/>
tdesc       <field name="DF" start="10" end="10" type="bool"/>
tdesc       <field name="OF" start="11" end="11" type="bool"/>
tdesc       <field name="NT" start="14" end="14" type="bool"/>
tdesc       <field name="RF" start="16" end="16" type="bool"/>
tdesc       <field name="VM" start="17" end="17" type="bool"/>
tdesc       <field name="AC" start="18" end="18" type="bool"/>
tdesc       <field name="VIF" start="19" end="19" type="bool"/>
tdesc       <field name="VIP" start="20" end="20" type="bool"/>
tdesc       <field name="ID" start="21" end="21" type="bool"/>
tdesc     </flags>
tdesc     <reg name="rax" bitsize="64" type="int64" regnum="0"/>
tdesc     <reg name="rbx" bitsize="64" type="int64" regnum="1"/>
tdesc     <reg name="rcx" bitsize="64" type="int64" regnum="2"/>
tdesc     <reg name="rdx" bitsize="64" type="int64" regnum="3"/>
tdesc     <reg name="rsi" bitsize="64" type="int64" regnum="4"/>
tdesc     <reg name="rdi" bitsize="64" type="int64" regnum="5"/>
tdesc     <reg name="rbp" bitsize="64" type="data_ptr" regnum="6"/>
tdesc     <reg name="rsp" bitsize="64" type="data_ptr" regnum="7"/>
tdesc     <reg name="r8" bitsize="64" type="int64" regnum="8"/>
tdesc     <reg name="r9" bitsize="64" type="int64" regnum="9"/>
tdesc     <reg name="r10" bitsize="64" type="int64" regnum="10"/>
tdesc     <reg name="r11" bitsize="64" type="int64" regnum="11"/>
tdesc     <reg name="r12" bitsize="64" type="int64" regnum="12"/>
tdesc     <reg name="r13" bitsize="64" type="int64" regnum="13"/>
tdesc     <reg name="r14" bitsize="64" type="int64" regnum="14"/>
tdesc     <reg name="r15" bitsize="64" type="int64" regnum="15"/>
tdesc     <reg name="rip" bitsize="64" type="code_ptr" regnum="16"/>
tdesc     <reg name="eflags" bitsize="32" type="i386_eflags" regnum="17"/>
tdesc     <reg name="cs" bitsize="32" type="int32" regnum="18"/>
tdesc     <reg name="ss" bitsize="32" type="int32" regnum="19"/>
tdesc     <reg name="ds" bitsize="32" type="int32" regnum="20"/>
tdesc     <reg name="es" bitsize="32" type="int32" regnum="21"/>
tdesc     <reg name="fs" bitsize="32" type="int32" regnum="22"/>
tdesc     <reg name="gs" bitsize="32" type="int32" regnum="23"/>
tdesc     <reg name="st0" bitsize="80" type="i387_ext" regnum="24"/>
tdesc     <reg n