#!/bin/bash -eu
# OSS-Fuzz runs this from $SRC/tracelint (the Dockerfile's WORKDIR) with
# $CC $CXX $CFLAGS $LIB_FUZZING_ENGINE $SRC $WORK $OUT set for the engine and
# sanitizer of the build. fuzzers/build.sh writes every target with its seed
# corpus zip, dictionary and options into $OUT.
sh fuzzers/build.sh
