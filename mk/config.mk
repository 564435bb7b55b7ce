# Build configuration: every flag and variant choice lives here, nowhere else.

BOARD ?= small
BUILD_ROOT := build
HOSTCXX := g++

# The boards come from the board table (hal/board/board.hpp) through the host tool
# board-info: make builds it and the list below first (rules in the Makefile), then
# restarts with ALL_BOARDS (every board) and TESTED_BOARDS (built and tested by `make test`).
BOARD_INFO := $(BUILD_ROOT)/tools/board-info
BOARD_LIST := $(BUILD_ROOT)/tools/boards.mk
-include $(BOARD_LIST)
ifneq ($(ALL_BOARDS),)
ifeq ($(filter $(BOARD),$(ALL_BOARDS)),)
$(error unknown BOARD '$(BOARD)': choose one of $(ALL_BOARDS))
endif
endif

BUILD := $(BUILD_ROOT)/$(BOARD)
HOST_BUILD := $(BUILD_ROOT)/host

# newlib is board independent: built once for rv64gc/lp64d.
NEWLIB_PREFIX := $(BUILD_ROOT)/newlib
NEWLIB_STAMP := $(NEWLIB_PREFIX)/.built
NEWLIB_INC := $(NEWLIB_PREFIX)/riscv64-unknown-elf/include
NEWLIB_LIB := $(NEWLIB_PREFIX)/riscv64-unknown-elf/lib

CROSS := riscv64-unknown-elf-
CC := $(CROSS)gcc
CXX := $(CROSS)g++
AR := $(CROSS)ar
OBJCOPY := $(CROSS)objcopy
SIZE := $(CROSS)size
NM := $(CROSS)nm

# The board table is chosen by one flag; code reads it as nvx::board::kBoard (a board
# named a-b is the table entry k_a_b).
BOARD_FLAG := -DNVX_BOARD_TABLE=nvx::board::k_$(subst -,_,$(BOARD))

# No frame pointers (-O2 omits them): a debugger unwinds with -g's call-frame information,
# and keeping them cost every firmware and kernel function three instructions (about 40 of
# a forwarded kernel call).
COMMON_FLAGS := -O2 -g -Wall -Wextra -ffreestanding -fno-common -mcmodel=medany \
	-ffunction-sections -fdata-sections -I. $(BOARD_FLAG)
FREESTANDING_CXX := -std=c++20 -fno-exceptions -fno-rtti -fno-threadsafe-statics \
	-fno-use-cxa-atexit -nostdinc++ -Wno-missing-field-initializers

# Firmware and kernel never touch FP registers (except the kernel's explicit FP context
# save/restore, assembled with FP enabled), so they use the soft-float ABI.
SUPERVISOR_ARCH := -march=rv64imac_zicsr_zifencei -mabi=lp64
SUPERVISOR_CXXFLAGS := $(COMMON_FLAGS) $(FREESTANDING_CXX) $(SUPERVISOR_ARCH) -nostdlib \
	-mno-relax -fno-pic -fno-pie
SUPERVISOR_ASFLAGS := $(SUPERVISOR_ARCH) -I. $(BOARD_FLAG)

# User programs: rv64gc/lp64d, newlib, our runtime.
USER_ARCH := -march=rv64gc -mabi=lp64d
# User code sees only the interfaces meant for it, never the tree (no -I.): the runtime's
# and the services' headers and the kernel's ABI (<nvx_abi.h>). A library adds its own
# private directory for its own sources only (services/services.mk, mk/mpi.mk).
USER_INCLUDES := -Iruntime/include -Iservices/include -Ikernel/abi
USER_CFLAGS := -O2 -g -Wall -Wextra -mcmodel=medany $(USER_ARCH) $(USER_INCLUDES) \
	-isystem $(NEWLIB_INC)
# newlib declares clock_gettime, nanosleep, clock_nanosleep and CLOCK_MONOTONIC only for
# these POSIX options; runtime/posix.c provides them.
USER_CFLAGS += -D_POSIX_TIMERS=200809L -D_POSIX_MONOTONIC_CLOCK=200809L -D_POSIX_CLOCK_SELECTION=200809L
USER_CXXFLAGS := $(USER_CFLAGS) $(FREESTANDING_CXX)
USER_LDFLAGS := $(USER_ARCH) -nostdlib -static -T runtime/user.ld -L$(NEWLIB_LIB)
# Where runtime/user.ld finds nvx_globals.ld: MPI programs get rank-private globals unless
# built with mpicc -shared-globals; other programs have none.
USER_GLOBALS_PRIVATE := -Lruntime/globals/private
USER_GLOBALS_SHARED := -Lruntime/globals/shared

QEMU := qemu-system-riscv64
# Guest tests: a case's limit in guest instructions (all harts together) unless its line
# states one (--insn-limit), and the cases run at once: make's -j N, else the host's cores.
GUEST_INSN_LIMIT ?= 5G
TEST_JOBS = $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$(shell nproc))
# The clock of `make test`'s runs that do not choose one (README "The virtual clock"):
# empty = nvx-run's default (virtual wherever the plugin is built), or virtual / wall.
CLOCK ?=

# LWMPI: the variant scripts/mpicc builds against by default (both are always built):
# opt (local messages through shared memory) or unopt (everything through IKC).
MPI_VARIANT ?= opt
ifeq ($(filter $(MPI_VARIANT),opt unopt),)
$(error unknown MPI_VARIANT '$(MPI_VARIANT)': choose opt or unopt)
endif
