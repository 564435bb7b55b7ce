# CAP Bench, the "ipc" build: each application (benchmarks/capbench/NAME.c) over the raw
# IKC layer (comm_ikc.c) as build/user/capbench/NAME_ipc.elf, plus the layer's
# conformance test and ping-pong. Included by the top Makefile after
# benchmarks/capbench/capbench.mk, which defines CAPBENCH_APPS.
capbench_ipc_saved_default_goal := $(.DEFAULT_GOAL)

CAPBENCH_OUT := $(BUILD_ROOT)/user/capbench
CAPBENCH_OBJ := $(USER_OBJ_DIR)/benchmarks/capbench
CAPBENCH_IPC_LAYER := $(CAPBENCH_OBJ)/comm_ikc.o $(CAPBENCH_OBJ)/cap_clock.o
CAPBENCH_IPC_PROGRAMS := $(patsubst %,$(CAPBENCH_OUT)/%_ipc.elf,$(CAPBENCH_APPS) cap_comm_test cap_pingpong)

# Programs written against cap_comm.h find it on their include path.
$(CAPBENCH_OBJ)/%.o $(USER_OBJ_DIR)/tests/guest/cap_comm_test.o: USER_CFLAGS += -Ibenchmarks/capbench

$(foreach a,$(CAPBENCH_APPS) cap_pingpong,$(eval $(call nvx_user_program,$(CAPBENCH_OUT)/$(a)_ipc.elf,$(CAPBENCH_OBJ)/$(a).o $(CAPBENCH_IPC_LAYER))))
$(eval $(call nvx_user_program,$(CAPBENCH_OUT)/cap_comm_test_ipc.elf,$(USER_OBJ_DIR)/tests/guest/cap_comm_test.o $(CAPBENCH_IPC_LAYER)))

.PHONY: capbench-ipc
capbench-ipc: $(CAPBENCH_IPC_PROGRAMS)
user-programs: $(CAPBENCH_IPC_PROGRAMS)

.DEFAULT_GOAL := $(capbench_ipc_saved_default_goal)
