# Offline checks of the CI and fuzzing-service files (tests/ci/).

# What `make deps` installs (read by tests/ci/check_files.py).
.PHONY: ci-deb-packages
ci-deb-packages:
	@echo $(DEB_PACKAGES)

# fuzzers/build.sh as the OSS-Fuzz / ClusterFuzzLite base builder runs it, in
# each variant, then every target over its seed zip (tests/ci/oss-build.sh).
# `make check` runs the libFuzzer + ASan variant (tests/ci/oss_build_test.sh);
# check-heavy runs them all.
CI_OSS_VARIANTS := libfuzzer-address libfuzzer-undefined afl-address coverage
.PHONY: ci-oss-build $(addprefix ci-oss-build-,$(CI_OSS_VARIANTS))
ci-oss-build: $(addprefix ci-oss-build-,$(CI_OSS_VARIANTS))
$(addprefix ci-oss-build-,$(CI_OSS_VARIANTS)): ci-oss-build-%:
	rm -rf $(BUILD)/ci-oss/$* && mkdir -p $(BUILD)/ci-oss/$*
	sh tests/ci/oss-build.sh $* $(CURDIR) $(abspath $(BUILD))/ci-oss/$*
check-heavy: ci-oss-build
