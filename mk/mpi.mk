# LWMPI: libmputil.a and libmpi.a for both variants (opt: local messages through shared
# memory; unopt: every message through mailboxes and portals), the mpicc/mpicxx
# configuration, and the rules that build MPI programs. Included by the top Makefile after
# mk/programs.mk. MPI_VARIANT (mk/config.mk) is the variant mpicc picks by default.
#
# An MPI program for one variant (objects compiled with the MPI flags):
#   OBJS := $(call lwmpi_objs,tests/mpi/ring.c)
#   $(eval $(call lwmpi_program,$(USER_OUT)/mpi/ring.elf,$(OBJS),opt))
# A fourth argument `shared` links it with globals shared by the ranks of a cluster.
mpi_saved_default_goal := $(.DEFAULT_GOAL)

MPI_VARIANTS := opt unopt
MPI_OUT := $(BUILD_ROOT)/user/mpi
MPI_OBJ := $(MPI_OUT)/obj
MPI_INCLUDES := -Ilibmpi/include -Imputil/include
MPI_CFLAGS := $(USER_CFLAGS) $(MPI_INCLUDES)
MPI_CXXFLAGS := $(USER_CXXFLAGS) $(MPI_INCLUDES)

MPUTIL_SRCS := $(filter-out mputil/variant_%.cpp,$(wildcard mputil/*.cpp))
LIBMPI_SRCS := $(wildcard libmpi/*.cpp libmpi/*.c)
MPUTIL_OBJS := $(patsubst %,$(MPI_OBJ)/%.o,$(basename $(MPUTIL_SRCS)))
LIBMPI_OBJS := $(patsubst %,$(MPI_OBJ)/%.o,$(basename $(LIBMPI_SRCS)))

# libmpi's own sources name their private headers "libmpi/x.hpp": they alone see a
# directory holding nothing but a link named libmpi to libmpi/ (user code sees no tree).
# A link left by a build tree copied from another checkout is made again (it must name
# this tree's libmpi/).
LIBMPI_VIEW := $(MPI_OUT)/libmpi-view
.PHONY: lwmpi-view-elsewhere
$(LIBMPI_VIEW)/libmpi: $(if $(filter-out $(abspath libmpi),$(realpath $(LIBMPI_VIEW)/libmpi)),lwmpi-view-elsewhere)
	@mkdir -p $(@D)
	ln -sfn $(abspath libmpi) $@
$(LIBMPI_OBJS): | $(LIBMPI_VIEW)/libmpi
$(LIBMPI_OBJS): MPI_CFLAGS += -I$(LIBMPI_VIEW)
$(LIBMPI_OBJS): MPI_CXXFLAGS += -I$(LIBMPI_VIEW)

# Every function and object of the libraries in a section of its own, so that programs,
# linked with --gc-sections, carry only what they use: entries.o names every implementation.
MPI_LIB_SECTIONS := -ffunction-sections -fdata-sections
MPI_LIB_OBJS := $(LIBMPI_OBJS) $(MPUTIL_OBJS) $(MPI_OBJ)/mputil/variant_opt.o $(MPI_OBJ)/mputil/variant_unopt.o
$(MPI_LIB_OBJS): MPI_CXXFLAGS += $(MPI_LIB_SECTIONS)
$(MPI_LIB_OBJS): mk/mpi.mk
MPI_PROGRAM_LDFLAGS := -Wl,--gc-sections

# $(call lwmpi_lib_dir,VARIANT), and the libraries an MPI program links, in order: libmpi
# over libmputil over the runtime (whose weak nvx_program_main libmputil replaces).
lwmpi_lib_dir = $(MPI_OUT)/$(1)
lwmpi_libs = $(MPI_OUT)/$(1)/libmpi.a $(MPI_OUT)/$(1)/libmputil.a
lwmpi_link_libs = -Wl,--start-group $(call lwmpi_libs,$(1)) $(RUNTIME_LIB) $(SERVICES_LIB) -lc -lm -lgcc -Wl,--end-group

# $(call lwmpi_objs,SOURCES): objects of MPI program sources (.c or .cpp).
lwmpi_objs = $(patsubst %,$(MPI_OBJ)/prog/%.o,$(basename $(1)))

# $(eval $(call lwmpi_program,ELF,OBJECTS,VARIANT[,shared])): the rule that links an MPI program.
define lwmpi_program
$(1): $(2) $(USER_RUNTIME) $(call lwmpi_libs,$(3))
	@mkdir -p $$(@D)
	$(CC) $(USER_LDFLAGS) $(MPI_PROGRAM_LDFLAGS) $(call nvx_globals,$(or $(4),private)) $(RUNTIME_CRT0) $(2) $(call lwmpi_link_libs,$(3)) -o $$@
endef

$(MPI_OBJ)/%.o: %.cpp $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(MPI_CXXFLAGS) $(USER_DEPFLAGS) -c $< -o $@
$(MPI_OBJ)/%.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@
$(MPI_OBJ)/prog/%.o: %.cpp $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(MPI_CXXFLAGS) $(USER_DEPFLAGS) -c $< -o $@
$(MPI_OBJ)/prog/%.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

# mpicc/mpicxx read their compilers, flags and libraries from here, so that this file stays
# the one source of truth for them. Paths in the build tree are written @BUILD@/..., those in
# the source tree @ROOT@/...: mpicc puts in the trees it finds from its own location, so the
# file holds wherever the trees are (a copied or moved checkout, mpicc through a symlink).
# mpicc adds no warning options to the program's own (as MPICH's and Open MPI's do not).
MPI_WRAPPER_DROP := -Wall -Wextra
mpi_conf_path = $(patsubst $(CURDIR)/%,@ROOT@/%,$(patsubst $(abspath $(BUILD_ROOT))/%,@BUILD@/%,$(abspath $(1))))
mpi_conf_word = $(if $(filter -I%,$(1)),-I$(call mpi_conf_path,$(1:-I%=%)),$(if $(filter -L%,$(1)),-L$(call mpi_conf_path,$(1:-L%=%)),$(if $(and $(filter-out -%,$(1)),$(findstring /,$(1))),$(call mpi_conf_path,$(1)),$(1))))
mpi_conf_flags = $(foreach f,$(1),$(call mpi_conf_word,$(f)))

define lwmpi_variant_rules
$(MPI_OUT)/$(1)/libmputil.a: $(MPUTIL_OBJS) $(MPI_OBJ)/mputil/variant_$(1).o
	@mkdir -p $$(@D)
	rm -f $$@
	$(AR) rcs $$@ $$^
$(MPI_OUT)/$(1)/libmpi.a: $(LIBMPI_OBJS)
	@mkdir -p $$(@D)
	rm -f $$@
	$(AR) rcs $$@ $$^
$(MPI_OUT)/$(1)/mpicc.conf: mk/mpi.mk mk/config.mk
	@mkdir -p $$(@D)
	@printf '%s\n' \
	  "MPI_CC='$(CC)'" "MPI_CXX='$(CXX)'" \
	  "MPI_CFLAGS='$(call mpi_conf_flags,$(filter-out $(MPI_WRAPPER_DROP),$(MPI_CFLAGS)))'" \
	  "MPI_CXXFLAGS='$(call mpi_conf_flags,$(filter-out $(MPI_WRAPPER_DROP),$(MPI_CXXFLAGS)))'" \
	  "MPI_LDFLAGS='$(call mpi_conf_flags,$(USER_LDFLAGS) $(MPI_PROGRAM_LDFLAGS) $(USER_GLOBALS_PRIVATE))'" \
	  "MPI_CRT0='$(call mpi_conf_flags,$(RUNTIME_CRT0))'" \
	  "MPI_LIBS='$(call mpi_conf_flags,$(call lwmpi_link_libs,$(1)))'" \
	  > $$@
lwmpi: $(MPI_OUT)/$(1)/libmputil.a $(MPI_OUT)/$(1)/libmpi.a $(MPI_OUT)/$(1)/mpicc.conf
endef

.PHONY: lwmpi
$(foreach v,$(MPI_VARIANTS),$(eval $(call lwmpi_variant_rules,$(v))))
$(MPI_OUT)/default-variant: mk/config.mk
	@mkdir -p $(@D)
	@echo $(MPI_VARIANT) > $@
lwmpi: $(MPI_OUT)/default-variant $(USER_RUNTIME)
user-programs: lwmpi

# mputil's guest tests (tests/guest/mputil_*.cpp): NAME.elf (opt) and NAME_unopt.elf.
MPUTIL_GUEST_TESTS := $(basename $(notdir $(wildcard tests/guest/mputil_*.cpp)))
# White-box tests of the transport, written for globals shared by a cluster's ranks (64
# ranks, 16 a cluster, leave no room for their private copies).
$(foreach t,$(MPUTIL_GUEST_TESTS),$(eval $(call lwmpi_program,$(USER_OUT)/$(t).elf,$(call lwmpi_objs,tests/guest/$(t).cpp),opt,shared)))
$(foreach t,$(MPUTIL_GUEST_TESTS),$(eval $(call lwmpi_program,$(USER_OUT)/$(t)_unopt.elf,$(call lwmpi_objs,tests/guest/$(t).cpp),unopt,shared)))
MPUTIL_GUEST_ELFS := $(foreach t,$(MPUTIL_GUEST_TESTS),$(USER_OUT)/$(t).elf $(USER_OUT)/$(t)_unopt.elf)
USER_PROGRAMS += $(MPUTIL_GUEST_ELFS)
user-programs: $(MPUTIL_GUEST_ELFS)

-include $(shell find $(MPI_OBJ) -name '*.d' 2>/dev/null)

.DEFAULT_GOAL := $(mpi_saved_default_goal)
