#!/bin/bash -eu
# ClusterFuzzLite runs this from $SRC/tracelint (the Dockerfile's WORKDIR)
# with $CC $CXX $CFLAGS $LIB_FUZZING_ENGINE $SRC $WORK $OUT set by the base
# builder. fuzzers/build.sh writes every target with its seed corpus zip,
# dictionary and options into $OUT.
sh fuzzers/build.sh
