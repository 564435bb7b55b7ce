# User-space runtime: crt0.o and libnvxrt.a, plus the rules that build and link user
# programs against them and newlib. Included by the top Makefile after mk/config.mk.
#
# User code does not depend on the board: the runtime and user objects are built once,
# under $(BUILD_ROOT)/user. A user program:
#   HELLO_OBJS := $(USER_OBJ_DIR)/examples/hello/hello.o
#   $(eval $(call nvx_user_program,$(BUILD_ROOT)/user/hello.elf,$(HELLO_OBJS)))

# A fragment must not become the default goal: restored at the end of this file.
runtime_saved_default_goal := $(.DEFAULT_GOAL)

RUNTIME_BUILD := $(BUILD_ROOT)/user/runtime
USER_OBJ_DIR := $(BUILD_ROOT)/user/obj
RUNTIME_CRT0 := $(RUNTIME_BUILD)/crt0.o
RUNTIME_LIB := $(RUNTIME_BUILD)/libnvxrt.a
RUNTIME_SRCS := $(filter-out runtime/crt0.S,$(wildcard runtime/*.c runtime/*.cpp runtime/*.S))
RUNTIME_OBJS := $(patsubst runtime/%,$(RUNTIME_BUILD)/%.o,$(basename $(RUNTIME_SRCS)))

# What a user program's link needs to be up to date.
USER_RUNTIME := $(RUNTIME_CRT0) $(RUNTIME_LIB) runtime/user.ld $(wildcard runtime/globals/*/nvx_globals.ld)
# After the program's objects; a group because libc and the runtime call each other.
USER_LINK_LIBS := -Wl,--start-group $(RUNTIME_LIB) -lc -lm -lgcc -Wl,--end-group
USER_DEPFLAGS := -MMD -MP

# $(call nvx_globals,private|shared): where a link finds nvx_globals.ld: with `private` the
# program's globals are per rank (runtime/globals/private), else shared by its threads.
nvx_globals = $(if $(filter private,$(1)),$(USER_GLOBALS_PRIVATE),$(USER_GLOBALS_SHARED))

# $(call nvx_user_link,ELF,OBJECTS[,private]): the command that links a user program.
nvx_user_link = $(CC) $(USER_LDFLAGS) $(call nvx_globals,$(3)) $(RUNTIME_CRT0) $(2) $(USER_LINK_LIBS) -o $(1)

# $(eval $(call nvx_user_program,ELF,OBJECTS[,private])): the rule that links a user program.
define nvx_user_program
$(1): $(2) $(USER_RUNTIME)
	@mkdir -p $$(@D)
	$$(call nvx_user_link,$$@,$(2),$(3))
endef

.PHONY: runtime
runtime: $(USER_RUNTIME)

$(NEWLIB_STAMP): scripts/build-newlib.sh
	scripts/build-newlib.sh $(NEWLIB_PREFIX)

# Everything compiled for user space reads newlib's headers, hence $(NEWLIB_STAMP).
$(RUNTIME_BUILD)/%.o: runtime/%.c $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

$(RUNTIME_BUILD)/%.o: runtime/%.cpp $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(USER_CXXFLAGS) $(USER_DEPFLAGS) -c $< -o $@

$(RUNTIME_BUILD)/%.o: runtime/%.S $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

$(RUNTIME_LIB): $(RUNTIME_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# User program objects: $(USER_OBJ_DIR)/<path>.o from <path>.c, .cpp or .S.
$(USER_OBJ_DIR)/%.o: %.c $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

$(USER_OBJ_DIR)/%.o: %.cpp $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(USER_CXXFLAGS) $(USER_DEPFLAGS) -c $< -o $@

$(USER_OBJ_DIR)/%.o: %.S $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(USER_DEPFLAGS) -c $< -o $@

-include $(RUNTIME_OBJS:.o=.d) $(RUNTIME_CRT0:.o=.d)
-include $(shell find $(USER_OBJ_DIR) -name '*.d' 2>/dev/null)

.DEFAULT_GOAL := $(runtime_saved_default_goal)
