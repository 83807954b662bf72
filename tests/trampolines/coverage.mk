# Included by the Makefile: `make coverage`, the line coverage of the
# generated trampolines under their generated driver (tests/trampolines/coverage).

COVERAGE_SPEC ?= $(if $(wildcard $(SPEC)),$(SPEC),../shared/spec/jdk25/jvmti.xml)
coverage: $(JVMTIGEN) $(GEN_DRIVER)
	@JVMTIGEN=$(JVMTIGEN) GEN_DRIVER=$(GEN_DRIVER) \
	    ./tests/trampolines/coverage $(COVERAGE_SPEC) build/$(VARIANT)/coverage
