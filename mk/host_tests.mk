# Host unit tests (tests/host, GoogleTest + CTest), included by the top Makefile.
#   make test-host   configure into $(HOST_BUILD), build, run every test
#
# The top Makefile sets CC/CXX to the RISC-V cross compilers; if those names came from
# the environment, make exports the cross values to recipes, so they are removed here
# and the host compiler is named explicitly.
HOST_BUILD ?= build/host
HOSTCXX ?= g++
CMAKE ?= cmake
CTEST ?= ctest
HOST_TEST_JOBS ?= 2

.PHONY: test-host
test-host:
	@env -u CC -u CXX $(CMAKE) -S tests/host -B $(HOST_BUILD) -DCMAKE_CXX_COMPILER=$(HOSTCXX)
	@$(CMAKE) --build $(HOST_BUILD) -j$(HOST_TEST_JOBS)
	@cd $(HOST_BUILD) && $(CTEST) --output-on-failure
