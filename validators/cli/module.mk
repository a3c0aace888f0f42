# The CLI: inih reads its config files (.tracelint.ini); -j runs threads.
CLI_LDLIBS += -linih -pthread
DEB_PACKAGES += libinih-dev
