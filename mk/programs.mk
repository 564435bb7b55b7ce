# User programs: the demo and the guest test programs. They do not depend on the board,
# so they are built once into build/user/ and run on any board.
USER_OUT := $(BUILD_ROOT)/user
GUEST_TESTS := $(basename $(notdir $(wildcard tests/guest/*.c)))
USER_PROGRAMS := $(USER_OUT)/hello.elf $(patsubst %,$(USER_OUT)/%.elf,$(GUEST_TESTS))

$(eval $(call nvx_user_program,$(USER_OUT)/hello.elf,$(USER_OUT)/obj/examples/hello/hello.o))
$(foreach t,$(GUEST_TESTS),$(eval $(call nvx_user_program,$(USER_OUT)/$(t).elf,$(USER_OUT)/obj/tests/guest/$(t).o)))

$(USER_OUT)/obj/%.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	@echo "  CC  $<"; $(CC) $(USER_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

.PHONY: user-programs
user-programs: $(USER_PROGRAMS)

-include $(shell find $(USER_OUT) -name '*.d' 2>/dev/null)
