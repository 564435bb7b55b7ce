# User programs: the demo and the guest test programs. They do not depend on the board,
# so they are built once into build/user/ and run on any board.
USER_OUT := $(BUILD_ROOT)/user
# cap_comm_test is linked with a CAP Bench communication layer (benchmarks/capbench/ipc.mk).
GUEST_TESTS := $(filter-out cap_comm_test,$(basename $(notdir $(wildcard tests/guest/*.c))))
USER_PROGRAMS := $(USER_OUT)/hello.elf $(patsubst %,$(USER_OUT)/%.elf,$(GUEST_TESTS))

$(eval $(call nvx_user_program,$(USER_OUT)/hello.elf,$(USER_OBJ_DIR)/examples/hello/hello.o))
$(foreach t,$(GUEST_TESTS),$(eval $(call nvx_user_program,$(USER_OUT)/$(t).elf,$(USER_OBJ_DIR)/tests/guest/$(t).o)))

.PHONY: user-programs
user-programs: $(USER_PROGRAMS)
