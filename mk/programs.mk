# User programs: the demo and the guest test programs. They do not depend on the board,
# so they are built once into build/user/ and run on any board.
USER_OUT := $(BUILD_ROOT)/user
# cap_comm_test is linked with a CAP Bench communication layer (benchmarks/capbench/ipc.mk).
GUEST_TESTS := $(filter-out cap_comm_test,$(basename $(notdir $(wildcard tests/guest/*.c))))
USER_PROGRAMS := $(USER_OUT)/hello.elf $(patsubst %,$(USER_OUT)/%.elf,$(GUEST_TESTS))

$(eval $(call nvx_user_program,$(USER_OUT)/hello.elf,$(USER_OBJ_DIR)/examples/hello/hello.o))
$(foreach t,$(GUEST_TESTS),$(eval $(call nvx_user_program,$(USER_OUT)/$(t).elf,$(USER_OBJ_DIR)/tests/guest/$(t).o)))

# W^X test: the same program layout with the data segment writable and executable, which
# exec must refuse (test wx_segment). The link script is runtime/user.ld with that one flag.
$(USER_OUT)/wx_segment.ld: runtime/user.ld
	@mkdir -p $(@D)
	sed 's/^\( *data PT_LOAD\) FLAGS(6);/\1 FLAGS(7);/' $< >$@
	grep -q 'data PT_LOAD FLAGS(7)' $@
$(USER_OUT)/wx_segment.elf: $(USER_OBJ_DIR)/tests/guest/wx/wx_segment.o $(USER_RUNTIME) $(USER_OUT)/wx_segment.ld
	$(CC) $(subst runtime/user.ld,$(USER_OUT)/wx_segment.ld,$(USER_LDFLAGS)) $(USER_GLOBALS_SHARED) -Wl,--no-warn-rwx-segments $(RUNTIME_CRT0) $< $(USER_LINK_LIBS) -o $@
USER_PROGRAMS += $(USER_OUT)/wx_segment.elf

.PHONY: user-programs
user-programs: $(USER_PROGRAMS)
