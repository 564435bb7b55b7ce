# CAP Bench, the "ipc" build: each application over the raw IKC layer (comm_ikc.c) as
# build/user/capbench/NAME_ipc.elf, plus the layer's conformance test and ping-pong.
# Included by the top Makefile after benchmarks/capbench/capbench.mk: an application's
# object and the common objects are the same in every build; only the layer differs.
capbench_ipc_saved_default_goal := $(.DEFAULT_GOAL)

# The layer is a library (an archive named libnvx*: its data stays shared by the cluster's
# ranks, runtime/globals/private/nvx_globals.ld); the programs get private globals, as
# MPI programs do.
CAPBENCH_IPC_LAYER_OBJ := $(USER_OBJ_DIR)/benchmarks/capbench/comm_ikc.o
CAPBENCH_IPC_LAYER := $(CAPBENCH_OUT)/libnvxcapipc.a
CAPBENCH_IPC_ELFS := $(patsubst %,$(CAPBENCH_OUT)/%_ipc.elf,$(CAPBENCH_APPS) cap_comm_test cap_pingpong)

$(CAPBENCH_IPC_LAYER_OBJ): USER_CFLAGS += -I$(CAPBENCH_DIR)
$(CAPBENCH_IPC_LAYER): $(CAPBENCH_IPC_LAYER_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(foreach a,$(CAPBENCH_APPS),$(eval $(call nvx_user_program,$(CAPBENCH_OUT)/$(a)_ipc.elf,$(call capbench_app_obj,$(a)) $(CAPBENCH_COMMON_OBJS) $(CAPBENCH_IPC_LAYER),private)))
$(foreach t,$(CAPBENCH_LAYER_PROGRAMS),$(eval $(call nvx_user_program,$(CAPBENCH_OUT)/$(notdir $(t))_ipc.elf,$(call lwmpi_objs,$(t).c $(CAPBENCH_DIR)/cap_clock.c) $(CAPBENCH_IPC_LAYER),private)))

.PHONY: capbench-ipc
capbench-ipc: $(CAPBENCH_IPC_ELFS)
USER_PROGRAMS += $(CAPBENCH_IPC_ELFS)
user-programs: capbench-ipc

.DEFAULT_GOAL := $(capbench_ipc_saved_default_goal)
