# CAP Bench: FN, GF, KM and the all-to-all benchmark A2A, each written once over
# the communication layer cap_comm.h, here linked with comm_mpi.c for both LWMPI variants:
#   build/user/capbench/{fn,gf,km,a2a}_{opt,unopt}.elf
# and the host reference tool build/tools/capbench-ref, whose table of expected results
# (generated at build time) is compiled into every application. Included by the top
# Makefile after mk/mpi.mk (lwmpi_program, lwmpi_objs, MPI_OBJ).
# For another communication build (benchmarks/capbench/ipc.mk): an application is
# $(call capbench_app_obj,APP) + $(CAPBENCH_COMMON_OBJS) + that build's layer.
capbench_saved_default_goal := $(.DEFAULT_GOAL)

CAPBENCH_APPS := fn gf km a2a
CAPBENCH_DIR := benchmarks/capbench
CAPBENCH_OUT := $(USER_OUT)/capbench

# The host reference and the table it generates.
CAPBENCH_REF := $(BUILD_ROOT)/tools/capbench-ref
# LBM's reference is linked in for its class entries (benchmarks/lbm/lbm.mk: the cell update
# without fused multiply-adds, as on the guest).
CAPBENCH_REF_SRCS := $(CAPBENCH_DIR)/ref/capbench_ref_main.cpp $(CAPBENCH_DIR)/ref/capbench_ref.cpp \
	benchmarks/lbm/ref/lbm_ref.cpp
$(CAPBENCH_REF): $(CAPBENCH_REF_SRCS) $(CAPBENCH_DIR)/ref/capbench_ref.hpp $(CAPBENCH_DIR)/cap_data.h $(CAPBENCH_DIR)/cap_class.h \
		benchmarks/lbm/ref/lbm_ref.hpp benchmarks/lbm/lbm_d3q19.h benchmarks/lbm/lbm_blocks.h
	@mkdir -p $(@D)
	@echo "  HOSTCXX $@"; $(HOSTCXX) -std=c++20 -O2 -Wall -Wextra -ffp-contract=off -pthread -Ibenchmarks/lbm -o $@ $(CAPBENCH_REF_SRCS)
CAPBENCH_EXPECTED := $(CAPBENCH_OUT)/gen/cap_expected.c
$(CAPBENCH_EXPECTED): $(CAPBENCH_REF)
	@mkdir -p $(@D)
	$(CAPBENCH_REF) table >$@.tmp && mv $@.tmp $@
$(call lwmpi_objs,$(CAPBENCH_EXPECTED)): MPI_CFLAGS += -I$(CAPBENCH_DIR)

# An application's source: benchmarks/capbench/APP.c, but A2A has its own folder.
CAPBENCH_SRC_a2a := benchmarks/a2a/a2a.c
capbench_app_src = $(or $(CAPBENCH_SRC_$(1)),$(CAPBENCH_DIR)/$(1).c)
capbench_app_obj = $(call lwmpi_objs,$(call capbench_app_src,$(1)))
CAPBENCH_COMMON_OBJS := $(call lwmpi_objs,$(CAPBENCH_DIR)/cap_app.c $(CAPBENCH_DIR)/cap_clock.c $(CAPBENCH_EXPECTED))
CAPBENCH_MPI_OBJS := $(call lwmpi_objs,$(CAPBENCH_DIR)/comm_mpi.c $(CAPBENCH_DIR)/cap_mpi_build.c)

# Programs of the layer itself, built for every layer as NAME_BUILD.elf: its conformance
# test (the same source proves every build) and its ping-pong.
CAPBENCH_LAYER_PROGRAMS := tests/guest/cap_comm_test $(CAPBENCH_DIR)/cap_pingpong
$(call lwmpi_objs,tests/guest/cap_comm_test.c): MPI_CFLAGS += -I$(CAPBENCH_DIR)

define capbench_variant
$(foreach a,$(CAPBENCH_APPS),$(call lwmpi_program,$(CAPBENCH_OUT)/$(a)_$(1).elf,$(call capbench_app_obj,$(a)) $(CAPBENCH_COMMON_OBJS) $(CAPBENCH_MPI_OBJS),$(1))
)
$(foreach t,$(CAPBENCH_LAYER_PROGRAMS),$(call lwmpi_program,$(CAPBENCH_OUT)/$(notdir $(t))_$(1).elf,$(call lwmpi_objs,$(t).c $(CAPBENCH_DIR)/cap_clock.c) $(CAPBENCH_MPI_OBJS),$(1))
)
endef
$(foreach v,$(MPI_VARIANTS),$(eval $(call capbench_variant,$(v))))

CAPBENCH_ELFS := $(foreach v,$(MPI_VARIANTS),$(foreach a,$(CAPBENCH_APPS) $(notdir $(CAPBENCH_LAYER_PROGRAMS)),$(CAPBENCH_OUT)/$(a)_$(v).elf))
.PHONY: capbench
capbench: $(CAPBENCH_ELFS) $(CAPBENCH_REF)
USER_PROGRAMS += $(CAPBENCH_ELFS)
user-programs: capbench

.DEFAULT_GOAL := $(capbench_saved_default_goal)
