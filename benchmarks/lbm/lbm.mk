# LBM D3Q19 streamed from the DDR service (benchmarks/lbm/lbm.c): one program over CAP
# Bench's raw-IKC layer (its barriers; the data moves through nvx/ddr.h), as
# build/user/lbm/lbm_ipc.elf, and its host reference build/tools/lbm-ref. Both compile the
# cell update without fused multiply-adds, so the guest's lattice is the host's bit for bit.
# Included by the top Makefile after benchmarks/capbench/ipc.mk.
lbm_saved_default_goal := $(.DEFAULT_GOAL)

LBM_DIR := benchmarks/lbm
LBM_ELF := $(USER_OUT)/lbm/lbm_ipc.elf
LBM_OBJ := $(call lwmpi_objs,$(LBM_DIR)/lbm.c $(LBM_DIR)/lbm_team.c)
LBM_REF := $(BUILD_ROOT)/tools/lbm-ref
LBM_REF_SRCS := $(LBM_DIR)/ref/lbm_ref_main.cpp $(LBM_DIR)/ref/lbm_ref.cpp

$(LBM_OBJ): MPI_CFLAGS += -ffp-contract=off
$(LBM_REF): $(LBM_REF_SRCS) $(LBM_DIR)/ref/lbm_ref.hpp $(LBM_DIR)/lbm_d3q19.h $(LBM_DIR)/lbm_blocks.h
	@mkdir -p $(@D)
	@echo "  HOSTCXX $@"; $(HOSTCXX) -std=c++20 -O2 -Wall -Wextra -ffp-contract=off -I$(LBM_DIR) -o $@ $(LBM_REF_SRCS)

$(eval $(call nvx_user_program,$(LBM_ELF),$(LBM_OBJ) $(CAPBENCH_COMMON_OBJS) $(CAPBENCH_IPC_LAYER),private))

.PHONY: lbm
lbm: $(LBM_ELF) $(LBM_REF)
USER_PROGRAMS += $(LBM_ELF)
user-programs: lbm

.DEFAULT_GOAL := $(lbm_saved_default_goal)
