# LWMPI's guest tests (tests/mpi/*.c; tests/mpi_suite/*.c, small programs in the style of
# the MPI test suites, each printing "No Errors"), the user-style programs (tests/mpi_user/*.c, *.cpp),
# the examples (examples/mpi/*.c) and the benchmarks (benchmarks/mpi/*.c), each built for both
# variants: build/user/mpiprog/NAME.elf (opt) and NAME_unopt.elf. Included by the top Makefile
# after mk/mpi.mk (lwmpi_program, lwmpi_objs).
MPI_PROG_OUT := $(USER_OUT)/mpiprog
MPI_PROG_SRCS := $(wildcard tests/mpi/*.c tests/mpi_suite/*.c tests/mpi_user/*.c tests/mpi_user/*.cpp examples/mpi/*.c benchmarks/mpi/*.c)
mpi_prog_name = $(basename $(notdir $(1)))

$(foreach s,$(MPI_PROG_SRCS),$(eval $(call lwmpi_program,$(MPI_PROG_OUT)/$(call mpi_prog_name,$(s)).elf,$(call lwmpi_objs,$(s)),opt)))
$(foreach s,$(MPI_PROG_SRCS),$(eval $(call lwmpi_program,$(MPI_PROG_OUT)/$(call mpi_prog_name,$(s))_unopt.elf,$(call lwmpi_objs,$(s)),unopt)))
MPI_PROG_ELFS := $(foreach s,$(MPI_PROG_SRCS),$(MPI_PROG_OUT)/$(call mpi_prog_name,$(s)).elf $(MPI_PROG_OUT)/$(call mpi_prog_name,$(s))_unopt.elf)
# The private-globals check linked as mpicc -shared-globals links: it then checks the sharing.
$(eval $(call lwmpi_program,$(MPI_PROG_OUT)/globals_shared.elf,$(call lwmpi_objs,tests/mpi_suite/globals_private.c),opt,shared))
$(eval $(call lwmpi_program,$(MPI_PROG_OUT)/globals_shared_unopt.elf,$(call lwmpi_objs,tests/mpi_suite/globals_private.c),unopt,shared))
MPI_PROG_ELFS += $(MPI_PROG_OUT)/globals_shared.elf $(MPI_PROG_OUT)/globals_shared_unopt.elf

.PHONY: mpi-programs
mpi-programs: $(MPI_PROG_ELFS)
user-programs: mpi-programs

# LWMPI benchmarks: ping-pong against raw IKC, collectives at 12 and 192 ranks.
.PHONY: bench-mpi
bench-mpi: mpi-programs
	benchmarks/mpi/bench.sh

# LWMPI's own memory on one compute cluster of mppa256 and mppa256-xl (1, 4, 12 ranks; opt and unopt).
.PHONY: bench-mpi-memory
bench-mpi-memory: mpi-programs
	benchmarks/mpi/memory.sh
