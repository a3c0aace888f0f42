# The tfile validator parses tdesc XML with expat.
LDLIBS += -lexpat
DEB_PACKAGES += libexpat1-dev
