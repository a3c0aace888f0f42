# The tfile validator parses tdesc XML with expat.
# once, whichever of the formats that parse XML adds it first
LDLIBS += $(if $(filter -lexpat,$(LDLIBS)),,-lexpat)
