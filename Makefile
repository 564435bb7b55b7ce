# Top-level build. `make run` runs a short CAP Bench weak-scaling sweep on the default
# board (`make demo`: the hello demo); `make test` runs every test. All flags and variants are chosen in mk/config.mk.
include mk/config.mk
# The instruction counter: a QEMU TCG plugin (scripts/nvx-run --count-insns), built below.
ICOUNT_PLUGIN := $(BUILD_ROOT)/tools/libnvxcount.so
include runtime/runtime.mk
include services/services.mk
include mk/programs.mk
include benchmarks/benchmarks.mk
include mk/mpi.mk
include tests/mpi/mpi_programs.mk
include mk/weak_scaling.mk
include benchmarks/capbench/capbench.mk
include benchmarks/capbench/ipc.mk
include benchmarks/lbm/lbm.mk

.DEFAULT_GOAL := all
.PHONY: all deps deps-slurm run demo test test-long test-slurm test-host test-guest clean

SUPPORT_SRCS := support/format.cpp support/mem.cpp support/reservations.cpp
FIRMWARE_SRCS := $(wildcard hal/firmware/*.cpp) hal/firmware/entry.S hal/firmware/payload.S
KERNEL_SRCS := $(shell find kernel ikc -name '*.cpp' -o -name '*.S' | sort)

FIRMWARE_ELF := $(BUILD)/nvx.elf
KERNEL_ELF := $(BUILD)/kernel/kernel.elf
KERNEL_BIN := $(BUILD)/kernel/kernel.bin

obj = $(patsubst %,$(BUILD)/$(1)/%.o,$(basename $(2)))
SUPPORT_OBJS := $(call obj,sup,$(SUPPORT_SRCS))
FIRMWARE_OBJS := $(call obj,fw,$(FIRMWARE_SRCS))
KERNEL_OBJS := $(call obj,kern,$(KERNEL_SRCS))

MODEL_TEXT := $(BUILD)/model-text

all: $(FIRMWARE_ELF) $(MODEL_TEXT) user-programs

# --- supervisor-side objects (firmware, kernel, support) ---
$(BUILD)/sup/support/mem.o: support/mem.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX $<"; $(CXX) $(SUPERVISOR_CXXFLAGS) -fno-builtin -fno-tree-loop-distribute-patterns -MMD -MP -c $< -o $@
$(BUILD)/sup/%.o: %.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX $<"; $(CXX) $(SUPERVISOR_CXXFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fw/%.o $(BUILD)/kern/%.o: %.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX $<"; $(CXX) $(SUPERVISOR_CXXFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/kern/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS  $<"; $(CC) $(SUPERVISOR_ASFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fw/hal/firmware/entry.o: hal/firmware/entry.S
	@mkdir -p $(dir $@)
	@echo "  AS  $<"; $(CC) $(SUPERVISOR_ASFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fw/hal/firmware/payload.o: hal/firmware/payload.S $(KERNEL_BIN) $(SYSTEM_IMAGE)
	@mkdir -p $(dir $@)
	@echo "  AS  $<"; $(CC) $(SUPERVISOR_ASFLAGS) -DKERNEL_IMAGE_PATH='"$(KERNEL_BIN)"' \
		-DSYSTEM_IMAGE_PATH='"$(SYSTEM_IMAGE)"' -c $< -o $@

$(KERNEL_ELF): $(KERNEL_OBJS) $(SUPPORT_OBJS) kernel/kernel.ld
	@mkdir -p $(dir $@)
	@echo "  LD  $@"; $(CXX) $(SUPERVISOR_CXXFLAGS) -T kernel/kernel.ld -Wl,--gc-sections -o $@ $(KERNEL_OBJS) $(SUPPORT_OBJS) -lgcc
$(KERNEL_BIN): $(KERNEL_ELF)
	$(OBJCOPY) -O binary $< $@
$(FIRMWARE_ELF): $(FIRMWARE_OBJS) $(SUPPORT_OBJS) hal/firmware/firmware.ld
	@echo "  LD  $@"; $(CXX) $(SUPERVISOR_CXXFLAGS) -T hal/firmware/firmware.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments -o $@ $(FIRMWARE_OBJS) $(SUPPORT_OBJS) -lgcc
	@$(SIZE) $(KERNEL_ELF) $@
# The firmware's and the kernel's clock code (NVX_MODEL_TEXT_SECTION, nvx_abi.h): one
# "START-END" window per line, which nvx-run hands to the instruction counter.
$(MODEL_TEXT): $(FIRMWARE_ELF) $(KERNEL_ELF)
	@for elf in $^; do \
	    $(NM) $$elf | awk '$$3 == "__nvx_model_text_start" { s = $$1 } $$3 == "__nvx_model_text_end" { e = $$1 } \
	        END { if (s == "" || e == "") exit 1; print "0x" s "-0x" e }' || { echo "$$elf: no model text window" >&2; exit 1; }; \
	done >$@.tmp && mv $@.tmp $@

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
-include mk/host_tests.mk

clean:
	rm -rf $(addprefix $(BUILD_ROOT)/,$(ALL_BOARDS)) $(HOST_BUILD)

# --- host tools ---
$(BOARD_INFO): scripts/tools/board_info.cpp hal/board/board.hpp hal/board/boot_info.hpp kernel/options.hpp support/types.hpp kernel/abi/nvx_abi.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCXX $<"; $(HOSTCXX) -std=c++20 -O2 -Wall -Wextra -I. -o $@ $<
all: $(BOARD_INFO)
# The lists of boards mk/config.mk reads (make remakes it, then restarts).
$(BOARD_LIST): $(BOARD_INFO)
	@printf 'ALL_BOARDS := %s\nTESTED_BOARDS := %s\n' "$$($(BOARD_INFO) --list)" "$$($(BOARD_INFO) --tested)" >$@

$(ICOUNT_PLUGIN): scripts/tools/icount/nvxcount.cpp scripts/tools/icount/qemu_plugin_api.h kernel/abi/nvx_abi.h \
		runtime/include/nvx/icount_mark.h hal/board/board.hpp support/types.hpp
	@mkdir -p $(dir $@)
	@echo "  HOSTCXX $<"; $(HOSTCXX) -std=c++20 -O2 -Wall -Wextra -I. -shared -fPIC -fvisibility=hidden -o $@ $<
all: $(ICOUNT_PLUGIN)

# --- running ---
deps:
	scripts/deps.sh

# What make test-slurm needs beyond make deps: Slurm and munge (Debian's slurm-wlm, munge).
deps-slurm: deps
	scripts/install-packages.sh slurm-wlm munge

# The main job: a short CAP Bench weak-scaling sweep on the default board (run-sweep,
# mk/weak_scaling.mk): summary table on the terminal, CSV and plots in build/weak-scaling/.
run: run-sweep

# The demo: one line from every user hart of every compute cluster.
demo: deps
	$(MAKE) --no-print-directory all
	scripts/nvx-run --board $(BOARD) -np all $(USER_OUT)/hello.elf

# Every board's image and the user programs, then host and guest tests. CLOCK=wall (or
# virtual) runs every test that does not choose its clock itself under that clock.
test: deps
	for b in $(TESTED_BOARDS); do $(MAKE) --no-print-directory BOARD=$$b all || exit 1; done
	NVX_CLOCK=$(CLOCK) GUEST_INSN_LIMIT=$(GUEST_INSN_LIMIT) NVX_TEST_JOBS=$(TEST_JOBS) scripts/run-tests.sh

# The long soaks (tests/guest/cases-long.txt): 100,000 messages per LWMPI protocol and mode,
# both variants, and 10^6 messages of the 192-rank all-to-all stress.
test-long: deps
	for b in $(TESTED_BOARDS); do $(MAKE) --no-print-directory BOARD=$$b all || exit 1; done
	NVX_CLOCK=$(CLOCK) NVX_TEST_JOBS=$(TEST_JOBS) scripts/run-long-tests.sh

# weak-scaling --executor slurm on a one-node Slurm cluster the test starts on this host
# (tests/slurm/slurm_test.sh; as root): a short sweep as a job array, merged as a local one.
test-slurm: deps-slurm
	$(MAKE) --no-print-directory BOARD=small all
	tests/slurm/slurm_test.sh
