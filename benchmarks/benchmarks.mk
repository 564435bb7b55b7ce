# Benchmarks: the IKC micro-benchmark program and `make bench-ikc`.
# Included by the top Makefile after mk/programs.mk (needs USER_OUT, USER_OBJ_DIR and
# nvx_user_program). Guarded, so `make -f Makefile -f benchmarks/benchmarks.mk` also works
# when the Makefile already includes it.
ifndef NVX_BENCHMARKS_MK
NVX_BENCHMARKS_MK := 1

# A fragment must not become the default goal.
benchmarks_saved_default_goal := $(.DEFAULT_GOAL)

IKC_BENCH := $(USER_OUT)/ikc_bench.elf
$(eval $(call nvx_user_program,$(IKC_BENCH),$(USER_OBJ_DIR)/benchmarks/ikc_bench.o))

CALLS_BENCH := $(USER_OUT)/calls_bench.elf
$(eval $(call nvx_user_program,$(CALLS_BENCH),$(USER_OBJ_DIR)/benchmarks/calls_bench.o))
USER_PROGRAMS += $(CALLS_BENCH)
user-programs: $(CALLS_BENCH)

# Linked with private globals: it measures them.
PRIVATE_BENCH := $(USER_OUT)/private_bench.elf
$(eval $(call nvx_user_program,$(PRIVATE_BENCH),$(USER_OBJ_DIR)/benchmarks/private_bench.o,private))
USER_PROGRAMS += $(PRIVATE_BENCH)
user-programs: $(PRIVATE_BENCH)

NAMES_BENCH := $(USER_OUT)/names_bench.elf
$(eval $(call nvx_user_program,$(NAMES_BENCH),$(USER_OBJ_DIR)/benchmarks/names_bench.o))
USER_PROGRAMS += $(NAMES_BENCH)
user-programs: $(NAMES_BENCH)

# user-programs' prerequisites were expanded when mk/programs.mk was read: add ours to
# the target directly, and to the list for whoever reads it later.
USER_PROGRAMS += $(IKC_BENCH)
user-programs: $(IKC_BENCH)

# IKC latency and bandwidth on the small board (needs `make BOARD=small` once).
.PHONY: bench-ikc
bench-ikc: $(IKC_BENCH)
	benchmarks/ikc.sh

# Instructions per kernel call and per IKC operation, per hart (instruction counter);
# needs `make BOARD=small` and `make BOARD=mppa256`.
.PHONY: bench-icount
bench-icount: $(IKC_BENCH) $(CALLS_BENCH) $(PRIVATE_BENCH) $(ICOUNT_PLUGIN)
	benchmarks/icount.sh

# Name lookup cost and spawn time per cluster.
.PHONY: bench-services
bench-services: $(NAMES_BENCH)
	benchmarks/services.sh

.DEFAULT_GOAL := $(benchmarks_saved_default_goal)
endif
